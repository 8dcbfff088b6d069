/**
 * The graph `langgraph.json` serves (`createServedGraph`, DATABASE_URL set), run the way the LangGraph server runs it:
 * its own checkpointer and store attached to the shared compiled graph, as the server's `getGraph` does. The Postgres
 * it uses is started before a file's tests and stopped after them, with a one-connection pool to read what the graph
 * wrote (the execution log, the applied writes).
 */
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { readSettings } from "../../config/environment.js";
import { createServedGraph, type ServedGraph } from "../../server/create-tempo.js";
import type { TestPostgres } from "./postgres.js";

/**
 * Starts the served graph on the Postgres `start` gives, for the tests of the enclosing file or `describe`;
 * `environment`: more settings of the server (TEMPO_* variables), as the process would read them.
 */
export function useServedGraph(
  start: () => Promise<TestPostgres>,
  environment: Record<string, string> = {},
): {
  readonly served: ServedGraph;
  readonly pool: pg.Pool;
} {
  let postgres: TestPostgres | undefined;
  let served: ServedGraph | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    postgres = await start();
    pool = new pg.Pool({ connectionString: postgres.url, max: 1 });
    pool.on("error", () => undefined); // a client still closing when the server stops (57P01) is not a test failure
    served = await createServedGraph(readSettings({ ...environment, DATABASE_URL: postgres.url }));
    Object.assign(served.graph, { checkpointer: new MemorySaver(), store: new InMemoryStore() });
  });
  afterAll(async () => {
    await served?.close();
    await pool?.end();
    await postgres?.stop();
  });
  return {
    get served() {
      if (!served) throw new Error("the served graph starts before the tests");
      return served;
    },
    get pool() {
      if (!pool) throw new Error("the pool opens before the tests");
      return pool;
    },
  };
}
