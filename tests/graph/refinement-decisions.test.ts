/**
 * The refinement after an arrangement keeps to what the user decided in the task (issue 46, item 4), through the
 * graph — with the offline policy and with a scripted model choosing the backend's candidates: a place the user
 * edited stays; a rejected place is never proposed again; a day the user called off ("Friday is my day off",
 * "周五休息") is a rule for every later proposal (the arrangement after the card, the refinement's candidates); a
 * review placed before the request stays where it is, since "arrange my reviews" does not ask to move it.
 */
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { asCard } from "../../contracts/cards.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import type { ScheduleListing } from "../../tools/schedule/candidate-listing.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  SCHEDULE_REFINEMENT,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { interruptsOf, planDone, resume, scripted, threadConfig } from "../support/scripted.js";
import {
  converse,
  HALF_PLACED,
  halfPlacedWeek,
  offlineTempo,
  placeOf,
  type SeenCard,
} from "./support/offline-conversation.js";

const REQUEST = "arrange my reviews into free slots";
/** Where the user puts linked-list-exercises by editing its placement: Thursday (day 4), slot 7 (free there). */
const EDITED = { task_id: "linked-list-exercises", day: 4, slot_start: 7 };

/** Where each review a card moves or places goes: task id and day. */
function targetsOf(card: SeenCard): Array<{ task_id: string; day: number }> {
  const moves = card.action === "batch_move" ? (card.args.moves as Array<Record<string, unknown>>) : [card.args];
  return moves.map((move) => ({ task_id: String(move.task_id), day: Number(move.day) }));
}

/** The hand-placed reviews of the half-placed week, where they were before the request. */
const handPlaced = Object.entries(HALF_PLACED).map(([id, [day, start]]) => [id, { day, start }] as const);

function expectHandPlacedKept(schedule: ScheduleState): void {
  for (const [id, at] of handPlaced)
    expect(placeOf(schedule, id)).toMatch(new RegExp(`^day ${at.day} slots ${at.start}-`));
}

describe("offline: the refinement keeps to the cards' decisions", () => {
  test.each([
    ["Friday is my day off", "arrange my reviews into free slots"],
    ["周五休息", "帮我安排复习"],
  ])(
    'Friday\'s placement rejected with "%s", another edited to Thursday: nothing later goes to Friday, the edit and the hand-placed reviews stay',
    async (feedback, request) => {
      // The batch card (after the plan card): derivative-drills on Friday, linked-list-exercises on Wednesday, …
      const answer = (card: SeenCard) => {
        if (card.action === "place" && card.args.task_id === "derivative-drills" && card.args.day === 5)
          return { type: "response", args: feedback };
        if (card.action === "place" && card.args.task_id === EDITED.task_id && card.args.day !== EDITED.day)
          return { type: "edit", args: { action: "place", args: EDITED } };
        return { type: "accept", args: null };
      };
      const outcome = await converse(
        await offlineTempo(halfPlacedWeek({ chinese: request !== REQUEST })),
        request,
        answer,
      );
      const writes = outcome.cards.filter((card) => card.action !== "confirm_plan");
      const fridayAt = writes.findIndex((card) => card.args.task_id === "derivative-drills" && card.args.day === 5);
      expect(fridayAt).toBeGreaterThanOrEqual(0);
      // Every proposal after the rejection: none on Friday, none moving the edited task or a hand-placed review.
      const later = writes.slice(fridayAt + 1);
      expect(later.flatMap(targetsOf).filter((target) => target.day === 5)).toEqual([]);
      expect(
        later
          .filter((card) => card.action !== "place")
          .flatMap(targetsOf)
          .filter((target) => target.task_id === EDITED.task_id || target.task_id in HALF_PLACED),
      ).toEqual([]);
      expect(placeOf(outcome.schedule, EDITED.task_id)).toBe("day 4 slots 7-8");
      expect(placeOf(outcome.schedule, "derivative-drills")).toMatch(/^day [1-46-7] /);
      expectHandPlacedKept(outcome.schedule);
      expect(outcome.phase).toBe("done");
    },
  );

  test('"arrange my reviews", every card approved: the refinement moves no review placed before the request', async () => {
    const outcome = await converse(await offlineTempo(halfPlacedWeek()), REQUEST);
    const moved = outcome.cards
      .filter((card) => card.action === "move" || card.action === "batch_move" || card.action === "swap")
      .flatMap((card) =>
        card.action === "swap"
          ? [String(card.args.first_task_id), String(card.args.second_task_id)]
          : targetsOf(card).map((target) => target.task_id),
      );
    expect(moved.filter((id) => id in HALF_PLACED)).toEqual([]);
    expectHandPlacedKept(outcome.schedule);
    expect(outcome.schedule.tasks.filter((task) => task.source === "task_item" && task.status === "pending")).toEqual(
      [],
    );
  });
});

let callCount = 0;
const calling = (name: string, args: Record<string, unknown> = {}) =>
  new AIMessage({ content: "", tool_calls: [{ id: `call-${(callCount += 1)}`, name, args, type: "tool_call" }] });

/** The candidate listings among `messages` (the tool results of propose_candidates), oldest first. */
function listings(messages: BaseMessage[]): ScheduleListing[] {
  return messages.flatMap((message) =>
    message.getType() === "tool" && (message as ToolMessage).name === "propose_candidates"
      ? [(message as ToolMessage).artifact.data as ScheduleListing]
      : [],
  );
}

describe("a model choosing the backend's candidates: the refinement's listings keep to the cards' decisions", () => {
  test("Agent Chat UI: Friday rejected as a day off, a placement edited to Thursday; no listing offers to undo either", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("user-1", halfPlacedWeek());
    const place = { content: "Place the pending reviews", done_when: "none is pending" };
    const graph = buildTempoGraph({
      models: {
        default: scripted([new AIMessage(JSON.stringify({ intent: "task", reply: "", reason: "" }))]),
        plan: scripted([planDone([place], { run_mode: "first_full" })]),
        // Arrange by the backend's proposal; in the refinement, always the top candidate.
        execute: scripted([
          calling("propose_arrangement"),
          calling("choose_candidate", { id: "a1" }),
          calling("next_plan", { goal_check: "placed" }),
          // Refining: the model lists again itself, with none of the limits, then takes the top candidate.
          calling("propose_candidates", { k: 10 }),
          ...Array.from({ length: 6 }, () => calling("choose_candidate", { id: "c1" })),
        ]),
        deliver: scripted(["Done."]),
        toolCalling: "native",
      },
      domain: createScheduleDomain({ repository }),
      checkpointer: new MemorySaver(),
      settings: { replanAfterStep: "never" },
    });
    const config = threadConfig("decisions");
    let result = await graph.invoke({ messages: [new HumanMessage("Arrange my reviews")] }, config);
    expect(result.planSteps.map((step) => step.content)).toEqual([place.content, SCHEDULE_REFINEMENT.step.content]);
    result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    const card = asCard(interruptsOf(result)[0]!.value)!;
    const decisions = card.action_requests.map((request) => {
      if (request.args.task_id === "derivative-drills") {
        expect(request.args.day).toBe(5);
        return { type: "reject", message: "Friday is my day off" };
      }
      if (request.args.task_id === EDITED.task_id)
        return { type: "edit", edited_action: { name: "place", args: EDITED } };
      return { type: "approve" };
    });
    result = await graph.invoke(resume({ decisions }), config);
    // Each card approved whole (a candidate may be several writes: a batch_move and the places it makes room for).
    for (let turn = 0; turn < 6 && interruptsOf(result).length > 0; turn += 1) {
      const next = asCard(interruptsOf(result)[0]!.value)!;
      const approvals = next.action_requests.map(() => ({ type: "approve" }));
      result = await graph.invoke(resume({ decisions: approvals }), config);
    }
    expect(result.phase).toBe("done");
    const listed = listings(result.messages);
    // The code's listing at the step's start and the model's own: both keep to the decisions.
    expect(listed.length).toBeGreaterThanOrEqual(2);
    const offered = listed.flatMap((listing) => listing.candidates);
    const targets = offered.flatMap((candidate) =>
      candidate.writes
        .filter((write) => ["place", "move", "batch_move"].includes(write.name))
        .flatMap((write) => targetsOf({ action: write.name, args: write.arguments })),
    );
    expect(targets.filter((target) => target.day === 5)).toEqual([]);
    expect(targets.filter((target) => target.task_id === EDITED.task_id || target.task_id in HALF_PLACED)).toEqual([]);
    const schedule = await repository.load("user-1");
    expect(placeOf(schedule, EDITED.task_id)).toBe("day 4 slots 7-8");
    expectHandPlacedKept(schedule);
    expect(
      schedule.tasks.filter((task) => task.source === "task_item" && task.slots?.[0]?.day === 5).map((task) => task.id),
    ).toEqual([]);
  });
});
