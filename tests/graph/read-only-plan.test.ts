/**
 * A plan marked read_only (a question) runs without a plan card; a write in it
 * still waits for its own card.
 */
import { HumanMessage } from "@langchain/core/messages";
import { expect, test } from "vitest";
import { createNotesDomain } from "../support/notes-domain.js";
import { interruptsOf, json, resume, scriptedGraph, threadConfig, transcript } from "../support/scripted.js";

const readOnlyPlan = json({
  speak: "",
  action: "plan_done",
  reason: "a question",
  complexity: "simple",
  read_only: true,
  plan_steps: [{ content: "List the notes", done_when: "they are listed" }],
});

test("a read-only plan runs at once and answers, with no card", async () => {
  const domain = createNotesDomain({ "user-1": ["buy milk"] });
  const { graph } = scriptedGraph({
    domain,
    plan: [readOnlyPlan],
    execute: [
      json({ speak: "", action: "continue", reason: "read", tool_call: { name: "list_notes", arguments: {} } }),
      json({ speak: "", action: "done", reason: "answered", goal_check: "You have 1 note: buy milk" }),
    ],
    deliver: ["You have 1 note: buy milk"],
  });
  const result = await graph.invoke({ messages: [new HumanMessage("What are my notes?")] }, threadConfig("read-only"));
  expect(interruptsOf(result)).toEqual([]);
  expect(result.phase).toBe("done");
  expect(result.planSteps.map((step) => step.status)).toEqual(["done"]);
  expect(transcript(result.messages)).toEqual([
    "human:What are my notes?",
    "ai:|calls:list_notes({})",
    "tool:1. buy milk",
    "ai:You have 1 note: buy milk",
  ]);
});

test("a write proposed under a read-only plan still gets its card", async () => {
  const domain = createNotesDomain({ "user-1": [] });
  const { graph } = scriptedGraph({
    domain,
    plan: [readOnlyPlan],
    execute: [
      json({
        speak: "Adding.",
        action: "continue",
        reason: "write",
        tool_call: { name: "add_note", arguments: { text: "x" } },
      }),
      json({ speak: "", action: "done", reason: "added", goal_check: "added note 1: x" }),
    ],
  });
  const config = threadConfig("read-only-write");
  const result = await graph.invoke({ messages: [new HumanMessage("What are my notes?")] }, config);
  expect(
    interruptsOf(result).map((entry) => (entry.value as { action_request: { action: string } }).action_request.action),
  ).toEqual(["add_note"]);
  expect(result.phase).toBe("waiting_confirm");
  expect(domain.applied).toEqual([]);
  const applied = await graph.invoke(resume({ type: "accept", args: null }), config);
  expect(applied.phase).toBe("done");
  expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
});
