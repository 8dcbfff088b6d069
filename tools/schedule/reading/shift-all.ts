/**
 * A request about every review of a day or of the week ("move all my reviews to the evening", "I'm busy on Friday,
 * move my reviews", "push Tuesday's reviews back a day"): the days said, the shift, the days to leave.
 */
import type { DayOfReviews, MoveRequest, PartOfDay, ScheduleRequest } from "./request-kinds.js";
import { MOVE_VERB, WEEKDAYS_EN, ZH_WEEKDAY_NUMBER } from "./words.js";

export { MOVE_VERB };
import { DAY_OR_SHORT_EN, DAY_SAID_EN, isAnywhere, isEmptySelection, isPartAlone, readPartOfDay } from "./where.js";
import { splitNamingDay } from "./day-names.js";
import { readClockTime } from "./clock-words.js";

/** Days that name a task by its day, listed: "tomorrow's", "monday evening's", "thursday and friday's". */
export const DAYS_NAMING = new RegExp(
  String.raw`\b(?:${DAY_SAID_EN}(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*))*(?:this\s+)?[a-z]+(?:\s+(?:morning|afternoon|evening|night))?'s\b`,
  "g",
);

/** The Chinese of moving a thing to a place or a time ("移到", "改到", "推迟到", "提前到"). */
export const MOVE_TO_ZH = String.raw`移到|挪到|调到|改到|换到|移至|改成|调整到|推迟到|推后到|推到|挪去|移去|调去|延后到|延迟到|顺延到|提前到`;

export const EVERY_REVIEW =
  /^(?:(?:all|every one|each)\s+)?(?:of\s+)?(?:(?:my|the)\s+)?(?:reviews|review sessions|study sessions|sessions|things|stuff)$|^(?:everything|all of them|every review|each review)$|^(?:我的?)?(?:所有|全部|所有的|全部的)(?:复习|任务)(?:都)?$|^(?:我的)?(?:复习|任务)(?:都|全部)$/;

/**
 * Every review said with the day it is on after it ("my reviews from Thursday afternoon", "my reviews from Thursday
 * and Friday", "my reviews off thu": a weekday said short too — before, a task named "reviews off thu" was sought;
 * today, tonight and tomorrow with no word before them: "all my reviews today", "everything tomorrow" — before, a task
 * named "reviews today" was sought): group 1 the day, or the days.
 */
const REVIEWS_OF_DAY = new RegExp(
  String.raw`^(?:(?:all|every one|each)\s+)?(?:of\s+)?(?:(?:my|the)\s+)?(?:reviews|review sessions|study sessions|sessions|things|stuff|everything)\s+(?:(?:from|off|on|of)\s+(${DAY_OR_SHORT_EN}(?:(?:\s*,\s*|\s+and\s+|\s*&\s*)${DAY_OR_SHORT_EN})*)|((?:today|tonight|tomorrow)(?:\s+(?:morning|afternoon|evening|night))?))$`,
);

/**
 * True when `phrase` names every review of a day by the day said after it or before it with no "'s" ("all my reviews
 * on friday", "everything today", "friday reviews"): the day names the reviews, it is not where they go.
 */
export function saysDayOfReviews(phrase: string): boolean {
  const said = phrase.trim();
  return (
    REVIEWS_OF_DAY.test(said) ||
    DAY_NAMED_REVIEWS.test(said.replace(/^(?:(?:all|every one|each)\s+)?(?:of\s+)?(?:(?:my|the)\s+)?/, ""))
  );
}

/** "Friday reviews", "tomorrow reviews" (of "all my Friday reviews"): a day's reviews, said with no "'s" (group 1). */
const DAY_NAMED_REVIEWS =
  /^((?:this\s+|next\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow|(?:this\s+)?weekend)\s+reviews$/;
/**
 * A day's reviews, all of them: "today's reviews", "all of friday's reviews", "今天的复习都", "周五的所有复习" ("周四的复习"
 * alone may be one review: it stays a move, which asks which when the day holds several).
 */
export const DAY_REVIEWS =
  /^(?:(?:all|each|every one)\s+)?(?:of\s+)?(.+?'s)\s+reviews$|^(.+?的)(?:(?:所有|全部)(?:的)?复习(?:都|全部)?|复习(?:都|全部))$/;

/**
 * A move that names every review, or every review of a day, by whole days or by time the same day (a shift, or a
 * day's reviews to another day) as `shift_all`; any other request as it is. Every review to one day, later or earlier
 * without an amount, or a move said with others stays a move.
 */
export function asShiftAll(request: ScheduleRequest): ScheduleRequest {
  if (request.kind !== "move" || request.also) return request;
  // "everything after 3pm", "my reviews from 15:00 on", "今天三点以后的复习都": the reviews from that time on, of the day
  // said (today's when none is) — before, a task named "everything after 3pm" was sought.
  const timed = splitStartsFrom(request.task.trim());
  if (timed) {
    // (Every review said with no day is today's: "move everything after 3pm to tomorrow" as today's reviews.)
    const task = EVERY_REVIEW.test(timed.task) ? "today's reviews" : timed.task;
    const read = asReviewsShift({ ...request, task });
    if (read.kind !== "shift_all" || read.part || read.more) return request;
    return { ...read, startsFrom: timed.startsFrom };
  }
  return asReviewsShift(request);
}

/**
 * Every review from a time of the clock on, said in a task's place: "everything after 3pm", "all my reviews from 15:00
 * on", "friday's reviews after 7", "所有三点以后的复习", "今天下午三点以后的复习都", "周一15:00以后的所有复习" — the words
 * without the time, and the time ("HH:MM"). Undefined when no such time is said.
 */
function splitStartsFrom(task: string): { task: string; startsFrom: string } | undefined {
  const english = STARTS_FROM_EN.exec(task);
  const chinese = english ? null : STARTS_FROM_ZH.exec(task);
  const [, said = "", time = "", after = ""] = english ?? chinese ?? [];
  // ("今晚8点以后": the part of the day said with its day is the time's half — 20:00 — and the day is today.)
  const dayPart = english ? "" : (/(?:今|明)(?:晚上?|早上?)$/.exec(said)?.[0] ?? "");
  const startsFrom = english ? readClockTime(`at ${time}`) : chinese ? readClockTime(`${dayPart}${time}`) : undefined;
  if (startsFrom === undefined) return undefined;
  const before = dayPart === "" ? said : `${said.slice(0, -dayPart.length)}${dayPart[0]}天`;
  // ("三点以后的都": every review.)
  const rest = /^(?:都|全部|全都)?$/.test(after) ? "所有复习" : after;
  // ("everything after 3pm tomorrow": tomorrow's reviews.)
  const words = english
    ? `${before}${after}`.trim()
    : before === ""
      ? rest
      : `${before}的${rest}`.replace(/的的/, "的");
  return { task: words, startsFrom };
}
const CLOCK_SAID_EN = String.raw`(?:\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?:\s*[ap]\.?m\.?)?|noon)`;
/** "after 3pm", "from 15:00 on", "starting at 7 onwards" (group: the time), not the "on" of "on Friday". */
const STARTS_FROM_SAID_EN = String.raw`(?:after|from|starting(?:\s+(?:from|at))?)\s+(${CLOCK_SAID_EN})(?:\s+onwards?|\s+on(?!\s+(?:the\s+)?[a-z]+day\b))?`;
/** The words before it (group 1), the time (2), and a day said after it (3). */
const STARTS_FROM_EN = new RegExp(
  String.raw`^(.+?)\s+${STARTS_FROM_SAID_EN}(\s+(?:today|tonight|tomorrow|(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day))?$`,
);
/** `phrase` without a time every review from which is named ("my reviews after 7pm on friday" → "my reviews on friday"). */
export function withoutStartsFrom(phrase: string): string {
  return phrase.replace(STARTS_FROM_WORDS_EN, "");
}
const STARTS_FROM_WORDS_EN = new RegExp(String.raw`\s+${STARTS_FROM_SAID_EN}(?=\s|$)`);
const STARTS_FROM_ZH =
  /^(.*?)((?:上午|下午|晚上|傍晚)?(?:\d{1,2}(?::\d{2})?|[一二两三四五六七八九十]{1,3})(?:点(?:半)?)?)(?:以后|之后|后|起)的?(.*)$/;

function asReviewsShift(request: MoveRequest): ScheduleRequest {
  const shift = request.shift;
  if (shift && "sameDay" in shift) return request;
  const by = shift ? ("days" in shift ? { days: shift.days } : { minutes: shift.minutes }) : undefined;
  // ("Push the rest to tomorrow", "剩下的都挪到明天": what is left of today, as "the rest of today" — before, a task
  // named "rest" was sought.)
  const said = request.task.trim();
  const rest = REST_ALONE.test(said) ? (/[\u4e00-\u9fff]/.test(said) ? "今天的所有复习" : "today's reviews") : said;
  const task = dayAloneAsReviews(rest) ?? rest;
  if (EVERY_REVIEW.test(task)) {
    if (by !== undefined) return { kind: "shift_all", ...by };
    const off = awayFrom(request) ?? offOneDayTo(request);
    // ("Move all my reviews to the evening", "把复习都挪到晚上": each into that part of its own day.)
    if (!off && isPartAlone(request.where)) return { kind: "shift_all", days: 0, into: request.where.slots.part! };
    return off ? withSameDayInto(off) : (intoOwnDays(request) ?? request);
  }
  // "my reviews from Thursday", "everything on Thursday afternoon", "all my reviews off Thursday": Thursday's reviews.
  const from = REVIEWS_OF_DAY.exec(task) ?? DAY_NAMED_REVIEWS.exec(task);
  // ("今天所有的复习" as "今天的所有复习".)
  const dayReviews = DAY_REVIEWS.exec(
    from ? `${from[1] ?? from[2]}'s reviews` : task.replace(/^(.+?[^的])(所有|全部)的复习/, "$1的$2复习"),
  );
  // "Thursday's and Friday's reviews", "周四和周五的所有复习": every review of each day named.
  const several = dayReviews ? daysOfReviewsIn(dayReviews[1] ?? dayReviews[2] ?? "") : undefined;
  if (several && several.days.length > 1) return shiftAllOfDays(request, by, several);
  const named = dayReviews
    ? splitNamingDay(dayReviews[1] !== undefined ? `${dayReviews[1]} reviews` : `${dayReviews[2]}复习`)
    : undefined;
  if (!named || (named.weekday === undefined && named.fromToday === undefined)) return request;
  // "Monday evening's reviews", "tonight's reviews", "周一晚上的所有复习": that part of the day's only.
  const part = readPartOfDay(dayReviews![1] ?? dayReviews![2] ?? "");
  const of = {
    ...(named.weekday !== undefined ? { weekday: named.weekday } : { fromToday: named.fromToday! }),
    ...(part ? { part } : {}),
  };
  if (by !== undefined) return { kind: "shift_all", ...by, ...of };
  // "… to another day", "… off Thursday morning": off the day (or that part of it), to no place named.
  if (request.otherDay && isAnywhere(request.where)) return { kind: "shift_all", ...of, ...offTheDay(request) };
  const away = awayFrom(request);
  if (away && away.weekday === named.weekday && away.fromToday === named.fromToday && (away.part ?? part) === part)
    return { ...away, ...of };
  // "… to tomorrow": one day to move them to.
  const only = request.where.only;
  const targets = only.weekdays.length + only.days.length + (only.dates?.length ?? 0);
  if (targets !== 1 || !isEmptySelection(request.where.not)) return request;
  return withSameDayInto({ kind: "shift_all", ...of, to: request.where });
}

type ShiftAllRequest = Extract<ScheduleRequest, { kind: "shift_all" }>;

/**
 * The part of the days ruled out moved into another part of the same days: "I'm busy Thursday and Friday morning, move
 * my reviews to the afternoon" (before, "out of the afternoon"). Undefined for any other move.
 */
function intoOwnDays(move: MoveRequest): ShiftAllRequest | undefined {
  const { part, ...slots } = move.where.slots;
  if (part === undefined || move.where.notDaysPart === undefined || Object.keys(slots).length > 0) return undefined;
  const off = awayFrom({ ...move, where: { ...move.where, slots: {} } });
  if (!off) return undefined;
  const { away: _away, ...days } = off;
  return { ...days, days: 0, into: part };
}

/**
 * A day's reviews to a part of that same day ("Monday afternoon's reviews to Monday evening", "I'm busy this afternoon,
 * move my reviews to the evening"): no day to go to, but `into` that part of their own (before, a step no one read).
 */
function withSameDayInto(shift: ShiftAllRequest): ShiftAllRequest {
  const to = shift.to;
  if (!to || shift.more || Object.keys(to.slots).join() !== "part") return shift;
  const { weekdays, days, dates = [] } = to.only;
  const same =
    days.length === 0 &&
    weekdays.length + dates.length === 1 &&
    (shift.weekday !== undefined
      ? weekdays[0] === shift.weekday
      : dates[0]?.kind === "offset" && dates[0].days === shift.fromToday);
  if (!same) return shift;
  const { to: _to, ...rest } = shift;
  return { ...rest, days: 0, into: to.slots.part! };
}

/**
 * A shift by whole days with the part of the day they go into said after it, as the plan's step says it ("Push all of
 * Monday's reviews 1 day later, into the evening", "把周一的所有复习往后推1天，挪到晚上"): `read` of the words before it,
 * with `into`. Undefined for any other text.
 */
export function readShiftInto(text: string, read: (text: string) => ScheduleRequest): ScheduleRequest | undefined {
  const said = INTO_AFTER_SHIFT.exec(text.trim());
  const part = said ? readPartOfDay(said[2] ?? said[4]!) : undefined;
  if (!said || !part) return undefined;
  const shift = read(said[1] ?? said[3]!);
  if (shift.kind !== "shift_all" || shift.days === undefined || shift.into || shift.away || shift.to) return undefined;
  return { ...shift, into: part };
}
const INTO_AFTER_SHIFT =
  /^(.+?\b(?:days?\s+(?:later|earlier)|back\s+(?:a|one|\d+)\s+days?|forward\s+(?:a|one|\d+)\s+days?))\s*,\s*into\s+(the\s+(?:morning|afternoon|evening))\s*\.?$|^(.+?(?:往后推|推迟|提前)\d+天)[，,]\s*挪到(上午|下午|晚上)$/;

/** What is left, said alone: "the rest", "the rest of my reviews", "everything else", "剩下的都", "剩下的复习". */
const REST_ALONE =
  /^(?:the\s+)?rest(?:\s+of\s+(?:them|(?:my|the)\s+(?:reviews|sessions|study sessions|stuff)))?$|^(?:everything|all)\s+else$|^剩下的?(?:复习|任务)?(?:都|全部|全都)?$|^(?:其余|其他)的?(?:复习)?(?:都|全部)?$/;

/**
 * A day said alone where a task would be, as that day's reviews: "today", "all of tuesday", "tuesday and wednesday",
 * "thursday morning", "今天", "今天的都", "周四全部" ("push today back a day", "move tuesday to wednesday",
 * "把今天的都挪到明天") — "today's reviews", "周四的所有复习" (before, a task named "today" was sought). Undefined for
 * anything else ("周四的" alone, like "周四的复习", may be one review).
 */
export function dayAloneAsReviews(phrase: string): string | undefined {
  const days = /^(?:(?:all|the whole)\s+)?(?:of\s+)?([a-z][a-z\s,&]*)$/.exec(phrase)?.[1]?.trim();
  if (days !== undefined) return daysOfReviewsIn(days) ? `${days}'s reviews` : undefined;
  const chinese = /^(?:全部|所有)?(.+?)(?:的?(?:都|全部|全都|所有))?$/.exec(phrase)?.[1];
  return chinese && !chinese.endsWith("的") && daysOfReviewsIn(chinese) ? `${chinese}的所有复习` : undefined;
}

/**
 * Every review of the one day a move rules out, to the one day it names: "I'm sick today, push everything to
 * tomorrow", "I'm busy Thursday, move my reviews to Friday", "我今天生病了，把复习都挪到明天" — as "move today's reviews to
 * tomorrow" (before, a review named "everything" or "reviews" was sought). Undefined for any other move.
 */
function offOneDayTo(move: MoveRequest): Extract<ScheduleRequest, { kind: "shift_all" }> | undefined {
  const { only, slots } = move.where;
  const targets = only.weekdays.length + only.days.length + (only.dates?.length ?? 0);
  if (targets !== 1 || Object.keys(slots).some((key) => key !== "part")) return undefined;
  // The part of the day ruled out ("busy Thursday morning") is `notDaysPart`; the part said with the target is where.
  const off = awayFrom({ ...move, where: { ...move.where, only: { weekdays: [], days: [] }, slots: {} } });
  if (!off || off.more) return undefined;
  const { away: _away, ...day } = off;
  return { ...day, to: { only, not: { weekdays: [], days: [] }, slots } };
}

/**
 * Every review of the days a move rules out moved off them, to no place named: a move that rules out days (weekdays, or
 * days said from today) and names no place, of that part of them when it names one ("move my reviews off Thursday
 * morning", "I'm busy Thursday and Friday, move my reviews"). Undefined for any other move.
 */
/** A day's reviews "to another day" (or "to an earlier day": `dayward`, the way they may go), to no place named. */
function offTheDay(move: MoveRequest): { away: "day"; dayward?: "earlier" | "later" } {
  return { away: "day", ...(move.dayward ? { dayward: move.dayward } : {}) };
}

export function awayFrom(move: MoveRequest): Extract<ScheduleRequest, { kind: "shift_all" }> | undefined {
  const { only, not, slots } = move.where;
  // ("Out of Monday 14:00-16:00": a window of the clock, both its ends said, as a part of the day.)
  const window = slots.startsFrom !== undefined && slots.endsBy !== undefined && slots.part === undefined;
  const keys = window ? ["startsFrom", "endsBy"] : ["part"];
  if (!isEmptySelection(only) || Object.keys(slots).some((key) => !keys.includes(key)) || not.days.length > 0)
    return undefined;
  // ("I'm busy Thursday and Friday morning, move my reviews to the afternoon": a part said with a part ruled out is
  // where they go, not the part they leave — before, "out of the afternoon".)
  if (slots.part !== undefined && move.where.notDaysPart !== undefined) return undefined;
  const dated = (not.dates ?? []).map((date): DayOfReviews | undefined =>
    date.kind === "offset" && date.days >= 0
      ? { fromToday: date.days }
      : date.kind === "weekday" && date.weeks === 0
        ? { weekday: date.weekday }
        : undefined,
  );
  if (dated.includes(undefined)) return undefined;
  const days = dayList([
    ...not.weekdays.map((weekday) => ({ weekday })),
    ...(dated as DayOfReviews[]).sort((a, b) => dayKey(a).localeCompare(dayKey(b))),
  ]);
  const [first, ...more] = days;
  if (!first) return undefined;
  const part = window ? undefined : (slots.part ?? move.where.notDaysPart);
  return {
    kind: "shift_all",
    ...first,
    ...(part ? { part } : {}),
    ...(window ? { startsFrom: slots.startsFrom!, endsBy: slots.endsBy! } : {}),
    ...(more.length > 0 ? { more } : {}),
    away: (part || window) && !move.otherDay ? "part" : "day",
  };
}

/** A day of reviews as a key: the same day said twice is one. */
function dayKey(day: DayOfReviews): string {
  return "weekday" in day ? `w${day.weekday}` : `t${day.fromToday}`;
}

/** The days, each once, in the order first said. */
function dayList(days: readonly DayOfReviews[]): DayOfReviews[] {
  const seen = new Set<string>();
  return days.filter((day) => !seen.has(dayKey(day)) && Boolean(seen.add(dayKey(day))));
}

/** A day named alone: "thursday", "this friday", "today", "tomorrow", "周四", "星期五", "今天", "明晚". */
function dayNamedAlone(word: string): DayOfReviews | undefined {
  const english = /^(?:this\s+)?([a-z]+)$/.exec(word);
  if (english) {
    if (/^(?:today|tonight)$/.test(english[1]!)) return { fromToday: 0 };
    if (english[1] === "tomorrow") return { fromToday: 1 };
    const weekday = WEEKDAYS_EN.find(([pattern]) => pattern.test(english[1]!))?.[1];
    return weekday !== undefined && /day$|^(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)$/.test(english[1]!)
      ? { weekday }
      : undefined;
  }
  const chinese = /^(?:周|星期|礼拜)([一二三四五六日天1-7])$/.exec(word)?.[1];
  if (chinese !== undefined) return { weekday: ZH_WEEKDAY_NUMBER[chinese] ?? Number(chinese) };
  if (/^今(?:天|晚|早)$/.test(word)) return { fromToday: 0 };
  if (/^明(?:天|晚|早)$/.test(word)) return { fromToday: 1 };
  return undefined;
}

/**
 * The days a day's-reviews phrase names, in the order said, and the one part of the day said with them: "thursday's
 * and friday's", "thursday and friday morning's", "周四和周五上午的", "今天和明天的". Undefined when it says anything else,
 * or two parts ("thursday morning's and friday evening's").
 */
function daysOfReviewsIn(phrase: string): { days: DayOfReviews[]; part?: PartOfDay } | undefined {
  const pieces = phrase
    .replace(/(?:'s|的)\s*$/, "")
    .split(/\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*|、|和|与|及|跟)\s*/)
    .map((piece) => piece.trim());
  const parts = new Set<PartOfDay>();
  const days: DayOfReviews[] = [];
  for (const piece of pieces) {
    const part = readPartOfDay(piece);
    if (part) parts.add(part);
    const bare = piece
      .replace(/'s$/, "")
      .replace(/\s+(?:morning|afternoon|evening|night)$|(?<=.)(?:上午|下午|晚上|早上)$/, "")
      .trim();
    // ("my weekend reviews", "the weekend's reviews", "周末的复习都": Saturday's and Sunday's.)
    if (/^(?:the\s+|this\s+)?weekend$|^(?:这个|这)?周末$/.test(bare)) {
      days.push({ weekday: 6 }, { weekday: 7 });
      continue;
    }
    const day = dayNamedAlone(bare);
    if (!day) return undefined;
    days.push(day);
  }
  if (parts.size > 1) return undefined;
  const part = [...parts][0];
  return { days: dayList(days), ...(part ? { part } : {}) };
}

/**
 * The reviews of several days ("Thursday's and Friday's reviews") moved as one: by whole days or by time, off those
 * days to no place named, or to one day named (each day's reviews by their own number of days: the planner makes a
 * step for each).
 */
function shiftAllOfDays(
  request: MoveRequest,
  by: { days: number } | { minutes: number } | undefined,
  several: { days: DayOfReviews[]; part?: PartOfDay },
): ScheduleRequest {
  const [first, ...more] = several.days;
  const of = { ...first!, ...(several.part ? { part: several.part } : {}), more };
  if (by !== undefined) return { kind: "shift_all", ...by, ...of };
  if (request.otherDay && isAnywhere(request.where)) return { kind: "shift_all", ...of, ...offTheDay(request) };
  const away = awayFrom(request);
  const keys = (days: readonly DayOfReviews[]) => days.map(dayKey).sort().join();
  if (
    away &&
    keys([away, ...(away.more ?? [])] as DayOfReviews[]) === keys(several.days) &&
    (away.part ?? several.part) === several.part
  )
    return { ...away, ...of };
  // ("Thursday morning's and Friday morning's reviews to the afternoon": into that part of each one's own day.)
  if (isPartAlone(request.where)) return { kind: "shift_all", ...of, days: 0, into: request.where.slots.part! };
  const only = request.where.only;
  const targets = only.weekdays.length + only.days.length + (only.dates?.length ?? 0);
  if (targets !== 1 || !isEmptySelection(request.where.not)) return request;
  return { kind: "shift_all", ...of, to: request.where };
}
