/**
 * A recording proxy in front of the model server under evaluation: Tempo's `ChatOpenAI` talks to it (127.0.0.1, a
 * free port) and it forwards each request as it came to the real server (`OPENAI_BASE_URL`), passing the answer
 * back as it streams in. It keeps, per completions request, the body sent, the answer's `usage` (from the JSON
 * body, or the SSE usage chunk), the answer's text and tool calls (to count completion tokens when there is no
 * usage), and the time it took — so the eval measures any OpenAI-compatible server without changing Tempo's models.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { stageNamed } from "../contracts/stage-tag.js";

/** Usage as an OpenAI-compatible server reports it (any field may be missing). */
export interface ServerUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

/** One model request as the proxy saw it. */
export interface Exchange {
  /** The request body as sent (parsed JSON). */
  body: ChatBody;
  /** The stage tag of the request's system message (`<stage name="execute">` → "execute"), or "other". */
  stage: string;
  /** HTTP status of the answer (0 when the server could not be reached). */
  status: number;
  /** The answer's usage, when the server returned one. */
  usage?: ServerUsage;
  /** The answer's text and tool calls (names and arguments), concatenated: what completion tokens are counted on. */
  completionText: string;
  /** Milliseconds from the request to the end of the answer. */
  milliseconds: number;
}

/** The parts of a chat completions body the eval reads. */
export interface ChatBody {
  model?: string;
  messages?: Array<{
    role?: string;
    content?: string | null | Array<{ type?: string; text?: string }>;
    tool_calls?: Array<{ function?: { name?: string; arguments?: unknown } }>;
  }>;
  tools?: unknown[];
  response_format?: unknown;
  stream?: boolean;
}

export interface RecordingProxy {
  /** Base URL to give Tempo's models: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Every completions request forwarded, in order of arrival. */
  exchanges: Exchange[];
  /** How long the proxy keeps an idle client connection open (ms): longer than any pause between two scenarios. */
  keepAliveMs: number;
  close(): Promise<void>;
}

/** The text of a message's content (a string, or the text of its parts). */
export function contentOf(content: NonNullable<ChatBody["messages"]>[number]["content"]): string {
  if (content === null || content === undefined) return "";
  return typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");
}

/** The `<stage name=…>` tag of the system (or developer) messages (the stage's own after a shared head), or "other". */
export function stageTag(body: ChatBody): string {
  const messages = (body.messages ?? []).map((message) => ({
    role: message.role ?? "",
    text: contentOf(message.content),
  }));
  return stageNamed(messages) || "other";
}

/** Usage and completion text read from an answer: one JSON body, or server-sent events. */
export function readAnswer(text: string): { usage?: ServerUsage; completionText: string } {
  const pieces: string[] = [];
  let usage: ServerUsage | undefined;
  const take = (payload: {
    usage?: ServerUsage | null;
    choices?: Array<{
      message?: { content?: string | null; tool_calls?: Array<{ function?: { name?: string; arguments?: string } }> };
      delta?: { content?: string | null; tool_calls?: Array<{ function?: { name?: string; arguments?: string } }> };
    }>;
  }) => {
    if (payload.usage) usage = payload.usage;
    for (const choice of payload.choices ?? []) {
      const part = choice.message ?? choice.delta;
      if (part?.content) pieces.push(part.content);
      for (const call of part?.tool_calls ?? []) pieces.push(call.function?.name ?? "", call.function?.arguments ?? "");
    }
  };
  const parse = (json: string) => {
    try {
      take(JSON.parse(json) as Parameters<typeof take>[0]);
    } catch {
      // Not JSON (an HTML error page, prose): nothing to read; the client reports the failure.
    }
  };
  if (/^\s*data:/m.test(text) && !text.trimStart().startsWith("{")) {
    for (const line of text.split("\n")) {
      const data = /^data:\s?(.*)$/.exec(line.trim())?.[1];
      if (data && data !== "[DONE]") parse(data);
    }
  } else parse(text);
  return { ...(usage ? { usage } : {}), completionText: pieces.join("") };
}

/** Starts the proxy in front of `upstream` (a base URL ending in `/v1` or the like). */
export async function startRecordingProxy(upstream: string, clock: () => number = Date.now): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  const target = upstream.replace(/\/+$/, "");

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const suffix = (incoming.url ?? "").replace(/^\/v1/, "");
    const started = clock();
    const headers: Record<string, string> = {};
    for (const name of ["authorization", "content-type", "accept", "openai-organization"]) {
      const value = incoming.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    let body: ChatBody | undefined;
    try {
      body = JSON.parse(raw.toString("utf8")) as ChatBody;
    } catch {
      body = undefined;
    }
    const recorded: Exchange | undefined =
      body && suffix.startsWith("/chat/completions")
        ? { body, stage: stageTag(body), status: 0, completionText: "", milliseconds: 0 }
        : undefined;
    if (recorded) exchanges.push(recorded);
    let answer: Response;
    try {
      answer = await fetch(`${target}${suffix}`, {
        method: incoming.method,
        headers,
        ...(incoming.method === "GET" || incoming.method === "HEAD" ? {} : { body: raw }),
      });
    } catch (error) {
      if (recorded) recorded.milliseconds = clock() - started;
      response.writeHead(502, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          error: { message: `the model server at ${upstream} could not be reached: ${String(error)}`, type: "proxy" },
        }),
      );
      return;
    }
    const passed: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name))
        passed[name] = value;
    });
    response.writeHead(answer.status, passed);
    const received: Buffer[] = [];
    if (answer.body)
      for await (const chunk of answer.body as AsyncIterable<Uint8Array>) {
        received.push(Buffer.from(chunk));
        response.write(chunk);
      }
    response.end();
    if (recorded) {
      recorded.status = answer.status;
      recorded.milliseconds = clock() - started;
      Object.assign(recorded, readAnswer(Buffer.concat(received).toString("utf8")));
    }
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch(() => {
      if (!response.headersSent && !response.destroyed) response.writeHead(502);
      response.end();
    });
  });
  // Tempo's client closes an idle connection first: with Node's 5 s keep-alive, a scenario's figures (the exact
  // maximum) or a loaded machine kept the client from the proxy longer, the proxy closed the socket as the client
  // reused it, and the next scenario's first call failed with ECONNRESET. close() ends them all.
  server.keepAliveTimeout = 10 * 60_000;
  server.headersTimeout = server.keepAliveTimeout + 1_000;
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    exchanges,
    keepAliveMs: server.keepAliveTimeout,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
