import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ScheduleConflictError,
  diffScheduleState,
  migrateScheduleTables,
  PostgresScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { inTransaction } from "../../database/index.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { repositoryContract } from "./repository-contract.js";
import { pending, write } from "./support.js";

describe.each(postgresTargets())("PostgresScheduleRepository on $kind postgres", (target) => {
  let server: TestPostgres | undefined;
  let pool: pg.Pool;
  const extraPools: pg.Pool[] = [];

  beforeAll(async () => {
    server = await target.start();
    pool = new pg.Pool({ connectionString: server.url, max: 5 });
    await new PostgresScheduleRepository(pool).migrate();
  });

  afterAll(async () => {
    await Promise.all(extraPools.map((extra) => extra.end()));
    await pool?.end();
    await server?.stop();
  });

  repositoryContract({ makeRepository: (options) => new PostgresScheduleRepository(pool, options), roundTripRuns: 25 });

  it("migrates idempotently, also from several processes' pools at once", async () => {
    const pools = [1, 2, 3].map(() => new pg.Pool({ connectionString: server?.url, max: 2 }));
    extraPools.push(...pools);
    await Promise.all(pools.map((each) => migrateScheduleTables(each)));
    await migrateScheduleTables(pool);
    const tables = await pool.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'tempo_schedule_%' ORDER BY table_name",
    );
    // No table of applied ids: the execution log claims each write (tools/runner.ts).
    expect(tables.rows.map((row) => row.table_name)).toEqual(["tempo_schedule_tasks", "tempo_schedule_windows"]);
  });

  it("stores one row per task and writes only the changed rows", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const before = sampleWeek();
    await repository.seed("rows-user", before);
    const after = write("place", before, { task_id: "review-limits", day: 1, slot_start: 9 });
    await repository.applyChanges("rows-user", diffScheduleState(before, after), { applyId: "tool-call-7" });
    const tasks = await pool.query<{ count: string }>("SELECT count(*) FROM tempo_schedule_tasks WHERE user_id = $1", [
      "rows-user",
    ]);
    expect(Number(tasks.rows[0]?.count)).toBe(before.tasks.length);
    const placed = await pool.query(
      "SELECT status, slots, embedded_in FROM tempo_schedule_tasks WHERE user_id = $1 AND task_id = $2",
      ["rows-user", "review-limits"],
    );
    expect(placed.rows).toEqual([
      { status: "placed", slots: [{ day: 1, start: 9, end: 10 }], embedded_in: "mon-study-hall" },
    ]);
  });

  it("applies through the caller's transaction when given one: its rollback undoes the change, its commit keeps it", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const before = sampleWeek();
    await repository.seed("client-user", before);
    const changes = diffScheduleState(
      before,
      write("place", before, { task_id: "review-limits", day: 1, slot_start: 5 }),
    );
    const status = async () => (await repository.load("client-user")).tasks.find((task) => task.id === "review-limits");
    await expect(
      inTransaction(pool, async (client) => {
        await repository.applyChanges("client-user", changes, { applyId: "c-1", client });
        throw new Error("the caller's transaction fails after the change");
      }),
    ).rejects.toThrow("the caller's transaction fails");
    expect(await status()).toMatchObject({ status: "pending" });
    await inTransaction(pool, (client) => repository.applyChanges("client-user", changes, { applyId: "c-1", client }));
    expect(await status()).toMatchObject({ status: "placed" });
  });

  it("changes nothing when the transaction fails", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const before = sampleWeek();
    await repository.seed("rollback-user", before);
    const clash = diffScheduleState(
      before,
      write("place", before, { task_id: "review-limits", day: 1, slot_start: 5 }),
    );
    const conflicting = clash.map((change) =>
      change.kind === "place" ? { ...change, slots: [{ day: 1, start: 1, end: 2 }] } : change,
    );
    await expect(repository.applyChanges("rollback-user", conflicting, { applyId: "doomed" })).rejects.toThrow(
      /overlap/,
    );
    expect(JSON.stringify(await repository.load("rollback-user"))).toBe(JSON.stringify(before));
  });

  it("keeps quotes and SQL-looking text intact (every statement is parameterised)", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const state: ScheduleState = sampleWeek();
    state.tasks.push({
      ...pending("bobby", 1, "english"),
      name: `Robert'); DROP TABLE tempo_schedule_tasks;-- "quoted" \\ 复习`,
    });
    const user = `o'brien"; DELETE FROM tempo_schedule_windows;--`;
    await repository.seed(user, state);
    expect(JSON.stringify(await repository.load(user))).toBe(JSON.stringify(state));
    const tables = await pool.query(
      "SELECT 1 FROM information_schema.tables WHERE table_name = 'tempo_schedule_tasks'",
    );
    expect(tables.rowCount).toBe(1);
  });

  it("reads what another pool wrote (the database, not a cache, is the source of truth)", async () => {
    const writer = new PostgresScheduleRepository(pool);
    const otherPool = new pg.Pool({ connectionString: server?.url, max: 2 });
    extraPools.push(otherPool);
    const reader = new PostgresScheduleRepository(otherPool);
    const before = sampleWeek();
    await writer.seed("shared-user", before);
    const after = write("place", before, { task_id: "essay-draft", day: 7, slot_start: 5 });
    await writer.applyChanges("shared-user", diffScheduleState(before, after), { applyId: "w-1" });
    expect(JSON.stringify(await reader.load("shared-user"))).toBe(JSON.stringify(after));
    // The reader sees the change applied: the same change again is stale there.
    await expect(
      reader.applyChanges("shared-user", diffScheduleState(before, after), { applyId: "w-1" }),
    ).rejects.toBeInstanceOf(ScheduleConflictError);
  });
});
