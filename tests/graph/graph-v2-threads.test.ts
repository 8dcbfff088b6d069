/**
 * Threads saved by graph version 2 (write proposals in `pending.tools`, approved writes waiting in `answeredWrites`,
 * an answer by message as a legacy `HumanResponse` in `pendingAnswer`), continued by today's graph. Each fixture
 * writes what version 2 saved around the run guard, under the literal tag `graph@2/…`, and asserts only what a user
 * or a client sees: what the repository applied, the conversation (the write's call and its result), the card and
 * the task's end — never how the graph keeps a proposal inside, so these hold through the version that moves it.
 * (A version-2 thread still waiting on its write card is replanned like the version-1 one in replanning.test.ts.)
 */
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import { CompiledStateGraph, InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { WriteApprovals } from "../../review/approvals.js";
import { createNotesDomain } from "../support/notes-domain.js";
import {
  interruptsOf,
  json,
  planDone,
  resume,
  scriptedGraph,
  stepsOf,
  threadConfig,
  transcript,
  unpairedToolCalls,
} from "../support/scripted.js";

/** A write proposal as graph version 2 saved it (its `PendingTool`). */
interface V2Write {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  summary: string;
  reason: string;
  speak: string;
}

const ADD_X: V2Write = {
  id: "call-v2-add-x",
  name: "add_note",
  arguments: { text: "x" },
  summary: "Add note 1: x",
  reason: "The user asked for note x.",
  speak: "Adding x.",
};
const ADD_Y: V2Write = {
  id: "call-v2-add-y",
  name: "add_note",
  arguments: { text: "y" },
  summary: "Add note 2: y",
  reason: "The user asked for note x.",
  speak: "",
};
const REJECTED_Y = "Not applied: the user rejected this change. Their feedback: not y";

const done = (goalCheck: string) => json({ speak: "", action: "done", reason: "", goal_check: goalCheck });
/** The conversation of a version-2 thread whose write x applied and whose task then ended. */
const X_APPLIED = [
  "human:add note x",
  "ai:Plan.",
  'ai:Adding x.|calls:add_note({"text":"x"})',
  "tool:added note 1: x",
  "ai:Done: note x added.",
];

/**
 * A notes thread at its plan card (one step: "Add note x"), on a graph with a store, and a writer of what version 2
 * saved as if node `asNode` had written it — around the run guard, as replanning.test.ts does for version 1.
 */
async function threadAtPlanCard(
  threadId: string,
  execute: ReturnType<typeof json>[],
  revisions: ReturnType<typeof json>[] = [],
) {
  const domain = createNotesDomain();
  const store = new InMemoryStore();
  const { graph, models } = scriptedGraph({
    domain,
    store,
    plan: [planDone(stepsOf("Add note x"), { speak: "Plan." }), ...revisions],
    execute,
    deliver: ["Done: note x added."],
  });
  const config = threadConfig(threadId);
  const atPlan = await graph.invoke({ messages: [new HumanMessage("add note x")] }, config);
  expect(interruptsOf(atPlan)[0]?.value).toMatchObject({ action_request: { action: "confirm_plan" } });

  const v2 = `graph@2/${domain.name}@${domain.version}`;
  const running = [{ id: "step-1", content: "Add note x", doneWhen: "Add note x is done", status: "running" }];
  // Where version 2 stood once the plan was accepted and execute's first decision proposed the write.
  const executing = { planSteps: running, currentStepId: "step-1", roundsUsed: 1, workflowVersion: v2 };
  const unguarded = CompiledStateGraph.prototype.bulkUpdateState as typeof graph.bulkUpdateState;
  const saveV2 = (asNode: "confirm" | "chat", values: Record<string, unknown>) =>
    unguarded.call(graph, config, [{ updates: [{ values: { ...executing, ...values }, asNode }] }]);
  /** The approval confirm recorded for an accepted write, in the run's store. */
  const approve = (write: V2Write) => new WriteApprovals().recordAnswers(store, threadId, [write]);
  return { graph, models, domain, config, saveV2, approve };
}

/** The tool message answering call `id`. */
function resultOf(messages: BaseMessage[], id: string): ToolMessage | undefined {
  return messages.find((message) => message.getType() === "tool" && (message as ToolMessage).tool_call_id === id) as
    ToolMessage | undefined;
}

/** The assistant message carrying call `id`. */
function callOf(messages: BaseMessage[], id: string): AIMessage | undefined {
  return messages.find((message) => ((message as AIMessage).tool_calls ?? []).some((call) => call.id === id)) as
    AIMessage | undefined;
}

describe("a graph@2 thread stopped after confirm, its write approved and not applied", () => {
  test("carried on (invoke(null)): the write applies once, its call and result join the conversation, and the task ends as the model says", async () => {
    const { graph, models, domain, config, saveV2, approve } = await threadAtPlanCard("v2-approved", [
      done("note x added"),
    ]);
    await approve(ADD_X);
    await saveV2("confirm", {
      phase: "executing",
      pending: null,
      pendingAnswer: null,
      answeredWrites: [{ tool: ADD_X, approved: true }],
    });

    const result = await graph.invoke(null, config);
    expect(domain.applied).toHaveLength(1);
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
    // The write's call, with what the model said proposing it, answered by its result under the proposal's tool-call id.
    expect(transcript(result.messages)).toEqual(X_APPLIED);
    expect(callOf(result.messages, ADD_X.id)?.tool_calls).toEqual([
      expect.objectContaining({ id: ADD_X.id, name: "add_note", args: { text: "x" } }),
    ]);
    expect(String(resultOf(result.messages, ADD_X.id)?.content)).toBe("added note 1: x");
    expect(unpairedToolCalls(result.messages)).toEqual([]);
    // The model's next decision saw the write applied, and ended the task.
    const seen = models.execute.calls
      .at(-1)!
      .messages.filter((message) => message.getType() === "tool")
      .map((message) => String(message.content));
    expect(seen).toEqual(["added note 1: x"]);
    expect(interruptsOf(result)).toEqual([]);
    expect(result.phase).toBe("done");
    expect(result.outcome).toMatchObject({ kind: "completed" });
    expect(result.finalAnswer).toBe("Done: note x added.");

    // Carrying the thread on again, or answering a card that is gone, applies nothing more.
    await graph.invoke(null, config);
    await expect(graph.invoke(resume({ type: "accept", args: null }), config)).rejects.toMatchObject({
      code: "INVALID_RESUME",
    });
    expect(domain.applied).toHaveLength(1);
  });

  test('carried on by the user\'s "continue" (a retry phrase, answered by carrying the run on): the write applies once', async () => {
    const { graph, domain, config, saveV2, approve } = await threadAtPlanCard("v2-approved-continue", [
      done("note x added"),
    ]);
    await approve(ADD_X);
    await saveV2("confirm", {
      phase: "executing",
      pending: null,
      pendingAnswer: null,
      answeredWrites: [{ tool: ADD_X, approved: true }],
    });

    const result = await graph.invoke({ messages: [new HumanMessage("continue")] }, config);
    expect(domain.applied).toHaveLength(1);
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
    expect(transcript(result.messages)).toEqual(X_APPLIED);
    expect(interruptsOf(result)).toEqual([]);
    expect(result.outcome).toMatchObject({ kind: "completed" });
  });

  test("a write proposed with its step's ending (version 2's `then`): it applies once and the task ends with no further model turn", async () => {
    const { graph, models, domain, config, saveV2, approve } = await threadAtPlanCard("v2-approved-then", []);
    const ending = { ...ADD_X, then: { action: "done", goalCheck: "note x added", answer: "Note x is on your list." } };
    await approve(ending);
    await saveV2("confirm", {
      phase: "executing",
      pending: null,
      pendingAnswer: null,
      answeredWrites: [{ tool: ending, approved: true }],
    });

    const result = await graph.invoke(null, config);
    expect(domain.applied).toHaveLength(1);
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
    expect(models.execute.callCount).toBe(0);
    expect(result.planSteps).toEqual([
      expect.objectContaining({ id: "step-1", status: "done", summary: "note x added" }),
    ]);
    expect(result.outcome).toMatchObject({ kind: "completed" });
    // The proposal's closing words are the task's answer.
    expect(transcript(result.messages)).toEqual([...X_APPLIED.slice(0, -1), "ai:Note x is on your list."]);
    expect(result.finalAnswer).toBe("Note x is on your list.");
  });

  test("a rejected write next to the approved one is not applied, and the model reads it as not applied", async () => {
    const { graph, models, domain, config, saveV2, approve } = await threadAtPlanCard("v2-approved-rejected", [
      done("note x added; y was declined"),
    ]);
    await approve(ADD_X);
    await saveV2("confirm", {
      phase: "executing",
      pending: null,
      pendingAnswer: null,
      answeredWrites: [
        { tool: ADD_X, approved: true },
        { tool: ADD_Y, approved: false, result: REJECTED_Y },
      ],
    });

    const result = await graph.invoke(null, config);
    expect(domain.applied).toHaveLength(1);
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
    // Both calls are in the conversation, each answered: x applied, y not.
    expect(callOf(result.messages, ADD_Y.id)?.tool_calls?.find((call) => call.id === ADD_Y.id)).toMatchObject({
      name: "add_note",
      args: { text: "y" },
    });
    expect(String(resultOf(result.messages, ADD_X.id)?.content)).toBe("added note 1: x");
    expect(String(resultOf(result.messages, ADD_Y.id)?.content)).toBe(REJECTED_Y);
    expect(unpairedToolCalls(result.messages)).toEqual([]);
    const seen = models.execute.calls
      .at(-1)!
      .messages.filter((message) => message.getType() === "tool")
      .map((message) => String(message.content));
    expect(seen).toEqual(["added note 1: x", REJECTED_Y]);
    expect(result.phase).toBe("done");
    expect(interruptsOf(result)).toEqual([]);
  });
});

// A version-2 card is replanned when its thread resumes (confirm's stale-workflow check runs before the stored answer
// is read), as a version-1 one is (replanning.test.ts): the "yes" answered a card that is no longer raised, so it is not
// taken — the write is proposed again on a fresh card, nothing applied until that card is answered.
describe('a graph@2 thread killed between chat and confirm, a "yes" by message stored as a legacy HumanResponse', () => {
  test("carried on: the card is replanned, nothing applies on the old answer; the write proposed again applies once when approved", async () => {
    const { graph, domain, config, saveV2 } = await threadAtPlanCard(
      "v2-answered-by-message",
      [
        json({
          speak: "Adding x.",
          action: "confirm",
          reason: "",
          tool_calls: [{ name: "add_note", arguments: { text: "x" } }],
        }),
        done("note x added"),
      ],
      [planDone(stepsOf("Add note x"))],
    );
    await saveV2("chat", {
      phase: "waiting_confirm",
      pending: { kind: "confirm_tool", tools: [ADD_X] },
      pendingAnswer: { type: "accept", args: null },
      messages: [new HumanMessage({ id: "human-v2-yes", content: "yes" })],
    });

    const replanned = await graph.invoke(null, config);
    expect(domain.applied).toEqual([]);
    expect(replanned.lastError).toContain("The workflow changed from graph@2/");
    const card = interruptsOf(replanned)[0]?.value as
      { action_requests: Array<{ name: string; args: unknown }> } | undefined;
    expect(card?.action_requests).toMatchObject([{ name: "add_note", args: { text: "x" } }]);

    const result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    expect(domain.applied).toHaveLength(1);
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
    expect(interruptsOf(result)).toEqual([]);
    expect(result.outcome).toMatchObject({ kind: "completed" });
    expect(unpairedToolCalls(result.messages)).toEqual([]);

    // No card is open any more, and a second accept applies nothing.
    await expect(graph.invoke(resume({ type: "accept", args: null }), config)).rejects.toMatchObject({
      code: "INVALID_RESUME",
    });
    expect(domain.applied).toHaveLength(1);
  });
});
