/**
 * Turns the `custom` stream's Tempo events into terminal text as they
 * arrive: status lines, reasoning blocks, tool activity, and the assistant's text, whose
 * pseudo-streamed chunks join into one `tempo>` line per message. Cards
 * are not printed from the stream: the chat renders them from the saved
 * state, which also covers a card re-shown after a restart.
 */
import type { Language } from "../contracts/language.js";
import type { TempoEvent } from "../streaming/events.js";
import type { ScheduleState } from "../tools/schedule/state.js";
import { ASSISTANT_PREFIX, renderReasoning, renderStatus, renderToolCall, renderToolResult } from "./render.js";
import { describeToolCall, describeToolResult } from "./tool-words.js";

/** How tool activity is told: in people's words (the default), or as tool names, ids and JSON (`verbose`). */
export interface StreamPrinterOptions {
  verbose?: boolean;
  language?: Language;
  /** The user's week as the run began: names and dates for the tasks the tools name by id. */
  schedule?: ScheduleState;
}

/** Stateful only in which assistant message is open on the current line. */
export class StreamPrinter {
  private openMessageId: string | undefined;

  constructor(private readonly options: StreamPrinterOptions = {}) {}

  /** The text to write for one event (may be empty). */
  print(event: TempoEvent): string {
    if (event.kind === "assistant_text") {
      if (this.openMessageId === event.messageId) return event.text;
      const close = this.close();
      this.openMessageId = event.messageId;
      return `${close}${ASSISTANT_PREFIX}${event.text}`;
    }
    const line = this.lineOf(event);
    return line === null ? "" : `${this.close()}${line}\n`;
  }

  /** Ends an open assistant line; call when the stream ends. */
  close(): string {
    if (this.openMessageId === undefined) return "";
    this.openMessageId = undefined;
    return "\n";
  }

  private lineOf(event: Exclude<TempoEvent, { kind: "assistant_text" }>): string | null {
    const { verbose = false, language = "en", schedule } = this.options;
    switch (event.kind) {
      case "status":
        return renderStatus(event.text);
      case "reasoning":
        return renderReasoning(event.text, language);
      case "tool_call":
        return verbose
          ? renderToolCall(event.name, event.arguments)
          : `  → ${describeToolCall(event.name, event.arguments, language, schedule)}`;
      case "tool_result":
        return verbose
          ? renderToolResult(event.ok, event.content)
          : renderToolResult(event.ok, describeToolResult(event.content, event.data, language, schedule));
      case "confirm_request":
      case "interrupt":
        return null;
    }
  }
}
