/**
 * Tempo's stream event kinds (docs/design.md#streaming), carried by LangGraph's `custom` stream mode.
 * Nodes emit them through `config.writer`; `stream(..., { streamMode: "custom" })`
 * yields them as these typed objects.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Card } from "../contracts/cards.js";
import { languageOf, say } from "../contracts/language.js";

export type TempoEvent =
  /**
   * Progress the UI shows as a status line ("executing step 2 of 3"), in the user's language (`emitStatus`); while a model call runs longer than a few
   * seconds, "Waiting for the execute model… 6 s" with `elapsedMs` (models/model-call.ts).
   */
  | { kind: "status"; node: string; text: string; elapsedMs?: number }
  /** The reasoning a model returned with a decision (`reasoning_content`, reasoning blocks): shown as its own block, never part of the answer. */
  | { kind: "reasoning"; node: string; text: string }
  /** A short chunk of assistant text (pseudo-streamed, docs/design.md#streaming). */
  | { kind: "assistant_text"; node: string; messageId: string; text: string }
  /** A tool call about to run (read) or applied after confirmation (write). */
  | { kind: "tool_call"; node: string; id: string; name: string; arguments: Record<string, unknown> }
  /** A tool's result; `data` is its structured result (the ToolMessage's artifact) when the tool gave one. */
  | { kind: "tool_result"; node: string; id: string; name: string; ok: boolean; content: string; data?: unknown }
  /** A confirmation card (plan or write tool) the user must answer (contracts/cards.ts), with its card_id. */
  | { kind: "confirm_request"; node: string; interrupt: Card }
  /** A question to the user (a card of kind ask_user). */
  | { kind: "interrupt"; node: string; interrupt: Card };

export type TempoEventKind = TempoEvent["kind"];

/** Sends one event to the `custom` stream, if the caller is streaming it. */
export function emit(config: LangGraphRunnableConfig | undefined, event: TempoEvent): void {
  config?.writer?.(event);
}

/**
 * Sends a status line in the user's language (`languageOf` the conversation): `english`, or `chinese` for a
 * Chinese-speaking user — the terminal chat prints it as it is, and a served client shows it as it is.
 */
export function emitStatus(
  config: LangGraphRunnableConfig | undefined,
  node: string,
  messages: readonly BaseMessage[],
  english: string,
  chinese: string,
): void {
  if (!config?.writer) return;
  emit(config, { kind: "status", node, text: say(languageOf(messages), english, chinese) });
}

/** Splits text into chunks of about 8–24 characters, preferring punctuation and spaces, so a whole answer reads as a stream. */
export function splitPseudoStream(text: string, minimum = 8, maximum = 24): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > maximum) {
    let cut = -1;
    for (let index = maximum; index >= minimum; index -= 1) {
      if (/[\s,.;:!?，。；：！？、]/.test(rest[index - 1] ?? "")) {
        cut = index;
        break;
      }
    }
    if (cut === -1) cut = maximum;
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length > 0) chunks.push(rest);
  return chunks;
}

/** Emits `text` as a sequence of assistant_text chunks. */
export function emitAssistantText(
  config: LangGraphRunnableConfig | undefined,
  node: string,
  messageId: string,
  text: string,
): void {
  if (!config?.writer) return;
  for (const chunk of splitPseudoStream(text)) emit(config, { kind: "assistant_text", node, messageId, text: chunk });
}
