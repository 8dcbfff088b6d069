/**
 * The split of a move's words into the task that moves and where it goes ("the essay to Friday evening", "the
 * matrix review off Friday", "Tuesday's review to the day after"), with the days a move rules out or leaves.
 */
import type { DaySelection, PartOfDay, Where } from "./request-kinds.js";
import { readDays, WEEK_STRETCH } from "./day-words.js";
import {
  DAY_SAID_EN,
  SHORT_WEEKDAY_EN,
  isAnywhere,
  isEmptySelection,
  isPartAlone,
  NEGATIVE_CLAUSE,
  NOT_NEGATIVE,
  readPartOfDay,
  readWhere,
  withDaysBeforeAfter,
} from "./where.js";
import { onlyWhen, readTaskWords, splitAtWhen, taskPhrase } from "./task-words.js";
import { splitWeekday } from "./day-names.js";
import { readBetween } from "./clock-words.js";
import { DAY_REVIEWS, EVERY_REVIEW } from "./shift-all.js";

/** A task said as a pronoun ("move it to Wednesday"). */
export const PRONOUN = /^(?:it|that|this|that one|this one|the one)$/;

/**
 * The task an earlier clause named, for a pronoun after it: "I can't make the matrix review on Tuesday, move it to
 * Wednesday" → "matrix review" (the last "the …" / "my …" phrase before the verb, up to a day, a time or a clause's
 * end); undefined when the clause names none.
 */
export function taskNamedBefore(clause: string): string | undefined {
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
export function splitTarget(subject: string, target: string | undefined): [string, string, leaves?: true] {
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
export function withDaysRuledOutBefore(where: Where, before: string, task = ""): Where {
  // "I need Thursday morning free, move my reviews", "我需要周四上午空着，…": the days said to be kept free.
  const wantsFree = WANTS_FREE.test(before);
  if (!rulesTimeOut(before)) return where;
  // ("我周四上午有事": a day and its part ruled out, which the where reader reads as "Thursday, not the morning" — what
  // it means after a move's verb, "挪到周四，周四上午不行" — is that day's part ruled out before it.)
  const read = wantsFree ? undefined : readWhere(before);
  const reviews = namesReviewsOfDay(task);
  // "I'm busy from 2 to 4 today, move my reviews", "I have a meeting from 2pm to 4pm on Monday, move my reviews": a
  // window of the clock, both ends said, is whose reviews move — that day's (today's when none is said), as "keep 2pm
  // to 4pm free" empties it. Before, every review of the day moved, or none.
  const window = reviews && isAnywhere(where) ? readBetween(before) : undefined;
  const days = !read ? readDays(before) : isEmptySelection(read.not) && read.slots.notPart ? read.only : read.not;
  const ruledOut = window && isEmptySelection(days) ? windowDays(before) : days;
  if (isEmptySelection(ruledOut)) return where;
  if (window) return { ...withDaysOut(where, ruledOut), slots: { ...where.slots, ...window } };
  // "I'm busy Thursday morning, move my reviews": the part of that day is whose reviews move (`awayFrom`); with a
  // place to go ("…, move my reviews to Friday"), it is kept apart from the place's own part (`notDaysPart`).
  const daysPart = reviews && !isAnywhere(where) ? readPartOfDay(before) : undefined;
  // ("I'm busy this afternoon, move my reviews to the evening": a part of the day alone is that day's — before, it
  // was read as the part the reviews leave, "out of Monday evening".)
  if (reviews && isPartAlone(where) && selectionSize(ruledOut) === 1)
    return { ...withDaysOut(where, ruledOut), only: ruledOut, ...(daysPart ? { notDaysPart: daysPart } : {}) };
  const part = reviews && isAnywhere(where) ? readPartOfDay(before) : undefined;
  return { ...withDaysOut(where, ruledOut, part), ...(daysPart ? { notDaysPart: daysPart } : {}) };
}

/**
 * True when a clause before a move's verb rules a time out: a negative one ("I'm busy Thursday", "I have a meeting
 * from 2pm to 4pm") or one that wants it kept free ("I need Thursday morning free").
 */
export function rulesTimeOut(clause: string): boolean {
  return WANTS_FREE.test(clause) || (clause.trim() !== "" && NEGATIVE_CLAUSE.test(clause.replace(NOT_NEGATIVE, " ")));
}

/** How many days a selection names. */
function selectionSize(days: DaySelection): number {
  return days.weekdays.length + days.days.length + (days.dates?.length ?? 0);
}

/** The days a clause with a window names (a reason's days are read as said: "I have a meeting … on Monday"), else today. */
function windowDays(clause: string): DaySelection {
  const days = readDays(clause);
  return isEmptySelection(days) ? readDays("today") : days;
}

/** `where` with the days of `ruledOut` ruled out too, and `part` as its part of the day when given. */
export function withDaysOut(where: Where, ruledOut: DaySelection, part?: PartOfDay): Where {
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
export function namesReviewsOfDay(task: string): boolean {
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

/** A clock time: "19:00", "7pm", "7.30pm", "10". */
const CLOCK_EN = String.raw`\d{1,2}(?:[:.]\d{2})?(?:\s*[ap]\.?m\b\.?)?`;
/** A clock time a task is moved from, or the range it takes: "19:00", "7pm", "at 9", "10-12", "10:00–11:40". */
const FROM_TIME_EN = String.raw`(?:at\s+)?${CLOCK_EN}(?:\s*[-–—~]\s*${CLOCK_EN})?`;
/** The day a task is moved from: "thursday", "thu", "tue 12 mar" (as the terminal shows a place), "today". */
const FROM_DAY_EN = String.raw`(?:${DAY_SAID_EN}|(?:${SHORT_WEEKDAY_EN})\b\.?)(?:\s+\d{1,2}\s+[a-z]{3,9}\.?|\s+[a-z]{3,9}\.?\s+\d{1,2}\b)?`;
/**
 * The day (and time) a move's task leaves, said after it before where it goes ("the essay from Thursday", "… off
 * Thursday" to Friday, "… from Sunday 19:00", "… from 7pm on Sunday", "… from tuesday 10-12", "… from Tue 12 Mar,
 * 10:00–11:40"): no part of its name.
 */
const FROM_DAY_TAIL = new RegExp(
  String.raw`\s+(?:from|off(?:\s+of)?)\s+(?:${FROM_DAY_EN}(?:,?\s+${FROM_TIME_EN})?|${FROM_TIME_EN}(?:\s+(?:on\s+)?${FROM_DAY_EN})?)$`,
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
    forWhen && (readTaskWords(forWhen[2] ?? "").trim() === "" || onlyWhen(forWhen[2] ?? ""))
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
