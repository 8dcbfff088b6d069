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
import { createServedGraph, type ServedGraph } from "../runtime/create-tempo.js";
import type { TempoGraph } from "./tempo.js";

export { buildTempoGraph, createTempoBuilder, GRAPH_VERSION, type TempoGraph, type TempoGraphOptions } from "./tempo.js";
export * from "./state.js";
export * from "./routing.js";

let served: Promise<ServedGraph> | undefined;

/** The served graph, built on first use and then shared (a failed build is retried on the next request). */
export function servedGraph(): Promise<ServedGraph> {
  served ??= createServedGraph(readSettings()).catch((error: unknown) => {
    served = undefined;
    throw error;
  });
  return served;
}

/** The Tempo graph for the LangGraph server and Studio (`./graphs/index.ts:graph`). */
export async function graph(_config?: RunnableConfig): Promise<TempoGraph> {
  return (await servedGraph()).graph;
}
