/**
 * A bad `configurable` never locks a served thread (issue 44.5), on the real `langgraph dev`. The server keeps a run's
 * `configurable` in the thread's stored config and merges it into every later run, and Agent Chat UI sends none, so
 * a bad value the server stored would fail every later run of the thread, "thanks" included, for good:
 *
 * - a run with a bad `time_zone` is refused at admission (Tempo's auth handler, before the server stores anything)
 *   with `422` and INVALID_CONFIGURATION naming the field and the form it takes; the next message, sent as Agent
 *   Chat UI sends it (no configurable), is answered;
 * - a thread whose stored config already holds a bad value (stored before that check: written into the dev server's
 *   saved store while it is stopped, as an earlier version left it) is answered on the next message: the served
 *   graph ignores the stored value with a note on the server's log, and its default applies.
 */
import { Client } from "@langchain/langgraph-sdk";
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { savedIdle, savedStoreFile } from "../support/dev-store.js";
import { startLangGraphDev, type LangGraphDevServer } from "../support/langgraph-dev.js";

const THANKS = { messages: [{ role: "user", content: "thanks" }] };
const servers: LangGraphDevServer[] = [];
let folder: string | undefined;

afterAll(async () => {
  for (const server of servers) await server.stop();
  if (folder) await fs.rm(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

/** `langgraph dev` in open single-user mode on `folder`, kept across a restart. */
async function start(on: string): Promise<{ server: LangGraphDevServer; client: Client }> {
  const server = await startLangGraphDev({}, { folder: on });
  servers.push(server);
  return { server, client: new Client({ apiUrl: server.apiUrl, callerOptions: { maxRetries: 0 } }) };
}

/** The last assistant message of the thread, and the thread's status. */
async function answered(
  client: Client,
  threadId: string,
): Promise<{ status: string; last: { type: string; content: unknown } | undefined }> {
  const state = await client.threads.getState(threadId);
  const messages = (state.values as { messages?: Array<{ type: string; content: unknown }> }).messages ?? [];
  return { status: (await client.threads.get(threadId)).status, last: messages.at(-1) };
}

test("a run with a bad time zone is refused before it is stored (422, INVALID_CONFIGURATION); a thread whose config stored one before recovers: 'thanks' is answered", async () => {
  folder = await fs.mkdtemp(path.join(tmpdir(), "tempo-served-configurable-"));
  let { server, client } = await start(folder);
  const thread = await client.threads.create();

  const refused = await client.runs
    .wait(thread.thread_id, "tempo", { input: THANKS, config: { configurable: { time_zone: "Mars/Olympus" } } })
    .then(
      () => undefined,
      (error: { status?: number; message?: string }) => error,
    );
  expect(refused?.status, server.output().slice(-2000)).toBe(422);
  expect(refused?.message).toMatch(/"code":"INVALID_CONFIGURATION"/);
  expect(refused?.message).toMatch(
    /configurable\.time_zone must be an IANA time zone such as \\"Asia\/Shanghai\\" or \\"UTC\\"; got \\"Mars\/Olympus\\"/,
  );
  expect(await client.runs.list(thread.thread_id)).toEqual([]);

  // Agent Chat UI's next message: no configurable. It is answered; nothing of the refused run was kept.
  await client.runs.wait(thread.thread_id, "tempo", { input: THANKS });
  const first = await answered(client, thread.thread_id);
  expect(first.status, server.output().slice(-2000)).toBe("idle");
  expect(first.last).toMatchObject({ type: "ai", content: expect.any(String) });
  expect((await client.runs.list(thread.thread_id)).map((run) => run.status)).toEqual(["success"]);
  expect((await client.threads.get(thread.thread_id)).config?.configurable?.time_zone).toBeUndefined();

  // A thread whose stored config holds a bad value from before the check: written while the server is stopped.
  // Saved idle, then the server (every process of it) gone. The store it flushed as it stopped is the one rewritten
  // when it is whole; a loaded machine may end the server mid-flush (the file cut short, or not yet idle in CI once),
  // and then the store it saved while running, thread idle and nothing run since, is.
  const running = await savedIdle(folder, thread.thread_id);
  await server.stop();
  const flushed = await savedIdle(folder, thread.thread_id, undefined, 1).catch(() => undefined);
  const saved = flushed ?? running;
  const stored = saved.json.threads[thread.thread_id]!;
  stored.config = {
    ...stored.config,
    configurable: {
      ...stored.config?.configurable,
      time_zone: "Mars/Olympus",
      now: "2024-02-30T09:00:00Z",
      max_rounds: -1,
    },
  };
  await fs.writeFile(savedStoreFile(folder), JSON.stringify(saved));
  ({ server, client } = await start(folder));
  expect((await client.threads.get(thread.thread_id)).config?.configurable).toMatchObject({
    time_zone: "Mars/Olympus",
  });

  await client.runs.wait(thread.thread_id, "tempo", { input: THANKS });
  const second = await answered(client, thread.thread_id);
  expect(second.status, server.output().slice(-3000)).toBe("idle");
  expect(second.last).toMatchObject({ type: "ai", content: expect.any(String) });
  expect((await client.runs.list(thread.thread_id)).map((run) => run.status)).toEqual(["success", "success"]);
  expect(server.output()).toContain(
    `thread ${thread.thread_id}: ignored a stored configurable value, its default applies instead: configurable.time_zone must be`,
  );
});
