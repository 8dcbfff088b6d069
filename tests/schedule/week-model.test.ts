/**
 * The incremental health judge the climb scores its changes with (issue 46, item 5): over random rule-bearing weeks
 * (excluded weekdays, blocked days, buffers, strategies, preferred parts, deadlines, earliest days, hosts) and random
 * moves and swaps, its score is `analyzeHealth`'s on the week the real tools leave, and it accepts exactly the changes
 * the `move` and `swap` tools accept.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { analyzeHealth, type HealthPreferences } from "../../tools/schedule/health.js";
import { moveTool, placeTool, swapTool, type ScheduleState } from "../../tools/schedule/index.js";
import { WeekModel } from "../../tools/schedule/week-model.js";
import { ruledWeekArbitrary } from "./arbitraries.js";

/** A generated week with rules and preferences drawn for its classes and tasks, and its reviews placed where they land. */
const placedWeek = ruledWeekArbitrary({ days: [2, 9], slotsPerDay: [4, 12], taskCount: [4, 26] }, { soft: true }).chain(
  (week) =>
    fc.array(fc.record({ day: fc.nat(), slot: fc.nat() }), { minLength: 60, maxLength: 60 }).map((tries) => {
      let state = week;
      // Each review tries a few places; those the place tool accepts stay.
      const reviews = state.tasks.filter((task) => task.source === "task_item").map((task) => task.id);
      tries.forEach((place, attempt) => {
        const id = reviews[attempt % Math.max(1, reviews.length)];
        if (!id) return;
        const placed = placeTool.run(state, {
          task_id: id,
          day: 1 + (place.day % state.window.totalDays),
          slot_start: 1 + (place.slot % state.window.slotsPerDay),
        });
        if (placed.ok && placed.state) state = placed.state;
      });
      return state;
    }),
);

const preferencesArbitrary: fc.Arbitrary<HealthPreferences> = fc.record(
  {
    avoidDays: fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { maxLength: 2 }),
    preferredSlots: fc.record({ from: fc.integer({ min: 1, max: 4 }), to: fc.integer({ min: 5, max: 12 }) }),
  },
  { requiredKeys: [] },
);

type Change =
  | { kind: "move"; task: number; day: number; slot: number; keep: boolean }
  | { kind: "swap"; first: number; second: number; keep: boolean };

const changeArbitrary: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant("move" as const), task: fc.nat(), day: fc.nat(), slot: fc.nat(), keep: fc.boolean() }),
  fc.record({ kind: fc.constant("swap" as const), first: fc.nat(), second: fc.nat(), keep: fc.boolean() }),
);

/** Positions of the placed single-range reviews. */
const placedPositions = (state: ScheduleState) =>
  state.tasks.flatMap((task, position) =>
    task.source === "task_item" && task.status === "placed" && task.slots?.length === 1 ? [position] : [],
  );

describe("the incremental health judge", () => {
  test("scores every move and swap as analyzeHealth scores the week the tools leave, and accepts what they accept", () => {
    let compared = 0;
    fc.assert(
      fc.property(
        placedWeek,
        preferencesArbitrary,
        fc.array(changeArbitrary, { minLength: 1, maxLength: 25 }),
        (start, preferences, changes) => {
          let state = start;
          const model = new WeekModel(state, preferences);
          expect(model.score()).toBe(analyzeHealth(state, preferences).score);
          for (const change of changes) {
            const positions = placedPositions(state);
            if (positions.length === 0) return;
            if (change.kind === "move") {
              const position = positions[change.task % positions.length]!;
              const task = state.tasks[position]!;
              const range = task.slots![0]!;
              const day = 1 + (change.day % state.window.totalDays);
              const start = 1 + (change.slot % state.window.slotsPerDay);
              if (day === range.day && start === range.start) continue;
              const target = { day, start, end: start + range.end - range.start };
              const ran = moveTool.run(state, { task_id: task.id, day, slot_start: start });
              const predicted = model.scoreIfMoved(position, target);
              expect(predicted !== undefined, `move ${task.id} to ${JSON.stringify(target)}: ${ran.content}`).toBe(
                ran.ok,
              );
              if (!ran.ok || !ran.state) continue;
              compared += 1;
              expect(Math.max(0, predicted!)).toBe(analyzeHealth(ran.state, preferences).score);
              if (!change.keep) continue;
              model.move(position, target);
              model.settle();
              state = ran.state;
            } else {
              const first = positions[change.first % positions.length]!;
              const second = positions[change.second % positions.length]!;
              if (first === second) continue;
              const ids = { first_task_id: state.tasks[first]!.id, second_task_id: state.tasks[second]!.id };
              const ran = swapTool.run(state, ids);
              const predicted = model.scoreIfSwapped(first, second);
              expect(predicted !== undefined, `swap ${JSON.stringify(ids)}: ${ran.content}`).toBe(ran.ok);
              if (!ran.ok || !ran.state) continue;
              compared += 1;
              expect(Math.max(0, predicted!)).toBe(analyzeHealth(ran.state, preferences).score);
              if (!change.keep) continue;
              model.swap(first, second);
              state = ran.state;
            }
            expect(model.score()).toBe(analyzeHealth(state, preferences).score);
          }
        },
      ),
      { numRuns: 150, seed: 46 },
    );
    // The weeks must give the property something to compare.
    expect(compared).toBeGreaterThan(100);
  });
});
