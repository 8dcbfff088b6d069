/**
 * Two runs going on from one checkpoint write their step's writes on the same rows (LangGraph names a task by its
 * checkpoint, step and node), and PostgresSaver keeps the first stored. The winner's checkpoint — the one that
 * claims the parent — must read its own writes there for a delta channel (the message list is rebuilt from its
 * parent's writes), never the loser's: stored before the winner's, after its claim, or in between. The CI race this
 * came from: `tests/persistence/batch-races.test.ts` (two clients answer one card with different answers; the
 * winning thread read the losing answer's "rejected" replies and left its calls unanswered).
 */
import type { PendingWrite } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { AlreadyResumedError, createTempoCheckpointer, type TempoPostgresSaver } from "../../checkpoints/index.js";
import { openDatabase, type Database } from "../../database/index.js";
import { checkpointWith } from "../support/checkpoints.js";
import { postgresTargets, type TestPostgres } from "../support/postgres.js";

const TASK = "task-resumed";

describe.each(postgresTargets())("the claiming run's writes on its parent, on $kind Postgres", (target) => {
  let server: TestPostgres;
  let database: Database;
  /** Two processes: each its own saver on the one database. */
  let first: TempoPostgresSaver;
  let second: TempoPostgresSaver;
  let threads = 0;

  beforeAll(async () => {
    server = await target.start();
    database = await openDatabase({ databaseUrl: server.url, poolSize: 4 });
    first = await createTempoCheckpointer(database);
    second = await createTempoCheckpointer(database);
  });

  afterAll(async () => {
    await database?.close();
    await server?.stop();
  });

  /** A new thread's checkpoint two runs go on from, and a run's config on it (its own run object, as LangGraph's). */
  async function parentCheckpoint() {
    const threadId = `contested-${(threads += 1)}`;
    const parent = checkpointWith({ goal: "clear tomorrow" });
    const saved = await first.put(
      { configurable: { thread_id: threadId, checkpoint_ns: "" } },
      parent,
      { source: "loop", step: 0, parents: {} },
      parent.channel_versions,
    );
    const runOn = (run: object | undefined): RunnableConfig =>
      ({ configurable: { ...saved.configurable }, ...(run ? { control: run } : {}) }) as RunnableConfig;
    return { threadId, runOn };
  }

  /** Saves a run's next checkpoint on top of the parent (claiming it); its config. */
  function saveNext(saver: TempoPostgresSaver, config: RunnableConfig) {
    const next = checkpointWith({ phase: "executing" });
    return saver.put(config, next, { source: "loop", step: 1, parents: {} }, next.channel_versions);
  }

  async function messagesAt(config: RunnableConfig) {
    const history = await first.getDeltaChannelHistory({ config, channels: ["messages"] });
    return history.messages!.writes.map(([taskId, , value]) => [taskId, value]);
  }

  /** The loser's writes: a phase first, so its messages sit at another index than the winner's. */
  const loserWrites: PendingWrite[] = [
    ["phase", "left out"],
    ["messages", ["Not applied: the user rejected this change."]],
  ];
  const winnerWrites: PendingWrite[] = [["messages", ["unplaced task determinant-exercises"]]];

  test.each([
    ["another process", () => second],
    ["the same process", () => first],
  ])(
    "the loser's writes stored first: the winner's checkpoint reads the winner's messages (loser in %s)",
    async (_where, loserSaver) => {
      const { runOn } = await parentCheckpoint();
      const loser = runOn({});
      const winner = runOn({});
      await loserSaver().putWrites(loser, loserWrites, TASK);
      await first.putWrites(winner, winnerWrites, TASK);
      const next = await saveNext(first, winner);
      await expect(saveNext(loserSaver(), loser)).rejects.toBeInstanceOf(AlreadyResumedError);
      expect(await messagesAt(next)).toEqual([[TASK, ["unplaced task determinant-exercises"]]]);
    },
  );

  test("the loser's writes stored after the winner's claim are not read on the winner's checkpoint", async () => {
    const { runOn } = await parentCheckpoint();
    const loser = runOn({});
    const winner = runOn({});
    await first.putWrites(winner, winnerWrites, TASK);
    const next = await saveNext(first, winner);
    await second.putWrites(loser, loserWrites, TASK);
    await expect(saveNext(second, loser)).rejects.toBeInstanceOf(AlreadyResumedError);
    expect(await messagesAt(next)).toEqual([[TASK, ["unplaced task determinant-exercises"]]]);
  });

  test("another task's writes on the parent, stored before the run (a crashed run's, reused), are read", async () => {
    const { runOn } = await parentCheckpoint();
    await second.putWrites(runOn({}), [["messages", ["from the run that crashed"]]], "task-finished-before");
    const resumed = runOn({});
    await first.putWrites(resumed, winnerWrites, TASK);
    const next = await saveNext(first, resumed);
    expect(await messagesAt(next)).toEqual([
      ["task-finished-before", ["from the run that crashed"]],
      [TASK, ["unplaced task determinant-exercises"]],
    ]);
  });

  test("two writers without a run object on one key: the claim keeps nothing and reads are as stored", async () => {
    const { runOn } = await parentCheckpoint();
    await first.putWrites(runOn(undefined), [["messages", ["one"]]], TASK);
    await first.putWrites(runOn(undefined), [["messages", ["two"]]], TASK);
    const next = await saveNext(first, runOn(undefined));
    expect(await messagesAt(next)).toEqual([[TASK, ["one"]]]);
  });
});
