/**
 * The saver's serializer reads every value as LangGraph's own `JsonPlusSerializer` does: plain values without the
 * rebuild, any value with a record (or a `__proto__` key) through the official reader.
 */
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { CheckpointSerializer, isPlainJson } from "../../checkpoints/plain-loads.js";

const official = new JsonPlusSerializer();
const ours = new CheckpointSerializer();

/** Both readings of `text` (as stored bytes). */
async function bothReads(text: string): Promise<[unknown, unknown]> {
  const bytes = new TextEncoder().encode(text);
  return [await official.loadsTyped("json", bytes), await ours.loadsTyped("json", bytes)];
}

describe("CheckpointSerializer", () => {
  const values: Array<[string, unknown]> = [
    ["a number", 42],
    ["null", null],
    ["a string", "lc"],
    ["a plain object", { phase: "execute", steps: [{ id: "s1", done: false, n: 1.5 }], empty: {}, list: [] }],
    ["integer-like keys", { "2": "b", "1": "a", z: [null, true] }],
    [
      "messages",
      [new HumanMessage("hi"), new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "t", args: {} }] })],
    ],
    ["a tool message", new ToolMessage({ content: "done", tool_call_id: "c1" })],
    ["undefined inside", { a: undefined, b: [undefined, 1] }],
    ["a set and a map", { s: new Set([1, 2]), m: new Map([["k", 1]]) }],
    ["a plain object with an lc key", { lc: 3, type: "x" }],
  ];

  it.each(values)("reads %s as the official serializer does", async (_, value) => {
    const [type, bytes] = await official.dumpsTyped(value);
    expect(await ours.loadsTyped(type, bytes)).toStrictEqual(await official.loadsTyped(type, bytes));
  });

  it("reads a __proto__ key as the official reader does (it sets the prototype)", async () => {
    const [a, b] = await bothReads('{"x":{"__proto__":{"y":1}}}');
    expect(Object.getPrototypeOf((b as { x: object }).x)).toStrictEqual(Object.getPrototypeOf((a as { x: object }).x));
    expect((b as { x: { y?: number } }).x.y).toBe(1);
  });

  it("finds an escaped lc key the text test cannot see", async () => {
    const text = '{"v":[{"\\u006cc":2,"type":"undefined"}]}';
    const [a, b] = await bothReads(text);
    expect(b).toStrictEqual(a);
    expect(isPlainJson(JSON.parse(text))).toBe(false);
  });

  it("takes plain JSON as it is and refuses records", () => {
    expect(isPlainJson({ a: [{ b: "lc" }], c: null })).toBe(true);
    expect(isPlainJson([[{ lc: 1 }]])).toBe(false);
    expect(isPlainJson(JSON.parse('{"__proto__":1}'))).toBe(false);
  });
});
