/**
 * Event series (issue 47): a recurring timetable entry stored as its rule, local clock time, time zone and exceptions
 * (`EventSeries` in state.ts), expanded into whatever window is shown. The expansion is a pure function
 * (series, window) → the event's `slots` on the window's day indices, the shape every search and write tool reads, so
 * nothing downstream knows a lecture repeats.
 *
 * A rule is FREQ=DAILY, WEEKLY (BYDAY), MONTHLY (BYMONTHDAY, negative ones included, BYDAY with an ordinal such as
 * 2TU or -1FR, BYSETPOS) or YEARLY (BYMONTH, and with it BYMONTHDAY or BYDAY as a monthly rule reads them), BYMONTH
 * keeping a daily, weekly or monthly rule's occurrences in its months, with RFC 5545's meaning; a series may have
 * several rules (`moreRules`, each counted from the first date, their union); RDATEs are `added` occurrences (a PERIOD
 * one with its own end), EXDATEs cancel any occurrence. A weekly rule's first date need not be one of its days: as
 * ical.js reads it, the occurrences are then the rule's days from that date on.
 *
 * Bounded work whatever the series says: whether a date is an occurrence is arithmetic on the date (no stepping from
 * the first occurrence), so expanding costs O(days of the window + exceptions), a COUNT of a billion or a series begun
 * decades ago included. The one stepping is a monthly rule's COUNT turned into its last date, once per series, over at
 * most the months of `SERIES_YEARS` (a daily or weekly rule with BYMONTH: its days). Dates are day numbers inside (no date strings parsed per day), and a series'
 * rule is read once (`compiledRule`, kept with the series object). What cannot be a timetable (COUNT=0, a COUNT past `MAX_SERIES_COUNT`, a date outside
 * `SERIES_YEARS`, an unknown time zone) is a `SeriesError` naming it.
 */
import { addDays, isIsoDate, isTimeZone, localClock } from "../../contracts/clock.js";
import { TempoError } from "../../errors/index.js";
import {
  MAX_ADDED_OCCURRENCES,
  MAX_CANCELLED_OCCURRENCES,
  MAX_MOVED_OCCURRENCES,
  type EventSeries,
  type ScheduleWindow,
  type SeriesRule,
  type SlotRange,
} from "./state.js";

export { MAX_ADDED_OCCURRENCES, MAX_CANCELLED_OCCURRENCES, MAX_MOVED_OCCURRENCES } from "./state.js";

/** Most occurrences a series' COUNT may give (a 16-week term of daily sessions is 112). */
export const MAX_SERIES_COUNT = 10_000;

/** Most days, weeks or months between two occurrences (INTERVAL). */
export const MAX_SERIES_INTERVAL = 520;

/** Most months between two occurrences of a monthly rule (INTERVAL): ten years. */
export const MAX_MONTHLY_INTERVAL = 120;

/** Most years between two occurrences of a yearly rule (INTERVAL). */
export const MAX_YEARLY_INTERVAL = 10;

/** Most rules (RRULEs) one series may have. */
export const MAX_SERIES_RULES = 8;

/** The years a series' dates may lie in: a timetable is not dated before 1970 or past 2199. */
export const SERIES_YEARS = { first: 1970, last: 2199 } as const;

/** A series that cannot be a timetable. */
export class SeriesError extends TempoError {
  constructor(message: string) {
    super("INVALID_INPUT", message);
    this.name = "SeriesError";
  }
}

/** One occurrence in the window: its date and clock times in the window's zone, and the slots it covers. */
export interface WindowOccurrence {
  date: string;
  start: string;
  end: string;
  range: SlotRange;
}

/** A series expanded into a window: its slots (sorted, the event's `slots`), each occurrence, and what did not fit. */
export interface SeriesExpansion {
  slots: SlotRange[];
  occurrences: WindowOccurrence[];
  /** Occurrences in the window that take no slot, with why ("on 2026-03-23: it falls between slots"). */
  left: string[];
}

/** True for a date of `SERIES_YEARS`. */
function inSeriesYears(date: string): boolean {
  const year = Number(date.slice(0, 4));
  return isIsoDate(date) && year >= SERIES_YEARS.first && year <= SERIES_YEARS.last;
}

/** What is wrong with a rule's BY… parts for its FREQ, one line each. */
function partProblems(rule: SeriesRule): string[] {
  const problems: string[] = [];
  const monthly = rule.freq === "monthly";
  const yearly = rule.freq === "yearly";
  if (!monthly && !yearly && (rule.byNthDay !== undefined || rule.byMonthDay !== undefined))
    problems.push(`a ${rule.freq} rule has no BYMONTHDAY or BYDAY with an ordinal`);
  if (!monthly && rule.bySetPos !== undefined) problems.push(`a ${rule.freq} rule is kept without BYSETPOS`);
  if (
    yearly &&
    rule.byMonth === undefined &&
    (rule.byDay !== undefined || rule.byNthDay !== undefined || rule.byMonthDay !== undefined)
  )
    problems.push("a yearly rule's BYDAY or BYMONTHDAY needs BYMONTH");
  if (rule.freq === "daily" && rule.byDay !== undefined) problems.push("a daily rule has no BYDAY");
  if (
    rule.byMonth !== undefined &&
    (rule.byMonth.length === 0 || rule.byMonth.some((month) => !(month >= 1 && month <= 12 && Number.isInteger(month))))
  )
    problems.push("a BYMONTH is not 1 … 12");
  if (rule.byMonthDay?.some((day) => !Number.isInteger(day) || day === 0 || Math.abs(day) > 31))
    problems.push("a BYMONTHDAY is not 1 … 31 or -1 … -31");
  if (
    rule.byNthDay?.some(
      ({ nth, day }) => !Number.isInteger(nth) || nth === 0 || Math.abs(nth) > 5 || !(day >= 1 && day <= 7),
    )
  )
    problems.push("an ordinal of BYDAY is not 1 … 5 or -1 … -5");
  if (rule.bySetPos?.some((position) => !Number.isInteger(position) || position === 0 || Math.abs(position) > 31))
    problems.push("a BYSETPOS is not 1 … 31 or -1 … -31");
  if (rule.bySetPos !== undefined && rule.byDay === undefined && rule.byNthDay === undefined && !rule.byMonthDay)
    problems.push("BYSETPOS needs BYDAY or BYMONTHDAY");
  if (monthly && rule.interval > MAX_MONTHLY_INTERVAL)
    problems.push(`INTERVAL=${rule.interval} is more than the ${MAX_MONTHLY_INTERVAL} months a monthly rule may skip`);
  if (yearly && rule.interval > MAX_YEARLY_INTERVAL)
    problems.push(`INTERVAL=${rule.interval} is more than the ${MAX_YEARLY_INTERVAL} years a yearly rule may skip`);
  return problems;
}

/** What is wrong with one rule of a series, one line each. */
function ruleProblems(rule: SeriesRule): string[] {
  const problems: string[] = [];
  if (rule.count !== undefined && (!Number.isInteger(rule.count) || rule.count < 1))
    problems.push(`COUNT=${rule.count} gives no occurrence`);
  if (rule.count !== undefined && rule.count > MAX_SERIES_COUNT)
    problems.push(
      `COUNT=${rule.count} is more than the ${MAX_SERIES_COUNT.toLocaleString("en-US")} occurrences a series may have`,
    );
  if (!Number.isInteger(rule.interval) || rule.interval < 1 || rule.interval > MAX_SERIES_INTERVAL)
    problems.push(`INTERVAL=${rule.interval} is not between 1 and ${MAX_SERIES_INTERVAL}`);
  if (rule.freq === "weekly" && rule.byDay !== undefined && rule.byDay.length === 0)
    problems.push("a weekly rule needs at least one day (BYDAY)");
  problems.push(...partProblems(rule));
  return problems;
}

/** A series' rules: its `rule`, then `moreRules`. */
function rulesOf(series: EventSeries): SeriesRule[] {
  return series.moreRules === undefined ? [series.rule] : [series.rule, ...series.moreRules];
}

/**
 * True when a series' first date may be off its rule: a weekly rule without BYMONTH, whose occurrences ical.js takes
 * to be the rule's days from that date on. Of another rule, RFC 5545 leaves such a start's meaning open.
 */
function startMayBeOffRule(series: EventSeries): boolean {
  return rulesOf(series).every((rule) => rule.freq === "weekly" && rule.byMonth === undefined);
}

/** What is wrong with a series, one line each (empty for a sound one). */
export function seriesProblems(series: EventSeries): string[] {
  if (soundSeries.has(series)) return [];
  const problems: string[] = [];
  const rules = rulesOf(series);
  if (rules.length > MAX_SERIES_RULES)
    problems.push(`it has more than the ${MAX_SERIES_RULES} rules (RRULE) a series may have`);
  else for (const rule of rules) problems.push(...ruleProblems(rule));
  if (!isTimeZone(series.timeZone)) problems.push(`the time zone "${series.timeZone.slice(0, 64)}" is not known`);
  if (series.end <= series.start) problems.push(`it ends (${series.end}) before it starts (${series.start})`);
  const dates = [
    series.firstDate,
    ...rules.flatMap((rule) => (rule.until !== undefined ? [rule.until] : [])),
    ...series.cancelled,
    ...series.moved.flatMap((moved) => [moved.from, moved.date]),
    ...(series.added ?? []).map((added) => added.date),
  ];
  const outside = dates.find((date) => !inSeriesYears(date));
  if (outside !== undefined)
    problems.push(`the date ${outside.slice(0, 32)} is not a date of ${SERIES_YEARS.first}–${SERIES_YEARS.last}`);
  else if (problems.length === 0 && !startMayBeOffRule(series) && !occursByRule(series, series.firstDate))
    problems.push(`its first date ${series.firstDate} is not a day of its rule`);
  if (series.cancelled.length > MAX_CANCELLED_OCCURRENCES)
    problems.push(`it has more than the ${MAX_CANCELLED_OCCURRENCES} cancelled occurrences (EXDATE) a series may have`);
  if (series.moved.length > MAX_MOVED_OCCURRENCES)
    problems.push(`it has more than the ${MAX_MOVED_OCCURRENCES} moved occurrences (RECURRENCE-ID) a series may have`);
  for (const moved of series.moved)
    if (moved.end <= moved.start) problems.push(`the occurrence moved from ${moved.from} ends before it starts`);
  if ((series.added?.length ?? 0) > MAX_ADDED_OCCURRENCES)
    problems.push(`it has more than the ${MAX_ADDED_OCCURRENCES} added occurrences (RDATE) a series may have`);
  for (const added of series.added ?? []) {
    if (added.end !== undefined && added.end <= added.start)
      problems.push(`the occurrence added on ${added.date} ends (${added.end}) before it starts (${added.start})`);
    else if (
      added.end === undefined &&
      minutesOf(added.start) + minutesOf(series.end) - minutesOf(series.start) >= 24 * 60
    )
      problems.push(`the occurrence added on ${added.date} at ${added.start} runs past midnight`);
  }
  if (problems.length === 0) soundSeries.add(series);
  return problems;
}

/** Series objects already found sound (a series in state is not changed in place: a change is a new object). */
const soundSeries = new WeakSet<EventSeries>();

/** Throws a `SeriesError` naming what is wrong with a series. */
export function assertSeries(series: EventSeries, what = "The series"): void {
  const problems = seriesProblems(series);
  if (problems.length > 0) throw new SeriesError(`${what} cannot be a timetable: ${problems.join("; ")}.`);
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of "YYYY-MM-DD". */
function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

/** Dates of day numbers already written (`dateOfNumber`), cleared past `DATES_KEPT`. */
const datesOfNumbers = new Map<number, string>();
const DATES_KEPT = 20_000;

/** "YYYY-MM-DD" of a day number. */
function dateOfNumber(day: number): string {
  let date = datesOfNumbers.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (datesOfNumbers.size >= DATES_KEPT) datesOfNumbers.clear();
    datesOfNumbers.set(day, date);
  }
  return date;
}

/** The day of the week of a day number, 1 = Monday … 7 = Sunday (day 0, 1 Jan 1970, was a Thursday). */
function weekdayOfNumber(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** Months since January 1970 of a year and a month 0 … 11. */
function monthIndex(year: number, month: number): number {
  return (year - 1970) * 12 + month;
}

/** The day number of the 1st of a month (its index since January 1970), and how many days it has. */
function monthOfIndex(index: number): { first: number; length: number } {
  const year = 1970 + Math.floor(index / 12);
  const month = index - (year - 1970) * 12;
  const first = Date.UTC(year, month, 1) / DAY_MS;
  return { first, length: Date.UTC(year, month + 1, 1) / DAY_MS - first };
}

/**
 * The days of one month (1 … its length, ascending) a monthly rule gives, exceptions and bounds aside: BYMONTHDAY
 * (negative from the month's end) and BYDAY (every such weekday, or the nth one) intersected when both are given, the
 * first date's day of the month when neither is (a month without that day has none), then BYSETPOS.
 */
function monthDays(rule: SeriesRule, firstDayOfMonth: number, month: { first: number; length: number }): number[] {
  const { length } = month;
  const weekdayOfFirst = weekdayOfNumber(month.first);
  /** The day of the month of the `nth` `weekday` (negative from the end), or 0 when the month has none. */
  const nthOf = (nth: number, weekday: number): number => {
    const firstSuch = ((weekday - weekdayOfFirst + 7) % 7) + 1;
    if (nth > 0) return firstSuch + (nth - 1) * 7 <= length ? firstSuch + (nth - 1) * 7 : 0;
    const lastSuch = firstSuch + Math.floor((length - firstSuch) / 7) * 7;
    return lastSuch + (nth + 1) * 7 >= 1 ? lastSuch + (nth + 1) * 7 : 0;
  };
  let byWeekday: Set<number> | undefined;
  if (rule.byDay !== undefined || rule.byNthDay !== undefined) {
    byWeekday = new Set<number>();
    for (const weekday of rule.byDay ?? [])
      for (let day = nthOf(1, weekday); day <= length; day += 7) byWeekday.add(day);
    for (const { nth, day: weekday } of rule.byNthDay ?? []) {
      const day = nthOf(nth, weekday);
      if (day > 0) byWeekday.add(day);
    }
  }
  const byMonthDay =
    rule.byMonthDay === undefined
      ? undefined
      : rule.byMonthDay.map((day) => (day > 0 ? day : length + 1 + day)).filter((day) => day >= 1 && day <= length);
  let days: number[];
  if (byMonthDay !== undefined) days = byWeekday ? byMonthDay.filter((day) => byWeekday.has(day)) : byMonthDay;
  else if (byWeekday !== undefined) days = [...byWeekday];
  else days = firstDayOfMonth <= length ? [firstDayOfMonth] : [];
  days = [...new Set(days)].sort((a, b) => a - b);
  if (rule.bySetPos === undefined) return days;
  const kept = rule.bySetPos
    .map((position) => days[position > 0 ? position - 1 : days.length + position])
    .filter((day): day is number => day !== undefined);
  return [...new Set(kept)].sort((a, b) => a - b);
}

/** A series' rule read once: its first and last day numbers and whether a day in between is one of its days. */
interface CompiledRule {
  first: number;
  /** The last day an occurrence may fall on (UNTIL, or COUNT's last occurrence); Infinity when unbounded. */
  last: number;
  /** Whether the rule (bounds aside) falls on a day. */
  falls: (day: number) => boolean;
  /** The rule's days of one month (its index since January 1970), bounds aside, for a monthly or yearly rule. */
  monthDays?: (index: number) => number[];
  /** The rule compiled. */
  rule: SeriesRule;
}

/** Compiled rules by series object (`compiledRules`). */
const compiledRuleLists = new WeakMap<EventSeries, CompiledRule[]>();

/** The last day number of `SERIES_YEARS`. */
const LAST_SERIES_DAY = Date.UTC(SERIES_YEARS.last, 11, 31) / DAY_MS;

/** A series' rules as `CompiledRule`s, read once per series object. */
function compiledRules(series: EventSeries): CompiledRule[] {
  let known = compiledRuleLists.get(series);
  if (known === undefined) {
    const first = dayNumber(series.firstDate);
    known = rulesOf(series).map((rule) => compiledRule(rule, first));
    compiledRuleLists.set(series, known);
  }
  return known;
}

/** The month (1 … 12) of a day number. */
function monthOfDay(day: number): number {
  return new Date(day * DAY_MS).getUTCMonth() + 1;
}

/** One rule read as a `CompiledRule`, from the series' first day number. */
function compiledRule(rule: SeriesRule, first: number): CompiledRule {
  const until = rule.until === undefined ? Infinity : dayNumber(rule.until);
  const interval = Math.max(1, Math.floor(rule.interval));
  const count = rule.count === undefined ? undefined : Math.max(0, Math.min(rule.count, MAX_SERIES_COUNT + 1));
  const months = rule.byMonth === undefined ? undefined : new Set(rule.byMonth);
  let falls: (day: number) => boolean;
  let last = Infinity;
  let ofMonth: ((index: number) => number[]) | undefined;
  if (rule.freq === "daily" || rule.freq === "weekly") {
    if (rule.freq === "daily") falls = (day) => (day - first) % interval === 0;
    else {
      const weekdays = [...new Set(rule.byDay ?? [weekdayOfNumber(first)])].sort((a, b) => a - b);
      const mondayOfFirst = first - weekdayOfNumber(first) + 1;
      falls = (day) => {
        const weekday = weekdayOfNumber(day);
        return weekdays.includes(weekday) && ((day - weekday + 1 - mondayOfFirst) / 7) % interval === 0;
      };
      if (count !== undefined && weekdays.length > 0 && months === undefined) {
        // The COUNTth occurrence: index count - 1, counted from the first date's place among the rule's weekdays.
        const index = count - 1 + weekdays.filter((day) => day < weekdayOfNumber(first)).length;
        last =
          mondayOfFirst + Math.floor(index / weekdays.length) * interval * 7 + weekdays[index % weekdays.length]! - 1;
      }
    }
    if (months !== undefined) {
      const ofRule = falls;
      falls = (day) => ofRule(day) && months.has(monthOfDay(day));
    }
    if (count !== undefined && rule.freq === "daily" && months === undefined) last = first + (count - 1) * interval;
    else if (count !== undefined && last === Infinity) {
      // COUNT stepped day by day (a rule with BYMONTH) to its last occurrence, within `SERIES_YEARS`.
      let seen = 0;
      for (let day = first; day <= Math.min(until, LAST_SERIES_DAY); day += 1)
        if (falls(day) && ++seen === count) {
          last = day;
          break;
        }
    }
  } else {
    const start = new Date(first * DAY_MS);
    const firstMonth = monthIndex(start.getUTCFullYear(), start.getUTCMonth());
    const dayOfMonth = start.getUTCDate();
    const yearly = rule.freq === "yearly";
    // A yearly rule's months: BYMONTH, else the first date's; a monthly one's, every INTERVALth month (in BYMONTH).
    const inRule = (index: number): boolean => {
      const month = (index % 12) + 1;
      if (yearly)
        return (
          (Math.floor(index / 12) - Math.floor(firstMonth / 12)) % interval === 0 &&
          (months === undefined ? month === (firstMonth % 12) + 1 : months.has(month))
        );
      return (index - firstMonth) % interval === 0 && (months === undefined || months.has(month));
    };
    const days = new Map<number, number[]>();
    ofMonth = (index) => {
      let found = days.get(index);
      if (found === undefined) {
        found = inRule(index) ? monthDays(rule, dayOfMonth, monthOfIndex(index)) : [];
        if (days.size > 256) days.clear();
        days.set(index, found);
      }
      return found;
    };
    const monthDaysOf = ofMonth;
    falls = (day) => {
      const date = new Date(day * DAY_MS);
      return monthDaysOf(monthIndex(date.getUTCFullYear(), date.getUTCMonth())).includes(date.getUTCDate());
    };
    if (count !== undefined) {
      // COUNT stepped month by month (the rule's months only) to its last occurrence, within `SERIES_YEARS`.
      let seen = 0;
      const step = yearly || months !== undefined ? 1 : interval;
      for (let index = firstMonth; last === Infinity && seen < count; index += step) {
        const month = monthOfIndex(index);
        if (month.first > Math.min(until, LAST_SERIES_DAY)) break;
        for (const day of monthDaysOf(index)) {
          if (month.first + day - 1 < first) continue;
          seen += 1;
          if (seen === count) {
            last = month.first + day - 1;
            break;
          }
        }
      }
    }
  }
  return { first, last: Math.min(last, until), falls, ...(ofMonth ? { monthDays: ofMonth } : {}), rule };
}

/** Whether the rule gives an occurrence on a day number (exceptions aside). */
function occursOnDay(compiled: CompiledRule, day: number): boolean {
  return day >= compiled.first && day <= compiled.last && compiled.falls(day);
}

/** Whether one of a series' rules gives an occurrence on a day number (exceptions aside). */
function occursOnDayOfAny(compiled: readonly CompiledRule[], day: number): boolean {
  return compiled.some((one) => occursOnDay(one, day));
}

/** Whether the rule gives an occurrence on a local date (exceptions and added dates aside): arithmetic, no stepping. */
export function occursByRule(series: EventSeries, date: string): boolean {
  return occursOnDayOfAny(compiledRules(series), dayNumber(date));
}

/**
 * True when a series has an occurrence after `date`: a moved or added one, or one of a rule within one full period
 * after it (a year more with BYMONTH; a monthly rule's months looked at for four years of them, a yearly rule's for
 * nine, which hold a 29 February) that is not cancelled (EXDATE) or moved away: RFC 5545 takes the EXDATEs out of the
 * set the rules give, so a rule whose later days are all cancelled has nothing after `date`.
 */
export function occursAfter(series: EventSeries, date: string): boolean {
  if (series.moved.some((moved) => moved.date > date)) return true;
  if ((series.added ?? []).some((added) => added.date > date && !series.cancelled.includes(added.date))) return true;
  const gone = new Set([...series.cancelled, ...series.moved.map((moved) => moved.from)].map(dayNumber));
  return compiledRules(series).some((compiled) => {
    // Each day the rule gives after `date`, in turn, until one is not gone: at most one more than the days gone.
    for (let day = ruleDayAfter(compiled, dayNumber(date)); day !== undefined; day = ruleDayAfter(compiled, day))
      if (!gone.has(day)) return true;
    return false;
  });
}

/** The first day number after `after` one compiled rule gives, within one full period (`occursAfter`), or undefined. */
function ruleDayAfter(compiled: CompiledRule, from: number): number | undefined {
  if (compiled.last <= from) return undefined;
  // A rule that starts later gives nothing before its first day: the period is looked at from there.
  const after = Math.max(from, compiled.first - 1);
  const { rule } = compiled;
  if (compiled.monthDays === undefined) {
    const period = (rule.freq === "weekly" ? 7 * rule.interval : rule.interval) + (rule.byMonth ? 366 : 0);
    for (let day = after + 1; day <= after + period; day += 1) if (occursOnDay(compiled, day)) return day;
    return undefined;
  }
  const at = new Date(after * DAY_MS);
  const fromMonth = monthIndex(at.getUTCFullYear(), at.getUTCMonth());
  const span = rule.freq === "yearly" ? 12 * 9 * rule.interval : 49 * rule.interval;
  for (let index = fromMonth; index <= fromMonth + span; index += 1) {
    const month = monthOfIndex(index);
    if (month.first > compiled.last) return undefined;
    const days = compiled
      .monthDays(index)
      .map((day) => month.first + day - 1)
      .filter((day) => day > after && occursOnDay(compiled, day));
    if (days.length > 0) return Math.min(...days);
  }
  return undefined;
}

/** Minutes after midnight of "HH:MM" (read from its character codes: it is read for every occurrence of a term). */
export function minutesOf(time: string): number {
  if (time.length === 5 && time.charCodeAt(2) === 58)
    return (
      (time.charCodeAt(0) - 48) * 600 +
      (time.charCodeAt(1) - 48) * 60 +
      (time.charCodeAt(3) - 48) * 10 +
      (time.charCodeAt(4) - 48)
    );
  const [hour, minute] = time.split(":").map(Number);
  return hour! * 60 + minute!;
}

/**
 * The UTC instant of a wall-clock time ("YYYY-MM-DD", "HH:MM") in a time zone. A time the clocks pass twice (they go
 * back) is its first passing, as RFC 5545 reads it; a time they skip (they go forward: 02:30 in Berlin on the last
 * Sunday of March) is the moment they jump, the first whose wall clock is at or after it — when the window's clock
 * (`window-clock.ts`) counts a slot of that time as started — so a slot 02:30–03:15 that day is 03:00–03:15, never
 * an hour before the jump nor an end before its start.
 */
export function instantOf(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute] = time.split(":").map(Number);
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!);
  // A zone changes its offset at most once in two days: the offsets a day either side are the only ones it can have.
  const offsetAt = (ms: number) => wallOf(ms, timeZone) - Math.floor(ms / 60_000) * 60_000;
  const readings = [wall - offsetAt(wall - DAY_MS), wall - offsetAt(wall + DAY_MS)].sort((a, b) => a - b);
  const exact = readings.find((ms) => wallOf(ms, timeZone) === wall);
  if (exact !== undefined) return new Date(exact);
  // Skipped: the jump lies between the two readings; the first minute whose wall clock reaches the time, by halving.
  let [low, high] = readings as [number, number];
  while (high - low > 60_000) {
    const middle = low + Math.floor((high - low) / 2 / 60_000) * 60_000;
    if (wallOf(middle, timeZone) >= wall) high = middle;
    else low = middle;
  }
  return new Date(high);
}

/** The wall clock of instant `ms` in a zone, as the UTC milliseconds of the same date and time (to the minute). */
function wallOf(ms: number, timeZone: string): number {
  const seen = localClock(new Date(ms), timeZone);
  const [year, month, day] = seen.date.split("-").map(Number);
  const [hour, minute] = seen.time.split(":").map(Number);
  return Date.UTC(year!, month! - 1, day!, hour!, minute!);
}

/** A window's slot times as minutes after midnight, by slot-times list (read once per window, not per occurrence). */
const slotMinutes = new WeakMap<readonly { start: string; end: string }[], Array<{ start: number; end: number }>>();

/** The minutes of a window's slot times (`slotMinutes`). */
function minutesOfSlots(window: ScheduleWindow): Array<{ start: number; end: number }> {
  const times = window.slotTimes ?? [];
  let minutes = slotMinutes.get(times);
  if (minutes === undefined) {
    minutes = times.map((slot) => ({ start: minutesOf(slot.start), end: minutesOf(slot.end) }));
    slotMinutes.set(times, minutes);
  }
  return minutes;
}

/**
 * The slots a clock time takes on a day of the window (in the window's zone): every slot whose clock times overlap
 * [start, end), or why it takes none.
 */
export function slotsCovered(
  window: ScheduleWindow,
  start: string,
  end: string,
): { start: number; end: number } | { left: string } {
  const [from, to] = [minutesOf(start), minutesOf(end)];
  let low = 0;
  let high = 0;
  minutesOfSlots(window).forEach((slot, index) => {
    if (slot.start >= to || slot.end <= from) return;
    if (low === 0) low = index + 1;
    high = index + 1;
  });
  if (low === 0) return { left: "it falls between slots" };
  return { start: low, end: high };
}

/**
 * The slots of one occurrence in a dated window (its wall clock already in the window's zone), or why it takes none:
 * every slot whose clock times overlap [start, end).
 */
export function occurrenceRange(
  window: ScheduleWindow,
  date: string,
  start: string,
  end: string,
): { range: SlotRange } | { left: string } {
  const first = window.days[0]?.date;
  const day = first === undefined ? 0 : dayNumber(date) - dayNumber(first) + 1;
  if (day < 1 || day > window.days.length) return { left: "it is outside the window" };
  const covered = slotsCovered(window, start, end);
  return "left" in covered ? covered : { range: { day, ...covered } };
}

/**
 * A series expanded into a dated window: each occurrence of its rule and each added one (cancelled ones out, moved
 * ones where they were moved to) converted from the series' zone to the window's and mapped to the slots it covers.
 */
export function expandSeries(series: EventSeries, window: ScheduleWindow): SeriesExpansion {
  assertSeries(series);
  const first = window.days[0]?.date;
  const last = window.days.at(-1)?.date;
  if (first === undefined || last === undefined || window.timeZone === undefined || window.slotTimes === undefined)
    throw new SeriesError(
      "A series is expanded into a window with dates, a time zone and slot times; this one has none.",
    );
  const cancelled = new Set(series.cancelled);
  const movedFrom = new Set(series.moved.map((moved) => moved.from));
  const compiled = compiledRules(series);
  const lastOfRules = Math.max(...compiled.map((one) => one.last));
  const firstOfRules = Math.min(...compiled.map((one) => one.first));
  // Local dates of the series that may fall in the window: a day's margin each side for the zones' difference.
  const from = addDays(first, -1);
  const to = addDays(last, 1);
  const local: Array<{ date: string; start: string; end: string }> = [];
  const lastDay = Math.min(dayNumber(to), lastOfRules);
  for (let day = Math.max(dayNumber(from), firstOfRules); day <= lastDay; day += 1) {
    if (!occursOnDayOfAny(compiled, day)) continue;
    const date = dateOfNumber(day);
    if (!cancelled.has(date) && !movedFrom.has(date)) local.push({ date, start: series.start, end: series.end });
  }
  const length = minutesOf(series.end) - minutesOf(series.start);
  for (const added of series.added ?? []) {
    if (added.date < from || added.date > to || cancelled.has(added.date) || movedFrom.has(added.date)) continue;
    // An RDATE on an occurrence of the rule is that occurrence (RFC 5545: a set of instants).
    const end = added.end ?? clockOf(minutesOf(added.start) + length);
    if (added.start === series.start && end === series.end && occursOnDayOfAny(compiled, dayNumber(added.date)))
      continue;
    local.push({ date: added.date, start: added.start, end });
  }
  for (const moved of series.moved)
    if (moved.date >= from && moved.date <= to && !cancelled.has(moved.from)) local.push(moved);

  const occurrences: WindowOccurrence[] = [];
  const left: string[] = [];
  for (const occurrence of local) {
    // In the window's own zone, on a day its clocks do not change, the wall clock is the window's as it is.
    const same = series.timeZone === window.timeZone && steadyDay(occurrence.date, series.timeZone);
    const start = same
      ? { date: occurrence.date, time: occurrence.start }
      : localClock(instantOf(occurrence.date, occurrence.start, series.timeZone), window.timeZone);
    const end = same
      ? { date: occurrence.date, time: occurrence.end }
      : localClock(instantOf(occurrence.date, occurrence.end, series.timeZone), window.timeZone);
    if (start.date < first || start.date > last) continue;
    // Same date, and an end not after the start of an occurrence that has a length: the window's clocks go back
    // within it (08:45–09:30 in Shanghai is 02:45 CEST to 02:30 CET in Berlin on the last Sunday of October).
    const backwards = end.time < start.time || (end.time === start.time && occurrence.end > occurrence.start);
    if (end.date !== start.date || backwards) {
      left.push(
        `on ${start.date}: ${end.date !== start.date ? "it runs past midnight" : "the clocks go back during it"}`,
      );
      continue;
    }
    const placed = occurrenceRange(window, start.date, start.time, end.time);
    if ("left" in placed) left.push(`on ${start.date}: ${placed.left}`);
    else occurrences.push({ date: start.date, start: start.time, end: end.time, range: placed.range });
  }
  occurrences.sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start));
  return { slots: mergedRanges(occurrences.map((occurrence) => occurrence.range)), occurrences, left };
}

/** "HH:MM" of minutes after midnight (24:00 and later written as they are, for a time past midnight to be seen). */
export function clockOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** Days of a zone known to keep one UTC offset all day (`steadyDay`), by "zone|date"; cleared past `STEADY_DAYS_KEPT`. */
const steadyDays = new Map<string, boolean>();
const STEADY_DAYS_KEPT = 20_000;

/**
 * True when `timeZone` keeps one UTC offset all through the local `date`: its offset is the same 14 hours before the
 * date's UTC midnight and 38 hours after (a span that holds the local day in every zone, too short for two changes).
 * Remembered, so a term's series share the look-ups of their dates.
 */
export function steadyDay(date: string, timeZone: string): boolean {
  const key = `${timeZone}|${date}`;
  const known = steadyDays.get(key);
  if (known !== undefined) return known;
  const [year, month, day] = date.split("-").map(Number);
  const midnight = Date.UTC(year!, month! - 1, day!);
  const offset = (instant: number) => {
    const seen = localClock(new Date(instant), timeZone);
    const [seenYear, seenMonth, seenDay] = seen.date.split("-").map(Number);
    const [hour, minute] = seen.time.split(":").map(Number);
    return Date.UTC(seenYear!, seenMonth! - 1, seenDay!, hour!, minute!) - Math.floor(instant / 60_000) * 60_000;
  };
  const steady = offset(midnight - 14 * 3_600_000) === offset(midnight + 38 * 3_600_000);
  if (steadyDays.size >= STEADY_DAYS_KEPT) steadyDays.clear();
  steadyDays.set(key, steady);
  return steady;
}

/** Ranges sorted by day and slot, those of one day that overlap or touch made one (an event's compressed slots). */
export function mergedRanges(ranges: readonly SlotRange[]): SlotRange[] {
  const sorted = [...ranges].sort((a, b) => a.day - b.day || a.start - b.start);
  const merged: SlotRange[] = [];
  for (const range of sorted) {
    const previous = merged.at(-1);
    if (previous !== undefined && previous.day === range.day && range.start <= previous.end + 1)
      previous.end = Math.max(previous.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}
