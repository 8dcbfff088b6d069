/**
 * Database driver errors as Tempo's typed errors, so callers of a run or a state read see what happened and what
 * to do instead of a raw `pg` error: a lost or refused connection is `DatabaseUnreachableError`, a statement or
 * lock timeout is `DatabaseTimeoutError`. Either way the thread is kept at its last checkpoint.
 */
import { DatabaseTimeoutError, DatabaseUnreachableError, TempoError } from "../errors/index.js";

/** Driver and server codes of a lost or refused connection (Node socket errors, Postgres classes 57P and 08). */
const CONNECTION_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);

/**
 * A lost or refused database connection as DatabaseUnreachableError, a statement or lock timeout as
 * DatabaseTimeoutError (either way the thread is kept at its last checkpoint); other errors as they are.
 */
export function asDatabaseError(error: unknown): unknown {
  if (error instanceof TempoError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "55P03" || (code === "57014" && /statement timeout/i.test(message))) {
    const what = code === "55P03" ? "waited too long for a lock another session holds (lock_timeout)" : "ran longer than the statement timeout (statement_timeout)";
    return new DatabaseTimeoutError(
      `A database statement ${what}: ${message}. Nothing of it was kept and the thread is at its last checkpoint: send your message or answer again once the database is less busy.`,
      { code },
      { cause: error },
    );
  }
  const lost =
    (typeof code === "string" && CONNECTION_ERROR_CODES.has(code)) || /Connection terminated|terminating connection|timeout exceeded when trying to connect/i.test(message);
  if (!lost) return error;
  return new DatabaseUnreachableError(
    `The database connection failed (${message}). The thread is kept at its last checkpoint: resume it once the database is back.`,
    { code },
    { cause: error },
  );
}
