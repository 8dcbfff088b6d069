import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  InvalidScheduleError,
  ScheduleConflictError,
  diffScheduleState,
  canonicalScheduleState,
  migrateScheduleTables,
  PostgresScheduleRepository,
  SCHEDULE_FORMAT_VERSION,
  SCHEDULE_MIGRATION_STATEMENTS,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { inTransaction } from "../../database/index.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { repositoryContract } from "./repository-contract.js";
import { pending, write } from "./support.js";
import { oneEventCalendar } from "../support/calendars.js";

/** A task's row as the code before format 2 wrote it (no series column), in the column order of the INSERT below. */
function formatOneRow(task: ScheduleState["tasks"][number], ordinal: number): unknown[] {
  if (task.source === "event")
    return [
      task.id,
      ordinal,
      "event",
      task.name,
      JSON.stringify(task.slots),
      task.canEmbed,
      task.locked,
      null,
      null,
      null,
      null,
      "{}",
    ];
  const { dueBefore, priority, earliestDay } = task;
  return [
    task.id,
    ordinal,
    "task_item",
    task.name,
    JSON.stringify(task.slots ?? []),
    null,
    null,
    task.duration,
    task.categoryId,
    task.status,
    task.embeddedIn ?? null,
    JSON.stringify({
      ...(dueBefore ? { dueBefore } : {}),
      ...(priority ? { priority } : {}),
      ...(earliestDay ? { earliestDay } : {}),
    }),
  ];
}

/**
 * The window row of user "old-user" as older code wrote it: without the format column (format 1, the column's default
 * once added), or with `formatVersion`.
 */
async function insertOldWindow(pool: pg.Pool, week: ScheduleState, formatVersion?: number): Promise<void> {
  await pool.query(
    `INSERT INTO tempo_schedule_windows (user_id, total_days, slots_per_day, days, categories, calendar${formatVersion === undefined ? "" : ", format_version"})
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb${formatVersion === undefined ? "" : ", $7"})`,
    [
      "old-user",
      week.window.totalDays,
      week.window.slotsPerDay,
      JSON.stringify(week.window.days),
      JSON.stringify(week.categories),
      JSON.stringify({ timeZone: week.window.timeZone, slotTimes: week.window.slotTimes }),
      ...(formatVersion === undefined ? [] : [formatVersion]),
    ],
  );
}

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

  it("loads a schedule in one query, the same schedule as was stored; none stored: the default, also in one", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const stored = write("place", sampleWeek(), { task_id: "review-limits", day: 1, slot_start: 9 });
    await repository.seed("one-query-user", stored);
    let queries = 0;
    const query = pool.query.bind(pool);
    (pool as { query: unknown }).query = (...args: unknown[]) => {
      queries += 1;
      return (query as (...given: unknown[]) => unknown)(...args);
    };
    try {
      expect(await repository.load("one-query-user")).toEqual(stored);
      expect(queries).toBe(1);
      await repository.load("nobody-stored");
      expect(queries).toBe(2);
    } finally {
      (pool as { query: unknown }).query = query;
    }
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

  it("stores a removed task put back by restore_task and placed again (the undo of a removal)", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const before = write("place", sampleWeek(), { task_id: "matrix-review", day: 2, slot_start: 9 });
    await repository.seed("restore-user", before);
    const task = before.tasks.find((entry) => entry.id === "matrix-review");
    const removed = write("remove_task", before, { task_id: "matrix-review" });
    await repository.applyChanges("restore-user", diffScheduleState(before, removed), { applyId: "remove-1" });
    const pendingTask = { ...task, status: "pending", slots: undefined, embeddedIn: undefined };
    const restored = write("restore_task", removed, { task: JSON.parse(JSON.stringify(pendingTask)) });
    await repository.applyChanges("restore-user", diffScheduleState(removed, restored), { applyId: "restore-1" });
    const again = write("place", restored, { task_id: "matrix-review", day: 2, slot_start: 9 });
    await repository.applyChanges("restore-user", diffScheduleState(restored, again), { applyId: "place-1" });
    const loaded = await repository.load("restore-user");
    expect(loaded.tasks.find((entry) => entry.id === "matrix-review")).toEqual(task);
    expect(loaded.tasks.find((entry) => entry.id === "tue-programming-lab")).toMatchObject({
      embeds: ["matrix-review"],
    });
  });

  it("stores a removed done task put back with its history, the hall it was done in listing it again", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const placed = write("place", sampleWeek(), { task_id: "matrix-review", day: 2, slot_start: 9 });
    const before = write("mark_done", placed, { task_id: "matrix-review" });
    await repository.seed("history-user", before);
    const task = before.tasks.find((entry) => entry.id === "matrix-review");
    const removed = write("remove_task", before, { task_id: "matrix-review" });
    await repository.applyChanges("history-user", diffScheduleState(before, removed), { applyId: "remove-h" });
    const restored = write("restore_task", removed, { task: JSON.parse(JSON.stringify(task)) });
    await repository.applyChanges("history-user", diffScheduleState(removed, restored), { applyId: "restore-h" });
    const loaded = await repository.load("history-user");
    expect(loaded.tasks.find((entry) => entry.id === "matrix-review")).toEqual(task);
    expect(task).toMatchObject({ status: "done", embeddedIn: "tue-programming-lab" });
    expect(loaded.tasks.find((entry) => entry.id === "tue-programming-lab")).toMatchObject({
      embeds: ["matrix-review"],
    });
  });

  it("stores an imported series taken back by remove_event: gone with its series, the rest as it was", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const before = sampleWeek();
    await repository.seed("event-user", before);
    const ics = oneEventCalendar("weekly-2", "Weekly seminar", "20240317T080000Z", "20240317T094000Z", [
      "RRULE:FREQ=WEEKLY;COUNT=10",
    ]);
    const imported = write("import_calendar", before, { ics });
    await repository.applyChanges("event-user", diffScheduleState(before, imported), { applyId: "import-e" });
    const seminar = (await repository.load("event-user")).tasks.find((task) => task.name === "Weekly seminar");
    expect(seminar).toMatchObject({ source: "event", series: { rule: { freq: "weekly" } } });
    const removed = write("remove_event", imported, { event_id: seminar!.id });
    await repository.applyChanges("event-user", diffScheduleState(imported, removed), { applyId: "remove-e" });
    expect(canonicalScheduleState(await repository.load("event-user"))).toEqual(canonicalScheduleState(before));
  });

  it("keeps a habit's sessions tied to their habit across a save and a load", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const before = sampleWeek();
    await repository.seed("habit-user", before);
    const after = write("add_habit", before, { name: "Vocabulary", times_per_week: 3, duration: 1 });
    await repository.applyChanges("habit-user", diffScheduleState(before, after), { applyId: "habit-1" });
    const groups = (state: ScheduleState) =>
      state.tasks.flatMap((task) => (task.source === "task_item" && task.group ? [[task.id, task.group]] : []));
    expect(groups(after)).toHaveLength(3);
    expect(groups(await repository.load("habit-user"))).toEqual(groups(after));
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

  it("a stored week whose rules no tool writes is refused on load, naming them, and a change to it applies nothing", async () => {
    const repository = new PostgresScheduleRepository(pool);
    const week = sampleWeek();
    const user = "hand-edited-user";
    await repository.seed(user, week);
    const [first, ...rest] = week.categories;
    // As a hand edit or an older Tempo could leave it: blockedDays null (a TypeError on load before), minSession 0
    // and a day of the week 9 (loaded as they were before, for the search to read).
    const broken = [{ ...first, blockedDays: null, minSession: 0, excludedDaysOfWeek: [9] }, ...rest];
    await pool.query("UPDATE tempo_schedule_windows SET categories = $1 WHERE user_id = $2", [
      JSON.stringify(broken),
      user,
    ]);
    const refusal = await repository.load(user).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidScheduleError);
    expect((refusal as InvalidScheduleError).code).toBe("INVALID_INPUT");
    expect((refusal as InvalidScheduleError).problems).toEqual([
      expect.stringMatching(/^as stored for hand-edited-user, categories\.0\.minSession: /),
      expect.stringMatching(/^as stored for hand-edited-user, categories\.0\.excludedDaysOfWeek\.0: /),
      expect.stringMatching(/^as stored for hand-edited-user, categories\.0\.blockedDays: /),
    ]);
    const placed = write("place", week, { task_id: "review-limits", day: 1, slot_start: 9 });
    await expect(
      repository.applyChanges(user, diffScheduleState(week, placed), { applyId: "hand-edited-1" }),
    ).rejects.toBeInstanceOf(InvalidScheduleError);
    const stored = await pool.query("SELECT categories FROM tempo_schedule_windows WHERE user_id = $1", [user]);
    expect(stored.rows[0].categories).toEqual(broken);
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

  it("a schedule stored before series (format 1) migrates forward: nothing lost, series stored after", async () => {
    // A database of its own, made by the migration as it was before format 2 (the statements before the series column).
    const old = await target.start();
    const oldPool = new pg.Pool({ connectionString: old.url, max: 2 });
    try {
      const formatOne = SCHEDULE_MIGRATION_STATEMENTS.slice(0, 5);
      expect(formatOne.join("\n")).not.toMatch(/series|format_version/);
      for (const statement of formatOne) await oldPool.query(statement);
      // The sample week as the code before format 2 wrote it: a window row and one row per task, no series.
      const week = sampleWeek();
      await insertOldWindow(oldPool, week);
      for (const [ordinal, task] of week.tasks.entries())
        await oldPool.query(
          `INSERT INTO tempo_schedule_tasks (user_id, task_id, ordinal, source, name, slots, can_embed, locked, duration,
             category_id, status, embedded_in, attributes)
           VALUES ('old-user', $1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11, $12::jsonb)`,
          formatOneRow(task, ordinal),
        );
      const oneOffs = week.tasks.map((task) => (task.source === "event" ? { ...task, series: undefined } : task));
      const expected = canonicalScheduleState({
        ...week,
        tasks: oneOffs.map((task) => JSON.parse(JSON.stringify(task))),
      });

      // The repository of format 2 migrates on first use: the stored week loads whole, its events one-offs.
      const repository = new PostgresScheduleRepository(oldPool);
      expect(await repository.load("old-user")).toEqual(expected);
      const versions = await oldPool.query("SELECT format_version FROM tempo_schedule_windows");
      expect(versions.rows).toEqual([{ format_version: SCHEDULE_FORMAT_VERSION }]);

      // It takes writes of both formats' shapes: a placement, and an imported series.
      const placed = write("place", expected, { task_id: "review-limits", day: 1, slot_start: 9 });
      await repository.applyChanges("old-user", diffScheduleState(expected, placed), { applyId: "old-1" });
      const lecture = {
        id: "weekly-seminar",
        name: "Weekly seminar",
        source: "event" as const,
        slots: [{ day: 7, start: 11, end: 12 }],
        canEmbed: false,
        locked: false,
        embeds: [],
        series: {
          rule: { freq: "weekly" as const, interval: 1, byDay: [7] },
          firstDate: placed.window.days[6]!.date!,
          start: "20:50",
          end: "22:30",
          timeZone: placed.window.timeZone!,
          cancelled: [],
          moved: [],
        },
      };
      const withSeries = { ...placed, tasks: [...placed.tasks, lecture] };
      await repository.applyChanges("old-user", diffScheduleState(placed, withSeries), { applyId: "old-2" });
      expect(await repository.load("old-user")).toEqual(canonicalScheduleState(withSeries));
      // A roll keeps the series and re-expands it; a later format is refused, never misread.
      await repository.applyChanges("old-user", [{ kind: "roll", days: 7, from: withSeries.window.days[0]! }], {
        applyId: "old-3",
      });
      const rolled = await repository.load("old-user");
      expect(rolled.tasks.find((task) => task.id === "weekly-seminar")).toMatchObject({
        slots: [{ day: 7, start: 11, end: 12 }],
        series: lecture.series,
      });
      const later = SCHEDULE_FORMAT_VERSION + 1;
      await oldPool.query("UPDATE tempo_schedule_windows SET format_version = $1", [later]);
      await expect(repository.load("old-user")).rejects.toThrow(
        new RegExp(`stored in format ${later}, newer than this Tempo's ${SCHEDULE_FORMAT_VERSION}`),
      );
    } finally {
      await oldPool.end();
      await old.stop();
    }
  });

  it("a schedule stored before groups (format 2) migrates to format 3: nothing lost, a habit's group kept after", async () => {
    // A database of its own, made by the migration as it was at format 2 (every statement before format 3's).
    const old = await target.start();
    const oldPool = new pg.Pool({ connectionString: old.url, max: 2 });
    try {
      const formatThree = SCHEDULE_MIGRATION_STATEMENTS.findIndex((statement) => /format_version = 3/.test(statement));
      expect(formatThree).toBeGreaterThan(0);
      for (const statement of SCHEDULE_MIGRATION_STATEMENTS.slice(0, formatThree)) await oldPool.query(statement);
      // The sample week with a review done, as format 2 wrote it: settled, no group anywhere.
      const week = write("place", sampleWeek(), { task_id: "review-limits", day: 1, slot_start: 9 });
      const done = write("mark_done", week, { task_id: "review-limits", at: "2024-03-11T12:00:00.000Z" });
      await insertOldWindow(oldPool, done, 2);
      for (const [ordinal, task] of done.tasks.entries()) {
        const row = formatOneRow(task, ordinal);
        if (task.source === "task_item" && task.markedAt)
          row[11] = JSON.stringify({ ...JSON.parse(String(row[11])), markedAt: task.markedAt });
        await oldPool.query(
          `INSERT INTO tempo_schedule_tasks (user_id, task_id, ordinal, source, name, slots, can_embed, locked, duration,
             category_id, status, embedded_in, attributes, series)
           VALUES ('old-user', $1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11, $12::jsonb, NULL)`,
          row,
        );
      }
      const expected = canonicalScheduleState({
        ...done,
        tasks: done.tasks.map((task) =>
          JSON.parse(JSON.stringify(task.source === "event" ? { ...task, series: undefined } : task)),
        ),
      });

      // This Tempo migrates on first use: the week loads whole, the done review with when, and the row is format 3.
      const repository = new PostgresScheduleRepository(oldPool);
      expect(await repository.load("old-user")).toEqual(expected);
      expect((await oldPool.query("SELECT format_version FROM tempo_schedule_windows")).rows).toEqual([
        { format_version: 3 },
      ]);
      expect(SCHEDULE_FORMAT_VERSION).toBe(3);

      // A habit added after keeps its group through the store; a Tempo of format 2 would refuse the row, not drop it.
      const habit = write("add_habit", expected, { name: "Vocabulary", times_per_week: 2, duration: 1 });
      await repository.applyChanges("old-user", diffScheduleState(expected, habit), { applyId: "habit-1" });
      const loaded = await repository.load("old-user");
      expect(loaded).toEqual(canonicalScheduleState(habit));
      expect(loaded.tasks.filter((task) => task.source === "task_item" && task.group?.kind === "habit")).toHaveLength(
        2,
      );
    } finally {
      await oldPool.end();
      await old.stop();
    }
  });
});
