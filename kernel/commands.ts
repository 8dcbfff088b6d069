/**
 * What a message means before any model reads it: slash commands — the ones Tempo knows, checked before a run starts
 * (an unknown command is refused with nothing written) and again by the chat node that carries them out — and retry
 * phrases ("continue", "retry"), which the run checks and the chat node both read.
 */
import { trimEdges } from "../contracts/edge-trim.js";
import { TempoError } from "../errors/index.js";

/** Slash commands the chat node handles, each with what it does (said when a command is not known). */
export const KNOWN_COMMANDS = {
  "/clear": "/clear (clear this conversation, its task and your task summary)",
  "/prefs": "/prefs (list your standing preferences, numbered)",
  "/forget": "/forget <number or id> (remove one standing preference)",
} as const;

export type KnownCommand = keyof typeof KNOWN_COMMANDS;

/** A known command as typed: its name and its arguments. */
export type CommandCall = { [Name in KnownCommand]: { name: Name; args: string[] } }[KnownCommand];

/**
 * Throws INVALID_INPUT for a slash command Tempo does not know, or one with the wrong arguments (`/prefs` takes none,
 * `/forget` one); returns the command's name and arguments otherwise.
 */
export function assertKnownCommand(text: string): CommandCall {
  const [first = "", ...args] = text.trim().split(/\s+/);
  const name = first.toLowerCase();
  if (!Object.hasOwn(KNOWN_COMMANDS, name)) {
    const known = Object.values(KNOWN_COMMANDS).join(", ");
    throw new TempoError("INVALID_INPUT", `Unknown command ${name}. Commands: ${known}. Nothing was changed.`, {
      command: name,
    });
  }
  const usage =
    name === "/prefs" && args.length > 0
      ? "/prefs takes no argument: it lists your standing preferences."
      : name === "/forget" && args.length !== 1
        ? "Usage: /forget <number or id>. /prefs lists your standing preferences."
        : undefined;
  if (usage) throw new TempoError("INVALID_INPUT", `${usage} Nothing was changed.`, { command: name });
  return { name: name as KnownCommand, args } as CommandCall;
}

const RETRY_PHRASES = new Set(["再试", "再试一次", "重试", "继续", "try again", "retry", "continue", "again"]);

/** True for a retry phrase (docs/design.md#resets-and-retries). */
export function isRetryPhrase(text: string): boolean {
  // Trailing marks trimmed in one pass: a regular expression's `[…]+$` is quadratic on a long message (edge-trim.ts).
  return RETRY_PHRASES.has(trimEdges(text.trim().toLowerCase(), /[\s.!。！]/, "end"));
}
