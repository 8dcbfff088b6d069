/**
 * Typed errors. Every error Tempo raises on purpose is a `TempoError` with a
 * stable `code` a caller can switch on and a message a user can act on.
 */
export type TempoErrorCode =
  | "INVALID_RESUME"
  | "STALE_RESUME"
  | "INVALID_INPUT"
  | "INVALID_CONFIGURATION"
  | "MODEL_OUTPUT_INVALID"
  | "MODEL_UNAVAILABLE"
  | "DATABASE_UNREACHABLE"
  | "DATABASE_TIMEOUT"
  | "THREAD_BUSY"
  | "ALREADY_RESUMED"
  | "THREAD_ACCESS_DENIED"
  | "UNAUTHENTICATED"
  | "IDENTITY_MISMATCH"
  | "STATE_CHANGE_REFUSED"
  | "WRITE_NOT_APPROVED"
  | "SCHEDULE_CONFLICT"
  | "PERSISTENCE_FAILED"
  | "ILLEGAL_TRANSITION";

export class TempoError extends Error {
  readonly code: TempoErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: TempoErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TempoError";
    this.code = code;
    this.details = details;
  }
}

/**
 * A state change from outside that is not a message or a card's answer (updateState, Command update/goto); nothing
 * was changed. On the LangGraph server it answers `403` (the server's HTTP layer sends an error's `getResponse()`).
 */
export class StateChangeRefusedError extends TempoError {
  constructor(message: string) {
    super("STATE_CHANGE_REFUSED", message);
    this.name = "StateChangeRefusedError";
  }

  /** The HTTP answer the server gives for this error. */
  getResponse(): Response {
    return new Response(JSON.stringify({ error: this.name, code: this.code, message: this.message }), { status: 403, headers: { "content-type": "application/json" } });
  }
}

/** A resume value that does not fit the pending interrupt; the thread is left as it was. */
export class InvalidResumeError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super("INVALID_RESUME", message, details, options);
    this.name = "InvalidResumeError";
  }
}

/**
 * A resume addressed to a card the thread no longer waits on (another interrupt id, or an echoed action that
 * is not the pending card's): refused, and the thread is left as it was.
 */
export class StaleResumeError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super("STALE_RESUME", message, details, options);
    this.name = "StaleResumeError";
  }
}

/** A model failed its stage's JSON contract too many times in a row; the run ends, the state is kept. */
export class ModelOutputError extends TempoError {
  constructor(stage: string, attempts: number, lastProblem: string) {
    super(
      "MODEL_OUTPUT_INVALID",
      `The ${stage} model gave ${attempts} invalid outputs in a row (last problem: ${lastProblem}). ` +
        "The run stopped with its state kept; send a new message to retry, or check the model configuration.",
      { stage, attempts, lastProblem },
    );
    this.name = "ModelOutputError";
  }
}

/** A model call failed (timeout, HTTP error, refused connection) after the client's own retries. */
export class ModelUnavailableError extends TempoError {
  constructor(stage: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "MODEL_UNAVAILABLE",
      `The ${stage} model could not be reached (${reason}). The thread is kept as it was: retry by sending "try again", and check OPENAI_BASE_URL / OPENAI_API_KEY if it persists.`,
      { stage, reason },
      { cause },
    );
    this.name = "ModelUnavailableError";
  }
}

/** Configuration that cannot work (unknown setting values, missing pieces). */
export class ConfigurationError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("INVALID_CONFIGURATION", message, details);
    this.name = "ConfigurationError";
  }
}

/** The database could not be reached or set up. */
export class DatabaseUnreachableError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super("DATABASE_UNREACHABLE", message, details, options);
    this.name = "DatabaseUnreachableError";
  }
}

/** A statement ran longer than `statement_timeout`, or waited longer than `lock_timeout` for a lock; nothing of it was kept. */
export class DatabaseTimeoutError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super("DATABASE_TIMEOUT", message, details, options);
    this.name = "DatabaseTimeoutError";
  }
}

/** Another run holds the thread (one run per thread at a time); nothing was written. */
export class ThreadBusyError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("THREAD_BUSY", message, details);
    this.name = "ThreadBusyError";
  }
}

/** True for any error Tempo raised on purpose. */
export function isTempoError(error: unknown): error is TempoError {
  return error instanceof TempoError;
}
