/**
 * What the offline policy knows about the window from its prompt: the number
 * of days and of slots per day, which weekday and date each day index is (from
 * the live state's and get_overview's and query_range's data, or the lines of
 * compressed rounds' summaries), and "now" (the prompt's now line, read in the window's own time zone).
 * Without them it assumes a window that starts on a Monday, as the sample
 * week and the generated schedules do. Calendar days ("tomorrow", "this Thursday", "the 14th") resolve through the
 * dates and now; a window without dates resolves none of them.
 */
import { formatDate } from "../../tools/schedule/state.js";
import {
  addDays,
  daysBetween,
  isTimeZone,
  localClock,
  mondayOf,
  parseNowLine,
  type LocalClock,
} from "../../contracts/clock.js";
import { instantOf } from "../../tools/schedule/event-series.js";
import type { PromptView } from "../prompt-reading.js";
import type { Dating } from "../../tools/schedule/format.js";
import type { SlotRange, SlotTime } from "../../tools/schedule/state.js";
import { dayName as calendarDayName, firstSlotFrom, placeName, slotClock } from "../../tools/schedule/calendar.js";
import { say, type Language } from "../../contracts/language.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";
import {
  dayLabelIn,
  resolveSlotWindow,
  type DateSpec,
  type DaySelection,
  type MoveShift,
  type SlotWindow,
  type Where,
} from "../../tools/schedule/request-parsing.js";
import { liveOverviewOf, toolDataOf } from "./tool-data.js";

/** Facts about the window. */
export interface WeekFacts {
  /** Days in the window, when known. */
  totalDays?: number;
  /** Slots per day (12 unless a tool result says otherwise). */
  slotsPerDay: number;
  /** Day index → weekday (1 = Monday), for the days a tool result listed. */
  weekdays: Map<number, number>;
  /** Day index → date ("YYYY-MM-DD"), for the days of a dated window a tool result listed. */
  dates: Map<number, string>;
  /**
   * The prompt's "now", when it has one: in the window's time zone when the facts know it (the zone the window's dates
   * and slot times are in, and the clock rule reads), whatever zone the prompt's now line was written in.
   */
  now?: LocalClock;
  /** The window's time zone, when a tool result named it. */
  timeZone?: string;
  /** Clock times of the slots, when an overview listed them. */
  slotTimes?: SlotTime[];
}

const DOW = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Reads the window facts from tool-result text (the summaries of compressed rounds). */
function readWeekFacts(text: string): WeekFacts {
  const facts: WeekFacts = { slotsPerDay: 12, weekdays: new Map(), dates: new Map() };
  const header = /schedule: ([\d,]+) days(.*?), (\d+) slots per day/.exec(text);
  if (header) {
    facts.totalDays = Number((header[1] ?? "0").replaceAll(",", ""));
    facts.slotsPerDay = Number(header[3]);
    // "(week 1 Mon 2024-03-11 - week 1 Sun 2024-03-17, Asia/Shanghai)": the window's zone closes its span.
    const zone = /, ([^\s,()]+)\)$/.exec(header[2] ?? "")?.[1];
    if (zone !== undefined && isTimeZone(zone)) facts.timeZone = zone;
  }
  const times = /slot times: ((?:\d+ \d\d:\d\d-\d\d:\d\d(?:, )?)+)/.exec(text)?.[1];
  if (times)
    facts.slotTimes = [...times.matchAll(/\d+ (\d\d:\d\d)-(\d\d:\d\d)/g)].map(([, start = "", end = ""]) => ({
      start,
      end,
    }));
  for (const match of text.matchAll(/day (\d+) week \d+ (Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b(?: (\d{4}-\d{2}-\d{2}))?/g)) {
    facts.weekdays.set(Number(match[1]), DOW.indexOf(match[2] ?? ""));
    if (match[3] !== undefined) facts.dates.set(Number(match[1]), match[3]);
  }
  return facts;
}

/**
 * The window facts a prompt shows: from the data of its live state (the preflight overview) and of its whole
 * get_overview and query_range rounds, and from the summary lines of compressed rounds (text: they have no data).
 */
export function weekFactsOf(view: PromptView): WeekFacts {
  const facts = readWeekFacts(
    view.rounds
      .filter((round) => round.summarised)
      .map((round) => round.result)
      .join("\n"),
  );
  const overviews = [liveOverviewOf(view), ...view.rounds.map((round) => toolDataOf(round, "get_overview"))];
  for (const overview of overviews) {
    if (overview && facts.totalDays === undefined)
      [facts.totalDays, facts.slotsPerDay] = [overview.totalDays, overview.slotsPerDay];
    if (overview?.slotTimes && facts.slotTimes === undefined) facts.slotTimes = overview.slotTimes;
    if (overview?.timeZone && facts.timeZone === undefined && isTimeZone(overview.timeZone))
      facts.timeZone = overview.timeZone;
    for (const day of overview?.days ?? []) {
      facts.weekdays.set(day.day, day.dayOfWeek);
      if (day.date !== undefined) facts.dates.set(day.day, day.date);
    }
  }
  for (const round of view.rounds) {
    for (const day of toolDataOf(round, "query_range")?.days ?? []) {
      if (day.dayOfWeek !== undefined) facts.weekdays.set(day.day, day.dayOfWeek);
      if (day.date !== undefined) facts.dates.set(day.day, day.date);
    }
  }
  const now = parseNowLine(view.context);
  if (now) facts.now = inZone(now, facts.timeZone);
  return facts;
}

/**
 * A now line's clock read in the window's zone (`zone`): the stage prompts write it there, but a prompt written in
 * another zone (a replayed one, a domain without a zone) may be on another day than the window's ("tomorrow" at 00:30
 * in Shanghai is still "today" in UTC);
 * the window's days, slot times and clock rule are in its own zone. Unchanged without a zone or in the same one.
 */
function inZone(now: LocalClock, zone: string | undefined): LocalClock {
  if (zone === undefined || zone === now.timeZone || !isTimeZone(now.timeZone)) return now;
  return localClock(instantOf(now.date, now.time, now.timeZone), zone);
}

/**
 * The window as far as the facts date it — each day's date and the slots' clock times — for the tools' result texts
 * (a prediction of a write's result reads as the tool will write it); undefined without dates or clock times.
 */
export function datingOf(facts: WeekFacts): Dating {
  const first = facts.dates.get(1);
  if (first === undefined || facts.slotTimes === undefined) return undefined;
  const total = facts.totalDays ?? Math.max(...facts.dates.keys());
  const days = Array.from({ length: total }, (_, offset) => ({
    dayIndex: offset + 1,
    week: 0,
    dayOfWeek: weekdayOf(facts, offset + 1),
    date: facts.dates.get(offset + 1) ?? addDays(first, offset),
  }));
  return { days, slotTimes: facts.slotTimes };
}

/** The weekday of a day index: as listed, else counted from a Monday. */
export function weekdayOf(facts: WeekFacts, day: number): number {
  return facts.weekdays.get(day) ?? ((day - 1) % 7) + 1;
}

/** The day indices a selection names in the window (every occurrence of a weekday; the calendar days it covers), ascending. */
export function resolveDays(selection: DaySelection, facts: WeekFacts): number[] {
  const total = facts.totalDays ?? Math.max(7, ...facts.weekdays.keys(), ...selection.days);
  const days = new Set(selection.days.filter((day) => day <= total));
  // "this Thursday" without a now to count from is any Thursday, as "Thursday" is; "this week" every day.
  const weekdays = [
    ...selection.weekdays,
    ...(facts.now
      ? []
      : (selection.dates ?? []).flatMap((spec) =>
          spec.kind === "weekday" ? [spec.weekday] : spec.kind === "week" ? [1, 2, 3, 4, 5, 6, 7] : [],
        )),
  ];
  if (weekdays.length > 0) {
    for (let day = 1; day <= total; day += 1) if (weekdays.includes(weekdayOf(facts, day))) days.add(day);
  }
  for (const spec of selection.dates ?? []) {
    const dated = daysOfDate(spec, facts);
    // A date a plan step wrote beside its weekday, once the window has moved past it: that weekday.
    const fallback = dated.length === 0 && spec.kind === "date" ? spec.weekday : undefined;
    if (fallback !== undefined)
      for (let day = 1; day <= total; day += 1) if (weekdayOf(facts, day) === fallback) days.add(day);
    for (const day of dated) days.add(day);
  }
  return [...days].sort((a, b) => a - b);
}

/** The calendar days of a selection the window does not cover (or cannot place: no dates, no now), as the user wrote them. */
export function unresolvedDates(selection: DaySelection, facts: WeekFacts): string[] {
  return (selection.dates ?? [])
    .filter(
      (spec) =>
        daysOfDate(spec, facts).length === 0 &&
        !((spec.kind === "weekday" || spec.kind === "week") && !facts.now) &&
        !(spec.kind === "date" && spec.weekday !== undefined),
    )
    .map((spec) => spec.text);
}

/** Today's day index in the window by the run's clock (undefined with no clock, or when today is outside it). */
export function todayOf(facts: WeekFacts): number | undefined {
  return facts.now ? daysOfDate({ kind: "offset", days: 0, text: "today" }, facts)[0] : undefined;
}

/** The window's first and last dates, when it is dated. */
export function windowDates(facts: WeekFacts): { first: string; last: string } | undefined {
  const first = facts.dates.get(1);
  if (first === undefined) return undefined;
  const total = facts.totalDays ?? Math.max(...facts.dates.keys());
  return { first, last: facts.dates.get(total) ?? addDays(first, total - 1) };
}

/** The date of a weekday of this or a later week, from today's date. */
function dayOfWeekday(spec: Extract<DateSpec, { kind: "weekday" }>, today: string): string {
  return addDays(mondayOf(today), spec.weeks * 7 + spec.weekday - 1);
}

/**
 * A date in the year (and, said with no month — "the 8th" — the month) nearest the window: "Jan 2" in a window of late
 * December is next year's, "the 8th" in a window of Dec 1–7 is Dec 8.
 */
function nearestDate(spec: Extract<DateSpec, { kind: "date" }>, first: string): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  const [year = 2000, month = 1] = first.split("-").map(Number);
  const candidates: string[] = [];
  for (let shift = -12; shift <= 12; shift += 1) {
    const index = year * 12 + (month - 1) + shift;
    const [eachYear, eachMonth] = [Math.floor(index / 12), (index % 12) + 1];
    if (spec.month !== undefined && eachMonth !== spec.month) continue;
    if (spec.year !== undefined && eachYear !== spec.year) continue;
    candidates.push(`${eachYear}-${pad(eachMonth)}-${pad(spec.day)}`);
  }
  if (candidates.length === 0) return `${spec.year ?? year}-${pad(spec.month ?? month)}-${pad(spec.day)}`;
  return candidates.reduce((best, each) =>
    Math.abs(daysBetween(first, each)) < Math.abs(daysBetween(first, best)) ? each : best,
  );
}

/** The day indices a calendar day names: the day of its date in the window, or none (outside it, or no dates / now to count from). */
function daysOfDate(spec: DateSpec, facts: WeekFacts): number[] {
  const window = windowDates(facts);
  if (!window) return [];
  const dayOf = (date: string) => {
    const day = daysBetween(window.first, date) + 1;
    return day >= 1 && day <= daysBetween(window.first, window.last) + 1 ? [day] : [];
  };
  if (spec.kind === "onward") {
    // That day and every day of the window after it.
    if (!facts.now) return [];
    const first = Math.max(1, daysBetween(window.first, addDays(facts.now.date, spec.days)) + 1);
    const last = daysBetween(window.first, window.last) + 1;
    return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
  }
  // A side of a date or a weekday ("before Dec 8", "by next Wednesday"): the window's days on that side of it.
  if ((spec.kind === "date" || spec.kind === "weekday") && spec.side !== undefined) {
    const target =
      spec.kind === "date"
        ? nearestDate(spec, window.first)
        : facts.now
          ? dayOfWeekday(spec, facts.now.date)
          : undefined;
    if (target === undefined) return [];
    const side = spec.side;
    const total = daysBetween(window.first, window.last) + 1;
    return Array.from({ length: total }, (_, index) => index + 1).filter((day) => {
      const apart = daysBetween(target, addDays(window.first, day - 1));
      return side === "before" ? apart < 0 : side === "by" ? apart <= 0 : side === "after" ? apart > 0 : apart >= 0;
    });
  }
  if (spec.kind === "offset") return facts.now ? dayOf(addDays(facts.now.date, spec.days)) : [];
  if (spec.kind === "weekday") return facts.now ? dayOf(dayOfWeekday(spec, facts.now.date)) : [];
  // A week: the window's days from its Monday to its Sunday (from today, for what is left of this week).
  if (spec.kind === "week") {
    if (!facts.now) return [];
    const today = facts.now.date;
    const monday = addDays(mondayOf(today), spec.weeks * 7);
    return Array.from({ length: 7 }, (_, offset) => addDays(monday, offset))
      .filter((date) => !spec.fromToday || daysBetween(today, date) >= 0)
      .flatMap(dayOf);
  }
  // A date: the window's day of that day of the month (and month, and year, when said).
  const days: number[] = [];
  for (let day = 1; day <= daysBetween(window.first, window.last) + 1; day += 1) {
    const [year, month, dayOfMonth] = addDays(window.first, day - 1)
      .split("-")
      .map(Number);
    if (
      dayOfMonth === spec.day &&
      (spec.month === undefined || spec.month === month) &&
      (spec.year === undefined || spec.year === year)
    )
      days.push(day);
  }
  return days;
}

/** The slot range a window allows, for these facts. */
export function slotRangeOf(window: SlotWindow, facts: WeekFacts): { from: number; to: number } {
  const range = resolveSlotWindow(window, facts.slotsPerDay);
  // Without clock times neither limit can be read.
  if (facts.slotTimes === undefined) return range;
  // "not before 10": the first slot that starts at 10:00 or later.
  const notBefore =
    window.notBeforeHour === undefined
      ? range.from
      : Math.max(range.from, firstSlotFrom(facts.slotTimes, window.notBeforeHour));
  // "after 22:30", "晚上9点以后": the first slot that starts then or later (past the last slot when none does).
  const startsFrom = window.startsFrom;
  const from =
    startsFrom === undefined
      ? notBefore
      : Math.max(notBefore, facts.slotTimes.findIndex((time) => time.start >= startsFrom) + 1 || facts.slotsPerDay + 1);
  // "before 17:00", "10点以前": the last slot that ends by then (0 when none does).
  const endsBy = window.endsBy;
  const to =
    endsBy === undefined ? range.to : Math.min(range.to, facts.slotTimes.filter((time) => time.end <= endsBy).length);
  return { from, to };
}

/** The first day of the window `when` names (a weekday, "tomorrow" on the prompt's clock); undefined for none. */
export function firstDayOf(when: Where | undefined, facts: WeekFacts): number | undefined {
  if (!when) return undefined;
  const days = resolveDays(when.only, facts);
  return days.length === 0 ? undefined : Math.min(...days);
}

/** A day as the tools write it, with its date note in a dated window: `day 2 (Tue 12 Mar 2024)`, else `day 2`. */
export function datedDay(day: number, facts: WeekFacts): string {
  const date = facts.dates.get(day);
  return date === undefined ? `day ${day}` : `day ${day} (${formatDate(date)} ${date.slice(0, 4)})`;
}

/** "Thu 14 Mar" in a dated window, else "Monday (day 1)" (周一（第1天）) for a day index. */
export function dayName(day: number, facts: WeekFacts, language: Language): string {
  const dating = datingOf(facts);
  if (dating) return calendarDayName(dating, day, language);
  return dayLabelIn(day, (candidate) => weekdayOf(facts, candidate), language);
}

/**
 * A day `offset` days from another task or event, as a step and an answer say it (the request parser reads it back):
 * "the day before", "the same day as", "2 days after", "前一天", "那天", "后2天".
 */
export function dayOfWords(offset: number, language: Language): string {
  const size = Math.abs(offset);
  if (language === "zh") return offset === 0 ? "那天" : `${offset < 0 ? "前" : "后"}${size === 1 ? "一" : size}天`;
  if (offset === 0) return "the same day as";
  return `${size === 1 ? "the day" : `${size} days`} ${offset < 0 ? "before" : "after"}`;
}

/** Slots `start`…`end` as a person reads them: "14:00–15:40" in a window with clock times, else "slots 5-6" (第5-6节). */
export function slotWords(start: number, end: number, facts: WeekFacts, language: Language): string {
  const dating = datingOf(facts);
  const clock = dating ? slotClock(dating, start, end) : undefined;
  return clock ?? say(language, `slots ${start}-${end}`, `第${start}-${end}节`);
}

/** A place as the cards name it: "Thu 14 Mar, 16:00–17:40" in a dated window, else "Thursday (day 4), slots 7-8" (周四（第4天）第7-8节). */
export function placeWords(
  range: { day: number; start: number; end: number },
  facts: WeekFacts,
  language: Language,
): string {
  const dating = datingOf(facts);
  if (dating) return placeName(dating, range, language);
  return say(
    language,
    `${dayName(range.day, facts, language)}, slots ${range.start}-${range.end}`,
    `${dayName(range.day, facts, language)}第${range.start}-${range.end}节`,
  );
}

/** True when the clock tells that a range's first slot is still ahead (a dated window with clock times and a now only). */
export function aheadOfClock(range: SlotRange, facts: WeekFacts): boolean {
  const at = startOnClock(range, facts);
  return at !== undefined && at.start > at.now;
}

/**
 * A range's first slot and now, each "YYYY-MM-DD HH:MM", when the window dates it and the prompt says now. In a window
 * without clock times a day before today has started and today's slots have not (the clock rule), so its start is
 * its day's first moment, or, today and after, one past its day's last.
 */
export function startOnClock(range: SlotRange, facts: WeekFacts): { start: string; now: string } | undefined {
  const date = facts.dates.get(range.day);
  if (!facts.now || date === undefined) return undefined;
  const time = facts.slotTimes?.[range.start - 1]?.start ?? (date < facts.now.date ? "00:00" : "24:00");
  return { start: `${date} ${time}`, now: `${facts.now.date} ${facts.now.time}` };
}

/** True when the clock has reached a range's first slot (a dated window and a now only). */
export function hasStarted(range: SlotRange, facts: WeekFacts): boolean {
  const at = startOnClock(range, facts);
  return at !== undefined && at.start <= at.now;
}

/** Minutes after midnight of a slot's start, from the window's clock times (else an hour a slot, to order them). */
export function startMinute(slot: number, facts: WeekFacts): number {
  const time = facts.slotTimes?.[slot - 1]?.start;
  if (time === undefined) return slot * 60;
  const [hours = 0, minutes = 0] = time.split(":").map(Number);
  return hours * 60 + minutes;
}

/** A shift as a person reads it: "a day later", "2 days earlier", "60 minutes later", "later the same day" (往后推1天 …). */
export function shiftSaid(shift: MoveShift, language: Language): string {
  if ("sameDay" in shift)
    return saySummary(language, shift.sameDay === "later" ? "shiftLaterSameDay" : "shiftEarlierSameDay");
  const amount = "days" in shift ? shift.days : shift.minutes;
  const count = Math.abs(amount);
  const later = amount > 0;
  const key =
    "minutes" in shift
      ? later
        ? "shiftMinutesLater"
        : "shiftMinutesEarlier"
      : count === 1
        ? later
          ? "shiftDayLater"
          : "shiftDayEarlier"
        : later
          ? "shiftDaysLater"
          : "shiftDaysEarlier";
  return saySummary(language, key, { count });
}
