/**
 * "My next review" (下一个复习): the placed review that starts first after now by the run's clock, anywhere in the
 * week. The plan step names it by its own name ("Move "Matrix operations review" to Wednesday"), so the card shows
 * which review it is about and the step reads the same whenever it runs; with no review still to come, or no clock to
 * tell, which review is asked.
 */
import { say, type Language } from "../../contracts/language.js";
import { readClockTime, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { GetOverviewData } from "../../tools/schedule/tools/index.js";
import { placeWords, startOnClock, type WeekFacts } from "./week-facts.js";

type PlacedTaskEntry = GetOverviewData["placedTasks"][number];

const NEXT_EN = /^(?:the\s+|my\s+)?(?:next|upcoming)\s+(?:review|study session|session|task)$/i;
const NEXT_ZH = /^(?:我的)?(?:下一个|下个|下一次|下次|下一项|接下来的?)(?:复习|学习|任务)$/;

/** True for the words of "my next review" in either language ("next review", "upcoming session", "下次复习"). */
export function isNextReview(phrase: string): boolean {
  const said = phrase.trim();
  return NEXT_EN.test(said) || NEXT_ZH.test(said);
}

/** "my 10am review", "the 7pm session", "today's 10 o'clock review": the time before the noun (group "time"). */
const AT_TIME_EN =
  /^(?:the\s+|my\s+|today'?s\s+)?(?<time>\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?|o'?clock)?)\s+(?:review|study session|session)$/i;
/** "the review at 7", "my review at 10:00". */
const REVIEW_AT_EN = /^(?:the\s+|my\s+)?(?:review|study session|session)\s+(?:at|from)\s+(?<time>.{1,12})$/i;
/** "10点的复习", "今天上午10点的复习", "晚上7点那个复习". */
const AT_TIME_ZH =
  /^(?:我)?(?:今天)?(?<time>(?:上午|早上|中午|下午|傍晚|晚上|今晚)?[\d零一二两三四五六七八九十]{1,3}点(?:半|\d{1,2}分?)?)(?:的|那个)(?:复习|学习)$/;

/**
 * The clock time a review is named by ("my 10am review", "the review at 7", "10点的复习": "10:00", "19:00"), or
 * undefined for any other words.
 */
export function reviewTimeOf(phrase: string): string | undefined {
  const said = phrase.trim();
  const time = (AT_TIME_EN.exec(said) ?? REVIEW_AT_EN.exec(said) ?? AT_TIME_ZH.exec(said))?.groups?.time;
  if (time === undefined) return undefined;
  // ("the review at 7": "at 7" is read as an hour is after "at"; "10am", "7pm" alone are read as they are.)
  return readClockTime(/^\d{1,2}$/.test(time) ? `at ${time}` : time);
}

/**
 * The placed review a time names: today's that starts then (even once started: a move then says so), else the first
 * after now that starts at that time; undefined with no clock or dated window, or when the overview does not list every
 * placed review.
 */
function reviewAtTimeOf(
  time: string,
  overview: GetOverviewData | undefined,
  facts: WeekFacts,
): (PlacedTaskEntry & { place: NonNullable<PlacedTaskEntry["place"]> }) | undefined {
  if (!overview || (overview.placedOmitted ?? 0) > 0 || !facts.now) return undefined;
  const today = facts.now.date;
  const starting = overview.placedTasks.flatMap((task) => {
    const at = task.place ? startOnClock(task.place, facts) : undefined;
    return task.place && at && at.start.slice(11) === time ? [{ task: { ...task, place: task.place }, at }] : [];
  });
  const ofToday = starting.find(({ at }) => at.start.slice(0, 10) === today);
  const ahead = starting.filter(({ at }) => at.start > at.now).sort((a, b) => a.at.start.localeCompare(b.at.start));
  return (ofToday ?? ahead[0])?.task;
}

/**
 * The placed review that starts first after now (none started yet); undefined with no clock or dated window, when
 * every placed review has started, or when the overview does not list every placed review.
 */
export function nextReviewOf(
  overview: GetOverviewData | undefined,
  facts: WeekFacts,
): (PlacedTaskEntry & { place: NonNullable<PlacedTaskEntry["place"]> }) | undefined {
  if (!overview || (overview.placedOmitted ?? 0) > 0) return undefined;
  const ahead = overview.placedTasks.flatMap((task) => {
    const at = task.place ? startOnClock(task.place, facts) : undefined;
    return task.place && at && at.start > at.now ? [{ task: { ...task, place: task.place }, start: at.start }] : [];
  });
  ahead.sort((a, b) => a.start.localeCompare(b.start) || a.task.place.start - b.task.place.start);
  return ahead[0]?.task;
}

/** The task phrases of a request that "my next review" may stand for: what it moves, takes off, swaps or skips. */
function phrasesOf(request: ScheduleRequest): string[] {
  if (request.kind === "move" || request.kind === "unplace") return [request.task];
  if (request.kind === "swap") return [request.first, request.second];
  if (request.kind === "mark" && request.to === "skipped") return [request.task];
  return [];
}

/** A request whose task is "my next review", that review named, or the question which review is meant. */
export type NextReviewed = { request: ScheduleRequest; said: string } | { question: string } | undefined;

/**
 * `request` with "my next review" named by the review's own name (its id when another task shares the name), and
 * what to say before the plan ("Your next review is …"); the question which review, when none can be told; undefined
 * when the request names no next review (or the week holds a task of that very name).
 */
export function withNextReview(
  request: ScheduleRequest,
  overview: GetOverviewData | undefined,
  facts: WeekFacts,
  language: Language,
): NextReviewed {
  const named = (phrase: string) =>
    overview?.placedTasks.some((task) =>
      [task.name, task.id].some((own) => own.toLowerCase() === phrase.trim().toLowerCase()),
    ) ?? false;
  const meant = (phrase: string) => (isNextReview(phrase) || reviewTimeOf(phrase) !== undefined) && !named(phrase);
  const phrases = phrasesOf(request).filter(meant);
  if (phrases.length === 0) return undefined;
  // ("Move my 10am review to 4pm", "把10点的复习挪到明天": the review that starts at that time.)
  const time = reviewTimeOf(phrases[0]!);
  const next = time === undefined ? nextReviewOf(overview, facts) : reviewAtTimeOf(time, overview, facts);
  if (!next && time !== undefined && facts.now && (overview?.placedOmitted ?? 0) === 0) {
    const placed = (overview?.placedTasks ?? []).slice(0, 6).map((task) => task.name);
    const listed = placed.length > 0 ? say(language, ` (${placed.join(", ")})`, `（${placed.join("、")}）`) : "";
    return {
      question: say(
        language,
        `Which review do you mean by "${phrases[0]}"? No placed review starts at ${time} today or later this week. Answer with its name or id${listed}.`,
        `你说的“${phrases[0]}”是哪个复习？今天和本周之后都没有 ${time} 开始的复习。请回答任务名称或 id${listed}。`,
      ),
    };
  }
  if (!next) {
    const placed = (overview?.placedTasks ?? []).slice(0, 6).map((task) => task.name);
    const listed = placed.length > 0 ? say(language, ` (${placed.join(", ")})`, `（${placed.join("、")}）`) : "";
    const why = !facts.now
      ? say(
          language,
          "I cannot tell the time now, so I cannot tell which review comes next",
          "我不知道现在的时间，没法判断下一个是哪个",
        )
      : (overview?.placedOmitted ?? 0) > 0
        ? say(
            language,
            "Your week has more placed reviews than I can see at once, so I cannot tell which comes next",
            "本周安排的复习太多，我一次看不全，没法判断下一个是哪个",
          )
        : say(
            language,
            "No placed review is still to come in this week's schedule",
            "本周日程里已经没有还没开始的复习",
          );
    return {
      question: say(
        language,
        `Which review do you mean by "${phrases[0]}"? ${why}. Answer with its name or id${listed}.`,
        `你说的“${phrases[0]}”是哪个复习？${why}。请回答任务名称或 id${listed}。`,
      ),
    };
  }
  const shared = overview!.placedTasks.filter((task) => task.name === next.name).length > 1;
  const name = shared ? next.id : next.name;
  const swap = (phrase: string) => (meant(phrase) ? name : phrase);
  const renamed: ScheduleRequest =
    request.kind === "swap"
      ? { ...request, first: swap(request.first), second: swap(request.second) }
      : ({ ...request, task: swap((request as { task: string }).task) } as ScheduleRequest);
  const where = placeWords(next.place, facts, language);
  return {
    request: renamed,
    said:
      time === undefined
        ? say(
            language,
            `Your next review is ${JSON.stringify(next.name)} (${where}). `,
            `你的下一个复习是“${next.name}”（${where}）。`,
          )
        : say(
            language,
            `Your ${time} review is ${JSON.stringify(next.name)} (${where}). `,
            `${time} 的复习是“${next.name}”（${where}）。`,
          ),
  };
}
