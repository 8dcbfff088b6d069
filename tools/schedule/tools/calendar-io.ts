/** `import_calendar` (an .ics file's events into the week, through a card) and `export_calendar` (the week as .ics). */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure, quoteName } from "../format.js";
import type { EventTask, ScheduleState } from "../state.js";
import { checkScheduleInvariants } from "../validation.js";
import {
  CalendarFileError,
  exportCalendar,
  importTimetable,
  type EarlierEvent,
  type PassedEvent,
  type ImportedOccurrence,
} from "../calendar-files.js";
import { buildOccupancyIndex, cellOf, FREE } from "../occupancy-index.js";
import { datedWindow } from "../calendar.js";
import { expandSeries, occursAfter } from "../event-series.js";
import { addDays, daysBetween } from "../../../contracts/clock.js";
import { saySummary } from "../summary-phrases.js";
import { importedEventBufferProblem } from "./task-writes.js";

/** What import_calendar did, as data: the events added, their times as the file gave them, and what was left out. */
export interface ImportCalendarData {
  events: EventTask[];
  /** Each event's times in the window as the card tells them; for a one-off after the window, its one time. */
  times: Record<string, ImportedOccurrence[]>;
  skipped: string[];
  /** The events whose times in the window have started by the run's clock: left out, each also in `skipped`. */
  passed: PassedEvent[];
  /** The file's one-offs before the window: over, not added, each also in `skipped` (absent when none, and on older cards). */
  earlier?: EarlierEvent[];
  /** The file's placed reviews (CATEGORIES:review), by name: not imported, told in `skipped` (absent on older cards). */
  reviews?: string[];
  /** The file's events already on the schedule, by name: left as they are, told in `skipped` (absent on older cards). */
  present?: string[];
}

/** The text import_calendar gives for its data. */
export function importedText(data: ImportCalendarData): string {
  const skippedText = data.skipped.length > 0 ? `; left out: ${data.skipped.join("; ")}` : "";
  return `imported ${data.events.length} event(s): ${data.events.map((event) => `${event.id} ${quoteName(event.name)}`).join(", ")}${skippedText}`;
}

/** Most windows looked through for a later event's first time (a year of weeks: a start off its days, EXDATEs). */
const LATER_WINDOWS_LOOKED = 53;

/**
 * What an event kept for a later week (a one-off as a series of its one occurrence, or a series whose first time is
 * after the window: no slot in this window) would overlap in the first window a roll brings it into: a series of the
 * schedule or of `others` (the file's other events), each expanded into that window — the roll would otherwise bring
 * both onto the same slots (an exam, or a lab from next week, at a lecture's time). The name and the date it overlaps.
 */
function laterClash(
  state: ScheduleState,
  others: readonly EventTask[],
  event: EventTask,
): { name: string; date: string } | undefined {
  const { timeZone, slotTimes, totalDays } = state.window;
  const first = state.window.days[0]?.date;
  if (event.series === undefined || timeZone === undefined || first === undefined) return undefined;
  // The windows the clock's rolls bring, by whole weeks (`clock-roll.ts`), from the one holding its first date.
  const step = Math.min(7, totalDays);
  const startDate = event.series.firstDate > first ? event.series.firstDate : first;
  let from = addDays(first, Math.floor(daysBetween(first, startDate) / step) * step);
  for (let looked = 0; looked < LATER_WINDOWS_LOOKED; looked += 1, from = addDays(from, step)) {
    const window = datedWindow({ firstDate: from, days: totalDays, timeZone, ...(slotTimes ? { slotTimes } : {}) });
    const own = expandSeries(event.series, window).slots;
    if (own.length === 0) {
      if (!occursAfter(event.series, window.days.at(-1)!.date!)) return undefined;
      continue;
    }
    for (const other of [...state.tasks, ...others]) {
      if (other.source !== "event" || other.series === undefined) continue;
      const range = expandSeries(other.series, window).slots.find((theirs) =>
        own.some((mine) => mine.day === theirs.day && mine.start <= theirs.end && theirs.start <= mine.end),
      );
      if (range !== undefined) return { name: other.name, date: window.days[range.day - 1]!.date! };
    }
    return undefined;
  }
  return undefined;
}

const importCalendarArgumentsSchema = z.object({
  ics: z.string().min(1).max(1_000_000).describe("The timetable as iCalendar (.ics) text."),
});

/** Adds a timetable's events from an iCalendar file, recurring ones expanded into the window; a card before anything is stored. */
export const importCalendarTool: DomainTool<ScheduleState, z.infer<typeof importCalendarArgumentsSchema>> = {
  name: "import_calendar",
  description:
    "Imports a timetable from iCalendar (.ics) text: each event's occurrences in the window become an event on the slots they cover (recurring lectures expanded). What does not fit is told.",
  schema: importCalendarArgumentsSchema,
  kind: "write",
  run(state, args) {
    let found: ReturnType<typeof importTimetable>;
    try {
      found = importTimetable(state, args.ics);
    } catch (error) {
      if (error instanceof CalendarFileError) return failure(error.message);
      throw error;
    }
    const index = buildOccupancyIndex(state);
    const skipped = [...found.skipped];
    // An event that overlaps what is there, or an event of the file taken before it, is left out and told; a one-off
    // kept for a later week or a series whose first time is after the window, what the window of its first time holds
    // then (the file's events in this window included).
    const taken = new Map<number, string>();
    const later = new Set(found.later);
    const keptLater: EventTask[] = [];
    const free = found.events.filter((event) => {
      if (later.has(event.id)) {
        const clash = laterClash(state, [...found.events.filter((one) => !later.has(one.id)), ...keptLater], event);
        if (clash !== undefined) skipped.push(`${event.name}: it overlaps ${clash.name} on ${clash.date}`);
        else keptLater.push(event);
        return clash === undefined;
      }
      const cells = event.slots.flatMap((range) =>
        Array.from({ length: range.end - range.start + 1 }, (_, offset) =>
          cellOf(index, range.day, range.start + offset),
        ),
      );
      const there = cells.map((cell) => index.primary[cell] ?? FREE).find((position) => position !== FREE);
      const clash =
        there !== undefined
          ? (index.tasks[there]?.name ?? "another task")
          : cells.map((cell) => taken.get(cell)).find((name) => name !== undefined);
      if (clash !== undefined) {
        skipped.push(`${event.name}: it overlaps ${clash}`);
        return false;
      }
      for (const cell of cells) taken.set(cell, event.name);
      return true;
    });
    // The hard rules of any write: an event inside the free slots a placed session's class keeps is left out, told.
    let next: ScheduleState = state;
    const events: EventTask[] = [];
    for (const event of free) {
      const crowded = importedEventBufferProblem(next, event);
      if (crowded) {
        skipped.push(`${event.name}: ${crowded}`);
        continue;
      }
      events.push(event);
      next = { ...next, tasks: [...next.tasks, event] };
    }
    if (events.length === 0) {
      // Each event of the file already there (its own export imported again), or a placed review: nothing is new.
      const known = (found.present.length > 0 ? 1 : 0) + (found.reviews.length > 0 ? 1 : 0);
      if (found.present.length > 0 && skipped.length === known)
        return failure(saySummary("en", "importNothingNew", { skipped: skipped.join("; ") }));
      // Only one-offs whose days are over: none falls in the window, and each is named.
      if (found.earlier.length > 0 && skipped.length === found.earlier.length)
        return failure(saySummary("en", "importNoneEarlier", { skipped: skipped.join("; ") }));
      return failure(
        skipped.length > 0
          ? saySummary("en", "importNone", { skipped: skipped.join("; ") })
          : saySummary("en", "importNoneInWindow"),
      );
    }
    const problems = checkScheduleInvariants(next);
    if (problems.length > 0) return failure(problems.join("; "));
    const data: ImportCalendarData = {
      events,
      times: Object.fromEntries(events.map((event) => [event.id, found.times[event.id] ?? []])),
      skipped,
      passed: found.passed,
      ...(found.earlier.length > 0 ? { earlier: found.earlier } : {}),
      ...(found.reviews.length > 0 ? { reviews: found.reviews } : {}),
      ...(found.present.length > 0 ? { present: found.present } : {}),
    };
    return { ok: true, content: importedText(data), state: next, data };
  },
};

/** The arranged week as iCalendar text. */
export const exportCalendarTool: DomainTool<ScheduleState, Record<string, never>> = {
  name: "export_calendar",
  description:
    "Exports the week as iCalendar (.ics) text: every timetable event and every placed review, with its date and clock times.",
  schema: z.object({}),
  kind: "read",
  run(state) {
    try {
      const ics = exportCalendar(state);
      return { ok: true, content: ics, data: { ics } };
    } catch (error) {
      if (error instanceof CalendarFileError) return failure(error.message);
      throw error;
    }
  },
};
