/**
 * What a task really did, for an honest answer: the outcome, the steps done,
 * the steps left and why, and the domain's items the task was about that are
 * still open (e.g. review tasks still pending), by name and with the reason.
 * The factual answer (`mechanicalSummary`) is built from it; a model's
 * phrasing is checked against it (`overclaim`).
 */
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { PlanStep, TaskOutcome, TaskOutcomeRecord, TempoState } from "../../kernel/state.js";
import { callOutcomeOf } from "../../kernel/tool-results.js";
import { callArguments } from "../../kernel/call-records.js";
import type { OpenItem } from "../../tools/domain.js";
import { messageText } from "../../contracts/message-text.js";
import { WHY_OPEN, whyOpenIn } from "../../contracts/why-open.js";
import type { Language } from "../../contracts/language.js";
import {
  reasonIn,
  sayOutcomeKind,
  sayOutcomeReason,
  sayReport,
  stopNoteIn,
  type OutcomeReason,
  type ReportKey,
} from "../../contracts/report-words.js";
import { renderPlan } from "../../prompts/plan-list.js";
import { carriedOut, notCarriedOutSummaryReason } from "../../kernel/plan-step.js";
import { nameWrites, taskMessages, type WriteFacts } from "../../review/write-facts.js";

export interface TaskReport {
  goal: string;
  planSteps: PlanStep[];
  outcome: TaskOutcomeRecord;
  /**
   * The outcome's reason as data (its `reason` is this said in English), said in the user's language where the report
   * is (`mechanicalSummary`). Absent for a report built from a stored outcome alone.
   */
  said?: OutcomeReason;
  /** Open domain items this task was about, still open, with why. */
  stillOpen: Array<OpenItem & { why: string }>;
  lastError: string | null;
  /** What the task's writes did, from the execution log (`readWriteFacts`); absent when not read. */
  writes?: WriteFacts;
}

/** An outcome with its reason as data: `record` (what the state keeps) says `said` in English. */
export interface JudgedOutcome {
  record: TaskOutcomeRecord;
  said: OutcomeReason;
}

/** An outcome of `kind` for `said` (with `rest` of the record it replaces kept). */
function judged(kind: TaskOutcome, said: OutcomeReason, rest: Partial<TaskOutcomeRecord> = {}): JudgedOutcome {
  return { record: { ...rest, kind, reason: sayOutcomeReason(said, "en") }, said };
}

/** The outcome the steps show: completed when every step is done or skipped, partial with some done, failed with none. */
export function judgeOutcome(planSteps: PlanStep[], lastError: string | null): TaskOutcomeRecord {
  return judgeSteps(planSteps, lastError).record;
}

/** `judgeOutcome`, with the reason as data. */
function judgeSteps(planSteps: PlanStep[], lastError: string | null): JudgedOutcome {
  const done = planSteps.filter((step) => step.status === "done");
  const failed = planSteps.filter((step) => step.status === "failed");
  const left = planSteps.filter((step) => step.status === "pending" || step.status === "running");
  if (planSteps.length > 0 && failed.length === 0 && left.length === 0) {
    return judged("completed", { key: "allDone", done: done.length });
  }
  const why: OutcomeReason =
    failed.length > 0
      ? { key: "stepFailed", step: failed[0]!.content, reason: failed[0]!.reason ?? null }
      : lastError !== null
        ? { key: "note", text: lastError }
        : { key: "notRun", count: left.length };
  const kind: TaskOutcome = done.length > 0 ? "partial" : "failed";
  return judged(
    kind,
    planSteps.length === 0
      ? lastError !== null
        ? { key: "note", text: lastError }
        : { key: "noPlan" }
      : { key: "someDone", done: done.length, total: planSteps.length, why },
  );
}

/**
 * The report of the ended task: its outcome, judged here and only here (deliver stores it, memorize, ExecutionState and
 * the CLI read it). `openItems` are the domain's open items now (undefined for a domain that
 * has none); the task is about an item when it named it (goal, step summaries, its human and assistant
 * messages and tool calls — not tool results), or about all of its domain's when it closed one it was not asked for
 * by name (closing a to-do says nothing of the week's review tasks; putting back one review, named in the request, a
 * plan step or a read's selection, says nothing of the others). A task whose steps all finished while items it was
 * about are still open is partial, not completed.
 */
export function buildTaskReport(
  state: Pick<TempoState, "goal" | "planSteps" | "lastError" | "messages" | "taskStartMessageId"> &
    Partial<Pick<TempoState, "readOnlyPlan">>,
  openItems: OpenItem[] | undefined,
  openAtStart: OpenItem[] | undefined,
): TaskReport {
  const outcome = judgeSteps(state.planSteps, state.lastError);
  const messages = taskMessages(state);
  // What the task asked for, did or said it would do; not what its reads returned (a listing of the week names every
  // open item, whether or not the task was about it).
  const texts = [
    state.goal,
    ...state.planSteps.map((step) => step.summary ?? ""),
    ...messages.filter((message) => message.getType() !== "tool").map(textWithCalls),
  ];
  // What the task was asked to work on: the request, the plan's steps and the selections its reads made (a listing's
  // or a search's arguments: "task_ids": ["matrix-review"]) — not its writes, which name whatever they close.
  const answered = new Map(
    messages.flatMap((message) => {
      const outcome = callOutcomeOf(message);
      return outcome ? [[(message as ToolMessage).tool_call_id, outcome] as const] : [];
    }),
  );
  // The request and the plan, in words: a quoted short name there asks for its task too (`asksFor`).
  const askedInWords = [
    state.goal,
    ...state.planSteps.map((step) => step.content),
    ...messages.filter((message) => message.getType() === "human").map(messageText),
  ];
  const selections = messages.flatMap((message) =>
    ((message as AIMessage).tool_calls ?? [])
      .filter((call) => call.id !== undefined && answered.get(call.id) === "done")
      .map((call) => JSON.stringify(callArguments(message, call) ?? {})),
  );
  // A task that closed an item nobody asked for by name (arranging "my reviews") was about all of its domain's; one
  // that closed only items it was asked for by name ("put back the matrix review") is about what it named.
  const closedIn = new Set(
    (openAtStart ?? [])
      .filter((item) => openItems !== undefined && !openItems.some((open) => open.id === item.id))
      .filter(
        (item) => !askedInWords.some((text) => asksFor(text, item)) && !selections.some((text) => names(text, item)),
      )
      .map((item) => item.domain),
  );
  // A question is about what it asks, never about closing items (its answer may name many of them).
  // An item the task itself created (a task added to a class) is its result, not something it left undone.
  const wasOpen = (item: OpenItem) => openAtStart === undefined || openAtStart.some((open) => open.id === item.id);
  const related = state.readOnlyPlan
    ? []
    : (openItems ?? []).filter(
        (item) => wasOpen(item) && (closedIn.has(item.domain) || texts.some((text) => names(text, item))),
      );
  const stillOpen = related.map((item) => ({
    id: item.id,
    name: item.name,
    why: whyOpen(item, messages, state.planSteps),
  }));
  const refined =
    outcome.record.kind === "completed" && stillOpen.length > 0
      ? judged("partial", { key: "stillOpen", names: stillOpen.map((item) => item.name) })
      : outcome;
  return {
    goal: state.goal,
    planSteps: state.planSteps,
    outcome: stillOpen.length > 0 ? { ...refined.record, stillOpen } : refined.record,
    said: refined.said,
    stillOpen,
    lastError: state.lastError,
  };
}

/** How many of the task's write calls the user declined (their tool messages say so). */
export function declinedWrites(messages: readonly BaseMessage[]): number {
  return messages.filter((message) => callOutcomeOf(message) === "declined").length;
}

/**
 * A step that ended without doing what it asks: its reason (the execute decision's `not_carried_out`, kept as the
 * step's `outcome`), or undefined. A step saved before the outcome was kept says so only in its summary ("not carried
 * out: …", the offline policy's words then): read there, for those threads alone.
 */
function notCarriedOut(step: PlanStep): string | undefined {
  if (step.outcome) return step.outcome.kind === "not_carried_out" ? step.outcome.reason : undefined;
  return notCarriedOutSummaryReason(step.summary) || undefined;
}

/**
 * The outcome once the task's writes are known. A task that failed with writes applied is partial (they stay). A task
 * that changed nothing: a task that was to change something (not a question) is never completed
 * when nothing was applied — every write it proposed declined, or none proposed (the step says why) — and no task is
 * completed when none of its steps was carried out. A refinement that found nothing better (`global_reopt`, nothing
 * declined) did what it was asked. `applied` counts every write applied (the execution log's, crashes included).
 */
export function unchangedOutcome(
  outcome: TaskOutcomeRecord,
  planSteps: readonly PlanStep[],
  task: { readOnlyPlan: boolean; runMode: string | null },
  writes: { applied: number; declined: number },
): TaskOutcomeRecord {
  return unchangedJudged({ record: outcome, said: { key: "note", text: outcome.reason } }, planSteps, task, writes)
    .record;
}

/** `unchangedOutcome`, with the reason as data (deliver's: the report says it in the user's language). */
export function unchangedJudged(
  outcome: JudgedOutcome,
  planSteps: readonly PlanStep[],
  task: { readOnlyPlan: boolean; runMode: string | null },
  writes: { applied: number; declined: number },
): JudgedOutcome {
  const { record } = outcome;
  // A task whose steps failed but whose applied writes stay (a run cancelled part-way through its batch, a step that
  // failed after writing) did something: partial, as for some steps done — "failed" would say nothing changed, to the
  // user, to a front end's status and to the episode memory keeps.
  if (writes.applied > 0)
    return record.kind === "failed" ? { record: { ...record, kind: "partial" }, said: outcome.said } : outcome;
  if (record.kind === "failed" || record.kind === "dropped") return outcome;
  // A partial task that applied nothing did nothing: it failed ("partial" would claim something was done).
  if (record.kind === "partial" && !task.readOnlyPlan)
    return judged(
      "failed",
      writes.declined > 0 ? { key: "declined", count: writes.declined } : { key: "nothingChanged", why: outcome.said },
      record,
    );
  if (record.kind !== "completed") return outcome;
  const reasons = planSteps.flatMap((step) => notCarriedOut(step) ?? []);
  const done = planSteps.filter((step) => step.status === "done");
  if (task.readOnlyPlan)
    return done.length > 0 && done.every((step) => notCarriedOut(step) !== undefined)
      ? judged("failed", { key: "nothingFound", reasons })
      : outcome;
  if (writes.declined > 0) return judged("failed", { key: "declined", count: writes.declined });
  if (task.runMode === "global_reopt" && reasons.length === 0) return outcome;
  return judged("failed", { key: "nothingChanged", why: { key: "stepReasons", reasons } });
}

/** Each step with its status, and its summary or failure reason, one per line (the report's words in `language`). */
export function stepReport(plan: PlanStep[], language: Language = "en"): string {
  return renderPlan(plan, { status: true, summary: true, failure: true, language });
}

/**
 * The factual answer: the goal, the outcome when it is not a plain success, each step, what is still open and why —
 * its own words in `language` (English for the model); what it quotes (the goal, the steps, the writes' and the
 * items' words) as the report holds it.
 */
export function mechanicalSummary(
  report: Pick<TaskReport, "goal" | "planSteps" | "lastError"> &
    Partial<Pick<TaskReport, "outcome" | "said" | "stillOpen" | "writes">>,
  language: Language = "en",
): string {
  const say = (key: ReportKey, params: Record<string, string | number> = {}) => sayReport(language, key, params);
  const done = report.planSteps.filter(carriedOut).length;
  const lines = [say("task", { goal: report.goal })];
  if (report.outcome && report.outcome.kind !== "completed")
    lines.push(
      say("outcome", {
        kind: sayOutcomeKind(report.outcome.kind, language),
        reason: report.said ? sayOutcomeReason(report.said, language) : reasonIn(report.outcome.reason, language),
      }),
    );
  if (report.planSteps.length > 0)
    lines.push(say("finished", { done, total: report.planSteps.length }), stepReport(report.planSteps, language));
  for (const item of report.stillOpen ?? [])
    lines.push(say("stillPending", { name: item.name, id: item.id, why: whyOpenIn(item.why, language) }));
  const writes = report.writes;
  // A task that did not complete says what it changed all the same (the changes stay), and an approval it never applied.
  if (writes && writes.applied.length > 0 && report.outcome && report.outcome.kind !== "completed") {
    lines.push(say("applied", { count: writes.applied.length, names: nameWrites(writes.applied, language) }));
  }
  if (writes && writes.approvedNotApplied.length > 0)
    lines.push(
      say("approvedNotApplied", {
        count: writes.approvedNotApplied.length,
        names: nameWrites(writes.approvedNotApplied, language),
      }),
    );
  if (report.lastError) lines.push(say("note", { note: stopNoteIn(report.lastError, language) }));
  // One paragraph a line (a blank line between): Markdown front ends (Agent Chat UI, Agent Inbox) join lines a single
  // newline apart into one paragraph, and lines after a numbered list into its last item. The step list stays a list.
  return lines.join("\n\n");
}

// Claims of full success, in English and Chinese.
const COMPLETION_CLAIM =
  /\b(all (done|set|finished|placed|arranged|complete)|everything (is|was|has been) (done|placed|arranged|finished|complete)|is (all )?arranged|fully (done|arranged|complete)|completed successfully|successfully completed|every \w+( \w+)? (has|have|was|were) (a place|been placed|placed|done))\b|全部完成|都安排好|已全部/i;
// Words that admit something is left.
const ADMITS_GAP =
  /\b(not|left|pending|failed|couldn't|could not|unable|remaining|still|partly|partial|skipped|declined|dropped|unchanged|nothing)\b|未|没有|剩|失败|待安排|跳过|拒绝|不变/i;

/**
 * What the model's answer claims beyond the report, or "" when it holds: for a task that did not
 * complete, it must not claim full success, must admit what is left, and must name every item still open.
 */
export function overclaim(text: string, report: TaskReport): string {
  if (report.outcome.kind === "completed") return "";
  if (COMPLETION_CLAIM.test(text)) return `it claims full success, but the task is ${report.outcome.kind}`;
  if (!ADMITS_GAP.test(text)) return `it does not say what was left (the task is ${report.outcome.kind})`;
  const missing = report.stillOpen.filter((item) => !names(text, item));
  if (missing.length > 0)
    return `it does not name what is still pending: ${missing.map((item) => item.name).join(", ")}`;
  return "";
}

/**
 * True when a request's or a plan step's `text` asks for the item: names it (`names`) or one of its other names
 * (`aliases`: a Chinese request for an English-named task), or quotes a short name of it —
 * every word of a quoted phrase is a word of its name ('Mark "matrix review" done' for "Matrix operations review"), as
 * a plan step calls a task by the words a student used. Not for a tool's arguments, whose quoted values are not names.
 */
function asksFor(text: string, item: OpenItem): boolean {
  if (names(text, item)) return true;
  const lower = text.toLowerCase();
  if (item.aliases?.some((alias) => lower.includes(alias.toLowerCase()))) return true;
  const nameWords = new Set(wordsOf(item.name));
  return [...text.matchAll(/"([^"\n]{1,80})"|“([^”\n]{1,80})”/g)].some((found) => {
    const words = wordsOf(found[1] ?? found[2] ?? "");
    return words.length > 0 && words.every((word) => nameWords.has(word));
  });
}

/** The lowercase words (letters and digits) of a text. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** True when `text` names the item, by id (as a word) or by name. */
function names(text: string, item: OpenItem): boolean {
  const lower = text.toLowerCase();
  return (
    new RegExp(`(^|[^\\p{L}\\p{N}_-])${escape(item.id.toLowerCase())}($|[^\\p{L}\\p{N}_-])`, "u").test(lower) ||
    lower.includes(item.name.toLowerCase())
  );
}

/**
 * Why an item is still open: a write on it the user declined, the assistant's own note on skipping it, the reason a
 * step's summary gives beside its id ("left pending: review-limits (no free slot fits)"), the error of a write on it
 * that the tool refused, or not reached.
 */
function whyOpen(item: OpenItem, messages: BaseMessage[], planSteps: readonly PlanStep[]): string {
  // Each answered call's outcome and result text, by tool-call id: a declined write and a refused one say why.
  const answered = new Map(
    messages.flatMap((message) => {
      const outcome = callOutcomeOf(message);
      return outcome ? [[(message as ToolMessage).tool_call_id, { outcome, text: messageText(message) }] as const] : [];
    }),
  );
  // What each call applies (a record shown in words is read from its proposal: kernel/call-records.ts).
  const calls = messages.flatMap((message) =>
    ((message as AIMessage).tool_calls ?? []).map((call) => ({ id: call.id, args: callArguments(message, call) })),
  );
  const onItem = (outcome: string) =>
    calls.flatMap((call) => {
      const result = call.id === undefined ? undefined : answered.get(call.id);
      return result?.outcome === outcome && names(JSON.stringify(call.args ?? {}), item) ? [result.text] : [];
    });
  if (onItem("declined").length > 0) return WHY_OPEN.declined;
  // It fits as the data stands: whatever a refusal or a note on the way said, it is open because it was not placed.
  if (item.fitsNow) return onItem("failed").length > 0 ? WHY_OPEN.fitsRefused : WHY_OPEN.fitsNotPlaced;
  // The assistant's own note on skipping it ("Skipping task X: no free run fits it."), a note that starts so first.
  const notes = messages
    .filter(
      (message) =>
        message.getType() === "ai" && /skip/i.test(messageText(message)) && names(messageText(message), item),
    )
    .map(messageText);
  const note = notes.filter((text) => /^\s*skip/i.test(text)).at(-1) ?? notes.at(-1);
  if (note) return note.replace(/\s+/g, " ").trim().slice(0, 160);
  // (A reason may hold brackets of its own, one deep: "(no free slot fits in what is left of the week (the rest has
  // passed))" lost its last words at the first closing bracket.)
  const beside = new RegExp(
    `(?:^|[^\\p{L}\\p{N}_-])${escape(item.id)} \\(((?:[^()]|\\([^()]{0,120}\\)){1,160})\\)`,
    "u",
  );
  const stated = planSteps.map((step) => beside.exec(step.summary ?? "")?.[1]).find((reason) => reason !== undefined);
  if (stated !== undefined) return stated;
  // A write on it that the tool refused (a hand placement that breaks a rule): not "did not get to it", but why.
  const refused = onItem("failed").at(-1);
  if (refused !== undefined)
    return `${WHY_OPEN.refused}${clipped(
      refused
        .replace(/^error:\s*/i, "")
        .replace(/\s+/g, " ")
        .trim(),
      200,
    )}`;
  return WHY_OPEN.notReached;
}

/** `text` cut to `most` characters, with "…" where it was cut. */
function clipped(text: string, most: number): string {
  return text.length <= most ? text : `${text.slice(0, most - 1)}…`;
}

function textWithCalls(message: BaseMessage): string {
  const calls = (message as AIMessage).tool_calls ?? [];
  return [messageText(message), ...calls.map((call) => JSON.stringify(callArguments(message, call) ?? {}))].join(" ");
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
