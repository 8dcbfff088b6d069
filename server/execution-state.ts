/**
 * `ExecutionState` (docs/design.md#executionstate): a typed projection of the graph state,
 * readable for the current checkpoint and for any past one, so a UI or a
 * report can show the plan as it stood at each step transition.
 *
 * `stepSnapshots` lists the checkpoints where a plan step became running,
 * done or failed (docs/design.md#step-snapshots), computed from
 * `getStateHistory` alone — each checkpoint's plan against its parent's — so
 * it reads the same on any checkpointer (Tempo's saver, the LangGraph
 * server's, MemorySaver). Tempo's saver also marks those checkpoints with
 * `metadata.tempo_step`, which retention keeps.
 */
import { createHash } from "node:crypto";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { StateSnapshot } from "@langchain/langgraph";
import type { Optimization, PlanStep, RunMode, TaskOutcome, TaskOutcomeRecord, TempoState } from "../kernel/state.js";
import { runPoint } from "./stopped-run.js";
import { callArguments } from "../kernel/call-records.js";
import type { ThreadLock } from "./thread-lock.js";
import {
  asPlanSteps,
  STEP_SNAPSHOT_METADATA_KEY,
  stepTransitions,
  type StepTransition,
} from "../checkpoints/step-transitions.js";

export { STEP_SNAPSHOT_METADATA_KEY };

/**
 * Where the thread's task stands: a task in progress by its phase, an ended one by its recorded outcome — the
 * `TaskOutcome` deliver judged (completed, partial, failed, dropped), not a vocabulary of its own.
 * `stopped`: the last run died part-way (a killed worker, a server restart) or failed on an error, with no card open;
 * nothing runs it now: the next read that carries it on (`carryOnStoppedRun`, server/carry-on.ts), resume or
 * "continue" carries it on first (server/stopped-run.ts), a new message after a failure drops the task, saying what it
 * applied. `resuming`: a run is carrying such a stopped run on now (its thread lease is marked, `ThreadLease.carryingOn`).
 */
export type ExecutionStatus =
  "idle" | "planning" | "waiting_user_confirmation" | "waiting_user" | "running" | "stopped" | "resuming" | TaskOutcome;

/** What the workflow observed: a tool call and its result, or the user's reply to a question (docs/design.md#questions). */
export type Observation =
  | { kind: "tool"; toolCallId: string; tool: string; arguments: Record<string, unknown>; result: string }
  | { kind: "user_reply"; question: string; answer: string; at: string };

export interface ExecutionState {
  /** The thread id. */
  sessionId: string;
  userId: string;
  goal: string;
  status: ExecutionStatus;
  /** Stable id of the plan (a hash of its goal and steps); empty without a plan. */
  planId: string;
  steps: PlanStep[];
  currentStepId: string | null;
  observations: Observation[];
  finalAnswer: string | null;
  /** How the last task ended — kind, why, and what was still open — as deliver judged it (or the drop recorded it). */
  outcome: TaskOutcomeRecord | null;
  lastError: string | null;
  updatedAt: string;
  /** Graph and tool-domain version the plan was made with. */
  workflowVersion: string;
  /** The plan's run mode (first_full, global_reopt, local_adjust), when the planner gave one. */
  runMode: RunMode | null;
  /** The refinement loop of the last refinement step: listings, scores, stagnation, verdict; null before any. */
  optimization: Optimization | null;
}

/** A step transition and the checkpoint that first holds it (several transitions can share one). */
export interface StepSnapshot {
  checkpointId: string;
  /** The step that became `status` (running, done or failed). */
  stepId: string;
  status: string;
  createdAt: string;
  state: ExecutionState;
}

/** Something with getState / getStateHistory, e.g. a compiled Tempo graph. */
export interface StateReader {
  getState(config: RunnableConfig): Promise<StateSnapshot>;
  getStateHistory(config: RunnableConfig): AsyncIterableIterator<StateSnapshot>;
}

/** What a projection knows beyond the snapshot. */
export interface ExecutionStateOptions {
  /**
   * Whether a run holds the thread now. A run in progress and a run that died leave the same kind of checkpoint; a
   * snapshot of either reads as `stopped` unless this is true (a past checkpoint of history: leave it undefined).
   */
  running?: boolean;
  /** Whether the run holding the thread is carrying on a run that stopped part-way: the status reads `resuming`. */
  resuming?: boolean;
}

/** Projects a state snapshot onto ExecutionState. */
export function toExecutionState(snapshot: StateSnapshot, options: ExecutionStateOptions = {}): ExecutionState {
  const values = snapshot.values as Partial<TempoState>;
  const configurable = (snapshot.config.configurable ?? {}) as Record<string, unknown>;
  const metadata = (snapshot.metadata ?? {}) as Record<string, unknown>;
  const steps = values.planSteps ?? [];
  const goal = values.goal ?? "";
  return {
    sessionId: String(configurable.thread_id ?? ""),
    userId: values.userId || String(metadata.user_id ?? configurable.user_id ?? ""),
    goal,
    status: statusIn(snapshot, values, options),
    planId: steps.length ? planIdOf(goal, steps) : "",
    steps,
    currentStepId: values.currentStepId ?? null,
    observations: [
      ...observationsOf(values.messages ?? []),
      ...(values.userReplies ?? []).map((reply): Observation => ({
        kind: "user_reply",
        question: reply.question,
        answer: reply.answer,
        at: reply.at,
      })),
    ],
    finalAnswer: values.finalAnswer ?? null,
    outcome: values.outcome ?? null,
    lastError: values.lastError ?? null,
    updatedAt: snapshot.createdAt ?? "",
    workflowVersion: values.workflowVersion ?? "",
    runMode: values.runMode ?? null,
    optimization: values.optimization ?? null,
  };
}

/**
 * The current ExecutionState of a thread. With the thread lock the graph runs under (`threadLock`, the Tempo graph's
 * own by default), a run that stopped part-way reads as `stopped`, not `running`.
 */
export async function readExecutionState(
  graph: StateReader,
  config: RunnableConfig,
  threadLock = threadLockOf(graph),
): Promise<ExecutionState> {
  const snapshot = await graph.getState(config);
  return toExecutionState(snapshot, await runStateNow(threadLock, config.configurable?.thread_id));
}

/** Whether a run holds `threadId` now and whether it carries a stopped run on; each undefined when the lock cannot tell. */
export async function runStateNow(
  threadLock: ThreadLock | undefined,
  threadId: unknown,
): Promise<ExecutionStateOptions> {
  const running = await runningNow(threadLock, threadId);
  if (running !== true || !threadLock?.carriesOn || typeof threadId !== "string") return { running };
  return { running, resuming: await threadLock.carriesOn(threadId) };
}

/** The thread lock a Tempo graph runs under (its run guard's), if it has one. */
export function threadLockOf(graph: unknown): ThreadLock | undefined {
  return (graph as { runGuard?: { threadLock?: ThreadLock } }).runGuard?.threadLock;
}

/** Whether a run holds `threadId` now, or undefined when the lock cannot tell. */
export async function runningNow(threadLock: ThreadLock | undefined, threadId: unknown): Promise<boolean | undefined> {
  return threadLock?.holds && typeof threadId === "string" ? threadLock.holds(threadId) : undefined;
}

/**
 * The step-transition snapshots of a thread, oldest first: one for every step that became running, done or failed,
 * at the checkpoint of its history that first holds it (compared with that checkpoint's parent, the one it was written
 * after). A checkpoint can hold several transitions, in plan order: a run that applies no write is saved once, when it
 * ends (`durabilityFor`), so "step 1 done, step 2 running" can land in one checkpoint. Checkpoints of other branches
 * (forks) are compared with their own parents.
 */
export async function stepSnapshots(graph: StateReader, config: RunnableConfig): Promise<StepSnapshot[]> {
  const history: StateSnapshot[] = [];
  for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
  const planById = new Map(
    history.map((snapshot) => [
      checkpointIdOf(snapshot.config),
      asPlanSteps<PlanStep>((snapshot.values as Partial<TempoState>).planSteps),
    ]),
  );
  const byCheckpoint: StepSnapshot[][] = [];
  for (const snapshot of history) {
    const parentId = snapshot.parentConfig ? checkpointIdOf(snapshot.parentConfig) : undefined;
    const parentPlan = parentId === undefined ? [] : planById.get(parentId);
    // A parent outside the listed history (a filtered or limited listing): the saver's marker, when there is one.
    const transitions = parentPlan
      ? stepTransitions(parentPlan, planById.get(checkpointIdOf(snapshot.config)) ?? [])
      : savedTransitions(snapshot);
    if (transitions.length === 0) continue;
    const common = {
      checkpointId: checkpointIdOf(snapshot.config),
      createdAt: snapshot.createdAt ?? "",
      state: toExecutionState(snapshot),
    };
    byCheckpoint.push(
      transitions.map((transition) => ({ ...common, stepId: transition.stepId, status: transition.status })),
    );
  }
  return byCheckpoint.reverse().flat();
}

/** The transitions of the `metadata.tempo_step` marker Tempo's saver wrote on a checkpoint, if any. */
function savedTransitions(snapshot: StateSnapshot): StepTransition[] {
  const marker = (snapshot.metadata as Record<string, unknown> | undefined)?.[STEP_SNAPSHOT_METADATA_KEY] as
    { stepId?: unknown; status?: unknown; transitions?: unknown } | undefined;
  if (typeof marker?.stepId !== "string") return [];
  const listed = Array.isArray(marker.transitions)
    ? marker.transitions.filter(
        (transition): transition is StepTransition =>
          typeof transition?.stepId === "string" && typeof transition?.status === "string",
      )
    : [];
  return listed.length > 0 ? listed : [{ stepId: marker.stepId, status: String(marker.status ?? "") }];
}

function checkpointIdOf(config: RunnableConfig): string {
  return String(config.configurable?.checkpoint_id ?? "");
}

/** The status: `resuming` while a stopped run is carried on, `stopped` for one nobody runs, else the phase's. */
function statusIn(
  snapshot: StateSnapshot,
  values: Partial<TempoState>,
  options: ExecutionStateOptions,
): ExecutionStatus {
  if (options.resuming === true) return "resuming";
  if (options.running === false && ["stopped", "failed"].includes(runPoint(snapshot))) return "stopped";
  return statusOf(values);
}

function statusOf(values: Partial<TempoState>): ExecutionStatus {
  if (values.pending?.kind === "ask_user") return "waiting_user";
  if (values.pending) return "waiting_user_confirmation";
  switch (values.phase) {
    case "planning":
      return "planning";
    case "waiting_confirm":
      return "waiting_user_confirmation";
    case "executing":
      return "running";
    case "done":
      // Ended, and judged by deliver: until deliver has run (the same run goes on to it), the task is still running.
      return values.outcome?.kind ?? "running";
    default:
      // An ended task (done, or dropped back to chatting) reports its outcome until the next task starts.
      return values.outcome?.kind ?? "idle";
  }
}

function planIdOf(goal: string, steps: PlanStep[]): string {
  const text = JSON.stringify([goal, steps.map((step) => [step.content, step.doneWhen])]);
  return `plan-${createHash("sha256").update(text).digest("hex").slice(0, 12)}`;
}

function observationsOf(messages: BaseMessage[]): Observation[] {
  const results = new Map<string, string>();
  for (const message of messages) {
    const toolCallId = (message as { tool_call_id?: string }).tool_call_id;
    if (message.getType() === "tool" && toolCallId)
      results.set(toolCallId, typeof message.content === "string" ? message.content : JSON.stringify(message.content));
  }
  const observations: Observation[] = [];
  for (const message of messages) {
    for (const call of (message as AIMessage).tool_calls ?? []) {
      const result = call.id ? results.get(call.id) : undefined;
      if (call.id && result !== undefined)
        observations.push({
          kind: "tool",
          toolCallId: call.id,
          tool: call.name,
          arguments: callArguments(message, call),
          result,
        });
    }
  }
  return observations;
}
