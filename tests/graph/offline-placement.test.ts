/**
 * Arranging generated weeks through the whole graph with the offline policy:
 * every card accepted, it places as many pending tasks as a brute-force exact
 * solver proves fit, the week stays sound, and the week is read once for the
 * whole place step (no re-read after each write).
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { checkScheduleInvariants, generateSchedule, sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import { maximumPlaceable } from "../schedule/exact-solver.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

const pendingIds = (state: ScheduleState) => state.tasks.filter((task) => task.source === "task_item" && task.status === "pending").map((task) => task.id);

const smallWeek = fc
  .record({ days: fc.integer({ min: 1, max: 3 }), slotsPerDay: fc.integer({ min: 3, max: 6 }), taskCount: fc.integer({ min: 3, max: 12 }), seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }) })
  .map((options) => generateSchedule(options))
  .filter((state) => pendingIds(state).length >= 1 && pendingIds(state).length <= 6);

test("arranging a generated week places as many tasks as the exact solver proves fit", async () => {
  await fc.assert(
    fc.asyncProperty(smallWeek, async (week) => {
      const best = maximumPlaceable(week);
      const tempo = await offlineTempo(week);
      const outcome = await converse(tempo, "Arrange my review tasks");
      const placed = pendingIds(week).length - pendingIds(outcome.schedule).length;
      expect(placed).toBe(best);
      expect(outcome.cards.slice(1).map((card) => card.action)).toEqual(Array(best).fill("place"));
      expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
      expect(outcome.phase).toBe("done");
    }),
    { numRuns: 12 },
  );
}, 120_000);

test("the place step reads the week once, then proposes every placement", async () => {
  const tempo = await offlineTempo(sampleWeek());
  const outcome = await converse(tempo, "Help me arrange next week's review");
  const count = (name: string) => outcome.toolCalls.filter((call) => call === name).length;
  expect([count("list_tasks"), count("find_free"), count("update_working_memory"), count("place"), count("get_overview")]).toEqual([1, 1, 1, 8, 2]);
  expect(pendingIds(outcome.schedule)).toEqual([]);
});
