/**
 * The one-off events of a calendar file as an import reads them (issue 30): where each falls by the window's wall
 * clock, and what becomes of one outside the window — a later one (a midterm in a later week) kept for its week as a
 * series of its one occurrence, an earlier one left out and named (`importTimetable` in `calendar-files.ts`).
 */
import { localClock } from "../../contracts/clock.js";
import type { Language } from "../../contracts/language.js";
import { dateOfDay } from "./calendar.js";
import type { CalendarEventRead, CalendarMoment } from "./calendar-reader.js";
import { assertSeries, clockOf, instantOf, minutesOf, SeriesError, slotsCovered } from "./event-series.js";
import type { EventSeries, ScheduleWindow } from "./state.js";

/** One occurrence of an imported event as the card tells it: the window's date and clock, and the file's if it differs. */
export interface ImportedOccurrence {
  /** "YYYY-MM-DD" in the window's time zone. */
  date: string;
  /** "HH:MM" in the window's time zone. */
  start: string;
  end: string;
  /** The file's own zone and start time, when the file wrote it in another zone than the window's. */
  converted?: { zone: string; start: string; windowZone: string };
}

/** A one-off event of the file on a day before the window: over, so not added. */
export interface EarlierEvent {
  name: string;
  /** "YYYY-MM-DD" in the window's time zone. */
  date: string;
}

/** What an import says of a one-off before the window: "Calculus quiz on 2026-08-31: before this window; not added". */
export function earlierEventText(earlier: EarlierEvent, language: Language = "en"): string {
  if (language === "zh") return `${earlier.name}（${earlier.date}）：在本窗口之前，未添加`;
  return `${earlier.name} on ${earlier.date}: before this window; not added`;
}

/**
 * A moment of the file as the window's wall clock: anchored ones (UTC, the file's own VTIMEZONE) converted, an IANA
 * zone's wall clock resolved with Intl (the runtime's tz database, never a registry a file can write to) and
 * converted, a floating one taken as it is.
 */
export function wallClockOf(moment: CalendarMoment, timeZone: string): { date: string; minutes: number } {
  if (moment.allDay || (moment.zone === null && moment.instant === null))
    return { date: moment.date, minutes: moment.minutes };
  const instant = moment.instant ?? instantOf(moment.date, clockOf(moment.minutes), moment.zone!).getTime();
  const clock = localClock(new Date(instant), timeZone);
  return { date: clock.date, minutes: minutesOf(clock.time) };
}

/** Where a one-off of the file falls outside the window, and what becomes of it (`oneOffOutside`). */
export type OneOffOutside =
  { earlier: EarlierEvent } | { left: string } | { series: EventSeries; told: ImportedOccurrence };

/**
 * A one-off of the file whose start (in the window's zone, `timeZone`) is outside the window, or undefined when it is in it.
 * Before the window it is over (`earlier`). After it, it is kept for its week as a series of that one occurrence
 * (every roll expands each series into the window, so a midterm three weeks ahead takes its slots when its week
 * comes, as a lecture does), in the window's zone at its wall clock there — unless it could take no slot then either
 * (all-day, past midnight, between slots: `left`, with why).
 */
export function oneOffOutside(
  window: ScheduleWindow,
  timeZone: string,
  once: NonNullable<CalendarEventRead["once"]>,
  name: string,
): OneOffOutside | undefined {
  const start = wallClockOf(once.start, timeZone);
  const end = wallClockOf(once.end, timeZone);
  if (start.date < dateOfDay(window, 1)!) return { earlier: { name, date: start.date } };
  if (start.date <= dateOfDay(window, window.totalDays)!) return undefined;
  if (once.start.allDay) return { left: `${name} on ${start.date}: an all-day event takes no slots` };
  if (end.date !== start.date) return { left: `${name} on ${start.date}: it runs past midnight` };
  const [from, to] = [clockOf(start.minutes), clockOf(end.minutes)];
  const covered = slotsCovered(window, from, to);
  if ("left" in covered) return { left: `${name} on ${start.date}: ${covered.left}` };
  const series: EventSeries = {
    rule: { freq: "daily", interval: 1, count: 1 },
    firstDate: start.date,
    start: from,
    end: to,
    timeZone,
    cancelled: [],
    moved: [],
  };
  try {
    assertSeries(series, `"${name}"`);
  } catch (error) {
    if (error instanceof SeriesError) return { left: `${name} on ${start.date}: ${error.message}` };
    throw error;
  }
  const zone = once.start.zone;
  const converted =
    zone !== null && zone !== timeZone ? { zone, start: clockOf(once.start.minutes), windowZone: timeZone } : undefined;
  return { series, told: { date: start.date, start: from, end: to, ...(converted ? { converted } : {}) } };
}
