/**
 * The crash points of the batch kill-point sweep (batch-kill-points.test.ts): a Tempo on the test's database whose
 * checkpointer, schedule writes and execution log count their events and crash at one of them — `put:K` /
 * `putWrites:K` right after the K-th save of the checkpointer, `persist:K` inside the K-th write's claiming
 * transaction before its change, `changed:K` in the same transaction after its change (before the commit),
 * `applied:K` right after the K-th write and its log entry committed. A plain point dies there (the child process is
 * SIGKILLed: batch-child.ts); a `throw-` point throws there instead (a failed save or write: the run fails with that
 * error), which the sweep runs in its own process.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { Command, type Checkpoint, type CheckpointMetadata } from "@langchain/langgraph";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { TempoPostgresSaver, type PostgresExecutionLog } from "../../checkpoints/index.js";
import type { ToolDomain } from "../../tools/domain.js";
import type { ScheduleState } from "../../tools/schedule/index.js";
import type { SaveKind } from "./child-runner.js";
import { cardOf, openTempoOnDatabase, studentThread } from "./tempo-on-database.js";

const POINT = /^(throw-)?(put|putWrites|persist|changed|applied):(\d+)$/;

type EventKind = "put" | "putWrites" | "persist" | "changed" | "applied";

/** How the answering run ended, as the child prints it. */
export interface AnswerOutcome {
  ok: boolean;
  card?: string | null;
  phase?: string | null;
  code?: string | null;
  message?: string;
  saves: SaveKind[];
  persists: number;
  applied: number;
  /** True when the run reached its crash point (a thrown one; a killed one never reports). */
  crashed: boolean;
}

/**
 * Answers the card thread `threadId` waits on with `decisions` at clock `now`, on a Tempo that crashes at `point`
 * (none: runs through, counting its saves), calling `die` at a plain point; closes the Tempo after.
 */
export async function answerCrashingAt(
  url: string,
  args: { threadId: string; decisions: unknown[]; now?: string },
  point: string | undefined,
  die: () => never,
): Promise<AnswerOutcome> {
  const crashAt = POINT.exec(point ?? "");
  if (point && !crashAt) throw new Error(`unknown crash point ${point}`);
  const counts: Record<EventKind, number> = { put: 0, putWrites: 0, persist: 0, changed: 0, applied: 0 };
  const saves: SaveKind[] = [];
  const thrown = Boolean(crashAt?.[1]);
  let crashed = false;

  /** Counts one event of `kind`; crashes (dies or throws) when it is the one the point names. */
  const reached = (kind: EventKind): void => {
    counts[kind] += 1;
    if (!crashAt || crashAt[2] !== kind || Number(crashAt[3]) !== counts[kind]) return;
    crashed = true;
    if (thrown) throw new Error(`test fault: ${kind} ${counts[kind]} failed`);
    die();
  };

  class CrashingSaver extends TempoPostgresSaver {
    override async put(
      config: RunnableConfig,
      checkpoint: Checkpoint,
      metadata: CheckpointMetadata,
      newVersions: Record<string, string | number>,
    ) {
      // A thrown save saves nothing; a kill comes after the save.
      if (thrown && crashAt?.[2] === "put") reached("put");
      const result = await super.put(config, checkpoint, metadata, newVersions);
      saves.push("put");
      if (!thrown) reached("put");
      return result;
    }

    override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
      if (thrown && crashAt?.[2] === "putWrites") reached("putWrites");
      await super.putWrites(config, writes, taskId);
      saves.push("putWrites");
      if (!thrown) reached("putWrites");
    }
  }

  const crashingDomain = (domain: ToolDomain<ScheduleState>): ToolDomain<ScheduleState> => ({
    ...domain,
    async persist(userId, before, after, options) {
      reached("persist");
      await domain.persist(userId, before, after, options);
      reached("changed");
    },
  });

  const crashingLog = (log: PostgresExecutionLog): PostgresExecutionLog => {
    const applyOnce = log.applyOnce!;
    return Object.assign(Object.create(log) as PostgresExecutionLog, {
      applyOnce: async (...call: Parameters<typeof applyOnce>) => {
        const claimed = await applyOnce(...call);
        if (claimed && call[0].applied) reached("applied");
        return claimed;
      },
    });
  };

  const tempo = await openTempoOnDatabase(url, {
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
  let ending: Pick<AnswerOutcome, "ok" | "card" | "phase" | "code" | "message">;
  try {
    const base = studentThread(args.threadId);
    const config = { ...base, configurable: { ...base.configurable, now: args.now } };
    const result = await tempo.graph.invoke(new Command({ resume: { decisions: args.decisions } }), config);
    ending = { ok: true, card: cardOf(result) ?? null, phase: (result as { phase?: string }).phase ?? null };
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : null;
    ending = { ok: false, code, message: error instanceof Error ? error.message : String(error) };
  } finally {
    await tempo.close();
  }
  return { ...ending, saves, persists: counts.persist, applied: counts.applied, crashed };
}
