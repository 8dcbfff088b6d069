/**
 * Ending a thread and the first screen, through `langgraph dev`, with the exact requests the two clients send
 * (docs/front-ends.md; Agent Inbox `main` f38301b, Agent Chat UI `main` fdc87e6):
 *
 * - Agent Inbox's "Mark as resolved": `POST /threads/{id}/state {"values":null,"as_node":"__end__"}` with its key in
 *   `x-api-key`, then at once `POST /threads/search {metadata:{graph_id:"tempo"},limit,offset,status:"interrupted"}`.
 *   The thread must be `idle` with no interrupts by then (auth/http-app.ts settles it), add nothing to the
 *   conversation, and take a new message as a new task.
 * - Agent Chat UI's "Mark as Resolved" (`command: {goto: "__end__"}`) still ends the thread.
 * - Agent Chat UI's first request, `GET /info` with `X-Api-Key`: 401 with a reason when the server needs a token and
 *   the key is missing or wrong, the built-in info otherwise — and with auth open, the built-in info for anyone.
 */
import { Client } from "@langchain/langgraph-sdk";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startLangGraphDev, type LangGraphDevServer } from "../support/langgraph-dev.js";

const SECRET = "client-ending-test-secret-0123456789abcdef";

let secured: LangGraphDevServer;
let open: LangGraphDevServer;

beforeAll(async () => {
  secured = await startLangGraphDev({ TEMPO_AUTH_JWT_SECRET: SECRET });
  open = await startLangGraphDev({ TEMPO_USER_ID: "open-student" });
});

afterAll(async () => {
  await Promise.all([secured?.stop(), open?.stop()]);
});

async function tokenFor(user: string): Promise<string> {
  return new SignJWT({ sub: user })
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(SECRET));
}

/** A JSON request with Agent Inbox's key header (its "LangSmith API Key" setting → `x-api-key`). */
async function post(
  server: LangGraphDevServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${server.apiUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** Agent Inbox's list request (its default "Interrupted" tab). */
const INBOX_SEARCH = { metadata: { graph_id: "tempo" }, limit: 10, offset: 0, status: "interrupted" };
/** Agent Inbox's "Mark as resolved" body (SDK `threads.updateState(id, { values: null, asNode: END })`). */
const MARK_AS_RESOLVED = { values: null, as_node: "__end__" };

type Thread = { thread_id: string; status: string; interrupts: Record<string, unknown> };
type State = {
  values: {
    phase?: string;
    pending?: unknown;
    messages?: Array<{ id?: string; content?: unknown }>;
    outcome?: unknown;
  };
  next: string[];
  tasks: Array<{ interrupts: unknown[] }>;
};

/** A thread of `user` on `server` waiting on Tempo's first card (the plan), made with the user's key. */
async function threadAtPlanCard(
  server: LangGraphDevServer,
  key: Record<string, string>,
): Promise<{ client: Client; threadId: string }> {
  const client = new Client({ apiUrl: server.apiUrl, defaultHeaders: key });
  const thread = await client.threads.create();
  await client.runs.wait(thread.thread_id, "tempo", {
    input: { messages: [{ role: "user", content: "Arrange my review week" }] },
  });
  return { client, threadId: thread.thread_id };
}

async function listed(
  server: LangGraphDevServer,
  key: Record<string, string>,
  search = INBOX_SEARCH,
): Promise<Thread[]> {
  const response = await post(server, "/threads/search", search, key);
  expect(response.status).toBe(200);
  return (await response.json()) as Thread[];
}

/** The first action name of the card the server shows for the thread (`thread.interrupts`), if any. */
function cardOf(thread: Thread): string | undefined {
  const first = Object.values(thread.interrupts ?? {})[0] as
    Array<{ value?: { action_requests?: Array<{ name?: string }> } }> | undefined;
  return first?.[0]?.value?.action_requests?.[0]?.name;
}

const messageIds = (state: State) => (state.values.messages ?? []).map((message) => message.id);
const DROPPED = /the thread was ended from the client/;

describe("Agent Inbox's Mark as resolved", () => {
  test("with its key: the search it sends next no longer lists the thread, which reads idle with no card, its conversation told once; a new message starts a new task", async () => {
    const key = { "x-api-key": await tokenFor("inbox-resolver") };
    const { client, threadId } = await threadAtPlanCard(secured, key);
    const before = (await listed(secured, key)).find((thread) => thread.thread_id === threadId);
    expect(before?.status).toBe("interrupted");
    expect(cardOf(before!)).toBe("confirm_plan");
    const messagesBefore = messageIds((await client.threads.getState(threadId)) as unknown as State);

    const ended = await post(secured, `/threads/${threadId}/state`, MARK_AS_RESOLVED, key);
    expect(ended.status, secured.output().slice(-3000)).toBe(200);
    expect((await listed(secured, key)).map((thread) => thread.thread_id)).not.toContain(threadId);
    const idle = (await listed(secured, key, { ...INBOX_SEARCH, status: "idle" })).find(
      (thread) => thread.thread_id === threadId,
    );
    expect(idle).toMatchObject({ status: "idle", interrupts: {} });
    expect(await client.threads.get(threadId)).toMatchObject({ status: "idle", interrupts: {} });

    const state = (await client.threads.getState(threadId)) as unknown as State;
    expect(state.next).toEqual([]);
    expect(state.tasks.flatMap((task) => task.interrupts)).toEqual([]);
    expect(state.values).toMatchObject({ phase: "chatting", pending: null, outcome: { kind: "dropped" } });
    // The end is told once (one message added); settling the status added nothing to the conversation.
    const added = (state.values.messages ?? []).slice(messagesBefore.length);
    expect(
      messageIds({ values: { messages: (state.values.messages ?? []).slice(0, messagesBefore.length) } } as State),
    ).toEqual(messagesBefore);
    expect(added).toHaveLength(1);
    expect(String(added[0]!.content)).toMatch(DROPPED);
    // Agent Chat UI reads the history head (`fetchStateHistory`): no card there either.
    const history = (await client.threads.getHistory(threadId, { limit: 100 })) as unknown as State[];
    expect(history[0]!.tasks.flatMap((task) => task.interrupts)).toEqual([]);
    expect(messageIds(history[0]!)).toEqual(messageIds(state));

    // A new message starts a new task: its plan card is listed again.
    await client.runs.wait(threadId, "tempo", {
      input: { messages: [{ role: "user", content: "Arrange my review week" }] },
    });
    const again = (await listed(secured, key)).find((thread) => thread.thread_id === threadId);
    expect(again?.status).toBe("interrupted");
    expect(cardOf(again!)).toBe("confirm_plan");
  });

  test("an answer to the old card, sent from a page opened before, is refused before any run (409) and leaves the thread idle", async () => {
    const key = { "x-api-key": await tokenFor("inbox-late-answer") };
    const { client, threadId } = await threadAtPlanCard(secured, key);
    const card = Object.values(((await client.threads.get(threadId)) as unknown as Thread).interrupts)[0] as Array<{
      value: { action_requests: Array<{ name: string; args: unknown }> };
    }>;
    const action = card[0]!.value.action_requests[0]!;
    expect((await post(secured, `/threads/${threadId}/state`, MARK_AS_RESOLVED, key)).status).toBe(200);
    const head = ((await client.threads.getState(threadId)) as unknown as { checkpoint: { checkpoint_id: string } })
      .checkpoint.checkpoint_id;
    const runsBefore = (await client.runs.list(threadId)).length;

    // Inbox's Accept (streamed, echoing the action), Inbox's Ignore (runs.create), Agent Chat UI's approve.
    const answers: Array<[string, unknown]> = [
      [
        "runs/stream",
        {
          command: { resume: [{ type: "accept", args: { action: action.name, args: action.args } }] },
          stream_mode: "events",
          assistant_id: "tempo",
        },
      ],
      ["runs", { command: { resume: [{ type: "ignore", args: null }] }, assistant_id: "tempo" }],
      [
        "runs/stream",
        {
          input: {},
          command: { resume: { decisions: [{ type: "approve" }] } },
          stream_mode: ["messages-tuple", "values", "custom"],
          assistant_id: "tempo",
          checkpoint: { checkpoint_id: head, checkpoint_ns: "", checkpoint_map: null },
          on_disconnect: "cancel",
        },
      ],
    ];
    for (const [route, body] of answers) {
      const response = await post(secured, `/threads/${threadId}/${route}`, body, key);
      expect(response.status).toBe(409);
      expect(await response.text()).toMatch(/waits on no card.*nothing was changed/);
    }
    expect(await client.threads.get(threadId)).toMatchObject({ status: "idle", interrupts: {} });
    expect(
      ((await client.threads.getState(threadId)) as unknown as { checkpoint: { checkpoint_id: string } }).checkpoint
        .checkpoint_id,
    ).toBe(head);
    expect(await client.runs.list(threadId)).toHaveLength(runsBefore);
  });

  test("on another user's thread it is refused and settles nothing: the owner's card stays", async () => {
    const owner = { "x-api-key": await tokenFor("inbox-owner") };
    const { client, threadId } = await threadAtPlanCard(secured, owner);
    const other = await post(secured, `/threads/${threadId}/state`, MARK_AS_RESOLVED, {
      "x-api-key": await tokenFor("inbox-intruder"),
    });
    expect(other.status).toBe(404);
    const thread = (await client.threads.get(threadId)) as unknown as Thread;
    expect(thread.status).toBe("interrupted");
    expect(cardOf(thread)).toBe("confirm_plan");
    expect((await client.runs.list(threadId)).map((run) => run.status)).toEqual(["success"]);
  });

  test("with auth open (no key): the thread ends idle and leaves the Interrupted list", async () => {
    const { client, threadId } = await threadAtPlanCard(open, {});
    expect((await listed(open, {})).map((thread) => thread.thread_id)).toContain(threadId);
    expect((await post(open, `/threads/${threadId}/state`, MARK_AS_RESOLVED)).status).toBe(200);
    expect((await listed(open, {})).map((thread) => thread.thread_id)).not.toContain(threadId);
    expect(await client.threads.get(threadId)).toMatchObject({ status: "idle", interrupts: {} });
  });
});

describe("Agent Chat UI's Mark as Resolved", () => {
  test("its goto __end__ run still ends the thread idle; Inbox's Mark as resolved after it changes nothing and makes no run", async () => {
    const key = { "x-api-key": await tokenFor("chat-ui-resolver") };
    const { client, threadId } = await threadAtPlanCard(secured, key);
    const head = ((await client.threads.getState(threadId)) as unknown as { checkpoint: { checkpoint_id: string } })
      .checkpoint.checkpoint_id;
    const response = await post(
      secured,
      `/threads/${threadId}/runs/stream`,
      {
        input: {},
        command: { goto: "__end__" },
        stream_mode: ["messages-tuple", "values", "custom"],
        stream_resumable: false,
        assistant_id: "tempo",
        checkpoint: { checkpoint_id: head, checkpoint_ns: "", checkpoint_map: null },
        on_disconnect: "cancel",
      },
      key,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain("event: error");
    expect(await client.threads.get(threadId)).toMatchObject({ status: "idle", interrupts: {} });
    const ended = (await client.threads.getState(threadId)) as unknown as State;
    expect(ended.values).toMatchObject({ phase: "chatting", pending: null, outcome: { kind: "dropped" } });
    const runs = (await client.runs.list(threadId)).length;

    expect((await post(secured, `/threads/${threadId}/state`, MARK_AS_RESOLVED, key)).status).toBe(200);
    expect(await client.threads.get(threadId)).toMatchObject({ status: "idle", interrupts: {} });
    expect(messageIds((await client.threads.getState(threadId)) as unknown as State)).toEqual(messageIds(ended));
    expect(await client.runs.list(threadId)).toHaveLength(runs);
  });
});

describe("the first screen: GET /info, Agent Chat UI's first request", () => {
  const CHAT_UI_ORIGIN = { origin: "http://localhost:3000" };

  test("with tokens required: no key or a wrong key answers 401 with what to do; the right key (X-Api-Key or Bearer) the server's info", async () => {
    const refused: Array<Record<string, string>> = [
      {},
      { "x-api-key": "not-a-token" },
      {
        "X-Api-Key": await new SignJWT({ sub: "x" })
          .setProtectedHeader({ alg: "HS256" })
          .sign(new TextEncoder().encode("another-secret-0123456789abcdefghij")),
      },
    ];
    for (const headers of refused) {
      const response = await fetch(`${secured.apiUrl}/info`, { headers: { ...CHAT_UI_ORIGIN, ...headers } });
      expect(response.status).toBe(401);
      // Readable across origins, as the browser's fetch in Agent Chat UI needs.
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error).toBe("Unauthorized");
      expect(body.message).toMatch(/LangSmith API Key/);
    }
    const expected = await (await fetch(`${open.apiUrl}/info`)).json();
    expect(expected).toMatchObject({ context: "js", flags: { assistants: true } });
    const token = await tokenFor("first-screen");
    const accepted: Array<Record<string, string>> = [{ "X-Api-Key": token }, { authorization: `Bearer ${token}` }];
    for (const headers of accepted) {
      const response = await fetch(`${secured.apiUrl}/info`, { headers: { ...CHAT_UI_ORIGIN, ...headers } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(expected);
    }
  });

  test("with auth open: anyone gets the server's info", async () => {
    const response = await fetch(`${open.apiUrl}/info`, { headers: { "x-api-key": "anything" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      version: expect.any(String),
      context: "js",
      flags: { assistants: true, crons: false },
    });
  });
});
