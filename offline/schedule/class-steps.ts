/**
 * The offline policy's steps for what there is to arrange (issue 30): adding a task item to a class, and a class's
 * standing rules ("calculus only in the mornings", "never calculus on Monday"), each one write through a card —
 * `add_task` / `upsert_task_class` — with the class found by name, id or alias among the live overview's classes.
 */
import { finish, propose, type Decision, type Finish } from "../decisions.js";
import { PART_OF_DAY_ZH, say, weekdayName, type Language } from "../../contracts/language.js";
import type { PromptView, RoundView } from "../prompt-reading.js";
import {
  addedTaskIn,
  appliedWriteSummary,
  callResultOf,
  failureOf,
  liveOverviewOf,
  notCarriedOut,
} from "./tool-data.js";
import { editDistance, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { matchClass } from "./task-matching.js";
import { longTaskSlots, SLOT_MINUTES } from "./long-task-slots.js";
import { saySummary, SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";
import { eventNamed } from "./arrange-scope.js";
import type { OverviewCategory } from "../../tools/schedule/tools/get-overview.js";

/** The class a phrase names among the overview's classes, or undefined. */
export function classNamed(view: Pick<PromptView, "contextData">, phrase: string): OverviewCategory | undefined {
  return matchClass(phrase, liveOverviewOf(view)?.categories ?? []);
}

/** The outcome of the step's write, once its card was answered. */
function answered(rounds: readonly RoundView[], tool: string, end: Finish, language: Language): Decision | undefined {
  const round = rounds.findLast((candidate) => candidate.name === tool);
  if (!round) return undefined;
  const result = callResultOf(round);
  if (result === "applied") return finish(end, "", appliedWriteSummary(round, language));
  const why = result === "failed" ? failureOf(round) : SUMMARY_WORDS.en.declinedChange;
  return finish(
    end,
    say(language, `Nothing was changed: ${why}.`, `没有改动：${why}。`),
    notCarriedOut(why),
    "the write did not apply",
  );
}

/** The step's end when it names a class the schedule does not have: said, with what did not happen. */
function noClassMatching(
  phrase: string,
  end: Finish,
  language: Language,
  nothing: { en: string; zh: string },
): Decision {
  return finish(
    end,
    say(
      language,
      `I found no class matching "${phrase}", so ${nothing.en}.`,
      `我没有找到与“${phrase}”匹配的课程，所以${nothing.zh}。`,
    ),
    notCarriedOut(saySummary("en", "noClassMatches", { phrase })),
    "the step names a class the schedule does not have",
  );
}

/** Add a task item to a class: one `add_task` card. */
export function addTaskStep(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "add_task" }>,
  end: Finish,
  language: Language,
): Decision {
  const done = answered(view.rounds, "add_task", end, language);
  if (done) return done;
  const category = classNamed(view, request.classPhrase);
  if (!category)
    return noClassMatching(request.classPhrase, end, language, {
      en: "nothing was added",
      zh: "没有添加任务",
    });
  // Due before an event the request names: the event read from a listing of the events, by its id.
  const due = request.dueEvent === undefined ? undefined : eventNamed(view, request.dueEvent, end, language, "added");
  if (due !== undefined && !("event" in due)) return due.decision;
  const dueArgs = due === undefined ? {} : { due_before_event: due.event.id };
  return propose(
    say(
      language,
      `Adding "${request.name}" (${request.duration} slot(s)) to ${category.name}${due ? `, due before ${due.event.name}` : ""}.`,
      `正在把“${request.name}”（${request.duration} 节）加入${category.name}${due ? `，在${due.event.name}之前完成` : ""}。`,
    ),
    "add_task",
    { name: request.name, class_id: category.id, duration: request.duration, ...dueArgs },
    say(language, "the task the request adds", "请求添加的任务"),
    {
      action: end,
      goalCheck: addedTaskIn(language, request.name, category.id),
    },
  );
}

/**
 * A habit ("vocabulary three times a week, 30 min, mornings"): one `add_habit` card. A session's minutes become slots
 * (a slot is a 45-minute section: 30 min → 1, 1 hour → 2); said without them, one slot.
 */
export function addHabitStep(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "add_habit" }>,
  end: Finish,
  language: Language,
): Decision {
  const done = answered(view.rounds, "add_habit", end, language);
  if (done) return done;
  const duration = Math.max(1, Math.ceil((request.minutes ?? SLOT_MINUTES) / SLOT_MINUTES));
  const partZh = request.part ? PART_OF_DAY_ZH[request.part] : undefined;
  return propose(
    say(
      language,
      `Adding the habit "${request.name}": ${request.perWeek} time(s) a week, ${duration} slot(s) each${request.part ? `, in the ${request.part}` : ""}.`,
      `正在添加习惯“${request.name}”：每周 ${request.perWeek} 次，每次 ${duration} 节${partZh ? `，${partZh}` : ""}。`,
    ),
    "add_habit",
    {
      name: request.name,
      times_per_week: request.perWeek,
      duration,
      ...(request.part ? { part: request.part } : {}),
    },
    say(language, "the habit the request adds", "请求添加的习惯"),
    {
      action: end,
      goalCheck: say(language, `added habit "${request.name}"`, `已添加习惯“${request.name}”`),
    },
  );
}

/**
 * The class a long task belongs to: the one whose name, or the name of one of its tasks, shares a word with the task's
 * name ("write the essay" → English, of "Draft the English essay"; "写论文" → the class of "英语作文草稿", by a
 * character of a Chinese word), or the only class; undefined when none or several do.
 */
function classOfTask(view: PromptView, name: string): OverviewCategory | undefined {
  const overview = liveOverviewOf(view);
  const categories = overview?.categories ?? [];
  if (categories.length === 1) return categories[0];
  const named = classNamed(view, name);
  if (named) return named;
  const words = (text: string) =>
    new Set(
      (text.toLowerCase().match(/[a-z]{3,}|[\u4e00-\u9fff]/g) ?? []).filter((word) => !LONG_TASK_STOP_WORDS.has(word)),
    );
  const wanted = words(name);
  const tasks = [...(overview?.pendingTasks ?? []), ...(overview?.placedTasks ?? [])];
  const matching = categories.filter((category) =>
    [category.name, ...tasks.filter((task) => task.categoryId === category.id).map((task) => task.name)].some((text) =>
      [...words(text)].some((word) => [...wanted].some((other) => sameWord(word, other))),
    ),
  );
  return matching.length === 1 ? matching[0] : undefined;
}

/** True when two words are one, a typo of one letter aside in a word of four letters or more ("esay", "essay"). */
function sameWord(first: string, second: string): boolean {
  return first === second || (Math.min(first.length, second.length) >= 4 && editDistance(first, second) <= 1);
}

/** Words of a task's name that say nothing of its class: verbs of doing, and "the". */
const LONG_TASK_STOP_WORDS = new Set([
  "the",
  "write",
  "finish",
  "review",
  "read",
  "study",
  "draft",
  "for",
  "and",
  "写",
  "做",
  "读",
  "看",
  "学",
  "习",
  "复",
  "的",
  "完",
]);

/**
 * A long task ("write the essay, 4 hours, before Friday"): one `add_task` card splitting it into sessions within its
 * class's session bounds, due before that weekday's day of the window. A session's minutes become slots as a habit's.
 */
export function addLongTaskStep(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "add_long_task" }>,
  end: Finish,
  language: Language,
): Decision {
  const done = answered(view.rounds, "add_task", end, language);
  if (done) return done;
  // The class said with it, else the one its name tells.
  const category = request.classPhrase ? classNamed(view, request.classPhrase) : classOfTask(view, request.name);
  if (!category && request.classPhrase)
    return noClassMatching(request.classPhrase, end, language, { en: "nothing was added", zh: "没有添加任务" });
  const due = liveOverviewOf(view)?.days.find((day) => day.dayOfWeek === request.dueWeekday)?.day;
  if (!category || due === undefined) {
    // Stored in English from the summary phrases; said here, and in an answer, in the user's language from them.
    const said = (words: Language) => ({
      name: request.name,
      hours: Number((request.minutes / 60).toFixed(2)),
      weekday: weekdayName(request.dueWeekday, words),
    });
    const why = (words: Language) =>
      category ? saySummary(words, "weekdayNotShown") : saySummary(words, "longTaskNoClass", said(words));
    return finish(
      end,
      say(language, `Nothing was added: ${why("en")}.`, `没有添加：${why("zh")}。`),
      notCarriedOut(why("en")),
      "the step's task has no class or its deadline no day in the window",
    );
  }
  const duration = longTaskSlots(request.minutes);
  return propose(
    say(
      language,
      `Adding "${request.name}" to ${category.name}: ${duration} slot(s) in sessions, before day ${due}.`,
      `正在把“${request.name}”加入${category.name}：共 ${duration} 节，分次完成，第 ${due} 天之前。`,
    ),
    "add_task",
    { name: request.name, class_id: category.id, duration, sessions: true, due_before_day: due },
    say(language, "the long task the request adds, in sessions", "请求添加的长任务（分次）"),
    {
      action: end,
      goalCheck: say(language, `added task "${request.name}" in sessions`, `已分次添加任务“${request.name}”`),
    },
  );
}

/** True for the plan's step placing a long task's sessions ("Place the sessions of "…" …", "把 "…" 的各次放进…"). */
export function isSessionsStep(content: string): boolean {
  return /^place the sessions of |的各次放进/i.test(content.trim());
}

/**
 * The sessions step when the long task's sessions are not there (its add was refused or declined): a finish saying
 * so, or undefined when some pending task's name begins with a phrase of `names`.
 */
export function noSessionsStep(
  view: PromptView,
  names: readonly string[],
  end: Finish,
  language: Language,
): Decision | undefined {
  const overview = liveOverviewOf(view);
  // A cut list proves nothing absent: the arrangement step looks itself.
  if (!overview || overview.pendingOmitted > 0) return undefined;
  const pending = overview.pendingTasks;
  const found = names.some((name) => pending.some((task) => task.name.toLowerCase().startsWith(name.toLowerCase())));
  if (found) return undefined;
  const what = names.map((name) => `"${name}"`).join(", ");
  return finish(
    end,
    say(language, `Nothing to place: ${what} was not added.`, `没有可安排的：${what} 没有添加。`),
    notCarriedOut(saySummary("en", "noSessionsToPlace", { names: what })),
    "the long task was not added",
  );
}

/** A class's standing rules: one `upsert_task_class` card with its preferred parts and excluded weekdays. */
export function classRulesStep(
  view: PromptView,
  request: Extract<ScheduleRequest, { kind: "class_rules" }>,
  end: Finish,
  language: Language,
): Decision {
  const done = answered(view.rounds, "upsert_task_class", end, language);
  if (done) return done;
  const category = classNamed(view, request.classPhrase);
  if (!category)
    return noClassMatching(request.classPhrase, end, language, { en: "nothing was changed", zh: "没有改动" });
  // A day ruled out now is added to the days the class already excludes ("never on Monday", then "never on
  // Tuesday": both), since the write replaces the class's list.
  const excluded =
    request.excludedWeekdays.length > 0
      ? [...new Set([...(category.excludedDaysOfWeek ?? []), ...request.excludedWeekdays])].sort()
      : [];
  const rules = [
    // A class's part of the day is a preference (`preferredParts`): its sessions go there where the week has room,
    // elsewhere when it has none — said so, not as "mornings only", which the card and the search do not keep.
    ...request.parts.map((part) =>
      say(
        language,
        `prefers the ${part} (where the week has room; elsewhere when it has none)`,
        `优先安排在${PART_OF_DAY_ZH[part]}（有空时；没有空时也会排在别的时段）`,
      ),
    ),
    ...(excluded.length > 0
      ? [
          say(
            language,
            `never on ${excluded.map((day) => weekdayName(day, "en")).join(" or ")}`,
            `不要${excluded.map((day) => weekdayName(day, "zh")).join("、")}`,
          ),
        ]
      : []),
  ].join(say(language, ", ", "，"));
  return propose(
    say(language, `Setting ${category.name}: ${rules}.`, `正在设置${category.name}：${rules}。`),
    "upsert_task_class",
    {
      class_id: category.id,
      name: category.name,
      ...(request.parts.length > 0 ? { preferred_parts: request.parts } : {}),
      ...(excluded.length > 0 ? { excluded_days_of_week: excluded } : {}),
    },
    say(language, "the class's rules as the request states them", "请求说明的课程规则"),
  );
}
