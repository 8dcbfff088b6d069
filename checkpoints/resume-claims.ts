/**
 * One run on from each checkpoint (tempo-saver.ts, point 2). The first checkpoint saved on top of another claims it:
 * a row in `tempo_resume_claims`, keyed by the parent, inserted in the save's transaction; a second run going on from
 * the same checkpoint fails to save with `AlreadyResumedError`. This process's own saves are tracked here too, so a
 * write waits until the checkpoint its step runs from is saved, and is refused when that save lost the claim.
 */
import { INTERRUPT } from "@langchain/langgraph";
import type pg from "pg";

import { TempoError } from "../errors/index.js";
import { storeWriteRows, type ClaimedWrites } from "./contested-writes.js";
import { keyOf, remember, threadPrefix, type CheckpointRef, type SaverTables } from "./refs.js";

/** The error a run gets when another run resumed the same interrupt (or went on from the same checkpoint) first. */
export class AlreadyResumedError extends TempoError {
  constructor(ref: CheckpointRef, interruptedCheckpointId: string, winnerCheckpointId: string) {
    super(
      "ALREADY_RESUMED",
      `Thread ${ref.threadId} was already resumed from checkpoint ${interruptedCheckpointId} by another run ` +
        `(the thread went on to checkpoint ${winnerCheckpointId}); this run stopped without saving or applying anything. ` +
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

/** Creates the claims table; idempotent. A claim keeps its run's writes on the parent (`contested-writes.ts`). */
export async function createClaimsTable(db: pg.Pool, tables: SaverTables): Promise<void> {
  await db.query(
    `CREATE TABLE IF NOT EXISTS ${tables.claims} (
      thread_id text NOT NULL,
      checkpoint_ns text NOT NULL DEFAULT '',
      parent_checkpoint_id text NOT NULL,
      checkpoint_id text NOT NULL,
      claimed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (thread_id, checkpoint_ns, parent_checkpoint_id)
    )`,
  );
  await db.query(
    `ALTER TABLE ${tables.claims} ADD COLUMN IF NOT EXISTS task_ids text[], ADD COLUMN IF NOT EXISTS write_keys text[]`,
  );
}

/**
 * Claims `parentId` for the checkpoint `ref`, inside the save's transaction on `client`. Throws
 * `AlreadyResumedError` when another checkpoint claimed it first: row uniqueness, not advisory locks, decides.
 */
export async function claimParent(
  client: pg.PoolClient,
  tables: SaverTables,
  ref: CheckpointRef,
  parentId: string,
  written?: ClaimedWrites,
): Promise<void> {
  const claim = await client.query<{ checkpoint_id: string }>(
    `INSERT INTO ${tables.claims} AS claim (thread_id, checkpoint_ns, parent_checkpoint_id, checkpoint_id, task_ids, write_keys)
     VALUES ($1, $2, $3, $4, $5::text[], $6::text[])
     ON CONFLICT (thread_id, checkpoint_ns, parent_checkpoint_id) DO UPDATE SET checkpoint_id = claim.checkpoint_id
     RETURNING checkpoint_id`,
    [ref.threadId, ref.checkpointNs, parentId, ref.checkpointId, written?.taskIds ?? null, written?.writeKeys ?? null],
  );
  const winner = claim.rows[0]?.checkpoint_id ?? "";
  if (winner !== ref.checkpointId) throw new AlreadyResumedError(ref, parentId, winner);
  // Its rows that found another run's in place, written over it (`contested-writes.ts`).
  if (written && written.overwrite.length > 0) await storeWriteRows(client, tables, written.overwrite, true);
}

/**
 * Saves a checkpoint in ONE statement, atomic as a transaction: with `claimedParent`, its claim first, and the blobs
 * and the checkpoint only when the claim holds — else nothing is stored and `AlreadyResumedError` is thrown, as
 * `claimParent` throws inside the save's transaction. `blobs` are PostgresSaver's blob rows (thread, namespace,
 * channel, version, type, blob), at least one; `checkpoint` and `metadata` its serialised checkpoint and metadata.
 * `written`, the claiming run's writes on the parent: kept with the claim, and its rows that found another run's in
 * place written over them when the claim holds (`contested-writes.ts`).
 */
export async function saveInOneStatement(
  db: pg.Pool,
  tables: SaverTables,
  ref: CheckpointRef,
  claimedParent: string | undefined,
  parentId: string | undefined,
  checkpoint: unknown,
  metadata: unknown,
  blobs: ReadonlyArray<readonly unknown[]>,
  written?: ClaimedWrites,
): Promise<void> {
  const overwrite = claimedParent !== undefined ? (written?.overwrite ?? []) : [];
  const result = await db.query<{ winner: string | null }>(
    `WITH claim AS (
       INSERT INTO ${tables.claims} AS claim (thread_id, checkpoint_ns, parent_checkpoint_id, checkpoint_id, task_ids, write_keys)
       SELECT $1, $2, $7, $3, $8::text[], $9::text[] WHERE $7::text IS NOT NULL
       ON CONFLICT (thread_id, checkpoint_ns, parent_checkpoint_id) DO UPDATE SET checkpoint_id = claim.checkpoint_id
       RETURNING checkpoint_id
     ), held AS (
       SELECT 1 WHERE $7::text IS NULL OR EXISTS (SELECT 1 FROM claim WHERE claim.checkpoint_id = $3)
     ), blobs AS (
       INSERT INTO ${tables.blobs} (thread_id, checkpoint_ns, channel, version, type, blob)
       SELECT * FROM (VALUES ${blobRowsList(blobs.length)}) AS row (thread_id, checkpoint_ns, channel, version, type, blob)
        WHERE EXISTS (SELECT 1 FROM held)
       ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
     ), saved AS (
       INSERT INTO ${tables.checkpoints} (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
       SELECT $1, $2, $3, $4, $5::jsonb, $6::jsonb WHERE EXISTS (SELECT 1 FROM held)
       ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
       DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata
     ), overwritten AS (
       INSERT INTO ${tables.writes} (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
       SELECT $1, $2, $7, row.* FROM unnest($10::text[], $11::integer[], $12::text[], $13::text[], $14::bytea[])
           AS row (task_id, idx, channel, type, blob)
        WHERE EXISTS (SELECT 1 FROM held)
       ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
       DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob
     )
     SELECT (SELECT checkpoint_id FROM claim) AS winner`,
    [
      ref.threadId,
      ref.checkpointNs,
      ref.checkpointId,
      parentId ?? null,
      checkpoint,
      metadata,
      claimedParent ?? null,
      written?.taskIds ?? null,
      written?.writeKeys ?? null,
      // The overwritten rows by column (on the claimed parent: $1, $2, $7).
      ...[3, 4, 5, 6, 7].map((column) => overwrite.map((row) => row[column])),
      ...blobs.flatMap((blob) => blob.slice(2)),
    ],
  );
  const winner = result.rows[0]?.winner ?? "";
  if (claimedParent !== undefined && winner !== ref.checkpointId)
    throw new AlreadyResumedError(ref, claimedParent, winner);
}

/** The parameter of `saveInOneStatement`'s first blob row: the statement's own come before it. */
const FIRST_BLOB_PARAMETER = 15;

/**
 * The VALUES of `rows` blob rows of `saveInOneStatement`: the thread and namespace are $1 and $2, each row's channel,
 * version, type and blob four parameters of its own after the statement's own.
 */
function blobRowsList(rows: number): string {
  return Array.from({ length: rows }, (_, row) => {
    const first = FIRST_BLOB_PARAMETER + row * 4;
    return `($1, $2, ${[`$${first}`, `$${first + 1}`, `$${first + 2}`, `$${first + 3}::bytea`].join(", ")})`;
  }).join(", ");
}

/** Whether `ref` is an interrupted checkpoint (it has `__interrupt__` writes): the first save on top of it claims it. */
export async function isInterrupted(db: pg.Pool, tables: SaverTables, ref: CheckpointRef): Promise<boolean> {
  const result = await db.query(
    `SELECT 1 FROM ${tables.writes} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 AND channel = $4 LIMIT 1`,
    [ref.threadId, ref.checkpointNs, ref.checkpointId, INTERRUPT],
  );
  return (result.rowCount ?? 0) > 0;
}

/** This process's saves: under way, done, and lost to another run's claim — what a write waiting on one is told. */
export class SaveTracker {
  /** Saves in flight in this process, by checkpoint key. */
  private readonly saving = new Map<string, Promise<void>>();
  /** Checkpoints this process saved (recent ones), by key. */
  private readonly saved = new Map<string, true>();
  /** Checkpoints this process failed to save because another run resumed first, by key. */
  private readonly lost = new Map<string, AlreadyResumedError>();
  /**
   * Task writes being stored in this process, by thread prefix. LangGraph starts a checkpoint's save only once the
   * delta-channel writes before it are stored, so until then a checkpoint coming looks like none (see `awaitSaved`).
   */
  private readonly writing = new Map<string, Set<Promise<void>>>();
  /**
   * The last save this process lost on each thread (by thread prefix): the checkpoints a run makes after one it lost
   * are never saved (LangGraph saves them one after another), so a write waiting on one of them is refused too.
   */
  private readonly lostOnThread = new Map<string, { checkpointId: string; error: AlreadyResumedError; at: number }>();

  constructor(
    private readonly db: pg.Pool,
    private readonly tables: SaverTables,
    private readonly saveWaitMs: number,
  ) {}

  /** Follows the save `work` of checkpoint `ref` (started by the caller), and ends as it ends. */
  async track(ref: CheckpointRef, work: Promise<void>): Promise<void> {
    const key = keyOf(ref);
    this.saving.set(key, work);
    try {
      await work;
      remember(this.saved, key, true);
    } catch (error) {
      if (error instanceof AlreadyResumedError) {
        remember(this.lost, key, error);
        remember(this.lostOnThread, threadPrefix(ref), { checkpointId: ref.checkpointId, error, at: Date.now() });
      }
      throw error;
    } finally {
      if (this.saving.get(key) === work) this.saving.delete(key);
    }
  }

  /** Follows the storing `work` of task writes on the thread of `configurable` (started by the caller). */
  async trackWrites(configurable: Record<string, unknown> | undefined, work: Promise<void>): Promise<void> {
    const prefix = threadPrefix({
      threadId: String(configurable?.thread_id),
      checkpointNs: String(configurable?.checkpoint_ns ?? ""),
    });
    const onThread = this.writing.get(prefix) ?? new Set<Promise<void>>();
    this.writing.set(prefix, onThread);
    onThread.add(work);
    try {
      await work;
    } finally {
      onThread.delete(work);
      if (onThread.size === 0 && this.writing.get(prefix) === onThread) this.writing.delete(prefix);
    }
  }

  /**
   * Resolves "saved" once the checkpoint is in the database, "unknown" when no save of it is under way in this
   * process and it is not stored (e.g. durability "exit"); throws `AlreadyResumedError` when its save lost the
   * claim, and `TempoError` PERSISTENCE_FAILED when a save under way does not end within `saveWaitMs`.
   */
  async awaitSaved(ref: CheckpointRef, graceMs: number): Promise<"saved" | "unknown"> {
    const key = keyOf(ref);
    const deadline = Date.now() + this.saveWaitMs;
    let idleSince: number | undefined;
    for (;;) {
      if (this.outcomeOf(key) === "saved") return "saved";
      const own = this.saving.get(key);
      if (own) {
        await own.catch(() => undefined);
        continue;
      }
      if (await this.isStored(ref)) return "saved";
      // Asked again: the save may have started and ended while the database was asked (LangGraph calls \`put\` a few
      // ticks after the writes before it are stored), and with no grace left nothing else would tell it lost.
      if (this.outcomeOf(key) === "saved") return "saved";
      // LangGraph saves a run's checkpoints one after the other, each once the task writes before it are stored: this
      // one may be queued behind another save of the thread, or behind writes (under load they can take any time, so
      // the grace below must not be what covers them: a run that lost the claim would apply its writes meanwhile).
      const queued = [
        ...[...this.saving.entries()].filter(([other]) => other.startsWith(threadPrefix(ref))).map(([, work]) => work),
        ...(this.writing.get(threadPrefix(ref)) ?? []),
      ];
      if (queued.length > 0) {
        idleSince = undefined;
        await sleep(Math.max(0, deadline - Date.now()), Promise.allSettled(queued));
      } else {
        idleSince ??= Date.now();
        if (Date.now() - idleSince >= graceMs) {
          // A later checkpoint (ids are time-ordered) of a run whose earlier save on this thread just lost its claim.
          // Judged only once the grace is over: a new run's save may not have started yet (LangGraph starts it once the
          // save before it ends), and until it starts that run's checkpoint looks like the losing run's.
          const lostBefore = this.lostOnThread.get(threadPrefix(ref));
          if (lostBefore && lostBefore.checkpointId < ref.checkpointId && Date.now() - lostBefore.at < this.saveWaitMs)
            throw lostBefore.error;
          return "unknown";
        }
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

  /** "saved" when this process saved the checkpoint of `key`; throws the claim's error when its save lost. */
  private outcomeOf(key: string): "saved" | undefined {
    const lost = this.lost.get(key);
    if (lost) throw lost;
    return this.saved.has(key) ? "saved" : undefined;
  }

  private async isStored(ref: CheckpointRef): Promise<boolean> {
    const result = await this.db.query(
      `SELECT 1 FROM ${this.tables.checkpoints} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`,
      [ref.threadId, ref.checkpointNs, ref.checkpointId],
    );
    return (result.rowCount ?? 0) > 0;
  }
}

/** Resolves after `ms`, or once `until` settles, clearing the timer (left running, it kept a finished process alive). */
function sleep(ms: number, until?: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const slept = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return until ? Promise.race([until, slept]).then(() => clearTimeout(timer)) : slept;
}
