import { END } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { branchAfterAskUser, branchAfterChat, branchAfterConfirm, branchAfterExecute, branchAfterPlan } from "../../graphs/routing.js";
import type { PendingInteraction, Phase } from "../../graphs/state.js";

const tool = { id: "call-1", name: "place", arguments: {}, summary: "place", reason: "", speak: "" };
const confirmPlan: PendingInteraction = { kind: "confirm_plan" };
const confirmTool: PendingInteraction = { kind: "confirm_tool", tool };
const askPlan: PendingInteraction = { kind: "ask_user", question: "Which week?", askedBy: "plan" };

type Row = [Phase, PendingInteraction | null, string];

// Seed 003 §10: every branch first sends a pending interaction to the node that raises it.
describe("branchAfterChat", () => {
  test.each<Row>([
    ["executing", confirmTool, "confirm"],
    ["waiting_confirm", confirmPlan, "confirm"],
    ["planning", askPlan, "ask_user"],
    ["planning", null, "plan"],
    ["executing", null, "execute"],
    ["done", null, "deliver"],
    ["chatting", null, "memorize"],
    ["waiting_confirm", null, "confirm"],
  ])("phase %s with pending %j → %s", (phase, pending, expected) => {
    expect(branchAfterChat({ phase, pending })).toBe(expected);
  });
});

describe("branchAfterPlan", () => {
  test.each<Row>([
    ["planning", askPlan, "ask_user"],
    ["waiting_confirm", confirmPlan, "confirm"],
    ["waiting_confirm", null, "confirm"],
    ["planning", null, "plan"],
    ["executing", null, "execute"],
    ["chatting", null, END],
    ["done", null, "deliver"],
  ])("phase %s with pending %j → %s", (phase, pending, expected) => {
    expect(branchAfterPlan({ phase, pending })).toBe(expected);
  });
});

describe("branchAfterConfirm", () => {
  test.each<Row>([
    ["executing", confirmTool, "confirm"],
    ["planning", askPlan, "ask_user"],
    ["executing", null, "execute"],
    ["planning", null, "plan"],
    ["waiting_confirm", null, "confirm"],
    ["chatting", null, END],
    ["done", null, END],
  ])("phase %s with pending %j → %s", (phase, pending, expected) => {
    expect(branchAfterConfirm({ phase, pending })).toBe(expected);
  });
});

describe("branchAfterExecute", () => {
  test.each<Row>([
    ["executing", { kind: "ask_user", question: "Which?", askedBy: "execute" }, "ask_user"],
    ["waiting_confirm", confirmTool, "confirm"],
    ["executing", null, "execute"],
    ["done", null, "deliver"],
    ["waiting_confirm", null, "confirm"],
    ["planning", null, "plan"],
    ["chatting", null, END],
  ])("phase %s with pending %j → %s", (phase, pending, expected) => {
    expect(branchAfterExecute({ phase, pending })).toBe(expected);
  });
});

describe("branchAfterAskUser", () => {
  test.each<[Phase, string]>([
    ["planning", "plan"],
    ["executing", "execute"],
    ["chatting", END],
    ["done", END],
  ])("phase %s → %s", (phase, expected) => {
    expect(branchAfterAskUser({ phase, pending: null })).toBe(expected);
  });
});
