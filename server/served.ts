/**
 * The graph that `langgraph.json` serves to the LangGraph server (`langgraph
 * dev`, `langgraph up`, Platform) and Studio, as an async factory: importing
 * this module opens nothing; the first time the server asks for the graph,
 * `createServedGraph` builds it once from the environment (the same
 * composition root as `createTempo`): DATABASE_URL → the Postgres schedule
 * repository and execution log, otherwise in-memory schedules that give each
 * user the sample week. The server attaches its own checkpointer and store.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { readSettings } from "../config/environment.js";
import { createServedGraph, type ServedGraph } from "./create-tempo.js";
import type { TempoGraph } from "./tempo-graph.js";

export { createTempoBuilder, GRAPH_VERSION } from "../graphs/tempo.js";
export { buildTempoGraph, type TempoGraph, type TempoGraphOptions } from "./tempo-graph.js";
export * from "../kernel/state.js";
export * from "../kernel/routing.js";

let served: Promise<ServedGraph> | undefined;

/** The served graph, built on first use and then shared (a failed build is retried on the next request). */
export function servedGraph(): Promise<ServedGraph> {
  served ??= createServedGraph(readSettings()).catch((error: unknown) => {
    served = undefined;
    throw error;
  });
  return served;
}

/** The Tempo graph for the LangGraph server and Studio (`./server/served.ts:graph`). */
export async function graph(_config?: RunnableConfig): Promise<TempoGraph> {
  return (await servedGraph()).graph;
}
