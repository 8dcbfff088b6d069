/**
 * The week a user fills in (examples/week.json, README "Your own week"): it reads as a valid week with a calendar,
 * class profiles and task rules; a missing file, a file that is not JSON and a week with problems are refused with
 * every problem told, by where it is.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, onTestFinished, test } from "vitest";
import { parseChatArguments } from "../../cli/arguments.js";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { rollWindow } from "../../tools/schedule/calendar.js";
import { importTimetable } from "../../tools/schedule/calendar-files.js";
import { readWeekFile, weekInTime, WeekFileError } from "../../tools/schedule/week-file.js";
import { dayOfWeekOfDate } from "../../contracts/clock.js";

describe("a week file", () => {
  test("the example's timetable is weekly series: a week on, every lecture is where it was; the quiz and the exam leave", async () => {
    const week = await readWeekFile("examples/week.json");
    const events = week.tasks.filter((task) => task.source === "event");
    const weekly = events.filter((event) => event.series !== undefined);
    expect(weekly.map((event) => event.id)).toEqual(events.filter((event) => !event.locked).map((event) => event.id));
    expect(weekly).toHaveLength(16);
    const rolled = rollWindow(week, 7);
    expect(rolled.window.days[0]!.date).toBe("2024-03-18");
    const after = new Map(
      rolled.tasks.flatMap((task) => (task.source === "event" ? [[task.id, task.slots] as const] : [])),
    );
    // Each lecture on the same day index and slots of the new week (Monday 18 March is day 1 again).
    for (const event of weekly) expect(after.get(event.id), event.id).toEqual(event.slots);
    expect([...after.keys()].sort()).toEqual(weekly.map((event) => event.id).sort());
  });

  test("a week file from before series (tests/fixtures/week-before-series.json) still loads: its events one-offs, and it rolls and imports series", async () => {
    const week = await readWeekFile("tests/fixtures/week-before-series.json");
    const events = week.tasks.filter((task) => task.source === "event");
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.series === undefined && event.slots.length > 0)).toBe(true);
    // A one-off goes with its day when the window rolls past it (as before); the file's other events move on.
    const rolled = rollWindow(week, 1);
    expect(rolled.tasks.filter((task) => task.source === "event").length).toBe(
      events.filter((event) => event.slots.some((range) => range.day > 1)).length,
    );
    // A weekly series imported into it is stored beside the one-offs.
    const ics = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//uni//EN",
      "BEGIN:VEVENT",
      "UID:seminar@uni",
      "SUMMARY:Seminar",
      "DTSTART;TZID=Asia/Shanghai:20240107T214500",
      "DTEND;TZID=Asia/Shanghai:20240107T223000",
      "RRULE:FREQ=WEEKLY;BYDAY=SU",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const found = importTimetable(week, ics);
    expect(found.events[0]!.series?.rule).toEqual({ freq: "weekly", interval: 1, byDay: [7] });
  });

  test("the example reads as a dated week with class profiles and task rules, and arranges within them", async () => {
    const week = await readWeekFile("examples/week.json");
    expect(week.window).toMatchObject({ totalDays: 7, slotsPerDay: 12, timeZone: "Asia/Shanghai" });
    expect(week.window.days[0]).toEqual({ dayIndex: 1, week: 1, dayOfWeek: 1, date: "2024-03-11" });
    expect(week.window.slotTimes).toHaveLength(12);
    expect(week.categories.find((category) => category.id === "english")).toEqual({
      id: "english",
      name: "English",
      excludedDaysOfWeek: [7],
      strategy: "compact",
    });
    expect(week.tasks.find((task) => task.id === "essay-draft")).toMatchObject({
      dueBefore: { day: 5 },
      priority: "high",
    });
    // The essay (English, due before day 5) goes on none of Sunday or days 5-7.
    const essay = proposeArrangement(week).candidates[0]!.places!.find((place) => place.id === "essay-draft")!;
    expect(essay.day).toBeLessThan(5);
  });

  test("a missing file, a file that is not JSON, and a week with problems are refused, every problem named", async () => {
    const folder = await mkdtemp(join(tmpdir(), "tempo-week-"));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    await expect(readWeekFile(join(folder, "nope.json"))).rejects.toThrow(/cannot be used: there is no such file\./);
    await writeFile(join(folder, "broken.json"), "{ not json");
    await expect(readWeekFile(join(folder, "broken.json"))).rejects.toThrow(/cannot be used: it is not JSON/);
    const bad = JSON.parse(await (await import("node:fs/promises")).readFile("examples/week.json", "utf8"));
    bad.tasks.push({
      id: "x",
      name: "X",
      source: "task_item",
      duration: 1,
      categoryId: "physics",
      status: "pending",
      dueBefore: { eventId: "nowhere" },
    });
    bad.window.days[1].date = "2024-03-20";
    await writeFile(join(folder, "bad.json"), JSON.stringify(bad));
    const error = await readWeekFile(join(folder, "bad.json")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WeekFileError);
    expect((error as Error).message).toMatch(/task x refers to unknown category physics/);
    expect((error as Error).message).toMatch(/task x is due before nowhere, which is no event/);
    expect((error as Error).message).toMatch(/2024-03-20/);
  });

  test("the terminal chat takes --week <file>", () => {
    expect(parseChatArguments(["--week", "examples/week.json"])).toEqual({
      help: false,
      verbose: false,
      weekFile: "examples/week.json",
    });
    expect(() => parseChatArguments(["--week"])).toThrow(/--week needs a value/);
  });

  test("a week whose days have all passed moves by whole weeks to the coming one; a week still to come stays", async () => {
    const week = await readWeekFile("examples/week.json");
    // Wednesday 25 November 2026, 10:00 in Shanghai: the week of Mon 23 – Sun 29 November still has days to come.
    const wednesday = weekInTime(week, new Date("2026-11-25T10:00:00+08:00"));
    expect(wednesday.moved).toEqual({
      from: { first: "2024-03-11", last: "2024-03-17" },
      to: { first: "2026-11-23", last: "2026-11-29" },
      weeks: 141,
    });
    // Every day keeps its weekday and index; events and placements stay on their day indices.
    expect(wednesday.state.window.days.map((day) => [day.dayIndex, day.dayOfWeek, dayOfWeekOfDate(day.date!)])).toEqual(
      week.window.days.map((day) => [day.dayIndex, day.dayOfWeek, day.dayOfWeek]),
    );
    expect(wednesday.state.tasks).toEqual(week.tasks);
    // On that week's Sunday (its last day), the coming week; in Shanghai it is already Monday at 16:30 UTC Sunday.
    expect(weekInTime(week, new Date("2026-11-29T12:00:00+08:00")).moved?.to).toEqual({
      first: "2026-11-30",
      last: "2026-12-06",
    });
    expect(weekInTime(week, new Date("2026-11-29T16:30:00Z")).moved?.to.first).toBe("2026-11-30");
    // A week with a day still to come, and a window without dates, are left as they are.
    const during = weekInTime(week, new Date("2024-03-13T14:30:00+08:00"));
    expect(during.moved).toBeUndefined();
    expect(during.state).toBe(week);
    const undated = { ...week, window: { ...week.window, days: week.window.days.map(({ date: _, ...day }) => day) } };
    expect(weekInTime(undated, new Date("2026-11-25T10:00:00Z")).moved).toBeUndefined();
  });

  test("the terminal chat takes --now <date-time> with its zone, and refuses one it cannot read", () => {
    expect(parseChatArguments(["--now", "2024-03-13T14:30:00+08:00"]).now).toBe("2024-03-13T14:30:00+08:00");
    expect(() => parseChatArguments(["--now", "2024-02-30T10:00:00Z"])).toThrow(/--now needs an ISO date-time/);
    expect(() => parseChatArguments(["--now", "2024-03-13 14:30"])).toThrow(/--now needs an ISO date-time/);
  });
});
