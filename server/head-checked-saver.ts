/**
 * A resume runs from the thread's head, and only while the head is still the checkpoint its answer was checked
 * against. Why not address that checkpoint (`configurable.checkpoint_id`), as the run guard once did: LangGraph
 * treats an addressed run as one that may branch the thread, and a run with durability "exit" (the answer to a plan
 * card or a question) then stores a whole copy of every delta channel it wrote — the message list — in its one
 * checkpoint (`_putExitDeltaWrites` in @langchain/langgraph's pregel/loop.js, `loadedLatest` false): tens of KiB a
 * task turn, growing with the thread. A run that reads the head stores only what it wrote.
 *
 * The guarantee the address gave is kept by reading the head through a checkpointer lent to the run: its first read
 * of the thread's head refuses a head that moved since the check (another answer, an end of the thread, a refusal's
 * note went on from it) with `AlreadyResumedError` (ALREADY_RESUMED), before the run has written anything — where an
 * addressed run resumed the card it was checked for and was refused by the saver's claim when it saved. Two runs
 * that both read the checked head still meet the claim (`checkpoints/resume-claims.ts`): one run on from each
 * checkpoint.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph";
import { AlreadyResumedError } from "../checkpoints/resume-claims.js";

/**
 * LangGraph's configurable key for a checkpointer lent to a run (`CONFIG_KEY_CHECKPOINTER` in its constants, which
 * the package does not export): the run reads and saves through it instead of the graph's own.
 */
export const LENT_CHECKPOINTER_KEY = "__pregel_checkpointer";

/** True for a read of the thread's head: no checkpoint id, the root namespace. */
function readsHead(config: RunnableConfig): boolean {
  const configurable = (config.configurable ?? {}) as { checkpoint_id?: unknown; checkpoint_ns?: unknown };
  return !configurable.checkpoint_id && (configurable.checkpoint_ns ?? "") === "";
}

/**
 * `saver` for one run whose start was checked at checkpoint `expected`: its first read of the thread's head throws
 * `AlreadyResumedError` unless the head is still `expected`; every other call goes to `saver` as it is.
 */
export function headCheckedSaver(saver: BaseCheckpointSaver, expected: string): BaseCheckpointSaver {
  let checked = false;
  const getTuple = async (config: RunnableConfig): Promise<CheckpointTuple | undefined> => {
    const tuple = await saver.getTuple(config);
    if (checked || !readsHead(config)) return tuple;
    checked = true;
    const head = tuple?.checkpoint.id;
    if (head !== expected) {
      const threadId = String(config.configurable?.thread_id);
      throw new AlreadyResumedError({ threadId, checkpointNs: "", checkpointId: expected }, expected, String(head));
    }
    return tuple;
  };
  return withMethod(saver, "getTuple", getTuple);
}

/** `saver` with its method `name` replaced by `method`; every other method and field its own (bound to it). */
export function withMethod<K extends keyof BaseCheckpointSaver>(
  saver: BaseCheckpointSaver,
  name: K,
  method: BaseCheckpointSaver[K],
): BaseCheckpointSaver {
  return new Proxy(saver, {
    get(target, property) {
      if (property === name) return method;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
