/**
 * Tempo's stream as OpenAI-compatible server-sent events (docs/design.md#streaming).
 * Assistant text travels as ordinary `delta.content`, so any OpenAI chat
 * client shows it; a model's reasoning as `delta.reasoning_content` (the
 * field DeepSeek-style clients show as thinking, never as the answer) with
 * `ext.kind` "reasoning_text"; everything else (status lines, tool calls and results,
 * confirmation cards, questions) rides in an `ext` field beside `choices`,
 * which OpenAI clients ignore and a Tempo front end reads.
 *
 *   const stream = graph.stream(input, { ...config, streamMode: "custom" }); // not awaited: start errors become SSE too
 *   for await (const text of streamOpenAISse(stream, { model: "tempo", finalState: () => graph.getState(config) })) {
 *     response.write(text);
 *   }
 */
import { randomUUID } from "node:crypto";
import { asCard, type Card } from "../contracts/cards.js";
import type { TempoEvent } from "../streaming/events.js";

/** The `delta` of a chunk: the role on the first chunk, assistant text when there is some. */
export interface OpenAIChunkDelta {
  role?: "assistant";
  content?: string;
  /** A model's reasoning (also in `ext` as `reasoning_text`); never the answer. */
  reasoning_content?: string;
}

/** Why the stream ended; `null` on every chunk but the last. */
export type OpenAIFinishReason = "stop" | null;

/** One choice of a chunk; Tempo streams a single choice. */
export interface OpenAIChunkChoice {
  index: 0;
  delta: OpenAIChunkDelta;
  finish_reason: OpenAIFinishReason;
}

/** Tempo's extension of an OpenAI chunk: what it carries besides assistant text. */
export type TempoChunkExtension =
  /** A piece of assistant text (also in `delta.content`); chunks of one message share `message_id`. */
  | { kind: "assistant_text"; node: string; message_id: string }
  /** A status line ("Executing step 2 of 3: …"; "Waiting for the execute model… 6 s" with `elapsed_ms`). */
  | { kind: "status"; node: string; text: string; elapsed_ms?: number }
  /** The reasoning a model returned (also in `delta.reasoning_content`): its own block, in time order with the rest. */
  | { kind: "reasoning_text"; node: string; text: string }
  /** A tool call about to run (read tool) or being applied after its confirmation (write tool). */
  | { kind: "tool_call"; node: string; tool_call: { id: string; name: string; arguments: Record<string, unknown> } }
  /** A tool's result. */
  | { kind: "tool_result"; node: string; tool_result: { id: string; name: string; ok: boolean; content: string } }
  /** A confirmation card (the plan or a write tool): a Tempo card (v1 HITL + legacy HumanInterrupt fields, card_id). */
  | { kind: "confirm_request"; node: string; interrupt: Card }
  /** A question for the user: a card of kind ask_user, answered with text. */
  | { kind: "interrupt"; node: string; interrupt: Card }
  /**
   * Between two assistant messages of one stream: `delta.content` is "\n\n", so a client that shows `delta.content`
   * run together sees two paragraphs, not one message glued to the next; a client that groups text by `message_id`
   * skips it (it has none).
   */
  | { kind: "message_break" }
  /** The run failed; the thread keeps its last checkpoint. */
  | { kind: "error"; code: string; message: string }
  /** The last chunk: where the thread stands, and the interrupts it waits on (answer them to resume). */
  | { kind: "finish"; phase: string | null; waiting: boolean; interrupts: Card[] };

/** The kinds an `ext` field can have. */
export type TempoChunkExtensionKind = TempoChunkExtension["kind"];

/** An OpenAI `chat.completion.chunk` with Tempo's `ext` field. */
export interface OpenAIChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  /** Unix time in seconds, the same for every chunk of a stream. */
  created: number;
  model: string;
  choices: [OpenAIChunkChoice];
  ext?: TempoChunkExtension;
}

/** What the final chunk reports: a LangGraph state snapshot (`graph.getState(config)`) fits. */
export interface FinalStateLike {
  values?: { phase?: unknown } | Record<string, unknown>;
  tasks?: ReadonlyArray<{ interrupts?: ReadonlyArray<{ value?: unknown }> }>;
}

/** Options of {@link OpenAIChunkEncoder} and {@link streamOpenAISse}. */
export interface OpenAIChunkOptions {
  /** The `model` field of every chunk, e.g. "tempo" or the served model's name. */
  model: string;
  /** The `id` shared by every chunk of the stream; default `chatcmpl-<random>`. */
  id?: string;
  /** The `created` time in seconds; default now. */
  created?: number;
}

/** The SSE line that ends an OpenAI stream. */
export const SSE_DONE = "data: [DONE]\n\n";

/**
 * Turns one stream's Tempo events into OpenAI chunks. Stateful only in that
 * the first chunk carries `delta.role: "assistant"`, every chunk shares
 * the stream's id and creation time, and it remembers whose text came last
 * (for {@link OpenAIChunkEncoder.messageBreak}).
 */
export class OpenAIChunkEncoder {
  readonly id: string;
  readonly created: number;
  readonly model: string;
  private roleSent = false;
  private lastTextOf: string | undefined;

  constructor(options: OpenAIChunkOptions) {
    this.id = options.id ?? `chatcmpl-${randomUUID()}`;
    this.created = options.created ?? Math.floor(Date.now() / 1000);
    this.model = options.model;
  }

  /**
   * The `message_break` chunk to send before `event` when it starts another assistant message than the one whose
   * text came last; undefined otherwise. A transport calls it before {@link encode}, as `streamOpenAISse` does.
   */
  messageBreak(event: TempoEvent): OpenAIChatCompletionChunk | undefined {
    if (event.kind !== "assistant_text" || this.lastTextOf === undefined || this.lastTextOf === event.messageId)
      return undefined;
    return this.chunk({ content: "\n\n" }, null, { kind: "message_break" });
  }

  /** The chunk for one Tempo event. */
  encode(event: TempoEvent): OpenAIChatCompletionChunk {
    switch (event.kind) {
      case "assistant_text":
        this.lastTextOf = event.messageId;
        return this.chunk({ content: event.text }, null, {
          kind: "assistant_text",
          node: event.node,
          message_id: event.messageId,
        });
      case "status":
        return this.chunk({}, null, {
          kind: "status",
          node: event.node,
          text: event.text,
          ...(event.elapsedMs === undefined ? {} : { elapsed_ms: event.elapsedMs }),
        });
      case "reasoning":
        return this.chunk({ reasoning_content: event.text }, null, {
          kind: "reasoning_text",
          node: event.node,
          text: event.text,
        });
      case "tool_call":
        return this.chunk({}, null, {
          kind: "tool_call",
          node: event.node,
          tool_call: { id: event.id, name: event.name, arguments: event.arguments },
        });
      case "tool_result":
        return this.chunk({}, null, {
          kind: "tool_result",
          node: event.node,
          tool_result: { id: event.id, name: event.name, ok: event.ok, content: event.content },
        });
      case "confirm_request":
        return this.chunk({}, null, { kind: "confirm_request", node: event.node, interrupt: event.interrupt });
      case "interrupt":
        return this.chunk({}, null, { kind: "interrupt", node: event.node, interrupt: event.interrupt });
    }
  }

  /** A chunk reporting a failed run. */
  error(error: unknown): OpenAIChatCompletionChunk {
    const code =
      typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : "INTERNAL_ERROR";
    const message = error instanceof Error ? error.message : String(error);
    return this.chunk({}, null, { kind: "error", code, message });
  }

  /** The last chunk (`finish_reason: "stop"`), with the final state's phase and pending interrupts when given. */
  finish(finalState?: FinalStateLike): OpenAIChatCompletionChunk {
    const interrupts = pendingInterrupts(finalState);
    const phase = finalState?.values && typeof finalState.values.phase === "string" ? finalState.values.phase : null;
    return this.chunk({}, "stop", { kind: "finish", phase, waiting: interrupts.length > 0, interrupts });
  }

  private chunk(
    delta: OpenAIChunkDelta,
    finishReason: OpenAIFinishReason,
    ext: TempoChunkExtension,
  ): OpenAIChatCompletionChunk {
    const withRole: OpenAIChunkDelta = this.roleSent ? delta : { role: "assistant", ...delta };
    this.roleSent = true;
    return {
      id: this.id,
      object: "chat.completion.chunk",
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta: withRole, finish_reason: finishReason }],
      ext,
    };
  }
}

/** The cards a state snapshot waits on, in task order (values that are not Tempo cards are left out). */
export function pendingInterrupts(finalState: FinalStateLike | undefined): Card[] {
  return (finalState?.tasks ?? []).flatMap((task) =>
    (task.interrupts ?? []).flatMap((pending) => asCard(pending.value) ?? []),
  );
}

/** One chunk as a server-sent event: `data: {json}\n\n`. */
export function formatServerSentEvent(chunk: OpenAIChatCompletionChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** True for the typed events Tempo writes to the `custom` stream (anything else a node writes is skipped). */
export function isTempoEvent(value: unknown): value is TempoEvent {
  if (value === null || typeof value !== "object") return false;
  const kind = (value as { kind?: unknown }).kind;
  return (
    kind === "status" ||
    kind === "reasoning" ||
    kind === "assistant_text" ||
    kind === "tool_call" ||
    kind === "tool_result" ||
    kind === "confirm_request" ||
    kind === "interrupt"
  );
}

/** Options of {@link streamOpenAISse}. */
export interface OpenAISseOptions extends OpenAIChunkOptions {
  /** Reads the thread's state after the run (e.g. `() => graph.getState(config)`) for the finish chunk. */
  finalState?: () => Promise<FinalStateLike>;
  /** Called with an error the run raised; the stream has already reported it in an `error` chunk. */
  onError?: (error: unknown) => void;
}

/**
 * Adapts `graph.stream(..., { streamMode: "custom" })` to SSE text: one
 * `data:` event per Tempo event (and a `message_break` before a second
 * assistant message's text), a finish chunk, then `data: [DONE]`.
 * Pass the stream's promise unawaited: LangGraph's `stream()` rejects when
 * the run fails before its first event (an invalid resume value, say), and
 * that failure is then streamed like any other. A run that fails is
 * reported, not thrown: an `error` chunk, the finish chunk and `[DONE]`
 * still follow, so the client's stream always ends cleanly (`onError` sees
 * the error for logging).
 */
export async function* streamOpenAISse(
  stream: AsyncIterable<unknown> | PromiseLike<AsyncIterable<unknown>>,
  options: OpenAISseOptions,
): AsyncGenerator<string, void, undefined> {
  const encoder = new OpenAIChunkEncoder(options);
  try {
    for await (const event of await stream) {
      if (!isTempoEvent(event)) continue;
      const messageBreak = encoder.messageBreak(event);
      if (messageBreak) yield formatServerSentEvent(messageBreak);
      yield formatServerSentEvent(encoder.encode(event));
    }
  } catch (error) {
    options.onError?.(error);
    yield formatServerSentEvent(encoder.error(error));
  }
  let finalState: FinalStateLike | undefined;
  if (options.finalState) {
    try {
      finalState = await options.finalState();
    } catch (error) {
      options.onError?.(error);
      yield formatServerSentEvent(encoder.error(error));
    }
  }
  yield formatServerSentEvent(encoder.finish(finalState));
  yield SSE_DONE;
}
