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
import { promptMessages, type TempoState, type TempoUpdate } from "../../kernel/state.js";
import { answerMessage, deliver as deliverAnswer } from "../../kernel/transitions.js";
import { extractJsonObject } from "../../contracts/json-extraction.js";
import { languageOf } from "../../contracts/language.js";
import { shownSummary } from "../../kernel/plan-step.js";
import { messageText } from "../../contracts/message-text.js";
import { fitStagePrompt, watchModelCall } from "../../models/model-call.js";
import { modelFor } from "../../models/stage-models.js";
import { DELIVER_STAGE_PROMPT } from "../../prompts/deliver.js";
import { preferencesContext } from "../../memory/prompt-memory.js";
import { buildStageMessages } from "../../prompts/stage-messages.js";
import { stageNow } from "../shared/now.js";
import { emitAssistantText, emitStatus } from "../../streaming/events.js";
import { atRiskNow } from "../shared/at-risk-now.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import {
  buildTaskReport,
  mechanicalSummary,
  overclaim,
  unchangedJudged,
  declinedWrites,
  type TaskReport,
} from "./task-report.js";
import { cardDecisions, decisionsLine } from "../../review/card-answers.js";
import { readWriteFacts, taskMessages, type WriteFact, type WriteFacts } from "../../review/write-facts.js";
import { pushWeekNow } from "../shared/week-ui.js";
import { stateAsRun } from "../shared/live-state.js";
import { verifiedItems, type OpenItem, type ToolDomain } from "../../tools/domain.js";

export { mechanicalSummary } from "./task-report.js";

/**
 * `items` each marked when it could be closed as the data stands (the domain's `placing.stillFit`, judged on the state
 * as the run's tools see it, which `asRun` gives), for the reasons told.
 */
async function withFitsNow<TState>(
  domain: ToolDomain<TState>,
  asRun: () => Promise<TState>,
  items: OpenItem[],
): Promise<OpenItem[]> {
  const verification = domain.verification;
  const stillFit = verification?.placing?.stillFit;
  if (!stillFit || items.length === 0) return items;
  const fitting = new Set(stillFit(await asRun()));
  // Its ids are its own domain's (with several served): another domain's item of the same id is not one of them.
  const ours = new Set(verifiedItems(verification, items));
  return items.map((item) => (ours.has(item) && fitting.has(item.id) ? { ...item, fitsNow: true } : item));
}

/** Builds the deliver node. */
export function createDeliverNode(dependencies: NodeDependencies) {
  return async function deliver(state: TempoState, config: LangGraphRunnableConfig): Promise<TempoUpdate> {
    const { domain } = dependencies;
    const { threadId, userId } = ensureConfiguration(config, dependencies.settings);
    const data = domain.readable || domain.changesLine || domain.openItems ? await domain.load(userId) : undefined;
    const judged = buildTaskReport(
      state,
      data !== undefined && domain.openItems
        ? await withFitsNow(
            domain,
            async () => stateAsRun(state, dependencies, config, async () => data),
            domain.openItems(data),
          )
        : undefined,
      state.openItemsAtStart ?? undefined,
    );
    // What the writes did (the log's record, and the tool messages': `readWriteFacts`): told for a task that did not
    // complete (`mechanicalSummary`), judged for one that applied nothing (`unchangedOutcome`), and where they left
    // things (`changesLine`).
    // (A task never reaches deliver with approved writes waiting: execute applies an answered card's calls first.)
    const language = languageOf(state.messages);
    const writes = await readWriteFacts(state, domain, dependencies.executionLog, threadId, userId, language);
    const outcome = unchangedJudged(
      { record: judged.outcome, said: judged.said ?? { key: "note", text: judged.outcome.reason } },
      state.planSteps,
      state,
      {
        applied: writes.applied.length,
        declined: declinedWrites(taskMessages(state)),
      },
    );
    const built =
      outcome.record === judged.outcome ? judged : { ...judged, outcome: outcome.record, said: outcome.said };
    const report = built.outcome.kind !== "completed" ? { ...built, writes } : built;
    const factual = mechanicalSummary(report);
    // The facts as the user reads them, said in their language from the report (the model is given them in English),
    // with names and dates for the tools' ids and indices.
    const readable = (text: string) =>
      data !== undefined && domain.readable ? domain.readable(data, text, language) : text;
    const told = readable(language === "en" ? factual : mechanicalSummary(reportIn(report), language));
    /** The report with the tools' words (step summaries, writes, reasons beside an item) in the user's language. */
    function reportIn(english: TaskReport & { writes?: WriteFacts }): TaskReport & { writes?: WriteFacts } {
      const tell = (text: string) => domain.stepSummary?.(text, language) ?? text;
      const writes = (list: WriteFact[]) => list.map((write) => ({ ...write, summary: tell(write.summary) }));
      return {
        ...english,
        planSteps: english.planSteps.map((step) =>
          step.summary ? { ...step, summary: tell(shownSummary(step) ?? step.summary) } : step,
        ),
        stillOpen: english.stillOpen.map((item) => ({ ...item, why: reasonIn(item.why, tell) })),
        ...(english.writes
          ? {
              writes: {
                applied: writes(english.writes.applied),
                approvedNotApplied: writes(english.writes.approvedNotApplied),
              },
            }
          : {}),
      };
    }
    let summary: string;
    let messageId: string | undefined;
    let lastError = state.lastError;
    try {
      // A completed task the execute model already answered (done's answer) needs no second model call.
      const closing = report.outcome.kind === "completed" ? state.closingWords?.trim() : undefined;
      const phrased = closing ? { text: closing, id: undefined } : await phrase(state, report, factual, config);
      summary = phrased.text;
      // The summary streamed token by token under the reply's id: the stored message keeps it, so a UI shows it
      // once — unless a server reuses ids, when a fresh one keeps earlier messages from being replaced.
      if (phrased.id && !state.messages.some((message) => message.id === phrased.id)) messageId = phrased.id;
      const problem = overclaim(summary, report);
      if (problem) {
        // The named fallback: the model claimed more than happened, so the facts are given as they are.
        emitStatus(
          config,
          "deliver",
          state.messages,
          `The summary was replaced by the facts: ${problem}`,
          "总结说的比实际做的多，已换成实际结果",
        );
        summary = told;
      }
    } catch (error) {
      summary = told;
      lastError = `The deliver model failed (${error instanceof Error ? error.message : String(error)}); a mechanical summary was given.`;
    }
    summary = readable(summary);
    // Where the task's writes left things, once (an answer that already names each place needs no list).
    const where =
      data !== undefined
        ? domain.changesLine?.(
            data,
            writes.applied.flatMap((write) => write.result ?? []),
            language,
            summary,
          )
        : undefined;
    if (where && !summary.includes(where)) summary = `${summary}\n\n${where}`;
    // The user's own decisions on the cards (edits, writes left out) are named, whoever phrased the answer.
    const decisions = decisionsLine(cardDecisions(taskMessages(state)), language);
    if (decisions && !summary.includes(decisions)) summary = `${summary}\n\n${decisions}`;
    // What the task's writes put at risk (a deadline the time left cannot hold), told in the turn that made it so.
    const risk =
      writes.applied.length > 0 && data !== undefined
        ? atRiskNow(dependencies, config, data, language, state.atRiskTold)
        : undefined;
    if (risk?.text && !summary.includes(risk.text)) summary = `${summary}\n\n${risk.text}`;
    // What a card answered after its time left undone, when no card since has said it.
    if (state.outlivedCard && !summary.includes(state.outlivedCard)) summary = `${state.outlivedCard}\n\n${summary}`;
    // What the clock moved at the start of the request (the window rolled on to the week of now) comes first.
    if (state.movedOn && !summary.includes(state.movedOn)) summary = `${state.movedOn}\n\n${summary}`;
    summary = withParagraphBreaks(summary);
    const message = answerMessage(summary, messageId);
    emitAssistantText(config, "deliver", message.id!, summary);
    await pushWeekNow(dependencies, config, state, message, data);
    const answered = deliverAnswer(state, message, report.outcome, lastError);
    return risk ? { ...answered, atRiskTold: risk.ids } : answered;
  };

  async function phrase(
    state: TempoState,
    report: TaskReport,
    factual: string,
    config: LangGraphRunnableConfig,
  ): Promise<{ text: string; id?: string }> {
    // Said only when a model is asked: a task the execute model already answered is told at once.
    emitStatus(config, "deliver", state.messages, "Summarising", "正在总结");
    const model = modelFor(dependencies.models, "deliver");
    const messages = buildStageMessages({
      stagePrompt: DELIVER_STAGE_PROMPT,
      conversation: promptMessages(state).slice(-12),
      context: {
        requirement: state.goal,
        ...preferencesContext(state.recalled, dependencies.settings.context.promptBudget.deliver / 10),
      },
      stageState: `Outcome: ${report.outcome.kind} — ${report.outcome.reason}\n${factual}`,
      instruction:
        report.outcome.kind === "completed"
          ? "Write the final summary now."
          : "Write the final summary now. The task did not fully succeed: say what was done, what was left and why, and name every item still pending.",
      now: await stageNow(dependencies, config),
    });
    // Told while slow, its reasoning streamed as its own block; a failure is not classified: it becomes the facts.
    const reply = await watchModelCall(
      model,
      "deliver",
      config,
      () => model.invoke(fitStagePrompt(dependencies.models, "deliver", messages, config), config),
      { classify: false },
    );
    const text = plainText(messageText(reply).trim());
    if (text === "") throw new Error("the deliver model returned an empty summary");
    return { text, id: reply.id };
  }
}

/**
 * The summary as plain text: a model that answered with a JSON object anyway (`{"summary": "…"}`, fenced or not) is
 * read for its one text field, so a person never reads raw JSON; other text is kept as it is.
 */
export function plainText(text: string): string {
  if (!/^(?:```(?:json)?\s*)?\{/.test(text)) return text;
  const object = extractJsonObject(text);
  if (!object || typeof object !== "object") return text;
  const fields = Object.values(object as Record<string, unknown>).filter(
    (value): value is string => typeof value === "string" && value.trim() !== "",
  );
  const preferred = ["summary", "answer", "text", "message", "content", "final_answer"]
    .map((key) => (object as Record<string, unknown>)[key])
    .find((value) => typeof value === "string" && value.trim() !== "");
  return ((preferred as string | undefined) ?? (fields.length === 1 ? fields[0]! : "")).trim();
}

/**
 * Why an item is still open in the user's language: the report's own reasons are said by `mechanicalSummary`; a reason
 * a step's summary gave beside the item ("your standing preference … rules out …", "another session of …") is said as
 * the domain says it in brackets (`tell`, its `stepSummary`).
 */
function reasonIn(why: string, tell: (text: string) => string): string {
  const bracketed = /^[（(](.*)[）)]$/s.exec(tell(` (${why})`).trim())?.[1];
  return bracketed ?? why;
}

/**
 * `text` with every plain line set off as its own paragraph: Agent Chat UI renders answers as Markdown, which joins a
 * line onto the line before it ("… and 2 more Still pending: …") unless a blank line parts them. List items
 * ("- [done] …") stay one to a line, as Markdown keeps them. A terminal shows a blank line more; nothing else changes.
 */
export function withParagraphBreaks(text: string): string {
  const item = /^\s*(?:[-*+] |\d+\. )/;
  const lines = text.split("\n");
  const parted = lines.map((line, index) =>
    index > 0 && line.trim() !== "" && lines[index - 1]!.trim() !== "" && !item.test(line) ? `\n${line}` : line,
  );
  return parted.join("\n").replace(/\n(?:[ \t]*\n){2,}/g, "\n\n");
}
