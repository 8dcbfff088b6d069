/**
 * A local OpenAI-compatible HTTP server for tests: it answers
 * `POST /v1/chat/completions` from a script — HTTP errors (500, 429, …),
 * replies delayed past the client's timeout, replies that never come, and
 * valid completions carrying a stage's JSON — and records every request.
 * It listens on 127.0.0.1, port 0 (a free port), so nothing leaves loopback.
 *
 *   const server = await startFakeOpenAIServer((request) =>
 *     request.index < 2 ? { status: 500 } : { content: JSON.stringify({ intent: "task" }) });
 *   const settings = { ...modelSettings, baseUrl: server.baseUrl, timeoutMs: 500, maxRetries: 2 };
 *   // ... createStageModels(settings, ...) → ChatOpenAI talks to the server
 *   await server.close();
 *
 * Streaming requests (`stream: true`) get the same content as server-sent
 * chunks. For the failure classes of a real server there are raw bodies
 * (`{ raw: "<html>…" }`, an empty body, `choices: []`), a dropped socket
 * (`{ drop: true }`), and `reasoning` (a completion whose message carries
 * `reasoning_content`, as DeepSeek / Qwen / vLLM servers send it).
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { callOutcomeOf } from "../../kernel/tool-results.js";
import { OFFLINE_PLUGINS } from "../../offline/registry.js";
import { CONTEXT_DATA_KEY } from "../../contracts/message-text.js";
import { stageNamed } from "../../contracts/stage-tag.js";

/** One chat message as the OpenAI API carries it. */
export interface OpenAIChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  name?: string;
}

/** A request the server received. */
export interface FakeOpenAIRequest {
  /** 0 for the first request, counting every request to the completions endpoint. */
  index: number;
  /** The parsed JSON body. */
  body: { model?: string; messages?: OpenAIChatMessage[]; stream?: boolean; [key: string]: unknown };
  /** The stage tag of the system message (`<stage name="plan">` → "plan"), or "". */
  stage: string;
  /** When the request arrived (ms since the epoch). */
  receivedAt: number;
}

/**
 * What to answer:
 * - `{ content }`: a completion with that assistant text (after `delayMs`), its message carrying `reasoning` as
 *   `reasoning_content` when given (streamed as `delta.reasoning_content` chunks before the text);
 * - `{ status }`: that HTTP status with an OpenAI-shaped error body (after `delayMs`), with optional headers;
 * - `{ raw }`: exactly that body (status 200 and `text/html` unless given), for bodies that are not a completion;
 * - `{ drop: true }`: the socket is destroyed once the request is read, with no answer at all;
 * - `{ hang: true }`: never answer (the client times out or goes away).
 */
export type FakeOpenAIReply =
  | { content: string; reasoning?: string; delayMs?: number }
  | { status: number; message?: string; headers?: Record<string, string>; delayMs?: number }
  | { raw: string; status?: number; contentType?: string; delayMs?: number }
  | { drop: true }
  | { hang: true };

export type FakeOpenAIScript = (request: FakeOpenAIRequest) => FakeOpenAIReply | Promise<FakeOpenAIReply>;

export interface FakeOpenAIServer {
  /** Base URL for the OpenAI client: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  port: number;
  /** Every completions request, in arrival order. */
  requests: FakeOpenAIRequest[];
  /** Requests to other paths (should stay empty). */
  unexpected: string[];
  /** Stops listening and drops open connections (hanging replies included). Safe to call twice. */
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 and a free port. */
export async function startFakeOpenAIServer(script: FakeOpenAIScript): Promise<FakeOpenAIServer> {
  const requests: FakeOpenAIRequest[] = [];
  const unexpected: string[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    if (incoming.method !== "POST" || !/\/chat\/completions$/.test(incoming.url ?? "")) {
      unexpected.push(`${incoming.method} ${incoming.url}`);
      sendJson(response, 404, {
        error: { message: `No route ${incoming.method} ${incoming.url}`, type: "invalid_request_error" },
      });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as FakeOpenAIRequest["body"];
    const request: FakeOpenAIRequest = {
      index: requests.length,
      body,
      stage: stageOf(body.messages ?? []),
      receivedAt: Date.now(),
    };
    requests.push(request);
    const reply = await script(request);
    if ("hang" in reply) return;
    if ("drop" in reply) {
      incoming.socket.destroy();
      return;
    }
    if (reply.delayMs) await wait(reply.delayMs);
    if (response.destroyed || response.writableEnded) return;
    if ("raw" in reply) {
      response.writeHead(reply.status ?? 200, {
        "content-type": reply.contentType ?? "text/html",
        "content-length": Buffer.byteLength(reply.raw),
      });
      response.end(reply.raw);
      return;
    }
    if ("status" in reply) {
      const type =
        reply.status === 429 ? "rate_limit_error" : reply.status >= 500 ? "server_error" : "invalid_request_error";
      sendJson(
        response,
        reply.status,
        { error: { message: reply.message ?? `scripted HTTP ${reply.status}`, type, code: null, param: null } },
        reply.headers,
      );
      return;
    }
    if (body.stream) sendStream(response, body.model ?? "fake", reply.content, reply.reasoning);
    else sendJson(response, 200, completion(body.model ?? "fake", reply.content, reply.reasoning));
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent && !response.destroyed)
        sendJson(response, 500, { error: { message: `fake server failure: ${String(error)}`, type: "server_error" } });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // The client (in this process) closes an idle connection first: with Node's 5 s keep-alive a loaded machine's stalled
  // event loop let the server close a socket just as the client reused it (ECONNRESET). close() ends them all.
  server.keepAliveTimeout = 10 * 60_000;
  server.headersTimeout = server.keepAliveTimeout + 1_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the fake OpenAI server has no TCP address");

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    port: address.port,
    requests,
    unexpected,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}

/** The stage tag of the stage messages (contracts/stage-tag.ts; the stage's own after a shared head), or "". */
function stageOf(messages: OpenAIChatMessage[]): string {
  return stageNamed(messages.map((message) => ({ role: message.role ?? "", text: contentText(message.content) })));
}

function contentText(content: OpenAIChatMessage["content"]): string {
  if (content === null) return "";
  return typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");
}

/** A tool's data read back from its text by the domain whose tool it is (`OfflinePlugin.readToolText`), if any. */
function readToolText(name: string, content: string): unknown {
  for (const plugin of OFFLINE_PLUGINS) {
    const data = plugin.readToolText(name, content);
    if (data !== undefined) return data;
  }
  return undefined;
}

/**
 * A context message's live-state data, rebuilt from its `<live_state>` text the way Tempo keeps it beside the text
 * in process (`additional_kwargs.tempo_context_data`): a model server receives the text only.
 */
function liveStateData(content: string): { additional_kwargs?: Record<string, unknown> } {
  const live = /<live_state>\n(\w+) \(fetched just now\):\n([\s\S]*?)\n<\/live_state>/.exec(content);
  const data = live ? readToolText(live[1] ?? "", live[2] ?? "") : undefined;
  return data === undefined ? {} : { additional_kwargs: { [CONTEXT_DATA_KEY]: { live_state: data } } };
}

/**
 * The request's messages as LangChain messages (to feed a policy that reads prompts, such as the offline policy).
 * A model gets a tool's result as text only; the offline policy reads the tool's data (the message's artifact), so a
 * tool's data (and the live state's) is read back from its text here by its domain, as a model would read it.
 */
export function toLangChainMessages(messages: readonly OpenAIChatMessage[]): BaseMessage[] {
  const callNames = new Map(
    messages.flatMap((message) => (message.tool_calls ?? []).map((call) => [call.id, call.function.name] as const)),
  );
  return messages.map((message) => {
    const content = contentText(message.content);
    switch (message.role) {
      case "system":
      case "developer":
        return new SystemMessage(content);
      case "user":
        return new HumanMessage({ content, ...liveStateData(content) });
      case "tool": {
        const name = message.name ?? callNames.get(message.tool_call_id ?? "");
        const plain = new ToolMessage({ content, tool_call_id: message.tool_call_id ?? "", name: message.name });
        const data = readToolText(name ?? "", content);
        return data === undefined
          ? plain
          : new ToolMessage({
              content,
              tool_call_id: message.tool_call_id ?? "",
              name: message.name,
              artifact: { outcome: callOutcomeOf(plain), data },
            });
      }
      case "assistant":
        return new AIMessage({
          content,
          tool_calls: (message.tool_calls ?? []).map((call) => ({
            id: call.id,
            name: call.function.name,
            args: JSON.parse(call.function.arguments || "{}") as Record<string, unknown>,
            type: "tool_call" as const,
          })),
        });
    }
  });
}

function completion(model: string, content: string, reasoning?: string) {
  const message =
    reasoning === undefined
      ? { role: "assistant", content }
      : { role: "assistant", content, reasoning_content: reasoning };
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: "stop", logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
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

function sendStream(response: ServerResponse, model: string, content: string, reasoning?: string): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const id = `chatcmpl-fake-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  response.write(chunk({ role: "assistant", content: "" }, null));
  for (let start = 0; start < (reasoning ?? "").length; start += 64)
    response.write(chunk({ reasoning_content: reasoning!.slice(start, start + 64) }, null));
  for (let start = 0; start < content.length; start += 64)
    response.write(chunk({ content: content.slice(start, start + 64) }, null));
  response.write(chunk({}, "stop"));
  response.end("data: [DONE]\n\n");
}
