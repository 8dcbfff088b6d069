/**
 * The checks a run passes BEFORE LangGraph writes its input to the thread, so a refused run leaves the thread
 * exactly as it was. Plain functions; `admitRun` runs them in order and holds the thread:
 *
 * - the run's user (the server's authenticated user, else `user_id`) must own the thread — the owner in its latest
 *   checkpoint, or the server's `metadata.owner` of the thread — even when the run starts from an earlier
 *   checkpoint (else THREAD_ACCESS_DENIED, `ownership.ts`);
 * - from outside, state moves only through a message or the answer to the pending card: a `Command` carrying
 *   `update` or `goto` is refused (STATE_CHANGE_REFUSED; `updateState` is refused in `run-guard.ts`);
 * - the input must be storable and within its size limits, and must not remove or overwrite messages of the thread
 *   (`input-check.ts`; else INVALID_INPUT);
 * - a message must be non-empty, and a slash command must be one Tempo knows (`commands.ts`; else INVALID_INPUT);
 * - a resume needs a thread that waits on an interrupt, and a non-null value (else INVALID_RESUME) — except on a
 *   thread whose last run stopped mid-way (`next` set, no card): there the resume carries that run on; one bound
 *   to a card — a resume map keyed by interrupt id, a `card_id`, an echoed action — needs that card to be the one
 *   pending (else STALE_RESUME);
 * - one run per thread at a time: the run holds its thread (`ThreadLock`) from these checks to its end. A new
 *   message waits up to `threadWaitMs` for the run before it; a resume does not wait. Either gets THREAD_BUSY past
 *   that;
 * - at most so many runs of the process compute at once, and at most so many of one user's (`RunGate`, when the
 *   graph has one): a run that holds its thread waits its turn, round-robin by user, and gets SERVER_BUSY if none
 *   comes within the gate's wait;
 * - an answer only answers a card its sender could have seen: a message, or a resume that does not name its card,
 *   created before the checkpoint of the card it would answer, or that waited for the run that raised it, gets
 *   THREAD_BUSY (`card-seen.ts`; a served run dates from its UUIDv7 run id, so one queued behind the run that
 *   raised the card is caught too).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { Command, isCommand, type StateSnapshot } from "@langchain/langgraph";
import { ensureConfiguration, reservedKeyProblems, type WorkflowSettings } from "../config/configuration.js";
import { messageText } from "../contracts/message-text.js";
import { asDatabaseError } from "../database/driver-errors.js";
import { InvalidResumeError, StaleResumeError, StateChangeRefusedError, ThreadBusyError } from "../errors/index.js";
import { isRetryPhrase } from "../kernel/commands.js";
import { runCreatedAt, sentBeforeCard } from "./card-seen.js";
import {
  checkConfigurableIds,
  checkInputContent,
  checkMessageIds,
  checkMessageInput,
  checkRunMetadata,
  inputMessages,
} from "./input-check.js";
import { assertThreadOwner } from "../kernel/ownership.js";
import { mustCarryOn, readRunPoint, runPoint } from "./stopped-run.js";
import { SEEN_CHECKPOINT_KEY, type RunOptions } from "./run-options.js";
import type { ThreadLock } from "./thread-lock.js";
import { RunSeat, type RunGate } from "./run-gate.js";
import { endsThread } from "./end-thread.js";
import { admitResume } from "../review/resume.js";

/** What the run checks read of the graph: its state, and whether it has a checkpointer at all. */
export interface ThreadStateReader {
  getState(config: RunnableConfig): Promise<StateSnapshot>;
  checkpointer?: unknown;
}

/** The refusal of a state change from outside (an `updateState`, a `Command` with `update` or `goto`). */
export function stateChangeRefused(): StateChangeRefusedError {
  return new StateChangeRefusedError(
    "A Tempo thread's state changes only through a new message or the answer to the card it waits on (a resume); " +
      "updateState (other than ending the thread: values null, as END) and Command update/goto are refused. Nothing was changed.",
  );
}

/**
 * What the checks decided: the input to run (a stopped run is continued with `null`) and, for a resume, the
 * checkpoint it was checked against (the run goes on only from there, `fromCheckedHead`).
 */
export interface RunCheck {
  input: unknown;
  checkpointId?: string;
  /** The state the run starts from, when it was read (it sets the run's durability). */
  snapshot?: StateSnapshot;
  /**
   * The thread's last run stopped mid-way (a killed worker, a restart) or stopped at a card whose answer was already
   * recorded: it is carried on first (`stream(null)`), and only then is `input` taken (`carryOnThen`).
   */
  carryOn?: boolean;
}

/** A run the checks let through, and the thread to give back when it ends. */
export interface AdmittedRun extends RunCheck {
  /** The run's turn at the process's gate, when it has one: the run's graph runs with it (`withRunSeat`). */
  seat?: RunSeat;
  /** Marks the run as carrying a stopped run on (readers see the thread `resuming`), or no longer (`ThreadLease.carryingOn`). */
  carryingOn(on: boolean): Promise<void>;
  /** Gives the thread back; `failure` is the error the run ended with, if any (`ThreadLease.release`). */
  release(failure?: unknown): Promise<void>;
}

/** Checks the input, holds the thread, checks the thread: a run ready to go, or the typed error it deserves. */
export async function admitRun(
  graph: ThreadStateReader,
  input: unknown,
  options: RunOptions | undefined,
  settings: WorkflowSettings,
  threadLock: ThreadLock | undefined,
  runGate?: RunGate,
): Promise<AdmittedRun> {
  const admittedAt = Date.now();
  checkInput(input, options, settings);
  const { threadId, userId } = ensureConfiguration((options ?? {}) as RunnableConfig, settings);
  const message = inputMessages(input).length > 0;
  const lease =
    threadId && threadLock ? await threadLock.acquire(threadId, message ? settings.threadWaitMs : 0) : undefined;
  // The turn is taken once the thread is held: a run waiting for its thread holds no turn, and every run holding a
  // turn holds its thread, so no run waits on another that waits on it.
  let seat: RunSeat | undefined;
  const release = async (failure?: unknown) => {
    seat?.end();
    await lease?.release(failure);
  };
  try {
    // The run's user (the authenticated one on the server): one user's runs are capped, and wait round-robin with
    // other users' (`RunGate`), its turns taken again after each model call too.
    if (runGate) seat = new RunSeat(runGate, await runGate.enter(userId), userId);
    const createdAt = runCreatedAt((options as { runId?: unknown } | undefined)?.runId, admittedAt);
    const checked = await checkRun(graph, input, options, settings, { waited: lease?.waited ?? false, createdAt });
    return { ...checked, seat, carryingOn: async (on) => lease?.carryingOn(on), release };
  } catch (error) {
    const typed = asDatabaseError(error);
    await release(typed);
    throw typed;
  }
}

/** The checks that need no database: ids, storable and bounded text, a resume value, the message itself. */
export function checkInput(input: unknown, options: RunOptions | undefined, settings: WorkflowSettings): void {
  const config = (options ?? {}) as RunnableConfig;
  ensureConfiguration(config, settings);
  const [reserved] = reservedKeyProblems(config.configurable ?? {});
  if (reserved) throw reserved;
  checkConfigurableIds(config.configurable);
  checkRunMetadata(config.metadata, settings);
  if (
    isCommand(input) &&
    !endsThread(input) &&
    (hasValue((input as { update?: unknown }).update) || ((input as { goto?: unknown[] }).goto ?? []).length > 0)
  ) {
    throw stateChangeRefused();
  }
  if (isCommand(input) && (input as { resume?: unknown }).resume === null) {
    throw new InvalidResumeError('A resume needs a value: a HumanResponse such as { type: "accept", args: null }.');
  }
  checkInputContent(input, settings);
  checkMessageInput(input);
}

/**
 * The run's caller and thread, once its owner checks pass: the owner the LangGraph server stamped in the thread's
 * metadata at creation, and the user of the thread's latest checkpoint (THREAD_ACCESS_DENIED otherwise). `latest` is
 * that checkpoint's state, undefined when the run names no thread or the graph keeps none.
 */
export async function readOwnedThread(
  graph: ThreadStateReader,
  options: RunOptions | undefined,
  settings: WorkflowSettings,
): Promise<{ userId: string; threadId: string; latest?: StateSnapshot }> {
  const config = (options ?? {}) as RunnableConfig;
  const { userId, threadId } = ensureConfiguration(config, settings);
  assertThreadOwner(((config.metadata ?? {}) as { owner?: unknown }).owner, userId);
  if (!threadId || !graph.checkpointer) return { userId, threadId };
  const latest = await graph.getState({ configurable: { thread_id: threadId } });
  assertThreadOwner((latest.values as { userId?: string } | undefined)?.userId, userId);
  return { userId, threadId, latest };
}

/** True for a run input that answers a card: a `Command` with a `resume`. */
export function answersCard(input: unknown): boolean {
  return isCommand(input) && (input as { resume?: unknown }).resume !== undefined;
}

/**
 * Throws the typed error a run deserves, before anything is written; returns the input to run and, for a resume,
 * the checkpoint it was checked against. `waited` says the run waited for another run on the thread, `createdAt` when the run
 * was created: either way an anonymous answer to a card raised since is one its sender never saw.
 */
export async function checkRun(
  graph: ThreadStateReader,
  input: unknown,
  options: RunOptions | undefined,
  settings: WorkflowSettings,
  { waited, createdAt }: { waited: boolean; createdAt?: number } = { waited: false },
): Promise<RunCheck> {
  const config = (options ?? {}) as RunnableConfig;
  const { userId, threadId, latest } = await readOwnedThread(graph, options, settings);
  if (!latest) return { input };
  // The checkpoint the run starts from: the latest, or the one the caller addressed. The owner is the latest
  // checkpoint's, so a run from an early checkpoint (before the owner was recorded) cannot take the thread over.
  const checkpointId = (config.configurable as { checkpoint_id?: string } | undefined)?.checkpoint_id;
  const snapshot = checkpointId
    ? await graph.getState({ configurable: { thread_id: threadId, checkpoint_id: checkpointId } })
    : latest;
  const values = snapshot.values as { userId?: string; messages?: Array<{ id?: string }> } | undefined;
  assertThreadOwner(values?.userId, userId);
  checkMessageIds(
    input,
    new Set((values?.messages ?? []).map((message) => message.id).filter((id): id is string => typeof id === "string")),
  );
  const resume = answersCard(input);
  // A served answer sent from the thread's head as its client last read it: the thread must still be there.
  const seen = (config.configurable as Record<string, unknown> | undefined)?.[SEEN_CHECKPOINT_KEY];
  const head = latest.config.configurable?.checkpoint_id;
  if (resume && typeof seen === "string" && head !== undefined && seen !== head) {
    throw new StaleResumeError(
      `This answer was sent while the thread stood at checkpoint ${seen}; it has moved on since (now ${String(head)}), so the card it answered may be gone. Nothing was changed: read the thread's state, then answer what it waits on now.`,
      { threadId, seenCheckpointId: seen, checkpointId: head },
    );
  }
  // The answer, read once against the card pending (review/resume.ts): one bound to a card (by interrupt id, card_id
  // or an echoed action) applies only while that card is pending, and the run carries the canonical value on.
  const admitted = resume
    ? admitResume(
        (input as { resume?: unknown }).resume,
        snapshot.tasks.flatMap((task) => task.interrupts),
      )
    : undefined;
  // A run that died mid-way, or after its card's answer was recorded: carried on before the input is taken
  // (docs/design.md#carry-on). Not for a run addressed to an earlier checkpoint (time travel, a fork). A resume of a
  // card whose answer is recorded answers it afresh (its run died, or another worker is running it now: then the
  // one-run-per-checkpoint claim refuses one of them), so for a resume the recorded answer is not read.
  const point = checkpointId || resume ? runPoint(snapshot) : await readRunPoint(graph.checkpointer, snapshot);
  if (!checkpointId && mustCarryOn(point)) return { input, snapshot, carryOn: true };
  const waiting = point === "waiting" || point === "answered";
  // A message taken as the answer, or a resume that does not name its card, sent before the card was raised — or
  // while the run that raised it was running, which it waited for: its sender never saw that card.
  const anonymous = inputMessages(input).length > 0 || (admitted !== undefined && !admitted.namesCard);
  if (waiting && anonymous && (waited || (createdAt !== undefined && sentBeforeCard(createdAt, snapshot)))) {
    throw new ThreadBusyError(
      `This ${resume ? "answer" : "message"} was sent before thread ${threadId} stopped at the card it now waits on, so its sender has not seen that card; it was not taken as its answer and nothing was written. Read the card, then answer it.`,
      {
        threadId,
        sentAt: createdAt === undefined ? undefined : new Date(createdAt).toISOString(),
        cardAt: snapshot.createdAt,
      },
    );
  }
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
  return admitted
    ? {
        input: new Command({ resume: admitted.resume }),
        checkpointId: snapshot.config.configurable?.checkpoint_id as string | undefined,
        snapshot,
      }
    : { input, snapshot };
}

/**
 * After a stopped run was carried on (`RunCheck.carryOn`): what of the caller's own input is left to run. A resume
 * and a retry phrase ("continue") were answered by carrying the run on: nothing is left (undefined). A message is
 * taken now — unless the carried-on run stopped at a card or a question, which its sender has not seen: then it is
 * not taken as that answer (THREAD_BUSY) and nothing of it is written.
 */
export async function inputAfterCarryOn(
  graph: ThreadStateReader,
  input: unknown,
  options: RunOptions | undefined,
  settings: WorkflowSettings,
): Promise<RunCheck | undefined> {
  const messages = inputMessages(input);
  if (messages.length === 0 || isRetryPhrase(messageText(messages.at(-1)))) return undefined;
  const { threadId } = ensureConfiguration((options ?? {}) as RunnableConfig, settings);
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  const point = runPoint(snapshot);
  // A carried-on run that ended, or failed (the message then drops the task, telling what it applied), takes it.
  if (point !== "idle" && point !== "failed") {
    throw new ThreadBusyError(
      `Thread ${threadId} had a run that stopped mid-way (a restart or a crash); it was carried on first and now waits on a card that your message was not sent for, so the message was not taken and nothing of it was written. Read the thread's state, then answer the card or send your message again.`,
      { threadId, point },
    );
  }
  return { input, snapshot };
}

function hasValue(value: unknown): boolean {
  return value !== undefined && value !== null;
}
