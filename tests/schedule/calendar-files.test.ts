/**
 * Calendar files (issue 30): a generated timetable imported from iCalendar (recurring lectures expanded into the
 * window), the week arranged, exported, and parsed back with ical.js gives the same events and placements, at their
 * real dates and clock times; what cannot be mapped is told; a bad file or an undated window changes nothing.
 */
import fc from "fast-check";
import ICAL from "ical.js";
import ical, { ICalEventRepeatingFreq } from "ical-generator";
import { describe, expect, test } from "vitest";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { datedWindow, dateOfDay } from "../../tools/schedule/calendar.js";
import { instantOf } from "../../tools/schedule/calendar-files.js";
import {
  emptyScheduleState,
  exportCalendarTool,
  importCalendarTool,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";

// A zone a step away from UTC (times are written in UTC, as generators do; recurring ones in UTC would drift across
// a change to summer time, which Shanghai does not have).
const ZONE = "Asia/Shanghai";
const window = datedWindow({ firstDate: "2024-03-25", days: 7, timeZone: ZONE });

/** A week with a dated window, two classes and pending reviews. */
function emptyWeek(): ScheduleState {
  return {
    window,
    categories: [
      { id: "calculus", name: "Calculus" },
      { id: "physics", name: "Physics" },
    ],
    tasks: Array.from({ length: 6 }, (_, index) => ({
      id: `review-${index + 1}`,
      name: `Review ${index + 1}`,
      source: "task_item" as const,
      duration: 1 + (index % 2),
      categoryId: index % 2 ? "physics" : "calculus",
      status: "pending" as const,
    })),
  };
}

/** Lectures as a timetable generator would write them: weekly from before the window, on slot boundaries. */
const lectures = fc.uniqueArray(
  fc.record({
    weekday: fc.integer({ min: 0, max: 6 }),
    slot: fc.integer({ min: 1, max: 11 }),
    length: fc.integer({ min: 1, max: 2 }),
  }),
  { minLength: 1, maxLength: 7, selector: (entry) => entry.weekday },
);

function timetable(entries: Array<{ weekday: number; slot: number; length: number }>): string {
  const calendar = ical({ name: "timetable" });
  const slotTimes = window.slotTimes!;
  entries.forEach((entry, index) => {
    const end = Math.min(12, entry.slot + entry.length - 1);
    const firstDate = `2024-03-${String(11 + entry.weekday).padStart(2, "0")}`;
    calendar.createEvent({
      id: `lecture-${index}@uni`,
      summary: `Lecture ${index + 1}`,
      start: instantOf(firstDate, slotTimes[entry.slot - 1]!.start, ZONE),
      end: instantOf(firstDate, slotTimes[end - 1]!.end, ZONE),
      repeating: { freq: ICalEventRepeatingFreq.WEEKLY, count: 16 },
    });
  });
  return calendar.toString();
}

/** Each VEVENT of an iCalendar text as "summary start end" in UTC. */
function parsedBack(text: string): string[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar
    .getAllSubcomponents("vevent")
    .map((component) => {
      const event = new ICAL.Event(component);
      return `${event.summary} ${event.startDate.toJSDate().toISOString()} ${event.endDate.toJSDate().toISOString()}`;
    })
    .sort();
}

describe("calendar files", () => {
  test("import a generated timetable, arrange, export, parse back: the same events and placements", () => {
    fc.assert(
      fc.property(lectures, (entries) => {
        const imported = importCalendarTool.run(emptyWeek(), { ics: timetable(entries) });
        expect(imported.ok, imported.content).toBe(true);
        const events = imported.state!.tasks.filter((task) => task.source === "event");
        // Every weekly lecture lands once in the window, on the slots it was written at.
        expect(events.map((event) => event.slots)).toEqual(
          entries.map((entry) => [
            { day: entry.weekday + 1, start: entry.slot, end: Math.min(12, entry.slot + entry.length - 1) },
          ]),
        );
        const arranged = applyWrites(imported.state!, proposeArrangement(imported.state!).candidates[0]?.writes ?? [])!;
        const exported = exportCalendarTool.run(arranged, {});
        // A weekly lecture is written back as its series (issue 47): one VEVENT at its first occurrence, with its RRULE.
        const expected = arranged.tasks
          .flatMap((task) =>
            task.source === "event" && task.series
              ? [
                  `${task.name} ${instantOf(task.series.firstDate, task.series.start, task.series.timeZone).toISOString()} ${instantOf(task.series.firstDate, task.series.end, task.series.timeZone).toISOString()}`,
                ]
              : (task.slots ?? []).map((range) => {
                  const date = dateOfDay(window, range.day)!;
                  return `${task.name} ${instantOf(date, window.slotTimes![range.start - 1]!.start, ZONE).toISOString()} ${instantOf(date, window.slotTimes![range.end - 1]!.end, ZONE).toISOString()}`;
                }),
          )
          .sort();
        expect(parsedBack(exported.content)).toEqual(expected);
        expect(exported.content.match(/^RRULE:FREQ=WEEKLY;COUNT=16\r?$/gm)).toHaveLength(events.length);
        expect(expected.length).toBe(
          events.length +
            arranged.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length,
        );
      }),
      { numRuns: 30 },
    );
  });

  test("an exam by any of its usual names is locked on import; a lecture, a lab or a review session is not", () => {
    const names: Array<[string, boolean]> = [
      ["Calculus mid-term", true],
      ["Calculus Midterm", true],
      ["Physics final", true],
      ["Finals: linear algebra", true],
      ["Vocabulary quizzes", true],
      ["Unit tests, chapter 3", true],
      ["微积分期中考试", true],
      ["线性代数期末", true],
      ["英语小测", true],
      ["Calculus lecture", false],
      ["Physics lab", false],
      ["Testing seminar", false],
      ["Finalist meeting", false],
      ["线性代数课", false],
    ];
    const calendar = ical();
    names.forEach(([summary], index) =>
      calendar.createEvent({
        id: `e${index}`,
        summary,
        start: instantOf(
          `2024-03-${String(25 + (index % 7)).padStart(2, "0")}`,
          ["08:00", "10:00", "14:00"][index % 3]!,
          ZONE,
        ),
        end: instantOf(
          `2024-03-${String(25 + (index % 7)).padStart(2, "0")}`,
          ["09:40", "11:40", "15:40"][index % 3]!,
          ZONE,
        ),
      }),
    );
    const result = importCalendarTool.run(emptyWeek(), { ics: calendar.toString() });
    expect(result.ok, result.content).toBe(true);
    const locked = new Map(
      result.state!.tasks.flatMap((task) => (task.source === "event" ? [[task.name, task.locked] as const] : [])),
    );
    expect(Object.fromEntries(locked)).toEqual(Object.fromEntries(names));
  });

  test("what cannot be mapped is told; a bad file, a clash with everything, or an undated window change nothing", () => {
    const calendar = ical();
    calendar.createEvent({
      id: "lunch",
      summary: "Lunch",
      start: instantOf("2024-03-26", "12:00", ZONE),
      end: instantOf("2024-03-26", "13:00", ZONE),
    });
    calendar.createEvent({
      id: "trip",
      summary: "Trip",
      start: new Date("2024-03-27T00:00:00Z"),
      end: new Date("2024-03-28T00:00:00Z"),
      allDay: true,
    });
    calendar.createEvent({
      id: "exam",
      summary: "Calculus exam",
      start: instantOf("2024-03-29", "10:00", ZONE),
      end: instantOf("2024-03-29", "11:40", ZONE),
    });
    const result = importCalendarTool.run(emptyWeek(), { ics: calendar.toString() });
    expect(result.content).toMatch(
      /^imported 1 event\(s\): calculus-exam "Calculus exam"; left out: Lunch on 2024-03-26: it falls between slots; Trip on 2024-03-27: an all-day event takes no slots$/,
    );
    expect(result.state!.tasks.at(-1)).toMatchObject({
      id: "calculus-exam",
      locked: true,
      slots: [{ day: 5, start: 3, end: 4 }],
    });
    expect(importCalendarTool.run(emptyWeek(), { ics: "BEGIN:VCALENDAR\nthis is not a calendar" })).toMatchObject({
      ok: false,
      content: expect.stringMatching(/^error: The calendar file cannot be read/),
    });
    // The same file again: its exam is already there (not a clash with itself); another event at its time clashes.
    expect(importCalendarTool.run(result.state!, { ics: calendar.toString() }).content).toMatch(
      /^error: no event of the file can be added: .*; Calculus exam: already on the schedule; left as it is$/,
    );
    const clash = ical();
    clash.createEvent({
      id: "quiz",
      summary: "Physics quiz",
      start: instantOf("2024-03-29", "10:00", ZONE),
      end: instantOf("2024-03-29", "10:45", ZONE),
    });
    expect(importCalendarTool.run(result.state!, { ics: clash.toString() }).content).toBe(
      "error: no event of the file can be added: Physics quiz: it overlaps Calculus exam",
    );
    expect(importCalendarTool.run(emptyScheduleState(), { ics: calendar.toString() }).content).toMatch(
      /window has no dates/,
    );
    expect(importCalendarTool.kind).toBe("write");
    // Two events of one file on the same slots: the second is left out, told.
    const twice = ical();
    for (const summary of ["Lab A", "Lab B"])
      twice.createEvent({
        id: summary,
        summary,
        start: instantOf("2024-03-26", "08:00", ZONE),
        end: instantOf("2024-03-26", "09:40", ZONE),
      });
    expect(importCalendarTool.run(emptyWeek(), { ics: twice.toString() }).content).toBe(
      'imported 1 event(s): lab-a "Lab A"; left out: Lab B: it overlaps Lab A',
    );
    // The sample week exports every event and nothing more while nothing is placed.
    expect(parsedBack(exportCalendarTool.run(sampleWeek(), {}).content)).toHaveLength(
      sampleWeek().tasks.flatMap((task) => task.slots ?? []).length,
    );
  });
});
