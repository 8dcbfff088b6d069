/**
 * A term's calendar holds one-off events in later weeks (a midterm, a quiz) beside its weekly lectures. The import
 * read one-offs only in the window, so a later exam was dropped without a word: the plan card counted the file's two
 * events, the import answered "imported 1 event(s): Calculus lecture", and when the window rolled into the exam's week
 * its Wednesday was free and a review could be placed over the exam. A one-off after the window is kept (a series of
 * one occurrence, which every roll expands into the window as it does a lecture's), told with its day on the card and
 * in the answer; one before the window is left out and named. The clock is the state's `now`, never the real one.
 */
import { describe, expect, test } from "vitest";
import {
  describeTaskWrite,
  exportCalendarTool,
  importCalendarTool,
  placeTool,
  type EventTask,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { rollDueByClock } from "../../tools/schedule/clock-roll.js";
import { runTool } from "./support.js";
import { termStartWeek } from "../support/calendars.js";

/** Monday 7 September 2026, 07:00 in Shanghai: the whole week is ahead. */
const MONDAY_MORNING = "2026-09-06T23:00:00.000Z";
/** Monday 14 September 2026, 08:00 in Shanghai: the exam's week has begun. */
const NEXT_MONDAY = "2026-09-14T00:00:00.000Z";

/** The term's first week, its clock at `now`. */
const termWeek = (now = MONDAY_MORNING): ScheduleState => termStartWeek(now);

/** A VEVENT of `name` on `date` (YYYYMMDD) from `start` to `end` (HHMM) in Shanghai, with `more` lines. */
function vevent(uid: string, name: string, date: string, start: string, end: string, ...more: string[]): string {
  return [
    "BEGIN:VEVENT",
    `UID:${uid}@uni`,
    "DTSTAMP:20260801T000000Z",
    `SUMMARY:${name}`,
    `DTSTART;TZID=Asia/Shanghai:${date}T${start}00`,
    `DTEND;TZID=Asia/Shanghai:${date}T${end}00`,
    ...more,
    "END:VEVENT",
  ].join("\r\n");
}

/** A calendar of the given VEVENTs. */
function calendar(...events: string[]): string {
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//uni//EN", ...events, "END:VCALENDAR", ""].join("\r\n");
}

const LECTURE = vevent("calc", "Calculus lecture", "20260907", "1000", "1140", "RRULE:FREQ=WEEKLY;BYDAY=MO,TH");
/** Wednesday 16 September, next week: after the window. */
const MIDTERM = vevent("midterm", "Calculus midterm", "20260916", "1600", "1740");
/** Monday 31 August, last week: before the window. */
const QUIZ = vevent("quiz", "Calculus quiz", "20260831", "1600", "1640");

const eventNamed = (state: ScheduleState, name: string) =>
  state.tasks.find((task): task is EventTask => task.source === "event" && task.name === name);

describe("one-off events of a term's calendar outside the window", () => {
  test("a later exam is kept, and told with its day; an earlier quiz is left out and named", () => {
    const week = termWeek();
    const ics = calendar(LECTURE, MIDTERM, QUIZ);
    const outcome = importCalendarTool.run(week, { ics });
    expect(outcome.ok, outcome.content).toBe(true);
    expect(outcome.content).toBe(
      'imported 2 event(s): calculus-lecture "Calculus lecture", calculus-midterm "Calculus midterm"; left out: Calculus quiz on 2026-08-31: before this window; not added',
    );
    // Stored for its week: no slot in this window, its one time kept as a series of one occurrence, locked (an exam).
    expect(eventNamed(outcome.state!, "Calculus midterm")).toMatchObject({
      slots: [],
      locked: true,
      series: {
        rule: { freq: "daily", interval: 1, count: 1 },
        firstDate: "2026-09-16",
        start: "16:00",
        end: "17:40",
        timeZone: "Asia/Shanghai",
      },
    });
    expect(eventNamed(outcome.state!, "Calculus quiz")).toBeUndefined();
    // The card counts and names what is imported, the exam with its day, and the quiz left out.
    expect(describeTaskWrite(week, "import_calendar", { ics }, "en")).toBe(
      "Import 2 event(s) from the calendar file: Calculus lecture — Mon 7 Sep 10:00–11:40, Thu 10 Sep 10:00–11:40; Calculus midterm — Wed 16 Sep 16:00–17:40; Calculus quiz on 2026-08-31: before this window; not added",
    );
    expect(describeTaskWrite(week, "import_calendar", { ics }, "zh")).toBe(
      "从日历文件导入 2 个日程：Calculus lecture — 9月7日周一 10:00–11:40、9月10日周四 10:00–11:40；Calculus midterm — 9月16日周三 16:00–17:40；Calculus quiz（2026-08-31）：在本窗口之前，未添加",
    );
  });

  test("rolled into the exam's week, the exam takes its slots and no review is placed over it", () => {
    const imported = importCalendarTool.run(termWeek(), { ics: calendar(LECTURE, MIDTERM) });
    expect(imported.ok, imported.content).toBe(true);
    const rolled = runTool("roll_window", { ...imported.state!, now: NEXT_MONDAY }, { days: 7 });
    expect(rolled.ok, rolled.content).toBe(true);
    // Wednesday 16 September, 16:00–17:40: slots 7–8 of day 3.
    expect(eventNamed(rolled.state!, "Calculus midterm")?.slots).toEqual([{ day: 3, start: 7, end: 8 }]);
    expect(eventNamed(rolled.state!, "Calculus lecture")?.slots).toEqual([
      { day: 1, start: 3, end: 4 },
      { day: 4, start: 3, end: 4 },
    ]);
    for (const slot of [7, 8]) {
      const placed = placeTool.run(
        { ...rolled.state!, now: NEXT_MONDAY },
        { task_id: "derivatives", day: 3, slot_start: slot },
      );
      expect(placed.ok, `slot ${slot}: ${placed.content}`).toBe(false);
    }
    // A roll past it takes it with the old days (`one-off events of a later week once their week is over`).
    const after = runTool("roll_window", { ...rolled.state!, now: "2026-09-21T00:00:00.000Z" }, { days: 7 });
    expect(eventNamed(after.state!, "Calculus midterm")).toBeUndefined();
  });

  test("a later one-off at a lecture's time in its week is left out and told: the roll would bring both there", () => {
    // Thursday 17 September, 10:00–11:40: the lecture's time that week.
    const clashing = vevent("test", "Calculus test", "20260917", "1000", "1140");
    for (const ics of [calendar(LECTURE, clashing), calendar(clashing, LECTURE)]) {
      const outcome = runTool("import_calendar", termWeek(), { ics });
      expect(outcome.ok, outcome.content).toBe(true);
      expect(eventNamed(outcome.state!, "Calculus test")).toBeUndefined();
      expect(outcome.content).toContain("Calculus test: it overlaps Calculus lecture on 2026-09-17");
      const rolled = runTool("roll_window", { ...outcome.state!, now: NEXT_MONDAY }, { days: 7 });
      expect(rolled.ok, rolled.content).toBe(true);
    }
    // Two exams of the file at one later time: the first is kept, the second told.
    const twice = runTool("import_calendar", termWeek(), {
      ics: calendar(MIDTERM, vevent("makeup", "Makeup exam", "20260916", "1600", "1640")),
    });
    expect(twice.state!.tasks.filter((task) => task.source === "event").map((task) => task.name)).toEqual([
      "Calculus midterm",
    ]);
    expect(twice.content).toContain("Makeup exam: it overlaps Calculus midterm on 2026-09-16");
  });

  test("the week's own export imported again changes nothing: the kept exam is recognised", () => {
    const imported = importCalendarTool.run(termWeek(), { ics: calendar(LECTURE, MIDTERM) });
    const exported = exportCalendarTool.run(imported.state!, {});
    expect(exported.ok, exported.content).toBe(true);
    const again = importCalendarTool.run(imported.state!, { ics: (exported.data as { ics: string }).ics });
    expect(again).toEqual({
      ok: false,
      content:
        "error: nothing new to import: Calculus lecture, Calculus midterm: already on the schedule; left as they are",
    });
  });

  test("a file of earlier one-offs only is refused, naming each", () => {
    const week = termWeek();
    const outcome = importCalendarTool.run(week, { ics: calendar(QUIZ) });
    expect(outcome).toEqual({
      ok: false,
      content:
        "error: no event of the file can be added (none falls in the window): Calculus quiz on 2026-08-31: before this window; not added",
    });
  });

  test("a later one-off between slots, all-day or past midnight is left out and told, not kept unseen", () => {
    const outcome = importCalendarTool.run(termWeek(), {
      ics: calendar(
        LECTURE,
        vevent("lunch", "Lunch talk", "20260916", "1200", "1330"),
        // 23:00 to 01:00 the next day.
        vevent("party", "Term party", "20260918", "2300", "2359").replace("20260918T235900", "20260919T010000"),
        [
          "BEGIN:VEVENT",
          "UID:fair@uni",
          "DTSTAMP:20260801T000000Z",
          "SUMMARY:Careers fair",
          "DTSTART;VALUE=DATE:20260917",
          "DTEND;VALUE=DATE:20260918",
          "END:VEVENT",
        ].join("\r\n"),
      ),
    });
    expect(outcome.ok, outcome.content).toBe(true);
    expect(outcome.state!.tasks.filter((task) => task.source === "event").map((task) => task.name)).toEqual([
      "Calculus lecture",
    ]);
    expect(outcome.content).toContain("Lunch talk on 2026-09-16: it falls between slots");
    expect(outcome.content).toContain("Term party on 2026-09-18: it runs past midnight");
    expect(outcome.content).toContain("Careers fair on 2026-09-17: an all-day event takes no slots");
  });
});

describe("a weekly series whose first time is in a later week", () => {
  /** Thursdays from 17 September (next week), at the lecture's time. */
  const LAB = vevent("lab", "Physics lab", "20260917", "1000", "1140", "RRULE:FREQ=WEEKLY;BYDAY=TH");
  /** The lecture stored by an import of its own: the timetable the later series is checked against. */
  const lectureStored = (): ScheduleState => {
    const stored = importCalendarTool.run(termWeek(), { ics: calendar(LECTURE) });
    expect(stored.ok, stored.content).toBe(true);
    return stored.state!;
  };

  test("one at a stored lecture's time is refused and named, as one of this week is", () => {
    // This week's Thursday at the lecture's time: the overlap a current-week series is refused for.
    const thisWeek = importCalendarTool.run(lectureStored(), {
      ics: calendar(LAB.replace(/20260917T/g, "20260910T")),
    });
    expect(thisWeek).toEqual({
      ok: false,
      content: "error: no event of the file can be added: Physics lab: it overlaps Calculus lecture",
    });
    const later = importCalendarTool.run(lectureStored(), { ics: calendar(LAB) });
    expect(later).toEqual({
      ok: false,
      content: "error: no event of the file can be added: Physics lab: it overlaps Calculus lecture on 2026-09-17",
    });
  });

  test("beside a free event of the file it is left out and told; the free one is imported", () => {
    const outcome = importCalendarTool.run(lectureStored(), {
      ics: calendar(
        LAB,
        vevent("seminar", "Physics seminar", "20260918", "1400", "1540", "RRULE:FREQ=WEEKLY;BYDAY=FR"),
      ),
    });
    expect(outcome.ok, outcome.content).toBe(true);
    expect(outcome.content).toBe(
      'imported 1 event(s): physics-seminar "Physics seminar"; left out: Physics lab: it overlaps Calculus lecture on 2026-09-17',
    );
    expect(eventNamed(outcome.state!, "Physics lab")).toBeUndefined();
    expect(eventNamed(outcome.state!, "Physics seminar")).toMatchObject({
      slots: [],
      series: { firstDate: "2026-09-18" },
    });
  });

  test("its first time is looked for past a start off its days: a Sunday start on Thursdays overlaps on the 24th", () => {
    const sundayStart = LAB.replace(/20260917T/g, "20260920T");
    const outcome = importCalendarTool.run(lectureStored(), { ics: calendar(sundayStart) });
    expect(outcome).toEqual({
      ok: false,
      content: "error: no event of the file can be added: Physics lab: it overlaps Calculus lecture on 2026-09-24",
    });
  });

  test("one at a stored exam's time in its week is refused; one at a free time is kept for its week", () => {
    const examStored = importCalendarTool.run(termWeek(), { ics: calendar(MIDTERM) });
    expect(examStored.ok, examStored.content).toBe(true);
    const atExam = vevent("tutorial", "Calculus tutorial", "20260916", "1600", "1640", "RRULE:FREQ=WEEKLY;BYDAY=WE");
    expect(importCalendarTool.run(examStored.state!, { ics: calendar(atExam) }).content).toBe(
      "error: no event of the file can be added: Calculus tutorial: it overlaps Calculus midterm on 2026-09-16",
    );
    const free = importCalendarTool.run(lectureStored(), {
      ics: calendar(LAB.replace(/T1000|T1140/g, (t) => (t === "T1000" ? "T1400" : "T1540"))),
    });
    expect(free.ok, free.content).toBe(true);
    const rolled = runTool("roll_window", { ...free.state!, now: NEXT_MONDAY }, { days: 7 });
    expect(eventNamed(rolled.state!, "Physics lab")?.slots).toEqual([{ day: 4, start: 5, end: 6 }]);
  });
});

describe("one-off events of a later week once their week is over", () => {
  /** Wednesday 30 September, three weeks on: still ahead when the midterm's week is over. */
  const FINAL_QUIZ = vevent("final-quiz", "Calculus final quiz", "20260930", "1600", "1640");
  /** Monday 21 September 2026, 08:00 in Shanghai: the midterm's week is over. */
  const WEEK_AFTER = "2026-09-21T00:00:00.000Z";
  const termImported = (): ScheduleState => {
    const imported = importCalendarTool.run(termWeek(), { ics: calendar(LECTURE, MIDTERM, FINAL_QUIZ) });
    expect(imported.ok, imported.content).toBe(true);
    return imported.state!;
  };
  /** What a roll leaves besides the midterm: every task but it, as stored. */
  const withoutMidterm = (state: ScheduleState) => state.tasks.filter((task) => task.name !== "Calculus midterm");
  const withoutMidtermState = (state: ScheduleState): ScheduleState => ({ ...state, tasks: withoutMidterm(state) });

  test("the roll past its week drops the exam, names it, and leaves everything else as it was", () => {
    const inItsWeek = runTool("roll_window", { ...termImported(), now: NEXT_MONDAY }, { days: 7 }).state!;
    expect(eventNamed(inItsWeek, "Calculus midterm")?.slots).toEqual([{ day: 3, start: 7, end: 8 }]);
    const kept = runTool("roll_window", { ...withoutMidtermState(inItsWeek), now: WEEK_AFTER }, { days: 7 });
    const rolled = runTool("roll_window", { ...inItsWeek, now: WEEK_AFTER }, { days: 7 });
    expect(rolled.ok, rolled.content).toBe(true);
    expect(eventNamed(rolled.state!, "Calculus midterm")).toBeUndefined();
    expect(rolled.data).toMatchObject({ removed: ["calculus-midterm"], left: ["Calculus midterm"] });
    expect(rolled.content).toContain("1 past event(s) left with the old days: calculus-midterm");
    // The lecture, the quiz still ahead (no slot until its week) and the review: as a roll without the exam leaves them.
    expect(withoutMidterm(rolled.state!)).toEqual(kept.state!.tasks);
    expect(eventNamed(rolled.state!, "Calculus final quiz")).toMatchObject({
      slots: [],
      series: { firstDate: "2026-09-30" },
    });
  });

  test("the clock's catch-up over its whole week drops it too, in one roll_window call", () => {
    const imported = termImported();
    const due = rollDueByClock(imported, new Date("2026-09-22T00:00:00.000Z"));
    expect(due).toEqual({ name: "roll_window", arguments: { days: 14 } });
    const caughtUp = runTool("roll_window", { ...imported, now: "2026-09-22T00:00:00.000Z" }, due!.arguments);
    expect(caughtUp.ok, caughtUp.content).toBe(true);
    expect(eventNamed(caughtUp.state!, "Calculus midterm")).toBeUndefined();
    expect(eventNamed(caughtUp.state!, "Calculus final quiz")).toMatchObject({ slots: [] });
    expect(eventNamed(caughtUp.state!, "Calculus lecture")?.slots).toEqual([
      { day: 1, start: 3, end: 4 },
      { day: 4, start: 3, end: 4 },
    ]);
  });
});
