/**
 * An arranging step ended in code (issue 49 item 2): a model that places every pending review by hand, in a plan that
 * arranges the week, is not asked again to read the week back — once its writes applied and nothing is left open the
 * code ends the step from the data. Where something is still open, or a step's writes were more than placing, the
 * model goes on as before.
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { greedyPlacements } from "../support/openai-double/naive-brain.js";
import { parseFreeRuns } from "../../offline/schedule/result-parsing.js";
import { runTool } from "../schedule/support.js";
import { breaksOf } from "../../tools/schedule/slot-range.js";
import { approveCard, planDone, scripted, threadConfig } from "../support/scripted.js";
import { halfPlacedWeek } from "./support/offline-conversation.js";

let ids = 0;
/** One model reply making `calls`. */
const calling = (calls: Array<Call>) =>
  new AIMessage({
    content: "",
    tool_calls: calls.map((call) => ({
      id: `call-${(ids += 1)}`,
      name: call.name,
      args: call.arguments,
      type: "tool_call",
    })),
  });

type Call = { name: string; arguments: Record<string, unknown> };

/** The greedy hand placements of every pending review of `week` (the naive model's). */
function handPlacements(week: ScheduleState): Call[] {
  const listing = runTool("list_tasks", week, { status: "pending" }).content;
  const free = runTool("find_free", week, { min_length: 1 }).content;
  return greedyPlacements(listing, free).map((call) => ({
    name: call.name,
    arguments: call.arguments as Call["arguments"],
  }));
}

const PLACE = { content: "Place each pending review task into a free slot that fits it", done_when: "none is pending" };
const VERIFY = { content: "Verify the schedule", done_when: "the overview shows how many are pending" };

/**
 * Tempo on `week` with a first_full plan of placing then verifying (no refinement step), the executor scripted; on
 * `now` (`configurable.now`) when given.
 */
async function arranging(week: ScheduleState, execute: AIMessage[], now?: string) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", week);
  const executor = scripted(execute);
  const graph = buildTempoGraph({
    models: {
      default: scripted([new AIMessage(JSON.stringify({ intent: "task", reply: "", reason: "" }))]),
      plan: scripted([planDone([PLACE, VERIFY], { run_mode: "first_full" })]),
      execute: executor,
      deliver: scripted(["Done."]),
      toolCalling: "native",
    },
    domain: createScheduleDomain({ repository, refine: false }),
    checkpointer: new MemorySaver(),
    settings: { replanAfterStep: "never" },
  });
  const base = threadConfig(`arranging-${(ids += 1)}`);
  const config = now ? { configurable: { ...base.configurable, now } } : base;
  const asked = await graph.invoke({ messages: [new HumanMessage("Arrange my week")] }, config);
  const card = await graph.invoke(approveCard(asked), config);
  const result = await graph.invoke(approveCard(card), config);
  const pending = (await repository.load("user-1")).tasks.filter(
    (task) => task.source === "task_item" && task.status === "pending",
  );
  return { result, executor, pending };
}

describe("an arranging step placed by hand", () => {
  test("every pending review placed and applied: the code ends the step, with no model call to read it back", async () => {
    const week = sampleWeek();
    const places = handPlacements(week);
    expect(places.length).toBe(week.tasks.filter((task) => task.source === "task_item").length);
    // One reply: the places. A second execute call would find the script empty and fail the run.
    const { result, executor, pending } = await arranging(week, [calling(places)]);
    expect(pending).toEqual([]);
    expect(executor.callCount).toBe(1);
    expect(result.planSteps.map((step) => [step.status, step.summary])).toEqual([
      ["done", "the schedule shows 0 review task(s) still pending"],
      ["done", "the schedule shows 0 review task(s) still pending"],
    ]);
  });

  test("a review left open: the model is asked again and ends the step itself", async () => {
    const week = sampleWeek();
    const places = handPlacements(week).slice(1);
    const ending = calling([{ name: "next_plan", arguments: { goal_check: "all but one placed" } }]);
    const { result, executor, pending } = await arranging(week, [calling(places), ending]);
    expect(pending).toHaveLength(1);
    expect(executor.callCount).toBe(2);
    expect(result.planSteps[0]).toMatchObject({ status: "done", summary: "all but one placed" });
  });

  test("what is left open fits nowhere as the week stands: the code ends the step and says so", async () => {
    const week = sampleWeek();
    const first = week.tasks.find((task): task is TaskItem => task.source === "task_item")!;
    // Longer than any free run of the week (the longest is 8 slots, on Sunday).
    const { dueBefore: _due, ...rest } = first;
    week.tasks.push({ ...rest, id: "long-project", name: "Long project", duration: 9 });
    const places = handPlacements(week);
    expect(places.map((place) => place.arguments.task_id)).not.toContain("long-project");
    const { result, executor, pending } = await arranging(week, [calling(places)]);
    expect(pending.map((task) => task.id)).toEqual(["long-project"]);
    expect(executor.callCount).toBe(1);
    expect(result.planSteps[0]).toMatchObject({
      status: "done",
      summary: "the schedule shows 1 review task(s) still pending; long-project (fits nowhere free as the week stands)",
    });
    // The answer gives it as the reason the review is still pending.
    expect(String(result.messages.at(-1)!.content)).toContain(
      "Still pending: Long project (long-project) — fits nowhere free as the week stands",
    );
  });

  test("what is left open fits only in slots the clock has passed: it fits nowhere, and the code ends the step", async () => {
    // Sunday 14:00: the week's one free run left is Sunday evening's; a review of its length takes it, a short one is left.
    const now = "2024-03-17T14:00:00+08:00";
    const week = sampleWeek();
    const first = week.tasks.find((task): task is TaskItem => task.source === "task_item")!;
    const { dueBefore: _due, ...rest } = first;
    const sunday = parseFreeRuns(runTool("find_free", { ...week, now }, { min_length: 1 }).content);
    expect(sunday.map((run) => run.day)).toEqual([7]);
    const run = sunday[0]!;
    // A review's slots span no break of the day (dinner, 17:40–19:00): the run is filled by a block each side of one.
    const breaks = breaksOf(week.window);
    const parts: Array<{ start: number; end: number }> = [{ start: run.start, end: run.start }];
    for (let slot = run.start + 1; slot <= run.end; slot += 1)
      if (breaks?.[slot - 1] === 1) parts.push({ start: slot, end: slot });
      else parts.at(-1)!.end = slot;
    week.tasks = [
      ...week.tasks.filter((task) => task.source !== "task_item"),
      ...parts.map((part, index) => ({
        ...rest,
        id: `sunday-block-${index + 1}`,
        name: `Sunday block ${index + 1}`,
        duration: part.end - part.start + 1,
      })),
      { ...rest, id: "short-review", name: "Short review", duration: 1 },
    ];
    const places = parts.map((part, index) => ({
      name: "place",
      arguments: { task_id: `sunday-block-${index + 1}`, day: run.day, slot_start: part.start },
    }));
    // One reply: the places. Without the clock the short review would fit on the days before (the model asked again,
    // and a second execute call finds the script empty).
    const { result, executor, pending } = await arranging(week, [calling(places)], now);
    expect(pending.map((task) => task.id)).toEqual(["short-review"]);
    expect(executor.callCount).toBe(1);
    expect(result.planSteps[0]).toMatchObject({
      status: "done",
      summary: "the schedule shows 1 review task(s) still pending; short-review (fits nowhere free as the week stands)",
    });
  });

  test("a move among the step's writes: not only placing, so the model is asked again", async () => {
    const week = halfPlacedWeek();
    const placed = week.tasks.find(
      (task): task is TaskItem => task.source === "task_item" && task.status === "placed",
    )!;
    const places = handPlacements(week);
    // Where the placed one can go once every place is made: a free run of its length in the week after them.
    let after = week;
    for (const place of places) after = runTool("place", after, place.arguments).state as ScheduleState;
    const run = parseFreeRuns(runTool("find_free", after, { min_length: placed.duration }).content)[0]!;
    const move = { name: "move", arguments: { task_id: placed.id, day: run.day, slot_start: run.start } };
    const ending = calling([{ name: "next_plan", arguments: { goal_check: "placed and moved" } }]);
    const { result, executor, pending } = await arranging(week, [calling([...places, move]), ending]);
    // Nothing is left open, yet the step's writes were more than placing: the model ended it (the verification is
    // then the code's, every write applied).
    expect(pending).toEqual([]);
    expect(executor.callCount).toBe(2);
    expect(result.planSteps[0]).toMatchObject({ status: "done", summary: "placed and moved" });
  });
});
