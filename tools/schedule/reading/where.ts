/**
 * Where a request puts things (`Where`): the days it names or rules out, the slots or part of the day, the clock's
 * limits, "as soon as possible", a day before or after another, before an event; and what can be said of a reading
 * of where alone (empty, only exclusions, anywhere).
 */
import type { DaySelection, PartOfDay, SlotWindow, Where } from "./request-kinds.js";
import {
  ANY_DAY,
  FROM_ON_AFTER,
  FROM_ON_BEFORE,
  MAX_READ_LENGTH,
  MOVE_VERB,
  NUMBER,
  readNumber,
  UP_TO_AFTER,
  WEEKDAYS_EN,
  ZH_WEEKDAY_NUMBER,
} from "./words.js";
import {
  readBetween,
  readClockTime,
  readEndsBy,
  readNotBeforeHour,
  readStartsFrom,
  takeNotAfterHour,
  withoutBetween,
  withoutNotBeforeHourZh,
  withoutEndsBy,
} from "./clock-words.js";
import { readDates, readDays, readWeekNamed, SIDE_WORDS_EN, sideOf } from "./day-words.js";

/** Words of when alone, as a quote may hold them (`to "friday"`, "“不要周五”"): no task's name, so read as said. */
const QUOTED_WHEN =
  /^(?:\s|[,.]|\b(?:[a-z]+day|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun|today|tonight|tomorrow|mornings?|afternoons?|evenings?|nights?|weekends?|not|no|only|on|at|in|the|this|next|after|before|\d{1,2}(?::\d{2})?\s*(?:[ap]m)?)\b|(?:下|这|本)?(?:周|星期|礼拜)[一二三四五六日天]|今天|明天|后天|上午|下午|晚上|早上|周末|不要|只|别|之前|以后)+$/;

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
  if (THIS_TIME.test(fragment) && !range && !part) window.thisTime = true;
  else if (SAME_TIME.test(fragment) && !range && !part) window.sameTime = true;
  if (SOONEST.test(fragment)) window.soonest = true;
  return window;
}

/**
 * "as soon as possible", "asap", "as early as possible", "the earliest free slot", "the first available time", "the
 * next free slot", "the next free day", "the next free evening" (the part of the day read apart), "尽快", "越早越好",
 * "最早的空闲时间", and where a task goes, "now", "right now", "现在" ("move the matrix review to now": before, not
 * understood): as soon as it fits. ("Tomorrow at the earliest" is a bound, not this.)
 */
export const SOONEST =
  /\b(?:as soon as (?:possible|you can|i can)|asap|as early as possible|(?:the\s+)?(?:earliest|first|next)\s+(?:(?:free\s+|available\s+|open\s+)?(?:slot|time|spot|opening)(?:\s+(?:possible|available|there is|i have))?|(?:free|available|open)\s+(?:day\b|(?=(?:morning|afternoon|evening)s?\b))))\b|尽快|尽早|越早越好|最早的空闲时间|最早的空闲时段|最早有空的时候|^\s*(?:right\s+)?now\s*$|^\s*现在\s*$/;

/**
 * "this time tomorrow", "at this time on Friday", "tomorrow at this time", "明天这个时候", "周五这个时间": the time of day
 * it is now (`SlotWindow.thisTime`), said with a day — "this time" alone ("not this time") says no time.
 */
export const THIS_TIME =
  /\b(?:at\s+)?this\s+time(?=\s+(?:tomorrow|(?:on\s+|next\s+|this\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)|\b(?:tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\s+(?:at\s+)?this\s+time\b|这个时候|这个时间|这个点|此时|这会儿/;

/** "at the same time", "same time", "the same slot", "同一时间", "同样的时间", "原来的时间": the time the task has now. */
export const SAME_TIME =
  /\b(?:the\s+)?same\s+(?:time|slot|hour)\b|同一(?:个)?时间|同样的?时间|相同的?时间|一样的时间|原来的时间|原时间/;

/**
 * Words of a part of the day besides its name: "first thing", "early tomorrow" (the morning); "the end of the day",
 * "after dinner", "before bed", "late on Friday" (the evening).
 */
const MORNING_PHRASE = String.raw`first thing|early(?=\s+(?:tomorrow|today|(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)`;
const EVENING_PHRASE = String.raw`(?:the\s+)?end of (?:the\s+)?day|after dinner|before bed(?:time)?|late(?=\s+(?:tomorrow|today|(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)`;
/** Those words with "at" / "by" before them: no part of a task's name. */
export const PART_PHRASE_WORDS = new RegExp(
  String.raw`\b(?:at\s+|by\s+)?(?:${MORNING_PHRASE}|${EVENING_PHRASE})\b`,
  "g",
);
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

export const DAY_WORD = String.raw`(?:[a-z]+day\s*(?:\(day \d+\))?|mon|tue|wed|thu|fri|sat|sun|weekends?|day \d+)`;
export const DAY_WORD_ZH = String.raw`(?:(?:周|星期|礼拜)[一二三四五六日天1-7]|周末|第\d+天)`;
/** "周六以外的时间", "周五和周六之外": the days named before 以外 / 之外 are where it must not go (group 1). */
const DAYS_EXCEPTED_ZH = new RegExp(String.raw`(${DAY_WORD_ZH}(?:\s*[和、,或]?\s*${DAY_WORD_ZH})*)(?:以外|之外)`, "g");
/**
 * "not on Monday or Sunday", "except day 3", "keep it off Friday", "Saturday instead of Friday", "不要周一和周日",
 * "不要安排在周五": group 1 (English) or 2 (Chinese) holds the days.
 */
export const NEGATED_DAYS = new RegExp(
  String.raw`\b(?:not|never|except|but not|any\s*(?:day|time|where)\s+(?:but|except)|avoid(?:ing)?|no|(?<!(?:have|got|'ve|had) )nothing|none|off|instead of|rather than|other than|apart from|skip)\s+(?:on\s+)?(?:the\s+)?(${DAY_WORD}(?:\s*(?:and|or|,|&)\s*${DAY_WORD}(?![a-z]|\s*(?:instead|is fine|works|please|then|would|could)))*)(?:\s*(?:in\s+the\s+)?(?:mornings?|afternoons?|evenings?|nights?)\b)?|(?:不要|别|不|除了|避开|跳过)(?:在|放在|排在|安排在|安排到|放到|排到|放进|排进|放|排|安排)?(${DAY_WORD_ZH}(?:\s*[和、,或]?\s*${DAY_WORD_ZH})*)(?:的)?(?:上午|早上|下午|晚上)?`,
  "g",
);

/**
 * "keep Saturday free", "leave the weekend open", "Sundays always stay free", "空出周六", "周六留空", "周日都空出来":
 * days to keep free are days to avoid (group 1, 2, 3 or 4 holds them).
 */
export const KEEP_FREE = new RegExp(
  String.raw`\b(?:keep|leave)\s+(?:my\s+|the\s+)?(${DAY_WORD}s?(?:\s*(?:and|or|,|&)\s*${DAY_WORD}s?)*)\s+(?:free|clear|open|empty|off)\b|\b(${DAY_WORD}s?(?:\s*(?:and|or|,|&)\s*${DAY_WORD}s?)*)\s+(?:always\s+|must\s+|should\s+)?(?:stays?|remains?)\s+(?:free|clear|open)\b|(?:空出|留出|空着|留空|腾出)(${DAY_WORD_ZH}(?:\s*[和、,或]?\s*${DAY_WORD_ZH})*)|(${DAY_WORD_ZH}(?:\s*[和、,或]?\s*${DAY_WORD_ZH})*)(?:都|也)?(?:要|得|请)?(?:空着|留空|空出来|空下来)`,
  "g",
);

/**
 * Words that make a clause about days negative: the days it names are days to avoid ("Friday is my day off",
 * "I'm busy on Friday", "I have practice on Friday", "Friday doesn't work", "周五我休息", "周五不行").
 */
export const NEGATIVE_CLAUSE =
  /\b(?:not|no|(?<!(?:have|got|'ve|had) )nothing|none|never|don'?t|doesn'?t|do not|does not|can'?t|cannot|can not|won'?t|will not|isn'?t|is not|aren'?t|busy|sick|unwell|under the weather|exhausted|travel(?:l)?ing|out of town|off|unavailable|away|avoid(?:ing)?|except|without|skip|rather not|bad|clash(?:es|ing)?|conflicts?|full(?!\s+of\b)|packed|(?:fully\s+)?booked(?:\s+up)?|swamped)\b|\b(?:i'?m|i am|i'?ll be|i will be) out\b(?! of\b)|\bi(?: have|'ve got| got| am at|'m at) (?!(?:on|at|in|for|to|planned|scheduled|free|time|room|space|nothing|any|anything|some|something)\b)[a-z]+|\bi work\b|\bworking\b|不行|不要|不能|不可以|不在|从不|从来不|永远不|绝不|不(?:学习?|复习|排|安排|上课)|不方便|不舒服|生病|病了|出差|不想|不用|不好|没空|没时间|没有时间|休息|有事|有课|有约|忙|避开|除了|除外|放假|跳过|冲突|满了|排满|已满|别|^\s*我[^，,]{0,8}?(?:要|有)?(?:考试|测验|期中考试?|期末考试?)了?\s*$/;
/**
 * Phrases that hold a negative word but are not negative ("不忙", "帮忙", "别的时间", "why not", and limits of the clock:
 * "no later than 16:30", "tomorrow no earlier than 10", "not before 9am" keep the day they are said with).
 */
export const NOT_NEGATIVE =
  /能不能|可不可以|行不行|好不好|要不要|是不是|会不会|不忙|帮忙|别的|别处|不如|不错|要不|\bno problem\b|\bnot bad\b|\bwhy not\b|\bwithout (?:moving|changing|touching|disturbing|affecting|shifting)\b|\b(?:no|not) (?:later|earlier) than\b|\b(?:not|nothing) (?:before|after|past)(?=\s+(?:\d|midnight\b))/g;
/**
 * A part of the day ruled out with no day ("not in the morning", "no evenings", "avoid the afternoon", "不要晚上",
 * "上午不行"): group 1 (English), 2 or 3 (Chinese) holds the part.
 */
export const NEGATED_PART =
  /\b(?:not|never|no|nothing|avoid(?:ing)?|except|but not|anything but)\s+(?:(?:in|during|on)\s+)?(?:the\s+)?(mornings?|afternoons?|evenings?|nights?)\b|(?:不要|别|不|避开|除了)(?:在|放在|排在|安排在|安排到|放到|排到)?(上午|早上|早晨|下午|晚上)|(上午|早上|早晨|下午|晚上)(?:不行|不要|不方便|没空|有事|有课|不可以|除外|以外|之外)/g;
/**
 * Where one clause of a fragment ends and another begins ("Friday is my day off, Saturday is fine"): a mark, a word that
 * joins clauses ("because", "cuz", "if", "unless"), so a reason or a condition said after where it goes rules only its
 * own days out (and `bySubject`).
 */
const CLAUSE_BREAK =
  /[,;!?]|\.(?!\d)|\b(?:but|so|since|because|cuz|coz|cos|'?cause|as long as|if|unless|instead|then|though|although|however|try|how about)\b|\band(?= ['"]?(?:never|not|no)\b)|但是|但|不过|所以|因为|而是|改|换|可以|吧/;

/** "I" starting a clause about oneself: "i'm", "im", "i have", "i've got", "i'll be". */
const SUBJECT_START = /\b(?:i'?m|i am|i have|i'?ve|i got|i'?ll be|i will be)\b/;

/**
 * A clause cut where "I" starts one of its own days after days said before it ("friday i have a lab thursday", "friday
 * im travelling sat"): the reason's days are its own. "Friday I'm busy" stays one clause (Friday is what is busy).
 */
function bySubject(clause: string): string[] {
  const subject = SUBJECT_START.exec(clause);
  if (!subject || subject.index === 0) return [clause];
  const [before, after] = [clause.slice(0, subject.index), clause.slice(subject.index)];
  return isEmptySelection(readDays(before)) || isEmptySelection(readDays(after)) ? [clause] : [before, after];
}

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
  // (A name in quotes says no day: `schedule "Friday quiz prep" on thursday` is Thursday only; a day quoted alone,
  // `to "friday"`, is still where.)
  // ("帮我安排复习，晚上9点以后不要", "…, no studying after 9pm": a time limit, read apart — its "晚上 … 不要" was no evening at all.)
  const hourSaid = takeNotAfterHour(said);
  const notBeforeHour = readNotBeforeHour(said);
  const fragment = withDaysBeforeAfter(
    withoutNotBeforeHourZh(hourSaid.rest)
      .replace(/\b([ap])\.m\b\.?/g, "$1m")
      .replace(/"([^"\n]{1,200})"/g, (quoted, inner: string) => (QUOTED_WHEN.test(inner) ? quoted : " ")),
  );
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
  for (const clause of unparted.split(new RegExp(CLAUSE_BREAK, "g")).flatMap(bySubject)) {
    // "I'm busy Thursday, Friday, move my reviews": days listed on after a negative clause are ruled out with it.
    negative = (negative && DAYS_LISTED_ON.test(clause)) || NEGATIVE_CLAUSE.test(clause.replace(NOT_NEGATIVE, " "));
    (negative ? negated : positive).push(clause);
    if (negative && isEmptySelection(readDays(clause))) partsOut.push(clause);
    // ("move my reviews off tonight": the part of the day said with a day ruled out, as "… off Thursday evening".)
    else if (negative) notDaysPart ??= readPartOfDay(clause);
  }
  const notPart = partsOut.map(readPartOfDay).find((part) => part !== undefined);
  const kept = positive.join(" , ");
  // "在周日10点以前" is a time limit (`readEndsBy`), no event to be done before.
  const before = readBefore(withoutEndsBy(fragment));
  // "between 9pm and 8am" is a start and a time limit, no clock time to place at.
  const between = readBetween(kept);
  const at = readClockTime(withoutBetween(kept));
  const endsBy = between?.endsBy ?? readEndsBy(kept) ?? hourSaid.endsBy;
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
    // ("3 at night" is 03:00, no evening's: the part said with an hour of the small hours is that hour's.)
    ...(part === undefined || partOfLimit || (part === "evening" && at !== undefined && at < "06:00") ? {} : { part }),
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
/** A weekday said short: "mon", "tue", "tues", "thur", "thurs" … (an alternation to put in a group). */
export const SHORT_WEEKDAY_EN = String.raw`mon|tues?|wed|thu(?:rs?)?|fri|sat|sun`;
const WEEKDAY_WORD_EN = String.raw`(monday|tuesday|wednesday|thursday|friday|saturday|sunday|${SHORT_WEEKDAY_EN}|the weekend|weekend)`;
const BEFORE_AFTER_DAY_EN = new RegExp(
  String.raw`\b(?:${ANY_DAY}\s+)?(${SIDE_WORDS_EN})\s+(?:this\s+)?${WEEKDAY_WORD_EN}\b`,
  "g",
);
// (Not of next week's day: "下周三之前" is a side of that date, `readDates`.)
const BEFORE_AFTER_DAY_ZH =
  /(?<![下上])((?:周|星期|礼拜)[一二三四五六日天]|周末)(之前|以前|前|之后|以后|后)(?![天半])/g;

/** A weekday said in a stretch of days (group: the day), as `WEEKDAY_WORD_EN` reads one, "this" before it allowed. */
const SPAN_DAY = String.raw`(?:this\s+)?${WEEKDAY_WORD_EN}`;
/** The preposition before a stretch of days, kept ("to", "on", "for"): "on" when none was said. */
const SPAN_PREPOSITION = String.raw`(?:\b(to|on|for|into)\s+)?`;
/** From a day on: "no earlier than Wednesday", "starting Wednesday", "from Wednesday on", "Wednesday or later". */
const FROM_DAY_EN = [
  new RegExp(String.raw`${SPAN_PREPOSITION}\b${FROM_ON_BEFORE}\s+${SPAN_DAY}\b`, "gi"),
  new RegExp(String.raw`${SPAN_PREPOSITION}\bfrom\s+${SPAN_DAY}\s+on(?:wards?)?\b`, "gi"),
  new RegExp(String.raw`${SPAN_PREPOSITION}\b${SPAN_DAY},?\s+${FROM_ON_AFTER}\b`, "gi"),
];
/** Up to a day: "Thursday or earlier", "Thursday at the latest". */
const BY_DAY_EN = new RegExp(String.raw`${SPAN_PREPOSITION}\b${SPAN_DAY},?\s+${UP_TO_AFTER}\b`, "gi");
/** Between two days, both in: "between Monday and Wednesday", "Tuesday through Thursday", "tue-thu". */
const DAYS_BETWEEN_EN = [
  new RegExp(String.raw`${SPAN_PREPOSITION}\bbetween\s+${SPAN_DAY}\s+and\s+${SPAN_DAY}\b`, "gi"),
  new RegExp(String.raw`${SPAN_PREPOSITION}\b${SPAN_DAY}\s*(?:through|thru|-|–|—)\s*${SPAN_DAY}\b`, "gi"),
];
/**
 * "Monday to Wednesday", "from Monday until Wednesday": a stretch too, where nothing is moved ("move the essay from
 * Monday to Wednesday" is a move from one day to another). Before, Monday and Wednesday alone, and "from" in the
 * task's name.
 */
const DAYS_TO_EN = new RegExp(
  String.raw`${SPAN_PREPOSITION}(?:\bfrom\s+)?\b${SPAN_DAY}\s+(?:to|until|till)\s+${SPAN_DAY}\b`,
  "gi",
);
const MOVING_EN = new RegExp(String.raw`\b${MOVE_VERB}\b`, "i");
/** Every stretch of days said in English, where nothing is moved. */
const DAYS_SPANS_EN = [...DAYS_BETWEEN_EN, DAYS_TO_EN];
/** Words a stretch's patterns need: an English weekday, a clock time, a Chinese weekday. */
const WEEKDAY_SAID_EN = /\b(?:mon|tue|wed|thu|fri|sat|sun|weekend)/i;
const TIME_SAID_EN = /\d|noon|midday/i;
const WEEKDAY_SAID_ZH = /周|星期|礼拜/;
/** A clock time written so that it is one: "3pm", "3:30 pm", "15:00", "noon". */
const MARKED_TIME_EN = String.raw`(?:(?<![\d:])\d{1,2}(?::\d{2})?\s*[ap]\.?m\b\.?|(?<![\d:])\d{1,2}:\d{2}(?![\d:])|noon|midday)`;
/**
 * From a time on: "from 3pm on", "3pm onwards", "starting at 3pm", and "from 3pm" where nothing is moved and no end
 * follows ("move the essay from 3pm to 5pm" is a move) — said as "after 3pm", which the reader reads as a start limit.
 * Before, "from 3pm" was a time to place at and "from" part of the task's name.
 */
const FROM_TIME_ON_EN = new RegExp(
  String.raw`\b(?:from|starting(?:\s+(?:at|from))?|beginning(?:\s+at)?)\s+(${MARKED_TIME_EN})(?:\s+on(?:wards?)?\b(?!\s+(?:the\s+)?(?:[a-z]+day|weekends?|today|tomorrow|tonight|\d))|\s*,?\s+${FROM_ON_AFTER}\b)|\b(${MARKED_TIME_EN})\s*,?\s+${FROM_ON_AFTER}\b`,
  "gi",
);
const FROM_TIME_EN = new RegExp(
  String.raw`\b(?:from|starting(?:\s+(?:at|from))?)\s+(${MARKED_TIME_EN})(?!\s*(?:to|till|until|through|and|-|–|—)\b|\s*[-–—~])`,
  "gi",
);
/** "tomorrow, or later": the comma before the words of a stretch ends no clause. */
const RELATIVE_DAY_COMMA = new RegExp(String.raw`\b(today|tomorrow),\s+(?=${FROM_ON_AFTER}\b)`, "gi");
const WEEKDAY_ZH = String.raw`((?:周|星期|礼拜)[一二三四五六日天])`;
/** A Chinese verb of putting or moving said between a limit's word and its day ("最早安排在周三"). */
const PUT_ZH = "安排|排|放|挪|移|改|调|推";
/** "周二到周四", "周二至周四", "周三或以后" / "周三及以后": a stretch of days in Chinese. */
const DAYS_BETWEEN_ZH = new RegExp(String.raw`${WEEKDAY_ZH}\s*(?:到|至|-|–|~|～)\s*${WEEKDAY_ZH}`, "g");
const FROM_DAY_ZH = new RegExp(
  String.raw`从?${WEEKDAY_ZH}(?:(?:或|及|和)(?:以后|之后)|起(?!床)|开始(?!的?时候))|不早于${WEEKDAY_ZH}`,
  "g",
);
/** "最早周三", "把作文最早安排在周三": from it on; "最晚周四", "最迟周五", "不晚于周五", "周四为止": up to it. */
const EARLIEST_DAY_ZH = new RegExp(String.raw`最早((?:${PUT_ZH})?(?:在|到)?)${WEEKDAY_ZH}`, "g");
const LATEST_DAY_ZH = new RegExp(
  String.raw`(?:最晚|最迟|不晚于)((?:${PUT_ZH})?(?:在|到)?)${WEEKDAY_ZH}|${WEEKDAY_ZH}为止`,
  "g",
);

/**
 * A stretch of days said as a list of them, which every reader reads as days (and none as a task's name): "no
 * earlier than Wednesday", "Wednesday or later", "from Wednesday on" → "on wednesday or thursday or … or sunday";
 * "Thursday at the latest" → Monday to Thursday; "between Monday and Wednesday", "Tuesday through Thursday", "周二到
 * 周四", "周三或以后" alike (a week runs Monday to Sunday). Two ends the wrong way round ("Thursday through Tuesday")
 * are left as said. Before, each read as its one or two days, and "between", "starting" as part of the task's name.
 */
export function withDaySpans(text: string): string {
  // ("The weekend" is Saturday as a stretch's first day, Sunday as its last: "Friday through the weekend".)
  const weekdayOf = (day: string, end: "first" | "last" = "first") =>
    /weekend/i.test(day)
      ? end === "first"
        ? 6
        : 7
      : WEEKDAYS_EN.find(([pattern]) => pattern.test(day.toLowerCase()))?.[1];
  const english = (preposition: string | undefined, first: number | undefined, last: number | undefined) =>
    first === undefined || last === undefined || first > last
      ? undefined
      : ` ${preposition ?? "on"} ${Array.from({ length: last - first + 1 }, (_, index) => WEEKDAY_WORDS_EN[first + index - 1]).join(" or ")} `;
  const chinese = (first: number | undefined, last: number | undefined) =>
    first === undefined || last === undefined || first > last
      ? undefined
      : Array.from({ length: last - first + 1 }, (_, index) => `周${"一二三四五六日"[first + index - 1]}`).join("或");
  // (Each kind of stretch is looked for only where its words can be: this runs on every fragment the reader reads.)
  let spans = text;
  const weekdaysEn = WEEKDAY_SAID_EN.test(text);
  if (weekdaysEn) {
    for (const pattern of FROM_DAY_EN)
      spans = spans.replace(
        pattern,
        (whole, to?: string, day?: string) => english(to, weekdayOf(day ?? ""), 7) ?? whole,
      );
    spans = spans.replace(
      BY_DAY_EN,
      (whole, to?: string, day?: string) => english(to, 1, weekdayOf(day ?? "", "last")) ?? whole,
    );
  }
  const moving = MOVING_EN.test(text);
  if (TIME_SAID_EN.test(text)) {
    spans = spans.replace(FROM_TIME_ON_EN, (_, from?: string, bare?: string) => ` after ${from ?? bare ?? ""} `);
    if (!moving) spans = spans.replace(FROM_TIME_EN, (_, time: string) => ` after ${time} `);
  }
  if (weekdaysEn)
    for (const pattern of moving ? DAYS_BETWEEN_EN : DAYS_SPANS_EN)
      spans = spans.replace(
        pattern,
        (whole, to?: string, first?: string, last?: string) =>
          english(to, weekdayOf(first ?? ""), weekdayOf(last ?? "", "last")) ?? whole,
      );
  if (WEEKDAY_SAID_ZH.test(text))
    spans = spans
      .replace(
        DAYS_BETWEEN_ZH,
        (whole, first: string, last: string) =>
          chinese(ZH_WEEKDAY_NUMBER[first.slice(-1)], ZH_WEEKDAY_NUMBER[last.slice(-1)]) ?? whole,
      )
      .replace(
        FROM_DAY_ZH,
        (whole, day?: string, notBefore?: string) =>
          chinese(ZH_WEEKDAY_NUMBER[(day ?? notBefore ?? "").slice(-1)], 7) ?? whole,
      )
      .replace(
        EARLIEST_DAY_ZH,
        (whole, verb: string, day: string) => `${verb}${chinese(ZH_WEEKDAY_NUMBER[day.slice(-1)], 7) ?? day}`,
      )
      .replace(
        LATEST_DAY_ZH,
        (whole, verb?: string, day?: string, until?: string) =>
          `${verb ?? ""}${chinese(1, ZH_WEEKDAY_NUMBER[(day ?? until ?? "").slice(-1)]) ?? whole}`,
      );
  return (
    spans
      // ("tomorrow, or later": one date, as without the comma, which would end a clause before it.)
      .replace(RELATIVE_DAY_COMMA, "$1 ")
      // ("明天或以后": from tomorrow on, as "明天起" says it — a date `readDates` reads.)
      .replace(/(今天|明天)(?:或|及)(?:以后|之后)/g, "$1起")
  );
}

/**
 * "before Friday" → the days of the week before it ("monday and tuesday and wednesday and thursday"), "by Friday" up
 * to it, "after Wednesday" after it, "周六之前" / "周三以后" alike (a week runs Monday to Sunday): words `readDays`
 * reads. A weekday before which no day is left ("before Monday") says nothing.
 */
export function withDaysBeforeAfter(text: string): string {
  const span = (weekday: number, side: "before" | "by" | "after", chinese: boolean) => {
    const days = [1, 2, 3, 4, 5, 6, 7].filter((day) =>
      side === "before" ? day < weekday : side === "by" ? day <= weekday : day > weekday,
    );
    return chinese
      ? days.map((day) => `周${"一二三四五六日"[day - 1]}`).join("和")
      : days.map((day) => WEEKDAY_WORDS_EN[day - 1]).join(" and ");
  };
  const spans = withDaySpans(text);
  const english = WEEKDAY_SAID_EN.test(spans)
    ? spans.replace(BEFORE_AFTER_DAY_EN, (_, word: string, day: string) => {
        const said = sideOf(word);
        const side = said === "before" || said === "by" ? said : "after";
        // After the weekend or Sunday no day of the week is left: next week (`DATE_PATTERNS` reads it).
        if (side === "after" && /weekend|^sun/.test(day)) return _;
        const weekday = /weekend/.test(day) ? 6 : WEEKDAYS_EN.find(([pattern]) => pattern.test(day))?.[1];
        if (weekday === undefined) return _;
        return ` ${span(weekday, side, false)} `;
      })
    : spans;
  return WEEKDAY_SAID_ZH.test(english)
    ? english.replace(BEFORE_AFTER_DAY_ZH, (_, day: string, word: string) => {
        if (!/前/.test(word) && /周末|[日天]$/.test(day)) return _;
        const weekday = day === "周末" ? 6 : ZH_WEEKDAY_NUMBER[day.slice(-1)];
        if (weekday === undefined) return _;
        return span(weekday, /前/.test(word) ? "before" : "after", true);
      })
    : english;
}

/** "before the midterm" / "ahead of my exam" / "在期中考试之前" (an English step may name a Chinese event): the event named. */
export const BEFORE_EVENT =
  /\b(?:before|ahead of|prior to)\s+(?:the\s+|my\s+|our\s+)?([a-z\u4e00-\u9fff][a-z0-9\u4e00-\u9fff -]*?)\s*(?=[,.;!?)]|$|\b(?:and|but|on|in|please|thanks)\b)|(?:在|于)([^在于，,。]{2,12}?)(?:之前|以前|前(?!一|两|二|三|几|\d))/;

export function readBefore(fragment: string): string | undefined {
  const match = BEFORE_EVENT.exec(fragment.toLowerCase());
  const phrase = (match?.[1] ?? match?.[2] ?? "").trim();
  // "before Friday" / "before 10" are days and slots, not events.
  if (
    !phrase ||
    /^(?:[a-z]+day|weekend|\d+|noon|lunch|dinner|bed|bedtime|tomorrow|today|周.|星期.|今天|明天|大?后天)$/.test(phrase)
  )
    return undefined;
  // ("before Dec 8", "12月8日之前", "before next Monday": a side of a date, `readDates`, no event.)
  const dated = readDates(phrase);
  if (dated.dates.length > 0 && dated.rest.trim() === "") return undefined;
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

/** True when `where` says a part of the day and nothing else: "to the evening". */
export function isPartAlone(where: Where): boolean {
  const { part, ...slots } = where.slots;
  return part !== undefined && isAnywhere({ ...where, slots }) && where.notDaysPart === undefined;
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

/** Words that name every review: "all my reviews", "my reviews", "everything", "所有复习", "全部复习". */
/** A day said in English as a task's day: "thursday", "this monday", "today", "tonight", "tomorrow", a part after it. */
export const DAY_SAID_EN = String.raw`(?:(?:this\s+)?[a-z]+day|today|tonight|tomorrow)(?:\s+(?:morning|afternoon|evening|night))?`;

/** A day said as `DAY_SAID_EN` says one, or a weekday said short: "thu", "thurs", "this fri", "fri evening". */
export const DAY_OR_SHORT_EN = String.raw`(?:${DAY_SAID_EN}|(?:this\s+)?(?:${SHORT_WEEKDAY_EN})\b(?:\s+(?:morning|afternoon|evening|night))?)`;

/** A day in a list of days: "friday", "fri", "next thu", "tmrw", "the weekend", a part after it. */
const LISTED_DAY_EN = String.raw`(?:(?:this|next)\s+)?(?:[a-z]+day|${SHORT_WEEKDAY_EN}|today|tonight|tomorrow|tmrw?|(?:the\s+)?weekend)(?:\s+(?:morning|afternoon|evening|night))?`;

/** A clause that only lists days ("friday", "and saturday", "thu or fri"), going on from the one before. */
const DAYS_LISTED_ON = new RegExp(
  String.raw`^\s*(?:(?:and|or|&)\s+)?${LISTED_DAY_EN}(?:\s*(?:,|\band\b|\bor\b|&)\s*${LISTED_DAY_EN})*\s*$`,
);

/** A question's where with the week it names, when it names no day ("when am I free next week?"). */
export function withWeekNamed(where: Where, body: string): Where {
  const week = isEmptySelection(where.only) ? readWeekNamed(body) : undefined;
  return week ? { ...where, only: { ...where.only, dates: [week] } } : where;
}
