/**
 * Database driver errors as Tempo's typed errors, so callers of a run or a state read see what happened and what
 * to do instead of a raw `pg` error: a lost or refused connection is `DatabaseUnreachableError`, a statement or
 * lock timeout — or no answer within the client's query timeout — is `DatabaseTimeoutError`, and a server out of
 * connections, disk, memory or another resource (Postgres class 53) is `DatabaseResourcesError`. Either way the
 * thread is kept at its last checkpoint.
 */
import { DatabaseResourcesError, DatabaseTimeoutError, DatabaseUnreachableError, TempoError } from "../errors/index.js";

/** Driver and server codes of a lost or refused connection (Node socket errors, Postgres classes 57P and 08). */
const CONNECTION_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

/** What the server said it could not do for a Postgres code, and what the user can do about it. */
const CONNECTION_ADVICE: Record<string, string> = {
  "57P01": "the server is shutting down or an administrator ended the session",
  "57P02": "the server crashed and is restarting",
  "57P03": "the server is starting up or in recovery and does not accept connections yet",
};

/** The message node-postgres gives a query that had no answer within `query_timeout`. */
export const QUERY_READ_TIMEOUT = /Query read timeout/i;

/** Postgres class 53 (insufficient resources): what ran out, and what to do, by code. */
const RESOURCE_ADVICE: Record<string, { what: string; advice: string }> = {
  "53300": {
    what: "has no connection left (too many connections, max_connections reached)",
    advice:
      "close other clients of this server, lower the pools of the processes that share it (each Tempo worker holds its pool, one thread-lock connection and the memory store's pool: TEMPO_DB_POOL_SIZE + 1 + TEMPO_MEMORY_POOL_SIZE), or raise the server's max_connections",
  },
  "53100": {
    what: "has no disk space left (disk full)",
    advice: "free disk space on the database server (or grow its volume), then send your message or answer again",
  },
  "53200": {
    what: "ran out of memory",
    advice: "retry once the server is less busy, or give it more memory (work_mem, shared_buffers, the host's RAM)",
  },
  "53400": {
    what: "reached a configured limit",
    advice: "ask the database administrator which limit (the server log names it) and raise it",
  },
};

/**
 * A lost or refused database connection as DatabaseUnreachableError, a statement or lock timeout — or a query the
 * server did not answer within the client's `query_timeout` — as DatabaseTimeoutError, a server out of resources
 * (class 53) as DatabaseResourcesError; other errors as they are. The thread is kept at its last checkpoint.
 */
export function asDatabaseError(error: unknown): unknown {
  if (error instanceof TempoError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "55P03" || (code === "57014" && /statement timeout/i.test(message))) {
    const what =
      code === "55P03"
        ? "waited too long for a lock another session holds (lock_timeout)"
        : "ran longer than the statement timeout (statement_timeout)";
    return new DatabaseTimeoutError(
      `A database statement ${what}: ${message}. Nothing of it was kept and the thread is at its last checkpoint: send your message or answer again once the database is less busy.`,
      { code },
      { cause: error },
    );
  }
  if (code === undefined && QUERY_READ_TIMEOUT.test(message)) {
    return new DatabaseTimeoutError(
      `The database did not answer within the query timeout (TEMPO_DB_QUERY_TIMEOUT): the server is frozen, overloaded or cut off. ` +
        `The call was abandoned and its connection dropped; the thread is at its last checkpoint: send your message or answer again once the database answers.`,
      { reason: "query_timeout" },
      { cause: error },
    );
  }
  if (typeof code === "string" && code.startsWith("53")) {
    const known = RESOURCE_ADVICE[code] ?? {
      what: `lacks a resource (Postgres error ${code}: insufficient resources)`,
      advice: "check the database server's log for the resource named and free or raise it",
    };
    return new DatabaseResourcesError(
      `The database server ${known.what}: ${message}. Nothing of the call was kept and the thread is at its last checkpoint. To go on: ${known.advice}; then send your message or answer again.`,
      { code },
      { cause: error },
    );
  }
  const lost =
    (typeof code === "string" && CONNECTION_ERROR_CODES.has(code)) ||
    /Connection terminated|terminating connection|timeout exceeded when trying to connect|not queryable|Client was closed/i.test(
      message,
    );
  if (!lost) return error;
  const why = typeof code === "string" && CONNECTION_ADVICE[code] ? ` — ${CONNECTION_ADVICE[code]}` : "";
  return new DatabaseUnreachableError(
    `The database connection failed (${message}${why}). The thread is kept at its last checkpoint: resume it once the database is back.`,
    { code },
    { cause: error },
  );
}

/**
 * `error` as `asDatabaseError` types it when that says more than "unreachable" — a server out of connections
 * (53300, "too many clients"), disk or memory (DATABASE_RESOURCES), a timeout (DATABASE_TIMEOUT) — else the caller's
 * own error for what it could not do (`otherwise`). For the places that open a connection or set tables up and used
 * to call every failure unreachable: a server that answered "no room" is said as such.
 */
export function typedDatabaseErrorOr(error: unknown, otherwise: () => TempoError): TempoError {
  const typed = asDatabaseError(error);
  return typed instanceof TempoError && typed.code !== "DATABASE_UNREACHABLE" ? typed : otherwise();
}
