/**
 * Event series (issue 47): a recurring timetable entry stored as its rule, local clock time, time zone and exceptions
 * (`EventSeries` in state.ts), expanded into whatever window is shown. The expansion is a pure function
 * (series, window) → the event's `slots` on the window's day indices, the shape every search and write tool reads, so
 * nothing downstream knows a lecture repeats.
 *
 * Bounded work whatever the series says: whether a date is an occurrence is arithmetic on the date (no stepping from
 * the first occurrence), so expanding costs O(days of the window + exceptions), a COUNT of a billion or a series begun
 * decades ago included. What cannot be a timetable (COUNT=0, a COUNT past `MAX_SERIES_COUNT`, a date outside
 * `SERIES_YEARS`, an unknown time zone) is a `SeriesError` naming it.
 */
import {
  addDays,
  dayOfWeekOfDate,
  daysBetween,
  isIsoDate,
  isTimeZone,
  localClock,
  mondayOf,
} from "../../contracts/clock.js";
import { TempoError } from "../../errors/index.js";
import type { EventSeries, ScheduleWindow, SlotRange } from "./state.js";

/** Most occurrences a series' COUNT may give (a 16-week term of daily sessions is 112). */
export const MAX_SERIES_COUNT = 10_000;

/** Most days or weeks between two occurrences (INTERVAL). */
export const MAX_SERIES_INTERVAL = 520;

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

/** What is wrong with a series, one line each (empty for a sound one). */
export function seriesProblems(series: EventSeries): string[] {
  const problems: string[] = [];
  const { rule } = series;
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
  if (!isTimeZone(series.timeZone)) problems.push(`the time zone "${series.timeZone.slice(0, 64)}" is not known`);
  if (series.end <= series.start) problems.push(`it ends (${series.end}) before it starts (${series.start})`);
  const dates = [
    series.firstDate,
    ...(rule.until !== undefined ? [rule.until] : []),
    ...series.cancelled,
    ...series.moved.flatMap((moved) => [moved.from, moved.date]),
  ];
  const outside = dates.find((date) => !inSeriesYears(date));
  if (outside !== undefined)
    problems.push(`the date ${outside.slice(0, 32)} is not a date of ${SERIES_YEARS.first}–${SERIES_YEARS.last}`);
  else if (!occursByRule(series, series.firstDate))
    problems.push(`its first date ${series.firstDate} is not a day of its rule`);
  for (const moved of series.moved)
    if (moved.end <= moved.start) problems.push(`the occurrence moved from ${moved.from} ends before it starts`);
  return problems;
}

/** Throws a `SeriesError` naming what is wrong with a series. */
export function assertSeries(series: EventSeries, what = "The series"): void {
  const problems = seriesProblems(series);
  if (problems.length > 0) throw new SeriesError(`${what} cannot be a timetable: ${problems.join("; ")}.`);
}

/** The days of the week a rule falls on (a weekly rule without BYDAY: its first date's). */
function daysOfRule(series: EventSeries): number[] {
  return series.rule.byDay ?? [dayOfWeekOfDate(series.firstDate)];
}

/** Whether the rule gives an occurrence on a local date (exceptions aside): arithmetic, no stepping. */
export function occursByRule(series: EventSeries, date: string): boolean {
  const { rule, firstDate } = series;
  if (date < firstDate || (rule.until !== undefined && date > rule.until)) return false;
  let index: number;
  if (rule.freq === "daily") {
    const days = daysBetween(firstDate, date);
    if (days % rule.interval !== 0) return false;
    index = days / rule.interval;
  } else {
    const weekdays = daysOfRule(series);
    const weekday = dayOfWeekOfDate(date);
    if (!weekdays.includes(weekday)) return false;
    const weeks = daysBetween(mondayOf(firstDate), mondayOf(date)) / 7;
    if (weeks % rule.interval !== 0) return false;
    const firstWeekday = dayOfWeekOfDate(firstDate);
    index =
      (weeks / rule.interval) * weekdays.length +
      weekdays.filter((day) => day < weekday).length -
      weekdays.filter((day) => day < firstWeekday).length;
  }
  return rule.count === undefined || index < rule.count;
}

/** Minutes after midnight of "HH:MM". */
export function minutesOf(time: string): number {
  const [hour, minute] = time.split(":").map(Number);
  return hour! * 60 + minute!;
}

/** The UTC instant of a wall-clock time ("YYYY-MM-DD", "HH:MM") in a time zone. */
export function instantOf(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute] = time.split(":").map(Number);
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!);
  let guess = wall;
  // The zone's offset at the guess, applied until it settles (twice covers a change of offset).
  for (let round = 0; round < 3; round += 1) {
    const seen = localClock(new Date(guess), timeZone);
    const [seenYear, seenMonth, seenDay] = seen.date.split("-").map(Number);
    const [seenHour, seenMinute] = seen.time.split(":").map(Number);
    guess += wall - Date.UTC(seenYear!, seenMonth! - 1, seenDay!, seenHour!, seenMinute!);
  }
  return new Date(guess);
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
  const day = first === undefined ? 0 : daysBetween(first, date) + 1;
  if (day < 1 || day > window.days.length) return { left: "it is outside the window" };
  const covered = (window.slotTimes ?? []).flatMap((slot, index) =>
    minutesOf(slot.start) < minutesOf(end) && minutesOf(slot.end) > minutesOf(start) ? [index + 1] : [],
  );
  if (covered.length === 0) return { left: "it falls between slots" };
  return { range: { day, start: covered[0]!, end: covered.at(-1)! } };
}

/**
 * A series expanded into a dated window: each occurrence of its rule (cancelled ones out, moved ones where they were
 * moved to) converted from the series' zone to the window's and mapped to the slots it covers.
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
  // Local dates of the series that may fall in the window: a day's margin each side for the zones' difference.
  const from = addDays(first, -1);
  const to = addDays(last, 1);
  const local: Array<{ date: string; start: string; end: string }> = [];
  for (let date = from; date <= to; date = addDays(date, 1))
    if (!cancelled.has(date) && !movedFrom.has(date) && occursByRule(series, date))
      local.push({ date, start: series.start, end: series.end });
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
    if (end.date !== start.date) {
      left.push(`on ${start.date}: it runs past midnight`);
      continue;
    }
    const placed = occurrenceRange(window, start.date, start.time, end.time);
    if ("left" in placed) left.push(`on ${start.date}: ${placed.left}`);
    else occurrences.push({ date: start.date, start: start.time, end: end.time, range: placed.range });
  }
  occurrences.sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start));
  return { slots: mergedRanges(occurrences.map((occurrence) => occurrence.range)), occurrences, left };
}

/** Days of a zone known to keep one UTC offset all day (`steadyDay`), by "zone|date"; cleared past `STEADY_DAYS_KEPT`. */
const steadyDays = new Map<string, boolean>();
const STEADY_DAYS_KEPT = 20_000;

/**
 * True when `timeZone` keeps one UTC offset all through the local `date`: its offset is the same 14 hours before the
 * date's UTC midnight and 38 hours after (a span that holds the local day in every zone, too short for two changes).
 * Remembered, so a term's series share the look-ups of their dates.
 */
function steadyDay(date: string, timeZone: string): boolean {
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
