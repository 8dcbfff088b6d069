/**
 * Turns the `custom` stream's Tempo events into terminal text as they
 * arrive: status lines, reasoning blocks, tool activity, and the assistant's text, whose
 * pseudo-streamed chunks join into one `tempo>` line per message. Cards
 * are not printed from the stream: the chat renders them from the saved
 * state, which also covers a card re-shown after a restart.
 */
import type { TempoEvent } from "../streaming/events.js";
import { ASSISTANT_PREFIX, renderReasoning, renderStatus, renderToolCall, renderToolResult } from "./render.js";

/** Stateful only in which assistant message is open on the current line. */
export class StreamPrinter {
  private openMessageId: string | undefined;

  /** The text to write for one event (may be empty). */
  print(event: TempoEvent): string {
    if (event.kind === "assistant_text") {
      if (this.openMessageId === event.messageId) return event.text;
      const close = this.close();
      this.openMessageId = event.messageId;
      return `${close}${ASSISTANT_PREFIX}${event.text}`;
    }
    const line = lineOf(event);
    return line === null ? "" : `${this.close()}${line}\n`;
  }

  /** Ends an open assistant line; call when the stream ends. */
  close(): string {
    if (this.openMessageId === undefined) return "";
    this.openMessageId = undefined;
    return "\n";
  }
}

function lineOf(event: Exclude<TempoEvent, { kind: "assistant_text" }>): string | null {
  switch (event.kind) {
    case "status":
      return renderStatus(event.text);
    case "reasoning":
      return renderReasoning(event.text);
    case "tool_call":
      return renderToolCall(event.name, event.arguments);
    case "tool_result":
      return renderToolResult(event.ok, event.content);
    case "confirm_request":
    case "interrupt":
      return null;
  }
}
