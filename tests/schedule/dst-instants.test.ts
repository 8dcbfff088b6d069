/**
 * Wall-clock times the clocks skip or pass twice. On the last Sunday of March Berlin's clocks jump from 02:00 to 03:00,
 * so 02:30 never happens; on the last Sunday of October they go back, so 02:30 happens twice (New York: the second
 * Sunday of March and the first of November, at 02:00 and 01:00). A time is read as RFC 5545 reads a repeated one —
 * its first passing — and a skipped one as the moment the clocks jump, when the window's clock counts a slot of that
 * time as started: a review placed in a night slot of that Sunday is exported at the time it really begins.
 */
import ICAL from "ical.js";
import { describe, expect, test } from "vitest";
import { datedWindow, DEFAULT_SLOT_TIMES } from "../../tools/schedule/calendar.js";
import { instantOf } from "../../tools/schedule/event-series.js";
import { exportCalendarTool, type ScheduleState } from "../../tools/schedule/index.js";
import { clockIn, hasStarted } from "../../tools/schedule/window-clock.js";
import { runTool } from "./support.js";

const at = (date: string, time: string, zone: string) => instantOf(date, time, zone).toISOString();

describe("instantOf at a change of offset", () => {
  test("a skipped time is the moment the clocks jump, in zones east and west of UTC and by half an hour", () => {
    expect(at("2026-03-29", "02:30", "Europe/Berlin")).toBe("2026-03-29T01:00:00.000Z");
    expect(at("2026-03-29", "02:00", "Europe/Berlin")).toBe("2026-03-29T01:00:00.000Z");
    expect(at("2026-03-29", "03:00", "Europe/Berlin")).toBe("2026-03-29T01:00:00.000Z");
    expect(at("2026-03-29", "01:59", "Europe/Berlin")).toBe("2026-03-29T00:59:00.000Z");
    expect(at("2026-03-08", "02:30", "America/New_York")).toBe("2026-03-08T07:00:00.000Z");
    expect(at("2026-10-04", "02:15", "Australia/Lord_Howe")).toBe("2026-10-03T15:30:00.000Z");
  });

  test("a time passed twice is its first passing", () => {
    expect(at("2026-10-25", "02:30", "Europe/Berlin")).toBe("2026-10-25T00:30:00.000Z");
    expect(at("2026-11-01", "01:30", "America/New_York")).toBe("2026-11-01T05:30:00.000Z");
    expect(at("2026-04-05", "01:45", "Australia/Lord_Howe")).toBe("2026-04-04T14:45:00.000Z");
    // Either side of the change, one reading only.
    expect(at("2026-10-25", "03:00", "Europe/Berlin")).toBe("2026-10-25T02:00:00.000Z");
    expect(at("2026-03-29", "08:00", "Europe/Berlin")).toBe("2026-03-29T06:00:00.000Z");
  });
});

describe("a review at 02:30 on the day Berlin's clocks go forward", () => {
  test("is exported from 03:00 summer time, when the week's clock says it starts, and ends after it starts", () => {
    // A night owl's slots: 02:30–03:15, then the default day.
    const slotTimes = [{ start: "02:30", end: "03:15" }, ...DEFAULT_SLOT_TIMES];
    const window = datedWindow({ firstDate: "2026-03-23", days: 7, timeZone: "Europe/Berlin", slotTimes });
    const week: ScheduleState = {
      window,
      categories: [{ id: "ds", name: "Data Structures" }],
      tasks: [
        {
          id: "tree",
          name: "Binary tree review",
          source: "task_item",
          duration: 1,
          categoryId: "ds",
          status: "pending",
        },
      ],
    };
    const placed = runTool("place", week, { task_id: "tree", day: 7, slot_start: 1 });
    expect(placed.ok, placed.content).toBe(true);
    const exported = exportCalendarTool.run(placed.state!, {});
    expect(exported.ok, exported.content).toBe(true);
    expect(exported.content).toContain("DTSTART;TZID=Europe/Berlin:20260329T030000");
    const calendar = new ICAL.Component(ICAL.parse(exported.content));
    const [review] = calendar.getAllSubcomponents("vevent").map((component) => new ICAL.Event(component));
    const start = review!.startDate.toJSDate().toISOString();
    const end = review!.endDate.toJSDate().toISOString();
    expect([start, end]).toEqual(["2026-03-29T01:00:00.000Z", "2026-03-29T01:15:00.000Z"]);
    // The week's clock: not started a minute before the jump (01:59 winter time), started at it (03:00 summer time).
    expect(hasStarted(7, 1, clockIn(window, new Date("2026-03-29T00:59:00Z")))).toBe(false);
    expect(hasStarted(7, 1, clockIn(window, new Date(start)))).toBe(true);
  });
});

describe("the week's clock on the night Berlin's clocks go back", () => {
  test("a slot at 02:30 has started from its first passing on, through the hour the wall clock repeats", () => {
    // Sunday 25 October 2026: 03:00 summer time (01:00 UTC) becomes 02:00 winter time; 02:00–03:00 comes twice.
    const slotTimes = [{ start: "02:30", end: "03:15" }, ...DEFAULT_SLOT_TIMES];
    const window = datedWindow({ firstDate: "2026-10-19", days: 7, timeZone: "Europe/Berlin", slotTimes });
    const started = (moment: string) => hasStarted(7, 1, clockIn(window, new Date(moment)));
    expect(started("2026-10-25T00:20:00Z")).toBe(false); // 02:20 summer time
    expect(started("2026-10-25T00:30:00Z")).toBe(true); // 02:30 summer time: it starts
    expect(started("2026-10-25T01:10:00Z")).toBe(true); // 02:10 winter time: the wall clock is back before it
    expect(started("2026-10-25T01:40:00Z")).toBe(true); // 02:40 winter time
    // The first slot of the day proper, 08:00 winter time, as on any day.
    expect(hasStarted(7, 2, clockIn(window, new Date("2026-10-25T06:59:00Z")))).toBe(false);
    expect(hasStarted(7, 2, clockIn(window, new Date("2026-10-25T07:00:00Z")))).toBe(true);
  });
});
