/**
 * The routes of `@langchain/langgraph-api` 1.5.1 (`langgraph dev`) that the
 * per-resource rules (`Auth.on`) do not reach, guarded in `authenticate` by
 * path before the server routes the request:
 *
 * - `/internal/*` (`POST /internal/truncate` empties every thread, run,
 *   assistant and store item; `dist/server.mjs` mounts it after auth with no
 *   resource rule): refused for everyone — Tempo has no admin identity.
 * - `GET /runs/{run_id}/stream`: the run's queue is found by run id alone and
 *   streamed with no owner check when no thread id is given
 *   (`dist/storage/ops.mjs`, `Runs.Stream.join`): answered only for the user
 *   whose request created the run (recorded by `threads:create_run`, see
 *   `RunOwners`); anyone else, and any run this process did not create, 404.
 * - `GET /threads/{thread_id}/runs/{run_id}/stream` and `.../join`: the thread
 *   is checked, but not that the run is on it, so a caller's own thread id
 *   with another user's run id streamed that run. Passed only when the
 *   server's own `GET /threads/{thread_id}/runs/{run_id}` answers the caller
 *   (owned thread, run on it), asked in-process through the server's
 *   loopback fetch.
 * - useStream's protocol routes (`/threads/{id}/commands`,
 *   `/threads/{id}/stream/events`): the server runs every command on a thread
 *   with the auth of the first request that reached it and attaches event
 *   streams unchecked (`dist/protocol/service.mjs`, `dist/api/protocol.mjs`).
 *   Passed only for the thread's owner: the server's own `POST /threads`
 *   (`if_exists: "do_nothing"`) as the caller answers 200 for a thread the
 *   caller owns or has just created (a new id becomes the caller's, as
 *   `run.start` would make it) and 409 for another user's.
 * - Crons (`/runs/crons...`, `/threads/{id}/runs/crons`): not served.
 */
import { HTTPException } from "@langchain/langgraph-sdk/auth";

/** `@langchain/langgraph-api`'s in-process fetch into its own app (`dist/loopback.mjs`). */
const LOOPBACK_FETCH = Symbol.for("langgraph_api:fetch");
type LoopbackFetch = (url: string, init?: RequestInit) => Promise<Response>;

/** How many recent runs `RunOwners` remembers. */
export const RUN_OWNERS_LIMIT = 10_000;

/** Run id → the user whose request created it, for the most recent runs of this process. */
export class RunOwners {
  readonly #owners = new Map<string, string>();
  constructor(private readonly limit = RUN_OWNERS_LIMIT) {}

  record(runId: string, identity: string): void {
    this.#owners.delete(runId);
    this.#owners.set(runId, identity);
    if (this.#owners.size > this.limit) this.#owners.delete(this.#owners.keys().next().value!);
  }

  ownerOf(runId: string): string | undefined {
    return this.#owners.get(runId);
  }
}

/** Refuses (throws an `HTTPException`) a request to a guarded route the caller may not use; returns otherwise. */
export async function guardServedRoute(request: Request, identity: string, runOwners: RunOwners): Promise<void> {
  const path = segmentsOf(request);
  const [first, second, third, fourth, fifth] = path.map((segment) => segment.toLowerCase());
  if (first === "internal") {
    throw new HTTPException(403, {
      message: "The server's internal routes (such as /internal/truncate) are not served: Tempo has no admin identity.",
    });
  }
  if ((first === "runs" && second === "crons") || (first === "threads" && third === "runs" && fourth === "crons")) {
    throw new HTTPException(403, { message: "Tempo does not serve crons." });
  }
  if (first === "runs" && path.length === 3 && third === "stream") {
    if (runOwners.ownerOf(path[1]!) !== identity) {
      throw new HTTPException(404, {
        message: "Run not found. Join a run through its thread: GET /threads/{thread_id}/runs/{run_id}/stream.",
      });
    }
    return;
  }
  if (first === "threads" && third === "runs" && path.length === 5 && (fifth === "stream" || fifth === "join")) {
    const response = await loopback(`/threads/${encodeURIComponent(path[1]!)}/runs/${encodeURIComponent(path[3]!)}`, {
      method: "GET",
      headers: credentialsOf(request),
    });
    if (!response.ok) throw new HTTPException(404, { message: "Run not found on this thread." });
    return;
  }
  const protocol =
    (path.length === 3 && third === "commands") || (path.length === 4 && third === "stream" && fourth === "events");
  if (first === "threads" && protocol) {
    const response = await loopback("/threads", {
      method: "POST",
      headers: { ...credentialsOf(request), "content-type": "application/json" },
      body: JSON.stringify({ thread_id: path[1], if_exists: "do_nothing" }),
    });
    if (!response.ok) throw new HTTPException(404, { message: "Thread not found." });
  }
}

/** The path's non-empty segments, percent-decoded (the server routes on the decoded path). */
export function segmentsOf(request: Request): string[] {
  return new URL(request.url).pathname
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/** The headers that carry the caller's token, for a loopback request made as the caller. */
export function credentialsOf(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ["authorization", "x-api-key"]) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
}

export async function loopback(url: string, init: RequestInit): Promise<Response> {
  const fetch = (globalThis as Record<symbol, LoopbackFetch | undefined>)[LOOPBACK_FETCH];
  // Outside the LangGraph server (no loopback bound), ownership cannot be checked: refuse rather than guess.
  if (!fetch)
    throw new HTTPException(503, {
      message: "Ownership of this thread or run cannot be checked outside the LangGraph server.",
    });
  return fetch(url, init);
}

/** The graph id `langgraph.json` serves: the assistant of the runs Tempo makes itself through loopback. */
export const GRAPH_ID = "tempo";

/**
 * Makes a run on `threadId` through loopback (with `headers`: the caller's credentials) and waits for its end;
 * returns why it failed, or undefined. `runs/wait` answers at once and sends the run's last values (or `__error__`)
 * when it ends, so its body is read to the end.
 */
export async function runToEnd(
  threadId: string,
  body: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<string | undefined> {
  const run = await loopback(`/threads/${encodeURIComponent(threadId)}/runs/wait`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ assistant_id: GRAPH_ID, ...body }),
  });
  const ended = await run.text();
  return !run.ok || /"__error__"/.test(ended) ? `HTTP ${run.status}: ${ended.slice(0, 500)}` : undefined;
}
