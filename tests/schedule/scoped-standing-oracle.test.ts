/**
 * Standing preferences of some days ("nothing before 10:00 on weekdays", "never in the morning on Sunday") against the
 * brute-force oracle (tests/support/schedule-oracle.ts, which shares no code with the search and reads a rule's `days`
 * itself): on small clocked rule-bearing weeks — the clock part-way through the window, so part of it is past — the
 * arrangement places as many reviews as the oracle's most, each where the oracle allows it on its own, all fitting
 * together. And the scope matters: on some weeks the same rules on every day fit fewer.
 */
import { describe, expect, test } from "vitest";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import type { ScheduleState, StandingRule } from "../../tools/schedule/state.js";
import { clockedWeek } from "../support/rule-weeks.js";
import { oracle, oracleSeeds } from "../support/schedule-oracle.js";

/** `clockedWeek(seed)` with two rules of one weekday each: an hour on one, a part of the day kept out on another. */
function scopedWeek(seed: number): ScheduleState {
  const week = clockedWeek(seed);
  const weekdays = week.window.days.map((day) => day.dayOfWeek);
  const first = weekdays[seed % weekdays.length]!;
  const second = weekdays[(seed + 1) % weekdays.length]!;
  const part = seed % 2 === 0 ? "morning" : "evening";
  const scoped: StandingRule[] = [
    { id: "pref-s1", kind: "not_before_hour", value: 10, days: [first], text: `nothing before 10:00 on ${first}` },
    {
      id: "pref-s2",
      kind: "avoid_part_of_day",
      value: part,
      days: [second],
      text: `never in the ${part} on ${second}`,
    },
  ];
  return { ...week, standing: [...(week.standing ?? []), ...scoped] };
}

/** The same week with every rule on every day (its `days` taken off). */
function unscoped(week: ScheduleState): ScheduleState {
  return {
    ...week,
    standing: (week.standing ?? []).map((rule) => {
      const { days: _days, ...everyDay } = rule as StandingRule & { days?: number[] };
      return everyDay as StandingRule;
    }),
  };
}

const SEEDS = oracleSeeds(60, scopedWeek, 6);

describe("standing preferences of some days, against the brute-force oracle", () => {
  test("the arrangement places the oracle's most, each where the oracle allows it", () => {
    let placedAny = 0;
    for (const seed of SEEDS) {
      const week = scopedWeek(seed);
      const answer = oracle(week);
      const places = proposeArrangement(week).candidates[0]?.places ?? [];
      expect({ seed, placed: places.length }).toEqual({ seed, placed: answer.most });
      for (const place of places)
        expect({
          seed,
          id: place.id,
          allowed: (answer.alone.get(place.id) ?? []).includes(`${place.day}:${place.start}`),
        }).toEqual({ seed, id: place.id, allowed: true });
      expect(answer.fitsTogether(places.map((place) => place.id))).toBe(true);
      if (places.length > 0) placedAny += 1;
    }
    expect(placedAny).toBeGreaterThan(20);
  });

  test("the days matter: the same rules on every day fit fewer on some weeks, never more", () => {
    let fewer = 0;
    for (const seed of SEEDS) {
      const week = scopedWeek(seed);
      const scopedMost = oracle(week).most;
      const everyDayMost = oracle(unscoped(week)).most;
      expect(everyDayMost).toBeLessThanOrEqual(scopedMost);
      if (everyDayMost < scopedMost) fewer += 1;
    }
    expect(fewer).toBeGreaterThan(3);
  });
});
