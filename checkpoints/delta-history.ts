/**
 * Delta channels on Postgres (tempo-saver.ts, point 3). The message list is a LangGraph `DeltaChannel`
 * (`kernel/channels.ts`): most checkpoints store no value for it, only the writes of each step. A channel's history —
 * its writes along a checkpoint's parent chain back to the nearest ancestor that stores its value (the seed) — is
 * read here in one recursive query instead of one `getTuple` per ancestor, so loading a thread costs the same on turn
 * 200 as on turn 2. Of a parent's rows, a task its child's claim names is read only at the keys the claim keeps: the
 * claiming run's, not those of a run that went on from the same checkpoint and lost (`contested-writes.ts`).
 */
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import type { CheckpointRef, SaverTables } from "./refs.js";

/** What `getDeltaChannelHistory` returns for one channel: its writes oldest first, and the value they start from. */
export type DeltaChannelHistory = Awaited<ReturnType<PostgresSaver["getDeltaChannelHistory"]>>[string];

/** What retention needs of a delta channel's spec (a LangGraph `DeltaChannel`) to rebuild its value. */
export interface DeltaChannelSpec {
  fromCheckpoint(checkpoint: unknown): {
    replayWrites(writes: DeltaChannelHistory["writes"]): void;
    isAvailable(): boolean;
    get(): unknown;
  };
}

/** Blob type PostgresSaver gives a channel that has a version but no value in a checkpoint; its reads skip such rows. */
export const EMPTY_BLOB_TYPE = "empty";

/**
 * The writes of `channel` on the parent chain of a checkpoint back to the nearest checkpoint that stores a value
 * for it (the seed). With `fromTarget`, the walk starts at the checkpoint itself (its own stored value is the
 * seed, its own writes are not included); otherwise at its parent, as `getDeltaChannelHistory` requires.
 */
export async function channelHistory(
  db: pg.Pool | pg.PoolClient,
  tables: SaverTables,
  serde: SerializerProtocol,
  ref: CheckpointRef,
  channel: string,
  fromTarget = false,
): Promise<DeltaChannelHistory> {
  return (await channelHistories(db, tables, serde, ref, [channel], fromTarget))[channel]!;
}

/**
 * `channelHistory` of several channels in ONE recursive query (one round trip and one snapshot, not one a channel:
 * loading a thread reads every delta channel, issue 44.8). Each channel walks its own chain back to its own seed.
 */
export async function channelHistories(
  db: pg.Pool | pg.PoolClient,
  tables: SaverTables,
  serde: SerializerProtocol,
  ref: CheckpointRef,
  channels: readonly string[],
  fromTarget = false,
): Promise<Record<string, DeltaChannelHistory>> {
  const wanted = [...new Set(channels)];
  const histories: Record<string, DeltaChannelHistory> = Object.fromEntries(
    wanted.map((channel) => [channel, { writes: [] }]),
  );
  if (wanted.length === 0) return histories;
  const result = await db.query<{
    channel: string;
    depth: number;
    seed_type: string | null;
    seed: Buffer | null;
    writes: Array<[Buffer, Buffer, Buffer]> | null;
  }>(
    `WITH RECURSIVE chain AS (
       SELECT wanted.channel, cp.checkpoint_id, cp.parent_checkpoint_id, NULL::text AS child_id, 0 AS depth,
              $5::boolean AND EXISTS (SELECT 1 FROM ${tables.blobs} bl
                                       WHERE bl.thread_id = $1 AND bl.checkpoint_ns = $2 AND bl.channel = wanted.channel
                                         AND bl.version = cp.checkpoint -> 'channel_versions' ->> wanted.channel
                                         AND bl.type <> '${EMPTY_BLOB_TYPE}') AS seeded
         FROM unnest($4::text[]) AS wanted(channel)
         JOIN ${tables.checkpoints} cp
           ON cp.thread_id = $1 AND cp.checkpoint_ns = $2 AND cp.checkpoint_id = $3
       UNION ALL
       SELECT chain.channel, parent.checkpoint_id, parent.parent_checkpoint_id, chain.checkpoint_id, chain.depth + 1,
              EXISTS (SELECT 1 FROM ${tables.blobs} bl
                       WHERE bl.thread_id = $1 AND bl.checkpoint_ns = $2 AND bl.channel = chain.channel
                         AND bl.version = parent.checkpoint -> 'channel_versions' ->> chain.channel
                         AND bl.type <> '${EMPTY_BLOB_TYPE}')
         FROM chain
         JOIN ${tables.checkpoints} parent
           ON parent.thread_id = $1 AND parent.checkpoint_ns = $2 AND parent.checkpoint_id = chain.parent_checkpoint_id
        WHERE NOT chain.seeded
     )
     SELECT chain.channel, chain.depth,
            seed.type AS seed_type, seed.blob AS seed,
            (SELECT array_agg(array[cw.task_id::bytea, cw.type::bytea, cw.blob] ORDER BY cw.task_id, cw.idx)
               FROM ${tables.writes} cw
               LEFT JOIN ${tables.claims} claim
                 ON claim.thread_id = $1 AND claim.checkpoint_ns = $2
                AND claim.parent_checkpoint_id = chain.checkpoint_id AND claim.checkpoint_id = chain.child_id
              WHERE cw.thread_id = $1 AND cw.checkpoint_ns = $2 AND cw.checkpoint_id = chain.checkpoint_id
                AND cw.channel = chain.channel
                AND (claim.task_ids IS NULL OR NOT (cw.task_id = ANY (claim.task_ids))
                     OR cw.task_id || ':' || cw.idx = ANY (claim.write_keys))) AS writes
       FROM chain
       LEFT JOIN ${tables.checkpoints} cp
         ON chain.seeded AND cp.thread_id = $1 AND cp.checkpoint_ns = $2 AND cp.checkpoint_id = chain.checkpoint_id
       LEFT JOIN ${tables.blobs} seed
         ON chain.seeded AND seed.thread_id = $1 AND seed.checkpoint_ns = $2 AND seed.channel = chain.channel
        AND seed.version = cp.checkpoint -> 'channel_versions' ->> chain.channel
      WHERE chain.depth > 0 OR chain.seeded
      ORDER BY chain.channel, chain.depth DESC`,
    [ref.threadId, ref.checkpointNs, ref.checkpointId, wanted, fromTarget],
  );
  const decoder = new TextDecoder();
  for (const row of result.rows) {
    const history = histories[row.channel]!;
    if (row.seed_type && row.seed) history.seed = await serde.loadsTyped(row.seed_type, new Uint8Array(row.seed));
    // The target's own writes lead to its children: not part of its value.
    if (row.depth === 0) continue;
    for (const [taskId, type, blob] of row.writes ?? []) {
      history.writes.push([
        decoder.decode(taskId),
        row.channel,
        await serde.loadsTyped(decoder.decode(type), new Uint8Array(blob)),
      ]);
    }
  }
  return histories;
}
