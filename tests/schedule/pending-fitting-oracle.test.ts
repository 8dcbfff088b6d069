/**
 * "It fits as the week stands" against the brute-force oracle. `pendingFitting` (the ids the closing check counts and
 * the answer tells as fitting: `Verification.placing.stillFit`) must name exactly the pending reviews the oracle
 * (tests/support/schedule-oracle.ts, which shares no code with the search) can place somewhere on their own, nothing
 * else moved — on rule-bearing weeks placed badly by hand, with the clock walked through the week day by day, morning,
 * afternoon and night, so half-over weeks and a week the clock has passed are in it. A reading that forgets the clock
 * is caught by the same check.
 */
import { describe, expect, test } from "vitest";
import { pendingFitting } from "../../tools/schedule/arrangement.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { clockedWeek, handPlaced } from "../support/rule-weeks.js";
import { oracle, oracleSeeds } from "../support/schedule-oracle.js";

/** The week of `seed` (dated, Asia/Shanghai) placed by hand, with the clock on each day of it at 07:30, 14:10, 23:50. */
function clockWalk(seed: number): ScheduleState[] {
  const week = handPlaced(clockedWeek(seed));
  const dates = week.window.days.map((day) => day.date!);
  return [...dates, nextDay(dates.at(-1)!)].flatMap((date) =>
    ["07:30", "14:10", "23:50"].map((time) => ({ ...week, now: new Date(`${date}T${time}:00+08:00`).toISOString() })),
  );
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The pending reviews the oracle can place somewhere on their own, as the week stands. */
function oracleFitting(state: ScheduleState): string[] {
  const answer = oracle(state);
  return state.tasks
    .filter((task): task is TaskItem => task.source === "task_item" && task.status === "pending")
    .filter((task) => (answer.alone.get(task.id) ?? []).length > 0)
    .map((task) => task.id);
}

/** Small weeks (pending reviews, room the oracle can walk). */
const WEEKS = oracleSeeds(12, clockedWeek);

describe("pendingFitting against the brute-force oracle, the clock walked day by day", () => {
  test("it names exactly the pending reviews the oracle places on their own, at every moment of the week", () => {
    let someFit = 0;
    let noneFit = 0;
    let some = 0;
    for (const seed of WEEKS) {
      for (const state of clockWalk(seed)) {
        const expected = oracleFitting(state).sort();
        expect({ seed, now: state.now, fitting: [...pendingFitting(state)].sort() }).toEqual({
          seed,
          now: state.now,
          fitting: expected,
        });
        if (expected.length === 0) noneFit += 1;
        else someFit += 1;
        const pending = state.tasks.filter((task) => task.source === "task_item" && task.status === "pending");
        if (expected.length > 0 && expected.length < pending.length) some += 1;
      }
    }
    // Both answers, and moments where only some fit, are checked (the clock closes the week as it walks).
    expect(someFit).toBeGreaterThan(10);
    expect(noneFit).toBeGreaterThan(10);
    expect(some).toBeGreaterThan(0);
  });

  test("mutation: a reading without the clock (the past taken as free) disagrees on some moment", () => {
    const caught = WEEKS.flatMap(clockWalk).filter((state) => {
      const { now: _clock, ...unclocked } = state;
      return [...pendingFitting(unclocked)].sort().join() !== oracleFitting(state).sort().join();
    });
    expect(caught.length).toBeGreaterThan(0);
  });
});
