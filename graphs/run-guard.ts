/**
 * The run guard: the one place where Tempo's run checks meet the compiled graph.
 *
 * Why it wraps the graph's methods instead of being called by a front door of our own: the LangGraph server
 * (`langgraph dev`, `langgraph up`, Platform) and Studio call the compiled graph's own `stream` / `streamEvents` /
 * `updateState`, so a function Tempo's callers had to call first would not run on the served path, and a check
 * inside a node runs only after LangGraph has written the run's input to the thread — too late for "a refused run
 * leaves the thread exactly as it was". So the compiled graph's methods are replaced here, once, for every caller
 * (the server, `createTempo`, your own code); each replacement only calls the plain functions that hold the rules:
 *
 * - `run-admission.ts`: input checks, ownership (or the server's auth, through `metadata.owner`), slash commands,
 *   resume checks, one run per thread (`admitRun`);
 * - `run-options.ts`: the recursion limit of the round budget, durability by run kind, a resume pinned to the
 *   checkpoint it was checked against;
 * - `end-thread.ts`: `updateState(config, null, END)` — Agent Inbox's "Mark as resolved" — ends the thread's task;
 *   every other `updateState` / `bulkUpdateState` is refused (STATE_CHANGE_REFUSED);
 * - `database/driver-errors.ts`: a lost database connection, or a statement or lock timeout, reaches callers of
 *   `invoke`, `stream`, `streamEvents`, `getState` and `getStateHistory` as `DatabaseUnreachableError` /
 *   `DatabaseTimeoutError`, never as a raw driver error.
 *
 * `invoke` and `streamEvents` (the server's path — `version: "v3"` for protocol runs, as `useStream` starts them,
 * and an event iterable for `runs.stream`) run through `stream`, so the admission runs once per run, in `stream`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { RunnableConfig } from "@langchain/core/runnables";
import { IterableReadableStream } from "@langchain/core/utils/stream";
import { END, type StateSnapshot } from "@langchain/langgraph";
import type { WorkflowSettings } from "../config/configuration.js";
import { asDatabaseError } from "../database/driver-errors.js";
import type { ToolDomain } from "../tools/domain.js";
import { endThreadUpdate } from "./end-thread.js";
import { admitRun, checkInput, stateChangeRefused } from "./run-admission.js";
import { pinnedTo, withDurability, withRecursionLimit, type RunOptions } from "./run-options.js";
import type { ThreadLock } from "./thread-lock.js";

/** The compiled graph's methods the guard replaces, without LangGraph's overloads. */
interface GuardableGraph {
  invoke(input: unknown, options?: RunOptions): Promise<unknown>;
  getState(config: RunnableConfig, options?: unknown): Promise<StateSnapshot>;
  getStateHistory(config: RunnableConfig, options?: unknown): AsyncIterableIterator<StateSnapshot>;
  stream(input: unknown, options?: RunOptions): Promise<AsyncIterable<unknown>>;
  streamEvents(input: unknown, options?: RunOptions, streamOptions?: unknown): AsyncIterable<unknown> | Promise<unknown>;
  updateState(config: unknown, values: unknown, asNode?: unknown): Promise<unknown>;
  bulkUpdateState(...args: unknown[]): Promise<unknown>;
  checkpointer?: unknown;
}

/** What the guard needs besides the settings. */
export interface RunGuardOptions {
  /** The tool domain, to count a dropped task's applied changes when a client ends the thread. */
  domain: ToolDomain;
  /** Holds a thread for the whole run; without one, runs on a thread are not serialised (the LangGraph server does that itself). */
  threadLock?: ThreadLock;
}

/** Installs the guard on `graph` (in place) and returns it. */
export function guardRuns<G>(graph: G, settings: WorkflowSettings, options: RunGuardOptions): G {
  const target = graph as unknown as GuardableGraph;
  const original = {
    invoke: target.invoke.bind(target),
    stream: target.stream.bind(target),
    streamEvents: target.streamEvents.bind(target),
    getState: target.getState.bind(target),
    getStateHistory: target.getStateHistory.bind(target),
    updateState: target.updateState.bind(target),
    bulkUpdateState: target.bulkUpdateState.bind(target),
  };

  target.invoke = async (input, runOptions) => {
    try {
      return await original.invoke(input, runOptions);
    } catch (error) {
      throw asDatabaseError(error);
    }
  };
  target.getState = async (config, stateOptions) => {
    try {
      return await original.getState(config, stateOptions);
    } catch (error) {
      throw asDatabaseError(error);
    }
  };
  target.getStateHistory = (config, historyOptions) => {
    const history = original.getStateHistory(config, historyOptions);
    return (async function* guardedHistory() {
      try {
        yield* history;
      } catch (error) {
        throw asDatabaseError(error);
      }
    })();
  };

  // Every run: admitted (checked, thread held) before LangGraph writes anything; released when its stream ends.
  target.stream = async (input, runOptions) => {
    const run = await admitRun(target, input, runOptions, settings, options.threadLock);
    let inner: AsyncIterable<unknown>;
    try {
      inner = await original.stream(run.input, withDurability(pinnedTo(run.checkpointId, withRecursionLimit(runOptions, settings)), run.input, run.snapshot));
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
          return original.streamEvents(input, withRecursionLimit(runOptions, settings), streamOptions);
        })
        .catch((error: unknown) => {
          throw asDatabaseError(error);
        });
    }
    return IterableReadableStream.fromAsyncGenerator(
      (async function* guarded() {
        checkInput(input, runOptions, settings);
        try {
          yield* original.streamEvents(input, withRecursionLimit(runOptions, settings), streamOptions) as AsyncIterable<unknown>;
        } catch (error) {
          throw asDatabaseError(error);
        }
      })(),
    );
  };

  // No route around a card: state set by hand (an approved write, another owner) would skip the human. The one
  // update let through is ending the thread — `updateState(config, null, END)` — which sets nothing itself: it is
  // written as the end_thread transition (`endThreadUpdate`). LangGraph's updateState goes through
  // bulkUpdateState, so that one is let through inside the ending only.
  const ending = new AsyncLocalStorage<true>();
  target.updateState = async (config, values, asNode) => {
    if (asNode !== END || (values !== null && values !== undefined)) throw stateChangeRefused();
    return ending.run(true, async () => {
      const update = endThreadUpdate(await target.getState(config as RunnableConfig), options.domain);
      return update ? original.updateState(config, update.values, update.asNode) : original.updateState(config, values, asNode);
    });
  };
  target.bulkUpdateState = async (...args: unknown[]) => {
    if (ending.getStore()) return original.bulkUpdateState(...args);
    throw stateChangeRefused();
  };
  return graph;
}
