/**
 * A refused answer on the served graph (`refusedAnswers: "ask_again"`, what `createServedGraph` builds): the run
 * ends cleanly with the card raised again, the reason first in its description (what Agent Inbox shows) and as the
 * last message (where Agent Chat UI draws the card), nothing applied; the next good answer is taken. Callers of
 * `invoke` keep the typed error (`throw`, the default).
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import type { Card } from "../../contracts/cards.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import type { RefusedAnswers } from "../../server/run-guard.js";
import { interruptsOf, json, planDone, resume, scriptedGraph, threadConfig } from "../support/scripted.js";

const PLAN = planDone([{ content: "Place the reviews", done_when: "both placed" }], {
  speak: "One step.",
  reason: "clear",
  complexity: "simple",
});
const TWO = [
  { task_id: "review-limits", day: 1, slot_start: 5 },
  { task_id: "matrix-review", day: 2, slot_start: 3 },
];

async function atBatchCard(refusedAnswers: RefusedAnswers) {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", sampleWeek());
  const { graph } = scriptedGraph({
    domain: createScheduleDomain({ repository }),
    plan: [PLAN],
    execute: [
      json({
        speak: "Placing both.",
        action: "confirm",
        reason: "the plan",
        tool_calls: TWO.map((args) => ({ name: "place", arguments: args })),
      }),
      json({ speak: "", action: "done", reason: "placed", goal_check: "both placed" }),
    ],
    settings: { replanAfterStep: "never" },
    refusedAnswers,
  });
  const config = threadConfig(`refused-${Math.random().toString(36).slice(2)}`);
  await graph.invoke({ messages: [new HumanMessage("Place my reviews")] }, config);
  const waiting = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
  const placed = async () =>
    (await repository.load("user-1")).tasks
      .filter((task) => task.source === "task_item" && task.status === "placed")
      .map((task) => task.id);
  return { graph, config, waiting, placed };
}

describe("a refused answer on the served graph", () => {
  test("raises the card again with the reason, as the last message and first in its description; the next answer is taken", async () => {
    const { graph, config, waiting, placed } = await atBatchCard("ask_again");
    const first = interruptsOf(waiting)[0]!;
    expect((first.value as Card).action_requests).toHaveLength(2);

    // An Agent Inbox edit whose changed field does not fit the tool (a day as words): refused, but the run ends.
    const refused = await graph.invoke(
      resume([{ type: "edit", args: { action: "place", args: { ...TWO[0], day: "Monday" } } }]),
      config,
    );
    const again = interruptsOf(refused)[0]!;
    const card = again.value as Card;
    expect(card.action_requests.map((request) => request.args)).toEqual(TWO);
    expect(card.action_requests[0]!.description).toMatch(
      /^Your last answer could not be used: The edited arguments do not fit place/,
    );
    // The reason names the value the form sent, not only its type.
    expect(card.action_requests[0]!.description).toContain(
      'The edited arguments do not fit place: day: expected a number, got "Monday".',
    );
    expect(card.description).toBe(card.action_requests[0]!.description);
    const last = refused.messages.at(-1)!;
    expect(last.getType()).toBe("ai");
    expect(String(last.content)).toMatch(
      /^I could not use that answer: The edited arguments do not fit place.*The card is still open; answer it again\.$/,
    );
    expect(refused.pending).toMatchObject({
      kind: "confirm_tool",
      refusal: expect.stringContaining("do not fit place"),
    });
    expect(await placed()).toEqual([]);

    // A stale answer (another card's id) is refused the same way, the reason replaced.
    const stale = await graph.invoke(
      resume({ decisions: [{ type: "approve" }, { type: "approve" }], card_id: "f".repeat(32) }),
      config,
    );
    expect((interruptsOf(stale)[0]!.value as Card).action_requests[0]!.description).toMatch(
      /^Your last answer could not be used: This answer is for another card/,
    );
    expect(await placed()).toEqual([]);
    // One note for the open card: the second refusal replaced the first, in place.
    const notes = (messages: typeof stale.messages) =>
      messages.filter((message) => String(message.content).startsWith("I could not use that answer"));
    expect(notes(stale.messages).map((message) => message.id)).toEqual([last.id]);
    expect(String(notes(stale.messages)[0]!.content)).toContain("This answer is for another card");

    // The next good answer is taken; the card it raised is gone, and nothing is refused any more.
    const done = await graph.invoke(resume({ decisions: [{ type: "approve" }, { type: "approve" }] }), config);
    expect(interruptsOf(done)).toEqual([]);
    expect(done.phase).toBe("done");
    expect(done.pending).toBeNull();
    expect((await placed()).sort()).toEqual(["matrix-review", "review-limits"]);
    // The answered card's note is gone: the proposal's calls are followed by their answers, as OpenAI requires.
    expect(notes(done.messages)).toEqual([]);
    const proposalAt = done.messages.findIndex(
      (message) => (message as { tool_calls?: unknown[] }).tool_calls?.length === 2,
    );
    expect(done.messages.slice(proposalAt + 1, proposalAt + 3).map((message) => message.getType())).toEqual([
      "tool",
      "tool",
    ]);
  });

  test("an answer to a thread that waits on no card is refused with a message, and the thread stays as it was", async () => {
    const { graph, config, placed } = await atBatchCard("ask_again");
    await graph.invoke(resume({ decisions: [{ type: "approve" }, { type: "approve" }] }), config);
    const before = await graph.getState(config);
    expect(before.next).toEqual([]);
    const after = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(interruptsOf(after)).toEqual([]);
    expect(String(after.messages.at(-1)!.content)).toMatch(/^I could not use that answer: /);
    expect(after.phase).toBe(before.values.phase);
    expect((await graph.getState(config)).next).toEqual([]);
    expect((await placed()).sort()).toEqual(["matrix-review", "review-limits"]);
    // More late answers (a client's queued duplicates) are refused the same way and write nothing more: one note.
    const told = (await graph.getState(config)).values.messages.length;
    for (let late = 0; late < 3; late += 1) await graph.invoke(resume({ type: "accept", args: null }), config);
    const last = await graph.getState(config);
    expect(last.values.messages).toHaveLength(told);
    expect(
      last.values.messages.filter((message: { content: unknown }) =>
        String(message.content).startsWith("I could not use that answer: "),
      ),
    ).toHaveLength(1);
  });

  test("callers of invoke keep the typed error, and the card stays as it was", async () => {
    const { graph, config, waiting } = await atBatchCard("throw");
    await expect(
      graph.invoke(resume([{ type: "edit", args: { action: "place", args: { ...TWO[0], day: "Monday" } } }]), config),
    ).rejects.toMatchObject({ code: "INVALID_RESUME" });
    const state = await graph.getState(config);
    expect(state.tasks.flatMap((task) => task.interrupts).map((pending) => pending.id)).toEqual([
      interruptsOf(waiting)[0]!.id,
    ]);
    expect(state.values.pending.refusal).toBeUndefined();
  });
});
