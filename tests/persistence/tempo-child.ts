/**
 * Child process of the persistence tests: builds Tempo on the test's database (by URL) and drives one thread.
 *
 *   node --import tsx tests/persistence/tempo-child.ts '<json>'
 *     { url, threadId, mode: "start" | "arrange" | "continue" | "resume-at", checkpointId?, untilNextCard?, startAt?, oneCard?, refine?, reportSaves? }
 *
 * - start: sends the arrange request, accepts the plan, stops at the first write card.
 * - arrange: sends the arrange request only (one run: it stops at the plan card).
 * - continue: answers the open card with accept (or continues after a crash) and accepts every card to the end
 *   (only to the next card with untilNextCard).
 * - resume-at: accepts the interrupt of checkpoint `checkpointId` (two of these race in the concurrency test).
 *
 * `TEMPO_TEST_KILL_AT` (read only here) makes the process SIGKILL itself during the first confirmed write:
 * "before-persist" (inside the transaction that claims the write, before the change), "after-persist" (the change and
 * its log entry are committed: right after the log's `applyOnce`) or "after-checkpoint" (the
 * checkpoint that records the write's tool message is saved). `put:K` / `putWrites:K` kill it right after the K-th
 * successful `put` / `putWrites` of the checkpointer in this process (the kill-point sweep). Prints one JSON line:
 * `{ ok, card, phase }` or `{ ok: false, code, message }`, with `saves` (the checkpointer's saves in order, to count
 * the kill points) when `reportSaves` is set.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointMetadata } from "@langchain/langgraph";
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import { TempoPostgresSaver } from "../../checkpoints/index.js";
import { die, killingLog } from "./kill-switch.js";
import type { ToolDomain } from "../../tools/domain.js";
import type { ScheduleState } from "../../tools/schedule/index.js";
import type { ChildArguments, SaveKind } from "./child-runner.js";
import {
  accept,
  ARRANGE_REQUEST,
  cardOf,
  continueThread,
  openTempoOnDatabase,
  startUntilFirstWrite,
  studentThread,
  userMessage,
} from "./tempo-on-database.js";

const killAt = process.env.TEMPO_TEST_KILL_AT;
let persisted = false;

/** Kills the process right before the first write's persist (its transaction, the claim included, dies with it). */
function killingDomain(domain: ToolDomain<ScheduleState>): ToolDomain<ScheduleState> {
  return {
    ...domain,
    async persist(userId, before, after, options) {
      if (killAt === "before-persist") die();
      const result = await domain.persist(userId, before, after, options);
      persisted = true;
      return result;
    },
  };
}

/** The checkpointer's saves so far, in order. */
const saves: SaveKind[] = [];

/** `put:K` / `putWrites:K`: the save after which to die. */
const killAfterSave = /^(put|putWrites):(\d+)$/.exec(killAt ?? "");

/** Records a save; dies when it is the one `killAt` names. */
function saved(kind: SaveKind): void {
  saves.push(kind);
  if (
    killAfterSave &&
    killAfterSave[1] === kind &&
    saves.filter((save) => save === kind).length === Number(killAfterSave[2])
  )
    die();
}

/**
 * Counts the checkpointer's saves (and kills the process after the one `killAt` names); with "after-checkpoint", kills
 * it once the checkpoint after the first write (its call answered) is saved.
 */
class KillingSaver extends TempoPostgresSaver {
  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, string | number>,
  ) {
    const result = await super.put(config, checkpoint, metadata, newVersions);
    // The first save after a write persisted is execute's checkpoint with the writes answered.
    if (killAt === "after-checkpoint" && persisted) die();
    saved("put");
    return result;
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    await super.putWrites(config, writes, taskId);
    saved("putWrites");
  }
}

const args = JSON.parse(process.argv[2] ?? "{}") as ChildArguments;
const tempo = await openTempoOnDatabase(args.url, {
  poolSize: 3,
  wrapDomain: killAt ? killingDomain : undefined,
  wrapExecutionLog: killAt === "after-persist" ? killingLog : undefined, // dies once the first write committed
  makeCheckpointer: async (database) => {
    const saver = new KillingSaver(database.pool);
    await saver.setup();
    return saver;
  },
  ...(args.oneCard ? { writesPerCard: Number.POSITIVE_INFINITY } : {}),
  ...(args.refine === false ? { refine: false } : {}),
});
let output: Record<string, unknown>;
try {
  const delay = (args.startAt ?? 0) - Date.now();
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  let result: object;
  if (args.mode === "start") result = await startUntilFirstWrite(tempo, args.threadId);
  else if (args.mode === "arrange")
    result = await tempo.graph.invoke(userMessage(ARRANGE_REQUEST), studentThread(args.threadId));
  else if (args.mode === "resume-at")
    result = await tempo.graph.invoke(accept(), studentThread(args.threadId, args.checkpointId));
  else result = await continueThread(tempo, args.threadId, { untilNextCard: args.untilNextCard });
  output = { ok: true, card: cardOf(result) ?? null, phase: (result as { phase?: string }).phase ?? null };
} catch (error) {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : null;
  output = {
    ok: false,
    code,
    name: error instanceof Error ? error.name : null,
    message: error instanceof Error ? error.message : String(error),
  };
} finally {
  await tempo.close();
}
process.stdout.write(`${JSON.stringify(args.reportSaves ? { ...output, saves } : output)}\n`);
