/**
 * Delta channels on Postgres (tempo-saver.ts, point 3). The message list is a LangGraph `DeltaChannel`
 * (`kernel/channels.ts`): most checkpoints store no value for it, only the writes of each step. A channel's history —
 * its writes along a checkpoint's parent chain back to the nearest ancestor that stores its value (the seed) — is
 * read here in one recursive query instead of one `getTuple` per ancestor, so loading a thread costs the same on turn
 * 200 as on turn 2.
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
  const result = await db.query<{
    depth: number;
    seed_type: string | null;
    seed: Buffer | null;
    writes: Array<[Buffer, Buffer, Buffer]> | null;
  }>(
    `WITH RECURSIVE chain AS (
       SELECT cp.checkpoint_id, cp.parent_checkpoint_id, 0 AS depth,
              $5::boolean AND EXISTS (SELECT 1 FROM ${tables.blobs} bl
                                       WHERE bl.thread_id = $1 AND bl.checkpoint_ns = $2 AND bl.channel = $4
                                         AND bl.version = cp.checkpoint -> 'channel_versions' ->> $4 AND bl.type <> '${EMPTY_BLOB_TYPE}') AS seeded
         FROM ${tables.checkpoints} cp
        WHERE cp.thread_id = $1 AND cp.checkpoint_ns = $2 AND cp.checkpoint_id = $3
       UNION ALL
       SELECT parent.checkpoint_id, parent.parent_checkpoint_id, chain.depth + 1,
              EXISTS (SELECT 1 FROM ${tables.blobs} bl
                       WHERE bl.thread_id = $1 AND bl.checkpoint_ns = $2 AND bl.channel = $4
                         AND bl.version = parent.checkpoint -> 'channel_versions' ->> $4 AND bl.type <> '${EMPTY_BLOB_TYPE}')
         FROM chain
         JOIN ${tables.checkpoints} parent
           ON parent.thread_id = $1 AND parent.checkpoint_ns = $2 AND parent.checkpoint_id = chain.parent_checkpoint_id
        WHERE NOT chain.seeded
     )
     SELECT chain.depth,
            seed.type AS seed_type, seed.blob AS seed,
            (SELECT array_agg(array[cw.task_id::bytea, cw.type::bytea, cw.blob] ORDER BY cw.task_id, cw.idx)
               FROM ${tables.writes} cw
              WHERE cw.thread_id = $1 AND cw.checkpoint_ns = $2 AND cw.checkpoint_id = chain.checkpoint_id AND cw.channel = $4) AS writes
       FROM chain
       LEFT JOIN ${tables.checkpoints} cp
         ON chain.seeded AND cp.thread_id = $1 AND cp.checkpoint_ns = $2 AND cp.checkpoint_id = chain.checkpoint_id
       LEFT JOIN ${tables.blobs} seed
         ON chain.seeded AND seed.thread_id = $1 AND seed.checkpoint_ns = $2 AND seed.channel = $4
        AND seed.version = cp.checkpoint -> 'channel_versions' ->> $4
      WHERE chain.depth > 0 OR chain.seeded
      ORDER BY chain.depth DESC`,
    [ref.threadId, ref.checkpointNs, ref.checkpointId, channel, fromTarget],
  );
  const decoder = new TextDecoder();
  const history: DeltaChannelHistory = { writes: [] };
  for (const row of result.rows) {
    if (row.seed_type && row.seed) history.seed = await serde.loadsTyped(row.seed_type, new Uint8Array(row.seed));
    // The target's own writes lead to its children: not part of its value.
    if (row.depth === 0) continue;
    for (const [taskId, type, blob] of row.writes ?? []) {
      history.writes.push([
        decoder.decode(taskId),
        channel,
        await serde.loadsTyped(decoder.decode(type), new Uint8Array(blob)),
      ]);
    }
  }
  return history;
}
