/**
 * The mark step: a task's life ("I did the matrix review", "我周二的复习没做"): find the task (on the weekday named), the
 * review the words mean, propose the mark, and end with the write's outcome.
 */
import { formatRange } from "../../tools/schedule/format.js";
import { TASK_STATUS_ZH, type TaskStatus } from "../../tools/schedule/state.js";
import type { ListedTask } from "../../tools/schedule/tools/index.js";
import { finish, propose, type Decision, type Finish } from "../decisions.js";
import { notCarriedOut } from "./tool-data.js";
import { addDays, dayOfWeekOfDate, daysBetween } from "../../contracts/clock.js";
import { say, weekdayName, type Language } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import { taskPhrase, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { matchTask, namesKindOnly, type TaskMatch } from "./task-matching.js";
import { isLatestReview } from "./grounding.js";
import { whichReviewOfDay } from "./day-named.js";
import { answersWhole } from "./plan-stage.js";
import { aheadOfClock, datingOf, placeWords, weekdayOf, type WeekFacts } from "./week-facts.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";
import { markInChinese } from "../../tools/schedule/summary-words.js";
import { ambiguity, type Asked, label, listingOf, lookUpTask, namedTask } from "./task-lookup.js";
import { noTaskFound, noTaskMatching, REFUSAL_TOLD_IN_ANSWER, writeEnding } from "./step-endings.js";
import { todaysTimesOf } from "./move-step.js";

/** The write tool of each life mark, and the statuses a task may be marked from (`tools/schedule/tools/task-life.ts`). */
const MARK_WRITES = {
  done: { tool: "mark_done", from: ["placed", "pending", "missed", "skipped"] },
  missed: { tool: "mark_missed", from: ["placed"] },
  skipped: { tool: "skip", from: ["placed", "pending", "missed"] },
} as const;

/** A task's life ("I did the matrix review", "我周二的复习没做"): find the task (on the weekday named), propose the mark. */
export function markStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "mark" }>,
  facts: WeekFacts,
  end: Finish,
  asked: Asked,
): Decision {
  const { language } = asked;
  const write = MARK_WRITES[request.to];
  const answered = writeEnding(rounds, [write.tool], end, datingOf(facts), language);
  if (answered) return answered;
  const tasks = listingOf(rounds);
  if (!tasks) return lookUpTask(request.task, language);
  // "yesterday's review": the weekday the clock makes of it (a plan writes it as the weekday; a model's step may not).
  const weekday =
    request.weekday ??
    (request.daysAgo !== undefined && facts.now
      ? dayOfWeekOfDate(addDays(facts.now.date, -request.daysAgo))
      : undefined);
  const markable = tasks.filter(
    (task) =>
      (write.from as readonly string[]).includes(task.kind) &&
      (weekday === undefined ||
        task.slots.some((range) => weekdayOf(facts, range.day) === weekday) ||
        wasLately(task, weekday, facts)),
  );
  // "Monday's review", "我周一的复习": the kind of session names no task — the weekday's reviews are what it means: the
  // one there is, or the question which of them (an answer then names it).
  if (weekday !== undefined && namesKindOnly(request.task)) {
    const [only, ...others] = markable;
    if (asked.answer !== undefined) {
      // A whole request sent while the question was open is no answer: its words would name a task ("add "week 3
      // flashcards"" matches "week 1 flashcards"). Nothing is marked, and the task ends saying so (the rest of its
      // plan was about the mark); the request, not carried out here, is to be sent again.
      if (answersWhole(asked.answer))
        return finish(
          "done",
          REFUSAL_TOLD_IN_ANSWER,
          notCarriedOut(saySummary("en", "answerIsRequest", { request: asked.answer.trim() })),
          "the answer is a request of its own, not which review",
        );
      // The answer to which of them: it names the task (the request's own words name none).
      const answer = taskPhrase(asked.answer);
      const answered = matchTask(answer, markable) ?? matchTask(answer, tasks);
      if (answered) return proposeMark(answered.task, answered, request, end, facts, language);
      return finish(end, noTaskMatching(`"${answer}"`, language), notCarriedOut(`${noTaskFound(`"${answer}"`)}`));
    }
    if (only && others.length === 0)
      return proposeMark(only, { task: only, alsoMatching: [] }, request, end, facts, language);
    if (only) return whichReviewOfDay(weekday, markable, language);
    // None of the day's reviews takes the mark: never a review of another day whose name holds the word.
    return noneOfDay(weekday, tasks, request.to, facts, end);
  }
  // Of tasks the words name alike — a habit's sessions of this week and of weeks past share their names — the ones
  // still in the work (placed, pending) come before history (missed, skipped): "I did the jogging" on Monday is this
  // week's session, not last week's missed one (a weekday, "Sunday's jogging", names that one).
  const inWorkFirst = [
    ...markable.filter((task) => task.kind === "placed" || task.kind === "pending"),
    ...markable.filter((task) => task.kind !== "placed" && task.kind !== "pending"),
  ];
  // "I'm done": the review in progress now, else the last one today — or the question which.
  if (isLatestReview(request.task)) {
    const latest = latestReview(tasks, facts, asked);
    if ("question" in latest) return latest.question;
    if ("task" in latest)
      return proposeMark(latest.task, { task: latest.task, alsoMatching: [] }, request, end, facts, language);
    const named = namedTask(latest.answer, inWorkFirst, inWorkFirst, asked, "no task was named");
    if ("question" in named) return named.question;
    if ("none" in named)
      return finish(end, noTaskMatching(named.none, language), notCarriedOut(noTaskFound(named.none)));
    return proposeMark(named.match.task, named.match, request, end, facts, language);
  }
  // A task the words name that the mark cannot take ("I did the matrix review" once it is done): its state is said,
  // never "which task?" — the name was plain.
  const settled = matchTask(request.task, inWorkFirst) ? undefined : matchTask(request.task, tasks);
  if (settled && settled.task.kind !== "event" && asked.answer === undefined)
    return finish(
      end,
      `${unmarkable(settled.task, request.to, language)}${language === "zh" ? "。" : "."}`,
      notCarriedOut(unmarkable(settled.task, request.to, "en")),
    );
  const named = namedTask(request.task, inWorkFirst, inWorkFirst, asked, "the step names no task the schedule has");
  if ("question" in named) return named.question;
  if ("none" in named) return finish(end, noTaskMatching(named.none, language), notCarriedOut(noTaskFound(named.none)));
  return proposeMark(named.match.task, named.match, request, end, facts, language);
}

/**
 * The review "I'm done" (no task named) means: the one placed review in progress now by the run's clock, else the one
 * of today that ended last (still placed: not marked yet). None, or several at once, asks which, naming today's
 * reviews so far; an answer to that question is the task (`answer`).
 */
function latestReview(
  tasks: ListedTask[],
  facts: WeekFacts,
  asked: Asked,
): { task: ListedTask } | { question: Decision } | { answer: string } {
  if (asked.answer !== undefined) return { answer: taskPhrase(asked.answer) };
  const { language } = asked;
  const now = facts.now;
  const timesOf = todaysTimesOf(facts);
  const started = now ? tasks.filter((task) => (timesOf(task)?.start ?? "99:99") <= now.time) : [];
  const inProgress = started.filter((task) => timesOf(task)!.end > now!.time);
  const lastEnd = started
    .map((task) => timesOf(task)!.end)
    .sort()
    .at(-1);
  const meant = inProgress.length > 0 ? inProgress : started.filter((task) => timesOf(task)!.end === lastEnd);
  if (meant.length === 1) return { task: meant[0]! };
  const listed = (among: ListedTask[]) =>
    among
      .map((task) => `${JSON.stringify(task.name)} (${placeWords(task.slots[0]!, facts, language)})`)
      .join(say(language, ", ", "、"));
  const placed = tasks
    .filter((task) => task.kind === "placed")
    .slice(0, 6)
    .map((task) => task.name)
    .join(say(language, ", ", "、"));
  const speak =
    meant.length > 1
      ? say(
          language,
          `Which review are you done with? Today so far: ${listed(meant)}. Answer with its name, and I will mark it done.`,
          `你完成的是哪个复习？今天到现在：${listed(meant)}。请回答任务名称，我会把它记为已完成。`,
        )
      : say(
          language,
          `Which review are you done with? None of today's has started yet. Answer with its name or id (${placed}), and I will mark it done.`,
          `你完成的是哪个复习？今天还没有开始的复习。请回答任务名称或 id（${placed}），我会把它记为已完成。`,
        );
  return { question: { speak, action: "ask_user", reason: "no task was named" } };
}

/**
 * Why `task` (a task item) takes no mark `to` from its state: already so ("… is already done; nothing to mark"), or a
 * state the mark does not follow (a pending review was never on the week to be missed).
 */
export function unmarkable(task: ListedTask, to: keyof typeof MARK_WRITES, language: Language): string {
  const status = task.kind as TaskStatus;
  const places =
    language === "zh"
      ? { subject: label(task, language), state: TASK_STATUS_ZH[status], mark: markInChinese(to) }
      : { subject: label(task, language), state: status === "skipped" ? "skipped this week" : status, mark: to };
  return saySummary(language, status === to ? "alreadyMarked" : "notMarkable", places);
}

/**
 * True when a settled task was on `weekday` in the week up to today: "Sunday's review" said on Monday is the one the
 * window's roll made missed yesterday (no longer on the window's days, only on record), as it is one marked missed
 * on Tuesday and said on Thursday.
 */
function wasLately(task: ListedTask, weekday: number, facts: WeekFacts): boolean {
  const was = task.was;
  if (was === undefined || was.dayOfWeek !== weekday) return false;
  const today = facts.now?.date;
  if (was.date === undefined || today === undefined) return true;
  const ago = daysBetween(was.date, today);
  return ago >= 0 && ago < 7;
}

/**
 * "Yesterday's review" when none of that day's reviews takes the mark: the day's review already so on record ("…
 * is already missed": the window's roll marked it, or the user did), else that no review was placed that day — said
 * by the answer from the summary, nothing marked.
 */
function noneOfDay(
  weekday: number,
  tasks: readonly ListedTask[],
  to: keyof typeof MARK_WRITES,
  facts: WeekFacts,
  end: Finish,
): Decision {
  const settled = tasks.find((task) => task.kind === to && wasLately(task, weekday, facts));
  // In English from the summary phrases: the answer says it in the user's language.
  const refusal = settled
    ? unmarkable(settled, to, "en")
    : saySummary("en", "noReviewWasOnDay", { weekday: weekdayName(weekday, "en") });
  return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusal));
}

/** The mark's card for `task` (`match`: how the request named it, to say an ambiguity). */
function proposeMark(
  task: ListedTask,
  match: TaskMatch,
  request: Extract<ScheduleRequest, { kind: "mark" }>,
  end: Finish,
  facts: WeekFacts,
  language: Language,
): Decision {
  // "I didn't do the essay" while its place is still ahead: nothing is missed yet — said, no card.
  const place = task.kind === "placed" ? task.slots[0] : undefined;
  if (request.to === "missed" && place && aheadOfClock(place, facts)) {
    // Said with the place as a person reads it; summarised with it as the tools write it (read back later).
    const refusal = (words: Language, summary = false) =>
      saySummary(words, "notMissedYet", {
        subject: label(task, words),
        place: summary ? formatRange(place, datingOf(facts)) : placeWords(place, facts, words),
      });
    // The final answer says it (read from the summary): said once, not in a note and again in the answer.
    return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusal("en", true)));
  }
  const write = MARK_WRITES[request.to];
  const saying = {
    done: ["Marking", "done", "把", "记为已完成"],
    missed: ["Marking", "missed", "把", "记为错过"],
    skipped: ["Skipping", "this week", "本周跳过", ""],
  }[request.to];
  return propose(
    say(
      language,
      `${saying[0]} ${label(task, language)} ${saying[1]}${ambiguity(match, language)}.`,
      `${saying[2]}${label(task, language)}${saying[3]}${ambiguity(match, language)}。`,
    ),
    write.tool,
    { task_id: task.id },
    say(language, "the task the request names", "请求指定的任务"),
    { action: end, goalCheck: `marked task ${task.id} ${request.to} (it was ${task.kind})` },
  );
}
