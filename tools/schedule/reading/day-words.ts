/**
 * The days a request names by date or by name: dates ("May 3", "3/5", "5月3日", "next Friday", "the weekend"),
 * weekdays ("Monday", "周一") and stretches of the week ("the start of the week"), and a week named ("next week",
 * "the week after next").
 */
import type { DateSide, DateSpec, DaySelection } from "./request-kinds.js";
import {
  ANY_DAY,
  COUNT_WORD,
  COUNT_WORDS,
  FROM_ON_AFTER,
  FROM_ON_BEFORE,
  NUMBER,
  readNumber,
  unique,
  WEEKDAY_ZH,
  WEEKDAYS_EN,
  ZH_WEEKDAY_NUMBER,
} from "./words.js";

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
  // "a week from today", "two weeks from tomorrow", "in a week", "一周后", "两个星期以后", "下周的今天": that day a whole number of
  // weeks on (before, "a week from today" was today); "a week from Friday", "a week on Friday": that weekday of the
  // week after (before, this week's Friday).
  [
    new RegExp(
      String.raw`\b(a|one|1|two|2|three|3)\s+weeks?\s+(?:from|after)\s+(today|now|tomorrow)\b|\bin\s+(a|one|1|two|2|three|3)\s+weeks?(?:'?\s+time)?\b|(?<![第\d一二两三四五六七八九十])([一两二三123])\s*(?:个)?(?:周|星期|礼拜)(?:以后|之后|后)(?![天半])|(下个?(?:周|星期|礼拜)的?今天)|\b(a|one|1|two|2)\s+weeks?\s+(?:from|after|on)\s+(?:this\s+)?${WEEKDAY_WORD}\b`,
      "g",
    ),
    (m) => {
      const count = (said: string) =>
        ({ a: 1, one: 1, two: 2, three: 3, 一: 1, 二: 2, 两: 2, 三: 3 })[said] ?? Number(said);
      if (m[6] !== undefined)
        return {
          kind: "weekday",
          weekday: WEEKDAY_PREFIXES.indexOf((m[7] ?? "").slice(0, 3)),
          weeks: count(m[6]),
          text: m[0],
        };
      const weeks = m[5] !== undefined ? 1 : count(m[1] ?? m[3] ?? m[4] ?? "");
      return { kind: "offset", days: 7 * weeks + (m[2] === "tomorrow" ? 1 : 0), text: m[0] };
    },
  ],
  // From today or tomorrow on: "after today", "tomorrow or later", "tomorrow at the earliest", "no earlier than
  // tomorrow", "starting tomorrow", "from tomorrow on", "明天起", "从明天开始", "明天或以后" — that day and every day of
  // the schedule after it (before, "after today" was today, and the rest that one day). "After tomorrow" is the day
  // after it on, as "明天以后" / "明天之后" are (as "周三以后" is after Wednesday; before, they were tomorrow alone); "the day after tomorrow" is one day (below), "any day after tomorrow" is not. "Any day" or "sometime"
  // before it is of the stretch too (before, "schedule the essay any day after today" named a task "essay any day").
  [
    new RegExp(
      String.raw`(?:\b${ANY_DAY}\s+)?\b(?:after|later than)\s+(today|tonight)\b|(?:\b${ANY_DAY}\s+|(?<!\bday\s))\b(?:after|later than)\s+(tomorrow)\b|\b(today|tomorrow),?\s+${FROM_ON_AFTER}\b|\b${FROM_ON_BEFORE}\s+(today|tomorrow)\b|\bfrom\s+(today|tomorrow)\s+on(?:wards?)?\b|从?(今天|明天)(?:起|开始|或以后|及以后)|(今天|明天)(?:以后|之后)`,
      "g",
    ),
    (m) => {
      const zhAfter = m[7] === undefined ? 0 : m[7] === "明天" ? 2 : 1;
      const after = m[1] !== undefined ? 1 : m[2] !== undefined ? 2 : zhAfter;
      const from = m[3] ?? m[4] ?? m[5] ?? m[6] ?? "";
      const days = after > 0 ? after : /^(?:tomorrow|明天)$/.test(from) ? 1 : 0;
      return { kind: "onward", days, text: m[0] };
    },
  ],
  // "Before tomorrow", "明天之前": today (before, tomorrow itself).
  [
    /\b(?:before|until|till)\s+tomorrow\b|明天(?:之前|以前)|明天前(?![一两二三四五六几\d天])/g,
    (m) => ({ kind: "offset", days: 0, text: m[0] }),
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
      String.raw`\bin\s+(\d+|${COUNT_WORD}|a couple of)\s+days?(?:'?\s+time)?\b|\b(\d+|${COUNT_WORD})\s+days?\s+from\s+(?:now|today)\b|(?<![第\d一二两三四五六七八九十])${NUMBER}\s*天(?:以后|之后|后)`,
      "g",
    ),
    (m) => {
      const said = m[1] ?? m[2] ?? m[3] ?? "";
      const days = said === "a couple of" ? 2 : (COUNT_WORDS[said] ?? readNumber(said));
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
    new RegExp(String.raw`\b(this\s+coming|this|next|coming)\s+${WEEKDAY_WORD}\b`, "g"),
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
    // (Most fragments name no date of a pattern: tested first, without the iterator `matchAll` builds — every fragment
    // the reader reads passes here, many times.)
    pattern.lastIndex = 0;
    const any = pattern.test(rest);
    pattern.lastIndex = 0;
    if (!any) continue;
    let kept = "";
    let from = 0;
    for (const found of rest.matchAll(pattern)) {
      const match = new RegExp(pattern.source).exec(found[0]);
      const specs = match ? [read(match) ?? []].flat() : [];
      if (specs.length === 0 || !specs.every(validDateSpec)) continue;
      // A date's side said with it, before it in English ("before Dec 8") or after it in Chinese ("12月8日之前"):
      // one date and a side, the words of the side no part of anything else.
      // (The side's words are the few right before it: no more than those are read.)
      const near = Math.max(from, found.index - SIDE_REACH);
      const before = SIDE_BEFORE_EN.exec(rest.slice(near, found.index));
      const after = SIDE_AFTER_ZH.exec(rest.slice(found.index + found[0].length));
      const side = sideOf(before?.[1] ?? after?.[1]);
      const one = specs.length === 1 && (specs[0]!.kind === "date" || specs[0]!.kind === "weekday");
      const start = one && side && before ? near + before.index : found.index;
      const end = found.index + found[0].length + (one && side && after && !before ? after[0].length : 0);
      dates.push(...(one && side ? [{ ...specs[0]!, side } as DateSpec] : specs));
      kept += `${rest.slice(from, start)} `;
      from = end;
    }
    rest = kept + rest.slice(from);
  }
  return { dates, rest };
}

/** How far before a date its side's words are looked for ("no earlier than the "). */
const SIDE_REACH = 24;
/** The English words before a day that put it on one side ("before Friday", "up to Dec 8", "after next Monday"). */
export const SIDE_WORDS_EN = "before|up until|until|till|by|up to|through|thru|no later than|after|later than";
/** The English words of a date's side, right before it (group 1): those, and the words of from it on. */
const SIDE_BEFORE_EN = new RegExp(
  String.raw`\b(${SIDE_WORDS_EN}|from|starting(?: on| from)?|no earlier than)\s+(?:the\s+)?$`,
  "i",
);
/** The words of a date's side right after it (group 1): Chinese, or "or earlier", "at the latest", "or later" … */
const SIDE_AFTER_ZH =
  /^\s*,?\s*(之前|以前|前(?![一两二三四五六几\d天])|为止|之后|以后|后(?![天面])|起|开始|(?:or earlier|or before|at the latest|or later|or after|onwards?|at the earliest)\b)/i;

/** The side of a day its words put it on ("up to" Friday: by it; "之前": before it), or undefined for none. */
export function sideOf(word: string | undefined): DateSide | undefined {
  if (word === undefined) return undefined;
  if (/^(?:before|until|till|up until|之前|以前|前)$/i.test(word)) return "before";
  if (/^(?:by|no later than|up to|through|thru|为止|or earlier|or before|at the latest)$/i.test(word)) return "by";
  if (/^(?:after|later than|之后|以后|后)$/i.test(word)) return "after";
  return "from";
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
export const WEEK_STRETCH = new RegExp(WEEK_STRETCHES.map(([pattern]) => `(?:${pattern.source})`).join("|"));
export const WEEK_STRETCH_WORDS = new RegExp(WEEK_STRETCH.source, "g");

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

/** "this week", "next week", "the week after next", "这周", "本周", "下周", "下下周" (not "这周六": a weekday). */
export const WEEK_NAMED =
  /\b(?:(this|the current)\s+week|(next|the coming|the following)\s+week|(the week after next))\b|(这|本|下下|下)个?(?:周|星期|礼拜)(?![一二三四五六日天1-7末])/;

/** The week a question names ("what's on next week?"), `weeks` after this one, or undefined. */
export function readWeekNamed(fragment: string): DateSpec | undefined {
  const match = WEEK_NAMED.exec(fragment);
  if (!match) return undefined;
  const zh = match[4];
  const weeks = match[3] ? 2 : match[2] ? 1 : zh === "下下" ? 2 : zh === "下" ? 1 : 0;
  return { kind: "week", weeks, text: match[0] };
}
