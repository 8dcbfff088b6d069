/**
 * The LangGraph options a run gets besides the caller's: the recursion limit of the round budget, the durability of
 * the run's kind, and — for a resume — the check that it runs from the checkpoint it was checked against. Each applies only where the caller
 * left the option unset.
 */
import type { BaseCheckpointSaver, StateSnapshot } from "@langchain/langgraph";
import { isCommand } from "@langchain/langgraph";
import {
  clientClockProblem,
  configurableProblems,
  reservedKeyProblems,
  type WorkflowSettings,
} from "../config/configuration.js";
import type { ConfigurationError } from "../errors/index.js";
import { inputMessages } from "./input-check.js";
import { BRANCH_RUN_KEY } from "../checkpoints/tempo-saver.js";
import { runPoint } from "./stopped-run.js";
import { headCheckedSaver, LENT_CHECKPOINTER_KEY } from "./head-checked-saver.js";
import { inputSavedOnce } from "./input-saver.js";

/** A run's options, as LangGraph's `stream` / `streamEvents` take them. */
export type RunOptions = Record<string, unknown>;

/**
 * A recursion limit that lets the round budget, not LangGraph's default of 25 steps, bound a run: each round and
 * each planning round takes a few graph steps, plus head room for recall, chat, deliver and memorize.
 */
export function withRecursionLimit(options: RunOptions | undefined, settings: WorkflowSettings): RunOptions {
  if (options?.recursionLimit !== undefined) return options;
  const configurable = (options?.configurable ?? {}) as { max_rounds?: number };
  const rounds = configurable.max_rounds ?? settings.maxRounds;
  return { ...options, recursionLimit: (rounds + settings.maxPlanRounds) * 4 + 50 };
}

/**
 * The options without the caller's `recursionLimit`, so `withRecursionLimit` sets the round budget's: the served
 * graph's way with a client's `config.recursion_limit` (`RunGuard.callerRecursionLimit`). Too low, a task would stop
 * midway on a GraphRecursionError with its plan half done; too high, a run looping past its round budget would not be
 * stopped by the limit. A client bounds its run with `configurable.max_rounds` (checked at admission). Options
 * without one are returned as they are.
 */
export function withoutCallerRecursionLimit(options: RunOptions | undefined): RunOptions | undefined {
  if (options?.recursionLimit === undefined) return options;
  const { recursionLimit: _ignored, ...rest } = options;
  return rest;
}

/**
 * The run's options for a resume checked against checkpoint `checkpointId`: it runs from the thread's head, read
 * through a checkpointer lent to the run that refuses a head other than `checkpointId` (`headCheckedSaver`), so a
 * resume that lost a race to another answer is refused (ALREADY_RESUMED) before it writes anything, instead of running
 * on from where the other answer led. Not addressed to `checkpointId` (which would keep that guarantee too): LangGraph
 * saves an addressed run with durability "exit" with a whole copy of the message list (head-checked-saver.ts). Options
 * that address a checkpoint themselves, and runs without a checkpointer, are returned as they are.
 */
export function fromCheckedHead(
  checkpointId: string | undefined,
  options: RunOptions,
  checkpointer: unknown,
): RunOptions {
  const configurable = (options.configurable ?? {}) as Record<string, unknown>;
  if (!checkpointId || configurable.checkpoint_id) return options;
  const saver = (configurable[LENT_CHECKPOINTER_KEY] ?? checkpointer) as BaseCheckpointSaver | boolean | undefined;
  if (typeof saver !== "object") return options;
  return {
    ...options,
    configurable: { ...configurable, [LENT_CHECKPOINTER_KEY]: headCheckedSaver(saver, checkpointId) },
  };
}

/**
 * The run's options without the `configurable` values that cannot work (`configurableProblems`: a bad `time_zone`,
 * `now` or `max_rounds`), each dropped — so its default applies — and told to `ignored` with the refusal it would
 * have been. The served graph's way with such values: the LangGraph server keeps a run's `configurable` in the
 * thread's stored config and merges it into every later run, and Tempo's auth refuses a bad value at admission, so a
 * bad value that reaches the served graph was stored before that check (an earlier version, an assistant made then):
 * refused, it would fail every later run of the thread, "thanks" included, and a client that sends no configurable
 * (Agent Chat UI) could never recover it. Options with nothing to drop are returned as they are.
 */
export function withoutInvalidConfigurable(
  options: RunOptions | undefined,
  ignored: (problem: ConfigurationError) => void,
): RunOptions | undefined {
  const configurable = options?.configurable as Record<string, unknown> | undefined;
  const problems = configurable ? [...reservedKeyProblems(configurable), ...configurableProblems(configurable)] : [];
  if (problems.length === 0) return options;
  const usable = { ...configurable };
  for (const problem of problems) {
    delete usable[String(problem.details?.field).replace(/^configurable\./, "")];
    ignored(problem);
  }
  return { ...options, configurable: usable };
}

/**
 * The run's options without a `configurable.now` more than `CLIENT_CLOCK_TOLERANCE_MS` off `serverNow`
 * (`clientClockProblem`), told to `ignored`: the served graph's way with a client clock when the server takes none
 * (`RunGuard.clientClock`), so the run's moment is the server's. Options with nothing to drop are returned as they are.
 */
export function withoutClientClock(
  options: RunOptions | undefined,
  serverNow: Date,
  ignored: (problem: ConfigurationError) => void,
): RunOptions | undefined {
  const configurable = options?.configurable as Record<string, unknown> | undefined;
  const problem = clientClockProblem(configurable, serverNow);
  if (!problem) return options;
  const { now: _ignored, ...usable } = configurable!;
  ignored(problem);
  return { ...options, configurable: usable };
}

/**
 * The configurable key holding the checkpoint a served client last read — the `checkpoint_id` useStream sends with
 * every submit (the thread's head as it saw it). The auth handler moves it here (a run always starts from the
 * thread's latest checkpoint), and the run checks refuse an answer sent from a view the thread has since moved past
 * (STALE_RESUME).
 */
export const SEEN_CHECKPOINT_KEY = "tempo_seen_checkpoint";

/**
 * The configurable key of a run made to carry on a thread's stopped run when the thread is read (`carryOnStoppedRun`,
 * server/carry-on.ts; the served read, auth/applied-cards.ts): with a `null` input, such a run carries the stopped run
 * on and does nothing else — a thread that, once held, turns out not to be stopped (another reader carried it on
 * first, or it waits on a card) is left exactly as it is.
 */
export const CARRY_ON_ONLY_KEY = "tempo_carry_on_only";

/** True for a run that only carries a stopped run on (see {@link CARRY_ON_ONLY_KEY}). */
export function carriesOnOnly(input: unknown, options: RunOptions | undefined): boolean {
  return input === null && ((options?.configurable ?? {}) as Record<string, unknown>)[CARRY_ON_ONLY_KEY] === true;
}

/**
 * A run its caller addressed to a checkpoint (`configurable.checkpoint_id`, time travel) branches the thread there on
 * purpose: marked so Tempo's saver does not refuse its saves as a second run going on from that checkpoint.
 */
export function markedBranch(options: RunOptions | undefined): RunOptions | undefined {
  const configurable = (options?.configurable ?? {}) as Record<string, unknown>;
  if (!configurable.checkpoint_id) return options;
  return { ...options, configurable: { ...configurable, [BRANCH_RUN_KEY]: true } };
}

/** The kinds of what a thread can wait on whose answer applies no write: the plan card and a question. */
const ANSWERS_WITHOUT_WRITES: ReadonlySet<string> = new Set(["confirm_plan", "ask_user"]);

/**
 * LangGraph's durability for a run, by its kind. A run in which no write can apply is saved once, when it ends
 * ("exit"): writes apply only in the run that answers their card, so such a run changes nothing of the user's data
 * before it stops at the next card or question, or ends. Those runs are the answer to a plan card or to a question (a
 * resume, or a plain message taken as the answer): the plan runs up to its first write card, a question, or its end.
 * A run that fails with an error is saved where it failed (LangGraph saves such a run when it ends, error or not) and
 * goes on from there, as any stopped run; a process that dies mid-run leaves the card it answered open (its answer
 * recorded: the next resume, "continue" or message carries it on), so nothing the user sent is lost.
 * A new message on an idle thread is saved as its input first, then runs "exit" too (`savesInputFirst`).
 * Every other run saves every step ("async", LangGraph's default): the answer to a write card and messages on a task
 * under way (retries): each step transition is a checkpoint, a crash resumes from the last step, and a write waits
 * for the checkpoint of its step to be saved (one resume per card). Undefined leaves LangGraph's default.
 */
export function durabilityFor(input: unknown, snapshot: StateSnapshot | undefined): "exit" | undefined {
  if (snapshot === undefined) return undefined;
  const resume = isCommand(input);
  if (!resume && inputMessages(input).length === 0) return undefined;
  const values = (snapshot.values ?? {}) as { phase?: string; pending?: { kind?: string } | null };
  const waitingOn = [
    ...(values.pending ? [values.pending.kind] : []),
    ...snapshot.tasks.flatMap((task) =>
      task.interrupts.map((interrupt) => (interrupt.value as { kind?: string } | undefined)?.kind),
    ),
  ];
  return waitingOn.length > 0 && waitingOn.every((kind) => kind !== undefined && ANSWERS_WITHOUT_WRITES.has(kind))
    ? "exit"
    : undefined;
}

/**
 * A new message on a thread whose last run ended (nothing waits, nothing to carry on): its input is saved first, as
 * LangGraph's own input checkpoint (`updateState(config, input, "__input__")`), and the run goes on from there with
 * durability "exit" — saved once more when it stops at a card or a question, or ends. Such a run applies no write
 * (writes apply only in the run that answers their card), so a worker killed mid-run leaves the saved input: a
 * stopped run, carried on by the next resume, "continue" or message — the request is never lost, and small talk costs
 * two checkpoints a turn instead of one per step. Not when the caller chose a durability or addressed a checkpoint.
 */
export function savesInputFirst(
  input: unknown,
  snapshot: StateSnapshot | undefined,
  options: RunOptions | undefined,
): boolean {
  if (snapshot === undefined || options?.durability !== undefined || isCommand(input)) return false;
  if (((options?.configurable ?? {}) as { checkpoint_id?: unknown }).checkpoint_id) return false;
  return inputMessages(input).length > 0 && runPoint(snapshot) === "idle";
}

/**
 * The `configurable` of the update that saves a new message's input first (`savesInputFirst`): the run's, with the
 * checkpointer lent to the update as `inputSavedOnce` (input-saver.ts), so the input is not also stored as a write
 * of the previous checkpoint. Without a checkpointer, the run's as it is.
 */
export function inputConfigurable(options: RunOptions, checkpointer: unknown): Record<string, unknown> {
  const configurable = (options.configurable ?? {}) as Record<string, unknown>;
  const saver = (configurable[LENT_CHECKPOINTER_KEY] ?? checkpointer) as BaseCheckpointSaver | boolean | undefined;
  if (typeof saver !== "object") return configurable;
  return { ...configurable, [LENT_CHECKPOINTER_KEY]: inputSavedOnce(saver) };
}

/** Options with the run kind's durability, unless the caller chose one. */
export function withDurability(options: RunOptions, input: unknown, snapshot: StateSnapshot | undefined): RunOptions {
  if (options.durability !== undefined) return options;
  const durability = durabilityFor(input, snapshot);
  return durability ? { ...options, durability } : options;
}
