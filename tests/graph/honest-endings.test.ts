/**
 * Honest endings (issue 31 item 2), through the whole graph with the offline policy: a task whose steps did nothing —
 * no write proposed, or every write declined — is never `completed`, and its answer says what was asked and what
 * was not done; a question stays completed; a task that changed something stays as it was judged.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { unchangedOutcome } from "../../nodes/deliver/task-report.js";
import type { PlanStep } from "../../kernel/state.js";
import { halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";

type Tempo = Awaited<ReturnType<typeof offlineTempo>>;

/** Sends `message` and answers each card with the next of `answers` (accept when none is left). */
async function run(tempo: Tempo, message: string, answers: unknown[] = []) {
  const config = threadConfig(`honest-${Math.random().toString(36).slice(2)}`, "student");
  let result = await tempo.graph.invoke({ messages: [new HumanMessage(message)] }, config);
  const queue = [...answers];
  for (let turn = 0; turn < 20 && interruptsOf(result).length > 0; turn += 1) {
    // A batch card takes one decision per write.
    const requests = (interruptsOf(result)[0]!.value as { action_requests: unknown[] }).action_requests;
    result = await tempo.graph.invoke(
      resume(queue.shift() ?? { decisions: requests.map(() => ({ type: "approve" })) }),
      config,
    );
  }
  return result;
}

const decline = { decisions: [{ type: "reject", message: "" }] };

describe("a task that changed nothing is not completed", () => {
  test("declining the only write: failed, the answer says nothing was changed, the week is as it was", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const result = await run(tempo, "Move my matrix review to Thursday", [
      { decisions: [{ type: "approve" }] },
      decline,
    ]);
    expect(result.outcome).toMatchObject({
      kind: "failed",
      reason: "nothing was changed: you declined the change it proposed",
    });
    expect(result.finalAnswer).not.toMatch(/^Done/);
    expect(result.finalAnswer).toMatch(/nothing was changed|unchanged|declined/i);
    expect(placeOf(await tempo.repository.load("student"), "matrix-review")).toBe("day 2 slots 3-4");
  });

  test("declining every placement of an arrangement: failed, nothing placed", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const config = threadConfig("honest-arrange", "student");
    let result = await tempo.graph.invoke(
      { messages: [new HumanMessage("arrange the data structures reviews")] },
      config,
    );
    result = await tempo.graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    // The batch card: each write declined on its own.
    for (let turn = 0; turn < 10 && interruptsOf(result).length > 0; turn += 1) {
      const requests = (interruptsOf(result)[0]!.value as { action_requests: unknown[] }).action_requests;
      result = await tempo.graph.invoke(
        resume({ decisions: requests.map(() => ({ type: "reject", message: "" })) }),
        config,
      );
    }
    expect(result.outcome?.kind).toBe("failed");
    expect(result.outcome?.reason).toMatch(
      /^nothing was changed: you declined (?:the change|all \d+ changes) it proposed$/,
    );
    // Never "partly arranged" over nothing placed.
    expect(result.finalAnswer).toMatch(/^Nothing was changed; the steps below say why\./);
    const schedule = await tempo.repository.load("student");
    expect(placeOf(schedule, "linked-list-exercises")).toBe("pending");
    expect(placeOf(schedule, "binary-tree-review")).toBe("pending");
  });

  test("arranging when nothing is pending: failed, and the answer says nothing was placed", async () => {
    const week = sampleWeek();
    const tempo = await offlineTempo(week);
    await run(tempo, "arrange my reviews");
    // Everything placed: a second request finds nothing to do.
    const again = await run(tempo, "arrange my reviews");
    expect(again.outcome?.kind).toBe("failed");
    expect(again.outcome?.reason).toMatch(/^nothing was changed: /);
    expect(again.finalAnswer).not.toMatch(/is arranged\.|^Done/);
    // What was found, said plainly: never a bare "(failed)" under steps that all read done.
    expect(again.finalAnswer).toMatch(/^Every review task is already placed: nothing needed changing\.\n/);
    expect(again.finalAnswer).not.toContain("(failed)");
  });

  test("a question whose step found nothing is not completed; a question answered is", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    // The execute stage asks which task is meant; an answer that names none ends the question unanswered.
    const unknown = await run(tempo, "explain the zebra review", ["unicorn"]);
    expect(unknown.outcome).toMatchObject({ kind: "failed" });
    expect(unknown.outcome?.reason).toMatch(/^nothing was found: /);
    const known = await run(tempo, "explain the matrix review");
    expect(known.outcome).toMatchObject({ kind: "completed" });
  });

  test("a task that applied its write stays completed", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const result = await run(tempo, "Move my matrix review to Thursday");
    expect(result.outcome?.kind).toBe("completed");
    expect(placeOf(await tempo.repository.load("student"), "matrix-review")).toMatch(/^day 4 /);
  });
});

describe("unchangedOutcome", () => {
  const step = (status: PlanStep["status"], summary: string): PlanStep =>
    ({ id: `s-${summary.length}`, content: "a step", doneWhen: "", status, summary, revision: 0 }) as PlanStep;
  const completed = { kind: "completed" as const, reason: "all 1 step(s) done" };

  test("a task that applied something keeps its outcome; a partial one that applied nothing failed; a failed one stays", () => {
    const partial = { kind: "partial" as const, reason: "1 of 2 step(s) done" };
    const failed = { kind: "failed" as const, reason: "0 of 1 step(s) done" };
    expect(
      unchangedOutcome(
        partial,
        [step("done", "x")],
        { readOnlyPlan: false, runMode: null },
        { applied: 1, declined: 1 },
      ),
    ).toBe(partial);
    expect(
      unchangedOutcome(
        completed,
        [step("done", "x")],
        { readOnlyPlan: false, runMode: null },
        { applied: 1, declined: 3 },
      ),
    ).toBe(completed);
    expect(
      unchangedOutcome(
        partial,
        [step("done", "x")],
        { readOnlyPlan: false, runMode: null },
        { applied: 0, declined: 1 },
      ),
    ).toEqual({ kind: "failed", reason: "nothing was changed: you declined the change it proposed" });
    expect(
      unchangedOutcome(
        partial,
        [step("done", "x")],
        { readOnlyPlan: true, runMode: null },
        { applied: 0, declined: 0 },
      ),
    ).toBe(partial);
    expect(
      unchangedOutcome(
        failed,
        [step("failed", "x")],
        { readOnlyPlan: false, runMode: null },
        { applied: 0, declined: 0 },
      ),
    ).toBe(failed);
  });

  test("a failed task whose applied writes stay is partial: something was done, and it stays", () => {
    const failed = { kind: "failed" as const, reason: '0 of 3 step(s) done; step "place" failed: cancelled' };
    expect(
      unchangedOutcome(
        failed,
        [step("failed", "x")],
        { readOnlyPlan: false, runMode: null },
        { applied: 3, declined: 0 },
      ),
    ).toEqual({ ...failed, kind: "partial" });
  });

  test("declined, none proposed, not carried out, a question, a refinement with nothing better", () => {
    const writing = { readOnlyPlan: false, runMode: null };
    expect(unchangedOutcome(completed, [step("done", "ok")], writing, { applied: 0, declined: 2 })).toEqual({
      kind: "failed",
      reason: "nothing was changed: you declined all 2 changes it proposed",
    });
    expect(unchangedOutcome(completed, [step("done", "ok")], writing, { applied: 0, declined: 0 })).toEqual({
      kind: "failed",
      reason: "nothing was changed: no change was proposed",
    });
    expect(
      unchangedOutcome(completed, [step("done", 'not carried out: no task matches "zebra"')], writing, {
        applied: 0,
        declined: 0,
      }),
    ).toEqual({ kind: "failed", reason: 'nothing was changed: no task matches "zebra"' });
    expect(
      unchangedOutcome(
        completed,
        [step("done", "3 pending")],
        { readOnlyPlan: true, runMode: null },
        { applied: 0, declined: 0 },
      ),
    ).toBe(completed);
    expect(
      unchangedOutcome(
        completed,
        [step("done", "not carried out: none")],
        { readOnlyPlan: true, runMode: null },
        { applied: 0, declined: 0 },
      ),
    ).toEqual({ kind: "failed", reason: "nothing was found: none" });
    expect(
      unchangedOutcome(
        completed,
        [step("done", "stopped: no change raises the score")],
        { readOnlyPlan: false, runMode: "global_reopt" },
        { applied: 0, declined: 0 },
      ),
    ).toBe(completed);
  });
});
