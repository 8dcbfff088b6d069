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
  | "MODEL_REQUEST_REFUSED"
  | "MODEL_AUTH"
  | "MODEL_NOT_FOUND"
  | "DATABASE_UNREACHABLE"
  | "DATABASE_TIMEOUT"
  | "DATABASE_RESOURCES"
  | "THREAD_BUSY"
  | "SERVER_BUSY"
  | "ALREADY_RESUMED"
  | "THREAD_ACCESS_DENIED"
  | "UNAUTHENTICATED"
  | "IDENTITY_MISMATCH"
  | "STATE_CHANGE_REFUSED"
  | "WRITE_NOT_APPROVED"
  | "SCHEDULE_CONFLICT"
  | "DOMAIN_CONFLICT"
  | "PERSISTENCE_FAILED"
  | "ILLEGAL_TRANSITION"
  | "PREFERENCE_NOT_FOUND";

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
    return new Response(JSON.stringify({ error: this.name, code: this.code, message: this.message }), {
      status: 403,
      headers: { "content-type": "application/json" },
    });
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

/** Where a failed model call went: the stage, the model's name and the server (for the messages below). */
export interface ModelCallContext {
  stage: string;
  model?: string;
  /** The server's base URL; unset means api.openai.com. */
  baseUrl?: string;
}

/** The details every model-server error carries: stage, model, server, and what the server answered. */
function serverDetails(context: ModelCallContext, answer: Record<string, unknown>): Record<string, unknown> {
  return { stage: context.stage, ...answer, model: context.model, baseUrl: context.baseUrl };
}

/** `model "m" at URL`, or less when it is not known. */
function modelAt(context: ModelCallContext): string {
  const where = context.baseUrl ?? "api.openai.com";
  return context.model ? `model "${context.model}" at ${where}` : where;
}

/**
 * A model call failed after the client's own retries: connection refused or reset, a dropped socket, timeouts,
 * 5xx and 429 answers. Retrying later can work.
 */
export class ModelUnavailableError extends TempoError {
  constructor(
    stage: string,
    cause: unknown,
    context: Partial<ModelCallContext> & { advice?: string; attempts?: number } = {},
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const where = context.model || context.baseUrl ? `; ${modelAt({ stage, ...context })}` : "";
    const attempts = context.attempts && context.attempts > 1 ? `, after ${context.attempts} attempts` : "";
    const advice =
      context.advice ?? "check OPENAI_BASE_URL / OPENAI_API_KEY and that the server is running if it persists";
    super(
      "MODEL_UNAVAILABLE",
      `The ${stage} model could not be reached (${reason}${where}${attempts}). The thread is kept as it was: send "try again" to retry; ${advice}.`,
      { ...serverDetails({ stage, ...context }, { reason }), attempts: context.attempts },
      { cause },
    );
    this.name = "ModelUnavailableError";
  }
}

/**
 * The model server refused the request itself (HTTP 400 / 422): Tempo sent something this server does not accept.
 * The same request would be refused again, so it is not retried; the run ends with the thread kept as it was.
 */
export class ModelRequestRefusedError extends TempoError {
  constructor(
    context: ModelCallContext,
    status: number,
    serverMessage: string,
    options: { hint?: string; cause?: unknown } = {},
  ) {
    const hint =
      options.hint ??
      "change the setting the server names (TEMPO_STRUCTURED_OUTPUT=off, TEMPO_TOOL_CALLING=json, or another TEMPO_MODEL) and restart, or report it with this message";
    super(
      "MODEL_REQUEST_REFUSED",
      `The ${context.stage} model server refused Tempo's request (HTTP ${status}: ${serverMessage}; ${modelAt(context)}). ` +
        `This is a Tempo bug or an unsupported model setting, not a passing fault: "try again" would send the same request and be refused again. ` +
        `The thread is kept as it was: ${hint}.`,
      serverDetails(context, { status, serverMessage }),
      { cause: options.cause },
    );
    this.name = "ModelRequestRefusedError";
  }
}

/** The model server did not accept the credentials (HTTP 401) or does not let them use the model (403). */
export class ModelAuthError extends TempoError {
  constructor(context: ModelCallContext, status: number, serverMessage: string, options: { cause?: unknown } = {}) {
    const what = status === 403 ? "does not allow this API key to use it" : "did not accept the API key";
    super(
      "MODEL_AUTH",
      `The ${context.stage} model server ${what} (HTTP ${status}: ${serverMessage}; ${modelAt(context)}). ` +
        `Set a valid OPENAI_API_KEY for this server (and check OPENAI_BASE_URL), restart, then send "try again"; the thread is kept as it was.`,
      serverDetails(context, { status, serverMessage }),
      { cause: options.cause },
    );
    this.name = "ModelAuthError";
  }
}

/** HTTP 404: the server has no such model, or the base URL does not lead to a chat completions endpoint. */
export class ModelNotFoundError extends TempoError {
  constructor(context: ModelCallContext, serverMessage: string, options: { cause?: unknown } = {}) {
    super(
      "MODEL_NOT_FOUND",
      `The ${context.stage} model "${context.model ?? "(unnamed)"}" was not found at ${context.baseUrl ?? "api.openai.com"} (HTTP 404: ${serverMessage}). ` +
        `Check TEMPO_MODEL (or TEMPO_MODEL_${context.stage.toUpperCase()}) against the server's model list, and OPENAI_BASE_URL ` +
        `(an OpenAI-compatible server's base URL usually ends in /v1); restart, then send "try again". The thread is kept as it was.`,
      serverDetails(context, { status: 404, serverMessage }),
      { cause: options.cause },
    );
    this.name = "ModelNotFoundError";
  }
}

/**
 * The server answered, but not with a chat completion: an HTML page, an empty body, `choices: []`, plain text.
 * (`ModelOutputError`, the same code, is a completion whose content failed the stage's contract too often.)
 */
export class ModelResponseInvalidError extends TempoError {
  constructor(context: ModelCallContext, what: string, options: { cause?: unknown } = {}) {
    super(
      "MODEL_OUTPUT_INVALID",
      `The ${context.stage} model server answered with something that is not a chat completion (${what}; ${modelAt(context)}). ` +
        `Check that OPENAI_BASE_URL is the server's OpenAI-compatible API (usually ending in /v1), not a web page, a login page or a proxy; ` +
        `then send "try again". The thread is kept as it was.`,
      serverDetails(context, { what }),
      { cause: options.cause },
    );
    this.name = "ModelResponseInvalidError";
  }
}

/** A standing preference asked for (to remove it) that the user's profile does not hold. */
export class PreferenceNotFoundError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("PREFERENCE_NOT_FOUND", message, details);
    this.name = "PreferenceNotFoundError";
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

/**
 * A statement ran longer than `statement_timeout`, waited longer than `lock_timeout` for a lock, or had no answer within
 * the client's query timeout (`TEMPO_DB_QUERY_TIMEOUT`); nothing of it was kept.
 */
export class DatabaseTimeoutError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super("DATABASE_TIMEOUT", message, details, options);
    this.name = "DatabaseTimeoutError";
  }
}

/**
 * The database server is out of a resource (Postgres class 53: connections, disk, memory, a configured limit);
 * nothing of the call was kept. The message names the resource and what to free or raise.
 */
export class DatabaseResourcesError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super("DATABASE_RESOURCES", message, details, options);
    this.name = "DatabaseResourcesError";
  }
}

/** Another run holds the thread (one run per thread at a time); nothing was written. */
export class ThreadBusyError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("THREAD_BUSY", message, details);
    this.name = "ThreadBusyError";
  }
}

/**
 * This process runs as many runs at once as it is set to (`TEMPO_MAX_RUNS`, or `TEMPO_MAX_RUNS_PER_USER` of one user's)
 * and the run waited its whole turn (`TEMPO_RUN_QUEUE_WAIT`) without one; it was not started and nothing was written.
 */
export class ServerBusyError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("SERVER_BUSY", message, details);
    this.name = "ServerBusyError";
  }
}

/** True for any error Tempo raised on purpose. */
export function isTempoError(error: unknown): error is TempoError {
  return error instanceof TempoError;
}
