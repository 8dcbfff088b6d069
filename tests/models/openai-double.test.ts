/**
 * The OpenAI server double is honest: it refuses, with a 400 in OpenAI's error shape, what OpenAI refuses — a
 * 41-character tool-call id, strict schemas outside the structured-outputs subset, bad function names, orphan tool
 * messages, unanswered tool calls — and accepts the valid forms (a 40-character id, a valid strict schema).
 * Through real `ChatOpenAI` its streamed chunks reassemble to the same tool calls as its whole replies, and its
 * faults and imperfections reach the client as a real server's would.
 */
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { startOpenAIDouble, type BrainReply, type Fault, type OpenAIDouble } from "../support/openai-double/index.js";

let double: OpenAIDouble;
beforeAll(async () => {
  double = await startOpenAIDouble();
});
afterAll(() => double.close());

async function post(body: unknown, path = "/chat/completions") {
  const response = await fetch(`${double.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      error?: { message: string; type: string; param: string | null; code: string | null };
      choices?: unknown[];
    },
  };
}

const id = (length: number) => `call_${"x".repeat(length - 5)}`;
const round = (callId: string, answerId = callId) => [
  { role: "system", content: "You are a test." },
  { role: "user", content: "Read the week." },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: callId, type: "function", function: { name: "list_tasks", arguments: "{}" } }],
  },
  { role: "tool", tool_call_id: answerId, content: "8 tasks" },
];
const strictTool = (parameters: Record<string, unknown>, name = "decide") => ({
  type: "function",
  function: { name, description: "d", parameters, strict: true },
});
const VALID_STRICT = {
  type: "object",
  properties: {
    action: { type: "string", enum: ["continue", "done"] },
    tool_call: { anyOf: [{ $ref: "#/$defs/call" }, { type: "null" }] },
  },
  required: ["action", "tool_call"],
  additionalProperties: false,
  $defs: {
    call: {
      type: "object",
      properties: { name: { type: "string", minLength: 1 } },
      required: ["name"],
      additionalProperties: false,
    },
  },
};

describe("the OpenAI double refuses what OpenAI refuses", () => {
  test("a 41-character tool-call id, in OpenAI's words and error shape; a 40-character one is accepted", async () => {
    const refused = await post({ model: "gpt-4o-mini", messages: round(id(41)) });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: {
        message:
          "Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 41 instead.",
        type: "invalid_request_error",
        param: "messages[2].tool_calls[0].id",
        code: "string_above_max_length",
      },
    });
    const toolCallId = await post({
      model: "m",
      messages: [...round(id(40)).slice(0, 3), { role: "tool", tool_call_id: id(41), content: "x" }],
    });
    expect(toolCallId.body.error?.message).toBe(
      "Invalid 'messages[3].tool_call_id': string too long. Expected a string with maximum length 40, but got a string with length 41 instead.",
    );
    const accepted = await post({ model: "m", messages: round(id(40)) });
    expect(accepted.status).toBe(200);
    expect(accepted.body.choices).toHaveLength(1);
  });

  test("strict schemas outside the subset: a property missing from required, an open object, propertyNames, oneOf, a root that is not an object", async () => {
    const missingRequired = { ...VALID_STRICT, required: ["action"] };
    const open = {
      ...VALID_STRICT,
      properties: { ...VALID_STRICT.properties, arguments: { type: "object", additionalProperties: {} } },
      required: [...VALID_STRICT.required, "arguments"],
    };
    const propertyNames = {
      ...VALID_STRICT,
      properties: {
        ...VALID_STRICT.properties,
        arguments: { type: "object", propertyNames: { type: "string" }, additionalProperties: false },
      },
      required: [...VALID_STRICT.required, "arguments"],
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        missingRequired,
        "In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'tool_call'.",
      ],
      [
        open,
        "In context=('properties', 'arguments'), 'additionalProperties' is required to be supplied and to be false.",
      ],
      [propertyNames, "In context=('properties', 'arguments'), 'propertyNames' is not permitted."],
      [
        {
          ...VALID_STRICT,
          properties: { action: { oneOf: [{ type: "string" }, { type: "integer" }] } },
          required: ["action"],
        },
        "In context=('properties', 'action'), 'oneOf' is not permitted.",
      ],
      [{ anyOf: [VALID_STRICT] }, `schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`],
    ];
    for (const [schema, problem] of cases) {
      const asTool = await post({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        tools: [strictTool(schema)],
      });
      expect(asTool.status).toBe(400);
      expect(asTool.body.error).toEqual({
        message: `Invalid schema for function 'decide': ${problem}`,
        type: "invalid_request_error",
        param: "tools[0].function.parameters",
        code: "invalid_function_parameters",
      });
      const asFormat = await post({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        response_format: { type: "json_schema", json_schema: { name: "execute_decision", strict: true, schema } },
      });
      expect(asFormat.status).toBe(400);
      expect(asFormat.body.error?.message).toBe(`Invalid schema for response_format 'execute_decision': ${problem}`);
    }
    // Without strict, an open object is a valid function schema.
    expect(
      (
        await post({
          model: "m",
          messages: [{ role: "user", content: "hi" }],
          tools: [{ type: "function", function: { name: "decide", parameters: open } }],
        })
      ).status,
    ).toBe(200);
    // The valid strict schema (anyOf, $ref / $defs, enum, minLength) is accepted both ways.
    expect(
      (await post({ model: "m", messages: [{ role: "user", content: "hi" }], tools: [strictTool(VALID_STRICT)] }))
        .status,
    ).toBe(200);
    const format = await post({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      response_format: { type: "json_schema", json_schema: { name: "d", strict: true, schema: VALID_STRICT } },
    });
    expect(format.status).toBe(200);
  });

  test("bad function names, in tools and in an assistant's tool calls; a tool_choice naming no tool", async () => {
    const inTools = await post({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [strictTool(VALID_STRICT, "list tasks")],
    });
    expect(inTools.body.error).toMatchObject({
      param: "tools[0].function.name",
      message:
        "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    });
    const long = await post({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [strictTool(VALID_STRICT, "a".repeat(65))],
    });
    expect(long.body.error?.message).toBe(
      "Invalid 'tools[0].function.name': string too long. Expected a string with maximum length 64, but got a string with length 65 instead.",
    );
    const messages = round(id(20));
    (messages[2] as { tool_calls: Array<{ function: { name: string } }> }).tool_calls[0]!.function.name =
      "schedule.place";
    expect((await post({ model: "m", messages })).body.error?.param).toBe("messages[2].tool_calls[0].function.name");
    const choice = await post({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [strictTool(VALID_STRICT)],
      tool_choice: { type: "function", function: { name: "other" } },
    });
    expect(choice.body.error?.message).toBe("Invalid value for 'tool_choice': function 'other' not found in 'tools'.");
  });

  test('tool_choice "none" with tools is accepted and answered in text; without tools, or a value OpenAI lacks, refused', async () => {
    double.set({ brain: () => ({ content: "In text.", toolCalls: [{ name: "list_tasks", arguments: {} }] }) });
    try {
      const tools = [strictTool(VALID_STRICT)];
      const none = await post({ model: "m", messages: [{ role: "user", content: "hi" }], tools, tool_choice: "none" });
      expect(none.status).toBe(200);
      expect(none.body.choices).toEqual([
        expect.objectContaining({ message: expect.objectContaining({ content: "In text." }), finish_reason: "stop" }),
      ]);
      expect(JSON.stringify(none.body.choices)).not.toContain("tool_calls");
      // Without tool_choice the same brain's calls go out.
      const auto = await post({ model: "m", messages: [{ role: "user", content: "hi" }], tools });
      expect(JSON.stringify(auto.body.choices)).toContain("tool_calls");
      const noTools = await post({ model: "m", messages: [{ role: "user", content: "hi" }], tool_choice: "none" });
      expect(noTools.body.error?.message).toBe(
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      );
      const unknown = await post({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        tools,
        tool_choice: "never",
      });
      expect(unknown.body.error).toMatchObject({
        param: "tool_choice",
        message: "Invalid value: 'never'. Supported values are: 'none', 'auto', and 'required'.",
      });
    } finally {
      double.set({ brain: undefined });
    }
  });

  test("an orphan tool message and an unanswered tool call; malformed messages and arguments", async () => {
    const orphan = await post({ model: "m", messages: round(id(20), "call_other") });
    expect(orphan.status).toBe(400);
    expect(orphan.body.error).toEqual({
      message:
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      type: "invalid_request_error",
      param: "messages.[3].role",
      code: null,
    });
    const afterText = await post({
      model: "m",
      messages: [
        { role: "user", content: "hi" },
        { role: "tool", tool_call_id: "call_1", content: "x" },
      ],
    });
    expect(afterText.body.error?.param).toBe("messages.[1].role");
    const unanswered = await post({
      model: "m",
      messages: [...round(id(20)).slice(0, 3), { role: "user", content: "and?" }],
    });
    expect(unanswered.status).toBe(400);
    expect(unanswered.body.error?.message).toBe(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${id(20)}`,
    );
    expect((await post({ model: "m", messages: [{ content: "hi" }] })).body.error?.message).toBe(
      "Missing required parameter: 'messages[0].role'.",
    );
    expect((await post({ model: "m", messages: [{ role: "user" }] })).body.error?.message).toBe(
      "Missing required parameter: 'messages[0].content'.",
    );
    const badJson = round(id(20));
    (badJson[2] as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0]!.function.arguments =
      "{day: 3";
    expect((await post({ model: "m", messages: badJson })).body.error?.param).toBe(
      "messages[2].tool_calls[0].function.arguments",
    );
  });

  test("every refusal is recorded with its request; other paths are 404 in OpenAI's shape", async () => {
    const before = double.refusals.length;
    await post({ model: "m", messages: round(id(41)) });
    const refusal = double.refusals.at(-1)!;
    expect(double.refusals.length).toBe(before + 1);
    expect(double.requests[refusal.index]?.refusal).toBe(refusal);
    const other = await post({}, "/completions");
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ type: "invalid_request_error", param: null, code: null });
    expect(double.unexpected).toContain("POST /v1/completions");
  });
});

describe("a slow model", () => {
  test("with latency, an accepted request is answered only once its wait ends; a refused one is not kept waiting", async () => {
    const slow = await startOpenAIDouble();
    try {
      let release!: () => void;
      const waited: number[] = [];
      slow.set({
        latency: (request) => {
          waited.push(request.index);
          return new Promise<void>((resolve) => (release = resolve));
        },
      });
      const post = (body: unknown) =>
        fetch(`${slow.baseUrl}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const refused = await post({ model: "m", messages: round(id(41)) });
      expect(refused.status).toBe(400);
      let answered = false;
      const reply = post({ model: "m", messages: [{ role: "user", content: "hello" }] }).then((response) => {
        answered = true;
        return response;
      });
      while (waited.length === 0 && !answered) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect({ waited, answered, recorded: slow.requests.length, reply: slow.requests[1]?.reply }).toEqual({
        waited: [1],
        answered: false,
        recorded: 2,
        reply: undefined,
      });
      release();
      expect((await reply).status).toBe(200);
      expect(answered).toBe(true);
    } finally {
      await slow.close();
    }
  });
});

describe("through real ChatOpenAI", () => {
  const PARALLEL: BrainReply = {
    content: "Reading.",
    toolCalls: [
      { name: "list_tasks", arguments: { source: "task_item", limit: 100 } },
      { name: "find_free", arguments: { min_length: 1, note: "a longer argument, sent in many fragments" } },
    ],
  };
  const tools = [
    {
      name: "list_tasks",
      description: "List tasks.",
      schema: z.object({ source: z.string(), limit: z.number().int() }),
    },
    {
      name: "find_free",
      description: "Free time.",
      schema: z.object({ min_length: z.number().int(), note: z.string() }),
    },
  ];
  const client = () =>
    new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test", configuration: { baseURL: double.baseUrl }, maxRetries: 0 });

  test("streamed chunks reassemble to the same tool calls, text and usage as the whole reply", async () => {
    double.set({ brain: () => PARALLEL });
    try {
      const whole = (await client()
        .bindTools(tools)
        .invoke([new HumanMessage("Read the week")])) as AIMessage;
      // Streamed with .stream(): ChatOpenAI's invoke with streaming: true fetches a tiktoken table from the network
      // to estimate usage (offline it hangs); Tempo's graph streams through .stream's path (the messages stream mode).
      let streamed: AIMessageChunk | undefined;
      for await (const part of await client()
        .bindTools(tools)
        .stream([new HumanMessage("Read the week")], { streamUsage: true } as never))
        streamed = streamed ? streamed.concat(part) : part;
      if (!streamed) throw new Error("no chunks");
      const calls = (message: AIMessage) => message.tool_calls!.map((call) => [call.name, call.args]);
      expect(calls(whole)).toEqual(PARALLEL.toolCalls!.map((call) => [call.name, call.arguments]));
      expect(calls(streamed as AIMessage)).toEqual(calls(whole));
      expect(streamed.content).toBe("Reading.");
      for (const call of [...whole.tool_calls!, ...streamed.tool_calls!]) expect(call.id).toMatch(/^call_[\w-]{24}$/);
      expect(whole.usage_metadata?.input_tokens).toBeGreaterThan(0);
      const last = double.requests.at(-1)!;
      expect(last.body.stream).toBe(true);
      expect(last.body.stream_options).toEqual({ include_usage: true });
      expect(streamed.usage_metadata?.input_tokens).toBe(whole.usage_metadata?.input_tokens);
      expect(last.body.tools).toHaveLength(2);
    } finally {
      double.set({ brain: undefined });
    }
  });

  test("with promptCache, a repeated prefix of 1,024 tokens or more comes back as cached_tokens in 128-token blocks", async () => {
    const cache = await startOpenAIDouble({ brain: () => ({ content: "ok" }), promptCache: true });
    try {
      const model = new ChatOpenAI({
        model: "gpt-4o-mini",
        apiKey: "test",
        configuration: { baseURL: cache.baseUrl },
        maxRetries: 0,
      });
      const stable = new SystemMessage(`You are a test.\n${"The same long instructions. ".repeat(300)}`);
      const cachedOf = (message: AIMessage | AIMessageChunk) => message.usage_metadata?.input_token_details?.cache_read;
      const first = (await model.invoke([stable, new HumanMessage("first question")])) as AIMessage;
      const second = (await model.invoke([stable, new HumanMessage("second question")])) as AIMessage;
      let streamed: AIMessageChunk | undefined;
      for await (const part of await model.stream([stable, new HumanMessage("third")], { streamUsage: true } as never))
        streamed = streamed ? streamed.concat(part) : part;
      const short = (await model.invoke([new SystemMessage("You are a test."), new HumanMessage("hi")])) as AIMessage;
      // Nothing came before the first; the long system message repeats (~2,100 tokens): whole blocks of 128.
      expect(cachedOf(first)).toBe(0);
      expect(cachedOf(second)).toBeGreaterThanOrEqual(1024);
      expect(cachedOf(second)! % 128).toBe(0);
      expect(cachedOf(second)!).toBeLessThanOrEqual(second.usage_metadata!.input_tokens);
      expect(cachedOf(streamed!)).toBe(cachedOf(second));
      // A repeated prefix under 1,024 tokens is not cached, as OpenAI's is not.
      expect(cachedOf(short)).toBe(0);
    } finally {
      await cache.close();
    }
    // Without promptCache the usage has no prompt_tokens_details, as before.
    double.set({ brain: () => ({ content: "ok" }) });
    try {
      const plain = (await client().invoke([new HumanMessage("hi")])) as AIMessage;
      expect(plain.usage_metadata?.input_token_details?.cache_read).toBeUndefined();
    } finally {
      double.set({ brain: undefined });
    }
  });

  test("parallel_tool_calls: false gets one call; imperfections and reasoning reach the client", async () => {
    double.set({ brain: () => PARALLEL, imperfections: ["numbers-as-strings", "reasoning"] });
    try {
      const reply = (await client()
        .bindTools(tools, { parallel_tool_calls: false })
        .invoke([new HumanMessage("Read")])) as AIMessage;
      expect(reply.tool_calls!.map((call) => call.args)).toEqual([{ source: "task_item", limit: "100" }]);
      expect(double.requests.at(-1)!.reply?.reasoning).toMatch(/deciding/);
    } finally {
      double.set({ brain: undefined, imperfections: [] });
    }
  });

  test("a conversation with a 40-character tool-call id passes; the schedule brain answers text stages as text", async () => {
    double.set({ brain: () => "All done." });
    try {
      const messages = [
        new SystemMessage("s"),
        new HumanMessage("u"),
        new AIMessage({ content: "", tool_calls: [{ id: id(40), name: "list_tasks", args: {}, type: "tool_call" }] }),
        new ToolMessage({ content: "8", tool_call_id: id(40) }),
      ];
      const reply = await client().invoke(messages);
      expect(reply.content).toBe("All done.");
      await expect(
        client().invoke([
          ...messages.slice(0, 2),
          new AIMessage({ content: "", tool_calls: [{ id: id(41), name: "list_tasks", args: {}, type: "tool_call" }] }),
          new ToolMessage({ content: "8", tool_call_id: id(41) }),
        ]),
      ).rejects.toThrow(/string too long. Expected a string with maximum length 40, but got a string with length 41/);
    } finally {
      double.set({ brain: undefined });
    }
  });

  test("faults reach the client as a real server's: 429 then an answer, 401, 404, 5xx, bodies that are no completion, a dropped socket, a hang", async () => {
    const script: Record<number, Fault> = {};
    double.set({ brain: () => "fine", fault: (request) => script[request.index] });
    try {
      script[double.requests.length] = "429";
      const retried = new ChatOpenAI({
        model: "gpt-4o-mini",
        apiKey: "test",
        configuration: { baseURL: double.baseUrl },
        maxRetries: 1,
      });
      expect((await retried.invoke("hi")).content).toBe("fine");
      expect(double.requests.at(-2)?.fault).toBe("429");
      script[double.requests.length] = "401";
      await expect(client().invoke("hi")).rejects.toMatchObject({ status: 401 });
      script[double.requests.length] = "404";
      await expect(client().invoke("hi")).rejects.toThrow(/does not exist or you do not have access/);
      // Bodies that are not a completion, a dropped socket, a hung reply: what ChatOpenAI makes of them.
      const failures: Array<[Fault, RegExp]> = [
        ["500", /^500 The server had an error/],
        ["html-502", /^502 <html>/],
        ["html-200", /Cannot read properties of undefined \(reading 'message'\)/],
        ["prose", /Cannot read properties of undefined \(reading 'message'\)/],
        ["empty-choices", /Cannot read properties of undefined \(reading 'message'\)/],
        ["drop", /terminated/],
        ["hang", /Request timed out/],
      ];
      for (const [fault, error] of failures) {
        script[double.requests.length] = fault;
        const quick = new ChatOpenAI({
          model: "gpt-4o-mini",
          apiKey: "test",
          configuration: { baseURL: double.baseUrl },
          maxRetries: 0,
          timeout: 500,
        });
        await expect(quick.invoke("hi"), fault).rejects.toThrow(error);
        expect(double.requests.at(-1)?.fault).toBe(fault);
      }
    } finally {
      double.set({ brain: undefined, fault: undefined });
    }
  });
});
