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

/**
 * `clockedWeek(seed)` with two rules of one weekday each: an hour on one, a part of the day kept out on another; and,
 * on some weeks, the generator's hour nothing goes after (asked for: on every day or on one weekday, keeping some of a
 * day's slots, all or none).
 */
function scopedWeek(seed: number): ScheduleState {
  const week = clockedWeek(seed, { late: true });
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

/** A week's hour nothing goes after, if it holds one. */
const notAfterOf = (week: ScheduleState) => (week.standing ?? []).find((rule) => rule.kind === "not_after_hour");
const hasNotAfter = (week: ScheduleState) => notAfterOf(week) !== undefined;

/** The first 40 seeds of a week with an hour nothing goes after (a clocked one, the generator's). */
const NOT_AFTER_SEEDS = oracleSeeds(400, scopedWeek, 6)
  .filter((seed) => hasNotAfter(scopedWeek(seed)))
  .slice(0, 40);

const SEEDS = [...new Set([...oracleSeeds(60, scopedWeek, 6), ...NOT_AFTER_SEEDS])];

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

  test("an hour nothing goes after binds: without it some weeks fit more, never fewer", () => {
    let more = 0;
    expect(NOT_AFTER_SEEDS.length).toBe(40);
    // On every day and on one weekday both.
    const scoped = NOT_AFTER_SEEDS.filter((seed) => (notAfterOf(scopedWeek(seed)) as { days?: number[] }).days);
    expect(Math.min(scoped.length, NOT_AFTER_SEEDS.length - scoped.length)).toBeGreaterThan(10);
    for (const seed of NOT_AFTER_SEEDS) {
      const week = scopedWeek(seed);
      const without = { ...week, standing: (week.standing ?? []).filter((rule) => rule.kind !== "not_after_hour") };
      const withMost = oracle(week).most;
      const withoutMost = oracle(without).most;
      expect(withoutMost).toBeGreaterThanOrEqual(withMost);
      if (withoutMost > withMost) more += 1;
    }
    expect(more).toBeGreaterThan(3);
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
