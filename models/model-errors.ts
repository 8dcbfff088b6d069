/**
 * What a failed model call was, told so the user can act (docs/design.md#model-failures). `classifyModelError`
 * turns what `@langchain/openai` and the `openai` client throw into Tempo's typed errors:
 *
 * | thrown                                                          | Tempo error                                   |
 * |-----------------------------------------------------------------|-----------------------------------------------|
 * | `APIError` 400 / 422 (`BadRequestError`, context overflow too)  | `ModelRequestRefusedError` MODEL_REQUEST_REFUSED |
 * | `APIError` 401 / 403                                            | `ModelAuthError` MODEL_AUTH                   |
 * | `APIError` 404                                                  | `ModelNotFoundError` MODEL_NOT_FOUND          |
 * | a body that is not a completion (`NotACompletionError` from `checkedFetch`; a TypeError of the client reading a missing `choices`) | `ModelResponseInvalidError` MODEL_OUTPUT_INVALID |
 * | anything else: connection refused / reset, dropped socket (`APIConnectionError`), timeouts (`TimeoutError`), 5xx, 429 | `ModelUnavailableError` MODEL_UNAVAILABLE |
 *
 * `checkedFetch` and `boundedRetries` are given to `ChatOpenAI` by `createStageModels`: the first names what came
 * back instead of a completion (and stops its retries), the second keeps 429 retries within the wait bound.
 */
import { AsyncCaller, classifyRateLimitError, parseRetryAfterMs } from "@langchain/core/utils/async_caller";
import {
  ModelAuthError,
  ModelNotFoundError,
  ModelRequestRefusedError,
  ModelResponseInvalidError,
  ModelUnavailableError,
  isTempoError,
  type ModelCallContext,
  type TempoError,
} from "../errors/index.js";

/** Where a call went and how it was bounded, as far as known (see `describeModel`). */
export interface ModelErrorContext extends ModelCallContext {
  /** Per-attempt timeout, ms. */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
}

/** Thrown by `checkedFetch` for a 200 answer that is not a chat completion; `what` says what it was. */
export class NotACompletionError extends Error {
  readonly what: string;
  constructor(what: string) {
    super(`not a chat completion: ${what}`);
    this.name = "NotACompletionError";
    this.what = what;
  }
}

/** Turns an error thrown by a model call into Tempo's typed model error. A TempoError is returned as it is. */
export function classifyModelError(error: unknown, context: ModelErrorContext): TempoError {
  if (isTempoError(error)) return error;
  const notACompletion = findNotACompletion(error);
  if (notACompletion) return new ModelResponseInvalidError(context, notACompletion.what, { cause: error });
  const status = statusOf(error);
  const serverMessage = serverMessageOf(error);
  if (status === 400 || status === 422 || (error as { name?: string })?.name === "ContextOverflowError") {
    const overflow = /context_length_exceeded|maximum context length|context window|Input tokens exceed/i.test(
      serverMessage,
    );
    return new ModelRequestRefusedError(context, status ?? 400, serverMessage, {
      cause: error,
      hint: overflow
        ? "the prompt is longer than this model's context window: use a model with a longer context, or send /clear to start the thread afresh"
        : undefined,
    });
  }
  if (status === 401 || status === 403) return new ModelAuthError(context, status, serverMessage, { cause: error });
  if (status === 404) return new ModelNotFoundError(context, serverMessage, { cause: error });
  if (error instanceof TypeError && /Cannot read properties of (undefined|null)/.test(error.message)) {
    // The client read a completion that has no `choices` / `message` (a body checkedFetch did not see, e.g. a custom fetch).
    return new ModelResponseInvalidError(context, `a reply without a completion's choices (${error.message})`, {
      cause: error,
    });
  }
  const attempts = context.maxRetries === undefined ? undefined : context.maxRetries + 1;
  return new ModelUnavailableError(context.stage, reasonError(error, serverMessage), {
    ...context,
    attempts,
    advice: unavailableAdvice(error, status, context),
  });
}

/** What to do about a MODEL_UNAVAILABLE, by kind. */
function unavailableAdvice(error: unknown, status: number | undefined, context: ModelErrorContext): string {
  const name = (error as { name?: string })?.name ?? "";
  if (name === "TimeoutError" || /timed? ?out/i.test(String((error as Error)?.message))) {
    const each = context.timeoutMs ? ` (${Math.round(context.timeoutMs / 1000)} s an attempt)` : "";
    return `the model did not answer in time${each}: a slow local model needs a larger TEMPO_MODEL_TIMEOUT_MS`;
  }
  if (status === 429) {
    const wait = retryAfterMsOf(error);
    return wait !== undefined
      ? `the server is rate limiting and asks to wait ${Math.ceil(wait / 1000)} s before trying again`
      : "the server is rate limiting: wait a little before trying again, or check the account's quota";
  }
  if (status !== undefined && status >= 500) return "the model server failed; if it persists, check its logs";
  return "check OPENAI_BASE_URL and that the server is running if it persists";
}

/** An Error whose message is the reason in one line (the server's words, without LangChain's troubleshooting link). */
function reasonError(error: unknown, serverMessage: string): Error {
  const status = statusOf(error);
  if (status !== undefined) return new Error(`${status} ${serverMessage}`);
  // A connection error says "Connection error."; its causes say which (ECONNREFUSED, "other side closed", …).
  const causes: string[] = [];
  for (
    let current = (error as { cause?: unknown })?.cause, depth = 0;
    current && depth < 4;
    current = (current as { cause?: unknown }).cause, depth += 1
  ) {
    const text = current instanceof Error ? current.message : String(current);
    if (text && !causes.includes(text) && text !== serverMessage) causes.push(text);
  }
  return new Error([serverMessage, ...causes].join(": "));
}

/** The HTTP status of an `openai` `APIError` (or anything carrying `status`). */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/** The server's own message: the error body's `message`, else the error's message without status and links. */
function serverMessageOf(error: unknown): string {
  const body = (error as { error?: { message?: unknown } } | null)?.error;
  if (body && typeof body.message === "string" && body.message.trim()) return body.message.trim();
  const message = error instanceof Error ? error.message : String(error);
  const withoutLink = message.replace(/\s*Troubleshooting URL:[\s\S]*$/, "").trim();
  const status = statusOf(error);
  return (status !== undefined ? withoutLink.replace(new RegExp(`^${status}\\s+`), "") : withoutLink) || "no message";
}

/** The NotACompletionError in `error` or its causes (the `openai` client wraps what fetch throws in APIConnectionError). */
function findNotACompletion(error: unknown): NotACompletionError | undefined {
  for (
    let current = error, depth = 0;
    current && depth < 5;
    current = (current as { cause?: unknown }).cause, depth += 1
  ) {
    if (current instanceof NotACompletionError) return current;
  }
  return undefined;
}

/** The wait a 429 asks for (`retry-after-ms` / `retry-after`), in ms. */
function retryAfterMsOf(error: unknown): number | undefined {
  const headers = (error as { headers?: { get?: (name: string) => string | null } } | null)?.headers;
  if (typeof headers?.get !== "function") return undefined;
  const millis = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") && Number.isFinite(millis) && millis >= 0) return millis;
  return parseRetryAfterMs(headers.get("retry-after"));
}

/**
 * The failed-attempt handler of Tempo's `ChatOpenAI`s: LangChain's own, except that a reply that is not a completion
 * and a 422 are not retried, and a 429 is retried (after its Retry-After, or with backoff when it names none) only when the wait
 * it asks for is at most `maxWaitMs` — a longer one ends the call at once, told as MODEL_UNAVAILABLE with the wait.
 * Throwing stops the retries; returning lets the retry happen.
 */
export function boundedRetries(maxWaitMs: number): (error: unknown) => void {
  // LangChain's default handler (not exported): what an AsyncCaller made without one uses.
  const standard = (new AsyncCaller({}) as unknown as { onFailedAttempt: (error: unknown) => void }).onFailedAttempt;
  return (error) => {
    // Not retried: a reply that is not a completion, and a 422 (LangChain retries it; it is a refusal like a 400).
    if (findNotACompletion(error) || statusOf(error) === 422) throw error;
    if (statusOf(error) === 429 && classifyRateLimitError(error)?.action !== "stop") {
      const wait = retryAfterMsOf(error);
      if (wait !== undefined && wait > maxWaitMs) throw error;
      if (wait !== undefined) (error as { retryAfterMs?: number }).retryAfterMs = wait;
      return;
    }
    standard(error);
  };
}

/**
 * A `fetch` for the `openai` client that looks at a successful chat completions answer before the client does: an
 * HTML page, an empty body, text that is not JSON, JSON without `choices` or with `choices: []` become a
 * NotACompletionError naming what came back (the client would fail later with "Cannot read properties of undefined").
 * Streamed answers are only checked for an HTML or empty body.
 */
export function checkedFetch(options: { timeoutMs?: number; base?: typeof fetch } = {}): typeof fetch {
  const base = options.base ?? globalThis.fetch;
  return async (input, init) => {
    const started = Date.now();
    const response = await base(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!response.ok || !/\/chat\/completions(\?|$)/.test(url)) return response;
    const type = response.headers.get("content-type") ?? "";
    const streamed = typeof init?.body === "string" && /"stream"\s*:\s*true/.test(init.body);
    if (streamed && type.includes("text/event-stream")) return response;
    // The client's timeout ends at the headers; a body that never ends is bounded here, within the same attempt.
    const text = await withDeadline(
      response.clone().text(),
      options.timeoutMs === undefined ? undefined : options.timeoutMs - (Date.now() - started),
    );
    const what = notACompletion(text, type, streamed);
    if (what) throw new NotACompletionError(what);
    return response;
  };
}

/** `promise`, or a rejection whose message says "timed out" (which the client counts as a timeout) after `ms`. */
async function withDeadline<T>(promise: Promise<T>, ms: number | undefined): Promise<T> {
  if (ms === undefined) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("The reply's body timed out.")), Math.max(ms, 0));
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What `text` is when it is not a chat completion, else undefined. */
export function notACompletion(text: string, contentType: string, streamed = false): string | undefined {
  const trimmed = text.trim();
  const start = JSON.stringify(trimmed.replace(/\s+/g, " ").slice(0, 60));
  if (trimmed === "") return `an empty body (content-type ${contentType || "none"})`;
  if (contentType.includes("html") || /^<(!doctype|html|head|body)/i.test(trimmed))
    return `an HTML page, starting ${start}`;
  if (streamed) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return `text that is not JSON (${contentType || "no content-type"}), starting ${start}`;
  }
  if (parsed === null || typeof parsed !== "object") return `JSON that is not a completion object, starting ${start}`;
  const body = parsed as { choices?: unknown; error?: { message?: unknown } };
  if (body.error && typeof body.error === "object")
    return `an error body with status 200: ${String(body.error.message ?? JSON.stringify(body.error))}`;
  if (!Array.isArray(body.choices))
    return `JSON without "choices" (keys: ${Object.keys(body).slice(0, 8).join(", ") || "none"})`;
  if (body.choices.length === 0) return "a completion with no choices (choices: [])";
  const first = body.choices[0] as { message?: unknown } | null;
  if (!first || typeof first !== "object" || !first.message || typeof first.message !== "object")
    return "a completion whose first choice has no message";
  return undefined;
}

/** The model name, base URL, timeout and retries of a model (a `ChatOpenAI`, or a binding of one), as far as it says. */
export function describeModel(model: unknown, stage: string): ModelErrorContext {
  let current = model as Record<string, unknown> | undefined;
  for (let depth = 0; current && depth < 5 && !("model" in current) && "bound" in current; depth += 1)
    current = current.bound as Record<string, unknown>;
  const inner = (current ?? {}) as {
    model?: unknown;
    clientConfig?: { baseURL?: unknown };
    timeout?: unknown;
    caller?: { maxRetries?: unknown };
  };
  return {
    stage,
    model: typeof inner.model === "string" ? inner.model : undefined,
    baseUrl: typeof inner.clientConfig?.baseURL === "string" ? inner.clientConfig.baseURL : undefined,
    timeoutMs: typeof inner.timeout === "number" ? inner.timeout : undefined,
    maxRetries: typeof inner.caller?.maxRetries === "number" ? inner.caller.maxRetries : undefined,
  };
}
