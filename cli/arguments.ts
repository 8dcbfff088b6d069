/**
 * The terminal chat's command-line flags:
 *
 *   npm start -- [--thread <id>] [--user <id>] [--threads-file <path>] [--week <file>] [--now <date-time>] [--verbose]
 *                [--help]
 */
import { isIsoDateTime } from "../config/configuration.js";
import { TempoError } from "../errors/index.js";

/** Parsed flags; anything left out takes its default in `cli/chat.ts`. */
export interface ChatArguments {
  /** Thread to open (and resume, if it waits for an answer). */
  threadId?: string;
  /** User to chat as; default `TEMPO_USER_ID` (settings). */
  userId?: string;
  /** The JSON file listing this CLI's threads; default `.tempo/cli-threads.json`. */
  threadsFile?: string;
  /** A week file (examples/week.json's shape) that replaces the user's schedule before the chat starts. */
  weekFile?: string;
  /**
   * The moment the chat takes as now (an ISO date-time with its zone): every run's `configurable.now`, the week
   * view's clock, and the present a week file is moved to. Default: the clock. For replaying a day, and for tests.
   */
  now?: string;
  /** The debug view: tool names, ids and JSON arguments on tool lines and cards (also `/debug` in the chat). */
  verbose: boolean;
  /** Print the usage and exit. */
  help: boolean;
}

/** A command line the chat cannot run with. */
export class ChatUsageError extends TempoError {
  constructor(message: string) {
    super("INVALID_INPUT", `${message}\n${CHAT_USAGE}`);
    this.name = "ChatUsageError";
  }
}

/** One-paragraph usage text. */
export const CHAT_USAGE = [
  "usage: npm start -- [--thread <id>] [--user <id>] [--threads-file <path>] [--week <file>] [--now <date-time>] [--verbose]",
  "  --thread <id>         open this thread (a thread waiting for an answer shows its card again)",
  "  --user <id>           chat as this user (default: TEMPO_USER_ID, else local-user)",
  "  --threads-file <path> where /threads keeps this CLI's thread list (default: .tempo/cli-threads.json)",
  "  --week <file>         replace your schedule with this week file first (see examples/week.json); a week whose",
  "                        days have all passed is moved by whole weeks to the coming one",
  "  --now <date-time>     take this moment as now, e.g. 2024-03-13T14:30:00+08:00 (default: the clock)",
  "  --verbose             show tool names, ids and JSON arguments (the debug view; /debug toggles it)",
].join("\n");

const VALUE_FLAGS = {
  "--thread": "threadId",
  "--user": "userId",
  "--threads-file": "threadsFile",
  "--week": "weekFile",
  "--now": "now",
} as const;

/** Parses `argv` (without node and the script); `--flag value` and `--flag=value` both work. */
export function parseChatArguments(argv: readonly string[]): ChatArguments {
  const parsed: ChatArguments = { help: false, verbose: false };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument === "--help" || argument === "-h") {
      parsed.help = true;
      continue;
    }
    if (argument === "--verbose") {
      parsed.verbose = true;
      continue;
    }
    const [flag, inline] = argument.includes("=")
      ? [argument.slice(0, argument.indexOf("=")), argument.slice(argument.indexOf("=") + 1)]
      : [argument, undefined];
    if (!(flag in VALUE_FLAGS)) throw new ChatUsageError(`Unknown argument ${argument}.`);
    const value = inline ?? argv[(index += 1)];
    if (value === undefined || value.trim() === "" || (inline === undefined && value.startsWith("--"))) {
      throw new ChatUsageError(`${flag} needs a value.`);
    }
    parsed[VALUE_FLAGS[flag as keyof typeof VALUE_FLAGS]] = value.trim();
  }
  if (parsed.now !== undefined && !isIsoDateTime(parsed.now))
    throw new ChatUsageError(
      `--now needs an ISO date-time with its zone, such as 2024-03-13T14:30:00+08:00; got "${parsed.now}".`,
    );
  return parsed;
}
