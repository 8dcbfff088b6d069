/**
 * Importing a calendar file with the clock (issue 47): an occurrence whose slot has started by the run's `now` is
 * left out and told; an event with no time left (an EXDATE takes one away) is not added at all, said in the tool's
 * result and on the card in English and Chinese; a file with only past events is refused, the week unchanged; a
 * recurring series keeps its future occurrences. The clock is injected as the state's `now`, never the real one.
 */
import { describe, expect, test } from "vitest";
import { datedWindow } from "../../tools/schedule/calendar.js";
import { describeTaskWrite, importCalendarTool, type ScheduleState } from "../../tools/schedule/index.js";
import { runTool } from "./support.js";
import { clockOfState, hasStarted } from "../../tools/schedule/window-clock.js";

const window = datedWindow({ firstDate: "2024-03-25", days: 7, timeZone: "Asia/Shanghai" });

/** Wednesday 27 March 2024, 10:30 in Shanghai: Monday and Tuesday have passed, Wednesday's 10:00 slot has started. */
const WEDNESDAY_MORNING = "2024-03-27T02:30:00.000Z";

/** The week in Shanghai with nothing on it yet, its clock at `now`. */
function weekAt(now: string): ScheduleState {
  return {
    window,
    now,
    categories: [{ id: "calculus", name: "Calculus" }],
    tasks: [
      { id: "review-1", name: "Review 1", source: "task_item", duration: 1, categoryId: "calculus", status: "pending" },
    ],
  };
}

/** A calendar file of the given VEVENT bodies. */
function calendarOf(...events: string[]): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//university//EN",
    ...events.map((body) => `BEGIN:VEVENT\n${body}\nEND:VEVENT`),
    "END:VCALENDAR",
  ].join("\n");
}

/** A one-off lecture on `date` (YYYYMMDD), 10:00–11:40 in Shanghai. */
function lectureOn(uid: string, name: string, date: string, rule?: string): string {
  return [
    `UID:${uid}@university`,
    `SUMMARY:${name}`,
    `DTSTART;TZID=Asia/Shanghai:${date}T100000`,
    `DTEND;TZID=Asia/Shanghai:${date}T114000`,
    ...(rule ? [`RRULE:${rule}`] : []),
  ].join("\n");
}

const PAST_CALCULUS = lectureOn("calculus", "Calculus lecture", "20240325");
const FUTURE_PHYSICS = lectureOn("physics", "Physics lecture", "20240329");

describe("import_calendar and the clock", () => {
  test("a file with only past events is refused with that reason, the week unchanged", () => {
    const week = weekAt(WEDNESDAY_MORNING);
    const outcome = importCalendarTool.run(week, { ics: calendarOf(PAST_CALCULUS) });
    expect(outcome).toEqual({
      ok: false,
      content:
        "error: no event of the file can be added: Calculus lecture: all of its times in this window have passed; not added",
    });
    expect(week).toEqual(weekAt(WEDNESDAY_MORNING));
    // What is attempted is named without a count of nothing ("Import 0 event(s) from the calendar file: ").
    const ics = calendarOf(PAST_CALCULUS);
    expect(describeTaskWrite(week, "import_calendar", { ics }, "en")).toBe("Import events from the calendar file");
    expect(describeTaskWrite(week, "import_calendar", { ics }, "zh")).toBe("从日历文件导入日程");
  });

  test("an event wholly in the past is not added and is told in the result and on the card, in English and Chinese", () => {
    const week = weekAt(WEDNESDAY_MORNING);
    const ics = calendarOf(PAST_CALCULUS, FUTURE_PHYSICS);
    const outcome = importCalendarTool.run(week, { ics });
    expect(outcome.ok, outcome.content).toBe(true);
    expect(outcome.state!.tasks.map((task) => task.name)).toEqual(["Review 1", "Physics lecture"]);
    expect(outcome.content).toBe(
      'imported 1 event(s): physics-lecture "Physics lecture"; left out: Calculus lecture: all of its times in this window have passed; not added',
    );
    expect(describeTaskWrite(week, "import_calendar", { ics }, "en")).toBe(
      "Import 1 event(s) from the calendar file: Physics lecture — Fri 29 Mar 10:00–11:40; Calculus lecture: all of its times in this window have passed; not added",
    );
    expect(describeTaskWrite(week, "import_calendar", { ics }, "zh")).toBe(
      "从日历文件导入 1 个日程：Physics lecture — 3月29日周五 10:00–11:40；Calculus lecture：本窗口内的时间都已过去，未添加",
    );
  });

  test("a recurring series keeps its future occurrences: the started ones are left out and told", () => {
    const week = weekAt(WEDNESDAY_MORNING);
    const ics = calendarOf(lectureOn("algebra", "Algebra lecture", "20240304", "FREQ=WEEKLY;BYDAY=MO,WE,FR"));
    const outcome = importCalendarTool.run(week, { ics });
    expect(outcome.ok, outcome.content).toBe(true);
    const lecture = outcome.state!.tasks.at(-1)!;
    // Monday's and Wednesday's (its 10:00 slot has started) are gone; Friday's stays, and the series as the file says.
    expect(lecture.slots).toEqual([{ day: 5, start: 3, end: 4 }]);
    expect(lecture.source === "event" && lecture.series?.rule).toEqual({
      freq: "weekly",
      interval: 1,
      byDay: [1, 3, 5],
    });
    expect(outcome.content).toBe(
      'imported 1 event(s): algebra-lecture "Algebra lecture"; left out: Algebra lecture: 2 of its times in this window have passed; they are left out',
    );
    expect(describeTaskWrite(week, "import_calendar", { ics }, "zh")).toBe(
      "从日历文件导入 1 个日程：Algebra lecture — 3月29日周五 10:00–11:40；Algebra lecture：本窗口内有 2 次已经过去，不导入这几次",
    );
  });

  test("a series whose times this week have all passed is kept for later weeks; one that ends this week is not added", () => {
    const week = weekAt(WEDNESDAY_MORNING);
    const weekly = importCalendarTool.run(week, {
      ics: calendarOf(lectureOn("algebra", "Algebra lecture", "20240304", "FREQ=WEEKLY;BYDAY=MO")),
    });
    expect(weekly.ok, weekly.content).toBe(true);
    expect(weekly.state!.tasks.at(-1)).toMatchObject({ name: "Algebra lecture", slots: [] });
    expect(weekly.content).toContain("Algebra lecture: 1 of its times in this window have passed; they are left out");
    // The card says why it has no time this week, not an empty "Algebra lecture — ;".
    const mondays = calendarOf(lectureOn("algebra", "Algebra lecture", "20240304", "FREQ=WEEKLY;BYDAY=MO"));
    expect(describeTaskWrite(week, "import_calendar", { ics: mondays }, "en")).toBe(
      "Import 1 event(s) from the calendar file: Algebra lecture — no time left in this window; it is kept for the weeks after; Algebra lecture: 1 of its times in this window have passed; they are left out",
    );
    expect(describeTaskWrite(week, "import_calendar", { ics: mondays }, "zh")).toBe(
      "从日历文件导入 1 个日程：Algebra lecture — 本窗口内已没有它的时间，之后各周照常；Algebra lecture：本窗口内有 1 次已经过去，不导入这几次",
    );

    const ending = importCalendarTool.run(week, {
      ics: calendarOf(lectureOn("algebra", "Algebra lecture", "20240304", "FREQ=WEEKLY;BYDAY=MO;COUNT=4")),
    });
    expect(ending).toEqual({
      ok: false,
      content:
        "error: no event of the file can be added: Algebra lecture: all of its times in this window have passed; not added",
    });
  });

  test("a series whose one time after this week is cancelled (EXDATE) is not added; one with a time past it is", () => {
    const week = weekAt(WEDNESDAY_MORNING);
    // Five Mondays from 4 March; the fifth, 1 April, cancelled: after Monday 25 March (passed) nothing is left.
    const cancelled = "EXDATE;TZID=Asia/Shanghai:20240401T100000";
    const ending = importCalendarTool.run(week, {
      ics: calendarOf(
        `${lectureOn("algebra", "Algebra lecture", "20240304", "FREQ=WEEKLY;BYDAY=MO;COUNT=5")}\n${cancelled}`,
      ),
    });
    expect(ending).toEqual({
      ok: false,
      content:
        "error: no event of the file can be added: Algebra lecture: all of its times in this window have passed; not added",
    });
    // Without an end, 8 April is still ahead, past the cancelled Monday: kept for later weeks.
    const weekly = importCalendarTool.run(week, {
      ics: calendarOf(`${lectureOn("algebra", "Algebra lecture", "20240304", "FREQ=WEEKLY;BYDAY=MO")}\n${cancelled}`),
    });
    expect(weekly.ok, weekly.content).toBe(true);
    expect(weekly.state!.tasks.at(-1)).toMatchObject({ name: "Algebra lecture", slots: [] });
  });

  test("without a clock nothing has passed: every time in the window is imported", () => {
    const { now: _now, ...week } = weekAt(WEDNESDAY_MORNING);
    const outcome = importCalendarTool.run(week, { ics: calendarOf(PAST_CALCULUS, FUTURE_PHYSICS) });
    expect(outcome.ok, outcome.content).toBe(true);
    expect(outcome.state!.tasks.map((task) => task.name)).toEqual(["Review 1", "Calculus lecture", "Physics lecture"]);
  });
});

describe("a half-over week: monthly, yearly and RDATE series imported on Wednesday afternoon", () => {
  /** Wednesday 27 March 2024, 14:00 in Shanghai. */
  const WEDNESDAY_AFTERNOON = "2024-03-27T06:00:00.000Z";
  /** Monday 1 April 2024, 07:00 in Shanghai: the next week has begun. */
  const NEXT_MONDAY = "2024-03-31T23:00:00.000Z";
  const ics = calendarOf(
    // Monthly by day of the month: Tue 26 Mar (past), Thu 28 Mar; Tue 2 Apr next week.
    lectureOn("seminar", "Seminar", "20240126", "FREQ=MONTHLY;BYMONTHDAY=26,28,2"),
    // Monthly by an ordinal weekday: the 4th Monday (25 Mar, past), the last Friday (29 Mar); the 1st Wednesday (3 Apr).
    lectureOn("colloquium", "Colloquium", "20240103", "FREQ=MONTHLY;BYDAY=4MO,-1FR,1WE"),
    // Yearly in March and April: Sat 30 Mar; Thu 4 Apr next week.
    lectureOn("fair", "Careers fair", "20230304", "FREQ=YEARLY;BYMONTH=3,4;BYMONTHDAY=4,30"),
    // RDATEs alone: its own start Tue 26 Mar (past), a PERIOD on Sun 31 Mar 19:00–20:40, a date on Fri 5 Apr.
    [
      lectureOn("tutoring", "Tutoring", "20240326"),
      "RDATE;VALUE=PERIOD;TZID=Asia/Shanghai:20240331T190000/20240331T204000",
      "RDATE;VALUE=DATE:20240405",
    ].join("\n"),
  );

  test("each stays a series; this week's passed times are told, none placed before now; the roll brings next week's", () => {
    const week = weekAt(WEDNESDAY_AFTERNOON);
    const outcome = importCalendarTool.run(week, { ics });
    expect(outcome.ok, outcome.content).toBe(true);
    const events = new Map(
      outcome.state!.tasks.flatMap((task) => (task.source === "event" ? [[task.name, task] as const] : [])),
    );
    for (const event of events.values()) expect(event.series, `${event.name} kept as a series`).toBeDefined();
    // What is still ahead this week, and nothing before Wednesday 14:00 (day 3, slot 5).
    expect(Object.fromEntries([...events].map(([name, event]) => [name, event.slots]))).toEqual({
      Seminar: [{ day: 4, start: 3, end: 4 }],
      Colloquium: [{ day: 5, start: 3, end: 4 }],
      "Careers fair": [{ day: 6, start: 3, end: 4 }],
      Tutoring: [{ day: 7, start: 9, end: 10 }],
    });
    // The passed ones are history, said: Tuesday's seminar, Monday's colloquium, Tuesday's tutoring.
    for (const name of ["Seminar", "Colloquium", "Tutoring"])
      expect(outcome.content).toContain(`${name}: 1 of its times in this window have passed`);
    expect(outcome.content).not.toContain("Careers fair:");

    const rolled = runTool("roll_window", { ...outcome.state!, now: NEXT_MONDAY }, { days: 7 });
    expect(rolled.ok, rolled.content).toBe(true);
    const next = Object.fromEntries(
      rolled.state!.tasks.flatMap((task) => (task.source === "event" ? [[task.name, task.slots]] : [])),
    );
    expect(next).toEqual({
      Seminar: [{ day: 2, start: 3, end: 4 }],
      Colloquium: [{ day: 3, start: 3, end: 4 }],
      "Careers fair": [{ day: 4, start: 3, end: 4 }],
      Tutoring: [{ day: 5, start: 3, end: 4 }],
    });
  });
});

describe("find_free and the clock", () => {
  test("time that has started is not free: Wednesday 10:30 lists Wednesday from the next slot, no earlier day", () => {
    const week = weekAt(WEDNESDAY_MORNING);
    const outcome = runTool("find_free", week, { min_length: 1 });
    const runs = (outcome.data as { runs: Array<{ day: number; start: number }> }).runs;
    const clock = clockOfState(week)!;
    expect(clock).toMatchObject({ dayIndex: 3 });
    expect(runs[0]).toMatchObject({ day: 3, start: clock.slot });
    for (const run of runs) expect(hasStarted(run.day, run.start, clock)).toBe(false);
    expect(outcome.content).toContain("(time that has started left out)");
    // Without a clock, the same week has no past: Monday's first slot is free.
    const { now: _now, ...timeless } = week;
    const all = runTool("find_free", timeless, { min_length: 1 });
    expect((all.data as { runs: Array<{ day: number; start: number }> }).runs[0]).toMatchObject({ day: 1, start: 1 });
    expect(all.content).not.toContain("started");
  });
});
