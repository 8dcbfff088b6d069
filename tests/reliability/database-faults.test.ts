/**
 * Database faults are bounded and recoverable (issue 12.4), on a real
 * PostgreSQL 15 (the embedded server has one session, so no other session's
 * lock can hold it up):
 *
 * - a table lock held by another session longer than `lock_timeout` ends the
 *   run with DATABASE_TIMEOUT in bounded time, not after the lock is gone;
 *   nothing is applied; once the lock is gone, the answer the user gives
 *   again to the card they saw carries the thread on (the run had stopped
 *   with `next` set and no card) and the write applies once;
 * - a lock on the checkpoint table itself refuses the run at its start;
 * - with the server down, `getState`, `getStateHistory`, `invoke` and
 *   `streamEvents` (the LangGraph server's path, here on the served graph's
 *   Postgres schedule repository) report DatabaseUnreachableError, never a
 *   raw driver error.
 */
import { HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import pg from "pg";
import { runPoint } from "../../server/stopped-run.js";
import { describe, expect, test } from "vitest";
import { DatabaseTimeoutError, DatabaseUnreachableError } from "../../errors/index.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import { createScheduleDomain, PostgresScheduleRepository } from "../../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { withSampleSchedule } from "../../tools/schedule/sample-seeding.js";
import { appliedRows } from "../persistence/exactly-once.js";
import {
  accept,
  cardOf,
  seedStudent,
  startUntilFirstWrite,
  studentThread,
  useTempoOnTarget,
} from "../persistence/tempo-on-database.js";
import { startRealTestPostgres } from "../support/postgres.js";
import { thrownBy } from "./support/thread-state.js";
import { writesOnCard } from "../support/card-writes.js";

const LOCK_TIMEOUT_MS = 300;

/**
 * Another session holding `table` in ACCESS EXCLUSIVE mode until `release()`; `holds()` asks the server whether it
 * still does.
 */
async function lockTable(url: string, table: string): Promise<{ holds(): Promise<boolean>; release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("BEGIN");
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return {
    holds: async () =>
      (
        await client.query<{ held: boolean }>(
          "SELECT count(*) > 0 AS held FROM pg_locks WHERE pid = pg_backend_pid() AND mode = 'AccessExclusiveLock' AND granted AND relation = $1::regclass",
          [table],
        )
      ).rows[0]!.held,
    release: async () => {
      await client.query("ROLLBACK");
      await client.end();
    },
  };
}

describe("real postgres", () => {
  const env = useTempoOnTarget(
    { kind: "real", start: startRealTestPostgres },
    { holdThreads: true, databaseOptions: { lockTimeoutMs: LOCK_TIMEOUT_MS, statementTimeoutMs: 5_000 } },
  );

  test("a lock held past lock_timeout ends the run with DATABASE_TIMEOUT; the card's answer, given again, carries the thread on", async () => {
    const threadId = "lock-mid-run";
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const waiting = await env.tempo.graph.getState(studentThread(threadId));
    const callId = writesOnCard(waiting.values)[0]!.id;

    const lock = await lockTable(env.server.url, "tempo_execution_log");
    let failure: unknown;
    let heldAtFailure: boolean | undefined;
    try {
      failure = await thrownBy(env.tempo.graph.invoke(accept(), studentThread(threadId)));
      heldAtFailure = await lock.holds();
    } finally {
      await lock.release();
    }
    // Ended by lock_timeout while the lock was still held, not after it was gone: the other session held it when the
    // run failed, and the cause is lock_not_available (55P03; a statement past statement_timeout would be 57014).
    expect(heldAtFailure).toBe(true);
    expect(failure).toBeInstanceOf(DatabaseTimeoutError);
    expect(failure).toMatchObject({ code: "DATABASE_TIMEOUT", message: expect.stringContaining("lock_timeout") });
    expect((failure as Error).cause).toMatchObject({ code: "55P03" });
    expect(await appliedRows(env.tempo, threadId, callId)).toBe(0);

    // The run stopped where confirm looked the answered card's writes up in the log (reconciling): the card is still
    // open, its task holding the error, waiting for the answer again.
    const stopped = await env.tempo.graph.getState(studentThread(threadId));
    expect(runPoint(stopped)).toBe("waiting");
    expect(stopped.tasks.flatMap((task) => task.interrupts)).toHaveLength(1);
    expect(stopped.tasks.some((task) => task.error !== undefined)).toBe(true);

    // The user answers the card they saw again: the recorded answer carries the run on, and the write applies once.
    const next = await env.tempo.graph.invoke(accept(), studentThread(threadId));
    expect(cardOf(next)).toBe("place");
    expect(await appliedRows(env.tempo, threadId, callId)).toBe(1);
    const after = await env.tempo.graph.getState(studentThread(threadId));
    expect(writesOnCard(after.values)[0]!.id).not.toBe(callId);
  });

  test("a lock on the checkpoint table refuses the run at its start in bounded time; nothing is written; the thread goes on after", async () => {
    const threadId = "lock-checkpoints";
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const before = await env.tempo.graph.getState(studentThread(threadId));

    const lock = await lockTable(env.server.url, "checkpoints");
    let failures: unknown[];
    try {
      failures = [
        await thrownBy(env.tempo.graph.invoke(accept(), studentThread(threadId))),
        await thrownBy(env.tempo.graph.getState(studentThread(threadId))),
      ];
    } finally {
      await lock.release();
    }
    for (const failure of failures)
      expect(failure).toMatchObject({ name: "DatabaseTimeoutError", code: "DATABASE_TIMEOUT" });

    const after = await env.tempo.graph.getState(studentThread(threadId));
    expect(after.config.configurable?.checkpoint_id).toBe(before.config.configurable?.checkpoint_id);
    expect(cardOf(await env.tempo.graph.invoke(accept(), studentThread(threadId)))).toBe("place");
  });

  test("with the server down, getState, getStateHistory, invoke and streamEvents report DatabaseUnreachableError", async () => {
    const threadId = "server-down";
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    // The served graph: the server's own checkpointer, the schedule in Postgres (server/served.ts with DATABASE_URL).
    const servedPool = new pg.Pool({ connectionString: env.server.url, max: 2 });
    servedPool.on("error", () => undefined);
    const served = buildTempoGraph({
      // One write per card: these tests follow a write card, then the next one.
      models: { default: new ScheduleOfflinePolicy({ writesPerCard: 1 }) },
      domain: createScheduleDomain({ repository: withSampleSchedule(new PostgresScheduleRepository(servedPool)) }),
      checkpointer: new MemorySaver(),
    });
    await env.server.stop();
    try {
      const config = studentThread(threadId);
      const reads = [
        await thrownBy(env.tempo.graph.getState(config)),
        await thrownBy(
          (async () => {
            for await (const _snapshot of env.tempo.graph.getStateHistory(config)) break;
          })(),
        ),
        await thrownBy(env.tempo.graph.invoke(accept(), config)),
        await thrownBy(
          (async () => {
            const events = served.streamEvents(
              { messages: [new HumanMessage("Help me arrange next week's review")] },
              { ...studentThread("served"), version: "v2" },
            );
            for await (const _event of events) continue;
          })(),
        ),
      ];
      for (const failure of reads) {
        expect(failure).toBeInstanceOf(DatabaseUnreachableError);
        expect(failure).toMatchObject({
          code: "DATABASE_UNREACHABLE",
          message: expect.stringMatching(/connection to the database|database connection failed/),
        });
        expect((failure as Error).cause).toBeInstanceOf(Error);
      }
    } finally {
      await servedPool.end().catch(() => undefined);
    }
  });
});
