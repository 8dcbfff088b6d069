/**
 * The placement search against an exact solver: on generated small weeks it
 * places as many pending tasks as the brute-force solver proves fit, and
 * every placement it chooses is accepted by the real place tool, one after
 * the other, as the offline policy proposes them.
 */
import fc from "fast-check";
import { describe, expect, test, vi } from "vitest";
import { pastDeadline, searchInputOf, searchPlacements } from "../../tools/schedule/placement-search.js";
import {
  findFreeTool,
  generateSchedule,
  listTasksTool,
  placeTool,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { parseFreeRuns, parseTaskListing } from "../../offline/schedule/result-parsing.js";
import { maximumPlaceable } from "./exact-solver.js";

/** Small weeks: 1-3 days of 3-6 slots, a handful of tasks (at most 6 pending, so brute force stays quick). */
const smallWeek: fc.Arbitrary<ScheduleState> = fc
  .record({
    days: fc.integer({ min: 1, max: 3 }),
    slotsPerDay: fc.integer({ min: 3, max: 6 }),
    taskCount: fc.integer({ min: 2, max: 12 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  })
  .map((options) => generateSchedule(options))
  .filter(
    (state) => state.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length <= 6,
  );

/** What the offline policy reads (list_tasks, find_free), searched, then applied with place in the order proposed. */
function placeAsThePolicyDoes(state: ScheduleState): { placed: number; exact: boolean; failures: string[] } {
  const listing = parseTaskListing(listTasksTool.run(state, { source: "task_item", limit: 100 }).content);
  const runs = parseFreeRuns(findFreeTool.run(state, { min_length: 1, limit: 100 }).content);
  const pending = listing.filter((task) => task.kind === "pending");
  const { placements, exact } = searchPlacements(
    pending.map((task) => ({ id: task.id, duration: task.duration })),
    runs.map((run) => ({
      day: run.day,
      start: run.start,
      end: run.end,
      ...(run.hostId ? { hostId: run.hostId } : {}),
    })),
  );
  const failures: string[] = [];
  let current = state;
  for (const placement of placements) {
    const run = placeTool.run(current, { task_id: placement.id, day: placement.day, slot_start: placement.start });
    if (!run.ok || !run.state) failures.push(run.content);
    else current = run.state;
  }
  return { placed: placements.length - failures.length, exact, failures };
}

/** A generated week of 10,000 tasks (most pending; a few dozen fit): its search input. */
function bigWeek() {
  const state = generateSchedule({ days: 7, slotsPerDay: 12, taskCount: 10_000, seed: 7 });
  const { runs, dayLoad } = searchInputOf(state);
  const pendingTasks = state.tasks.flatMap((task) =>
    task.source === "task_item" && task.status === "pending" ? [{ id: task.id, duration: task.duration }] : [],
  );
  return { state, runs, dayLoad, pendingTasks };
}

describe("placement search", () => {
  test("places as many tasks as the exact solver proves fit, on generated small weeks", () => {
    fc.assert(
      fc.property(smallWeek, (state) => {
        const outcome = placeAsThePolicyDoes(state);
        expect(outcome.failures).toEqual([]);
        expect(outcome.exact).toBe(true);
        expect(outcome.placed).toBe(maximumPlaceable(state));
      }),
      { numRuns: 150 },
    );
  });

  test("a tight week where greedy in list order leaves a task out: every task fits", () => {
    // Runs of 3 and 2; tasks of 1, 2 and 2 slots. Placing the 1-slot task first into the 3-run (list order, first
    // fit) leaves room for only one 2-slot task; longest first fits all three.
    const result = searchPlacements(
      [
        { id: "short", duration: 1 },
        { id: "long-a", duration: 2 },
        { id: "long-b", duration: 2 },
      ],
      [
        { day: 1, start: 1, end: 3 },
        { day: 1, start: 6, end: 7 },
      ],
    );
    expect(result.placements.map((entry) => entry.id).sort()).toEqual(["long-a", "long-b", "short"]);
    expect(result.exact).toBe(true);
  });

  test("spreads over the quieter days and respects per-task limits", () => {
    const runs = [1, 2, 3].map((day) => ({ day, start: 1, end: 4 }));
    const spread = searchPlacements(
      [
        { id: "a", duration: 1 },
        { id: "b", duration: 1 },
        { id: "c", duration: 1 },
      ],
      runs,
      { dayLoad: new Map([[1, 2]]) },
    );
    // Day 1 already holds two reviews: the three new ones go to days 2 and 3, no day ending with more than two.
    expect(spread.placements.map((entry) => entry.day).sort()).toEqual([2, 2, 3]);
    const empty = searchPlacements(
      [
        { id: "a", duration: 1 },
        { id: "b", duration: 1 },
        { id: "c", duration: 1 },
      ],
      runs,
    );
    expect(empty.placements.map((entry) => entry.day)).toEqual([1, 2, 3]);
    const limited = searchPlacements([{ id: "a", duration: 2, notDays: new Set([1, 2]), from: 3 }], runs);
    expect(limited.placements).toEqual([{ id: "a", day: 3, start: 3, end: 4 }]);
  });

  test("a task that fits nowhere is left out, the rest still placed", () => {
    const result = searchPlacements(
      [
        { id: "huge", duration: 5 },
        { id: "small", duration: 2 },
      ],
      [{ day: 1, start: 1, end: 4, hostId: "hall" }],
    );
    expect(result.placements).toEqual([{ id: "small", day: 1, start: 1, end: 2, hostId: "hall" }]);
  });

  test("a generated week of 10,000 tasks: the search returns (no stack overflow) and says its budget stopped it", () => {
    const { state, runs, dayLoad, pendingTasks } = bigWeek();
    expect(pendingTasks.length).toBeGreaterThan(9_000);
    const result = searchPlacements(pendingTasks, runs, { dayLoad, nodeLimit: 20_000 });
    expect(result.stop).toBe("budget");
    expect(result.exact).toBe(false);
    expect(result.placements.length).toBeGreaterThan(0);
    // The best found so far is a real placement: every one applies with the place tool.
    let current = state;
    for (const placement of result.placements) {
      const run = placeTool.run(current, { task_id: placement.id, day: placement.day, slot_start: placement.start });
      expect(run.content).toMatch(/^placed/);
      current = run.state!;
    }
  });

  test("a deadline on the caller's clock stops the search with the best found so far", () => {
    const { runs, dayLoad, pendingTasks } = bigWeek();
    // The clock reads 1, 2, 3, …: the deadline at 3 passes on the third look (the search looks every 1,024 nodes).
    let ticks = 0;
    const result = searchPlacements(pendingTasks, runs, { dayLoad, deadline: 3, now: () => (ticks += 1) });
    expect(result.stop).toBe("budget");
    expect(result.exact).toBe(false);
    expect(ticks).toBe(3);
    expect(result.placements.length).toBeGreaterThan(0);
    // A deadline already past stops it on its first node, with nothing found.
    const late = searchPlacements(pendingTasks, runs, { dayLoad, deadline: 0, now: () => 1 });
    expect(late).toEqual({ placements: [], exact: false, stop: "budget" });
  });

  test("the default CPU clock is read at most once while little wall time passes, and counts on with it", () => {
    // A reading of the process's CPU time can take milliseconds on a loaded machine: looks at the clock within
    // 10 ms of wall time count on from the last reading instead.
    let wall = 1_000_000;
    const now = vi.spyOn(performance, "now").mockImplementation(() => wall);
    const readings = vi.spyOn(process, "cpuUsage").mockReturnValue({ user: 2_000_000, system: 0 });
    try {
      // The first look reads it (2,000 ms of CPU time); the next 99, with no wall time passing, do not.
      wall += 1_000;
      for (let look = 0; look < 100; look += 1) expect(pastDeadline({ deadline: 2_001 })).toBe(false);
      expect(readings).toHaveBeenCalledTimes(1);
      // 5 ms of wall time on, it counts 5 ms of CPU time on from that reading, without reading it again.
      wall += 5;
      expect(pastDeadline({ deadline: 2_004 })).toBe(true);
      expect(pastDeadline({ deadline: 2_006 })).toBe(false);
      expect(readings).toHaveBeenCalledTimes(1);
      // 10 ms on, it reads the clock again.
      wall += 5;
      expect(pastDeadline({ deadline: 2_001 })).toBe(false);
      expect(readings).toHaveBeenCalledTimes(2);
    } finally {
      readings.mockRestore();
      now.mockRestore();
    }
  });

  test("a small search that finishes says so: stop is exact", () => {
    const result = searchPlacements(
      [
        { id: "a", duration: 2 },
        { id: "b", duration: 3 },
      ],
      [{ day: 1, start: 1, end: 4 }],
      { deadline: 10, now: () => 0 },
    );
    expect(result).toMatchObject({ exact: true, stop: "exact" });
    expect(result.placements.map((entry) => entry.id)).toEqual(["b"]);
  });
});
