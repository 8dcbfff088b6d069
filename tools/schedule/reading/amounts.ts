/**
 * Amounts no schedule can hold, said in a request: a length or a count below one ("-4 hours", "0 min", "复习-4小时",
 * "0分钟", "skip -3 reviews"; a count of zero is no mistake: "0 reviews left"), a number written in a way no length is ("1e9 hours"), a length longer than a week
 * ("99999 minutes"), and a clock time no clock shows ("at 25:00", "10:75", "25点"). Before, the minus sign was left in
 * the task's name and the amount read as positive, "1e9" read as 9, a time past 23:59 dropped without a word (the
 * move went to the day's first free time), and a length too long reached the tool, whose raw check the user read.
 */

/** Which amount is wrong, and how. */
export interface BadAmount {
  /** The amount as the message wrote it ("-4 hours", "25:00"). */
  said: string;
  /** A length of time, a count of things, or a clock time. */
  amount: "length" | "count" | "clock";
  /** Below one (zero or negative), too long (over a week), unreadable (not a plain number), or no time of a clock. */
  problem: "below_one" | "too_long" | "unreadable" | "no_such_time";
}

/** English units of a length (minutes per one), and of a count. */
const LENGTH_EN = String.raw`(?:h|hrs?|hours?|mins?|minutes?|slots?|sections?|periods?|days?|weeks?)`;
const COUNT_EN = String.raw`(?:times|reviews?|tasks?|sessions?)`;
/** Chinese units of a length, and of a count. */
const LENGTH_ZH = String.raw`(?:个)?(?:小时|钟头|分钟|节课|节|天)`;
const COUNT_ZH = String.raw`(?:次|个复习|个任务)`;

/**
 * A number with a minus right before it: "-4", "负4", "负四" (never the end of a range, "2-4 hours", nor a dash between
 * words, "essay - 4 hours").
 */
const NEGATIVE = String.raw`(?:(?<![\w.)])[-−–]\d+(?:\.\d+)?|负\s*(?:\d+|[一二两三四五六七八九十半]+))`;
/** Zero: "0", "0.0", "00", "零" (never the end of a longer number: "10 minutes", "2.0 hours"). */
const ZERO = String.raw`(?:(?<![\w.:]|\d[,-])0+(?:\.0+)?|(?<![\d零一二两三四五六七八九十])零)`;
/** A number in scientific notation: "1e9", "2.5e+3". */
const SCIENTIFIC = String.raw`(?<![\w.])\d+(?:\.\d+)?e[+-]?\d+`;

const BELOW_ONE_LENGTH = new RegExp(String.raw`(?:${NEGATIVE}|${ZERO})\s*(?:${LENGTH_EN}\b|${LENGTH_ZH})`);
const BELOW_ONE_COUNT = new RegExp(String.raw`${NEGATIVE}\s*(?:${COUNT_EN}\b|${COUNT_ZH})`);
const UNREADABLE_LENGTH = new RegExp(String.raw`${SCIENTIFIC}\s*(?:${LENGTH_EN}\b|${LENGTH_ZH}|${COUNT_EN}\b)`);

/** A length in hours or minutes ("99999 minutes", "2000小时"): group 1 the number, group 2 the unit. */
const TIMED_LENGTH = /(?<![\w.])(\d+(?:\.\d+)?)\s*(h\b|hrs?\b|hours?\b|mins?\b|minutes?\b|个?小时|个?钟头|分钟)/g;
/** A week in minutes: the longest length a request may name. */
const WEEK_MINUTES = 7 * 24 * 60;

/** "25:00", "10:75": hours and minutes (a time of "24:00" is the day's end, left to the clock's reader). */
const COLON_TIME = /(?<![\d:.])(\d{1,2}):(\d{2})(?![\d:])/g;
/** "25点", "30点半", "10点75分": a Chinese hour, and its minutes. */
const CHINESE_HOUR = /(?<![\d.第])(\d{1,2})\s*点(?:钟)?(?:\s*(\d{1,2})\s*分)?/g;
/** "13pm", "0am": an hour with a marker. */
const MARKED_HOUR = /(?<![\d:.])(\d{1,2})\s*([ap])\.?m\b/g;

/** The first amount of `text` (normalized, lowercased) that no schedule can hold, or undefined. */
export function readBadAmount(text: string): BadAmount | undefined {
  const below = BELOW_ONE_LENGTH.exec(text);
  if (below) return { said: below[0].trim(), amount: "length", problem: "below_one" };
  const count = BELOW_ONE_COUNT.exec(text);
  if (count) return { said: count[0].trim(), amount: "count", problem: "below_one" };
  const unreadable = UNREADABLE_LENGTH.exec(text);
  if (unreadable) return { said: unreadable[0].trim(), amount: "length", problem: "unreadable" };
  for (const match of text.matchAll(TIMED_LENGTH)) {
    const minutes = Number(match[1]) * (/^(?:h|小|个小|钟|个钟)/.test(match[2]!) ? 60 : 1);
    if (minutes > WEEK_MINUTES) return { said: match[0].trim(), amount: "length", problem: "too_long" };
  }
  return badClockTime(text);
}

/** The first clock time of `text` no clock shows ("25:00", "10:75", "25点", "13pm"), or undefined. */
function badClockTime(text: string): BadAmount | undefined {
  const noSuchTime = (said: string): BadAmount => ({ said: said.trim(), amount: "clock", problem: "no_such_time" });
  for (const match of text.matchAll(COLON_TIME)) {
    const [hours, minutes] = [Number(match[1]), Number(match[2])];
    if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return noSuchTime(match[0]);
  }
  for (const match of text.matchAll(CHINESE_HOUR)) {
    if (Number(match[1]) > 24 || Number(match[2] ?? 0) > 59) return noSuchTime(match[0]);
  }
  for (const match of text.matchAll(MARKED_HOUR)) {
    const hour = Number(match[1]);
    if (hour === 0 || hour > 12) return noSuchTime(match[0]);
  }
  return undefined;
}
