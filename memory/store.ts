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
import {
  BaseStore,
  type GetOperation,
  type Item,
  type Operation,
  type OperationResults,
  type PutOperation,
} from "@langchain/langgraph";
import type pg from "pg";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { SCHEMA_PATTERN, withAdvisoryLock, type Database } from "../database/index.js";
import { boundedClientOptions } from "../database/pool.js";
import type { LockingStore } from "./store-lock.js";

export interface MemoryStoreOptions {
  /** Schema of the store tables (default "public"). */
  schema?: string;
  /** Connections of the store's own pool (default 8; at least 2). */
  poolSize?: number;
  /** Vector search: the embedding model and its dimensions (text search when absent). */
  index?: ConstructorParameters<typeof PostgresStore>[0]["index"];
}

/**
 * A PostgresStore whose concurrent batches are bounded so that they cannot deadlock on its pool, and which holds a
 * lock for every process of its database (`exclusive`).
 */
export class MemoryStore extends BaseStore implements LockingStore {
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
      const together = this.inOneStatement(operations);
      if (together) return (await together) as OperationResults<Op>;
      return await this.inner.batch(operations);
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  /**
   * A batch of several gets, or of several puts, in ONE statement where PostgresStore runs one a operation (a card's
   * approvals are a get or a put per write, each a round trip: issue 44.8); undefined for any other batch, and when
   * the store has an index or a TTL (their puts and reads do more), which PostgresStore then runs as it does.
   */
  private inOneStatement(operations: Operation[]): Promise<unknown[]> | undefined {
    const core = (this.inner as unknown as { core: StoreCore }).core;
    if (operations.length < 2 || core.indexConfig || core.ttlConfig) return undefined;
    // The schema is written into the statement (an identifier cannot be a parameter): only a plain name is.
    if (!SCHEMA_PATTERN.test(core.schema)) return undefined;
    // A namespace PostgresStore would refuse goes to it, for its own error.
    const plain = (namespace: string[]) =>
      namespace.length > 0 && namespace[0] !== "langgraph" && namespace.every((label) => PLAIN_LABEL.test(label));
    const table = `"${core.schema}".store`;
    if (operations.every((operation) => isGet(operation) && plain(operation.namespace)))
      return getAll(core.pool, table, operations as GetOperation[]);
    if (operations.every((operation) => isPut(operation) && plain(operation.namespace)))
      return putAll(core.pool, table, operations as PutOperation[]);
    return undefined;
  }

  /**
   * Runs `fn` holding the Postgres advisory lock `key` on the store's database: two processes sharing it (two server
   * workers) wait for each other, as two runs of one process do in memory. Taken on a connection of its own, outside
   * the store's pool, which `fn` uses whole.
   */
  exclusive<T>(key: string, fn: () => Promise<T>, holding: string): Promise<T> {
    return withAdvisoryLock((this.inner as unknown as { core: StoreCore }).core.pool, key, fn, holding);
  }

  override async start(): Promise<void> {
    await this.inner.start();
  }

  override async stop(): Promise<void> {
    await this.inner.stop();
  }
}

/** What `MemoryStore` reads of PostgresStore 1.0.5's database core. */
interface StoreCore {
  pool: pg.Pool;
  schema: string;
  indexConfig?: unknown;
  ttlConfig?: unknown;
}

/** A namespace label PostgresStore takes as it is (no period, LIKE wildcard or backslash; not empty). */
const PLAIN_LABEL = /^[^.%_\\]+$/;

function isGet(operation: Operation): operation is GetOperation {
  return "key" in operation && !("value" in operation) && !("namespacePrefix" in operation);
}

/** A put that stores a value (a delete, or one with its own index or TTL choice, is PostgresStore's to run). */
function isPut(operation: Operation): operation is PutOperation {
  return "value" in operation && operation.value !== null && operation.index === undefined && !("options" in operation);
}

/** Several gets in one SELECT, each answered as PostgresStore's `executeGet` answers it (null when absent). */
async function getAll(pool: pg.Pool, table: string, gets: GetOperation[]): Promise<Array<Item | null>> {
  const { rows } = await pool.query<{
    namespace_path: string;
    key: string;
    value: Record<string, unknown>;
    created_at: Date;
    updated_at: Date;
  }>(
    `SELECT namespace_path, key, value, created_at, updated_at
       FROM ${table}
      WHERE (namespace_path, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
        AND (expires_at IS NULL OR expires_at > CURRENT_TIMESTAMP)`,
    [gets.map((get) => get.namespace.join(":")), gets.map((get) => get.key)],
  );
  const found = new Map(rows.map((row) => [JSON.stringify([row.namespace_path, row.key]), row]));
  return gets.map((get) => {
    const row = found.get(JSON.stringify([get.namespace.join(":"), get.key]));
    return row
      ? {
          namespace: row.namespace_path.split(":"),
          key: row.key,
          value: row.value,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
        }
      : null;
  });
}

/** Several puts in one INSERT, as PostgresStore's `executePut` stores each; of two puts of one key the later wins. */
async function putAll(pool: pg.Pool, table: string, puts: PutOperation[]): Promise<void[]> {
  const last = new Map(puts.map((put) => [JSON.stringify([put.namespace.join(":"), put.key]), put]));
  const rows = [...last.values()];
  await pool.query(
    `INSERT INTO ${table} (namespace_path, key, value, expires_at)
     SELECT path, key, value::jsonb, NULL FROM unnest($1::text[], $2::text[], $3::text[]) AS given(path, key, value)
     ON CONFLICT (namespace_path, key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at,
       updated_at = CURRENT_TIMESTAMP`,
    [
      rows.map((put) => put.namespace.join(":")),
      rows.map((put) => put.key),
      rows.map((put) => JSON.stringify(put.value)),
    ],
  );
  return puts.map(() => undefined);
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
