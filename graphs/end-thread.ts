/**
 * A client ending a thread: `updateState(config, null, END)` — what Agent
 * Inbox's "Mark as resolved" (its `ignoreThread`) and the LangGraph SDK send.
 * LangGraph alone would only close the interrupted task and leave `phase` and
 * `pending` waiting, so the next message would be taken as an answer to a
 * card nobody sees. Here the same call takes the `end_thread` transition:
 * a task in progress is dropped, nothing stays pending. The update is
 * attributed to memorize, whose only edge is END, so no node runs after it.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, type StateSnapshot } from "@langchain/langgraph";
import { NODE } from "./routing.js";
import type { TempoState } from "./state.js";
import { appliedChanges } from "../nodes/task-report.js";
import type { ToolDomain } from "../tools/domain.js";
import { endThread } from "./transitions.js";

interface UpdatableGraph {
  updateState(config: RunnableConfig, values: unknown, asNode?: string): Promise<RunnableConfig>;
  getState(config: RunnableConfig): Promise<StateSnapshot>;
}

/** Installs the end-thread handling on a compiled graph (in place) and returns it. */
export function endThreadOnClientEnd<G>(graph: G, domain: ToolDomain): G {
  const target = graph as unknown as UpdatableGraph;
  const updateState = target.updateState.bind(target);
  target.updateState = async (config, values, asNode) => {
    if (asNode !== END || (values !== null && values !== undefined)) return updateState(config, values, asNode);
    const snapshot = await target.getState(config);
    // A thread with no checkpoint yet has nothing to end.
    if (!snapshot.createdAt) return updateState(config, values, asNode);
    const state = snapshot.values as TempoState;
    return updateState(config, endThread(state, appliedChanges(state, domain)), NODE.memorize);
  };
  return graph;
}
