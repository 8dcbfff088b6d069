/** Checkpoints built by hand for the saver's tests. */
import { emptyCheckpoint, type Checkpoint } from "@langchain/langgraph-checkpoint";

/** A checkpoint with `values` in new channels, at version 1 each. */
export function checkpointWith(values: Record<string, unknown>): Checkpoint {
  const checkpoint = emptyCheckpoint();
  checkpoint.channel_values = values;
  checkpoint.channel_versions = Object.fromEntries(Object.keys(values).map((channel) => [channel, 1]));
  return checkpoint;
}
