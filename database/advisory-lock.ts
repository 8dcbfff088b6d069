/**
 * Postgres session advisory locks, for work that several processes may start
 * at once (table set-up, migrations): the first one does it, the others wait
 * and then find it done.
 */
import pg from "pg";

import { DatabaseUnreachableError } from "../errors/index.js";
import { redactUrl } from "./pool.js";

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
