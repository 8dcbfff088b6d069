/**
 * A day said with a task ("yesterday's review", "Friday's essay", "今天的复习"): the day split off the task's name, and
 * a day's label in the user's language.
 */
import { weekdayName, type Language } from "../../../contracts/language.js";
import { WEEKDAYS_EN, ZH_WEEKDAY_NUMBER } from "./words.js";
import { taskPhrase } from "./task-words.js";
import { readPartOfDay } from "./where.js";
import type { PartOfDay } from "./request-kinds.js";

/**
 * A day said from today: "yesterday's", "today's", "this morning's", "昨天的", "今晚的" name a review by its day (group 1
 * or 3 holds it), "yesterday", "today", "昨天" after or before a task's name say when, not which (group 2 or 4: yesterday).
 */
const RELATIVE_DAY =
  /\b(?:(?:(yesterday)|today|tonight|this (?:morning|afternoon|evening))'s|(?:(yesterday(?: morning| afternoon| evening)?|last night)|today|tonight|this (?:morning|afternoon|evening)))\b|(?:(昨天|昨晚|昨日)|今天|今晚|今早|今日)(?:早上|上午|中午|下午|晚上)?(的)?/;

/**
 * The day a phrase names a task by, counted from today, and the phrase without it: "yesterday's review" → 1 and
 * "review", "今天的复习" → 0 and "复习"; "the matrix review yesterday" → "the matrix review" and no day (it says when it
 * was done, not which review: a pending one has no day to match).
 */
export function splitRelativeDay(phrase: string, naming = false): { daysAgo?: number; rest: string } {
  const found = RELATIVE_DAY.exec(phrase);
  if (!found) return { rest: phrase };
  const rest = `${phrase.slice(0, found.index)} ${phrase.slice(found.index + found[0].length)}`
    .replace(/\s+/g, " ")
    .trim();
  const possessive = found[0].endsWith("'s") || found[4] !== undefined;
  if (!possessive && !naming) return { rest };
  return { daysAgo: found[1] !== undefined || found[2] !== undefined || found[3] !== undefined ? 1 : 0, rest };
}

/**
 * A day said from today that names a task by its day: "tomorrow's", "today's", "yesterday's", "明天的", "昨天的"; and
 * the day of a part of it ("tomorrow morning's", "明天上午的"), whose part stays in the rest ("morning's reviews").
 */
const DAY_FROM_TODAY_NAMING =
  /\b(yesterday|today|tonight|tomorrow|this\s+(?:morning|afternoon|evening))(?:'s\b|(?=\s+(?:morning|afternoon|evening)'s\b))|(昨天|昨晚|今天|今晚|今早|明天|明晚|明早)(?:的|(?=(?:上午|早上|早晨|下午|晚上)的))/;

/**
 * The day a task phrase names its task by — a weekday ("thursday's review", "周四的复习") or a day from today
 * ("tomorrow's review", "明天的复习": `fromToday` days on) — and the phrase without it; undefined when it names none.
 * What a move of a review named by its day reads ("move thursday's review to friday").
 */
export function splitNamingDay(phrase: string): { weekday?: number; fromToday?: number; rest: string } | undefined {
  const relative = DAY_FROM_TODAY_NAMING.exec(phrase);
  if (relative) {
    const word = relative[1] ?? relative[2] ?? "";
    const fromToday = /^(?:yesterday|昨)/.test(word) ? -1 : /^(?:tomorrow|明)/.test(word) ? 1 : 0;
    const rest = `${phrase.slice(0, relative.index)} ${phrase.slice(relative.index + relative[0].length)}`
      .replace(/\s+/g, " ")
      .trim();
    return { fromToday, rest: taskPhrase(rest) };
  }
  if (!/'s\b|的/.test(phrase)) return undefined;
  const { weekday, rest } = splitWeekday(phrase);
  return weekday === undefined ? undefined : { weekday, rest };
}

/**
 * A part of the day said first in the words after a day ("morning's reviews", "上午的复习", as "Thursday morning's
 * reviews" and "明天上午的复习" leave them): the part, and the words after it.
 */
export function splitPartOfDay(rest: string): { part?: PartOfDay; rest: string } {
  const found = /^(?:(morning|afternoon|evening)'s\b|(上午|早上|早晨|下午|晚上)的?)\s*/.exec(rest);
  if (!found) return { rest };
  const part = (found[1] as PartOfDay | undefined) ?? readPartOfDay(found[2]!)!;
  return { part, rest: rest.slice(found[0].length) };
}

/** A mark's task phrase that asks instead of naming: "哪些复习", "什么", "列出". */
export const ASKING_PHRASE = /哪些|哪个|哪几|什么|多少|^(?:列出|列一下|看看|查看|显示)/;

/**
 * The day of the week a phrase names and the phrase without it: "tuesday's review" → 2 and "review", "周五的辅导课" →
 * 5 and "辅导课" (the rest as `taskPhrase` leaves it); no weekday when it names none.
 */
export function splitWeekday(phrase: string): { weekday?: number; rest: string } {
  const weekday = weekdayIn(phrase);
  const rest = taskPhrase(
    phrase
      .replace(/\b(?:on\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?(?:'s)?\b/g, " ")
      .replace(/(?:周|星期|礼拜)[一二三四五六日天1-7]的?/g, "")
      .replace(/\s+/g, " ")
      .trim(),
  );
  return weekday === undefined ? { rest } : { weekday, rest };
}

/** The one day of the week a phrase names ("tuesday's review", "周二的复习"), or undefined. */
function weekdayIn(text: string): number | undefined {
  for (const [pattern, weekday] of WEEKDAYS_EN) if (pattern.test(text.replace(/'s\b/g, ""))) return weekday;
  const chinese = /(?:周|星期|礼拜)([一二三四五六日天1-7])/.exec(text)?.[1];
  if (chinese === undefined) return undefined;
  return ZH_WEEKDAY_NUMBER[chinese] ?? Number(chinese);
}

/** "Thursday (day 4)" for a day index whose weekday is known, else "day 4". */
export function dayLabel(day: number, weekdayOf: (day: number) => number | undefined): string {
  return dayLabelIn(day, weekdayOf, "en");
}

/** `dayLabel` in the user's language: "Thursday (day 4)", or "周四（第4天）" (not read back as a request). */
export function dayLabelIn(day: number, weekdayOf: (day: number) => number | undefined, language: Language): string {
  const weekday = weekdayOf(day);
  if (language === "zh") return weekday === undefined ? `第${day}天` : `${weekdayName(weekday, "zh")}（第${day}天）`;
  return weekday === undefined ? `day ${day}` : `${weekdayName(weekday, "en")} (day ${day})`;
}
