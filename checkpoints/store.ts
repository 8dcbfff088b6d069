/**
 * The memory store: LangGraph's `PostgresStore` on the same database as the
 * checkpoints — text search by default; vector search when an embedding
 * index is given. Its `setup()` runs under an advisory lock so several
 * processes may start at once.
 */
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import type { Database } from "./database.js";
import { withAdvisoryLock } from "./saver.js";

export interface MemoryStoreOptions {
  /** Schema of the store tables (default "public"). */
  schema?: string;
  /** Connections of the store's own pool (default 4). */
  poolSize?: number;
  /** Vector search: the embedding model and its dimensions (text search when absent). */
  index?: ConstructorParameters<typeof PostgresStore>[0]["index"];
}

/** Creates and sets up the PostgresStore for `database`; close it with `store.stop()`. */
export async function createMemoryStore(database: Database, options: MemoryStoreOptions = {}): Promise<PostgresStore> {
  const store = new PostgresStore({
    connectionOptions: { connectionString: database.url, max: options.poolSize ?? 4 },
    schema: options.schema,
    index: options.index,
    ensureTables: false,
  });
  await withAdvisoryLock(database.pool, "tempo_memory_store_setup", () => store.setup());
  return store;
}
