/**
 * The Postgres execution log and the runner's exactly-once rule, on every target: entries in order, per thread; a
 * completed write is answered from the log without touching the domain; the log claims a write and the domain
 * applies it in one transaction (both or neither); two runs claiming one write at once apply it once; the database
 * refuses a second completed entry for a write; the step transitions that name step snapshots.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  EXECUTION_LOG_TABLE,
  migrateExecutionLog,
  PostgresExecutionLog,
  readExecutionLog,
  stepSnapshotMarker,
  stepTransitions,
} from "../../checkpoints/index.js";
import { openDatabase, type Database } from "../../database/index.js";
import type { PlanStep } from "../../kernel/state.js";
import type { ToolDomain } from "../../tools/domain.js";
import { runTool, type ExecutionLogEntry, type ToolRunContext } from "../../tools/runner.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  PostgresScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";
import { loggedOutcomes } from "../../review/write-facts.js";

const context = (threadId: string, userId = "log-user"): ToolRunContext => ({ threadId, userId, stepId: "step-1" });

/** A pending review task of the sample week and a place call that fits it. */
function placeCall(id: string) {
  return { id, name: "place", arguments: { task_id: "derivative-drills", day: 4, slot_start: 1 } };
}

/** The log, except that its first `completed` look answers "none": a run that asked before another run wrote. */
function blindOnce(log: PostgresExecutionLog): PostgresExecutionLog {
  let looked = false;
  return Object.assign(Object.create(log) as PostgresExecutionLog, {
    completed: async (toolCallId: string, threadId?: string) =>
      looked ? log.completed(toolCallId, threadId) : ((looked = true), undefined),
  });
}

function entry(threadId: string, toolCallId: string, overrides: Partial<ExecutionLogEntry> = {}): ExecutionLogEntry {
  const at = new Date();
  return {
    threadId,
    userId: "u",
    stepId: null,
    toolCallId,
    tool: "place",
    kind: "write",
    arguments: {},
    result: "r",
    ok: true,
    applied: true,
    startedAt: at,
    finishedAt: at,
    ...overrides,
  };
}

describe.each(postgresTargets())("$kind postgres", (target) => {
  let server: TestPostgres | undefined;
  let database: Database | undefined;

  beforeAll(async () => {
    server = await target.start();
    database = await openDatabase({ databaseUrl: server.url, poolSize: 4 });
  });

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  test("reads back nothing before the table exists; the migration is idempotent and runs from many callers at once", async () => {
    expect(await readExecutionLog(database!.pool, "no-such-thread")).toEqual([]);
    await Promise.all([
      migrateExecutionLog(database!.pool),
      migrateExecutionLog(database!.pool),
      new PostgresExecutionLog(database!.pool).migrate(),
    ]);
    await migrateExecutionLog(database!.pool);
    const table = await database!.pool.query("SELECT to_regclass($1) AS name", [EXECUTION_LOG_TABLE]);
    expect(table.rows[0]?.name).toBe(EXECUTION_LOG_TABLE);
  });

  test("a write's entry commits in the repository's transaction; a repeat is answered from the log, never run", async () => {
    const log = new PostgresExecutionLog(database!.pool);
    const repository = new PostgresScheduleRepository(database!.pool);
    await repository.seed("log-user", sampleWeek());
    const domain = createScheduleDomain({ repository });
    const threadId = `log-write-${target.kind}`;

    const first = await runTool(domain, context(threadId), placeCall("call-w1"), log);
    expect(first).toMatchObject({ ok: true, applied: true });
    expect(first.content).toMatch(/^placed task derivative-drills/);

    // The same call again (a resume after a crash): the domain is not even loaded.
    const untouchable: ToolDomain<ScheduleState> = {
      ...domain,
      load: () => Promise.reject(new Error("the domain must not be loaded")),
      persist: () => Promise.reject(new Error("the domain must not be written")),
    };
    const again = await runTool(untouchable, context(threadId), placeCall("call-w1"), log);
    expect(again).toEqual({ ok: true, applied: false, content: first.content });

    const entries = await readExecutionLog(database!.pool, threadId);
    expect(entries.map((row) => [row.toolCallId, row.status, row.applied, row.result])).toEqual([
      ["call-w1", "completed", true, first.content],
      ["call-w1", "replayed", false, first.content],
    ]);
    expect(entries[0]).toMatchObject({
      threadId,
      userId: "log-user",
      stepId: "step-1",
      tool: "place",
      kind: "write",
      arguments: placeCall("x").arguments,
      ok: true,
    });
    expect(entries[0]!.finishedAt.getTime()).toBeGreaterThanOrEqual(entries[0]!.startedAt.getTime());
  });

  test("a run that asked the log before another completed the write (no lock between them) replays that write's result, never a second completed entry or a raw duplicate-key error", async () => {
    const log = new PostgresExecutionLog(database!.pool);
    const repository = new PostgresScheduleRepository(database!.pool);
    await repository.seed("race-user", sampleWeek());
    const domain = createScheduleDomain({ repository });
    const threadId = `log-race-${target.kind}`;
    // The second run asked the log before the first recorded its write: it finds nothing and goes to the repository.
    let asked = 0;
    const blind: typeof log = Object.assign(Object.create(log) as typeof log, {
      completed: async (id: string, thread?: string) => (asked++ === 0 ? undefined : log.completed(id, thread)),
    });
    const first = await runTool(domain, context(threadId, "race-user"), placeCall("call-race"), log);
    const second = await runTool(domain, context(threadId, "race-user"), placeCall("call-race"), blind);
    expect(first).toMatchObject({ ok: true, applied: true });
    // It finds the task placed, then the log's entry: it answers with the first run's result.
    expect(second).toEqual({ ok: true, applied: false, content: first.content });
    const entries = await readExecutionLog(database!.pool, threadId);
    expect(entries.map((row) => [row.status, row.applied])).toEqual([
      ["completed", true],
      ["replayed", false],
    ]);
  });

  test("a write that fails in its transaction leaves neither the change nor a completed entry, and runs again", async () => {
    const log = new PostgresExecutionLog(database!.pool);
    const repository = new PostgresScheduleRepository(database!.pool);
    await repository.seed("log-user-2", sampleWeek());
    const domain = createScheduleDomain({ repository });
    const threadId = `log-fail-${target.kind}`;
    // The change is made through the runner's transaction, then something fails before it commits, once.
    let failures = 1;
    const failing: ToolDomain<ScheduleState> = {
      ...domain,
      persist: async (userId, before, after, options) => {
        const result = await domain.persist(userId, before, after, options);
        if (failures-- > 0) throw new Error("failed after the change, before the commit");
        return result;
      },
    };
    await expect(runTool(failing, context(threadId, "log-user-2"), placeCall("call-f1"), log)).rejects.toThrow(
      "failed after the change",
    );
    const schedule = await repository.load("log-user-2");
    expect(schedule.tasks.find((task) => task.id === "derivative-drills")).toMatchObject({ status: "pending" });
    expect((await readExecutionLog(database!.pool, threadId)).map((row) => row.status)).toEqual(["failed"]);

    const retried = await runTool(failing, context(threadId, "log-user-2"), placeCall("call-f1"), log);
    expect(retried).toMatchObject({ ok: true, applied: true });
    expect((await readExecutionLog(database!.pool, threadId)).map((row) => row.status)).toEqual([
      "failed",
      "completed",
    ]);
  });

  /** A seeded schedule whose domain counts the changes it persists. */
  async function countedSchedule(userId: string) {
    const repository = new PostgresScheduleRepository(database!.pool);
    await repository.seed(userId, sampleWeek());
    let persisted = 0;
    const domain = createScheduleDomain({ repository });
    const counting: ToolDomain<ScheduleState> = {
      ...domain,
      persist: async (...args) => ((persisted += 1), domain.persist(...args)),
    };
    return { repository, counting, applies: () => persisted };
  }

  test("two runs claiming one write at the same moment (neither saw the other's entry) apply it once; the other replays it", async () => {
    const log = new PostgresExecutionLog(database!.pool);
    const { repository, counting, applies } = await countedSchedule("claim-user");
    const threadId = `log-claim-${target.kind}`;
    // Both asked the log before either wrote: each goes on to claim the write.
    const results = await Promise.all(
      [1, 2].map(() => runTool(counting, context(threadId, "claim-user"), placeCall("call-claim"), blindOnce(log))),
    );
    expect(results.map((result) => result.applied).sort()).toEqual([false, true]);
    expect(applies()).toBe(1);
    expect((await repository.load("claim-user")).tasks.find((task) => task.id === "derivative-drills")).toMatchObject({
      status: "placed",
    });
    expect((await readExecutionLog(database!.pool, threadId)).filter((row) => row.status === "completed")).toHaveLength(
      1,
    );
  });

  test("a run that asked before the other wrote but loads after it commits answers from the winner's entry", async () => {
    const log = new PostgresExecutionLog(database!.pool);
    const { counting, applies } = await countedSchedule("late-user");
    const threadId = `log-late-${target.kind}`;
    const first = await runTool(counting, context(threadId, "late-user"), placeCall("call-late"), log);
    // The second saw no entry when it asked, then ran on the state the first had committed.
    const second = await runTool(counting, context(threadId, "late-user"), placeCall("call-late"), blindOnce(log));
    expect(first.applied).toBe(true);
    expect(second).toEqual({ ok: first.ok, applied: false, content: first.content });
    expect(applies()).toBe(1);
    const rows = await readExecutionLog(database!.pool, threadId);
    expect(rows.map((row) => row.status)).toEqual(["completed", "replayed"]);
  });

  test("with an in-memory repository the log's claim still makes a repeat run once", async () => {
    const log = new PostgresExecutionLog(database!.pool);
    const repository = new InMemoryScheduleRepository();
    await repository.seed("mem-user", sampleWeek());
    const domain = createScheduleDomain({ repository });
    const threadId = `log-memory-${target.kind}`;
    const first = await runTool(domain, context(threadId, "mem-user"), placeCall("call-m1"), log);
    const second = await runTool(domain, context(threadId, "mem-user"), placeCall("call-m1"), log);
    expect(second).toEqual({ ok: true, applied: false, content: first.content });
    expect((await repository.load("mem-user")).tasks.find((task) => task.id === "derivative-drills")).toMatchObject({
      status: "placed",
    });
  });

  test("the outcomes of a card's calls are read in one query: the first completed entry of each, on that thread only", async () => {
    const log = new PostgresExecutionLog(database!.pool);
    const thread = "many-thread";
    await log.append(entry(thread, "many-a", { status: "failed", result: "failed first", ok: false, applied: false }));
    await log.append(entry(thread, "many-a", { result: "a applied" }));
    await log.append(entry(thread, "many-b", { kind: "read", result: "b first", applied: false }));
    await log.append(entry(thread, "many-b", { kind: "read", result: "b second", applied: false }));
    await log.append(entry("other-thread", "many-c", { result: "c elsewhere" }));
    let queries = 0;
    const pool = database!.pool;
    const query = pool.query.bind(pool);
    (pool as { query: unknown }).query = (...args: Parameters<typeof pool.query>) => {
      queries += 1;
      return (query as (...given: unknown[]) => unknown)(...args);
    };
    try {
      const outcomes = await loggedOutcomes(["many-a", "many-b", "many-c", "many-d"], log, thread);
      expect(Object.fromEntries(outcomes)).toEqual({
        "many-a": { ok: true, content: "a applied", applied: true },
        "many-b": { ok: true, content: "b first", applied: false },
      });
      expect(queries).toBe(1);
    } finally {
      (pool as { query: unknown }).query = query;
    }
    for (const id of ["many-a", "many-b", "many-c", "many-d"])
      expect((await loggedOutcomes([id], log, thread)).get(id)).toEqual(await log.completed(id, thread));
  });

  test("reads are logged in order per thread; the database refuses a second completed entry for one write", async () => {
    const log = new PostgresExecutionLog(database!.pool);
    const repository = new InMemoryScheduleRepository();
    await repository.seed("reader", sampleWeek());
    const domain = createScheduleDomain({ repository });
    const threadId = `log-reads-${target.kind}`;
    for (const [index, name] of ["get_overview", "list_tasks", "no_such_tool"].entries()) {
      await runTool(domain, context(threadId, "reader"), { id: `read-${index}`, name, arguments: {} }, log);
    }
    await log.append(entry(`other-${target.kind}`, "elsewhere"));
    const entries = await readExecutionLog(database!.pool, threadId);
    expect(entries.map((row) => [row.tool, row.kind, row.ok])).toEqual([
      ["get_overview", "read", true],
      ["list_tasks", "read", true],
      ["no_such_tool", "unknown", false],
    ]);

    await log.append(entry(threadId, "dup"));
    await expect(log.append(entry(threadId, "dup"))).rejects.toMatchObject({ code: "23505" });
    await log.append(entry(threadId, "dup", { status: "replayed", applied: false }));
    expect(await log.completed("dup", threadId)).toEqual({ ok: true, content: "r", applied: true });
    expect(await log.completed("dup", "another-thread")).toBeUndefined();
  });
});

describe("step transitions", () => {
  const step = (id: string, status: PlanStep["status"]): PlanStep => ({ id, content: id, doneWhen: "", status });

  test("a step becoming running, done or failed is a transition; pending, skipped and unchanged steps are not", () => {
    expect(stepTransitions([], [step("s1", "running"), step("s2", "pending")])).toEqual([
      { stepId: "s1", status: "running" },
    ]);
    expect(stepTransitions([step("s1", "running")], [step("s1", "running")])).toEqual([]);
    expect(
      stepTransitions([step("s1", "running"), step("s2", "pending")], [step("s1", "done"), step("s2", "skipped")]),
    ).toEqual([{ stepId: "s1", status: "done" }]);
    expect(stepTransitions([step("s1", "running")], [step("s1", "failed")])).toEqual([
      { stepId: "s1", status: "failed" },
    ]);
  });

  test("a checkpoint with several transitions is named after the last in plan order and lists them all", () => {
    expect(
      stepSnapshotMarker([step("s1", "running"), step("s2", "pending")], [step("s1", "done"), step("s2", "running")]),
    ).toEqual({
      stepId: "s2",
      status: "running",
      transitions: [
        { stepId: "s1", status: "done" },
        { stepId: "s2", status: "running" },
      ],
    });
    expect(stepSnapshotMarker([step("s1", "pending")], [step("s1", "pending")])).toBeUndefined();
  });
});
