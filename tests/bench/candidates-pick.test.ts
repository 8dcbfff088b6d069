/**
 * bench/candidates-pick.ts on a smaller set (issue 46 item 4): a model choosing at random among the backend's top three
 * candidates ends the refinement at the best choice's health, on generated and rule-bearing weeks, each with three
 * seeds; and the one run of the bench's set that does not (generated week 9, seed 7) ends at a local optimum — no
 * single change raises its score — half a point below, which docs/design.md explains.
 */
import { expect, test } from "vitest";
import { backendPath, benchWeeks, seededPick } from "../../bench/health.js";
import { pickRuns, pickWeeks, PICK_SEEDS, PICK_TOLERANCE } from "../../bench/candidates-pick.js";
import { proposeCandidates } from "../../tools/schedule/candidates.js";

test("every random top-3 run reaches the best pick's health (4 generated and 8 rule-bearing weeks × 3 seeds)", () => {
  const runs = pickRuns(
    pickWeeks(
      4,
      Array.from({ length: 8 }, (_, index) => index + 1),
    ),
  );
  expect(runs).toHaveLength(12 * PICK_SEEDS.length);
  expect(runs.filter((run) => !run.reached)).toEqual([]);
});

test("generated week 9, seed 7: the random run ends at a local optimum within the tolerance, not on a budget", () => {
  const week = benchWeeks(9)[8]!;
  const best = backendPath(week, () => 0);
  const random = backendPath(week, seededPick(7));
  expect(random.score).toBeLessThan(best.score);
  expect(best.score - random.score).toBeLessThanOrEqual(PICK_TOLERANCE);
  expect(random.placed).toBe(best.placed);
  expect(proposeCandidates(random.week, { k: 3 }).candidates).toEqual([]);
});
