/**
 * Finding the task an execute step names: the step's phrase, else the user's answer to "which task?"; the read that
 * lists the tasks, which of them a move or a swap may take, the question when several match, and a task's name as the
 * policy says it.
 */
import type { ListedTask } from "../../tools/schedule/tools/index.js";
import { read, type Decision } from "../decisions.js";
import { callResultOf, toolDataOf } from "./tool-data.js";
import { say, type Language } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import { isAnywhere, taskPhrase, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { matchTask, matchTasks, type TaskMatch } from "./task-matching.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";

/** The user's answer to the step's own question, when the workspace ends with one, and the user's language. */
export interface Asked {
  answer: string | undefined;
  language: Language;
}

/**
 * The task a step names: the step's phrase, else the user's answer to "which task?" (a name or an id); when the
 * phrase names nothing and no answer came yet, the question to ask.
 */
export function namedTask(
  phrase: string,
  candidates: ListedTask[],
  all: ListedTask[],
  asked: Asked,
  reason: string,
): { match: TaskMatch; phrase: string } | { question: Decision } | { none: string } {
  const direct = matchTask(phrase, candidates) ?? matchTask(phrase, all);
  if (direct) return { match: direct, phrase };
  if (asked.answer !== undefined) {
    const answer = taskPhrase(asked.answer);
    const answered = matchTask(answer, candidates) ?? matchTask(answer, all);
    return answered ? { match: answered, phrase: answer } : { none: `"${phrase}" or "${answer}"` };
  }
  // Review tasks first: they are what a person moves most.
  const examples = [
    ...candidates.filter((task) => task.kind !== "event"),
    ...candidates.filter((task) => task.kind === "event"),
  ]
    .slice(0, 6)
    .map((task) => `${task.name} (${task.id})`)
    .join(asked.language === "zh" ? "、" : ", ");
  const speak =
    asked.language === "zh"
      ? `我没有找到与“${phrase}”匹配的任务。你指的是哪个任务？请回答任务名称或 id${examples ? `，例如：${examples}` : ""}。`
      : `I found no task matching "${phrase}". Which task do you mean? Answer with its name or id${examples ? `, for example: ${examples}` : ""}.`;
  return { question: { speak, action: "ask_user", reason } };
}

/**
 * The tasks of the newest whole list_tasks round (none when it failed), or undefined when none is in view (or it
 * carries no data: read the tasks again).
 */
/**
 * The one task an arrangement to a place names ("do the matrix review tomorrow"), when every task its words match is
 * missed: it is placed there as a move of it places a missed review. Undefined for any other arrangement (put back,
 * made up, anywhere, before an event: the arrange step says a missed review's state), or with no listing yet.
 */
export function missedPlacement(
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  tasks: readonly ListedTask[] | undefined,
): string | undefined {
  const [phrase, ...more] = request.tasks;
  if (!tasks || phrase === undefined || more.length > 0 || request.putBack || request.makeUp) return undefined;
  if (isAnywhere(request.where) || request.where.before !== undefined) return undefined;
  const matched = matchTasks(phrase, tasks);
  return matched.length > 0 && matched.every((task) => task.kind === "missed") ? phrase : undefined;
}

export function listingOf(rounds: RoundView[]): ListedTask[] | undefined {
  const listing = rounds.findLast((round) => round.name === "list_tasks" && !round.summarised);
  if (listing && callResultOf(listing) === "failed") return [];
  return toolDataOf(listing, "list_tasks")?.tasks;
}

export const LIST_ALL = { limit: 100 };

/** The read that finds a task's id: every task listed. */
export function lookUpTask(phrase: string, language: Language): Decision {
  return read(
    say(language, `Looking up ${JSON.stringify(phrase)}.`, `正在查找 ${JSON.stringify(phrase)}。`),
    "list_tasks",
    LIST_ALL,
    "need the task's id",
  );
}

/**
 * True for a task a move request can move: a placed task item, or an event on one range — a locked one too, as a
 * person records a time someone else changed (the `move` card says it is locked; `LockedEvents` in
 * tools/schedule/tools/task-checks.ts).
 */
export function movable(task: ListedTask): boolean {
  return task.kind === "placed" || (task.kind === "event" && task.slots.length === 1);
}

/** True for a task a swap may take: as `movable`, but never a locked event (a swap is making room). */
export function swappable(task: ListedTask): boolean {
  return movable(task) && !(task.kind === "event" && task.locked);
}

/** `"Name"`, or `the event "Name"` (活动"Name"), as messages a person reads name a task or an event. */
export function label(task: ListedTask, language: Language): string {
  // A person reads names: an event is called one ("the event "Calculus tutorial""); ids stay in the card's arguments.
  const name = JSON.stringify(task.name);
  return task.kind === "event" ? saySummary(language, "theEvent", { event: name }) : name;
}

/** A task as a person reads it: its name ("Matrix operations review"); its id is in the card's arguments. */
export function nameOf(task: ListedTask): string {
  return JSON.stringify(task.name);
}

/** " (it also matches …)" when a phrase named several tasks. */
export function ambiguity(match: TaskMatch, language: Language): string {
  if (match.alsoMatching.length === 0) return "";
  const names = match.alsoMatching.map((task) => JSON.stringify(task.name));
  return say(
    language,
    ` (${names.join(", ")} ${match.alsoMatching.length === 1 ? "matches" : "match"} too; to choose another, name it by its day or in full)`,
    `（${names.join("、")} 也匹配；要选别的，请说明是哪一天的，或说全名）`,
  );
}
