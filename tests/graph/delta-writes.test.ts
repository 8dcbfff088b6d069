/**
 * The delta channels' smaller writes: a plan write holds the steps that changed, a workspace write the ids a round
 * added; folding the writes gives back the whole plan and workspace, and an update that is not such a change (steps
 * added, removed or reordered; a workspace emptied or cut) is written whole.
 */
import { Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import {
  applyPlanWrites,
  applyWorkspaceWrites,
  planWrite,
  workspaceWrite,
  type PlanWrite,
  type WorkspaceWrite,
} from "../../kernel/channels.js";
import { changedFields } from "../../kernel/changed-writes.js";
import type { PlanStep, TempoState } from "../../kernel/state.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";

const step = (id: string, status: PlanStep["status"], summary?: string): PlanStep => ({
  id,
  content: `Do ${id}`,
  doneWhen: `${id} is done`,
  status,
  ...(summary ? { summary } : {}),
});

describe("plan writes", () => {
  const plan = [step("step-1", "pending"), step("step-2", "pending"), step("step-3", "pending")];

  test("a status change is written as the one step that changed, and folds back into the whole plan", () => {
    const next = [step("step-1", "done", "read it"), step("step-2", "running"), plan[2]!];
    const write = planWrite(plan, next);
    expect(write).toEqual({ steps: [next[0], next[1]] });
    expect(applyPlanWrites(plan, [write])).toEqual(next);
  });

  test("steps added, removed or reordered are written whole", () => {
    const added = [...plan, step("step-4", "pending")];
    const removed = plan.slice(0, 2);
    const reordered = [plan[1]!, plan[0]!, plan[2]!];
    for (const next of [added, removed, reordered, []]) {
      expect(planWrite(plan, next)).toBe(next);
      expect(applyPlanWrites(plan, [planWrite(plan, next)])).toEqual(next);
    }
  });

  test("writes of both kinds fold in order, as a thread's history replays them", () => {
    const writes: PlanWrite[] = [
      plan,
      { steps: [step("step-1", "running")] },
      { steps: [step("step-1", "done")] },
      [step("step-9", "pending")],
      { steps: [step("step-9", "running")] },
    ];
    expect(applyPlanWrites([], writes)).toEqual([step("step-9", "running")]);
    // A step id the plan does not hold changes nothing.
    expect(applyPlanWrites(plan, [{ steps: [step("step-7", "done")] }])).toEqual(plan);
  });
});

describe("workspace writes", () => {
  test("ids added after the current ones are written as an append", () => {
    const write = workspaceWrite(["a", "b"], ["a", "b", "c", "d"]);
    expect(write).toEqual({ append: ["c", "d"] });
    expect(applyWorkspaceWrites(["a", "b"], [write])).toEqual(["a", "b", "c", "d"]);
  });

  test("an emptied, cut or rewritten workspace is written whole", () => {
    for (const next of [[], ["a"], ["b", "a", "c"], ["x", "y", "z"]]) {
      expect(workspaceWrite(["a", "b"], next)).toBe(next);
      expect(applyWorkspaceWrites(["a", "b"], [workspaceWrite(["a", "b"], next)])).toEqual(next);
    }
    const writes: WorkspaceWrite[] = [{ append: ["a"] }, { append: ["b"] }, [], { append: ["c"] }];
    expect(applyWorkspaceWrites([], writes)).toEqual(["c"]);
  });
});

test("a node's update is written as the smaller delta only where it has one", () => {
  const state = {
    planSteps: [step("step-1", "pending")],
    workspaceMessageIds: ["a"],
    phase: "executing",
  } as unknown as TempoState;
  const changed = changedFields(state, {
    planSteps: [step("step-1", "running")],
    workspaceMessageIds: ["a", "b"],
    phase: "executing",
  });
  expect(changed).toEqual({
    planSteps: { steps: [step("step-1", "running")] },
    workspaceMessageIds: { append: ["b"] },
  });
  expect(changedFields(state, { planSteps: [step("step-1", "pending")], workspaceMessageIds: ["a"] })).toEqual({});
});

test("a whole task run through the graph reads back the same plan and workspace at every checkpoint as its values stream showed", async () => {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("student", sampleWeek());
  const checkpointer = new MemorySaver();
  // Three placements a card: the runs answering the first cards add rounds to a step still under way (stored as
  // appends); the last card's run ends its step (a proposal's then) and the task.
  const graph = buildTempoGraph({
    models: { default: new ScheduleOfflinePolicy({ writesPerCard: 3 }) },
    domain: createScheduleDomain({ repository }),
    checkpointer,
  });
  const config = { configurable: { thread_id: "delta-writes", user_id: "student" } };
  const streamed: string[] = [];
  const record = async (input: unknown) => {
    let last: TempoState | undefined;
    for await (const values of await graph.stream(input as never, { ...config, streamMode: "values" })) {
      last = values as TempoState;
      streamed.push(JSON.stringify([last.planSteps, last.workspaceMessageIds]));
    }
    return last;
  };
  await record({ messages: [{ role: "user", content: "Help me arrange next week's review" }] });
  for (
    let answer = 0;
    answer < 20 && (await graph.getState(config)).tasks.some((task) => task.interrupts.length > 0);
    answer += 1
  ) {
    await record(new Command({ resume: { type: "accept", args: null } }));
  }
  const final = await graph.getState(config);
  expect(final.values.phase).toBe("done");
  expect((final.values.planSteps as PlanStep[]).every((planned) => planned.status === "done")).toBe(true);

  let checkpoints = 0;
  for await (const snapshot of graph.getStateHistory(config)) {
    checkpoints += 1;
    const values = snapshot.values as TempoState;
    if (values.planSteps.length > 0)
      expect(streamed).toContain(JSON.stringify([values.planSteps, values.workspaceMessageIds]));
  }
  expect(checkpoints).toBeGreaterThan(8);
  // The stored writes: the plan's status changes as the changed steps, the rounds' ids as appends.
  const stored: Record<string, unknown[]> = { planSteps: [], workspaceMessageIds: [] };
  for await (const tuple of checkpointer.list(config)) {
    for (const [, channel, value] of tuple.pendingWrites ?? []) stored[channel]?.push(value);
  }
  // (The plan card's answer is saved once, at the batch card: the stored writes are those of the other runs.)
  const patches = stored.planSteps!.filter((write) => !Array.isArray(write)) as Array<{ steps: PlanStep[] }>;
  expect(stored.planSteps!.filter((write) => Array.isArray(write))).toHaveLength(1); // the drafted plan
  // (A clean step goes straight on to the next, with no replan round: fewer runs, fewer stored patches.)
  expect(patches.length).toBeGreaterThanOrEqual(2);
  // Each patch holds only the steps that changed: one, or a finished step and the next one starting together.
  for (const patch of patches) expect(patch.steps.length).toBeLessThanOrEqual(2);
  expect(patches.some((patch) => patch.steps.length === 1)).toBe(true);
  expect(stored.workspaceMessageIds!.filter((write) => !Array.isArray(write)).length).toBeGreaterThanOrEqual(2);
});
