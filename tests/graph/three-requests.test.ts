/**
 * A task in three requests (docs/design.md#three-requests), driven end to end with scripted models:
 * task → plan → plan confirmation; accept → read tools → write confirmation;
 * accept → write applied once → next step → done → deliver.
 */
import { HumanMessage } from "@langchain/core/messages";
import { expect, test } from "vitest";
import { createNotesDomain } from "../support/notes-domain.js";
import {
  interruptsOf,
  json,
  resume,
  scriptedGraph,
  threadConfig,
  transcript,
  unpairedToolCalls,
  planDone,
} from "../support/scripted.js";
import { pinnedBlocksOf } from "../../nodes/shared/steps.js";

test("task → plan confirmation → read tools → write confirmation → applied once → deliver", async () => {
  const domain = createNotesDomain({ "user-1": ["buy milk"] });
  const { graph, models } = scriptedGraph({
    domain,
    plan: [
      planDone(
        [
          { content: "Read the current notes", done_when: "the notes are known" },
          { content: "Add the new note", done_when: "list_notes shows it" },
        ],
        { speak: "Two steps: look, then add.", reason: "clear request", complexity: "simple" },
      ),
      // The replan after step 1: the remaining step still holds.
      json({ speak: "", action: "continue", reason: "the remaining step still holds" }),
    ],
    execute: [
      json({
        speak: "Reading notes.",
        action: "continue",
        reason: "need the list",
        tool_call: { name: "list_notes", arguments: {} },
      }),
      json({ speak: "", action: "next_plan", reason: "known", goal_check: "list_notes returned 1 note: buy milk" }),
      json({
        speak: "Adding it.",
        action: "confirm",
        reason: "the user asked",
        tool_call: { name: "add_note", arguments: { text: "call mom" } },
      }),
      json({
        speak: "Checking.",
        action: "continue",
        reason: "verify",
        tool_call: { name: "list_notes", arguments: {} },
      }),
      json({ speak: "", action: "done", reason: "verified", goal_check: "list_notes shows 2. call mom" }),
    ],
    deliver: ["Added “call mom” to your notes."],
  });
  const config = threadConfig("three-requests");

  // Request 1: the task is planned and the plan waits for confirmation.
  const first = await graph.invoke({ messages: [new HumanMessage("Add a note: call mom")] }, config);
  expect(first.phase).toBe("waiting_confirm");
  expect(first.planSteps.map((step) => [step.id, step.status])).toEqual([
    ["step-1", "pending"],
    ["step-2", "pending"],
  ]);
  expect(pinnedBlocksOf(first).plan).toContain("1. Read the current notes");
  expect(interruptsOf(first)).toHaveLength(1);
  const planSteps =
    "1. Read the current notes — done when: the notes are known\n2. Add the new note — done when: list_notes shows it";
  const description = expect.stringMatching(
    /^Plan for: Add a note: call mom\n\n1\. Read the current notes {2}\n {3}\*done when:\* the notes are known\n2\. Add the new note/,
  );
  const allowed = ["approve", "edit", "reject"];
  const request = { name: "confirm_plan", args: { steps: planSteps }, arguments: { steps: planSteps }, description };
  const review = { action_name: "confirm_plan", allowed_decisions: allowed };
  expect(interruptsOf(first)[0]?.value).toEqual({
    card_id: interruptsOf(first)[0]?.id,
    kind: "confirm_plan",
    action_requests: [request],
    review_configs: [review],
    action_request: { action: "confirm_plan", args: { steps: planSteps } },
    config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
    description,
  });

  // Request 2: accept → read tool runs at once → step 2 → the write waits for confirmation.
  const second = await graph.invoke(resume({ type: "accept", args: null }), config);
  expect(second.phase).toBe("waiting_confirm");
  expect(second.planSteps.map((step) => step.status)).toEqual(["done", "running"]);
  expect(second.planSteps[0]?.summary).toBe("list_notes returned 1 note: buy milk");
  expect(interruptsOf(second)[0]?.value).toMatchObject({
    action_request: { action: "add_note", args: { text: "call mom" } },
    config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
  });
  expect(domain.applied).toHaveLength(0);

  // Request 3: accept → the write is applied once → verify → done → deliver.
  const third = await graph.invoke(resume({ type: "accept", args: null }), config);
  expect(interruptsOf(third)).toEqual([]);
  expect(third.phase).toBe("done");
  expect(third.planSteps.map((step) => step.status)).toEqual(["done", "done"]);
  expect(third.finalAnswer).toBe("Added “call mom” to your notes.");
  expect(domain.data.get("user-1")).toEqual({ notes: ["buy milk", "call mom"] });
  expect(domain.applied).toHaveLength(1);

  expect(transcript(third.messages)).toEqual([
    "human:Add a note: call mom",
    "ai:Two steps: look, then add.",
    // Each step opens with a progress line (what Agent Chat UI shows while it runs; prompts leave it out).
    "ai:Step 1 of 2: Read the current notes",
    "ai:Reading notes.|calls:list_notes({})",
    "tool:1. buy milk",
    "ai:Step 2 of 2: Add the new note",
    'ai:Adding it.|calls:add_note({"text":"call mom"})',
    "tool:added note 2: call mom",
    "ai:Checking.|calls:list_notes({})",
    "tool:1. buy milk\n2. call mom",
    "ai:Added “call mom” to your notes.",
  ]);
  expect(unpairedToolCalls(third.messages)).toEqual([]);
  // One model call per decision: no stage was called more than scripted.
  expect([models.chat.callCount, models.plan.callCount, models.execute.callCount, models.deliver.callCount]).toEqual([
    1, 2, 5, 1,
  ]);
});
