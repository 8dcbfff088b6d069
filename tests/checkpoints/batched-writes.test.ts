/**
 * The saver's statements (issue 44.8, CPU per conversation): a conversation puts about 40 sets of task writes and 9
 * checkpoints, and PostgresSaver sends one statement a write (in a transaction) and one a channel blob — a round trip
 * and a socket write each. Tempo's saver stores a task's writes in one statement and a checkpoint (its blobs, itself
 * and its claim on its parent) in one, and reads back exactly what PostgresSaver stored: a special channel's write
 * upserted (the last of an index wins), any other write kept when stored again.
 */
import { INTERRUPT } from "@langchain/langgraph-checkpoint";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";

import { createTempoCheckpointer, type TempoPostgresSaver } from "../../checkpoints/tempo-saver.js";
import { openDatabase, type Database } from "../../database/index.js";
import { checkpointWith } from "../support/checkpoints.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";

/** The statements sent to the server while `action` runs (every pooled client's `query`). */
async function statementsOf(action: () => Promise<unknown>): Promise<string[]> {
  const query = vi.spyOn(pg.Client.prototype, "query");
  try {
    await action();
    return query.mock.calls.map(([text]) =>
      typeof text === "string" ? text : ((text as { text?: string }).text ?? "?"),
    );
  } finally {
    query.mockRestore();
  }
}

describe.each(postgresTargets())("Tempo's saver on $kind Postgres: statements a save sends", (target) => {
  let server: TestPostgres;
  let database: Database;
  let saver: TempoPostgresSaver;

  beforeAll(async () => {
    server = await target.start();
    database = await openDatabase({ databaseUrl: server.url, poolSize: 3 });
    saver = await createTempoCheckpointer(database);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  /** Saves a checkpoint on `threadId` and returns its config. */
  async function saved(threadId: string, values: Record<string, unknown> = { goal: "review" }) {
    const checkpoint = checkpointWith(values);
    return saver.put(
      { configurable: { thread_id: threadId, checkpoint_ns: "" } },
      checkpoint,
      { source: "loop", step: 0, parents: {} },
      checkpoint.channel_versions,
    );
  }

  test("a task's writes go in one statement and read back as stored one by one", async () => {
    const config = await saved("batched-writes");
    const writes: Array<[string, unknown]> = [
      ["messages", [{ role: "user", content: "Help me arrange next week's review" }]],
      ["plan", { steps: 3 }],
      ["messages", ["a second write to one channel"]],
      ["branch:to:execute", null],
    ];
    const statements = await statementsOf(() => saver.putWrites(config, writes, "task-1"));
    expect(statements.filter((text) => /checkpoint_writes/.test(text))).toHaveLength(1);
    expect(statements.filter((text) => /^(BEGIN|COMMIT)$/.test(text.trim()))).toEqual([]);
    // Stored again (a retried task): the first writes stay.
    await saver.putWrites(config, [["plan", { steps: 99 }]], "task-1");
    const tuple = await saver.getTuple(config);
    expect(tuple?.pendingWrites).toEqual(writes.map(([channel, value]) => ["task-1", channel, value]));
  });

  test("an interrupt's writes are upserted in one statement: the last of an index wins, as stored in turn", async () => {
    const config = await saved("batched-interrupts");
    const statements = await statementsOf(() =>
      saver.putWrites(
        config,
        [
          [INTERRUPT, [{ value: "first card" }]],
          [INTERRUPT, [{ value: "second card" }]],
        ],
        "task-2",
      ),
    );
    expect(statements.filter((text) => /checkpoint_writes/.test(text))).toHaveLength(1);
    expect((await saver.getTuple(config))?.pendingWrites).toEqual([["task-2", INTERRUPT, [{ value: "second card" }]]]);
    await saver.putWrites(config, [[INTERRUPT, [{ value: "third card" }]]], "task-2");
    expect((await saver.getTuple(config))?.pendingWrites).toEqual([["task-2", INTERRUPT, [{ value: "third card" }]]]);
  });

  test("a checkpoint's channel blobs go in one statement and read back", async () => {
    const values = { goal: "review", plan: { steps: ["read", "arrange"] }, notes: ["a", "b"] };
    let config: Awaited<ReturnType<typeof saved>> | undefined;
    const statements = await statementsOf(async () => {
      config = await saved("batched-blobs", values);
    });
    expect(statements.filter((text) => /checkpoint_blobs/.test(text) && /INSERT/.test(text))).toHaveLength(1);
    expect((await saver.getTuple(config!))?.checkpoint.channel_values).toEqual(values);
  });

  test("a save on top of another is one statement; one that lost its parent's claim stores nothing", async () => {
    const parent = await saved("one-statement-save");
    const child = (values: Record<string, unknown>) => {
      const checkpoint = checkpointWith(values);
      const save = () =>
        saver.put(parent, checkpoint, { source: "loop", step: 1, parents: {} }, checkpoint.channel_versions);
      return { checkpoint, save };
    };
    const first = child({ kept: "first" });
    const statements = await statementsOf(first.save);
    expect(statements.filter((text) => /INSERT/.test(text))).toHaveLength(1);
    expect(statements.filter((text) => /^(BEGIN|COMMIT)$/.test(text.trim()))).toEqual([]);
    // A second run going on from the same checkpoint: refused, and neither its blob nor its checkpoint is stored.
    const second = child({ lost: "second" });
    await expect(second.save()).rejects.toMatchObject({ code: "ALREADY_RESUMED" });
    const stored = (checkpointId: string) =>
      saver.getTuple({
        configurable: { thread_id: "one-statement-save", checkpoint_ns: "", checkpoint_id: checkpointId },
      });
    expect((await stored(first.checkpoint.id))?.checkpoint.channel_values).toEqual({ kept: "first" });
    expect(await stored(second.checkpoint.id)).toBeUndefined();
    const blobs = await database.pool.query(
      "SELECT 1 FROM checkpoint_blobs WHERE thread_id = 'one-statement-save' AND channel = 'lost'",
    );
    expect(blobs.rowCount).toBe(0);
  });
});
