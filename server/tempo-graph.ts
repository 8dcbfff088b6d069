/**
 * The Tempo graph as callers run it: the agent's graph (`graphs/tempo.ts`) compiled with a checkpointer and a store,
 * behind Tempo's run checks (`run-guard.ts`).
 */
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import { DEFAULT_WORKFLOW_SETTINGS } from "../config/configuration.js";
import { createTempoBuilder, type TempoBuilderOptions } from "../graphs/tempo.js";
import {
  TempoCompiledGraph,
  type CallerRecursionLimit,
  type ClientClock,
  type CompiledTempo,
  type InvalidConfigurable,
  type RefusedAnswers,
} from "./run-guard.js";
import { LocalThreadLock, type ThreadLock } from "./thread-lock.js";
import type { RunGate } from "./run-gate.js";
import { MemoryExecutionLog } from "../tools/memory-execution-log.js";
import { WriteBatches } from "../review/write-batches.js";

export interface TempoGraphOptions extends TempoBuilderOptions {
  /** Required for interrupts; `PostgresSaver` in production, `MemorySaver` in unit tests. */
  checkpointer?: BaseCheckpointSaver | boolean;
  /** Memory store (`PostgresStore` / `InMemoryStore`). */
  store?: BaseStore;
  /**
   * Holds a thread for the whole run, so two runs never fork it: `createThreadLock(database)` for workers that share
   * a Postgres. Default: an in-process lock (enough for one process, and for the embedded database).
   */
  threadLock?: ThreadLock;
  /**
   * At most `maxRuns` runs of this graph's process compute at once, `maxRunsPerUser` of one user's, the rest waiting
   * round-robin by user (`run-gate.ts`): `createTempo` gives one as large as its pool. Default: no bound.
   */
  runGate?: RunGate;
  /** What a refused answer to a card does (run-guard.ts `RunGuard.refusedAnswers`): `throw` (default) or `ask_again` (served). */
  refusedAnswers?: RefusedAnswers;
  /** What a configurable value that cannot work does (run-guard.ts `RunGuard.invalidConfigurable`): `refuse` (default) or `ignore` (served). */
  invalidConfigurable?: InvalidConfigurable;
  /** A caller's own recursion limit (run-guard.ts `RunGuard.callerRecursionLimit`): `honour` (default) or `ignore` (served). */
  callerRecursionLimit?: CallerRecursionLimit;
  /** A caller's `configurable.now` (run-guard.ts `RunGuard.clientClock`): `honour` (default) or `server`. */
  clientClock?: ClientClock;
}

/**
 * The Tempo graph, typed as the graph LangGraph compiles from `createTempoBuilder` (its stream modes, events and
 * state types); at run time it is a `TempoCompiledGraph` (`run-guard.ts`), that graph's subclass whose methods run
 * Tempo's run checks first. The subclass declares `stream` and `streamEvents` loosely (LangGraph's are generic and
 * overloaded), so this type, not the class, is what callers see.
 */
export type TempoGraph = CompiledTempo;

/** Builds and compiles the Tempo graph with its dependencies. */
export function buildTempoGraph(given: TempoGraphOptions): TempoGraph {
  // One log for the agent and the run checks (ending a thread reads it), in memory when none is given.
  // One record of the batches applying, for execute (one batch of a thread at a time) and the run checks (a thread
  // is held until a cancelled run's batch stops).
  const options = {
    ...given,
    executionLog: given.executionLog ?? new MemoryExecutionLog(),
    writeBatches: given.writeBatches ?? new WriteBatches(),
  };
  const compiled = createTempoBuilder(options).compile({
    checkpointer: options.checkpointer,
    store: options.store,
    name: "Tempo",
  });
  // Owner, input and resume checks run before LangGraph writes anything to the thread; one run per thread at a time;
  // a client ending the thread (updateState as END, Agent Inbox's "Mark as resolved") also ends its task.
  return TempoCompiledGraph.from(compiled, {
    settings: { ...DEFAULT_WORKFLOW_SETTINGS, ...options.settings },
    domain: options.domain,
    executionLog: options.executionLog,
    writeBatches: options.writeBatches,
    threadLock: options.threadLock ?? new LocalThreadLock(),
    runGate: options.runGate,
    refusedAnswers: options.refusedAnswers ?? "throw",
    invalidConfigurable: options.invalidConfigurable ?? "refuse",
    callerRecursionLimit: options.callerRecursionLimit ?? "honour",
    clientClock: options.clientClock ?? "honour",
    clock: options.now,
  });
}
