/**
 * Slash commands: the ones Tempo knows, checked before a run starts (an unknown command is refused with nothing
 * written) and again by the chat node that carries them out.
 */
import { TempoError } from "../errors/index.js";

/** Slash commands the chat node handles. */
export const KNOWN_COMMANDS = ["/clear"] as const;

/** Throws INVALID_INPUT for a slash command Tempo does not know; returns the command's name otherwise. */
export function assertKnownCommand(text: string): (typeof KNOWN_COMMANDS)[number] {
  const name = text.trim().split(/\s+/)[0]!.toLowerCase();
  if (!(KNOWN_COMMANDS as readonly string[]).includes(name)) {
    throw new TempoError("INVALID_INPUT", `Unknown command ${name}. Commands: ${KNOWN_COMMANDS.join(", ")} (clear this conversation, its task and your task summary). Nothing was changed.`, { command: name });
  }
  return name as (typeof KNOWN_COMMANDS)[number];
}
