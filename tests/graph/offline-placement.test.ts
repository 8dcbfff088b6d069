/**
 * Arranging generated weeks through the whole graph with the offline policy:
 * every card accepted, it places as many pending tasks as a brute-force exact
 * solver proves fit, the week stays sound, and the week is read once for the
 * whole place step (no re-read after each write): the backend proposes the
 * arrangement and the policy chooses it, as a model would.
 */
import { HumanMessage, type AIMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { expect, test } from "vitest";
import { searchPlacements } from "../../tools/schedule/placement-search.js";
import {
  checkScheduleInvariants,
  findFreeTool,
  generateSchedule,
  listTasksTool,
  parseFreeRuns,
  parseTaskListing,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { interruptsOf, resume } from "../support/scripted.js";
import { maximumPlaceable } from "../schedule/exact-solver.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

const pendingIds = (state: ScheduleState) =>
  state.tasks.filter((task) => task.source === "task_item" && task.status === "pending").map((task) => task.id);

const smallWeek = fc
  .record({
    days: fc.integer({ min: 1, max: 3 }),
    slotsPerDay: fc.integer({ min: 3, max: 6 }),
    taskCount: fc.integer({ min: 3, max: 12 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  })
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
      // The placements, then the refinement's changes: it moves or swaps what is placed, never places more.
      const writes = outcome.cards.slice(1).map((card) => card.action);
      expect(writes.slice(0, best)).toEqual(Array(best).fill("place"));
      expect(writes.slice(best).every((action) => ["move", "swap", "batch_move"].includes(action))).toBe(true);
      expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
      expect(outcome.phase).toBe("done");
    }),
    { numRuns: 12 },
  );
});

test("the place step asks the backend once for the arrangement and chooses it: every placement on one card, nothing searched by hand", async () => {
  const tempo = await offlineTempo(sampleWeek());
  const outcome = await converse(tempo, "Help me arrange next week's review");
  const count = (name: string) => outcome.toolCalls.filter((call) => call === name).length;
  expect([
    count("propose_arrangement"),
    count("list_tasks"),
    count("find_free"),
    count("update_working_memory"),
    count("place"),
    count("get_overview"),
  ]).toEqual([1, 0, 0, 0, 8, 0]);
  // The arrangement's a1, then the refinement's choice.
  expect(count("choose_candidate")).toBeGreaterThanOrEqual(1);
  expect(pendingIds(outcome.schedule)).toEqual([]);
});

test("a three-week window of 180 tasks is arranged from one proposal: as many as the search fits, with nothing kept in working memory", async () => {
  // Long task ids, as a plan kept in working memory once overflowed on: the proposal lives in the listing's data.
  const week = generateSchedule({ days: 21, taskCount: 180, seed: 5 });
  week.tasks = week.tasks.map((task) =>
    task.source === "task_item" && task.status === "pending"
      ? { ...task, id: `${task.id}-${"x".repeat(56 - task.id.length)}` }
      : task,
  );
  const tempo = await offlineTempo(week);
  const config = {
    configurable: { thread_id: "long-plan", user_id: "student", max_rounds: 400 },
    recursionLimit: 5_000,
  };
  let result = await tempo.graph.invoke({ messages: [new HumanMessage("Arrange my review tasks")] }, config);
  const calls: string[] = [];
  for (let turn = 0; turn < 300 && interruptsOf(result).length > 0; turn += 1) {
    result = await tempo.graph.invoke(resume({ type: "accept", args: null }), config);
  }
  for (const message of result.messages)
    for (const call of (message as AIMessage).tool_calls ?? []) calls.push(call.name);
  const schedule = await tempo.repository.load("student");
  expect(calls.filter((name) => name === "update_working_memory")).toEqual([]);
  expect(result.phase).toBe("done");
  expect(pendingIds(week).length - pendingIds(schedule).length).toBe(searchedCount(week));
  expect(checkScheduleInvariants(schedule)).toEqual([]);
});

/** How many pending tasks the placement search fits in one go on the week as read by the tools. */
function searchedCount(week: ScheduleState): number {
  const listing = parseTaskListing(listTasksTool.run(week, { status: "pending", limit: 100 }).content);
  const runs = parseFreeRuns(findFreeTool.run(week, { min_length: 1, limit: 100 }).content);
  return searchPlacements(
    listing.map((task) => ({ id: task.id, duration: task.duration })),
    runs,
  ).placements.length;
}

test("a week of 20 pending tasks fits the default round budget: one batch card, every task that fits placed", async () => {
  // 40 tasks on 7 × 12: about half are pending task items; the seed gives exactly 20.
  const week = generateSchedule({ days: 7, slotsPerDay: 12, taskCount: 40, seed: 7 });
  expect(pendingIds(week)).toHaveLength(20);
  const tempo = await offlineTempo(week);
  const config = { configurable: { thread_id: "twenty", user_id: "student" } };
  let result = await tempo.graph.invoke({ messages: [new HumanMessage("Arrange my review tasks")] }, config);
  const cards: number[] = [];
  for (let turn = 0; turn < 10 && interruptsOf(result).length > 0; turn += 1) {
    const requests = (interruptsOf(result)[0]!.value as { action_requests: unknown[] }).action_requests;
    cards.push(requests.length);
    result = await tempo.graph.invoke(resume({ decisions: requests.map(() => ({ type: "approve" })) }), config);
  }
  expect(result.phase).toBe("done");
  const schedule = await tempo.repository.load("student");
  expect(pendingIds(schedule)).toEqual([]);
  expect(checkScheduleInvariants(schedule)).toEqual([]);
  // The plan card and one card for the twenty placements, then the refinement's changes one card each (within its
  // budget of six listings); the rounds are model decisions only.
  expect(cards.slice(0, 2)).toEqual([1, 20]);
  expect(cards.slice(2).every((writes) => writes === 1)).toBe(true);
  expect(cards.length - 2).toBeLessThanOrEqual(5);
  expect(result.maxRounds).toBe(60);
  expect(result.roundsUsed).toBeLessThanOrEqual(12);
});
