/**
 * Served identity on every route `langgraph dev` mounts that reaches a run, a
 * thread or the store, for the routes the per-resource rules do not reach:
 * two users with real tokens (TEMPO_AUTH_JWT_SECRET). Alice's thread waits on
 * its plan card after a run streamed with `stream_resumable` (its events are
 * kept and replayable by run id). Bob tries the run streams and joins (with no
 * thread id, and with his own thread's id), stateless runs, crons, the store
 * items, the protocol routes before Alice ever used them, and
 * `/internal/truncate`; every one is refused and Alice's thread is as it was,
 * and Alice herself still streams, joins and drives her thread. A run sent
 * with `checkpoint_id` starts from the latest checkpoint (an answer from an older view is STALE_RESUME), never
 * reaches the thread's stored config,
 * and Alice's next answer moves her thread on.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startLangGraphDev, type LangGraphDevServer } from "../support/langgraph-dev.js";
import { clientWith, refusal, signToken } from "../support/served-users.js";
import { preferencesNamespace } from "../../memory/namespaces.js";

const SECRET = "identity-routes-test-secret-0123456789abcdef";
const ARRANGE = { messages: [{ role: "user", content: "Arrange my review week" }] };

let server: LangGraphDevServer;
let alice: Client;
let bob: Client;
const headers: Record<"alice" | "bob", Record<string, string>> = { alice: {}, bob: {} };
/** Alice's thread (waiting on its plan card), the run that brought it there, and Bob's own thread. */
let aliceThread: string;
let aliceRun: string;
let bobThread: string;

type Card = { action_request: { action: string } };
const cardOf = (state: { tasks: Array<{ interrupts: Array<{ value?: unknown }> }> }) =>
  state.tasks[0]?.interrupts[0]?.value as Card | undefined;

/** A raw request to the server as `user`; the body is read in full unless it is an event stream, which is read for `readMs`. */
async function call(
  user: "alice" | "bob",
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; readMs?: number } = {},
) {
  const controller = new AbortController();
  const response = await fetch(`${server.apiUrl}${path}`, {
    method,
    headers: {
      ...headers[user],
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: controller.signal,
  });
  let text = "";
  if (response.headers.get("content-type")?.includes("text/event-stream")) {
    const reader = response.body!.getReader();
    const deadline = setTimeout(() => controller.abort(), options.readMs ?? 3_000);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    } catch {
      // aborted at the deadline: what arrived so far is the answer
    } finally {
      clearTimeout(deadline);
    }
  } else {
    text = await response.text();
  }
  return { status: response.status, text };
}

beforeAll(async () => {
  server = await startLangGraphDev({ TEMPO_AUTH_JWT_SECRET: SECRET });
  for (const user of ["alice", "bob"] as const)
    headers[user] = { authorization: `Bearer ${await signToken(SECRET, user)}` };
  alice = clientWith(server, headers.alice);
  bob = clientWith(server, headers.bob);
  aliceThread = (await alice.threads.create()).thread_id;
  bobThread = (await bob.threads.create()).thread_id;
  const run = await alice.runs.create(aliceThread, "tempo", { input: ARRANGE, streamResumable: true });
  aliceRun = run.run_id;
  // Waited on by polling, not joined: the run's queue is then made by the run itself, resumable, and keeps every event.
  for (
    let wait = 0;
    wait < 240 && ["pending", "running"].includes((await alice.runs.get(aliceThread, aliceRun)).status);
    wait += 1
  ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(cardOf(await alice.threads.getState(aliceThread))?.action_request.action).toBe("confirm_plan");
});

afterAll(async () => {
  await server?.stop();
});

test("another user's run is neither streamed nor joined, by run id alone or through the caller's own thread; its owner still streams and joins it", async () => {
  const before = await alice.threads.getState(aliceThread);
  const replay = { "Last-Event-ID": "-1" }; // replay the run's kept events from the start
  const attempts = {
    streamByRunId: await call("bob", "GET", `/runs/${aliceRun}/stream`, { headers: replay }),
    streamThroughOwnThread: await call("bob", "GET", `/threads/${bobThread}/runs/${aliceRun}/stream`, {
      headers: replay,
    }),
    joinThroughOwnThread: await call("bob", "GET", `/threads/${bobThread}/runs/${aliceRun}/join`),
    streamOnHerThread: await call("bob", "GET", `/threads/${aliceThread}/runs/${aliceRun}/stream`, { headers: replay }),
    joinOnHerThread: await call("bob", "GET", `/threads/${aliceThread}/runs/${aliceRun}/join`),
    // The percent-encoded path routes to the same handler: it is guarded the same.
    encodedPath: await call("bob", "GET", `/run%73/${aliceRun}/stream`, { headers: replay }),
    get: await call("bob", "GET", `/threads/${bobThread}/runs/${aliceRun}`),
    cancel: await call("bob", "POST", `/threads/${bobThread}/runs/${aliceRun}/cancel`),
    delete: await call("bob", "DELETE", `/threads/${bobThread}/runs/${aliceRun}`),
    list: await call("bob", "GET", `/threads/${aliceThread}/runs`),
  };
  expect(Object.fromEntries(Object.entries(attempts).map(([name, { status }]) => [name, status]))).toEqual({
    streamByRunId: 404,
    streamThroughOwnThread: 404,
    joinThroughOwnThread: 404,
    streamOnHerThread: 404,
    joinOnHerThread: 404,
    encodedPath: 404,
    get: 404,
    cancel: 404,
    delete: 404,
    list: 404,
  });
  for (const { text } of Object.values(attempts)) expect(text).not.toContain("Arrange my review week");
  expect(attempts.streamByRunId.text).toContain("/threads/{thread_id}/runs/{run_id}/stream");

  // Alice streams her run by its id and through her thread, and joins it.
  for (const path of [`/runs/${aliceRun}/stream`, `/threads/${aliceThread}/runs/${aliceRun}/stream`]) {
    const own = await call("alice", "GET", path, { headers: replay });
    expect(own.status).toBe(200);
    expect(own.text).toContain("Arrange my review week");
  }
  const joined = await call("alice", "GET", `/threads/${aliceThread}/runs/${aliceRun}/join`);
  expect(joined.status).toBe(200);
  expect(joined.text).toContain("Arrange my review week");

  const after = await alice.threads.getState(aliceThread);
  expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
  expect((await alice.runs.get(aliceThread, aliceRun)).status).toBe("success");
});

test("stateless runs, crons and the internal routes are refused for every user; nothing of Alice's is touched", async () => {
  const statuses = {
    statelessRun: (await call("bob", "POST", "/runs", { body: { assistant_id: "tempo", input: ARRANGE } })).status,
    statelessWait: (
      await call("bob", "POST", "/runs/wait", {
        body: { assistant_id: "tempo", input: ARRANGE, config: { configurable: { thread_id: aliceThread } } },
      })
    ).status,
    statelessStream: (await call("bob", "POST", "/runs/stream", { body: { assistant_id: "tempo", input: ARRANGE } }))
      .status,
    statelessBatch: (await call("bob", "POST", "/runs/batch", { body: [{ assistant_id: "tempo", input: ARRANGE }] }))
      .status,
    cronCreate: (await call("bob", "POST", "/runs/crons", { body: { assistant_id: "tempo", schedule: "* * * * *" } }))
      .status,
    cronSearch: (await call("bob", "POST", "/runs/crons/search", { body: {} })).status,
    cronDelete: (await call("bob", "DELETE", `/runs/crons/${aliceRun}`)).status,
    threadCron: (
      await call("bob", "POST", `/threads/${aliceThread}/runs/crons`, {
        body: { assistant_id: "tempo", schedule: "* * * * *" },
      })
    ).status,
    truncate: (
      await call("bob", "POST", "/internal/truncate", {
        body: { runs: true, threads: true, assistants: true, checkpointer: true, store: true },
      })
    ).status,
    truncateByOwner: (await call("alice", "POST", "/internal/truncate", { body: { threads: true } })).status,
  };
  expect(statuses).toEqual({
    statelessRun: 403,
    statelessWait: 403,
    statelessStream: 403,
    statelessBatch: 403,
    cronCreate: 403,
    cronSearch: 403,
    cronDelete: 403,
    threadCron: 403,
    truncate: 403,
    truncateByOwner: 403,
  });
  expect((await alice.threads.get(aliceThread)).status).toBe("interrupted");
  expect((await alice.threads.search({ limit: 100 })).map((thread) => thread.thread_id)).toContain(aliceThread);
  expect((await bob.threads.search({ limit: 100 })).map((thread) => thread.thread_id)).toEqual([bobThread]);
  expect(cardOf(await alice.threads.getState(aliceThread))?.action_request.action).toBe("confirm_plan");
});

test("another user's thread answers 404 on its checkpoint reads and counts as none of his; another user's store items are out of reach", async () => {
  const checkpoint = (await alice.threads.getState(aliceThread)).checkpoint.checkpoint_id!;
  await alice.store.putItem(["tempo", "users", "alice", "facts"], "sleep", { text: "Alice sleeps late" });
  const statuses = {
    stateAt: (await call("bob", "GET", `/threads/${aliceThread}/state/${checkpoint}`)).status,
    stateAtPost: (
      await call("bob", "POST", `/threads/${aliceThread}/state/checkpoint`, {
        body: { checkpoint: { checkpoint_id: checkpoint } },
      })
    ).status,
    historyPost: (await call("bob", "POST", `/threads/${aliceThread}/history`, { body: { limit: 10 } })).status,
    storeGet: (await call("bob", "GET", "/store/items?namespace=tempo.users.alice.facts&key=sleep")).status,
    storeDelete: (
      await call("bob", "DELETE", "/store/items", {
        body: { namespace: ["tempo", "users", "alice", "facts"], key: "sleep" },
      })
    ).status,
  };
  expect(statuses).toEqual({ stateAt: 404, stateAtPost: 404, historyPost: 404, storeGet: 403, storeDelete: 403 });
  expect(await bob.threads.count()).toBe(1);
  expect((await alice.store.getItem(["tempo", "users", "alice", "facts"], "sleep"))?.value).toEqual({
    text: "Alice sleeps late",
  });
});

test("standing preferences through the store API: Alice lists and removes her own entries; Bob can neither read, search nor delete them", async () => {
  const namespace = preferencesNamespace("alice");
  const entry = (id: string, text: string) => ({
    id,
    kind: "note",
    value: text,
    text,
    source: "stated in a message (thread t-1)",
    createdAt: "2026-01-05T10:00:00.000Z",
  });
  await alice.store.putItem(namespace, "pref-monday", entry("pref-monday", "never on Monday"));
  await alice.store.putItem(namespace, "pref-morning", entry("pref-morning", "I prefer mornings"));
  const statuses = {
    search: (await call("bob", "POST", "/store/items/search", { body: { namespace_prefix: namespace } })).status,
    get: (await call("bob", "GET", `/store/items?namespace=${namespace.join(".")}&key=pref-monday`)).status,
    delete: (await call("bob", "DELETE", "/store/items", { body: { namespace, key: "pref-monday" } })).status,
  };
  expect(statuses).toEqual({ search: 403, get: 403, delete: 403 });
  expect((await alice.store.searchItems(namespace)).items.map((item) => item.key).sort()).toEqual([
    "pref-monday",
    "pref-morning",
  ]);
  await alice.store.deleteItem(namespace, "pref-morning");
  expect((await alice.store.searchItems(namespace)).items.map((item) => item.value.text)).toEqual(["never on Monday"]);
  // Bob's own profile is his to read: empty.
  expect((await bob.store.searchItems(preferencesNamespace("bob"))).items).toEqual([]);
});

test("useStream's protocol routes belong to the thread's owner: a stranger who names the thread first is refused and does not lock the owner out", async () => {
  const events = (user: "alice" | "bob", thread: string) =>
    call(user, "POST", `/threads/${thread}/stream/events`, {
      body: { channels: ["values", "lifecycle"] },
      headers: { accept: "text/event-stream" },
      readMs: 1_000,
    });
  const command = (user: "alice" | "bob", thread: string, body: object) =>
    call(user, "POST", `/threads/${thread}/commands`, { body });

  // Alice's thread was made through REST: its protocol routes were never reached. Bob names it first.
  const bobFirst = {
    events: (await events("bob", aliceThread)).status,
    stateGet: (await command("bob", aliceThread, { id: 1, method: "state.get" })).status,
    runStart: (
      await command("bob", aliceThread, {
        id: 2,
        method: "run.start",
        params: { assistant_id: "tempo", input: ARRANGE },
      })
    ).status,
  };
  expect(bobFirst).toEqual({ events: 404, stateGet: 404, runStart: 404 });
  // Alice is not locked out: her protocol state read answers with her thread.
  const aliceState = await command("alice", aliceThread, { id: 3, method: "state.get" });
  expect(aliceState.status).toBe(200);
  expect(aliceState.text).toContain("Arrange my review week");
  expect((await events("alice", aliceThread)).status).toBe(200);
  // Bob still gets nothing after Alice reached them.
  expect((await command("bob", aliceThread, { id: 4, method: "state.get" })).status).toBe(404);

  // A new thread id named on the protocol routes becomes its first caller's thread (as run.start makes it); nobody else's.
  const fresh = crypto.randomUUID();
  expect((await events("bob", fresh)).status).toBe(200);
  expect((await bob.threads.get(fresh)).metadata).toMatchObject({ owner: "bob" });
  expect((await command("alice", fresh, { id: 5, method: "state.get" })).status).toBe(404);
  expect((await command("alice", "not-a-uuid", { id: 6, method: "state.get" })).status).toBe(404);
  expect(cardOf(await alice.threads.getState(aliceThread))?.action_request.action).toBe("confirm_plan");
});

test("a run naming a checkpoint starts from the latest one: an answer sent from an earlier view is refused (its card raised again, saying why), the checkpoint never sticks to the thread, and an answer from the head (what useStream sends) moves the thread on", async () => {
  const history = await alice.threads.getHistory(aliceThread, { limit: 100 });
  const earliest = history.at(-1)!.checkpoint.checkpoint_id!;
  const accept = { resume: { type: "accept", args: null } };
  // The run is created and its answer refused by the run checks: the served graph raises the card again, saying why
  // (the run ends cleanly, so the thread stays interrupted and answerable).
  const outcome = (options: Parameters<typeof alice.runs.wait>[2]) =>
    alice.runs.wait(aliceThread, "tempo", options).then(JSON.stringify, String);
  for (const from of [
    { checkpointId: earliest },
    { checkpoint: { checkpoint_id: earliest, checkpoint_ns: "", checkpoint_map: {} } },
  ]) {
    expect(await outcome({ command: accept, ...from })).toMatch(
      /"description":"Your last answer could not be used: This answer was sent (before thread|while the thread stood at checkpoint)/,
    );
    expect((await alice.threads.get(aliceThread)).status).toBe("interrupted");
  }
  const head = (await alice.threads.getState(aliceThread)).checkpoint.checkpoint_id!;
  expect(
    await refusal(
      alice.runs.create(aliceThread, "tempo", {
        command: accept,
        checkpoint: { checkpoint_id: earliest, checkpoint_ns: "sub:1", checkpoint_map: {} },
      }),
    ),
  ).toBe(403);
  expect(cardOf(await alice.threads.getState(aliceThread))?.action_request.action).toBe("confirm_plan");
  const protocol = await fetch(`${server.apiUrl}/threads/${aliceThread}/commands`, {
    method: "POST",
    headers: { ...headers.alice, "content-type": "application/json" },
    body: JSON.stringify({
      id: 7,
      method: "run.start",
      params: {
        assistant_id: "tempo",
        input: accept,
        config: { configurable: { checkpoint_id: earliest, checkpoint_ns: "sub:1" } },
      },
    }),
  });
  expect(await protocol.text()).toContain("checkpoint");
  // No checkpoint to start from sticks to the thread's stored config (what a run last saw is recorded as that,
  // and every run sets it anew).
  const storedCheckpoint = async () =>
    ((await alice.threads.get(aliceThread)).config?.configurable as Record<string, unknown> | undefined)?.checkpoint_id;
  expect(await storedCheckpoint()).toBeUndefined();

  // Her answer to the plan card, sent with the head she read (as Agent Chat UI sends it), is taken: the thread moves
  // on to its first write card, and no checkpoint sticks to its config.
  await alice.runs.wait(aliceThread, "tempo", {
    command: accept,
    checkpoint: { checkpoint_id: head, checkpoint_ns: "", checkpoint_map: {} },
  });
  const next = await alice.threads.getState(aliceThread);
  expect(cardOf(next)?.action_request.action).toBe("place");
  expect(await storedCheckpoint()).toBeUndefined();
  expect(JSON.stringify((await alice.threads.get(aliceThread)).config ?? {})).not.toContain(earliest);
});
