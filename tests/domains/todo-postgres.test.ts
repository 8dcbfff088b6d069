/**
 * The to-do list on Postgres (PGlite, and PostgreSQL 15 where installed): its tables migrate idempotently, a list
 * round-trips, changes apply all or nothing in their own transaction or the caller's, and through the runner and the
 * Postgres execution log a write applies once per tool-call id, its log entry committed with it.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PostgresExecutionLog, readExecutionLog } from "../../checkpoints/index.js";
import { openDatabase, type Database } from "../../database/index.js";
import { runTool } from "../../tools/runner.js";
import { createTodoDomain, PostgresTodoRepository, sampleTodos, withSampleTodos } from "../../tools/todo/index.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";

for (const target of postgresTargets()) {
  describe(`${target.kind} postgres: the to-do repository`, () => {
    let server: TestPostgres | undefined;
    let database: Database | undefined;
    let repository: PostgresTodoRepository;
    beforeAll(async () => {
      server = await target.start();
      database = await openDatabase({ databaseUrl: server.url, poolSize: 4 });
      repository = new PostgresTodoRepository(database.pool);
      // Two repositories migrating at once: the advisory lock keeps CREATE TABLE from racing.
      await Promise.all([repository.migrate(), new PostgresTodoRepository(database.pool).migrate()]);
    });
    afterAll(async () => {
      await database?.close();
      await server?.stop();
    });

    test("a list round-trips; a user with none has an empty one, and the sample wrapper seeds it once", async () => {
      expect(await repository.load("nobody")).toEqual({ items: [] });
      expect(await repository.has("nobody")).toBe(false);
      await repository.seed("alice", sampleTodos());
      expect(await repository.load("alice")).toEqual(sampleTodos());
      const sampled = withSampleTodos(repository);
      expect(await sampled.load("bob")).toEqual(sampleTodos());
      // An emptied list stays empty: the sample is for a user with no list at all.
      await repository.seed("bob", { items: [] });
      expect(await sampled.load("bob")).toEqual({ items: [] });
    });

    test("changes apply in order; an item added after a removal goes last", async () => {
      await repository.seed("carol", sampleTodos());
      await repository.applyChanges(
        "carol",
        [
          { kind: "remove", id: "todo-2" },
          { kind: "update", item: { id: "todo-3", title: "Buy index cards for flashcards", done: true } },
        ],
        { applyId: "a" },
      );
      await repository.applyChanges("carol", [{ kind: "add", item: { id: "todo-5", title: "New", done: false } }], {
        applyId: "b",
      });
      expect((await repository.load("carol")).items.map((item) => `${item.id}:${item.done}`)).toEqual([
        "todo-1:false",
        "todo-3:true",
        "todo-4:true",
        "todo-5:false",
      ]);
    });

    test("a batch with a change that no longer fits applies nothing", async () => {
      await repository.seed("dave", sampleTodos());
      await expect(
        repository.applyChanges(
          "dave",
          [
            { kind: "add", item: { id: "todo-9", title: "x", done: false } },
            { kind: "remove", id: "todo-77" },
          ],
          { applyId: "c" },
        ),
      ).rejects.toMatchObject({ name: "TodoConflictError" });
      expect(await repository.load("dave")).toEqual(sampleTodos());
    });

    test("through the runner and the execution log, a write applies once per tool-call id", async () => {
      const log = new PostgresExecutionLog(database!.pool);
      await log.migrate();
      await repository.seed("erin", sampleTodos());
      const domain = createTodoDomain({ repository });
      const context = { userId: "erin", threadId: "todo-thread", stepId: null };
      const call = { id: "call-complete-3", name: "complete_todo", arguments: { id: "todo-3" } };
      const [first, second] = await Promise.all([
        runTool(domain, context, call, log),
        runTool(domain, context, call, log),
      ]);
      expect([first.applied, second.applied].sort()).toEqual([false, true]);
      expect((await repository.load("erin")).items.find((item) => item.id === "todo-3")?.done).toBe(true);
      const entries = (await readExecutionLog(database!.pool, "todo-thread")).filter(
        (entry) => entry.toolCallId === call.id && entry.status === "completed",
      );
      expect(entries.map((entry) => entry.applied)).toEqual([true]);
    });
  });
}
