/**
 * How `/state`, `/history`, `/threads` and `/prefs` print: the thread's
 * ExecutionState, its step-transition snapshots, this CLI's thread list and the user's standing preferences.
 * Pure functions from values to text.
 */
import { stepStatusInChinese, type Language } from "../contracts/language.js";
import { shownStatus, shownSummary } from "../kernel/plan-step.js";
import { reasonIn, stopNoteIn } from "../contracts/report-words.js";
import { whyOpenInChinese } from "../contracts/why-open.js";
import type { ExecutionState, StepSnapshot } from "../server/execution-state.js";
import { STATE_WORDS as W, statusInChinese, tell } from "./chat-words.js";
import type { ThreadEntry } from "./thread-registry.js";

/**
 * The tools' words in a Chinese user's `/state`: a step's summary and a tool's result, as the chat says them (names and
 * dates for ids and day numbers). Absent, they are shown as the thread keeps them.
 */
export interface StateWords {
  summary(text: string): string;
  result(text: string): string;
}

/**
 * The ExecutionState as a labelled block: status, goal, the plan with each step's status, tool calls, answer — its
 * labels and statuses in the user's `language` (the goal, steps and answer are the thread's own words); for a Chinese
 * user the report's own words too (the outcome's reason, why an item is still open, why the task stopped), and the
 * tools' words through `words`.
 */
export function renderExecutionState(state: ExecutionState, language: Language = "en", words?: StateWords): string {
  const say = (words: readonly [string, string]) => tell(language, words);
  const zh = language === "zh";
  const summaryOf = (text: string) => (zh && words ? words.summary(text) : text);
  const resultOf = (text: string) => (zh && words ? words.result(text) : firstLine(text));
  const status = W.statusText[state.status];
  const lines = [
    `${say(W.thread)}${state.sessionId}${state.userId ? say(W.user(state.userId)) : ""}`,
    `${say(W.status)}${status ? say(status) : zh ? statusInChinese(state.status) : state.status}`,
    `${say(W.goal)}${state.goal || say(W.none)}`,
  ];
  if (state.steps.length > 0) {
    lines.push(`${say(W.plan)}${state.planId}`);
    for (const [index, step] of state.steps.entries()) {
      const current = step.id === state.currentStepId ? say(W.current) : "";
      const status = shownStatus(step);
      lines.push(`  ${index + 1}. [${zh ? stepStatusInChinese(status) : status}] ${step.content}${current}`);
      // A step not carried out: its status says so, its reason under it (never "not carried out" twice).
      const summary = shownSummary(step);
      if (summary) lines.push(`     ${summaryOf(summary)}`);
    }
  } else {
    lines.push(`${say(W.plan)}${say(W.none)}`);
  }
  const toolCalls = state.observations.filter((observation) => observation.kind === "tool");
  const last = toolCalls.at(-1);
  lines.push(
    // A Chinese user reads the last call by what came back, without the tool's name.
    `${say(W.tools(toolCalls.length))}${last ? `${say(W.lastTool)}${zh && words ? "" : `${last.tool} → `}${resultOf(last.result)}` : ""}`,
  );
  for (const reply of state.observations.filter((observation) => observation.kind === "user_reply")) {
    lines.push(`${say(W.asked)}${reply.question} → ${reply.answer}`);
  }
  if (state.outcome) {
    const kind = zh ? statusInChinese(state.outcome.kind) : state.outcome.kind;
    // The stored reason is the report's English: read back against the report's table (`reasonIn`).
    lines.push(`${say(W.ended)}${kind} — ${reasonIn(state.outcome.reason, language)}`);
    for (const item of state.outcome.stillOpen ?? []) {
      const line = `${item.name} (${item.id}) — ${item.why}`;
      lines.push(`${say(W.stillOpen)}${zh ? whyOpenInChinese(line) : line}`);
    }
  }
  if (state.finalAnswer) lines.push(`${say(W.answer)}${indentRest(state.finalAnswer, "         ")}`);
  if (state.lastError) lines.push(`${say(W.error)}${stopNoteIn(state.lastError, language)}`);
  if (state.updatedAt) lines.push(`${say(W.updated)}${state.updatedAt}`);
  if (state.workflowVersion) lines.push(`${say(W.version)}${state.workflowVersion}`);
  return lines.join("\n");
}

/** One line a snapshot: when, which step moved to which status, and the overall status then (in `language`). */
export function renderStepSnapshots(snapshots: readonly StepSnapshot[], language: Language = "en"): string {
  const say = (words: readonly [string, string]) => tell(language, words);
  if (snapshots.length === 0) return say(W.noSnapshots);
  return [
    say(W.snapshots(snapshots.length)),
    ...snapshots.map((snapshot) => {
      const index = snapshot.state.steps.findIndex((step) => step.id === snapshot.stepId);
      const step = index === -1 ? snapshot.stepId : say(W.step(index + 1, snapshot.state.steps.length));
      const status = language === "zh" ? stepStatusInChinese(snapshot.status) : snapshot.status;
      return `  ${snapshot.createdAt || "?"}  ${step} → ${status}  ${say(W.snapshotThread(snapshot.state.status, snapshot.checkpointId))}`;
    }),
  ].join("\n");
}

/** The user's threads, the current one marked with `*` (the words in `language`). */
export function renderThreads(
  entries: readonly ThreadEntry[],
  currentThreadId: string,
  userId: string,
  language: Language = "en",
): string {
  if (entries.length === 0) return tell(language, W.noThreads(userId));
  const width = Math.max(...entries.map((entry) => entry.threadId.length));
  return [
    tell(language, W.threads(userId)),
    ...entries.map((entry) => {
      const marker = entry.threadId === currentThreadId ? "*" : " ";
      const waiting = entry.waitingFor ? `${tell(language, W.waiting)}${entry.waitingFor}` : "";
      const preview = entry.lastMessage ? `  "${truncate(entry.lastMessage, 48)}"` : "";
      return `${marker} ${entry.threadId.padEnd(width)}  ${entry.updatedAt}${waiting}${preview}`;
    }),
  ].join("\n");
}

function firstLine(text: string): string {
  const [first = ""] = text.split("\n");
  return text.includes("\n") ? `${first} …` : first;
}

function indentRest(text: string, indent: string): string {
  return text.split("\n").join(`\n${indent}`);
}

function truncate(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
