/**
 * Postgres session advisory locks, for work that several processes may start
 * at once (table set-up, migrations: the first one does it, the others wait
 * and then find it done; a change of one user's standing preferences: one
 * at a time).
 */
import pg from "pg";

import { DatabaseTimeoutError, DatabaseUnreachableError } from "../errors/index.js";
import { QUERY_READ_TIMEOUT, typedDatabaseErrorOr } from "./driver-errors.js";
import { redactUrl } from "./pool.js";

/**
 * Longest wait for an advisory lock another process holds (its table set-up or migration takes seconds), in ms. The
 * wait is exempt from the pool's query timeout, which bounds ordinary calls, but not unbounded: a holder stuck
 * (or a frozen server) ends it with DatabaseTimeoutError.
 */
export const ADVISORY_LOCK_WAIT_MS = 120_000;

/**
 * Runs `fn` while holding the Postgres session advisory lock `key` (a string, hashed by the server, or a 64-bit
 * integer), taken on a dedicated connection outside the pool so `fn` can use every pooled connection.
 *
 * Calls in the same process with the same server and key also wait for each other in memory: on the embedded
 * (PGlite) server every connection shares one session, where advisory locks never block, so the in-process
 * queue is what serialises them there (the embedded server only ever runs inside this process).
 */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  key: string | number | bigint,
  fn: () => Promise<T>,
  /** What the holder does, said when the wait runs out (default: table set-up). */
  holding = "while it sets up the same tables",
): Promise<T> {
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
      throw typedDatabaseErrorOr(
        error,
        () =>
          new DatabaseUnreachableError(
            `Cannot open a connection to the database${where} to take advisory lock ${String(key)}: ${messageOf(error)}.`,
            { key: String(key) },
            { cause: error },
          ),
      );
    }
    const lockExpression = typeof key === "string" ? "hashtextextended($1::text, 0)" : "$1::bigint";
    try {
      // This connection waits for the lock on purpose (another process holds it for its work): no pool timeouts here.
      await client.query("SET lock_timeout = 0; SET statement_timeout = 0");
      await client
        .query({
          text: `SELECT pg_advisory_lock(${lockExpression})`,
          values: [typeof key === "string" ? key : key.toString()],
          query_timeout: ADVISORY_LOCK_WAIT_MS,
        } as pg.QueryConfig)
        .catch((error: unknown) => {
          if (!(error instanceof Error && QUERY_READ_TIMEOUT.test(error.message))) throw error;
          throw new DatabaseTimeoutError(
            `Waited ${ADVISORY_LOCK_WAIT_MS / 1000} s for advisory lock ${String(key)}, which another process holds ${holding} (or the database does not answer); nothing was changed. Check for a stuck Tempo process on this database, then start again.`,
            { key: String(key) },
            { cause: error },
          );
        });
      try {
        return await fn();
      } finally {
        await client
          .query(`SELECT pg_advisory_unlock(${lockExpression})`, [typeof key === "string" ? key : key.toString()])
          .catch(
            () => undefined, // the lock goes with the session, which ends just below
          );
      }
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}

const localQueues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after every earlier call with the same key has settled (an in-process FIFO mutex; the advisory lock's
 * keys name a server, so another use keys its own kind: "preferences:<user>").
 */
export async function withLocalMutex<T>(key: string, fn: () => Promise<T>): Promise<T> {
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
