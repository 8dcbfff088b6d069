/**
 * The run guard: checks a run BEFORE LangGraph writes its input to the
 * thread, so a refused run leaves the thread exactly as it was.
 *
 * - the configured user must own the thread (else THREAD_ACCESS_DENIED);
 * - a message must be non-empty, within `maxMessageCharacters`, and a slash
 *   command must be one Tempo knows (else INVALID_INPUT);
 * - a resume needs a thread that waits on an interrupt, and a non-null value
 *   (else INVALID_RESUME);
 * - the recursion limit follows the round budget, so `maxRounds` — not
 *   LangGraph's default of 25 steps — bounds a run;
 * - durability follows the run's kind (`durabilityFor`): a new message on an
 *   idle thread (a chat reply, or planning a new task up to its plan card)
 *   is saved once, when the run ends; every other run saves each step.
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
    const snapshot = await checkRun(target, input, options, settings);
    return stream(input, withDurability(withRecursionLimit(options, settings), input, snapshot));
  };
  target.streamEvents = (input, options, streamOptions) => {
    // Version "v3" resolves to LangGraph's run stream (protocol events) rather than returning an iterable.
    if (options?.version === "v3") {
      return checkRun(target, input, options, settings).then((snapshot) =>
        streamEvents(input, withDurability(withRecursionLimit(options, settings), input, snapshot), streamOptions),
      );
    }
    return IterableReadableStream.fromAsyncGenerator(
      (async function* guarded() {
        const snapshot = await checkRun(target, input, options, settings);
        yield* streamEvents(input, withDurability(withRecursionLimit(options, settings), input, snapshot), streamOptions) as AsyncIterable<unknown>;
      })(),
    );
  };
  return graph;
}

/** Throws the typed error a run deserves, before anything is written; returns the state the run starts from, when read. */
export async function checkRun(
  graph: GuardableGraph,
  input: unknown,
  options: Record<string, unknown> | undefined,
  settings: WorkflowSettings,
): Promise<StateSnapshot | undefined> {
  const config = (options ?? {}) as RunnableConfig;
  const { userId, threadId } = ensureConfiguration(config, settings);
  if (isCommand(input) && (input as { resume?: unknown }).resume === null) {
    throw new InvalidResumeError("A resume needs a value: a HumanResponse such as { type: \"accept\", args: null }.");
  }
  const text = messageInputText(input);
  if (text !== undefined) checkMessage(text, settings);

  if (!threadId || !graph.checkpointer) return undefined;
  // The checkpoint the run starts from: the latest, or the one the caller addressed.
  const checkpointId = (config.configurable as { checkpoint_id?: string } | undefined)?.checkpoint_id;
  const snapshot = await graph.getState({ configurable: { thread_id: threadId, ...(checkpointId ? { checkpoint_id: checkpointId } : {}) } });
  const owner = (snapshot.values as { userId?: string } | undefined)?.userId;
  if (owner && owner !== userId) {
    throw new TempoError("THREAD_ACCESS_DENIED", "This thread belongs to another user; use a thread of your own (configurable.user_id must match the thread's owner).", { userId });
  }
  const resume = isCommand(input) && (input as { resume?: unknown }).resume !== undefined;
  if (resume && !snapshot.tasks.some((task) => task.interrupts.length > 0)) {
    throw new InvalidResumeError(
      snapshot.createdAt
        ? "This thread is not waiting for an answer, so there is nothing to resume; send a new message instead."
        : "There is no thread with this id to resume; start it with a message first.",
      { threadId },
    );
  }
  return snapshot;
}

/** Phases in which a task is under way: a message then answers or continues it, and every step is saved. */
const BUSY_PHASES: ReadonlySet<string> = new Set(["planning", "executing", "waiting_confirm"]);

/**
 * LangGraph's durability for a run, by its kind. A new message on an idle thread (no interrupt waiting, no task
 * under way) gets a chat reply or the planning of a new task, which ends at its plan card or a question: no write
 * tool runs and no plan step starts before a human answers, so the run is saved once, when it ends ("exit") — a
 * crash mid-run loses only that run, and the message is sent again. Resumes, answers and retries save every step
 * ("async", LangGraph's default), so each step transition is a checkpoint and a crash resumes from the last step.
 * Undefined leaves LangGraph's default.
 */
export function durabilityFor(input: unknown, snapshot: StateSnapshot | undefined): "exit" | undefined {
  if (snapshot === undefined || isCommand(input) || messageInputText(input) === undefined) return undefined;
  const values = (snapshot.values ?? {}) as { phase?: string; pending?: unknown };
  const waiting = snapshot.tasks.some((task) => task.interrupts.length > 0) || (values.pending !== undefined && values.pending !== null);
  return waiting || BUSY_PHASES.has(values.phase ?? "") ? undefined : "exit";
}

/** Options with the run kind's durability, unless the caller chose one. */
function withDurability(options: Record<string, unknown>, input: unknown, snapshot: StateSnapshot | undefined): Record<string, unknown> {
  if (options.durability !== undefined) return options;
  const durability = durabilityFor(input, snapshot);
  return durability ? { ...options, durability } : options;
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
