/**
 * A new message on an idle thread is saved first as LangGraph's input checkpoint (`updateState(config, input,
 * "__input__")`, see `savesInputFirst` in run-options.ts), which holds the input as its `__start__` value. LangGraph's
 * `updateState` also stores the same input as a pending write of the checkpoint before it (the thread's previous
 * head), a write of the `__start__` channel under a task id no task has: it does so for delta channels, whose values
 * are rebuilt from writes, but `__start__` is a plain channel, so nothing reads that copy (a run, `getState`, a delta
 * channel's history, a fork from that checkpoint: pending writes of no task are skipped). This saver, lent to that
 * update only, leaves the copy out: a small-talk turn stores its message twice (the input, then the message list's
 * write), not three times.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { START, type BaseCheckpointSaver } from "@langchain/langgraph";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { withMethod } from "./head-checked-saver.js";

/** `saver` for the update that saves a new message's input: its writes of the input channel are not stored. */
export function inputSavedOnce(saver: BaseCheckpointSaver): BaseCheckpointSaver {
  const putWrites = async (config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> => {
    const kept = writes.filter(([channel]) => channel !== START);
    if (kept.length > 0) await saver.putWrites(config, kept, taskId);
  };
  return withMethod(saver, "putWrites", putWrites);
}
