/** Memory on the PostgresStore (same database as the checkpoints): text search, per-user isolation, awkward ids. */
import pg from "pg";
import type { MemoryStore } from "../../memory/store.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "../../database/pool.js";
import { createMemoryStore } from "../../memory/store.js";
import { appendConversation, conversationMemory, searchFacts, storeFacts } from "../../memory/long-term.js";
import { loadTaskState, saveTaskState, EMPTY_TASK_STATE } from "../../memory/task-state.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";

describe.each(postgresTargets())("$kind postgres", (target) => {
  let server: TestPostgres;
  let database: Database;
  let store: MemoryStore;

  beforeAll(async () => {
    server = await target.start();
    database = await openDatabase({ databaseUrl: server.url, poolSize: 4 });
    store = await createMemoryStore(database);
    // A second setup (another process starting) is harmless.
    await (await createMemoryStore(database)).stop();
  });

  afterAll(async () => {
    await store?.stop();
    await database?.close();
    await server?.stop();
  });

  test("facts are found by text search, only under their user, whatever characters the ids hold", async () => {
    const time = "2026-01-01T00:00:00Z";
    await storeFacts(
      store,
      "user_1%",
      ["I prefer studying calculus in the morning", "I never study after 22:00"],
      "user",
      time,
    );
    await storeFacts(store, "user_10", ["I prefer studying calculus at night"], "user", time);
    await storeFacts(store, "user.1", ["My exam is in the library"], "user", time);
    expect((await searchFacts(store, "user_1%", "calculus morning")).map((fact) => fact.text)).toEqual([
      "I prefer studying calculus in the morning",
    ]);
    expect((await searchFacts(store, "user_10", "calculus")).map((fact) => fact.text)).toEqual([
      "I prefer studying calculus at night",
    ]);
    expect(await searchFacts(store, "user_1", "calculus")).toEqual([]);
    expect((await searchFacts(store, "user.1", "library exam")).map((fact) => fact.text)).toEqual([
      "My exam is in the library",
    ]);
  });

  test("many concurrent text searches on a small pool all finish (no pool deadlock)", async () => {
    const small = await createMemoryStore(database, { poolSize: 4 });
    try {
      await storeFacts(small, "busy", ["I prefer green tea while studying"], "user", "2026-01-01T00:00:00Z");
      const searches = Array.from({ length: 20 }, () => searchFacts(small, "busy", "green tea studying"));
      const results = await Promise.race([
        Promise.all(searches),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("searches hung")), 120_000)),
      ]);
      expect(results.map((facts) => facts.map((fact) => fact.text))).toEqual(
        Array(20).fill(["I prefer green tea while studying"]),
      );
    } finally {
      await small.stop();
    }
  });

  test("TaskState and conversation memory round-trip per user and thread", async () => {
    await saveTaskState(store, "alice", {
      ...EMPTY_TASK_STATE,
      currentGoal: "Pass calculus",
      importantFacts: ["The user prefers mornings"],
      updatedAt: "t",
    });
    expect(await loadTaskState(store, "alice")).toMatchObject({
      currentGoal: "Pass calculus",
      importantFacts: ["The user prefers mornings"],
    });
    expect((await loadTaskState(store, "bob")).currentGoal).toBe("");
    await appendConversation(store, "alice", "thread_1", { summary: "first", createdAt: "2026-01-01T00:00:01Z" });
    await appendConversation(store, "alice", "thread_1", { summary: "second", createdAt: "2026-01-01T00:00:02Z" });
    await appendConversation(store, "alice", "thread_2", {
      summary: "other thread",
      createdAt: "2026-01-01T00:00:03Z",
    });
    expect((await conversationMemory(store, "alice", "thread_1")).map((entry) => entry.summary)).toEqual([
      "first",
      "second",
    ]);
    expect(await conversationMemory(store, "bob", "thread_1")).toEqual([]);
  });
  test("a batch of gets, or of puts, is one statement and answers as PostgresStore answers each", async () => {
    // Every statement on any client (PostgresStore runs its operations on a client it takes from its pool).
    let statements = 0;
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      statements += 1;
      return (query as (...given: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    const namespace = ["tempo", "approvals", "batch-thread"];
    try {
      await store.put(namespace, "kept", { call: "old" });
      const created = (await store.get(namespace, "kept"))!.createdAt;
      statements = 0;
      await store.batch([
        { namespace, key: "kept", value: { call: "new" } },
        { namespace, key: "twice", value: { call: "first" } },
        { namespace, key: "twice", value: { call: "second" } },
        { namespace: ["tempo", "approvals", "other-thread"], key: "kept", value: { call: "elsewhere" } },
      ]);
      expect(statements).toBe(1);
      statements = 0;
      const gets = [
        { namespace, key: "kept" },
        { namespace, key: "missing" },
        { namespace, key: "twice" },
        { namespace: ["tempo", "approvals", "other-thread"], key: "kept" },
        { namespace, key: "kept" },
      ];
      const together = await store.batch(gets);
      expect(statements).toBe(1);
      expect(together.map((item) => item?.value ?? null)).toEqual([
        { call: "new" },
        null,
        { call: "second" },
        { call: "elsewhere" },
        { call: "new" },
      ]);
      // The same items PostgresStore reads one at a time: namespace, key, value and times (an update keeps its creation).
      expect(together).toEqual(await store.inner.batch(gets));
      expect(together[0]!.createdAt).toEqual(created);
      expect(together[0]!.namespace).toEqual(namespace);
    } finally {
      pg.Client.prototype.query = query;
    }
  });
});
