import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createCheckpointer } from "../../checkpoints/index.js";
import { openDatabase, withAdvisoryLock, type Database } from "../../database/index.js";
import { ConfigurationError } from "../../errors/index.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";

const run = promisify(execFile);

const CounterState = Annotation.Root({
  count: Annotation<number>({ reducer: (left, right) => left + right, default: () => 0 }),
  visited: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

/** A two-node graph: enough to produce several checkpoints and channel blobs. */
function counterGraph() {
  return new StateGraph(CounterState)
    .addNode("first", () => ({ count: 1, visited: ["first"] }))
    .addNode("second", () => ({ count: 10, visited: ["second"] }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END);
}

async function migrationVersions(database: Database, schema: string): Promise<number[]> {
  const result = await database.pool.query<{ v: number }>(`SELECT v FROM "${schema}".checkpoint_migrations ORDER BY v`);
  return result.rows.map((row) => row.v);
}

async function checkpointTables(database: Database, schema: string): Promise<string[]> {
  const result = await database.pool.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
    [schema],
  );
  return result.rows.map((row) => row.table_name);
}

describe.each(postgresTargets())("createCheckpointer on $kind Postgres", (target) => {
  let server: TestPostgres;
  const opened: Database[] = [];

  async function open(poolSize = 5): Promise<Database> {
    const database = await openDatabase({ databaseUrl: server.url, poolSize });
    opened.push(database);
    return database;
  }

  beforeAll(async () => {
    server = await target.start();
  });

  afterAll(async () => {
    await Promise.allSettled(opened.map((database) => database.close()));
    await server?.stop();
  });

  it("stores a graph's checkpoints that a new saver on a new pool reads back", async () => {
    const config = { configurable: { thread_id: `thread-${target.kind}` } };
    const writer = await open();
    const graph = counterGraph().compile({ checkpointer: await createCheckpointer(writer) });
    const result = await graph.invoke({ count: 0 }, config);
    expect(result).toEqual({ count: 11, visited: ["first", "second"] });
    await writer.close();

    const reader = await open();
    const saver = await createCheckpointer(reader);
    const state = await counterGraph().compile({ checkpointer: saver }).getState(config);
    expect(state.values).toEqual({ count: 11, visited: ["first", "second"] });
    expect(state.next).toEqual([]);

    const history = [];
    for await (const tuple of saver.list(config)) history.push(tuple);
    // input, after first, after second (plus the initial empty checkpoint)
    expect(history.length).toBeGreaterThanOrEqual(3);
    expect(history[0]?.checkpoint.id).toBe(state.config.configurable?.checkpoint_id);
  });

  it("keeps checkpoints in the schema it is given", async () => {
    const database = await open();
    const saver = await createCheckpointer(database, { schema: "tempo_custom" });
    expect(await checkpointTables(database, "tempo_custom")).toEqual([
      "checkpoint_blobs",
      "checkpoint_migrations",
      "checkpoint_writes",
      "checkpoints",
    ]);
    const config = { configurable: { thread_id: "schema-thread" } };
    await counterGraph().compile({ checkpointer: saver }).invoke({ count: 5 }, config);
    const stored = await database.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM tempo_custom.checkpoints WHERE thread_id = 'schema-thread'",
    );
    expect(Number(stored.rows[0]?.n)).toBeGreaterThanOrEqual(3);
    const inPublic = await database.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'checkpoints'",
    );
    // Only the other tests' default-schema tables may be in public; this thread is not.
    if (Number(inPublic.rows[0]?.n) > 0) {
      const leaked = await database.pool.query("SELECT 1 FROM public.checkpoints WHERE thread_id = 'schema-thread'");
      expect(leaked.rowCount).toBe(0);
    }
  });

  it("rejects a schema name PostgresSaver could not quote safely", async () => {
    const database = await open(1);
    await expect(createCheckpointer(database, { schema: 'bad"; DROP TABLE x; --' })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(createCheckpointer(database, { schema: "" })).rejects.toMatchObject({ code: "INVALID_CONFIGURATION" });
  });

  it("sets up from 3 pools at once, and again, without errors", async () => {
    const schema = "tempo_concurrent";
    const pools = await Promise.all([open(), open(), open()]);
    const first = await Promise.allSettled(pools.map((database) => createCheckpointer(database, { schema })));
    expect(first.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    const versions = await migrationVersions(pools[0]!, schema);
    expect(versions).toEqual([0, 1, 2, 3, 4]);

    const second = await Promise.allSettled(pools.map((database) => createCheckpointer(database, { schema })));
    expect(second.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    expect(await migrationVersions(pools[1]!, schema)).toEqual(versions);
    expect(await checkpointTables(pools[2]!, schema)).toHaveLength(4);
  });

  it("runs advisory-locked sections one at a time", async () => {
    const pools = await Promise.all([open(2), open(2), open(2)]);
    const events: string[] = [];
    await Promise.all(
      pools.map((database, index) =>
        withAdvisoryLock(database.pool, "tempo:test:serial", async () => {
          events.push(`enter ${index}`);
          await database.pool.query("SELECT pg_sleep(0.05)");
          events.push(`exit ${index}`);
        }),
      ),
    );
    expect(events).toHaveLength(6);
    for (let i = 0; i < events.length; i += 2) {
      const enter = events[i]!;
      expect(enter.startsWith("enter")).toBe(true);
      expect(events[i + 1]).toBe(enter.replace("enter", "exit"));
    }
  });

  it("returns fn's value, releases the lock when fn throws, and takes integer keys", async () => {
    const database = await open(1);
    await expect(withAdvisoryLock(database.pool, 42, async () => "done")).resolves.toBe("done");
    await expect(
      withAdvisoryLock(database.pool, "tempo:test:throws", async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    // A pool of 1 still works inside the lock: the lock has its own connection.
    await expect(
      withAdvisoryLock(
        database.pool,
        "tempo:test:throws",
        async () => (await database.pool.query("SELECT 7 AS n")).rows[0],
      ),
    ).resolves.toEqual({
      n: 7,
    });
    const held = await database.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'",
    );
    expect(Number(held.rows[0]?.n)).toBe(0);
  });

  if (target.kind === "real") {
    it("holds a real advisory lock that other sessions see", async () => {
      const database = await open(2);
      const other = await database.pool.connect();
      try {
        const seen = await withAdvisoryLock(database.pool, "tempo:test:visible", async () => {
          const result = await other.query<{ got: boolean }>(
            "SELECT pg_try_advisory_lock(hashtextextended('tempo:test:visible', 0)) AS got",
          );
          return result.rows[0]?.got;
        });
        expect(seen).toBe(false);
        const after = await other.query<{ got: boolean }>(
          "SELECT pg_try_advisory_lock(hashtextextended('tempo:test:visible', 0)) AS got",
        );
        expect(after.rows[0]?.got).toBe(true);
        await other.query("SELECT pg_advisory_unlock(hashtextextended('tempo:test:visible', 0))");
      } finally {
        other.release();
      }
    });

    it("sets up from 3 processes at once (the advisory lock, not an in-process queue, serialises them)", async () => {
      const script = fileURLToPath(new URL("../support/setup-checkpointer-process.ts", import.meta.url));
      const schema = "tempo_multiprocess";
      const startAt = String(Date.now() + 4_000); // all three reach setup() at the same moment
      const outcomes = await Promise.allSettled(
        [0, 1, 2].map(() =>
          run(process.execPath, ["--import", "tsx", script, server.url, schema, startAt], { timeout: 300_000 }),
        ),
      );
      const failures = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [String(outcome.reason)] : []));
      expect(failures).toEqual([]);
      const database = await open(1);
      expect(await migrationVersions(database, schema)).toEqual([0, 1, 2, 3, 4]);
    });
  }
});
