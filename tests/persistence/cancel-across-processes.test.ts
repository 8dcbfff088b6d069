/**
 * A run cancelled while it applies a card's writes, and the thread's next message sent to another worker on the same
 * PostgreSQL 15 database (two graph instances on two pools, each with the Postgres thread lock, as `createTempo`
 * builds them). The cancelled run's node goes on after LangGraph rejected the run — until its next write boundary,
 * where it records the rest of the batch as cancelled — and its thread lease went with the rejected stream, so the
 * other worker carried the thread on beside it and applied writes after the cancel. The thread is now held until the
 * cancelled batch stops. On real PostgreSQL 15 only: the embedded server serves one connection at a time.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import type { TempoCompiledGraph } from "../../server/run-guard.js";
import type { WriteBatches } from "../../review/write-batches.js";
import type { ExecutionLog } from "../../tools/runner.js";
import { postgresTargets } from "../support/postgres.js";
import { thrownBy } from "../reliability/support/thread-state.js";
import { writesOnCard } from "../support/card-writes.js";
import { unpairedToolCalls } from "../support/scripted.js";
import {
  accept,
  openTempoOnDatabase,
  seedStudent,
  startUntilFirstWrite,
  studentOf,
  studentThread,
  useTempoOnTarget,
} from "./tempo-on-database.js";

const real = postgresTargets().filter((target) => target.kind === "real");

describe.each(real)("$kind postgres", (target) => {
  const env = useTempoOnTarget(target, { holdThreads: true, writesPerCard: 8 });

  test("a cancel after write 3 in one worker: the next message in another applies nothing more", async () => {
    const threadId = `cancel-workers-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const batch = writesOnCard((await env.tempo.graph.getState(studentThread(threadId))).values);
    expect(batch.length).toBeGreaterThan(4);
    const other = await openTempoOnDatabase(env.server.url, { holdThreads: true, writesPerCard: 8 });

    // The cancelled worker is held inside its third write (committed, the node not yet past it) until either its run
    // waits, holding the thread, for its batch to stop, or the other worker claims a write of the batch.
    const log = env.tempo.executionLog as ExecutionLog;
    const otherLog = other.executionLog as ExecutionLog;
    const [applyOnce, otherApplyOnce] = [log.applyOnce!, otherLog.applyOnce!];
    const batches = (env.tempo.graph as unknown as TempoCompiledGraph).runGuard.writeBatches as WriteBatches;
    const settled = batches.settled;
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const cancel = new AbortController();
    let claims = 0;
    batches.settled = (id) => (letGo(), settled.call(batches, id));
    log.applyOnce = async (entry, apply) => {
      const claimed = await applyOnce.call(log, entry, apply);
      claims += 1;
      if (claims === 3) {
        cancel.abort("interrupt");
        await held;
      }
      return claimed;
    };
    otherLog.applyOnce = async (entry, apply) => {
      const claimed = await otherApplyOnce.call(otherLog, entry, apply);
      letGo();
      return claimed;
    };
    try {
      const run = env.tempo.graph.stream(accept(), {
        ...studentThread(threadId),
        signal: cancel.signal,
        streamMode: "values",
      });
      expect(
        await thrownBy(
          (async () => {
            for await (const chunk of await run) void chunk;
          })(),
        ),
      ).toBeDefined();
      // The next message, to the other worker, at once.
      await other.graph.invoke({ messages: [new HumanMessage("thanks")] }, studentThread(threadId));
      await batches.settled(threadId);
    } finally {
      log.applyOnce = applyOnce;
      otherLog.applyOnce = otherApplyOnce;
      batches.settled = settled;
      await other.close();
    }

    const applied = await env.tempo.database.pool.query<{ apply_id: string }>(
      "SELECT tool_call_id AS apply_id FROM tempo_execution_log WHERE user_id = $1 AND kind = 'write' AND status = 'completed' AND applied",
      [studentOf(threadId)],
    );
    expect(applied.rows.map((row) => row.apply_id).sort()).toEqual(
      batch
        .slice(0, 3)
        .map((write) => write.id)
        .sort(),
    );
    const values = (await env.tempo.graph.getState(studentThread(threadId))).values as { messages: BaseMessage[] };
    expect(unpairedToolCalls(values.messages)).toEqual([]);
    const report = values.messages
      .map((message) => String(message.content))
      .find((text) => text.startsWith("Finished"));
    expect(report).toContain("Changes applied (they stay): 3 — ");
    expect(report).toContain(`Approved but not applied: ${batch.length - 3} — `);
  });
});
