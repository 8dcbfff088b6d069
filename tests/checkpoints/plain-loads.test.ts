/**
 * The saver's serializer reads every value as LangGraph's own `JsonPlusSerializer` does: plain values without the
 * rebuild, any value with a record (or a `__proto__` key) through the official reader.
 */
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { CheckpointSerializer, isPlainJson, recordsToRevive } from "../../checkpoints/plain-loads.js";

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
    [
      "a message with an undefined field",
      new AIMessage({ content: "x", name: undefined, additional_kwargs: { u: undefined } }),
    ],
    [
      "a message holding a message",
      new HumanMessage({ content: "x", additional_kwargs: { inner: new HumanMessage("y") } }),
    ],
    ["a record at the top", undefined],
    ["a record with more fields", { v: { lc: 2, type: "undefined", extra: { lc: 1 } } }],
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

describe("recordsToRevive", () => {
  it("revives messages and undefined records without the official rebuild", async () => {
    const value = [new AIMessage({ content: "x", tool_calls: [{ id: "c", name: "t", args: {} }] }), { a: undefined }];
    const [, bytes] = await official.dumpsTyped(value);
    const box = [JSON.parse(new TextDecoder().decode(bytes))];
    expect(recordsToRevive(box)).toHaveLength(1);
  });

  it("leaves a LangChain object inside another, and a Set, to the official reader", async () => {
    for (const value of [
      new HumanMessage({ content: "x", additional_kwargs: { m: new HumanMessage("y") } }),
      new Set([1]),
    ]) {
      const [, bytes] = await official.dumpsTyped(value);
      expect(recordsToRevive([JSON.parse(new TextDecoder().decode(bytes))])).toBeUndefined();
    }
  });
});
