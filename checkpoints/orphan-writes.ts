/**
 * The writes of checkpoints that were never saved (a run that crashed between writing a task's result and saving its
 * checkpoint), which `pruneCheckpoints` (retention.ts) deletes: checkpoint ids are time-ordered UUIDv6, so such a
 * write is no live run's when it is older than the newest saved checkpoint of its namespace, or older than a cutoff
 * by the time in its id.
 */
import type pg from "pg";

/** What {@link unsavedCheckpointWrites} reads of a saved checkpoint: its namespace and id (rows newest first). */
export interface SavedCheckpointRow {
  checkpoint_ns: string;
  checkpoint_id: string;
}

/**
 * The (namespace, checkpoint id) pairs of the thread's writes whose checkpoint was never saved and is no live run's:
 * older than the newest saved checkpoint of its namespace, or older than `cutoff` (ms) by the time in its id.
 */
export async function unsavedCheckpointWrites(
  client: pg.PoolClient,
  tables: { checkpoints: string; writes: string },
  threadId: string,
  rows: readonly SavedCheckpointRow[],
  cutoff: number,
): Promise<Array<{ checkpoint_ns: string; checkpoint_id: string }>> {
  const unsaved = (
    await client.query<{ checkpoint_ns: string; checkpoint_id: string }>(
      `SELECT DISTINCT w.checkpoint_ns, w.checkpoint_id FROM ${tables.writes} w
        WHERE w.thread_id = $1
          AND NOT EXISTS (SELECT 1 FROM ${tables.checkpoints} cp
                           WHERE cp.thread_id = w.thread_id AND cp.checkpoint_ns = w.checkpoint_ns AND cp.checkpoint_id = w.checkpoint_id)`,
      [threadId],
    )
  ).rows;
  const newestSaved = new Map<string, string>();
  // Rows come newest first within each namespace.
  for (const row of rows)
    if (!newestSaved.has(row.checkpoint_ns)) newestSaved.set(row.checkpoint_ns, row.checkpoint_id);
  return unsaved.filter((write) => {
    const newest = newestSaved.get(write.checkpoint_ns);
    if (newest !== undefined && write.checkpoint_id < newest) return true;
    const created = uuid6Time(write.checkpoint_id);
    return created !== undefined && created < cutoff;
  });
}

/** The time (ms since the epoch) in a UUIDv6 checkpoint id, or undefined for an id of another shape. */
export function uuid6Time(id: string): number | undefined {
  const hex = id.replace(/-/g, "");
  if (!/^[0-9a-f]{32}$/i.test(hex) || hex[12] !== "6") return undefined;
  // 60-bit count of 100 ns intervals since 1582-10-15: time_high and time_mid (48 bits), then time_low (12 bits).
  const intervals = (BigInt(`0x${hex.slice(0, 12)}`) << 12n) | BigInt(`0x${hex.slice(13, 16)}`);
  return Number(intervals / 10_000n) - GREGORIAN_TO_UNIX_MS;
}

/** Milliseconds from the Gregorian reform (UUID time zero) to the Unix epoch. */
const GREGORIAN_TO_UNIX_MS = 12_219_292_800_000;
