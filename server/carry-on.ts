/**
 * A thread whose worker died is carried on when it is next READ, not only when its user writes again
 * (docs/operations.md#carrying-on-after-a-crash). A worker killed mid-run leaves a checkpoint with work left and no
 * card (`stopped`), or a card whose answer was recorded (`answered`, server/stopped-run.ts); a person who only
 * reloads the thread would see it sit there. So a reader that opens a thread — the terminal chat when it opens or
 * `/resume`s one, `Tempo.recover`, the served read (auth/applied-cards.ts) — first carries such a run on:
 *
 * - only a run nobody holds: the thread lock tells a run in progress from one that died (`ThreadLock.holds`);
 * - through the run guard, as any run: held by the one-run-per-thread lock for the whole carry-on (a second reader
 *   gets THREAD_BUSY, which here means "someone is carrying it on already"), and each checkpoint claimed once by
 *   Tempo's saver, so two readers never both carry one run on;
 * - as a carry-on-only run (`CARRY_ON_ONLY_KEY`): once the thread is held, a thread no longer stopped is left as it is;
 * - writes keep applying once per tool-call id (the execution log): a write the dead run applied is replayed from
 *   its log entry, never applied again;
 * - while it runs, `ExecutionState.status` reads `resuming` (the lease is marked, `ThreadLease.carryingOn`).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { IterableReadableStream } from "@langchain/core/utils/stream";
import { isTempoError } from "../errors/index.js";
import { readExecutionState, runningNow, threadLockOf, type ExecutionState } from "./execution-state.js";
import { CARRY_ON_ONLY_KEY } from "./run-options.js";
import { mustCarryOn, readRunPoint } from "./stopped-run.js";
import type { TempoGraph } from "./tempo-graph.js";

/**
 * True when the thread of `config` has a run that stopped part-way (or after its card's answer was recorded) and no
 * run holds the thread now: a reader should carry it on.
 */
export async function hasStoppedRun(graph: TempoGraph, config: RunnableConfig): Promise<boolean> {
  const snapshot = await graph.getState(config);
  if (snapshot.createdAt === undefined) return false;
  if (!mustCarryOn(await readRunPoint(graph.checkpointer, snapshot))) return false;
  return (await runningNow(threadLockOf(graph), config.configurable?.thread_id)) === false;
}

/**
 * Carries on the thread's stopped run, if it has one that nobody runs: the run's stream (with `streamOptions`, e.g.
 * `streamMode`), to be consumed to its end — the thread is held until then. Undefined when there is nothing to carry
 * on, or another reader is carrying it on now.
 */
export async function carryOnStoppedRun(
  graph: TempoGraph,
  config: RunnableConfig,
  streamOptions: Record<string, unknown> = {},
): Promise<IterableReadableStream<unknown> | undefined> {
  if (!(await hasStoppedRun(graph, config))) return undefined;
  try {
    return (await graph.stream(null, {
      ...streamOptions,
      ...config,
      configurable: { ...config.configurable, [CARRY_ON_ONLY_KEY]: true },
    } as Parameters<TempoGraph["stream"]>[1])) as IterableReadableStream<unknown>;
  } catch (error) {
    // Another reader (or a message) holds the thread: it is being carried on already.
    if (isTempoError(error) && error.code === "THREAD_BUSY") return undefined;
    throw error;
  }
}

/** What {@link recoverThread} did. */
export interface Recovery {
  /** True when this call carried a stopped run on. */
  carriedOn: boolean;
  /** The thread's ExecutionState afterwards: at its next card, its answer, or as it was. */
  state: ExecutionState;
}

/** Reads a thread, carrying its stopped run on first (to its next card or its answer): `Tempo.recover`. */
export async function recoverThread(graph: TempoGraph, config: RunnableConfig): Promise<Recovery> {
  const stream = await carryOnStoppedRun(graph, config);
  if (stream) for await (const _ of stream);
  return { carriedOn: stream !== undefined, state: await readExecutionState(graph, config) };
}
