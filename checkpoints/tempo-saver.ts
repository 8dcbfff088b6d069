/**
 * Tempo's checkpointer: the official `PostgresSaver` (same tables, same
 * reads) with two additions made where LangGraph saves a checkpoint.
 *
 * 1. Step snapshots. A checkpoint whose plan (`planSteps` channel) has a step
 *    that became running, done or failed since its parent checkpoint gets
 *    `metadata.tempo_step = { stepId, status, transitions }`, so
 *    `stepSnapshots()` lists them (docs/design.md#persistence). Only
 *    when the plan channel has a new version, the two plans are compared:
 *    the parent's (remembered from this process's previous save, or rebuilt
 *    from the parent chain) and the new one (the checkpoint's stored copy,
 *    or the plan the step wrote at the parent, which LangGraph stores
 *    before it saves the checkpoint of a delta channel). The plan may be a
 *    plain channel or a delta channel (Tempo's is one: `kernel/channels.ts`).
 *
 * 2. One run on from each checkpoint. The first checkpoint saved on top of
 *    another claims it: a row in `tempo_resume_claims`, keyed by the parent,
 *    inserted in the same transaction as the new checkpoint — for every save
 *    of a run (an interrupt's resume, a run carried on after a crash, a new
 *    message), and for a branch (time travel: a run its caller addressed to
 *    an earlier checkpoint, `BRANCH_RUN_KEY`, or a `source: "fork"` save)
 *    only when it branches off an interrupted checkpoint. A second run going on from the same
 *    checkpoint — a second resume of one interrupt, two workers carrying one
 *    stopped run on — fails to save with a `TempoError` coded
 *    `ALREADY_RESUMED` instead of forking the thread, and — through
 *    `admitCurrentRun`, which the execution log calls before a write — never
 *    applies a write: a write waits until the checkpoint its step runs from
 *    is saved (which happens within milliseconds for the run that owns the
 *    thread), and is refused when that save lost the claim. Row uniqueness,
 *    not advisory locks, decides the winner, so it holds on the embedded
 *    server too.
 *
 * 3. Delta channels. The message list is a LangGraph `DeltaChannel` (see
 *    `kernel/channels.ts`): most checkpoints store no value for it, only the
 *    writes of each step. `getDeltaChannelHistory` (what LangGraph calls to
 *    rebuild such a value) walks the parent chain in one recursive query
 *    instead of one `getTuple` per ancestor, so loading a thread costs the
 *    same on turn 200 as on turn 2. Channels without a value in a checkpoint
 *    get no blob row at all (PostgresSaver writes an "empty" row for each,
 *    which its reads skip).
 *
 * The save is PostgresSaver 1.0.5's own statements (blobs, then the
 * checkpoint, in one transaction) plus the claim; LangGraph's checkpointer
 * conformance suite runs against this class.
 */
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { isDeltaSnapshot } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { INTERRUPT, type Checkpoint, type CheckpointMetadata } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";

import { ConfigurationError, TempoError } from "../errors/index.js";
import { SCHEMA_PATTERN, withAdvisoryLock, type Database } from "../database/index.js";
import type { ResumeGuard } from "./execution-log.js";
import { checkpointSetupFailed, DEFAULT_CHECKPOINT_SCHEMA } from "./saver.js";
import { asPlanSteps, STEP_SNAPSHOT_METADATA_KEY, stepSnapshotMarker } from "./step-transitions.js";
import { applyPlanWrites, PLAN_CHANNEL, type PlanWrite } from "../kernel/channels.js";

/**
 * The configurable key that marks a run addressed to an earlier checkpoint by its caller (time travel): its saves
 * branch off on purpose, so Tempo's saver claims their parent only when it is an open interrupt.
 */
export const BRANCH_RUN_KEY = "tempo_branch_run";

type Plan = ReturnType<typeof asPlanSteps>;

/** Table of the resume claims, next to the checkpoint tables. */
export const RESUME_CLAIMS_TABLE = "tempo_resume_claims";

export { PLAN_CHANNEL };

/** What `getDeltaChannelHistory` returns for one channel: its writes oldest first, and the value they start from. */
type DeltaChannelHistory = Awaited<ReturnType<PostgresSaver["getDeltaChannelHistory"]>>[string];

/** What retention needs of a delta channel's spec (a LangGraph `DeltaChannel`) to rebuild its value. */
export interface DeltaChannelSpec {
  fromCheckpoint(checkpoint: unknown): {
    replayWrites(writes: DeltaChannelHistory["writes"]): void;
    isAvailable(): boolean;
    get(): unknown;
  };
}

/** Blob type PostgresSaver gives a channel that has a version but no value in a checkpoint; its reads skip such rows. */
const EMPTY_BLOB_TYPE = "empty";

/** Where a checkpoint is: thread, namespace, id. */
export interface CheckpointRef {
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
}

/** Options of {@link TempoPostgresSaver}. */
export interface TempoSaverOptions {
  /** Schema of the checkpoint tables. Default "public". */
  schema?: string;
  /** How long a write waits for the checkpoint its step runs from to be saved, in ms. Default 30 000. */
  saveWaitMs?: number;
}

/** The error a run gets when another run resumed the same interrupt (or went on from the same checkpoint) first. */
export class AlreadyResumedError extends TempoError {
  constructor(ref: CheckpointRef, interruptedCheckpointId: string, winnerCheckpointId: string) {
    super(
      "ALREADY_RESUMED",
      `Thread ${ref.threadId} was already resumed from checkpoint ${interruptedCheckpointId} by another run ` +
        `(its next checkpoint is ${winnerCheckpointId}); this run stopped without saving or applying anything. ` +
        "Read the thread's current state and answer its current interrupt, if any.",
      {
        threadId: ref.threadId,
        checkpointNs: ref.checkpointNs,
        interruptedCheckpointId,
        winnerCheckpointId,
        checkpointId: ref.checkpointId,
      },
    );
    this.name = "AlreadyResumedError";
  }
}

const REMEMBERED = 5_000;

/** PostgresSaver plus step-snapshot metadata and the one-resume-per-interrupt claim. */
export class TempoPostgresSaver extends PostgresSaver implements ResumeGuard {
  private readonly db: pg.Pool;
  private readonly tables: { checkpoints: string; blobs: string; writes: string; claims: string };
  private readonly saveWaitMs: number;
  /** Saves in flight in this process, by checkpoint key. */
  private readonly saving = new Map<string, Promise<void>>();
  /** Checkpoints this process saved (recent ones), by key. */
  private readonly saved = new Map<string, true>();
  /** Checkpoints this process failed to save because another run resumed first, by key. */
  private readonly lost = new Map<string, AlreadyResumedError>();
  /**
   * The last save this process lost on each thread (by thread prefix): the checkpoints a run makes after one it lost
   * are never saved (LangGraph saves them one after another), so a write waiting on one of them is refused too.
   */
  private readonly lostOnThread = new Map<string, { checkpointId: string; error: AlreadyResumedError; at: number }>();
  /** The plan at checkpoints this process saved (recent ones), by key: the parent plan of the next save, unread. */
  private readonly plans = new Map<string, Plan>();

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
    super(pool, undefined, { schema });
    this.db = pool;
    this.saveWaitMs = options.saveWaitMs ?? 30_000;
    this.tables = {
      checkpoints: `"${schema}".checkpoints`,
      blobs: `"${schema}".checkpoint_blobs`,
      writes: `"${schema}".checkpoint_writes`,
      claims: `"${schema}".${RESUME_CLAIMS_TABLE}`,
    };
  }

  /** Creates the checkpoint tables (PostgresSaver's migrations) and the claims table; idempotent. */
  override async setup(): Promise<void> {
    await super.setup();
    await this.db.query(
      `CREATE TABLE IF NOT EXISTS ${this.tables.claims} (
        thread_id text NOT NULL,
        checkpoint_ns text NOT NULL DEFAULT '',
        parent_checkpoint_id text NOT NULL,
        checkpoint_id text NOT NULL,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (thread_id, checkpoint_ns, parent_checkpoint_id)
      )`,
    );
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
    const key = keyOf(ref);
    const branch = (config.configurable as Record<string, unknown>)[BRANCH_RUN_KEY] === true;
    const work = this.save(ref, parentId, checkpoint, metadata, newVersions, branch);
    this.saving.set(key, work);
    try {
      await work;
      remember(this.saved, key, true);
    } catch (error) {
      if (error instanceof AlreadyResumedError) {
        remember(this.lost, key, error);
        remember(this.lostOnThread, threadPrefix(ref), { checkpointId: checkpoint.id, error, at: Date.now() });
      }
      throw error;
    } finally {
      if (this.saving.get(key) === work) this.saving.delete(key);
    }
    return { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpoint.id } };
  }

  /** Deletes the thread's checkpoints, writes, blobs and resume claims. */
  override async deleteThread(threadId: string): Promise<void> {
    await super.deleteThread(threadId);
    await this.db.query(`DELETE FROM ${this.tables.claims} WHERE thread_id = $1`, [threadId]);
  }

  /**
   * The writes of `channels` along the parent chain of a checkpoint, back to the nearest ancestor that stores a value
   * for the channel (the seed), as LangGraph's default does with one `getTuple` per ancestor — here one query per
   * channel. Writes are oldest first; within a checkpoint in (task id, index) order, as `getTuple` returns them.
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
    const histories: Record<string, DeltaChannelHistory> = {};
    for (const channel of options.channels)
      histories[channel] = await this.channelHistory({ threadId, checkpointNs, checkpointId }, channel);
    return histories;
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
    const history = await this.channelHistory(ref, channel, client, true);
    const rebuilt = spec.fromCheckpoint(history.seed);
    rebuilt.replayWrites(history.writes);
    if (!rebuilt.isAvailable()) return undefined;
    return this.serde.dumpsTyped(rebuilt.get());
  }

  /**
   * The writes of `channel` on the parent chain of a checkpoint back to the nearest checkpoint that stores a value
   * for it (the seed). With `fromTarget`, the walk starts at the checkpoint itself (its own stored value is the
   * seed, its own writes are not included); otherwise at its parent, as `getDeltaChannelHistory` requires.
   */
  private async channelHistory(
    ref: CheckpointRef,
    channel: string,
    client?: pg.PoolClient,
    fromTarget = false,
  ): Promise<DeltaChannelHistory> {
    const result = await (client ?? this.db).query<{
      depth: number;
      seed_type: string | null;
      seed: Buffer | null;
      writes: Array<[Buffer, Buffer, Buffer]> | null;
    }>(
      `WITH RECURSIVE chain AS (
         SELECT cp.checkpoint_id, cp.parent_checkpoint_id, 0 AS depth,
                $5::boolean AND EXISTS (SELECT 1 FROM ${this.tables.blobs} bl
                                         WHERE bl.thread_id = $1 AND bl.checkpoint_ns = $2 AND bl.channel = $4
                                           AND bl.version = cp.checkpoint -> 'channel_versions' ->> $4 AND bl.type <> '${EMPTY_BLOB_TYPE}') AS seeded
           FROM ${this.tables.checkpoints} cp
          WHERE cp.thread_id = $1 AND cp.checkpoint_ns = $2 AND cp.checkpoint_id = $3
         UNION ALL
         SELECT parent.checkpoint_id, parent.parent_checkpoint_id, chain.depth + 1,
                EXISTS (SELECT 1 FROM ${this.tables.blobs} bl
                         WHERE bl.thread_id = $1 AND bl.checkpoint_ns = $2 AND bl.channel = $4
                           AND bl.version = parent.checkpoint -> 'channel_versions' ->> $4 AND bl.type <> '${EMPTY_BLOB_TYPE}')
           FROM chain
           JOIN ${this.tables.checkpoints} parent
             ON parent.thread_id = $1 AND parent.checkpoint_ns = $2 AND parent.checkpoint_id = chain.parent_checkpoint_id
          WHERE NOT chain.seeded
       )
       SELECT chain.depth,
              seed.type AS seed_type, seed.blob AS seed,
              (SELECT array_agg(array[cw.task_id::bytea, cw.type::bytea, cw.blob] ORDER BY cw.task_id, cw.idx)
                 FROM ${this.tables.writes} cw
                WHERE cw.thread_id = $1 AND cw.checkpoint_ns = $2 AND cw.checkpoint_id = chain.checkpoint_id AND cw.channel = $4) AS writes
         FROM chain
         LEFT JOIN ${this.tables.checkpoints} cp
           ON chain.seeded AND cp.thread_id = $1 AND cp.checkpoint_ns = $2 AND cp.checkpoint_id = chain.checkpoint_id
         LEFT JOIN ${this.tables.blobs} seed
           ON chain.seeded AND seed.thread_id = $1 AND seed.checkpoint_ns = $2 AND seed.channel = $4
          AND seed.version = cp.checkpoint -> 'channel_versions' ->> $4
        WHERE chain.depth > 0 OR chain.seeded
        ORDER BY chain.depth DESC`,
      [ref.threadId, ref.checkpointNs, ref.checkpointId, channel, fromTarget],
    );
    const decoder = new TextDecoder();
    const history: DeltaChannelHistory = { writes: [] };
    for (const row of result.rows) {
      if (row.seed_type && row.seed)
        history.seed = await this.serde.loadsTyped(row.seed_type, new Uint8Array(row.seed));
      // The target's own writes lead to its children: not part of its value.
      if (row.depth === 0) continue;
      for (const [taskId, type, blob] of row.writes ?? []) {
        history.writes.push([
          decoder.decode(taskId),
          channel,
          await this.serde.loadsTyped(decoder.decode(type), new Uint8Array(blob)),
        ]);
      }
    }
    return history;
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
    const key = keyOf(ref);
    const deadline = Date.now() + this.saveWaitMs;
    let idleSince: number | undefined;
    for (;;) {
      const lost = this.lost.get(key);
      if (lost) throw lost;
      if (this.saved.has(key)) return "saved";
      const own = this.saving.get(key);
      if (own) {
        await own.catch(() => undefined);
        continue;
      }
      if (await this.isStored(ref)) return "saved";
      // LangGraph saves a run's checkpoints one after the other: this one may be queued behind another of the thread.
      const queued = [...this.saving.entries()]
        .filter(([other]) => other.startsWith(threadPrefix(ref)))
        .map(([, promise]) => promise);
      if (queued.length > 0) {
        idleSince = undefined;
        await Promise.race([Promise.allSettled(queued), sleep(Math.max(0, deadline - Date.now()))]);
      } else {
        idleSince ??= Date.now();
        // A later checkpoint (ids are time-ordered) of a run whose earlier save on this thread just lost its claim.
        const lostBefore = this.lostOnThread.get(threadPrefix(ref));
        if (lostBefore && lostBefore.checkpointId < ref.checkpointId && Date.now() - lostBefore.at < this.saveWaitMs)
          throw lostBefore.error;
        if (Date.now() - idleSince >= graceMs) return "unknown";
        await sleep(10);
      }
      if (Date.now() > deadline) {
        throw new TempoError(
          "PERSISTENCE_FAILED",
          `Checkpoint ${ref.checkpointId} of thread ${ref.threadId} was not saved within ${this.saveWaitMs} ms, so the write waiting on it was not applied.`,
          { ...ref },
        );
      }
    }
  }

  private async save(
    ref: CheckpointRef,
    parentId: string | undefined,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, string | number>,
    branch = false,
  ): Promise<void> {
    const parentRef = parentId ? { ...ref, checkpointId: parentId } : undefined;
    // A branch from an earlier checkpoint (a run addressed to it, a fork) is deliberate, unless it branches off an
    // open interrupt (a late resume of a card already answered).
    const deliberate = branch || metadata.source === "fork";
    const claims = parentRef !== undefined && (!deliberate || (await this.isInterrupted(parentRef)));
    let fullMetadata = metadata;
    if (Object.prototype.hasOwnProperty.call(newVersions, PLAN_CHANNEL)) {
      const before = parentRef ? await this.planAt(parentRef) : [];
      const stored = checkpoint.channel_values[PLAN_CHANNEL];
      const after =
        stored !== undefined ? planOf(stored) : parentRef ? await this.planAfterWrites(parentRef, before) : [];
      remember(this.plans, keyOf(ref), after);
      const marker = stepSnapshotMarker(before, after);
      if (marker) fullMetadata = { ...metadata, [STEP_SNAPSHOT_METADATA_KEY]: marker } as CheckpointMetadata;
    } else {
      const unchanged = parentRef && this.plans.get(keyOf(parentRef));
      if (unchanged) remember(this.plans, keyOf(ref), unchanged);
    }
    // A channel with a version but no value (a delta channel between snapshots, a run-only channel) reads the same with no row.
    const values = Object.fromEntries(
      Object.entries(checkpoint.channel_values).filter(([, value]) => value !== undefined),
    );
    const [allBlobs, dumpedMetadata] = await Promise.all([
      this._dumpBlobs(ref.threadId, ref.checkpointNs, values, newVersions),
      this._dumpMetadata(fullMetadata),
    ]);
    const blobs = allBlobs.filter((blob) => blob[4] !== EMPTY_BLOB_TYPE);
    const client = await this.db.connect();
    try {
      await client.query("BEGIN");
      for (const blob of blobs) {
        await client.query(
          `INSERT INTO ${this.tables.blobs} (thread_id, checkpoint_ns, channel, version, type, blob)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING`,
          blob,
        );
      }
      if (parentId && claims) {
        const claim = await client.query<{ checkpoint_id: string }>(
          `INSERT INTO ${this.tables.claims} AS claim (thread_id, checkpoint_ns, parent_checkpoint_id, checkpoint_id)
           VALUES ($1, $2, $3, $4)
           ON CONFLICT (thread_id, checkpoint_ns, parent_checkpoint_id) DO UPDATE SET checkpoint_id = claim.checkpoint_id
           RETURNING checkpoint_id`,
          [ref.threadId, ref.checkpointNs, parentId, ref.checkpointId],
        );
        const winner = claim.rows[0]?.checkpoint_id ?? "";
        if (winner !== ref.checkpointId) throw new AlreadyResumedError(ref, parentId, winner);
      }
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

  /** Whether the parent has pending interrupts, and (when asked) its plan, read from the blob its version points at. */
  /** Whether `ref` is an interrupted checkpoint (it has `__interrupt__` writes): the first save on top of it claims it. */
  private async isInterrupted(ref: CheckpointRef): Promise<boolean> {
    const result = await this.db.query(
      `SELECT 1 FROM ${this.tables.writes} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 AND channel = $4 LIMIT 1`,
      [ref.threadId, ref.checkpointNs, ref.checkpointId, INTERRUPT],
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** The plan at checkpoint `ref`: remembered from this process's save, or its stored copy and the plan writes after it on its parent chain. */
  private async planAt(ref: CheckpointRef): Promise<Plan> {
    const remembered = this.plans.get(keyOf(ref));
    if (remembered) return remembered;
    const history = await this.channelHistory(ref, PLAN_CHANNEL, undefined, true);
    return applyPlanWrites(
      planOf(history.seed),
      history.writes.map(([, , write]) => write as PlanWrite<Plan[number]>),
    );
  }

  /** The plan after the writes of the step that runs from checkpoint `ref` (stored under `ref`), applied to `before`, the plan at `ref`. */
  private async planAfterWrites(ref: CheckpointRef, before: Plan): Promise<Plan> {
    const result = await this.db.query<{ type: string; blob: Buffer | null }>(
      `SELECT type, blob FROM ${this.tables.writes}
        WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 AND channel = $4
        ORDER BY task_id, idx`,
      [ref.threadId, ref.checkpointNs, ref.checkpointId, PLAN_CHANNEL],
    );
    const writes: PlanWrite<Plan[number]>[] = [];
    for (const row of result.rows)
      if (row.blob)
        writes.push((await this.serde.loadsTyped(row.type, new Uint8Array(row.blob))) as PlanWrite<Plan[number]>);
    return applyPlanWrites(before, writes);
  }

  private async isStored(ref: CheckpointRef): Promise<boolean> {
    const result = await this.db.query(
      `SELECT 1 FROM ${this.tables.checkpoints} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`,
      [ref.threadId, ref.checkpointNs, ref.checkpointId],
    );
    return (result.rowCount ?? 0) > 0;
  }
}

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

/** The checkpoint the current LangGraph task runs from (its thread, namespace and id), or undefined outside a run. */
export function currentRunCheckpoint(): CheckpointRef | undefined {
  const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as RunnableConfig | undefined;
  const configurable = (config?.configurable ?? {}) as Record<string, unknown>;
  const map = configurable.checkpoint_map as Record<string, string> | undefined;
  const threadId = configurable.thread_id;
  if (!map || typeof threadId !== "string") return undefined;
  // The innermost graph's entry is the last one added.
  const innermost = Object.entries(map).at(-1);
  if (!innermost || typeof innermost[1] !== "string") return undefined;
  return { threadId, checkpointNs: innermost[0], checkpointId: innermost[1] };
}

/** A stored plan value as steps: a plain value, or a delta channel's whole copy (`DeltaSnapshot`). */
function planOf(value: unknown): Plan {
  return asPlanSteps(isDeltaSnapshot(value) ? value.value : value);
}

function keyOf(ref: CheckpointRef): string {
  return `${threadPrefix(ref)}${ref.checkpointId}`;
}

function threadPrefix(ref: Pick<CheckpointRef, "threadId" | "checkpointNs">): string {
  return `${ref.threadId}\u0000${ref.checkpointNs}\u0000`;
}

/** Sets `key` in a map used as a bounded memory of recent entries (oldest dropped first). */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
