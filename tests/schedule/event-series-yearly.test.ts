/**
 * Yearly rules, BYMONTH and several rules (issue 47 item 2): hostile ones are typed refusals in bounded work.
 */
import { describe, expect, test } from "vitest";
import { assertSeries, SeriesError } from "../../tools/schedule/event-series.js";
import type { EventSeries } from "../../tools/schedule/state.js";

/** A Berlin series at 10:00–11:40 from 2026-03-02 with `rule` and `extra`. */
function seriesOf(rule: EventSeries["rule"], extra: Partial<EventSeries> = {}): EventSeries {
  return {
    rule,
    firstDate: "2026-03-02",
    start: "10:00",
    end: "11:40",
    timeZone: "Europe/Berlin",
    cancelled: [],
    moved: [],
    ...extra,
  };
}

/** The message of the SeriesError (INVALID_INPUT) `series` is refused with. */
function refusal(series: EventSeries): string {
  try {
    assertSeries(series);
  } catch (error) {
    expect(error).toBeInstanceOf(SeriesError);
    expect((error as SeriesError).code).toBe("INVALID_INPUT");
    return (error as SeriesError).message;
  }
  throw new Error("the series was not refused");
}

describe("hostile yearly and several-rule series", () => {
  test("each is a typed refusal naming what is wrong", () => {
    expect(refusal(seriesOf({ freq: "yearly", interval: 50, byMonth: [3] }))).toMatch(
      /INTERVAL=50 is more than the 10 years/,
    );
    expect(refusal(seriesOf({ freq: "yearly", interval: 1, byMonthDay: [2] }))).toMatch(
      /a yearly rule's BYDAY or BYMONTHDAY needs BYMONTH/,
    );
    expect(refusal(seriesOf({ freq: "weekly", interval: 1, byDay: [1], byMonth: [13] }))).toMatch(
      /a BYMONTH is not 1 … 12/,
    );
    const nine = Array.from({ length: 9 }, () => ({ freq: "weekly" as const, interval: 1, byDay: [1] }));
    expect(refusal(seriesOf(nine[0]!, { moreRules: nine.slice(1) }))).toMatch(/more than the 8 rules/);
    expect(
      refusal(
        seriesOf(
          { freq: "weekly", interval: 1, byDay: [1] },
          { added: [{ date: "2026-03-04", start: "14:00", end: "13:00" }] },
        ),
      ),
    ).toMatch(/ends \(13:00\) before it starts \(14:00\)/);
    // A yearly rule on 30 February never occurs: its first date is refused, found by arithmetic (no stepping).
    expect(
      refusal(
        seriesOf(
          { freq: "yearly", interval: 1, byMonth: [2], byMonthDay: [30], count: 10_000 },
          { firstDate: "2026-02-28" },
        ),
      ),
    ).toMatch(/its first date 2026-02-28 is not a day of its rule/);
  });
});
