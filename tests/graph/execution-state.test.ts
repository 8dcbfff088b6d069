import { HumanMessage } from "@langchain/core/messages";
import { expect, test } from "vitest";
import { readExecutionState } from "../../server/execution-state.js";
import { GRAPH_VERSION } from "../../graphs/tempo.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { json, resume, scriptedGraph, threadConfig } from "../support/scripted.js";

test("ExecutionState projects the graph state as the task moves through its phases", async () => {
  const { graph } = scriptedGraph({
    domain: createNotesDomain(),
    plan: [json({ action: "plan_done", plan_steps: [{ content: "Add the note", done_when: "listed" }] })],
    execute: [
      json({ action: "confirm", tool_call: { name: "add_note", arguments: { text: "x" } } }),
      json({ action: "done", goal_check: "added" }),
    ],
  });
  const config = threadConfig("projection", "user-7");
  await graph.invoke({ messages: [new HumanMessage("add x")] }, config);
  const planned = await readExecutionState(graph, config);
  expect(planned).toMatchObject({
    sessionId: "projection",
    userId: "user-7",
    goal: "add x",
    status: "waiting_user_confirmation",
    currentStepId: null,
    observations: [],
    finalAnswer: null,
    workflowVersion: `graph@${GRAPH_VERSION}/notes@1`,
  });
  expect(planned.planId).toMatch(/^plan-[0-9a-f]{12}$/);

  await graph.invoke(resume({ type: "accept", args: null }), config);
  await graph.invoke(resume({ type: "accept", args: null }), config);
  const finished = await readExecutionState(graph, config);
  expect(finished.status).toBe("completed");
  expect(finished.planId).toBe(planned.planId);
  expect(finished.steps).toEqual([
    { id: "step-1", content: "Add the note", doneWhen: "listed", status: "done", summary: "added" },
  ]);
  expect(finished.observations).toEqual([
    {
      kind: "tool",
      toolCallId: expect.any(String),
      tool: "add_note",
      arguments: { text: "x" },
      result: "added note 1: x",
    },
  ]);
  expect(finished.finalAnswer).toBe("All done.");
});
