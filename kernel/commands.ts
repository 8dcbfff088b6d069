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
 * Characters that show nothing: format characters (zero-width spaces and joiners, a byte-order mark, direction marks, a
 * soft hyphen) and the other default-ignorable ones (a Hangul filler, a variation selector): no part of a command, and
 * a message of nothing else is empty.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * The message as a command — invisible characters and the spaces at its ends taken off, its first word read by NFKC —
 * when it is one (it starts with "/"), else undefined. Every reader asks this one question, the terminal chat too: a
 * message that shows as "/prefs" is the command for the run's checks, the chat node, recall, memorize and the chat's
 * own commands alike (before, a zero-width space in front made it an answer to the waiting card: "/prefs" declined
 * the write). A Chinese input method types "／prefs" (a full-width slash, U+FF0F, the one character whose NFKC starts
 * with "/"), and may type the letters full-width too: the same command. Only the first word is normalised: an
 * argument is its reader's (/forget reads full-width digits, a path stays as typed), and a message starting with any
 * other character ("⁄", "∕", "＼") is no command.
 */
export function commandText(text: string): string | undefined {
  const visible = visibleText(text);
  const word = /^\S*/u.exec(visible)![0];
  const name = word.normalize("NFKC");
  return name.startsWith("/") ? `${name}${visible.slice(word.length)}` : undefined;
}

/** `text` without its invisible characters and the spaces around it. */
function visibleText(text: string): string {
  return text.replace(INVISIBLE, "").trim();
}

/**
 * True when `text` shows nothing: only spaces and invisible characters, or none. Such a message is empty wherever it
 * is typed — refused before a run (`checkMessageInput`), skipped by the terminal chat like an empty line — so no
 * run plans or asks a model about nothing.
 */
export function isBlankText(text: string): boolean {
  return visibleText(text) === "";
}

/** True when the message is a slash command (`commandText`). */
export function isCommandText(text: string): boolean {
  return commandText(text) !== undefined;
}

/** Most characters of a command's name said back: an unknown 100,000-character "/xxx…" is not echoed whole. */
const SAID_NAME_CHARACTERS = 40;

/** A command's name as a message says it back: its first 40 characters and "…" when longer. */
export function saidCommandName(name: string): string {
  const characters = Array.from(name);
  return characters.length > SAID_NAME_CHARACTERS ? `${characters.slice(0, SAID_NAME_CHARACTERS).join("")}…` : name;
}

/** What each known command takes that was given otherwise, said (undefined when it was given right). */
function usageMistake(name: string, args: readonly string[]): string | undefined {
  // "/clear monday" reads as a schedule request: it must not wipe the conversation and its waiting card.
  if (name === "/clear" && args.length > 0)
    return "/clear takes no argument: it clears this conversation, its task and your task summary.";
  if (name === "/prefs" && args.length > 0) return "/prefs takes no argument: it lists your standing preferences.";
  if (name === "/forget" && args.length !== 1)
    return "Usage: /forget <number or id>. /prefs lists your standing preferences.";
  return undefined;
}

/**
 * Throws INVALID_INPUT for a slash command Tempo does not know, or one with the wrong arguments (`/clear` and `/prefs`
 * take none, `/forget` one: a second line is an argument too, so "/clear\n/forget 1" runs neither); returns the
 * command's name and arguments otherwise, read as `commandText` reads them ("/prefs" and a zero-width space is
 * /prefs, and so is "／ｐｒｅｆｓ").
 */
export function assertKnownCommand(text: string): CommandCall {
  const [first = "", ...args] = (commandText(text) ?? visibleText(text)).split(/\s+/);
  const name = first.toLowerCase();
  if (!Object.hasOwn(KNOWN_COMMANDS, name)) {
    const known = Object.values(KNOWN_COMMANDS).join(", ");
    const said = saidCommandName(name);
    throw new TempoError("INVALID_INPUT", `Unknown command ${said}. Commands: ${known}. Nothing was changed.`, {
      command: said,
    });
  }
  const usage = usageMistake(name, args);
  if (usage) throw new TempoError("INVALID_INPUT", `${usage} Nothing was changed.`, { command: name });
  return { name: name as KnownCommand, args } as CommandCall;
}

const RETRY_PHRASES = new Set(["再试", "再试一次", "重试", "继续", "try again", "retry", "continue", "again"]);

/** True for a retry phrase (docs/design.md#resets-and-retries). */
export function isRetryPhrase(text: string): boolean {
  // Trailing marks trimmed in one pass: a regular expression's `[…]+$` is quadratic on a long message (edge-trim.ts).
  return RETRY_PHRASES.has(trimEdges(text.trim().toLowerCase(), /[\s.!。！]/, "end"));
}
