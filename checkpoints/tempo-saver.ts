/**
 * Tempo's checkpointer: the official `PostgresSaver` (same tables, same reads) with three additions made where
 * LangGraph saves a checkpoint, each in its own file; this one wires them into the save.
 *
 * 1. Step snapshots (`plan-snapshots.ts`): a checkpoint whose plan has a step that became running, done or failed
 *    since its parent gets `metadata.tempo_step`, so `stepSnapshots()` lists them (docs/design.md#persistence).
 * 2. One run on from each checkpoint (`resume-claims.ts`): the first checkpoint saved on top of another claims it, in
 *    the save's transaction, for every save of a run and, for a branch (`BRANCH_RUN_KEY` or a `source: "fork"` save),
 *    only when it branches off an interrupted checkpoint. A second run from the same checkpoint fails to save with
 *    `AlreadyResumedError` (`ALREADY_RESUMED`) and, through `admitCurrentRun`, which the execution log calls before a
 *    write, never applies a write.
 * 3. Delta channels (`delta-history.ts`): `getDeltaChannelHistory` walks the parent chain in one recursive query, and
 *    a channel without a value in a checkpoint gets no blob row (PostgresSaver writes an "empty" one its reads skip).
 * 4. The claiming run's writes (`contested-writes.ts`): two runs from one checkpoint write their step's writes on the
 *    same rows; the claim keeps the winner's keys (a delta channel's history reads only those of its tasks) and
 *    writes its rows over a loser's found in place.
 *
 * `refs.ts` says where a checkpoint is. The save is PostgresSaver 1.0.5's own rows (blobs, checkpoint) plus the claim,
 * in ONE statement (`saveInOneStatement`), atomic as its transaction was; a task's writes are PostgresSaver's
 * statement too, in one multi-row statement (fewer round trips, issue 44.8). LangGraph's checkpointer conformance
 * suite runs against this class.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointMetadata } from "@langchain/langgraph";
import { WRITES_IDX_MAP, type PendingWrite } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";

import { ConfigurationError } from "../errors/index.js";
import { SCHEMA_PATTERN, withAdvisoryLock, type Database } from "../database/index.js";
import type { ResumeGuard } from "./execution-log.js";
import { checkpointSetupFailed, DEFAULT_CHECKPOINT_SCHEMA } from "./saver.js";
import { DELTA_CHANNELS, PLAN_CHANNEL } from "../kernel/channels.js";
import { channelHistories, EMPTY_BLOB_TYPE, type DeltaChannelHistory, type DeltaChannelSpec } from "./delta-history.js";
import { PlanSnapshots } from "./plan-snapshots.js";
import { CheckpointSerializer } from "./plain-loads.js";
import { currentRunCheckpoint, saverTables, valuesList, type CheckpointRef, type SaverTables } from "./refs.js";
import { claimParent, createClaimsTable, isInterrupted, saveInOneStatement, SaveTracker } from "./resume-claims.js";
import { RunWrites, storeWriteRows, type ClaimedWrites, type WriteRow } from "./contested-writes.js";

export { PLAN_CHANNEL };
export { AlreadyResumedError } from "./resume-claims.js";
export { currentRunCheckpoint, RESUME_CLAIMS_TABLE, type CheckpointRef } from "./refs.js";
export type { DeltaChannelSpec } from "./delta-history.js";

/**
 * The configurable key that marks a run addressed to an earlier checkpoint by its caller (time travel): its saves
 * branch off on purpose, so Tempo's saver claims their parent only when it is an open interrupt.
 */
export const BRANCH_RUN_KEY = "tempo_branch_run";

/** Options of {@link TempoPostgresSaver}. */
export interface TempoSaverOptions {
  /** Schema of the checkpoint tables. Default "public". */
  schema?: string;
  /** How long a write waits for the checkpoint its step runs from to be saved, in ms. Default 30 000. */
  saveWaitMs?: number;
}

/** PostgresSaver plus step-snapshot metadata and the one-resume-per-interrupt claim. */
export class TempoPostgresSaver extends PostgresSaver implements ResumeGuard {
  private readonly db: pg.Pool;
  private readonly tables: SaverTables;
  /** This process's saves: under way, saved, lost to another run's claim. */
  private readonly saves: SaveTracker;
  /** The plans of this process's recent saves, for the step-snapshot metadata. */
  private readonly snapshots: PlanSnapshots;
  /** This process's runs' writes on the checkpoints they run from, for their claims. */
  private readonly runWrites = new RunWrites(new Set(Object.keys(DELTA_CHANNELS)));

  constructor(pool: pg.Pool, options: TempoSaverOptions = {}) {
    const schema = options.schema ?? DEFAULT_CHECKPOINT_SCHEMA;
    if (!SCHEMA_PATTERN.test(schema)) {
      throw new ConfigurationError(
        `Invalid checkpoint schema name "${schema}": use letters, digits and underscores, starting with a letter or underscore.`,
        {
          schema,
        },
      );
    }
    // The official serializer, reading plain values without rebuilding them (plain-loads.ts).
    super(pool, new CheckpointSerializer(), { schema });
    this.db = pool;
    this.tables = saverTables(schema);
    this.saves = new SaveTracker(pool, this.tables, options.saveWaitMs ?? 30_000);
    this.snapshots = new PlanSnapshots(pool, this.tables, () => this.serde);
  }

  /** Creates the checkpoint tables (PostgresSaver's migrations) and the claims table; idempotent. */
  override async setup(): Promise<void> {
    await super.setup();
    await createClaimsTable(this.db, this.tables);
  }

  /** Saves a checkpoint as PostgresSaver does, adding step-snapshot metadata and claiming an interrupted parent. */
  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, string | number>,
  ): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new Error(`Missing "configurable" field in "config" param`);
    const {
      thread_id: threadId,
      checkpoint_ns: checkpointNs = "",
      checkpoint_id: parentId,
    } = config.configurable as Record<string, string | undefined>;
    // A missing thread id is passed through as PostgresSaver does: the database refuses it (thread_id is NOT NULL).
    const ref: CheckpointRef = { threadId: threadId as string, checkpointNs, checkpointId: checkpoint.id };
    const branch = (config.configurable as Record<string, unknown>)[BRANCH_RUN_KEY] === true;
    const written = parentId ? this.runWrites.take(config, { ...ref, checkpointId: parentId }) : undefined;
    await this.saves.track(ref, this.save(ref, parentId, checkpoint, metadata, newVersions, branch, written));
    return { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpoint.id } };
  }

  /**
   * Stores a task's writes as PostgresSaver does — an upsert when every write is a special channel (error, interrupt,
   * resume, scheduled), else an insert that keeps a stored write — in ONE statement of many rows instead of a
   * transaction of one statement a write: a conversation puts about 40 sets of writes, and each statement is a round
   * trip and a socket write. One statement is atomic as the transaction was. For an upsert a later write of the same
   * index wins, as it did when they were stored one after another.
   */
  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    // Tracked: the next checkpoint's save waits for these writes, and a write of the run waits for that save.
    return this.saves.trackWrites(config.configurable, this.storeWrites(config, writes, taskId));
  }

  private async storeWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    if (writes.length === 0) return;
    if (writes.length > MAX_ROWS_A_STATEMENT) {
      this.runWrites.unknownOn(config);
      return super.putWrites(config, writes, taskId);
    }
    const { thread_id, checkpoint_ns, checkpoint_id } = (config.configurable ?? {}) as Record<string, string>;
    const upsert = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    let rows = await this._dumpWrites(thread_id!, checkpoint_ns!, checkpoint_id!, taskId, writes);
    // Rows of one index once (Postgres refuses to update a row twice in one statement): the last, as stored in turn.
    if (upsert) rows = [...new Map(rows.map((row) => [row[4], row])).values()];
    const stored = await storeWriteRows(this.db, this.tables, rows as WriteRow[], upsert);
    // A row found in place may be another run's, from the same checkpoint: the claim writes over it (point 4).
    if (stored) this.runWrites.note(config, rows as WriteRow[], stored);
  }

  /** Deletes the thread's checkpoints, writes, blobs and resume claims. */
  override async deleteThread(threadId: string): Promise<void> {
    await super.deleteThread(threadId);
    await this.db.query(`DELETE FROM ${this.tables.claims} WHERE thread_id = $1`, [threadId]);
  }

  /**
   * The writes of `channels` along the parent chain of a checkpoint, back to the nearest ancestor that stores a value
   * for the channel (the seed), as LangGraph's default does with one `getTuple` per ancestor — here one query for
   * every channel at once. Writes are oldest first; within a checkpoint in (task id, index) order, as `getTuple` returns them.
   */
  override async getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<Record<string, DeltaChannelHistory>> {
    const {
      thread_id: threadId,
      checkpoint_ns: checkpointNs = "",
      checkpoint_id: checkpointId,
    } = (options.config.configurable ?? {}) as Record<string, string | undefined>;
    if (threadId === undefined || checkpointId === undefined) return super.getDeltaChannelHistory(options);
    const ref = { threadId, checkpointNs, checkpointId };
    return channelHistories(this.db, this.tables, this.serde, ref, options.channels);
  }

  /**
   * A delta channel's value at a checkpoint, rebuilt as LangGraph rebuilds it (its stored value, or the seed before
   * it with the writes since replayed through `spec`), serialised for a blob row; undefined when it has none. Reads
   * through `client` when given (retention rebuilds values inside its transaction).
   */
  async serializedDeltaValue(
    ref: CheckpointRef,
    channel: string,
    spec: DeltaChannelSpec,
    client?: pg.PoolClient,
  ): Promise<[string, Uint8Array] | undefined> {
    const history = (await channelHistories(client ?? this.db, this.tables, this.serde, ref, [channel], true))[
      channel
    ]!;
    const rebuilt = spec.fromCheckpoint(history.seed);
    rebuilt.replayWrites(history.writes);
    if (!rebuilt.isAvailable()) return undefined;
    return this.serde.dumpsTyped(rebuilt.get());
  }

  /**
   * For the execution log, before a write: waits until the checkpoint the current graph step runs from is saved.
   * Throws `AlreadyResumedError` when this process failed to save it because another run resumed first. Outside a
   * graph run, or when the checkpoint will not be saved before the run ends (durability "exit"), it lets the write
   * through: exactly-once still holds by the tool-call id.
   */
  async admitCurrentRun(): Promise<void> {
    const ref = currentRunCheckpoint();
    if (ref) await this.awaitCheckpointSaved(ref);
  }

  /**
   * Resolves "saved" once the checkpoint is in the database, "unknown" when no save of it is under way in this
   * process and it is not stored (e.g. durability "exit"); throws `AlreadyResumedError` when its save lost the
   * claim, and `TempoError` PERSISTENCE_FAILED when a save under way does not end within `saveWaitMs`.
   */
  async awaitCheckpointSaved(ref: CheckpointRef, graceMs = 250): Promise<"saved" | "unknown"> {
    return this.saves.awaitSaved(ref, graceMs);
  }

  private async save(
    ref: CheckpointRef,
    parentId: string | undefined,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, string | number>,
    branch = false,
    written?: ClaimedWrites,
  ): Promise<void> {
    const parentRef = parentId ? { ...ref, checkpointId: parentId } : undefined;
    // A branch from an earlier checkpoint (a run addressed to it, a fork) is deliberate, unless it branches off an
    // open interrupt (a late resume of a card already answered).
    const deliberate = branch || metadata.source === "fork";
    const claims = parentRef !== undefined && (!deliberate || (await isInterrupted(this.db, this.tables, parentRef)));
    const fullMetadata = await this.snapshots.metadataFor(ref, parentRef, checkpoint, metadata, newVersions);
    // A channel with a version but no value (a delta channel between snapshots, a run-only channel) reads the same with no row.
    const values = Object.fromEntries(
      Object.entries(checkpoint.channel_values).filter(([, value]) => value !== undefined),
    );
    const [allBlobs, dumpedMetadata] = await Promise.all([
      this._dumpBlobs(ref.threadId, ref.checkpointNs, values, newVersions),
      this._dumpMetadata(fullMetadata),
    ]);
    const blobs = allBlobs.filter((blob) => blob[4] !== EMPTY_BLOB_TYPE);
    // The whole save in ONE statement, atomic as the transaction below (BEGIN, three statements, COMMIT: issue 44.8).
    if (blobs.length > 0 && blobs.length <= MAX_ROWS_A_STATEMENT) {
      const claimed = claims ? parentId : undefined;
      const dumped = this._dumpCheckpoint(checkpoint);
      return saveInOneStatement(this.db, this.tables, ref, claimed, parentId, dumped, dumpedMetadata, blobs, written);
    }
    const client = await this.db.connect();
    try {
      await client.query("BEGIN");
      // The blobs in one statement of many rows (a round trip each was most of a save's statements).
      for (let first = 0; first < blobs.length; first += MAX_ROWS_A_STATEMENT) {
        const some = blobs.slice(first, first + MAX_ROWS_A_STATEMENT);
        await client.query(
          `INSERT INTO ${this.tables.blobs} (thread_id, checkpoint_ns, channel, version, type, blob)
           VALUES ${valuesList(some.length, 6)}
           ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING`,
          some.flat(),
        );
      }
      if (parentId && claims) await claimParent(client, this.tables, ref, parentId, written);
      await client.query(
        `INSERT INTO ${this.tables.checkpoints} (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
         DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`,
        [ref.threadId, ref.checkpointNs, ref.checkpointId, parentId, this._dumpCheckpoint(checkpoint), dumpedMetadata],
      );
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/** Rows of one multi-row INSERT at most (Postgres takes 65 535 parameters a statement; 8 a row at most here). */
const MAX_ROWS_A_STATEMENT = 1_000;

/** Options of {@link createTempoCheckpointer}. */
export type TempoCheckpointerOptions = TempoSaverOptions;

/**
 * Creates Tempo's checkpointer on `database.pool` and runs its idempotent setup under the same advisory lock as
 * `createCheckpointer`, so any number of processes may start at once. Close the `Database`, not the saver.
 */
export async function createTempoCheckpointer(
  database: Database,
  options: TempoCheckpointerOptions = {},
): Promise<TempoPostgresSaver> {
  const saver = new TempoPostgresSaver(database.pool, options);
  const schema = options.schema ?? DEFAULT_CHECKPOINT_SCHEMA;
  try {
    await withAdvisoryLock(database.pool, `tempo:checkpoints:setup:${schema}`, () => saver.setup());
  } catch (error) {
    throw checkpointSetupFailed(error, database, schema);
  }
  return saver;
}
