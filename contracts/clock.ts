/**
 * Wall-clock facts in a time zone, with the stdlib only: `Intl.DateTimeFormat` with `timeZone` does the zone work (no
 * hand-written tz database). Dates are ISO "YYYY-MM-DD" strings, computed on UTC midnights so that day arithmetic
 * never meets a daylight-saving jump. The "now" every stage prompt carries is built here (`nowLine`).
 */

/** A moment as a person in a time zone reads it. */
export interface LocalClock {
  /** "YYYY-MM-DD" in the zone. */
  date: string;
  /** "HH:MM", 24-hour, in the zone. */
  time: string;
  /** 1 = Monday … 7 = Sunday. */
  dayOfWeek: number;
  /** The IANA zone it was read in. */
  timeZone: string;
}

const WEEKDAY_SHORT = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;

/** True for a time zone `Intl` knows ("Asia/Shanghai", "UTC"). */
export function isTimeZone(timeZone: string): boolean {
  // Every schedule check asks this of the window's zone, and building a formatter costs more than the rest of the
  // check: zones once known are remembered (a bounded set, since case variants of a name are valid too).
  if (knownZones.has(timeZone)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    return false;
  }
  if (knownZones.size < KNOWN_ZONES_KEPT) knownZones.add(timeZone);
  return true;
}

const KNOWN_ZONES_KEPT = 1000;
const knownZones = new Set<string>();

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The last moment read in each zone and its clock. A run reads one fixed moment (its state's `now`) dozens of times
 * a conversation (45 in the load conversation: every rule book, occupancy index and week grid asks) and
 * `formatToParts` costs tens of microseconds a call in a busy worker; the same instant in the same zone always reads
 * the same, so a run reads it once (issue 44.8).
 */
const lastRead = new Map<string, { at: number; clock: LocalClock }>();

/** `moment` read in `timeZone` (which must be valid: see `isTimeZone`). */
export function localClock(moment: Date, timeZone: string): LocalClock {
  const at = moment.getTime();
  const last = lastRead.get(timeZone);
  // A copy: a caller may change the clock it was given.
  if (last !== undefined && last.at === at) return { ...last.clock };
  const clock = readLocalClock(moment, timeZone);
  // Only zones `Intl` knows get here (an unknown one throws in `readLocalClock`), so the map grows as `formatters` does.
  lastRead.set(timeZone, { at, clock: { ...clock } });
  return clock;
}

/** `moment` read in `timeZone` through the zone's formatter. */
function readLocalClock(moment: Date, timeZone: string): LocalClock {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(moment).map((part) => [part.type, part.value]));
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  return { date, time: `${parts.hour}:${parts.minute}`, dayOfWeek: dayOfWeekOfDate(date), timeZone };
}

/** Real dates already checked (`isIsoDate`), up to a bound: a process sees a few years of dates at most. */
const KNOWN_DATES_KEPT = 10_000;
const knownDates = new Set<string>();

/** True for a real calendar date written "YYYY-MM-DD". */
export function isIsoDate(date: string): boolean {
  // Every schedule check asks this of each day and series date; a date once found real stays real.
  if (knownDates.has(date)) return true;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return false;
  const moment = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  const real = moment.toISOString().slice(0, 10) === date;
  if (real && knownDates.size < KNOWN_DATES_KEPT) knownDates.add(date);
  return real;
}

/** The date `days` days after `date` (before it for a negative count). */
export function addDays(date: string, days: number): string {
  const moment = new Date(`${date}T00:00:00Z`);
  moment.setUTCDate(moment.getUTCDate() + days);
  return moment.toISOString().slice(0, 10);
}

/** Days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The day of the week of a date, 1 = Monday … 7 = Sunday. */
export function dayOfWeekOfDate(date: string): number {
  const sunday0 = new Date(`${date}T00:00:00Z`).getUTCDay();
  return sunday0 === 0 ? 7 : sunday0;
}

/** The Monday on or before `date`. */
export function mondayOf(date: string): string {
  return addDays(date, 1 - dayOfWeekOfDate(date));
}

/**
 * The one line every stage prompt carries: `Now: Thu 2024-03-14 09:30 (Asia/Shanghai)` — what "today", "tomorrow"
 * and "this Thursday" mean for this thread.
 */
export function nowLine(clock: LocalClock): string {
  return `Now: ${WEEKDAY_SHORT[clock.dayOfWeek]} ${clock.date} ${clock.time} (${clock.timeZone})`;
}

/** Reads a `nowLine` back (for a program that reads the prompt, the offline policy), or undefined. */
export function parseNowLine(text: string): LocalClock | undefined {
  const match = /Now: (?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) \(([^)\s]+)\)/.exec(text);
  if (!match || !isIsoDate(match[1]!)) return undefined;
  return { date: match[1]!, time: match[2]!, dayOfWeek: dayOfWeekOfDate(match[1]!), timeZone: match[3]! };
}

/**
 * True for an hour of the night's small hours, 1 to 5: "1am", "3 at night", "半夜3点", "凌晨5点" are before dawn, past
 * any day's end (a review is placed within its day, by midnight) — "11 at night" and "5am"'s neighbour 6 are not.
 */
export function isSmallHour(hour: number): boolean {
  return hour >= 1 && hour <= 5;
}
