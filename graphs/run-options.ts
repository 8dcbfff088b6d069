/**
 * The LangGraph options a run gets besides the caller's: the recursion limit of the round budget, the durability of
 * the run's kind, and — for a resume — the checkpoint it was checked against. Each applies only where the caller
 * left the option unset.
 */
import type { StateSnapshot } from "@langchain/langgraph";
import { isCommand } from "@langchain/langgraph";
import type { WorkflowSettings } from "../config/configuration.js";
import { inputMessages } from "./input-check.js";

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
 * The run's options with `configurable.checkpoint_id` set to `checkpointId`, unless the caller addressed one: a
 * resume that lost a race to another answer then resumes the card it was checked for (and is refused by the
 * saver's claim) instead of running on from where the other answer led.
 */
export function pinnedTo(checkpointId: string | undefined, options: RunOptions): RunOptions {
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
export function withDurability(options: RunOptions, input: unknown, snapshot: StateSnapshot | undefined): RunOptions {
  if (options.durability !== undefined) return options;
  const durability = durabilityFor(input, snapshot);
  return durability ? { ...options, durability } : options;
}
