/** The graph's behaviours around humans and models, each driven by scripted models. */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { InvalidResumeError, ModelOutputError } from "../../errors/index.js";
import type { TempoEvent } from "../../streaming/events.js";
import { createNotesDomain } from "../support/notes-domain.js";
import {
  interruptsOf,
  json,
  resume,
  scriptedGraph,
  threadConfig,
  transcript,
  unpairedToolCalls,
} from "../support/scripted.js";
import { pinnedBlocksOf } from "../../nodes/shared/steps.js";

const oneStepPlan = json({
  speak: "Plan ready.",
  action: "plan_done",
  complexity: "simple",
  plan_steps: [{ content: "Add the note", done_when: "the note is listed" }],
});
const addNote = (text: string, action = "confirm") =>
  json({ speak: `Adding ${text}.`, action, reason: "asked", tool_call: { name: "add_note", arguments: { text } } });
const done = json({ action: "done", goal_check: "the note is listed" });
const accept = resume({ type: "accept", args: null });
const userMessage = (text: string) => ({ messages: [new HumanMessage(text)] });
const lastPrompt = (calls: Array<{ messages: BaseMessage[] }>) =>
  calls
    .at(-1)!
    .messages.map((message) => String(message.content))
    .join("\n");

describe("chat", () => {
  test("a chat intent replies directly and ends without a plan", async () => {
    const domain = createNotesDomain();
    const { graph, models } = scriptedGraph({
      domain,
      chat: [json({ intent: "chat", reply: "Hello! How can I help?", reason: "greeting" })],
    });
    const result = await graph.invoke(userMessage("hi"), threadConfig("chat-1"));
    expect(result.phase).toBe("chatting");
    expect(result.planSteps).toEqual([]);
    expect(interruptsOf(result)).toEqual([]);
    expect(transcript(result.messages)).toEqual(["human:hi", "ai:Hello! How can I help?"]);
    expect(models.plan.callCount).toBe(0);
  });

  test("an unparseable chat decision falls back to the conservative task intent", async () => {
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      chat: ["I think this is chat?"],
      plan: [oneStepPlan],
    });
    const result = await graph.invoke(userMessage("note: call mom"), threadConfig("chat-2"));
    expect(result.phase).toBe("waiting_confirm");
    expect(models.plan.callCount).toBe(1);
  });

  test("an input without a user message is a typed error", async () => {
    const { graph } = scriptedGraph({ domain: createNotesDomain() });
    await expect(graph.invoke({ messages: [] }, threadConfig("chat-3"))).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
  });
});

describe("plan", () => {
  test("ask_user → the answer goes back to the planner → plan_done", async () => {
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [json({ speak: "What should the note say?", action: "ask_user", reason: "no text given" }), oneStepPlan],
    });
    const config = threadConfig("plan-ask");
    const asked = await graph.invoke(userMessage("add a note"), config);
    const [raised] = interruptsOf(asked);
    // The card is v1 HITL (an edit of its answer field) with the legacy HumanInterrupt fields, and names its interrupt.
    expect(raised?.value).toMatchObject({
      card_id: raised?.id,
      kind: "ask_user",
      action_requests: [{ name: "ask_user", args: { answer: "" }, description: "What should the note say?" }],
      review_configs: [{ action_name: "ask_user", allowed_decisions: ["edit"] }],
      action_request: { action: "ask_user", args: { question: "What should the note say?" } },
      config: { allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: false },
      description: "What should the note say?",
    });
    const answered = await graph.invoke(resume({ type: "response", args: "call mom" }), config);
    expect(answered.phase).toBe("waiting_confirm");
    expect(answered.planSteps).toHaveLength(1);
    expect(lastPrompt(models.plan.calls)).toContain("call mom");
    expect(transcript(answered.messages)).toEqual([
      "human:add a note",
      "ai:What should the note say?",
      "human:call mom",
      "ai:Plan ready.",
    ]);
  });

  test("a served run: the answer sent as a message joins the planner's messages as the person's own", async () => {
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [json({ speak: "What should the note say?", action: "ask_user", reason: "no text given" }), oneStepPlan],
    });
    // A served run opens each turn with a progress line after the person's message (Agent Chat UI's opener).
    const config = { ...threadConfig("plan-ask-served"), metadata: { run_id: "run-served" } };
    await graph.invoke(userMessage("add a note"), config);
    await graph.invoke(userMessage("call mom"), config);
    const planner = models.plan.calls.at(-1)!.messages;
    expect(planner.some((message) => message.getType() === "human" && message.content === "call mom")).toBe(true);
  });

  test("a plan rejected with feedback is replanned with that feedback", async () => {
    const revised = json({
      speak: "Revised.",
      action: "plan_done",
      plan_steps: [
        { content: "List notes first", done_when: "listed" },
        { content: "Add the note", done_when: "listed" },
      ],
    });
    const { graph, models } = scriptedGraph({ domain: createNotesDomain(), plan: [oneStepPlan, revised] });
    const config = threadConfig("plan-reject");
    await graph.invoke(userMessage("add a note: call mom"), config);
    const replanned = await graph.invoke(resume({ type: "response", args: "List my notes first." }), config);
    expect(replanned.phase).toBe("waiting_confirm");
    expect(replanned.planSteps.map((step) => step.content)).toEqual(["List notes first", "Add the note"]);
    expect(lastPrompt(models.plan.calls)).toContain("I reject this plan. Feedback: List my notes first.");
    expect(interruptsOf(replanned)[0]?.value).toMatchObject({ action_request: { action: "confirm_plan" } });
  });

  test("an edited plan runs as edited", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({ domain, plan: [oneStepPlan], execute: [addNote("edited"), done] });
    const config = threadConfig("plan-edit");
    await graph.invoke(userMessage("add a note"), config);
    const edited = await graph.invoke(
      resume({
        type: "edit",
        args: { action: "confirm_plan", args: { plan_steps: [{ content: "Add an edited note", done_when: "added" }] } },
      }),
      config,
    );
    expect(edited.planSteps).toEqual([
      { id: "step-1", content: "Add an edited note", doneWhen: "added", status: "running" },
    ]);
    expect(pinnedBlocksOf(edited).plan).toContain("Add an edited note");
  });

  test("a complex task gets the deep planning pass", async () => {
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [
        json({ action: "plan_done", complexity: "complex", plan_steps: [{ content: "rough", done_when: "x" }] }),
        json({
          action: "plan_done",
          complexity: "complex",
          plan_steps: [
            { content: "detailed a", done_when: "x" },
            { content: "detailed b", done_when: "y" },
          ],
        }),
      ],
    });
    const result = await graph.invoke(userMessage("reorganise everything"), threadConfig("plan-deep"));
    expect(models.plan.callCount).toBe(2);
    expect(lastPrompt(models.plan.calls)).toContain('<stage name="plan_deep">');
    expect(result.planSteps.map((step) => step.content)).toEqual(["detailed a", "detailed b"]);
  });
});

describe("write confirmation", () => {
  test("a rejected write is recorded and execute chooses a different action", async () => {
    const domain = createNotesDomain({ "user-1": ["a"] });
    // The feedback goes to the planner first; it keeps the plan (a no-op revision), and execute chooses again.
    const { graph, models } = scriptedGraph({
      domain,
      plan: [oneStepPlan, oneStepPlan],
      execute: [addNote("x"), addNote("y"), done],
    });
    const config = threadConfig("tool-reject");
    await graph.invoke(userMessage("add a note"), config);
    await graph.invoke(accept, config);
    const second = await graph.invoke(resume({ type: "response", args: "Call it y instead." }), config);
    expect(interruptsOf(second)[0]?.value).toMatchObject({
      action_request: { action: "add_note", args: { text: "y" } },
    });
    expect(lastPrompt(models.execute.calls)).toContain(
      "Not applied: the user rejected this change. Their feedback: Call it y instead.",
    );
    expect(lastPrompt(models.plan.calls)).toContain("Mode: revise");
    expect(second.planSteps.map((step) => step.status)).toEqual(["running"]);
    const final = await graph.invoke(accept, config);
    expect(domain.data.get("user-1")).toEqual({ notes: ["a", "y"] });
    expect(domain.applied).toHaveLength(1);
    expect(unpairedToolCalls(final.messages)).toEqual([]);
    expect(transcript(final.messages).filter((line) => line.startsWith("tool:"))).toEqual([
      "tool:Not applied: the user rejected this change. Their feedback: Call it y instead.",
      "tool:added note 2: y",
    ]);
  });

  test("ignore rejects without feedback", async () => {
    const domain = createNotesDomain();
    const { graph, models } = scriptedGraph({ domain, plan: [oneStepPlan], execute: [addNote("x"), done] });
    const config = threadConfig("tool-ignore");
    await graph.invoke(userMessage("add a note"), config);
    await graph.invoke(accept, config);
    const result = await graph.invoke(resume({ type: "ignore", args: null }), config);
    expect(result.phase).toBe("done");
    expect(domain.applied).toHaveLength(0);
    expect(lastPrompt(models.execute.calls)).toContain("rejected this change without comment");
  });

  test("edited arguments are applied, and invalid edits are refused with the interrupt kept", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({ domain, plan: [oneStepPlan], execute: [addNote("draft"), done] });
    const config = threadConfig("tool-edit");
    await graph.invoke(userMessage("add a note"), config);
    await graph.invoke(accept, config);
    await expect(
      graph.invoke(resume({ type: "edit", args: { action: "add_note", args: { text: "" } } }), config),
    ).rejects.toThrow(/edited arguments do not fit add_note/);
    const final = await graph.invoke(
      resume({ type: "edit", args: { action: "add_note", args: { text: "final text" } } }),
      config,
    );
    expect(final.phase).toBe("done");
    expect(domain.data.get("user-1")).toEqual({ notes: ["final text"] });
  });

  test("edits sent as text, as Agent Inbox sends them, are read as JSON", async () => {
    const domain = createNotesDomain({ "user-1": ["a", "b"] });
    const { graph } = scriptedGraph({
      domain,
      plan: [oneStepPlan],
      execute: [json({ action: "confirm", tool_call: { name: "remove_note", arguments: { number: 1 } } }), done],
    });
    const config = threadConfig("inbox-edit");
    await graph.invoke(userMessage("remove a note"), config);
    await graph.invoke(accept, config);
    const final = await graph.invoke(
      resume([{ type: "edit", args: { action: "remove_note", args: { number: "2" } } }]),
      config,
    );
    expect(final.phase).toBe("done");
    expect(domain.data.get("user-1")).toEqual({ notes: ["a"] });
  });

  test("a write tool asked with action continue still goes through confirmation", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({ domain, plan: [oneStepPlan], execute: [addNote("sneaky", "continue"), done] });
    const config = threadConfig("tool-enforced");
    await graph.invoke(userMessage("add a note"), config);
    const waiting = await graph.invoke(accept, config);
    expect(waiting.phase).toBe("waiting_confirm");
    expect(interruptsOf(waiting)[0]?.value).toMatchObject({ action_request: { action: "add_note" } });
    expect(domain.applied).toHaveLength(0);
  });

  test("unknown tools and invalid write arguments come back to the model as error results, nothing applied", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({
      domain,
      plan: [oneStepPlan],
      execute: [
        json({ action: "continue", tool_call: { name: "delete_everything", arguments: {} } }),
        json({ action: "confirm", tool_call: { name: "remove_note", arguments: { number: "one" } } }),
        done,
      ],
    });
    const config = threadConfig("tool-errors");
    await graph.invoke(userMessage("clean up"), config);
    const result = await graph.invoke(accept, config);
    const tools = transcript(result.messages).filter((line) => line.startsWith("tool:"));
    expect(tools[0]).toContain(
      'Error: unknown tool "delete_everything". Available tools: list_notes, add_note, remove_note.',
    );
    expect(tools[1]).toContain("Error: invalid arguments for remove_note: number:");
    expect(unpairedToolCalls(result.messages)).toEqual([]);
    expect(domain.applied).toHaveLength(0);
  });
});

describe("resume values", () => {
  test("a wrong resume value is a typed error naming what was expected, and the thread stays resumable", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({ domain, plan: [oneStepPlan], execute: [addNote("x"), done] });
    const config = threadConfig("bad-resume");
    await graph.invoke(userMessage("add a note"), config);
    for (const bad of ["yes", { type: "approve" }, { type: "response", args: "" }, 42]) {
      const error = await graph.invoke(resume(bad), config).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidResumeError);
      expect((error as InvalidResumeError).code).toBe("INVALID_RESUME");
      expect((error as Error).message).toMatch(/expected \{ decisions|needs its text/);
      const state = await graph.getState(config);
      expect(state.next).toEqual(["confirm"]);
      expect(state.values.phase).toBe("waiting_confirm");
    }
    // Agent Inbox sends a one-element list.
    await graph.invoke(resume([{ type: "accept", args: null }]), config);
    const final = await graph.invoke(accept, config);
    expect(final.phase).toBe("done");
    expect(domain.applied).toHaveLength(1);
  });

  test("a plain message on a waiting thread is taken as the answer; short confirmations are recognised in code", async () => {
    const domain = createNotesDomain();
    const { graph, models } = scriptedGraph({ domain, plan: [oneStepPlan], execute: [addNote("x"), done] });
    const config = threadConfig("plain-answer");
    await graph.invoke(userMessage("add a note"), config);
    const executing = await graph.invoke(userMessage("是"), config);
    expect(executing.phase).toBe("waiting_confirm");
    expect(executing.planSteps[0]?.status).toBe("running");
    const final = await graph.invoke(userMessage("OK!"), config);
    expect(final.phase).toBe("done");
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
    // The chat model classified only the first message.
    expect(models.chat.callCount).toBe(1);
  });

  test("a plain message that is not a confirmation is feedback on the plan", async () => {
    const { graph, models } = scriptedGraph({ domain: createNotesDomain(), plan: [oneStepPlan, oneStepPlan] });
    const config = threadConfig("plain-feedback");
    await graph.invoke(userMessage("add a note"), config);
    const replanned = await graph.invoke(userMessage("make it two notes"), config);
    expect(replanned.phase).toBe("waiting_confirm");
    expect(models.plan.callCount).toBe(2);
    expect(transcript(replanned.messages)).toEqual([
      "human:add a note",
      "ai:Plan ready.",
      "human:make it two notes",
      "ai:Plan ready.",
    ]);
  });
});

describe("model output", () => {
  test("malformed output is corrected once; the correction messages are removed afterwards", async () => {
    const domain = createNotesDomain();
    const { graph, models } = scriptedGraph({
      domain,
      plan: [oneStepPlan],
      execute: ["Sure, I'll add it now!", addNote("x"), done],
    });
    const config = threadConfig("correct-once");
    await graph.invoke(userMessage("add a note"), config);
    const waiting = await graph.invoke(accept, config);
    expect(waiting.consecutiveCorrections).toBe(0);
    expect(lastPrompt(models.execute.calls)).toContain(
      "Your last answer could not be used: no JSON object was found in the output",
    );
    // The corrections are gone; the proposal waits on its card as the assistant's tool call, unanswered.
    expect(transcript(waiting.messages)).toEqual([
      "human:add a note",
      "ai:Plan ready.",
      'ai:Adding x.|calls:add_note({"text":"x"})',
    ]);
    expect(waiting.phase).toBe("waiting_confirm");
  });

  test("three invalid outputs in a row end the run with ModelOutputError and the state kept", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({
      domain,
      plan: [oneStepPlan],
      execute: ["nope", '{"action": "next_plan"}', "{broken"],
    });
    const config = threadConfig("correct-fail");
    await graph.invoke(userMessage("add a note"), config);
    const error = await graph.invoke(accept, config).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect((error as ModelOutputError).code).toBe("MODEL_OUTPUT_INVALID");
    expect((error as Error).message).toContain("The execute model gave 3 invalid outputs in a row");
    const state = await graph.getState(config);
    expect(state.values.phase).toBe("executing");
    expect(state.values.planSteps.map((step: { status: string }) => step.status)).toEqual(["running"]);
    expect(state.values.consecutiveCorrections).toBe(2);
    expect(domain.applied).toHaveLength(0);
  });
});

describe("model failures", () => {
  test("a model that cannot be reached is a typed error, and the thread is kept for a retry", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({
      domain,
      plan: [oneStepPlan],
      execute: [new Error("connect ECONNREFUSED 127.0.0.1:9"), addNote("x")],
    });
    const config = threadConfig("model-down");
    await graph.invoke(userMessage("add a note"), config);
    const error = await graph.invoke(accept, config).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: "ModelUnavailableError",
      code: "MODEL_UNAVAILABLE",
      message: expect.stringContaining("The execute model could not be reached (connect ECONNREFUSED"),
    });
    const state = await graph.getState(config);
    expect(state.values.phase).toBe("executing");
    const retried = await graph.invoke(userMessage("try again"), config);
    expect(interruptsOf(retried)[0]?.value).toMatchObject({ action_request: { action: "add_note" } });
  });

  test("after the chat model failed, a retry phrase retries the original request, not the phrase", async () => {
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      chat: [new Error("HTTP 503"), json({ intent: "task", reply: "" })],
      plan: [oneStepPlan],
    });
    const config = threadConfig("chat-retry");
    await expect(graph.invoke(userMessage("add a note: call mom"), config)).rejects.toMatchObject({
      code: "MODEL_UNAVAILABLE",
    });
    const retried = await graph.invoke(userMessage("try again"), config);
    expect(retried.goal).toBe("add a note: call mom");
    expect(
      models.chat.calls
        .at(-1)!
        .messages.map((message) => String(message.content))
        .join("\n"),
    ).toContain("Latest user message:\nadd a note: call mom");
  });

  test("resuming another user's interrupt is refused", async () => {
    const { graph } = scriptedGraph({ domain: createNotesDomain(), plan: [oneStepPlan] });
    await graph.invoke(userMessage("add a note"), threadConfig("owned-interrupt", "alice"));
    await expect(graph.invoke(accept, threadConfig("owned-interrupt", "mallory"))).rejects.toMatchObject({
      code: "THREAD_ACCESS_DENIED",
    });
    const state = await graph.getState(threadConfig("owned-interrupt", "alice"));
    expect(state.next).toEqual(["confirm"]);
  });
});

describe("budgets and fallbacks", () => {
  test("a spent round budget forces deliver", async () => {
    const domain = createNotesDomain();
    const list = json({ action: "continue", tool_call: { name: "list_notes", arguments: {} } });
    const { graph, models } = scriptedGraph({
      domain,
      plan: [oneStepPlan],
      execute: [list, list, list],
      settings: { maxRounds: 3 },
    });
    const config = threadConfig("budget");
    await graph.invoke(userMessage("add a note"), config);
    const result = await graph.invoke(accept, config);
    expect(result.phase).toBe("done");
    expect(result.roundsUsed).toBe(3);
    expect(models.execute.callCount).toBe(3);
    expect(result.lastError).toBe("The round budget (3) was spent before the plan finished.");
    // The step the budget ran out in failed, so the task failed; the model's "All done." is replaced by the facts.
    expect(result.planSteps).toEqual([
      {
        id: "step-1",
        content: "Add the note",
        doneWhen: "the note is listed",
        status: "failed",
        reason: "the round budget (3) ran out during this step",
      },
    ]);
    expect(result.outcome).toEqual({
      kind: "failed",
      reason: '0 of 1 step(s) done; step "Add the note" failed: the round budget (3) ran out during this step',
    });
    expect(result.finalAnswer).toBe(
      [
        "Task: add a note",
        'Outcome: failed — 0 of 1 step(s) done; step "Add the note" failed: the round budget (3) ran out during this step',
        "Finished 0 of 1 steps:",
        "1. [failed] Add the note — failed: the round budget (3) ran out during this step",
        "Note: The round budget (3) was spent before the plan finished.",
        // A blank line between paragraphs: Markdown front ends keep them apart.
      ].join("\n\n"),
    );
  });

  test("the round budget can be set per thread through configurable.max_rounds", async () => {
    const list = json({ action: "continue", tool_call: { name: "list_notes", arguments: {} } });
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [oneStepPlan],
      execute: [list, list],
    });
    const config = { configurable: { thread_id: "budget-config", user_id: "user-1", max_rounds: 1 } };
    await graph.invoke(userMessage("add a note"), config);
    const result = await graph.invoke(accept, config);
    expect(result.roundsUsed).toBe(1);
    expect(models.execute.callCount).toBe(1);
  });

  test("deliver falls back to a mechanical summary when its model fails", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({
      domain,
      plan: [oneStepPlan],
      execute: [addNote("x"), done],
      deliver: [new Error("model unavailable")],
    });
    const config = threadConfig("deliver-fallback");
    await graph.invoke(userMessage("add a note"), config);
    await graph.invoke(accept, config);
    const result = await graph.invoke(accept, config);
    expect(result.finalAnswer).toBe(
      "Task: add a note\n\nFinished 1 of 1 steps:\n\n1. [done] Add the note — the note is listed",
    );
    expect(result.lastError).toContain("The deliver model failed (model unavailable)");
    expect(transcript(result.messages).at(-1)).toBe(`ai:${result.finalAnswer}`);
  });
});

describe("streaming", () => {
  test("the custom stream carries Tempo's event kinds", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({
      domain,
      plan: [oneStepPlan],
      execute: [addNote("x"), done],
      deliver: ["Your note is added, all good."],
    });
    const config = threadConfig("stream");
    const events: TempoEvent[] = [];
    const collect = async (input: Parameters<typeof graph.stream>[0]) => {
      for await (const event of await graph.stream(input, { ...config, streamMode: "custom" }))
        events.push(event as TempoEvent);
    };
    await collect(userMessage("add a note"));
    await collect(accept);
    await collect(accept);
    // Beside Tempo's events, the Generative UI pushes (the status line under the message, `streaming/progress-ui.ts`)
    // travel on the custom stream as the SDK's own ui messages, which Agent Chat UI reads there too.
    const ui = events.filter((event) => (event as { type?: string }).type?.endsWith("ui"));
    expect(ui.length).toBeGreaterThan(0);
    const kinds = new Set(events.filter((event) => !ui.includes(event)).map((event) => event.kind));
    expect([...kinds].sort()).toEqual(["assistant_text", "confirm_request", "status", "tool_call", "tool_result"]);
    const text = events
      .filter((event) => event.kind === "assistant_text" && event.node === "deliver")
      .map((event) => (event as { text: string }).text);
    expect(text.join("")).toBe("Your note is added, all good.");
    expect(text.length).toBeGreaterThan(1);
    expect(events.find((event) => event.kind === "tool_result")).toMatchObject({
      name: "add_note",
      ok: true,
      content: "added note 1: x",
    });
  });
});
