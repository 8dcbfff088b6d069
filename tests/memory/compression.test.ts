import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compressToolRounds, messageUnits, planHistoryCompression } from "../../memory/compression.js";
import { estimateCounter } from "../../memory/tokens.js";
import { unpairedToolCalls } from "../support/scripted.js";

/** A random history: user turns, assistant text, and tool rounds with one or two calls. */
const historyArbitrary = fc
  .array(fc.oneof(fc.constant("human"), fc.constant("ai"), fc.constant("round1"), fc.constant("round2")), {
    minLength: 0,
    maxLength: 60,
  })
  .map((kinds) => {
    const messages: BaseMessage[] = [];
    kinds.forEach((kind, index) => {
      if (kind === "human") messages.push(new HumanMessage({ id: `h${index}`, content: `user ${index}` }));
      else if (kind === "ai") messages.push(new AIMessage({ id: `a${index}`, content: `assistant ${index}` }));
      else {
        const calls = kind === "round1" ? [`c${index}`] : [`c${index}a`, `c${index}b`];
        messages.push(
          new AIMessage({
            id: `a${index}`,
            content: "",
            tool_calls: calls.map((id) => ({ id, name: "list_notes", args: { n: index }, type: "tool_call" as const })),
          }),
        );
        for (const id of calls)
          messages.push(
            new ToolMessage({ id: `t${id}`, content: `result ${id} ${"x".repeat(index)}`, tool_call_id: id }),
          );
      }
    });
    return messages;
  });

describe("no tool-call message is ever orphaned by trimming", () => {
  test("in-step compression keeps or summarises whole rounds", () => {
    fc.assert(
      fc.property(
        historyArbitrary,
        fc.integer({ min: 1, max: 6 }),
        fc.option(fc.integer({ min: 5, max: 50 }), { nil: undefined }),
        (history, keepRounds, limit) => {
          const compressed = compressToolRounds(history, keepRounds, limit);
          expect(unpairedToolCalls(compressed)).toEqual([]);
          const rounds = messageUnits(compressed).filter((unit) => unit.toolRound).length;
          expect(rounds).toBe(Math.min(keepRounds, messageUnits(history).filter((unit) => unit.toolRound).length));
        },
      ),
      { numRuns: 500 },
    );
  });

  test("history compression cuts only at unit boundaries and keeps protected messages", () => {
    fc.assert(
      fc.property(
        historyArbitrary,
        fc.integer({ min: 2, max: 20 }),
        fc.integer({ min: 0, max: 59 }),
        (history, keep, protectedIndex) => {
          const protectedId = history[protectedIndex]?.id;
          const plan = planHistoryCompression(history, {
            maxMessages: 10,
            maxTokens: 1_000_000,
            keepMessages: keep,
            counter: estimateCounter,
            protectedIds: new Set(protectedId ? [protectedId] : []),
          });
          if (!plan) return;
          expect([...plan.remove, ...plan.keep].map((message) => message.id)).toEqual(
            history.map((message) => message.id),
          );
          expect(unpairedToolCalls(plan.keep)).toEqual([]);
          expect(unpairedToolCalls(plan.remove)).toEqual([]);
          if (protectedId) expect(plan.keep.some((message) => message.id === protectedId)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

test("earlier rounds become one summary line each, newest kept whole", () => {
  const history: BaseMessage[] = [];
  for (let index = 1; index <= 6; index += 1) {
    history.push(
      new AIMessage({
        id: `a${index}`,
        content: "",
        tool_calls: [{ id: `c${index}`, name: "find_free", args: { min_length: index }, type: "tool_call" }],
      }),
    );
    history.push(
      new ToolMessage({ id: `t${index}`, content: `free runs for ${index}\nmore lines`, tool_call_id: `c${index}` }),
    );
  }
  const compressed = compressToolRounds(history, 2);
  expect(compressed).toHaveLength(5);
  expect(String(compressed[0]?.content)).toBe(
    [
      "Earlier in this step (4 tool rounds, summarised):",
      "- 1 earlier entries: find_free ×1",
      '- called find_free {"min_length":2} → free runs for 2 more lines',
      '- called find_free {"min_length":3} → free runs for 3 more lines',
      '- called find_free {"min_length":4} → free runs for 4 more lines',
    ].join("\n"),
  );
  expect(compressed.slice(1).map((message) => message.id)).toEqual(["a5", "t5", "a6", "t6"]);
});
