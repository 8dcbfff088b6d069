/**
 * Where a thread's last run left it, read from its latest checkpoint — what decides whether a new run may take its
 * input as it is, or must first carry the last run on (docs/design.md#carry-on):
 *
 * - `idle`: the last run ended (its graph reached END): nothing to carry on;
 * - `waiting`: it stopped at a card or a question that nobody answered yet;
 * - `answered`: it stopped at a card whose answer LangGraph already recorded (a `__resume__` write): the run that
 *   answered it died before the card's node finished. The answer stands and is honoured by carrying on;
 * - `failed`: a node failed with an error (a model or database fault): "continue" retries it, a resume carries it on,
 *   another message drops the task (telling what was applied);
 * - `stopped`: the run died between two nodes or inside one (a killed worker, a server restart) with no error
 *   recorded — possibly after a node's writes were saved but before the next checkpoint, when LangGraph's `next` is
 *   empty though the run is not over. It is carried on before anything else happens on the thread.
 *
 * Read only while no other run can be working on the thread (the run guard holds it, or the LangGraph server
 * serialises its runs): a run in progress looks like `stopped` too.
 */
import type { StateSnapshot } from "@langchain/langgraph";

export type RunPoint = "idle" | "waiting" | "answered" | "failed" | "stopped";

/** LangGraph's channel for a recorded resume value (not exported by the package). */
const RESUME_CHANNEL = "__resume__";

/** A pending write of a checkpoint: task id, channel, value. */
export type PendingWrite = [string, string, unknown];

/**
 * The run point of `snapshot` (a `getState` of the thread's latest checkpoint). `pendingWrites` are that
 * checkpoint's pending writes (`checkpointer.getTuple`), needed only to tell `answered` from `waiting`.
 */
export function runPoint(
  snapshot: Pick<StateSnapshot, "tasks">,
  pendingWrites: readonly PendingWrite[] = [],
): RunPoint {
  const tasks = snapshot.tasks ?? [];
  if (tasks.length === 0) return "idle";
  const open = tasks.filter((task) => task.interrupts.length > 0 && task.result === undefined);
  if (open.length > 0) {
    // A card that got a bad answer stays open: its task holds the error, and the next answer is read afresh.
    if (open.some((task) => task.error !== undefined)) return "waiting";
    const recorded = pendingWrites.some(([, channel]) => channel === RESUME_CHANNEL);
    return recorded ? "answered" : "waiting";
  }
  if (tasks.some((task) => task.error !== undefined)) return "failed";
  return "stopped";
}

/** True when a new run must first carry the last one on. */
export function mustCarryOn(point: RunPoint): boolean {
  return point === "stopped" || point === "answered";
}

/** Something whose checkpointer can read a checkpoint's pending writes. */
interface TupleReader {
  getTuple(config: {
    configurable: Record<string, unknown>;
  }): Promise<{ pendingWrites?: Array<[string, string, unknown]> } | undefined>;
}

/**
 * The run point of the thread whose latest checkpoint `snapshot` is. The checkpoint's pending writes are read only
 * for a thread that waits on a card (one more read), to see whether its answer was already recorded.
 */
export async function readRunPoint(checkpointer: unknown, snapshot: StateSnapshot): Promise<RunPoint> {
  const point = runPoint(snapshot);
  if (point !== "waiting" || !isTupleReader(checkpointer)) return point;
  const configurable = snapshot.config.configurable ?? {};
  const tuple = await checkpointer.getTuple({
    configurable: {
      thread_id: configurable.thread_id,
      checkpoint_ns: configurable.checkpoint_ns ?? "",
      checkpoint_id: configurable.checkpoint_id,
    },
  });
  return runPoint(snapshot, tuple?.pendingWrites ?? []);
}

function isTupleReader(value: unknown): value is TupleReader {
  return typeof value === "object" && value !== null && typeof (value as TupleReader).getTuple === "function";
}
