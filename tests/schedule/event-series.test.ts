/**
 * A recurring timetable (issue 47 item 2): events stored as series (rule, local clock time, time zone, cancelled
 * dates, a moved occurrence, a holiday week) expanded into whatever window is shown; ICS import keeps RRULE, EXDATE,
 * RECURRENCE-ID and TZID and export writes them back (export → import is the identity on series, and a lecture keeps
 * its local clock time across Europe/Berlin's changes of offset); rolling the window re-expands the series; bad
 * series are refused with a typed error and bounded work.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { addDays, dayOfWeekOfDate, mondayOf } from "../../contracts/clock.js";
import { datedWindow, rollWindow } from "../../tools/schedule/calendar.js";
import { CalendarFileError, exportCalendar, importTimetable } from "../../tools/schedule/calendar-files.js";
import { canonicalSeries } from "../../tools/schedule/canonical-form.js";
import { expandSeries, SeriesError } from "../../tools/schedule/event-series.js";
import { importCalendarTool } from "../../tools/schedule/index.js";
import type { EventSeries, EventTask, ScheduleState } from "../../tools/schedule/state.js";
import { parseScheduleState } from "../../tools/schedule/validation.js";

const BERLIN = "Europe/Berlin";

/** A schedule of `days` dated days from `firstDate` in `timeZone`, holding `events`. */
function scheduleOf(firstDate: string, days: number, timeZone: string, events: EventTask[] = []): ScheduleState {
  return { window: datedWindow({ firstDate, days, timeZone }), categories: [], tasks: events };
}

/** An event of a series with its expansion into `window` as its slots, as the tools hold it. */
function seriesEvent(
  series: EventSeries,
  window: ScheduleState["window"],
  id = "lecture",
  name = "Lecture",
): EventTask {
  const slots = expandSeries(series, window).slots;
  return { id, name, source: "event", slots, canEmbed: false, locked: false, embeds: [], series };
}

/** A lecture on Mondays and Thursdays 10:00–11:40 in Berlin, from 2 Mar 2026 to the end of June. */
const calculus: EventSeries = {
  rule: { freq: "weekly", interval: 1, byDay: [1, 4], until: "2026-06-30" },
  firstDate: "2026-03-02",
  start: "10:00",
  end: "11:40",
  timeZone: BERLIN,
  // A cancelled Thursday, and the Easter holiday week.
  cancelled: ["2026-03-26", "2026-04-06", "2026-04-09"],
  moved: [{ from: "2026-03-30", date: "2026-03-31", start: "14:00", end: "15:40" }],
};

/** An iCalendar file with the calculus lecture as a timetable generator writes it. */
const CALCULUS_ICS = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//uni//timetable//EN",
  "BEGIN:VEVENT",
  "UID:calculus@uni",
  "SUMMARY:Calculus lecture",
  "DTSTART;TZID=Europe/Berlin:20260302T100000",
  "DTEND;TZID=Europe/Berlin:20260302T114000",
  "RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20260630T080000Z",
  "EXDATE;TZID=Europe/Berlin:20260326T100000,20260406T100000",
  "EXDATE;TZID=Europe/Berlin:20260409T100000",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:calculus@uni",
  "SUMMARY:Calculus lecture",
  "RECURRENCE-ID;TZID=Europe/Berlin:20260330T100000",
  "DTSTART;TZID=Europe/Berlin:20260331T140000",
  "DTEND;TZID=Europe/Berlin:20260331T154000",
  "END:VEVENT",
  "END:VCALENDAR",
  "",
].join("\r\n");

/** An iCalendar file of one weekly event whose RRULE, DTSTART or TZID is `overrides`. */
function oneSeries(overrides: { rule?: string; start?: string }): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//uni//timetable//EN",
    "BEGIN:VEVENT",
    "UID:bad@uni",
    "SUMMARY:Physics lecture",
    overrides.start ?? "DTSTART;TZID=Europe/Berlin:20260302T100000",
    "DTEND;TZID=Europe/Berlin:20260302T114000",
    `RRULE:${overrides.rule ?? "FREQ=WEEKLY"}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

describe("event series", () => {
  test("a series expands into a window: cancelled dates and the holiday week out, the moved occurrence where it went", () => {
    const window = scheduleOf("2026-03-23", 21, BERLIN).window;
    const expansion = expandSeries(calculus, window);
    expect(expansion.occurrences.map(({ date, start }) => `${date} ${start}`)).toEqual([
      "2026-03-23 10:00", // Mon; Thu 26 Mar cancelled
      "2026-03-31 14:00", // Mon 30 Mar moved to Tue 31 Mar afternoon
      "2026-04-02 10:00", // Thu; Mon 6 and Thu 9 Apr: the holiday week
    ]);
    // The same shape the search and write tools read: slots on day indices (10:00–11:40 is slots 3–4).
    expect(expansion.slots).toEqual([
      { day: 1, start: 3, end: 4 },
      { day: 9, start: 5, end: 6 },
      { day: 11, start: 3, end: 4 },
    ]);
    expect(expansion.left).toEqual([]);
  });

  test("ICS import keeps RRULE, EXDATE, RECURRENCE-ID and TZID as a series, expanded into the window", () => {
    const found = importTimetable(scheduleOf("2026-03-23", 21, BERLIN), CALCULUS_ICS);
    expect(found.events).toHaveLength(1);
    expect(found.events[0]!.series).toEqual(canonicalSeries(calculus));
    expect(found.events[0]!.slots).toEqual(expandSeries(calculus, scheduleOf("2026-03-23", 21, BERLIN).window).slots);
    // The moved occurrence is not a second event.
    expect(found.times["calculus-lecture"]!.map((time) => time.date)).toEqual([
      "2026-03-23",
      "2026-03-31",
      "2026-04-02",
    ]);
  });

  test("a series starting after the window is kept (with no slots yet) and a later window shows it", () => {
    const before = scheduleOf("2026-02-16", 7, BERLIN);
    const found = importTimetable(before, CALCULUS_ICS);
    expect(found.events[0]!.slots).toEqual([]);
    const state = parseScheduleState({ ...before, tasks: found.events });
    const rolled = rollWindow(rollWindow(state, 7), 7);
    expect(rolled.window.days[0]!.date).toBe("2026-03-02");
    expect(rolled.tasks[0]!.slots).toEqual([
      { day: 1, start: 3, end: 4 },
      { day: 4, start: 3, end: 4 },
    ]);
  });

  test("rolling the window keeps the timetable: each shown week has the series' expansion, week after week", () => {
    let state = parseScheduleState({
      ...scheduleOf("2026-03-02", 7, BERLIN),
      tasks: [seriesEvent(calculus, scheduleOf("2026-03-02", 7, BERLIN).window)],
    });
    const counts: number[] = [];
    for (let week = 0; week < 18; week += 1) {
      const lecture = state.tasks[0] as EventTask;
      expect(lecture.slots.length).toBe(expandSeries(calculus, state.window).occurrences.length);
      counts.push(lecture.slots.length);
      expect(lecture.series).toEqual(canonicalSeries(calculus));
      state = parseScheduleState(rollWindow(state, 7));
    }
    // Two a week; one in the week of the cancelled Thursday and of the move (moved within it), none in the holiday
    // week, none after June.
    expect(counts).toEqual([2, 2, 2, 1, 2, 0, ...Array(11).fill(2), 1]);
  });

  test("roll(roll(s)) is the roll by both: the series' expansion does not drift", () => {
    const state = parseScheduleState({
      ...scheduleOf("2026-03-02", 14, BERLIN),
      tasks: [seriesEvent(calculus, scheduleOf("2026-03-02", 14, BERLIN).window)],
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 }), (first, second) => {
        expect(rollWindow(rollWindow(state, first), second)).toEqual(rollWindow(state, first + second));
      }),
      { numRuns: 30 },
    );
  });

  test("through Europe/Berlin's changes of offset every lecture stays at its local clock time, export and import", () => {
    const weekly: EventSeries = {
      rule: { freq: "weekly", interval: 1, byDay: [1, 3] },
      firstDate: "2026-03-02",
      start: "10:00",
      end: "11:40",
      timeZone: BERLIN,
      cancelled: [],
      moved: [],
    };
    // Windows around the last Sunday of March (29 Mar 2026) and of October (25 Oct 2026).
    for (const firstDate of ["2026-03-23", "2026-10-19"]) {
      const before = scheduleOf(firstDate, 14, BERLIN);
      const event = seriesEvent(weekly, before.window);
      const ics = exportCalendar({ ...before, tasks: [event] });
      expect(ics).toContain("DTSTART;TZID=Europe/Berlin:20260302T100000");
      expect(ics).toContain("RRULE:FREQ=WEEKLY;BYDAY=MO,WE");
      const found = importTimetable(before, ics);
      expect(found.events[0]!.series).toEqual(weekly);
      const times = found.times[found.events[0]!.id]!;
      // Four lectures, two each side of the change, each at 10:00–11:40 Berlin time on slots 3–4.
      expect(times.map((time) => `${time.start}–${time.end}`)).toEqual(Array(4).fill("10:00–11:40"));
      expect(found.events[0]!.slots.every((range) => range.start === 3 && range.end === 4)).toBe(true);
      // In UTC the lecture moves by the hour the zone moved: the local clock is what is kept.
      const utc = importTimetable(scheduleOf(firstDate, 14, "UTC"), ics);
      expect(new Set(utc.times[utc.events[0]!.id]!.map((time) => time.start)).size).toBe(2);
    }
  });

  test("seen from another zone, an occurrence past midnight or over the hour the clocks go back is left, and said", () => {
    const daily = (start: string, end: string, timeZone: string): EventSeries => ({
      rule: { freq: "daily", interval: 1 },
      firstDate: "2025-10-20",
      start,
      end,
      timeZone,
      cancelled: [],
      moved: [],
    });
    const berlinWeek = datedWindow({ firstDate: "2025-10-20", days: 7, timeZone: BERLIN });
    // 16:45–18:25 in New York is 22:45–00:25 in Berlin, and 21:45–23:25 from 26 October (Berlin back on winter
    // time, New York still on summer time).
    const evening = expandSeries(daily("16:45", "18:25", "America/New_York"), berlinWeek);
    expect(evening.left).toEqual(
      ["2025-10-20", "2025-10-21", "2025-10-22", "2025-10-23", "2025-10-24", "2025-10-25"].map(
        (date) => `on ${date}: it runs past midnight`,
      ),
    );
    expect(evening.occurrences.map((occurrence) => `${occurrence.date} ${occurrence.start}–${occurrence.end}`)).toEqual(
      ["2025-10-26 21:45–23:25"],
    );
    // 08:45–09:30 in Shanghai is 02:45 CEST to 02:30 CET on 26 October: the clocks go back during it.
    const morning = expandSeries(daily("08:45", "09:30", "Asia/Shanghai"), berlinWeek);
    // (The other mornings, 01:45–02:30 or 02:45–03:30, are before the default slots and fall between them.)
    expect(morning.left.filter((line) => !line.endsWith("it falls between slots"))).toEqual([
      "on 2025-10-26: the clocks go back during it",
    ]);
  });

  test("export → import is the identity on series (random series, zones, exceptions)", () => {
    const zones = ["Europe/Berlin", "Asia/Shanghai", "America/New_York", "UTC"];
    const slotStarts = ["08:00", "10:00", "14:00", "19:00"];
    const series = fc
      .record({
        firstDate: fc.integer({ min: 0, max: 400 }).map((offset) => addDays("2025-09-01", offset)),
        freq: fc.constantFrom("daily" as const, "weekly" as const),
        interval: fc.integer({ min: 1, max: 3 }),
        extraDays: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 3 }),
        bound: fc.oneof(
          fc.constant(undefined),
          fc.record({ count: fc.integer({ min: 1, max: 200 }) }),
          fc.record({ untilAfter: fc.integer({ min: 0, max: 200 }) }),
        ),
        start: fc.constantFrom(...slotStarts),
        timeZone: fc.constantFrom(...zones),
        cancelledAfter: fc.uniqueArray(fc.integer({ min: 0, max: 120 }), { maxLength: 6 }),
        movedAfter: fc.uniqueArray(fc.integer({ min: 0, max: 120 }), { maxLength: 3 }),
        movedBy: fc.integer({ min: -1, max: 2 }),
      })
      .map((drawn): EventSeries => {
        const weekday = dayOfWeekOfDate(drawn.firstDate);
        const end = `${String(Number(drawn.start.slice(0, 2)) + 1).padStart(2, "0")}:40`;
        return canonicalSeries({
          rule: {
            freq: drawn.freq,
            interval: drawn.interval,
            ...(drawn.freq === "weekly" ? { byDay: [weekday, ...drawn.extraDays] } : {}),
            ...(drawn.bound && "count" in drawn.bound ? { count: drawn.bound.count } : {}),
            ...(drawn.bound && "untilAfter" in drawn.bound
              ? { until: addDays(drawn.firstDate, drawn.bound.untilAfter) }
              : {}),
          },
          firstDate: drawn.firstDate,
          start: drawn.start,
          end,
          timeZone: drawn.timeZone,
          cancelled: drawn.cancelledAfter.map((days) => addDays(drawn.firstDate, days)),
          moved: drawn.movedAfter.map((days) => ({
            from: addDays(drawn.firstDate, days),
            date: addDays(drawn.firstDate, days + drawn.movedBy),
            start: "16:00",
            end: "17:40",
          })),
        });
      });
    fc.assert(
      fc.property(series, fc.constantFrom(...zones), (drawn, windowZone) => {
        const state = scheduleOf(mondayOf(drawn.firstDate), 14, windowZone);
        const event = seriesEvent(drawn, state.window);
        const found = importTimetable(state, exportCalendar({ ...state, tasks: [event] }));
        expect(found.events.map((imported) => imported.series)).toEqual([drawn]);
        expect(found.events[0]!.slots).toEqual(event.slots);
      }),
      { numRuns: 40 },
    );
  });

  test("bad series are refused with a typed error in bounded work, and the schedule is unchanged", () => {
    const state = scheduleOf("2026-03-23", 7, BERLIN);
    const before = structuredClone(state);
    const refused: Array<[string, RegExp]> = [
      [oneSeries({ rule: "FREQ=WEEKLY;COUNT=1000000000" }), /COUNT=1000000000 is more than the 10,000 occurrences/],
      [oneSeries({ rule: "FREQ=WEEKLY;COUNT=0" }), /COUNT=0 gives no occurrence/],
      [
        oneSeries({ start: "DTSTART;TZID=Mars/Olympus_Mons:20260302T100000" }),
        /Mars\/Olympus_Mons.*a known IANA time zone/,
      ],
      [
        oneSeries({ start: "DTSTART;TZID=Europe/Berlin:99990302T100000" }).replace(
          "DTEND;TZID=Europe/Berlin:2026",
          "DTEND;TZID=Europe/Berlin:9999",
        ),
        /9999-03-02 is not a date of 1970–2199/,
      ],
      [oneSeries({ rule: "FREQ=WEEKLY;UNTIL=99991231T000000Z" }), /9999-12-3\d is not a date of 1970–2199/],
    ];
    for (const [ics, reason] of refused) {
      expect(() => importTimetable(state, ics)).toThrow(CalendarFileError);
      expect(() => importTimetable(state, ics)).toThrow(reason);
      const answer = importCalendarTool.run(state, { ics });
      expect(answer.ok).toBe(false);
      expect(answer.state).toBeUndefined();
      expect(answer.content).toMatch(reason);
    }
    expect(state).toEqual(before);
    // Stored series are checked the same way, and expanding one is arithmetic: a rule begun in 1970 with a COUNT at
    // the limit expands into a window in 2199 at once.
    expect(() => expandSeries({ ...calculus, rule: { ...calculus.rule, count: 0 } }, state.window)).toThrow(
      SeriesError,
    );
    expect(() => expandSeries({ ...calculus, timeZone: "Nowhere/Else" }, state.window)).toThrow(/not known/);
    const old: EventSeries = {
      ...calculus,
      firstDate: "1970-01-01",
      rule: { freq: "daily", interval: 1, count: 10_000 },
      cancelled: [],
      moved: [],
    };
    expect(expandSeries(old, scheduleOf("1997-05-12", 7, BERLIN).window).occurrences).toHaveLength(7);
    expect(expandSeries(old, scheduleOf("2199-12-01", 7, BERLIN).window).occurrences).toHaveLength(0);
    expect(() =>
      parseScheduleState({
        ...state,
        tasks: [
          {
            id: "x",
            name: "X",
            source: "event",
            slots: [],
            canEmbed: false,
            locked: false,
            embeds: [],
            series: { ...calculus, rule: { ...calculus.rule, count: 0 } },
          },
        ],
      }),
    ).toThrow(/COUNT=0/);
  });
});
