/**
 * The refinement loop (issue 29): a first_full plan gets the domain's refinement step after its rough arrangement;
 * in that step the code lists the candidates (at the start and after each change applied) and the model only
 * chooses; the code — not the model — ends the loop when nothing is left to choose (a forced imperfection, which
 * the task report gives as the reason a review stays open), after listings that gain nothing (stagnation) or on the
 * round budget; refining never lowers the score; the step keeps to its whitelisted packs; the loop's state is
 * checkpointed and shown in ExecutionState. Offline, "optimise my week" refines an arranged week end to end.
 */
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { asCard } from "../../contracts/cards.js";
import { createTempoDependencies } from "../../server/create-tempo.js";
import { toExecutionState } from "../../server/execution-state.js";
import { afterListing, refinementSummary } from "../../nodes/execute/refinement.js";
import { summaryInChinese } from "../../offline/schedule/replies.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import {
  analyzeHealth,
  consecutiveDays,
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
  SCHEDULE_REFINEMENT,
  type ScheduleRepository,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { interruptsOf, planDone, resume, scripted, threadConfig } from "../support/scripted.js";
import { crowdedSampleWeek } from "../support/crowded-week.js";

let callCount = 0;
const calling = (name: string, args: Record<string, unknown> = {}) =>
  new AIMessage({ content: "", tool_calls: [{ id: `call-${(callCount += 1)}`, name, args, type: "tool_call" }] });
const chat = () => scripted([new AIMessage(JSON.stringify({ intent: "task", reply: "", reason: "" }))]);
const REFINE = { content: SCHEDULE_REFINEMENT.step.content, done_when: SCHEDULE_REFINEMENT.step.doneWhen };

/** Tempo with a scripted planner and executor on a repository seeded with `week`. */
async function scriptedTempo(
  week: ScheduleState,
  plan: AIMessage,
  execute: AIMessage[],
  refinement = SCHEDULE_REFINEMENT,
) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", week);
  const domain = { ...createScheduleDomain({ repository }), refinement };
  const graph = buildTempoGraph({
    models: {
      default: chat(),
      plan: scripted([plan]),
      execute: scripted(execute),
      deliver: scripted(["Done."]),
      toolCalling: "native",
    },
    domain,
    checkpointer: new MemorySaver(),
    settings: { replanAfterStep: "never" },
  });
  return { graph, repository };
}

/** The offline Tempo on a repository seeded with `week`, asked on thread `thread` to optimise it (its plan card up). */
async function offlineOptimising(week: ScheduleState, thread: string) {
  const settings = readSettings({ TEMPO_SAMPLE_DATA: "false" });
  const dependencies = await createTempoDependencies(settings);
  const repository = dependencies.domains.get("schedule")!.repository as ScheduleRepository;
  await repository.seed("student", week);
  const graph = buildTempoGraph({
    models: dependencies.models,
    domain: dependencies.domain,
    checkpointer: new MemorySaver(),
    settings: settings.workflow,
  });
  const config = threadConfig(thread, "student");
  await graph.invoke({ messages: [new HumanMessage("Please optimise my week")] }, config);
  return { graph, repository, config };
}

function toolResults(messages: BaseMessage[]): string[] {
  return messages
    .filter((message) => message.getType() === "tool")
    .map((message) => `${(message as ToolMessage).name}: ${String(message.content)}`);
}

describe("run modes", () => {
  test("a first_full plan gets the refinement step after its rough arrangement; local_adjust and questions do not", async () => {
    const place = { content: "Place the pending reviews", done_when: "none is pending" };
    const verify = { content: "Verify the schedule", done_when: "the overview is read" };
    const { graph } = await scriptedTempo(sampleWeek(), planDone([place, verify], { run_mode: "first_full" }), []);
    const result = await graph.invoke({ messages: [new HumanMessage("Arrange my week")] }, threadConfig("first-full"));
    expect(result.planSteps.map((step) => step.content)).toEqual([
      place.content,
      SCHEDULE_REFINEMENT.step.content,
      verify.content,
    ]);
    // It starts with the candidates alone (reading may be added: it is in the whitelist).
    expect(result.planSteps[1]!.packs).toEqual(["schedule.optimize"]);
    expect(result.runMode).toBe("first_full");
    expect(asCard(interruptsOf(result)[0]!.value)!.action_requests[0]!.name).toBe("confirm_plan");

    const local = await scriptedTempo(
      sampleWeek(),
      planDone([{ content: "Move the matrix review to Friday", done_when: "moved" }], { run_mode: "local_adjust" }),
      [],
    );
    const moved = await local.graph.invoke(
      { messages: [new HumanMessage("Move the matrix review to Friday")] },
      threadConfig("local"),
    );
    expect(moved.planSteps).toHaveLength(1);
  });
});

describe("the refinement loop", () => {
  test("offline, 'optimise my week' refines the arranged week: one chosen change on a card, then the code stops the loop", async () => {
    const settings = readSettings({ TEMPO_SAMPLE_DATA: "false" });
    const dependencies = await createTempoDependencies(settings);
    const repository = dependencies.domains.get("schedule")!.repository as ScheduleRepository;
    await repository.seed("student", crowdedSampleWeek());
    const before = analyzeHealth(await repository.load("student")).score;
    const graph = buildTempoGraph({
      models: dependencies.models,
      domain: dependencies.domain,
      checkpointer: new MemorySaver(),
      settings: settings.workflow,
    });
    const config = threadConfig("optimise", "student");
    let result = await graph.invoke({ messages: [new HumanMessage("Please optimise my week")] }, config);
    expect(result.planSteps.map((step) => step.content)).toEqual([SCHEDULE_REFINEMENT.step.content]);
    result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    const card = asCard(interruptsOf(result)[0]!.value)!;
    expect(card.action_requests.map((request) => request.name)).toEqual(["batch_move"]);
    result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(result.phase).toBe("done");
    const after = analyzeHealth(await repository.load("student")).score;
    expect(after).toBeGreaterThan(before);
    expect(result.optimization).toMatchObject({ rounds: 2, startScore: before, bestScore: after, verdict: "forced" });
    expect(result.planSteps[0]!.summary).toBe(
      `refined in 2 round(s): health score ${before} → ${after}; stopped: no change raises the score any more`,
    );
    expect(result.outcome?.kind).toBe("completed");
    // ExecutionState shows the run mode and the loop.
    const shown = toExecutionState(await graph.getState(config));
    expect(shown.runMode).toBe("global_reopt");
    expect(shown.optimization).toMatchObject({ verdict: "forced", rounds: 2 });
  });

  test("a week no change improves: the step says there was nothing to refine, and no card is raised", async () => {
    const { proposeCandidates } = await import("../../tools/schedule/candidates.js");
    const { applyWrites } = await import("../../tools/schedule/candidate-writes.js");
    let week = crowdedSampleWeek();
    for (let round = 0; round < 6; round += 1) {
      const top = proposeCandidates(week, { k: 1, placePending: false }).candidates[0];
      if (!top) break;
      week = applyWrites(week, top.writes)!;
    }
    const { graph, config } = await offlineOptimising(week, "nothing-to-refine");
    const result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(interruptsOf(result)).toEqual([]);
    expect(result.phase).toBe("done");
    const score = analyzeHealth(week).score;
    expect(result.planSteps[0]!.summary).toBe(
      `nothing to refine: health score ${score}; stopped: no change raises the score any more`,
    );
    expect(result.optimization).toMatchObject({ rounds: 1, startScore: score, bestScore: score, verdict: "forced" });
  });

  test("listings that gain nothing end the loop in code (stagnation); the model is not asked again", async () => {
    const execute = [
      calling("propose_candidates", { k: 2 }),
      calling("choose_candidate", { id: "none" }),
      calling("propose_candidates", { k: 2 }),
      calling("choose_candidate", { id: "none" }),
      calling("propose_candidates", { k: 2 }),
      calling("analyze_health"),
    ];
    const { graph } = await scriptedTempo(
      crowdedSampleWeek(),
      planDone([REFINE], { run_mode: "global_reopt", complexity: "simple" }),
      execute,
    );
    const config = threadConfig("stagnant");
    await graph.invoke({ messages: [new HumanMessage("Optimise my week")] }, config);
    const result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(result.phase).toBe("done");
    expect(result.optimization).toMatchObject({ rounds: 3, stagnantRounds: 2, verdict: "stagnant" });
    expect(result.planSteps[0]!.summary).toMatch(/stopped: no gain of 0\.05 or more in 2 rounds in a row$/);
    // The sixth scripted reply (analyze_health) was never asked for.
    expect(toolResults(result.messages).some((line) => line.startsWith("analyze_health"))).toBe(false);
  });

  test("a model that passes over the listing turn after turn: the code ends the step, saying nothing was taken", async () => {
    // Two turns that read and check the week instead of choosing (the stubborn model's), then a third never asked.
    const execute = [calling("list_tasks", { status: "pending" }), calling("get_overview"), calling("analyze_health")];
    const { graph, repository } = await scriptedTempo(
      crowdedSampleWeek(),
      planDone([REFINE], { run_mode: "global_reopt", complexity: "simple" }),
      execute,
    );
    const config = threadConfig("passed-over");
    const before = await repository.load("user-1");
    await graph.invoke({ messages: [new HumanMessage("Optimise my week")] }, config);
    const result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(result.phase).toBe("done");
    expect(interruptsOf(result)).toEqual([]);
    const results = toolResults(result.messages);
    expect(results.map((line) => line.split(":")[0])).toEqual(["propose_candidates", "list_tasks", "get_overview"]);
    const score = analyzeHealth(before).score;
    const offered = result.optimization!.offered!;
    expect(offered).toBeGreaterThan(0);
    expect(result.optimization).toMatchObject({ rounds: 1, startScore: score, verdict: "passed" });
    // Honest: changes were on offer and none was taken (not "nothing to refine").
    expect(result.planSteps[0]!.summary).toBe(
      `not refined: health score ${score}, ${offered} listed change(s) not taken; stopped: none of the listed changes was taken in 2 turns in a row`,
    );
    expect(summaryInChinese(result.planSteps[0]!.summary!)).toBe(
      `未优化：健康分 ${score}，列出的 ${offered} 项调整没有采用；停止原因：连续 2 轮没有选择列出的调整`,
    );
    expect(await repository.load("user-1")).toEqual(before);
    expect(toExecutionState(await graph.getState(config)).optimization).toMatchObject({ verdict: "passed" });
  });

  test("a model that reads once before choosing keeps its choice: one turn aside is not passing over the listing", async () => {
    const execute = [calling("get_overview"), calling("choose_candidate", { id: "c1" })];
    const { graph } = await scriptedTempo(
      crowdedSampleWeek(),
      planDone([REFINE], { run_mode: "global_reopt", complexity: "simple" }),
      execute,
    );
    const config = threadConfig("reads-then-chooses");
    await graph.invoke({ messages: [new HumanMessage("Optimise my week")] }, config);
    const result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    const card = asCard(interruptsOf(result)[0]!.value)!;
    expect(card.action_requests.length).toBeGreaterThan(0);
    expect(result.optimization).toMatchObject({ verdict: "running" });
  });

  test("the round budget ends the loop; while refining, placing by hand and bringing in other packs are refused", async () => {
    const execute = [
      calling("place", { task_id: "matrix-review", day: 2, slot_start: 3 }),
      calling("context_tools_add", { packs: ["schedule.place"] }),
      calling("propose_candidates", { k: 1 }),
      calling("choose_candidate", { id: "none" }),
      calling("propose_candidates", { k: 1 }),
    ];
    const budget = { ...SCHEDULE_REFINEMENT, maxRounds: 2, stagnantRounds: 5 };
    const { graph, repository } = await scriptedTempo(
      crowdedSampleWeek(),
      planDone([REFINE], { run_mode: "global_reopt", complexity: "simple" }),
      execute,
      budget,
    );
    const config = threadConfig("budget");
    const before = await repository.load("user-1");
    await graph.invoke({ messages: [new HumanMessage("Optimise my week")] }, config);
    const result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    const results = toolResults(result.messages);
    // The code lists first (no model call); then the model's hand-made place and its pack request are refused.
    expect(results[0]).toMatch(/^propose_candidates: health score now /);
    expect(results[1]).toBe(
      "place: Error: while refining, only the tools of schedule.read, schedule.optimize are offered: list candidates and choose one (choose_candidate) instead of calling place. Nothing was changed.",
    );
    expect(results[2]).toBe(
      "context_tools_add: Error: while refining, only schedule.read, schedule.optimize may be active (not schedule.place); choose among the candidates. Nothing was changed.",
    );
    expect(result.optimization).toMatchObject({ rounds: 2, verdict: "budget" });
    expect(result.planSteps[0]!.summary).toMatch(/stopped: the budget of 2 rounds is spent$/);
    expect(await repository.load("user-1")).toEqual(before);
  });

  test("offline, a week placed badly by hand: the refinement moves the reviews to place the open one, and says so", async () => {
    // One day of six slots: a at 2-3 and b at 5-6 leave c (two slots) nowhere; all three fit once a and b move.
    const review = (id: string, start?: number): TaskItem => ({
      id,
      name: `Review ${id}`,
      source: "task_item",
      duration: 2,
      categoryId: "math",
      ...(start
        ? { status: "placed" as const, slots: [{ day: 1, start, end: start + 1 }] }
        : { status: "pending" as const }),
    });
    const week: ScheduleState = {
      window: { totalDays: 1, slotsPerDay: 6, days: consecutiveDays(1) },
      categories: [{ id: "math", name: "Math" }],
      tasks: [review("a", 2), review("b", 5), review("c")],
    };
    const { graph, repository, config } = await offlineOptimising(week, "placed-by-hand");
    let result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    const card = asCard(interruptsOf(result)[0]!.value)!;
    expect(card.action_requests.map((request) => request.name)).toEqual(["batch_move", "place"]);
    for (let turn = 0; turn < 6 && interruptsOf(result).length > 0; turn += 1) {
      const next = asCard(interruptsOf(result)[0]!.value)!;
      result = await graph.invoke(resume({ decisions: next.action_requests.map(() => ({ type: "approve" })) }), config);
    }
    expect(result.phase).toBe("done");
    const after = await repository.load("student");
    expect(after.tasks.every((task) => task.source !== "task_item" || task.status === "placed")).toBe(true);
    // The step says what it did: one review more placed, even where the score does not rise.
    expect(result.optimization).toMatchObject({ startOpen: 1, open: 0 });
    expect(result.planSteps[0]!.summary).toMatch(/^refined in \d round\(s\): 1 more placed; health score /);
  });

  test("a listing with an item fewer left open is a gain whatever its score, and the summary says what was placed", () => {
    const candidate = { id: "c1", writes: [], summary: "" };
    const first = afterListing(null, "step-1", { candidates: [candidate], score: 70, open: 1 }, SCHEDULE_REFINEMENT);
    const second = afterListing(first, "step-1", { candidates: [candidate], score: 66, open: 0 }, SCHEDULE_REFINEMENT);
    expect(second).toMatchObject({ stagnantRounds: 0, startOpen: 1, open: 0, score: 66, bestScore: 70 });
    expect(refinementSummary({ ...second, verdict: "forced" }, SCHEDULE_REFINEMENT)).toBe(
      "refined in 2 round(s): 1 more placed; health score 70 → 66; stopped: no change raises the score any more",
    );
    expect(refinementSummary({ ...second, verdict: "forced" }, SCHEDULE_REFINEMENT, "zh")).toMatch(/多安排了 1 项/);
    // What is forced: by id for the model, said in general on a person's status line.
    const forced = {
      ...second,
      verdict: "forced" as const,
      forced: "review-limits (fits nowhere beside the others, proved)",
    };
    expect(refinementSummary(forced, SCHEDULE_REFINEMENT)).toMatch(/; forced, no change can fix: review-limits \(/);
    expect(refinementSummary(forced, SCHEDULE_REFINEMENT, "en", "person")).toBe(
      "refined in 2 round(s): 1 more placed; health score 70 → 66; stopped: no change raises the score any more; some problems are proved beyond any change",
    );
    // The offline answer of a Chinese conversation says the English summary in Chinese, the placed review included.
    expect(summaryInChinese(refinementSummary({ ...second, verdict: "forced" }, SCHEDULE_REFINEMENT))).toBe(
      "优化了 2 轮：多安排了 1 项；健康分 70 → 66；停止原因：没有调整能再提高分数",
    );
  });

  test("a review that fits nowhere is a forced imperfection: the loop stops, and the report says why it stays open", async () => {
    const week = crowdedSampleWeek();
    week.tasks.push({
      id: "thesis-marathon",
      name: "Thesis marathon",
      source: "task_item",
      duration: 12,
      categoryId: week.categories[0]!.id,
      status: "pending",
    });
    // The code lists at the step's start and after the change applies; the model only chooses.
    const execute = [calling("choose_candidate", { id: "c1" })];
    const { graph } = await scriptedTempo(
      week,
      planDone([REFINE], { run_mode: "global_reopt", complexity: "simple" }),
      execute,
    );
    const config = threadConfig("forced");
    await graph.invoke({ messages: [new HumanMessage("Optimise my week")] }, config);
    let result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(result.phase).toBe("done");
    expect(result.optimization).toMatchObject({
      verdict: "forced",
      forced: "thesis-marathon (fits nowhere beside the others, proved)",
    });
    expect(result.outcome).toMatchObject({ kind: "partial" });
    expect(result.outcome?.stillOpen).toEqual([
      { id: "thesis-marathon", name: "Thesis marathon", why: "fits nowhere beside the others, proved" },
    ]);
    // Every listing's score is at least the one before: refining never lowers it.
    const scores = result.messages.flatMap((message) => {
      const data = (message as ToolMessage).artifact?.data as { score?: number; candidates?: unknown[] } | undefined;
      return message.getType() === "tool" && data?.candidates && typeof data.score === "number" ? [data.score] : [];
    });
    expect(scores.length).toBe(2);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
  });
});
