/** Replanning and resume behaviour, and plan revision (revise → diff → invalidate → resume; docs/design.md#plan-revision). */
import { HumanMessage } from "@langchain/core/messages";
import { CompiledStateGraph, MemorySaver } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { readExecutionState } from "../../server/execution-state.js";
import { GRAPH_VERSION } from "../../graphs/tempo.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { revisePlan } from "../../nodes/plan/revision.js";
import { createNotesDomain } from "../support/notes-domain.js";
import {
  interruptsOf,
  json,
  resume,
  scripted,
  scriptedGraph,
  threadConfig,
  planDone,
  stepsOf,
  unpairedToolCalls,
  type StepDraft,
} from "../support/scripted.js";
import { writesOnCard } from "../support/card-writes.js";

const FOUR = stepsOf("Collect notes", "Sort notes", "Add note x", "Report");
const planned = (steps: StepDraft[]) => planDone(steps, { speak: "Plan." });
const keep = json({ action: "continue", reason: "the remaining steps hold" });
const next = (summary: string) => json({ action: "next_plan", goal_check: summary });
const addNote = (text: string) =>
  json({ speak: `Adding ${text}.`, action: "confirm", tool_call: { name: "add_note", arguments: { text } } });
const statuses = (state: { planSteps: Array<{ status: string }> }) => state.planSteps.map((step) => step.status);

/** Runs a four-step plan to the write confirmation of step 3 and returns there. */
async function toStepThree(planAfter: ReturnType<typeof json>[], executeAfter: ReturnType<typeof json>[] = []) {
  const domain = createNotesDomain();
  const { graph, models } = scriptedGraph({
    domain,
    plan: [planned(FOUR), keep, keep, ...planAfter],
    execute: [next("notes collected: 0"), next("notes sorted"), addNote("x"), ...executeAfter],
  });
  const config = threadConfig(`revise-${Math.random()}`);
  await graph.invoke({ messages: [new HumanMessage("organise my notes")] }, config);
  const atThree = await graph.invoke(resume({ type: "accept", args: null }), config);
  expect(statuses(atThree)).toEqual(["done", "done", "running", "pending"]);
  expect(interruptsOf(atThree)[0]?.value).toMatchObject({ action_request: { action: "add_note" } });
  return { graph, models, config, domain };
}

describe("plan revision on feedback", () => {
  test("feedback that changes step 3: steps 1–2 stay done with their summaries, 3–4 are pending, execution resumes at 3", async () => {
    const revised = stepsOf("Collect notes", "Sort notes", "Add note y", "Report");
    const { graph, models, config, domain } = await toStepThree([planned(revised)], [addNote("y")]);
    const revisedState = await graph.invoke(resume({ type: "response", args: "Step 3 should add y, not x." }), config);
    expect(revisedState.phase).toBe("waiting_confirm");
    expect(revisedState.planSteps).toEqual([
      {
        id: "step-1",
        content: "Collect notes",
        doneWhen: "Collect notes is done",
        status: "done",
        summary: "notes collected: 0",
      },
      { id: "step-2", content: "Sort notes", doneWhen: "Sort notes is done", status: "done", summary: "notes sorted" },
      { id: "step-3-r1", content: "Add note y", doneWhen: "Add note y is done", status: "pending" },
      { id: "step-4-r1", content: "Report", doneWhen: "Report is done", status: "pending" },
    ]);
    expect(interruptsOf(revisedState)[0]?.value).toMatchObject({ action_request: { action: "confirm_plan" } });
    expect(
      models.plan.calls
        .at(-1)!
        .messages.map((message) => String(message.content))
        .join("\n"),
    ).toContain("Step 3 should add y, not x.");

    const resumed = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(resumed.currentStepId).toBe("step-3-r1");
    expect(statuses(resumed)).toEqual(["done", "done", "running", "pending"]);
    expect(interruptsOf(resumed)[0]?.value).toMatchObject({
      action_request: { action: "add_note", args: { text: "y" } },
    });
    expect(domain.applied).toHaveLength(0);
  });

  test("feedback that changes nothing invalidates nothing and execution goes on at step 3", async () => {
    const { graph, config } = await toStepThree([planned(FOUR)], [addNote("x again")]);
    const result = await graph.invoke(resume({ type: "response", args: "Hmm, not now." }), config);
    expect(result.planSteps.map((step) => [step.id, step.status, step.summary])).toEqual([
      ["step-1", "done", "notes collected: 0"],
      ["step-2", "done", "notes sorted"],
      ["step-3", "running", undefined],
      ["step-4", "pending", undefined],
    ]);
    expect(result.planRevision).toBe(0);
    expect(interruptsOf(result)[0]?.value).toMatchObject({
      action_request: { action: "add_note", args: { text: "x again" } },
    });
  });

  test("a revision that adds a step at the end leaves only that step pending", async () => {
    const { graph, config } = await toStepThree([planned([...FOUR, ...stepsOf("Archive")])], [addNote("x")]);
    const revisedState = await graph.invoke(
      resume({ type: "response", args: "Also archive them at the end." }),
      config,
    );
    expect(revisedState.planSteps.map((step) => [step.id, step.status])).toEqual([
      ["step-1", "done"],
      ["step-2", "done"],
      ["step-3", "running"],
      ["step-4", "pending"],
      ["step-5-r1", "pending"],
    ]);
    const resumed = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(resumed.currentStepId).toBe("step-3");
  });

  test("revisePlan keeps the matching prefix, invalidates from the first mismatch, and treats an identical plan as a no-op", () => {
    const current = [
      { id: "step-1", content: "A", doneWhen: "a", status: "done" as const, summary: "did a" },
      { id: "step-2", content: "B", doneWhen: "b", status: "running" as const },
    ];
    expect(
      revisePlan(
        current,
        [
          { content: " a ", done_when: "A" },
          { content: "B", done_when: "b" },
        ],
        1,
      ),
    ).toEqual({ steps: current, firstInvalid: 2, changed: false });
    expect(
      revisePlan(
        current,
        [
          { content: "A", done_when: "a" },
          { content: "B", done_when: "b2" },
        ],
        1,
      ),
    ).toEqual({
      steps: [current[0], { id: "step-2-r1", content: "B", doneWhen: "b2", status: "pending" }],
      firstInvalid: 1,
      changed: true,
    });
    expect(revisePlan(current, [{ content: "A", done_when: "a" }], 2)).toEqual({
      steps: [current[0]],
      firstInvalid: 1,
      changed: true,
    });
  });
});

describe("replan after a step", () => {
  test("the planner can replace the remaining steps; done steps are kept", async () => {
    const domain = createNotesDomain();
    const replaced = stepsOf("Collect notes", "Add note z");
    const { graph } = scriptedGraph({
      domain,
      plan: [planned(FOUR), planned(replaced)],
      execute: [next("collected"), addNote("z"), json({ action: "done", goal_check: "z added" })],
    });
    const config = threadConfig("replan-replace");
    await graph.invoke({ messages: [new HumanMessage("organise my notes")] }, config);
    const waiting = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(waiting.planSteps.map((step) => [step.id, step.content, step.status])).toEqual([
      ["step-1", "Collect notes", "done"],
      ["step-2-r1", "Add note z", "running"],
    ]);
    const final = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(final.phase).toBe("done");
    expect(domain.data.get("user-1")).toEqual({ notes: ["z"] });
  });

  test("the planner can finish early: the remaining steps are skipped and the task is delivered, as a task that changed nothing", async () => {
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [planned(FOUR), json({ action: "finish", reason: "nothing left to do" })],
      execute: [next("collected: nothing to organise")],
    });
    const config = threadConfig("replan-finish");
    await graph.invoke({ messages: [new HumanMessage("organise my notes")] }, config);
    const final = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(statuses(final)).toEqual(["done", "skipped", "skipped", "skipped"]);
    // Nothing was changed: never "completed", and the model's "All done." gives way to the facts.
    expect(final.outcome).toMatchObject({ kind: "failed", reason: "nothing was changed: no change was proposed" });
    expect(final.finalAnswer).toMatch(
      /^Task: organise my notes\n\nOutcome: failed — nothing was changed: no change was proposed/,
    );
  });
});

describe("resume behaviour", () => {
  test("a reply to a question becomes a user_reply observation and the planner's resume context", async () => {
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [json({ speak: "Which note?", action: "ask_user" }), planned(stepsOf("Add note yes"))],
    });
    const config = threadConfig("resume-context");
    await graph.invoke({ messages: [new HumanMessage("add a note")] }, config);
    await graph.invoke(resume({ type: "response", args: "yes" }), config);
    const prompt = models.plan.calls
      .at(-1)!
      .messages.map((message) => String(message.content))
      .join("\n");
    expect(prompt).toContain(
      '<resume_context>\nYou asked the user: "Which note?"\nThey replied: "yes"\nTreat the reply as the answer to that question, not as a new request.\n</resume_context>',
    );
    const execution = await readExecutionState(graph, config);
    expect(execution.status).toBe("waiting_user_confirmation");
    expect(execution.observations).toEqual([
      { kind: "user_reply", question: "Which note?", answer: "yes", at: expect.any(String) },
    ]);
  });

  test("a thread resumed after the tool domain's version changed is replanned instead of trusted", async () => {
    const checkpointer = new MemorySaver();
    const build = (version: string, plan: ReturnType<typeof json>[]) => {
      const domain = { ...createNotesDomain(), version };
      const models = {
        chat: scripted([json({ intent: "task" })]),
        plan: scripted(plan),
        execute: scripted([json({ action: "done", goal_check: "ok" })]),
        deliver: scripted(["Done."]),
      };
      return { graph: buildTempoGraph({ models: { default: models.chat, ...models }, domain, checkpointer }), models };
    };
    const config = threadConfig("versioned");
    const before = build("1", [planned(stepsOf("Add a note"))]);
    await before.graph.invoke({ messages: [new HumanMessage("add a note")] }, config);

    const after = build("2", [planned(stepsOf("Add a note with the new tool"))]);
    const result = await after.graph.invoke(resume({ type: "accept", args: null }), config);
    expect(after.models.plan.callCount).toBe(1);
    expect(after.models.execute.callCount).toBe(0);
    expect(result.workflowVersion).toBe(`graph@${GRAPH_VERSION}/notes@2`);
    expect(result.lastError).toContain(
      `The workflow changed from graph@${GRAPH_VERSION}/notes@1 to graph@${GRAPH_VERSION}/notes@2`,
    );
    expect(result.planSteps.map((step) => step.content)).toEqual(["Add a note with the new tool"]);
    expect(interruptsOf(result)[0]?.value).toMatchObject({ action_request: { action: "confirm_plan" } });
  });

  test("a thread saved by graph version 1, waiting on a write card in the old shape (pending.tool), is replanned when it resumes: nothing applied, the write is proposed again", async () => {
    const checkpointer = new MemorySaver();
    const domain = createNotesDomain();
    const models = {
      chat: scripted([json({ intent: "task" })]),
      plan: scripted([planned(stepsOf("Add note x")), planned(stepsOf("Add note x"))]),
      execute: scripted([addNote("x"), addNote("x")]),
      deliver: scripted(["Done."]),
    };
    const graph = buildTempoGraph({ models: { default: models.chat, ...models }, domain, checkpointer });
    const config = threadConfig("graph-v1");
    await graph.invoke({ messages: [new HumanMessage("add note x")] }, config);
    const waiting = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(waiting.pending?.kind).toBe("confirm_tool");
    const { reason: _reason, ...write } = writesOnCard(waiting)[0]!;
    // What version 1 saved: the write in pending.tool, under its version tag (written around the run guard).
    const unguarded = CompiledStateGraph.prototype.bulkUpdateState as typeof graph.bulkUpdateState;
    const v1 = `graph@1/${domain.name}@${domain.version}`;
    await unguarded.call(graph, config, [
      {
        updates: [
          {
            values: {
              pending: { kind: "confirm_tool", tool: { ...write, reason: "", speak: "" } },
              workflowVersion: v1,
            },
            asNode: "execute",
          },
        ],
      },
    ]);

    const result = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(result.lastError).toContain(`The workflow changed from ${v1} to graph@${GRAPH_VERSION}/`);
    // The revision keeps the plan (nothing changed), so the step goes on and proposes its write again, in today's shape.
    expect(models.plan.callCount).toBe(2);
    expect(domain.applied).toEqual([]);
    expect(writesOnCard(result)).toMatchObject([{ name: "add_note", arguments: { text: "x" } }]);
    // The old card's call is answered as not run; only the new card's call is open.
    expect(
      unpairedToolCalls(
        result.messages,
        writesOnCard(result).map((write) => write.id),
      ),
    ).toEqual([]);
    expect(interruptsOf(result)[0]?.value).toMatchObject({ action_request: { action: "add_note" } });
  });
});

describe("several workflows per user", () => {
  test("two threads of one user run independent plans", async () => {
    const domain = createNotesDomain();
    const task = json({ intent: "task" });
    const { graph } = scriptedGraph({
      domain,
      chat: [task, task],
      plan: [planned(stepsOf("Add note one")), planned(stepsOf("Add note two", "Check"))],
      execute: [addNote("one")],
    });
    const first = threadConfig("workflow-a", "same-user");
    const second = threadConfig("workflow-b", "same-user");
    await graph.invoke({ messages: [new HumanMessage("add note one")] }, first);
    await graph.invoke({ messages: [new HumanMessage("add note two and check")] }, second);
    await graph.invoke(resume({ type: "accept", args: null }), first);
    const [a, b] = await Promise.all([readExecutionState(graph, first), readExecutionState(graph, second)]);
    expect([a.goal, a.status, a.steps.map((step) => step.content)]).toEqual([
      "add note one",
      "waiting_user_confirmation",
      ["Add note one"],
    ]);
    expect([b.goal, b.status, b.steps.map((step) => step.content)]).toEqual([
      "add note two and check",
      "waiting_user_confirmation",
      ["Add note two", "Check"],
    ]);
    expect(a.planId).not.toBe(b.planId);
    expect(a.steps[0]?.status).toBe("running");
    expect(b.steps.map((step) => step.status)).toEqual(["pending", "pending"]);
  });
});
