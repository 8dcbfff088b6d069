/**
 * Child process of the batch kill-point sweep (batch-kill-points.test.ts): Tempo on the test's database, as
 * `createTempo` builds it (one card for all of a step's writes, threads held across processes), answering the card a
 * thread waits on with given decisions (approve / reject / edit, one a write) at a given clock.
 *
 *   node tests/persistence/batch-child.ts '{ "url", "threadId", "mode": "answer", "decisions": [...], "now" }'
 *
 * `TEMPO_TEST_KILL_AT` says where the process crashes: `put:K` / `putWrites:K` SIGKILL it right after the K-th save of
 * the checkpointer, `persist:K` inside the K-th write's claiming transaction before its change, `changed:K` in the
 * same transaction after its change (before the commit), `applied:K` right after the K-th write and its log entry
 * committed; `throw-put:K`, `throw-putWrites:K`, `throw-persist:K` and `throw-changed:K` throw
 * there instead (a failed save or write: the run fails with that error, and the process exits on its own). Prints one
 * JSON line: `{ ok, card, phase, saves, persists }` or `{ ok: false, code, message, … }`.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { Command, type Checkpoint, type CheckpointMetadata } from "@langchain/langgraph";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { TempoPostgresSaver, type PostgresExecutionLog } from "../../checkpoints/index.js";
import type { ToolDomain } from "../../tools/domain.js";
import type { ScheduleState } from "../../tools/schedule/index.js";
import type { ChildArguments, SaveKind } from "./child-runner.js";
import { die } from "./kill-switch.js";
import { cardOf, openTempoOnDatabase, studentThread } from "./tempo-on-database.js";

const killAt = /^(throw-)?(put|putWrites|persist|changed|applied):(\d+)$/.exec(process.env.TEMPO_TEST_KILL_AT ?? "");
const counts = { put: 0, putWrites: 0, persist: 0, changed: 0, applied: 0 };
const saves: SaveKind[] = [];

/** Counts one event of `kind`; crashes (dies or throws) when it is the one TEMPO_TEST_KILL_AT names. */
function reached(kind: keyof typeof counts): void {
  counts[kind] += 1;
  if (!killAt || killAt[2] !== kind || Number(killAt[3]) !== counts[kind]) return;
  if (killAt[1]) throw new Error(`test fault: ${kind} ${counts[kind]} failed`);
  die();
}

class CrashingSaver extends TempoPostgresSaver {
  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, string | number>,
  ) {
    // A thrown save saves nothing; a kill comes after the save.
    if (killAt?.[1] && killAt[2] === "put") reached("put");
    const result = await super.put(config, checkpoint, metadata, newVersions);
    saves.push("put");
    if (!killAt?.[1]) reached("put");
    return result;
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    if (killAt?.[1] && killAt[2] === "putWrites") reached("putWrites");
    await super.putWrites(config, writes, taskId);
    saves.push("putWrites");
    if (!killAt?.[1]) reached("putWrites");
  }
}

function crashingDomain(domain: ToolDomain<ScheduleState>): ToolDomain<ScheduleState> {
  return {
    ...domain,
    async persist(userId, before, after, options) {
      reached("persist");
      await domain.persist(userId, before, after, options);
      reached("changed");
    },
  };
}

function crashingLog(log: PostgresExecutionLog): PostgresExecutionLog {
  const applyOnce = log.applyOnce!;
  return Object.assign(Object.create(log) as PostgresExecutionLog, {
    applyOnce: async (...args: Parameters<typeof applyOnce>) => {
      const claimed = await applyOnce(...args);
      if (claimed && args[0].applied) reached("applied");
      return claimed;
    },
  });
}

const args = JSON.parse(process.argv[2] ?? "{}") as ChildArguments;
const tempo = await openTempoOnDatabase(args.url, {
  poolSize: 3,
  writesPerCard: Number.POSITIVE_INFINITY,
  holdThreads: true,
  refine: false,
  wrapDomain: crashingDomain,
  wrapExecutionLog: crashingLog,
  makeCheckpointer: async (database) => {
    const saver = new CrashingSaver(database.pool);
    await saver.setup();
    return saver;
  },
});
let output: Record<string, unknown>;
try {
  const base = studentThread(args.threadId);
  const config = { ...base, configurable: { ...base.configurable, now: args.now } };
  const result = await tempo.graph.invoke(new Command({ resume: { decisions: args.decisions } }), config);
  output = { ok: true, card: cardOf(result) ?? null, phase: (result as { phase?: string }).phase ?? null };
} catch (error) {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : null;
  output = { ok: false, code, message: error instanceof Error ? error.message : String(error) };
} finally {
  await tempo.close();
}
process.stdout.write(`${JSON.stringify({ ...output, saves, persists: counts.persist, applied: counts.applied })}\n`);
