/**
 * Checkpoint retention: `pruneCheckpoints` deletes a thread's old
 * checkpoints while keeping the latest N of each namespace and every
 * step-transition snapshot (`metadata.tempo_step`), with the pending writes of
 * the deleted checkpoints and the blobs no remaining checkpoint points at.
 *
 * What stays readable: `getState` (the latest checkpoint, its blobs and its
 * pending writes — so an open interrupt can still be answered),
 * `getStateHistory` (the kept checkpoints, whole), and `stepSnapshots`. A
 * kept checkpoint whose parent was deleted is re-linked to its nearest kept
 * ancestor, so walking `parentConfig` never reaches a missing checkpoint.
 * What goes: replaying or forking from a deleted checkpoint.
 *
 * It also deletes the writes of checkpoints that were never saved (a run that
 * crashed between writing a task's result and saving its checkpoint): writes
 * whose checkpoint is missing and older than the thread's newest saved
 * checkpoint of that namespace (checkpoint ids are time-ordered UUIDv6), or
 * older than `orphanWritesGraceMs` by the time in their id. A live run's
 * checkpoint is newer than both, so its in-flight writes stay.
 *
 * Delta chains stay readable (langgraph#8531). The message list is a
 * LangGraph `DeltaChannel`: a checkpoint stores no value for it, and its
 * value is rebuilt from the writes of its ancestors back to the nearest one
 * that stores a value. Before deleting, every kept checkpoint whose parent
 * goes gets its value of each delta channel rebuilt and stored (a blob at its
 * version), so the walk from it, or from any kept descendant, stops there
 * instead of reaching a deleted checkpoint. Those checkpoints cost one copy of
 * the message list each; the rest stays deltas.
 *
 * Each thread is pruned in one transaction. It is safe next to a run on the
 * same thread that continues from the latest checkpoint (that checkpoint and
 * every blob it points at are kept); do not prune a thread while replaying it
 * from an old checkpoint.
 */
import type pg from "pg";

import { ConfigurationError, TempoError } from "../errors/index.js";
import { STEP_SNAPSHOT_METADATA_KEY } from "./step-transitions.js";
import { SCHEMA_PATTERN } from "../database/index.js";
import { DEFAULT_CHECKPOINT_SCHEMA } from "./saver.js";
import { DELTA_CHANNELS } from "../kernel/channels.js";
import { RESUME_CLAIMS_TABLE, TempoPostgresSaver, type DeltaChannelSpec } from "./tempo-saver.js";
import { unsavedCheckpointWrites, type SavedCheckpointRow } from "./orphan-writes.js";

/** Options of {@link pruneCheckpoints}. */
export interface PruneOptions {
  /** Checkpoints to keep per thread and namespace, newest first; at least 1. */
  keepLatest: number;
  /** Only this thread; default every thread. */
  threadId?: string;
  /** Schema of the checkpoint tables. Default "public". */
  schema?: string;
  /** Writes of an unsaved checkpoint newer than every saved one are kept this long (by the time in the id), in ms. Default 10 minutes. */
  orphanWritesGraceMs?: number;
}

/** Default of `PruneOptions.orphanWritesGraceMs`: 10 minutes. */
export const DEFAULT_ORPHAN_WRITES_GRACE_MS = 10 * 60_000;

/** What a prune removed. */
export interface PruneReport {
  /** Threads looked at. */
  threads: number;
  checkpointsDeleted: number;
  writesDeleted: number;
  /** Of `writesDeleted`: writes of checkpoints that were never saved. */
  orphanWritesDeleted: number;
  blobsDeleted: number;
  /** Delta-channel values stored at kept checkpoints whose parent was deleted, so their chains stay readable. */
  deltaValuesStored: number;
}

interface CheckpointRow extends SavedCheckpointRow {
  parent_checkpoint_id: string | null;
  snapshot: boolean;
  /** The checkpoint's channel versions. */
  versions: Record<string, string | number>;
}

/** Deletes old checkpoints as the module comment describes; returns what it removed. */
export async function pruneCheckpoints(pool: pg.Pool, options: PruneOptions): Promise<PruneReport> {
  if (!Number.isInteger(options.keepLatest) || options.keepLatest < 1) {
    throw new TempoError(
      "INVALID_INPUT",
      `keepLatest must be a whole number of at least 1, got ${String(options.keepLatest)}.`,
      { keepLatest: options.keepLatest },
    );
  }
  const schema = options.schema ?? DEFAULT_CHECKPOINT_SCHEMA;
  if (!SCHEMA_PATTERN.test(schema))
    throw new ConfigurationError(`Invalid checkpoint schema name "${schema}".`, { schema });
  const tables = {
    checkpoints: `"${schema}".checkpoints`,
    blobs: `"${schema}".checkpoint_blobs`,
    writes: `"${schema}".checkpoint_writes`,
    claims: `"${schema}".${RESUME_CLAIMS_TABLE}`,
  };
  const hasClaims =
    (await pool.query("SELECT to_regclass($1) IS NOT NULL AS present", [tables.claims])).rows[0]?.present === true;
  const orphanCutoff = Date.now() - (options.orphanWritesGraceMs ?? DEFAULT_ORPHAN_WRITES_GRACE_MS);
  const threadIds =
    options.threadId !== undefined
      ? [options.threadId]
      : (
          await pool.query<{ thread_id: string }>(
            `SELECT thread_id FROM ${tables.checkpoints} UNION SELECT thread_id FROM ${tables.writes} ORDER BY thread_id`,
          )
        ).rows.map((row) => row.thread_id);

  const report: PruneReport = {
    threads: threadIds.length,
    checkpointsDeleted: 0,
    writesDeleted: 0,
    orphanWritesDeleted: 0,
    blobsDeleted: 0,
    deltaValuesStored: 0,
  };
  const reader = new TempoPostgresSaver(pool, { schema });
  for (const threadId of threadIds) {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const rows = (
        await client.query<CheckpointRow>(
          `SELECT checkpoint_ns, checkpoint_id, parent_checkpoint_id,
                  metadata ? $2 AS snapshot,
                  checkpoint -> 'channel_versions' AS versions
             FROM ${tables.checkpoints} WHERE thread_id = $1
            ORDER BY checkpoint_ns, checkpoint_id DESC
              FOR UPDATE`,
          [threadId, STEP_SNAPSHOT_METADATA_KEY],
        )
      ).rows;
      const orphans = await unsavedCheckpointWrites(client, tables, threadId, rows, orphanCutoff);
      if (orphans.length > 0) {
        const deleted = await client.query(
          `DELETE FROM ${tables.writes} WHERE thread_id = $1 AND (checkpoint_ns, checkpoint_id) IN (SELECT ns, id FROM unnest($2::text[], $3::text[]) AS gone(ns, id))`,
          [threadId, orphans.map((orphan) => orphan.checkpoint_ns), orphans.map((orphan) => orphan.checkpoint_id)],
        );
        report.orphanWritesDeleted += deleted.rowCount ?? 0;
        report.writesDeleted += deleted.rowCount ?? 0;
      }
      const plan = planPrune(rows, options.keepLatest);
      if (plan.deleted.length === 0) {
        await client.query("COMMIT");
        continue;
      }
      report.deltaValuesStored += await storeDeltaValues(client, reader, tables, threadId, rows, plan.relinked);
      const deletedNs = plan.deleted.map((row) => row.checkpoint_ns);
      const deletedIds = plan.deleted.map((row) => row.checkpoint_id);
      if (plan.relinked.length > 0) {
        await client.query(
          `UPDATE ${tables.checkpoints} AS cp SET parent_checkpoint_id = link.parent
             FROM unnest($2::text[], $3::text[], $4::text[]) AS link(ns, id, parent)
            WHERE cp.thread_id = $1 AND cp.checkpoint_ns = link.ns AND cp.checkpoint_id = link.id`,
          [
            threadId,
            plan.relinked.map((link) => link.ns),
            plan.relinked.map((link) => link.id),
            plan.relinked.map((link) => link.parent),
          ],
        );
      }
      const gone = `SELECT ns, id FROM unnest($2::text[], $3::text[]) AS gone(ns, id)`;
      const checkpoints = await client.query(
        `DELETE FROM ${tables.checkpoints} WHERE thread_id = $1 AND (checkpoint_ns, checkpoint_id) IN (${gone})`,
        [threadId, deletedNs, deletedIds],
      );
      const writes = await client.query(
        `DELETE FROM ${tables.writes} WHERE thread_id = $1 AND (checkpoint_ns, checkpoint_id) IN (${gone})`,
        [threadId, deletedNs, deletedIds],
      );
      if (hasClaims) {
        await client.query(
          `DELETE FROM ${tables.claims} WHERE thread_id = $1 AND (checkpoint_ns, parent_checkpoint_id) IN (${gone})`,
          [threadId, deletedNs, deletedIds],
        );
      }
      const blobs = await client.query(
        `WITH referenced AS (
           SELECT DISTINCT cp.checkpoint_ns, version.key AS channel, version.value AS version
             FROM ${tables.checkpoints} cp
             CROSS JOIN LATERAL jsonb_each_text(cp.checkpoint -> 'channel_versions') AS version
            WHERE cp.thread_id = $1
         )
         DELETE FROM ${tables.blobs} bl
          WHERE bl.thread_id = $1
            AND NOT EXISTS (SELECT 1 FROM referenced r
                             WHERE r.checkpoint_ns = bl.checkpoint_ns AND r.channel = bl.channel AND r.version = bl.version)`,
        [threadId],
      );
      await client.query("COMMIT");
      report.checkpointsDeleted += checkpoints.rowCount ?? 0;
      report.writesDeleted += writes.rowCount ?? 0;
      report.blobsDeleted += blobs.rowCount ?? 0;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  return report;
}

/**
 * Stores, at each kept checkpoint whose parent goes (`relinked`), the value of every delta channel it has a version
 * of, rebuilt from the chain that is about to be cut; a value already stored there is left as it is. Returns how many
 * values were stored.
 */
async function storeDeltaValues(
  client: pg.PoolClient,
  reader: TempoPostgresSaver,
  tables: { blobs: string },
  threadId: string,
  rows: readonly CheckpointRow[],
  relinked: ReadonlyArray<{ ns: string; id: string }>,
): Promise<number> {
  const versionsOf = new Map(rows.map((row) => [`${row.checkpoint_ns}\u0000${row.checkpoint_id}`, row.versions]));
  let stored = 0;
  for (const link of relinked) {
    const versions = versionsOf.get(`${link.ns}\u0000${link.id}`) ?? {};
    for (const [channel, factory] of Object.entries(DELTA_CHANNELS)) {
      const version = versions[channel];
      if (version === undefined) continue;
      const ref = { threadId, checkpointNs: link.ns, checkpointId: link.id };
      const value = await reader.serializedDeltaValue(ref, channel, factory() as unknown as DeltaChannelSpec, client);
      if (!value) continue;
      // PostgresSaver leaves an "empty" row at a version with no value; a stored value (a snapshot) stays.
      const result = await client.query(
        `INSERT INTO ${tables.blobs} AS bl (thread_id, checkpoint_ns, channel, version, type, blob) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO UPDATE SET type = EXCLUDED.type, blob = EXCLUDED.blob WHERE bl.type = 'empty'`,
        [threadId, link.ns, channel, String(version), value[0], value[1]],
      );
      stored += result.rowCount ?? 0;
    }
  }
  return stored;
}

/** Which checkpoints of one thread go, and the new parents of kept ones whose parent goes. */
function planPrune(
  rows: readonly CheckpointRow[],
  keepLatest: number,
): { deleted: CheckpointRow[]; relinked: Array<{ ns: string; id: string; parent: string | null }> } {
  const keyOf = (ns: string, id: string) => `${ns}\u0000${id}`;
  const kept = new Set<string>();
  const seenPerNs = new Map<string, number>();
  for (const row of rows) {
    // Rows come newest first within each namespace.
    const seen = seenPerNs.get(row.checkpoint_ns) ?? 0;
    seenPerNs.set(row.checkpoint_ns, seen + 1);
    if (seen < keepLatest || row.snapshot) kept.add(keyOf(row.checkpoint_ns, row.checkpoint_id));
  }
  const parentOf = new Map(rows.map((row) => [keyOf(row.checkpoint_ns, row.checkpoint_id), row.parent_checkpoint_id]));
  const relinked: Array<{ ns: string; id: string; parent: string | null }> = [];
  for (const row of rows) {
    if (!kept.has(keyOf(row.checkpoint_ns, row.checkpoint_id)) || row.parent_checkpoint_id === null) continue;
    let parent: string | null = row.parent_checkpoint_id;
    const visited = new Set<string>();
    while (parent !== null && !kept.has(keyOf(row.checkpoint_ns, parent)) && !visited.has(parent)) {
      visited.add(parent);
      const key = keyOf(row.checkpoint_ns, parent);
      parent = parentOf.has(key) ? (parentOf.get(key) ?? null) : null;
    }
    if (parent !== row.parent_checkpoint_id) relinked.push({ ns: row.checkpoint_ns, id: row.checkpoint_id, parent });
  }
  return { deleted: rows.filter((row) => !kept.has(keyOf(row.checkpoint_ns, row.checkpoint_id))), relinked };
}
