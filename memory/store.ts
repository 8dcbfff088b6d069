/**
 * The memory store: LangGraph's `PostgresStore` on the same database as the
 * checkpoints — text search by default; vector search when an embedding
 * index is given. Its `setup()` runs under an advisory lock so several
 * processes may start at once.
 *
 * PostgresStore 1.0.5 holds one pooled connection for a batch and takes a
 * second one for a text search inside it: with as many concurrent searches
 * as pool connections, every batch waits for a connection the others hold,
 * for ever. `MemoryStore` admits at most half the pool's size of batches at
 * a time, so each always finds its second connection.
 */
import { BaseStore, type Operation, type OperationResults } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { withAdvisoryLock, type Database } from "../database/index.js";
import { boundedClientOptions } from "../database/pool.js";

export interface MemoryStoreOptions {
  /** Schema of the store tables (default "public"). */
  schema?: string;
  /** Connections of the store's own pool (default 8; at least 2). */
  poolSize?: number;
  /** Vector search: the embedding model and its dimensions (text search when absent). */
  index?: ConstructorParameters<typeof PostgresStore>[0]["index"];
}

/** A PostgresStore whose concurrent batches are bounded so that they cannot deadlock on its pool. */
export class MemoryStore extends BaseStore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    /** The store underneath. */
    readonly inner: PostgresStore,
    private readonly maxConcurrentBatches: number,
  ) {
    super();
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    if (this.running >= this.maxConcurrentBatches) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await this.inner.batch(operations);
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  override async start(): Promise<void> {
    await this.inner.start();
  }

  override async stop(): Promise<void> {
    await this.inner.stop();
  }
}

/** Creates and sets up the memory store for `database`; close it with `store.stop()`. */
export async function createMemoryStore(database: Database, options: MemoryStoreOptions = {}): Promise<MemoryStore> {
  const poolSize = Math.max(2, options.poolSize ?? 8);
  const store = new PostgresStore({
    // The same statement, lock, connect and client-side query timeouts as Tempo's pool (`openDatabase`).
    connectionOptions: {
      connectionString: database.url,
      max: poolSize,
      statement_timeout: database.pool.options.statement_timeout,
      lock_timeout: database.pool.options.lock_timeout,
      connectionTimeoutMillis: database.pool.options.connectionTimeoutMillis,
      ...boundedClientOptions(Number(database.pool.options.query_timeout ?? 0)),
    },
    schema: options.schema,
    index: options.index,
    ensureTables: false,
  });
  guardPoolErrors(store);
  await withAdvisoryLock(database.pool, "tempo_memory_store_setup", () => store.setup());
  return new MemoryStore(store, Math.floor(poolSize / 2));
}

/** A server that goes away must fail the queries in flight, not end the process through an unhandled 'error' event. */
function guardPoolErrors(store: PostgresStore): void {
  const pool = (
    store as unknown as { core?: { pool?: { on(event: string, listener: (...args: unknown[]) => void): void } } }
  ).core?.pool;
  if (!pool) return;
  pool.on("error", () => undefined);
  pool.on("connect", (client) =>
    (client as { on(event: string, listener: () => void): void }).on("error", () => undefined),
  );
}
