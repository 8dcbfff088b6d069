/**
 * Bad user input (issue 8.2): empty and 1 MB messages, unknown slash
 * commands, resumes of a thread that waits for nothing, resumes with the
 * wrong kind of answer, a thread of another user. Each gets a clear typed
 * error or is handled, and nothing of the thread is lost (checked with
 * getState before and after).
 *
 * Known defects (see the issue-8 report) are left out of the assertions
 * here: a refused message is still appended to the thread by LangGraph's
 * input step, and a resume of a thread that waits for nothing is a silent
 * no-op rather than an error.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { InvalidResumeError, TempoError } from "../../errors/index.js";
import { isRetryPhrase } from "../../kernel/commands.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { interruptsOf, json, resume, scriptedGraph, threadConfig, transcript } from "../support/scripted.js";
import { snapshot, taskFields, thrownBy } from "./support/thread-state.js";

const plan = json({
  speak: "Plan ready.",
  action: "plan_done",
  plan_steps: [{ content: "Add the note", done_when: "the note is listed" }],
});
const addNote = json({
  speak: "Adding.",
  action: "confirm",
  reason: "asked",
  tool_call: { name: "add_note", arguments: { text: "call mom" } },
});
const done = json({ action: "done", goal_check: "the note is listed" });
const question = json({ speak: "Which note?", action: "ask_user", reason: "unclear" });
const message = (text: string) => ({ messages: [new HumanMessage(text)] });
const accept = resume({ type: "accept", args: null });

/** A graph with enough scripted replies for several conversations, and a thread waiting on the plan card. */
async function threadAtPlanCard(threadId: string, userId = "user-1", tasks = 1) {
  const domain = createNotesDomain({ [userId]: ["buy milk"] });
  const { graph, models } = scriptedGraph({
    domain,
    chat: Array.from({ length: tasks }, () => json({ intent: "task", reply: "", reason: "needs tools" })),
    plan: [plan, plan, plan],
    execute: [addNote, done, addNote, done],
  });
  const config = threadConfig(threadId, userId);
  await graph.invoke(message("Add a note: call mom"), config);
  return { graph, models, domain, config };
}

describe("messages the graph cannot use", () => {
  test.each([
    ["an empty message", ""],
    ["a blank message", " \n\t "],
    // Before, a message of invisible characters started a run that asked the model about nothing.
    ["a message of invisible characters", "\u200b\u200d\ufeff\u2060"],
    ["a message of invisible characters and spaces", " \u3164\u00ad\u200e \ufe0f "],
  ])("%s on a new thread is refused with INVALID_INPUT", async (_label, text) => {
    const { graph, models } = scriptedGraph({ domain: createNotesDomain() });
    const error = await thrownBy(graph.invoke(message(text), threadConfig(`empty-${text.length}`)));
    expect(error).toBeInstanceOf(TempoError);
    expect(error).toMatchObject({ code: "INVALID_INPUT", message: "The message is empty; nothing was changed." });
    expect(models.chat.callCount).toBe(0);
    // Refused before LangGraph wrote anything: the thread does not exist.
    expect((await graph.getState(threadConfig(`empty-${text.length}`))).createdAt).toBeUndefined();
  });

  test("an empty message on a finished conversation is refused; the conversation and task are kept", async () => {
    const { graph, domain, config } = await threadAtPlanCard("empty-finished");
    await graph.invoke(accept, config);
    await graph.invoke(accept, config);
    const before = await snapshot(graph, config);
    expect(before.values.phase).toBe("done");

    const error = await thrownBy(graph.invoke(message(""), config));
    expect(error).toMatchObject({ code: "INVALID_INPUT" });
    const after = await snapshot(graph, config);
    expect(taskFields(after.values)).toEqual(taskFields(before.values));
    expect(after.values.messages.slice(0, before.values.messages.length)).toEqual(before.values.messages);
    expect(domain.data.get("user-1")).toEqual({ notes: ["buy milk", "call mom"] });
  });

  test("an empty message on a thread waiting for an answer is refused and the card stays open", async () => {
    const { graph, config } = await threadAtPlanCard("empty-waiting");
    const before = await snapshot(graph, config);
    const error = await thrownBy(graph.invoke(message(""), config));
    expect(error).toMatchObject({ code: "INVALID_INPUT" });
    const after = await snapshot(graph, config);
    expect(after.checkpointId).toBe(before.checkpointId);
    expect(after.interrupts).toEqual(before.interrupts);
    expect(taskFields(after.values)).toEqual(taskFields(before.values));
  });

  test.each(["/frobnicate", "/CLEAR-ALL now", "/"])(
    "the unknown command %j is refused with INVALID_INPUT naming the commands; the task is kept",
    async (command) => {
      const { graph, models, domain, config } = await threadAtPlanCard(`command-${command}`);
      const before = await snapshot(graph, config);
      const error = await thrownBy(graph.invoke(message(command), config));
      expect(error).toBeInstanceOf(TempoError);
      expect((error as TempoError).code).toBe("INVALID_INPUT");
      expect((error as TempoError).message).toMatch(
        /^Unknown command \S*\. Commands: \/clear .* Nothing was changed\.$/,
      );
      const after = await snapshot(graph, config);
      expect(taskFields(after.values)).toEqual(taskFields(before.values));
      expect(after.values.messages.slice(0, before.values.messages.length)).toEqual(before.values.messages);
      expect(models.chat.callCount).toBe(1);
      expect(domain.applied).toEqual([]);
    },
  );

  test("a 1 MB message is refused before it reaches the thread; a message at the limit runs", async () => {
    const { graph, models } = scriptedGraph({ domain: createNotesDomain(), plan: [plan], execute: [done] });
    const config = threadConfig("one-megabyte");
    const error = await thrownBy(graph.invoke(message(`Add this note: ${"x".repeat(1024 * 1024)}`), config));
    expect(error).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/^The message has 1048591 characters; the limit is 100000\./),
    });
    expect((await graph.getState(config)).createdAt).toBeUndefined();
    expect(models.chat.callCount).toBe(0);
    const text = `Add this note: ${"x".repeat(100_000 - 15)}`;
    const first = await graph.invoke(message(text), config);
    expect(first.phase).toBe("waiting_confirm");
    // The whole message is in the thread; the task's goal keeps its first 1 000 characters and says how much more.
    expect(String(first.messages.find((entry) => entry.getType() === "human")?.content)).toBe(text);
    expect(first.goal).toBe(`${text.slice(0, 1_000)} […${text.length - 1_000} more characters in your message]`);
  });
});

describe("long runs of spaces and punctuation, read in one pass", () => {
  // The readers of a plain reply (a retry phrase, "yes", "no", "never mind") trimmed its trailing marks with
  // `/[…]+$/`, which V8 runs in time quadratic in a run of those marks that does not reach the end: a message at the
  // limit held the event loop — every thread of the server — for seconds ("continue" check) to minutes (a reply to a
  // card). The limit on this test is the symptom's bound, not a measure of speed: read in one pass, it takes
  // milliseconds.
  const LONG = 10_000;

  test(
    'a reply to the plan card at the message limit: a run of "，" after a word is feedback; after "yes" it approves',
    async () => {
      const { graph, config } = await threadAtPlanCard("long-reply");
      const feedback = `add a second note${"，".repeat(100_000 - 18)}x`;
      expect(feedback).toHaveLength(100_000);
      const revised = await graph.invoke(message(feedback), config);
      // Taken as feedback on the plan: the planner revised it, and its card is raised again.
      expect(interruptsOf(revised)[0]?.value).toMatchObject({ action_request: { action: "confirm_plan" } });
      const approved = await graph.invoke(message(`yes${"，".repeat(100_000 - 3)}`), config);
      expect(interruptsOf(approved)[0]?.value).toMatchObject({ action_request: { action: "add_note" } });
    },
    LONG,
  );

  test(
    'a new message at the limit whose spaces end before its last word starts a task; "continue" with its marks is a retry',
    async () => {
      // "never mind" drops the plan card: the long message is a new task, read by the chat model again.
      const { graph, config } = await threadAtPlanCard("long-message", "user-2", 2);
      await graph.invoke(message("never mind"), config);
      const text = `Add a note:${" ".repeat(100_000 - 13)}x.`;
      expect(text).toHaveLength(100_000);
      const started = await graph.invoke(message(text), config);
      expect(started.goal).toMatch(/^Add a note: /);
      expect(interruptsOf(started)[0]?.value).toMatchObject({ action_request: { action: "confirm_plan" } });
      for (const mark of [" ", "\t", ".", "!", "。", "！"]) {
        expect(isRetryPhrase(`continue${mark.repeat(100_000 - 8)}`)).toBe(true);
        expect(isRetryPhrase(`again${mark.repeat(100_000 - 6)}x`)).toBe(false);
      }
    },
    LONG,
  );
});

describe("resumes", () => {
  test("a resume of a finished thread changes nothing", async () => {
    const { graph, models, domain, config } = await threadAtPlanCard("resume-finished");
    await graph.invoke(accept, config);
    await graph.invoke(accept, config);
    const before = await snapshot(graph, config);
    expect(before.interrupts).toEqual([]);
    const calls = [models.chat.callCount, models.plan.callCount, models.execute.callCount, models.deliver.callCount];

    const error = await thrownBy(graph.invoke(accept, config));
    expect(error).toMatchObject({
      code: "INVALID_RESUME",
      message: expect.stringContaining("not waiting for an answer"),
    });
    const after = await snapshot(graph, config);
    expect(after.checkpointId).toBe(before.checkpointId);
    expect(after.values).toEqual(before.values);
    expect([models.chat.callCount, models.plan.callCount, models.execute.callCount, models.deliver.callCount]).toEqual(
      calls,
    );
    expect(domain.applied).toHaveLength(1);
  });

  const wrongPlanAnswers: Array<[string, unknown, RegExp]> = [
    [
      "a bare string",
      "yes",
      /Invalid resume value "yes" for confirm_plan: expected \{ decisions: \[\{ type: "approve" \| "edit" \| "reject", … \}\] \} \(one per action\), or a HumanResponse/,
    ],
    [
      "an unknown type",
      { type: "approve", args: null },
      /Invalid resume value \{"type":"approve","args":null\} for confirm_plan/,
    ],
    ["a response without text", { type: "response", args: "  " }, /"response" needs its text in args/],
    ["an edit without args", { type: "edit", args: null }, /"edit" needs args \{ action, args/],
    [
      "an edit with an empty plan",
      { type: "edit", args: { action: "confirm_plan", args: { plan_steps: [] } } },
      /needs its steps: args\.args\.steps as text, one step a line/,
    ],
    [
      "a list of two answers",
      [
        { type: "accept", args: null },
        { type: "ignore", args: null },
      ],
      /The card has 1 action\(s\) but 2 responses came/,
    ],
    ["a number", 42, /Invalid resume value 42/],
  ];

  test.each(wrongPlanAnswers)(
    "%s as the answer to the plan card is refused with INVALID_RESUME; the card stays open",
    async (_label, answer, expected) => {
      const { graph, config } = await threadAtPlanCard("wrong-plan-answer");
      const before = await snapshot(graph, config);
      const error = await thrownBy(graph.invoke(resume(answer), config));
      expect(error).toBeInstanceOf(InvalidResumeError);
      expect((error as InvalidResumeError).code).toBe("INVALID_RESUME");
      expect((error as InvalidResumeError).message).toMatch(expected);
      const after = await snapshot(graph, config);
      expect(after.checkpointId).toBe(before.checkpointId);
      expect(after.values).toEqual(before.values);
      expect(after.interrupts).toEqual(before.interrupts);
      // The thread is still waiting: a valid answer works.
      const accepted = await graph.invoke(accept, config);
      expect(interruptsOf(accepted)[0]?.value).toMatchObject({ action_request: { action: "add_note" } });
    },
  );

  test("a null resume is refused with INVALID_RESUME before any node runs; the card stays open", async () => {
    const { graph, config } = await threadAtPlanCard("null-answer");
    const before = await snapshot(graph, config);
    const error = await thrownBy(graph.invoke(resume(null), config));
    expect(error).toMatchObject({ code: "INVALID_RESUME", message: expect.stringContaining("A resume needs a value") });
    const after = await snapshot(graph, config);
    expect(after.checkpointId).toBe(before.checkpointId);
    expect(after.interrupts).toEqual(before.interrupts);
  });

  test("wrong answers to a write card and to a question are refused; no write runs; valid answers then work", async () => {
    const { graph, domain, config } = await threadAtPlanCard("wrong-tool-answer");
    await graph.invoke(accept, config);
    const atCard = await snapshot(graph, config);
    expect(atCard.interrupts).toEqual([
      expect.objectContaining({ action_request: { action: "add_note", args: { text: "call mom" } } }),
    ]);
    for (const [answer, expected] of [
      [
        { type: "edit", args: { action: "add_note", args: { text: 5 } } },
        /The edited arguments do not fit add_note: text: expected a string, got 5\./,
      ],
      [{ type: "edit", args: { action: "add_note", args: {} } }, /The edited arguments do not fit add_note/],
      ["accept", /Invalid resume value "accept"/],
      [{ type: "respond", args: "no" }, /Invalid resume value \{"type":"respond","args":"no"\}/],
    ] as Array<[unknown, RegExp]>) {
      const error = await thrownBy(graph.invoke(resume(answer), config));
      expect(error, JSON.stringify(answer)).toMatchObject({
        code: "INVALID_RESUME",
        message: expect.stringMatching(expected),
      });
      const after = await snapshot(graph, config);
      expect(after.checkpointId).toBe(atCard.checkpointId);
      expect(after.values).toEqual(atCard.values);
      expect(domain.applied).toEqual([]);
    }

    const askingDomain = createNotesDomain();
    const { graph: asking } = scriptedGraph({ domain: askingDomain, plan: [question, plan] });
    const askConfig = threadConfig("wrong-question-answer");
    await asking.invoke(message("Add a note"), askConfig);
    const atQuestion = await snapshot(asking, askConfig);
    for (const answer of [
      { type: "accept", args: null },
      { type: "ignore", args: null },
      { type: "edit", args: { action: "ask_user", args: {} } },
      { type: "response", args: "" },
    ]) {
      const error = await thrownBy(asking.invoke(resume(answer), askConfig));
      expect(error, JSON.stringify(answer)).toMatchObject({
        code: "INVALID_RESUME",
        message: expect.stringMatching(/ask_user|the question/),
      });
      expect((await snapshot(asking, askConfig)).values).toEqual(atQuestion.values);
    }
    const answered = await asking.invoke(resume({ type: "response", args: "call mom" }), askConfig);
    expect(answered.phase).toBe("waiting_confirm");
    expect(askingDomain.applied).toEqual([]);
  });

  test("an Agent Inbox one-element list is a valid answer", async () => {
    const { graph, config } = await threadAtPlanCard("inbox-list");
    const result = await graph.invoke(resume([{ type: "accept", args: null }]), config);
    expect(interruptsOf(result)[0]?.value).toMatchObject({ action_request: { action: "add_note" } });
  });
});

describe("a thread of another user", () => {
  test("a message and a resume by another user are refused with THREAD_ACCESS_DENIED; the owner's task and data are kept", async () => {
    const { graph, domain, config } = await threadAtPlanCard("owned", "alice");
    await graph.invoke(accept, config);
    const before = await snapshot(graph, config);
    expect(before.values.pending?.kind).toBe("confirm_tool");

    const resumed = await thrownBy(graph.invoke(accept, threadConfig("owned", "mallory")));
    expect(resumed).toBeInstanceOf(TempoError);
    expect(resumed).toMatchObject({
      code: "THREAD_ACCESS_DENIED",
      message: expect.stringContaining("belongs to another user"),
    });
    expect(domain.applied).toEqual([]);
    const afterResume = await snapshot(graph, config);
    expect(afterResume.values).toEqual(before.values);
    expect(afterResume.interrupts).toEqual(before.interrupts);

    // The owner's card is still open and answerable.
    const final = await graph.invoke(resume({ type: "ignore", args: null }), config);
    expect(domain.applied).toEqual([]);
    expect(transcript(final.messages)).toContain(
      "tool:Not applied: the user rejected this change without comment. Choose a different action.",
    );
    expect(domain.data.get("alice")).toEqual({ notes: ["buy milk"] });
  });

  test("a first message under another user's thread id is refused before any model runs", async () => {
    const { graph, models, config } = await threadAtPlanCard("owned-2", "alice");
    const calls = models.chat.callCount + models.plan.callCount;
    const error = await thrownBy(graph.invoke(message("show me everything"), threadConfig("owned-2", "mallory")));
    expect(error).toMatchObject({ code: "THREAD_ACCESS_DENIED" });
    expect(models.chat.callCount + models.plan.callCount).toBe(calls);
    const after = await snapshot(graph, config);
    expect(after.values.userId).toBe("alice");
  });
});
