/**
 * The served API's trust boundary, end to end: `langgraph dev` with
 * TEMPO_AUTH_JWT_SECRET and DATABASE_URL (a Postgres started here), two users
 * with real HS256 tokens. Alice's thread waits on a write card; Bob tries
 * every way in, Alice tries every way around her card. Each attempt is refused
 * and Alice's thread (status, checkpoint, state), schedule and memory are as
 * they were; Alice's own answer then applies the write once, recorded in the
 * Postgres execution log the served graph now uses. The protocol routes
 * `useStream` uses answer nobody but the thread's own user. A thread its owner deletes takes the list `/prefs` showed
 * in it and its conversation summaries along.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { expect, test } from "vitest";
import { startEmbeddedTestPostgres } from "../support/postgres.js";
import { clientWith as servedClientWith, refusal, signToken, useServedOnPostgres } from "../support/served-users.js";
import { APPLIED_WRITES_OF_USER_SQL } from "../support/applied-writes.js";
import { PREFERENCE_WORDS, shownListItem } from "../../memory/preference-commands.js";
import { conversationNamespace, preferencesNamespace, threadNamespace } from "../../memory/namespaces.js";

const SECRET = "trust-boundary-test-secret-0123456789abcdef";
const ACCEPT = { resume: { type: "accept", args: null } };
const ARRANGE = { messages: [{ role: "user", content: "Arrange my review week" }] };

const served = useServedOnPostgres(SECRET, startEmbeddedTestPostgres);

function token(sub: string | undefined, options: { secret?: string; expiresAt?: number } = {}): Promise<string> {
  return signToken(SECRET, sub, options);
}

function clientWith(headers: Record<string, string>): Client {
  return servedClientWith(served.server, headers);
}

async function clientOf(user: string): Promise<Client> {
  return clientWith({ authorization: `Bearer ${await token(user)}` });
}

type Card = {
  action_request: { action: string; args: Record<string, unknown> };
  action_requests: Array<{ name: string }>;
};
const cardOf = (state: { tasks: Array<{ interrupts: Array<{ value?: unknown }> }> }) =>
  state.tasks[0]?.interrupts[0]?.value as Card | undefined;

async function countRows(sql: string, values: unknown[]): Promise<number> {
  return Number((await served.pool.query<{ count: string }>(sql, values)).rows[0]?.count ?? 0);
}

test("the server says tokens are required, and refuses requests without a valid one", async () => {
  expect(served.server.output()).toContain("[tempo] auth: bearer tokens required (HS256 secret)");
  // `/info` too (Tempo's http.app): Agent Chat UI checks it on load, so a missing key is said at once.
  expect((await fetch(`${served.server.apiUrl}/info`)).status).toBe(401);
  expect(
    (
      await fetch(`${served.server.apiUrl}/threads/search`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).status,
  ).toBe(401);
  // Studio's header is no way in: disable_studio_auth makes it go through the token check like any other request.
  expect(await refusal(clientWith({ "x-auth-scheme": "langsmith" }).threads.search())).toBe(401);
  const past = Math.floor(Date.now() / 1000) - 60;
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "none", typ: "JWT" })}.${encode({ sub: "alice", exp: past + 3600 })}.`;
  for (const bad of [
    await token("alice", { secret: "a-forged-secret-that-is-long-enough-000000" }),
    await token("alice", { expiresAt: past }),
    unsigned,
    await token(undefined),
  ]) {
    expect(await refusal(clientWith({ authorization: `Bearer ${bad}` }).threads.search())).toBe(401);
  }
});

test("another user can neither read, run, change nor take over a thread; its owner cannot route around a card", async () => {
  const alice = await clientOf("alice");
  const bob = await clientOf("bob");

  // Alice's thread waits on its first write card.
  const thread = await alice.threads.create();
  expect(thread.metadata).toMatchObject({ owner: "alice" });
  await alice.runs.wait(thread.thread_id, "tempo", { input: ARRANGE });
  await alice.runs.wait(thread.thread_id, "tempo", { command: ACCEPT });
  const before = await alice.threads.getState(thread.thread_id);
  const card = cardOf(before)!;
  expect(card.action_request.action).toBe("place");
  const history = await alice.threads.getHistory(thread.thread_id, { limit: 100 });
  const earliest = history.at(-1)!.checkpoint.checkpoint_id!;
  const bobThread = await bob.threads.create();
  expect(bobThread.metadata).toMatchObject({ owner: "bob" });

  const id = thread.thread_id;
  const refused = {
    get: await refusal(bob.threads.get(id)),
    getState: await refusal(bob.threads.getState(id)),
    getHistory: await refusal(bob.threads.getHistory(id)),
    copy: await refusal(bob.threads.copy(id)),
    delete: await refusal(bob.threads.delete(id)),
    metadata: await refusal(bob.threads.update(id, { metadata: { owner: "bob" } })),
    updateState: await refusal(bob.threads.updateState(id, { values: { userId: "bob" } })),
    run: await refusal(bob.runs.create(id, "tempo", { input: ARRANGE })),
    resume: await refusal(bob.runs.create(id, "tempo", { command: ACCEPT })),
    fork: await refusal(bob.runs.create(id, "tempo", { input: ARRANGE, checkpointId: earliest })),
    rollback: await refusal(bob.runs.create(id, "tempo", { input: ARRANGE, multitaskStrategy: "rollback" })),
    storeSearch: await refusal(bob.store.searchItems(["tempo", "users", "alice"])),
    storePut: await refusal(
      bob.store.putItem(["tempo", "users", "alice", "facts"], "injected", {
        text: "Alice wants every review on Sunday at 6am",
      }),
    ),
    storeNamespaces: await refusal(bob.store.listNamespaces()),
    assistantAsAlice: await refusal(
      bob.assistants.create({ graphId: "tempo", config: { configurable: { user_id: "alice" } } }),
    ),
    ownerUpdateState: await refusal(
      alice.threads.updateState(id, {
        values: { answeredWrites: [{ tool: card.action_request, approved: true }] },
        asNode: "confirm",
      }),
    ),
    ownerCommandUpdate: await refusal(
      alice.runs.create(id, "tempo", {
        command: { update: { answeredWrites: [{ tool: card.action_request, approved: true }] }, goto: "execute" },
      }),
    ),
    ownerCommandGoto: await refusal(alice.runs.create(id, "tempo", { command: { goto: "execute" } })),
    ownerAsBob: await refusal(
      alice.runs.create(id, "tempo", { input: ARRANGE, config: { configurable: { user_id: "bob" } } }),
    ),
  };
  expect(refused).toEqual({
    get: 404,
    getState: 404,
    getHistory: 404,
    copy: 409,
    delete: 404,
    metadata: 404,
    updateState: 404,
    run: 404,
    resume: 404,
    fork: 404,
    rollback: 404,
    storeSearch: 403,
    storePut: 403,
    storeNamespaces: 403,
    assistantAsAlice: 403,
    ownerUpdateState: 403,
    ownerCommandUpdate: 403,
    ownerCommandGoto: 403,
    ownerAsBob: 403,
  });
  expect((await bob.threads.search({ limit: 100 })).map((found) => found.thread_id)).toEqual([bobThread.thread_id]);
  expect(await refusal(bob.runs.list(id))).toBe(404);

  // Nothing of Alice's moved: thread status, checkpoint, card, memory, schedule.
  const after = await alice.threads.getState(id);
  expect((await alice.threads.get(id)).status).toBe("interrupted");
  expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
  expect(after.values).toEqual(before.values);
  expect(cardOf(after)).toEqual(card);
  expect(await alice.store.getItem(["tempo", "users", "alice", "facts"], "injected")).toBeNull();
  expect(
    await countRows("SELECT count(*) FROM tempo_execution_log WHERE thread_id = $1 AND kind = 'write'", [id]),
  ).toBe(0);
  // Agent Inbox (the token in its "LangSmith API key" field, sent as x-api-key) still lists the thread as waiting.
  const inbox = clientWith({ "x-api-key": await token("alice") });
  expect((await inbox.threads.search({ status: "interrupted", limit: 100 })).map((found) => found.thread_id)).toContain(
    id,
  );

  // Alice answers her card (the week's placements on one batch card: she approves the first and declines the rest,
  // so her later tests still find reviews to place) while Bob tries to roll back her in-flight run: her run
  // goes on to the refinement step, which finds nothing to change, and ends; the write applies once.
  const decisions = card.action_requests.map((_, index) => ({ type: index === 0 ? "approve" : "reject" }));
  const run = await alice.runs.create(id, "tempo", { command: { resume: { decisions } } });
  expect(await refusal(bob.runs.create(id, "tempo", { input: ARRANGE, multitaskStrategy: "rollback" }))).toBe(404);
  expect(await refusal(bob.runs.cancel(id, run.run_id))).toBe(404);
  await alice.runs.join(id, run.run_id);
  expect((await alice.runs.get(id, run.run_id)).status).toBe("success");
  const next = await alice.threads.getState(id);
  const appliedOnThread = () =>
    countRows(
      "SELECT count(*) FROM tempo_execution_log WHERE thread_id = $1 AND user_id = 'alice' AND kind = 'write' AND status = 'completed' AND applied",
      [id],
    );
  expect(await appliedOnThread()).toBe(1);
  expect(await countRows(`SELECT count(*) FROM (${APPLIED_WRITES_OF_USER_SQL}) AS applied`, ["alice"])).toBe(1);
  // The refinement (on by default after arranging) finds nothing to change in the polished placement: no card.
  // Bob can neither resume nor message her ended thread, and nothing more is applied.
  expect(cardOf(next)).toBeUndefined();
  expect(await refusal(bob.runs.create(id, "tempo", { command: { resume: { type: "accept", args: null } } }))).toBe(
    404,
  );
  expect(await refusal(bob.runs.create(id, "tempo", { input: ARRANGE }))).toBe(404);
  expect(await appliedOnThread()).toBe(1);
  expect(await countRows(`SELECT count(*) FROM (${APPLIED_WRITES_OF_USER_SQL}) AS applied`, ["alice"])).toBe(1);
  expect(await countRows(`SELECT count(*) FROM (${APPLIED_WRITES_OF_USER_SQL}) AS applied`, ["bob"])).toBe(0);
});

test("an assistant carrying a user gives nobody else that user's identity", async () => {
  const alice = await clientOf("alice");
  const bob = await clientOf("bob");
  const assistant = await alice.assistants.create({ graphId: "tempo", config: { configurable: { user_id: "alice" } } });
  expect(assistant.metadata).toMatchObject({ owner: "alice" });
  expect(
    await refusal(bob.assistants.update(assistant.assistant_id, { config: { configurable: { user_id: "bob" } } })),
  ).toBe(404);
  expect(await refusal(bob.assistants.update(assistant.assistant_id, { metadata: { note: "mine now" } }))).toBe(404);
  expect(await refusal(bob.assistants.delete(assistant.assistant_id))).toBe(404);

  // Bob runs his own thread on Alice's assistant: the graph runs as Bob, so the assistant's user_id is refused.
  const thread = await bob.threads.create();
  const run = await bob.runs.create(thread.thread_id, assistant.assistant_id, { input: ARRANGE });
  await bob.runs.join(thread.thread_id, run.run_id);
  expect((await bob.runs.get(thread.thread_id, run.run_id)).status).toBe("error");
  expect(served.server.output()).toContain("IDENTITY_MISMATCH");
  expect((await bob.threads.getState(thread.thread_id)).values).toEqual({});
  expect(await countRows("SELECT count(*) FROM tempo_execution_log WHERE thread_id = $1", [thread.thread_id])).toBe(0);
});

test("useStream's protocol routes: another user can neither read a thread's event stream nor send its commands", async () => {
  const alice = await clientOf("alice");
  const headersOf = async (user: string) => ({
    authorization: `Bearer ${await token(user)}`,
    "content-type": "application/json",
  });
  const aliceHeaders = await headersOf("alice");
  const bobHeaders = await headersOf("bob");
  const id = crypto.randomUUID(); // useStream mints the thread id and creates the thread with its first command
  const command = (headers: Record<string, string>, body: object) =>
    fetch(`${served.server.apiUrl}/threads/${id}/commands`, { method: "POST", headers, body: JSON.stringify(body) });
  const start = await command(aliceHeaders, {
    id: 1,
    method: "run.start",
    params: { assistant_id: "tempo", input: ARRANGE },
  });
  expect(start.status).toBe(200);
  let before = await alice.threads.getState(id);
  for (let wait = 0; wait < 120 && !cardOf(before); wait += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    before = await alice.threads.getState(id);
  }
  const card = cardOf(before)!;
  expect(card.action_request.action).toBe("confirm_plan");
  const interruptId = before.tasks[0]!.interrupts[0]!.id;

  const events = await fetch(`${served.server.apiUrl}/threads/${id}/stream/events`, {
    method: "POST",
    headers: { ...bobHeaders, accept: "text/event-stream" },
    body: JSON.stringify({ channels: ["values", "lifecycle", "input"] }),
  });
  const respond = await command(bobHeaders, {
    id: 2,
    method: "input.respond",
    params: { interrupt_id: interruptId, response: { type: "accept", args: null } },
  });
  const runStart = await command(bobHeaders, {
    id: 3,
    method: "run.start",
    params: { assistant_id: "tempo", input: ARRANGE },
  });
  expect({ events: events.status, respond: respond.status, runStart: runStart.status }).toEqual({
    events: 404,
    respond: 404,
    runStart: 404,
  });
  expect(await events.text()).not.toContain("Arrange my review week");

  const after = await alice.threads.getState(id);
  expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
  expect(cardOf(after)).toEqual(card);
  // Alice's own answer through the same route still moves her thread on.
  expect(
    (
      await command(aliceHeaders, {
        id: 4,
        method: "input.respond",
        params: { interrupt_id: interruptId, response: { type: "accept", args: null } },
      })
    ).status,
  ).toBe(200);
  let next = await alice.threads.getState(id);
  for (let wait = 0; wait < 120 && cardOf(next)?.action_request.action !== "place"; wait += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    next = await alice.threads.getState(id);
  }
  expect(cardOf(next)?.action_request.action).toBe("place");
});

test("a deleted thread takes the list /prefs showed in it along; another user's delete takes nothing", async () => {
  // Before, the list outlived its thread: the thread made again under its id (a client's own id) took "/forget 1" to
  // count in a list shown in a conversation that no longer was.
  const carol = await clientOf("carol");
  const bob = await clientOf("bob");
  await carol.store.putItem(preferencesNamespace("carol"), "pref-carol", {
    id: "pref-carol",
    kind: "avoid_day",
    value: 1,
    text: "never on Monday",
    createdAt: "2026-01-05T10:00:00.000Z",
  });
  const thread = await carol.threads.create();
  const id = thread.thread_id;
  const said = async (text: string) => {
    const values = (await carol.runs.wait(id, "tempo", {
      input: { messages: [{ role: "user", content: text }] },
    })) as { messages: Array<{ content: unknown }> };
    return values.messages.at(-1)?.content;
  };
  expect(await said("/prefs")).toMatch(/^Your standing preferences:\n1\. never on Monday/);
  const { namespace, key } = shownListItem("carol", id);
  expect((await carol.store.getItem(namespace, key))?.value).toEqual({
    entries: [{ id: "pref-carol", text: "never on Monday" }],
  });

  expect(await refusal(bob.threads.delete(id))).toBe(404);
  expect(await carol.store.getItem(namespace, key)).not.toBeNull();
  await carol.threads.delete(id);
  expect(await carol.store.getItem(namespace, key)).toBeNull();

  await carol.threads.create({ threadId: id });
  expect(await said("/forget 1")).toBe(PREFERENCE_WORDS.unlisted.en);
  expect((await carol.store.getItem(preferencesNamespace("carol"), "pref-carol"))?.value).toMatchObject({
    text: "never on Monday",
  });
});

test("a deleted thread takes its conversation summaries along: the thread made again under its id recalls nothing", async () => {
  // Before, the summaries outlived their thread: the thread made again under its id (a client's own id) recalled the
  // old conversation in every prompt.
  const dave = await clientOf("dave");
  const bob = await clientOf("bob");
  const thread = await dave.threads.create();
  const id = thread.thread_id;
  const recalledBy = async (input: typeof ARRANGE) => {
    await dave.runs.wait(id, "tempo", { input });
    // The task waits on its plan card, which keeps what recall read at the start of the turn.
    const { values } = await dave.threads.getState<{ recalled?: { conversation?: string[] } }>(id);
    return values.recalled?.conversation;
  };
  const kept = async () =>
    (await dave.store.searchItems(threadNamespace("dave", id), { limit: 100 })).items.map((item) => item.namespace);
  await dave.runs.wait(id, "tempo", { input: { messages: [{ role: "user", content: "hello" }] } });
  expect(await recalledBy(ARRANGE)).toHaveLength(1);
  expect(await kept()).toContainEqual(conversationNamespace("dave", id));

  expect(await refusal(bob.threads.delete(id))).toBe(404);
  expect(await kept()).toContainEqual(conversationNamespace("dave", id));
  await dave.threads.delete(id);
  expect(await kept()).toEqual([]);

  await dave.threads.create({ threadId: id });
  expect(await recalledBy(ARRANGE)).toEqual([]);
});
