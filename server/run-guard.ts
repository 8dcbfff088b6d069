/**
 * The run guard: the one place where Tempo's run checks meet the compiled graph.
 *
 * Why the checks run in the graph's own methods instead of a front door of our own: the LangGraph server
 * (`langgraph dev`, `langgraph up`, Platform) and Studio call the compiled graph's own `stream` / `streamEvents` /
 * `updateState`, so a function Tempo's callers had to call first would not run on the served path, and a check
 * inside a node runs only after LangGraph has written the run's input to the thread — too late for "a refused run
 * leaves the thread exactly as it was". So the Tempo graph is `TempoCompiledGraph`, a declared subclass of
 * LangGraph's `CompiledStateGraph`: `TempoCompiledGraph.from(compiled, guard)` builds it from the graph that
 * `compile()` returns the way LangGraph's own `withConfig` copies a graph (`new this.constructor({ ...this })`),
 * leaving that graph as LangGraph made it. Its overrides of `invoke`, `stream`, `streamEvents`, `getState`,
 * `getStateHistory`, `updateState` and `bulkUpdateState` run for every caller (the server, `createTempo`, your own
 * code); each only calls the plain functions that hold the rules, then LangGraph's method (`super`):
 *
 * - `run-admission.ts`: input checks, ownership (or the server's auth, through `metadata.owner`), slash commands,
 *   resume checks, one run per thread (`admitRun`);
 * - `run-options.ts`: the recursion limit of the round budget, durability by run kind, a resume run from the
 *   thread's head only while that is the checkpoint it was checked against (`head-checked-saver.ts`);
 * - `end-thread.ts`: `updateState(config, null, END)` — Agent Inbox's "Mark as resolved" — ends the thread's task;
 *   every other `updateState` / `bulkUpdateState` is refused (STATE_CHANGE_REFUSED);
 * - `database/driver-errors.ts`: a lost database connection, or a statement or lock timeout, reaches callers of
 *   `invoke`, `stream`, `streamEvents`, `getState` and `getStateHistory` as `DatabaseUnreachableError` /
 *   `DatabaseTimeoutError`, never as a raw driver error.
 *
 * `invoke` and `streamEvents` (the server's path — `version: "v3"` for protocol runs, as `useStream` starts them,
 * and an event iterable for `runs.stream`) run through `this.stream`, so the admission runs once per run, in `stream`.
 * The guard's dependencies are an own field (`runGuard`), so a copy made by `withConfig` is guarded the same way.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { mergeConfigs, type RunnableConfig } from "@langchain/core/runnables";
import { IterableReadableStream } from "@langchain/core/utils/stream";
import {
  CompiledStateGraph,
  END,
  type StateDefinitionInit,
  type StateSnapshot,
  type StreamTransformer,
} from "@langchain/langgraph";
import type { WorkflowSettings } from "../config/configuration.js";
import { asDatabaseError } from "../database/driver-errors.js";
import type { ToolDomain } from "../tools/domain.js";
import type { ExecutionLog } from "../tools/runner.js";
import { endsThread, endsThreadByUpdate, endThreadUpdate } from "./end-thread.js";
import {
  admitRun,
  answersCard,
  checkInput as checkRunInput,
  inputAfterCarryOn,
  readOwnedThread,
  stateChangeRefused,
  type RunCheck,
} from "./run-admission.js";
import { withoutStandInAnswers } from "./input-check.js";
import {
  carriesOnOnly,
  markedBranch,
  fromCheckedHead,
  inputConfigurable,
  savesInputFirst,
  withDurability,
  withoutCallerRecursionLimit,
  withoutClientClock,
  withoutInvalidConfigurable,
  withRecursionLimit,
  type RunOptions,
} from "./run-options.js";
import type { createTempoBuilder } from "../graphs/tempo.js";
import type { ThreadLock } from "./thread-lock.js";
import type { WriteBatches } from "../review/write-batches.js";
import { withRunSeat } from "../models/run-turn.js";
import type { RunGate } from "./run-gate.js";
import { languageOf, say } from "../contracts/language.js";
import { messageText } from "../contracts/message-text.js";
import { AIMessage } from "@langchain/core/messages";
import { TempoError } from "../errors/index.js";
import { newId } from "../kernel/ids.js";
import { NODE } from "../kernel/routing.js";
import type { TempoState } from "../kernel/state.js";

/** What the guard needs. */
export interface RunGuard {
  /** The workflow settings, defaults filled in. */
  settings: WorkflowSettings;
  /** The tool domain and execution log, to tell what a dropped task applied when a client ends the thread. */
  domain: ToolDomain;
  executionLog: ExecutionLog;
  /** Holds a thread for the whole run; without one, runs on a thread are not serialised (the LangGraph server does that itself). */
  threadLock?: ThreadLock;
  /**
   * The batches of approved writes applying in this process (`review/apply.ts`): a run cancelled while it applies one
   * holds its thread until that batch stops at its next write boundary — its node goes on after LangGraph rejected the
   * run — so the next run on the thread, in any process the thread lock spans, starts after it.
   */
  writeBatches?: WriteBatches;
  /** At most so many runs of this process compute at once, the rest waiting round-robin by user (`run-gate.ts`); without one, no bound. */
  runGate?: RunGate;
  /**
   * A refused answer to a card: `throw` its typed error (INVALID_RESUME, STALE_RESUME; the default, for callers of
   * `invoke` / `stream`), or `ask_again` — raise the card again with the reason, so the run ends cleanly (the served
   * graph: a failed run leaves a LangGraph server's thread in `error`).
   */
  refusedAnswers?: RefusedAnswers;
  /**
   * A `configurable` value that cannot work (a bad `time_zone`, `now` or `max_rounds`): `refuse` the run with
   * INVALID_CONFIGURATION (the default: a caller of `invoke` / `stream` passes its configurable with every call), or
   * `ignore` it with a note, its default applying (the served graph: the LangGraph server stores a run's configurable
   * in the thread and merges it into every later run; Tempo's auth refuses a bad one at admission, so one that
   * reaches the graph was stored before, and refusing it would fail every later run of the thread —
   * `withoutInvalidConfigurable`).
   */
  invalidConfigurable?: InvalidConfigurable;
  /**
   * A caller's own recursion limit (`recursionLimit`; the LangGraph server's `config.recursion_limit`): `honour` it
   * (the default: code that runs the graph itself, benches and tests, may raise it), or `ignore` it, so every run is
   * bounded by the round budget's own limit (`withRecursionLimit`; the served graph: a client sending 1 would stop a
   * task midway with a raw GraphRecursionError, one sending 10^9 would let a looping run go on without bound — a
   * client sets the budget with `configurable.max_rounds`, 1 to MAX_ROUNDS_LIMIT, instead).
   */
  callerRecursionLimit?: CallerRecursionLimit;
  /**
   * A caller's `configurable.now` (the run's moment): `honour` it (the default: code that runs the graph itself, tests
   * and replays; the served graph with `TEMPO_CLIENT_CLOCK=on`), or keep to the `server` clock — one more than
   * `CLIENT_CLOCK_TOLERANCE_MS` off `clock` is dropped, noted on the server's log, so the run's moment is the
   * server's (the served graph: the auth handler refuses such a `now` at admission, and this drops one stored in a
   * thread's config or an assistant before that, or stored close to the clock and since left behind by it).
   */
  clientClock?: ClientClock;
  /** The server's clock `clientClock: "server"` compares a caller's `now` with (default the system clock). */
  clock?: () => Date;
}

/** What a caller's `configurable.now` does: see {@link RunGuard.clientClock}. */
export type ClientClock = "honour" | "server";

/** What a caller's own recursion limit does: see {@link RunGuard.callerRecursionLimit}. */
export type CallerRecursionLimit = "honour" | "ignore";

/** What a configurable value that cannot work does: see {@link RunGuard.invalidConfigurable}. */
export type InvalidConfigurable = "refuse" | "ignore";

/** What a refused answer to a card does: see {@link RunGuard.refusedAnswers}. */
export type RefusedAnswers = "throw" | "ask_again";

/** The graph LangGraph compiles from Tempo's builder. */
export type CompiledTempo = ReturnType<ReturnType<typeof createTempoBuilder>["compile"]>;

/** The type arguments of `CompiledTempo`, so the subclass extends exactly that graph. */
type TypeArguments<G> =
  G extends CompiledStateGraph<
    infer S,
    infer U,
    infer N extends string,
    infer I extends StateDefinitionInit,
    infer O extends StateDefinitionInit,
    infer C extends StateDefinitionInit,
    infer NodeReturn,
    infer Interrupt,
    infer Writer,
    infer Transformers extends ReadonlyArray<() => StreamTransformer<unknown>>
  >
    ? {
        S: S;
        U: U;
        N: N;
        I: I;
        O: O;
        C: C;
        NodeReturn: NodeReturn;
        Interrupt: Interrupt;
        Writer: Writer;
        Transformers: Transformers;
      }
    : never;
type T = TypeArguments<CompiledTempo>;
type Base = CompiledStateGraph<
  T["S"],
  T["U"],
  T["N"],
  T["I"],
  T["O"],
  T["C"],
  T["NodeReturn"],
  T["Interrupt"],
  T["Writer"],
  T["Transformers"]
>;

/** What LangGraph's constructor takes (what `withConfig` passes: the graph's own fields), plus the guard. */
type TempoGraphFields = ConstructorParameters<
  typeof CompiledStateGraph<
    T["S"],
    T["U"],
    T["N"],
    T["I"],
    T["O"],
    T["C"],
    T["NodeReturn"],
    T["Interrupt"],
    T["Writer"],
    T["Transformers"]
  >
>[0] & {
  runGuard: RunGuard;
};

type Input = Parameters<Base["invoke"]>[0];

/**
 * No route around a card: state set by hand (an approved write, another owner) would skip the human. The updates
 * let through are the guard's own: ending the thread — `updateState(config, null, END)` — which sets nothing itself
 * (it is written as the end_thread transition, `endThreadUpdate`), and saving a new message's input before its run
 * (`savesInputFirst`). LangGraph's `updateState` calls `this.bulkUpdateState`, so that call is let through while
 * this graph makes one of those updates, and only then.
 */
const ownUpdate = new AsyncLocalStorage<TempoCompiledGraph>();

/** The Tempo graph: LangGraph's compiled graph whose run, state and update methods go through Tempo's run checks. */
export class TempoCompiledGraph extends CompiledStateGraph<
  T["S"],
  T["U"],
  T["N"],
  T["I"],
  T["O"],
  T["C"],
  T["NodeReturn"],
  T["Interrupt"],
  T["Writer"],
  T["Transformers"]
> {
  /** An own field: `withConfig` builds its copy from the graph's own fields (`new this.constructor({ ...this })`). */
  readonly runGuard: RunGuard;

  constructor({ runGuard, ...fields }: TempoGraphFields) {
    super(fields);
    this.runGuard = runGuard;
  }

  /** The guarded graph for `compiled`: a new instance sharing its nodes; `compiled` itself is not changed. */
  static from(compiled: CompiledTempo, runGuard: RunGuard): TempoCompiledGraph {
    // LangGraph's constructor sets the tasks channel in the map it is given, so it gets a copy of `compiled`'s map.
    return new TempoCompiledGraph({ ...compiled, channels: { ...compiled.channels }, runGuard });
  }

  override async invoke(...args: Parameters<Base["invoke"]>): ReturnType<Base["invoke"]> {
    try {
      return await super.invoke(...args);
    } catch (error) {
      throw asDatabaseError(error);
    }
  }

  override async getState(...args: Parameters<Base["getState"]>): ReturnType<Base["getState"]> {
    try {
      return await super.getState(...args);
    } catch (error) {
      throw asDatabaseError(error);
    }
  }

  override getStateHistory(...args: Parameters<Base["getStateHistory"]>): ReturnType<Base["getStateHistory"]> {
    const history = super.getStateHistory(...args);
    return (async function* guardedHistory() {
      try {
        yield* history;
      } catch (error) {
        throw asDatabaseError(error);
      }
    })();
  }

  // Every run: admitted (checked, thread held) before LangGraph writes anything; released when its stream ends.
  // A thread whose last run stopped mid-way is carried on first (`stream(null)`, streamed to the caller as part of
  // this run), and only then is the caller's input taken (`inputAfterCarryOn`), the thread held throughout.
  // Typed loosely: LangGraph's `stream` is generic in its stream mode; `CompiledTempo` keeps that typing for callers.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signatures LangGraph's Pregel declares, overridden as they are
  override async stream(given: Input, givenOptions?: RunOptions): Promise<IterableReadableStream<any>> {
    const input = withoutStandInAnswers(given);
    const options = this.usableOptions(givenOptions);
    if (this.runGuard.refusedAnswers !== "ask_again" || !answersCard(input)) return this.admittedStream(input, options);
    // Served: a refused answer raises its card again with the reason, instead of failing the run (which would leave
    // the thread in `error`, off Agent Inbox's list, its card unanswerable).
    let inner: AsyncIterable<unknown>;
    try {
      inner = await this.admittedStream(input, options);
    } catch (error) {
      return this.askAgain(error, options);
    }
    const askAgain = (error: unknown) => this.askAgain(error, options);
    return IterableReadableStream.fromAsyncGenerator(
      (async function* answered() {
        try {
          yield* inner;
        } catch (error) {
          yield* await askAgain(error);
        }
      })(),
    );
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signatures LangGraph's Pregel declares, overridden as they are
  private async admittedStream(input: Input, options?: RunOptions): Promise<IterableReadableStream<any>> {
    const { settings, threadLock, runGate, writeBatches } = this.runGuard;
    const checked = this.checkedOptions(options);
    if (endsThread(input)) return this.endThreadRun(checked, options);
    const run = await admitRun(this, input, checked, settings, threadLock, runGate);
    if (carriesOnOnly(input, checked) && !run.carryOn) {
      // Held, the thread turns out to have nothing to carry on (another reader carried it on first): left as it is.
      await run.release();
      return IterableReadableStream.fromAsyncGenerator((async function* nothingToCarryOn() {})());
    }
    // The graph runs in the run's seat at the gate: it gives its turn back while it waits on its model.
    const start = (check: RunCheck) => withRunSeat(run.seat, () => startRun(check));
    const startRun = async (check: RunCheck) => {
      const runOptions = withRecursionLimit(markedBranch(options), settings);
      if (!savesInputFirst(check.input, check.snapshot, runOptions)) {
        return super.stream(
          check.input as Input,
          withDurability(
            fromCheckedHead(check.checkpointId, runOptions, this.checkpointer),
            check.input,
            check.snapshot,
          ),
        );
      }
      await ownUpdate.run(this, () =>
        super.updateState({ configurable: inputConfigurable(runOptions, this.checkpointer) }, check.input, "__input__"),
      );
      return super.stream(null, { ...runOptions, durability: "exit" });
    };
    let inner: AsyncIterable<unknown>;
    try {
      // While a stopped run is carried on, readers of the thread see it `resuming` (execution-state.ts).
      if (run.carryOn) await run.carryingOn(true);
      inner = await start(run.carryOn ? { input: null, snapshot: run.snapshot } : run);
    } catch (error) {
      const typed = asDatabaseError(error);
      await run.release(typed);
      throw typed;
    }
    const after = run.carryOn
      ? async () => {
          await run.carryingOn(false);
          return inputAfterCarryOn(this, input, checked, settings);
        }
      : async () => undefined;
    return IterableReadableStream.fromAsyncGenerator(
      (async function* held() {
        let failure: unknown;
        try {
          yield* inner;
          const rest = await after();
          if (rest) yield* await start(rest);
        } catch (error) {
          failure = asDatabaseError(error);
          throw failure;
        } finally {
          // A cancelled run's node may still be applying a batch: the thread is held until it stops.
          const threadId = (checked?.configurable as { thread_id?: unknown } | undefined)?.thread_id;
          if (writeBatches && typeof threadId === "string") await writeBatches.settled(threadId);
          // A run that failed because the database did not answer lets its thread go without asking it again.
          await run.release(failure);
        }
      })(),
    );
  }

  // `streamEvents` runs through `stream` above; checking the input here too makes a bad input fail before any event.
  // The round budget's recursion limit is set here too, before LangGraph's v3 stream binds the graph's own.
  // Typed loosely: LangGraph's overloads return a run stream (v3) or an event iterable; `CompiledTempo` keeps them.
  override streamEvents(
    input: Input,
    givenOptions: RunOptions,
    streamOptions?: Parameters<Base["streamEvents"]>[2],
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signatures LangGraph's Pregel declares, overridden as they are
  ): any {
    const { settings } = this.runGuard;
    const options = this.usableOptions(givenOptions) ?? givenOptions;
    const events = (runOptions: RunOptions) =>
      super.streamEvents(input, runOptions as Parameters<Base["streamEvents"]>[1], streamOptions);
    // An answer refused on the served graph raises its card again (`stream`): its input is checked there, not here.
    const checkInput =
      this.runGuard.refusedAnswers === "ask_again" && answersCard(input) ? () => undefined : checkRunInput;
    // Version "v3" resolves to LangGraph's run stream (protocol events) rather than returning an iterable.
    if (options?.version === "v3") {
      return Promise.resolve()
        .then(() => {
          checkInput(input, this.checkedOptions(options), settings);
          return events(withRecursionLimit(options, settings));
        })
        .catch((error: unknown) => {
          throw asDatabaseError(error);
        });
    }
    const checked = this.checkedOptions(options);
    return IterableReadableStream.fromAsyncGenerator(
      (async function* guarded() {
        checkInput(input, checked, settings);
        try {
          yield* events(withRecursionLimit(options, settings));
        } catch (error) {
          throw asDatabaseError(error);
        }
      })(),
    );
  }

  /**
   * The run's options as the graph takes them: with `invalidConfigurable: "ignore"` (the served graph), without the
   * stored configurable values that cannot work, each noted on the server's log (`withoutInvalidConfigurable`); with
   * `callerRecursionLimit: "ignore"` (the served graph too), without the caller's recursion limit, so the round
   * budget's applies (`withoutCallerRecursionLimit`).
   */
  private usableOptions(given: RunOptions | undefined): RunOptions | undefined {
    const threadId = (given?.configurable as { thread_id?: unknown } | undefined)?.thread_id;
    const { callerRecursionLimit, clientClock, clock } = this.runGuard;
    let options = callerRecursionLimit === "ignore" ? withoutCallerRecursionLimit(given) : given;
    if (clientClock === "server") {
      options = withoutClientClock(options, (clock ?? (() => new Date()))(), (problem) =>
        console.warn(
          `[tempo] thread ${String(threadId)}: ignored the run's now, the server's clock applies: ${problem.message}`,
        ),
      );
    }
    if (this.runGuard.invalidConfigurable !== "ignore") return options;
    return withoutInvalidConfigurable(options, (problem) =>
      console.warn(
        `[tempo] thread ${String(threadId)}: ignored a stored configurable value, its default applies instead: ${problem.message}`,
      ),
    );
  }

  /**
   * The options the run checks read: the caller's, over the graph's own config when it has one (a `withConfig` copy
   * whose config names the thread or the user), as LangGraph merges them for the run itself.
   */
  private checkedOptions(options: RunOptions | undefined): RunOptions | undefined {
    return this.config ? (mergeConfigs(this.config, options) as RunOptions) : options;
  }

  /**
   * After an answer was refused (INVALID_RESUME, STALE_RESUME, or INVALID_INPUT: text that cannot be stored) on the served graph: the thread keeps waiting. Its card
   * is raised again with the reason first (`pending.refusal`: what Agent Inbox shows) after an assistant message
   * saying it (the last message, where Agent Chat UI draws the card); a thread that waits on no card gets the message
   * alone. Both are written as this guard's own update — as chat, which routes to the pending card's node, or as
   * memorize, which ends — and then run, so the run ends cleanly and the server keeps the thread's status. Any other
   * error is thrown as it came.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signatures LangGraph's Pregel declares, overridden as they are
  private async askAgain(error: unknown, options: RunOptions | undefined): Promise<IterableReadableStream<any>> {
    const code = error instanceof TempoError ? error.code : undefined;
    if (code !== "INVALID_RESUME" && code !== "STALE_RESUME" && code !== "INVALID_INPUT") throw asDatabaseError(error);
    const { settings } = this.runGuard;
    const { threadId, latest } = await readOwnedThread(this, this.checkedOptions(options), settings);
    if (!latest?.createdAt) throw error;
    const state = latest.values as TempoState;
    const reason = (error as TempoError).message;
    const waiting =
      state.pending && latest.tasks.some((task) => task.interrupts.length > 0) ? state.pending : undefined;
    const language = languageOf(state.messages);
    const stillOpen = waiting
      ? say(language, " The card is still open; answer it again.", " 卡片仍然有效，请重新回答。")
      : "";
    // One note per open card: a second refusal replaces the first in place, and the card's answer removes it
    // (review/human-response.ts), so it never stays between a proposal and its calls' answers.
    const note = new AIMessage({
      id: waiting?.refusalNoteId ?? newId("refused"),
      content: `${say(language, "I could not use that answer: ", "这个回答无法使用：")}${reason}${stillOpen}`,
    });
    const config = { configurable: { thread_id: threadId } };
    // A thread that waits on nothing, already told this: a late answer more (a client that queued its answer twice,
    // each refused when its turn came) writes nothing, so a finished thread does not fill with the same refusal.
    const last = state.messages.at(-1);
    if (!waiting && last?.getType() === "ai" && messageText(last) === note.content)
      return super.stream(null, withRecursionLimit(markedBranch(options), settings));
    await ownUpdate.run(this, () =>
      waiting
        ? super.updateState(
            config,
            { messages: [note], pending: { ...waiting, refusal: reason, refusalNoteId: note.id } },
            NODE.chat,
          )
        : super.updateState(config, { messages: [note] }, NODE.memorize),
    );
    return super.stream(null, withRecursionLimit(markedBranch(options), settings));
  }

  /**
   * A run whose input ends the thread (`Command({ goto: END })`, Agent Chat UI's "Mark as Resolved"): the same
   * transition as `updateState(config, null, END)` — a task in progress dropped, no card left — made as the thread's
   * owner, then a run with nothing left to do, so the server records the thread as idle.
   */
  private async endThreadRun(
    checked: RunOptions | undefined,
    options: RunOptions | undefined,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the signatures LangGraph's Pregel declares, overridden as they are
  ): Promise<IterableReadableStream<any>> {
    const { settings } = this.runGuard;
    checkRunInput(null, checked, settings);
    const { threadId, latest } = await readOwnedThread(this, checked, settings);
    if (latest) await this.endThread({ configurable: { thread_id: threadId } }, latest);
    return super.stream(null, withRecursionLimit(markedBranch(options), settings));
  }

  override async updateState(
    ...[config, values, asNode]: Parameters<Base["updateState"]>
  ): ReturnType<Base["updateState"]> {
    if (!endsThreadByUpdate(values, asNode)) throw stateChangeRefused();
    return this.endThread(config, await this.getState(config as RunnableConfig));
  }

  /** The end-thread transition on the thread of `snapshot` (docs/design.md: ending a thread), written as this guard's own update. */
  private endThread(config: RunnableConfig, snapshot: StateSnapshot): ReturnType<Base["updateState"]> {
    return ownUpdate.run(this, async () => {
      const update = await endThreadUpdate(snapshot, this.runGuard.domain, this.runGuard.executionLog);
      return update ? super.updateState(config, update.values, update.asNode) : super.updateState(config, null, END);
    });
  }

  override async bulkUpdateState(...args: Parameters<Base["bulkUpdateState"]>): ReturnType<Base["bulkUpdateState"]> {
    if (ownUpdate.getStore() === this) return super.bulkUpdateState(...args);
    throw stateChangeRefused();
  }
}
