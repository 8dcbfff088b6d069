/**
 * A term calendar imported through the whole graph, offline, the clock given as `configurable.now`: a weekly lecture
 * and a midterm in the next week. Before, the plan card said "term.ics (2 events)", the import answered "imported
 * 1 event(s): Calculus lecture", and in the midterm's week Wednesday showed free. Now the card, the answer (English and
 * Chinese) and the stored week agree on both events, and once the clock is in the exam's week the exam takes its
 * slots: Wednesday shows it and a review asked for at its time does not go over it.
 */
import { describe, expect, test } from "vitest";
import { calendarImportMessage } from "../../contracts/attached-calendar.js";
import type { Language } from "../../contracts/language.js";
import type { ScheduleState } from "../../tools/schedule/index.js";
import { termStartWeek } from "../support/calendars.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

/** Monday 7 September 2026, 07:00 in Shanghai; Monday 14 September, 08:00, the midterm's week. */
const MONDAY = new Date("2026-09-07T07:00:00+08:00").toISOString();
const NEXT_MONDAY = new Date("2026-09-14T08:00:00+08:00").toISOString();

/** The lecture on Mondays and Thursdays 10:00–11:40, the midterm on Wednesday 16 September 16:00–17:40. */
const TERM = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//uni//EN",
  "BEGIN:VEVENT",
  "UID:calc@uni",
  "DTSTAMP:20260801T000000Z",
  "SUMMARY:Calculus lecture",
  "DTSTART;TZID=Asia/Shanghai:20260907T100000",
  "DTEND;TZID=Asia/Shanghai:20260907T114000",
  "RRULE:FREQ=WEEKLY;BYDAY=MO,TH",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:midterm@uni",
  "DTSTAMP:20260801T000000Z",
  "SUMMARY:Calculus midterm",
  "DTSTART;TZID=Asia/Shanghai:20260916T160000",
  "DTEND;TZID=Asia/Shanghai:20260916T174000",
  "END:VEVENT",
  "END:VCALENDAR",
  "",
].join("\r\n");

const midtermOf = (schedule: ScheduleState) => schedule.tasks.find((task) => task.name === "Calculus midterm");

describe("a term calendar with a midterm next week", () => {
  test.each([
    [
      "en",
      "Import 2 event(s) from the calendar file:",
      "Calculus midterm — Wed 16 Sep 16:00–17:40",
      /imported 2 event\(s\): "Calculus lecture", "Calculus midterm"/,
    ],
    [
      "zh",
      "从日历文件导入 2 个日程：",
      "Calculus midterm — 9月16日周三 16:00–17:40",
      /已导入 2 个日程：“Calculus lecture”、“Calculus midterm”/,
    ],
  ] as const)(
    "in %s: the card, the answer and the stored week agree on both events",
    async (language, card, exam, answer) => {
      const tempo = await offlineTempo(termStartWeek());
      const outcome = await converse(
        tempo,
        calendarImportMessage("term.ics", TERM, language as Language),
        [],
        undefined,
        "student",
        { now: MONDAY },
      );
      expect(outcome.cards.map((each) => each.action)).toEqual(["confirm_plan", "import_calendar"]);
      expect(outcome.descriptions[0]).toMatch(language === "en" ? /term\.ics \(2 events/ : /term\.ics（2 个日程/);
      expect(outcome.descriptions[1]).toContain(card);
      expect(outcome.descriptions[1]).toContain(exam);
      expect(outcome.finalAnswer).toMatch(answer);
      expect(outcome.schedule.tasks.filter((task) => task.source === "event").map((task) => task.name)).toEqual([
        "Calculus lecture",
        "Calculus midterm",
      ]);
      expect(midtermOf(outcome.schedule)).toMatchObject({ slots: [], locked: true });
    },
  );

  test("in the midterm's week the exam holds Wednesday 16:00–17:40: shown, and no review goes over it", async () => {
    const tempo = await offlineTempo(termStartWeek());
    await converse(tempo, calendarImportMessage("term.ics", TERM), [], "import", "student", { now: MONDAY });
    const wednesday = await converse(tempo, "what's on Wednesday?", [], "ask", "student", { now: NEXT_MONDAY });
    expect(wednesday.schedule.window.days[0]?.date).toBe("2026-09-14");
    expect(midtermOf(wednesday.schedule)?.slots).toEqual([{ day: 3, start: 7, end: 8 }]);
    expect(wednesday.said.join("\n")).toMatch(/16:00–17:40: Calculus midterm/);

    const placed = await converse(
      tempo,
      "schedule the derivatives review on Wednesday at 16:00",
      [],
      "place",
      "student",
      {
        now: NEXT_MONDAY,
      },
    );
    const review = placed.schedule.tasks.find((task) => task.id === "derivatives");
    expect(placed.finalAnswer).toMatch(/overlaps locked "Calculus midterm" on Wed 16 Sep, 16:00–17:40/);
    const overExam = (review?.slots ?? []).some((range) => range.day === 3 && range.start <= 8 && range.end >= 7);
    expect(overExam, JSON.stringify(review)).toBe(false);
    expect(midtermOf(placed.schedule)?.slots).toEqual([{ day: 3, start: 7, end: 8 }]);
  });
});
