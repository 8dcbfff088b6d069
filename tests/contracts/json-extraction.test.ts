import { describe, expect, test, vi } from "vitest";
import { ExecuteDecisionSchema } from "../../contracts/execute.js";
import { extractJsonObject } from "../../contracts/json-extraction.js";
import { parseContract } from "../../contracts/parse-contract.js";
import { PlanDecisionSchema } from "../../contracts/plan.js";

describe("extractJsonObject", () => {
  test("finds the object inside prose", () => {
    expect(extractJsonObject('Sure! Here it is: {"a": 1} hope that helps')).toEqual({ a: 1 });
  });
  test("strips markdown fences", () => {
    expect(extractJsonObject('```json\n{"action": "done", "n": [1,2]}\n```')).toEqual({ action: "done", n: [1, 2] });
  });
  test("keeps nested objects and braces inside strings", () => {
    expect(extractJsonObject('x {"tool_call": {"name": "place", "arguments": {"note": "a } b {"}}} y')).toEqual({
      tool_call: { name: "place", arguments: { note: "a } b {" } },
    });
  });
  test("skips a broken candidate and takes the next complete object", () => {
    expect(extractJsonObject('{not json} then {"ok": true}')).toEqual({ ok: true });
    expect(extractJsonObject('{ unclosed {"ok": true}')).toEqual({ ok: true });
  });
  test("returns undefined for truncated JSON, arrays and plain text", () => {
    expect(extractJsonObject('{"action": "continue", "speak": "cut')).toBeUndefined();
    expect(extractJsonObject("[1, 2, 3]")).toBeUndefined();
    expect(extractJsonObject("no json here")).toBeUndefined();
  });
});

describe("stage contracts", () => {
  test("next_plan and done require goal_check", () => {
    const parsed = parseContract(ExecuteDecisionSchema, '{"action": "next_plan", "speak": "ok"}');
    expect(parsed).toEqual({
      ok: false,
      problem: expect.stringContaining("goal_check is required when action is next_plan"),
    });
  });
  test("confirm requires a tool_call", () => {
    const parsed = parseContract(ExecuteDecisionSchema, { action: "confirm" });
    expect(parsed.ok).toBe(false);
  });
  test("plan_done requires steps and fills defaults", () => {
    expect(parseContract(PlanDecisionSchema, '{"action": "plan_done"}').ok).toBe(false);
    const parsed = parseContract(
      PlanDecisionSchema,
      '{"action": "plan_done", "plan_steps": [{"content": "a", "done_when": "b"}]}',
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        speak: "",
        action: "plan_done",
        reason: "",
        complexity: "moderate",
        need_thinking: false,
        read_only: false,
        plan_steps: [{ content: "a", done_when: "b" }],
      },
    });
  });
  test("unknown actions and empty output are described", () => {
    expect(parseContract(ExecuteDecisionSchema, '{"action": "explode"}')).toEqual({
      ok: false,
      problem: expect.stringContaining("action"),
    });
    expect(parseContract(ExecuteDecisionSchema, "   ")).toEqual({ ok: false, problem: "the output was empty" });
  });
});

describe("adversarial output", () => {
  test("100 KB of unbalanced braces and of repeated prefixes is rejected quickly", () => {
    // Quick because the work is linear: at most MAX_STARTS (32) opening braces are tried in a text, each by one scan
    // to its matching brace and at most one JSON.parse. Without that bound these texts take 20,000-100,000 scans of
    // 100 KB each (minutes). Counted here, not timed: the braces tried (indexOf "{") and the parses.
    const starts = vi.spyOn(String.prototype, "indexOf");
    const parses = vi.spyOn(JSON, "parse");
    try {
      for (const text of ["{".repeat(100_000), '{"a":'.repeat(20_000), `${"{x} ".repeat(25_000)}{"ok": 1}`]) {
        starts.mockClear();
        parses.mockClear();
        // The third text's object lies past 25,000 bad starts: not looked for.
        expect(extractJsonObject(text)).toBeUndefined();
        const braces = starts.mock.calls.filter(([search]) => search === "{").length;
        expect({ text: text.slice(0, 8), braces: braces <= 33, parses: parses.mock.calls.length <= 32 }).toEqual({
          text: text.slice(0, 8),
          braces: true,
          parses: true,
        });
      }
    } finally {
      starts.mockRestore();
      parses.mockRestore();
    }
  });
});
