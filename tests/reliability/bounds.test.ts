/**
 * Bounds and types (issue 25 point 6), offline:
 *
 * - the prompt budget holds on message content: after 12 messages of 99 000 characters (the issue saw a 1 196 200
 *   character chat prompt against a 4 000-token budget), and through a whole task on such a message, every prompt
 *   any stage's model is sent is within that stage's budget by the project's own token counter, and the cut is said
 *   (a marker in the prompt, a status in the stream);
 * - a tool call without arguments (`args` undefined) gives no TypeError and no false "completed";
 * - run metadata 100 000 levels deep, or too large, is INVALID_INPUT, not a RangeError.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKFLOW_SETTINGS } from "../../config/configuration.js";
import { TempoError } from "../../errors/index.js";
import { checkRunMetadata } from "../../server/input-check.js";
import { cutMarker, fitPromptToBudget } from "../../memory/compression.js";
import { countMessageTokens, estimateCounter, tiktokenCounter, tokenCounterFor } from "../../memory/tokens.js";
import { buildTaskReport } from "../../nodes/deliver/task-report.js";
import type { TempoEvent } from "../../streaming/events.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { interruptsOf, json, resume, scriptedGraph, threadConfig } from "../support/scripted.js";

const BUDGET = DEFAULT_WORKFLOW_SETTINGS.context.promptBudget;
const CUT = /\[… \d+ characters cut to fit the context budget\]/;

/** 99 000 characters of varied words, numbered so each message differs. */
function longMessage(index: number): string {
  const words = ["review", "calculus", "chapter", "exercise", "Monday", "slot", "English", "essay", "note", "week"];
  let text = `Message ${index}: please keep this in mind. `;
  for (let word = 0; text.length < 99_000; word += 1)
    text += `${words[(word * 7 + index) % words.length]}${word % 13 === 0 ? "." : ""} `;
  return `${text.slice(0, 99_000 - 12)} END-OF-${String(index).padStart(3, "0")}`;
}

/** Each call's prompt tokens by the counter Tempo uses for that model. */
function promptTokens(model: BaseChatModel & { calls: Array<{ messages: BaseMessage[] }> }): number[] {
  return model.calls.map((call) => countMessageTokens(call.messages, tokenCounterFor(model)));
}

function promptText(messages: BaseMessage[]): string {
  return messages.map((message) => String(message.content)).join("\n");
}

describe("the prompt budget holds on message content", () => {
  test("12 messages of 99 000 characters: every chat prompt is within 4 000 tokens, and the cut is said in the prompt and the stream", async () => {
    const chat = Array.from({ length: 12 }, (_, index) =>
      json({ intent: "chat", reply: `Noted ${index}.`, reason: "chat" }),
    );
    const { graph, models } = scriptedGraph({ domain: createNotesDomain({}), chat });
    const config = threadConfig("long-chat");
    const statuses: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      for await (const event of await graph.stream(
        { messages: [new HumanMessage(longMessage(index))] },
        { ...config, streamMode: "custom" },
      )) {
        const typed = event as TempoEvent;
        if (typed.kind === "status") statuses.push(typed.text);
      }
    }
    expect(models.chat.calls).toHaveLength(12);
    const tokens = promptTokens(models.chat);
    for (const used of tokens) expect(used).toBeLessThanOrEqual(BUDGET.chat);
    // Before the bound, the twelfth prompt held every message whole: over a million characters.
    const last = models.chat.calls.at(-1)!.messages;
    expect(promptText(last).length).toBeLessThan(30_000);
    // The latest message is still there by its beginning and its end, the cut between, said.
    expect(promptText(last)).toContain("Message 11: please keep this in mind.");
    expect(promptText(last)).toContain("END-OF-011");
    expect(promptText(last)).toMatch(CUT);
    expect(
      statuses.filter((text) =>
        /too long for the chat model's context budget \(4000 tokens\): \d+ characters of \d+ message\(s\) were cut/.test(
          text,
        ),
      ),
    ).toHaveLength(12);
    // The thread keeps the messages whole: only the prompt is cut.
    const state = await graph.getState(config);
    const kept = (state.values.messages as BaseMessage[]).filter((message) => message.getType() === "human");
    expect(kept.at(-1)!.content).toBe(longMessage(11));
  });

  test("a task on a 99 000-character message: every plan, execute and deliver prompt is within its stage's budget", async () => {
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
    const domain = createNotesDomain({});
    const { graph, models } = scriptedGraph({
      domain,
      plan: [plan, json({ action: "continue", speak: "Going on." })],
      execute: [addNote, done],
      deliver: ["Added the note."],
    });
    const config = threadConfig("long-task");
    const first = await graph.invoke(
      { messages: [new HumanMessage(`Add a note: call mom. ${longMessage(1)}`)] },
      config,
    );
    expect(interruptsOf(first)).toHaveLength(1);
    let result: object = await graph.invoke(resume({ type: "accept", args: null }), config);
    for (let step = 0; step < 3 && interruptsOf(result).length > 0; step += 1)
      result = await graph.invoke(resume({ type: "accept", args: null }), config);
    expect(domain.data.get("user-1")?.notes).toContain("call mom");
    const stages = [
      ["plan", models.plan, BUDGET.plan],
      ["execute", models.execute, BUDGET.execute],
      ["deliver", models.deliver, BUDGET.deliver],
    ] as const;
    for (const [stage, model, budget] of stages) {
      expect(model.calls.length, stage).toBeGreaterThan(0);
      for (const used of promptTokens(model)) expect(used, stage).toBeLessThanOrEqual(budget);
      // The prompt says what of the message it leaves out: cut to the budget, or the goal's own bound.
      expect(promptText(model.calls[0]!.messages), stage).toMatch(
        new RegExp(`${CUT.source}|\\[…\\d+ more characters in your message\\]`),
      );
    }
  });

  test("fitPromptToBudget: within budget by the real tokenizer too; system prompt and tool pairing kept; a prompt within budget is left as it is", () => {
    const messages = [
      new HumanMessage({ id: "h", content: longMessage(3) }),
      new AIMessage({
        id: "a",
        content: "",
        tool_calls: [{ id: "c1", name: "add_note", args: { text: "x" }, type: "tool_call" }],
      }),
      new ToolMessage({ id: "t", content: longMessage(4), tool_call_id: "c1" }),
      new HumanMessage({ id: "i", content: "<instruction>\nDecide.\n</instruction>" }),
    ];
    for (const counter of [estimateCounter, tiktokenCounter]) {
      const fitted = fitPromptToBudget(messages, 2_000, counter);
      expect(fitted.tokens).toBeLessThanOrEqual(2_000);
      expect(countMessageTokens(fitted.messages, counter)).toBe(fitted.tokens);
      expect(fitted.cutMessages).toBe(2);
      expect(fitted.cutCharacters).toBeGreaterThan(180_000);
      expect((fitted.messages[2] as ToolMessage).tool_call_id).toBe("c1");
      expect((fitted.messages[1] as AIMessage).tool_calls?.[0]?.id).toBe("c1");
      expect(fitted.messages[3]).toBe(messages[3]);
      expect(fitted.messages.map((message) => message.id)).toEqual(["h", "a", "t", "i"]);
    }
    const small = [new HumanMessage("hello")];
    expect(fitPromptToBudget(small, 100, estimateCounter)).toEqual({
      messages: small,
      tokens: countMessageTokens(small, estimateCounter),
      cutCharacters: 0,
      cutMessages: 0,
    });
    expect(cutMarker(12)).toBe("[… 12 characters cut to fit the context budget]");
  });
});

describe("a tool call without arguments", () => {
  test("the task report reads a declined call with no args without a TypeError, and does not call the task completed", () => {
    const messages = [
      new HumanMessage({ id: "start", content: "Arrange my reviews" }),
      new AIMessage({
        id: "a1",
        content: "Placing rev-1.",
        tool_calls: [
          { id: "call-1", name: "place", args: undefined as unknown as Record<string, unknown>, type: "tool_call" },
        ],
      }),
      new ToolMessage({ id: "t1", content: "Not applied: the user rejected this change.", tool_call_id: "call-1" }),
    ];
    const open = [{ id: "rev-1", name: "Calculus review 1" }];
    const report = buildTaskReport(
      {
        goal: "Arrange my reviews",
        planSteps: [{ id: "1", content: "Place", doneWhen: "placed", status: "done" }],
        lastError: null,
        messages,
        taskStartMessageId: "start",
      },
      open,
      open,
    );
    expect(report.outcome.kind).toBe("partial");
    expect(report.stillOpen).toEqual([{ id: "rev-1", name: "Calculus review 1", why: "this task did not get to it" }]);
  });

  test("a scripted model calling add_note with no args: no TypeError; nothing added and the answer does not say completed", async () => {
    const plan = json({
      speak: "Plan ready.",
      action: "plan_done",
      plan_steps: [{ content: "Add the note", done_when: "the note is listed" }],
    });
    const noArgs = new AIMessage({
      content: "",
      tool_calls: [
        { id: "call-none", name: "add_note", args: undefined as unknown as Record<string, unknown>, type: "tool_call" },
      ],
    });
    const domain = createNotesDomain({});
    const { graph } = scriptedGraph({
      domain,
      plan: [plan],
      execute: [noArgs, noArgs, noArgs, noArgs],
      deliver: ["The note could not be added."],
    });
    const config = threadConfig("no-args");
    let result: object = await graph.invoke({ messages: [new HumanMessage("Add a note: call mom")] }, config);
    for (let step = 0; step < 4 && interruptsOf(result).length > 0; step += 1)
      result = await graph.invoke(resume({ type: "accept", args: null }), config);
    const state = await graph.getState(config);
    expect(domain.data.get("user-1")?.notes ?? []).toEqual([]);
    expect(state.values.outcome?.kind).not.toBe("completed");
    expect(state.values.lastError ?? "").not.toMatch(/TypeError/);
    const answer = (state.values.messages as BaseMessage[]).at(-1)!;
    expect(answer.getType()).toBe("ai");
    expect(String(answer.content)).not.toMatch(/TypeError|Cannot read properties/);
  });
});

describe("run metadata is bounded", () => {
  const settings = DEFAULT_WORKFLOW_SETTINGS;

  test("100 000 levels deep: INVALID_INPUT naming the depth limit, not a RangeError", () => {
    const root: Record<string, unknown> = {};
    let deep = root;
    for (let level = 0; level < 100_000; level += 1) {
      const next: Record<string, unknown> = {};
      deep.a = next;
      deep = next;
    }
    const thrown = (() => {
      try {
        checkRunMetadata({ deep: root }, settings);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(TempoError);
    expect(thrown).toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/^The run metadata nests deeper than 64 levels .*send flat metadata/),
    });
  });

  test("sent with a run, 100 000-deep metadata is refused at admission (INVALID_INPUT) and the thread is left as it was", async () => {
    const { graph } = scriptedGraph({
      domain: createNotesDomain(),
      chat: [json({ intent: "chat", reply: "Hello!", reason: "greeting" })],
    });
    const config = threadConfig("deep-metadata");
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let level = 0; level < 100_000; level += 1) deep = (deep.a = {}) as Record<string, unknown>;
    await expect(
      graph.invoke({ messages: [new HumanMessage("hello")] }, { ...config, metadata: { deep: root } }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect((await graph.getState(config)).createdAt).toBeUndefined();
    const answered = await graph.invoke({ messages: [new HumanMessage("hello")] }, config);
    expect(String(answered.messages.at(-1)?.content)).toBe("Hello!");
  });

  test("a cycle, an oversized value, unstorable text: INVALID_INPUT; ordinary metadata passes", () => {
    const cyclic: Record<string, unknown> = { name: "x" };
    cyclic.self = cyclic;
    expect(() => checkRunMetadata(cyclic, settings)).toThrow(/nests deeper than 64 levels/);
    expect(() => checkRunMetadata({ blob: "z".repeat(settings.maxInputCharacters + 1) }, settings)).toThrow(
      /The run metadata has more than 200000 characters/,
    );
    expect(() => checkRunMetadata({ items: Array.from({ length: 300_000 }, () => 1) }, settings)).toThrow(
      /more than 200000 characters/,
    );
    expect(() => checkRunMetadata({ note: "a\u0000b" }, settings)).toThrow(/a NUL character .* at metadata\.note/);
    expect(() =>
      checkRunMetadata(
        { owner: "user-1", langgraph_auth_user: { identity: "user-1", permissions: ["read"] }, tags: ["a", "b"], n: 3 },
        settings,
      ),
    ).not.toThrow();
    expect(() => checkRunMetadata(undefined, settings)).not.toThrow();
  });
});
