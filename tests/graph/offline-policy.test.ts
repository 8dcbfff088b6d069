/** The offline policy drives the whole graph on the sample week, with no network. */
import { HumanMessage, type AIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import {
  checkScheduleInvariants,
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
} from "../../tools/schedule/index.js";
import { approveCard, interruptsOf, resume, threadConfig, unpairedToolCalls } from "../support/scripted.js";

async function setup(options: { writesPerCard?: number } = {}) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("student", sampleWeek());
  const domain = createScheduleDomain({ repository });
  const graph = buildTempoGraph({
    models: { default: new ScheduleOfflinePolicy(options) },
    domain,
    checkpointer: new MemorySaver(),
  });
  return { repository, graph };
}

describe("offline policy", () => {
  test("arranges next week's review end to end, every write confirmed", async () => {
    const { repository, graph } = await setup();
    const config = threadConfig("offline-1", "student");
    let result = await graph.invoke({ messages: [new HumanMessage("Help me arrange next week's review")] }, config);
    const cards: string[][] = [];
    for (let turn = 0; turn < 20 && interruptsOf(result).length > 0; turn += 1) {
      cards.push(
        (interruptsOf(result)[0]?.value as { action_requests: Array<{ name: string }> }).action_requests.map(
          (request) => request.name,
        ),
      );
      // Agent Chat UI draws a card under the last message: never one it hides.
      expect(result.messages.at(-1)!.id).not.toMatch(/^do-not-render-/);
      result = await graph.invoke(approveCard(result), config);
    }
    // Two cards: the plan, then the week's eight placements on one batch card — already where the health judge wants
    // them, so the refinement finds no change that helps and asks nothing more.
    expect(cards).toEqual([["confirm_plan"], Array(8).fill("place")]);
    expect(result.phase).toBe("done");
    expect(result.planSteps.map((step) => step.status)).toEqual(["done", "done", "done"]);
    expect(result.optimization).toMatchObject({ verdict: "forced", rounds: 1, startScore: 99.5, bestScore: 99.5 });
    // Each step opens with its progress line in the conversation (what Agent Chat UI shows), the refinement's too,
    // though its first round is the code's listing, not a model call.
    const progress = result.messages
      .filter((message) => String(message.id).startsWith("progress-"))
      .map((message) => String(message.content));
    expect(progress).toEqual([
      "Step 1 of 3: Place each pending review task into a free slot that fits it",
      "Step 2 of 3: Refine the week: choose the backend's best changes until none helps",
      "Step 3 of 3: Verify the schedule",
    ]);
    expect(result.finalAnswer).toContain("Your review week is arranged.");
    expect(unpairedToolCalls(result.messages)).toEqual([]);
    // The backend's proposal lives in the listing's data: nothing to keep in working memory when every card is accepted.
    expect(memoryRounds(result.messages)).toEqual([]);

    const schedule = await repository.load("student");
    const items = schedule.tasks.filter((task) => task.source === "task_item");
    expect(items.map((task) => task.status)).toEqual(Array(8).fill("placed"));
    expect(checkScheduleInvariants(schedule)).toEqual([]);
    // Spread over the week: no day holds more than two of the eight reviews.
    const perDay = new Map<number, number>();
    for (const item of items)
      for (const range of item.slots ?? []) perDay.set(range.day, (perDay.get(range.day) ?? 0) + 1);
    expect(Math.max(...perDay.values())).toBeLessThanOrEqual(2);
  });

  test("a rejected placement is skipped and the rest still placed", async () => {
    const { repository, graph } = await setup();
    const config = threadConfig("offline-2", "student");
    let result = await graph.invoke({ messages: [new HumanMessage("Arrange my reviews")] }, config);
    result = await graph.invoke(resume({ type: "accept", args: null }), config);
    const requests = (interruptsOf(result)[0]?.value as { action_requests: Array<{ args: { task_id: string } }> })
      .action_requests;
    const first = requests[0]!.args.task_id;
    // One legacy response per write of the batch card: the first declined, the others accepted.
    result = await graph.invoke(
      resume(
        requests.map((_, index) =>
          index === 0 ? { type: "response", args: "Not this one." } : { type: "accept", args: null },
        ),
      ),
      config,
    );
    for (let turn = 0; turn < 20 && interruptsOf(result).length > 0; turn += 1)
      result = await graph.invoke(resume({ type: "accept", args: null }), config);
    const schedule = await repository.load("student");
    const pending = schedule.tasks
      .filter((task) => task.source === "task_item" && task.status === "pending")
      .map((task) => task.id);
    // The skip is kept in working memory; that bookkeeping (call and result) is kept from what a person reads in Agent
    // Chat UI.
    const memory = memoryRounds(result.messages);
    expect(memory.length).toBeGreaterThan(0);
    for (const message of memory) expect(message.id).toMatch(/^do-not-render-/);
    expect(pending).toEqual([first]);
    expect(result.finalAnswer).toContain("pending");
  });

  test("with writesPerCard 3, the week's placements come three to a card; a rejected one is skipped, the rest still placed", async () => {
    const { repository, graph } = await setup({ writesPerCard: 3 });
    const config = threadConfig("offline-chunks", "student");
    let result = await graph.invoke({ messages: [new HumanMessage("Arrange my reviews")] }, config);
    const sizes: number[] = [];
    let rejected = "";
    for (let turn = 0; turn < 20 && interruptsOf(result).length > 0; turn += 1) {
      const requests = (
        interruptsOf(result)[0]?.value as { action_requests: Array<{ name: string; args: { task_id?: string } }> }
      ).action_requests;
      sizes.push(requests.length);
      // The second card's first placement is declined; everything else approved.
      const decisions = requests.map((request, index) => {
        if (turn !== 2 || index !== 0) return { type: "approve" };
        rejected = String(request.args.task_id);
        return { type: "reject" };
      });
      result = await graph.invoke(resume({ decisions }), config);
    }
    // The plan, then the placements three to a card (the refinement finds nothing to change).
    expect(sizes).toEqual([1, 3, 3, 2]);
    const schedule = await repository.load("student");
    expect(
      schedule.tasks.filter((task) => task.source === "task_item" && task.status === "pending").map((task) => task.id),
    ).toEqual([rejected]);
    expect(result.phase).toBe("done");
    expect(checkScheduleInvariants(schedule)).toEqual([]);
  });

  test("small talk is answered without a plan", async () => {
    const { graph } = await setup();
    const result = await graph.invoke({ messages: [new HumanMessage("hello")] }, threadConfig("offline-3", "student"));
    expect(result.phase).toBe("chatting");
    expect(String(result.messages.at(-1)?.content)).toContain("Tempo");
  });
});

/** The working memory rounds among `messages`: the calls and their results. */
function memoryRounds(messages: BaseMessage[]): BaseMessage[] {
  const calls = messages.filter((message) =>
    ((message as AIMessage).tool_calls ?? []).some((call) => call.name === "update_working_memory"),
  );
  const ids = new Set(calls.flatMap((message) => ((message as AIMessage).tool_calls ?? []).map((call) => call.id)));
  return [...calls, ...messages.filter((message) => ids.has((message as ToolMessage).tool_call_id))];
}
