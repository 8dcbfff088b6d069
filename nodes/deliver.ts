/**
 * deliver: the final summary (seed 003 §4.6). The deliver model writes it;
 * when the model fails, a mechanical summary lists each step with its status
 * (the named fallback `mechanicalSummary`).
 */
import { AIMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { PlanStep, TempoState, TempoUpdate } from "../graphs/state.js";
import { messageText } from "../models/invoke-contract.js";
import { modelFor } from "../models/stage-models.js";
import { DELIVER_STAGE_PROMPT } from "../prompts/deliver.js";
import { buildStageMessages } from "../prompts/stage-messages.js";
import { emit, emitAssistantText } from "../streaming/events.js";
import type { NodeDependencies } from "./dependencies.js";
import { newId, now } from "./messages.js";

/** Builds the deliver node. */
export function createDeliverNode(dependencies: NodeDependencies) {
  return async function deliver(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    emit(config, { kind: "status", node: "deliver", text: "Summarising" });
    let summary: string;
    let messageId = newId("ai");
    let lastError = state.lastError;
    try {
      const reply = await modelFor(dependencies.models, "deliver").invoke(
        buildStageMessages({
          stagePrompt: DELIVER_STAGE_PROMPT,
          conversation: state.messages.slice(-12),
          context: { requirement: state.goal },
          stageState: `${stepReport(state.planSteps)}${state.lastError ? `\nNote: ${state.lastError}` : ""}`,
          instruction: "Write the final summary now.",
        }),
        config,
      );
      summary = messageText(reply).trim();
      if (summary === "") throw new Error("the deliver model returned an empty summary");
      // The summary streamed token by token under the reply's id: the stored message keeps it, so a UI shows it
      // once — unless a server reuses ids, when a fresh one keeps earlier messages from being replaced.
      if (reply.id && !state.messages.some((message) => message.id === reply.id)) messageId = reply.id;
    } catch (error) {
      summary = mechanicalSummary(state);
      lastError = `The deliver model failed (${error instanceof Error ? error.message : String(error)}); a mechanical summary was given.`;
    }
    const message = new AIMessage({ id: messageId, content: summary });
    emitAssistantText(config, "deliver", message.id!, summary);
    return {
      messages: [message],
      finalAnswer: summary,
      lastError,
      phase: "done",
      currentStepId: null,
      pending: null,
      pendingAnswer: null,
      approvedTool: null,
      workspaceMessageIds: [],
      updatedAt: now(),
    };
  };
}

/** Each step with its status and summary, one per line. */
function stepReport(plan: PlanStep[]): string {
  return plan.map((step, index) => `${index + 1}. [${step.status}] ${step.content}${step.summary ? ` — ${step.summary}` : ""}`).join("\n");
}

/** The fallback summary: the goal and each step with its status. */
export function mechanicalSummary(state: Pick<TempoState, "goal" | "planSteps" | "lastError">): string {
  const done = state.planSteps.filter((step) => step.status === "done").length;
  const lines = [`Task: ${state.goal}`, `Finished ${done} of ${state.planSteps.length} steps:`, stepReport(state.planSteps)];
  if (state.lastError) lines.push(`Note: ${state.lastError}`);
  return lines.join("\n");
}
