/**
 * One way to get a Postgres connection pool: a given server (`databaseUrl`)
 * or, without one, the embedded PGlite server. Either way the rest of Tempo
 * sees a `pg.Pool` and a URL.
 */
import { tempoTypes } from "./bytea-array.js";
import pg from "pg";

import {
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_QUERY_TIMEOUT_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
} from "../config/environment.js";
import { ConfigurationError, DatabaseTimeoutError, DatabaseUnreachableError, TempoError } from "../errors/index.js";
import { QUERY_READ_TIMEOUT, typedDatabaseErrorOr } from "./driver-errors.js";
import { DEFAULT_EMBEDDED_MAX_CONNECTIONS, startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.js";

/** An open database: a connection pool and where it points. */
export type Database = {
  /** Connection URL (with its password: do not log it, use `redactUrl`). */
  url: string;
  /** The shared connection pool. */
  pool: pg.Pool;
  /** True when this process runs the database itself (PGlite). */
  embedded: boolean;
  /** Ends the pool, then stops the embedded server if any. Safe to call twice. */
  close(): Promise<void>;
};

/** Options of {@link openDatabase}. */
export type OpenDatabaseOptions = {
  /** A Postgres URL; without it the embedded database is started. */
  databaseUrl?: string;
  /** Data directory of the embedded database (ignored with `databaseUrl`). */
  dataDir?: string;
  /** Longest the embedded database's start may take, in ms (ignored with `databaseUrl`). Default 120 000. */
  startTimeoutMs?: number;
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** How long to wait for a connection before giving up, in ms. Default 10 000. */
  connectTimeoutMs?: number;
  /** Longest a statement may run (Postgres `statement_timeout`), in ms; 0 for none. Default 30 000. */
  statementTimeoutMs?: number;
  /** Longest a statement may wait for a lock another session holds (Postgres `lock_timeout`), in ms; 0 for none. Default 5 000. */
  lockTimeoutMs?: number;
  /**
   * Longest any call waits for the server's answer, on the client (node-postgres `query_timeout`), in ms; 0 for none.
   * Default 15 000. Bounds what the server-side timeouts cannot: a frozen or cut-off server. A connection whose call
   * timed out is dropped, never reused (it may hold an open transaction).
   */
  queryTimeoutMs?: number;
};

/** Default number of connections in a pool. */
export const DEFAULT_POOL_SIZE = 10;

/** Default time to wait for a new connection, in ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens a pool on `databaseUrl`, or on a freshly started embedded server; checks it with `SELECT 1`.
 * Every connection has `statement_timeout` and `lock_timeout` set, so a statement stuck behind a lock or a slow query
 * ends with an error (`DatabaseTimeoutError` through the graph) instead of holding a run for minutes. The embedded
 * server has one session only, so no lock of another session can hold it up; it ignores these settings.
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  if (!Number.isInteger(poolSize) || poolSize < 1) {
    throw new DatabaseUnreachableError(`Invalid pool size ${String(poolSize)}: use a whole number of at least 1.`, {
      poolSize,
    });
  }
  for (const [name, value] of Object.entries({ statementTimeoutMs, lockTimeoutMs, queryTimeoutMs })) {
    if (!Number.isInteger(value) || value < 0)
      throw new ConfigurationError(
        `Invalid ${name} ${String(value)}: use a whole number of milliseconds, 0 for none.`,
        { [name]: value },
      );
  }

  let embedded: EmbeddedPostgres | undefined;
  let url: string;
  if (options.databaseUrl !== undefined && options.databaseUrl !== "") {
    url = options.databaseUrl;
  } else {
    // Head room above the pool for the dedicated lock connections and other pools (stores, tools) on the same server.
    embedded = await startEmbeddedPostgres({
      dataDir: options.dataDir,
      startTimeoutMs: options.startTimeoutMs,
      maxConnections: Math.max(DEFAULT_EMBEDDED_MAX_CONNECTIONS, poolSize * 2 + 10),
    });
    url = embedded.url;
  }

  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: connectTimeoutMs,
    // Sent with each connection's startup; pg leaves a setting of 0 out, which means "none" on the server too.
    statement_timeout: statementTimeoutMs,
    lock_timeout: lockTimeoutMs,
    // On the client: every call has an answer or an error within this bound, a frozen server included.
    ...boundedClientOptions(queryTimeoutMs),
    // Checkpoint reads come as bytea arrays: read fast (bytea-array.ts).
    types: tempoTypes,
  });
  // An idle client that loses its connection is dropped by the pool, and the next query opens a new one; without a
  // listener the pool's 'error' event would crash the process.
  pool.on("error", () => undefined);
  // A checked-out client whose server goes away emits "error" too; without a listener Node ends the process.
  // The query in flight fails with the error, so the caller still sees it.
  pool.on("connect", (client) => client.on("error", () => undefined));

  // The first connection is bounded even when calls are not (queryTimeoutMs 0): a server that takes the connection but
  // never answers fails the open instead of leaving it waiting for ever.
  const checkTimeoutMs =
    queryTimeoutMs > 0 ? queryTimeoutMs : connectTimeoutMs > 0 ? connectTimeoutMs : DEFAULT_QUERY_TIMEOUT_MS;
  try {
    await checkConnection(pool, checkTimeoutMs);
  } catch (error) {
    await pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw unreachable(url, embedded !== undefined, error, checkTimeoutMs);
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    pool,
    embedded: embedded !== undefined,
    close() {
      closing ??= (async () => {
        try {
          await pool.end();
        } finally {
          await embedded?.stop();
        }
      })();
      return closing;
    },
  };
}

/**
 * A pg client that drops its connection when a call had no answer within `query_timeout`. node-postgres gives up on
 * the call but keeps the connection, its statement still in flight: reused, it would run the next caller's queries
 * behind it, or inside a transaction whose ROLLBACK never went out. Dropped, it fails the calls queued on it at once,
 * and the pool opens a fresh connection for the next one.
 */
export class BoundedClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's own overloads of query return any
  override query(...args: unknown[]): any {
    const drop = (error: unknown) => {
      if (error instanceof Error && QUERY_READ_TIMEOUT.test(error.message))
        (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    };
    // Callback style (pg-pool's own `pool.query`): the callback learns of the timeout first, then the connection goes.
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last] as (error: unknown, result: unknown) => void;
      args[last] = (error: unknown, result: unknown) => {
        callback(error, result);
        drop(error);
      };
    }
    const result = (super.query as (...queryArgs: unknown[]) => unknown)(...args);
    if (result instanceof Promise) result.catch(drop);
    return result;
  }
}

/** Pool or client options that bound every call by `queryTimeoutMs` (0: no bound) with a {@link BoundedClient}. */
export function boundedClientOptions(queryTimeoutMs: number): { query_timeout?: number; Client: typeof BoundedClient } {
  return queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs, Client: BoundedClient } : { Client: BoundedClient };
}

/** Opens one connection (within the pool's connect bound) and runs `SELECT 1` on it within `timeoutMs`. */
async function checkConnection(pool: pg.Pool, timeoutMs: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query({ text: "SELECT 1", query_timeout: timeoutMs } as pg.QueryConfig);
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  client.release();
}

/** Replaces the password of a connection URL with `***` (`postgres://user:***@host:port/db`). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    for (const key of [...parsed.searchParams.keys()]) {
      if (key.toLowerCase() === "password") parsed.searchParams.set(key, "***");
    }
    return parsed.toString().replace(/%2A%2A%2A/g, "***");
  } catch {
    // Not a URL (e.g. a libpq key=value string): hide anything that looks like a password.
    return url.replace(/(:\/\/[^:/@]*:)[^@]*@/, "$1***@").replace(/(password\s*=\s*)(\S+)/gi, "$1***");
  }
}

function unreachable(url: string, embedded: boolean, cause: unknown, checkTimeoutMs: number): TempoError {
  if (cause instanceof Error && QUERY_READ_TIMEOUT.test(cause.message)) {
    // Connected, then silence: said as what it is, not as a run's query timeout.
    return new DatabaseTimeoutError(
      `The database at ${redactUrl(url)} accepted a connection but did not answer SELECT 1 within ${checkTimeoutMs} ms: ` +
        `it is frozen, overloaded or not a working Postgres server. ${advice(embedded)}`,
      { url: redactUrl(url), reason: "open_check_timeout", timeoutMs: checkTimeoutMs },
      { cause },
    );
  }
  // A server that answered "no room" (too many connections, disk full) or did not answer in time: said as such.
  return typedDatabaseErrorOr(cause, () => unreachableAt(url, embedded, cause));
}

function advice(embedded: boolean): string {
  return embedded
    ? "The embedded database started but does not answer; check the data directory, or set DATABASE_URL to use a Postgres server."
    : "Check that the Postgres server is running and accepts connections at that address with those credentials, " +
        "or unset DATABASE_URL to use the embedded database.";
}

function unreachableAt(url: string, embedded: boolean, cause: unknown): TempoError {
  const redacted = redactUrl(url);
  const reason = scrubPassword(cause instanceof Error ? cause.message : String(cause), url);
  return new DatabaseUnreachableError(
    `Cannot reach the database at ${redacted} (${reason}). ${advice(embedded)}`,
    { url: redacted },
    { cause },
  );
}

/** Removes the URL's password from a driver message, in case the driver echoed it. */
function scrubPassword(text: string, url: string): string {
  let password = "";
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    return text;
  }
  return password === "" ? text : text.split(password).join("***");
}
