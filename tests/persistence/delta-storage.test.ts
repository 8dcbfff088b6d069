/**
 * Checkpoint storage proportional to what changed, on every Postgres target: the message list is a delta channel
 * that Tempo's saver rebuilds in one query exactly as LangGraph's default walk does; a new message on an idle thread
 * is saved once, resumes step by step; any checkpoint reads its own messages and a thread can go on from a past one;
 * step snapshots come from the history alone, so a MemorySaver graph lists the same ones.
 */
import { BaseCheckpointSaver, type StateSnapshot } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { STEP_SNAPSHOT_METADATA_KEY } from "../../checkpoints/index.js";
import { PLAN_SNAPSHOT_FREQUENCY, UI_SNAPSHOT_FREQUENCY } from "../../kernel/channels.js";
import { nothingRecalled } from "../../kernel/state.js";
import { stepSnapshots } from "../../server/execution-state.js";
import { buildTempoGraph } from "../../server/tempo-graph.js";
import {
  createScheduleDomain,
  InMemoryScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { MemorySaver } from "@langchain/langgraph";
import { postgresTargets } from "../support/postgres.js";
import {
  accept,
  cardOf,
  continueThread,
  interruptsOf,
  openTempoOnDatabase,
  seedStudent,
  startUntilFirstWrite,
  studentOf,
  studentThread,
  useTempoOnTarget,
  userMessage,
  ARRANGE_REQUEST,
  ARRANGE_STEP_TRANSITIONS,
  type TempoOnDatabase,
} from "./tempo-on-database.js";

async function history(tempo: TempoOnDatabase, threadId: string): Promise<StateSnapshot[]> {
  const snapshots: StateSnapshot[] = [];
  for await (const snapshot of tempo.graph.getStateHistory(studentThread(threadId))) snapshots.push(snapshot);
  return snapshots;
}

async function checkpointCount(tempo: TempoOnDatabase, threadId: string): Promise<number> {
  const result = await tempo.database.pool.query<{ count: string }>(
    "SELECT count(*) AS count FROM checkpoints WHERE thread_id = $1",
    [threadId],
  );
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * The bytes the thread's rows take in the checkpoint tables, as stored (`pg_column_size`: after Postgres' compression)
 * — what `bench/checkpoint-size.ts` measures as whole relations, without the indexes and page overhead.
 */
async function storedBytes(tempo: TempoOnDatabase, threadId: string): Promise<number> {
  const result = await tempo.database.pool.query<{ bytes: string }>(
    `SELECT (SELECT coalesce(sum(pg_column_size(blob)), 0) FROM checkpoint_blobs WHERE thread_id = $1)
          + (SELECT coalesce(sum(pg_column_size(blob)), 0) FROM checkpoint_writes WHERE thread_id = $1)
          + (SELECT coalesce(sum(pg_column_size(checkpoint) + pg_column_size(metadata)), 0) FROM checkpoints
              WHERE thread_id = $1) AS bytes`,
    [threadId],
  );
  return Number(result.rows[0]?.bytes ?? 0);
}

async function messageCopies(tempo: TempoOnDatabase, threadId: string): Promise<number> {
  const result = await tempo.database.pool.query<{ count: string }>(
    "SELECT count(*) AS count FROM checkpoint_blobs WHERE thread_id = $1 AND channel = 'messages'",
    [threadId],
  );
  return Number(result.rows[0]?.count ?? 0);
}

/** The thread's rows in the blob and write tables, counted by channel. */
async function rowsByChannel(tempo: TempoOnDatabase, threadId: string) {
  const count = async (table: string) =>
    Object.fromEntries(
      (
        await tempo.database.pool.query<{ channel: string; count: string }>(
          `SELECT channel, count(*) AS count FROM ${table} WHERE thread_id = $1 GROUP BY channel`,
          [threadId],
        )
      ).rows.map((row) => [row.channel, Number(row.count)]),
    );
  return { blobs: await count("checkpoint_blobs"), writes: await count("checkpoint_writes") };
}

/** The rows by channel that `after` has beyond `before`. */
function addedRows(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([channel, count]) => [channel, count - (before[channel] ?? 0)] as const)
      .filter(([, added]) => added !== 0),
  );
}

/** The sample week with one review task left to place: a task turn is a plan card and one write card (as the bench's). */
function weekWithOnePendingTask(): ScheduleState {
  const week = sampleWeek();
  const first = week.tasks.find((task) => task.source === "task_item");
  return { ...week, tasks: week.tasks.filter((task) => task.source !== "task_item" || task === first) };
}

const texts = (snapshot: StateSnapshot) =>
  ((snapshot.values as { messages?: Array<{ content: unknown }> }).messages ?? []).map((message) =>
    String(message.content),
  );

describe.each(postgresTargets())("$kind postgres", (target) => {
  const env = useTempoOnTarget(target);

  test("the saver's one-query delta history equals LangGraph's default walk at every checkpoint", async () => {
    const threadId = `delta-walk-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    await continueThread(env.tempo, threadId, { untilNextCard: true });
    await env.tempo.graph.invoke(userMessage("hello"), studentThread(threadId));

    const snapshots = await history(env.tempo, threadId);
    expect(snapshots.length).toBeGreaterThan(10);
    for (const snapshot of snapshots) {
      const options = { config: snapshot.config, channels: ["messages", "planSteps", "workspaceMessageIds"] };
      const fast = await env.tempo.checkpointer.getDeltaChannelHistory(options);
      const walked = await BaseCheckpointSaver.prototype.getDeltaChannelHistory.call(env.tempo.checkpointer, options);
      expect(fast).toEqual(walked);
    }
    // Most checkpoints store no copy of the list: its value is rebuilt from the writes.
    const copies = await env.tempo.database.pool.query<{ count: string }>(
      "SELECT count(*) AS count FROM checkpoint_blobs WHERE thread_id = $1 AND channel = 'messages'",
      [threadId],
    );
    expect(Number(copies.rows[0]?.count)).toBeLessThan(snapshots.length / 5);
  });

  test("a new message saves its input, then once where it stops; the plan card's answer saves one checkpoint; the answer to a write card every step; every checkpoint reads its own messages", async () => {
    const threadId = `delta-durability-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await env.tempo.graph.invoke(userMessage("hello"), studentThread(threadId));
    const started = await checkpointCount(env.tempo, threadId);
    // A chat turn saves its input first (a worker killed mid-run leaves a run to carry on, not a lost message), then
    // once when it ends.
    await env.tempo.graph.invoke(userMessage("thanks"), studentThread(threadId));
    const chatted = await checkpointCount(env.tempo, threadId);
    expect(chatted).toBe(started + 2);
    const [ended, input] = await history(env.tempo, threadId);
    expect(input!.metadata?.source).toBe("input");
    expect(input!.next).toEqual(["__start__"]);
    expect(ended!.next).toEqual([]);
    expect(texts(ended!).at(-2)).toBe("thanks");

    // Planning a new task: its input, then the plan card, where the run stops; the card can be answered.
    const planned = await env.tempo.graph.invoke(userMessage(ARRANGE_REQUEST), studentThread(threadId));
    expect(interruptsOf(planned)).toHaveLength(1);
    const atPlanCard = await checkpointCount(env.tempo, threadId);
    expect(atPlanCard).toBe(chatted + 2);
    // The plan card's answer runs the plan up to its first write card, and is saved once, there.
    const resumed = await env.tempo.graph.invoke(accept(), studentThread(threadId));
    expect(cardOf(resumed)).toBe("place");
    expect(await checkpointCount(env.tempo, threadId)).toBe(atPlanCard + 1);
    // The write card's answer applies the write: every step from there on is a checkpoint.
    const applied = await env.tempo.graph.invoke(accept(), studentThread(threadId));
    expect(interruptsOf(applied)).toHaveLength(1);
    expect(await checkpointCount(env.tempo, threadId)).toBeGreaterThan(atPlanCard + 3);

    // Each checkpoint's messages are the latest state's messages up to that point.
    const snapshots = await history(env.tempo, threadId);
    const latest = texts(snapshots[0]!);
    for (const snapshot of snapshots) expect(latest.slice(0, texts(snapshot).length)).toEqual(texts(snapshot));
    expect(snapshots.map(texts)).toContainEqual(["hello", expect.stringContaining("Tempo")]);
  });

  test("a small-talk turn stores its message as the input and as a message, and no value it did not change: no copy of the input on the checkpoint before, no blob of the emptied recalled memory", async () => {
    const threadId = `delta-small-talk-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await env.tempo.graph.invoke(userMessage("hello"), studentThread(threadId));
    const before = await rowsByChannel(env.tempo, threadId);
    // The store now holds this thread's conversation memory: the turn recalls it, and memorize empties it again.
    await env.tempo.graph.invoke(userMessage("thanks"), studentThread(threadId));
    const after = await rowsByChannel(env.tempo, threadId);
    // Blobs: the input checkpoint's `__start__` (the message as sent) and memorize's new mark; writes: the two
    // messages. Not the input again as a write of the checkpoint before, nor the recalled memory, empty as it was.
    expect({
      blobs: addedRows(before.blobs, after.blobs),
      writes: addedRows(before.writes, after.writes),
    }).toEqual({ blobs: { __start__: 1, memorizedUpTo: 1 }, writes: { messages: 2 } });
    // Readers see what they saw: the recalled memory empty between turns, the turn's two messages.
    const [ended, input] = await history(env.tempo, threadId);
    expect(ended!.values.recalled).toEqual(nothingRecalled());
    expect(texts(ended!).slice(-2)).toEqual(["thanks", expect.stringContaining("Tempo")]);
    expect(input!.metadata?.source).toBe("input");
    expect(input!.next).toEqual(["__start__"]);
  });

  test("a task turn stores as many bytes on a long thread as on a short one: the plan card's answer stores no copy of the message list, the pictures are stored as pushes", async () => {
    const threadId = `delta-turn-bytes-${target.kind}`;
    const config = studentThread(threadId);
    const turnBytes: number[] = [];
    for (let turn = 0; turn < 5; turn += 1) {
      await env.tempo.repository.seed(studentOf(threadId), weekWithOnePendingTask());
      const before = await storedBytes(env.tempo, threadId);
      expect(cardOf(await env.tempo.graph.invoke(userMessage(ARRANGE_REQUEST), config))).toBe("confirm_plan");
      const copies = await messageCopies(env.tempo, threadId);
      // The plan card's answer runs with durability "exit" from the thread's head: it stores the messages it wrote,
      // not the whole list (which a run addressed to the card's checkpoint would, growing with the thread).
      expect(cardOf(await env.tempo.graph.invoke(accept(), config))).toBe("place");
      expect(await messageCopies(env.tempo, threadId)).toBe(copies);
      expect(interruptsOf(await env.tempo.graph.invoke(accept(), config))).toEqual([]);
      turnBytes.push((await storedBytes(env.tempo, threadId)) - before);
    }
    // The pictures (`ui`) are stored as their pushes, with a whole copy of the kept ones only every so many.
    const count = async (table: string) =>
      Number(
        (
          await env.tempo.database.pool.query<{ count: string }>(
            `SELECT count(*) AS count FROM ${table} WHERE thread_id = $1 AND channel = 'ui'`,
            [threadId],
          )
        ).rows[0]?.count,
      );
    const uiWrites = await count("checkpoint_writes");
    expect(uiWrites).toBeGreaterThan(5);
    expect(await count("checkpoint_blobs")).toBeLessThanOrEqual(1 + Math.floor(uiWrites / UI_SNAPSHOT_FREQUENCY));
    // The first turn sets the thread up (its first whole copies); from the second on a turn stores what it changed,
    // give or take a periodic whole copy of a delta channel (a few KiB) — not a copy of the list growing each turn.
    const [, second, ...later] = turnBytes;
    for (const bytes of later)
      expect(bytes, `bytes of each task turn: ${turnBytes.join(", ")}`).toBeLessThan(second! + 4 * 1024);
  });

  test("the plan card's answer is saved once, when it ends; a run that fails midway is saved where it failed and goes on from there", async () => {
    const threadId = `delta-exit-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    // The execute model fails on its second call, after the first read round.
    class FailsOnce extends ScheduleOfflinePolicy {
      calls = 0;
      override async _generate(...args: Parameters<ScheduleOfflinePolicy["_generate"]>) {
        this.calls += 1;
        if (this.calls === 2) throw new Error("the execute model failed");
        return super._generate(...args);
      }
    }
    const graph = buildTempoGraph({
      models: {
        default: new ScheduleOfflinePolicy({ writesPerCard: 1 }),
        execute: new FailsOnce({ writesPerCard: 1 }),
      },
      domain: createScheduleDomain({ repository: env.tempo.repository }),
      checkpointer: env.tempo.checkpointer,
      executionLog: env.tempo.executionLog,
    });
    const config = studentThread(threadId);
    expect(cardOf(await graph.invoke(userMessage(ARRANGE_REQUEST), config))).toBe("confirm_plan");
    const saved = await checkpointCount(env.tempo, threadId);

    // The failed run is saved once, where it failed: the plan running, its first read round kept, the card answered.
    await expect(graph.invoke(accept(), config)).rejects.toThrow("the execute model failed");
    expect(await checkpointCount(env.tempo, threadId)).toBe(saved + 1);
    const failed = await graph.getState(config);
    expect(failed.tasks.flatMap((task) => task.interrupts)).toHaveLength(0);
    expect(failed.values).toMatchObject({ phase: "executing", roundsUsed: 1 });
    // Every saved checkpoint but the thread's first claims its parent: one run on from each.
    const claims = await env.tempo.database.pool.query("SELECT 1 FROM tempo_resume_claims WHERE thread_id = $1", [
      threadId,
    ]);
    expect(claims.rowCount).toBe((await checkpointCount(env.tempo, threadId)) - 1);

    // The retry phrase goes on from there to the first write card (a message on a task under way saves every step).
    expect(cardOf(await graph.invoke(userMessage("try again"), config))).toBe("place");
    expect(((await graph.getState(config)).values as { roundsUsed: number }).roundsUsed).toBeGreaterThan(1);
    expect(await checkpointCount(env.tempo, threadId)).toBeGreaterThan(saved + 2);
  });

  test("a thread goes on from a past checkpoint with the messages it had there", async () => {
    const threadId = `delta-fork-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    for (const text of ["hello", "thanks", "hi"])
      await env.tempo.graph.invoke(userMessage(text), studentThread(threadId));
    const [latest, , first] = await history(env.tempo, threadId);
    expect(texts(latest!)).toHaveLength(6);
    const firstId = String(first!.config.configurable?.checkpoint_id);

    const forked = await env.tempo.graph.invoke(userMessage("good morning"), studentThread(threadId, firstId));
    expect(forked.messages.map((message) => String(message.content))).toEqual([
      ...texts(first!),
      "good morning",
      expect.stringContaining("Tempo"),
    ]);
    const state = await env.tempo.graph.getState(studentThread(threadId));
    // The branch's checkpoints lead back to the addressed one.
    const ancestors: string[] = [];
    for (let parent = state.parentConfig; parent;) {
      const id = String(parent.configurable?.checkpoint_id);
      ancestors.push(id);
      if (id === firstId) break;
      parent = (await env.tempo.graph.getState(studentThread(threadId, id))).parentConfig;
    }
    expect(ancestors.at(-1)).toBe(firstId);
    expect(texts(state)).toEqual(forked.messages.map((message) => String(message.content)));
  });

  test("step snapshots from the history alone: Tempo's saver marks the same checkpoints, a MemorySaver graph lists the same steps", async () => {
    const threadId = `delta-snapshots-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    await continueThread(env.tempo, threadId);
    const snapshots = await stepSnapshots(env.tempo.graph, studentThread(threadId));
    // Step 1 (place) starts in the plan card's answer (saved once, at its write card); the rest in the write cards'
    // answers: step 2 refines (nothing to change), step 3 verifies.
    expect(snapshots.map((snapshot) => `${snapshot.stepId}:${snapshot.status}`)).toEqual(ARRANGE_STEP_TRANSITIONS);
    for (const snapshot of snapshots) {
      const tuple = await env.tempo.checkpointer.getTuple(studentThread(threadId, snapshot.checkpointId));
      expect(
        (tuple?.metadata?.[STEP_SNAPSHOT_METADATA_KEY as never] as { transitions?: unknown } | undefined)?.transitions,
      ).toContainEqual({ stepId: snapshot.stepId, status: snapshot.status });
    }

    const repository = new InMemoryScheduleRepository();
    await repository.seed(studentOf(threadId), sampleWeek());
    const memoryGraph = buildTempoGraph({
      models: { default: new ScheduleOfflinePolicy() },
      domain: createScheduleDomain({ repository }),
      checkpointer: new MemorySaver(),
    });
    let result: object = await memoryGraph.invoke(userMessage(ARRANGE_REQUEST), studentThread(threadId));
    for (let turn = 0; turn < 40 && interruptsOf(result).length > 0; turn += 1)
      result = await memoryGraph.invoke(accept(), studentThread(threadId));
    const onMemory = await stepSnapshots(memoryGraph, studentThread(threadId));
    expect(onMemory.map((snapshot) => [snapshot.stepId, snapshot.status])).toEqual(
      snapshots.map((snapshot) => [snapshot.stepId, snapshot.status]),
    );
  });

  test("the plan is a delta channel too: few stored copies, and a saver that starts cold (another process) marks the same step transitions", async () => {
    const threadId = `delta-plan-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    // A second Tempo on the same database, with a saver that has seen none of the thread's checkpoints, carries on.
    const cold = await openTempoOnDatabase(env.server.url);
    try {
      await continueThread(cold, threadId);
    } finally {
      await cold.close();
    }
    const snapshots = await stepSnapshots(env.tempo.graph, studentThread(threadId));
    expect(snapshots.map((snapshot) => snapshot.status)).toEqual(expect.arrayContaining(["running", "done"]));
    for (const snapshot of snapshots) {
      const tuple = await env.tempo.checkpointer.getTuple(studentThread(threadId, snapshot.checkpointId));
      expect(
        (tuple?.metadata?.[STEP_SNAPSHOT_METADATA_KEY as never] as { transitions?: unknown } | undefined)?.transitions,
      ).toContainEqual({ stepId: snapshot.stepId, status: snapshot.status });
    }
    // Each plan change is one write; whole copies of the plan are rare (every PLAN_SNAPSHOT_FREQUENCY writes).
    const count = async (sql: string) =>
      Number((await env.tempo.database.pool.query<{ count: string }>(sql, [threadId])).rows[0]?.count);
    const writes = await count(
      "SELECT count(*) AS count FROM checkpoint_writes WHERE thread_id = $1 AND channel = 'planSteps'",
    );
    const copies = await count(
      "SELECT count(*) AS count FROM checkpoint_blobs WHERE thread_id = $1 AND channel = 'planSteps'",
    );
    // (Step 1 ran in the plan card's answer, saved once, where its plan writes were not kept one by one.)
    expect(writes).toBeGreaterThanOrEqual(new Set(snapshots.map((snapshot) => snapshot.checkpointId)).size);
    // Whole copies: the one LangGraph stores where a run starts from a checkpoint it did not make (the cold saver), and
    // one per PLAN_SNAPSHOT_FREQUENCY writes — never one per write.
    expect(copies).toBeLessThanOrEqual(1 + Math.floor(writes / PLAN_SNAPSHOT_FREQUENCY));
    expect(copies).toBeLessThan(writes);
  });
});
