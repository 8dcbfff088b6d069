/**
 * Calendar files (issue 30): a timetable read from iCalendar (RFC 5545) with ical.js — recurring lectures expanded
 * into the window's dates, each occurrence mapped to the slots whose clock times it covers in the window's time zone
 * — and the arranged week written as iCalendar with ical-generator, every event and every placed review with its real
 * start and end. No RFC 5545 parsing by hand. A file that cannot be read, or a window without dates, is a clear error
 * (`CalendarFileError`) and changes nothing.
 */
import ical from "ical-generator";
import { addDays, localClock } from "../../contracts/clock.js";
import { buildEventTask } from "./canonical-form.js";
import { dateOfDay, dayOfDate } from "./calendar.js";
import { TASK_ID_PATTERN, type EventTask, type ScheduleState, type SlotRange } from "./state.js";

import {
  CalendarFileError,
  DEFAULT_CALENDAR_READ_LIMITS,
  readCalendarEvents,
  type CalendarMoment,
  type CalendarReadLimits,
} from "./calendar-reader.js";

export { CalendarFileError } from "./calendar-reader.js";

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

/** What an import found: the events to add, when each occurs, and what it left out with why. */
export interface TimetableImport {
  events: EventTask[];
  /** Each added event's occurrences in the window, by event id. */
  times: Record<string, ImportedOccurrence[]>;
  skipped: string[];
}

/** Longest name an imported event keeps: `add_task`'s limit for a task's name. */
export const IMPORTED_NAME_LIMIT = 120;

/**
 * A SUMMARY as plain text a card or terminal can show: terminal escape sequences and other control characters, HTML
 * tags and Markdown marks taken out, whitespace runs made one space, and cut to `add_task`'s 120 characters.
 */
export function plainEventName(summary: string): string {
  const plain = summary
    // eslint-disable-next-line no-control-regex -- it removes terminal escape sequences, so it names them
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g, "") // OSC sequences (titles, hyperlinks)
    // eslint-disable-next-line no-control-regex -- it removes terminal escape sequences, so it names them
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, "") // CSI sequences (colours, cursor moves)
    // eslint-disable-next-line no-control-regex -- it removes terminal escape sequences, so it names them
    .replace(/\u001b[@-_]?/g, "")
    .replace(/<[^<>]*>/g, "") // HTML tags
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // Markdown links and images: their text
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\u2028\u2029]/gu, " ") // control, format (bidi), lone surrogate, private use
    .replace(/[<>`*_~|[\]\\]/g, "")
    .replace(/^[\s#>=+-]+/, "") // Markdown headings, quotes, list marks
    .replace(/\s+/g, " ")
    .trim();
  if (plain.length <= IMPORTED_NAME_LIMIT) return plain || "(untitled event)";
  // Cut by whole characters (never half a surrogate pair), the ellipsis within the limit.
  let kept = "";
  for (const character of plain) {
    if (kept.length + character.length > IMPORTED_NAME_LIMIT - 1) break;
    kept += character;
  }
  return `${kept.trimEnd()}…`;
}

/** The window's calendar, or an error saying the window has none. */
function calendarOf(state: ScheduleState): {
  timeZone: string;
  slotTimes: NonNullable<ScheduleState["window"]["slotTimes"]>;
} {
  const { timeZone, slotTimes } = state.window;
  if (!timeZone || !slotTimes || state.window.days.some((day) => !day.date))
    throw new CalendarFileError(
      "The schedule's window has no dates, time zone or slot times, so calendar files cannot be mapped onto it.",
    );
  return { timeZone, slotTimes };
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
    const [seenHour, seenMinute] = seen.time.split(":").map(Number);
    const seenWall = Date.UTC(
      ...((seen.date.split("-").map(Number) as [number, number, number]).map((value, index) =>
        index === 1 ? value - 1 : value,
      ) as [number, number, number]),
      seenHour!,
      seenMinute!,
    );
    guess += wall - seenWall;
  }
  return new Date(guess);
}

/** Minutes after midnight of "HH:MM". */
function minutesOf(time: string): number {
  const [hour, minute] = time.split(":").map(Number);
  return hour! * 60 + minute!;
}

/**
 * A moment of the file as the window's wall clock: anchored ones (UTC, the file's own VTIMEZONE) converted, an IANA
 * zone's wall clock resolved with Intl (the runtime's tz database, never a registry a file can write to) and
 * converted, a floating one taken as it is.
 */
function wallClockOf(moment: CalendarMoment, timeZone: string): { date: string; minutes: number } {
  if (moment.allDay || (moment.zone === null && moment.instant === null))
    return { date: moment.date, minutes: moment.minutes };
  const instant = moment.instant ?? instantOf(moment.date, clockOf(moment.minutes), moment.zone!).getTime();
  const clock = localClock(new Date(instant), timeZone);
  return { date: clock.date, minutes: minutesOf(clock.time) };
}

/** "HH:MM" of minutes after midnight. */
function clockOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** A readable, unique id for an imported event. */
function eventIdOf(summary: string, uid: string, taken: Set<string>): string {
  const base =
    (summary || uid)
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 56) || "event";
  let id = base;
  for (let suffix = 2; taken.has(id) || !TASK_ID_PATTERN.test(id); suffix += 1) id = `${base}-${suffix}`;
  taken.add(id);
  return id;
}

/**
 * The events of an iCalendar text, in the window: each VEVENT one event, its occurrences (recurrences expanded) in the
 * window's dates mapped to the slots they cover. Occurrences outside the window, all-day ones and those that cover no
 * slot are left out and told.
 */
export function importTimetable(
  state: ScheduleState,
  text: string,
  limits: CalendarReadLimits = DEFAULT_CALENDAR_READ_LIMITS,
): TimetableImport {
  const { timeZone, slotTimes } = calendarOf(state);
  const first = dateOfDay(state.window, 1)!;
  const last = dateOfDay(state.window, state.window.totalDays)!;
  // Read with a day's margin each side: an occurrence's own wall date may be a day off the window's.
  const read = readCalendarEvents(text, addDays(first, -1), addDays(last, 1), limits);
  const taken = new Set(state.tasks.map((task) => task.id));
  const events: EventTask[] = [];
  const times: TimetableImport["times"] = {};
  const skipped: string[] = [];
  for (const event of read) {
    const summary = plainEventName(event.summary);
    const ranges: SlotRange[] = [];
    const told: ImportedOccurrence[] = [];
    for (const occurrence of event.occurrences) {
      const start = wallClockOf(occurrence.start, timeZone);
      const end = wallClockOf(occurrence.end, timeZone);
      if (start.date < first || start.date > last) continue;
      if (occurrence.start.allDay) {
        skipped.push(`${summary} on ${start.date}: an all-day event takes no slots`);
        continue;
      }
      if (end.date !== start.date) {
        skipped.push(`${summary} on ${start.date}: it runs past midnight`);
        continue;
      }
      const covered = slotTimes.flatMap((slot, index) =>
        minutesOf(slot.start) < end.minutes && minutesOf(slot.end) > start.minutes ? [index + 1] : [],
      );
      if (covered.length === 0) {
        skipped.push(`${summary} on ${start.date}: it falls between slots`);
        continue;
      }
      ranges.push({ day: dayOfDate(state.window, start.date)!, start: covered[0]!, end: covered.at(-1)! });
      const zone = occurrence.start.zone;
      const converted =
        zone !== null && zone !== timeZone
          ? { zone, start: clockOf(occurrence.start.minutes), windowZone: timeZone }
          : undefined;
      told.push({
        date: start.date,
        start: clockOf(start.minutes),
        end: clockOf(end.minutes),
        ...(converted ? { converted } : {}),
      });
    }
    if (ranges.length === 0) continue;
    ranges.sort((a, b) => a.day - b.day || a.start - b.start);
    const id = eventIdOf(summary, event.uid, taken);
    events.push(
      buildEventTask({
        id,
        name: summary,
        source: "event",
        slots: ranges,
        canEmbed: false,
        locked: /\b(?:exam|midterm|final|test|quiz)\b|考试/i.test(summary),
        embeds: [],
      }),
    );
    times[id] = told.sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start));
  }
  return { events, times, skipped };
}

/** The week as iCalendar: every event's ranges and every placed review, with their dates and clock times. */
export function exportCalendar(state: ScheduleState, name = "Tempo week"): string {
  const { timeZone, slotTimes } = calendarOf(state);
  const calendar = ical({ name, prodId: { company: "tempo", product: "tempo-schedule" } });
  for (const task of state.tasks) {
    (task.slots ?? []).forEach((range, index) => {
      const date = dateOfDay(state.window, range.day)!;
      calendar.createEvent({
        id: `${task.id}-${index + 1}@tempo`,
        start: instantOf(date, slotTimes[range.start - 1]!.start, timeZone),
        end: instantOf(date, slotTimes[range.end - 1]!.end, timeZone),
        summary: task.name,
        description: task.source === "task_item" ? `review (${task.categoryId})` : "timetable",
        categories: [{ name: task.source === "task_item" ? "review" : "timetable" }],
      });
    });
  }
  return calendar.toString();
}
