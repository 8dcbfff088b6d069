/**
 * Tempo's custom routes for the LangGraph server (`langgraph.json` → `http.app`). `@langchain/langgraph-api` 1.5.1
 * mounts this Hono app after its auth middleware and before its own routes (`dist/server.mjs`), so a route here runs
 * first and may hand over to the built-in one (`next()`):
 *
 * - `GET /info` — the first request Agent Chat UI makes (with `X-Api-Key`), whose answer decides whether it warns
 *   "Failed to connect to LangGraph server … your API key is correctly set". The server skips auth for `/info`
 *   (`dist/auth/custom.mjs`), so a missing or wrong key went unnoticed until a message failed. Here the caller's
 *   credentials are checked by the server's own auth (a loopback `GET /ok` made as the caller): refused → 401 with
 *   the reason as JSON; accepted (or auth open) → the built-in `/info`.
 * - `POST /threads/{thread_id}/state` — Agent Inbox's "Mark as resolved" (`{"values": null, "as_node": "__end__"}`).
 *   The run guard ends the task on that update (`server/run-guard.ts`, `updateState`), but the server recomputes a
 *   thread's `status` and `interrupts` only when a run ends (`dist/storage/ops.mjs`, `Threads.setStatus`), so the
 *   thread stayed `interrupted` with its old card. Once the update succeeded, a settling run is made as the caller
 *   — `command: { goto: "__end__" }`, the run Agent Chat UI's "Mark as Resolved" sends, which has nothing left to
 *   end and adds no message — and read to its end, so the server records the thread as `idle` with no interrupts
 *   before the update is answered: the search Inbox sends right after no longer lists it.
 * - `DELETE /threads/{thread_id}` — once the server has deleted the thread (so the caller owned it), what the store
 *   keeps for the caller in that thread goes too (every item under `threadNamespace`: its conversation summaries, the
 *   list `/prefs` showed there), deleted as the caller through the server's store API. Before, they outlived the
 *   thread, and a thread made again under that id (a client chooses its thread ids) recalled the old conversation's
 *   summaries in every prompt and took `/forget <number>` to count in a list shown in a conversation that no longer
 *   exists.
 * - `POST /threads/{thread_id}/runs`, `/runs/stream`, `/runs/wait` with `command.resume` on a thread that waits on
 *   no card (ended, or moved on: no task interrupts and nothing next) — an answer from a page opened before the
 *   thread was resolved. The graph would refuse it inside the run, and a run that throws leaves the thread in
 *   `error`; refused here instead (409, nothing created), the thread stays as it was.
 */
import { Hono, type Context, type Next } from "hono";
import { HTTPException } from "hono/http-exception";
import { appliedCards } from "./index.js";
import { credentialsOf, loopback, runToEnd } from "./served-routes.js";
import { endsThreadByUpdate } from "../server/end-thread.js";
import { threadNamespace } from "../memory/namespaces.js";

export const app = new Hono();

app.get("/info", async (c, next) => {
  const check = await loopback("/ok", { method: "GET", headers: credentialsOf(c.req.raw) });
  if (check.status === 401 || check.status === 403) {
    const reason = (await check.text()).trim() || "This Tempo server needs a token.";
    return c.json(
      {
        error: "Unauthorized",
        message: `${reason} Agent Chat UI: put the token in the "LangSmith API Key" field of its setup form (sent as X-Api-Key); Agent Inbox: in its "LangSmith API Key" setting.`,
      },
      401,
      { "WWW-Authenticate": check.headers.get("www-authenticate") ?? 'Bearer realm="tempo"' },
    );
  }
  await next();
});

app.post("/threads/:thread_id/state", async (c, next) => {
  const body = await c.req.json().catch(() => undefined);
  await next();
  const { values, as_node: asNode } = (body ?? {}) as { values?: unknown; as_node?: unknown };
  if (c.res.ok && endsThreadByUpdate(values, asNode))
    await settleEndedThread(c.req.param("thread_id"), credentialsOf(c.req.raw));
});

app.delete("/threads/:thread_id", async (c, next) => {
  await next();
  const identity = (c.var as { auth?: { user?: { identity?: unknown } } }).auth?.user?.identity;
  if (c.res.ok && typeof identity === "string")
    await forgetThreadMemory(c.req.param("thread_id"), identity, credentialsOf(c.req.raw));
});

/** How many of a deleted thread's store items one search of `forgetThreadMemory` takes. */
const THREAD_ITEMS_PAGE = 100;

/**
 * Deletes what the store keeps for `identity` in the deleted thread `threadId` (every item under `threadNamespace`:
 * the thread's conversation summaries, the list `/prefs` showed), as the caller, a page at a time until none is left.
 * The thread is gone whatever this answers: a store that refuses is said in the server's log, and what it kept then
 * names a thread that no longer is.
 */
async function forgetThreadMemory(threadId: string, identity: string, credentials: Record<string, string>) {
  const headers = { ...credentials, "content-type": "application/json" };
  const body = JSON.stringify({ namespace_prefix: threadNamespace(identity, threadId), limit: THREAD_ITEMS_PAGE });
  try {
    for (;;) {
      const search = await loopback("/store/items/search", { method: "POST", headers, body });
      if (!search.ok) throw new Error(`${search.status}: ${(await search.text()).slice(0, 200)}`);
      const { items } = (await search.json()) as { items: Array<{ namespace: string[]; key: string }> };
      if (items.length === 0) return;
      const deletes = await Promise.all(
        items.map(({ namespace, key }) =>
          loopback("/store/items", { method: "DELETE", headers, body: JSON.stringify({ namespace, key }) }),
        ),
      );
      const refused = deletes.find((response) => !response.ok);
      if (refused) throw new Error(`${refused.status}: ${(await refused.text()).slice(0, 200)}`);
    }
  } catch (error) {
    console.warn(
      `[tempo] thread ${threadId} was deleted, but what the store kept for it (its conversation summaries, the list /prefs showed) was not: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

for (const path of ["/threads/:thread_id/runs", "/threads/:thread_id/runs/stream", "/threads/:thread_id/runs/wait"]) {
  app.post(path, refuseAnswerWithoutCard);
}

/** Refuses (409) a run that answers a card on a thread waiting on none; hands every other run to the server. */
async function refuseAnswerWithoutCard(c: Context, next: Next): Promise<void> {
  const body = (await c.req.json().catch(() => undefined)) as { command?: { resume?: unknown } | null } | undefined;
  if (body?.command?.resume !== undefined && body.command.resume !== null) {
    const threadId = c.req.param("thread_id")!;
    // The thread as it stands: a card its execution log holds as applied is not settled first (the run reconciles it).
    const read = await loopback(`/threads/${encodeURIComponent(threadId)}/state`, {
      method: "GET",
      headers: { ...credentialsOf(c.req.raw), ...appliedCards.unsettledRead() },
    });
    // Not the caller's thread, or none yet: the server answers the run as it would.
    if (read.ok) {
      const state = (await read.json()) as { next?: string[]; tasks?: Array<{ interrupts?: unknown[] }> };
      const waiting =
        (state.next ?? []).length > 0 || (state.tasks ?? []).some((task) => (task.interrupts ?? []).length > 0);
      if (!waiting) {
        throw new HTTPException(409, {
          message: `Thread ${threadId} waits on no card (it was resolved or has moved on), so this answer was not taken and nothing was changed. Reload the thread; send a new message to start a task.`,
        });
      }
    }
  }
  await next();
}

/**
 * Makes the server record an ended thread as `idle`: a run with nothing left to do, as the caller, read to its end.
 * A thread the server already shows idle with no card needs none. Never fails the update (it has been made): a
 * failed settle is logged, and the thread is settled by its next run.
 */
async function settleEndedThread(threadId: string, credentials: Record<string, string>): Promise<void> {
  const thread = `/threads/${encodeURIComponent(threadId)}`;
  try {
    const read = await loopback(thread, { method: "GET", headers: credentials });
    if (!read.ok) return;
    const { status, interrupts } = (await read.json()) as {
      status?: string;
      interrupts?: Record<string, unknown> | null;
    };
    if (status === "idle" && Object.keys(interrupts ?? {}).length === 0) return;
    const failed = await runToEnd(threadId, { command: { goto: "__end__" } }, credentials);
    if (failed) console.warn(`[tempo] thread ${threadId}: ended, but settling its status failed (${failed})`);
  } catch (error) {
    console.warn(
      `[tempo] thread ${threadId}: ended, but settling its status failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
