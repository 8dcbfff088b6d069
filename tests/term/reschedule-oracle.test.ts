/**
 * `propose_reschedule` against the brute-force oracle: over small clocked weeks with rules, task groups and
 * deadlines, every pending review made missed, the reschedule places as many of the missed reviews as fit together
 * (the oracle's most, with the placed reviews where they are), its writes apply on the week as it is, and a review it
 * says has "no free place … left" cannot join the ones it placed. A one-at-a-time choice of best places leaves out a
 * review that fits elsewhere; this catches it.
 */
import { describe, expect, test } from "vitest";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import type { ScheduleState } from "../../tools/schedule/state.js";
import { NO_PLACE_BEFORE, proposeReschedule } from "../../tools/schedule/tools/reschedule.js";
import { clockedWeek, sessionWeek } from "../support/rule-weeks.js";
import { oracle, oracleSeeds } from "../support/schedule-oracle.js";

/** The week of `seed` with its pending reviews missed (off the week: the clock passed them), by turns a deadline. */
function missedWeek(seed: number): ScheduleState {
  const week = seed % 2 === 0 ? clockedWeek(seed) : { ...sessionWeek(seed), now: clockedWeek(seed).now };
  const window = clockedWeek(seed).window;
  return {
    ...week,
    window,
    tasks: week.tasks.map((task) =>
      task.source === "task_item" && task.status === "pending"
        ? { ...task, status: "missed" as const, slots: [] }
        : task,
    ),
  };
}

/** The missed reviews of `state` as pending: what the oracle takes as still to place. */
function asPending(state: ScheduleState): ScheduleState {
  return {
    ...state,
    tasks: state.tasks.map((task) =>
      task.source === "task_item" && task.status === "missed" ? { ...task, status: "pending" as const } : task,
    ),
  };
}

const missedIds = (state: ScheduleState) =>
  state.tasks.filter((task) => task.source === "task_item" && task.status === "missed").map((task) => task.id);

const WEEKS = oracleSeeds(80, (seed) => asPending(missedWeek(seed)), 6);

describe("propose_reschedule against the brute-force oracle", () => {
  test("places the most missed reviews that fit together, and says no place only of one that cannot join them", () => {
    let short = 0;
    let beside = 0;
    for (const seed of WEEKS) {
      const week = missedWeek(seed);
      const ids = missedIds(week);
      const listing = proposeReschedule(week, ids);
      const writes = listing.candidates[0]?.writes ?? [];
      expect({ seed, applies: writes.length === 0 || applyWrites(week, writes) !== undefined }).toEqual({
        seed,
        applies: true,
      });
      const placed = writes.map((write) => String(write.arguments.task_id));
      const answer = oracle(asPending(week));
      expect({ seed, placed: placed.length }).toEqual({ seed, placed: answer.most });
      for (const left of listing.unplaced) {
        expect({ seed, joins: answer.fitsTogether([...placed, left.id]) }).toEqual({ seed, joins: false });
        // "no free place … is left" only of a review no place holds on its own; "fits on its own" only of one that does.
        const alone = (answer.alone.get(left.id) ?? []).length > 0;
        const said = alone
          ? NO_PLACE_BEFORE.beside
          : [NO_PLACE_BEFORE.deadline, NO_PLACE_BEFORE.window, NO_PLACE_BEFORE.passed];
        expect({ seed, id: left.id, why: [said].flat().includes(left.why as never) }).toEqual({
          seed,
          id: left.id,
          why: true,
        });
        if (alone) beside += 1;
      }
      if (listing.unplaced.length > 0) short += 1;
    }
    // Weeks where some missed review has no place, to check the words on.
    expect(short).toBeGreaterThan(5);
    expect(beside).toBeGreaterThan(2);
  });
});
