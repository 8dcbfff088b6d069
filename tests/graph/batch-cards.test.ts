/**
 * Batch cards: several writes proposed in one execute decision become ONE
 * interrupt with one action request per write, decided one by one; the
 * approved ones apply in order, once each, with their own tool-call ids; a
 * write that conflicts with an earlier one of the batch is reported back to
 * the model; and no write applies without its decision.
 */
import { HumanMessage, type AIMessage, type ToolMessage } from "@langchain/core/messages";
import { CompiledStateGraph } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import type { Card } from "../../contracts/cards.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import {
  interruptsOf,
  json,
  resume,
  scriptedGraph,
  threadConfig,
  unpairedToolCalls,
  planDone,
} from "../support/scripted.js";
import { placeOf } from "./support/offline-conversation.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { writesOnCard } from "../support/card-writes.js";

const PLAN = planDone([{ content: "Place the review tasks", done_when: "every review task has a place" }], {
  speak: "One step.",
  reason: "clear",
  complexity: "simple",
});

/** Eight placements that fit the sample week together. */
const EIGHT = [
  { task_id: "review-limits", day: 1, slot_start: 5 },
  { task_id: "derivative-drills", day: 1, slot_start: 12 },
  { task_id: "matrix-review", day: 2, slot_start: 3 },
  { task_id: "determinant-exercises", day: 2, slot_start: 11 },
  { task_id: "vocabulary-list", day: 3, slot_start: 3 },
  { task_id: "essay-draft", day: 4, slot_start: 1 },
  { task_id: "linked-list-exercises", day: 4, slot_start: 7 },
  { task_id: "binary-tree-review", day: 5, slot_start: 4 },
];

const propose = (placements: Array<Record<string, unknown>>) =>
  json({
    speak: "Placing them all.",
    action: "confirm",
    reason: "the plan",
    tool_calls: placements.map((args) => ({ name: "place", arguments: args })),
  });

async function batchGraph(placements: Array<Record<string, unknown>>, after: ReturnType<typeof json>[]) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", sampleWeek());
  const { graph, models } = scriptedGraph({
    domain: createScheduleDomain({ repository }),
    plan: [PLAN],
    execute: [propose(placements), ...after],
    settings: { replanAfterStep: "never" },
  });
  const config = threadConfig(`batch-${Math.random().toString(36).slice(2)}`);
  await graph.invoke({ messages: [new HumanMessage("Place my review tasks")] }, config);
  const waiting = await graph.invoke(resume({ type: "accept", args: null }), config);
  return { graph, models, repository, config, waiting };
}

const placedItems = async (repository: InMemoryScheduleRepository) =>
  (await repository.load("user-1")).tasks
    .filter((task) => task.source === "task_item" && task.status === "placed")
    .map((task) => task.id);

describe("batch cards", () => {
  test("8 writes in one decision make one card with 8 action requests; 2 rejected and 1 edited apply exactly 6, with the edit", async () => {
    const { graph, repository, config, waiting } = await batchGraph(EIGHT, [
      json({ speak: "", action: "done", reason: "placed", goal_check: "6 placed, 2 declined" }),
    ]);
    const interrupts = interruptsOf(waiting);
    expect(interrupts).toHaveLength(1);
    const card = interrupts[0]!.value as Card;
    expect(card.kind).toBe("confirm_tool");
    expect(card.action_requests.map((request) => [request.name, request.args])).toEqual(
      EIGHT.map((args) => ["place", args]),
    );
    expect(card.review_configs.map((review) => review.allowed_decisions)).toEqual(
      EIGHT.map(() => ["approve", "edit", "reject"]),
    );
    expect(card.description).toContain("8 changes proposed together");
    expect(await placedItems(repository)).toEqual([]);

    const decisions = EIGHT.map((args, index) => {
      if (index === 1 || index === 7) return { type: "reject" };
      if (args.task_id === "essay-draft")
        return {
          type: "edit",
          edited_action: { name: "place", args: { task_id: "essay-draft", day: 6, slot_start: 1 } },
        };
      return { type: "approve" };
    });
    const done = await graph.invoke(resume({ decisions }), config);
    expect(interruptsOf(done)).toEqual([]);
    expect(done.phase).toBe("done");

    const schedule = await repository.load("user-1");
    expect((await placedItems(repository)).sort()).toEqual([
      "determinant-exercises",
      "essay-draft",
      "linked-list-exercises",
      "matrix-review",
      "review-limits",
      "vocabulary-list",
    ]);
    expect(placeOf(schedule, "essay-draft")).toBe("day 6 slots 1-2");
    expect(placeOf(schedule, "derivative-drills")).toBe("pending");
    expect(placeOf(schedule, "binary-tree-review")).toBe("pending");

    // One round for the batch: the proposal's calls in the card's order, each answered with its own tool-call id (the
    // rejected ones when the card was answered, the others as they applied); the rejected ones say so.
    const rounds = done.messages.filter((message) => message.getType() === "tool") as ToolMessage[];
    expect(rounds).toHaveLength(8);
    expect(new Set(rounds.map((message) => message.tool_call_id)).size).toBe(8);
    const calls = done.messages.flatMap((message) => (message as AIMessage).tool_calls ?? []);
    expect(calls.map((call) => call.args.task_id)).toEqual(EIGHT.map((args) => args.task_id));
    const answerOf = (id: string | undefined) => rounds.find((message) => message.tool_call_id === id)!;
    expect(calls.map((call) => String(answerOf(call.id).content).startsWith("Not applied"))).toEqual([
      false,
      true,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(calls.map((call) => answerOf(call.id).status)).toEqual([
      "success",
      "error",
      "success",
      "success",
      "success",
      "success",
      "success",
      "error",
    ]);
    expect(calls[5]?.args).toEqual({ task_id: "essay-draft", day: 6, slot_start: 1 });
    expect(unpairedToolCalls(done.messages)).toEqual([]);
    // Answering the card cost no round: one decision proposed the batch, one finished.
    expect(done.roundsUsed).toBe(2);
    // What the chat says matches what applied: the proposal now names the edit, the two left out, and the rest; the
    // final answer names the user's decisions.
    const proposal = done.messages.find((message) => ((message as AIMessage).tool_calls ?? []).length === 8)!;
    expect(String(proposal.content)).toMatch(
      /^Applying your edit: Place "[^"]+" on Sat 16 Mar, 08:00–09:40\.\nLeft out at your request: Place "[^"]+" on Mon.*\.\nLeft out at your request: Place "[^"]+" on Fri.*\.\nApplying the other 5 changes as proposed\.$/,
    );
    expect(done.finalAnswer).toMatch(
      /\n\nYour decisions on the cards: applied with your edit — Place "[^"]+" on Sat.*; left out at your request — Place .*; Place .*\.$/,
    );
  });

  test("an edit whose write then fails is said as failed: a note in the chat, and the final answer does not call it applied", async () => {
    const two = [
      { task_id: "review-limits", day: 1, slot_start: 5 },
      { task_id: "matrix-review", day: 2, slot_start: 3 },
    ];
    const { graph, repository, config } = await batchGraph(two, [
      json({ speak: "", action: "done", reason: "one placed", goal_check: "1 placed; the edit did not fit" }),
    ]);
    // Day 4 slots 3-4 is taken by a lesson: the edit passes the schema but cannot apply.
    const done = await graph.invoke(
      resume({
        decisions: [
          { type: "approve" },
          {
            type: "edit",
            edited_action: { name: "place", args: { task_id: "matrix-review", day: "4", slot_start: "3" } },
          },
        ],
      }),
      config,
    );
    expect(done.phase).toBe("done");
    expect(await placedItems(repository)).toEqual(["review-limits"]);
    const said = done.messages
      .filter((message) => message.getType() === "ai")
      .map((message) => String(message.content));
    // The reason in a person's words too: the task and the lecture by name, the places by date and time.
    expect(said).toContainEqual(
      expect.stringMatching(
        /^Could not apply: Place "Matrix operations review" on Thu 14 Mar, 10:00–11:40 — cannot place "Matrix operations review" \(duration 2\): Thu 14 Mar, 10:00–11:40 overlaps .*"Linear Algebra lecture" on Thu 14 Mar, 10:00–11:40$/,
      ),
    );
    expect(done.finalAnswer).toContain(
      'Your decisions on the cards: your edit could not be applied — Place "Matrix operations review" on Thu',
    );
    expect(done.finalAnswer).not.toContain("applied with your edit");
  });

  test("a batch whose third write conflicts with the first never shows it: the model hears the conflict, the card holds the first two", async () => {
    const three = [
      { task_id: "review-limits", day: 1, slot_start: 5 },
      { task_id: "matrix-review", day: 2, slot_start: 3 },
      { task_id: "derivative-drills", day: 1, slot_start: 6 },
    ];
    const { graph, models, repository, config, waiting } = await batchGraph(three, [
      json({ speak: "", action: "done", reason: "two placed", goal_check: "2 placed; derivative-drills conflicted" }),
    ]);
    // The third write was tried after the first two before the card: refused, it is a tool error, not a card entry.
    const card = interruptsOf(waiting)[0]!.value as Card;
    expect(card.action_requests.map((request) => request.args)).toEqual(three.slice(0, 2));
    const refused = waiting.messages
      .filter((message) => message.getType() === "tool")
      .map((message) => String(message.content));
    expect(refused).toEqual([expect.stringMatching(/^error: cannot place task derivative-drills/)]);
    expect(await placedItems(repository)).toEqual([]);
    const done = await graph.invoke(resume({ decisions: three.slice(0, 2).map(() => ({ type: "approve" })) }), config);
    expect(done.phase).toBe("done");
    expect((await placedItems(repository)).sort()).toEqual(["matrix-review", "review-limits"]);
    const results = done.messages
      .filter((message) => message.getType() === "tool")
      .map((message) => String(message.content));
    expect(results).toHaveLength(3);
    expect(results[1]).toMatch(/^placed task review-limits/);
    expect(results[2]).toMatch(/^placed task matrix-review/);
    // No "Could not apply" note: nothing approved failed.
    expect(done.messages.some((message) => String(message.content).startsWith("Could not apply"))).toBe(false);
    // The model's next decision saw the conflict among the results.
    const lastPrompt = models.execute.calls.at(-1)!.messages;
    expect(
      lastPrompt.filter((message) => message.getType() === "tool").map((message) => String(message.content)),
    ).toContain(refused[0]);
  });

  test("Agent Inbox's answers (one legacy response echoing the write it shows) decide that write alone; the rest come back on the next card", async () => {
    const three = EIGHT.slice(0, 3);
    const { graph, models, repository, config, waiting } = await batchGraph(three, [
      json({ speak: "", action: "done", reason: "placed", goal_check: "2 placed, 1 declined" }),
    ]);
    const firstCard = interruptsOf(waiting)[0]!;
    // The bodies Agent Inbox sends (clients-27 A): accept echoing the write, edit with its changed field as text, ignore.
    const accept = await graph.invoke(resume([{ type: "accept", args: { action: "place", args: three[0] } }]), config);
    expect(await placedItems(repository)).toEqual(["review-limits"]);
    const second = interruptsOf(accept)[0]!;
    expect(second.id).not.toBe(firstCard.id);
    expect((second.value as Card).action_requests.map((request) => request.args)).toEqual(three.slice(1));
    expect((second.value as Card).action_requests[0]!.description).toMatch(/^Change 1 of 2: Place "/);
    // Where the proposal stands, as the last message (Agent Chat UI draws the card under it).
    expect(String(accept.messages.at(-1)!.content)).toMatch(
      /^1 change\(s\) applied\. 2 more of the changes proposed together wait on the card: /,
    );

    const edited = await graph.invoke(
      resume([{ type: "edit", args: { action: "place", args: { ...three[1], day: "3" } } }]),
      config,
    );
    expect((await placedItems(repository)).sort()).toEqual(["derivative-drills", "review-limits"]);
    expect(placeOf(await repository.load("user-1"), "derivative-drills")).toBe("day 3 slots 12-12");
    expect((interruptsOf(edited)[0]!.value as Card).action_requests.map((request) => request.args)).toEqual([three[2]]);

    const ignored = await graph.invoke(resume([{ type: "ignore", args: null }]), config);
    expect(interruptsOf(ignored)).toEqual([]);
    expect(ignored.phase).toBe("done");
    expect((await placedItems(repository)).sort()).toEqual(["derivative-drills", "review-limits"]);
    // Every call answered once: two applied (the second as edited), the third declined.
    expect(unpairedToolCalls(ignored.messages)).toEqual([]);
    const results = ignored.messages.filter((message) => message.getType() === "tool") as ToolMessage[];
    expect(results.map((message) => message.status)).toEqual(["success", "success", "error"]);
    const calls = ignored.messages.flatMap((message) => (message as AIMessage).tool_calls ?? []);
    expect(calls.map((call) => call.args)).toEqual([three[0], { ...three[1], day: 3 }, three[2]]);
    // The model decided once more, after the last card.
    expect(models.execute.callCount).toBe(2);
  });

  test("a card's writes are described on one load of the stored schedule, however many it holds", async () => {
    // Loads of the stored schedule while execute proposes `placements` (the plan card answered, the write card raised).
    const loadsWhileProposing = async (placements: Array<Record<string, unknown>>) => {
      const repository = new InMemoryScheduleRepository();
      await repository.seed("user-1", sampleWeek());
      const load = repository.load.bind(repository);
      let loads = 0;
      repository.load = (userId: string) => {
        loads += 1;
        return load(userId);
      };
      const { graph } = scriptedGraph({
        domain: createScheduleDomain({ repository }),
        plan: [PLAN],
        execute: [propose(placements)],
        settings: { replanAfterStep: "never" },
      });
      const config = threadConfig(`batch-loads-${placements.length}`);
      await graph.invoke({ messages: [new HumanMessage("Place my review tasks")] }, config);
      loads = 0;
      const waiting = await graph.invoke(resume({ type: "accept", args: null }), config);
      expect((interruptsOf(waiting)[0]!.value as Card).action_requests).toHaveLength(placements.length);
      return loads;
    };
    expect(await loadsWhileProposing(EIGHT)).toBe(await loadsWhileProposing(EIGHT.slice(0, 1)));
  });

  test("no write of a batch applies without its decision", async () => {
    const { graph, repository, config, waiting } = await batchGraph(EIGHT.slice(0, 3), []);
    const cardId = interruptsOf(waiting)[0]!.id;
    // Fewer decisions than writes: refused, the card stays open, nothing applied.
    await expect(
      graph.invoke(resume({ decisions: [{ type: "approve" }, { type: "approve" }] }), config),
    ).rejects.toMatchObject({ code: "INVALID_RESUME" });
    expect(await placedItems(repository)).toEqual([]);
    const state = await graph.getState(config);
    expect(state.tasks.flatMap((task) => task.interrupts).map((pending) => pending.id)).toEqual([cardId]);

    // The card closed around the run guard, as a batch answer approving every write would leave it (the proposal's
    // calls unanswered, nothing pending): nothing applies.
    expect(writesOnCard(state.values)).toHaveLength(3);
    const unguarded = CompiledStateGraph.prototype.bulkUpdateState as typeof graph.bulkUpdateState;
    await unguarded.call(graph, config, [
      { updates: [{ values: { pending: null, phase: "executing" }, asNode: "confirm" }] },
    ]);
    await expect(graph.invoke(null, config)).rejects.toMatchObject({ code: "WRITE_NOT_APPROVED" });
    expect(await placedItems(repository)).toEqual([]);
  });
});

describe("the round budget", () => {
  test("counts model decisions, not confirmations: 20 writes proposed one per decision fit the default budget", async () => {
    const domain = createNotesDomain({ "user-1": [] });
    const oneStep = planDone([{ content: "Add twenty notes", done_when: "list_notes shows 20" }], {
      speak: "",
      reason: "",
      complexity: "simple",
    });
    const writes = Array.from({ length: 20 }, (_, index) =>
      json({
        speak: "",
        action: "confirm",
        reason: "asked",
        tool_call: { name: "add_note", arguments: { text: `note ${index + 1}` } },
      }),
    );
    const { graph } = scriptedGraph({
      domain,
      plan: [oneStep],
      execute: [...writes, json({ speak: "", action: "done", reason: "", goal_check: "20 notes added" })],
    });
    const config = threadConfig("twenty-writes");
    let result = await graph.invoke({ messages: [new HumanMessage("Add twenty notes")] }, config);
    let cards = 0;
    for (; cards < 30 && interruptsOf(result).length > 0; cards += 1)
      result = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(result.phase).toBe("done");
    expect(result.outcome?.kind).toBe("completed");
    expect(domain.data.get("user-1")?.notes).toHaveLength(20);
    // 21 cards answered (the plan and 20 writes), 21 rounds used (20 proposals and done) of the default 60.
    expect(cards).toBe(21);
    expect([result.roundsUsed, result.maxRounds]).toEqual([21, 60]);
  });
});
