/**
 * Durability by run kind: the answer to a plan card or a question is saved once, when it ends (a kill leaves the
 * card open, its answer recorded); every other run saves every step; a caller's own choice wins.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command, type StateSnapshot } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { durabilityFor, savesInputFirst, withDurability } from "../../server/run-options.js";

const message = { messages: [new HumanMessage("hello")] };
const answer = new Command({ resume: { type: "accept", args: null } });

function thread(values: Record<string, unknown>, waitingOn?: string, next: string[] = []): StateSnapshot {
  const interrupts = waitingOn ? [{ id: "i", value: { kind: waitingOn } }] : [];
  const tasks = waitingOn || next.length > 0 ? [{ id: "t", name: next[0] ?? "confirm", interrupts }] : [];
  return {
    values,
    next,
    tasks,
    config: {},
    metadata: undefined,
    createdAt: undefined,
    parentConfig: undefined,
  } as unknown as StateSnapshot;
}

describe("durabilityFor", () => {
  test("the answer to a plan card or a question is saved once; a new message on an idle thread saves every step (a kill never loses it)", () => {
    expect(durabilityFor(message, thread({ phase: "chatting", pending: null }))).toBeUndefined();
    expect(durabilityFor(message, thread({ phase: "done", pending: null }))).toBeUndefined();
    expect(
      durabilityFor(answer, thread({ phase: "waiting_confirm", pending: { kind: "confirm_plan" } }, "confirm_plan")),
    ).toBe("exit");
    expect(durabilityFor(answer, thread({ phase: "waiting_user", pending: { kind: "ask_user" } }, "ask_user"))).toBe(
      "exit",
    );
    // A plain message taken as the answer to the plan card.
    expect(
      durabilityFor(message, thread({ phase: "waiting_confirm", pending: { kind: "confirm_plan" } }, "confirm_plan")),
    ).toBe("exit");
  });

  test("the answer to a write card, a message on a task under way, and anything unknown save every step", () => {
    const writeCard = thread(
      { phase: "waiting_confirm", pending: { kind: "confirm_tool", tools: [] } },
      "confirm_tool",
    );
    expect(durabilityFor(answer, writeCard)).toBeUndefined();
    expect(durabilityFor(message, writeCard)).toBeUndefined();
    // The card's kind from either place: a pending write with no interrupt yet, an interrupt of unknown kind.
    expect(
      durabilityFor(answer, thread({ phase: "waiting_confirm", pending: { kind: "confirm_tool", tools: [] } })),
    ).toBeUndefined();
    expect(
      durabilityFor(answer, thread({ phase: "waiting_confirm", pending: null }, "something_else")),
    ).toBeUndefined();
    expect(durabilityFor(message, thread({ phase: "executing", pending: null }))).toBeUndefined();
    expect(durabilityFor(message, thread({ phase: "planning", pending: null }))).toBeUndefined();
    expect(durabilityFor(answer, thread({ phase: "chatting", pending: null }))).toBeUndefined();
    expect(durabilityFor({ messages: [] }, thread({ phase: "chatting", pending: null }))).toBeUndefined();
    expect(durabilityFor(message, undefined)).toBeUndefined();
  });

  test("the caller's durability wins", () => {
    const idle = thread({ phase: "chatting", pending: null });
    expect(withDurability({}, message, idle)).toEqual({});
    expect(withDurability({ durability: "sync" }, message, idle)).toEqual({ durability: "sync" });
    expect(
      withDurability(
        {},
        answer,
        thread({ phase: "waiting_confirm", pending: { kind: "confirm_tool", tools: [] } }, "confirm_tool"),
      ),
    ).toEqual({});
  });
});

describe("savesInputFirst", () => {
  const idle = thread({ phase: "chatting", pending: null });

  test("a new message on a thread whose last run ended is saved as its input before it runs", () => {
    expect(savesInputFirst(message, idle, {})).toBe(true);
    expect(
      savesInputFirst(message, thread({ phase: "done", pending: null }), { configurable: { thread_id: "t" } }),
    ).toBe(true);
  });

  test("not an answer, a message to a card, a stopped run, an empty input, a new thread, the caller's durability or checkpoint", () => {
    expect(savesInputFirst(answer, idle, {})).toBe(false);
    expect(
      savesInputFirst(
        message,
        thread({ phase: "waiting_confirm", pending: { kind: "confirm_plan" } }, "confirm_plan"),
        {},
      ),
    ).toBe(false);
    expect(savesInputFirst(message, thread({ phase: "executing", pending: null }, undefined, ["execute"]), {})).toBe(
      false,
    );
    expect(savesInputFirst({ messages: [] }, idle, {})).toBe(false);
    expect(savesInputFirst(message, undefined, {})).toBe(false);
    expect(savesInputFirst(message, idle, { durability: "async" })).toBe(false);
    expect(savesInputFirst(message, idle, { configurable: { checkpoint_id: "1ef" } })).toBe(false);
  });
});
