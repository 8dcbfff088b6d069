/**
 * Reconciling with the execution log (issue 25): a write card whose writes were already applied — the run that
 * applied them died before its checkpoint recorded the answer, or a server lost its recent checkpoints — is not asked
 * again. The thread moves on as if the card had been approved, nothing is applied twice, and the user is told what
 * had been applied; a dropped task says what its writes really did, from the log, not from the conversation.
 */
import { END } from "@langchain/langgraph";
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { runTool } from "../../tools/runner.js";
import { createScheduleDomain } from "../../tools/schedule/index.js";
import type { ProposedWrite } from "../../kernel/state.js";
import { writesOnCard } from "../support/card-writes.js";
import { postgresTargets } from "../support/postgres.js";
import { resume } from "../support/scripted.js";
import { appliedRows, expectEveryWriteAppliedOnce, logOfCall } from "./exactly-once.js";
import {
  cardOf,
  continueThread,
  interruptsOf,
  seedStudent,
  startUntilFirstWrite,
  studentOf,
  studentThread,
  useTempoOnTarget,
  type TempoOnDatabase,
} from "./tempo-on-database.js";
import { APPLIED_WRITES_OF_USER_SQL } from "../support/applied-writes.js";

type Values = { pending: { kind: string } | null; messages: BaseMessage[]; phase: string; finalAnswer: string | null };

/** The writes of the open card. */
async function cardWrites(tempo: TempoOnDatabase, threadId: string): Promise<ProposedWrite[]> {
  const values = (await tempo.graph.getState(studentThread(threadId))).values as Values;
  expect(values.pending?.kind).toBe("confirm_tool");
  return writesOnCard(values);
}

/** Applies `writes` the way a run that then died would have: through the runner, recorded in the log, no checkpoint. */
async function applyBehindTheCard(tempo: TempoOnDatabase, threadId: string, writes: ProposedWrite[]): Promise<void> {
  const domain = createScheduleDomain({ repository: tempo.repository });
  for (const write of writes) {
    const outcome = await runTool(
      domain,
      { userId: studentOf(threadId), threadId, stepId: "step-1" },
      { id: write.id, name: write.name, arguments: write.arguments },
      tempo.executionLog,
    );
    expect(outcome).toMatchObject({ ok: true, applied: true });
  }
}

const said = (result: object) =>
  ((result as { messages: BaseMessage[] }).messages ?? []).map((message) => String(message.content));

describe.each(postgresTargets())("$kind postgres", (target) => {
  // Every placement of the step on one batch card, as the offline policy proposes them by default.
  const env = useTempoOnTarget(target, { writesPerCard: Number.POSITIVE_INFINITY });

  test("a card whose every write the log holds as applied is not asked again: a rejection cannot undo them, nothing applies twice", async () => {
    const threadId = `reconcile-all-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const writes = await cardWrites(env.tempo, threadId);
    expect(writes).toHaveLength(8);
    await applyBehindTheCard(env.tempo, threadId, writes);

    // The user, shown the stale card again, rejects it: the log wins, the writes stay, and the user is told.
    const after = await env.tempo.graph.invoke(resume({ type: "ignore", args: null }), studentThread(threadId));
    const shown = interruptsOf(after).flatMap(
      (item) => (item.value as { action_requests?: Array<{ args: { tool_call_id?: string } }> }).action_requests ?? [],
    );
    expect(shown.filter((request) => writes.some((write) => JSON.stringify(request).includes(write.id)))).toEqual([]);
    const note = said(after).find((text) => text.includes("had already been applied"));
    expect(note).toMatch(/^8 change\(s\) on this card had already been applied before the interruption/);
    for (const write of writes) {
      expect(await appliedRows(env.tempo, threadId, write.id)).toBe(1);
      // Answered from the log when execute went on: never run again.
      expect(await logOfCall(env.tempo, threadId, write.id)).toEqual(["completed/applied", "replayed/not-applied"]);
    }
    const ended = await continueThread(env.tempo, threadId);
    expect(cardOf(ended)).toBeUndefined();
    await expectEveryWriteAppliedOnce(env.tempo, threadId);
    const finalAnswer = ((await env.tempo.graph.getState(studentThread(threadId))).values as Values).finalAnswer ?? "";
    expect(finalAnswer).not.toMatch(/skipped/i);
  });

  test("a card with some writes applied: those stay whatever the answer, the rest follow the answer, and the user is told which", async () => {
    const threadId = `reconcile-some-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const writes = await cardWrites(env.tempo, threadId);
    const applied = writes.slice(0, 3);
    await applyBehindTheCard(env.tempo, threadId, applied);

    const after = await env.tempo.graph.invoke(resume({ type: "ignore", args: null }), studentThread(threadId));
    const note = said(after).find((text) => text.includes("had already been applied"));
    expect(note).toMatch(
      /^3 change\(s\) on this card had already been applied before the interruption, so they stay whatever the answer to the rest: /,
    );
    for (const write of applied) expect(note).toContain(write.summary);
    for (const write of applied) expect(await appliedRows(env.tempo, threadId, write.id)).toBe(1);
    for (const write of writes.slice(3)) expect(await appliedRows(env.tempo, threadId, write.id)).toBe(0);
    // The five rejected are skipped; the refinement step (on by default after arranging) finds nothing to change in
    // the three placements, and the task ends partly done, telling the three applied and the five left.
    expect(cardOf(after)).toBeUndefined();
    const finalAnswer = ((await env.tempo.graph.getState(studentThread(threadId))).values as Values).finalAnswer ?? "";
    expect(finalAnswer).toMatch(/partly arranged: 5 review task\(s\) are still pending/);
    // Told as a person reads it: the tasks by name, the places by date and clock time.
    expect(finalAnswer).toMatch(
      /Changes applied \(they stay\): 3 — placed "Review limits and continuity" on Fri 15 Mar, 19:00–20:40; /,
    );
    const rows = await env.tempo.database.pool.query(APPLIED_WRITES_OF_USER_SQL, [studentOf(threadId)]);
    expect(rows.rows.map((row: { apply_id: string }) => row.apply_id).sort()).toEqual(
      applied.map((write) => write.id).sort(),
    );
  });

  test("ending a thread whose applied writes never reached its state says what the log holds, not 'Nothing was changed'", async () => {
    const threadId = `reconcile-end-${target.kind}`;
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const writes = await cardWrites(env.tempo, threadId);
    await applyBehindTheCard(env.tempo, threadId, writes.slice(0, 2));

    await env.tempo.graph.updateState(studentThread(threadId), null, END);
    const values = (await env.tempo.graph.getState(studentThread(threadId))).values as Values;
    expect(values.pending).toBeNull();
    expect(values.finalAnswer).toMatch(
      /^Dropped ".*" \(the thread was ended from the client\)\. The 2 change\(s\) already applied stay: /,
    );
    expect(values.finalAnswer).not.toContain("Nothing was changed");
    expect(values.finalAnswer?.match(/placed "[^"]+" on /g)).toHaveLength(2);
  });
});
