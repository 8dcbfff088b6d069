/**
 * Channel facts that the checkpoint layer needs as well as the graph: which channel holds the plan, and which
 * channels are delta channels (and how to build them). `state.ts` builds the schema with these; `checkpoints/`
 * reads them without importing the state schema.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { DeltaChannel, messagesDeltaReducer, type Messages } from "@langchain/langgraph";
import type { TempoState } from "./state.js";

/** The state channel holding the plan (the Tempo checkpointer marks checkpoints where a step changed status). */
export const PLAN_CHANNEL = "planSteps" satisfies keyof TempoState;

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

/** The state's delta channels, by name: retention rebuilds their values where it cuts a chain (`pruneCheckpoints`). */
export const DELTA_CHANNELS = { messages: messagesChannel } as const;
