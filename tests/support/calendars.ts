/** iCalendar texts the tests send: built in one place, so a test says only what its calendar holds. */
import { datedWindow, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";

/**
 * A calendar of one event, `name` from `start` to `end` (UTC, "YYYYMMDDTHHMMSSZ"), with `lines` more in its VEVENT
 * (a DESCRIPTION, an RRULE), CRLF line ends as RFC 5545 writes them.
 */
export function oneEventCalendar(
  uid: string,
  name: string,
  start: string,
  end: string,
  lines: readonly string[] = [],
): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//tempo tests//EN",
    "BEGIN:VEVENT",
    `UID:${uid}@uni`,
    "DTSTAMP:20240301T000000Z",
    `DTSTART:${start}`,
    `DTEND:${end}`,
    `SUMMARY:${name}`,
    ...lines,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

/** A seminar on Sunday 17 March 2024, 14:00–15:40 in Shanghai (06:00–07:40 UTC): free in the sample weeks. */
export const SEMINAR_CALENDAR = oneEventCalendar(
  "seminar-1",
  "History seminar",
  "20240317T060000Z",
  "20240317T074000Z",
);

/**
 * The first week of a term the tests import its calendar into: Monday 7 – Sunday 13 September 2026 in Shanghai, one
 * pending calculus review ("derivatives"), its clock at `now` when one is given.
 */
export function termStartWeek(now?: string): ScheduleState {
  return {
    window: datedWindow({ firstDate: "2026-09-07", days: 7, timeZone: "Asia/Shanghai" }),
    ...(now !== undefined ? { now } : {}),
    categories: [{ id: "calculus", name: "Calculus" }],
    tasks: [pendingReview("derivatives", "Derivatives review", "calculus", 1)],
  };
}

/** A review task, pending, of `duration` slots. */
export function pendingReview(id: string, name: string, categoryId: string, duration: number): TaskItem {
  return { id, name, source: "task_item", duration, categoryId, status: "pending" };
}

/** The term's first week (Mon 7 – Sun 13 Sep 2026, Shanghai) with nothing on it but `tasks`, of three courses. */
export function termWeekWith(tasks: TaskItem[]): ScheduleState {
  return {
    window: datedWindow({ firstDate: "2026-09-07", days: 7, timeZone: "Asia/Shanghai" }),
    categories: [
      { id: "calculus", name: "Calculus" },
      { id: "algebra", name: "Linear Algebra" },
      { id: "english", name: "English" },
    ],
    tasks,
  };
}
