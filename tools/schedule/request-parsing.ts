/**
 * What a schedule request asks for, read from plain English or Chinese text
 * by the offline policy (`offline/schedule/`) and by the domain's reader of
 * standing preferences (`preferences.ts`, `ToolDomain.readPreferences`, which
 * runs with a real model too): which tool it needs, the tasks it names (as phrases,
 * matched against real tasks later), the days (weekday names or day numbers),
 * and the slots (slot numbers, or morning / afternoon / evening).
 *
 * The same parser reads the user's message and the plan steps the policy
 * writes (`describeRequest`), so a step's text is the request it carries out:
 * `Move the task matching "limits" to Thursday (day 4), slots 5-6` parses back
 * to the same request, and a step the user edited is read the same way.
 */
import { weekdayName, type Language } from "../../contracts/language.js";
import { trimEdges } from "../../contracts/edge-trim.js";

/** A part of the day: the first, middle or last third of its slots. */
export type PartOfDay = "morning" | "afternoon" | "evening";

/** Where in a day: explicit slots, a part of the day, or relative to a slot. */
export interface SlotWindow {
  /** First slot allowed (1-based), if bounded. */
  from?: number;
  /** Last slot allowed, inclusive, if bounded. */
  to?: number;
  /** A part of the day, resolved to slots once the day length is known. */
  part?: PartOfDay;
  /**
   * A part of the day ruled out ("not in the morning", "no evenings", "不要晚上"): the morning rules out the slots
   * before the afternoon, the evening those after it. The afternoon is never one (it would leave two ranges): a request
   * that rules out only it is not understood (`parseSentence`).
   */
  notPart?: PartOfDay;
  /** "not before 10": no slot that starts before this hour, resolved through the window's slot clock times. */
  notBeforeHour?: number;
  /**
   * A clock time named ("at 14:00", "2pm", "下午两点", "周日14点"), "HH:MM": the slot that starts then, resolved through
   * the window's slot clock times (`readClockTime`).
   */
  at?: string;
  /**
   * A time limit ("before 17:00", "by 5pm", "周日10点以前"), "HH:MM": only slots that end by then, resolved through the
   * window's slot clock times (`readEndsBy`). No time to place at, and no event to be done before.
   */
  endsBy?: string;
  /**
   * A start limit ("after 22:30", "after 9pm", "晚上9点以后"), "HH:MM": only slots that start then or later, resolved
   * through the window's slot clock times (`readStartsFrom`).
   */
  startsFrom?: string;
  /**
   * "at the same time", "同一时间": the slot the task starts at now, on the day it goes to ("move the essay to the
   * same time on Friday"). A move resolves it from the task's own place; a task with none has no time to keep.
   */
  sameTime?: true;
  /**
   * "as soon as possible", "asap", "the earliest free slot", "尽快": the first free start from the clock on (within the
   * days and part of the day said, when any), for one task — a move, or a pending task placed as a move places it.
   */
  soonest?: true;
}

/** "not before 10", "nothing before 10am", "no earlier than 9", "10点以前不要", "早上10点前别": group 1 or 3 holds the hour. */
export const NOT_BEFORE_HOUR =
  /\b(?:never|not|nothing|no)\s+(?:\w+\s+){0,3}?(?:before|earlier than)\s+(\d{1,2})(?::00)?\s*(am|a\.m\.)?(?![\d:])|(\d{1,2})\s*点(?:钟)?(?:以前|之前|前)(?:不要|不|别|从不)/;

/** The hour a fragment says nothing may start before, if any. */
export function readNotBeforeHour(fragment: string): number | undefined {
  const match = NOT_BEFORE_HOUR.exec(fragment);
  const hour = Number(match?.[1] ?? match?.[3]);
  return match && Number.isInteger(hour) && hour >= 0 && hour <= 23 ? hour : undefined;
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
 * A time limit a fragment names: "before 17:00", "by 5pm", "until noon", "no later than 16:30" (group "en": the clock
 * words after it), "before 8", "until 10" (group "bare": an hour alone, read as `readClockTime` reads one — never after
 * "by", which also counts: "by 2 slots"), "10点以前", "下午五点前", "10点半之前" (groups "part", "hour", "half").
 * Not "nothing before 10" (`NOT_BEFORE_HOUR`, read first), nor "10点以前不要".
 */
const ENDS_BY = new RegExp(
  String.raw`\b(?:(?:before|by|until|till|no later than|earlier than)\s+(?<en>(?<![\d:])\d{1,2}:\d{2}(?![\d:])(?:\s*[ap]\.?m\b\.?)?|\d{1,2}\s*[ap]\.?m\b\.?|noon|midday)|(?:before|until|till|no later than|earlier than)\s+(?<bare>${BARE_HOUR}))|(?<part>上午|早上|早晨|中午|下午|傍晚|晚上)?\s*(?<![晚早快慢多少有差好])(?<!(?<!周|星期|礼拜)一)(?<!周|星期|礼拜)(?<hour>\d{1,2}|[零一二两三四五六七八九十]{1,3})\s*点(?:钟)?(?<half>半)?\s*(?:以前|之前|前)(?!\s*(?:不要|不|别|从不))|${LUNCH_BEFORE}|${DINNER_BEFORE}`,
);

/** The time limit a fragment names ("before 17:00", "before 8", "周日10点以前"), as "HH:MM", or undefined. */
export function readEndsBy(fragment: string): string | undefined {
  return clockOfLimit(
    ENDS_BY.exec(fragment.replace(new RegExp(NOT_BEFORE_HOUR.source, "g"), " ")),
    fragment,
    LUNCH_STARTS,
  );
}

/**
 * A start limit a fragment names: "after 22:30", "after 9pm", "later than noon" (group "en"), "after 12", "after 8
 * o'clock" (group "bare"), "晚上9点以后", "12点之后", "8点半后" (groups "part", "hour", "half"). Not "no later than 16:30"
 * (a time limit, `ENDS_BY`), nor "10点以后不要".
 */
const STARTS_FROM = new RegExp(
  String.raw`\b(?:(?:after|(?<!\b(?:no|not)\s)later than)\s+(?<en>(?<![\d:])\d{1,2}:\d{2}(?![\d:])(?:\s*[ap]\.?m\b\.?)?|\d{1,2}\s*[ap]\.?m\b\.?|noon|midday)|(?:after|(?<!\b(?:no|not)\s)later than)\s+(?<bare>${BARE_HOUR}))|(?<part>上午|早上|早晨|中午|下午|傍晚|晚上)?\s*(?<![晚早快慢多少有差好])(?<!(?<!周|星期|礼拜)一)(?<!周|星期|礼拜)(?<hour>\d{1,2}|[零一二两三四五六七八九十]{1,3})\s*点(?:钟)?(?<half>半)?\s*(?:以后|之后|后)(?!\s*(?:不要|不|别|从不))|${LUNCH_AFTER}`,
);

/** The start limit a fragment names ("after 22:30", "after 12", "晚上9点以后"), as "HH:MM", or undefined. */
export function readStartsFrom(fragment: string): string | undefined {
  return clockOfLimit(STARTS_FROM.exec(fragment), fragment, LUNCH_ENDS);
}

/** A clock time that bounds a range: "9pm", "14:00", "2" (an hour alone), "noon". */
const RANGE_END = String.raw`(?<![\d:])\d{1,2}(?::\d{2})?(?:\s*[ap]\.?m\b\.?)?|noon|midday`;
/** What may not follow a range's end: a count ("between 2 and 3 slots") or more digits. */
const RANGE_TAIL = String.raw`(?![\d:]|\s*(?:slots?|sections?|periods?|days?|hours?|minutes?|mins?)\b)`;
/** A clock time written so that it cannot be a count or a date: "14:00", "2pm", "2:30 p.m.". */
const CLOCK_MARKED = String.raw`\d{1,2}(?::\d{2}(?:\s*[ap]\.?m\b\.?)?|\s*[ap]\.?m\b\.?)`;
/** The parts of the day said before a Chinese hour ("下午三点"). */
const HOUR_PART_ZH = String.raw`(?:上午|早上|早晨|中午|下午|傍晚|晚上)`;
/** A Chinese hour of a range, with its part of the day: "下午三点", "6点半" (a weekday's numeral is no hour: "周五三点"). */
const RANGE_HOUR_ZH = String.raw`${HOUR_PART_ZH}?\s*(?<!(?<!周|星期|礼拜)一)(?<!周|星期|礼拜)(?:\d{1,2}|[零一二两三四五六七八九十]{1,3})\s*点(?:钟)?(?:半)?`;
/**
 * A start limit and a time limit at once (groups "from" and "to"): "between 9pm and 8am", "between 14:00 and 16:00",
 * "from 2 to 6pm", "14:00 to 18:00", "2-6pm", "14:00–18:00", "三点到六点", "下午3点至6点之间". A range with no
 * "between" or "from" has a marked clock time at one end at least ("3-4" is slots, "3/15" a date); "从三点挪到六点" is a
 * move from one time to another, not a range.
 */
const RANGES = [
  String.raw`\bbetween\s+(?<from>${RANGE_END})\s+and\s+(?<to>${RANGE_END})${RANGE_TAIL}`,
  String.raw`\bfrom\s+(?<from>${RANGE_END})\s+(?:to|till|until)\s+(?<to>${RANGE_END})${RANGE_TAIL}`,
  String.raw`(?<![\d:/.-])(?<from>${CLOCK_MARKED})\s*(?:to|till|until|-|–|~)\s*(?<to>${RANGE_END})${RANGE_TAIL}`,
  String.raw`(?<![\d:/.-])(?<from>\d{1,2}(?::\d{2})?)\s*(?:-|–|~|to|till|until)\s*(?<to>${CLOCK_MARKED})${RANGE_TAIL}`,
  String.raw`(?<fromZh>${RANGE_HOUR_ZH})\s*(?:到|至|-|–|~)\s*(?<toZh>${RANGE_HOUR_ZH})(?:\s*(?:之间|中间))?`,
].map((source) => new RegExp(source));

/** The limits a range names ("between 9pm and 8am", "2-6pm", "三点到六点": a start and an end, "HH:MM" each), or undefined. */
export function readBetween(fragment: string): { startsFrom: string; endsBy: string } | undefined {
  for (const range of RANGES) {
    const groups = range.exec(fragment)?.groups;
    if (!groups) continue;
    const read =
      groups.fromZh !== undefined && groups.toZh !== undefined
        ? rangeZh(groups.fromZh, groups.toZh)
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
  return { startsFrom: readClockTime(from), endsBy: readClockTime(LEADING_PART_ZH.test(to) || !part ? to : part + to) };
}

/** "2-6pm": the end's am or pm holds for a start said without one; an hour alone is read as "at" it. */
function rangeEn(from: string, to: string): { startsFrom?: string; endsBy?: string } {
  const marker = /[ap]\.?m\b\.?\s*$/i.exec(to)?.[0];
  const clock = (said: string, fill?: string) => {
    const bare = said.trim();
    if (/^\d{1,2}$/.test(bare)) return readClockTime(fill ? `${bare}${fill}` : `at ${bare}`);
    return readClockTime(fill && /^\d{1,2}:\d{2}$/.test(bare) ? `${bare}${fill}` : bare);
  };
  return { startsFrom: clock(from, marker), endsBy: clock(to) };
}

/** `fragment` without the ranges it names: no part of a task's name, no two clock times to place at. */
function withoutBetween(fragment: string): string {
  return RANGES.reduce((rest, range) => rest.replace(new RegExp(range.source, "g"), " "), fragment);
}

/**
 * The clock time of a limit found by `ENDS_BY` or `STARTS_FROM`: its English clock words, its bare hour (in the
 * afternoon or the evening when the fragment names one: "before 8 in the evening" is 20:00), its Chinese hour, or
 * `lunch` for lunch ("before lunch", "午饭后").
 */
function clockOfLimit(match: RegExpExecArray | null, fragment: string, lunch: string): string | undefined {
  if (!match?.groups) return undefined;
  const { en, bare, part, hour, half } = match.groups;
  if (match.groups.lunch !== undefined || match.groups.lunchZh !== undefined) return lunch;
  if (match.groups.dinner !== undefined || match.groups.dinnerZh !== undefined) return DINNER_STARTS;
  if (en !== undefined) return readClockTime(en);
  if (bare !== undefined) {
    const evening = /\b(?:afternoon|evening|tonight|night)\b/.test(fragment);
    return clockText(Number(/\d+/.exec(bare)?.[0]), 0, evening ? "pm" : undefined);
  }
  const marker = part === undefined ? undefined : /上午|早上|早晨/.test(part) ? "am" : "pm";
  return clockText(readNumber(hour ?? ""), half ? 30 : 0, marker);
}

/**
 * `fragment` without the limits of the clock it names ("before 17:00", "10点以前", "after 22:30", "between 9pm and
 * 8am"): no part of a task's name.
 */
function withoutEndsBy(fragment: string): string {
  return withoutBetween(fragment)
    .replace(new RegExp(ENDS_BY.source, "g"), " ")
    .replace(new RegExp(STARTS_FROM.source, "g"), " ");
}

/** Numbers said in words, "one" … "twelve": an hour ("at seven" is read as "at 7") or a count ("three times"). */
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
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
const LUNCH_AFTER_TASK =
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
    String.raw`(?<![\d:])(?<h1>\d{1,2}):(?<m1>\d{2})(?![\d:])\s*(?<x1>${MARKER})?` +
    String.raw`|\b(?<h2>${HOUR})(?:\s+(?<m2>${MINUTES}))?\s*(?<x2>${MARKER})` +
    String.raw`|\b(?<h3>${HOUR})\s*o'?clock\b` +
    String.raw`|(?<=^\s*|\b(?:at|to|from|around|about|till|until|before|after|by|today|tomorrow|tonight|(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?)\s+)(?<h8>\d{1,2})\.(?<m8>\d{2})(?![\d.])\s*(?<x8>${MARKER})?` +
    String.raw`|(?<![\d.])(?<h9>\d{1,2})\.(?<m9>\d{2})(?:\s*(?<x9>${MARKER})|(?<=(?:1[3-9]|2[0-3])\.\d{2})(?![\d.]))` +
    String.raw`|\b(?:at|around|about|at\s+around|at\s+about)\s+(?<h4>${HOUR})(?:\s+(?<m4>${MINUTES}))?\b(?![:.\d]|\s*(?:slots?|days?|sections?|periods?|hours?|minutes?|mins?|of|tasks?|reviews?|times?|weeks?)\b|(?:\s+(?:${MINUTES}))?\s*${MARKER})` +
    String.raw`|\b(?<h10>${HOUR})\s*-?ish\b` +
    String.raw`|\b(?<noon>noon|midday|${LUNCH_AT})\b|\b(?<midnight>midnight)\b` +
    String.raw`|\b(?<past>half|quarter)\s+past\s+(?<h5>${HOUR})(?:\s*(?<x5>${MARKER})|\b)` +
    String.raw`|\bquarter\s+to\s+(?<h6>${HOUR})(?:\s*(?<x6>${MARKER})|\b)` +
    String.raw`|\b(?<h7>${EVENING_HOUR})(?:\s+(?<m7>${MINUTES}))?\s+(?=tonight\b|this\s+(?:evening|afternoon)\b|in\s+the\s+(?:evening|afternoon)\b|at\s+night\b))`,
);
/**
 * A clock time in Chinese: "14点", "下午两点", "下午2点半", "14点30分", "晚上八点钟" (a part of the day before it turns
 * 1–11 into the afternoon or evening). Not "晚一点" / "早一点" (a little later / earlier), nor a limit ("10点以前"). A
 * weekday's numeral is no hour, and an hour may follow it: "周一14点" is 14:00, "周一两点" 14:00, "周三三点" 15:00.
 */
const CLOCK_ZH =
  /(?<part>上午|早上|早晨|中午|下午|傍晚|晚上|今晚|明晚|今早|明早|今天上午|今天下午|今天晚上|明天上午|明天下午|明天晚上)?\s*(?<![快慢多少有差好])(?!(?<=[晚早])[一两])(?<!(?<!周|星期|礼拜)一)(?<!周|星期|礼拜)(?<hour>\d{1,2}|[零一二两三四五六七八九十]{1,3})\s*点(?:钟)?(?:\s*(?<half>半)|\s*(?<minutes>\d{1,2}|[一二三四五六七八九十]{1,3})\s*分?)?(?!\s*(?:以前|之前|前|以后|之后|后|儿|点))/;

/**
 * The clock time a fragment names ("at 14:00", "2pm", "下午两点", "周日14点"), as "HH:MM", or undefined. An hour of 1–7
 * with no "am", "pm" or part of the day is the afternoon ("at 2" is 14:00: nobody studies at 2 at night); 8–11 the
 * morning, unless the fragment names the afternoon or the evening.
 */
export function readClockTime(fragment: string): string | undefined {
  const evening = /\b(?:afternoon|evening|tonight|night)\b/.test(fragment);
  const english = CLOCK_EN.exec(fragment.replace(new RegExp(NOT_BEFORE_HOUR.source, "g"), " "));
  if (english?.groups && !english.groups.limit) {
    const { h1, m1, x1, h2, m2, x2, h3, h4, m4, noon, past, h5, x5, h6, x6, h7, m7, h8, m8, x8, h9, m9, x9, h10 } =
      english.groups;
    if (noon) return "12:00";
    if (english.groups.midnight) return "00:00";
    const daytime = evening ? "pm" : undefined;
    // "2.30pm", "at 14.00": the dot as the colon.
    if (h8 !== undefined || h9 !== undefined)
      return clockText(Number(h8 ?? h9), Number(m8 ?? m9), markerOf(x8 ?? x9) ?? daytime);
    // "half past 3", "quarter past 4pm", "quarter to five"; "7 tonight" (the evening said after the hour).
    if (h5 !== undefined) return clockText(hourOf(h5), past === "half" ? 30 : 15, markerOf(x5) ?? daytime);
    if (h6 !== undefined) return clockText(hourOf(h6) - 1, 45, markerOf(x6) ?? daytime);
    if (h7 !== undefined) return clockText(hourOf(h7), minutesOf(m7), "pm");
    return clockText(
      hourOf(h1 ?? h2 ?? h3 ?? h4 ?? h10 ?? ""),
      h1 !== undefined ? Number(m1 ?? 0) : minutesOf(m2 ?? m4),
      markerOf(x1 ?? x2) ?? daytime,
    );
  }
  const chinese = CLOCK_ZH.exec(fragment);
  if (!chinese?.groups) return LUNCH_AT_ZH.test(fragment) ? "12:00" : undefined;
  const { part, hour, half, minutes } = chinese.groups;
  const marker = part === undefined ? undefined : /上午|早上|早晨|今早|明早/.test(part) ? "am" : "pm";
  return clockText(readNumber(hour ?? ""), half ? 30 : minutes ? readNumber(minutes) : 0, marker);
}

/**
 * `fragment` without the clock times it names ("at 14:00", "2 p.m.", "8 o'clock", "noon"): words of when, no part
 * of a task's name. A limit ("before 17:00") stays: it is no time to place at.
 */
function withoutClockTimes(fragment: string): string {
  return fragment.replace(
    new RegExp(String.raw`(?:\b(?:at|around|about)\s+)?(?:${CLOCK_EN.source})`, "g"),
    (...found) => {
      const groups = found.at(-1) as { limit?: string };
      return groups.limit ? String(found[0]) : " ";
    },
  );
}

/** A fragment without the times of the clock it says: limits, ranges, "not before 10am", "at 14:00". */
function withoutClockWords(fragment: string): string {
  return withoutClockTimes(withoutEndsBy(fragment.replace(new RegExp(NOT_BEFORE_HOUR.source, "g"), " ")));
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

/**
 * A day named by the calendar, resolved against the window's dates and "now" (`offline/schedule/week-facts.ts` `resolveDays`):
 * a relative day ("today", "tomorrow", "明天", "后天": `offset` days from today), a weekday of this or a later week
 * ("this Thursday", "next Monday", "下周一": `weeks` weeks after this one, weeks starting on Monday), or a date
 * ("the 14th", "14 March", "March 14", "2024-03-14", "3月14日", "14号": the month and year when said).
 */
export type DateSpec =
  | { kind: "offset"; days: number; text: string }
  | { kind: "weekday"; weekday: number; weeks: number; text: string }
  /**
   * A whole week ("this week", "next week", "下周"), `weeks` after this one: read only by the questions about days
   * ("what's on next week?", "下周什么时候有空"), where it names the window's days in that week — none for a week the
   * window does not reach, which is then said. An arrangement's "next week" is the window, as before.
   */
  | {
      kind: "week";
      weeks: number;
      text: string;
      /**
       * Only its days from today on: "skip the rest of the week", "clear everything this week", "这周剩下的复习都跳过"
       * — what is past of the week cannot be skipped or cleared, so a clear of this week names what is left of it.
       */
      fromToday?: true;
    }
  /** `weekday`: the weekday written beside it ("Thursday, Mar 14"), the day it names once the window has moved past it. */
  | { kind: "date"; year?: number; month?: number; day: number; text: string; weekday?: number };

/** The days a request names: weekdays (1 = Mon … 7 = Sun), day indices of the window, and calendar days. */
export interface DaySelection {
  /** Days of the week named (1 = Monday … 7 = Sunday). */
  weekdays: number[];
  /** Day indices of the window named directly ("day 3", "第3天", or a weekday annotated "(day 3)"). */
  days: number[];
  /** Days named by the calendar ("tomorrow", "this Thursday", "the 14th"), when any. */
  dates?: DateSpec[];
}

/** Where a request wants things to go (or to look). */
export interface Where {
  /** Days to use; empty selections mean any day. */
  only: DaySelection;
  /** Days to avoid ("not Monday"). */
  not: DaySelection;
  /** Slots to use. */
  slots: SlotWindow;
  /** An event the tasks must be done before ("before the midterm"), as the request names it. */
  before?: string;
  /**
   * Next to another task or event: "after the matrix review", "right after my lecture", "just before the tutorial",
   * "矩阵复习之后" — the nearest free time on that side of it (its next occurrence not yet started; on the days named,
   * when any are).
   */
  next?: { side: "after" | "before"; anchor: string };
  /**
   * The day of another task or event, or the day before or after it: "the day before the physics lab", "the same day
   * as the robotics club meeting", "two days before the midterm", "期中考试的前一天" (its first occurrence in the week
   * shown; `offset` the days from it: -1 the day before).
   */
  dayOf?: { anchor: string; offset: number };
  /**
   * The part of the day said with days ruled out ("not Saturday morning", "off Thursday morning", "不要周六上午"):
   * the whole of those days is ruled out, so nothing lands where it was said not to (before, the part read as the only
   * time to use: "but not Saturday morning" meant mornings); a move of a day's reviews off it reads it as the part of
   * the day they leave (`awayFrom`).
   */
  notDaysPart?: PartOfDay;
}

/**
 * A move relative to the task's own place: `days` later (negative: earlier), at the same time or the nearest free
 * time of that day; `minutes` later (negative: earlier) the same day, the nearest free start that way; `sameDay`:
 * later or earlier the same day, the nearest free start that way ("push it to later", "挪到晚一点").
 */
export type MoveShift = { days: number } | { minutes: number } | { sameDay: "later" | "earlier" };

/** What a schedule request asks for. */
/**
 * A move of one task. `shift`: relative to the task's own place ("push it back a day", "an hour later", "往后推一天"),
 * `where` empty — but for "later today" / "later tonight" / "今天晚点", whose `where` names today: a review on another
 * day goes to today, from the clock. `also`: the moves said after it in the same request, each of its own task to its
 * own place ("move the matrix review to Thursday and the essay to Friday", "把矩阵复习挪到周四，作文挪到周五"): the
 * planner plans each.
 */
/**
 * `otherDay`: "to another day", "换一天": any day but the one the task is on (set only when said). `dayward`: "to an
 * earlier day", "earlier in the week", "挪到更早的一天" (or later): one of the days before (after) the task's own.
 */
export type MoveRequest = {
  kind: "move";
  task: string;
  where: Where;
  shift?: MoveShift;
  also?: MoveRequest[];
  otherDay?: true;
  dayward?: "earlier" | "later";
  /**
   * The days ruled out are the days it leaves ("move the essay off today", "out of Thursday", "I can't do the essay
   * today", "把作文挪出今天"): when it is on none of them, there is nothing to move.
   */
  leaves?: true;
};

/** "another day", "a different day", "some other day", "别的天", "另一天", "换一天": any day but the task's own. */
const OTHER_DAY =
  /\b(?:another|a different|some other|a new|other)\s+(?:day|morning|afternoon|evening|night)\b|\b(?:other|different)\s+days\b|别的天|另一天|其他(?:的)?日子|别的日子|换一天|换个日子|其他天|(?:别的|另一个|其他)(?:上午|下午|晚上)/;

/**
 * A day before or after the task's own, said as where it goes: "to an earlier day", "to a later day", "earlier in the
 * week", "更早的一天", "更晚的一天". ("later in the week" is the end of the week, `WEEK_STRETCHES`; "a day earlier" is a
 * shift by one day.)
 */
const DAYWARD =
  /\b(?:(?:to|onto|until|till|for)\s+)?(?:(?:an?|some)\s+(earlier|later)\s+day|(earlier)\s+(?:in|that|this)\s+(?:the\s+)?week)\b|(?:挪|移|改|调|换|推|放|安排)?(?:到|在)?更(早|晚)的(?:一天|某天|某一天|日子)/;

/** "to an earlier day" read as "to another day", with the way it goes (`dayward`); `said` as it is otherwise. */
function withoutDayward(said: string): { said: string; dayward?: "earlier" | "later" } {
  const found = DAYWARD.exec(said);
  if (!found) return { said };
  const way = found[1] ?? found[2] ?? (found[3] === "早" ? "earlier" : "later");
  const chinese = found[3] !== undefined;
  const other = chinese ? "挪到另一天" : "to another day";
  return {
    said: `${said.slice(0, found.index)}${other}${said.slice(found.index + found[0].length)}`,
    dayward: way === "earlier" ? "earlier" : "later",
  };
}

/** `move` with `otherDay` when `words` (where it goes) say another day than its own. */
function withOtherDay(move: MoveRequest, words: string): MoveRequest {
  return OTHER_DAY.test(words) ? { ...move, otherDay: true } : move;
}

/** A day whose reviews a request names: by its weekday, or by days from today ("tomorrow's reviews"). */
export type DayOfReviews = { weekday: number } | { fromToday: number };

export type ScheduleRequest =
  /**
   * `except`: tasks named as left out ("everything except the essay", "除了二叉树复习"); absent when none. `makeUp`:
   * the missed reviews are proposed again first ("reschedule my missed reviews, then arrange …": the daily check-in).
   * `putBack`: the tasks were said to go back ("put back the matrix review", "把矩阵复习放回去"): one already placed
   * has nothing to do.
   */
  | { kind: "arrange"; tasks: string[]; where: Where; except?: string[]; makeUp?: true; putBack?: true }
  | MoveRequest
  /**
   * Every review still ahead, or every one of a day, moved by whole days at once: "push all my reviews back a day",
   * "move today's reviews to tomorrow", "把所有复习往后推一天". `days` the shift; `weekday` the day whose reviews
   * (absent: every review ahead); `fromToday` that day said from today ("today's", "tomorrow's"), `to` a target day
   * said instead of a shift ("… to tomorrow") — the planner makes both a weekday and days with the clock. `minutes`
   * a shift of time the same day instead ("push all my reviews back an hour", "把今天的复习都推迟一小时"). `part` the
   * part of that day whose reviews ("all of Monday evening's reviews", "周一晚上的所有复习"): the others stay.
   */
  | {
      kind: "shift_all";
      days?: number;
      minutes?: number;
      weekday?: number;
      fromToday?: number;
      to?: Where;
      part?: PartOfDay;
      /**
       * Moved off where they are, to no place named ("move my reviews off Thursday", "I'm busy Thursday morning, move
       * my reviews", "move Thursday's reviews to another day", "把周四的所有复习挪到别的天"): each to the free time
       * nearest its own that is not on its day (`day`), or not in that part of it (`part`, with `part` set).
       */
      away?: "day" | "part";
      /** Off the day, to an earlier (a later) day only: "move Friday's reviews to an earlier day", "挪到更晚的一天". */
      dayward?: "earlier" | "later";
      /**
       * More days whose reviews move, after the first (`weekday` / `fromToday`): "move my reviews off Thursday and
       * Friday", "push Thursday's and Friday's reviews back a day", "把周四和周五的所有复习挪到别的天". Off their days,
       * a review lands on none of them (nor in that part of any of them).
       */
      more?: DayOfReviews[];
    }
  | { kind: "swap"; first: string; second: string }
  | { kind: "unplace"; task: string }
  /**
   * A timetable event (a one-off, or a series with every occurrence) to take off the week (`remove_event`): "remove the
   * event physics lab", the plan's own step (`Remove the event "friday tutorial"`, `删除课表活动 "周五的辅导课"`). The
   * user's "remove the Friday tutorial" reads as an unplace; the planner makes it this once the week shows the words
   * name no review task (`offline/schedule/grounding.ts`). `event` may name a weekday ("friday tutorial").
   */
  | { kind: "remove_event"; event: string }
  /**
   * A task's life: "I did the matrix review", "我周二的复习没做", "skip the vocabulary review this week". `weekday`
   * narrows the task to one placed on that day of the week ("Tuesday's review"), when the request names one.
   */
  | {
      kind: "mark";
      task: string;
      to: "done" | "missed" | "skipped";
      weekday?: number;
      /**
       * Days before today the task was on ("yesterday's review" 1, "today's review" 0, "我昨天的复习"): the weekday it
       * names once the clock says what today is (the plan writes it as `weekday`).
       */
      daysAgo?: number;
      /** False when the user said not to reschedule a missed task ("…, don't reschedule it", "不用重新安排"). */
      reschedule?: false;
      /**
       * The tasks `task` names one by one, when it lists several ("the matrix review and the limits review"): set by
       * the planner once the week shows each part names one task (`offline/schedule/grounding.ts`), a step for each.
       */
      tasks?: string[];
    }
  /**
   * Every review placed on a day, at once: "skip all my reviews today", "I'm sick today, skip everything", "clear
   * tomorrow", "今天的复习都跳过", "把明天清空". `skip` marks each skipped (this week, nothing places it again); `unplace`
   * takes each off the week, pending again (a cleared day's reviews still want doing). `where.only` holds the days,
   * `where.slots` a part of the day when one is said ("skip everything tonight").
   */
  | { kind: "clear_day"; how: "skip" | "unplace"; where: Where }
  /** "undo that", "take that back", "撤销": reverse the last applied change through a new card (`propose_undo`). */
  | { kind: "undo" }
  /** "Reschedule my missed reviews" alone: the missed reviews proposed again at their best free places, nothing else. */
  | { kind: "reschedule" }
  /** "recover", "补救": the at-risk notice's change that recovers the most, through a card (`propose_recovery`). */
  | { kind: "recover" }
  /** "how healthy is my week?", "我这周安排得怎么样": the health judge's score and findings (`analyze_health`). */
  | { kind: "health" }
  /**
   * "what's left before the midterm?", "期中考试前还剩什么": the tasks due before an event, and how each stands. `when`:
   * the words name a day instead ("how many reviews are left before friday?", "周五前还剩什么", "before tomorrow"): the
   * reviews still to do before it.
   */
  | { kind: "left_before"; event: string; when?: Where }
  /**
   * A habit ("vocabulary three times a week", "每周背三次单词"): recurring tasks are not built, so the policy declines it
   * with what it can do — never reads it as something else.
   */
  | { kind: "habit" }
  /**
   * A habit read whole (issue 47 item 8): "vocabulary three times a week, 30 min, mornings", "每周背三次单词，每次30分钟，早上".
   * `minutes` when a session's length is said; `part` when a part of the day is.
   */
  | { kind: "add_habit"; name: string; perWeek: number; minutes?: number; part?: PartOfDay }
  /**
   * A long task to split into sessions (issue 47 items 5 and 8): "write the essay, 4 hours, before Friday",
   * "写论文，4小时，周五前" — its name, its length in minutes, the weekday it is due before.
   */
  | { kind: "add_long_task"; name: string; minutes: number; dueWeekday: number }
  | { kind: "free"; where: Where; minLength: number }
  | { kind: "day"; where: Where }
  /** "what's next?", "when is my next review?", "接下来做什么": what comes next from now, and the next review. */
  | { kind: "next" }
  /**
   * The review tasks of one status, or all: "which tasks are pending?", "which reviews did I miss?", "列出所有复习";
   * `open`, the ones still to do whatever their place (pending, placed and not done, missed): "how many reviews are
   * left?", "which reviews haven't I done?", "我这周还有几个复习没做".
   */
  | { kind: "list"; status: "pending" | "placed" | "missed" | "done" | "skipped" | "open" | "all" }
  | { kind: "explain"; task: string }
  /**
   * A new task item for a class: "add a 2-slot task "integrals review" to calculus", "给微积分添加任务"积分复习"，2节";
   * `dueEvent` when it is due before an event the request names ("… before the midterm", "…，在期中考试之前").
   */
  | { kind: "add_task"; name: string; classPhrase: string; duration: number; dueEvent?: string }
  /** A class's standing rules: "calculus only in the mornings", "never calculus on Monday", "微积分只在上午". */
  | { kind: "class_rules"; classPhrase: string; parts: PartOfDay[]; excludedWeekdays: number[] }
  | { kind: "help" }
  | { kind: "greeting" }
  /**
   * Not understood. `why`: a request understood but not one that can be kept to — "afternoon_out": the afternoon
   * ruled out alone ("not in the afternoon"), which would leave two ranges of the day (the reply says so);
   * "unread_number": a move or an arrangement to no place whose words hold a number read as nothing ("to 3/4",
   * `unreadDigits`): the reply asks for the day and time in words it reads.
   */
  | { kind: "unknown"; why?: "afternoon_out" | "unread_number" };

/** Kinds that only read the schedule. */
export const READ_REQUEST_KINDS = new Set<ScheduleRequest["kind"]>([
  "free",
  "day",
  "list",
  "explain",
  "health",
  "left_before",
  "next",
]);

const WEEKDAYS_EN: ReadonlyArray<[RegExp, number]> = [
  [/\bmon(?:day)?s?\b/, 1],
  [/\btue(?:s|sday)?s?\b/, 2],
  [/\bwed(?:nesday)?s?\b/, 3],
  [/\bthu(?:r|rs|rsday)?s?\b/, 4],
  [/\bfri(?:day)?s?\b/, 5],
  [/\bsat(?:urday)?s?\b/, 6],
  [/\bsun(?:day)?s?\b/, 7],
];
const WEEKDAY_ZH = /(?:周|星期|礼拜)([一二三四五六日天1-7])/g;
const ZH_WEEKDAY_NUMBER: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 日: 7, 天: 7 };
const ZH_DIGITS: Record<string, number> = {
  零: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

/** A number written in digits or in Chinese numerals up to 99 ("十二", "二十"), or NaN. */
export function readNumber(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const match = /^([一二两三四五六七八九])?(十)?([一二三四五六七八九])?$/.exec(text);
  if (!match || text === "") return Number.NaN;
  const [, tens, ten, ones] = match;
  if (!ten) return tens && !ones ? (ZH_DIGITS[tens] ?? Number.NaN) : Number.NaN;
  return (tens ? (ZH_DIGITS[tens] ?? 0) : 1) * 10 + (ones ? (ZH_DIGITS[ones] ?? 0) : 0);
}

/**
 * The longest sentence (or fragment) the reader reads. Its patterns were written for requests people type, and some
 * backtrack in time quadratic or cubic in a sentence that nearly fits them: "not on Monday " and 6 000 "和" (the swap
 * pattern, a separator and no "交换") held the served process's event loop — every thread — for half a minute, read as
 * card feedback whatever the model. A longer sentence names no request, day or slot here (a model reads it whole).
 */
export const MAX_READ_LENGTH = 500;
/**
 * Sentences of a message read for its request, at most: each is read whole, so a pasted text of 30 000 "sentences"
 * ("1. 1. 1. …") took a second on the event loop. A request and what it says of where fit in far fewer.
 */
export const MAX_READ_SENTENCES = 50;

const NUMBER = String.raw`(\d+|[一二两三四五六七八九十]+)`;
/** A count in words ("three days"). */
const COUNT_WORD = String.raw`one|two|three|four|five|six|seven|eight|nine|ten`;

/** Lowercased text with full-width punctuation and curly quotes made plain. */
export function normalizeText(text: string): string {
  return (
    text
      .replace(/[“”„「」『』]/g, '"')
      .replace(/[‘’]/g, "'")
      .replace(/，/g, ",")
      .replace(/。/g, ".")
      .replace(/？/g, "?")
      .replace(/！/g, "!")
      .replace(/：/g, ":")
      .replace(/（/g, "(")
      .replace(/）/g, ")")
      // Emoji say nothing of what is asked ("done with the essay ✅", "move it to friday pls 🙏").
      .replace(/\p{Extended_Pictographic}\uFE0F?/gu, " ")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase()
      .replace(TEXTING_WORDS, (word) => TEXTING_SPELLINGS.find(([pattern]) => pattern.test(word))?.[1] ?? word)
  );
}

/**
 * What students type for a few words the reader looks for: "tmr", "tmrw", "2moro", "tomorow" are "tomorrow" ("tomorrows",
 * "tmrws" "tomorrow's"); "wat's",
 * "wats", "whats" are "what's" and "wat" / "wut" "what" (each read as the word before anything else is).
 */
const TEXTING_SPELLINGS: ReadonlyArray<[RegExp, string]> = [
  [/^(?:tmrws|tomorrows)$/, "tomorrow's"],
  [/^(?:tmrw?|tmrow|tmoro|tomoz|2mor+ow?|2moro|tom+or+ow|tomoro)$/, "tomorrow"],
  [/^(?:wh?at'?s|wuts?)$/, "what's"],
  [/^(?:wat|wut)$/, "what"],
];
const TEXTING_WORDS =
  /(?<![\w'-])(?:tmrws|tomorrows|tmrw?|tmrow|tmoro|tomoz|2mor+ow?|2moro|tom+or+ow|tomoro|wh?at'?s|wuts?|wat|wut)(?![\w'-])/g;

const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAY_WORD = String.raw`(mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)`;
const WEEKDAY_PREFIXES = ["", "mon", "tue", "wed", "thu", "fri", "sat", "sun"];
/** A month after a day number: not "may" ("day 5 may not work"), and not after "day" / "slot". */
const MONTH_AFTER_NUMBER = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
/** The stretches of a week and their weekdays (1 = Monday): its start, middle and end, and its weekend. */
const STRETCH_WEEKDAYS = { start: [1, 2], middle: [3, 4], end: [5, 6, 7], weekend: [6, 7] } as const;
const STRETCHES = ["weekend", "start", "middle", "end"] as const;

/** Calendar words and what they name, first match first (a longer phrase before the words inside it). */
const DATE_PATTERNS: ReadonlyArray<[RegExp, (match: RegExpExecArray) => DateSpec | DateSpec[] | undefined]> = [
  // A stretch of a later week: "next weekend", "early next week", "the middle of next week", "late next week", "下周末",
  // "下周初": those weekdays of that week (before, "next weekend" was this week's Saturday and Sunday, and "early next
  // week" the whole of next week). "By the end of next week" is a deadline, not a stretch.
  [
    /(?<!\b(?:by|until|till|through|before)\s+(?:the\s+)?)\b(?:(?<weekend>next\s+weekend|the\s+weekend\s+after\s+(?:this(?:\s+one)?|(?<afterNext>next)))|(?<start>early|(?:the\s+)?(?:start|beginning)\s+of)\s+next\s+week|(?<middle>(?:the\s+)?middle\s+of|mid-?(?:week)?)\s*next\s+week|(?<end>late|later|(?:the\s+)?end\s+of)\s+next\s+week)\b|(?<zhWeeks>下下|下)个?(?:周|星期|礼拜)(?:(?<zhweekend>末)|(?<zhstart>初|前半)|(?<zhmiddle>中)|(?<zhend>后半))/g,
    (m) => {
      const found = m.groups ?? {};
      const stretch = STRETCHES.find((name) => found[name] ?? found[`zh${name}`]) ?? "end";
      const weeks = found.zhWeeks === "下下" || found.afterNext ? 2 : 1;
      return STRETCH_WEEKDAYS[stretch].map((weekday) => ({ kind: "weekday", weekday, weeks, text: m[0] }));
    },
  ],
  // "later this week": the days from today to its end (before, the whole week, its first day taken on its eve).
  [/\blater\s+this\s+week\b/g, (m) => ({ kind: "week", weeks: 0, text: m[0], fromToday: true })],
  // After the week's end: "after the weekend", "after Sunday", "周末以后" are next week; "after next week" the week
  // after it (before, "after the weekend" was Sunday, and "after next week" next week).
  [
    /\bafter\s+(?:(?<next>next\s+week)|(?:this\s+|the\s+)?(?:weekend|sunday))\b|(?<zhNext>下个?(?:周|星期|礼拜)(?:之后|以后))|(?:周末|(?:周|星期|礼拜)[日天])(?:之后|以后|后)(?![天半])/g,
    (m) => ({ kind: "week", weeks: m.groups?.next || m.groups?.zhNext ? 2 : 1, text: m[0] }),
  ],
  [
    /\b(\d{4})-(\d{2})-(\d{2})\b/g,
    (m) => ({ kind: "date", year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), text: m[0] }),
  ],
  // "15/3", "3/15", "15/03/2024": a numeric date whose order the numbers decide (a day over 12 is the day); "3/4",
  // either way, is no date (a move there was read as anywhere; now it is not understood, `UNREAD_DIGITS`).
  [
    /(?<![\d/:.])(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))?(?![\d/:])/g,
    (m) => {
      const [first, second] = [Number(m[1]), Number(m[2])];
      const year = m[3] === undefined ? {} : { year: Number(m[3]) };
      if (first > 12 && second <= 12) return { kind: "date", month: second, day: first, ...year, text: m[0] };
      if (second > 12 && first <= 12) return { kind: "date", month: first, day: second, ...year, text: m[0] };
      return undefined;
    },
  ],
  [
    /\b(?:the )?day after tomorrow\b|大后天|后天/g,
    (m) => ({ kind: "offset", days: m[0] === "大后天" ? 3 : 2, text: m[0] }),
  ],
  [/\btomorrow\b|明天|明晚|明早|明日/g, (m) => ({ kind: "offset", days: 1, text: m[0] })],
  // Days already gone: a place or move there is refused as passed (or outside the window), never read as no day.
  [/\b(?:the )?day before yesterday\b|前天/g, (m) => ({ kind: "offset", days: -2, text: m[0] })],
  [/\byesterday\b|昨天|昨晚|昨日/g, (m) => ({ kind: "offset", days: -1, text: m[0] })],
  // "in 2 days", "in three days' time", "2 days from now", "2天后", "两天以后", "三天之后": that day, counted from today.
  [
    new RegExp(
      String.raw`\bin\s+(\d+|${COUNT_WORD})\s+days?(?:'?\s+time)?\b|\b(\d+|${COUNT_WORD})\s+days?\s+from\s+(?:now|today)\b|(?<![第\d一二两三四五六七八九十])${NUMBER}\s*天(?:以后|之后|后)`,
      "g",
    ),
    (m) => {
      const said = m[1] ?? m[2] ?? m[3] ?? "";
      const days = COUNT_WORDS[said] ?? readNumber(said);
      return Number.isInteger(days) && days >= 0 && days <= 31 ? { kind: "offset", days, text: m[0] } : undefined;
    },
  ],
  [
    /\btoday\b|\btonight\b|\bthis\s+(?:morning|afternoon|evening)\b|今天|今晚|今早|今日/g,
    (m) => ({ kind: "offset", days: 0, text: m[0] }),
  ],
  // "the Friday after next": that weekday of the week after next (before, this week's Friday).
  [
    new RegExp(String.raw`\b(?:the\s+)?${WEEKDAY_WORD}\s+after\s+next\b`, "g"),
    (m) => ({ kind: "weekday", weekday: WEEKDAY_PREFIXES.indexOf((m[1] ?? "").slice(0, 3)), weeks: 2, text: m[0] }),
  ],
  // "Friday next week", "Friday of this week", "next week on Friday", "next week's Friday": that weekday of that week
  // (before, the week was dropped and this week's Friday taken).
  [
    new RegExp(
      String.raw`\b${WEEKDAY_WORD}\s+(?:of\s+)?(this|next|the\s+following|the\s+coming|coming)\s+week\b|\b(this|next|the\s+following|the\s+coming|coming)\s+week(?:'s|\s+on)?\s+${WEEKDAY_WORD}\b`,
      "g",
    ),
    (m) => ({
      kind: "weekday",
      weekday: WEEKDAY_PREFIXES.indexOf((m[1] ?? m[4] ?? "").slice(0, 3)),
      weeks: /^this/.test(m[2] ?? m[3] ?? "") ? 0 : 1,
      text: m[0],
    }),
  ],
  [
    new RegExp(String.raw`\b(this|next|coming)\s+${WEEKDAY_WORD}\b`, "g"),
    (m) => ({
      kind: "weekday",
      weekday: WEEKDAY_PREFIXES.indexOf((m[2] ?? "").slice(0, 3)),
      weeks: m[1] === "next" ? 1 : 0,
      text: m[0],
    }),
  ],
  [
    /(这|本|下下|下)个?(?:周|星期|礼拜)(?:(?:的|\s)?(?:周|星期|礼拜))?([一二三四五六日天1-7])/g,
    (m) => ({
      kind: "weekday",
      weekday: ZH_WEEKDAY_NUMBER[m[2] ?? ""] ?? Number(m[2]),
      weeks: m[1] === "下" ? 1 : m[1] === "下下" ? 2 : 0,
      text: m[0],
    }),
  ],
  [
    new RegExp(String.raw`\b${MONTH}\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b`, "g"),
    (m) => ({ kind: "date", month: MONTH_NAMES.indexOf((m[1] ?? "").slice(0, 3)) + 1, day: Number(m[2]), text: m[0] }),
  ],
  [
    new RegExp(
      String.raw`(?<!\b(?:day|slots?|sections?|periods?)\s)\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH_AFTER_NUMBER}\b`,
      "g",
    ),
    (m) => ({ kind: "date", month: MONTH_NAMES.indexOf((m[2] ?? "").slice(0, 3)) + 1, day: Number(m[1]), text: m[0] }),
  ],
  [/\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b/g, (m) => ({ kind: "date", day: Number(m[1]), text: m[0] })],
  [
    new RegExp(String.raw`${NUMBER}月${NUMBER}[日号]`, "g"),
    (m) => ({ kind: "date", month: readNumber(m[1] ?? ""), day: readNumber(m[2] ?? ""), text: m[0] }),
  ],
  [
    new RegExp(String.raw`(?<![第\d])${NUMBER}[日号]`, "g"),
    (m) => ({ kind: "date", day: readNumber(m[1] ?? ""), text: m[0] }),
  ],
];

/** The calendar days a fragment names ("tomorrow", "this Thursday", "the 14th", "3月14日"), and the fragment without them. */
export function readDates(fragment: string): { dates: DateSpec[]; rest: string } {
  const dates: DateSpec[] = [];
  let rest = fragment;
  for (const [pattern, read] of DATE_PATTERNS) {
    rest = rest.replace(pattern, (whole: string) => {
      const match = new RegExp(pattern.source).exec(whole);
      const specs = match ? [read(match) ?? []].flat() : [];
      if (specs.length === 0 || !specs.every(validDateSpec)) return whole;
      dates.push(...specs);
      return " ";
    });
  }
  return { dates, rest };
}

function validDateSpec(spec: DateSpec): boolean {
  if (spec.kind === "weekday") return spec.weekday >= 1 && spec.weekday <= 7;
  if (spec.kind === "date")
    return (
      Number.isInteger(spec.day) &&
      spec.day >= 1 &&
      spec.day <= 31 &&
      (spec.month === undefined || (spec.month >= 1 && spec.month <= 12))
    );
  return true;
}

/**
 * A weekday beside a date ("Thu, Mar 14", "Thursday (14 Mar)", "3月14日周四", "周四（3月14日）"): the date, written
 * as the plan's steps write a day, names that one day — not every Thursday of the window as well.
 */
const WEEKDAY_BESIDE_DATE = new RegExp(
  String.raw`\b(?<en>mon|tue|wed|thu|fri|sat|sun)[a-z]*\s*,?\s*\(?(?<enDate>(?:${MONTH}\.?\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+${MONTH_AFTER_NUMBER}))\)?` +
    String.raw`|(?:周|星期|礼拜)(?<zh>[一二三四五六日天])\s*[（(]?(?<zhDate>${NUMBER}月${NUMBER}[日号])[)）]?` +
    String.raw`|(?<zhDateFirst>${NUMBER}月${NUMBER}[日号])\s*[（(]?(?:周|星期|礼拜)(?<zhAfter>[一二三四五六日天])[)）]?`,
  "gi",
);

/** Reads the day selection of a fragment; a weekday annotated "(day N)" (or "（第N天）") counts as day N. */
/**
 * Stretches of a week said by where they lie in it, with their days (Monday 1 … Sunday 7): its start (Monday and
 * Tuesday), its middle (Wednesday and Thursday), its end (Friday to Sunday). "Until / by the end of the week" is a
 * limit, not the end's days.
 */
const WEEK_STRETCHES: ReadonlyArray<[RegExp, readonly number[]]> = [
  [
    /(?<!\b(?:by|until|till|through|before)\s+(?:the\s+)?)\b(?:the\s+)?end of (?:the\s+|this\s+)?week\b|\blater in the week\b|周后半/,
    STRETCH_WEEKDAYS.end,
  ],
  [
    /\b(?:the\s+)?(?:start|beginning) of (?:the\s+|this\s+)?week\b|\bearly (?:in\s+)?(?:the\s+|this\s+)?week\b|周初|周前半/,
    STRETCH_WEEKDAYS.start,
  ],
  [/\b(?:the\s+)?middle of (?:the\s+|this\s+)?week\b|\bmid-?week\b|周中/, STRETCH_WEEKDAYS.middle],
];

/** Any of {@link WEEK_STRETCHES}' phrases (the words a task's name never holds). */
const WEEK_STRETCH = new RegExp(WEEK_STRETCHES.map(([pattern]) => `(?:${pattern.source})`).join("|"));
const WEEK_STRETCH_WORDS = new RegExp(WEEK_STRETCH.source, "g");

export function readDays(fragment: string): DaySelection {
  const selection: DaySelection = { weekdays: [], days: [] };
  // A weekday beside a date: the date, remembering the weekday (the day meant once the window moves past the date).
  const besides = new Map<string, number>();
  const calendar = readDates(
    fragment.replace(WEEKDAY_BESIDE_DATE, (...args: unknown[]) => {
      const found = args.at(-1) as Record<string, string | undefined>;
      const date = (found.enDate ?? found.zhDate ?? found.zhDateFirst ?? "").trim();
      const weekday = found.en
        ? WEEKDAY_PREFIXES.indexOf(found.en.toLowerCase())
        : (ZH_WEEKDAY_NUMBER[found.zh ?? found.zhAfter ?? ""] ?? 0);
      if (weekday > 0) besides.set(date.toLowerCase(), weekday);
      return ` ${date} `;
    }),
  );
  for (const spec of calendar.dates)
    if (spec.kind === "date" && besides.has(spec.text.toLowerCase()))
      spec.weekday = besides.get(spec.text.toLowerCase());
  let text = calendar.rest.replace(
    /\b[a-z]+day\s*\(day (\d+)\)|(?:周|星期|礼拜)[一二三四五六日天1-7]\s*(?:\(day (\d+)\)|[（(]第(\d+)天[)）])/g,
    (_, english?: string, chinese?: string, annotated?: string) => {
      selection.days.push(Number(english ?? chinese ?? annotated));
      return " ";
    },
  );
  text = text.replace(
    new RegExp(String.raw`\bdays? ${NUMBER}(?:\s*(?:-|to|and|,)\s*${NUMBER})?|第${NUMBER}天`, "g"),
    (_, first?: string, second?: string, chinese?: string) => {
      const start = readNumber(first ?? chinese ?? "");
      const end = second ? readNumber(second) : start;
      for (let day = start; day <= end && day - start < 400; day += 1) selection.days.push(day);
      return " ";
    },
  );
  if (/\bweekends?\b|周末/.test(text)) selection.weekdays.push(...STRETCH_WEEKDAYS.weekend);
  // "a weekday", "weekday evenings", "工作日": Monday to Friday.
  if (/\bweek-?days?\b|工作日/.test(text)) selection.weekdays.push(1, 2, 3, 4, 5);
  // "the end of the week", "early in the week", "midweek", "周初": those days of the week.
  for (const [pattern, weekdays] of WEEK_STRETCHES) if (pattern.test(text)) selection.weekdays.push(...weekdays);
  for (const [pattern, weekday] of WEEKDAYS_EN) if (pattern.test(text)) selection.weekdays.push(weekday);
  for (const match of text.matchAll(WEEKDAY_ZH)) {
    const token = match[1] ?? "";
    selection.weekdays.push(ZH_WEEKDAY_NUMBER[token] ?? Number(token));
  }
  const days = {
    weekdays: unique(selection.weekdays),
    days: unique(selection.days.filter((day) => Number.isInteger(day) && day > 0)),
  };
  return calendar.dates.length > 0 ? { ...days, dates: calendar.dates } : days;
}

/** Reads slot numbers and parts of the day ("slots 5-6", "第3节", "in the evening", "下午"). */
export function readSlots(fragment: string): SlotWindow {
  const window: SlotWindow = {};
  const range = new RegExp(
    String.raw`\b(?:slots?|sections?|periods?) ${NUMBER}(?:\s*(?:-|to)\s*${NUMBER})?|第?${NUMBER}(?:\s*(?:-|到|至)\s*第?${NUMBER})?节`,
  ).exec(fragment);
  if (range) {
    const first = readNumber(range[1] ?? range[3] ?? "");
    const second = readNumber(range[2] ?? range[4] ?? "");
    if (Number.isFinite(first)) {
      window.from = first;
      if (Number.isFinite(second)) window.to = second;
    }
  }
  const part = readPartOfDay(fragment);
  if (part) window.part = part;
  if (SAME_TIME.test(fragment) && !range && !part) window.sameTime = true;
  if (SOONEST.test(fragment)) window.soonest = true;
  return window;
}

/**
 * "as soon as possible", "asap", "as early as possible", "the earliest free slot", "the first available time", "the
 * next free slot", "尽快", "越早越好", "最早的空闲时间": as soon as it fits. ("Tomorrow at the earliest" is a bound, not this.)
 */
const SOONEST =
  /\b(?:as soon as (?:possible|you can|i can)|asap|as early as possible|(?:the\s+)?(?:earliest|first|next)\s+(?:free\s+|available\s+|open\s+)?(?:slot|time|spot|opening)(?:\s+(?:possible|available|there is|i have))?)\b|尽快|尽早|越早越好|最早的空闲时间|最早的空闲时段|最早有空的时候/;

/** "at the same time", "same time", "the same slot", "同一时间", "同样的时间", "原来的时间": the time the task has now. */
const SAME_TIME =
  /\b(?:the\s+)?same\s+(?:time|slot|hour)\b|同一(?:个)?时间|同样的?时间|相同的?时间|一样的时间|原来的时间|原时间/;

/**
 * Words of a part of the day besides its name: "first thing", "early tomorrow" (the morning); "the end of the day",
 * "after dinner", "before bed", "late on Friday" (the evening).
 */
const MORNING_PHRASE = String.raw`first thing|early(?=\s+(?:tomorrow|today|(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)`;
const EVENING_PHRASE = String.raw`(?:the\s+)?end of (?:the\s+)?day|after dinner|before bed(?:time)?|late(?=\s+(?:tomorrow|today|(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)`;
/** Those words with "at" / "by" before them: no part of a task's name. */
const PART_PHRASE_WORDS = new RegExp(String.raw`\b(?:at\s+|by\s+)?(?:${MORNING_PHRASE}|${EVENING_PHRASE})\b`, "g");
const MORNING_WORDS = new RegExp(
  String.raw`\bmornings?\b|\b(?:${MORNING_PHRASE})\b|上午|早上|早晨|清晨|今早|明早|一早|一大早|第一件事`,
);
const EVENING_WORDS = new RegExp(
  String.raw`\bevenings?\b|\bnights?\b|\btonight\b|\b(?:${EVENING_PHRASE})\b|晚上|晚间|夜里|傍晚|今晚|明晚|晚饭后`,
);

/** The part of the day a fragment names, if any. */
export function readPartOfDay(fragment: string): PartOfDay | undefined {
  if (MORNING_WORDS.test(fragment)) return "morning";
  if (/\bafternoons?\b|下午|午后/.test(fragment)) return "afternoon";
  if (EVENING_WORDS.test(fragment)) return "evening";
  return undefined;
}

/** The slots a window allows in a day of `slotsPerDay` slots, as an inclusive range. */
export function resolveSlotWindow(window: SlotWindow, slotsPerDay: number): { from: number; to: number } {
  let from = 1;
  let to = slotsPerDay;
  if (window.part) {
    const third = Math.max(1, Math.round(slotsPerDay / 3));
    if (window.part === "morning") to = Math.min(slotsPerDay, third);
    if (window.part === "afternoon") [from, to] = [Math.min(slotsPerDay, third + 1), Math.min(slotsPerDay, 2 * third)];
    if (window.part === "evening") from = Math.min(slotsPerDay, 2 * third + 1);
  }
  if (window.notPart === "morning")
    from = Math.max(from, Math.min(slotsPerDay, resolveSlotWindow({ part: "afternoon" }, slotsPerDay).from));
  if (window.notPart === "evening") to = Math.min(to, resolveSlotWindow({ part: "afternoon" }, slotsPerDay).to);
  if (window.from !== undefined) from = Math.max(from, window.from);
  if (window.to !== undefined) to = Math.min(to, window.to);
  else if (window.from !== undefined && !window.part) to = slotsPerDay;
  return { from, to };
}

const DAY_WORD = String.raw`(?:[a-z]+day\s*(?:\(day \d+\))?|mon|tue|wed|thu|fri|sat|sun|weekends?|day \d+)`;
const DAY_WORD_ZH = String.raw`(?:(?:周|星期|礼拜)[一二三四五六日天1-7]|周末|第\d+天)`;
/** "周六以外的时间", "周五和周六之外": the days named before 以外 / 之外 are where it must not go (group 1). */
const DAYS_EXCEPTED_ZH = new RegExp(String.raw`(${DAY_WORD_ZH}(?:\s*[和、,或]?\s*${DAY_WORD_ZH})*)(?:以外|之外)`, "g");
/**
 * "not on Monday or Sunday", "except day 3", "keep it off Friday", "Saturday instead of Friday", "不要周一和周日",
 * "不要安排在周五": group 1 (English) or 2 (Chinese) holds the days.
 */
const NEGATED_DAYS = new RegExp(
  String.raw`\b(?:not|never|except|but not|any\s*(?:day|time|where)\s+(?:but|except)|avoid(?:ing)?|no|(?<!(?:have|got|'ve|had) )nothing|none|off|instead of|rather than|other than|apart from|skip)\s+(?:on\s+)?(?:the\s+)?(${DAY_WORD}(?:\s*(?:and|or|,|&)\s*${DAY_WORD}(?![a-z]|\s*(?:instead|is fine|works|please|then|would|could)))*)(?:\s*(?:in\s+the\s+)?(?:mornings?|afternoons?|evenings?|nights?)\b)?|(?:不要|别|不|除了|避开|跳过)(?:在|放在|排在|安排在|安排到|放到|排到|放进|排进)?(${DAY_WORD_ZH}(?:\s*[和、,或]?\s*${DAY_WORD_ZH})*)(?:的)?(?:上午|早上|下午|晚上)?`,
  "g",
);

/**
 * "keep Saturday free", "leave the weekend open", "Sundays always stay free", "空出周六", "周六留空", "周日都空出来":
 * days to keep free are days to avoid (group 1, 2, 3 or 4 holds them).
 */
const KEEP_FREE = new RegExp(
  String.raw`\b(?:keep|leave)\s+(?:my\s+|the\s+)?(${DAY_WORD}s?(?:\s*(?:and|or|,|&)\s*${DAY_WORD}s?)*)\s+(?:free|clear|open|empty|off)\b|\b(${DAY_WORD}s?(?:\s*(?:and|or|,|&)\s*${DAY_WORD}s?)*)\s+(?:always\s+|must\s+|should\s+)?(?:stays?|remains?)\s+(?:free|clear|open)\b|(?:空出|留出|空着|留空|腾出)(${DAY_WORD_ZH}(?:\s*[和、,或]?\s*${DAY_WORD_ZH})*)|(${DAY_WORD_ZH}(?:\s*[和、,或]?\s*${DAY_WORD_ZH})*)(?:都|也)?(?:要|得|请)?(?:空着|留空|空出来|空下来)`,
  "g",
);

/**
 * Words that make a clause about days negative: the days it names are days to avoid ("Friday is my day off",
 * "I'm busy on Friday", "I have practice on Friday", "Friday doesn't work", "周五我休息", "周五不行").
 */
const NEGATIVE_CLAUSE =
  /\b(?:not|no|(?<!(?:have|got|'ve|had) )nothing|none|never|don'?t|doesn'?t|do not|does not|can'?t|cannot|can not|won'?t|will not|isn'?t|is not|aren'?t|busy|sick|unwell|under the weather|exhausted|travel(?:l)?ing|out of town|off|unavailable|away|avoid(?:ing)?|except|without|skip|rather not|bad|clash(?:es|ing)?|conflicts?|full(?!\s+of\b)|packed|(?:fully\s+)?booked(?:\s+up)?|swamped)\b|\bi(?: have|'ve got| got| am at|'m at) (?!(?:on|at|in|for|to|planned|scheduled|free|time|room|space|nothing|any|anything|some|something)\b)[a-z]+|\bi work\b|\bworking\b|不行|不要|不能|不可以|从不|从来不|永远不|绝不|不(?:学习?|复习|排|安排|上课)|不方便|不舒服|生病|病了|出差|不想|不用|不好|没空|没时间|没有时间|休息|有事|有课|有约|忙|避开|除了|除外|放假|跳过|冲突|满了|排满|已满|别/;
/**
 * Phrases that hold a negative word but are not negative ("不忙", "帮忙", "别的时间", "why not", and limits of the clock:
 * "no later than 16:30", "tomorrow no earlier than 10", "not before 9am" keep the day they are said with).
 */
const NOT_NEGATIVE =
  /不忙|帮忙|别的|别处|不如|不错|要不|\bno problem\b|\bnot bad\b|\bwhy not\b|\b(?:no|not) (?:later|earlier) than\b|\bnot before(?=\s+\d)/g;
/**
 * A part of the day ruled out with no day ("not in the morning", "no evenings", "avoid the afternoon", "不要晚上",
 * "上午不行"): group 1 (English), 2 or 3 (Chinese) holds the part.
 */
const NEGATED_PART =
  /\b(?:not|never|no|nothing|avoid(?:ing)?|except|but not|anything but)\s+(?:(?:in|during|on)\s+)?(?:the\s+)?(mornings?|afternoons?|evenings?|nights?)\b|(?:不要|别|不|避开|除了)(?:在|放在|排在|安排在|安排到|放到|排到)?(上午|早上|早晨|下午|晚上)|(上午|早上|早晨|下午|晚上)(?:不行|不要|不方便|没空|有事|有课|不可以|除外|以外|之外)/g;
/** Where one clause of a fragment ends and another begins ("Friday is my day off, Saturday is fine"). */
const CLAUSE_BREAK =
  /[,;!?]|\.(?!\d)|\b(?:but|so|since|because|instead|then|though|although|however|try|how about)\b|但是|但|不过|所以|因为|而是|改|换|可以|吧/;

/**
 * Reads where a fragment points: days to use, days to avoid, slots. Days named with a negation ("not Monday") are to
 * avoid, and so are the days of a clause that is negative as a whole ("Friday is my day off", "周五我休息"); slots
 * are read from the clauses that are not negative.
 */
export function readWhere(said: string): Where {
  if (said.length > MAX_READ_LENGTH)
    return { only: { weekdays: [], days: [] }, not: { weekdays: [], days: [] }, slots: {} };
  // "2 p.m." is "2 pm": its full stops end no clause. "Before Friday", "after Wednesday", "周六之前": the days of the
  // week on that side of it (they read as that day alone).
  const fragment = withDaysBeforeAfter(said.replace(/\b([ap])\.m\b\.?/g, "$1m"));
  const negated: string[] = [];
  let notDaysPart: PartOfDay | undefined;
  const rest = fragment
    .replace(KEEP_FREE, (_, english?: string, stays?: string, chinese?: string, chineseAfter?: string) => {
      negated.push(english ?? stays ?? chinese ?? chineseAfter ?? "");
      return " ";
    })
    .replace(NEGATED_DAYS, (whole: string, english?: string, chinese?: string) => {
      negated.push(english ?? chinese ?? "");
      notDaysPart ??= readPartOfDay(whole);
      return " ";
    })
    .replace(DAYS_EXCEPTED_ZH, (_, days: string) => {
      negated.push(days);
      return " ";
    });
  // A part of the day ruled out on no day: said so, or a negative clause that names no day ("I'm busy in the mornings").
  const partsOut: string[] = [];
  const unparted = rest.replace(NEGATED_PART, (_, english?: string, chinese?: string, chineseAfter?: string) => {
    partsOut.push(english ?? chinese ?? chineseAfter ?? "");
    return " ";
  });
  const positive: string[] = [];
  let negative = false;
  for (const clause of unparted.split(new RegExp(CLAUSE_BREAK, "g"))) {
    // "I'm busy Thursday, Friday, move my reviews": days listed on after a negative clause are ruled out with it.
    negative = (negative && DAYS_LISTED_ON.test(clause)) || NEGATIVE_CLAUSE.test(clause.replace(NOT_NEGATIVE, " "));
    (negative ? negated : positive).push(clause);
    if (negative && isEmptySelection(readDays(clause))) partsOut.push(clause);
  }
  const notPart = partsOut.map(readPartOfDay).find((part) => part !== undefined);
  const kept = positive.join(" , ");
  // "在周日10点以前" is a time limit (`readEndsBy`), no event to be done before.
  const before = readBefore(withoutEndsBy(fragment));
  const notBeforeHour = readNotBeforeHour(fragment);
  // "between 9pm and 8am" is a start and a time limit, no clock time to place at.
  const between = readBetween(kept);
  const at = readClockTime(withoutBetween(kept));
  const endsBy = between?.endsBy ?? readEndsBy(kept);
  const startsFrom = between?.startsFrom ?? readStartsFrom(kept);
  // "下午两点以后" is after 2pm, the evening too, and "下午5点以前" before 5pm, the morning too: a part of the day said only
  // with a limit's hour makes it pm, and does not close the limit's open side ("晚上9点以后" keeps the evening).
  const { part, ...named } = readSlots(kept);
  const partOfLimit =
    part !== undefined &&
    readSlots(withoutEndsBy(kept)).part === undefined &&
    ((startsFrom !== undefined && part !== "evening") || (endsBy !== undefined && part !== "morning"));
  const slots = {
    ...named,
    ...(part === undefined || partOfLimit ? {} : { part }),
    ...(notBeforeHour === undefined ? {} : { notBeforeHour }),
    ...(notPart === undefined ? {} : { notPart }),
    ...(at === undefined ? {} : { at }),
    ...(endsBy === undefined ? {} : { endsBy }),
    ...(startsFrom === undefined ? {} : { startsFrom }),
  };
  const not = readDays(negated.join(" , "));
  return {
    only: readDays(kept),
    not,
    slots,
    ...(before ? { before } : {}),
    ...(notDaysPart && !isEmptySelection(not) ? { notDaysPart } : {}),
  };
}

const WEEKDAY_WORDS_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const WEEKDAY_WORD_EN = String.raw`(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun|the weekend|weekend)`;
const BEFORE_AFTER_DAY_EN = new RegExp(
  String.raw`\b(?:(?:sometime|some time|any ?time|any day)\s+)?(before|until|till|by|no later than|after|later than)\s+(?:this\s+|next\s+)?${WEEKDAY_WORD_EN}\b`,
  "g",
);
const BEFORE_AFTER_DAY_ZH = /((?:周|星期|礼拜)[一二三四五六日天]|周末)(之前|以前|前|之后|以后|后)(?![天半])/g;

/**
 * "before Friday" → the days of the week before it ("monday and tuesday and wednesday and thursday"), "by Friday" up
 * to it, "after Wednesday" after it, "周六之前" / "周三以后" alike (a week runs Monday to Sunday): words `readDays`
 * reads. A weekday before which no day is left ("before Monday") says nothing.
 */
function withDaysBeforeAfter(text: string): string {
  const span = (weekday: number, side: "before" | "by" | "after", chinese: boolean) => {
    const days = [1, 2, 3, 4, 5, 6, 7].filter((day) =>
      side === "before" ? day < weekday : side === "by" ? day <= weekday : day > weekday,
    );
    return chinese
      ? days.map((day) => `周${"一二三四五六日"[day - 1]}`).join("和")
      : days.map((day) => WEEKDAY_WORDS_EN[day - 1]).join(" and ");
  };
  return text
    .replace(BEFORE_AFTER_DAY_EN, (_, word: string, day: string) => {
      const side = /^(?:before|until|till)$/.test(word)
        ? "before"
        : /^(?:by|no later than)$/.test(word)
          ? "by"
          : "after";
      // After the weekend or Sunday no day of the week is left: next week (`DATE_PATTERNS` reads it).
      if (side === "after" && /weekend|^sun/.test(day)) return _;
      const weekday = /weekend/.test(day) ? 6 : WEEKDAYS_EN.find(([pattern]) => pattern.test(day))?.[1];
      if (weekday === undefined) return _;
      return ` ${span(weekday, side, false)} `;
    })
    .replace(BEFORE_AFTER_DAY_ZH, (_, day: string, word: string) => {
      if (!/前/.test(word) && /周末|[日天]$/.test(day)) return _;
      const weekday = day === "周末" ? 6 : ZH_WEEKDAY_NUMBER[day.slice(-1)];
      if (weekday === undefined) return _;
      return span(weekday, /前/.test(word) ? "before" : "after", true);
    });
}

/** "before the midterm" / "ahead of my exam" / "在期中考试之前" (an English step may name a Chinese event): the event named. */
const BEFORE_EVENT =
  /\b(?:before|ahead of|prior to)\s+(?:the\s+|my\s+|our\s+)?([a-z\u4e00-\u9fff][a-z0-9\u4e00-\u9fff -]*?)\s*(?=[,.;!?)]|$|\b(?:and|but|on|in|please|thanks)\b)|(?:在|于)([^在于，,。]{2,12}?)(?:之前|以前|前(?!一|两|二|三|几|\d))/;

function readBefore(fragment: string): string | undefined {
  const match = BEFORE_EVENT.exec(fragment.toLowerCase());
  const phrase = (match?.[1] ?? match?.[2] ?? "").trim();
  // "before Friday" / "before 10" are days and slots, not events.
  if (!phrase || /^(?:[a-z]+day|weekend|\d+|noon|lunch|dinner|bed|bedtime|tomorrow|today|周.|星期.)$/.test(phrase))
    return undefined;
  return phrase;
}

/** True when a selection names no day. */
export function isEmptySelection(selection: DaySelection): boolean {
  return selection.weekdays.length === 0 && selection.days.length === 0 && (selection.dates ?? []).length === 0;
}

/**
 * True when `where` names only where not to go ("but not on Saturday", "but not in the morning"): no day to go to, some
 * days or a part of the day ruled out.
 */
export function onlyExcludes(where: Where): boolean {
  return isEmptySelection(where.only) && (!isEmptySelection(where.not) || where.slots.notPart !== undefined);
}

/** True when `where` restricts nothing. */
export function isAnywhere(where: Where): boolean {
  return (
    !where.before &&
    isEmptySelection(where.only) &&
    isEmptySelection(where.not) &&
    where.slots.from === undefined &&
    where.slots.to === undefined &&
    !where.slots.part &&
    !where.slots.notPart &&
    where.slots.notBeforeHour === undefined &&
    where.slots.at === undefined &&
    where.slots.endsBy === undefined &&
    where.slots.startsFrom === undefined &&
    !where.slots.sameTime &&
    !where.slots.soonest &&
    !where.next &&
    !where.dayOf
  );
}

const GREETING =
  /^(?:(?:(?:hi|hello|hey)(?: there)?|thanks|thank you|good (?:morning|evening|afternoon))\b|你好|您好|嗨|谢谢|多谢|早上好|晚上好)[\s!.,。！~]*$/i;
const HELP =
  /\bwhat can you do\b|\bhelp\b|\bwhat do you do\b|\bhow (do|can) i use\b|\bcapabilit|\bwhat are you\b|\bwho are you\b|你能做什么|你会什么|你可以做什么|能干什么|帮助|怎么用|你是谁/;

/** A request to make the arranged week better without adding anything ("optimise my week", "优化一下我的日程"). */
export const OPTIMIZE_REQUEST =
  /\b(?:optimi[sz]e|re-?arrange|improve|rebalance|tidy up|refine)\b.*\b(?:week|schedule|timetable|reviews?)\b|优化.*(?:日程|安排|一周|复习)/i;

/**
 * Words of politeness and filler that never name anything: "please", "thanks", "cheers", "though", "谢谢", "麻烦了".
 * They go before a request is read, so "…, thanks!" never becomes a task named "thanks".
 */
const POLITENESS =
  /\b(?:please|pls|plz|kindly|thanks(?: a lot| so much)?|thank you(?: (?:so|very) much)?|thx|ty|cheers|though|if you can|if possible|if you could|when you can)\b|谢谢(?:你|您)?|多谢|谢啦|感谢|麻烦(?:你|您)?了?|辛苦(?:你|您)?了|拜托(?:你|您)?了?|请(?=[\u3400-\u9fff])/g;

/** Strips politeness and filler ("please", "thanks", "谢谢") and the punctuation they leave behind. */
export function withoutPoliteness(text: string): string {
  const spaced = text
    .replace(POLITENESS, " ")
    // Spaces first, so a run of commas is matched with at most one space between them: `\s*` before a comma backtracks
    // in time quadratic in a run of spaces with no comma (a message of 请 is one).
    .replace(/\s+/g, " ")
    .replace(/ ?,(?: ?,)+/g, ",")
    .trim();
  return trimEdges(spaced, /[\s,]/);
}

/** A question about the week ("what do I still need to schedule?"), not a request to change it ("can you arrange …?"). */
const QUESTION_START =
  /^(?:what|which|when|where|how|who|why|whats|what's|do i|does|did i|is there|are there|is anything|am i|have i|will i|should i|anything)\b/;

/** A question that asks for a change ("why not move it to Friday?", "why don't you swap them?"): read as the change. */
const SUGGESTION = /^why (?:not|don'?t you|do not you|can'?t you|wouldn'?t you)\b/;

/**
 * Reads a request from a message or a plan step. A new task's or habit's name keeps the case the message wrote it in
 * ("Past papers"); everything else is read lowercased.
 */
export function parseScheduleRequest(text: string): ScheduleRequest {
  const request = readRequest(text);
  return request.kind === "add_task" || request.kind === "add_habit" || request.kind === "add_long_task"
    ? { ...request, name: asWritten(request.name, text) }
    : request;
}

/** `name`, read from `text` lowercased, as `text` writes it; as read when `text` does not hold it letter for letter. */
function asWritten(name: string, text: string): string {
  const plain = text.replace(/[“”„「」『』]/g, '"').replace(/\s+/g, " ");
  const at = plain.toLowerCase().indexOf(name);
  const written = at === -1 ? name : plain.slice(at, at + name.length);
  return written.toLowerCase() === name ? written : name;
}

/** `parseScheduleRequest`, every name lowercased. */
function readRequest(text: string): ScheduleRequest {
  const normalized = normalizeText(text);
  if (normalized === "") return { kind: "unknown" };
  // "Reschedule my missed reviews, then arrange …" (the daily check-in): the arrangement, its missed reviews first.
  const makeUp = MAKE_UP_MISSED.exec(normalized);
  if (makeUp) {
    const after = normalized.slice(makeUp.index + makeUp[0].length);
    // Alone, the missed reviews are what is asked (it read as moving a task named "missed reviews" before).
    if (/^[\s,.!?。！？，]*$/.test(after)) return { kind: "reschedule" };
    const rest = readRequest(after);
    if (rest.kind === "arrange") return { ...rest, makeUp: true };
  }
  if (GREETING.test(normalized)) return { kind: "greeting" };
  const polite = withoutPoliteness(normalized);
  if (polite === "" || /^[\s,.!?]*$/.test(polite)) return { kind: "greeting" };
  // Sentences: the first that is a request is the request; the others may say where things go ("I prefer mornings.",
  // "Not on Friday though.") and never name tasks.
  const sentences = polite
    .split(/[?!]+|\.(?=\s|$)/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "")
    .slice(0, MAX_READ_SENTENCES);
  if (sentences.length <= 1) return parseSentence(trimEdges(polite, /[.!?]/, "end").trim());
  const readings = sentences.map(parseSentence);
  const main = readings.findIndex((reading) => !["unknown", "greeting", "help"].includes(reading.kind));
  if (main === -1) return readings.find((reading) => reading.kind !== "unknown") ?? { kind: "unknown" };
  const found = readings[main]!;
  // "I missed Tuesday's review. Don't reschedule it.": the second sentence is about the first.
  if (found.kind === "mark" && sentences.some((sentence, index) => index !== main && DONT_RESCHEDULE.test(sentence)))
    return { ...found, reschedule: false };
  if (!("where" in found)) return found;
  // "Move the essay to Friday. Move the matrix review to Monday.": a move in each sentence (its days are its own).
  const moves = sentences.map((sentence, index) =>
    found.kind === "move" && index > main ? movesSaidAfter(sentence) : undefined,
  );
  const also = moves.flatMap((move) => (move?.kind === "move" && movesTo(move) ? movesOf(move) : []));
  const extra = sentences
    .filter((_, index) => index !== main && !(moves[index]?.kind === "move" && movesTo(moves[index])))
    .map((sentence) => readWhere(sentence))
    .reduce(mergeWheres, found.where);
  return found.kind === "move" && also.length > 0
    ? { ...found, where: extra, also: [...(found.also ?? []), ...also] }
    : ({ ...found, where: extra } as ScheduleRequest);
}

/**
 * The moves a sentence after a move says ("Move the matrix review to Monday.", "And the essay to Friday."), its verb
 * left out only before "to" ("I prefer mornings." moves nothing).
 */
function movesSaidAfter(sentence: string): ScheduleRequest | undefined {
  const piece = sentence.replace(/^(?:and|then|also)\s+/, "");
  if (MOVE_VERB_EN.test(piece) || MOVE_ZH.test(piece)) return readMoves(piece);
  return /\s(?:to|onto|into|until|till)\s/.test(piece) ? readMoves(`move ${piece}`) : undefined;
}

/** The weekdays whose reviews a shift of all moves, first the one said first; none for every review ahead. */
export function shiftAllDays(request: Extract<ScheduleRequest, { kind: "shift_all" }>): number[] {
  if (request.weekday === undefined) return [];
  return [
    request.weekday,
    ...(request.more ?? []).flatMap((day) =>
      "weekday" in day && day.weekday !== request.weekday ? [day.weekday] : [],
    ),
  ];
}

/** What a move of every review moves them by: days, or minutes the same day; undefined before the planner knows. */
export function shiftAllBy(
  request: Extract<ScheduleRequest, { kind: "shift_all" }>,
): { days: number } | { minutes: number } | undefined {
  if (request.minutes !== undefined) return { minutes: request.minutes };
  return request.days !== undefined ? { days: request.days } : undefined;
}

/** A move and the moves said with it, one by one (none holding others). */
export function movesOf(move: MoveRequest): MoveRequest[] {
  const { also, ...first } = move;
  return [first, ...(also ?? [])];
}

/** True for a move of a named task to a place or by a shift. */
function movesTo(reading: ScheduleRequest): boolean {
  return reading.kind === "move" && !PRONOUN.test(reading.task) && (!!reading.shift || !isAnywhere(reading.where));
}

/** "Reschedule my missed reviews, then …", "补排（我）错过的复习，然后…": a request to make up the missed reviews first. */
const MAKE_UP_MISSED =
  /^(?:reschedule|make up|put back|catch up on|re-?place)\s+(?:(?:all\s+(?:of\s+)?)?(?:my|the)\s+missed\s+(?:reviews?|tasks?|ones)|(?:(?:all\s+(?:of\s+)?)?(?:my|the)\s+)?(?:reviews?|tasks?|ones?)\s+(?:that\s+)?i\s+missed|what(?:ever)?\s+i\s+missed)\s*(?:,\s*)?(?:and\s+)?(?:then\s+)?|^(?:请|帮我)?(?:补排|重新安排|补做)(?:一下)?(?:我|我的)?(?:错过|没做|漏掉)(?:了)?的复习[，,]?\s*(?:然后|再)?/;

/** Two readings of where, together: both sets of days, the later slots. */
function mergeWheres(base: Where, extra: Where): Where {
  const join = (first: DaySelection, second: DaySelection): DaySelection => {
    const dates = [...(first.dates ?? []), ...(second.dates ?? [])];
    return {
      weekdays: unique([...first.weekdays, ...second.weekdays]),
      days: unique([...first.days, ...second.days]),
      ...(dates.length > 0 ? { dates } : {}),
    };
  };
  const slots =
    extra.slots.part ||
    extra.slots.from !== undefined ||
    extra.slots.to !== undefined ||
    extra.slots.notBeforeHour !== undefined ||
    extra.slots.at !== undefined ||
    extra.slots.endsBy !== undefined ||
    extra.slots.soonest
      ? { ...base.slots, ...extra.slots }
      : base.slots;
  const before = extra.before ?? base.before;
  return { only: join(base.only, extra.only), not: join(base.not, extra.not), slots, ...(before ? { before } : {}) };
}

/**
 * "recover", "recover them", "do the recovery", "make room for the reviews at risk", "补救", "执行补救方案": what the
 * at-risk notice invites ('Say "recover" …').
 */
const RECOVER_REQUEST =
  /^(?:(?:ok|okay|yes|then|please|can you|could you|go ahead and)[\s,]+)*(?:recover(?:\s+(?:it|them|that|those|the reviews?(?: at risk)?|my reviews?(?: at risk)?))?|do the (?:recovery|change that recovers(?: the most)?)|make room for (?:the |my )?(?:reviews? )?at risk|(?:save|rescue) (?:the |my )?(?:at-risk reviews?|reviews? at risk))(?:\s+(?:please|now))?[.!]?$|^(?:请|帮我)?(?:执行)?补救(?:一下|方案|吧)?[。！]?$/;

/** "undo", "undo that", "udno", "revert that", "take that back", "撤销", "撤回刚才的修改" (a verb's typo is read too). */
const UNDO_REQUEST =
  /^(?:(?:oops|oh|no|wait|ok|okay|hey|please|can you|could you|actually)[\s,]+)*(?:(?:undo|udno|unod|undoo|indo|undp|revert|reverse|roll ?back)(?:\s+(?:that|it|this|(?:the |my )?(?:last|previous|latest) (?:change|one|thing|step|card|action|write)s?|what you (?:just )?did|(?:the )?last))?|cancel (?:that|the (?:last|previous) (?:change|one))|(?:take|put|change|set|turn|move)\s+(?:that|it|this|everything)\s+back(?:\s+(?:to )?(?:the way|how|as|where) it was)?|go back to (?:the way|how) it was)(?:\s+(?:please|now|again))?$|^(?:请|帮我|麻烦)?(?:撤销|撤消|撤回|撤销掉|还原|恢复)(?:一下)?(?:刚才|上一次|上次|刚刚|最后一次)?(?:的)?(?:操作|修改|更改|改动|那个|那一步|这个|一步)?(?:吧)?$|^(?:把)?(?:刚才|刚刚)(?:的)?(?:操作|修改|更改|改动)?(?:撤销|撤回|还原)(?:掉)?(?:吧)?$|^(?:请|帮我)?(?:(?:把|将)(?:它|这个|那个))?(?:放回|移回|挪回|改回|调回|排回)(?:去|来|原处|原位|原来的位置|原来的地方|原来那里)?(?:吧)?$/;

/**
 * "how healthy is my week?", "how's my week looking?", "is my schedule healthy?", "check my week's health",
 * "我这周安排得怎么样", "这周的日程健康吗", "看看这周安排合不合理".
 */
const HEALTH_REQUEST =
  /\bhow healthy\b|\bhealth (?:score|check|of (?:my|the|this))\b|\b(?:week|schedule|plan)(?:'s)? health\b|\bis (?:my|the|this) (?:week|schedule|plan) (?:healthy|ok|okay|good|balanced)\b|\bhow(?:'s| is| does)\s+(?:my|the|this)\s+(?:week|schedule|plan|timetable)(?:\s+(?:look(?:ing)?|doing|going))?\b|\bhow (?:good|bad|balanced) is (?:my|the|this) (?:week|schedule|plan)\b|\brate (?:my|the|this) (?:week|schedule)\b|(?:这周|本周|这一周|一周|日程|安排|计划)[^,.?!]{0,6}(?:怎么样|如何|好不好|健康吗|健康|合理吗|合不合理|合理不)|健康(?:分|度|状况)/;

/** "what's left before the midterm?", "what do I still have to do before the exam", "期中考试前还剩什么", "离期中考试还有哪些没做". */
const LEFT_BEFORE =
  /\b(?:what(?:'s| is)? (?:still )?left|how many(?: (?:reviews?|tasks?|things?))? (?:are|is) (?:still )?left|how much (?:is )?(?:still )?left|what (?:do|must|should) i (?:still )?(?:have to |need to )?do|what remains|what(?:'s| is) remaining|anything left)\s+(?:to do\s+)?(?:before|ahead of|until|till)\s+(?:the\s+|my\s+)?([a-z][a-z0-9 -]*?)\s*$|^(?:在)?(.{2,12}?)(?:之前|以前|前)(?:还)?(?:剩|剩下|还有|有)(?:什么|哪些|啥|几个)|^离(.{2,12}?)(?:还)(?:剩|剩下|有)(?:什么|哪些|啥|几个)/;

/** A habit: a task to repeat ("three times a week", "every day", "每周三次", "每天背单词"). */
const HABIT_REQUEST =
  /\b(?:once|twice|thrice|(?:\d+|one|two|three|four|five|six|seven)\s*(?:times|tiems|tims|x|×))\s*(?:a|per|every|each)\s+(?:week|wek|weeek|day)\b|\b(?:every|each)\s+(?:day|morning|evening|night|weekday)\b|\bdaily\b|\bhabit\b|每(?:周|星期|天|日|晚|早)[^,.?!]{0,6}(?:\d+|[一二两三四五六七])?次|每天|每晚|每早|习惯/;

const COUNT_WORDS: Record<string, number> = { once: 1, twice: 2, thrice: 3, ...NUMBER_WORDS };

/**
 * A habit read whole — its name, how many times a week, and when said a session's minutes and a part of the day — or
 * undefined ("every day" is 7 a week; "twice a day" is not a week's count and is not read). Typos of "times", "week",
 * "minutes" and the parts of the day are read.
 */
function readHabit(body: string): ScheduleRequest | undefined {
  const english =
    /\b(once|twice|thrice|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:(?:times?|tiems?|tims?|x|×)\s*)?(?:a|per|every|each)\s+(?:week|wek|weeek|wk)\b|\b(?:every|each)\s+(day)\b|\b(daily)\b/.exec(
      body,
    );
  const chinese =
    /每(?:周|星期|礼拜)([^,，。]{0,4}?)(\d+|[一二两三四五六七八九十])\s*次([^,，。]{0,12})|每(天|日)([^,，。]{0,12})/.exec(
      body,
    );
  const count = english
    ? english[2] || english[3]
      ? 7
      : (COUNT_WORDS[english[1] ?? ""] ?? Number(english[1]))
    : chinese
      ? chinese[4]
        ? 7
        : readNumber(chinese[2] ?? "")
      : Number.NaN;
  if (!Number.isInteger(count)) return undefined;
  const minutes =
    /(\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?|hous|小时)(?![a-z])/.exec(body) ??
    /(\d+)\s*(?:mins?|minutes?|minuets?|minuts?|m|分钟|分)(?![a-z])/.exec(body);
  const length = minutes
    ? minutes[0].match(/h|小时/)
      ? Math.round(Number(minutes[1]) * 60)
      : Number(minutes[1])
    : undefined;
  const partWord =
    /\b(morning|mornign|moring|mornig|afternoon|afternon|evening|evenign|evning|night)s?\b|(早上|上午|早晨|下午|晚上|晚间)/.exec(
      body,
    );
  const part: PartOfDay | undefined = partWord
    ? /^(?:mor|早|上)/.test(partWord[0])
      ? "morning"
      : /^(?:aft|下)/.test(partWord[0])
        ? "afternoon"
        : "evening"
    : undefined;
  let name: string;
  if (english) {
    name = body
      .slice(0, english.index)
      .replace(
        /\b(?:i\s+(?:want|would like|need|'d like)\s+to|i\s+want|let me|help me|add a habit(?: of)?|a habit(?: of)?|habit|study|practi[cs]e|do|review|learn)\b/g,
        " ",
      )
      .replace(/[,:;]/g, " ")
      .trim();
  } else {
    const after = (chinese?.[3] ?? chinese?.[5] ?? "").replace(/^[背学练读做复习看]+/, "").trim();
    const before = body
      .slice(0, chinese?.index ?? 0)
      .replace(/^(?:我想|我要|帮我|请|添加习惯|新增习惯)+/, "")
      .replace(/[，,\s]+$/, "")
      .trim();
    name = after || before.replace(/[背学练读做]$/, "").replace(/^[“"](.*)[”"]$/, "$1");
  }
  name = taskPhrase(name.replace(/\s+/g, " ").trim());
  if (!name) return undefined;
  return {
    kind: "add_habit",
    name,
    perWeek: count,
    ...(length !== undefined && length > 0 ? { minutes: length } : {}),
    ...(part ? { part } : {}),
  };
}

const HOUR_WORDS: Record<string, number> = { a: 1, an: 1, half: 0.5, 半: 0.5, ...COUNT_WORDS };

/** The English weekday names, Monday first, for typos read by closeness ("firday", "fridya"). */
const WEEKDAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** The weekday (1 = Monday) a word names, typos of up to two letters tolerated, or undefined. */
function weekdayWord(word: string): number | undefined {
  const exact = WEEKDAYS_EN.find(([pattern]) => pattern.test(word))?.[1];
  if (exact !== undefined) return exact;
  const close = WEEKDAY_NAMES.findIndex((name) => word.length >= 5 && editDistance(word, name) <= 2);
  return close === -1 ? undefined : close + 1;
}

/** The number of one-letter edits (insert, delete, change, swap of neighbours) from `from` to `to`. */
export function editDistance(from: string, to: string): number {
  const rows = Array.from({ length: from.length + 1 }, (_, row) =>
    Array.from({ length: to.length + 1 }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  for (let row = 1; row <= from.length; row += 1)
    for (let column = 1; column <= to.length; column += 1) {
      const change = from[row - 1] === to[column - 1] ? 0 : 1;
      let best = Math.min(
        rows[row - 1]![column]! + 1,
        rows[row]![column - 1]! + 1,
        rows[row - 1]![column - 1]! + change,
      );
      if (row > 1 && column > 1 && from[row - 1] === to[column - 2] && from[row - 2] === to[column - 1])
        best = Math.min(best, rows[row - 2]![column - 2]! + 1);
      rows[row]![column] = best;
    }
  return rows[from.length]![to.length]!;
}

/** "write the essay, 4 hours, before friday" (typos of hours and the weekday read); the plan's own step too. */
const LONG_TASK_EN =
  /^(.+?)\s*,?\s*(?:in\s+|about\s+|for\s+)?(\d+(?:\.\d+)?|an?|half an?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(h|hrs?|hours?|hous|hors|horus|huors|hr|mins?|minutes?)(?![a-z])\s*,?\s*(?:before|by|due|until|till|befor|bfore|befroe)\s+(?:next\s+|this\s+)?([a-z]+)$/;

/** "写论文，4小时，周五前", "写论文,两个小时,星期五之前完成"; the plan's own step too. */
const LONG_TASK_ZH =
  /^(.+?)\s*,?\s*(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(?:个)?(小时|钟头|分钟)\s*,?\s*(?:在)?(?:周|星期|礼拜)([一二三四五六日天1-7])(?:之前|以前|前)(?:完成|写完|做完)?$/;

/** A long task read whole (its name, length and the weekday it is due before), or undefined. */
function readLongTask(body: string): ScheduleRequest | undefined {
  const english = LONG_TASK_EN.exec(body);
  const chinese = english ? null : LONG_TASK_ZH.exec(body);
  const match = english ?? chinese;
  if (!match) return undefined;
  const amount = match[2]!.replace(/ an?$/, "");
  const count = HOUR_WORDS[amount] ?? (/^\d/.test(amount) ? Number(amount) : readNumber(amount));
  const minutes = Math.round(/^(?:min|分)/.test(match[3]!) ? count : count * 60);
  const dueWeekday = english ? weekdayWord(match[4]!) : (ZH_WEEKDAY_NUMBER[match[4]!] ?? Number(match[4]));
  const name = taskPhrase(
    match[1]!
      .replace(
        /^(?:add (?:the |a )?long task|i (?:need|have|want) to|i must|help me|添加长任务|我要|我得|帮我|请)\s*/,
        "",
      )
      .replace(/\s*(?:in sessions|\(分次\))$/, "")
      .replace(/^"(.*)"$/, "$1")
      .trim(),
  );
  if (!name || !Number.isFinite(minutes) || minutes <= 0 || dueWeekday === undefined) return undefined;
  return { kind: "add_long_task", name, minutes, dueWeekday };
}

/** The event a "what's left before …" question names, or undefined. */
function readLeftBefore(body: string): ScheduleRequest | undefined {
  const match = LEFT_BEFORE.exec(body);
  const event = (match?.[1] ?? match?.[2] ?? match?.[3] ?? "").trim().replace(/^(?:the|my)\s+/, "");
  if (!match || event === "") return undefined;
  if (/^(?:[a-z]+day|weekend|tomorrow|today|周.|星期.|这周|本周|下周)$/.test(event)) {
    // A day: the reviews still to do before it ("this week" names no day before which).
    const when = readWhere(event);
    return isEmptySelection(when.only) ? undefined : { kind: "left_before", event, when };
  }
  return { kind: "left_before", event };
}

/** A request not to do something ("don't reschedule it", "never move it", "不要重新安排"): no request of that verb. */
/**
 * "what's next?", "what should I study now?", "when's my next review?", "what's my next class?", "下一个复习是什么",
 * "接下来做什么", "下一节课是什么".
 */
const NEXT_QUESTION =
  /^(?:what'?s|what is|whats) (?:next|coming (?:up )?next|up next)\b(?! (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)|^show what comes next$|^查看接下来的安排$|^(?:what|which) (?:should|do|shall) i (?:do|study|work on|review) (?:now|next)\b|^(?:when|what)(?:'s| is) (?:my )?next (?:review|task|session|thing|class|lecture|lesson|event)\b|^(?:what|which) class (?:do i have|is) next\b|^(?:我)?(?:接下来|下一步|现在)(?:该|要)?(?:做|干|学|复习|是)?(?:什么|啥)|^(?:我)?接下来(?:呢|有什么|有啥)|^(?:我的)?下一个(?:复习|任务|安排)?(?:是什么|是啥|在什么时候|什么时候)|^(?:我的)?下一?(?:节|堂)课(?:是什么|是啥|是哪节|在什么时候|什么时候|在哪天|几点|呢)?[?？]?$/;

const NEGATED_REQUEST =
  /^(?:(?:please|but|and|just|ok|okay|no)[\s,]+)*(?:don'?t|do not|no need to|you don'?t need to)\s+(?:re-?schedule|move|place|arrange|schedule|swap|unplace|remove|put|plan|do)\s+(?:it|that|this|them)\b(?:\s+(?:again|back|anywhere))?$|^(?:请)?(?:不要|不用|别|无需|不必)(?:再)?(?:重新|再)(?:安排|重排|移动|挪|放|排)/;

/**
 * A change said not to be made: "don't move the essay", "never move the essay", "do not schedule the essay", "don't
 * clear Friday", "don't move anything to Friday", "不要把作文移到周五" — each read as the change itself before (the days
 * after it as where to make it). Nothing is done. A placing said not to happen on a day stays a limit of where
 * ("don't schedule anything on Friday" arranges the week without Friday).
 */
const NEGATED_CHANGE =
  /^(?:(?:please|but|and|just|ok|okay|no)[\s,]+)*(?:don'?t|do not|never|please don'?t|i (?:don'?t|do not) (?:want|need|wanna|have) to|i'?d rather not|i would rather not|i'?d prefer not to|i would prefer not to|(?:there'?s |there is )?no need to|you (?:don'?t|do not) (?:need|have) to|don'?t bother(?: to)?)\s+(?:move|reschedule|swap|switch|unplace|remove|shift|push|delay|postpone|clear|cancel|delete|touch|change|skip|drop|bring)\b|^(?:请)?(?:我)?(?:不要|别|不用|不必|无需|千万别|不想|不需要|没必要)(?:再)?(?:把|将)?[^，。,;；]{0,40}?(?:移到|挪到|调到|改到|换到|推迟|提前|移动|挪走|挪开|删除|删掉|取消|清空|撤下|撤掉|交换|对调|跳过)/;
const NEGATED_PLACING =
  /^(?:(?:please|but|and|just|ok|okay|no)[\s,]+)*(?:don'?t|do not|never|please don'?t)\s+(?:schedule|place|arrange|put|plan)\b/;

/** "can the essay go to Friday (instead)?", "could my matrix review be moved to Thursday?": the task and where. */
const CAN_GO =
  /^(?:can|could)\s+((?:the|my)\s+.+?)\s+(?:go|be moved|be put|move|be done|be)\s+(?:to|on|onto|in|at)\s+(.+?)(?:\s+instead)?\s*\??$/;
/**
 * A place said as a liking for one task: "I'd prefer the essay on Friday", "I'd rather have the essay on Friday",
 * "I'd like to have the vocabulary list in the evening" (group 1 the task, group 2 where). Not of every review ("I'd
 * prefer my reviews in the morning" is where an arrangement goes, read as before).
 */
const PREFER_PLACE =
  /^(?:i'?d|i would)\s+(?:prefer|rather have|like|love)\s+(?:to\s+(?:have|do|put)\s+)?((?:the|my)\s+(?!(?:reviews?|tasks?|stuff|things|everything|sessions?)\b)[^,]+?)\s+(?:on|in|at|for|to)\s+(.+?)(?:\s+instead)?$/;
/** "the essay would be better on Friday", "the essay works better in the evening": the task (1) and where (2). */
const BETTER_PLACE =
  /^((?:the|my)\s+[^,]+?)\s+(?:would be|would work|'d be|is|works|might be|fits)\s+better\s+(?:on|in|at)\s+(.+)$/;
/** "Friday works better for the essay", "Friday would be better for the essay": where (1) and the task (2). */
const BETTER_FOR = /^([^,]+?)\s+(?:would be|would work|'d be|is|works|might be)\s+better\s+for\s+((?:the|my)\s+.+)$/;

/** A move said as a question or a liking (`CAN_GO`, `PREFER_PLACE`, `BETTER_PLACE`, `BETTER_FOR`), as its move. */
function asMoveSaid(body: string): string {
  const better = BETTER_FOR.exec(body);
  if (better && onlyWhen(better[1]!)) return `move ${better[2]} to ${better[1]}`;
  return body
    .replace(CAN_GO, "move $1 to $2")
    .replace(PREFER_PLACE, "move $1 to $2")
    .replace(BETTER_PLACE, "move $1 to $2");
}

/** Another task's or event's place as where to go: "to where the essay is", "the essay's slot", "the same time as X". */
const PLACE_OF_ANOTHER =
  /\b(?:to|at|in|into|onto)\s+(?:exactly\s+)?(?:where|wherever)\s+(?!it\b|they\b|i\b|i'm\b|there'?s\b|you\b)[a-z]|\b(?:the\s+)?same\s+(?:time|slot|hour|place|spot)\s+as\s+(?!before\b|now\b|usual\b|it\b|last\b|today\b|yesterday\b|always\b)[a-z]|\b(?:to|into|in|at)\s+(?:the\s+)?(?!my\b|your\b|its\b|today'?s\b|tomorrow'?s\b|tonight'?s\b|[a-z]+day'?s\b|next\b|this\b|last\b)[a-z][a-z ]*?'s\s+(?:slot|place|spot|time)\b/;

/** Reads one sentence of a request: a move of every review (`shift_all`) is read from the move it reads as. */
function parseSentence(said: string): ScheduleRequest {
  // "move the essay to Monday, no wait, Tuesday": what is said is the sentence as corrected (each correction, the last
  // first: "monday, no wait, monday, no wait, tuesday" is "tuesday"). A sentence longer than the parser reads is not
  // understood whatever it says, so its corrections are not read (each is a pass over it).
  let body = said;
  if (said.length <= MAX_READ_LENGTH)
    for (let next = corrected(body); next !== body; next = corrected(body)) body = next;
  // "can the matrix review go to Thursday evening instead?": the move it asks for.
  body = asMoveSaid(body);
  // (Words of when said first, and the schedule named: read over a sentence the reader reads.)
  if (body.length <= MAX_READ_LENGTH) body = asPlacing(withWhenLast(body));
  if (NEGATED_CHANGE.test(body)) return { kind: "unknown" };
  // ("Move the essay to where the matrix review is", "… to the same time as the matrix review": another task's place,
  // which no reader holds. Before, the words were dropped and the essay went to the first free slot: not understood.)
  if (PLACE_OF_ANOTHER.test(body)) return { kind: "unknown" };
  if (NEGATED_PLACING.test(body) && isEmptySelection(readDays(body)) && !readPartOfDay(body))
    return { kind: "unknown" };
  const keepFree = readKeepFree(body);
  if (keepFree) return keepFree;
  const read = withSoonest(withoutExclusions(asShiftAll(readSentence(body))));
  if (unreadDigits(read, body)) return { kind: "unknown", why: "unread_number" };
  // "Not in the afternoon" leaves the morning and the evening, which one window of slots cannot hold: not understood,
  // rather than read as anywhere (the afternoon too).
  if ("where" in read && read.where.slots.notPart === "afternoon" && !read.where.slots.part)
    return { kind: "unknown", why: "afternoon_out" };
  return read;
}

/**
 * Words of when said first, then the request: "on Friday, move the matrix review to the evening", "first thing
 * tomorrow, do the essay" (a comma after them), "tomorrow morning I'll do the essay", "tonight I want to do the
 * vocabulary list" (a person's intent after them). Read as said after it; before, the request was not understood or
 * its day was dropped (the review moved to its own day's evening). Only when the request itself names no day: "Monday
 * and Tuesday, move my reviews to Wednesday" is read as it is.
 */
/** Who means to do it, before a request's verb: "I'll", "I want to", "I can't", "let's", "we should" … */
const INTENT = String.raw`(?:i(?:'ll| will| want to| wanna|'d like to| would like to|'m going to| am going to|'m gonna| need to| have to| should| can(?:'t|not)?| won'?t)|let'?s|we(?:'ll| will| should))`;
const WHEN_FIRST = new RegExp(String.raw`^([^,]{1,60}?)(?:\s*,\s*|\s+(?=${INTENT}\s))(.+)$`);

function withWhenLast(body: string): string {
  const [, when = "", rest = ""] = WHEN_FIRST.exec(body) ?? [];
  if (!onlyWhen(when) || !isEmptySelection(readDays(rest))) return body;
  // A change said not to be made keeps its days after it ("on Friday, don't move the essay" is no move at all).
  if (NEGATED_CHANGE.test(rest) || NEGATED_PLACING.test(rest)) return `${rest} ${when}`;
  // Only a request after them, and no clause that makes days ones to leave ("Friday, move the essay, I'm busy" is read
  // as it is: after the move the days would be where it goes).
  const request = REQUEST_START.exec(rest);
  if (request && !NEGATIVE_CLAUSE.test(rest.slice(request[0].length).replace(NOT_NEGATIVE, " ")))
    return `${rest} ${when}`;
  // A clause that makes them days to leave ("Friday, I'm busy, move my reviews"): read with them, as said without the
  // comma ("Friday I'm busy, move my reviews").
  return NEGATIVE_CLAUSE.test(rest.replace(NOT_NEGATIVE, " ")) ? `${when} ${rest}` : body;
}

/** The start of a request after words of when said first: a verb, after "I'll", "I want to", "I can't", "let's" … */
const REQUEST_START = new RegExp(
  String.raw`^(?:(?:please|can you|could you|would you)\s+)*(?:${INTENT}\s+)?(?:move|schedule|do|put|arrange|place|plan|push|shift|reschedule|postpone|delay|bring|fit|slot|book|squeeze|pencil|add|get|finish|complete|work on|study|review|write|make)\b`,
);

/** Words that ask for something, before its verb: "please", "can you", "I want to" … */
const ASKING = String.raw`(?:(?:please|can you|could you|would you|will you|help me|i want to|i'd like to|i would like to|i need to|let's|now|just)\s+)*`;
/** A task put on the schedule as a whole: "add X to my calendar", "put X in my schedule", "get X on the calendar". */
const ONTO_SCHEDULE = new RegExp(
  String.raw`^(${ASKING})(?:add|put|get|schedule|place|fit|slot|book|stick)\s+(.+?)\s+(?:in|into|on|onto|to)\s+(?:the\s+|my\s+)?(?:schedule|calendar|timetable|planner|agenda)\b(.*)$`,
);
/** "把作文加到周五的日程里", "把单词表加进日程": a placing on the days said (group 3), if any. */
const ONTO_SCHEDULE_ZH =
  /^(.*?)(?:把|将)(.+?)(?:加到|加进|加入|添加到|放进|放到|放入|排进|写进)(.*?)的?(?:日程|日历|计划|安排|课表)(?:表)?(?:里|中|上)?(?:吧|去)?$/;
/** "squeeze in X", "squeeze X in", "pencil in X", "pencil X in": a placing (group 2 before "in", group 3 after it). */
const SQUEEZE_IN = new RegExp(String.raw`^(${ASKING})(?:squeeze|pencil)\s+(?:in\s+(.+)|(.+?)\s+in\b(.*))$`);

/**
 * A placing said with words of the schedule itself: "add the essay to my calendar on Friday", "put the essay in my
 * schedule for Friday", "squeeze the vocabulary list in somewhere tomorrow", "pencil in the matrix review for Friday"
 * — read as "schedule …". Before, "add … to my calendar" added a new task to a class named "calendar on friday", the
 * others named tasks "essay in my schedule" or were not understood.
 */
function asPlacing(body: string): string {
  const onto = ONTO_SCHEDULE.exec(body);
  if (onto) return `${onto[1]}schedule ${onto[2]}${onto[3]}`;
  const ontoZh = ONTO_SCHEDULE_ZH.exec(body);
  if (ontoZh) return `${ontoZh[1]}把${ontoZh[2]}安排到${ontoZh[3]}`;
  const squeeze = SQUEEZE_IN.exec(body);
  if (squeeze) return `${squeeze[1]}schedule ${squeeze[2] ?? `${squeeze[3]}${squeeze[4]}`}`;
  return body;
}

/**
 * As soon as possible, of one task: a move, or a pending task placed as a move places it — the first free start from
 * the clock on. Of several, or of anything else, the words ask nothing more (no one first start holds them all).
 */
function withSoonest(read: ScheduleRequest): ScheduleRequest {
  if (!("where" in read) || !read.where.slots.soonest || read.kind === "move") return read;
  if (read.kind === "arrange" && read.tasks.length === 1 && !read.except && !read.makeUp && !read.putBack)
    return { kind: "move", task: read.tasks[0]!, where: read.where };
  const { soonest: _soonest, ...slots } = read.where.slots;
  return { ...read, where: { ...read.where, slots } } as ScheduleRequest;
}

/**
 * A day taken back and another said instead: "monday, no wait, tuesday", "monday, I mean tuesday", "monday - actually
 * tuesday", "monday, no, not monday, tuesday", "周一，不对，周二", "周一，我是说周二". A Chinese comma alone is none.
 */
const CORRECTION = new RegExp(
  String.raw`(?:,|;|\s-|\s—)\s*(?:(?:no|nope|oh no|sorry|wait|hmm),?\s+)*(?:no\s+wait|wait|no|nope|sorry|i mean|i meant|actually|make (?:that|it)|scratch that|or rather|correction|not\s+(?:on\s+)?${DAY_WORD})\b[,:]?\s*|[，,；;]\s*(?:(?:不对|不是|错了|说错了|哦不|噢不|等等|等一下)[，,]?\s*(?:我是说|我的意思是|应该是|改成|改为)?|我是说|我的意思是|应该是)`,
  "g",
);

/** A day said, in either language ("monday", "this fri", "tomorrow", "day 3", "周一", "明天", "第3天"). */
const DAY_SAID_ANY =
  /\b(?:(?:this|next)\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\b|\b(?:today|tonight|tomorrow|tmrw|the weekend|day \d+)\b|(?:下|这|本)?(?:周|星期|礼拜)[一二三四五六日天1-7]|今天|明天|后天|今晚|明晚|周末|第\d+天/g;

/** Where the last day said in `text` starts, if it names one. */
function lastDayAt(text: string): number | undefined {
  let at: number | undefined;
  for (const match of text.matchAll(DAY_SAID_ANY)) at = match.index;
  return at;
}

/**
 * A place next to another task or event, in a move or an arrangement: "after the matrix review", "to right after my
 * lecture", "just before the tutorial", `right after "matrix review"` (a plan step), "挪到矩阵复习之后", `移到 "矩阵复习"
 * 之后`. A plain "before X" is not one (it is a deadline: "before the midterm"), nor a day, a time or a part of the
 * day ("after Wednesday", "after 9pm", "after lunch", "after class").
 */
const NEXT_TO_EN =
  /(?:\s+to)?\s+(?:(right|just|straight|immediately|directly)\s+)?(after|before)\s+(?:"([^"]+)"|(?:the\s+|my\s+)?([a-z][a-z0-9'-]*(?:\s+(?!on\b|this\b|next\b|tomorrow\b|today\b|tonight\b|please\b)[a-z0-9'-]+)*))(?=\s+(?:on|this|next|tomorrow|today|tonight|please)\b|\s*[,.;!?]|\s*$)/;
const NEXT_TO_ZH = new RegExp(
  String.raw`(挪|移|放|安排|排|改|调)(?:到|在)\s*(?:(?<day>(?:\d{1,2}月\d{1,2}[日号])?(?:(?:下|这|本)?(?:周|星期|礼拜)[一二三四五六日天1-7])|今天|明天|后天)(?:的|，|,)?\s*)?"?([^"，,。\s]+?)"?\s*(之后|以后|后面|之前|前面)(?:吧)?$`,
);
/** Words after "after" that name a time, not a task: a day, a clock time, a part of the day, a meal, class. */
const NOT_AN_ANCHOR =
  /^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|today|tomorrow|tonight|yesterday|noon|midday|lunch|dinner|breakfast|class|classes|school|work|that|it|this|then|now|next|last|week|the weekend|weekend|(?:morning|afternoon|evening|night)s?|an? (?:hour|day|while|bit)|\w+ (?:hours?|days?|minutes?|mins?))\b|^\d|^the \d|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d|(?:周|星期|礼拜)[一二三四五六日天1-7末]|^(?:今天|明天|后天|昨天|前天|上午|下午|晚上|早上|中午|午饭|晚饭|下课|下周|这周|本周|\d)/;

/**
 * The day of another task or event, in a move: "to the day before the physics lab", "the day after my midterm", "on
 * the same day as the robotics club meeting", `the day before "Physics lab"` (a plan step), "挪到期中考试的前一天",
 * `挪到"物理实验"的后一天晚上`. Not "the day after tomorrow" (a day), nor "the day before" alone (a shift).
 */
const DAY_OF_EN =
  /(?:\s+(?:to|on|for))?\s+(?:on\s+)?(?:(?<count>\d|two|three|four|five|six)\s+days\s+(?<countSide>before|after)|the\s+(?<word>day|morning|afternoon|evening|night)\s+(?<side>before|after|of)|the\s+same\s+day\s+as)\s+(?:"(?<quoted>[^"]+)"|(?:the\s+|my\s+)?(?<anchor>[a-z][a-z0-9'-]*(?:\s+[a-z0-9'-]+)*?))(?=\s+(?:in|at|on|this|next|please|by|before|after|from|and)\b|\s*[,.;!?]|\s*$)/;
const DAY_OF_ZH =
  /(挪|移|放|安排|排|改|调)(?:到|在)\s*(?:"([^"]+)"|([^"，,。\s]+?))\s*的?(前一天|前1天|后一天|后1天|第二天|那天|那一天|当天|同一天|前[2-6两三四五六]天|后[2-6两三四五六]天)(?:的)?[，,]?(.*)$/;
const DAY_COUNT: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
};

/**
 * A move's day next to another task's or event's, and the request without it; undefined when none is said; "ruled
 * out" when the words say it is not where to go ("but not on the same day as the essay").
 */
function readDayOf(body: string): { dayOf: NonNullable<Where["dayOf"]>; rest: string } | "ruled out" | undefined {
  const english = DAY_OF_EN.exec(body);
  if (english?.groups) {
    const { count, countSide, word, side, quoted } = english.groups;
    const anchor = (quoted ?? english.groups.anchor ?? "").trim();
    if (anchor === "" || NOT_AN_ANCHOR.test(anchor)) return undefined;
    const after = body
      .slice(english.index + english[0].length)
      .replace(/^\s*,\s*/, " ")
      .trim();
    // ("the day before the midterm and the vocabulary list on Friday": two places, not one anchor.)
    if (/^and\b/.test(after)) return undefined;
    const days = count === undefined ? 1 : (DAY_COUNT[count] ?? Number(count));
    const way = countSide ?? side;
    const offset = way === "before" ? -days : way === "after" ? days : 0;
    // "the evening before the midterm": that part of the day before it.
    const part = word !== undefined && word !== "day" ? `the ${word}` : "";
    const where = [part, after].filter(Boolean).join(" ");
    const before = body.slice(0, english.index);
    if (NOT_THERE.test(before)) return "ruled out";
    return { dayOf: { anchor, offset }, rest: where === "" ? before : `${before} to ${where}` };
  }
  const chinese = DAY_OF_ZH.exec(body);
  const anchor = (chinese?.[2] ?? chinese?.[3])?.trim() ?? "";
  if (!chinese || anchor === "" || NOT_AN_ANCHOR.test(anchor)) return undefined;
  const said = chinese[4]!;
  const days = /[2-6两三四五六]/.test(said) ? (DAY_COUNT[said[1]!] ?? Number(said[1])) : 1;
  const offset = /^前/.test(said) ? -days : /^后|第二/.test(said) ? days : 0;
  const tail = (chinese[5] ?? "").trim();
  const placing = /^(?:放|安排|排)$/.test(chinese[1] ?? "");
  const verb = tail !== "" ? `${chinese[1]}${placing ? "在" : "到"}${tail}` : placing ? "安排一下" : "挪一下";
  return { dayOf: { anchor, offset }, rest: `${body.slice(0, chinese.index)}${verb}` };
}

/**
 * A day's first or last class as where a task goes next to: "after class", "after my last class", "after school",
 * "before my first lecture", "下课后", "最后一节课之后", "第一节课之前". The anchor is "last class" or "first class"
 * (`classAnchorOf`); the plan step says "right after your last class" (`最后一节课之后`), which reads back the same.
 */
const NEXT_TO_CLASS_EN =
  /(?:\s+to)?\s+(?:(?:right|just|straight|immediately|directly)\s+)?(after|before)\s+(?:(?:my|the|your)\s+)?(?:(?:(last|first|final)\s+)(?:class|lecture|lesson)|class(?:es)?|school)(?=\s+(?:on|this|next|tomorrow|today|tonight|please)\b|\s*[,.;!?]|\s*$)/;
/**
 * Words before a place next to something, or the day of something, that say it is not where to go: "but not right
 * after the lecture", "but not on the same day as the essay", "never the day before the exam".
 */
const NOT_THERE = /\b(?:not|never|except|avoid)(?:\s+(?:on|to|for))?\s*$/;
const CLASS_WORDS_ZH: ReadonlyArray<[RegExp, string]> = [
  [/(?:我的)?(?:最后一节课|最后一节|下课|放学)(?:之后|以后|后)/, "最后一节课之后"],
  [/(?:我的)?(?:第一节课|上课)(?:之前|以前|前)/, "第一节课之前"],
];

/** The class a next-to anchor names ("last class", "最后一节课"): the day's last or first, or undefined for any other. */
export function classAnchorOf(anchor: string): "last" | "first" | undefined {
  if (/^(?:last class|最后一节课)$/.test(anchor)) return "last";
  return /^(?:first class|第一节课)$/.test(anchor) ? "first" : undefined;
}

/**
 * A next-to anchor as a step or an answer says it, read back the same: a task's or event's name quoted, a day's class
 * in words ("your last class", "最后一节课").
 */
export function anchorWords(anchor: string, language: "en" | "zh"): string {
  const which = classAnchorOf(anchor);
  if (!which) return JSON.stringify(anchor);
  if (language === "en") return `your ${which} class`;
  return which === "last" ? "最后一节课" : "第一节课";
}

/** "Once the robotics club is over", "when my lab ends", "机器人社团活动结束后": right after it. */
const ONCE_OVER: ReadonlyArray<[RegExp, string]> = [
  [
    /\b(?:once|when|after)\s+((?:the|my)\s+[a-z][a-z0-9' -]*?)\s+(?:(?:is|gets)\s+(?:over|done|finished)|ends|finishes)\b/,
    "right after $1",
  ],
  [/([^，,。\s]+?)结束(?:之后|以后|后)/, "$1之后"],
];

/**
 * A request's place next to another task or event, and the request without it; undefined when none is said;
 * "ruled out" when the words say it is not where to go ("but not right after the lecture").
 */
function readNextTo(words: string): { next: NonNullable<Where["next"]>; rest: string } | "ruled out" | undefined {
  const said = ONCE_OVER.reduce((text, [over, next]) => text.replace(over, next), words);
  const byClass = NEXT_TO_CLASS_EN.exec(said);
  const negated = (match: RegExpExecArray) => NOT_THERE.test(said.slice(0, match.index));
  if (byClass && negated(byClass)) return "ruled out";
  if (byClass) {
    const side = byClass[1] as "after" | "before";
    const which =
      byClass[2] === undefined ? (side === "after" ? "last" : "first") : byClass[2] === "first" ? "first" : "last";
    const rest = `${said.slice(0, byClass.index)} ${said.slice(byClass.index + byClass[0].length)}`;
    return { next: { side, anchor: `${which} class` }, rest: rest.replace(/\s+/g, " ").trim() };
  }
  const body = CLASS_WORDS_ZH.reduce((text, [words, canonical]) => text.replace(words, canonical), said);
  const english = NEXT_TO_EN.exec(body);
  if (english) {
    const anchor = (english[3] ?? english[4] ?? "").trim();
    const adjacent = english[1] !== undefined || english[3] !== undefined;
    if (anchor === "" || NOT_AN_ANCHOR.test(anchor)) return undefined;
    // ("not before noon" is a limit of the clock, read by `readWhere`; "not before the exam" is ruled out.)
    if (negated(english)) return "ruled out";
    if (english[2] === "before" && !adjacent) return undefined;
    const rest = `${body.slice(0, english.index)} ${body.slice(english.index + english[0].length)}`;
    return { next: { side: english[2] as "after" | "before", anchor }, rest: rest.replace(/\s+/g, " ").trim() };
  }
  const chinese = NEXT_TO_ZH.exec(body);
  // (Groups: the verb, the day, the anchor, the side.)
  const named = chinese?.[3]?.trim() ?? "";
  const which = classAnchorOf(named);
  const anchor = which ? `${which} class` : named;
  if (!chinese || anchor === "" || (!which && NOT_AN_ANCHOR.test(anchor))) return undefined;
  const side = /之前|前面/.test(chinese[4] ?? "") ? "before" : "after";
  const placing = /^(?:放|安排|排)$/.test(chinese[1] ?? "");
  // "挪到周四机器人社团活动之后", `移到 3月14日周四，"机器人社团活动"之后` (a plan step): the day said before the anchor
  // is where it goes.
  const day = chinese.groups?.day;
  const verb = day ? `${placing ? "安排在" : "挪到"}${day}` : placing ? "安排一下" : "挪一下";
  return { next: { side, anchor }, rest: `${body.slice(0, chinese.index)}${verb}` };
}

/**
 * A sentence as corrected: the last day said before the last correction, and what follows it, gives way to the day
 * said after it ("move the essay to monday, no wait, tuesday" is "move the essay to tuesday"). Before, both days were
 * read: "monday, no wait, tuesday" moved the essay to Monday and ruled out Tuesday, "monday, I mean tuesday" allowed
 * either. Only a correction between two days is one: "monday, no evenings" still rules out evenings. The last
 * correction is read (`parseSentence` reads each in turn).
 */
function corrected(said: string): string {
  const marks = [...said.matchAll(CORRECTION)];
  for (let index = marks.length - 1; index >= 0; index -= 1) {
    const mark = marks[index]!;
    const firstClause = said.slice(mark.index + mark[0].length).split(/[,;，；]/, 1)[0] ?? "";
    if (isEmptySelection(readDays(firstClause))) continue;
    const day = lastDayAt(said.slice(0, mark.index));
    if (day === undefined) continue;
    return `${said.slice(0, day)} ${said.slice(mark.index + mark[0].length)}`.replace(/\s+/g, " ").trim();
  }
  return said;
}

/**
 * A move or an arrangement to no place, whose words hold a number that is no part of a task's name: "move the essay to
 * 3/4" (either the 3rd of April or the 4th of March), "schedule the essay at 25:00". Read as anywhere, such a request
 * proposed a place the student never named; it is not understood instead, and the reply asks to say the day.
 */
function unreadDigits(read: ScheduleRequest, body: string): boolean {
  if (read.kind !== "move" && read.kind !== "arrange") return false;
  if (read.kind === "move" && (read.shift || read.otherDay || read.also)) return false;
  if (!isAnywhere(read.where) || (read.kind === "arrange" && read.putBack)) return false;
  const names = read.kind === "move" ? [read.task] : [...read.tasks, ...(read.except ?? [])];
  const rest = names.reduce((text, name) => text.split(name).join(" "), body);
  return /\d/.test(rest);
}

/**
 * Days said to be kept free, and nothing else: "keep Thursday morning free", "I need Friday clear", "leave the weekend
 * open", "周四上午我要空着", "我需要周五空着" (group `days` or `zh`: the days and the part of the day).
 */
const DAYS_KEPT_FREE =
  /^(?:i\s+)?(?:need|want|would like|'d like|have to keep|must keep|gotta keep|keep|leave)\s+(?<days>.+?)\s+(?:free|clear|open|empty)(?:\s+for me)?$|^(?:我)?(?:需要|想要|想|要|得)?(?<zh>.+?)(?:我)?(?:需要|想要|想|要|得)?(?:空着|留空|空下来)$/;

/**
 * Days to keep free, said alone ("keep Thursday morning free", "周四上午我要空着"): every review there moved off them,
 * as "I need Thursday morning free, move my reviews" is (`awayFrom`). Before, it read as a question of when Thursday
 * morning is free, and "keep Thursday free" as one of when anything but Thursday is. Undefined when the words name
 * anything but days and parts of the day ("I need 2 hours free on Thursday" asks for free time).
 */
function readKeepFree(body: string): ScheduleRequest | undefined {
  const match = DAYS_KEPT_FREE.exec(trimEdges(body, /[.!。！]/, "end").trim());
  const said = match?.groups?.days ?? match?.groups?.zh;
  if (said === undefined) return undefined;
  const days = readDays(said);
  if (isEmptySelection(days)) return undefined;
  const rest = withoutDayWords(said)
    .replace(/\b(?:my|the|on|all|of|and|or|whole|entire)\b|[,，、和的整个]|一?整天|全天/g, " ")
    .trim();
  if (rest !== "") return undefined;
  const part = readPartOfDay(said);
  const where: Where = { only: { weekdays: [], days: [] }, not: days, slots: part ? { part } : {} };
  return awayFrom({ kind: "move", task: "reviews", where });
}

/** Words in a task's name that leave tasks out ("except the essay", "but keep the essay", "除了作文"). */
const LEAVES_OUT =
  /\b(?:except|excluding|other than|apart from|besides|(?:but|and) keep)\b|[,;]\s*keep\b|除了|以外|之外|保留/;
/** A remark after the task, no part of its name: "unplace the essay, I'll do it later", "I did the essay, it was hard". */
const TRAILING_REMARK =
  /,\s*(?:i|i'll|i'm|i've|i'd|i will|i am|it|it's|it was|that|that's|this|because|since|as|so|thanks?|thank you)\b.*$|[，,]\s*(?:我|它|因为|所以|谢谢).*$/;

/** A task named as not meant, after the one that is: "the essay, not the matrix review", "… but not the matrix review". */
const NOT_THIS_ONE = /,\s*(?:but\s+)?not\s+\S.*$|\s+but not\s+\S.*$/;

/**
 * A write on named tasks never takes its tasks from words that leave tasks out: "unplace everything except the essay",
 * "clear Friday except the essay" and "skip Friday but keep the essay" read as a write on the essay alone — the
 * opposite of what was said — and are not understood now; "I did the essay, not the matrix review" names the essay.
 */
function withoutExclusions(request: ScheduleRequest): ScheduleRequest {
  const named =
    request.kind === "unplace" || request.kind === "mark" || request.kind === "remove_event"
      ? [request.kind === "remove_event" ? request.event : request.task]
      : request.kind === "swap"
        ? [request.first, request.second]
        : [];
  if (named.some((phrase) => LEAVES_OUT.test(phrase))) return { kind: "unknown" };
  if (request.kind === "mark" || request.kind === "unplace")
    return {
      ...request,
      task: request.task.replace(NOT_THIS_ONE, "").replace(TRAILING_REMARK, "").trim() || request.task,
    };
  if (request.kind === "swap")
    return { ...request, second: request.second.replace(NOT_THIS_ONE, "").trim() || request.second };
  return request;
}

/** Words that name every review: "all my reviews", "my reviews", "everything", "所有复习", "全部复习". */
/** A day said in English as a task's day: "thursday", "this monday", "today", "tonight", "tomorrow", a part after it. */
const DAY_SAID_EN = String.raw`(?:(?:this\s+)?[a-z]+day|today|tonight|tomorrow)(?:\s+(?:morning|afternoon|evening|night))?`;

/** A day in a list of days: "friday", "fri", "next thu", "tmrw", "the weekend", a part after it. */
const LISTED_DAY_EN = String.raw`(?:(?:this|next)\s+)?(?:[a-z]+day|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun|today|tonight|tomorrow|tmrw?|(?:the\s+)?weekend)(?:\s+(?:morning|afternoon|evening|night))?`;

/** A clause that only lists days ("friday", "and saturday", "thu or fri"), going on from the one before. */
const DAYS_LISTED_ON = new RegExp(
  String.raw`^\s*(?:(?:and|or|&)\s+)?${LISTED_DAY_EN}(?:\s*(?:,|\band\b|\bor\b|&)\s*${LISTED_DAY_EN})*\s*$`,
);

/** Days that name a task by its day, listed: "tomorrow's", "monday evening's", "thursday and friday's". */
const DAYS_NAMING = new RegExp(
  String.raw`\b(?:${DAY_SAID_EN}(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*))*(?:this\s+)?[a-z]+(?:\s+(?:morning|afternoon|evening|night))?'s\b`,
  "g",
);

/** The English verbs that move a task; "shift" after "my" / "a" / "work" … is a work shift, no verb. */
const MOVE_VERB = String.raw`(?:move|reschedule|(?<!\b(?:my|a|the|your|his|her|our|their|work|night|day|morning|evening|late|early)\s)shift|push|bring|postpone|delay|put off)`;

const EVERY_REVIEW =
  /^(?:(?:all|every one|each)\s+)?(?:of\s+)?(?:(?:my|the)\s+)?(?:reviews|review sessions|study sessions|sessions|things|stuff)$|^(?:everything|all of them|every review|each review)$|^(?:我的?)?(?:所有|全部|所有的|全部的)(?:复习|任务)(?:都)?$|^(?:我的)?(?:复习|任务)(?:都|全部)$/;

/**
 * Every review said with the day it is on after it ("my reviews from Thursday afternoon", "my reviews from Thursday
 * and Friday"): group 1 the day, or the days.
 */
const REVIEWS_OF_DAY = new RegExp(
  String.raw`^(?:(?:all|every one|each)\s+)?(?:of\s+)?(?:(?:my|the)\s+)?(?:reviews|review sessions|study sessions|sessions|things|stuff|everything)\s+(?:from|off|on|of)\s+(${DAY_SAID_EN}(?:(?:\s*,\s*|\s+and\s+|\s*&\s*)${DAY_SAID_EN})*)$`,
);

/** "Friday reviews", "tomorrow reviews" (of "all my Friday reviews"): a day's reviews, said with no "'s" (group 1). */
const DAY_NAMED_REVIEWS =
  /^((?:this\s+|next\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow)\s+reviews$/;
/**
 * A day's reviews, all of them: "today's reviews", "all of friday's reviews", "今天的复习都", "周五的所有复习" ("周四的复习"
 * alone may be one review: it stays a move, which asks which when the day holds several).
 */
const DAY_REVIEWS =
  /^(?:(?:all|each|every one)\s+)?(?:of\s+)?(.+?'s)\s+reviews$|^(.+?的)(?:(?:所有|全部)(?:的)?复习(?:都|全部)?|复习(?:都|全部))$/;

/**
 * A move that names every review, or every review of a day, by whole days or by time the same day (a shift, or a
 * day's reviews to another day) as `shift_all`; any other request as it is. Every review to one day, later or earlier
 * without an amount, or a move said with others stays a move.
 */
function asShiftAll(request: ScheduleRequest): ScheduleRequest {
  if (request.kind !== "move" || request.also) return request;
  const shift = request.shift;
  if (shift && "sameDay" in shift) return request;
  const by = shift ? ("days" in shift ? { days: shift.days } : { minutes: shift.minutes }) : undefined;
  const task = request.task.trim();
  if (EVERY_REVIEW.test(task)) return by === undefined ? (awayFrom(request) ?? request) : { kind: "shift_all", ...by };
  // "my reviews from Thursday", "everything on Thursday afternoon", "all my reviews off Thursday": Thursday's reviews.
  const from = REVIEWS_OF_DAY.exec(task) ?? DAY_NAMED_REVIEWS.exec(task);
  const dayReviews = DAY_REVIEWS.exec(from ? `${from[1]}'s reviews` : task);
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
  return { kind: "shift_all", ...of, to: request.where };
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

function awayFrom(move: MoveRequest): Extract<ScheduleRequest, { kind: "shift_all" }> | undefined {
  const { only, not, slots } = move.where;
  if (!isEmptySelection(only) || Object.keys(slots).some((key) => key !== "part") || not.days.length > 0)
    return undefined;
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
  const part = slots.part ?? move.where.notDaysPart;
  return {
    kind: "shift_all",
    ...first,
    ...(part ? { part } : {}),
    ...(more.length > 0 ? { more } : {}),
    away: part && !move.otherDay ? "part" : "day",
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
  const only = request.where.only;
  const targets = only.weekdays.length + only.days.length + (only.dates?.length ?? 0);
  if (targets !== 1 || !isEmptySelection(request.where.not)) return request;
  return { kind: "shift_all", ...of, to: request.where };
}

/** Reads one sentence of a request. */
function readSentence(body: string): ScheduleRequest {
  if (body === "" || body.length > MAX_READ_LENGTH) return { kind: "unknown" };
  const dayOf = readDayOf(body);
  // ("Move the matrix review, but not on the same day as the essay": the day of something ruled out is none the reader
  // holds — before, the review went to the essay's day. Not understood, said so.)
  if (dayOf === "ruled out") return { kind: "unknown" };
  if (dayOf) {
    // ("I'd like to do the essay the day before the exam": "do" names where with the day, which is read apart.)
    const said = readSentence(dayOf.rest);
    const read =
      said.kind === "unknown" && /\bdo\b/.test(dayOf.rest)
        ? readSentence(dayOf.rest.replace(/\bdo\b/, "schedule"))
        : said;
    if (read.kind === "move" && !read.shift && !read.also)
      return { ...read, where: { ...read.where, dayOf: dayOf.dayOf } };
    // "Schedule the vocabulary list the day before the midterm": one task put on that day, as a move puts it.
    if (read.kind === "arrange" && read.tasks.length === 1 && !read.except && !read.makeUp && !read.putBack)
      return { kind: "move", task: read.tasks[0]!, where: { ...read.where, dayOf: dayOf.dayOf } };
  }
  // "Thursday afternoon but not right after the lecture": a place next to something ruled out is none the reader can
  // hold (before, it was dropped, and the review went right after the lecture): not understood, said so.
  const nextTo = readNextTo(body);
  if (nextTo === "ruled out") return { kind: "unknown" };
  if (nextTo) {
    const read = readSentence(nextTo.rest);
    if (read.kind === "move" || (read.kind === "arrange" && read.tasks.length > 0))
      return { ...read, where: { ...read.where, next: nextTo.next } };
  }
  if (UNDO_REQUEST.test(body)) return { kind: "undo" };
  if (RECOVER_REQUEST.test(body)) return { kind: "recover" };
  if (HABIT_REQUEST.test(body)) return readHabit(body) ?? { kind: "habit" };
  const longTask = readLongTask(body);
  if (longTask) return longTask;
  const before = readLeftBefore(body);
  if (before) return before;
  if (HEALTH_REQUEST.test(body)) return { kind: "health" };
  if (NEXT_QUESTION.test(body)) return { kind: "next" };
  // A question is answered, never turned into a change ("what do I still need to schedule?").
  if (QUESTION_START.test(body)) {
    const read = readFree(body) ?? readDayContents(body) ?? readList(body) ?? readExplain(body);
    if (read) return read;
    if (HELP.test(body)) return { kind: "help" };
    // Nor is one no reader above reads: "where did you put the matrix review" raised a plan card placing it, "where
    // can I fit 2 hours on Wednesday" one placing a task named "2 hours". Not understood is said; a card is never raised.
    if (!SUGGESTION.test(body)) return { kind: "unknown" };
  }
  // A look at named days is a look before any verb reads it: "schedule for friday?", "tomorrows schedule".
  const look = readLook(body);
  if (look) return look;
  // An imperative's verb decides ("Place the linked list exercises…" is not a question about lists).
  const verb =
    /^(?:(?:please|can you|could you|would you|will you|can i|could i|may i|can we|could we|shall we|maybe we could|we could|let me|help me|i want to|i'd like to|i would like to|i want you to|i'd like you to|let's|now|hey|hi|ok|okay|so|i'll|i will|i'd rather|i would rather|i wanna|i'm going to|i'm gonna|i need to|i'd prefer to|i prefer to)\s*,?\s+)*([a-z]+)/.exec(
      body,
    )?.[1] ?? "";
  // A question is never a mark ("did I do the matrix review?"), and a request not to do something never does it.
  const question = QUESTION_START.test(body);
  if (NEGATED_REQUEST.test(body)) return { kind: "unknown" };
  const doneBy = question ? undefined : readDoneBy(body);
  if (doneBy) return doneBy;
  const removal = question ? undefined : (readClearDay(body) ?? readRemoveEvent(body));
  if (removal) return removal;
  const cannot = question ? undefined : readCannotDo(body);
  if (cannot) return cannot;
  const mark = question ? undefined : readMark(body);
  const byVerb = mark ?? LEADING_VERBS[verb]?.(body);
  if (byVerb) return byVerb;
  return (
    mark ??
    readAddTask(body) ??
    readClassRules(body) ??
    readSwap(body) ??
    readMoves(body) ??
    readFindTimeFor(body) ??
    readFree(body) ??
    readDayContents(body) ??
    readList(body) ??
    readUnplace(body) ??
    readExplain(body) ??
    readArrange(body) ??
    readDoOnZh(body) ??
    (HELP.test(body) ? { kind: "help" } : { kind: "unknown" })
  );
}

/**
 * Getting a task done by a day or before an event: "finish the essay by Friday", "get the vocab list done before
 * Friday", "I need the essay done by Thursday", "the essay has to be finished before the midterm" — an arrangement of
 * it before then. Before, the first marked a task "essay by" done, the second listed the done tasks and the others
 * were not understood. Having done it ("I finished the essay", "finish the essay") is still a mark.
 */
const DONE_WORD = String.raw`(?:done|finished|completed|written|ready)`;
const DONE_BY = new RegExp(
  String.raw`^(?:(?:i|we)\s+(?:need|have|want|must|should|gotta|got|'ll|will|plan|'d like|would like|'m going|am going)(?:\s+to)?\s+)?(?:(?:finish|complete|wrap up)\s+(.+?)|(?:get|have)\s+(.+?)\s+${DONE_WORD}|(.+?)\s+(?:needs?|has|have|must|should)\s+(?:to\s+)?be\s+${DONE_WORD}|(?:i|we)\s+(?:need|want)\s+(.+?)\s+${DONE_WORD})\s+((?:by|before|until|till|no later than)\s+.+)$`,
);

function readDoneBy(body: string): ScheduleRequest | undefined {
  const said = DONE_BY.exec(body);
  const zh = said ? undefined : readDoneByZh(body);
  if (!said && !zh) return undefined;
  const read = readSentence(
    said ? `schedule ${said[1] ?? said[2] ?? said[3] ?? said[4]} ${said[5]}` : `在${zh![1]}之前安排${zh![0]}`,
  );
  return read.kind === "arrange" && read.tasks.length > 0 ? read : undefined;
}

/** Having it done, in Chinese: 写完, 做完, 完成, 搞定, 弄完, 交. */
const DONE_ZH = String.raw`(?:写完|做完|完成|搞定|弄完|交上|交掉|交)`;
/** "…前" and what asks for it before the task: "周五之前把作文写完", "我要在周五前完成作文" (group 1 when, group 2 task). */
const DONE_BY_ZH_FIRST = new RegExp(
  String.raw`^(?:我们?|咱们)?(?:要|得|必须|需要|想|会)?在?(.{1,12}?)(?:之前|以前|(?<!提)前)(?:我们?)?(?:要|得|必须|需要|会)?(?:(?:把|将)(.+?)${DONE_ZH}|${DONE_ZH}(?!了)(.+?))吧?$`,
);
/** The task first: "作文要在期中考试前完成", "作文周五前要交" (group 1 the task and when, to be cut). */
const DONE_BY_ZH_TASK = new RegExp(String.raw`^(.+?)(?:之前|以前|(?<!提)前)(?:要|得|必须|需要|会)?${DONE_ZH}吧?$`);

/**
 * "周五之前把作文写完", "我要在周五前完成作文", "作文要在期中考试前完成", "作文周五前要交": [task, when] — the task to have
 * done before a day or an event. Before, none was understood.
 */
function readDoneByZh(body: string): [string, string] | undefined {
  const text = body.replace(/[。！!]+$/, "");
  const first = DONE_BY_ZH_FIRST.exec(text);
  // (What it is to be done before is a day or an event, never a word of the sentence: "我提前完成了单词表" is a mark.)
  if (first && (onlyWhen(first[1]!) || readBefore(`在${first[1]}之前`) !== undefined))
    return [first[2] ?? first[3] ?? "", first[1]!];
  const task = DONE_BY_ZH_TASK.exec(text)?.[1];
  if (task === undefined) return undefined;
  // "作文要在期中考试前": the task before 在; "作文周五前": before the words of when that end it.
  const at = /^(.+?)(?:要|得|必须|需要|会)?在(.+)$/.exec(task);
  if (at) return [at[1]!, at[2]!];
  return splitAtWhen(
    task,
    Array.from(task, (_, index) => index).filter((index) => index > 0),
  );
}

/**
 * "I can't do the essay today", "I won't get to the matrix review on Thursday", "no time for the essay tonight",
 * "我今天做不了作文": the task moved off that day (a move that leaves it, `leaves`). Before, none was understood.
 */
const CANNOT_DO = new RegExp(
  String.raw`^(?:(?:sorry|ugh|hmm|oh)[\s,]+)?(?:i\s+)?(?:can'?t|cannot|can not|won'?t|will not|(?:am|'m)\s+not\s+(?:going\s+to|gonna|able\s+to)|(?:don'?t|do not)\s+have\s+(?:the\s+)?time\s+(?:to\s+do|for)|have\s+no\s+time\s+for|no\s+time\s+for)\s+(?:do\s+|make\s+|get\s+to\s+|manage\s+|fit\s+in\s+)?(.+?)\s+(?:on\s+)?(${DAY_SAID_EN})[\s.!]*$`,
);
const CANNOT_DO_ZH =
  /^(?:我)?(今天|今晚|明天|明晚|后天|(?:这个?)?(?:周|星期|礼拜)[一二三四五六日天])(?:我)?(?:做不了|做不完|没空做|没时间做|来不及做|不能做)(.+?)(?:了|啦)?[。.!！]*$/;

function readCannotDo(body: string): ScheduleRequest | undefined {
  const english = CANNOT_DO.exec(body);
  const chinese = english ? null : CANNOT_DO_ZH.exec(body);
  const move = english
    ? readMove(`move ${english[1]} off ${english[2]}`)
    : chinese
      ? readMove(`把${chinese[2]}挪出${chinese[1]}`)
      : undefined;
  // ("I can't make it today", "I can't do today": no task named.)
  const named =
    move?.kind === "move" &&
    !PRONOUN.test(move.task) &&
    !/^(?:do|make|it|that|this|them|anything|everything)$/.test(move.task);
  return named && move.leaves && readTaskWords(move.task).trim() !== "" ? move : undefined;
}

/**
 * "add a task "integrals review" to calculus (2 slots)", "add a 2-slot integrals review to the calculus class",
 * "add task integrals review for calculus, 2 slots", "给微积分添加任务“积分复习”，2节", "在微积分里加一个任务：积分复习，两节".
 */
function readAddTask(body: string): ScheduleRequest | undefined {
  // "… before the midterm": the event it is due before, said anywhere after the verb; the rest is read without it.
  const dueEvent = readBefore(body);
  const request = readAddTaskBody(dueEvent === undefined ? body : body.replace(BEFORE_EVENT_CLAUSE, " ").trim());
  return request && dueEvent !== undefined ? { ...request, dueEvent } : request;
}

/** A "[due] before <event>" clause as `readBefore` reads it, with the comma that may lead it: cut from an add request. */
const BEFORE_EVENT_CLAUSE = new RegExp(`\\s*[,，]?\\s*(?:due\\s+)?(?:${BEFORE_EVENT.source})(?:完成|做完)?[,，]?`, "i");

/** readAddTask's request without its "before <event>" clause. */
function readAddTaskBody(body: string): Extract<ScheduleRequest, { kind: "add_task" }> | undefined {
  const english =
    /^(?:(?:can you|could you|would you|help me|i want to|i'd like to|let's|now)\s+)*(?:add|create|new)\s+(?:a\s+|an\s+|one\s+)?(?:new\s+)?(?:(\d+|one|two|three|four)[- ]slots?\s+)?(?:task|review|session|item)?\s*(?:called|named|:)?\s*(.+?)\s+(?:to|for|in|into|under)\s+(?:the\s+|my\s+)?(.+?)(?:\s+class|\s+course)?(?:\s*[,(]\s*(\d+|one|two|three|four)\s+slots?\)?)?$/.exec(
      body,
    );
  const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4 };
  if (english) {
    const [, before, rawName = "", rawClass = "", after] = english;
    const duration = Number(words[before ?? ""] ?? before ?? words[after ?? ""] ?? after ?? 1);
    const name = taskPhrase(rawName.replace(/^(?:task|review task)\s+/, ""));
    const classPhrase = taskPhrase(rawClass.replace(/\s+(?:class|course)$/, ""));
    return name && classPhrase && Number.isInteger(duration) && duration >= 1
      ? { kind: "add_task", name, classPhrase, duration }
      : undefined;
  }
  const chinese =
    /(?:给|在|往|为)(.+?)(?:里|中|下)?(?:添加|增加|加|新建|新增)(?:一个|个)?(?:新)?任务[:：]?\s*(.+?)(?:[,，]\s*(\d+|[一二两三四])\s*节)?$/.exec(
      body,
    );
  if (!chinese) return undefined;
  const duration = chinese[3] ? readNumber(chinese[3]) : 1;
  const name = taskPhrase(chinese[2] ?? "");
  const classPhrase = taskPhrase(chinese[1] ?? "");
  return name && classPhrase && Number.isInteger(duration)
    ? { kind: "add_task", name, classPhrase, duration }
    : undefined;
}

/** True for words that name everything rather than one class or task ("anything", "my reviews", "stuff", "所有"). */
export function namesEverything(phrase: string): boolean {
  return /^(?:anything|everything|something|nothing|stuff|things?|it|them|all|reviews?|review sessions?|tasks?|sessions?|studying|study|work|复习|任务|学习|东西|任何|所有|全部|都)$/.test(
    phrase.trim(),
  );
}

/**
 * A class's standing rules: "make calculus mornings only", "calculus only in the mornings", "keep calculus off
 * Mondays", "never schedule calculus on Monday", `Set the class "calculus" to the morning, not on Monday` (a step),
 * "微积分只在上午", "微积分不要排在周一". Only when the sentence names no arranging of it ("arrange calculus in the
 * morning" is an arrangement).
 */
function readClassRules(body: string): ScheduleRequest | undefined {
  const step = /^set the class "([^"]+)" to (.+)$/.exec(body) ?? /^设置课程 "([^"]+)"[:：](.+)$/.exec(body);
  const english =
    step ??
    /^(?:make|keep|set|put)\s+(?:the\s+|my\s+)?(.+?)\s+(?:(?:sessions|reviews|class|course)\s+)?(?:to\s+)?(?:(?:only\s+(?:in\s+)?(?:the\s+)?)(?:mornings?|afternoons?|evenings?)|(?:mornings?|afternoons?|evenings?)\s+only|off\s+.+|away from\s+.+)$/.exec(
      body,
    ) ??
    /^(?:(?:never|don't ever|do not ever|don't|do not)\s+(?:schedule|put|place|arrange)\s+(?:the\s+|my\s+)?(.+?)\s+(?:on|in)\s+.+)$/.exec(
      body,
    ) ??
    /^(?:the\s+|my\s+)?([a-z][a-z -]*?)\s+(?:(?:sessions|reviews|class)\s+)?(?:only\s+(?:in\s+)?(?:the\s+)?(?:mornings?|afternoons?|evenings?)|(?:should|must)\s+(?:never|not)\s+be\s+on\s+.+)$/.exec(
      body,
    );
  const chinese =
    /^(.+?)(?:的复习|复习)?(?:只|只能|只在|只排在|只安排在)(?:在)?(上午|下午|晚上)/.exec(body) ??
    /^(.+?)(?:的复习|复习)?(?:不要|别|不能)(?:排在|安排在|放在|在)(?:周|星期)/.exec(body);
  const match = english ?? chinese;
  if (!match) return undefined;
  const classPhrase = taskPhrase((match[1] ?? "").replace(/\s+(?:class|course|sessions|reviews)$/, ""));
  // "never put anything on Sunday", "keep my reviews off Monday": about everything, not one class.
  if (!classPhrase || namesEverything(classPhrase)) return undefined;
  const where = readWhere(step ? (step[2] ?? "") : body);
  const part = readPartOfDay(step ? (step[2] ?? "") : body);
  const excludedWeekdays = [
    ...new Set([
      ...where.not.weekdays,
      ...(/\b(?:never|don't|do not|off|away from)\b|不要|别|不能/.test(body) && !step ? where.only.weekdays : []),
    ]),
  ];
  const parts = part ? [part] : [];
  return parts.length > 0 || excludedWeekdays.length > 0
    ? { kind: "class_rules", classPhrase, parts, excludedWeekdays }
    : undefined;
}

/** "find time for X", "make time for X", "fill my free time with X", "get X into my calendar": arranging X. */
const FIND_TIME_FOR =
  /\b(?:find|make|set aside|block(?: out)?|carve out)\s+(?:some\s+|a\s+|the\s+)?(?:time|room|space|slots?|a place|places|free time)\s+(?:for|to do)\s+(.+)$|\bfill\b.*?\bwith\s+(.+)$|\b(?:get|fit|squeeze|work)\s+(.+?)\s+(?:into|onto|in|on)\s+(?:the\s+|my\s+)?(?:calendar|schedule|week|timetable|diary|planner)\b(.*)$/;

function readFindTimeFor(body: string): ScheduleRequest | undefined {
  const match = FIND_TIME_FOR.exec(body);
  if (!match) return undefined;
  const object = match[1] ?? match[2] ?? `${match[3] ?? ""} ${match[4] ?? ""}`;
  return arrangeOf(body, object);
}

/** Readers chosen by a request's first verb. */
const LEADING_VERBS: Record<string, (body: string) => ScheduleRequest | undefined> = {
  arrange: (body) => readArrange(body),
  do: (body) => readDoOn(body),
  place: (body) => readArrange(body),
  schedule: (body) => readArrange(body),
  plan: (body) => readArrange(body),
  // "put off X", "put X off till Friday": a postponement, not a placing (it was read as a task named "off X").
  put: (body) => (PUT_OFF.test(body) ? readMoves(body) : readArrange(body)),
  organize: (body) => readArrange(body),
  organise: (body) => readArrange(body),
  move: (body) => readMoves(body),
  push: (body) => readMoves(body),
  bring: (body) => readMoves(body),
  delay: (body) => readMoves(body),
  postpone: (body) => readMoves(body),
  reschedule: (body) => readMoves(body),
  shift: (body) => readMoves(body),
  swap: (body) => readSwap(body),
  switch: (body) => readSwap(body),
  exchange: (body) => readSwap(body),
  unplace: (body) => readUnplace(body),
  unschedule: (body) => readUnplace(body),
  remove: (body) => readUnplace(body),
  find: (body) => readFindTimeFor(body) ?? readFree(body),
  fill: (body) => readFindTimeFor(body),
  get: (body) => readFindTimeFor(body),
  fit: (body) => readFindTimeFor(body) ?? readArrange(body),
  make: (body) => readFindTimeFor(body),
  list: (body) => readList(body),
  // A look is answered or not understood, never a change: "show the plan", "pls show tomorrows schedule" were plans
  // arranging the week (their "plan" and "schedule" read as verbs).
  show: readLookingAt,
  see: readLookingAt,
  view: readLookingAt,
  display: readLookingAt,
  check: readLookingAt,
  look: readLookingAt,
  explain: (body) => readExplain(body),
  describe: (body) => readExplain(body),
};

/** What a look asks to see ("show …", "see …", "check …"): the days, the tasks, the free time or a task; else not understood. */
function readLookingAt(body: string): ScheduleRequest {
  return readDayContents(body) ?? readList(body) ?? readFree(body) ?? readExplain(body) ?? { kind: "unknown" };
}

function readSwap(body: string): ScheduleRequest | undefined {
  const english =
    /\b(?:swap|switch|exchange|trade)\s+(?:the\s+)?(?:places?\s+of\s+)?(.+?)\s+(?:and|with|&)\s+(.+)$/.exec(body);
  const chinese =
    /(?:交换|对调|互换|调换)(?:一下)?(.+?)(?:和|与|跟)(.+?)(?:的(?:位置|时间))?$/.exec(body) ??
    (swapVerbAfterPair(body) ? /(?:把|将)?(.+?)(?:和|与|跟)(.+?)(?:交换|对调|互换|调换)/.exec(body) : null);
  const match = english ?? chinese;
  if (!match) return undefined;
  const [first, second] = withDayAloneFilled(taskPhrase(match[1] ?? ""), taskPhrase(match[2] ?? ""));
  return first && second ? { kind: "swap", first, second } : undefined;
}

/** A day said alone as a task ("thursday's", "周四", "周四的"): the day's words, with no task's words after them. */
const DAY_ALONE = new RegExp(String.raw`^(?:${DAY_SAID_EN}'s|(?:${DAY_WORD_ZH}|今天|明天|后天)的?)$`);

/**
 * A pair of tasks where one is a day said alone, the task's words after the other ("swap Thursday's and Saturday's
 * reviews", "swap Thursday's review with Saturday's", "把周四和周六的复习交换"): the day alone takes them too
 * ("thursday's review", "周四的复习"), as it was meant.
 */
function withDayAloneFilled(first: string, second: string): [string, string] {
  const tail = (phrase: string) => splitNamingDay(phrase)?.rest.replace(/^reviews$/, "review") ?? "";
  const fill = (alone: string, other: string) => {
    const rest = tail(other);
    if (!DAY_ALONE.test(alone) || rest === "") return alone;
    return /[\u4e00-\u9fff]/.test(alone) ? `${alone.replace(/的$/, "")}的${rest}` : `${alone} ${rest}`;
  };
  return [fill(first, second), fill(second, first)];
}

/**
 * True when "A 和 B 交换" can match `body`: a 和 / 与 / 跟 after its first character, and a swap verb at least two
 * characters after it. Asked first because the pattern, on a sentence of 和 with no swap verb after them, tries every
 * start, every 和 and every end: cubic in the sentence (500 characters took 40 ms, 6 000 half a minute). When this
 * holds, the pattern matches from the sentence's start in one pass (its body is one line: `normalizeText`).
 */
function swapVerbAfterPair(body: string): boolean {
  const verb = Math.max(...["交换", "对调", "互换", "调换"].map((word) => body.lastIndexOf(word)));
  const pair = ["和", "与", "跟"].map((word) => body.indexOf(word, 1)).filter((at) => at !== -1);
  return pair.length > 0 && Math.min(...pair) + 2 <= verb;
}

/** "put off X", "put X off", "put it off till Friday": group 1 holds what is put off when the particle follows it. */
const PUT_OFF =
  /^(?:(?:please|can you|could you|would you|just|let's|i want to|i'd like to)\s+)*put\s+(?:off\b|(.+?)\s+off\b)/;

/** A move's verb and what follows it (group 1), up to "to …" where it goes (group 2) in `MOVE_TO`. */
const MOVE_VERB_THEN = new RegExp(String.raw`\b${MOVE_VERB}\s+(.+)$`);
const MOVE_TO = new RegExp(String.raw`\b${MOVE_VERB}\s+(.+?)(?:\s+(?:to|onto|into|until|till)\s+(.+))?$`);

function readMove(words: string): ScheduleRequest | undefined {
  const { said, dayward } = withoutDayward(words);
  const read = readMoveTo(said);
  return dayward && read?.kind === "move" && read.otherDay && !read.also ? { ...read, dayward } : read;
}

function readMoveTo(said: string): ScheduleRequest | undefined {
  // "move the matrix review back to where it was", "bring it back to its old slot": put back (before, a move to any
  // other free place).
  const movedBack = MOVE_BACK.exec(said);
  if (movedBack) return readPutBack(`put ${movedBack[1]} back where it was`);
  // "put the matrix review off till Friday" reads as "put off the matrix review till Friday".
  const body = said.replace(PUT_OFF, (whole, object?: string) =>
    object === undefined ? whole : whole.replace(/put\s+.+?\s+off\b/, `put off ${object}`),
  );
  const shifted = readShift(body);
  if (shifted) return shifted;
  // "postpone the matrix review to Friday", "delay it until Thursday": a move to the day named.
  const english = MOVE_TO.exec(body);
  if (english) {
    // "push it back to Friday", "bring X forward to Monday": the particle is no part of the name.
    const subject = (english[1] ?? "").replace(/^(?:back|forward)\s+/, "").replace(/\s+(?:back|forward)$/, "");
    const [said, where, leaves] = splitTarget(subject, english[2]);
    const task = PRONOUN.test(said) ? (taskNamedBefore(body.slice(0, english.index)) ?? said) : said;
    return task
      ? withOtherDay(
          // "push the essay to next week": that week, which the schedule may not hold yet (it was dropped).
          {
            kind: "move",
            task,
            where: withWeekNamed(withDaysRuledOutBefore(readWhere(where), body.slice(0, english.index), task), where),
            ...(leaves ? { leaves } : {}),
          },
          where,
        )
      : undefined;
  }
  // (A clause about the task said first, with no 把: as if the task were named after it.)
  const zh = withSubjectClauseZh(body);
  const out = MOVE_OUT_ZH.exec(zh);
  if (out) {
    // "把周四上午的所有复习挪出周四上午", "把复习都挪走": off the days said, or off the day the task is of.
    const task = taskPhrase(out[1] ?? "");
    const from = out[2] ?? "";
    const ruledOut = readWhere(`不要${from}`).not;
    if (!task || (from.trim() !== "" && isEmptySelection(ruledOut))) return undefined;
    const part = namesReviewsOfDay(task) ? readPartOfDay(from) : undefined;
    const before = zh.slice(0, Math.max(0, zh.search(/把|将/)));
    // "把作文挪走，不要上午": what the clause after it rules out too.
    const where = withDaysRuledOutBefore(withDaysOut(readWhere(out[3] ?? ""), ruledOut, part), before, task);
    if (from.trim() === "" && isAnywhere(where) && /周|星期|礼拜|今天|明天|后天/.test(task))
      return { kind: "move", task, where, otherDay: true };
    // ("把作文挪出今天": the days it leaves.)
    return from.trim() !== "" && isEmptySelection(where.only)
      ? { kind: "move", task, where, leaves: true }
      : { kind: "move", task, where };
  }
  const chinese = MOVE_ZH.exec(zh);
  if (chinese) {
    // "把作文从周六挪到别的天": the day it is moved from is no part of its name, and no day to move it to.
    // ("把作文从下午三点挪到六点": the time it is moved from, too.)
    const from = new RegExp(
      String.raw`^(.+?)从((?:${DAY_WORD_ZH}|今天|明天|后天|上午|下午|晚上|早上|中午|\d{1,2}\s*[:：点]|[零一二两三四五六七八九十]{1,3}\s*点).*)$`,
    ).exec(chinese[1] ?? "");
    const task = taskPhrase(from ? from[1]! : (chinese[1] ?? ""));
    // "周六我有事，把作文挪到别的时间": what the clause before 把 rules out.
    const before = zh.slice(0, Math.max(0, zh.search(/把|将/)));
    const where = withWeekNamed(withDaysRuledOutBefore(readWhere(chinese[2] ?? ""), before, task), chinese[2] ?? "");
    return task
      ? withOtherDay(
          {
            kind: "move",
            task,
            // Moved away from that day to no place named ("别的天", "别的时间"): another day than it.
            where:
              from && isAnywhere(readWhere(chinese[2] ?? "")) ? withDaysRuledOutBefore(where, `不要${from[2]}`) : where,
          },
          chinese[2] ?? "",
        )
      : undefined;
  }
  return undefined;
}

/**
 * "作文周六不行，帮我挪到别的时间", "作文周六不行，挪一下": a clause about the task first, then the verb with no 把 —
 * read as "作文周六不行，把作文挪到别的时间" (the clause rules its days out; the task was "作文周六不行，帮我"). The task is
 * the clause's words before its first day, part of the day or word of trouble.
 */
function withSubjectClauseZh(body: string): string {
  if (/把|将/.test(body)) return body;
  const match = /^([^，,；;]+)[，,；;]\s*((?:帮我|请|麻烦|就|再)*)((?:挪|移|调|换|改).*)$/.exec(body);
  if (!match) return body;
  const subject = new RegExp(
    String.raw`^(.+?)(?:${DAY_WORD_ZH}|今天|明天|后天|上午|下午|晚上|早上|不行|有事|没空|不方便|不能|不可以|和|跟|与|冲突)`,
  ).exec(match[1]!)?.[1];
  if (!subject || /^(?:我|你|他|她|我们)/.test(subject)) return body;
  return `${match[1]}，把${subject}${match[3]}`;
}

/** "把X挪出周四" (group 2 the days it leaves), "把X挪走" / "挪开" (no group 2: off where it is). */
const MOVE_OUT_ZH =
  /^(?:.*?(?:把|将))(.+?)(?:(?:挪出|移出|调出|搬出)([^，,；;]+?)|(?:挪走|移走|挪开|移开|调走|调开|挪一下|挪一挪|换个时间|换一下时间|改个时间|换个时段|调一下时间|挪个时间))(?:吧|去)?(?:[，,；;]\s*(.+?))?[。.!！]?$/;
const MOVE_ZH =
  /^(?:.*?(?:把|将))?(.+?)(?:移到|挪到|调到|改到|换到|移至|改成|调整到|推迟到|推后到|延后到|延迟到|顺延到|提前到)(.+)$/;
/** A verb that starts a move said after another ("…, and push the essay to Friday"). */
const MOVE_VERB_EN = /^(?:move|reschedule|shift|push|bring|postpone|delay|put)\b/;
/** A move's verb and only days after it ("push all of Thursday"): the start of a list of days whose reviews move. */
const VERB_THEN_DAYS = new RegExp(
  String.raw`^\s*${MOVE_VERB}\s+(?:(?:all|each|every one)\s+)?(?:of\s+)?(?:(?:my|the)\s+)?${DAY_SAID_EN}(?:\s*,\s*${DAY_SAID_EN})*\s*$`,
);
/** What joins one move to the next: ", and", "and then", ";", "，", "，然后", "然后", "并且". */
const MOVE_JOINS =
  /\s*[,;，；]\s*(?:and\s+)?(?:then\s+)?(?:然后|再|并且|还有)?\s*|\s+(?:and|then)\s+(?:then\s+)?|然后|并且/g;

/**
 * A move, or several said together, each of its own task to its own place ("move the matrix review to Thursday and the
 * essay to Friday", "push the essay back a day, then the limits review to Monday", "把矩阵复习挪到周四，作文挪到周五"):
 * the words are cut at a join where what is before reads as a whole move (a task and a place or a shift) and what
 * follows names a task ("… to Thursday and Friday" stays one move's target), and the last piece must be a whole move
 * too; otherwise the words are one move. One pass: each join is read once, so a long list stays cheap.
 */
function readMoves(words: string): ScheduleRequest | undefined {
  // "move my reviews off Thursday and onto Friday": one move from a day to a day, not a second move of a task "onto".
  const said = words.replace(OFF_AND_ONTO, "$1 ");
  const joins = [...said.matchAll(MOVE_JOINS)];
  const moves: MoveRequest[] = [];
  let start = 0;
  for (const [at, join] of joins.entries()) {
    const next = said.slice(join.index + join[0].length, joins[at + 1]?.index ?? said.length);
    if (readTaskWords(next).trim() === "") continue;
    // ("push all of Thursday and Friday's reviews back": days listed before the reviews they name are no move.)
    if (VERB_THEN_DAYS.test(said.slice(start, join.index))) continue;
    const move = wholeMove(said.slice(start, join.index), moves.length === 0);
    if (!move) continue;
    moves.push(move);
    start = join.index + join[0].length;
  }
  const rest = said.slice(start);
  const last = moves.length > 0 ? (wholeMove(rest, false) ?? sameMoveOf(rest, moves.at(-1)!)) : undefined;
  if (!last) return readMove(said);
  const [first, ...also] = [...moves, last];
  return { ...first!, also };
}

/** A day left and a day to go to, joined by "and": "off thursday and onto friday", "from today and put them on friday". */
const OFF_AND_ONTO = new RegExp(
  String.raw`\b((?:off(?:\s+of)?|from|away from)\s+${DAY_SAID_EN}),?\s+and\s+(?:(?:put|move|place)\s+(?:it|them)\s+)?(?=(?:onto|on to|into|to|on)\s)`,
  "g",
);

/** Words after a move that only say so ("… and thanks", "… too, please"): no task of their own. */
const NO_TASK_AFTER = /^(?:thanks?|thank you|please|pls|ok|okay|too|also|as well|then|now|asap|today)\b/;

/**
 * A last piece that names a task and no place ("move the matrix review to Thursday and the essay"): that task moved
 * as the move before it is — to its place, or by its shift — rather than dropped unsaid; undefined for any other.
 */
function sameMoveOf(piece: string, before: MoveRequest): MoveRequest | undefined {
  // (Words of when are the move's own: "…, at 14:30" is no task.)
  if (NO_TASK_AFTER.test(piece.trim()) || MOVE_VERB_EN.test(piece) || /[\u4e00-\u9fff]/.test(piece)) return undefined;
  if (!isAnywhere(readWhere(piece)) || /^(?:at|on|in|by|from|before|after|around)\b/.test(piece.trim()))
    return undefined;
  const move = readMove(`move ${piece.replace(/(?:\s+(?:too|as well|also|please))+\s*$/, "")}`);
  if (move?.kind !== "move" || move.shift || !isAnywhere(move.where) || PRONOUN.test(move.task)) return undefined;
  if (readTaskWords(move.task).trim() === "") return undefined;
  return { kind: "move", task: move.task, where: before.where, ...(before.shift ? { shift: before.shift } : {}) };
}

/**
 * One piece of several moves as a move of a task to a place or by a shift; undefined when it is not one. A piece
 * after the first may leave its verb out ("… and the essay to Friday"), so it needs "to" or a shift ("… and make it
 * the morning" is no move of a task "make it").
 */
function wholeMove(piece: string, first: boolean): MoveRequest | undefined {
  const chinese = MOVE_ZH.test(piece) && /[\u4e00-\u9fff]/.test(piece);
  const said = first || chinese || MOVE_VERB_EN.test(piece) ? piece : `move ${piece}`;
  const move = readMove(said);
  if (move?.kind !== "move" || (!move.shift && isAnywhere(move.where))) return undefined;
  if (first) return move;
  if (PRONOUN.test(move.task) || readTaskWords(move.task).trim() === "") return undefined;
  return move.shift || chinese || /\s(?:to|onto|into|until|till)\s/.test(said) ? move : undefined;
}

/** How many of a unit a shift says: "a", "an", "one", "two", "half an", "2", "1.5"; Chinese numerals too. */
const SHIFT_AMOUNT = String.raw`(an?|one|two|three|four|five|six|half an?|\d+(?:\.\d+)?)`;
/** "a day", "2 hours", "30 minutes" (group 1 the amount, group 2 the unit). */
const SHIFT_LENGTH_EN = new RegExp(String.raw`\b(?:by\s+)?${SHIFT_AMOUNT}\s+(days?|hours?|hrs?|minutes?|mins?)\b`);
const LATER_EN = /^(?:back|later|off|sooner)$/;

/**
 * A move by an amount or a direction from the task's own place: "push the binary tree review back a day", "move it an
 * hour later", "push the review to later", "bring the review forward a day", "push back X by two days", the plan's own
 * `Move "X" 1 day later` / `Move "X" later the same day`; "把二叉树复习往后推一天", "把X提前一小时", "把X挪到晚一点",
 * `把 "X" 往后推1天`. A day named besides ("push it back to Friday") is a move to that day, not a shift.
 */
function readShift(body: string): ScheduleRequest | undefined {
  return readShiftEnglish(body) ?? readShiftChinese(body);
}

function readShiftEnglish(body: string): ScheduleRequest | undefined {
  const verb = MOVE_VERB_THEN.exec(body);
  if (!verb) return undefined;
  let rest = ` ${verb[1] ?? ""} `;
  // "move my reviews off today": the day they leave, not "off" as "later" ("put it off").
  if (
    /\s(?:off|away from|out of)\s+(?:the\s+)?(?:today|tonight|tomorrow|this\s+(?:morning|afternoon|evening)|[a-z]+day|weekends?)\b/.test(
      rest,
    )
  )
    return undefined;
  let direction: 1 | -1 | undefined;
  let length: { amount: number; unit: "days" | "minutes" } | undefined;
  const sameDay = /\s(?:today|tonight|that day|the same day|on the same day|in the day)\s/;
  // ("later today" of a review on another day is today, from the clock: kept as where, `MoveRequest.shift`.)
  const today = /\s(today|tonight)\s/.exec(rest)?.[1];
  rest = rest.replace(sameDay, " ");
  const next =
    /\s(?:to|until|till)\s+(?:the\s+)?(next|following|previous)\s+day\s|\s(?:to\s+)?the day (after|before)\s/.exec(
      rest,
    );
  if (next) {
    length = { amount: 1, unit: "days" };
    direction = next[1] === "previous" || next[2] === "before" ? -1 : 1;
    rest = rest.replace(next[0], " ");
  }
  const measured = SHIFT_LENGTH_EN.exec(rest);
  if (measured && !length) {
    const word = (measured[1] ?? "").replace(/ an?$/, "");
    const amount = HOUR_WORDS[word] ?? Number(word);
    const unit = measured[2] ?? "";
    // A shift by days moves whole days ("half a day" is not read).
    if (!Number.isFinite(amount) || amount <= 0 || (/^d/.test(unit) && !Number.isInteger(amount))) return undefined;
    length = /^d/.test(unit)
      ? { amount, unit: "days" }
      : { amount: Math.round(/^h/.test(unit) ? amount * 60 : amount), unit: "minutes" };
    rest = rest.replace(measured[0], " ");
  }
  rest = rest.replace(/\s(?:to|till|until|for)\s+(?:a\s+)?(later|earlier)(?:\s+(?:time|slot|one))?\s/, " $1 ");
  const words = rest.trim().split(/\s+/);
  let particle = "";
  for (const end of ["first", "last"] as const) {
    const word = end === "first" ? words[0] : words.at(-1);
    if (word === undefined || direction !== undefined) continue;
    if (LATER_EN.test(word)) direction = 1;
    else if (/^(?:forward|ahead|earlier)$/.test(word)) direction = -1;
    else continue;
    particle = word;
    if (end === "first") words.shift();
    else words.pop();
  }
  // "move X back" alone may mean where it was: a particle without an amount is a shift only after push / bring.
  if (!length && /^(?:back|forward|ahead)$/.test(particle) && !/^(?:push|bring)\b/.test(verb[0])) return undefined;
  // "delay X a day", "postpone X an hour": the verb says which way; "postpone X", "delay it" alone: to the next day.
  if (direction === undefined && /^(?:delay|postpone|put off)\b/.test(verb[0])) {
    direction = 1;
    length ??= { amount: 1, unit: "days" };
  }
  if (direction === undefined) return undefined;
  if (!length && verb[0].startsWith("put off")) length = { amount: 1, unit: "days" };
  const phrase = words.join(" ");
  // "push it back to Friday": a day named is where it goes.
  // (A day that names the task is not where it goes: "push tomorrow's review back a day".)
  // ("Monday evening's reviews", "this morning's review": the part of the day names them too.)
  // ("Thursday and Friday's reviews": the days listed before the one said so name them too.)
  const named = phrase.replace(DAYS_NAMING, (word) => (splitNamingDay(word) ? " " : word));
  if (!isEmptySelection(readDays(named)) || /\b(?:to|onto|into)\b/.test(phrase)) return undefined;
  const said2 = taskPhrase(phrase);
  const task = PRONOUN.test(said2) ? (taskNamedBefore(body.slice(0, verb.index)) ?? said2) : said2;
  if (!task) return undefined;
  const shift: MoveShift = !length
    ? { sameDay: direction === 1 ? "later" : "earlier" }
    : length.unit === "days"
      ? { days: direction * length.amount }
      : { minutes: direction * length.amount };
  return { kind: "move", task, where: sameDayWhere(shift, today), shift };
}

/**
 * "往后推一天", "推迟一小时", "提前30分钟" (group 2 the direction, 3 the amount, 4 the unit); "挪到晚一点", "挪到今天晚点"
 * (group 5 today or tonight, 6 the word).
 */
const SHIFT_ZH =
  /^(?:请|帮我)?(?:把|将)?(.+?)\s*(?:(往后推|向后推|往后挪|向后挪|往后移|向后移|往后|向后|推迟|推后|延后|延迟|顺延|挪后|往前推|向前推|往前挪|向前挪|往前移|向前移|往前|向前|提前|挪前)(?:了)?\s*(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)?\s*(?:个)?(天|小时|钟头|分钟)?|(?:挪|移|调|改|推|放|安排)?(?:到|得)?(?:当天|(今天|今晚))?(晚一点|晚一些|晚些时候|晚些|晚点|稍晚一点|稍晚|早一点|早一些|早些时候|早些|早点|稍早一点|稍早)(?:的时候|的时间)?)(?:吧|再做)?$/;

/**
 * "推迟矩阵复习", "延后一下它", "推迟矩阵复习两天": the verb first (group 1), the task (2), an amount (3) — read as
 * "把矩阵复习推迟两天"; no amount is the next day.
 */
const POSTPONE_ZH =
  /^(?:请|帮我)?(推迟|延后|延迟|顺延)(?:一下)?(.+?)((?:\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(?:个)?(?:天|小时|钟头|分钟))?(?:吧)?$/;
/** The Chinese verbs that put a task off: alone, to the next day ("把矩阵复习推迟"), where "往后推" alone is later that day. */
const POSTPONE_VERB_ZH = /^(?:推迟|推后|延后|延迟|顺延)(?:了)?$/;

function readShiftChinese(body: string): ScheduleRequest | undefined {
  const postponed = POSTPONE_ZH.exec(body);
  if (postponed && !/^(?:把|将)/.test(body) && !/到|至/.test(postponed[2] ?? ""))
    return readShiftChinese(`把${postponed[2] ?? ""}${postponed[1] ?? ""}${postponed[3] ?? ""}`);
  const match = SHIFT_ZH.exec(body);
  if (!match) return undefined;
  const task = taskPhrase(match[1] ?? "");
  if (!task || !/[\u4e00-\u9fff"]/.test(body)) return undefined;
  // (Groups: the task, the verb of a shift, its amount and unit; today or tonight, and a word of later or earlier.)
  const later = match[6] !== undefined ? match[6].includes("晚") : !/前|提前/.test(match[2] ?? "");
  const direction = later ? 1 : -1;
  const word = match[3];
  const unit = match[4];
  let shift: MoveShift;
  if (word === undefined || unit === undefined) {
    // "往后推" alone is later the same day; "推迟一" without a unit is not read.
    if (word !== undefined) return undefined;
    shift = POSTPONE_VERB_ZH.test(match[2] ?? "") ? { days: 1 } : { sameDay: later ? "later" : "earlier" };
  } else {
    const amount = word === "半" ? 0.5 : /^\d/.test(word) ? Number(word) : readNumber(word);
    if (!Number.isFinite(amount) || amount <= 0 || (unit === "天" && !Number.isInteger(amount))) return undefined;
    shift =
      unit === "天"
        ? { days: direction * amount }
        : { minutes: direction * Math.round(unit === "分钟" ? amount : amount * 60) };
  }
  return { kind: "move", task, where: sameDayWhere(shift, match[5]), shift };
}

/**
 * Where a same-day shift said with today goes ("later today", "今天晚点"; "tonight", "今晚": its evening): today, for a
 * review on another day (`MoveRequest.shift`); nothing for any other shift.
 */
function sameDayWhere(shift: MoveShift, today: string | undefined): Where {
  const where = emptyWhere();
  if (today === undefined || !("sameDay" in shift)) return where;
  where.only.dates = [{ kind: "offset", days: 0, text: today }];
  if (today === "tonight" || today === "今晚") where.slots.part = "evening";
  return where;
}

/** A `where` that restricts nothing. */
function emptyWhere(): Where {
  return { only: { weekdays: [], days: [] }, not: { weekdays: [], days: [] }, slots: {} };
}

/** A task said as a pronoun ("move it to Wednesday"). */
const PRONOUN = /^(?:it|that|this|that one|this one|the one)$/;

/**
 * The task an earlier clause named, for a pronoun after it: "I can't make the matrix review on Tuesday, move it to
 * Wednesday" → "matrix review" (the last "the …" / "my …" phrase before the verb, up to a day, a time or a clause's
 * end); undefined when the clause names none.
 */
function taskNamedBefore(clause: string): string | undefined {
  const named = [
    ...clause.matchAll(
      /\b(?:the|my)\s+([a-z][a-z0-9' -]*?)(?=\s+(?:on|at|in|this|today|tomorrow|tonight|(is|was|clashes|conflicts|can'?t|cannot|can not|won'?t|shouldn'?t|should|isn'?t|doesn'?t|does not|must|needs?|has to))\b|\s*[,;]|\s*$)/g,
    ),
  ];
  // The one a clause is about (a verb follows it: group 2), when one is ("the essay clashes with my shift on
  // Saturday"), else the last named.
  const about = named.find((match) => match[2] !== undefined);
  const phrase = (about ?? named.at(-1))?.[1];
  if (phrase === undefined) return undefined;
  const task = taskPhrase(splitWeekday(phrase).rest);
  return task === "" || PRONOUN.test(task) ? undefined : task;
}

/** Splits "X on friday" (no "to") into the task and its target. */
function splitTarget(subject: string, target: string | undefined): [string, string, leaves?: true] {
  // (The task's words as said: a quoted name would hide the negation after it.)
  const [task, when] = splitTargetWords(subject, target);
  // "move the essay but not on Saturday", "…, not to Friday", "anywhere but Saturday", 'move "X", but not in the
  // morning': the words of when after a negation are where it must not go (they read as the only place it may go).
  const negation = NEGATION_TAIL.exec(task);
  // ("push the essay off till Friday": "off" before "till" / "to" is the verb's particle, no negation.)
  const particle = negation !== null && target !== undefined && /^\s+off$/.test(negation[0]);
  if (particle) return [taskPhrase(task.slice(0, negation.index)), when];
  // "move the essay from Thursday to Friday": the day it leaves is no part of its name.
  // (Every review of that day is read whole: "all my reviews from Thursday to Friday", `REVIEWS_OF_DAY`.)
  const leaves = target === undefined ? null : FROM_DAY_TAIL.exec(task);
  const named = leaves ? taskPhrase(task.slice(0, leaves.index)) : "";
  if (leaves && !EVERY_REVIEW.test(named)) return [named, when];
  if (negation && when.trim() !== "")
    // ("off today", "away from Thursday": the days it leaves; "but not on Saturday": where it must not go.)
    return target === undefined && LEAVING_WORDS.test(negation[0])
      ? [taskPhrase(task.slice(0, negation.index)), `not ${when}`, true]
      : [taskPhrase(task.slice(0, negation.index)), `not ${when}`];
  // ("the essay off Thursday", its day read after the task's words: the day it leaves, too.)
  if (target === undefined && LEAVING_BEFORE_DAY.test(when.trim()))
    return isEmptySelection(readWhere(when).only) ? [taskPhrase(task), when, true] : [taskPhrase(task), when];
  // "reschedule the essay, Saturday doesn't work", "move the essay, Saturday is bad": a clause after the task that
  // rules days out (they read as part of its name, and it could go back to Saturday); one that names no other task.
  const comma = target === undefined ? subject.lastIndexOf(",") : -1;
  const clause = comma > 0 ? subject.slice(comma + 1) : "";
  if (clause && !isEmptySelection(readDays(clause)) && !NAMES_A_TASK.test(clause)) {
    const negative = NEGATIVE_CLAUSE.test(clause.replace(NOT_NEGATIVE, " "));
    // "move the essay, not Monday, Tuesday": a day taken back before the one meant is no part of the task's name.
    const takenBack = negative ? null : DAY_TAKEN_BACK.exec(subject.slice(0, comma));
    if (takenBack) return [taskPhrase(subject.slice(0, takenBack.index)), `${clause} not ${takenBack[1]}`];
    // ("move the essay, Saturday works": where it goes.)
    return [taskPhrase(subject.slice(0, comma)), negative ? `not ${clause}` : clause];
  }
  // "move the essay, not the matrix review": the task named after "not" is not moved.
  const other = /,\s*(?:but\s+)?not\s+\S|\s+but not\s+\S/.exec(task);
  return [taskPhrase(other && when.trim() === "" ? task.slice(0, other.index) : task), when];
}

/**
 * `where` with the days a clause before the move's verb rules out ("I can't do Friday, move the essay", "I'm busy on
 * Saturday, so move the essay"): only what such a clause says not to do is read from it.
 */
function withDaysRuledOutBefore(where: Where, before: string, task = ""): Where {
  // "I need Thursday morning free, move my reviews", "我需要周四上午空着，…": the days said to be kept free.
  const wantsFree = WANTS_FREE.test(before);
  if (!wantsFree && (before.trim() === "" || !NEGATIVE_CLAUSE.test(before.replace(NOT_NEGATIVE, " ")))) return where;
  const ruledOut = wantsFree ? readDays(before) : readWhere(before).not;
  if (isEmptySelection(ruledOut)) return where;
  // "I'm busy Thursday morning, move my reviews": the part of that day is whose reviews move (`awayFrom`).
  const part = namesReviewsOfDay(task) && isAnywhere(where) ? readPartOfDay(before) : undefined;
  return withDaysOut(where, ruledOut, part);
}

/** `where` with the days of `ruledOut` ruled out too, and `part` as its part of the day when given. */
function withDaysOut(where: Where, ruledOut: DaySelection, part?: PartOfDay): Where {
  return {
    ...where,
    ...(part ? { slots: { ...where.slots, part } } : {}),
    not: {
      ...where.not,
      weekdays: [...new Set([...where.not.weekdays, ...ruledOut.weekdays])],
      days: [...new Set([...where.not.days, ...ruledOut.days])],
      ...(ruledOut.dates || where.not.dates ? { dates: [...(where.not.dates ?? []), ...(ruledOut.dates ?? [])] } : {}),
    },
  };
}

/** True when a task's words name every review, or every review of a day ("my reviews", "周四的复习都"). */
function namesReviewsOfDay(task: string): boolean {
  return EVERY_REVIEW.test(task.trim()) || DAY_REVIEWS.test(task.trim());
}

/** A clause that wants days kept free: "I need Thursday morning free", "I want Friday clear", "我需要周四空着". */
const WANTS_FREE =
  /\b(?:need|want|would like|'d like|have to keep|must keep|gotta keep|keep)\b[^,;]*\b(?:free|clear|open|empty)\b|(?:需要|想要|要|得)[^，,；;]*(?:空着|空出来|空下来|腾出来|留空)/;

/** Words that name a task ("the matrix review", "my essay"), not a part of the day or the week. */
const NAMES_A_TASK = /\b(?:the|my|an?)\s+(?!(?:morning|afternoon|evening|night|weekend|week|day|rest)\b)[a-z]/;

/** A day said and taken back at the end of a move's task words: ", not monday", " - no, not on Monday" (group 1). */
const DAY_TAKEN_BACK = new RegExp(
  String.raw`(?:,|\s+-|\s+—)?\s*(?:no,?\s+|sorry,?\s+|i mean,?\s+|but\s+)?not\s+(?:on\s+)?(${DAY_SAID_EN})$`,
);

/** A clock time a task is moved from: "19:00", "7pm", "7.30pm", "at 9". */
const FROM_TIME_EN = String.raw`(?:at\s+)?\d{1,2}(?:[:.]\d{2})?(?:\s*[ap]\.?m\b\.?)?`;
/**
 * The day (and time) a move's task leaves, said after it before where it goes ("the essay from Thursday", "… off
 * Thursday" to Friday, "… from Sunday 19:00", "… from 7pm on Sunday"): no part of its name.
 */
const FROM_DAY_TAIL = new RegExp(
  String.raw`\s+(?:from|off(?:\s+of)?)\s+(?:${DAY_SAID_EN}(?:,?\s+${FROM_TIME_EN})?|${FROM_TIME_EN}(?:\s+(?:on\s+)?${DAY_SAID_EN})?)$`,
);

/**
 * The words of a negation that say the days a task leaves: "off", "out of" ("move the matrix review away from
 * Thursday" and ", I can't do Thursday" say where it must not go: it moves wherever it is).
 */
const LEAVING = String.raw`off(?:\s+of)?|out\s+of`;
/** Those words ending a task's words ("the essay off" | "today"), and starting the words of when ("off today"). */
const LEAVING_WORDS = new RegExp(String.raw`^\s+(?:${LEAVING})$`);
const LEAVING_BEFORE_DAY = new RegExp(String.raw`^(?:${LEAVING})\s`);

/** A negation that ends a move's task words, before the words of when it governs: " but not", ", not", " except". */
const NEGATION_TAIL =
  /(?:,?\s+(?:but|anywhere but|any ?where but|any day but|any time but|except|other than|rather than|apart from|besides)(?:\s+not)?|,?\s+not|,?\s+(?:just|only)\s+not|\s+(?:away from|out of|off|from)|,\s*(?:i|i'm|i am)\s+(?:can'?t|cannot|can not|won'?t)\s+(?:do|make)(?:\s+it)?|,\s*(?:i'?m|i am|i'll be|i will be)\s+(?:busy|away|out|not free)(?:\s+on)?)$/;

function splitTargetWords(subject: string, target: string | undefined): [string, string] {
  if (target !== undefined) return [subject, target];
  // "reschedule the matrix review for Friday": "for" and only words of when (a "for" inside a name stays in it).
  const forWhen = /^(.+)\s+for\s+(.+)$/.exec(subject);
  // ("move the essay before Friday": the days before it, `withDaysBeforeAfter`.)
  const beforeAfter = /^(.+?)\s+((?:before|after|until|till|by)\s+.+)$/.exec(subject);
  const at =
    forWhen && readTaskWords(forWhen[2] ?? "").trim() === ""
      ? forWhen
      : // ("in two days": the "in" is the day's own, kept for it.)
        (/^(.+?)\s+(?:(?:on|at|in)\s+(?!(?:\d+|[a-z]+)\s+days?\b)|(?=in\s+(?:\d+|[a-z]+)\s+days?\b))(.+)$/.exec(
          subject,
        ) ?? (beforeAfter && withDaysBeforeAfter(beforeAfter[2]!) !== beforeAfter[2] ? beforeAfter : null));
  if (!at) return trailingWhen(subject) ?? [subject, ""];
  // ("essay later in the week", "essay early in the week": a stretch of the week starts before its "in", so the task
  // is "essay", not "essay later"; "essay tomorrow at 10am": the day before "at" is no part of the name — unless
  // it is a day left or ruled out, "reviews off thursday on friday", which `splitTarget` reads from the name's tail.)
  const trailing = trailingWhen(subject);
  const stretch = / in (?:the |this )?week\b/.test(subject) && WEEK_STRETCH.test(trailing?.[1] ?? "");
  const dayBefore =
    trailing !== undefined &&
    trailing[0].length < (at[1] ?? "").length &&
    !/\b(?:not|but|except|off|from|away|out|than|besides)\b/.test((at[1] ?? "").slice(trailing[0].length));
  return trailing && ((stretch && !WEEK_STRETCH.test(at[2] ?? "")) || dayBefore)
    ? trailing
    : [at[1] ?? "", at[2] ?? ""];
}

/**
 * "essay tomorrow", "essay fri evening": a task, then words of when with no preposition between them, split into the
 * task and its target ("reschedule essay tmr" sought a task named "essay tomorrow", the day lost); undefined when no
 * word of the phrase starts the words of when alone.
 */
function trailingWhen(subject: string): [string, string] | undefined {
  const wordStarts = [...subject.matchAll(/ (?=\S)/g)].map((space) => space.index + 1);
  return splitAtWhen(subject, wordStarts);
}

/** `text` cut at the first of `cuts` after which all is words of when (`onlyWhen`): [before, when], or undefined. */
function splitAtWhen(text: string, cuts: readonly number[]): [string, string] | undefined {
  const at = cuts.find((cut) => onlyWhen(text.slice(cut)));
  return at === undefined ? undefined : [text.slice(0, at).trim(), text.slice(at).trim()];
}

/** How people say a task's life, each with the status it settles as (a typo of a verb is read too: "finsihed"). */
const MARK_PHRASES: ReadonlyArray<[RegExp, "done" | "missed" | "skipped"]> = [
  [/^mark\s+(.+?)\s+(?:as\s+)?(?:done|finished|completed)$/, "done"],
  [/^mark\s+(.+?)\s+(?:as\s+)?missed$/, "missed"],
  [/^mark\s+(.+?)\s+(?:as\s+)?skipped$/, "skipped"],
  // ("I'll skip the essay", "i'm gonna skip the vocab list this week": what is to be, said as a plan.)
  [
    /^(?:i(?:'ll| will|'m gonna| am gonna|'m going to| am going to| wanna| want to|'d like to| would like to| need to| think i'll)?\s+)?(?:want to\s+)?(?:just\s+)?ski+p+(?:ped)?\s+(.+?)(?:\s+(?:for\s+)?this\s+week)?$/,
    "skipped",
  ],
  [
    /^(?:i\s+)?(?:mis+ed|didn'?t do|did not do|didn'?t get to|never did|forgot|couldn'?t do|could not do|couldn'?t get to|(?:wasn'?t|was not) able to do|didn'?t manage to do|(?:haven'?t|have not) (?:done|did|finished|gotten to|got to))\s+(.+)$/,
    "missed",
  ],
  // "the matrix review didn't happen".
  [/^(.+?)\s+(?:didn'?t|did not|never)\s+happen(?:ed)?$/, "missed"],
  // "the essay is done", "essay done", "the vocab list is finished now" (not "the essay is not done", "almost done").
  [
    /^(?!(?:i|i'm|i am|we|we're|it|that|this|everything|all|is|are|was|has|have|did)\b|(?:(?:my|the|this|today'?s)\s+)?(?:schedule|week|day|plan|calendar|timetable|homework)\b)(.+?)(?<!\b(?:not|n't|never|almost|nearly|half|partly|isn't|is not))\s+(?:(?:is|'s|are|got)\s+)?(?:all\s+)?(?:done|finished|completed|complete)(?:\s+now)?$/,
    "done",
  ],
  [
    /^(?:i\s+)?(?:(?:have|'ve)\s+)?(?:did|done with|done|fini?sh?(?:ed)?|finsihed|compl?eted|completd)\s+(?!not\b|n'?t\b|never\b|nothing\b)(.+)$/,
    "done",
  ],
  [/^(?:把|将)\s*(.+?)\s*记为(?:已完成|完成)$/, "done"],
  [/^(?:把|将)\s*(.+?)\s*记为错过$/, "missed"],
  [/^(?:把|将)\s*(.+?)\s*记为跳过$/, "skipped"],
  [/^(?:我)?(?:这周|本周)?(?:跳过|不做)(?:这周|本周)?(?:的)?(.+?)(?:这周|本周)?$/, "skipped"],
  // The verb first ("我没做周二的复习", "我错过了周二的复习"), then the task first ("我周二的复习没做").
  [/^(?:我)?(?:这周|本周)?(?:没做完|没有做完|没做|没有做|没完成|没有完成|错过了|漏了|忘了做)(?:了)?(.+)$/, "missed"],
  [/^(?:我)?(.+?)(?:没做|没有做|没完成|没有完成|错过了|漏了|忘了做)/, "missed"],
  // "我做完矩阵复习了", "我已经完成了单词表了": the verb, the task, then 了.
  [/^(?:我)?(?:已经)?(?:做完|完成|做好|搞定)(?:了)?(.+?)了$/, "done"],
  [/^(?:我)?(?:已经)?(?:做完了|完成了|做了)(.+)$/, "done"],
  [/^(?:我)?(.+?)(?:已经)?(?:做完了|完成了|已完成)/, "done"],
];

/** A mark of done that names no task: "I'm done", "all done", "finished", "done with it", "我做完了", "搞定了". */
const DONE_ALONE =
  /^(?:(?:i'?m|i am|i'?ve|i have)\s+)?(?:(?:already|just|finally|all)\s+)?(?:done|finished|completed)(?:\s+(?:with\s+)?(?:it|that|this))?(?:\s+now)?$|^(?:i\s+)?(?:did|finished|completed)\s+(?:it|that|this)$|^(?:我)?(?:已经|刚|刚刚)?(?:做完|完成|搞定|写完|复习完)了$/;

/** "…, don't reschedule it", "no need to reschedule", "不用重新安排": a missed task is not to be proposed again. */
/**
 * "…, reschedule it", "…, can you make it up?", "…，帮我重新安排一下": what a missed mark does anyway (its review is
 * proposed again), said after it — no part of the review's name (before, "matrix review , reschedule it" was asked
 * about as a task).
 */
const RESCHEDULE_TOO =
  /[,;，；]\s*(?:and\s+|so\s+)?(?:(?:can|could|would|will) you\s+|please\s+)*(?:re-?schedule|make up|put back|find a new (?:slot|time|place) for)(?:\s+(?:it|that|them))?(?:\s+(?:please|for me|later))?\s*\??$|[,，；;]\s*(?:请|帮我|麻烦)?(?:重新安排|补排|再安排)(?:一下)?(?:吧)?$/;
const DONT_RESCHEDULE =
  /[,;]?\s*(?:but\s+|and\s+|so\s+)?(?:please\s+)?(?:don'?t|do not|no need to|never)\s+(?:re-?schedule|re-?place|re-?arrange|move|put back|make up)(?:\s+(?:it|that|them|for it))?(?:\s+again)?|[,，]?\s*(?:但是?|所以)?(?:不要|不用|别|无需|不必)(?:再)?(?:重新|补)(?:安排|排|做)?(?:了)?/;

/**
 * Words around a mark that say when or how surely it happened, not which task: "I (have) already / just finished …",
 * "… already", "… just now", "… today", "… this morning"; "矩阵复习我今天已经做完了". A day that names a task's place
 * ("Tuesday's review") is not among them.
 */
const MARK_ADVERB_BEFORE = /^(i(?:'ve|\s+have)?\s+)(?:already|just|finally|actually|also)\s+/;
const MARK_ADVERB_AFTER =
  /\s+(?:already|just now|now|too|as well|today|earlier today|this (?:morning|afternoon|evening)|yet|early|ahead of time|in advance)$/;
const MARK_WORDS_AFTER_ZH = /(?:我|都)?(?:今天|刚才|刚刚|早上|上午|中午|下午|晚上)?(?:已经|都|也|还)?$/;

/**
 * A sentence without the days it names (calendar days, weekdays, "day 3", "周一（第1天）") and the parts of the day
 * ("in the evening (slots 9-12)", "晚上（第9-12节）"): what is left says what to do with them.
 */
function withoutDayWords(text: string): string {
  return readDates(text.replace(/'s\b/g, ""))
    .rest.replace(
      /\b[a-z]+day\s*\(day \d+\)|(?:周|星期|礼拜)[一二三四五六日天1-7]\s*(?:\(day \d+\)|[（(]第\d+天[)）])?/g,
      " ",
    )
    .replace(/\bdays? \d+\b|第\d+天|\bweekends?\b|周末/g, " ")
    .replace(/\b(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?\b/g, " ")
    .replace(
      /\b(?:in\s+)?(?:the\s+)?(?:mornings?|afternoons?|evenings?|nights?)\b(?:\s*\(slots? \d+-\d+\))?|\bin slots? \d+-\d+\b/g,
      " ",
    )
    .replace(PART_PHRASE_WORDS, " ")
    .replace(/(?:上午|下午|晚上|早上)?[（(]第\d+-\d+节[)）]|上午|下午|晚上|早上/g, " ")
    .replace(/\s+/g, " ")
    .replace(/\s+([,;])/g, "$1")
    .trim();
}

/**
 * "skip all my reviews", "I'm sick, skip everything", "clear", "cancel everything", `Skip every review placed on`,
 * "clear my Friday", "clear out Friday", "free up my Thursday" (the day's words gone): the verb.
 */
const CLEAR_DAY_EN =
  /^(?:(?:i'?m|i am|i feel|i'?m feeling|feeling|i got|i'?ve got|i have)\s+(?:(?:so|really|too|a bit)\s+)?(?:sick|ill|unwell|not well|not feeling well|tired|exhausted|a cold|a fever|the flu)\b[^,;]*[,;]?\s*(?:so\s+)?)?(?:(?:please|just|can you|could you|let's|i want to|i'd like to)\s+)*(skip|clear|cancel|unplace|unschedule|drop|wipe|empty|free up|remove|delete)\s*(?:\bout\b\s*)?((?:all|everything|it all|every (?:review|task|session)s?(?: placed)?|(?:all\s+(?:of\s+)?)?(?:my|the)\s+(?:reviews|tasks|sessions|study sessions|studying|schedule|day|plans?|calendar)|all\s+(?:reviews|tasks|sessions)|reviews|tasks)\s*)?(?:on|for|the|my)?$/;

/**
 * "今天的复习都跳过", "我今天病了，全部跳过", "把明天清空", "取消明天的所有复习", `跳过周一（第1天）的所有复习`: the verb,
 * once the days are gone (`withoutDayWords`) and the punctuation.
 */
const CLEAR_DAY_ZH =
  /^(?:我|我的)?(?:(?:生)?病了|生病|不舒服了?|身体不舒服|身体不好|发烧了|感冒了|太累了|很累|累了|有事|不想(?:复习|学习|学)?了?)?(?:请|帮我|麻烦)?(?:把|将)?我?的?(?:所有|全部|全)?的?(?:复习|任务|安排|日程|计划|东西)?(?:都|全都|全部|全)?(?:给我)?(跳过|清空|清掉|取消|撤下|撤掉|空出来|腾出来|空下来)(?:了|掉)?(?:安排)?的?(?:所有|全部)?的?(?:复习|任务|安排|日程|计划)?(?:吧|了)?$/;

/**
 * A week a clear names ("skip the rest of the week", "skip everything this week", "clear next week", "skip everything
 * until the end of the week", "这周剩下的复习都跳过", "把下周清空"): `this` is what is left of this week. Before, each read
 * as a mark or an unplace of a task named "rest of the week" or "this week" (and the Chinese not at all).
 */
const CLEAR_WEEK =
  /\b(?:for\s+|over\s+)?(?:the\s+)?rest\s+of\s+(?:the|this|my)\s+week\b|\b(?:until|till|til|through|to)\s+the\s+end\s+of\s+(?:the|this|my)\s+week\b|\b(?:for\s+|of\s+)?(?:(?:later\s+)?(this|the current)|(next|the coming))\s+week(?:'s)?\b|(?:(这|本)|(下))(?:个)?(?:周|星期|礼拜)(?:剩下|剩余|接下来|余下)?(?:的)?(?:日子|几天)?(?![一二三四五六日天1-7末])/;

/** A clear's days with the week it names, and its words without it. */
function clearWeek(body: string): { only: DaySelection; said: string } | undefined {
  const match = CLEAR_WEEK.exec(body);
  if (!match) return undefined;
  const next = match[2] !== undefined || match[4] !== undefined;
  const week: DateSpec = next
    ? { kind: "week", weeks: 1, text: match[0].trim() }
    : { kind: "week", weeks: 0, text: match[0].trim(), fromToday: true };
  const said = `${body.slice(0, match.index)} ${body.slice(match.index + match[0].length)}`.replace(/\s+/g, " ").trim();
  return { only: { weekdays: [], days: [], dates: [week] }, said };
}

/** Every review of a day skipped or taken off ("skip all my reviews today", "clear tomorrow", "把明天清空"), or undefined. */
function readClearDay(said: string): ScheduleRequest | undefined {
  const week = clearWeek(said);
  // A week and days besides ("skip everything this week except Friday") is not a clear of either.
  if (week && !isEmptySelection(readDays(week.said))) return undefined;
  const body = week?.said ?? said;
  let only = week?.only ?? readDays(body);
  // ("skip all my reviews on Thursday and Friday": the words that joined the days go with them.)
  const rest = withoutDayWords(body)
    .replace(/,/g, " ")
    .replace(/(?<=\s|^)(?:and|or|&)(?=\s|$)/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s,;.!]+$/, "");
  const matched = CLEAR_DAY_EN.exec(rest);
  const english = matched?.[1];
  const compact = rest.replace(/[\s,.!?;:]/g, "").replace(/[和与、及]/g, "");
  const chinese = english ? undefined : CLEAR_DAY_ZH.exec(compact)?.[1];
  const verb = english ?? chinese;
  if (verb === undefined) return undefined;
  if (isEmptySelection(only)) {
    // No day said: only words for everything ("skip everything", "cancel it all", "全部跳过") read as a whole day.
    const everything = english
      ? /^(?:all|everything|it all)$/.test((matched?.[2] ?? "").trim())
      : /所有|全部|全都|都|全/.test(compact);
    if (!everything) return undefined;
    // Skipping or cancelling everything is about today (what is still ahead of it); "clear everything" may as well
    // mean the whole week, so its day is asked (`where.only` left empty).
    if (/^(?:skip|cancel|跳过|取消)$/.test(verb)) only = readDays("today");
  }
  const where: Where = { only, not: { weekdays: [], days: [] }, slots: readSlots(body) };
  return { kind: "clear_day", how: verb === "skip" || verb === "跳过" ? "skip" : "unplace", where };
}

/** A sentence about a task's life that asks rather than tells: a question mark, 吗 / 么 / 没有 at its end, a count. */
const MARK_QUESTION = /[?？]\s*$|(?:吗|么|没有)\s*$|几个|几项|几门|多少|how many/;

/** A task phrase that names only the kind of session: "my review", "the reviews", "复习". */
const KIND_ONLY = /^(?:(?:my|the)\s+)?(?:reviews?|review sessions?|study sessions?|sessions?)$|^(?:复习|复习任务)$/;

/** A task's life in words ("I did the matrix review", "我周二的复习没做"), or undefined. */
function readMark(body: string): ScheduleRequest | undefined {
  // A question is never a mark: "我周二的复习没做吗？", "有几个复习没完成？" ask, and a wrong write costs a card.
  if (MARK_QUESTION.test(body)) return undefined;
  const said = trimEdges(body, /[.!。！]/, "end")
    .trim()
    .replace(RESCHEDULE_TOO, "");
  const kept = said.replace(new RegExp(DONT_RESCHEDULE.source, "g"), "").trim();
  const keep = kept !== said ? { reschedule: false as const } : {};
  const text = kept
    // "can you mark the essay done", "please skip the vocab list": the asking is no part of the mark.
    .replace(/^(?:(?:can|could|would|will) you\s+(?:please\s+)?|please\s+)+(?=mark\b|ski+p)/, "")
    .replace(MARK_ADVERB_BEFORE, "$1")
    .replace(/^i've\s+/, "i have ")
    // "I'm done with X", "im finished with X", "I am done X": "done with X".
    .replace(/^(?:i'?m|i am)\s+(?:(?:already|just|finally|all)\s+)?(?:done|finished)\s+(?:with\s+)?/, "done with ")
    // "我还没做X": "我没做X"; "我昨天没做复习": "我没做昨天的复习" (the day names the review missed).
    .replace(/^(我)?(?:还)(没|忘了|漏了)/, "$1$2")
    .replace(
      /^(我)?(昨天|昨晚|今天|今晚|今早)(?:还)?(没做|没有做|没完成|没有完成|忘了做|漏了)(?:了)?(复习(?:任务)?)$/,
      "$1$3$2的$4",
    )
    .replace(/^(我)?(?:昨天|昨晚|今天|今晚|今早)(?:还)?(没做|没有做|没完成|没有完成|忘了做|漏了)/, "$1$2")
    // "我今天做完了矩阵复习", "我刚做完矩阵复习", "我提前完成了单词表": when it was done, not which — "我做完了…".
    .replace(
      /^(我)?(?:今天|昨天|昨晚|今晚|今早|刚才|刚刚|刚|早上|上午|中午|下午|晚上|提前)(?:已经|也)?(做完|完成|做好|搞定|写完|复习完)(?!了)/,
      "$1$2了",
    )
    .replace(
      /^(我)?(?:今天|昨天|昨晚|今晚|今早|刚才|刚刚|刚|早上|上午|中午|下午|晚上|提前)(?:已经|也)?(做完|完成|做好|搞定|写完|复习完)了/,
      "$1$2了",
    );
  // "I'm done", "finished!", "做完了": no task named — "it", the review the run's clock makes current (the offline
  // policy's execute stage finds it, or asks which).
  if (DONE_ALONE.test(text)) return { kind: "mark", task: "it", to: "done", ...keep };
  for (const [pattern, to] of MARK_PHRASES) {
    const match = pattern.exec(text);
    if (!match) continue;
    // "我错过了哪些复习", "列出已完成的复习": a question about a status names no task (QUESTION_START reads English).
    if (ASKING_PHRASE.test(match[1] ?? "")) return undefined;
    // "skip all my reviews except Friday's": what is left out is no task to mark (it read as skipping Friday's).
    if (/\b(?:except|excluding|but not|other than|apart from|besides)\b|除了|以外|之外/.test(match[1] ?? ""))
      return undefined;
    const named = (match[1] ?? "").replace(MARK_ADVERB_AFTER, "").replace(MARK_WORDS_AFTER_ZH, "");
    // A review missed yesterday, named by its kind alone, is yesterday's ("I didn't do my review yesterday", "我昨天没做
    // 复习"); a named one keeps its name, and one done yesterday may be any.
    const plain = splitRelativeDay(named);
    const { daysAgo, rest } =
      to === "missed" && plain.daysAgo === undefined && KIND_ONLY.test(plain.rest)
        ? splitRelativeDay(named, true)
        : plain;
    const { weekday, rest: task } = splitWeekday(rest);
    if (task)
      return {
        kind: "mark",
        task,
        to,
        ...(weekday !== undefined ? { weekday } : daysAgo !== undefined ? { daysAgo } : {}),
        ...keep,
      };
  }
  return undefined;
}

/**
 * A day said from today: "yesterday's", "today's", "this morning's", "昨天的", "今晚的" name a review by its day (group 1
 * or 3 holds it), "yesterday", "today", "昨天" after or before a task's name say when, not which (group 2 or 4: yesterday).
 */
const RELATIVE_DAY =
  /\b(?:(?:(yesterday)|today|tonight|this (?:morning|afternoon|evening))'s|(?:(yesterday)|today|tonight|this (?:morning|afternoon|evening)))\b|(?:(昨天|昨晚|昨日)|今天|今晚|今早|今日)(的)?/;

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

/** A day said from today that names a task by its day: "tomorrow's", "today's", "yesterday's", "明天的", "昨天的". */
const DAY_FROM_TODAY_NAMING =
  /\b(yesterday|today|tonight|tomorrow|this\s+(?:morning|afternoon|evening))'s\b|(昨天|昨晚|今天|今晚|今早|明天|明晚|明早)的/;

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

/** A mark's task phrase that asks instead of naming: "哪些复习", "什么", "列出". */
const ASKING_PHRASE = /哪些|哪个|哪几|什么|多少|^(?:列出|列一下|看看|查看|显示)/;

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

/**
 * A timetable event named as one: "remove the event physics lab", "delete the timetable event "Weekly seminar"", the
 * plan's own step (`remove the event "friday tutorial"`, `删除课表活动 "周五的辅导课"`), or undefined.
 */
function readRemoveEvent(body: string): ScheduleRequest | undefined {
  const match =
    /\b(?:remove|delete|cancel|drop)\s+(?:the\s+|my\s+)?(?:timetable\s+|calendar\s+)?event\s+(.+?)(?:\s+(?:from|off)\s+(?:the\s+|my\s+)?(?:timetable|calendar|schedule|week))?$/.exec(
      body,
    ) ?? /(?:删除|删掉|移除|去掉)(?:课表|日程)(?:上的)?活动\s*(.+)$/.exec(body);
  const event = taskPhrase(match?.[1] ?? "");
  return event ? { kind: "remove_event", event } : undefined;
}

function readUnplace(body: string): ScheduleRequest | undefined {
  const english =
    /\b(?:unplace|unschedule|remove|take|cancel|clear|drop|delete)\s+(.+?)(?:\s+(?:off|out|from)(?:\s+(?:of\s+)?(?:the|my)?\s*(?:schedule|calendar|timetable|week|plan))?)?$/.exec(
      body,
    );
  if (english) {
    const task = taskPhrase((english[1] ?? "").replace(/\s+(?:off|out)$/, ""));
    return task ? { kind: "unplace", task } : undefined;
  }
  // ("把作文取消安排，我以后再做": the task is what 把 names, not the words after the verb.)
  const chinese =
    /(?:把|将)(.+?)(?:撤下|撤掉|移除|删掉|删除|拿掉|去掉|取消)/.exec(body) ??
    /(?:取消安排|取消|撤下|撤掉|移除|删掉|删除|拿掉|去掉)(.+)$/.exec(body);
  if (!chinese) return undefined;
  const task = taskPhrase(chinese[1] ?? "");
  return task ? { kind: "unplace", task } : undefined;
}

function readFree(body: string): ScheduleRequest | undefined {
  // "place X into a free slot" is an arrange request, not a question about free time.
  // So is "把复习安排到下周的空闲时间": a placing verb before the free time makes it the target, not the question.
  const text = body
    .replace(/\b(?:into|in|to|onto)\s+(?:a\s+|the\s+|another\s+)?free\s+(?:slots?|runs?|time)\b/g, " ")
    .replace(/(?:安排|排|放|塞|填)(?:到|进|入|在)[^,.?!]*?(?:有空|空闲|空余|空档|空着)[^,.?!]*/g, " ");
  // "when can I fit the essay in?", "where could I squeeze 2 hours on Wednesday?", "do I have time for it tomorrow?":
  // the free time is what is asked (a question is never a placing: the placing verb asks where one would go).
  const english =
    /\bfree\b|\bavailab|\bspare time\b|\bopen slots?\b|\bgaps?\b|^(?:when|where) (?:can|could|should|do) i (?:fit|squeeze|slot|put|schedule|do|study)\b|^(?:do|will) i have (?:any |enough )?time\b/.test(
      text,
    );
  const chinese = /有空|空闲|空余|空档|有时间|闲着|空着/.test(text);
  if (!english && !chinese) return undefined;
  // A length ("2节", "两个小时"), never a slot range the plan names ("（第5-8节）").
  const length = new RegExp(
    String.raw`${NUMBER}\s*(?:free\s+|consecutive\s+)?(?:slots|sections|periods|hours)|(?<![第\d一二两三四五六七八九十-])${NUMBER}\s*(?:节|个小时|小时)`,
  ).exec(body);
  const minLength = length ? readNumber(length[1] ?? length[2] ?? "1") : 1;
  return {
    kind: "free",
    where: withWeekNamed(readWhere(body), body),
    minLength: Number.isFinite(minLength) && minLength > 0 ? minLength : 1,
  };
}

/** "this week", "next week", "the week after next", "这周", "本周", "下周", "下下周" (not "这周六": a weekday). */
const WEEK_NAMED =
  /\b(?:(this|the current)\s+week|(next|the coming|the following)\s+week|(the week after next))\b|(这|本|下下|下)个?(?:周|星期|礼拜)(?![一二三四五六日天1-7末])/;

/** The week a question names ("what's on next week?"), `weeks` after this one, or undefined. */
export function readWeekNamed(fragment: string): DateSpec | undefined {
  const match = WEEK_NAMED.exec(fragment);
  if (!match) return undefined;
  const zh = match[4];
  const weeks = match[3] ? 2 : match[2] ? 1 : zh === "下下" ? 2 : zh === "下" ? 1 : 0;
  return { kind: "week", weeks, text: match[0] };
}

/** A question's where with the week it names, when it names no day ("when am I free next week?"). */
function withWeekNamed(where: Where, body: string): Where {
  const week = isEmptySelection(where.only) ? readWeekNamed(body) : undefined;
  return week ? { ...where, only: { ...where.only, dates: [week] } } : where;
}

/** A question of what is on that names no day: today's. */
const ON_TODAY =
  /^(?:so\s+|and\s+|ok\s+|hey\s+)?(?:what(?:'s| is) on|what(?:'s| is) (?:on )?(?:my |the )?(?:agenda|schedule|plan)(?: like)?|what (?:do i have|have i got)(?: on)?)(?: (?:for me|now|then))?\s*[?!.]*$|^(?:我)?(?:有什么|有哪些|有啥)(?:安排|课|事)[?？]?$/;

/**
 * A look at the whole week that names no day ("show my week", "show me the schedule", "what does my week look like",
 * "看看我的日程"): every day of the schedule. Before, "show me the schedule" read as an arrangement (its "schedule" a
 * verb) and raised a plan card, and the rest were not understood. "plan" is not among the nouns: "show the plan" may
 * ask for the plan a card shows.
 */
const WHOLE_WEEK =
  /^(?:(?:please|can you|could you|can i|could i|may i|let me|i want to|i'd like to)\s+)*(?:show|display|view|see|look at|check|draw|print|open)\s+(?:me\s+)?(?:(?:my|the|our)\s+)?(?:(?:whole|full|current|weekly)\s+)?(?:week(?:ly)?(?:'s)?\s*)?(?:week|schedule|timetable|calendar|agenda|grid)\s*[?!.]*$|^(?:what|how)(?:'s| is| does) (?:my |the )?(?:week|schedule|timetable)(?: look)?(?: like)?\s*[?!.]*$|^(?:我想|帮我|请)?(?:看看|看一下|看下|查看|显示|打开)(?:一下)?(?:我的|我)?(?:日程|课表|安排|周表|这周|本周)(?:表)?[?？。]?$|^(?:我的)?(?:日程|课表)(?:表)?(?:是什么样|怎么样|长什么样)?[?？。]?$/;

/**
 * A look at named days and nothing else: a look verb ("show tmrw", "let me see friday", "can I check Thursday"), the
 * schedule as a noun ("schedule for friday?", "tomorrows schedule", "my timetable on Monday"), "明天的安排",
 * "这周的安排给我看看", "看看周五的课表" (group "rest": the words after the look verb). "安排" after "的" is the
 * noun, no verb: these raised a plan card arranging the days named.
 */
const LOOK_AT =
  /^(?:(?:please|can you|could you|can i|could i|may i|let me|i want to|i'd like to)\s+)*(?:show|display|view|see|look at|check|open)\s+(?:me\s+)?(?<rest>.+)$/;
/** Words of a look that name no task: the schedule's nouns, determiners, "what's on". */
const LOOK_WORDS =
  /\b(?:my|the|our|what'?s|what is|whats|on|for|of|schedule|timetable|calendar|agenda|day|days|like|looks?|please)\b|'s\b|我想|我要|帮我|给我|请|我的|我|看看|看一下|看下|查看|查一下|瞧瞧|显示|一下|的?(?:安排|日程|课表)|[?？!。,]/g;
/**
 * A noun of the schedule, said with no look verb ("schedule for friday", "tomorrow's schedule", "明天的安排"). A bare
 * "schedule for friday" may be either; read as a look, a wrong reading costs a rephrasing, where a plan costs a card.
 */
const SCHEDULE_NOUN =
  /^(?:my |the )?(?:schedule|timetable|calendar|agenda) (?:for|on) |(?:'s|s) (?:schedule|timetable|calendar|agenda)$|的(?:安排|日程|课表)/;

function readLook(body: string): ScheduleRequest | undefined {
  const look = LOOK_AT.exec(body);
  const said = look?.groups?.rest ?? body;
  if (!look && !SCHEDULE_NOUN.test(body)) return undefined;
  // "给我看看周五安排作文": "安排" but after "的" is the verb of a request of its own.
  if (/(?<!的)安排/.test(said)) return undefined;
  const where = withWeekNamed(readWhere(said), said);
  const left = readTaskWords(said.replace(WEEK_NAMED, " ").replace(LOOK_WORDS, " "));
  if (isEmptySelection(where.only) || left.replace(/[\s,.?!]/g, "") !== "") return undefined;
  return { kind: "day", where };
}

function readDayContents(body: string): ScheduleRequest | undefined {
  // Every weekday: the schedule's days, whichever week the clock is in (the week a person looks at is the one shown).
  if (WHOLE_WEEK.test(body))
    return { kind: "day", where: { ...readWhere(""), only: { weekdays: [1, 2, 3, 4, 5, 6, 7], days: [] } } };
  const english =
    /\bwhat(?:'s| is| do i have| have i got)\b.*\b(?:on|planned|scheduled|happening)\b|\bwhat (?:do i have|have i got)\b|\bshow (?:me )?(?:my |the )?(?:this|next) week\b|\b(?:is there|do i have|have i got) anything\b|\bshow\b.*\b(?:what is on|day \d+|[a-z]+day)\b|\bschedule (?:for|on)\b|\bagenda\b|\btimetable (?:for|on)\b/.test(
      body,
    );
  const chinese = /(?:有什么|有哪些|有啥)(?:安排|课|事|任务)|安排了(?:什么|啥)|课表|日程/.test(body);
  if (!english && !chinese) return undefined;
  // "what do I have tomorrow?" asks what is on the day; `readWhere` reads "I have … tomorrow" as a day that is busy.
  // A week named ("what's on next week?", "这周有什么安排") is its days.
  const where = withWeekNamed(readWhere(body.replace(/\bwhat (?:do i have|have i got)\b/, "what is on")), body);
  // "what's on?", "what do I have?", "有什么安排" with no day: today (it asked which task "on" was).
  if (isEmptySelection(where.only) && ON_TODAY.test(body))
    return {
      kind: "day",
      where: { ...where, only: { ...where.only, dates: [{ kind: "offset", days: 0, text: "today" }] } },
    };
  if (isEmptySelection(where.only)) return undefined;
  return { kind: "day", where };
}

function readList(quotedBody: string): ScheduleRequest | undefined {
  // Names in quotes are names ("vocabulary list"), not the words of the question.
  const body = quotedBody.replace(/"[^"]*"/g, " ");
  const pending =
    /\b(?:pending|unplaced|unscheduled|not (?:yet )?(?:placed|scheduled|arranged)|left to (?:place|schedule|arrange|do)|still to (?:place|schedule)|still (?:need|have) to (?:place|schedule|arrange|plan|fit)|need(?:s)? to be (?:placed|scheduled|arranged)|remaining|what(?:'s| is) left)\b|待安排|未安排|没安排|没有安排|还没排|剩下|剩余|还剩/.test(
      body,
    );
  const placed =
    /\b(?:placed|already scheduled|already arranged|scheduled (?:tasks|reviews)|arranged (?:tasks|reviews))\b|已安排|已经安排|排好|安排好/.test(
      body,
    );
  // A review's life after its place (`TaskStatus`): "which reviews did I miss?", "what have I done?", "跳过了哪些".
  const settled: Array<["missed" | "done" | "skipped", RegExp]> = [
    ["missed", /\b(?:missed|did i miss|have i missed)\b|错过/],
    [
      "done",
      /(?<!\bnot )\b(?:done|did i (?:do|finish|complete)|have i done|finished|completed)\b|(?<!没有?)(?:完成|做完)(?:了)?的|已完成|完成了哪些|做完了哪些/,
    ],
    ["skipped", /\b(?:skipped|did i skip|have i skipped)\b|跳过/],
  ];
  // Still to do, whatever the place: not done yet, or left ("how many reviews are left?", "还有几个复习没做").
  const open =
    /\b(?:(?:haven't|have not|hasn't|has not|didn't|did not)(?: i)?(?: yet)? (?:done|do|finished|finish|completed|complete)|not (?:yet )?(?:done|finished|completed)|still (?:have|need|got) to do|still to do|(?:are|is) (?:still )?left\b(?! to (?:place|schedule|arrange|plan|fit)\b))|(?:还|仍)?没(?:有)?(?:做|完成|复习)|未完成/.test(
      body,
    );
  const asks =
    /\b(?:list|show|which|what|tell me|see|view|how many)\b|列出|列一下|哪些|什么|看看|查看|显示|几个|多少/.test(body);
  const all = /\b(?:list|show)\b.*\b(?:all|every|my)\b.*\b(?:tasks|reviews|items)\b|所有(?:的)?(?:任务|复习)/.test(
    body,
  );
  if (!asks) return undefined;
  if (open) return { kind: "list", status: "open" };
  if (pending) return { kind: "list", status: "pending" };
  for (const [status, words] of settled) if (words.test(body)) return { kind: "list", status };
  if (placed) return { kind: "list", status: "placed" };
  return all ? { kind: "list", status: "all" } : undefined;
}

/**
 * "Why is the matrix review there?", "why is the matrix review on Tuesday?", "为什么矩阵复习放在那里": a question about
 * a task's place, answered as an explain (where it is, in which class, inside which event).
 */
const WHY_THERE =
  /^why (?:is|was|are|were|did you (?:put|place|schedule)|have you (?:put|placed|scheduled)) (?:my |the )?(.+?)(?: (?:placed|scheduled|put|arranged))? (?:there|then|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|at [0-9:.]+(?: ?[ap]m)?|in the (?:morning|afternoon|evening))\??$|^为什么(?:把|要把)?(.+?)(?:放|排|安排)?在(?:那里|那儿|那|这里|这儿|周[一二三四五六日天]|星期[一二三四五六日天]|(?:早上|上午|下午|晚上))/;

/** Words that name no task to explain. */
const PRONOUN_TASK = /^(?:you|this|that|it|they|them|tempo|这个|那个|它)$/;

/**
 * A question of where or when a task is, or how it stands: "where's the essay?", "when is my matrix review?", "where
 * did you put the vocab list", "what time is the essay", "is the essay on Friday?", "作文在哪天", "矩阵复习什么时候",
 * "作文安排在哪". Answered as an explain (its class, its place, its status): they were "I can't tell", and "where did
 * you put X" a plan placing X.
 */
const WHERE_IS =
  /^(?:where|when)(?:'s|s| is| are| was| were| do i (?:have|do))\s+(.+?)(?:\s+(?:placed|scheduled|put|arranged|planned|happening|now|again))?$|^(?:where|when) (?:did|have) you (?:put|place|schedule|move|arrange)d?\s+(.+?)(?:\s+(?:to|on|at))?$|^what time (?:is|are|was|do i have|do i do)\s+(.+)$|^is (?:my |the )(.+?)\s+(?:on|at|in|done|finished|placed|scheduled)\b.*$|^(?!.*(?:有空|空闲|有时间))(.{2,20}?)(?:被)?(?:安排|排|放)?(?:是|在)?(?:哪天|哪一天|哪里|哪儿|哪|什么时候|几点)(?:了|呢|啊|吗)?$/;

/** A question whether a task was done, missed or skipped (group 1, 2 or 3: the task). */
const DID_I =
  /^(?:did|have) i (?:already |ever |actually )?(?:do|done|finish(?:ed)?|complete(?:d)?|miss(?:ed)?|skip(?:ped)?)\s+(.+?)(?:\s+(?:yet|already|today|this week))?\s*\??$|^(?:我)?(?:已经)?(?:做完|完成|做|错过|跳过)了?(.+?)了?(?:吗|没有)[?？]?$|^(.+?)我?(?:已经)?(?:做完|完成|做|错过|跳过)了?(?:吗|没有)[?？]?$/;

/** The task a where-or-when question names (`WHERE_IS`), or undefined when it names none (a day, "it"). */
function readWhereIs(body: string): ScheduleRequest | undefined {
  const match = WHERE_IS.exec(body);
  if (!match) return undefined;
  const said = match.slice(1).find((group) => group !== undefined) ?? "";
  const task = taskPhrase(said.replace(/(?:的复习|的任务)$/, "").replace(/^(?:我的|我)/, ""));
  if (!task || PRONOUN_TASK.test(task) || readTaskWords(task).trim() === "" || namesEverything(task)) return undefined;
  return { kind: "explain", task };
}

function readExplain(body: string): ScheduleRequest | undefined {
  const why = WHY_THERE.exec(body);
  const whyTask = why ? taskPhrase(why[1] ?? why[2] ?? "") : undefined;
  if (whyTask && !PRONOUN_TASK.test(whyTask)) return { kind: "explain", task: whyTask };
  const whereIs = readWhereIs(body);
  if (whereIs) return whereIs;
  // "Did I finish the matrix review?", "矩阵复习我做了吗": how the task stands, which its explanation says.
  const asked = DID_I.exec(body);
  const askedTask = asked ? taskPhrase(asked.slice(1).find((group) => group !== undefined) ?? "") : undefined;
  if (
    askedTask &&
    !/没|不/.test(askedTask) &&
    !PRONOUN_TASK.test(askedTask) &&
    !namesEverything(askedTask) &&
    readTaskWords(askedTask).trim()
  )
    return { kind: "explain", task: askedTask };
  const english =
    /\b(?:explain|describe|tell me (?:more )?about|details? (?:of|for|about|on)|info(?:rmation)? (?:on|about|for)|what is|what's)\s+(.+)$/.exec(
      body,
    );
  const chinese = /(?:解释|介绍|说明|讲讲|说说)(?:一下)?(.+)$/.exec(body) ?? /^(.+?)是什么/.exec(body);
  const match = english ?? chinese;
  if (!match) return undefined;
  const task = taskPhrase(match[1] ?? "");
  if (!task || PRONOUN_TASK.test(task)) return undefined;
  return { kind: "explain", task };
}

/** An arranging verb, English or Chinese. */
const ARRANGE_VERB =
  /\b(?:arrange|schedule|plan|place|organi[sz]e|fit|put|slot|book|sort out|lay out)\b|安排|排一下|排进|规划|放进|放入|放到|排课|排程|填到|填进|塞进|塞到/;

/**
 * "do the essay on Friday", "let's do the essay friday morning", "I'd rather do the essay on Friday", "I'll do the
 * matrix review tomorrow": a task and where it is to be done — an arrangement (of a task placed already, a move:
 * `offline/schedule/grounding.ts`). "Do X" naming no day or time says nothing of where, and is not read. Before, each
 * was not understood.
 */
function readDoOn(body: string): ScheduleRequest | undefined {
  const read = readArrange(body.replace(/\bdo\b/, "schedule"));
  return read?.kind === "arrange" && read.tasks.length > 0 && !isAnywhere(read.where) ? read : undefined;
}

/** A fragment that is only words of when ("明天上午", "周五下午三点以后", "tomorrow at 10am"), none of a task. */
function onlyWhen(fragment: string): boolean {
  // (The clock's words too: "tomorrow after 10am"; "over lunch" is read whole, before the clock is.)
  const named = (text: string) => readTaskWords(text).trim() !== "";
  return (
    fragment.trim() !== "" &&
    !(named(fragment) && named(withoutClockWords(fragment))) &&
    !isAnywhere(readWhere(fragment))
  );
}

/**
 * "明天上午做作文", "矩阵复习明天做", "我想周五晚上写作文吧": a task and when it is to be done with a verb of doing — read
 * as "把作文安排到明天上午", as "do the essay on Friday" is (`readDoOn`). Having done it ("做完", "做了") is no such
 * verb; a question ("周五做什么") names no task. Before, each was not understood.
 */
function readDoOnZh(body: string): ScheduleRequest | undefined {
  const text = body.replace(/[。！!]+$/, "").replace(/(?:吧|好了|就好)$/, "");
  const verb = /(?:再|去)?(?:做|写|学|弄|搞)(?![完了过好])/.exec(text);
  if (!verb) return undefined;
  // ("今天晚上我要写作文": who wants it, said after the words of when, is neither.)
  const before = text
    .slice(0, verb.index)
    .replace(/^(?:我们?|咱们)?(?:想|要|打算|准备|就|会|还是)*/, "")
    .replace(/(?:(?:我们?|咱们)?(?:想|要|打算|准备|就|会|还是|得|需要)+|我们?|咱们)$/, "");
  const after = text.slice(verb.index + verb[0].length).trim();
  // The task after the verb, every word before it of when; or before the verb, the words of when its tail.
  const split: [string, string] | undefined =
    after !== ""
      ? onlyWhen(before)
        ? [after, before]
        : undefined
      : splitAtWhen(
          before,
          Array.from(before, (_, at) => at).filter((at) => at > 0),
        );
  if (!split || /什么|啥|哪|吗|几|[?？]/.test(split[0])) return undefined;
  const read = readArrange(`把${split[0]}安排到${split[1]}`);
  return read?.kind === "arrange" && read.tasks.length > 0 && !isAnywhere(read.where) ? read : undefined;
}

function readArrange(body: string): ScheduleRequest | undefined {
  const back = readPutBack(body);
  if (back) return back;
  const match = ARRANGE_VERB.exec(body);
  if (!match) return undefined;
  // Chinese puts the object first: 把 X 安排到 周五 ("把 X 重新安排到周五": "重新" is no part of the name).
  const object = /(?:把|将)(.+?)(?:重新)?(?:安排|排|放|填|塞)(?:到|在|进|入)?/.exec(body);
  return arrangeOf(body, object ? (object[1] ?? "") : body.slice(match.index + match[0].length));
}

/** A move back to where a task was: the task (group 1). */
const MOVE_BACK =
  /^(?:(?:can you|could you|would you|please|just|now)\s+)*(?:move|bring|shift)\s+(.+?)\s+back\s+(?:to\s+)?(?:where it was(?: before)?|(?:its|the) (?:old|original|previous|former|earlier|usual) (?:place|slot|time|spot))$/;

/** "… back in my schedule", "… back on the calendar": where the task goes back to, no part of its name or days. */
const BACK_INTO_SCHEDULE =
  /\s+(?:in|into|on|onto)\s+(?:the\s+|my\s+)?(?:schedule|calendar|week|timetable|plan)\b|\s+where it was\b/g;

/**
 * "put back the matrix review", "put the matrix review back (on Thursday)", "把矩阵复习放回去", "把矩阵复习重新安排上":
 * the named tasks placed again (`putBack`), or undefined. "put it back" is an undo and "put back the reviews I missed"
 * a reschedule, read before this.
 */
function readPutBack(body: string): ScheduleRequest | undefined {
  const english =
    /^(?:(?:can you|could you|would you|please|just|now)\s+)*put\s+(?:back\s+(.+)|(.+?)\s+back\b(.*))$/.exec(body);
  if (english) {
    const object = (english[1] ?? english[2] ?? "").replace(BACK_INTO_SCHEDULE, " ");
    const rest = (english[3] ?? "").replace(BACK_INTO_SCHEDULE, " ");
    const request = arrangeOf(`place ${object} ${rest}`.replace(/\s+/g, " ").trim(), object);
    return request.kind === "arrange" && request.tasks.length > 0 ? { ...request, putBack: true } : undefined;
  }
  const chinese =
    /^(?:请|帮我)?(?:把|将)(.+?)(?:重新)?(?:放回|排回|安排回|加回|挪回|移回|调回|改回)(?:去|来)?(?:到)?(?:日程|课表|原处|原位|原来的位置|原来的地方|原来的时间)?(?:里|上)?(?:吧)?$/.exec(
      body,
    ) ?? /^(?:请|帮我)?(?:把|将)(.+?)重新(?:安排|排|放)(?:上|进去|回去)?(?:吧)?$/.exec(body);
  const task = taskPhrase(chinese?.[1] ?? "");
  if (!task) return undefined;
  return { kind: "arrange", tasks: [task], where: readWhere(""), putBack: true };
}

/**
 * Tasks left out of an arrangement: "except the essay", "everything but the essay and the vocabulary list", "my
 * reviews but not the essay", "other than X", "apart from X", `except "X"` (a step's text), "除了X（以外），其他都…". Days left out ("except Monday")
 * are days, read by `readWhere`.
 */
const EXCEPT_TASKS =
  /\b(?:except(?: for)?|excluding|other than|apart from|aside from|besides|save for|without|but not)\s+(.+?)(?=$|[,;]|\s+(?:on|in|at|during|before|and (?:not|never|keep|avoid)|but)\b)|\b(?:everything|all(?: of)?(?: my| the)?(?: [a-z]+)?|anything)\s+but\s+(.+?)(?=$|[,;]|\s+(?:on|in|at|during|before)\b)|(?:除了|除去|不包括|不算)(.+?)(?:以外|之外)?(?=[,，]|其他|其余|别的|都|全部|$)/g;

/** An arrange request for `object` (the words after the verb) in `body`: the tasks it names, those it leaves out, where. */
function arrangeOf(body: string, object: string): ScheduleRequest {
  const where = readWhere(body);
  const except: string[] = [];
  const withoutExcept = (text: string) =>
    text
      .replace(NEGATED_DAYS, " ")
      .replace(NEGATED_PART, " ")
      .replace(EXCEPT_TASKS, (whole, english?: string, but?: string, chinese?: string) => {
        const phrase = (english ?? but ?? chinese ?? "").replace(/^not\s+/, "");
        // "except on Monday", "except mornings": a limit on where, not a task.
        if (readTaskWords(phrase).replace(/[\s,]+/g, "") === "") return whole;
        except.push(...splitPhrases(phrase));
        return " ";
      });
  const inBody = withoutExcept(body);
  const quoted = [...inBody.matchAll(/"([^"]+)"/g)].map((found) => (found[1] ?? "").trim()).filter(Boolean);
  const tasks = quoted.length > 0 ? quoted : namedTasks(withoutExcept(object));
  return { kind: "arrange", tasks, where, ...(except.length > 0 ? { except: [...new Set(except)] } : {}) };
}

/**
 * The one task an arrange request puts at a clock time ("schedule the binary tree review on Sunday at 14:00",
 * "周日14点安排二叉树复习"): it goes to the slot that starts then, as a move to that time does, or is told why not —
 * never to another hour of the day. Undefined for any other request, and for several tasks (one time is one slot).
 */
export function timedPlacement(request: ScheduleRequest): string | undefined {
  if (request.kind !== "arrange" || request.tasks.length !== 1) return undefined;
  // (At a clock time, or next to another task or event: one exact place, placed as a move puts it.)
  if (request.where.slots.at === undefined && !request.where.next) return undefined;
  return request.tasks[0];
}

/** Task phrases of a list ("the essay and the vocabulary list", "单词表和作文"). */
function splitPhrases(text: string): string[] {
  const quoted = [...text.matchAll(/"([^"]+)"/g)].map((found) => (found[1] ?? "").trim()).filter(Boolean);
  if (quoted.length > 0) return quoted;
  return text
    .split(/\s*(?:,|\band\b|\bor\b|&|和|、|及|以及|或)\s*/)
    .map(taskPhrase)
    .filter((phrase) => phrase !== "");
}

/** Task phrases named after an arrange verb; empty when it means every pending task. */
function namedTasks(rest: string): string[] {
  const stripped = withoutConstraints(
    readDates(
      withoutClockWords(
        rest
          .replace(KEEP_FREE, " ")
          .replace(new RegExp(SOONEST.source, "g"), " ")
          // ("early tomorrow": read while its day is still there.)
          .replace(PART_PHRASE_WORDS, " "),
      ),
    ).rest,
  )
    .replace(new RegExp(BEFORE_EVENT.source, "g"), " ")
    .replace(NEGATED_DAYS, " ")
    .replace(/\bbut\b/g, " ")
    .replace(
      /\b(?:on|for|in|into|at|during|over|to|across)\s+(?:the\s+|an?\s+|any\s+)?(?:[a-z]+days?(?:\s+nights?)?\s*(?:\(day \d+\))?|weekends?|day \d+|mornings?|afternoons?|evenings?|nights?|slots? \d+(?:-\d+)?|(?:next|this|the) week|free slots?(?: that fits? (?:it|them))?|a free slot(?: that fits? (?:it|them))?)/g,
      " ",
    )
    // ("sometime this weekend": the "this" of a day is no part of the name either.)
    .replace(/\b(?:this|next|coming)\s+(?=(?:[a-z]+days?|weekends?|mornings?|afternoons?|evenings?)\b)/g, " ")
    .replace(/\b(?:[a-z]+days?|weekends?|mornings?|afternoons?|evenings?)\b/g, " ")
    .replace(PART_PHRASE_WORDS, " ")
    // "arrange the linked list exercises next week": the week is no part of the name (an arrangement's week is the
    // schedule's window: `DateSpec`).
    .replace(/\b(?:(?:this|next|the coming|the following)\s+week|the week after next)(?:'s)?\b/g, " ")
    // "put the matrix review on fri": a weekday's short name after its preposition ("sat" alone may be an exam's).
    .replace(/\b(?:on|for|by|this|next)\s+(?:mon|tues?|wed|thu|thurs?|fri|sat|sun)\b/g, " ")
    .replace(
      /(?:周|星期|礼拜)[一二三四五六日天1-7]|周末|工作日|上午|下午|晚上|早上|第\d+天|下周|这周|本周|下星期|这星期/g,
      " ",
    )
    .replace(/\(day \d+\)|\(slots? \d+(?:-\d+)?\)/g, " ")
    .replace(/[()[\]]/g, " ");
  const generic =
    /^(?:(?:only|just|help me|can you|could you|please|for me|me|my|the|all|every|each|of|remaining|rest|too|also|as well|left|pending|review|reviews|review tasks?|tasks?|sessions?|study|studies|items?|week(?:'s)?|next|this|today|now|them|it|everything|anything|all of them|what is left|what's left|whatever is left|that's left|that is left|what's|whatever|still|in|into|a|free|slots?|that|fits?|on|schedule|us|帮我|请|一下|把|所有|全部|的|复习|任务|时间|我|吧|给我|都|一周|待|每个|剩下|剩余|了|好|上|能容纳它们?的时段)\s*)*$/;
  const phrases = stripped
    .split(/\s*(?:,|\band\b|&|和|、|及|以及)\s*/)
    // A day's preposition left behind once its day is read ("the essay for the day after tomorrow").
    .map((phrase) =>
      phrase
        .trim()
        .replace(/\s+(?:on|for|in|at|by|during|over|to|before|after|until|till)$/, "")
        // "安排下周的链表习题": the 的 the week left behind.
        .replace(/^的\s*/, ""),
    )
    .filter((phrase) => phrase !== "" && !generic.test(phrase))
    .map(taskPhrase)
    .filter(Boolean);
  return phrases;
}

/** True when a fragment only limits where things go ("not Friday", "only mornings", "Friday is my day off", "不要周五"). */
function isConstraint(fragment: string): boolean {
  const namesWhen = !isAnywhere(readWhere(fragment)) || readPartOfDay(fragment) !== undefined;
  return (
    namesWhen && (NEGATIVE_CLAUSE.test(fragment.replace(NOT_NEGATIVE, " ")) || readTaskWords(fragment).trim() === "")
  );
}

/** What is left of a fragment once its day and time words are gone (to tell a constraint from a task's name). */
function readTaskWords(fragment: string): string {
  return (
    readDates(fragment)
      .rest.replace(NEGATED_DAYS, " ")
      // ("later in the week", "this weekend", "the end of the week": a stretch of the week names no task.)
      .replace(WEEK_STRETCH_WORDS, " ")
      .replace(LUNCH_AFTER_TASK, " ")
      // ("first thing tomorrow": the morning, no task.)
      .replace(/\bfirst thing\b(?=\s+(?:tomorrow|today|in the morning|(?:on\s+)?[a-z]+day)\b|\s*$)/g, " ")
      .replace(/\b(?:this|next)\b(?=\s+(?:[a-z]+day|weekends?|mornings?|afternoons?|evenings?)\b)/g, " ")
      // ("Thursday and Friday morning": the words joining days name no task.)
      .replace(/,|\b(?:and|or)\b(?=\s+(?:this\s+)?(?:[a-z]+day|weekends?|today|tonight|tomorrow)\b)/g, " ")
      .replace(
        /\b(?:[a-z]+day|weekends?|mornings?|afternoons?|evenings?|nights?|day \d+|slots? \d+(?:-\d+)?|only|just|not|on|in|the|at|no)\b|\(day \d+\)/g,
        " ",
      )
      .replace(/(?:周|星期|礼拜)[一二三四五六日天1-7]|周末|上午|下午|晚上|早上|第\d+天|第一件事就?|只|不要|别/g, " ")
      // ("to Friday, same time": the time it has now is no task.)
      .replace(new RegExp(SAME_TIME.source, "g"), " ")
      .replace(new RegExp(SOONEST.source, "g"), " ")
  );
}

/**
 * The task part of an arrange request, without the limits on where: a parenthesised constraint ("(not Friday)",
 * "(only mornings)", "（不要周五）") and a clause that avoids days ("Friday is my day off", "周五不行") are limits
 * (read by `readWhere`), not task names.
 */
function withoutConstraints(text: string): string {
  const unbracketed = text.replace(/\(([^()]*)\)/g, (whole, inner: string) => (isConstraint(inner) ? " " : whole));
  return unbracketed
    .split(/\s*(?:[,;]|\bbut\b)\s*/)
    .filter(
      (segment) => !(NEGATIVE_CLAUSE.test(segment.replace(NOT_NEGATIVE, " ")) && !isEmptySelection(readDays(segment))),
    )
    .join(", ");
}

/** A task phrase with filler words around it removed ("my linear algebra review" → "linear algebra review"). */
export function taskPhrase(text: string): string {
  const quoted = /"([^"]+)"/.exec(text);
  if (quoted) return (quoted[1] ?? "").trim();
  return (
    text
      .replace(
        /^(?:(?:please|can you|could you|help me|i want to|i'd like to|let's|the|my|a|an|all|ones (?:for|of|in)|those (?:for|of|in)|task|item|event|review task|pending review task|pending task|placed task|the task matching|task matching)\b\s*|(?:请|帮我|把|将|一下|我的|那个|这个)\s*)+/g,
        "",
      )
      // "put the essay somewhere on the weekend": where, not which. (Trimmed first: `\s*` before a word at the end
      // backtracks in time quadratic in a run of spaces that does not reach it — 13 s for a reply of 100 000.)
      .trimEnd()
      // ("the essay sometime", "the essay for sometime": when, not which, too.)
      .replace(
        /(?:please|for me|instead|wherever (?:it fits|they fit|there'?s (?:room|space|time))|somewhere else|somewhere|anywhere|elsewhere|(?:\b(?:for|at|in|on) )?\b(?:sometime|some time|at some point)|吧|一下|的任务|任务|能不能|可不可以|能否|可以)$/,
        "",
      )
      .replace(/^["']|["']$/g, "")
      .trim()
  );
}

function unique(values: number[]): number[] {
  return [...new Set(values)];
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

/**
 * A follow-up that only names another day or time ("what about next week?", "and Friday?", "how about tomorrow
 * evening?", "下周呢", "那明天呢"): group 1 or 2 holds what it names.
 */
const FOLLOW_UP =
  /^(?:(?:and|but|ok|okay|so|then)[\s,]+)?(?:(?:what|how)\s+about|what of|and)\s+(.+?)[\s?!.]*$|^(?:那|那么|还有)?(.+?)呢[\s?!.]*$/;

/**
 * A question asked again of another day or time (a follow-up, FOLLOW_UP) as the question before it, `previous`: "when
 * am I free on Monday?" then "what about Tuesday?" is "when am I free on Tuesday?"; "what's on today?" then "下周呢"
 * asks about next week. Only a question about days (what's on, when am I free) is followed up, and only by words that
 * name days or times and nothing else; undefined otherwise.
 */
export function readFollowUp(message: string, previous: ScheduleRequest): ScheduleRequest | undefined {
  if (previous.kind !== "day" && previous.kind !== "free") return undefined;
  const named = FOLLOW_UP.exec(withoutPoliteness(normalizeText(message)));
  const words = (named?.[1] ?? named?.[2] ?? "").trim();
  if (words === "" || words.length > 60) return undefined;
  const week = readWeekNamed(words);
  const said = readWhere(words.replace(WEEK_NAMED, " "));
  // Nothing but days and times: "the essay?" is no follow-up of a question about days.
  const rest = readTaskWords(words.replace(WEEK_NAMED, " ")).replace(/\b(?:for|about|of|then|instead)\b|[\s,.?!]/g, "");
  if (rest !== "" || (isAnywhere(said) && !week)) return undefined;
  const only = week && isEmptySelection(said.only) ? { ...said.only, dates: [week] } : said.only;
  const dayNamed = !isEmptySelection(only);
  const slotsNamed = said.slots.part !== undefined || said.slots.from !== undefined;
  return {
    ...previous,
    where: {
      ...previous.where,
      only: dayNamed ? only : previous.where.only,
      // A day alone keeps the part of the day asked before ("Monday afternoon?" then "and Tuesday?").
      slots: slotsNamed ? said.slots : previous.where.slots,
    },
  };
}
