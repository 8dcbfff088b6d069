/**
 * The model-calls bench's measuring (`bench/model-calls.ts`), checked on one task in one mode: its counts are
 * consistent with what the double recorded — calls and prompt figures per stage add up to the totals, every
 * request is of a known stage, none refused. Figures, not timing; the goals are the bench's to print.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { tiktokenCounter } from "../../memory/tokens.js";
import { measure, MODES, promptSize, STAGES, TASKS, TOOL_SCHEMA_GOAL, type Figures } from "../../bench/model-calls.js";
import { startOpenAIDouble, type OpenAIDouble } from "../support/openai-double/index.js";

let double: OpenAIDouble;
beforeAll(async () => {
  double = await startOpenAIDouble();
});
afterAll(() => double.close());

test("a read in JSON mode: per-stage figures sum to the totals, every request counted, none refused", async () => {
  const task = TASKS.find((entry) => entry.name === "read")!;
  const mode = MODES.find((entry) => entry.name === "json")!;
  const measurement = await measure(double, task, mode);
  expect(measurement.error).toBeUndefined();
  expect(measurement.phase).toBe("done");
  expect(measurement.refused).toBe(0);
  expect(double.refusals).toEqual([]);
  expect(measurement.stages.other.calls).toBe(0);
  const sum = (field: keyof Figures) => STAGES.reduce((total, stage) => total + measurement.stages[stage][field], 0);
  expect(sum("calls")).toBe(measurement.total.calls);
  expect(sum("promptTokens")).toBe(measurement.total.promptTokens);
  expect(sum("promptChars")).toBe(measurement.total.promptChars);
  expect(measurement.total.calls).toBe(double.requests.length);
  expect(measurement.stages.chat.calls).toBe(1);
  expect(measurement.stages.execute.calls).toBeGreaterThan(0);
  expect(measurement.total.promptTokens).toBeGreaterThan(0);
  // Fewer tokens than characters, as English and JSON tokenize.
  expect(measurement.total.promptTokens).toBeLessThan(measurement.total.promptChars);
});

test("a request's prompt: role, content, tool calls, tools and response format counted, 3 tokens a message and 3 for the reply", () => {
  const count = (text: string) => tiktokenCounter.count(text);
  expect(promptSize({ messages: [{ role: "user", content: "hello there" }] })).toEqual({
    promptTokens: count("user") + count("hello there") + 6,
    promptChars: "user".length + "hello there".length,
  });
  const tools = [{ type: "function", function: { name: "find_free", parameters: { type: "object", properties: {} } } }];
  const call = { id: "call_1", type: "function", function: { name: "find_free", arguments: '{"day":3}' } };
  const body = {
    messages: [{ role: "assistant", content: null, tool_calls: [call] }],
    tools,
    response_format: { type: "json_object" },
  };
  const pieces = ["assistant", "find_free", '{"day":3}', JSON.stringify(tools), JSON.stringify(body.response_format)];
  expect(promptSize(body)).toEqual({
    promptTokens: pieces.reduce((total, piece) => total + count(piece), 0) + 6,
    promptChars: pieces.join("").length,
  });
});

test("native tool calling: no execute request of the demo, a move or a swap carries more than 5,000 characters of tool schemas", async () => {
  const native = MODES.find((entry) => entry.name === "native")!;
  for (const name of ["demo", "move", "swap"] as const) {
    const measurement = await measure(
      double,
      TASKS.find((entry) => entry.name === name)!,
      native,
    );
    expect(measurement.phase).toBe("done");
    expect(measurement.refused).toBe(0);
    expect(measurement.executeTools.calls).toBeGreaterThan(0);
    expect(measurement.executeTools.max).toBeLessThanOrEqual(TOOL_SCHEMA_GOAL);
  }
});

test("the demo task takes at most 4 model calls in every mode: the closing check is the code's once every write applied", async () => {
  const demo = TASKS.find((entry) => entry.name === "demo")!;
  for (const mode of MODES) {
    const measurement = await measure(double, demo, mode);
    expect(measurement.phase).toBe("done");
    expect(measurement.refused).toBe(0);
    expect(measurement.cards).toBe(2);
    expect(measurement.total.calls).toBeLessThanOrEqual(4);
  }
});
