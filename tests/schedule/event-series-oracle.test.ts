/**
 * Series checked against ical.js as the oracle (issue 47 item 2): random recurring VEVENTs (drawn by
 * `series-arbitraries.ts`, whose header lists what is drawn and where ical.js departs from RFC 5545, so the generator
 * stays out) are imported (kept as series, not flattened), and their expansion into random windows equals what
 * ical.js gives for the same file, occurrence by occurrence, in the window's zone. ical.js is used here only, as the
 * oracle; a mutated expansion is shown to be caught.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { addDays } from "../../contracts/clock.js";
import { exportCalendar, importTimetable } from "../../tools/schedule/calendar-files.js";
import { DEFAULT_CALENDAR_READ_LIMITS } from "../../tools/schedule/calendar-reader.js";
import { expandSeries } from "../../tools/schedule/event-series.js";
import type { EventSeries } from "../../tools/schedule/state.js";
import {
  calendarText,
  drawnEvent,
  oracleOccurrences,
  scheduleOf,
  type DrawnEvent,
  type Seen,
} from "./series-arbitraries.js";

/** Tempo's occurrences of a series in the window, in the same form. */
function tempoOccurrences(series: EventSeries, first: string, days: number, windowZone: string): Seen[] {
  const expansion = expandSeries(series, scheduleOf(first, days, windowZone).window);
  const reasons: Record<string, string> = {
    "it runs past midnight": "past midnight",
    "the clocks go back during it": "clocks go back",
  };
  const left = expansion.left.map((line) => /^on (\d{4}-\d{2}-\d{2}): (.*)$/.exec(line));
  // Hourly slots take every occurrence within one day: nothing else is left.
  expect(expansion.left.filter((_, index) => !reasons[left[index]?.[2] ?? ""])).toEqual([]);
  return [
    ...expansion.occurrences.map((occurrence) => `${occurrence.date} ${occurrence.start}–${occurrence.end}`),
    ...left.map((match) => `${match![1]} ${reasons[match![2]!]}`),
  ].sort();
}

/** Windows to compare in: a first day around the event's dates and a length up to six weeks, in either zone. */
const windows = fc.array(
  fc.record({
    offset: fc.integer({ min: -20, max: 900 }),
    days: fc.integer({ min: 1, max: 42 }),
    inSeriesZone: fc.boolean(),
  }),
  { minLength: 1, maxLength: 3 },
);

/** The one imported series of a drawn event (it is kept as a series, not flattened to the window's occurrences). */
function importedSeries(text: string, firstDate: string): EventSeries {
  // A longer deadline than the default's 2 s: the machine running the suite may be busy; no file here is hostile.
  const found = importTimetable(scheduleOf(firstDate, 7, "Europe/Berlin"), text, {
    ...DEFAULT_CALENDAR_READ_LIMITS,
    deadlineMs: 20_000,
  });
  expect(found.skipped.filter((line) => /kept as this window's occurrences/.test(line))).toEqual([]);
  expect(found.events).toHaveLength(1);
  expect(found.events[0]!.series).toBeDefined();
  return found.events[0]!.series!;
}

/** The property: Tempo's expansion of the imported series in each window equals ical.js's, with `expand` as Tempo's. */
function agreesWithOracle(expand: typeof tempoOccurrences) {
  return fc.property(drawnEvent, windows, (event, drawnWindows) => {
    const text = calendarText(event);
    const series = importedSeries(text, event.firstDate);
    for (const window of drawnWindows) {
      const first = addDays(event.firstDate, window.offset);
      const last = addDays(first, window.days - 1);
      const zone = window.inSeriesZone ? event.zone : "Europe/Berlin";
      expect(expand(series, first, window.days, zone), text).toEqual(
        oracleOccurrences(text, event.zone, first, last, zone),
      );
    }
  });
}

describe("series against ical.js", () => {
  test("random series expand into random windows as ical.js expands them", () => {
    fc.assert(agreesWithOracle(tempoOccurrences), { numRuns: 50 });
  });

  test("an EXDATE after one off the rule cancels its occurrence, in Tempo and in the oracle (not ical.js 2.2.1's way)", () => {
    // Found by the property above (seed 775322322): a Wednesday series, and a monthly one on the 1st of January and
    // October, each with an EXDATE off the rule before one on it. ical.js alone keeps the second one's occurrence.
    const event = (rule: DrawnEvent["rules"][number], exdates: number[]): DrawnEvent => ({
      minutes: 45,
      zone: "Europe/Berlin",
      firstDate: "2025-01-01",
      start: "08:00",
      rules: [rule],
      offRule: false,
      exdates,
      rdates: [],
    });
    const cases = [
      { event: event({ freq: "WEEKLY", interval: 1, byDay: ["WE"] }, [1, 7]), first: "2025-01-06", days: 11 },
      {
        event: event({ freq: "MONTHLY", interval: 1, byMonthDay: [1], byMonth: [10] }, [273, 1]),
        first: "2025-08-25",
        days: 38,
      },
    ];
    const seen = cases.map(({ event: drawn, first, days }) => {
      const file = calendarText(drawn);
      const last = addDays(first, days - 1);
      const oracle = oracleOccurrences(file, "Europe/Berlin", first, last, "Europe/Berlin");
      expect(tempoOccurrences(importedSeries(file, drawn.firstDate), first, days, "Europe/Berlin")).toEqual(oracle);
      return oracle;
    });
    expect(seen).toEqual([["2025-01-15 08:00–08:45"], []]);
  });

  test("mutation: an expansion that loses the RDATE PERIODs' own ends is caught", () => {
    const mutated: typeof tempoOccurrences = (series, first, days, zone) =>
      tempoOccurrences(
        { ...series, ...(series.added ? { added: series.added.map(({ date, start }) => ({ date, start })) } : {}) },
        first,
        days,
        zone,
      );
    const found = fc.check(agreesWithOracle(mutated), { numRuns: 200, seed: 47, endOnFailure: true });
    expect(found.failed).toBe(true);
  });

  test("export → import keeps each drawn series as it is", () => {
    fc.assert(
      fc.property(drawnEvent, (event) => {
        const series = importedSeries(calendarText(event), event.firstDate);
        const state = scheduleOf(event.firstDate, 7, "Europe/Berlin");
        const task = {
          id: "drawn",
          name: "Drawn lecture",
          source: "event" as const,
          slots: [],
          canEmbed: false,
          locked: false,
          embeds: [],
          series,
        };
        expect(importedSeries(exportCalendar({ ...state, tasks: [task] }), event.firstDate)).toEqual(series);
      }),
      { numRuns: 20 },
    );
  });
});
