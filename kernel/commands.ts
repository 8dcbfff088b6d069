/**
 * What a message means before any model reads it: slash commands — the ones Tempo knows, checked before a run starts
 * (an unknown command is refused with nothing written) and again by the chat node that carries them out — and retry
 * phrases ("continue", "retry"), which the run checks and the chat node both read.
 */
import { trimEdges } from "../contracts/edge-trim.js";
import { TempoError } from "../errors/index.js";

/** Slash commands the chat node handles. */
export const KNOWN_COMMANDS = ["/clear"] as const;

/** Throws INVALID_INPUT for a slash command Tempo does not know; returns the command's name otherwise. */
export function assertKnownCommand(text: string): (typeof KNOWN_COMMANDS)[number] {
  const name = text.trim().split(/\s+/)[0]!.toLowerCase();
  if (!(KNOWN_COMMANDS as readonly string[]).includes(name)) {
    throw new TempoError(
      "INVALID_INPUT",
      `Unknown command ${name}. Commands: ${KNOWN_COMMANDS.join(", ")} (clear this conversation, its task and your task summary). Nothing was changed.`,
      { command: name },
    );
  }
  return name as (typeof KNOWN_COMMANDS)[number];
}

const RETRY_PHRASES = new Set(["再试", "再试一次", "重试", "继续", "try again", "retry", "continue", "again"]);

/** True for a retry phrase (docs/design.md#resets-and-retries). */
export function isRetryPhrase(text: string): boolean {
  // Trailing marks trimmed in one pass: a regular expression's `[…]+$` is quadratic on a long message (edge-trim.ts).
  return RETRY_PHRASES.has(trimEdges(text.trim().toLowerCase(), /[\s.!。！]/, "end"));
}
