/**
 * Two resumes of one interrupt at once, on every target: the write is applied once, the thread does not fork (the
 * interrupted checkpoint gets one child), and the loser gets a `TempoError` coded ALREADY_RESUMED. Raced by two
 * processes (each resuming the interrupted checkpoint by id) and by two graph instances on two pools in one process.
 */
import { describe, expect, test } from "vitest";
import { AlreadyResumedError, type TempoPostgresSaver } from "../../checkpoints/index.js";
import { isTempoError } from "../../errors/index.js";
import { postgresTargets } from "../support/postgres.js";
import { runChild } from "./child-runner.js";
import { appliedRows, expectEveryWriteAppliedOnce, logOfCall, toolMessagesOf } from "./exactly-once.js";
import { resume } from "../support/scripted.js";
import {
  accept,
  cardOf,
  continueThread,
  openTempoOnDatabase,
  useTempoOnTarget,
  seedStudent,
  startUntilFirstWrite,
  studentThread,
  userMessage,
  type TempoOnDatabase,
} from "./tempo-on-database.js";
import { writesOnCard } from "../support/card-writes.js";

/** The checkpoint the thread waits at, and the id of the write its card proposes. */
async function waitingWrite(
  tempo: TempoOnDatabase,
  threadId: string,
): Promise<{ checkpointId: string; callId: string }> {
  const state = await tempo.graph.getState(studentThread(threadId));
  return {
    checkpointId: String(state.config.configurable?.checkpoint_id),
    callId: writesOnCard(state.values)[0]!.id,
  };
}

/** Checkpoints saved on top of `parentId`. */
async function childrenOf(tempo: TempoOnDatabase, threadId: string, parentId: string): Promise<string[]> {
  const result = await tempo.database.pool.query<{ checkpoint_id: string }>(
    "SELECT checkpoint_id FROM checkpoints WHERE thread_id = $1 AND parent_checkpoint_id = $2",
    [threadId, parentId],
  );
  return result.rows.map((row) => row.checkpoint_id);
}

describe.each(postgresTargets())("$kind postgres", (target) => {
  const env = useTempoOnTarget(target);

  test("two processes resume the same interrupt: one applies the write, the other gets ALREADY_RESUMED", async () => {
    const threadId = `race-processes-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const { checkpointId, callId } = await waitingWrite(env.tempo, threadId);

    // Both load the interrupted checkpoint by id, then answer it at the same moment.
    const startAt = Date.now() + 3_000;
    const results = await Promise.all(
      [0, 1].map(() => runChild({ url: env.server.url, threadId, mode: "resume-at", checkpointId, startAt })),
    );
    const outputs = results.map((result) => result.output);
    expect(outputs.filter((output) => output?.ok)).toEqual([{ ok: true, card: "place", phase: "waiting_confirm" }]);
    expect(outputs.filter((output) => !output?.ok)).toMatchObject([{ ok: false, code: "ALREADY_RESUMED" }]);

    expect(await appliedRows(env.tempo, threadId, callId)).toBe(1);
    expect(await logOfCall(env.tempo, threadId, callId)).toEqual(["completed/applied"]);
    expect(await childrenOf(env.tempo, threadId, checkpointId)).toHaveLength(1);
    expect(await toolMessagesOf(env.tempo, threadId, callId)).toHaveLength(1);

    // The thread goes on from the winner's state.
    await continueThread(env.tempo, threadId);
    await expectEveryWriteAppliedOnce(env.tempo, threadId);
  });

  test("two graph instances on two pools resume at once: one write, one AlreadyResumedError", async () => {
    const threadId = `race-instances-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const { checkpointId, callId } = await waitingWrite(env.tempo, threadId);

    const other = await openTempoOnDatabase(env.server.url);
    try {
      const settled = await Promise.allSettled([
        env.tempo.graph.invoke(accept(), studentThread(threadId)),
        other.graph.invoke(accept(), studentThread(threadId)),
      ]);
      const fulfilled = settled.filter((outcome) => outcome.status === "fulfilled");
      const rejected = settled.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      expect(fulfilled).toHaveLength(1);
      expect(cardOf(fulfilled[0]!.value)).toBe("place");
      expect(rejected).toHaveLength(1);
      const error: unknown = rejected[0]!.reason;
      expect(error).toBeInstanceOf(AlreadyResumedError);
      expect(isTempoError(error) && error.code).toBe("ALREADY_RESUMED");
      expect((error as AlreadyResumedError).details).toMatchObject({ threadId, interruptedCheckpointId: checkpointId });
    } finally {
      await other.close();
    }

    expect(await appliedRows(env.tempo, threadId, callId)).toBe(1);
    expect(await logOfCall(env.tempo, threadId, callId)).toEqual(["completed/applied"]);
    expect(await childrenOf(env.tempo, threadId, checkpointId)).toHaveLength(1);
    await continueThread(env.tempo, threadId);
    await expectEveryWriteAppliedOnce(env.tempo, threadId);
  });

  test("a late resume of an interrupt answered long ago is refused and changes nothing", async () => {
    const threadId = `late-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const { checkpointId, callId } = await waitingWrite(env.tempo, threadId);
    await continueThread(env.tempo, threadId);
    const before = await env.tempo.graph.getState(studentThread(threadId));

    await expect(env.tempo.graph.invoke(accept(), studentThread(threadId, checkpointId))).rejects.toMatchObject({
      code: "ALREADY_RESUMED",
    });
    const after = await env.tempo.graph.getState(studentThread(threadId));
    expect(after.config.configurable?.checkpoint_id).toBe(before.config.configurable?.checkpoint_id);
    expect(await appliedRows(env.tempo, threadId, callId)).toBe(1);
    expect(await logOfCall(env.tempo, threadId, callId)).toEqual(["completed/applied"]);
    await expectEveryWriteAppliedOnce(env.tempo, threadId);
  });

  test("an invalid resume claims nothing; the valid resume after it applies the write once", async () => {
    const threadId = `invalid-then-valid-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const { checkpointId, callId } = await waitingWrite(env.tempo, threadId);

    await expect(env.tempo.graph.invoke(resume({ type: "maybe" }), studentThread(threadId))).rejects.toMatchObject({
      code: "INVALID_RESUME",
    });
    expect(await childrenOf(env.tempo, threadId, checkpointId)).toEqual([]);
    const result = await env.tempo.graph.invoke(accept(), studentThread(threadId));
    expect(cardOf(result)).toBe("place");
    expect(await childrenOf(env.tempo, threadId, checkpointId)).toHaveLength(1);
    expect(await appliedRows(env.tempo, threadId, callId)).toBe(1);
  });

  test("an answer sent as a plain message takes the interrupt: a resume racing it afterwards is refused", async () => {
    const threadId = `message-answer-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const { checkpointId, callId } = await waitingWrite(env.tempo, threadId);

    const answered = await env.tempo.graph.invoke(userMessage("yes"), studentThread(threadId));
    expect(cardOf(answered)).toBe("place");
    await expect(env.tempo.graph.invoke(accept(), studentThread(threadId, checkpointId))).rejects.toMatchObject({
      code: "ALREADY_RESUMED",
    });
    expect(await appliedRows(env.tempo, threadId, callId)).toBe(1);
    expect(await logOfCall(env.tempo, threadId, callId)).toEqual(["completed/applied"]);
  });

  test("a write waits for the checkpoint of its step; outside a graph run the guard lets it through", async () => {
    const saver: TempoPostgresSaver = env.tempo.checkpointer;
    await expect(saver.admitCurrentRun()).resolves.toBeUndefined();
    await expect(
      saver.awaitCheckpointSaved({ threadId: "nowhere", checkpointNs: "", checkpointId: "none" }, 20),
    ).resolves.toBe("unknown");
  });
});
