/**
 * A batch card approved whole by a run that is cancelled after its `afterClaims`-th write (the way the server cancels
 * a run under the `interrupt` multitask strategy): the execution log's claims are counted, and the run's signal is
 * aborted after the one named. The graph's own code stops the batch at its next write; the writes after it stay
 * approved but not applied.
 */
import { Command } from "@langchain/langgraph";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import type { buildTempoGraph } from "../../server/tempo-graph.js";

/**
 * Approves every write of the thread's open card (or answers it with `decisions`, one a write) in a run cancelled after
 * its `afterClaims`-th write; returns how many writes the card held. The log is restored afterwards.
 */
export async function approveBatchCancelledAfter(
  graph: ReturnType<typeof buildTempoGraph>,
  log: MemoryExecutionLog,
  config: RunnableConfig,
  afterClaims: number,
  decisions?: unknown[],
): Promise<number> {
  const card = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts)[0]!.value as {
    action_requests: unknown[];
  };
  const cancel = new AbortController();
  const applyOnce = log.applyOnce.bind(log);
  let claims = 0;
  log.applyOnce = async (entry, apply) => {
    const claimed = await applyOnce(entry, apply);
    if ((claims += 1) === afterClaims) cancel.abort("interrupt");
    return claimed;
  };
  const answer = decisions ?? card.action_requests.map(() => ({ type: "approve" }));
  try {
    await graph
      .invoke(new Command({ resume: { decisions: answer } }), { ...config, signal: cancel.signal })
      .catch(() => null);
  } finally {
    log.applyOnce = applyOnce;
  }
  return card.action_requests.length;
}
