/**
 * The OpenAI-compatible SSE form of Tempo's stream, from real graph runs with
 * scripted models: every event parses as an OpenAI chat-completion chunk
 * (checked with a zod schema of that format), the content deltas add up to
 * the assistant's messages, and the `ext` field carries every event kind.
 */
import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { CardSchema, isHitlRequest } from "../../contracts/cards.js";
import {
  formatServerSentEvent,
  OpenAIChunkEncoder,
  SSE_DONE,
  streamOpenAISse,
  type OpenAIChatCompletionChunk,
} from "../../server/openai-sse.js";
import { halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { json, resume, scriptedGraph, threadConfig, planDone } from "../support/scripted.js";

/** OpenAI's `chat.completion.chunk`: the fields a client needs, with their types (extra top-level fields allowed). */
const OpenAIChunkSchema = z.object({
  id: z.string().min(1),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int().positive(),
  model: z.string().min(1),
  choices: z
    .array(
      z.object({
        index: z.number().int().nonnegative(),
        delta: z.strictObject({
          role: z.enum(["system", "user", "assistant", "tool"]).optional(),
          content: z.string().nullable().optional(),
        }),
        finish_reason: z.enum(["stop", "length", "tool_calls", "content_filter", "function_call"]).nullable(),
      }),
    )
    .length(1),
});

/** A card: the contract's schema, and the v1 HITL check Agent Chat UI makes before it renders buttons. */
const HumanInterruptSchema = CardSchema.refine(isHitlRequest, { message: "not a v1 HITL request" });

/** Tempo's `ext` field, by kind. */
const ExtensionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("assistant_text"), node: z.string(), message_id: z.string().min(1) }),
  z.object({ kind: z.literal("status"), node: z.string(), text: z.string().min(1) }),
  z.object({
    kind: z.literal("tool_call"),
    node: z.string(),
    tool_call: z.object({ id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  }),
  z.object({
    kind: z.literal("tool_result"),
    node: z.string(),
    tool_result: z.object({ id: z.string(), name: z.string(), ok: z.boolean(), content: z.string() }),
  }),
  z.object({ kind: z.literal("confirm_request"), node: z.string(), interrupt: HumanInterruptSchema }),
  z.object({ kind: z.literal("interrupt"), node: z.string(), interrupt: HumanInterruptSchema }),
  z.object({ kind: z.literal("message_break") }),
  z.object({ kind: z.literal("error"), code: z.string(), message: z.string() }),
  z.object({
    kind: z.literal("finish"),
    phase: z.string().nullable(),
    waiting: z.boolean(),
    interrupts: z.array(HumanInterruptSchema),
  }),
]);

type Extension = z.infer<typeof ExtensionSchema>;
type ParsedChunk = z.infer<typeof OpenAIChunkSchema> & { ext: Extension };

/** Parses SSE text as an OpenAI client does: `data:` events, each a JSON chunk, the last one `[DONE]`. */
function parseSse(text: string): ParsedChunk[] {
  expect(text.endsWith("\n\n")).toBe(true);
  const events = text.split("\n\n").slice(0, -1);
  expect(events.at(-1)).toBe("data: [DONE]");
  return events.slice(0, -1).map((event) => {
    expect(event.startsWith("data: ")).toBe(true);
    const value: unknown = JSON.parse(event.slice("data: ".length));
    const chunk = OpenAIChunkSchema.parse(value);
    const ext = ExtensionSchema.parse((value as { ext?: unknown }).ext);
    return { ...chunk, ext };
  });
}

async function collect(stream: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const part of stream) text += part;
  return text;
}

const ONE_STEP_PLAN = planDone([{ content: "Add the note", done_when: "list_notes shows it" }], {
  speak: "One step: add the note.",
  reason: "clear request",
  complexity: "simple",
});

function notesGraph() {
  const domain = createNotesDomain({ "user-1": ["buy milk"] });
  return scriptedGraph({
    domain,
    plan: [json({ speak: "What should the note say?", action: "ask_user", reason: "no text given" }), ONE_STEP_PLAN],
    execute: [
      json({
        speak: "Reading notes.",
        action: "continue",
        reason: "need the list",
        tool_call: { name: "list_notes", arguments: {} },
      }),
      json({
        speak: "Adding it.",
        action: "confirm",
        reason: "the user asked",
        tool_call: { name: "add_note", arguments: { text: "call mom" } },
      }),
      json({ speak: "", action: "done", reason: "added", goal_check: "add_note returned added note 2: call mom" }),
    ],
    deliver: ["Added “call mom” to your notes, which now hold two entries: buy milk, and call mom."],
  });
}

describe("OpenAI-compatible SSE from a graph run", () => {
  test("every request of a conversation streams valid chunks, content that adds up, and every ext kind", async () => {
    const { graph } = notesGraph();
    const config = threadConfig("sse-conversation");
    const inputs = [
      { messages: [new HumanMessage("Add a note")] },
      resume({ type: "response", args: "call mom" }),
      resume({ type: "accept", args: null }),
      resume({ type: "accept", args: null }),
    ];
    const requests: ParsedChunk[][] = [];
    for (const input of inputs) {
      const stream = graph.stream(input as Parameters<typeof graph.stream>[0], { ...config, streamMode: "custom" });
      const text = await collect(streamOpenAISse(stream, { model: "tempo", finalState: () => graph.getState(config) }));
      requests.push(parseSse(text));
    }

    for (const chunks of requests) {
      // One stream: one id and creation time, the role first, the finish reason only on the last chunk.
      expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
      expect(new Set(chunks.map((chunk) => chunk.created)).size).toBe(1);
      expect(chunks.every((chunk) => chunk.model === "tempo")).toBe(true);
      expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
      expect(chunks.slice(1).every((chunk) => chunk.choices[0]?.delta.role === undefined)).toBe(true);
      expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual([
        ...Array(chunks.length - 1).fill(null),
        "stop",
      ]);
      expect(chunks.at(-1)?.ext.kind).toBe("finish");
      // Only assistant text carries content, and the break between two assistant messages.
      for (const chunk of chunks)
        expect(chunk.choices[0]?.delta.content !== undefined).toBe(
          chunk.ext.kind === "assistant_text" || chunk.ext.kind === "message_break",
        );
    }

    const kinds = (chunks: ParsedChunk[]) => [...new Set(chunks.map((chunk) => chunk.ext.kind))];
    const [asked, planned, proposed, delivered] = requests as [
      ParsedChunk[],
      ParsedChunk[],
      ParsedChunk[],
      ParsedChunk[],
    ];

    // Request 1: the planner asks; the question is an `interrupt` ext, and the finish chunk says the thread waits for it.
    expect(kinds(asked)).toEqual(expect.arrayContaining(["status", "assistant_text", "interrupt", "finish"]));
    const question = asked.find((chunk) => chunk.ext.kind === "interrupt")?.ext;
    expect(question).toMatchObject({
      node: "ask_user",
      interrupt: { action_request: { action: "ask_user", args: { question: "What should the note say?" } } },
    });
    expect(asked.at(-1)?.ext).toMatchObject({
      kind: "finish",
      waiting: true,
      interrupts: [{ action_request: { action: "ask_user" } }],
    });
    // The streamed card and the one the thread waits on carry the same card_id: the interrupt id.
    const streamedId = (question as { interrupt: { card_id?: string } }).interrupt.card_id;
    expect(streamedId).toMatch(/^[0-9a-f]{32}$/);
    expect((asked.at(-1)?.ext as { interrupts: Array<{ card_id?: string }> }).interrupts[0]?.card_id).toBe(streamedId);

    // Request 2: the plan card is a `confirm_request`.
    expect(planned.find((chunk) => chunk.ext.kind === "confirm_request")?.ext).toMatchObject({
      node: "confirm",
      interrupt: {
        action_request: { action: "confirm_plan", args: { steps: "1. Add the note — done when: list_notes shows it" } },
      },
    });
    expect(planned.at(-1)?.ext).toMatchObject({ kind: "finish", phase: "waiting_confirm", waiting: true });

    // Request 3: the read tool runs (tool_call, tool_result) and the write waits for confirmation.
    const proposedExtensions = proposed.map((chunk) => chunk.ext);
    expect(proposedExtensions).toContainEqual({
      kind: "tool_call",
      node: "execute",
      tool_call: { id: expect.any(String), name: "list_notes", arguments: {} },
    });
    expect(proposedExtensions).toContainEqual({
      kind: "tool_result",
      node: "execute",
      tool_result: { id: expect.any(String), name: "list_notes", ok: true, content: "1. buy milk" },
    });
    expect(proposedExtensions).toContainEqual(
      expect.objectContaining({
        kind: "confirm_request",
        interrupt: expect.objectContaining({ action_request: { action: "add_note", args: { text: "call mom" } } }),
      }),
    );
    expect(proposedExtensions).toContainEqual(
      expect.objectContaining({ kind: "status", text: "Executing step 1 of 1: Add the note" }),
    );

    // Request 4: the write is applied and the summary streams as content; the thread is done.
    expect(delivered.map((chunk) => chunk.ext)).toContainEqual({
      kind: "tool_result",
      node: "execute",
      tool_result: { id: expect.any(String), name: "add_note", ok: true, content: "added note 2: call mom" },
    });
    expect(delivered.at(-1)?.ext).toEqual({ kind: "finish", phase: "done", waiting: false, interrupts: [] });

    // Content deltas, joined per message, are exactly the assistant messages in the final state.
    const state = await graph.getState(config);
    const texts = new Map<string, string>();
    for (const chunk of requests.flat()) {
      if (chunk.ext.kind === "assistant_text")
        texts.set(
          chunk.ext.message_id,
          (texts.get(chunk.ext.message_id) ?? "") + (chunk.choices[0]?.delta.content ?? ""),
        );
    }
    const messages = (state.values.messages as Array<{ id?: string; content: unknown }>).filter(
      (message) => message.id && texts.has(message.id),
    );
    expect(messages.length).toBe(texts.size);
    for (const message of messages) expect(texts.get(message.id!)).toBe(message.content);
    const summary = delivered
      .filter((chunk) => chunk.ext.kind === "assistant_text")
      .map((chunk) => chunk.choices[0]?.delta.content)
      .join("");
    expect(summary).toBe(state.values.finalAnswer);
    // Pseudo-streaming: the summary arrived in several short chunks.
    expect(
      delivered.filter((chunk) => chunk.ext.kind === "assistant_text" && chunk.ext.node === "deliver").length,
    ).toBeGreaterThan(2);

    // Across the conversation, every event kind Tempo emits was present.
    expect(new Set(requests.flat().map((chunk) => chunk.ext.kind))).toEqual(
      new Set(["status", "assistant_text", "tool_call", "tool_result", "confirm_request", "interrupt", "finish"]),
    );
  });

  test("a plain client that runs delta.content together sees each assistant message as its own paragraph", async () => {
    // A preference said while a review sits where it rules out: the reply, then memorize's notice, two messages.
    const { graph } = await offlineTempo(halfPlacedWeek(), undefined, { store: new InMemoryStore() });
    const config = threadConfig("sse-paragraphs", "student");
    const stream = graph.stream(
      { messages: [new HumanMessage("no studying on Mondays")] },
      {
        ...config,
        streamMode: "custom",
      },
    );
    const chunks = parseSse(await collect(streamOpenAISse(stream, { model: "tempo" })));
    // Each message's text, in the order its first piece came.
    const texts = new Map<string, string>();
    for (const chunk of chunks)
      if (chunk.ext.kind === "assistant_text")
        texts.set(chunk.ext.message_id, (texts.get(chunk.ext.message_id) ?? "") + chunk.choices[0]!.delta.content!);
    const [reply, notice] = [...texts.values()];
    expect(texts.size).toBe(2);
    expect(reply).toMatch(/^Noted as a standing preference/);
    expect(notice).toMatch(/^Already in place where "no studying on Mondays" rules out/);
    // What a plain OpenAI client shows: every content delta, run together.
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(`${reply}\n\n${notice}`);
    expect(chunks.filter((chunk) => chunk.ext.kind === "message_break")).toHaveLength(1);
  });

  test("a failed run streams an error chunk, then the finish chunk and [DONE]; the thread still waits", async () => {
    const { graph } = notesGraph();
    const config = threadConfig("sse-error");
    await graph.invoke({ messages: [new HumanMessage("Add a note")] }, config);
    const errors: unknown[] = [];
    // Not awaited: LangGraph's stream() rejects at once when the resume value is refused.
    const stream = graph.stream(resume({ type: "accept", args: null }) as Parameters<typeof graph.stream>[0], {
      ...config,
      streamMode: "custom",
    });
    const chunks = parseSse(
      await collect(
        streamOpenAISse(stream, {
          model: "tempo",
          finalState: () => graph.getState(config),
          onError: (error) => errors.push(error),
        }),
      ),
    );

    expect(chunks.map((chunk) => chunk.ext.kind)).toEqual(["error", "finish"]);
    expect(chunks[0]?.ext).toMatchObject({
      kind: "error",
      code: "INVALID_RESUME",
      message: expect.stringContaining('a text answer: { decisions: [{ type: "edit"'),
    });
    expect(chunks[1]?.ext).toMatchObject({
      kind: "finish",
      waiting: true,
      interrupts: [{ action_request: { action: "ask_user" } }],
    });
    expect(errors).toHaveLength(1);
  });
});

describe("chunk encoding", () => {
  test("a chunk is one `data:` event of compact JSON; the stream ends with [DONE]", () => {
    const encoder = new OpenAIChunkEncoder({ model: "tempo", id: "chatcmpl-1", created: 1_700_000_000 });
    const first = encoder.encode({ kind: "assistant_text", node: "chat", messageId: "ai-1", text: "Hello" });
    const second = encoder.encode({ kind: "status", node: "plan", text: "Planning" });
    // The same message goes on with no break; another message's text gets one first.
    expect(
      encoder.messageBreak({ kind: "assistant_text", node: "chat", messageId: "ai-1", text: "!" }),
    ).toBeUndefined();
    expect(
      encoder.messageBreak({ kind: "assistant_text", node: "plan", messageId: "ai-2", text: "Plan" }),
    ).toMatchObject({ choices: [{ delta: { content: "\n\n" } }], ext: { kind: "message_break" } });
    expect(first).toEqual<OpenAIChatCompletionChunk>({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model: "tempo",
      choices: [{ index: 0, delta: { role: "assistant", content: "Hello" }, finish_reason: null }],
      ext: { kind: "assistant_text", node: "chat", message_id: "ai-1" },
    });
    expect(second.choices).toEqual([{ index: 0, delta: {}, finish_reason: null }]);
    expect(formatServerSentEvent(second)).toBe(
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"tempo","choices":[{"index":0,"delta":{},"finish_reason":null}],"ext":{"kind":"status","node":"plan","text":"Planning"}}\n\n',
    );
    expect(encoder.finish()).toMatchObject({
      choices: [{ delta: {}, finish_reason: "stop" }],
      ext: { kind: "finish", phase: null, waiting: false, interrupts: [] },
    });
    expect(SSE_DONE).toBe("data: [DONE]\n\n");
  });

  test("values in the custom stream that are not Tempo events are skipped", async () => {
    async function* mixed() {
      yield { kind: "status", node: "chat", text: "Understanding your message" };
      yield { something: "else" };
      yield "text";
    }
    const chunks = parseSse(await collect(streamOpenAISse(mixed(), { model: "tempo" })));
    expect(chunks.map((chunk) => chunk.ext.kind)).toEqual(["status", "finish"]);
  });
});
