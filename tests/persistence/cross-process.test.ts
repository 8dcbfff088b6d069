/**
 * Postgres persistence across processes, on every target: a run interrupted for confirmation in one process is
 * resumed in another and finishes; its step snapshots and execution log read back in order; and a process killed
 * (SIGKILL) before a write, after the write but before its checkpoint, or after the checkpoint, is resumed by a new
 * process with the write applied exactly once and the right tool message.
 */
import { describe, expect, test } from "vitest";
import { readExecutionLog } from "../../checkpoints/index.js";
import { stepSnapshots } from "../../server/execution-state.js";
import { postgresTargets } from "../support/postgres.js";
import { runChild } from "./child-runner.js";
import { appliedRows, expectEveryWriteAppliedOnce, logOfCall, toolMessagesOf } from "./exactly-once.js";
import {
  ARRANGE_STEP_TRANSITIONS,
  continueThread,
  useTempoOnTarget,
  seedStudent,
  startUntilFirstWrite,
  studentThread,
} from "./tempo-on-database.js";
import { writesOnCard } from "../support/card-writes.js";

describe.each(postgresTargets())("$kind postgres", (target) => {
  const env = useTempoOnTarget(target);

  test("a run interrupted in one process is resumed in another and finishes; snapshots and log read back in order", async () => {
    const threadId = `handover-${target.kind}`;
    await seedStudent(env.tempo, threadId);

    const started = await runChild({ url: env.server.url, threadId, mode: "start" });
    expect(started.output).toEqual({ ok: true, card: "place", phase: "waiting_confirm" });
    const waiting = await env.tempo.graph.getState(studentThread(threadId));
    expect(waiting.tasks.some((task) => task.interrupts.length > 0)).toBe(true);

    const resumed = await runChild({ url: env.server.url, threadId, mode: "continue" });
    expect(resumed.output).toEqual({ ok: true, card: null, phase: "done" });

    const log = await expectEveryWriteAppliedOnce(env.tempo, threadId);
    const finished = await env.tempo.graph.getState(studentThread(threadId));
    expect((finished.values as { planSteps: Array<{ status: string }> }).planSteps.map((step) => step.status)).toEqual([
      "done",
      "done",
      "done",
    ]);
    expect(String((finished.values as { finalAnswer?: string }).finalAnswer)).toContain(
      "Your review week is arranged.",
    );

    // Step snapshots: the plan's lifecycle, oldest first, each showing the step in its status. The answer to the plan
    // card applies no write, so its run is saved once, at the first write card: step 1 (place) started in it and waits
    // at that card; the write cards' answers finish it and run step 2 (refine: nothing to change, no card) and step 3
    // (verify).
    const snapshots = await stepSnapshots(env.tempo.graph, studentThread(threadId));
    expect(snapshots.map((snapshot) => `${snapshot.stepId}:${snapshot.status}`)).toEqual(ARRANGE_STEP_TRANSITIONS);
    for (const snapshot of snapshots) {
      expect(snapshot.state.steps.find((step) => step.id === snapshot.stepId)?.status).toBe(snapshot.status);
    }
    const times = snapshots.map((snapshot) => Date.parse(snapshot.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // The execution log: in order, every call of both processes, reads and writes.
    expect(log.map((entry) => entry.id)).toEqual([...log.map((entry) => entry.id)].sort((a, b) => a - b));
    const started_ = log.map((entry) => entry.startedAt.getTime());
    expect(started_).toEqual([...started_].sort((a, b) => a - b));
    expect(log[0]).toMatchObject({ tool: "get_overview", kind: "read", status: "completed", threadId, stepId: null });
    const tools = log.map((entry) => entry.tool);
    expect(tools.filter((tool) => tool === "place")).toHaveLength(8);
    // One placement a card here (writesPerCard 1): the backend's arrangement is asked for before each card, and the
    // placement it proposes applied; nothing is searched by hand.
    expect(tools.filter((tool) => ["find_free", "list_tasks"].includes(tool))).toHaveLength(0);
    // (Between them, the live state's get_overview: the prompt's week is read again once a write applied.)
    const placeStep = tools.slice(tools.indexOf("propose_arrangement"), tools.lastIndexOf("place") + 1);
    expect(placeStep.filter((tool) => tool !== "get_overview")).toEqual(
      Array.from({ length: 8 }, () => ["propose_arrangement", "place"]).flat(),
    );
    expect(
      log
        .filter((entry) => entry.tool === "place")
        .every((entry) => entry.stepId === "step-1" && entry.ok && entry.applied),
    ).toBe(true);
    // The refinement step: the code lists the candidates (no model call); nothing raises the score of the polished
    // placements, and the step ends there.
    const refining = log.filter((entry) => entry.stepId === "step-2");
    expect(refining.map((entry) => entry.tool)).toEqual(["propose_candidates"]);
    expect(refining.filter((entry) => entry.applied)).toEqual([]);
    // The verify step is ended by the code from the stored week (every write applied): no model call, so no live read
    // of the week for its prompt; the last entry is the refinement's listing.
    expect(tools.at(-1)).toBe("propose_candidates");
    expect(log.filter((entry) => entry.stepId === "step-3")).toEqual([]);
  });

  test.each(["before-persist", "after-persist", "after-checkpoint"])(
    "a process killed %s during a confirmed write: a new process resumes with the write applied exactly once",
    async (killAt) => {
      const threadId = `crash-${killAt}-${target.kind}`;
      await seedStudent(env.tempo, threadId);
      await startUntilFirstWrite(env.tempo, threadId);
      const callId = writesOnCard((await env.tempo.graph.getState(studentThread(threadId))).values)[0]!.id;

      const killed = await runChild({ url: env.server.url, threadId, mode: "continue", untilNextCard: true }, killAt);
      expect(killed.signal).toBe("SIGKILL");
      expect(await appliedRows(env.tempo, threadId, callId)).toBe(killAt === "before-persist" ? 0 : 1);

      const resumed = await runChild({ url: env.server.url, threadId, mode: "continue", untilNextCard: true });
      expect(resumed.output).toMatchObject({ ok: true, card: "place" });
      expect(await appliedRows(env.tempo, threadId, callId)).toBe(1);

      // One completed (applied) entry; after a crash between the write and its checkpoint, the resumed step is
      // answered from the log (replayed) instead of running the tool against the changed schedule.
      expect(await logOfCall(env.tempo, threadId, callId)).toEqual(
        killAt === "after-persist" ? ["completed/applied", "replayed/not-applied"] : ["completed/applied"],
      );
      const recorded = (await readExecutionLog(env.tempo.database.pool, threadId)).find(
        (entry) => entry.toolCallId === callId && entry.status === "completed",
      );
      const messages = await toolMessagesOf(env.tempo, threadId, callId);
      expect(messages).toEqual([recorded!.result]);
      expect(messages[0]).toMatch(/^placed task /);

      // The rest of the task finishes in this process; every write once.
      await continueThread(env.tempo, threadId);
      await expectEveryWriteAppliedOnce(env.tempo, threadId);
    },
  );
});
