/**
 * The LangGraph checkpointer: the official `PostgresSaver` on Tempo's pool,
 * set up once under a Postgres advisory lock so any number of processes can
 * start at the same time.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";

import { ConfigurationError, DatabaseUnreachableError } from "../errors/index.js";
import type { Database } from "../database/pool.js";
import { redactUrl } from "../database/pool.js";

/** Options of {@link createCheckpointer}. */
export type CheckpointerOptions = {
  /** Postgres schema of the checkpoint tables (created if missing). Default "public". */
  schema?: string;
};

/** Schema of the checkpoint tables when none is given. */
export const DEFAULT_CHECKPOINT_SCHEMA = "public";

// PostgresSaver puts the schema between double quotes without escaping: only plain identifiers are safe.
const SCHEMA_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Creates a `PostgresSaver` on `database.pool` and runs its idempotent `setup()` under an advisory lock.
 * Do not call the saver's `end()`: it ends the shared pool; close the `Database` instead.
 */
export async function createCheckpointer(database: Database, options: CheckpointerOptions = {}): Promise<PostgresSaver> {
  const schema = options.schema ?? DEFAULT_CHECKPOINT_SCHEMA;
  if (!SCHEMA_PATTERN.test(schema)) {
    throw new ConfigurationError(
      `Invalid checkpoint schema name "${schema}": use letters, digits and underscores, starting with a letter or underscore (at most 63).`,
      { schema },
    );
  }
  const saver = new PostgresSaver(database.pool, undefined, { schema });
  try {
    await withAdvisoryLock(database.pool, `tempo:checkpoints:setup:${schema}`, () => saver.setup());
  } catch (error) {
    if (error instanceof DatabaseUnreachableError) throw error;
    throw new DatabaseUnreachableError(
      `Could not set up the checkpoint tables in schema "${schema}" of ${redactUrl(database.url)}: ${messageOf(error)}. ` +
        "Check that the database user may create schemas and tables there.",
      { url: redactUrl(database.url), schema },
      { cause: error },
    );
  }
  return saver;
}

/**
 * Runs `fn` while holding the Postgres session advisory lock `key` (a string, hashed by the server, or a 64-bit
 * integer), taken on a dedicated connection outside the pool so `fn` can use every pooled connection.
 *
 * Calls in the same process with the same server and key also wait for each other in memory: on the embedded
 * (PGlite) server every connection shares one session, where advisory locks never block, so the in-process
 * queue is what serialises them there (the embedded server only ever runs inside this process).
 */
export async function withAdvisoryLock<T>(pool: pg.Pool, key: string | number | bigint, fn: () => Promise<T>): Promise<T> {
  const localKey = `${serverIdentity(pool)}#${typeof key}:${String(key)}`;
  return withLocalMutex(localKey, async () => {
    const client = new pg.Client(pool.options);
    // A lock connection that dies makes the server drop the lock; the error surfaces at unlock time.
    client.on("error", () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      const where = pool.options.connectionString ? ` at ${redactUrl(pool.options.connectionString)}` : "";
      throw new DatabaseUnreachableError(
        `Cannot open a connection to the database${where} to take advisory lock ${String(key)}: ${messageOf(error)}.`,
        { key: String(key) },
        { cause: error },
      );
    }
    const lockExpression = typeof key === "string" ? "hashtextextended($1::text, 0)" : "$1::bigint";
    try {
      // This connection waits for the lock on purpose (another process sets up the same tables): no pool timeouts here.
      await client.query("SET lock_timeout = 0; SET statement_timeout = 0");
      await client.query(`SELECT pg_advisory_lock(${lockExpression})`, [typeof key === "string" ? key : key.toString()]);
      try {
        return await fn();
      } finally {
        await client.query(`SELECT pg_advisory_unlock(${lockExpression})`, [typeof key === "string" ? key : key.toString()]).catch(
          () => undefined, // the lock goes with the session, which ends just below
        );
      }
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}

const localQueues = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier call with the same key has settled (an in-process FIFO mutex). */
async function withLocalMutex<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = localQueues.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  localQueues.set(key, settled);
  try {
    return await run;
  } finally {
    if (localQueues.get(key) === settled) localQueues.delete(key);
  }
}

/** Which server and database a pool talks to, for keying in-process locks. */
function serverIdentity(pool: pg.Pool): string {
  const options = pool.options;
  if (options.connectionString) {
    try {
      const url = new URL(options.connectionString);
      return `${url.hostname}:${url.port || "5432"}${url.pathname}${url.searchParams.get("host") ?? ""}`;
    } catch {
      return redactUrl(options.connectionString);
    }
  }
  return `${options.host ?? "localhost"}:${options.port ?? 5432}/${options.database ?? ""}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
