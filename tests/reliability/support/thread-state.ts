/** Reading a thread's state for before/after comparisons. */
import type { TempoGraph } from "../../../server/tempo-graph.js";
import type { TempoState } from "../../../kernel/state.js";

/** What a caller can observe of a thread: its values, the checkpoint it is at, the nodes to run and the open interrupts. */
export interface ThreadSnapshot {
  values: TempoState;
  checkpointId: string | undefined;
  next: string[];
  interrupts: unknown[];
}

/** The thread's current snapshot, via the graph's `getState`. */
export async function snapshot(
  graph: TempoGraph,
  config: { configurable: Record<string, unknown> },
): Promise<ThreadSnapshot> {
  const state = await graph.getState(config);
  return {
    values: state.values as TempoState,
    checkpointId: state.config.configurable?.checkpoint_id as string | undefined,
    next: [...state.next],
    interrupts: state.tasks.flatMap((task) => task.interrupts ?? []).map((interrupt) => interrupt.value),
  };
}

/** The task's runtime fields (everything but the conversation and recalled memory). */
export function taskFields(values: TempoState): Partial<TempoState> {
  const { messages: _messages, recalled: _recalled, ...rest } = values;
  return rest;
}

/** Error thrown by `promise`, or undefined when it resolves. */
export async function thrownBy(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error;
  }
}
