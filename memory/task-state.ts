/**
 * TaskState (docs/design.md#taskstate): the durable, structured, per-user summary that
 * survives beyond recent turns and is injected into planning. It holds only
 * durable context — never live data that tools can re-fetch (balances,
 * current positions or prices, the current schedule's contents, whether
 * something is configured) nor step-level pending work: `isLiveData`
 * screens every entry before it is stored.
 */
import type { BaseStore } from "@langchain/langgraph";
import { taskStateNamespace } from "./namespaces.js";
import { withoutCalendarText } from "../contracts/attached-calendar.js";

export interface TaskState {
  /** The user goal that still matters across turns. */
  currentGoal: string;
  /** The high-level flow the user is in (e.g. "weekly review planning"). */
  activeFlow: string;
  /** High-level unresolved issues that still matter across turns. */
  openLoops: string[];
  /** Facts the user stated that tools cannot cheaply re-fetch. */
  importantFacts: string[];
  /** The latest important decision and why. */
  lastDecision: string;
  updatedAt: string;
}

export const EMPTY_TASK_STATE: TaskState = {
  currentGoal: "",
  activeFlow: "",
  openLoops: [],
  importantFacts: [],
  lastDecision: "",
  updatedAt: "",
};

const TASK_STATE_KEY = "current";
const MAX_LIST_ENTRIES = 12;

// What TaskState must never hold (docs/design.md#taskstate): live operational state and step-level pending work.
const LIVE_DATA_PATTERNS: RegExp[] = [
  /\b(balance|balances|position|positions|price|prices|equity|margin|pnl)\b/i,
  /\b(is|are|was|were|not|isn't|aren't)\s+(currently\s+)?(configured|set up|available|connected|enabled)\b/i,
  /\bconfig(uration)?s?\s+(exists?|present|missing)\b/i,
  /\b(current(ly)?|right now|at the moment)\b/i,
  /\bday \d+ slots? \d+/i,
  /\b(free|occupied) slots?\b/i,
  /\bslots? \d+-\d+/i,
  /\b(wait(ing)? for|call(ing)? (the )?\w+_\w+|then call|next step)\b/i,
  /余额|持仓|价格|当前|目前|已配置|未配置/,
];

/** True for text that is live data or step-level pending work, which TaskState must not hold. */
export function isLiveData(text: string): boolean {
  return LIVE_DATA_PATTERNS.some((pattern) => pattern.test(text));
}

/** Drops live-data entries, trims and de-duplicates lists, and caps their length. */
export function sanitizeTaskState(state: TaskState): TaskState {
  const clean = (entries: string[]) =>
    [...new Set(entries.map((entry) => entry.trim()).filter((entry) => entry !== "" && !isLiveData(entry)))].slice(
      -MAX_LIST_ENTRIES,
    );
  const single = (text: string) => (isLiveData(text) ? "" : text.trim());
  return {
    currentGoal: single(state.currentGoal),
    activeFlow: single(state.activeFlow),
    openLoops: clean(state.openLoops),
    importantFacts: clean(state.importantFacts),
    lastDecision: single(state.lastDecision),
    updatedAt: state.updatedAt,
  };
}

/** Merges an update into a TaskState (lists appended, scalars replaced when given), sanitised. */
export function mergeTaskState(current: TaskState, update: Partial<TaskState>, now: string): TaskState {
  return sanitizeTaskState({
    currentGoal: update.currentGoal || current.currentGoal,
    activeFlow: update.activeFlow || current.activeFlow,
    openLoops: [...current.openLoops, ...(update.openLoops ?? [])],
    importantFacts: [...current.importantFacts, ...(update.importantFacts ?? [])],
    lastDecision: update.lastDecision || current.lastDecision,
    updatedAt: now,
  });
}

/**
 * Renders a TaskState for a prompt; "" when empty. A calendar file's text that an older TaskState still holds (goals
 * kept a message's first 1,000 characters) is shown as a mention, entry by entry: it never reaches another request.
 */
export function renderTaskState(state: TaskState): string {
  const lines: string[] = [];
  const shown = withoutCalendarText;
  if (state.currentGoal) lines.push(`Goal: ${shown(state.currentGoal)}`);
  if (state.activeFlow) lines.push(`Active flow: ${shown(state.activeFlow)}`);
  if (state.openLoops.length)
    lines.push(`Open loops:\n${state.openLoops.map((entry) => `- ${shown(entry)}`).join("\n")}`);
  if (state.importantFacts.length)
    lines.push(`Important facts:\n${state.importantFacts.map((entry) => `- ${shown(entry)}`).join("\n")}`);
  if (state.lastDecision) lines.push(`Last decision: ${shown(state.lastDecision)}`);
  return lines.join("\n");
}

/** Loads the user's TaskState (empty when none). */
export async function loadTaskState(store: BaseStore, userId: string): Promise<TaskState> {
  const item = await store.get(taskStateNamespace(userId), TASK_STATE_KEY);
  return item ? { ...EMPTY_TASK_STATE, ...(item.value as Partial<TaskState>) } : { ...EMPTY_TASK_STATE };
}

/** Stores the user's TaskState, sanitised. */
export async function saveTaskState(store: BaseStore, userId: string, state: TaskState): Promise<TaskState> {
  const clean = sanitizeTaskState(state);
  await store.put(taskStateNamespace(userId), TASK_STATE_KEY, { ...clean }, false);
  return clean;
}

/** Deletes the user's TaskState. */
export async function clearTaskState(store: BaseStore, userId: string): Promise<void> {
  await store.delete(taskStateNamespace(userId), TASK_STATE_KEY);
}
