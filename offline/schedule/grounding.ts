/**
 * Grounding a request in the week before anything is planned: the task names a request holds must be names of real
 * tasks or task classes (by name, id, or an alias the domain gives its sample data; fuzzily, in English or Chinese),
 * read from the live state's overview. A name that matches nothing is never planned: the planner says what it
 * found instead and asks which tasks are meant. Only a whole listing can prove a name absent — an overview that
 * cut its task lists leaves the names to the execute stage, which lists the tasks itself.
 */
import { trimEdges } from "../../contracts/edge-trim.js";
import { say, type Language } from "../../contracts/language.js";
import type { GetOverviewData, ListedTask } from "../../tools/schedule/tools/index.js";
import {
  editDistance,
  isAnywhere,
  splitNamingDay,
  type MoveRequest,
  type ScheduleRequest,
  type Where,
} from "../../tools/schedule/request-parsing.js";
import type { SlotRange } from "../../tools/schedule/state.js";
import { matchClass, matchTasks } from "./task-matching.js";
import { aheadOfClock, type WeekFacts } from "./week-facts.js";

/** A request grounded: the request with only known names, what was dropped, or the question to ask. */
export type Grounding =
  | { kind: "grounded"; request: ScheduleRequest; unknown: string[] }
  | { kind: "ask"; question: string; unknown: string[] };

/** The overview's task items as listed tasks (what the matcher reads). */
export function listedOf(overview: GetOverviewData): { pending: ListedTask[]; all: ListedTask[] } {
  const listed = (
    entry: { id: string; name: string; categoryId: string; place?: SlotRange },
    kind: "pending" | "placed",
  ): ListedTask => ({
    id: entry.id,
    name: entry.name,
    kind,
    duration: 0,
    categoryId: entry.categoryId,
    slots: entry.place ? [entry.place] : [],
    locked: false,
    canEmbed: false,
  });
  const pending = overview.pendingTasks.map((entry) => listed(entry, "pending"));
  return { pending, all: [...pending, ...(overview.placedTasks ?? []).map((entry) => listed(entry, "placed"))] };
}

/** True when the overview lists every task item (no list was cut), so a name it does not hold is no task's. */
function listsEverything(overview: GetOverviewData): boolean {
  return overview.pendingOmitted === 0 && Array.isArray(overview.placedTasks) && (overview.placedOmitted ?? 0) === 0;
}

/**
 * The task a shift's "it" stands for when nothing said before names one ("push it back a day"): the review in
 * progress now or the next one today, found by the execute stage from the listing and the run's clock. The plan
 * step names it with these words (read back as the move's task).
 */
export const CURRENT_REVIEW = { en: "your current or next review", zh: "当前或下一个复习" } as const;

/** True for the words of `CURRENT_REVIEW`, in either language. */
export function isCurrentReview(phrase: string): boolean {
  return phrase === CURRENT_REVIEW.en || phrase === CURRENT_REVIEW.zh;
}

/**
 * The task "I'm done" (no task named) stands for: the review in progress now, else the one that ended last today,
 * found by the execute stage from the listing and the run's clock. The plan step names it with these words.
 */
export const LATEST_REVIEW = { en: "your current or latest review", zh: "当前或刚结束的复习" } as const;

/** True for the words of `LATEST_REVIEW`, in either language. */
export function isLatestReview(phrase: string): boolean {
  return phrase === LATEST_REVIEW.en || phrase === LATEST_REVIEW.zh;
}

/**
 * A move or unplace of "it" / "that" / "它" just after a change of one task (`conversation`: its lines) as one of that
 * task; else a move of "it" (no task named before it) as a move of the review now or next today; a mark of done of
 * "it" ("I'm done") as one of the review now or last today.
 */
export function withCurrentReview(
  request: ScheduleRequest,
  language: Language,
  conversation = "",
  overview?: GetOverviewData,
): ScheduleRequest {
  const pronoun = (task: string) => /^(?:it|that|this|that one|this one|它|这个|那个)$/.test(task.trim());
  // "Actually, push it to Sunday" just after a change of one task: that task, by its name when no other has it.
  const changed = taskChangedJustBefore(conversation);
  if (changed !== undefined && (request.kind === "move" || request.kind === "unplace") && pronoun(request.task)) {
    const all = overview ? listedOf(overview).all : [];
    const name = all.find((task) => task.id === changed)?.name;
    const unique = name !== undefined && all.filter((task) => task.name === name).length === 1;
    return { ...request, task: unique ? name : changed };
  }
  if (request.kind === "mark" && request.to === "done" && pronoun(request.task))
    return { ...request, task: LATEST_REVIEW[language] };
  if (request.kind !== "move" || !pronoun(request.task)) return request;
  return { ...request, task: CURRENT_REVIEW[language] };
}

/** The request with its task names checked against the week (`overview`: the live state's), in `language`. */
export function groundRequest(
  request: ScheduleRequest,
  overview: GetOverviewData | undefined,
  language: Language,
): Grounding {
  if (!overview) return { kind: "grounded", request, unknown: [] };
  const { pending, all } = listedOf(overview);
  const known = (phrase: string, among: readonly ListedTask[]) => matchTasks(phrase, among).length > 0;
  // A name that reads as an event: the overview lists no event by name, so only the execute stage's listing can
  // prove such a name absent (or find it locked).
  const mayBeEvent = (phrase: string) => overview.events > 0 && namesAnEvent(phrase);
  // "Remove the Friday tutorial": words that read as a timetable event and name no review task the overview lists
  // remove that event (`remove_event`: the execute stage's listing finds it, or asks which) — never an unplace refused.
  if (request.kind === "unplace" && overview.events > 0 && namesAnEvent(request.task) && !known(request.task, all))
    return { kind: "grounded", request: { kind: "remove_event", event: request.task }, unknown: [] };
  if (request.kind === "arrange") request = withWholeNames(request, all);
  if (!listsEverything(overview)) return { kind: "grounded", request, unknown: [] };
  switch (request.kind) {
    case "arrange": {
      const tasks = request.tasks.filter((phrase) => known(phrase, all));
      const except = (request.except ?? []).filter((phrase) => known(phrase, all));
      const unknown = [...request.tasks, ...(request.except ?? [])].filter((phrase) => !known(phrase, all));
      // The overview names no skipped task (nor every done one): a week with settled tasks leaves the names to the
      // execute stage's listing, which says a skipped, missed or done task's state (or asks, as here, when none matches).
      if (unknown.length > 0 && overview.skipped + overview.missed > 0)
        return { kind: "grounded", request, unknown: [] };
      if (request.tasks.length > 0 && tasks.length === 0)
        return { kind: "ask", question: whichTasks(unknown, pending, "pending", language), unknown };
      const { except: _dropped, ...rest } = request;
      // Every phrase named, each of placed tasks only: a move of each (several are split before: `oneByOne`).
      const placed = placedPhrases(request, tasks, pending, all);
      if (placed.length > 0 && placed.length === request.tasks.length) {
        const [first, ...also] = movesTo(placed, request.where);
        return { kind: "grounded", request: also.length > 0 ? { ...first!, also } : first!, unknown };
      }
      return { kind: "grounded", request: { ...rest, tasks, ...(except.length > 0 ? { except } : {}) }, unknown };
    }
    case "mark": {
      // "I finished the matrix review and the limits review": a step for each review it names.
      const apart =
        request.weekday === undefined && request.daysAgo === undefined ? namedApart(request.task, all) : undefined;
      if (!apart) return { kind: "grounded", request, unknown: [] };
      const { tasks, unknown } = apart;
      return {
        kind: "grounded",
        request: tasks.length > 1 ? { ...request, tasks } : { ...request, task: tasks[0]! },
        unknown,
      };
    }
    case "move":
    case "unplace": {
      // ("explain" is not checked here: it may name an event, and the overview does not list every event.)
      if (known(request.task, all) || isCurrentReview(request.task)) return { kind: "grounded", request, unknown: [] };
      // A review named by its day ("Thursday's review", "明天的复习"): the overview lists no task's day, so the
      // execute stage's listing finds the review placed that day (or asks which, or says none is).
      if (splitNamingDay(request.task)) return { kind: "grounded", request, unknown: [] };
      // A move may name an event ("move the mid-term to Saturday"), or a review the overview does not name (a missed
      // one: the execute stage's listing finds it, and places it again where the student says).
      if (request.kind === "move" && (mayBeEvent(request.task) || overview.skipped + overview.missed > 0))
        return { kind: "grounded", request, unknown: [] };
      return {
        kind: "ask",
        question: whichTasks(
          [request.task],
          all.filter((task) => task.kind === "placed"),
          "placed",
          language,
        ),
        unknown: [request.task],
      };
    }
    case "swap": {
      // As for a move, a name that reads as an event is left to the execute stage's listing.
      // A review named by its day ("Thursday's review") too: the execute stage's listing finds the one placed that day.
      const unknown = [request.first, request.second].filter(
        (phrase) => !known(phrase, all) && !mayBeEvent(phrase) && !splitNamingDay(phrase),
      );
      if (unknown.length === 0) return { kind: "grounded", request, unknown: [] };
      return {
        kind: "ask",
        question: whichTasks(
          unknown,
          all.filter((task) => task.kind === "placed"),
          "placed",
          language,
        ),
        unknown,
      };
    }
    case "add_task":
    case "add_long_task":
    case "class_rules": {
      const classes = overview.categories;
      // (A long task said without its class: the class its name tells, found when it is added.)
      if (
        request.classPhrase === undefined ||
        overview.categoriesOmitted > 0 ||
        matchClass(request.classPhrase, classes)
      )
        return { kind: "grounded", request, unknown: [] };
      const names = classes
        .map((category) => `${category.name} (${category.id})`)
        .join(language === "zh" ? "、" : ", ");
      return {
        kind: "ask",
        question: say(
          language,
          `I found no class matching "${request.classPhrase}", so I have planned nothing. Your classes: ${names}. Which do you mean?`,
          `我没有找到与“${request.classPhrase}”匹配的课程，所以没有做任何计划。你的课程：${names}。你指的是哪一个？`,
        ),
        unknown: [request.classPhrase],
      };
    }
    default:
      return { kind: "grounded", request, unknown: [] };
  }
}

/**
 * The phrases of an arrangement to a place it names that each name only tasks placed already ("put the essay on
 * Friday afternoon", "do the essay on Friday" when the essay is on Saturday): a move of each there, not a placing.
 * Before, the plan placed pending tasks only and ended "already on the schedule", moving nothing. None when the tasks
 * are put back ("put back the essay": placed, nothing to do) or the arrangement names no place.
 */
function placedPhrases(
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  tasks: readonly string[],
  pending: readonly ListedTask[],
  all: readonly ListedTask[],
): string[] {
  if (request.putBack || request.makeUp || isAnywhere(request.where) || request.where.before !== undefined) return [];
  return tasks.filter((phrase) => {
    const matched = matchTasks(phrase, all);
    return (
      matched.length > 0 && matchTasks(phrase, pending).length === 0 && matched.every((task) => task.kind === "placed")
    );
  });
}

/** A move of each task to `where`. */
function movesTo(tasks: readonly string[], where: Where): MoveRequest[] {
  return tasks.map((task) => ({ kind: "move", task, where }));
}

/**
 * An arrangement's task phrases with a name the reader split at its "and" made whole again: "schedule review limits
 * and continuity" is one task, "Review limits and continuity", never "review limits" and "continuity". Two phrases
 * side by side are one when, joined by "and", they are a task's name, or each names that one task alone.
 */
function withWholeNames(
  request: Extract<ScheduleRequest, { kind: "arrange" }>,
  all: readonly ListedTask[],
): Extract<ScheduleRequest, { kind: "arrange" }> {
  const join = (phrases: readonly string[]) => wholeNames(phrases, all);
  return {
    ...request,
    tasks: join(request.tasks),
    ...(request.except ? { except: join(request.except) } : {}),
  };
}

/**
 * A move or an unplace whose words name several tasks one by one ("unplace the matrix review and the essay", "move
 * the matrix review and the essay to Friday") as one request for each, the same place or shift for all (a part that
 * names no task is kept, so the planner asks about it); the request alone when it names one task, or the overview
 * cannot tell (a cut listing).
 */
export function oneByOne(request: ScheduleRequest, overview: GetOverviewData | undefined): ScheduleRequest[] {
  if (request.kind === "arrange" && overview && listsEverything(overview)) {
    // "do the essay and the matrix review on Sunday", both placed already: a move of each, a step each.
    const { pending, all } = listedOf(overview);
    const whole = withWholeNames(request, all);
    // "put the essay and the derivative drills on Friday", the essay placed, the drills pending: the essay moved there,
    // the drills placed there (before, the essay was left where it was, "already on the schedule").
    const placed = placedPhrases(whole, whole.tasks, pending, all);
    const others = whole.tasks.filter((phrase) => !placed.includes(phrase));
    if (placed.length === 0) return [request];
    return [...movesTo(placed, whole.where), ...(others.length > 0 ? [{ ...whole, tasks: others }] : [])];
  }
  if ((request.kind !== "move" && request.kind !== "unplace") || !overview || !listsEverything(overview))
    return [request];
  const apart = namedApart(request.task, listedOf(overview).all);
  if (!apart) return [request];
  return apart.named.length < 2 ? [request] : apart.named.map((task) => ({ ...request, task }));
}

/** Where a phrase lists several names: "a and b", "a, b and c", "a & b", "a和b", "a、b", "a以及b". */
const NAME_LIST = /\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*|\s*(?:、|以及|和|跟)\s*/;

/**
 * The tasks a phrase names one by one ("the matrix review and the limits review" → both) when it lists several names,
 * each naming one task alone and no two the same, and the names that name none ("… and the zebra notes": left out,
 * and said); undefined when it is not such a list — a phrase that is one task's name ("review limits and continuity"),
 * a part that names several tasks, or none that names one — and it is read as it is said.
 */
function namedApart(
  phrase: string,
  all: readonly ListedTask[],
): { tasks: string[]; unknown: string[]; named: string[] } | undefined {
  const parts = phrase.split(NAME_LIST).map((part) => part.trim().replace(/^(?:the|my)\s+/, ""));
  if (parts.length < 2 || parts.some((part) => part === "")) return undefined;
  const whole = phrase.trim().toLowerCase();
  if (all.some((task) => task.name.toLowerCase() === whole)) return undefined;
  const joined = wholeNames(parts, all);
  if (joined.length < 2) return undefined;
  const found = joined.map((part) => matchTasks(part, all));
  const tasks = joined.filter((_, index) => found[index]!.length > 0);
  const ids = found.filter((matched) => matched.length > 0).map((matched) => matched[0]!.id);
  if (tasks.length === 0 || found.some((matched) => matched.length > 1) || new Set(ids).size < ids.length)
    return undefined;
  return { tasks, unknown: joined.filter((_, index) => found[index]!.length === 0), named: joined };
}

/** Phrases side by side joined again where, joined by "and", they are one task's name (`oneName`). */
function wholeNames(phrases: readonly string[], all: readonly ListedTask[]): string[] {
  const joined: string[] = [];
  for (const phrase of phrases) {
    const before = joined.at(-1);
    if (before !== undefined && oneName(before, phrase, all)) joined[joined.length - 1] = `${before} and ${phrase}`;
    else joined.push(phrase);
  }
  return joined;
}

/** True when `first` and `second` are halves of one task's name split at "and". */
function oneName(first: string, second: string, all: readonly ListedTask[]): boolean {
  const whole = `${first} and ${second}`.toLowerCase();
  if (all.some((task) => task.name.toLowerCase() === whole)) return true;
  const only = (phrase: string) => {
    const found = matchTasks(phrase, all);
    return found.length === 1 ? found[0]!.id : undefined;
  };
  const id = only(first);
  return id !== undefined && id === only(second) && matchTasks(whole, all)[0]?.id === id;
}

/**
 * The placed tasks a request to put tasks back names ("put back the matrix review") when every name matches only tasks
 * already on the week — nothing to put back —, else undefined (a pending one is placed again as asked).
 */
export function placedAlready(
  request: ScheduleRequest,
  overview: GetOverviewData | undefined,
): ListedTask[] | undefined {
  if (request.kind !== "arrange" || !request.putBack || !overview || request.tasks.length === 0) return undefined;
  const { pending, all } = listedOf(overview);
  const placed = all.filter((task) => task.kind === "placed");
  const found: ListedTask[] = [];
  for (const phrase of request.tasks) {
    const match = matchTasks(phrase, placed)[0];
    if (matchTasks(phrase, pending).length > 0 || !match) return undefined;
    found.push(match);
  }
  return found;
}

/**
 * The review "I didn't do the essay" names, when the overview shows it placed still ahead of the run's clock: nothing
 * is missed yet, so there is no plan to approve (the execute stage says where it is, no card). Undefined when the
 * mark is of another kind, names a review by its day, names several or none for sure, or the overview shows no place.
 */
export function markedAhead(
  request: ScheduleRequest,
  overview: GetOverviewData | undefined,
  facts: WeekFacts,
): ListedTask | undefined {
  if (request.kind !== "mark" || request.to !== "missed" || !overview) return undefined;
  if (request.weekday !== undefined || request.daysAgo !== undefined || (request.tasks?.length ?? 0) > 1)
    return undefined;
  const matches = matchTasks(request.task, listedOf(overview).all);
  const [task] = matches;
  const place = task?.slots[0];
  return matches.length === 1 && task!.kind === "placed" && place && aheadOfClock(place, facts) ? task : undefined;
}

/**
 * Words that name a timetable event rather than a review: an exam, a lecture, a class, a lab, a club meeting, a study
 * hall (a typo of one letter aside in a word of five letters or more).
 */
const EVENT_WORDS = [
  "exam",
  "midterm",
  "final",
  "finals",
  "quiz",
  "test",
  "lecture",
  "seminar",
  "tutorial",
  "class",
  "lab",
  "club",
  "meeting",
  "workshop",
  "hall",
];

/** True when a phrase names an event ("the calculus mid-term", "my final exm", "微积分期中考试"). */
export function namesAnEvent(phrase: string): boolean {
  if (/考试|期中|期末|测验|小测|讲座|课|实验|社团|会议|自习/.test(phrase)) return true;
  const words =
    phrase
      .toLowerCase()
      .replace(/\bmid[- ]term/g, "midterm")
      .match(/[a-z]+/g) ?? [];
  return words.some((word) =>
    EVENT_WORDS.some(
      (event) => word === event || (event.length >= 5 && word.length >= 5 && editDistance(word, event) <= 1),
    ),
  );
}

/** "I found no task matching "X" among your pending tasks. They are: …. Which do you mean? …" */
function whichTasks(
  unknown: readonly string[],
  among: readonly ListedTask[],
  which: "pending" | "placed",
  language: Language,
): string {
  const quoted = unknown.map((phrase) => JSON.stringify(phrase)).join(language === "zh" ? "、" : ", ");
  const names = among
    .slice(0, 12)
    .map((task) => `${task.name} (${task.id})`)
    .join(language === "zh" ? "、" : ", ");
  const english = { pending: "pending task", placed: "placed task" }[which];
  const chinese = { pending: "待安排的任务", placed: "已安排的任务" }[which];
  if (among.length === 0) {
    return say(
      language,
      `I found no ${english} matching ${quoted}, and you have no ${english}s, so I have planned nothing.`,
      `我没有找到与 ${quoted} 匹配的${chinese}，你目前也没有${chinese}，所以没有做任何计划。`,
    );
  }
  const all =
    which === "pending"
      ? say(language, `; answer "all" to arrange every pending task`, `；回答“全部”则安排所有待安排的任务`)
      : "";
  return say(
    language,
    `I found no ${english} matching ${quoted}, so I have planned nothing. Your ${english}s: ${names}. Which do you mean? Answer with a name or an id${all}.`,
    `我没有找到与 ${quoted} 匹配的${chinese}，所以没有做任何计划。你的${chinese}：${names}。你指的是哪一个？请回答名称或 id${all}。`,
  );
}

/** True when an answer means every task ("all", "everything", "全部"). */
export function meansAll(answer: string): boolean {
  return /^(?:all|all of them|everything|every one|every task|all tasks|全部|都|所有|全都|所有任务)$/i.test(
    withoutClosingMark(answer, /[.!。！]/),
  );
}

/**
 * `text` without the spaces at its ends and one `mark` (with the spaces before it) at its end: what the ends of
 * `/^\s*…\s*[mark]?\s*$/` allow, in one pass (their three `\s*` split a long run of spaces every way: an answer of
 * "5", 10 000 spaces and "x" took minutes).
 */
export function withoutClosingMark(text: string, mark: RegExp): string {
  const trimmed = trimEdges(text, /\s/);
  return mark.test(trimmed.at(-1) ?? "") ? trimEdges(trimmed.slice(0, -1), /\s/, "end") : trimmed;
}

/**
 * True when a request to put tasks back ("put the matrix review back", "把矩阵复习放回去") names just what the
 * conversation's last change moved or took off the week: the student means where it was, so it is that change undone
 * (`propose_undo`, through its card) — not "already on your schedule", nor a new place for it. The last change is the
 * last run of applied writes the conversation shows (`conversation`: its lines), each a move or an unplace of a named
 * task; a change that did anything else (a batch placing others too) is not undone for it.
 */
export function putBackUndoes(
  request: ScheduleRequest,
  overview: GetOverviewData | undefined,
  conversation: string,
): boolean {
  if (request.kind !== "arrange" || !request.putBack || !overview || request.tasks.length === 0) return false;
  const run = lastAppliedRun(conversation.split("\n"));
  if (!run) return false;
  const ids = run.lines.map((line) => /^tool result: (?:moved|unplaced) task (\S+)/.exec(line)?.[1]);
  if (ids.some((id) => id === undefined)) return false;
  const { all } = listedOf(overview);
  const named = new Set(request.tasks.flatMap((phrase) => matchTasks(phrase, all).map((task) => task.id)));
  return ids.every((id) => named.has(id!));
}

/** The conversation's last run of applied writes: its "tool result:" lines, and the index of the first of them. */
function lastAppliedRun(lines: readonly string[]): { lines: string[]; first: number } | undefined {
  const applied = /^tool result: (?:moved|unplaced|swapped|placed|marked|skipped|added|removed|updated|imported)\b/;
  const last = lines.findLastIndex((line) => applied.test(line));
  if (last === -1) return undefined;
  let first = last;
  while (first > 0 && lines[first - 1]!.startsWith("tool result: ")) first -= 1;
  return { lines: lines.slice(first, last + 1), first };
}

/**
 * The one task the answer to the user's previous message changed ("move the essay to Friday" → "actually, push it to
 * Sunday"): the id the last run of applied writes names, when that run came after the previous message and moved,
 * placed, took off or marked that one task alone; undefined otherwise (nothing changed since, several tasks, another
 * kind of write).
 */
export function taskChangedJustBefore(conversation: string): string | undefined {
  const lines = conversation.split("\n");
  const users = lines.flatMap((line, index) => (line.startsWith("user: ") ? [index] : []));
  const run = lastAppliedRun(lines);
  // The current message is the last user line; the change must answer the one before it.
  if (!run || users.length < 2 || run.first < users.at(-2)! || run.first > users.at(-1)!) return undefined;
  const ids = run.lines.map((line) => /^tool result: (?:moved|placed|unplaced|marked) task (\S+)/.exec(line)?.[1]);
  const [first] = ids;
  return first !== undefined && ids.every((id) => id === first) ? first : undefined;
}
