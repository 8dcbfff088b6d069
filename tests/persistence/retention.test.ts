/**
 * Checkpoint retention on every target: `pruneCheckpoints` keeps the latest N checkpoints and every step snapshot,
 * removes the rest with their writes and unreferenced blobs, and leaves getState, getStateHistory, stepSnapshots and
 * the thread's next runs (including answering an open interrupt) working. The message list is a delta channel: the
 * kept checkpoints whose parent goes get its value stored, so every kept checkpoint reads the same messages.
 */
import type { StateSnapshot } from "@langchain/langgraph";
import { v6 } from "@langchain/core/utils/uuid";
import { describe, expect, test } from "vitest";
import { pruneCheckpoints } from "../../checkpoints/index.js";
import { stepSnapshots } from "../../server/execution-state.js";
import { uuid6Time } from "../../checkpoints/orphan-writes.js";
import { postgresTargets } from "../support/postgres.js";
import { appliedRows } from "./exactly-once.js";
import {
  continueThread,
  useTempoOnTarget,
  seedStudent,
  startUntilFirstWrite,
  studentThread,
  userMessage,
  type TempoOnDatabase,
} from "./tempo-on-database.js";
import { writesOnCard } from "../support/card-writes.js";

async function history(tempo: TempoOnDatabase, threadId: string): Promise<StateSnapshot[]> {
  const snapshots: StateSnapshot[] = [];
  for await (const snapshot of tempo.graph.getStateHistory(studentThread(threadId))) snapshots.push(snapshot);
  return snapshots;
}

function idOf(snapshot: StateSnapshot): string {
  return String(snapshot.config.configurable?.checkpoint_id);
}

async function count(tempo: TempoOnDatabase, table: string, threadId: string): Promise<number> {
  const result = await tempo.database.pool.query<{ count: string }>(
    `SELECT count(*) AS count FROM ${table} WHERE thread_id = $1`,
    [threadId],
  );
  return Number(result.rows[0]?.count ?? 0);
}

/** The thread's blob rows, and the channel versions its checkpoints point at, as "ns|channel|version" keys. */
async function blobKeys(
  tempo: TempoOnDatabase,
  threadId: string,
): Promise<{ stored: Set<string>; referenced: Set<string> }> {
  const stored = await tempo.database.pool.query<{ key: string }>(
    `SELECT checkpoint_ns || '|' || channel || '|' || version AS key FROM checkpoint_blobs WHERE thread_id = $1`,
    [threadId],
  );
  const referenced = await tempo.database.pool.query<{ key: string }>(
    `SELECT cp.checkpoint_ns || '|' || version.key || '|' || version.value AS key
       FROM checkpoints cp CROSS JOIN LATERAL jsonb_each_text(cp.checkpoint -> 'channel_versions') AS version
      WHERE cp.thread_id = $1`,
    [threadId],
  );
  return {
    stored: new Set(stored.rows.map((row) => row.key)),
    referenced: new Set(referenced.rows.map((row) => row.key)),
  };
}

/**
 * After a prune: blobs no checkpoint points at (none should be left), and versions the kept checkpoints point at
 * whose blob existed before and is gone (none should be). A version with no blob at all is a channel without a value
 * there (a delta channel between snapshots, a run-only field): Tempo's saver writes no row for it.
 */
async function blobIntegrity(
  tempo: TempoOnDatabase,
  threadId: string,
  storedBefore: Set<string>,
): Promise<{ unreferenced: number; missing: number }> {
  const { stored, referenced } = await blobKeys(tempo, threadId);
  return {
    unreferenced: [...stored].filter((key) => !referenced.has(key)).length,
    missing: [...referenced].filter((key) => storedBefore.has(key) && !stored.has(key)).length,
  };
}

describe.each(postgresTargets())("$kind postgres", (target) => {
  const env = useTempoOnTarget(target);

  test("keeps the latest N and every step snapshot; state, history and snapshots read the same; the thread goes on", async () => {
    const threadId = `retention-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    await continueThread(env.tempo, threadId);
    for (const text of ["hello", "thanks"]) await env.tempo.graph.invoke(userMessage(text), studentThread(threadId));

    const before = await env.tempo.graph.getState(studentThread(threadId));
    const historyBefore = await history(env.tempo, threadId);
    const snapshotsBefore = await stepSnapshots(env.tempo.graph, studentThread(threadId));
    const rowsBefore = {
      checkpoints: await count(env.tempo, "checkpoints", threadId),
      blobs: await count(env.tempo, "checkpoint_blobs", threadId),
    };
    const blobsBefore = (await blobKeys(env.tempo, threadId)).stored;
    // Step 1 (place) started in the plan card's answer, saved once at its write card; then its end, the start and end
    // of step 2 (refine) and of step 3 (verify).
    expect(snapshotsBefore).toHaveLength(6);

    const report = await pruneCheckpoints(env.tempo.database.pool, { threadId, keepLatest: 3 });

    const kept = new Set([
      ...historyBefore.slice(0, 3).map(idOf),
      ...snapshotsBefore.map((snapshot) => snapshot.checkpointId),
    ]);
    expect(report.threads).toBe(1);
    // Kept checkpoints whose parent went now hold the message list the deleted chain rebuilt.
    expect(report.deltaValuesStored).toBeGreaterThan(0);
    expect(report.checkpointsDeleted).toBe(historyBefore.length - kept.size);
    expect(report.blobsDeleted).toBeGreaterThan(0);
    expect(await count(env.tempo, "checkpoints", threadId)).toBe(kept.size);
    expect(await count(env.tempo, "checkpoint_blobs", threadId)).toBe(
      rowsBefore.blobs - report.blobsDeleted + report.deltaValuesStored,
    );
    expect(await blobIntegrity(env.tempo, threadId, blobsBefore)).toEqual({ unreferenced: 0, missing: 0 });

    const after = await env.tempo.graph.getState(studentThread(threadId));
    expect(idOf(after)).toBe(idOf(before));
    expect(after.values).toEqual(before.values);

    const historyAfter = await history(env.tempo, threadId);
    expect(historyAfter.map(idOf)).toEqual(historyBefore.map(idOf).filter((id) => kept.has(id)));
    const valuesBefore = new Map(historyBefore.map((snapshot) => [idOf(snapshot), snapshot.values]));
    for (const snapshot of historyAfter) {
      expect(snapshot.values).toEqual(valuesBefore.get(idOf(snapshot)));
      const parent = snapshot.parentConfig?.configurable?.checkpoint_id;
      if (parent !== undefined) expect(kept.has(String(parent))).toBe(true);
    }
    expect(await stepSnapshots(env.tempo.graph, studentThread(threadId))).toEqual(snapshotsBefore);

    // The thread goes on, and pruning again keeps the same policy.
    const reply = await env.tempo.graph.invoke(userMessage("hi"), studentThread(threadId));
    expect(String(reply.messages.at(-1)?.content)).toContain("Tempo");
    const again = await pruneCheckpoints(env.tempo.database.pool, { threadId, keepLatest: 3 });
    expect(again.checkpointsDeleted).toBeGreaterThan(0);
    expect((await history(env.tempo, threadId)).length).toBe(
      3 + new Set(snapshotsBefore.map((snapshot) => snapshot.checkpointId)).size,
    );
  });

  test("a thread waiting on a write card keeps its interrupt through pruning and is resumed after it", async () => {
    const threadId = `retention-waiting-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const waiting = await env.tempo.graph.getState(studentThread(threadId));
    const callId = writesOnCard(waiting.values)[0]!.id;

    const report = await pruneCheckpoints(env.tempo.database.pool, { threadId, keepLatest: 1 });
    expect(report.checkpointsDeleted).toBeGreaterThan(0);
    const pruned = await env.tempo.graph.getState(studentThread(threadId));
    expect(pruned.tasks.flatMap((task) => task.interrupts).map((interrupt) => interrupt.value)).toEqual(
      waiting.tasks.flatMap((task) => task.interrupts).map((interrupt) => interrupt.value),
    );

    await continueThread(env.tempo, threadId, { untilNextCard: true });
    expect(await appliedRows(env.tempo, threadId, callId)).toBe(1);
  });

  test("prunes every thread when none is named, each readable after, and refuses keepLatest below 1", async () => {
    await expect(pruneCheckpoints(env.tempo.database.pool, { keepLatest: 0 })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });

    const threadId = `retention-all-${target.kind}`;
    for (const text of ["hello", "thanks", "hi"])
      await env.tempo.graph.invoke(userMessage(text), studentThread(threadId));
    const before = await env.tempo.graph.getState(studentThread(threadId));
    const blobsBefore = (await blobKeys(env.tempo, threadId)).stored;
    const report = await pruneCheckpoints(env.tempo.database.pool, { keepLatest: 1 });
    expect(report.threads).toBeGreaterThanOrEqual(1);
    expect(await count(env.tempo, "checkpoints", threadId)).toBe(1);
    // The one checkpoint left holds its message list itself: nothing to rebuild it from is left.
    expect((await env.tempo.graph.getState(studentThread(threadId))).values).toEqual(before.values);
    expect(await blobIntegrity(env.tempo, threadId, blobsBefore)).toEqual({ unreferenced: 0, missing: 0 });
  });

  test("removes the writes of checkpoints that were never saved (a crashed run), keeps a live run's, and the thread goes on", async () => {
    const threadId = `retention-orphans-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const before = await env.tempo.graph.getState(studentThread(threadId));
    const writesBefore = await count(env.tempo, "checkpoint_writes", threadId);
    const hourAgo = v6({ msecs: Date.now() - 3_600_000, nsecs: 0, clockseq: 1 });
    const justNow = v6({ msecs: Date.now() + 1_000, nsecs: 0, clockseq: 1 });
    expect(uuid6Time(hourAgo)).toBeLessThan(Date.now() - 3_500_000);
    // A crashed run's writes (older than the newest saved checkpoint), a subgraph namespace's old ones, and a live
    // run's (newer than every saved checkpoint, seconds old).
    const orphans: Array<[string, string]> = [
      ["", hourAgo],
      ["crashed-subgraph:1", hourAgo],
      ["", justNow],
    ];
    for (const [ns, id] of orphans) {
      await env.tempo.database.pool.query(
        `INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
         VALUES ($1, $2, $3, 'task-1', 0, 'messages', 'json', $4)`,
        [threadId, ns, id, Buffer.from("[]")],
      );
    }

    const report = await pruneCheckpoints(env.tempo.database.pool, { threadId, keepLatest: 1_000 });
    expect(report).toMatchObject({ checkpointsDeleted: 0, orphanWritesDeleted: 2, writesDeleted: 2 });
    expect(await count(env.tempo, "checkpoint_writes", threadId)).toBe(writesBefore + 1);
    const left = await env.tempo.database.pool.query<{ checkpoint_id: string }>(
      "SELECT checkpoint_id FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_id IN ($2, $3)",
      [threadId, hourAgo, justNow],
    );
    expect(left.rows.map((row) => row.checkpoint_id)).toEqual([justNow]);

    // Past the grace period the live run's writes go too (that run is long gone).
    const later = await pruneCheckpoints(env.tempo.database.pool, {
      threadId,
      keepLatest: 1_000,
      orphanWritesGraceMs: -5_000,
    });
    expect(later.orphanWritesDeleted).toBe(1);
    expect(await count(env.tempo, "checkpoint_writes", threadId)).toBe(writesBefore);

    const after = await env.tempo.graph.getState(studentThread(threadId));
    expect(after.values).toEqual(before.values);
    expect(after.tasks.flatMap((task) => task.interrupts)).toEqual(before.tasks.flatMap((task) => task.interrupts));
    const next = await continueThread(env.tempo, threadId, { untilNextCard: true });
    expect(Object.keys(next)).toContain("__interrupt__");
  });
});
