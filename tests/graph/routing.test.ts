import { describe, expect, test } from "vitest";
import {
  branchAfterAskUser,
  branchAfterChat,
  branchAfterConfirm,
  branchAfterExecute,
  branchAfterPlan,
} from "../../kernel/routing.js";
import type { PendingInteraction, Phase } from "../../kernel/state.js";

const confirmPlan: PendingInteraction = { kind: "confirm_plan" };
const confirmTool: PendingInteraction = {
  kind: "confirm_tool",
  messageId: "ai-1",
  summaries: { "call-1": "place" },
  reason: "",
};
const askPlan: PendingInteraction = { kind: "ask_user", question: "Which week?", askedBy: "plan" };

type Row = [Phase, PendingInteraction | null, string];
/** A state the node can never leave (no transition of it leads there): the router refuses it. */
const ILLEGAL = "ILLEGAL_TRANSITION";
const route = (
  branch: (state: { phase: Phase; pending: PendingInteraction | null }) => string,
  phase: Phase,
  pending: PendingInteraction | null,
) => {
  try {
    return branch({ phase, pending });
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
};

// docs/design.md#routing: every branch first sends a pending interaction to the node that raises it.
describe("branchAfterChat", () => {
  test.each<Row>([
    ["executing", confirmTool, "confirm"],
    ["waiting_confirm", confirmPlan, "confirm"],
    ["planning", askPlan, "ask_user"],
    ["planning", null, "plan"],
    ["executing", null, "execute"],
    ["chatting", null, "memorize"],
    ["waiting_confirm", null, "confirm"],
    // Chat always takes a transition (reply, start task, retry, drop) or answers a pending card: it never leaves "done".
    ["done", null, ILLEGAL],
  ])("phase %s with pending %j → %s", (phase, pending, expected) => {
    expect(route(branchAfterChat, phase, pending)).toBe(expected);
  });
});

describe("branchAfterPlan", () => {
  test.each<Row>([
    ["planning", askPlan, "ask_user"],
    ["waiting_confirm", confirmPlan, "confirm"],
    ["planning", null, "plan"],
    ["executing", null, "execute"],
    // Planning that gives up finishes the task as failed (deliver); it never drops to chatting itself.
    ["chatting", null, ILLEGAL],
    ["done", null, "deliver"],
  ])("phase %s with pending %j → %s", (phase, pending, expected) => {
    expect(route(branchAfterPlan, phase, pending)).toBe(expected);
  });
});

describe("branchAfterConfirm", () => {
  test.each<Row>([
    ["executing", null, "execute"],
    ["planning", null, "plan"],
    // A dropped plan ends the turn through memorize (the drop is remembered), not at END.
    ["chatting", null, "memorize"],
    // Confirm always clears what it answered and never ends a task itself.
    ["executing", confirmTool, ILLEGAL],
    ["planning", askPlan, ILLEGAL],
    ["waiting_confirm", null, ILLEGAL],
    ["done", null, ILLEGAL],
  ])("phase %s with pending %j → %s", (phase, pending, expected) => {
    expect(route(branchAfterConfirm, phase, pending)).toBe(expected);
  });
});

describe("branchAfterExecute", () => {
  test.each<Row>([
    ["executing", { kind: "ask_user", question: "Which?", askedBy: "execute" }, "ask_user"],
    ["waiting_confirm", confirmTool, "confirm"],
    ["executing", null, "execute"],
    ["done", null, "deliver"],
    ["planning", null, "plan"],
    // Execute never drops a task or leaves a card phase without its pending interaction.
    ["waiting_confirm", null, "confirm"],
    ["chatting", null, ILLEGAL],
  ])("phase %s with pending %j → %s", (phase, pending, expected) => {
    expect(route(branchAfterExecute, phase, pending)).toBe(expected);
  });
});

describe("branchAfterAskUser", () => {
  test.each<[Phase, string]>([
    ["planning", "plan"],
    ["executing", "execute"],
    // An answer goes back to the stage that asked; one that withdraws the request drops the task.
    ["chatting", "memorize"],
    ["done", ILLEGAL],
  ])("phase %s → %s", (phase, expected) => {
    expect(route(branchAfterAskUser, phase, null)).toBe(expected);
  });
});
