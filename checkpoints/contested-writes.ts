/**
 * Two runs going on from one checkpoint write the same task writes on it (tempo-saver.ts, point 4). LangGraph names
 * a task by its checkpoint, step and node, so both runs' writes of a step land on the same rows — (checkpoint, task,
 * index) — and PostgresSaver keeps the first stored: the loser's, when it stored first. Only the winner's checkpoint
 * is saved (`resume-claims.ts`), but a delta channel's value there (the message list) is rebuilt from its parent's
 * writes, so it read the loser's messages: a losing answer's "rejected" replies in the winning thread, its calls
 * answered twice or never.
 *
 * So each run's writes on a checkpoint are noted here, by run (LangGraph's per-run `config.control`), and its claim of
 * that checkpoint carries them:
 * - the tasks it wrote and the keys (task, index) of its rows on delta channels: the claim row stores them, and a
 *   delta channel's history reads a claimed parent's rows of those tasks only at those keys — a loser's rows at other
 *   keys, stored before or after the claim, are never read (`delta-history.ts`);
 * - its rows that found another run's row in place (the insert kept the stored one): the claim's statement writes
 *   them over, in the same statement as the claim, so the keys hold the winner's writes.
 *
 * A run's rows whose run is not known (no `config.control`, e.g. `updateState`) are noted by checkpoint; if two such
 * writers wrote one key, nothing is noted for that checkpoint and its reads are as PostgresSaver's.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type pg from "pg";
import { keyOf, remember, valuesList, type CheckpointRef, type SaverTables } from "./refs.js";

/** One `checkpoint_writes` row as Tempo's saver stores it: thread, namespace, checkpoint, task, index, channel, type, blob. */
export type WriteRow = [string, string, string, string, number, string, string, Uint8Array];

/** What a claim of a parent carries of the claiming run's writes on it. */
export interface ClaimedWrites {
  /** The tasks the run wrote on the parent. */
  taskIds: string[];
  /** `task:index` of each of its rows on the channels a claim keeps (the delta channels). */
  writeKeys: string[];
  /** The run's rows that found another's in place, to write over it with the claim. */
  overwrite: WriteRow[];
}

interface Noted {
  /** The tasks the run wrote. */
  tasks: Set<string>;
  /** Every row's key, and the keys of its rows on the channels a claim keeps. */
  seen: Set<string>;
  kept: Set<string>;
  /** Its rows that found another's in place, by key. */
  overwrite: Map<string, WriteRow>;
  /** Two writers of one key could not be told apart: note nothing for this checkpoint. */
  unknown: boolean;
}

/** The key of a row within its checkpoint. */
export function writeKey(taskId: string, idx: number): string {
  return `${taskId}:${idx}`;
}

/** The columns of a `checkpoint_writes` row as Tempo's saver writes them, in `WriteRow`'s order. */
const WRITE_COLUMNS = "thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob";

/**
 * Stores write rows in ONE statement: upserted when `upsert` (a task's writes all on special channels, or a claiming
 * run's rows written over another's), else inserted keeping a row in place. Resolves the keys of the rows the insert
 * stored (undefined for an upsert).
 */
export async function storeWriteRows(
  db: pg.Pool | pg.PoolClient,
  tables: SaverTables,
  rows: readonly WriteRow[],
  upsert: boolean,
): Promise<Set<string> | undefined> {
  const stored = await db.query<{ task_id: string; idx: number }>(
    `INSERT INTO ${tables.writes} (${WRITE_COLUMNS})
     VALUES ${valuesList(rows.length, 8)}
     ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) ${
       upsert ? "DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob" : "DO NOTHING"
     }
     RETURNING task_id, idx`,
    rows.flat(),
  );
  return upsert ? undefined : new Set(stored.rows.map((row) => writeKey(row.task_id, Number(row.idx))));
}

/** This process's runs' writes on the checkpoints they run from, until each claims the checkpoint. */
export class RunWrites {
  private readonly byRun = new WeakMap<object, Map<string, Noted>>();
  /** Writes of runs without a run object, by checkpoint (recent ones). */
  private readonly unowned = new Map<string, Noted>();

  /** `channels`: the channels whose rows a claim keeps the keys of (those a delta channel's history reads). */
  constructor(private readonly channels: ReadonlySet<string>) {}

  /**
   * Notes rows a run stored (or tried to) on the checkpoint of `config`; `stored` are the keys of rows the insert
   * stored, the rest found a row in place.
   */
  note(config: RunnableConfig, rows: readonly WriteRow[], stored: ReadonlySet<string>): void {
    const ref = refOf(config);
    if (!ref || rows.length === 0) return;
    const noted = this.notedFor(config, keyOf(ref));
    const owned = runOf(config) !== undefined;
    for (const row of rows) {
      const key = writeKey(row[3], row[4]);
      // One run writes a key once (a re-put carries the same write); two writers of one key are two runs.
      if (noted.seen.has(key) && !owned) noted.unknown = true;
      noted.seen.add(key);
      noted.tasks.add(row[3]);
      if (this.channels.has(row[5])) noted.kept.add(key);
      if (stored.has(key)) noted.overwrite.delete(key);
      else noted.overwrite.set(key, row);
    }
  }

  /** Marks the checkpoint of `config` as written by the run in a way not noted: its claim carries nothing. */
  unknownOn(config: RunnableConfig): void {
    const ref = refOf(config);
    if (ref) this.notedFor(config, keyOf(ref)).unknown = true;
  }

  /** The writes the run of `config` made on `parent`, for its claim; forgotten once taken. */
  take(config: RunnableConfig, parent: CheckpointRef): ClaimedWrites | undefined {
    const key = keyOf(parent);
    const run = runOf(config);
    const noted = run ? this.byRun.get(run)?.get(key) : this.unowned.get(key);
    if (run) this.byRun.get(run)?.delete(key);
    else this.unowned.delete(key);
    if (!noted || noted.unknown) return undefined;
    return { taskIds: [...noted.tasks], writeKeys: [...noted.kept], overwrite: [...noted.overwrite.values()] };
  }

  private notedFor(config: RunnableConfig, key: string): Noted {
    const run = runOf(config);
    const runs = run ? this.byRun.get(run) : this.unowned;
    const existing = runs?.get(key);
    if (existing) return existing;
    const fresh: Noted = { tasks: new Set(), seen: new Set(), kept: new Set(), overwrite: new Map(), unknown: false };
    if (!run) remember(this.unowned, key, fresh);
    else if (runs) runs.set(key, fresh);
    else this.byRun.set(run, new Map([[key, fresh]]));
    return fresh;
  }
}

/** The run a LangGraph call belongs to: its `RunControl`, one object a run (LangGraph sets it on every run's config). */
function runOf(config: RunnableConfig): object | undefined {
  const run = (config as { control?: unknown }).control;
  return typeof run === "object" && run !== null ? run : undefined;
}

function refOf(config: RunnableConfig): CheckpointRef | undefined {
  const {
    thread_id: threadId,
    checkpoint_ns: checkpointNs = "",
    checkpoint_id: checkpointId,
  } = (config.configurable ?? {}) as Record<string, unknown>;
  if (typeof threadId !== "string" || typeof checkpointId !== "string") return undefined;
  return { threadId, checkpointNs: String(checkpointNs), checkpointId };
}
