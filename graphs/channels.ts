/**
 * The state's delta channels: the fields whose checkpoints store only what a step wrote (LangGraph's
 * `DeltaChannel`, beta in @langchain/langgraph 1.7), with the names the checkpointer and retention need. A leaf
 * module: `checkpoints/` imports it without the state schema. See docs/design.md#persistence.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { DeltaChannel, messagesDeltaReducer, type Messages } from "@langchain/langgraph";
import type { PlanStep } from "./state.js";

/** The state channel holding the plan (the saver compares its versions for step snapshots). */
export const PLAN_CHANNEL = "planSteps";

/**
 * Message-list writes between two full copies of the list in a checkpoint. The list is a LangGraph `DeltaChannel`
 * (beta, @langchain/langgraph 1.7): a checkpoint stores only the messages a step wrote (in `checkpoint_writes`),
 * and every this-many writes one whole copy (a `DeltaSnapshot` blob); reading a checkpoint replays the writes since
 * the nearest copy. Higher: fewer bytes per turn, longer replays.
 */
export const MESSAGES_SNAPSHOT_FREQUENCY = 50;

/** The message channel: `messagesDeltaReducer` (add / replace by id, `RemoveMessage`, remove all) over a DeltaChannel. */
export function messagesChannel() {
  return new DeltaChannel<BaseMessage[], Messages>(messagesDeltaReducer, { snapshotFrequency: MESSAGES_SNAPSHOT_FREQUENCY });
}

/** The last write wins: the plan's reducer. */
function lastWrite<T>(_current: T, writes: T[]): T {
  return writes[writes.length - 1]!;
}

/** Plan writes between two whole copies of the plan in a checkpoint (see `planChannel`). */
export const PLAN_SNAPSHOT_FREQUENCY = 20;

/**
 * The plan channel: replace-on-write (the last write wins) over a `DeltaChannel`. The plan changes at every step
 * transition; as a plain field each change would be stored twice (the step's write and a blob row of the new
 * version), as a delta channel only the write is stored, plus a whole copy every `PLAN_SNAPSHOT_FREQUENCY` writes.
 */
export function planChannel() {
  return new DeltaChannel<PlanStep[], PlanStep[]>(lastWrite, { snapshotFrequency: PLAN_SNAPSHOT_FREQUENCY, initialValueFactory: () => [] });
}

/** The state's delta channels, by name: retention rebuilds their values where it cuts a chain (`pruneCheckpoints`). */
export const DELTA_CHANNELS = { messages: messagesChannel, [PLAN_CHANNEL]: planChannel } as const;

