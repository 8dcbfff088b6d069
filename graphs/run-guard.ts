/**
 * The run guard: checks a run BEFORE LangGraph writes its input to the
 * thread, so a refused run leaves the thread exactly as it was.
 *
 * - the run's user (the server's authenticated user, else `user_id`) must
 *   own the thread — the owner in its latest checkpoint, or the server's
 *   `metadata.owner` of the thread — even when the run starts from an earlier
 *   checkpoint (else THREAD_ACCESS_DENIED);
 * - from outside, state moves only through a message or the answer to the
 *   pending card: a `Command` carrying `update` or `goto`, and `updateState` /
 *   `bulkUpdateState`, are refused (STATE_CHANGE_REFUSED);
 * - a message must be non-empty, within `maxMessageCharacters`, and a slash
 *   command must be one Tempo knows (else INVALID_INPUT);
 * - a resume needs a thread that waits on an interrupt, and a non-null value
 *   (else INVALID_RESUME);
 * - the recursion limit follows the round budget, so `maxRounds` — not
 *   LangGraph's default of 25 steps — bounds a run.
 *
 * It wraps `stream` (which `invoke` uses) and `streamEvents` (which the
 * LangGraph server uses: `version: "v3"` for protocol runs, as `useStream`
 * starts them, and an event iterable for `runs.stream`) of a compiled graph;
 * `invoke` also reports a lost database connection as `DatabaseUnreachableError`.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { IterableReadableStream } from "@langchain/core/utils/stream";
import { isCommand, type StateSnapshot } from "@langchain/langgraph";
import { ensureConfiguration, type WorkflowSettings } from "../config/configuration.js";
import { DatabaseUnreachableError, InvalidResumeError, TempoError } from "../errors/index.js";

/** Slash commands the chat node handles. */
export const KNOWN_COMMANDS = ["/clear"] as const;

interface GuardableGraph {
  invoke(input: unknown, options?: Record<string, unknown>): Promise<unknown>;
  getState(config: RunnableConfig): Promise<StateSnapshot>;
  stream(input: unknown, options?: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  streamEvents(input: unknown, options?: Record<string, unknown>, streamOptions?: unknown): AsyncIterable<unknown> | Promise<unknown>;
  updateState(...args: unknown[]): Promise<unknown>;
  bulkUpdateState(...args: unknown[]): Promise<unknown>;
  checkpointer?: unknown;
}

/** Installs the guard on `graph` (in place) and returns it. */
export function guardRuns<G>(graph: G, settings: WorkflowSettings): G {
  const target = graph as unknown as GuardableGraph;
  const stream = target.stream.bind(target);
  const invoke = target.invoke.bind(target);
  target.invoke = async (input, options) => {
    try {
      return await invoke(input, options);
    } catch (error) {
      throw asDatabaseError(error);
    }
  };
  const streamEvents = target.streamEvents.bind(target);
  target.stream = async (input, options) => {
    await checkRun(target, input, options, settings);
    return stream(input, withRecursionLimit(options, settings));
  };
  target.streamEvents = (input, options, streamOptions) => {
    // Version "v3" resolves to LangGraph's run stream (protocol events) rather than returning an iterable.
    if (options?.version === "v3") {
      return checkRun(target, input, options, settings).then(() => streamEvents(input, withRecursionLimit(options, settings), streamOptions));
    }
    return IterableReadableStream.fromAsyncGenerator(
      (async function* guarded() {
        await checkRun(target, input, options, settings);
        yield* streamEvents(input, withRecursionLimit(options, settings), streamOptions) as AsyncIterable<unknown>;
      })(),
    );
  };
  // No route around a card: state set by hand (an approved write, another owner) would skip the human.
  target.updateState = target.bulkUpdateState = async () => {
    throw new TempoError("STATE_CHANGE_REFUSED", STATE_CHANGE_REFUSAL);
  };
  return graph;
}

const STATE_CHANGE_REFUSAL =
  "A Tempo thread's state changes only through a new message or the answer to the card it waits on (a resume); " +
  "updateState and Command update/goto are refused. Nothing was changed.";

/** Throws the typed error a run deserves, before anything is written. */
export async function checkRun(graph: GuardableGraph, input: unknown, options: Record<string, unknown> | undefined, settings: WorkflowSettings): Promise<void> {
  const config = (options ?? {}) as RunnableConfig;
  const { userId, threadId } = ensureConfiguration(config, settings);
  if (isCommand(input) && (hasValue((input as { update?: unknown }).update) || ((input as { goto?: unknown[] }).goto ?? []).length > 0)) {
    throw new TempoError("STATE_CHANGE_REFUSED", STATE_CHANGE_REFUSAL);
  }
  if (isCommand(input) && (input as { resume?: unknown }).resume === null) {
    throw new InvalidResumeError("A resume needs a value: a HumanResponse such as { type: \"accept\", args: null }.");
  }
  const text = messageInputText(input);
  if (text !== undefined) checkMessage(text, settings);

  // The LangGraph server passes the thread's metadata, where its auth handler stamped the owner at creation.
  assertOwner(((config.metadata ?? {}) as { owner?: unknown }).owner, userId);
  if (!threadId || !graph.checkpointer) return;
  // The checkpoint the run starts from: the latest, or the one the caller addressed. The owner is the latest
  // checkpoint's, so a run from an early checkpoint (before the owner was recorded) cannot take the thread over.
  const checkpointId = (config.configurable as { checkpoint_id?: string } | undefined)?.checkpoint_id;
  const latest = await graph.getState({ configurable: { thread_id: threadId } });
  const snapshot = checkpointId ? await graph.getState({ configurable: { thread_id: threadId, checkpoint_id: checkpointId } }) : latest;
  assertOwner((latest.values as { userId?: string } | undefined)?.userId, userId);
  assertOwner((snapshot.values as { userId?: string } | undefined)?.userId, userId);
  const resume = isCommand(input) && (input as { resume?: unknown }).resume !== undefined;
  if (resume && !snapshot.tasks.some((task) => task.interrupts.length > 0)) {
    throw new InvalidResumeError(
      snapshot.createdAt
        ? "This thread is not waiting for an answer, so there is nothing to resume; send a new message instead."
        : "There is no thread with this id to resume; start it with a message first.",
      { threadId },
    );
  }
}

/** Refuses a run of `userId` on a thread `owner` (when known) owns. */
function assertOwner(owner: unknown, userId: string): void {
  if (typeof owner === "string" && owner !== "" && owner !== userId) {
    throw new TempoError("THREAD_ACCESS_DENIED", "This thread belongs to another user; use a thread of your own. Nothing was changed.", { userId });
  }
}

function hasValue(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Refuses empty, oversized and unknown-command messages. */
function checkMessage(text: string, settings: WorkflowSettings): void {
  const trimmed = text.trim();
  if (trimmed === "") throw new TempoError("INVALID_INPUT", "The message is empty; nothing was changed.");
  if (text.length > settings.maxMessageCharacters) {
    throw new TempoError("INVALID_INPUT", `The message has ${text.length} characters; the limit is ${settings.maxMessageCharacters}. Shorten it or attach the content another way; nothing was changed.`, {
      length: text.length,
    });
  }
  if (trimmed.startsWith("/")) assertKnownCommand(trimmed);
}

/** Throws INVALID_INPUT for a slash command Tempo does not know; returns the command's name otherwise. */
export function assertKnownCommand(text: string): (typeof KNOWN_COMMANDS)[number] {
  const name = text.trim().split(/\s+/)[0]!.toLowerCase();
  if (!(KNOWN_COMMANDS as readonly string[]).includes(name)) {
    throw new TempoError("INVALID_INPUT", `Unknown command ${name}. Commands: ${KNOWN_COMMANDS.join(", ")} (clear this conversation, its task and your task summary). Nothing was changed.`, { command: name });
  }
  return name as (typeof KNOWN_COMMANDS)[number];
}

/** The text of the last user message of a `{ messages }` input, or undefined for other inputs. */
function messageInputText(input: unknown): string | undefined {
  if (input === null || typeof input !== "object" || isCommand(input) || !("messages" in input)) return undefined;
  const raw = (input as { messages: unknown }).messages;
  const messages = Array.isArray(raw) ? raw : [raw];
  if (messages.length === 0) return "";
  const last = messages.at(-1) as BaseMessage | { role?: string; content?: unknown } | string;
  if (typeof last === "string") return last;
  const content = (last as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === "string" ? part : typeof part?.text === "string" ? part.text : "")).join("");
  return "";
}

const CONNECTION_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);

/** A lost or refused database connection as DatabaseUnreachableError (the thread is kept at its last checkpoint); other errors as they are. */
export function asDatabaseError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const lost = (typeof code === "string" && CONNECTION_ERROR_CODES.has(code)) || /Connection terminated|terminating connection/i.test(message);
  if (!lost || error instanceof TempoError) return error;
  return new DatabaseUnreachableError(
    `The database connection failed (${message}). The thread is kept at its last checkpoint: resume it once the database is back.`,
    { code },
    { cause: error },
  );
}

/** A recursion limit that lets the round budget, not LangGraph's default, bound a run. */
function withRecursionLimit(options: Record<string, unknown> | undefined, settings: WorkflowSettings): Record<string, unknown> {
  if (options?.recursionLimit !== undefined) return options;
  const configurable = (options?.configurable ?? {}) as { max_rounds?: number };
  const rounds = configurable.max_rounds ?? settings.maxRounds;
  return { ...options, recursionLimit: (rounds + settings.maxPlanRounds) * 4 + 50 };
}
