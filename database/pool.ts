/**
 * One way to get a Postgres connection pool: a given server (`databaseUrl`)
 * or, without one, the embedded PGlite server. Either way the rest of Tempo
 * sees a `pg.Pool` and a URL.
 */
import pg from "pg";

import { DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS } from "../config/environment.js";
import { ConfigurationError, DatabaseUnreachableError } from "../errors/index.js";
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
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** How long to wait for a connection before giving up, in ms. Default 10 000. */
  connectTimeoutMs?: number;
  /** Longest a statement may run (Postgres `statement_timeout`), in ms; 0 for none. Default 30 000. */
  statementTimeoutMs?: number;
  /** Longest a statement may wait for a lock another session holds (Postgres `lock_timeout`), in ms; 0 for none. Default 5 000. */
  lockTimeoutMs?: number;
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
  if (!Number.isInteger(poolSize) || poolSize < 1) {
    throw new DatabaseUnreachableError(`Invalid pool size ${String(poolSize)}: use a whole number of at least 1.`, { poolSize });
  }
  for (const [name, value] of Object.entries({ statementTimeoutMs, lockTimeoutMs })) {
    if (!Number.isInteger(value) || value < 0) throw new ConfigurationError(`Invalid ${name} ${String(value)}: use a whole number of milliseconds, 0 for none.`, { [name]: value });
  }

  let embedded: EmbeddedPostgres | undefined;
  let url: string;
  if (options.databaseUrl !== undefined && options.databaseUrl !== "") {
    url = options.databaseUrl;
  } else {
    // Head room above the pool for the dedicated lock connections and other pools (stores, tools) on the same server.
    embedded = await startEmbeddedPostgres({
      dataDir: options.dataDir,
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
  });
  // An idle client that loses its connection is dropped by the pool, and the next query opens a new one; without a
  // listener the pool's 'error' event would crash the process.
  pool.on("error", () => undefined);
  // A checked-out client whose server goes away emits "error" too; without a listener Node ends the process.
  // The query in flight fails with the error, so the caller still sees it.
  pool.on("connect", (client) => client.on("error", () => undefined));

  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw unreachable(url, embedded !== undefined, error);
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

function unreachable(url: string, embedded: boolean, cause: unknown): DatabaseUnreachableError {
  const redacted = redactUrl(url);
  const reason = scrubPassword(cause instanceof Error ? cause.message : String(cause), url);
  const advice = embedded
    ? "The embedded database started but does not answer; check the data directory, or set DATABASE_URL to use a Postgres server."
    : "Check that the Postgres server is running and accepts connections at that address with those credentials, " +
      "or unset DATABASE_URL to use the embedded database.";
  return new DatabaseUnreachableError(`Cannot reach the database at ${redacted} (${reason}). ${advice}`, { url: redacted }, { cause });
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
