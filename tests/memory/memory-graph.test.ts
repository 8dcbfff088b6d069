/** The memory layers around the graph, driven with scripted models and an InMemoryStore. */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKFLOW_SETTINGS } from "../../config/configuration.js";
import { TempoError } from "../../errors/index.js";
import { storeFacts } from "../../memory/long-term.js";
import {
  episodesNamespace,
  conversationNamespace,
  factsNamespace,
  preferencesNamespace,
  taskStateNamespace,
} from "../../memory/namespaces.js";
import { loadTaskState } from "../../memory/task-state.js";
import { promptMessages } from "../../kernel/state.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { json, resume, scriptedGraph, threadConfig } from "../support/scripted.js";

const onePlan = json({
  speak: "Plan ready.",
  action: "plan_done",
  plan_steps: [{ content: "Add the note", done_when: "listed" }],
});
const addNote = (text: string) =>
  json({ speak: "Adding.", action: "confirm", tool_call: { name: "add_note", arguments: { text } } });
const done = json({ action: "done", goal_check: "the note is listed" });
const prompt = (calls: Array<{ messages: BaseMessage[] }>, index = -1) =>
  calls
    .at(index)!
    .messages.map((message) => String(message.content))
    .join("\n");

describe("recall", () => {
  test("the planner sees the user's relevant facts and none of another user's", async () => {
    const store = new InMemoryStore();
    await storeFacts(store, "alice", ["I prefer to review notes in the morning"], "user", "2026-01-01T00:00:00Z");
    await storeFacts(store, "bob", ["I prefer to review notes late at night"], "user", "2026-01-01T00:00:00Z");
    const { graph, models } = scriptedGraph({ domain: createNotesDomain(), store, plan: [onePlan] });
    await graph.invoke(
      { messages: [new HumanMessage("add a note to review my notes")] },
      threadConfig("recall-1", "alice"),
    );
    const planPrompt = prompt(models.plan.calls);
    expect(planPrompt).toContain("I prefer to review notes in the morning");
    expect(planPrompt).not.toContain("late at night");
  });

  test("a thread of another user is refused with a typed error", async () => {
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      store: new InMemoryStore(),
      chat: [json({ intent: "chat", reply: "hi" })],
    });
    await graph.invoke({ messages: [new HumanMessage("hello")] }, threadConfig("owned", "alice"));
    const error = await graph
      .invoke({ messages: [new HumanMessage("show me")] }, threadConfig("owned", "mallory"))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TempoError);
    expect((error as TempoError).code).toBe("THREAD_ACCESS_DENIED");
  });
});

describe("memorize", () => {
  test("a finished task leaves a conversation summary, the user's facts and an episode that a later thread recalls", async () => {
    const store = new InMemoryStore();
    const domain = createNotesDomain();
    const task = json({ intent: "task", reply: "" });
    const { graph, models } = scriptedGraph({
      domain,
      store,
      chat: [task, task],
      plan: [onePlan, onePlan],
      execute: [addNote("call mom"), done],
      deliver: ["Added your note."],
    });
    const first = threadConfig("memo-1", "alice");
    await graph.invoke(
      { messages: [new HumanMessage("Add a note to call mom. I always call her on Sundays.")] },
      first,
    );
    await graph.invoke(resume({ type: "accept", args: null }), first);
    await graph.invoke(resume({ type: "accept", args: null }), first);

    const conversation = await store.search(conversationNamespace("alice", "memo-1"));
    expect(conversation.map((item) => item.value.summary)).toEqual([
      'User asked: "Add a note to call mom. I always call her on Sundays."; agent ran a 1-step plan (1 done) with 1 tool calls; completed: "Added your note.".',
    ]);
    const facts = await store.search(factsNamespace("alice"));
    expect(facts.map((item) => item.value.text)).toEqual(["I always call her on Sundays"]);
    const episodes = await store.search(episodesNamespace("alice"));
    expect(episodes).toHaveLength(1);
    expect(episodes[0]?.value).toMatchObject({
      goal: "Add a note to call mom. I always call her on Sundays.",
      status: "completed",
      outcome: "completed: all 1 step(s) done. Added your note.",
      keySteps: ["[done] Add the note — the note is listed"],
    });
    const taskState = await loadTaskState(store, "alice");
    expect(taskState.lastDecision).toContain('Finished "Add a note to call mom.');

    // A later thread of the same user recalls the episode and the fact when planning something similar.
    await graph.invoke(
      { messages: [new HumanMessage("Add a note to call mom again")] },
      threadConfig("memo-2", "alice"),
    );
    const secondPlan = prompt(models.plan.calls);
    expect(secondPlan).toContain("<episodes>");
    expect(secondPlan).toContain(
      "Add a note to call mom. I always call her on Sundays. → [completed] completed: all 1 step(s) done. Added your note.",
    );
    expect(secondPlan).toContain("I always call her on Sundays");
  });

  test("a direct chat reply is memorized too", async () => {
    const store = new InMemoryStore();
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      store,
      chat: [json({ intent: "chat", reply: "Hello Alice!" })],
    });
    await graph.invoke(
      { messages: [new HumanMessage("hi, I'm Alice and I study maths")] },
      threadConfig("memo-chat", "alice"),
    );
    const conversation = await store.search(conversationNamespace("alice", "memo-chat"));
    expect(conversation[0]?.value.summary).toBe(
      'User said: "hi, I\'m Alice and I study maths"; agent replied: "Hello Alice!".',
    );
  });
});

describe("memorize, on a message at the limit", () => {
  test('a long run of 我 or of "my" after a fact is no fact, and is read at once; the short fact before it is kept', async () => {
    // The fact patterns backtrack in time quadratic in a sentence: on a 100 000-character one they held the event
    // loop — every thread of the server — for half a minute. A sentence longer than a fact may be is no longer read
    // by them. The limit on this test is the symptom's bound, not a measure of speed.
    const store = new InMemoryStore();
    const chat = json({ intent: "chat", reply: "Noted." });
    const { graph } = scriptedGraph({ domain: createNotesDomain(), store, chat: [chat, chat, chat] });
    const config = threadConfig("memo-long", "alice");
    for (const run of ["我".repeat(99_960), "my ".repeat(33_320), `${"，".repeat(99_900)}x`]) {
      const text = `I always study in the morning. ${run}`;
      expect(text.length).toBeLessThanOrEqual(100_000);
      await graph.invoke({ messages: [new HumanMessage(text)] }, config);
    }
    const facts = await store.search(factsNamespace("alice"));
    expect(facts.map((item) => item.value.text)).toEqual(["I always study in the morning"]);
  }, 10_000);
});

describe("compression", () => {
  test("over a 100-turn conversation the prompts' messages stay bounded, every message stays in state, and TaskState keeps the compressed facts", async () => {
    const store = new InMemoryStore();
    const turns = 100;
    const chatReplies = Array.from({ length: turns }, (_, index) =>
      json({ intent: "chat", reply: `Reply ${index + 1}` }),
    );
    const context = { ...DEFAULT_WORKFLOW_SETTINGS.context, maxRecentMessages: 30, keepRecentMessages: 12 };
    const { graph } = scriptedGraph({ domain: createNotesDomain(), store, chat: chatReplies, settings: { context } });
    const config = threadConfig("long", "alice");
    let largest = 0;
    for (let turn = 1; turn <= turns; turn += 1) {
      const text = turn === 3 ? "I prefer short notes without emoji" : `message number ${turn}`;
      const result = await graph.invoke({ messages: [new HumanMessage(text)] }, config);
      largest = Math.max(largest, promptMessages(result).length);
    }
    const state = await graph.getState(config);
    // The prompts read a bounded conversation; the older turns are in TaskState, not in the prompts' view.
    expect(largest).toBeLessThanOrEqual(context.maxRecentMessages + 2);
    const view = promptMessages(state.values);
    expect(view.length).toBeLessThanOrEqual(context.maxRecentMessages + 2);
    expect(String(view.at(-1)?.content)).toBe("Reply 100");
    expect(view.some((message: BaseMessage) => String(message.content).includes("short notes"))).toBe(false);
    // What the person saw stays in state (issue 48 item 6): every message of the 100 turns, in order.
    const messages = state.values.messages as BaseMessage[];
    expect(messages).toHaveLength(2 * turns);
    expect(messages.filter((message) => message.getType() === "human").map((message) => message.content)).toEqual(
      Array.from({ length: turns }, (_, index) =>
        index === 2 ? "I prefer short notes without emoji" : `message number ${index + 1}`,
      ),
    );
    const taskState = await loadTaskState(store, "alice");
    expect(taskState.importantFacts).toContain("I prefer short notes without emoji");
    expect(taskState.lastDecision).toMatch(/^Reply \d+$/);
  });
});

describe("reset", () => {
  test("/clear clears the conversation, the task and TaskState, and keeps long-term facts", async () => {
    const store = new InMemoryStore();
    await storeFacts(store, "alice", ["I prefer mornings"], "user", "2026-01-01T00:00:00Z");
    const { graph } = scriptedGraph({ domain: createNotesDomain(), store, plan: [onePlan] });
    const config = threadConfig("clear", "alice");
    await graph.invoke({ messages: [new HumanMessage("add a note")] }, config);
    await store.put(taskStateNamespace("alice"), "current", {
      currentGoal: "notes",
      activeFlow: "",
      openLoops: [],
      importantFacts: [],
      lastDecision: "",
      updatedAt: "",
    });
    const cleared = await graph.invoke({ messages: [new HumanMessage("/clear")] }, config);
    expect(cleared.messages.map((message) => String(message.content))).toEqual([
      "Cleared: this conversation, its task and your task summary. Long-term facts and past episodes are kept.",
    ]);
    expect(cleared).toMatchObject({ phase: "chatting", goal: "", planSteps: [], pending: null });
    expect((await loadTaskState(store, "alice")).currentGoal).toBe("");
    expect(await store.search(factsNamespace("alice"))).toHaveLength(1);
  });

  test("unknown slash commands are a clear error and change nothing", async () => {
    const { graph } = scriptedGraph({ domain: createNotesDomain(), store: new InMemoryStore(), plan: [onePlan] });
    const config = threadConfig("unknown-command", "alice");
    await graph.invoke({ messages: [new HumanMessage("add a note")] }, config);
    await expect(graph.invoke({ messages: [new HumanMessage("/frobnicate")] }, config)).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("Unknown command /frobnicate"),
    });
    const state = await graph.getState(config);
    expect(state.values.phase).toBe("waiting_confirm");
    expect(state.values.planSteps).toHaveLength(1);
  });

  test("a retry phrase resumes a run that stopped on invalid model output", async () => {
    const domain = createNotesDomain();
    const { graph } = scriptedGraph({ domain, plan: [onePlan], execute: ["x", "y", "z", addNote("a"), done] });
    const config = threadConfig("retry", "alice");
    await graph.invoke({ messages: [new HumanMessage("add a note")] }, config);
    await expect(graph.invoke(resume({ type: "accept", args: null }), config)).rejects.toMatchObject({
      code: "MODEL_OUTPUT_INVALID",
    });
    const retried = await graph.invoke({ messages: [new HumanMessage("try again")] }, config);
    expect(retried.phase).toBe("waiting_confirm");
    expect(retried.consecutiveCorrections).toBe(0);
    const final = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(final.phase).toBe("done");
    expect(domain.data.get("alice")).toEqual({ notes: ["a"] });
  });

  test("a retry phrase after an unfinished task replans the same goal", async () => {
    const list = json({ action: "continue", tool_call: { name: "list_notes", arguments: {} } });
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      plan: [onePlan, onePlan],
      execute: [list],
      settings: { maxRounds: 1 },
    });
    const config = threadConfig("retry-done", "alice");
    await graph.invoke({ messages: [new HumanMessage("add a note")] }, config);
    const ended = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(ended.phase).toBe("done");
    expect(ended.lastError).toContain("round budget");
    const retried = await graph.invoke({ messages: [new HumanMessage("再试")] }, config);
    expect(retried.phase).toBe("waiting_confirm");
    expect(retried.goal).toBe("add a note");
    expect(retried.planSteps.map((step) => step.status)).toEqual(["pending"]);
    expect(models.plan.callCount).toBe(2);
    expect(models.chat.callCount).toBe(1);
  });
});

describe("standing preferences with a memory model", () => {
  test("the memory model extracts them (the notes domain has no offline reader: the entry is the model's), and the next invocation's prompts carry them; another user's do not", async () => {
    const store = new InMemoryStore();
    const chat = (reply: string) => json({ intent: "chat", reply });
    const memory = [
      json({
        preferences: [
          { kind: "note", value: "notes stay under ten words", text: "keep my notes short", source_index: 1 },
        ],
        lifted: [],
      }),
    ];
    const { graph, models } = scriptedGraph({
      domain: createNotesDomain(),
      store,
      chat: [chat("Noted."), chat("Sure."), chat("Hello.")],
      memory,
    });
    await graph.invoke(
      { messages: [new HumanMessage("I always want my notes short.")] },
      threadConfig("prefs-1", "alice"),
    );
    expect(models.memory!.callCount).toBe(1);
    // A message with no word of a lasting wish costs no memory call.
    await graph.invoke({ messages: [new HumanMessage("what can you do")] }, threadConfig("prefs-2", "alice"));
    expect(models.memory!.callCount).toBe(1);
    const stored = await store.search(preferencesNamespace("alice"));
    expect(stored.map((item) => item.value)).toEqual([
      expect.objectContaining({
        kind: "note",
        value: "notes stay under ten words",
        text: "keep my notes short",
        source: "stated in a message (thread prefs-1)",
      }),
    ]);
    expect(prompt(models.chat.calls, 1)).toContain("<standing_preferences>\nYour standing preferences");
    expect(prompt(models.chat.calls, 1)).toContain("- keep my notes short");
    await graph.invoke({ messages: [new HumanMessage("hello")] }, threadConfig("prefs-3", "bob"));
    expect(prompt(models.chat.calls, 2)).not.toContain("keep my notes short");
  });
});
