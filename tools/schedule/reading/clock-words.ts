/**
 * The clock in a request: a time of day ("at 7pm", "19:30", "晚上七点", "after lunch"), a range ("between 2 and 4",
 * "下午两点到四点"), a time something must end by or start from, and an hour nothing may start before — each read, and
 * each taken out of the text so what is left names no hour.
 */
import { NUMBER_WORDS, readNumber } from "./words.js";
import { isSmallHour } from "../../../contracts/clock.js";

/**
 * An hour said in Chinese, in digits or in Chinese numerals: "9", "九", "十二" (the one piece every Chinese hour uses).
 * Never the tail of a longer number: "100点" is no "00点" (before, "晚上100点以后不要" read the "00点" in it).
 */
export const HOUR_NUMBER_ZH = String.raw`(?:(?<!\d)\d{1,2}|[零一二两三四五六七八九十]{1,3})`;

/**
 * Words of the night said before a Chinese hour ("半夜12点", "深夜十二点"): only their 12 o'clock is read by them, as
 * midnight, as "晚上12点" is (`MIDNIGHT_PART_ZH`); any other hour after them reads as it does alone.
 */
const NIGHT_ZH = "半夜|深夜|午夜|夜里";
const NIGHT_PART_ZH = new RegExp(`^(?:${NIGHT_ZH})$`);

/**
 * "not before 10", "nothing before 10am", "nothing before 10pm", "no earlier than 9", "I don't study before 9am",
 * "10点以前不要", "早上十点前别": group 1 or 3 holds the hour (3 in digits or Chinese numerals), group 2 its "am" or "pm".
 */
export const NOT_BEFORE_HOUR = new RegExp(
  String.raw`(?:\b(?:never|not|nothing|no)|n't)\s+(?:\w+\s+){0,3}?(?:before|earlier than)\s+(\d{1,2})(?::00)?\s*([ap]m\b|[ap]\.m\.)?(?![\d:])|(?<!周|星期|礼拜)(${HOUR_NUMBER_ZH})\s*点(?:钟)?(?:以前|之前|前)(?:不要|不|别|从不)`,
);

/** Every such limit of a fragment, to read the rest without them. */
const EVERY_NOT_BEFORE_HOUR = new RegExp(NOT_BEFORE_HOUR.source, "g");

/**
 * Every Chinese such limit with its part of the day and the placing said not to be made ("晚上10点以前不要",
 * "10点以前别排"): words that rule out no part of the day and no day — "周五10点以前不要" is Friday from 10:00, as
 * "not before 10 on friday" is (before, Friday was ruled out whole, and "晚上10点以前不要" the evening).
 */
const EVERY_NOT_BEFORE_HOUR_ZH = new RegExp(
  String.raw`(?:上午|早上|早晨|中午|下午|傍晚|晚上|${NIGHT_ZH})?\s*(?<!周|星期|礼拜)${HOUR_NUMBER_ZH}\s*点(?:钟)?(?:以前|之前|前)(?:不要|不想|不|别|从不)(?:再)?(?:安排|排|放)?(?:复习|学习|任务)?`,
  "g",
);

/** `fragment` without its Chinese hours nothing starts before (`EVERY_NOT_BEFORE_HOUR_ZH`). */
export function withoutNotBeforeHourZh(fragment: string): string {
  return fragment.replace(EVERY_NOT_BEFORE_HOUR_ZH, " ");
}

/** A part of the day after noon, said right before a Chinese hour ("晚上10点以前不要"): the hour is the evening's. */
const AFTERNOON_BEFORE_HOUR_ZH = /(?:下午|傍晚|晚上)\s*$/;
/** A part of the day whose 12 o'clock is midnight, said right before a Chinese hour ("晚上12点以前不要", "半夜12点…"). */
const MIDNIGHT_BEFORE_HOUR_ZH = new RegExp(String.raw`(?:晚上|今晚|明晚|${NIGHT_ZH})\s*$`);

/**
 * The hour a fragment says nothing may start before, if any: an hour said with "pm" or after 下午 / 晚上 is the
 * afternoon's or the evening's ("nothing before 10pm", "晚上10点以前不要": 22 — before, 10). Midnight ("晚上12点以前
 * 不要", "半夜12点以前别排", "0点以前不要", "nothing before 12am") is none: nothing of a day starts before its end, and
 * nothing is before its start — before, "晚上12点以前不要" was noon, and "before 12am" too.
 */
export function readNotBeforeHour(fragment: string): number | undefined {
  const match = NOT_BEFORE_HOUR.exec(fragment);
  return match ? notBeforeHourOf(match, fragment.slice(0, match.index)) : undefined;
}

/** The hour of one match of {@link NOT_BEFORE_HOUR}, with the words `before` it (their part of the day is its own). */
function notBeforeHourOf(match: RegExpMatchArray, before: string): number | undefined {
  const said = match[1] !== undefined ? Number(match[1]) : readNumber(match[3] ?? "");
  const chinese = match[3] !== undefined;
  const midnight =
    said === 0 || (said === 12 && (chinese ? MIDNIGHT_BEFORE_HOUR_ZH.test(before) : match[2]?.startsWith("a")));
  if (midnight) return undefined;
  const pm = match[2]?.startsWith("p") || (chinese && AFTERNOON_BEFORE_HOUR_ZH.test(before));
  const hour = pm && said < 12 ? said + 12 : said;
  return Number.isInteger(hour) && hour >= 0 && hour <= 23 ? hour : undefined;
}

/**
 * `fragment` without the hours it says nothing starts before that read as one (`readNotBeforeHour`): one that reads as
 * none ("晚上12点以前不要", "25点以前不要") stays, to be said as an hour no preference keeps.
 */
export function withoutNotBeforeHours(fragment: string): string {
  let rest = "";
  let from = 0;
  for (const match of fragment.matchAll(EVERY_NOT_BEFORE_HOUR)) {
    const at = match.index ?? 0;
    if (notBeforeHourOf(match, fragment.slice(0, at)) === undefined) continue;
    rest += `${fragment.slice(from, at)} `;
    from = at + match[0].length;
  }
  return rest + fragment.slice(from);
}

/**
 * "no studying after 9pm", "nothing after 21:00", "I never study past 10pm", "not later than 9", "9点以后不学习",
 * "晚上9点后不复习", "工作日晚上九点之后从不复习", "nothing after midnight" (24): an hour nothing may end after, said
 * with a "no" (an hour alone after "after", "put it on Friday after 9pm", is a placement's start, `readStartsFrom`).
 * Groups "hour" with "colon" (a clock time, "21:00") or "mark" ("pm", "am"), "midnight", or "zh" with "part" (晚上,
 * 上午 …). Whole hours only ("after 21:30" is no such hour).
 */
/** The parts of the day said before a Chinese hour nothing goes after. */
const NOT_AFTER_PART_ZH = `上午|早上|早晨|中午|下午|傍晚|晚上|凌晨|${NIGHT_ZH}`;
/** "过了" said before such an hour is its "以后" ("过了12点不学", "过了晚上10点就不学了"): the words after it. */
export const PAST_HOUR_ZH = String.raw`(?<=过了\s*(?:(?:${NOT_AFTER_PART_ZH})?\s*${HOUR_NUMBER_ZH}\s*点(?:钟)?|午夜))(?!\s*(?:以前|之前|前))`;
/** The Chinese of {@link NOT_AFTER_HOUR}: "晚上9点以后不要", "9点之后别", "十点后从不", "10点过后不", "过了12点不学". */
const NOT_AFTER_HOUR_ZH = String.raw`(?:过了\s*)?(?:(?<part>${NOT_AFTER_PART_ZH})?\s*(?<!周|星期|礼拜)(?<zh>${HOUR_NUMBER_ZH})\s*点(?:钟)?|(?<midnightZh>午夜))(?:以后|之后|过后|后|${PAST_HOUR_ZH})(?:都|也|就|一般|从来)?(?:不要|不想|不|别|从不|绝不)(?!行|可以|方便)`;
/** The English of {@link NOT_AFTER_HOUR} from "after": "after 9pm", "past 21:00", "later than midnight". */
const AFTER_HOUR_EN = String.raw`(?:after|past|later than)\s+(?:(?<hour>\d{1,2})(?<colon>:00)?\s*(?<mark>[ap]\.?m\b\.?|o'?clock\b)?(?![\d:]|\.\d)(?!\s*(?:slots?|sections?|periods?|days?|hours?|minutes?|mins?|weeks?|times?|tasks?|reviews?|st|nd|rd|th)\b)(?:\s*\b(?<partEn>in the (?:morning|afternoon|evening|night)|at night)\b)?|(?<midnight>midnight)\b)`;
export const NOT_AFTER_HOUR = new RegExp(
  String.raw`(?:\b(?:never|not|nothing|no)|n't)\s+(?:[\w']+\s+){0,3}?${AFTER_HOUR_EN}|${NOT_AFTER_HOUR_ZH}`,
);

/** Every such hour of a fragment, to read the rest without them. */
export const EVERY_NOT_AFTER_HOUR = new RegExp(NOT_AFTER_HOUR.source, "g");
/** Every such hour said in Chinese, with the placing said not to be made after it ("9点以后别排", "…不要安排复习"). */
const EVERY_NOT_AFTER_HOUR_ZH = new RegExp(
  String.raw`${NOT_AFTER_HOUR_ZH}(?:再)?(?:安排|排|放)?(?:任何)?(?:的)?(?:复习|学习|任务)?`,
  "g",
);
/**
 * Such an hour said in English with words between its "no" and its "after" ("no studying after 9pm", "I don't study
 * past 10pm", "no reviews after 9pm"), which a request's time limit (`ENDS_BY`: "not after 9pm") does not read.
 */
const EVERY_NOT_AFTER_HOUR_WORDED = new RegExp(
  String.raw`(?:\b(?:never|not|nothing|no)|n't)\s+(?:[\w']+\s+){1,3}?${AFTER_HOUR_EN}`,
  "g",
);

/**
 * An hour nothing may end after, said where a request puts things ("帮我安排复习，晚上9点以后不要", "move the essay to
 * tomorrow, no studying after 9pm"): the time limit it sets ("21:00"; "24:00" for midnight, the day's own end —
 * before, none, and the 12 left was asked back as a number read as nothing), and the fragment without its words — its
 * "晚上" and "不要", its "no", are no evening or day ruled out, and no part of a task's name. "Not after 9pm" is a time
 * limit already (`ENDS_BY`); before, "no studying after 9pm" in a request was dropped (a move ignored it).
 */
export function takeNotAfterHour(fragment: string): { endsBy?: string; rest: string } {
  let endsBy: string | undefined;
  const take = (said: string) => {
    const hour = readNotAfterHour(said);
    if (endsBy === undefined && hour !== undefined) endsBy = `${String(hour).padStart(2, "0")}:00`;
    return " ";
  };
  // ("帮我安排复习，晚上9点半以后不要", "arrange my reviews, no studying after 9:30pm": a time of minutes ends a request's
  // day as "nothing after 9:30pm" does — before, "9点半以后不要" was sought as a task and the English was refused as an
  // unread number. No standing preference keeps one: `NOT_AFTER_HOUR` reads whole hours only.)
  const takeMinutes = (...found: unknown[]) => {
    const groups = found.at(-1) as Record<string, string | undefined>;
    const hour = notAfterHourOf(groups);
    const minute = groups.half !== undefined ? 30 : readNumber(groups.minutes ?? groups.minutesZh ?? "");
    if (endsBy === undefined && typeof hour === "number" && hour < 24 && minute >= 0 && minute < 60)
      endsBy = `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
    return " ";
  };
  const rest = fragment
    .replace(EVERY_NOT_AFTER_MINUTES, takeMinutes)
    .replace(EVERY_NOT_AFTER_HOUR_ZH, take)
    .replace(EVERY_NOT_AFTER_HOUR_WORDED, take);
  return endsBy === undefined ? { rest } : { endsBy, rest };
}

/**
 * A time of minutes nothing may go after, said in a request: "no studying after 9:30pm", "nothing past 21.30" (groups
 * "hour", "minutes", "mark"), "晚上9点半以后不要", "9点40分以后别排" (groups "part", "zh", "half" or "minutes").
 */
const EVERY_NOT_AFTER_MINUTES = new RegExp(
  String.raw`(?:\b(?:never|not|nothing|no)|n't)\s+(?:[\w']+\s+){0,3}?(?:after|past|later than)\s+(?<hour>\d{1,2})[:.](?<minutes>[0-5]\d)(?![\d:.])\s*(?<mark>[ap]\.?m\b\.?)?` +
    String.raw`|(?:过了\s*)?(?<part>${NOT_AFTER_PART_ZH})?\s*(?<!周|星期|礼拜)(?<zh>${HOUR_NUMBER_ZH})\s*点(?:(?<half>半)|(?<minutesZh>\d{1,2}|[一二三四五六七八九十]{1,3})\s*分)(?:以后|之后|过后|后)(?:都|也|就|一般|从来)?(?:不要|不想|不|别|从不|绝不)(?!行|可以|方便)(?:再)?(?:安排|排|放)?(?:任何)?(?:的)?(?:复习|学习|任务)?`,
  "g",
);

/**
 * The hour a fragment says nothing may end after (0-24, 24 being midnight), if any. An hour said without am/pm or a
 * part of the day, up to 12, is the evening's ("nothing after 9", "9点以后不学习": 21:00; "after 12": midnight). An
 * hour of the night past midnight ("after 1am", "凌晨2点以后", {@link readNightHourAfter}) is none: no day ends by it.
 */
export function readNotAfterHour(fragment: string): number | undefined {
  const hour = notAfterHourOf(NOT_AFTER_HOUR.exec(fragment)?.groups);
  return hour === "night" ? undefined : hour;
}

/**
 * The words of an hour of the night past the day's end a fragment says nothing may end after ("no studying after
 * 1am", "凌晨2点以后不要", "after 2 at night", "半夜3点以后不学"), or undefined. No rule keeps one: a review is placed
 * within its own day, which ends by midnight, so nothing is ever placed after such an hour.
 */
export function readNightHourAfter(fragment: string): string | undefined {
  for (const match of fragment.matchAll(EVERY_NOT_AFTER_HOUR)) {
    // (The hour's own words: "after 1am", "凌晨2点以后" — not its "no studying", nor its "不要".)
    if (notAfterHourOf(match.groups) === "night")
      return match[0]
        .replace(/^.*?(?=\b(?:after|past|later than)\b)/, "")
        .replace(/(?<=后).*$/, "")
        .trim();
  }
  return undefined;
}

/** The not-after hour of one match of {@link NOT_AFTER_HOUR}; "night" for an hour of the night past the day's end. */
function notAfterHourOf(groups: Record<string, string | undefined> | undefined): number | "night" | undefined {
  if (!groups) return undefined;
  // ("nothing after midnight", "午夜以后不要": the day's end — before, "午夜以后" was no hour.)
  if (groups.midnight !== undefined || groups.midnightZh !== undefined) return 24;
  const said = readNumber(groups.hour ?? groups.zh ?? "");
  const part = groups.part ?? "";
  const partEn = groups.partEn ?? "";
  // ("半夜1点以后不要", "凌晨2点以后不要": an hour of the night past the day's end — before, 13:00 and 14:00.)
  if ((NIGHT_PART_ZH.test(part) || part === "凌晨") && said !== 12 && said !== 0) return "night";
  const mark = groups.mark?.[0];
  const night = /night/.test(partEn);
  const morning = mark === "a" || /上午|早上|早晨|凌晨/.test(part) || partEn === "in the morning";
  // ("after 1 in the morning", "after 2 at night": the night's, as "1am" is — before, 13:00 and 14:00.)
  if ((morning || night) && isSmallHour(said)) return "night";
  const pm = mark === "p" || (partEn !== "" && !morning && (said !== 12 || !night));
  const clock = groups.colon !== undefined || part === "中午" || (said > 12 && said <= 24);
  const hour = hourOfClock(said, clock, morning, pm);
  if (!Number.isInteger(hour) || hour < 0 || hour > 24) return undefined;
  // ("no studying after 01:00": 1 to 5 o'clock is the night's, whatever words said it — before, a day ending by then.)
  return isSmallHour(hour) ? "night" : hour;
}

/**
 * The hour of the clock an hour said means (24 being midnight): a clock's own ("21:00"); midnight, the day's end ("0:00",
 * "0点", "零点" — before, "0点以后不要" was noon); a morning's ("9am"; "12am" midnight); else the afternoon's or the
 * evening's ("9", "9pm"; "12pm" noon).
 */
function hourOfClock(said: number, clock: boolean, morning: boolean, pm: boolean): number {
  if (said === 0) return 24;
  if (clock) return said;
  if (said === 12) return morning ? 24 : pm ? 12 : 24;
  return morning ? said : said + 12;
}

/** A bare hour after a limit word ("before 8", "after 12", "after 8 o'clock"): no count of slots, days or minutes. */
const BARE_HOUR = String.raw`(?<![\d:])\d{1,2}(?:\s*o'?clock\b)?(?![\d:]|\s*(?:[ap]\.?m\b|slots?\b|sections?\b|periods?\b|days?\b|hours?\b|minutes?\b|mins?\b|weeks?\b|times?\b|tasks?\b|reviews?\b|st\b|nd\b|rd\b|th\b))`;

/**
 * Lunch, the midday break: "before lunch" ends by {@link LUNCH_STARTS}, "after lunch" starts from {@link LUNCH_ENDS}
 * (the hour a school's midday break gives back), read as "before noon" and "after 1pm" are.
 */
const LUNCH_STARTS = "12:00";
const LUNCH_ENDS = "13:00";
/** Dinner, the evening break: "before dinner", "晚饭前" end by it ("after dinner" is the evening, `EVENING_PHRASE`). */
const DINNER_STARTS = "18:00";
const DINNER_BEFORE = String.raw`\b(?:before|by|until|till)\s+(?<dinner>(?:the\s+)?dinner(?:\s*time)?)\b|(?<dinnerZh>晚饭|晚餐)\s*(?:以前|之前|前)`;
const LUNCH_WORD = String.raw`(?:the\s+)?(?:lunch\s*(?:time|break)?|midday\s+break)\b`;
const LUNCH_WORD_ZH = String.raw`(?:午饭|午餐|中饭|中午饭|午休|中午)\s*`;
/** "before lunch", "by lunchtime", "午饭前", "午休之前", "中午以前" (group "lunch" or "lunchZh"). */
const LUNCH_BEFORE = String.raw`\b(?:before|by|until|till)\s+(?<lunch>${LUNCH_WORD})|(?<lunchZh>${LUNCH_WORD_ZH})(?:以前|之前|前)`;
/** "after lunch", "after the lunch break", "午饭后", "午休以后" (group "lunch" or "lunchZh"). */
const LUNCH_AFTER = String.raw`\bafter\s+(?<lunch>${LUNCH_WORD})|(?<lunchZh>${LUNCH_WORD_ZH})(?:以后|之后|后)`;

/**
 * A Chinese hour a limit is said of, with its part of the day (groups "part", "hour", "half" or "minutes"; "hhmm" for "15:30"):
 * "下午五点", "10点半", "今晚8点", "15:30" (before, "今晚8点以后" and "15:30以后" were no limit). Not "晚一点" (a little
 * later), nor a weekday's numeral ("周一").
 */
const LIMIT_HOUR_ZH = String.raw`(?<part>上午|早上|早晨|中午|下午|傍晚|晚上|今晚|明晚|今早|明早|${NIGHT_ZH})?\s*(?<![快慢多少有差好]|(?<!今|明)[晚早])(?<!(?<!周|星期|礼拜)一)(?<!周|星期|礼拜)(?:(?<hhmm>(?<![\d:])\d{1,2}:\d{2})|(?<hour>${HOUR_NUMBER_ZH})\s*点(?:钟)?(?:(?<half>半)|(?<minutes>\d{1,2}|[一二三四五六七八九十]{1,3})\s*分)?)\s*`;

/**
 * A time limit a fragment names: "before 17:00", "by 5pm", "until noon", "no later than 16:30", "not after 8pm", "nothing
 * after 9pm", "before midnight" (group "en": the clock words after it), "before 8", "until 10" (group "bare": an hour
 * alone, read as `readClockTime` reads one — never after "by", which also counts: "by 2 slots"), "10点以前",
 * "下午五点前", "10点半之前" (groups "part", "hour", "half").
 * Not "nothing before 10" (`NOT_BEFORE_HOUR`, read first), nor "10点以前不要".
 */
const ENDS_BY = new RegExp(
  String.raw`\b(?:(?:before|by|until|till|no later than|not after|nothing (?:after|past)|earlier than)\s+(?<en>(?<![\d:])\d{1,2}:\d{2}(?![\d:])(?:\s*[ap]\.?m\b\.?)?|\d{1,2}\s*[ap]\.?m\b\.?|noon|midday|midnight)|(?:before|until|till|no later than|not after|nothing (?:after|past)|earlier than)\s+(?<bare>${BARE_HOUR}))|${LIMIT_HOUR_ZH}(?:以前|之前|前)(?!\s*(?:不要|不|别|从不))|${LUNCH_BEFORE}|${DINNER_BEFORE}`,
);

/**
 * The time limit a fragment names ("before 17:00", "before 8", "周日10点以前"), as "HH:MM", or undefined. Midnight
 * ("before midnight", "before 12am", "晚上12点以前") is the day's end, "24:00": every slot of the week's grid ends by
 * it (a slot's times are of its own day) — before, "晚上12点以前" was noon and "before 12am" 00:00, which no slot ends by.
 */
export function readEndsBy(fragment: string): string | undefined {
  const clock = clockOfLimit(ENDS_BY.exec(fragment.replace(EVERY_NOT_BEFORE_HOUR, " ")), fragment, LUNCH_STARTS);
  return clock === MIDNIGHT ? DAY_END : clock;
}

/** Midnight as a clock time ("at midnight", "晚上12点"), and as the end of the day a time limit ends by. */
const MIDNIGHT = "00:00";
const DAY_END = "24:00";

/** Parts of the day whose 12 o'clock is midnight: "晚上12点", "今晚12点", "半夜12点" (before, noon). */
const MIDNIGHT_PART_ZH = new RegExp(`晚上|今晚|明晚|${NIGHT_ZH}`);

/**
 * A start limit a fragment names: "after 22:30", "after 9pm", "later than noon" (group "en"), "after 12", "after 8
 * o'clock" (group "bare"), "晚上9点以后", "12点之后", "8点半后" (groups "part", "hour", "half"). Not "no later than 16:30"
 * nor "nothing after 9pm" (time limits, `ENDS_BY`), nor "10点以后不要".
 */
const STARTS_FROM = new RegExp(
  String.raw`\b(?:(?:(?<!\b(?:not|nothing)\s)after|(?<!\b(?:no|not|nothing)\s)later than)\s+(?<en>(?<![\d:])\d{1,2}:\d{2}(?![\d:])(?:\s*[ap]\.?m\b\.?)?|\d{1,2}\s*[ap]\.?m\b\.?|noon|midday)|(?:(?<!\b(?:not|nothing)\s)after|(?<!\b(?:no|not|nothing)\s)later than)\s+(?<bare>${BARE_HOUR}))|${LIMIT_HOUR_ZH}(?:以后|之后|后)(?!\s*(?:不要|不|别|从不))|${LUNCH_AFTER}`,
);

/** The start limit a fragment names ("after 22:30", "after 12", "晚上9点以后"), as "HH:MM", or undefined. */
export function readStartsFrom(fragment: string): string | undefined {
  return clockOfLimit(STARTS_FROM.exec(fragment), fragment, LUNCH_ENDS);
}

/** A clock time that bounds a range: "9pm", "14:00", "2" (an hour alone), "noon". */
const RANGE_END = String.raw`(?<![\d:])\d{1,2}(?::\d{2})?(?:\s*[ap]\.?m\b\.?)?|noon|midday`;
/** What may not follow a range's end: a count ("between 2 and 3 slots") or more digits. */
const RANGE_TAIL = String.raw`(?![\d:]|\s*(?:slots?|sections?|periods?|days?|hours?|minutes?|mins?|weeks?|tasks?|reviews?|items?|times?|pages?|words?|questions?|problems?|exercises?|chapters?)\b)`;
/** A clock time written so that it cannot be a count or a date: "14:00", "2pm", "2:30 p.m.". */
const CLOCK_MARKED = String.raw`\d{1,2}(?::\d{2}(?:\s*[ap]\.?m\b\.?)?|\s*[ap]\.?m\b\.?)`;
/** A day said right before a range of bare hours ("friday 1-3", "tomorrow 2 to 4"): a weekday or a day from today. */
const DAY_BEFORE_HOURS = String.raw`(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|today|tomorrow)`;
/** The parts of the day said before a Chinese hour ("下午三点"). */
const HOUR_PART_ZH = String.raw`(?:上午|早上|早晨|中午|下午|傍晚|晚上)`;
/** A Chinese hour of a range, with its part of the day: "下午三点", "6点半" (a weekday's numeral is no hour: "周五三点"). */
const RANGE_HOUR_ZH = String.raw`${HOUR_PART_ZH}?\s*(?<!(?<!周|星期|礼拜)一)(?<!周|星期|礼拜)${HOUR_NUMBER_ZH}\s*点(?:钟)?(?:半)?`;
/**
 * A start limit and a time limit at once (groups "from" and "to"): "between 9pm and 8am", "between 14:00 and 16:00",
 * "from 2 to 6pm", "14:00 to 18:00", "2-6pm", "14:00–18:00", "三点到六点", "下午3点至6点之间". A range with no
 * "between" or "from" has a marked clock time at one end at least, hours past noon at both, or follows a day ("friday
 * 1-3" is 13:00 to 15:00, as "at 1" and "between 1 and 3" are; "slots 3-4" are slots, "3/15" a date, "chapters 1-3"
 * no time); "从三点挪到六点" is a move from one time to another, not a range.
 */
const RANGES = [
  String.raw`\bbetween\s+(?<from>${RANGE_END})\s+and\s+(?<to>${RANGE_END})${RANGE_TAIL}`,
  String.raw`\bfrom\s+(?<from>${RANGE_END})\s+(?:to|till|until)\s+(?<to>${RANGE_END})${RANGE_TAIL}`,
  String.raw`(?<![\d:/.-])(?<from>${CLOCK_MARKED})\s*(?:to|till|until|-|–|~)\s*(?<to>${RANGE_END})${RANGE_TAIL}`,
  String.raw`(?<![\d:/.-])(?<from>\d{1,2}(?::\d{2})?)\s*(?:-|–|~|to|till|until)\s*(?<to>${CLOCK_MARKED})${RANGE_TAIL}`,
  // ("13-15", "14–18": hours past noon at both ends are no slots, nor a date.)
  String.raw`(?<![\d:/.-])(?<from>1[3-9]|2[0-3])\s*(?:-|–|~)\s*(?<to>1[4-9]|2[0-4])(?![\d:/.])${RANGE_TAIL}`,
  // ("friday 1-3", "tomorrow 2 to 4": hours alone right after a day are a range of them, read as "at 1" is.)
  String.raw`(?<=\b${DAY_BEFORE_HOURS}\s*,?\s+)(?<from>1[0-2]|0?[1-9])\s*(?:-|–|~|to|till|until)\s*(?<to>1[0-2]|0?[1-9])(?![\d:/.]|\s*(?:h|hrs?|sessions?|x)\b)${RANGE_TAIL}`,
  String.raw`(?<fromZh>${RANGE_HOUR_ZH})\s*(?:到|至|-|–|~)\s*(?<toZh>${RANGE_HOUR_ZH})(?:\s*(?:之间|中间))?`,
  // ("下午2-4点", "10-12点", "十到十二点": 点 said once, after the range's end.)
  String.raw`(?<fromBare>${HOUR_PART_ZH}?\s*(?<![\d:/.-])${HOUR_NUMBER_ZH})\s*(?:到|至|-|–|~)\s*(?<toZh>${HOUR_NUMBER_ZH}\s*点(?:钟)?(?:半)?)(?:\s*(?:之间|中间))?`,
].map((source) => new RegExp(source));

/** The limits a range names ("between 9pm and 8am", "2-6pm", "三点到六点": a start and an end, "HH:MM" each), or undefined. */
export function readBetween(fragment: string): { startsFrom: string; endsBy: string } | undefined {
  for (const range of RANGES) {
    const groups = range.exec(fragment)?.groups;
    if (!groups) continue;
    const fromZh = groups.fromZh ?? (groups.fromBare === undefined ? undefined : `${groups.fromBare}点`);
    const read =
      fromZh !== undefined && groups.toZh !== undefined
        ? rangeZh(fromZh, groups.toZh)
        : rangeEn(groups.from ?? "", groups.to ?? "");
    if (read.startsFrom !== undefined && read.endsBy !== undefined)
      return { startsFrom: read.startsFrom, endsBy: read.endsBy };
  }
  return undefined;
}

const LEADING_PART_ZH = new RegExp(`^\\s*(${HOUR_PART_ZH})`);

/** "下午三点到六点": the part of the day said first holds for both ends. */
function rangeZh(from: string, to: string): { startsFrom?: string; endsBy?: string } {
  const part = LEADING_PART_ZH.exec(from)?.[1];
  const startsFrom = readClockTime(from);
  // ("上午10点到12点": the end is the first reading after the start — noon, not the midnight 上午 would make 12点.)
  const ends = LEADING_PART_ZH.test(to) || !part ? [to] : [part + to, to, `下午${to}`];
  const readings = ends.map((end) => readClockTime(end)).filter((end) => end !== undefined);
  const endsBy = readings.find((end) => startsFrom === undefined || end > startsFrom) ?? readings[0];
  return { startsFrom, endsBy };
}

/** "2-6pm": the end's am or pm holds for a start said without one; an hour alone is read as "at" it. */
function rangeEn(from: string, to: string): { startsFrom?: string; endsBy?: string } {
  const marker = /[ap]\.?m\b\.?\s*$/i.exec(to)?.[0];
  const clock = (said: string, fill?: string) => {
    const bare = said.trim();
    if (/^\d{1,2}$/.test(bare)) return readClockTime(fill ? `${bare}${fill}` : `at ${bare}`);
    return readClockTime(fill && /^\d{1,2}:\d{2}$/.test(bare) ? `${bare}${fill}` : bare);
  };
  const startsFrom = clock(from, marker);
  const endsBy = clock(to);
  // ("between 7 and 9": 7 reads as 19:00, so 9 is 21:00 — an end before its start is the later one.)
  if (startsFrom !== undefined && endsBy !== undefined && endsBy <= startsFrom && /^\d{1,2}$/.test(to.trim()))
    return { startsFrom, endsBy: clock(to, "pm") ?? endsBy };
  return { startsFrom, endsBy };
}

/** `fragment` without the ranges it names: no part of a task's name, no two clock times to place at. */
export function withoutBetween(fragment: string): string {
  return RANGES.reduce((rest, range) => rest.replace(new RegExp(range.source, "g"), " "), fragment);
}

/**
 * The clock time of a limit found by `ENDS_BY` or `STARTS_FROM`: its English clock words, its bare hour (in the
 * afternoon or the evening when the fragment names one: "before 8 in the evening" is 20:00), its Chinese hour, or
 * `lunch` for lunch ("before lunch", "午饭后").
 */
function clockOfLimit(match: RegExpExecArray | null, fragment: string, lunch: string): string | undefined {
  if (!match?.groups) return undefined;
  const { en, bare, part, hour, half, minutes, hhmm } = match.groups;
  if (match.groups.lunch !== undefined || match.groups.lunchZh !== undefined) return lunch;
  if (match.groups.dinner !== undefined || match.groups.dinnerZh !== undefined) return DINNER_STARTS;
  if (en !== undefined) return readClockTime(en);
  if (bare !== undefined) {
    const evening = /\b(?:afternoon|evening|tonight|night)\b/.test(fragment);
    return clockText(Number(/\d+/.exec(bare)?.[0]), 0, evening ? "pm" : undefined);
  }
  const marker = markerOfPartZh(part, readNumber(hour ?? ""));
  if (isMidnightZh(part, hour, half ?? minutes)) return MIDNIGHT;
  if (hhmm !== undefined) {
    const [hours, minutes] = hhmm.split(":").map(Number);
    return clockText(hours!, minutes!, marker ?? (hours! >= 12 ? undefined : "am"));
  }
  return clockText(readNumber(hour ?? ""), half ? 30 : minutes ? readNumber(minutes) : 0, marker);
}

/**
 * `fragment` without the limits of the clock it names ("before 17:00", "10点以前", "after 22:30", "between 9pm and
 * 8am"): no part of a task's name.
 */
export function withoutEndsBy(fragment: string): string {
  return withoutBetween(fragment)
    .replace(new RegExp(ENDS_BY.source, "g"), " ")
    .replace(new RegExp(STARTS_FROM.source, "g"), " ");
}
/** An hour in digits or in words. */
const HOUR = String.raw`(?:\d{1,2}|${Object.keys(NUMBER_WORDS).join("|")})`;
/** An hour before "tonight": not "one" ("one tonight" is a count: "do one tonight"). */
const EVENING_HOUR = String.raw`(?:\d{1,2}|${Object.keys(NUMBER_WORDS)
  .filter((word) => word !== "one")
  .join("|")})`;
/** Minutes said in words after an hour: "seven thirty", "ten fifteen", "nine forty-five". */
const MINUTE_WORDS: Record<string, number> = { fifteen: 15, thirty: 30, "forty five": 45 };
const MINUTES = String.raw`fifteen|thirty|forty[-\s]?five`;
const MARKER = String.raw`[ap]\.?m\b\.?`;
/** The am/pm marker read: "pm", "p.m." are "pm". */
const markerOf = (said: string | undefined) => {
  const marker = (said ?? "").replace(/\./g, "");
  return marker === "pm" ? "pm" : marker === "am" ? "am" : undefined;
};
const hourOf = (said: string) => NUMBER_WORDS[said] ?? Number(said);
const minutesOf = (said: string | undefined) =>
  said === undefined ? 0 : (MINUTE_WORDS[said.replace(/[-\s]+/, " ")] ?? Number.NaN);

/**
 * Lunch as a time ("at lunch", "over lunch", "during lunchtime", "tomorrow lunchtime", and first in the words of
 * where: "to lunch tomorrow" once "to" is split off): noon, as "midday" is. A bare "lunch" elsewhere is not ("the
 * lunch review" names something), nor lunch with someone or the break ("the lunch break"); "before lunch" and "after
 * lunch" are limits ({@link LUNCH_BEFORE}, {@link LUNCH_AFTER}).
 */
const LUNCH_AT = String.raw`(?:(?<=^\s*|\b(?:at|over|during|around|about|to|for)\s+(?:the\s+)?)lunch(?:\s*time)?|lunch\s*time)(?!\s*(?:break|with)\b)`;
/** Lunch said after a task's name ("the essay over lunch tomorrow", "… before lunch"): words of when, not of the name. */
export const LUNCH_AFTER_TASK =
  /\b(?:at|over|during|around|about|before|after|by|until|till)\s+(?:the\s+)?lunch(?:\s*time)?\b(?!\s*break)|\blunch\s*time\b(?!\s*break)/g;
/**
 * Lunch as a time in Chinese ("明天中午", "午饭时间", "午休的时候"), not a limit ("中午以前", "午饭后"), nor the part of
 * the day of a limit's hour ("中午12点以前"): noon.
 */
const LUNCH_AT_ZH = new RegExp(
  String.raw`中午(?!\s*(?:饭|以前|之前|前|以后|之后|后|\d|[零一二两三四五六七八九十]))|${LUNCH_WORD_ZH}(?:时间|时候|时|的时候)(?!\s*(?:以前|之前|前|以后|之后|后))`,
);

/**
 * A clock time in English: "14:00", "2:30pm", "2pm", "seven pm", "2 p.m.", "at 14", "at seven thirty", "8 o'clock",
 * "10.30" said where a time goes (first in the words of where, after "at" / "to", after a day: "friday 10.55"),
 * "noon", "half past 7pm", "quarter to ten", "7 tonight" (groups: hour and minutes of "H:MM", the marker after it;
 * the hour, minutes and marker of "2pm"; the hour of "o'clock"; the hour and minutes after "at"; noon; "half past",
 * "quarter past" and "quarter to" with their hour and marker; the hour and minutes before "tonight"). An hour is
 * digits or a word ("seven"). A time after "before", "after", "until", "by" is a limit, not when (group "limit").
 */
const CLOCK_EN = new RegExp(
  String.raw`(?<limit>\b(?:before|after|until|till|by|earlier than|later than)\s+)?(?:` +
    // ("15:30以后" is a limit, `STARTS_FROM`: no time to place at.)
    String.raw`(?<![\d:])(?<h1>\d{1,2}):(?<m1>\d{2})(?![\d:])(?!\s*(?:以前|之前|前|以后|之后|后))\s*(?<x1>${MARKER})?` +
    String.raw`|\b(?<h2>${HOUR})(?:\s+(?<m2>${MINUTES}))?\s*(?<x2>${MARKER})` +
    String.raw`|\b(?<h3>${HOUR})\s*o'?clock\b` +
    String.raw`|(?<=^\s*|\b(?:at|to|from|around|about|till|until|before|after|by|today|tomorrow|tonight|(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?)\s+)(?<h8>\d{1,2})\.(?<m8>\d{2})(?![\d.])\s*(?<x8>${MARKER})?` +
    String.raw`|(?<![\d.])(?<h9>\d{1,2})\.(?<m9>\d{2})(?:\s*(?<x9>${MARKER})|(?<=(?:1[3-9]|2[0-3])\.\d{2})(?![\d.]))` +
    String.raw`|\b(?:at|around|about|at\s+around|at\s+about)\s+(?<h4>${HOUR})(?:\s+(?<m4>${MINUTES}))?\b(?![:.\d]|\s*(?:slots?|days?|sections?|periods?|hours?|minutes?|mins?|of|tasks?|reviews?|times?|weeks?)\b|(?:\s+(?:${MINUTES}))?\s*${MARKER})` +
    String.raw`|\b(?<h10>${HOUR})\s*-?ish\b` +
    String.raw`|\b(?<noon>noon|midday|${LUNCH_AT})\b|\b(?<midnight>midnight)\b` +
    String.raw`|\b(?<past>half|quarter)\s+past\s+(?<h5>${HOUR})(?:\s*(?<x5>${MARKER})|\b)` +
    String.raw`|\bquarter\s+to\s+(?<h6>${HOUR})(?:\s*(?<x6>${MARKER})|\b)` +
    String.raw`|\b(?<h7>${EVENING_HOUR})(?:\s+(?<m7>${MINUTES}))?\s+(?=tonight\b|this\s+(?:evening|afternoon)\b|in\s+the\s+(?:evening|afternoon|morning)\b|at\s+night\b))`,
);
/**
 * A clock time in Chinese: "14点", "下午两点", "下午2点半", "14点30分", "晚上八点钟" (a part of the day before it turns
 * 1–11 into the afternoon or evening). Not "晚一点" / "早一点" (a little later / earlier), nor "安排一点复习" (a little
 * review), nor a limit ("10点以前"). A
 * weekday's numeral is no hour, and an hour may follow it: "周一14点" is 14:00, "周一两点" 14:00, "周三三点" 15:00.
 */
const CLOCK_ZH = new RegExp(
  String.raw`(?<part>上午|早上|早晨|中午|下午|傍晚|晚上|今晚|明晚|今早|明早|今天上午|今天下午|今天晚上|明天上午|明天下午|明天晚上|凌晨|${NIGHT_ZH})?\s*(?<![快慢多少有差好])(?!(?<=[晚早])[一两])(?<!(?<!周|星期|礼拜)一)(?<!周|星期|礼拜)(?<hour>${HOUR_NUMBER_ZH})\s*点(?:钟)?(?!(?<=(?:^|[^\d零一二两三四五六七八九十])[一两]点)(?:复习|任务|时间|东西|书|作业|功课|单词))(?:\s*(?<half>半)|\s*(?<quarters>[一三])刻|\s*(?<minutes>\d{1,2}|[一二三四五六七八九十]{1,3})\s*分?)?(?![\s\d零一二两三四五六七八九十半刻分]*(?:以前|之前|前|以后|之后|后|儿|点))`,
);

/** A Chinese part of the day, said before a time in digits ("晚上9:00"). */
const PART_BEFORE_DIGITS_ZH = /上午|早上|早晨|今早|明早|凌晨|下午|傍晚|晚上|今晚|明晚|夜里/g;

/**
 * The clock time a fragment names ("at 14:00", "2pm", "下午两点", "周日14点"), as "HH:MM", or undefined. An hour of 1–7
 * with no "am", "pm" or part of the day is the afternoon ("at 2" is 14:00: nobody studies at 2 at night); 8–11 the
 * morning, unless the fragment names the afternoon or the evening.
 */
export function readClockTime(fragment: string): string | undefined {
  const time = clockTimeOf(fragment);
  // ("12:30 at night", "half past twelve tonight", "晚上12点半": half past midnight — before, 12:30, noon's.)
  return time?.startsWith("12:") && NIGHT_OF_TWELVE.test(fragment) && !NOON_OF_TWELVE.test(fragment)
    ? `00:${time.slice(3)}`
    : time;
}

/** Words that make an hour of twelve the night's, and those that keep it noon's. */
const NIGHT_OF_TWELVE = /\b(?:evening|tonight|night)\b|晚上|今晚|明晚|半夜|深夜|夜里|凌晨/;
const NOON_OF_TWELVE = /(?<![a-z])p\.?m\b|\bnoon\b|\bmidday\b|中午|下午/;

function clockTimeOf(fragment: string): string | undefined {
  const evening = /\b(?:afternoon|evening|tonight|night)\b/.test(fragment);
  const said = fragment.replace(EVERY_NOT_BEFORE_HOUR, " ");
  const english = CLOCK_EN.exec(said);
  if (english?.groups && !english.groups.limit) {
    // (The Chinese part of the day said last before "9:00" is its half of the day too: "晚上9:00" is 21:00, "早上7:30"
    // 07:30 — before, 09:00 and 19:30.)
    const partZh = [...said.slice(0, english.index).matchAll(PART_BEFORE_DIGITS_ZH)].at(-1)?.[0];
    const morning = partZh !== undefined && /上午|早|凌晨/.test(partZh);
    const { h1, m1, x1, h2, m2, x2, h3, h4, m4, noon, past, h5, x5, h6, x6, h7, m7, h8, m8, x8, h9, m9, x9, h10 } =
      english.groups;
    if (noon) return "12:00";
    if (english.groups.midnight) return "00:00";
    const daytime = morning ? "am" : evening || partZh !== undefined ? "pm" : undefined;
    // "2.30pm", "at 14.00": the dot as the colon.
    if (h8 !== undefined || h9 !== undefined)
      return clockText(Number(h8 ?? h9), Number(m8 ?? m9), markerOf(x8 ?? x9) ?? daytime);
    // "half past 3", "quarter past 4pm", "quarter to five"; "7 tonight" (the evening said after the hour).
    if (h5 !== undefined) return clockText(hourOf(h5), past === "half" ? 30 : 15, markerOf(x5) ?? daytime);
    if (h6 !== undefined) return clockText(hourOf(h6) - 1, 45, markerOf(x6) ?? daytime);
    // ("9 in the morning" is 09:00 and "3 at night" 03:00 — before, the first lost its hour and the second was 15:00.)
    if (h7 !== undefined) return clockText(hourOf(h7), minutesOf(m7), halfOfWordsAfter(hourOf(h7), said, english));
    // ("07:30", "02:00": an hour said with its leading zero is the 24-hour clock's — before, 19:30 and 14:00.)
    if (h1?.startsWith("0") && x1 === undefined) return clockText(Number(h1), Number(m1), "am");
    return clockText(
      hourOf(h1 ?? h2 ?? h3 ?? h4 ?? h10 ?? ""),
      h1 !== undefined ? Number(m1 ?? 0) : minutesOf(m2 ?? m4),
      markerOf(x1 ?? x2) ?? daytime,
    );
  }
  const chinese = CLOCK_ZH.exec(fragment);
  if (!chinese?.groups) return LUNCH_AT_ZH.test(fragment) ? "12:00" : undefined;
  const { part, hour, half, quarters, minutes } = chinese.groups;
  if (isMidnightZh(part, hour, half ?? quarters ?? minutes)) return MIDNIGHT;
  const marker = markerOfPartZh(part, readNumber(hour ?? ""));
  // ("三点一刻" is 15:15, "三点三刻" 15:45: before, 15:01.)
  const minute = half ? 30 : quarters ? (quarters === "一" ? 15 : 45) : minutes ? readNumber(minutes) : 0;
  return clockText(readNumber(hour ?? ""), minute, marker);
}

/** Every clock time of a fragment, "at" before it (`withoutClockTimes`): built once, not on every fragment read. */
const CLOCK_TIMES_EN = new RegExp(String.raw`(?:\b(?:at|around|about)\s+)?(?:${CLOCK_EN.source})`, "g");
const CLOCK_TIMES_ZH = new RegExp(CLOCK_ZH.source, "g");

/**
 * `fragment` without the clock times it names ("at 14:00", "2 p.m.", "8 o'clock", "noon"): words of when, no part
 * of a task's name, in English or Chinese ("下午三点"). A limit ("before 17:00", "10点以前") stays: it is no time to
 * place at.
 */
function withoutClockTimes(fragment: string): string {
  return fragment
    .replace(CLOCK_TIMES_EN, (...found) => {
      const groups = found.at(-1) as { limit?: string };
      return groups.limit ? String(found[0]) : " ";
    })
    .replace(CLOCK_TIMES_ZH, " ");
}

/**
 * A fragment without the times of the clock it says: limits, ranges, "not before 10am", "晚上9点以后不要", "no studying
 * after 9pm", "at 14:00".
 */
export function withoutClockWords(fragment: string): string {
  // (Its Chinese hours nothing starts before first, with the placing said not to be made: "早上10点以前不想学习" leaves
  // no "想学习" to be read as a task's name.)
  const notBefore = withoutNotBeforeHourZh(fragment).replace(EVERY_NOT_BEFORE_HOUR, " ");
  return withoutClockTimes(withoutEndsBy(takeNotAfterHour(notBefore).rest));
}

/** The half of the day of an hour said before "tonight", "in the evening", "in the morning" or "at night". */
function halfOfWordsAfter(hour: number, said: string, found: RegExpExecArray): "am" | "pm" {
  const after = said.slice(found.index + found[0].length);
  if (/^\s*in\s+the\s+morning\b/.test(after)) return "am";
  return /^\s*at\s+night\b/.test(after) && isSmallHour(hour) ? "am" : "pm";
}

/**
 * The half of the day a Chinese part of the day says of its hour: 凌晨 the morning's; the night's words (`NIGHT_ZH`)
 * the morning's for the small hours ("半夜3点" is 03:00), the evening's after them ("夜里11点" is 23:00).
 */
function markerOfPartZh(part: string | undefined, hour: number): "am" | "pm" | undefined {
  if (part === undefined) return undefined;
  if (part === "凌晨") return "am";
  if (NIGHT_PART_ZH.test(part)) return isSmallHour(hour) ? "am" : "pm";
  return /上午|早上|早晨|今早|明早/.test(part) ? "am" : "pm";
}

/** True when a Chinese hour is midnight: 12 o'clock sharp of the night ("晚上12点", "今晚十二点", "半夜12点"). */
function isMidnightZh(part: string | undefined, hour: string | undefined, minutes: string | undefined): boolean {
  return part !== undefined && MIDNIGHT_PART_ZH.test(part) && readNumber(hour ?? "") === 12 && minutes === undefined;
}

function clockText(hour: number, minute: number, marker: "am" | "pm" | undefined): string | undefined {
  if (!Number.isInteger(hour) || !Number.isInteger(minute) || minute < 0 || minute > 59 || hour < 0 || hour > 23)
    return undefined;
  let hours = hour;
  if (marker === "pm" && hour < 12) hours = hour + 12;
  else if (marker === "am" && hour === 12) hours = 0;
  else if (marker === undefined && hour >= 1 && hour <= 7) hours = hour + 12;
  return `${String(hours).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}
