/**
 * deliver: the answer for an ended task (docs/design.md#deliver), honest by
 * construction. The task's real outcome is reported first (`buildTaskReport`:
 * steps done, steps left and why, the domain's items still open by name);
 * the deliver model may phrase it, but its text is checked against the
 * report (`overclaim`), and the factual summary (`mechanicalSummary`) is
 * given instead when the model claims more than happened or fails.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import type { TempoState, TempoUpdate } from "../../graphs/state.js";
import { answerMessage, deliver as deliverAnswer } from "../../graphs/transitions.js";
import { messageText } from "../../contracts/message-text.js";
import { emitReasoning, watchModelCall } from "../../models/model-call.js";
import { modelFor } from "../../models/stage-models.js";
import { DELIVER_STAGE_PROMPT } from "../../prompts/deliver.js";
import { buildStageMessages } from "../../prompts/stage-messages.js";
import { emit, emitAssistantText } from "../../streaming/events.js";
import type { OpenItem } from "../../tools/domain.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { buildTaskReport, mechanicalSummary, overclaim, type TaskReport } from "./task-report.js";

export { mechanicalSummary } from "./task-report.js";

/** Builds the deliver node. */
export function createDeliverNode(dependencies: NodeDependencies) {
  /** The domain's open items now, or undefined for a domain without them. */
  async function openItemsNow(config: LangGraphRunnableConfig): Promise<OpenItem[] | undefined> {
    const { domain } = dependencies;
    if (!domain.openItems) return undefined;
    return domain.openItems(await domain.load(ensureConfiguration(config, dependencies.settings).userId));
  }

  return async function deliver(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    emit(config, { kind: "status", node: "deliver", text: "Summarising" });
    const report = buildTaskReport(state, await openItemsNow(config), state.openItemsAtStart ?? undefined);
    const factual = mechanicalSummary(report);
    let summary: string;
    let messageId: string | undefined;
    let lastError = state.lastError;
    try {
      const phrased = await phrase(state, report, factual, config);
      summary = phrased.text;
      // The summary streamed token by token under the reply's id: the stored message keeps it, so a UI shows it
      // once — unless a server reuses ids, when a fresh one keeps earlier messages from being replaced.
      if (phrased.id && !state.messages.some((message) => message.id === phrased.id)) messageId = phrased.id;
      const problem = overclaim(summary, report);
      if (problem) {
        // The named fallback: the model claimed more than happened, so the facts are given as they are.
        emit(config, { kind: "status", node: "deliver", text: `The summary was replaced by the facts: ${problem}` });
        summary = factual;
      }
    } catch (error) {
      summary = factual;
      lastError = `The deliver model failed (${error instanceof Error ? error.message : String(error)}); a mechanical summary was given.`;
    }
    const message = answerMessage(summary, messageId);
    emitAssistantText(config, "deliver", message.id!, summary);
    return deliverAnswer(state, message, report.outcome, lastError);
  };

  async function phrase(state: TempoState, report: TaskReport, factual: string, config: LangGraphRunnableConfig): Promise<{ text: string; id?: string }> {
    const model = modelFor(dependencies.models, "deliver");
    const messages = buildStageMessages({
      stagePrompt: DELIVER_STAGE_PROMPT,
      conversation: state.messages.slice(-12),
      context: { requirement: state.goal },
      stageState: `Outcome: ${report.outcome.kind} — ${report.outcome.reason}\n${factual}`,
      instruction:
        report.outcome.kind === "completed"
          ? "Write the final summary now."
          : "Write the final summary now. The task did not fully succeed: say what was done, what was left and why, and name every item still pending.",
    });
    // Told while slow, its reasoning streamed as its own block; a failure is not classified: it becomes the facts.
    const reply = await watchModelCall(model, "deliver", config, () => model.invoke(messages, config), { classify: false });
    emitReasoning(config, "deliver", reply);
    const text = messageText(reply).trim();
    if (text === "") throw new Error("the deliver model returned an empty summary");
    return { text, id: reply.id };
  }
}
