/**
 * Issue 13's step lifecycle and plan changes with scripted models on the notes domain: steps that fail and
 * why, plan edits and replans through the revision diff, and memory reaching the stages that need it.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { readExecutionState } from "../../server/execution-state.js";
import { episodesNamespace } from "../../memory/namespaces.js";
import { createNotesDomain } from "../support/notes-domain.js";
import {
  interruptsOf,
  json,
  resume,
  scriptedGraph,
  threadConfig,
  planDone,
  stepsOf,
  type StepDraft,
} from "../support/scripted.js";

const planned = (steps: StepDraft[]) => planDone(steps, { speak: "Plan." });
const keep = json({ action: "continue", reason: "the remaining steps hold" });
const next = (summary: string) => json({ action: "next_plan", goal_check: summary });
const addNote = (text: string) =>
  json({ speak: `Adding ${text}.`, action: "confirm", tool_call: { name: "add_note", arguments: { text } } });
const unknownTool = json({ action: "continue", tool_call: { name: "shred_notes", arguments: {} } });
const accept = resume({ type: "accept", args: null });
const message = (text: string) => ({ messages: [new HumanMessage(text)] });
const prompts = (calls: Array<{ messages: BaseMessage[] }>) =>
  calls.map((call) => call.messages.map((entry) => String(entry.content)).join("\n"));
const cardAction = (result: object) =>
  (interruptsOf(result)[0]?.value as { action_request?: { action: string } } | undefined)?.action_request?.action;

describe("steps that fail", () => {
  test("repeated tool errors fail the step with its reason; the task, which changed nothing, failed and is told so", async () => {
    const store = new InMemoryStore();
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      store,
      plan: [planned(stepsOf("Collect notes", "Shred notes")), keep],
      execute: [next("collected"), unknownTool, unknownTool, unknownTool],
      deliver: ["Everything is done."],
    });
    const config = threadConfig("tool-errors");
    await graph.invoke(message("collect and shred my notes"), config);
    const final = await graph.invoke(accept, config);
    expect(final.phase).toBe("done");
    expect(final.planSteps.map((step) => [step.status, step.reason])).toEqual([
      ["done", undefined],
      [
        "failed",
        expect.stringMatching(/^3 tool errors in a row \(last, from shred_notes: Error: unknown tool "shred_notes"/),
      ],
    ]);
    expect(final.outcome).toMatchObject({
      kind: "failed",
      reason: expect.stringContaining(
        'nothing was changed: 1 of 2 step(s) done; step "Shred notes" failed: 3 tool errors in a row',
      ),
    });
    expect(final.finalAnswer).not.toBe("Everything is done.");
    expect(final.finalAnswer).toContain("2. [failed] Shred notes — failed: 3 tool errors in a row");
    expect((await readExecutionState(graph, config)).status).toBe("failed");
    expect((await store.search(episodesNamespace("user-1")))[0]?.value).toMatchObject({ status: "failed" });
  });

  test("one reply's failed calls are one setback: three unknown tools in one reply, then a good write, and the step goes on", async () => {
    const shred = { name: "shred_notes", arguments: {} };
    const threeAtOnce = json({ action: "continue", tool_calls: [shred, shred, shred] });
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [planned(stepsOf("Add the note"))],
      // Two replies with errors in a row stay under the bound of three, however many calls each holds.
      execute: [threeAtOnce, threeAtOnce, addNote("x"), next("added")],
      deliver: ["Added the note."],
    });
    const config = threadConfig("errors-in-one-reply");
    await graph.invoke(message("add a note"), config);
    const atCard = await graph.invoke(accept, config);
    expect(cardAction(atCard)).toBe("add_note");
    const final = await graph.invoke(accept, config);
    expect(final.planSteps.map((step) => step.status)).toEqual(["done"]);
    expect(final.outcome).toMatchObject({ kind: "completed" });
    expect(final.finalAnswer).toBe("Added the note.");
  });

  test("the user declining the step's writes twice in a row fails the step: the task failed, nothing applied", async () => {
    const domain = createNotesDomain();
    const { graph, models } = scriptedGraph({
      domain,
      plan: [planned(stepsOf("Add the note"))],
      execute: [addNote("x"), addNote("y")],
    });
    const config = threadConfig("declined");
    await graph.invoke(message("add a note"), config);
    await graph.invoke(accept, config);
    const second = await graph.invoke(resume({ type: "ignore", args: null }), config);
    expect(cardAction(second)).toBe("add_note");
    const final = await graph.invoke(message("no"), config);
    expect(interruptsOf(final)).toEqual([]);
    expect(final.planSteps).toMatchObject([
      { status: "failed", reason: "you declined the 2 change(s) it proposed in a row" },
    ]);
    expect(final.outcome).toMatchObject({ kind: "failed" });
    expect(models.execute.callCount).toBe(2);
    expect(domain.applied).toEqual([]);
  });
});

describe("plan edits and replans go through the revision diff", () => {
  const FOUR = stepsOf("Collect notes", "Sort notes", "Add note x", "Report");

  test("an edit of the plan mid-execution keeps done steps with their summaries; they are not run again", async () => {
    const domain = createNotesDomain();
    const revised = stepsOf("Collect notes", "Sort notes", "Add note y", "Report");
    const { graph, models } = scriptedGraph({
      domain,
      plan: [planned(FOUR), keep, keep, planned(revised)],
      execute: [next("collected: 0"), next("sorted"), addNote("x"), addNote("z")],
    });
    const config = threadConfig("edit-mid");
    await graph.invoke(message("organise my notes"), config);
    await graph.invoke(accept, config);
    const card = await graph.invoke(resume({ type: "response", args: "Step 3 should add y." }), config);
    expect(cardAction(card)).toBe("confirm_plan");
    const executeCalls = models.execute.callCount;

    // The user edits the card: steps 1–2 as they were, step 3 their own, step 4 removed.
    const edited = [
      ...stepsOf("Collect notes", "Sort notes").map((step) => ({ ...step })),
      { content: "Add note z", done_when: "Add note z is done" },
    ];
    const resumed = await graph.invoke(
      resume({ type: "edit", args: { action: "confirm_plan", args: { plan_steps: edited } } }),
      config,
    );
    expect(resumed.planSteps).toEqual([
      {
        id: "step-1",
        content: "Collect notes",
        doneWhen: "Collect notes is done",
        status: "done",
        summary: "collected: 0",
      },
      { id: "step-2", content: "Sort notes", doneWhen: "Sort notes is done", status: "done", summary: "sorted" },
      { id: "step-3-r2", content: "Add note z", doneWhen: "Add note z is done", status: "running" },
    ]);
    expect(resumed.planEdits).toEqual({
      added: ["add note z | add note z is done"],
      removed: ["add note y | add note y is done", "report | report is done"],
    });
    // Execution went straight on with step 3: one execute call, which proposed the write.
    expect(models.execute.callCount).toBe(executeCalls + 1);
    expect(interruptsOf(resumed)[0]?.value).toMatchObject({
      action_request: { action: "add_note", args: { text: "z" } },
    });
    expect(domain.applied).toEqual([]);
  });

  test("a replan that re-adds a step the user removed raises the plan card again", async () => {
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [planned(FOUR), planned(FOUR)],
      execute: [next("collected")],
    });
    const config = threadConfig("replan-readd");
    await graph.invoke(message("organise my notes"), config);
    const withoutReport = FOUR.slice(0, 3);
    const card = await graph.invoke(
      resume({ type: "edit", args: { action: "confirm_plan", args: { plan_steps: withoutReport } } }),
      config,
    );
    expect(cardAction(card)).toBe("confirm_plan");
    expect(card.phase).toBe("waiting_confirm");
    expect(card.planSteps.map((step) => [step.content, step.status, step.summary])).toEqual([
      ["Collect notes", "done", "collected"],
      ["Sort notes", "pending", undefined],
      ["Add note x", "pending", undefined],
      ["Report", "pending", undefined],
    ]);
  });

  test("a replan that would rewrite a done step asks first instead of taking effect", async () => {
    const rewritten = stepsOf("Collect all notes", "Sort notes", "Add note x", "Report");
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [planned(FOUR), planned(rewritten)],
      execute: [next("collected")],
    });
    const config = threadConfig("replan-done");
    await graph.invoke(message("organise my notes"), config);
    const card = await graph.invoke(accept, config);
    expect(cardAction(card)).toBe("confirm_plan");
    expect(models.execute.callCount).toBe(1);
    const state = await graph.getState(config);
    expect(state.values.phase).toBe("waiting_confirm");
    // Dropping the card ends the task; the step ran only reads, so nothing was changed.
    const dropped = await graph.invoke(message("cancel"), config);
    expect(dropped.phase).toBe("chatting");
    expect(String(dropped.messages.at(-1)?.content)).toBe(
      'Dropped "organise my notes" (you declined the plan). Nothing was changed.',
    );
  });
});

describe("memory reaches the stages", () => {
  test("every planning pass (draft, replan, revise) starts from a fresh read of the live state", async () => {
    const domain = {
      ...createNotesDomain({ "user-1": ["old note"] }),
      preflight: { tool: "list_notes", arguments: {} },
    };
    const { graph, models } = scriptedGraph({
      domain,
      plan: [planned(stepsOf("Add note x", "Report")), keep, planned(stepsOf("Add note x", "Report"))],
      execute: [addNote("x"), next("x added"), addNote("again"), json({ action: "done", goal_check: "reported" })],
    });
    const config = threadConfig("live-state");
    await graph.invoke(message("add x then report"), config);
    await graph.invoke(accept, config);
    await graph.invoke(accept, config);
    await graph.invoke(resume({ type: "response", args: "Report in one line." }), config);
    const planPrompts = prompts(models.plan.calls);
    expect(planPrompts).toHaveLength(3);
    expect(planPrompts[0]).toContain("<live_state>\nlist_notes (fetched just now):\n1. old note\n</live_state>");
    // The replan after step 1 and the revision after the feedback each read the notes again, with x added.
    expect(planPrompts[1]).toContain("Mode: replan");
    expect(planPrompts[1]).toContain("<live_state>\nlist_notes (fetched just now):\n1. old note\n2. x\n</live_state>");
    expect(planPrompts[2]).toContain("Mode: revise");
    expect(planPrompts[2]).toContain("<live_state>\nlist_notes (fetched just now):\n1. old note\n2. x\n</live_state>");
  });

  test("conversation memory reaches chat and plan; TaskState and episodes reach execute", async () => {
    const store = new InMemoryStore();
    const task = json({ intent: "task", reply: "" });
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      store,
      chat: [json({ intent: "chat", reply: "Hi Alice." }), task, task],
      plan: [planned(stepsOf("Add the note")), planned(stepsOf("Add the note"))],
      execute: [
        addNote("call mom"),
        json({ action: "done", goal_check: "added" }),
        json({ action: "done", goal_check: "already there" }),
      ],
      deliver: ["Added.", "Nothing to add."],
    });
    const config = threadConfig("memory-prompts", "alice");
    await graph.invoke(message("hi, I'm Alice"), config);
    await graph.invoke(message("add a note to call mom"), config);
    await graph.invoke(accept, config);
    await graph.invoke(accept, config);
    await graph.invoke(message("add a note to call mom once more"), config);
    await graph.invoke(accept, config);

    const chatPrompt = prompts(models.chat.calls)[1]!;
    expect(chatPrompt).toContain(
      '<conversation_memory>\nUser said: "hi, I\'m Alice"; agent replied: "Hi Alice.".\n</conversation_memory>',
    );
    const secondPlan = prompts(models.plan.calls)[1]!;
    expect(secondPlan).toContain("<conversation_memory>");
    expect(secondPlan).toContain('User asked: "add a note to call mom"');
    const lastExecute = prompts(models.execute.calls).at(-1)!;
    expect(lastExecute).toContain(
      '<task_state>\nActive flow: notes tasks\nLast decision: Finished "add a note to call mom"',
    );
    expect(lastExecute).toContain("<episodes>\nadd a note to call mom → [completed]");
  });
});
