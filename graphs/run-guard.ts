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
 *   `bulkUpdateState`, are refused (STATE_CHANGE_REFUSED) — except ending the
 *   thread (`updateState(config, null, END)`), which drops its task;
 * - the input must be storable and within its size limits, and must not remove
 *   or overwrite messages of the thread (`input-check.ts`; else INVALID_INPUT);
 * - a message must be non-empty, and a slash command must be one Tempo knows
 *   (else INVALID_INPUT);
 * - a resume needs a thread that waits on an interrupt, and a non-null value
 *   (else INVALID_RESUME) — except on a thread whose last run stopped mid-way
 *   (`next` set, no card): there the resume carries that run on; one bound to
 *   a card — a resume map keyed by interrupt id, a `card_id`, an echoed action —
 *   needs that card to be the one pending (else STALE_RESUME);
 * - one run per thread at a time: the run holds its thread (`ThreadLock`) from
 *   these checks to its end. A new message waits up to `threadWaitMs` for the
 *   run before it; a resume does not wait. Either gets THREAD_BUSY past that,
 *   and so does a message that waited and then finds a card its sender has not
 *   seen;
 * - the recursion limit follows the round budget, so `maxRounds` — not
 *   LangGraph's default of 25 steps — bounds a run;
 * - durability follows the run's kind (`durabilityFor`): a new message on an
 *   idle thread (a chat reply, or planning a new task up to its plan card)
 *   is saved once, when the run ends; every other run saves each step.
 *
 * It wraps `stream` (which `invoke` and `streamEvents`, the LangGraph server's
 * path, use — `version: "v3"` for protocol runs, as `useStream` starts them,
 * and an event iterable for `runs.stream`) of a compiled graph. A lost
 * database connection, or a statement or lock timeout, reaches callers of
 * `invoke`, `stream`, `streamEvents`, `getState` and `getStateHistory` as
 * `DatabaseUnreachableError` / `DatabaseTimeoutError`, never as a raw driver
 * error.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { RunnableConfig } from "@langchain/core/runnables";
import { IterableReadableStream } from "@langchain/core/utils/stream";
import { END, isCommand, type StateSnapshot } from "@langchain/langgraph";
import { ensureConfiguration, type WorkflowSettings } from "../config/configuration.js";
import { assertResumeIsCurrent } from "../contracts/cards.js";
import { DatabaseTimeoutError, DatabaseUnreachableError, InvalidResumeError, StateChangeRefusedError, TempoError, ThreadBusyError } from "../errors/index.js";
import { checkConfigurableIds, checkInputContent, checkMessageIds, inputMessages, messageText } from "./input-check.js";
import type { ThreadLock } from "./thread-lock.js";

/** Slash commands the chat node handles. */
export const KNOWN_COMMANDS = ["/clear"] as const;

interface GuardableGraph {
  invoke(input: unknown, options?: Record<string, unknown>): Promise<unknown>;
  getState(config: RunnableConfig, options?: unknown): Promise<StateSnapshot>;
  getStateHistory(config: RunnableConfig, options?: unknown): AsyncIterableIterator<StateSnapshot>;
  stream(input: unknown, options?: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  streamEvents(input: unknown, options?: Record<string, unknown>, streamOptions?: unknown): AsyncIterable<unknown> | Promise<unknown>;
  updateState(...args: unknown[]): Promise<unknown>;
  bulkUpdateState(...args: unknown[]): Promise<unknown>;
  checkpointer?: unknown;
}

/** What the guard needs besides the settings. */
export interface RunGuardOptions {
  /** Holds a thread for the whole run; without one, runs on a thread are not serialised (the LangGraph server does that itself). */
  threadLock?: ThreadLock;
}

/** Installs the guard on `graph` (in place) and returns it. */
export function guardRuns<G>(graph: G, settings: WorkflowSettings, options: RunGuardOptions = {}): G {
  const target = graph as unknown as GuardableGraph;
  const stream = target.stream.bind(target);
  const invoke = target.invoke.bind(target);
  const getState = target.getState.bind(target);
  const getStateHistory = target.getStateHistory.bind(target);
  target.invoke = async (input, runOptions) => {
    try {
      return await invoke(input, runOptions);
    } catch (error) {
      throw asDatabaseError(error);
    }
  };
  target.getState = async (config, stateOptions) => {
    try {
      return await getState(config, stateOptions);
    } catch (error) {
      throw asDatabaseError(error);
    }
  };
  target.getStateHistory = (config, historyOptions) => {
    const history = getStateHistory(config, historyOptions);
    return (async function* guardedHistory() {
      try {
        yield* history;
      } catch (error) {
        throw asDatabaseError(error);
      }
    })();
  };
  const streamEvents = target.streamEvents.bind(target);
  target.stream = async (input, runOptions) => {
    const run = await startRun(target, input, runOptions, settings, options.threadLock);
    let inner: AsyncIterable<unknown>;
    try {
      inner = await stream(run.input, withDurability(pinnedTo(run.checkpointId, withRecursionLimit(runOptions, settings)), run.input, run.snapshot));
    } catch (error) {
      await run.release();
      throw asDatabaseError(error);
    }
    return IterableReadableStream.fromAsyncGenerator(
      (async function* held() {
        try {
          yield* inner;
        } catch (error) {
          throw asDatabaseError(error);
        } finally {
          await run.release();
        }
      })(),
    );
  };
  // `streamEvents` runs through `stream` above; checking the input here too makes a bad input fail before any event.
  // The round budget's recursion limit is set here too, before LangGraph's v3 stream binds the graph's own.
  target.streamEvents = (input, runOptions, streamOptions) => {
    // Version "v3" resolves to LangGraph's run stream (protocol events) rather than returning an iterable.
    if (runOptions?.version === "v3") {
      return Promise.resolve()
        .then(() => {
          checkInput(input, runOptions, settings);
          return streamEvents(input, withRecursionLimit(runOptions, settings), streamOptions);
        })
        .catch((error: unknown) => {
          throw asDatabaseError(error);
        });
    }
    return IterableReadableStream.fromAsyncGenerator(
      (async function* guarded() {
        checkInput(input, runOptions, settings);
        try {
          yield* streamEvents(input, withRecursionLimit(runOptions, settings), streamOptions) as AsyncIterable<unknown>;
        } catch (error) {
          throw asDatabaseError(error);
        }
      })(),
    );
  };
  // No route around a card: state set by hand (an approved write, another owner) would skip the human. The one
  // update let through is ending the thread — `updateState(config, null, END)`, Agent Inbox's "Mark as resolved" —
  // which sets nothing itself: `endThreadOnClientEnd` turns it into the end_thread transition.
  // LangGraph's updateState goes through bulkUpdateState, so that one is let through inside the ending only.
  const updateState = target.updateState.bind(target);
  const bulkUpdateState = target.bulkUpdateState.bind(target);
  const ending = new AsyncLocalStorage<true>();
  target.updateState = async (config: unknown, values: unknown, asNode?: unknown) => {
    if (asNode === END && (values === null || values === undefined)) return ending.run(true, () => updateState(config, values, asNode));
    throw new StateChangeRefusedError(STATE_CHANGE_REFUSAL);
  };
  target.bulkUpdateState = async (...args: unknown[]) => {
    if (ending.getStore()) return bulkUpdateState(...args);
    throw new StateChangeRefusedError(STATE_CHANGE_REFUSAL);
  };
  return graph;
}

const STATE_CHANGE_REFUSAL =
  "A Tempo thread's state changes only through a new message or the answer to the card it waits on (a resume); " +
  "updateState (other than ending the thread: values null, as END) and Command update/goto are refused. Nothing was changed.";

/**
 * What the checks decided: the input to run (a stopped run is continued with `null`) and, for a resume, the
 * checkpoint it was checked against. The run is pinned to it, so a resume that lost a race to another answer
 * resumes the card it was checked for (and is refused by the saver's claim) instead of running on from where
 * the other answer led.
 */
export interface RunCheck {
  input: unknown;
  checkpointId?: string;
  /** The state the run starts from, when it was read (it sets the run's durability). */
  snapshot?: StateSnapshot;
}

/** A run the guard let through, and the thread to give back. */
interface AdmittedRun extends RunCheck {
  release(): Promise<void>;
}

/** Checks the input, holds the thread, checks the thread: a run ready to go, or the typed error it deserves. */
async function startRun(graph: GuardableGraph, input: unknown, options: Record<string, unknown> | undefined, settings: WorkflowSettings, threadLock: ThreadLock | undefined): Promise<AdmittedRun> {
  checkInput(input, options, settings);
  const { threadId } = ensureConfiguration((options ?? {}) as RunnableConfig, settings);
  const message = inputMessages(input).length > 0;
  const lease = threadId && threadLock ? await threadLock.acquire(threadId, message ? settings.threadWaitMs : 0) : undefined;
  try {
    const checked = await checkRun(graph, input, options, settings, { waited: lease?.waited ?? false });
    return { ...checked, release: async () => lease?.release() };
  } catch (error) {
    await lease?.release();
    throw asDatabaseError(error);
  }
}

/** The checks that need no database: ids, storable and bounded text, a resume value, the message itself. */
export function checkInput(input: unknown, options: Record<string, unknown> | undefined, settings: WorkflowSettings): void {
  const config = (options ?? {}) as RunnableConfig;
  ensureConfiguration(config, settings);
  checkConfigurableIds(config.configurable);
  if (isCommand(input) && (hasValue((input as { update?: unknown }).update) || ((input as { goto?: unknown[] }).goto ?? []).length > 0)) {
    throw new StateChangeRefusedError(STATE_CHANGE_REFUSAL);
  }
  if (isCommand(input) && (input as { resume?: unknown }).resume === null) {
    throw new InvalidResumeError("A resume needs a value: a HumanResponse such as { type: \"accept\", args: null }.");
  }
  checkInputContent(input, settings);
  const messages = inputMessages(input);
  if (input !== null && typeof input === "object" && "messages" in input) checkMessage(messages.length === 0 ? "" : messageText(messages.at(-1)));
}

/**
 * Throws the typed error a run deserves, before anything is written; returns the input to run and, for a
 * resume, the checkpoint to pin it to. `waited` says the
 * run waited for another run on the thread (a message that then finds a card would answer a card nobody saw).
 */
export async function checkRun(
  graph: GuardableGraph,
  input: unknown,
  options: Record<string, unknown> | undefined,
  settings: WorkflowSettings,
  { waited }: { waited: boolean } = { waited: false },
): Promise<RunCheck> {
  const config = (options ?? {}) as RunnableConfig;
  const { userId, threadId } = ensureConfiguration(config, settings);
  // The LangGraph server passes the thread's metadata, where its auth handler stamped the owner at creation.
  assertOwner(((config.metadata ?? {}) as { owner?: unknown }).owner, userId);
  if (!threadId || !graph.checkpointer) return { input };
  // The checkpoint the run starts from: the latest, or the one the caller addressed. The owner is the latest
  // checkpoint's, so a run from an early checkpoint (before the owner was recorded) cannot take the thread over.
  const checkpointId = (config.configurable as { checkpoint_id?: string } | undefined)?.checkpoint_id;
  const latest = await graph.getState({ configurable: { thread_id: threadId } });
  const snapshot = checkpointId ? await graph.getState({ configurable: { thread_id: threadId, checkpoint_id: checkpointId } }) : latest;
  assertOwner((latest.values as { userId?: string } | undefined)?.userId, userId);
  const values = snapshot.values as { userId?: string; messages?: Array<{ id?: string }> } | undefined;
  assertOwner(values?.userId, userId);
  checkMessageIds(input, new Set((values?.messages ?? []).map((message) => message.id).filter((id): id is string => typeof id === "string")));
  const waiting = snapshot.tasks.some((task) => task.interrupts.length > 0);
  if (waited && waiting && inputMessages(input).length > 0) {
    throw new ThreadBusyError(
      `While this message waited for the run before it, thread ${threadId} stopped at a new card its sender has not seen; the message was not taken as its answer and nothing was written. Read the card, then answer it.`,
      { threadId },
    );
  }
  const resume = isCommand(input) && (input as { resume?: unknown }).resume !== undefined;
  // An answer bound to a card (by interrupt id, card_id or an echoed action) applies only while that card is pending.
  if (resume) assertResumeIsCurrent((input as { resume?: unknown }).resume, snapshot.tasks.flatMap((task) => task.interrupts));
  if (resume && !waiting) {
    // A run that stopped mid-way (a database or model fault) after the answer was recorded: the answer carries it on.
    if (snapshot.next.length > 0) return { input: null };
    throw new InvalidResumeError(
      snapshot.createdAt
        ? "This thread is not waiting for an answer, so there is nothing to resume; send a new message instead."
        : "There is no thread with this id to resume; start it with a message first.",
      { threadId },
    );
  }
  return resume ? { input, checkpointId: snapshot.config.configurable?.checkpoint_id as string | undefined, snapshot } : { input, snapshot };
}

/** The run's options with `configurable.checkpoint_id` set to `checkpointId`, unless the caller addressed one. */
function pinnedTo(checkpointId: string | undefined, options: Record<string, unknown>): Record<string, unknown> {
  const configurable = (options.configurable ?? {}) as Record<string, unknown>;
  if (!checkpointId || configurable.checkpoint_id) return options;
  return { ...options, configurable: { ...configurable, checkpoint_id: checkpointId } };
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
  if (snapshot === undefined || isCommand(input) || inputMessages(input).length === 0) return undefined;
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

/** Refuses a run of `userId` on a thread `owner` (when known) owns. */
function assertOwner(owner: unknown, userId: string): void {
  if (typeof owner === "string" && owner !== "" && owner !== userId) {
    throw new TempoError("THREAD_ACCESS_DENIED", "This thread belongs to another user; use a thread of your own. Nothing was changed.", { userId });
  }
}

function hasValue(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Refuses empty and unknown-command messages (sizes are checked with the whole input). */
function checkMessage(text: string): void {
  const trimmed = text.trim();
  if (trimmed === "") throw new TempoError("INVALID_INPUT", "The message is empty; nothing was changed.");
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

const CONNECTION_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);

/**
 * A lost or refused database connection as DatabaseUnreachableError, a statement or lock timeout as
 * DatabaseTimeoutError (either way the thread is kept at its last checkpoint); other errors as they are.
 */
export function asDatabaseError(error: unknown): unknown {
  if (error instanceof TempoError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "55P03" || (code === "57014" && /statement timeout/i.test(message))) {
    const what = code === "55P03" ? "waited too long for a lock another session holds (lock_timeout)" : "ran longer than the statement timeout (statement_timeout)";
    return new DatabaseTimeoutError(
      `A database statement ${what}: ${message}. Nothing of it was kept and the thread is at its last checkpoint: send your message or answer again once the database is less busy.`,
      { code },
      { cause: error },
    );
  }
  const lost =
    (typeof code === "string" && CONNECTION_ERROR_CODES.has(code)) || /Connection terminated|terminating connection|timeout exceeded when trying to connect/i.test(message);
  if (!lost) return error;
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
