/**
 * An OpenAI-compatible server double, strict as OpenAI: `POST /v1/chat/completions` on 127.0.0.1 and a free
 * port. It refuses with a 400 in OpenAI's error shape what OpenAI refuses (`validation.ts`: tool-call ids over 40
 * characters, strict schemas outside the structured-outputs subset, bad function names, orphan tool messages,
 * unanswered tool calls, …), records every request and every refusal, and answers the rest as a model would
 * (`brain.ts`: by default Tempo's offline policy playing a schedule model) — text, tool calls (parallel, or one
 * with `parallel_tool_calls: false`), `response_format` JSON, streamed as SSE with `delta.tool_calls` and a usage
 * chunk, or whole with `usage` (tokens estimated as characters / 4). With `promptCache` the usage carries
 * `prompt_tokens_details.cached_tokens` as OpenAI's does: the prefix repeating an earlier request's, in 128-token
 * blocks once it reaches 1,024 tokens.
 *
 *   const double = await startOpenAIDouble();                       // the schedule brain
 *   const settings = { ...readSettings({}).models, baseUrl: double.baseUrl, apiKey: "test" };
 *   // ... createStageModels(settings, ...) → ChatOpenAI talks to the double
 *   double.set({ imperfections: ["fenced-json"], fault: (request) => (request.index === 0 ? "429" : undefined) });
 *   expect(double.refusals).toEqual([]);
 *   await double.close();
 *
 * Faults (`fault`, per request): "500", "429" (with Retry-After), "401", "404" (model not found), "hang" (never
 * answers), "drop" (the socket closed mid-response), "html-200" / "html-502" (an HTML page), "empty-choices"
 * (200 with `choices: []`), "prose" (200 with a body that is not JSON).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  callId,
  contentText,
  scheduleBrain,
  shapeReply,
  stageOf,
  type Brain,
  type BrainReply,
  type DoubleRequest,
  type Imperfection,
} from "./brain.js";
import { requestNotes, requestProblem, type ChatRequestBody, type RequestProblem } from "./validation.js";

export {
  IMPERFECTIONS,
  offlineBrain,
  scheduleBrain,
  type Brain,
  type BrainReply,
  type DoubleRequest,
  type Imperfection,
} from "./brain.js";
export {
  MAX_TOOL_CALL_ID,
  requestProblem,
  schemaProblem,
  type ChatRequestBody,
  type RequestProblem,
} from "./validation.js";

export type Fault =
  "500" | "429" | "401" | "404" | "hang" | "drop" | "html-200" | "html-502" | "empty-choices" | "prose";

/** A request the double refused (400), with OpenAI's error fields. */
export interface Refusal extends RequestProblem {
  index: number;
  stage: string;
}

/** A request as recorded: what came, what it was answered. */
export interface RecordedRequest extends DoubleRequest {
  /** The 400's error when refused. */
  refusal?: Refusal;
  /** The fault played, if any. */
  fault?: Fault;
  /** The reply sent (after imperfections), for answered requests. */
  reply?: BrainReply;
  /** What OpenAI accepts but a careful client would not send (empty content, …). */
  notes: string[];
}

export interface DoubleOptions {
  /** Decides replies (default: {@link scheduleBrain}). */
  brain?: Brain;
  /** Imperfections for every request, or chosen per request. */
  imperfections?: readonly Imperfection[] | ((request: DoubleRequest) => readonly Imperfection[]);
  /** A fault to play instead of answering, per request (undefined: answer). */
  fault?: (request: DoubleRequest) => Fault | undefined;
  /** Seconds in the 429's Retry-After header (default 0). */
  retryAfterSeconds?: number;
  /** Answer without `usage` (no usage field, no usage chunk), as some OpenAI-compatible servers do. */
  omitUsage?: boolean;
  /**
   * Play OpenAI's prompt cache: the usage's `prompt_tokens_details.cached_tokens` is the longest prefix of the request
   * (its tools, response format and messages, serialised in that order) that an earlier request to this double began
   * with, in whole blocks of 128 tokens once it reaches 1,024 (0 below that), as OpenAI reports it.
   */
  promptCache?: boolean;
  /**
   * Waited on before each answer (after the request is checked), to play a slow model: `npm run double --
   * --latency-ms 4000` waits 4 s a call, so a client's progress while a model thinks can be seen.
   */
  latency?: (request: DoubleRequest) => Promise<void>;
  /**
   * How `tool_choice: "none"` beside tools is taken: "accept" (default) answers in text as OpenAI does; "refuse"
   * answers 400 as a server that does not take it does (vLLM before it did); "ignore" lets the brain's tool calls go
   * out, as a chat template that never reads `tool_choice` would.
   */
  toolChoiceNone?: "accept" | "refuse" | "ignore";
}

export interface OpenAIDouble {
  /** Base URL for the OpenAI client: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  port: number;
  /** Every completions request, in arrival order (refused ones included). */
  requests: RecordedRequest[];
  /** The refused requests' errors, in order. */
  refusals: Refusal[];
  /** Requests to other paths (answered 404). */
  unexpected: string[];
  /** Changes the brain, imperfections or faults from the next request on. */
  set(options: DoubleOptions): void;
  /** Stops listening and drops open connections (hanging replies included). Safe to call twice. */
  close(): Promise<void>;
}

/** Starts the double on 127.0.0.1, on a free port unless `port` names one (`npm run double -- --port 8000`). */
export async function startOpenAIDouble(initial: DoubleOptions = {}, port = 0): Promise<OpenAIDouble> {
  const options: DoubleOptions = { ...initial };
  const requests: RecordedRequest[] = [];
  const refusals: Refusal[] = [];
  const unexpected: string[] = [];
  /** The serialised prompts answered so far (what the prompt cache holds). */
  const cachedPrompts: string[] = [];

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (incoming.url ?? "").split("?")[0];
    if (incoming.method !== "POST" || path !== "/v1/chat/completions") {
      unexpected.push(`${incoming.method} ${incoming.url}`);
      sendError(response, 404, { message: `Invalid URL (${incoming.method} ${path})`, param: null, code: null });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    let body: ChatRequestBody;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequestBody;
    } catch {
      sendError(response, 400, {
        message: "We could not parse the JSON body of your request.",
        param: null,
        code: null,
      });
      return;
    }
    const request: RecordedRequest = {
      index: requests.length,
      body,
      stage: stageOf(Array.isArray(body.messages) ? body.messages : []),
      receivedAt: Date.now(),
      notes: [],
    };
    requests.push(request);
    const fault = options.fault?.(request);
    if (fault) {
      request.fault = fault;
      playFault(response, fault, body, options.retryAfterSeconds ?? 0);
      return;
    }
    const found =
      requestProblem(body) ??
      (options.toolChoiceNone === "refuse" && body.tool_choice === "none"
        ? {
            message: `"none" is not a supported value for tool_choice; use "auto" or name a tool.`,
            param: "tool_choice",
            code: null,
          }
        : undefined);
    if (found) {
      request.refusal = { ...found, index: request.index, stage: request.stage };
      refusals.push(request.refusal);
      sendError(response, 400, found);
      return;
    }
    request.notes = requestNotes(body);
    await options.latency?.(request);
    const imperfections =
      typeof options.imperfections === "function" ? options.imperfections(request) : (options.imperfections ?? []);
    const decided = await (options.brain ?? scheduleBrain)(request);
    const answered = typeof decided === "string" ? { content: decided } : decided;
    // tool_choice "none": the model answers in text, as OpenAI's does (a plan request binding the execute tools for a
    // shared head); a brain's tool calls are never sent then.
    const reply = shapeReply(
      body.tool_choice === "none" && options.toolChoiceNone !== "ignore"
        ? { ...answered, content: answered.content ?? "", toolCalls: undefined }
        : answered,
      body,
      request.stage,
      new Set(imperfections),
    );
    request.reply = reply;
    if (response.destroyed) return;
    const usage = !options.omitUsage;
    const cached = options.promptCache ? cachedTokens(cachedPrompts, body) : undefined;
    if (body.stream) sendStream(response, body, reply, usage, cached);
    else {
      const whole = completion(body, reply, cached);
      sendJson(response, 200, usage ? whole : { ...whole, usage: undefined });
    }
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent && !response.destroyed)
        sendJson(response, 500, {
          error: { message: `server double failure: ${String(error)}`, type: "server_error", param: null, code: null },
        });
    });
  });
  // The client (in this process) closes an idle connection first: with Node's 5 s keep-alive a loaded machine's stalled
  // event loop let the server close a socket just as the client reused it (ECONNRESET). close() ends them all.
  server.keepAliveTimeout = 10 * 60_000;
  server.headersTimeout = server.keepAliveTimeout + 1_000;
  const listening = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${listening}/v1`,
    port: listening,
    requests,
    refusals,
    unexpected,
    set(changes) {
      Object.assign(options, changes);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging replies and kept-alive connections too.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function sendError(
  response: ServerResponse,
  status: number,
  error: RequestProblem,
  type = "invalid_request_error",
  headers: Record<string, string> = {},
): void {
  sendJson(
    response,
    status,
    { error: { message: error.message, type, param: error.param, code: error.code } },
    headers,
  );
}

function playFault(response: ServerResponse, fault: Fault, body: ChatRequestBody, retryAfter: number): void {
  const model = body.model ?? "unknown";
  switch (fault) {
    case "500":
      return sendError(
        response,
        500,
        {
          message: "The server had an error while processing your request. Sorry about that!",
          param: null,
          code: null,
        },
        "server_error",
      );
    case "429":
      return sendError(
        response,
        429,
        {
          message: `Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`,
          param: null,
          code: "rate_limit_exceeded",
        },
        "requests",
        {
          "retry-after": String(retryAfter),
        },
      );
    case "401":
      return sendError(response, 401, {
        message:
          "Incorrect API key provided: test. You can find your API key at https://platform.openai.com/account/api-keys.",
        param: null,
        code: "invalid_api_key",
      });
    case "404":
      return sendError(response, 404, {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        param: null,
        code: "model_not_found",
      });
    case "hang":
      return;
    case "drop":
      // Headers and the start of a body, then the connection closes.
      response.writeHead(200, { "content-type": body.stream ? "text/event-stream" : "application/json" });
      response.write(
        body.stream
          ? `data: ${JSON.stringify(chunk(body, "chatcmpl-drop", { role: "assistant", content: "Partial" }, null))}\n\n`
          : '{"id":"chatcmpl-drop","object":"chat.completion","choices":[{"ind',
      );
      setTimeout(() => response.destroy(), 20);
      return;
    case "html-200":
    case "html-502": {
      const html =
        "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";
      response.writeHead(fault === "html-200" ? 200 : 502, { "content-type": "text/html" });
      response.end(html);
      return;
    }
    case "empty-choices":
      return sendJson(response, 200, {
        id: "chatcmpl-empty",
        object: "chat.completion",
        created: now(),
        model,
        choices: [],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      });
    case "prose":
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("Sure! Here is my answer: the week looks fine.");
      return;
  }
}

const now = () => Math.floor(Date.now() / 1000);

/** Tokens as OpenAI would count them, estimated: characters / 4. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The prompt as a cache sees it: tools, response format, then the messages, serialised in that order. */
const cacheablePrompt = (body: ChatRequestBody) =>
  JSON.stringify([body.tools ?? null, body.response_format ?? null, body.messages ?? []]);

/** OpenAI's cache granularity: nothing under 1,024 tokens, then whole 128-token blocks. */
const CACHE_MINIMUM_TOKENS = 1024;
const CACHE_BLOCK_TOKENS = 128;

/** The cached tokens of `body` against the prompts answered before (which it then joins), as OpenAI reports them. */
function cachedTokens(earlier: string[], body: ChatRequestBody): number {
  const prompt = cacheablePrompt(body);
  let longest = 0;
  for (const previous of earlier) {
    const limit = Math.min(previous.length, prompt.length);
    let at = 0;
    while (at < limit && previous.charCodeAt(at) === prompt.charCodeAt(at)) at += 1;
    longest = Math.max(longest, at);
  }
  earlier.push(prompt);
  const tokens = Math.floor(longest / 4);
  return tokens < CACHE_MINIMUM_TOKENS ? 0 : tokens - (tokens % CACHE_BLOCK_TOKENS);
}

function usageOf(body: ChatRequestBody, reply: BrainReply, cached?: number) {
  const prompt =
    (body.messages ?? [])
      .map((message) => contentText(message.content) + JSON.stringify(message.tool_calls ?? ""))
      .join("") + JSON.stringify(body.tools ?? "");
  const completionText =
    (reply.content ?? "") + (reply.toolCalls ?? []).map((call) => call.name + argumentsText(call)).join("");
  const usage = { prompt_tokens: estimateTokens(prompt), completion_tokens: estimateTokens(completionText) };
  return {
    ...usage,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    ...(cached === undefined
      ? {}
      : { prompt_tokens_details: { cached_tokens: Math.min(cached, usage.prompt_tokens) } }),
  };
}

function argumentsText(call: { arguments: Record<string, unknown> | string }): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

function completion(body: ChatRequestBody, reply: BrainReply, cached?: number) {
  const calls = reply.toolCalls ?? [];
  const message = {
    role: "assistant",
    content: reply.content,
    refusal: null,
    ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((call) => ({
            id: callId(),
            type: "function",
            function: { name: call.name, arguments: argumentsText(call) },
          })),
        }
      : {}),
  };
  return {
    id: `chatcmpl-${callId().slice(5)}`,
    object: "chat.completion",
    created: now(),
    model: body.model ?? "unknown",
    choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }],
    usage: usageOf(body, reply, cached),
  };
}

function chunk(body: ChatRequestBody, id: string, delta: Record<string, unknown>, finish: string | null) {
  return {
    id,
    object: "chat.completion.chunk",
    created: now(),
    model: body.model ?? "unknown",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

/** Pieces of `text` of at most `size` characters (at least one piece). */
function pieces(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts.length > 0 ? parts : [""];
}

/** The reply as server-sent events: role, reasoning, content, each tool call's id and name then its arguments in fragments, finish, usage (unless `usage` is false), [DONE]. */
function sendStream(
  response: ServerResponse,
  body: ChatRequestBody,
  reply: BrainReply,
  usage = true,
  cached?: number,
): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const id = `chatcmpl-${callId().slice(5)}`;
  const send = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);
  send(chunk(body, id, { role: "assistant", content: "" }, null));
  if (reply.reasoning)
    for (const part of pieces(reply.reasoning, 12)) send(chunk(body, id, { reasoning_content: part }, null));
  if (reply.content) for (const part of pieces(reply.content, 16)) send(chunk(body, id, { content: part }, null));
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    send(
      chunk(
        body,
        id,
        { tool_calls: [{ index, id: callId(), type: "function", function: { name: call.name, arguments: "" } }] },
        null,
      ),
    );
    for (const part of pieces(argumentsText(call), 7))
      send(chunk(body, id, { tool_calls: [{ index, function: { arguments: part } }] }, null));
  }
  send(chunk(body, id, {}, (reply.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "stop"));
  if (usage && body.stream_options?.include_usage)
    send({
      id,
      object: "chat.completion.chunk",
      created: now(),
      model: body.model ?? "unknown",
      choices: [],
      usage: usageOf(body, reply, cached),
    });
  response.end("data: [DONE]\n\n");
}
