/**
 * Monthly rules and added dates kept as series (issue 47 item 2): FREQ=MONTHLY with BYMONTHDAY (negative ones
 * included), BYDAY with an ordinal (2TU, -1FR), BYSETPOS, and RDATE lists (VALUE=DATE, a TZID) with EXDATE on them,
 * imported as series (not this window's occurrences only), expanded into every rolled window, exported back as RRULE
 * and RDATE (export → import is the identity), through a change of offset; hostile monthly rules refused with the
 * schedule unchanged.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { addDays } from "../../contracts/clock.js";
import { datedWindow, rollWindow } from "../../tools/schedule/calendar.js";
import { CalendarFileError, exportCalendar, importTimetable } from "../../tools/schedule/calendar-files.js";
import { canonicalSeries } from "../../tools/schedule/canonical-form.js";
import { expandSeries } from "../../tools/schedule/event-series.js";
import { importCalendarTool } from "../../tools/schedule/index.js";
import type { EventSeries, EventTask, ScheduleState } from "../../tools/schedule/state.js";
import { parseScheduleState } from "../../tools/schedule/validation.js";

const BERLIN = "Europe/Berlin";

/** A schedule of `days` dated days from `firstDate` in `timeZone`. */
function scheduleOf(firstDate: string, days: number, timeZone = BERLIN, tasks: EventTask[] = []): ScheduleState {
  return { window: datedWindow({ firstDate, days, timeZone }), categories: [], tasks };
}

/** An iCalendar file of VEVENTs, each given as its UID, DTSTART (Berlin) and extra lines (RRULE, RDATE, EXDATE). */
function calendarOf(events: Array<{ uid: string; start: string; lines: string[] }>): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//uni//timetable//EN",
    ...events.flatMap(({ uid, start, lines }) => [
      "BEGIN:VEVENT",
      `UID:${uid}@uni`,
      `SUMMARY:${uid}`,
      `DTSTART;TZID=Europe/Berlin:${start}T100000`,
      `DTEND;TZID=Europe/Berlin:${start}T114000`,
      ...lines,
      "END:VEVENT",
    ]),
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

/** A Berlin series at 10:00–11:40 from `firstDate` with `rule`. */
function monthly(firstDate: string, rule: EventSeries["rule"], extra: Partial<EventSeries> = {}): EventSeries {
  return canonicalSeries({
    rule,
    firstDate,
    start: "10:00",
    end: "11:40",
    timeZone: BERLIN,
    cancelled: [],
    moved: [],
    ...extra,
  });
}

/** The dates of a series' occurrences over eight months from 1 Feb 2026. */
function datesOf(series: EventSeries): string[] {
  return expandSeries(series, scheduleOf("2026-02-01", 242).window).occurrences.map((occurrence) => occurrence.date);
}

describe("monthly series and added dates", () => {
  test("monthly rules expand with RFC 5545's meaning: ordinals, negative month days, BYSETPOS, COUNT, short months", () => {
    // The second Tuesday of each month.
    expect(datesOf(monthly("2026-02-10", { freq: "monthly", interval: 1, byNthDay: [{ nth: 2, day: 2 }] }))).toEqual([
      "2026-02-10",
      "2026-03-10",
      "2026-04-14",
      "2026-05-12",
      "2026-06-09",
      "2026-07-14",
      "2026-08-11",
      "2026-09-08",
    ]);
    // The last Friday, three times.
    expect(
      datesOf(monthly("2026-02-27", { freq: "monthly", interval: 1, byNthDay: [{ nth: -1, day: 5 }], count: 3 })),
    ).toEqual(["2026-02-27", "2026-03-27", "2026-04-24"]);
    // The last day of each month, every other month.
    expect(datesOf(monthly("2026-02-28", { freq: "monthly", interval: 2, byMonthDay: [-1] }))).toEqual([
      "2026-02-28",
      "2026-04-30",
      "2026-06-30",
      "2026-08-31",
    ]);
    // The 31st, as DTSTART gives it: months without one have none.
    expect(datesOf(monthly("2026-03-31", { freq: "monthly", interval: 1 }))).toEqual([
      "2026-03-31",
      "2026-05-31",
      "2026-07-31",
      "2026-08-31",
    ]);
    // The last Tuesday or Thursday of each month (BYSETPOS=-1), until the end of June.
    expect(
      datesOf(
        monthly("2026-02-26", { freq: "monthly", interval: 1, byDay: [2, 4], bySetPos: [-1], until: "2026-06-30" }),
      ),
    ).toEqual(["2026-02-26", "2026-03-31", "2026-04-30", "2026-05-28", "2026-06-30"]);
    // The 1st and the 15th when they are Mondays.
    expect(datesOf(monthly("2026-06-01", { freq: "monthly", interval: 1, byMonthDay: [1, 15], byDay: [1] }))).toEqual([
      "2026-06-01",
      "2026-06-15",
    ]);
  });

  test("ICS import keeps MONTHLY, BYMONTHDAY and RDATE as series, and every rolled window shows their expansion", () => {
    const ics = calendarOf([
      { uid: "seminar", start: "20260210", lines: ["RRULE:FREQ=MONTHLY;BYDAY=2TU"] },
      { uid: "colloquium", start: "20260228", lines: ["RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=6"] },
      {
        uid: "tutorial",
        start: "20260211",
        lines: [
          "RDATE;VALUE=DATE:20260225,20260311",
          "RDATE;TZID=America/New_York:20260320T100000",
          "EXDATE;TZID=Europe/Berlin:20260311T100000",
        ],
      },
    ]);
    const first = scheduleOf("2026-02-09", 7);
    const found = importTimetable(first, ics);
    expect(found.events.map((event) => event.series)).toEqual([
      monthly("2026-02-10", { freq: "monthly", interval: 1, byNthDay: [{ nth: 2, day: 2 }] }),
      monthly("2026-02-28", { freq: "monthly", interval: 1, byMonthDay: [-1], count: 6 }),
      monthly(
        "2026-02-11",
        { freq: "daily", interval: 1, count: 1 },
        {
          cancelled: ["2026-03-11"],
          // 10:00 in New York on 20 March is 15:00 in Berlin: the United States has changed its clocks, Europe not yet.
          added: [
            { date: "2026-02-25", start: "10:00" },
            { date: "2026-03-11", start: "10:00" },
            { date: "2026-03-20", start: "15:00" },
          ],
        },
      ),
    ]);
    let state = parseScheduleState({ ...first, tasks: found.events });
    const shown: string[] = [];
    for (let week = 0; week < 12; week += 1) {
      for (const event of state.tasks as EventTask[]) {
        const expansion = expandSeries(event.series!, state.window);
        expect(event.slots).toEqual(expansion.slots);
        shown.push(...expansion.occurrences.map((occurrence) => `${event.id} ${occurrence.date} ${occurrence.start}`));
      }
      state = parseScheduleState(rollWindow(state, 7));
    }
    expect(shown.sort()).toEqual([
      "colloquium 2026-02-28 10:00",
      "colloquium 2026-03-31 10:00",
      "colloquium 2026-04-30 10:00",
      "seminar 2026-02-10 10:00",
      "seminar 2026-03-10 10:00",
      "seminar 2026-04-14 10:00",
      "tutorial 2026-02-11 10:00",
      "tutorial 2026-02-25 10:00",
      "tutorial 2026-03-20 15:00",
    ]);
  });

  test("through Europe/Berlin's changes of offset a monthly lecture keeps its local clock time, export and import", () => {
    const lastSunday = monthly("2026-01-25", { freq: "monthly", interval: 1, byNthDay: [{ nth: -1, day: 7 }] });
    for (const firstDate of ["2026-03-23", "2026-10-19"]) {
      const state = scheduleOf(firstDate, 14);
      const slots = expandSeries(lastSunday, state.window).slots;
      const event: EventTask = {
        id: "lecture",
        name: "Lecture",
        source: "event",
        slots,
        canEmbed: false,
        locked: false,
        embeds: [],
        series: lastSunday,
      };
      const ics = exportCalendar({ ...state, tasks: [event] });
      expect(ics).toContain("RRULE:FREQ=MONTHLY;BYDAY=-1SU");
      const found = importTimetable(state, ics);
      expect(found.events[0]!.series).toEqual(lastSunday);
      // The last Sunday of March and of October is the day the clocks change: the lecture is at 10:00 Berlin time.
      expect(found.times.lecture!.map((time) => `${time.date} ${time.start}–${time.end}`)).toEqual([
        `${firstDate === "2026-03-23" ? "2026-03-29" : "2026-10-25"} 10:00–11:40`,
      ]);
      // In UTC it is an hour apart from the month before: the local clock is what is kept.
      const utc = expandSeries(lastSunday, scheduleOf(addDays(firstDate, -35), 49, "UTC").window);
      expect(new Set(utc.occurrences.map((occurrence) => occurrence.start)).size).toBe(2);
    }
  });

  test("export → import is the identity on monthly series and added dates (random rules, zones, exceptions)", () => {
    const zones = ["Europe/Berlin", "Asia/Shanghai", "America/New_York", "UTC"];
    const series = fc
      .record({
        firstMonth: fc.integer({ min: 0, max: 30 }),
        kind: fc.constantFrom("month day", "nth", "set pos", "added only"),
        interval: fc.integer({ min: 1, max: 3 }),
        monthDays: fc.uniqueArray(
          fc.integer({ min: -31, max: 31 }).filter((day) => day !== 0),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        nth: fc.constantFrom(-2, -1, 1, 2, 3, 4),
        weekday: fc.integer({ min: 1, max: 7 }),
        count: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
        start: fc.constantFrom("08:00", "10:00", "14:00", "19:00"),
        timeZone: fc.constantFrom(...zones),
        cancelledAfter: fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 4 }),
        addedAfter: fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 4 }),
      })
      .map((drawn): EventSeries | undefined => {
        const month = new Date(Date.UTC(2025, 8 + drawn.firstMonth, 1)).toISOString().slice(0, 10);
        const rule: EventSeries["rule"] =
          drawn.kind === "month day"
            ? { freq: "monthly", interval: drawn.interval, byMonthDay: drawn.monthDays }
            : drawn.kind === "nth"
              ? { freq: "monthly", interval: drawn.interval, byNthDay: [{ nth: drawn.nth, day: drawn.weekday }] }
              : drawn.kind === "set pos"
                ? { freq: "monthly", interval: drawn.interval, byDay: [drawn.weekday], bySetPos: [drawn.nth] }
                : { freq: "daily", interval: 1, count: 1 };
        if (drawn.count !== undefined && drawn.kind !== "added only") rule.count = drawn.count;
        // The first date: the rule's first day in its first month (DTSTART is an occurrence).
        const probe = monthly(month, rule);
        const firstDate = datesOfFrom(probe, month);
        if (firstDate === undefined) return undefined;
        const end = `${String(Number(drawn.start.slice(0, 2)) + 1).padStart(2, "0")}:40`;
        return canonicalSeries({
          rule,
          firstDate,
          start: drawn.start,
          end,
          timeZone: drawn.timeZone,
          cancelled: drawn.cancelledAfter.map((days) => addDays(firstDate, days)),
          moved: [],
          added: drawn.addedAfter.map((days) => ({ date: addDays(firstDate, days), start: "16:00" })),
        });
      })
      .filter((drawn): drawn is EventSeries => drawn !== undefined);
    fc.assert(
      fc.property(series, fc.constantFrom(...zones), fc.integer({ min: 0, max: 150 }), (drawn, zone, offset) => {
        const state = scheduleOf(addDays(drawn.firstDate, offset), 35, zone);
        const event: EventTask = {
          id: "lecture",
          name: "Lecture",
          source: "event",
          slots: expandSeries(drawn, state.window).slots,
          canEmbed: false,
          locked: false,
          embeds: [],
          series: drawn,
        };
        const found = importTimetable(
          { ...state, window: scheduleOf(drawn.firstDate, 7, zone).window },
          exportCalendar({ ...state, tasks: [event] }),
        );
        expect(found.events.map((imported) => imported.series)).toEqual([drawn]);
      }),
      { numRuns: 30 },
    );
  });

  test("hostile monthly rules are refused with a typed error in bounded work, and the schedule is unchanged", () => {
    const state = scheduleOf("2026-03-23", 7);
    const before = structuredClone(state);
    const refused: Array<[string, RegExp]> = [
      // BYMONTHDAY=31 in the Februaries only (every twelfth month from February): no day at all, proved by the reader.
      [
        calendarOf([{ uid: "never", start: "20260227", lines: ["RRULE:FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31"] }]),
        /FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31 gives no date at all/,
      ],
      [
        calendarOf([{ uid: "billion", start: "20260210", lines: ["RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=1000000000"] }]),
        /COUNT=1000000000 is more than the 10,000 occurrences/,
      ],
      [
        calendarOf([{ uid: "none", start: "20260210", lines: ["RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=0"] }]),
        /COUNT=0 gives no occurrence/,
      ],
      [
        calendarOf([{ uid: "far", start: "20260210", lines: ["RRULE:FREQ=MONTHLY;INTERVAL=500;BYMONTHDAY=10"] }]),
        /INTERVAL=500 is more than the 120 months/,
      ],
      [
        calendarOf([{ uid: "future", start: "20260210", lines: ["RDATE;VALUE=DATE:99990101"] }]),
        /9999-01-01 is not a date of 1970–2199/,
      ],
    ];
    for (const [ics, reason] of refused) {
      expect(() => importTimetable(state, ics)).toThrow(CalendarFileError);
      const answer = importCalendarTool.run(state, { ics });
      expect(answer.ok).toBe(false);
      expect(answer.state).toBeUndefined();
      expect(answer.content).toMatch(reason);
    }
    expect(state).toEqual(before);
    // A COUNT on a rule with few days (the 31st: seven months a year) is stepped once, within the series' years:
    // a thousand of them run from 1970 into 2112, and expanding into a window in 2100 or 2199 is at once.
    const sparse = monthly("1970-01-31", { freq: "monthly", interval: 1, byMonthDay: [31], count: 1_000 });
    expect(expandSeries(sparse, scheduleOf("2100-01-01", 31).window).occurrences).toHaveLength(1);
    expect(expandSeries(sparse, scheduleOf("2199-12-01", 31).window).occurrences).toHaveLength(0);
    const most = monthly("1970-01-31", { freq: "monthly", interval: 1, byMonthDay: [31], count: 10_000 });
    expect(expandSeries(most, scheduleOf("2199-12-01", 31).window).occurrences).toHaveLength(1);
  });
});

/** The first date on or after `from` (within two years) of a series' rule, or undefined. */
function datesOfFrom(series: EventSeries, from: string): string | undefined {
  const relaxed = canonicalSeries({ ...series, firstDate: "1970-01-01", rule: { ...series.rule, count: undefined } });
  for (let day = 0; day < 730; day += 1) {
    const date = addDays(from, day);
    try {
      if (expandSeries({ ...relaxed, firstDate: date }, scheduleOf(date, 1, series.timeZone).window)) return date;
    } catch {
      // Not a day of the rule: the next one.
    }
  }
  return undefined;
}
