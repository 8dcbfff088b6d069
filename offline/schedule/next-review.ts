/**
 * "My next review" (下一个复习): the placed review that starts first after now by the run's clock, anywhere in the
 * week; "my 10am review" (10点的复习): the one that starts then, today's or the first after now; "my morning review",
 * "tonight's review" (上午的复习): today's one review of that part of the day. The plan step names it by its own name
 * ("Move "Matrix operations review" to Wednesday"), so the card shows which review it is about and the step reads the
 * same whenever it runs; with none to name, several, or no clock to tell, which review is asked.
 */
import { PART_OF_DAY_ZH, say, type Language } from "../../contracts/language.js";
import { readClockTime, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { GetOverviewData } from "../../tools/schedule/tools/index.js";
import type { DayPart } from "../../tools/schedule/state.js";
import { placeWords, slotRangeOf, startOnClock, type WeekFacts } from "./week-facts.js";

type PlacedTaskEntry = GetOverviewData["placedTasks"][number];
/** A placed review with its place. */
type Placed = PlacedTaskEntry & { place: NonNullable<PlacedTaskEntry["place"]> };

const NEXT_EN = /^(?:the\s+|my\s+)?(?:next|upcoming)\s+(?:review|study session|session|task)$/i;
const NEXT_ZH = /^(?:我的)?(?:下一个|下个|下一次|下次|下一项|接下来的?)(?:复习|学习|任务)$/;

/** True for the words of "my next review" in either language ("next review", "upcoming session", "下次复习"). */
export function isNextReview(phrase: string): boolean {
  const said = phrase.trim();
  return NEXT_EN.test(said) || NEXT_ZH.test(said);
}

/**
 * "my 10am review", "the 7pm session", "today's 10 o'clock review", "the 2pm one", "my 2pm thing": the time before the
 * noun (group "time").
 */
const AT_TIME_EN =
  /^(?:the\s+|my\s+|today'?s\s+)?(?<time>\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?|o'?clock)?)\s+(?:review|study session|session|one|thing|block)$/i;
/**
 * "the review at 7", "my review at 10:00", and what is there said with no noun: "whatever is at 2pm", "what I have at
 * 2pm", "what's at 2pm", "anything at 2pm" (before, a task of those words was sought, asked about and dropped).
 */
const REVIEW_AT_EN =
  /^(?:(?:the\s+|my\s+)?(?:review|study session|session)\s+(?:at|from)|(?:whatever|what|anything)(?:'s|\s+is|\s+i\s+have|\s+i've\s+got)?\s+at)\s+(?<time>.{1,12})$/i;
/** "10点的复习", "今天上午10点的复习", "晚上7点那个复习", "下午两点那个", "下午两点的那个". */
const AT_TIME_ZH =
  /^(?:我)?(?:今天)?(?<time>(?:上午|早上|中午|下午|傍晚|晚上|今晚)?[\d零一二两三四五六七八九十]{1,3}点(?:半|\d{1,2}分?)?)(?:(?:的|那个)(?:复习|学习)|的?那个)$/;

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
function reviewAtTimeOf(time: string, overview: GetOverviewData | undefined, facts: WeekFacts): Placed | undefined {
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

/** "my morning review", "tonight's review", "this afternoon's session": today's review of that part (group "part"). */
const PART_EN =
  /^(?:(?:my|the|this|today'?s)\s+)?(?<part>morning|afternoon|evening|tonight)(?:'?s)?\s+(?:review|study session|session)$/i;
/** "上午的复习", "今晚的复习", "今天下午那个复习". */
const PART_ZH = /^(?:我)?(?:今天)?(?<part>上午|早上|今早|下午|晚上|今晚)(?:的|那个)(?:复习|学习)$/;

/** The part of today a review is named by ("my morning review", "今晚的复习"), or undefined for any other words. */
export function reviewPartOf(phrase: string): DayPart | undefined {
  const part = (PART_EN.exec(phrase.trim()) ?? PART_ZH.exec(phrase.trim()))?.groups?.part?.toLowerCase();
  if (part === undefined) return undefined;
  if (/morning|上午|早上|今早/.test(part)) return "morning";
  return /afternoon|下午/.test(part) ? "afternoon" : "evening";
}

/** Today's placed reviews whose place meets `part` of the day, by the window's slot times. */
function reviewsOfPartToday(part: DayPart, overview: GetOverviewData | undefined, facts: WeekFacts): Placed[] {
  if (!overview || (overview.placedOmitted ?? 0) > 0 || !facts.now) return [];
  const slots = slotRangeOf({ part }, facts);
  return overview.placedTasks.flatMap((task) =>
    task.place &&
    facts.dates.get(task.place.day) === facts.now!.date &&
    task.place.start <= slots.to &&
    task.place.end >= slots.from
      ? [{ ...task, place: task.place }]
      : [],
  );
}

/**
 * The task phrases of a request that "my next review" may stand for: what it moves, takes off, swaps or skips; and what
 * it marks done or missed, named by a time or a part of today.
 */
function phrasesOf(request: ScheduleRequest): string[] {
  if (request.kind === "move" || request.kind === "unplace") return [request.task];
  if (request.kind === "swap") return [request.first, request.second];
  if (request.kind === "mark" && request.to === "skipped") return [request.task];
  // ("I finished my morning review", "I didn't do my 10am review": a review of today by its time or part — a next one
  // is none done or missed yet.)
  if (request.kind === "mark" && (reviewTimeOf(request.task) ?? reviewPartOf(request.task)) !== undefined)
    return [request.task];
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
  const meant = (phrase: string) =>
    (isNextReview(phrase) || reviewTimeOf(phrase) !== undefined || reviewPartOf(phrase) !== undefined) &&
    !named(phrase);
  const phrases = phrasesOf(request).filter(meant);
  if (phrases.length === 0) return undefined;
  // ("Move my morning review to the afternoon", "把今晚的复习推到明天": today's one review of that part; with none or
  // several, which is asked, naming today's of that part.)
  const part = reviewPartOf(phrases[0]!);
  // (With no clock, or a listing that leaves reviews out, which is asked below, with the reason.)
  const knowable = facts.now !== undefined && overview !== undefined && (overview.placedOmitted ?? 0) === 0;
  if (part !== undefined && knowable) {
    const inPart = reviewsOfPartToday(part, overview, facts);
    const partZh = PART_OF_DAY_ZH[part];
    if (inPart.length === 1)
      return namedAs(
        inPart[0]!,
        say(
          language,
          `Your ${part} review is ${JSON.stringify(inPart[0]!.name)}`,
          `今天${partZh}的复习是“${inPart[0]!.name}”`,
        ),
      );
    const partWords = say(language, `in today's ${part}`, `今天${partZh}`);
    const listed = inPart.map((task) => `${task.name} (${placeWords(task.place, facts, language)})`);
    return {
      question:
        inPart.length === 0
          ? say(
              language,
              `Which review do you mean by "${phrases[0]}"? No review is placed ${partWords}. Answer with its name or id.`,
              `你说的“${phrases[0]}”是哪个复习？${partWords}没有安排复习。请回答任务名称或 id。`,
            )
          : say(
              language,
              `Which review do you mean by "${phrases[0]}"? There are ${inPart.length} ${partWords}: ${listed.join(", ")}. Answer with its name or id.`,
              `你说的“${phrases[0]}”是哪个复习？${partWords}有 ${inPart.length} 个：${listed.join("、")}。请回答任务名称或 id。`,
            ),
    };
  }
  // ("Move my 10am review to 4pm", "把10点的复习挪到明天": the review that starts at that time.)
  const time = reviewTimeOf(phrases[0]!);
  const next =
    part !== undefined
      ? undefined
      : time === undefined
        ? nextReviewOf(overview, facts)
        : reviewAtTimeOf(time, overview, facts);
  // The placed reviews a question lists to answer with (the first six).
  const placed = (overview?.placedTasks ?? []).slice(0, 6).map((task) => task.name);
  const listed = placed.length > 0 ? say(language, ` (${placed.join(", ")})`, `（${placed.join("、")}）`) : "";
  if (!next && time !== undefined && facts.now && (overview?.placedOmitted ?? 0) === 0) {
    return {
      question: say(
        language,
        `Which review do you mean by "${phrases[0]}"? No placed review starts at ${time} today or later this week. Answer with its name or id${listed}.`,
        `你说的“${phrases[0]}”是哪个复习？今天和本周之后都没有 ${time} 开始的复习。请回答任务名称或 id${listed}。`,
      ),
    };
  }
  if (!next) {
    // ("my 10am review", "my morning review": which it is; "my next review": which comes next.)
    const which = isNextReview(phrases[0]!)
      ? say(language, "which review comes next", "下一个是哪个")
      : say(language, "which review that is", "是哪一个");
    const why = !facts.now
      ? say(language, `I cannot tell the time now, so I cannot tell ${which}`, `我不知道现在的时间，没法判断${which}`)
      : (overview?.placedOmitted ?? 0) > 0
        ? say(
            language,
            `Your week has more placed reviews than I can see at once, so I cannot tell ${which}`,
            `本周安排的复习太多，我一次看不全，没法判断${which}`,
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
  return namedAs(
    next,
    time === undefined
      ? say(language, `Your next review is ${JSON.stringify(next.name)}`, `你的下一个复习是“${next.name}”`)
      : say(language, `Your ${time} review is ${JSON.stringify(next.name)}`, `${time} 的复习是“${next.name}”`),
  );

  /** The request with the review meant named by its own name (its id when another shares it), and what to say. */
  function namedAs(review: Placed, which: string): NextReviewed {
    const shared = overview!.placedTasks.filter((task) => task.name === review.name).length > 1;
    const name = shared ? review.id : review.name;
    const swap = (phrase: string) => (meant(phrase) ? name : phrase);
    const renamed: ScheduleRequest =
      request.kind === "swap"
        ? { ...request, first: swap(request.first), second: swap(request.second) }
        : ({ ...request, task: swap((request as { task: string }).task) } as ScheduleRequest);
    const where = placeWords(review.place, facts, language);
    return { request: renamed, said: say(language, `${which} (${where}). `, `${which}（${where}）。`) };
  }
}
