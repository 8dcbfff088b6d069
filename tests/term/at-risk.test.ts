/**
 * At risk, told early (issue 47 item 6): a review due before the Saturday midterm that the time left cannot hold is
 * said at risk only when the exact search proves it, with the change that recovers the most; a week that is only tight
 * says nothing, and a search cut short by its budget never says "at risk" as certain. The half-placed sample week,
 * late on Friday 15 March 2024 in Asia/Shanghai: before the midterm (Saturday 10:00) only Saturday 08:00–09:40 is left.
 */
import { describe, expect, test } from "vitest";
import { atRiskOf, atRiskText } from "../../tools/schedule/at-risk.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import {
  proposeRecoveryTool,
  RECOVERY_CANDIDATE_ID,
  sampleWeek,
  type RecoveryListing,
} from "../../tools/schedule/index.js";
import { parseToolData } from "../../offline/schedule/result-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "../graph/support/offline-conversation.js";

/** Friday 15 March 2024, 23:00 in Asia/Shanghai. */
const FRIDAY_NIGHT = "2024-03-15T15:00:00.000Z";

/** The sample week late on Friday with the essay draft on Sunday: Saturday 08:00–09:40 is free, and just enough. */
function tightWeek(): ScheduleState {
  const week = { ...halfPlacedWeek(), now: FRIDAY_NIGHT };
  return applyWrites(week, [{ name: "move", arguments: { task_id: "essay-draft", day: 7, slot_start: 9 } }])!;
}

describe("at risk, told early", () => {
  test("a week that is only tight is not at risk", () => {
    const report = atRiskOf(tightWeek());
    expect(report.due).toBe(1);
    expect(report.atRisk).toEqual([]);
    expect(report.unproved).toEqual([]);
    expect(atRiskText(report, "en")).toBeUndefined();
  });

  test("a move that takes the last free time before the midterm makes the drills at risk, proved, with the recovery", () => {
    const moved = applyWrites(tightWeek(), [
      { name: "move", arguments: { task_id: "essay-draft", day: 6, slot_start: 1 } },
    ])!;
    const report = atRiskOf(moved);
    expect(report.atRisk.map((task) => task.id)).toEqual(["derivative-drills"]);
    expect(report.atRisk[0]!.due).toBe("Calculus midterm exam (Sat 16 Mar)");
    expect(report.recovery?.recovers).toEqual(["derivative-drills"]);
    // The recovery applies as it is, and leaves the drills before the midterm.
    const recovered = applyWrites(moved, report.recovery!.writes)!;
    const drills = recovered.tasks.find((task) => task.id === "derivative-drills")!;
    expect(drills.slots).toEqual([{ day: 6, start: expect.any(Number), end: expect.any(Number) }]);
    expect(drills.slots![0]!.end).toBeLessThan(3);
    expect(atRiskOf(recovered).atRisk).toEqual([]);
    expect(atRiskText(report, "en")).toBe(
      "At risk (proved, with the reviews already placed where they are): no free time before its deadline holds Derivative practice set (due before Calculus midterm exam (Sat 16 Mar)). " +
        'The change that recovers the most (Derivative practice set): Move "Draft the English essay" from Sat 16 Mar, ' +
        '08:00–09:40 to Sat 16 Mar, 14:55–16:45; Place "Derivative practice set" on Sat 16 Mar, 08:00–08:45. ' +
        'Say "recover" to have it on a card.',
    );
    expect(atRiskText(report, "zh")).toMatch(
      /^有风险（已证明，已安排的复习都在原位）：截止前已没有空闲时间放得下 Derivative/,
    );
  });

  test("with no movable review, nothing recovers it, and it says so", () => {
    const moved = applyWrites(tightWeek(), [
      { name: "move", arguments: { task_id: "essay-draft", day: 6, slot_start: 1 } },
    ])!;
    // The essay draft done already: what holds Saturday morning cannot be moved.
    const fixed: ScheduleState = {
      ...moved,
      tasks: moved.tasks.map((task) => (task.id === "essay-draft" ? { ...task, status: "done" as const } : task)),
    };
    const report = atRiskOf(fixed);
    expect(report.atRisk.map((task) => task.id)).toEqual(["derivative-drills"]);
    expect(report.recovery).toBeUndefined();
    expect(atRiskText(report, "en")).toContain("Moving every review not yet started recovers none of it (proved)");
  });

  test("a search stopped at its budget says no place was found, never at risk as certain", () => {
    const moved = applyWrites(tightWeek(), [
      { name: "move", arguments: { task_id: "essay-draft", day: 6, slot_start: 1 } },
    ])!;
    const report = atRiskOf(moved, { nodeLimit: 0 });
    expect(report.atRisk).toEqual([]);
    expect(report.unproved.map((task) => task.id)).toEqual(["derivative-drills"]);
    const text = atRiskText(report, "en")!;
    expect(text).toMatch(/^Possibly at risk \(not proved/);
    expect(text).not.toMatch(/^At risk/);
  });
});

describe("the answer of the turn that puts a deadline at risk says so, once", () => {
  test("moving the essay draft onto Saturday morning is told at risk with the recovery; a later turn does not repeat it", async () => {
    const tempo = await offlineTempo(tightWeek(), () => new Date(FRIDAY_NIGHT));
    const thread = "risk-thread";
    const tight = await converse(tempo, "Move the essay draft to Sunday 14:00", [], thread);
    expect(tight.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(tight.finalAnswer).not.toContain("risk");
    const moved = await converse(tempo, "Move the essay draft to Saturday 8:00", [], thread);
    expect(moved.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(moved.finalAnswer).toContain(
      "At risk (proved, with the reviews already placed where they are): no free time before its deadline holds Derivative practice set (due before Calculus midterm exam (Sat 16 Mar)).",
    );
    expect(moved.finalAnswer).toContain("The change that recovers the most (Derivative practice set)");
    // Still at risk after the next write, which is not about it: not told twice.
    const placed = await converse(tempo, "Arrange the binary tree review on Sunday", [], thread);
    expect(placed.cards.map((card) => card.action)).toEqual(["confirm_plan", "place"]);
    expect(placed.finalAnswer).not.toContain("At risk");
  });
});

describe("the words claim what is proved, and the recovery moves only what is in the way", () => {
  test("a missed review whose one place before the midterm a review not yet started holds: no free time, one move", async () => {
    // QA's week: arranged on Monday morning; on Friday at 21:00 the limits review (Friday 19:00) is missed, and before
    // the midterm (Saturday 10:00) only Saturday 08:00–09:40 is long enough — the determinant exercises hold part of it.
    let clock = new Date("2024-03-11T09:00:00+08:00");
    const tempo = await offlineTempo(sampleWeek(), () => clock);
    await converse(tempo, "arrange my reviews", [], "arrange");
    const arranged = await tempo.repository.load("student");
    expect(placeOf(arranged, "review-limits")).toBe("day 5 slots 9-10");
    expect(placeOf(arranged, "determinant-exercises")).toBe("day 6 slots 2-2");
    clock = new Date("2024-03-15T21:00:00+08:00");
    const missed = await converse(tempo, "I missed the review limits and continuity", [], "missed");
    const answer = missed.said.at(-1) ?? "";
    const risk = answer.slice(answer.indexOf("At risk"));
    // What is proved is the free time, with the placed reviews where they are — not the time left: the change
    // listed after it places the review.
    expect(risk).not.toContain("proved not to hold");
    expect(risk).toBe(
      "At risk (proved, with the reviews already placed where they are): no free time before its deadline holds " +
        "Review limits and continuity (due before Calculus midterm exam (Sat 16 Mar)). The change that recovers the " +
        'most (Review limits and continuity): Move "Determinant exercises" from Sat 16 Mar, 08:55–09:40 to Fri 15 Mar, ' +
        '21:45–22:30; Place "Review limits and continuity" on Sat 16 Mar, 08:00–09:40. Say "recover" to have it on ' +
        "a card.",
    );
    const week = { ...(await tempo.repository.load("student")), now: clock.toISOString() };
    const report = atRiskOf(week);
    // Only the review in the way moves: the vocabulary list (Sunday) stays where it is.
    expect(report.recovery?.writes.map((write) => [write.name, write.arguments.task_id])).toEqual([
      ["move", "determinant-exercises"],
      ["place", "review-limits"],
    ]);
    expect(atRiskOf(applyWrites(week, report.recovery!.writes)!).atRisk).toEqual([]);
  });
});

describe('"recover": the change the at-risk notice names, on a card', () => {
  /** The week after the essay draft took Saturday morning: the drills are at risk, one move recovers them. */
  async function atRiskTempo() {
    const moved = applyWrites(tightWeek(), [
      { name: "move", arguments: { task_id: "essay-draft", day: 6, slot_start: 1 } },
    ])!;
    return offlineTempo(moved, () => new Date(FRIDAY_NIGHT));
  }

  test("propose_recovery lists the notice's change as v1, read back alike from its text; the request is read", () => {
    const moved = applyWrites(tightWeek(), [
      { name: "move", arguments: { task_id: "essay-draft", day: 6, slot_start: 1 } },
    ])!;
    const listed = proposeRecoveryTool.run(moved, {});
    const listing = listed.data as RecoveryListing;
    expect(listing.candidates.map((candidate) => [candidate.id, candidate.writes])).toEqual([
      [RECOVERY_CANDIDATE_ID, atRiskOf(moved).recovery!.writes],
    ]);
    expect(listing.recovers).toEqual([{ id: "derivative-drills", name: "Derivative practice set" }]);
    // What a model server without artifacts gives the policy: the same listing, its writes left in the graph.
    expect(parseToolData("propose_recovery", listed.content)).toEqual({
      ...listing,
      candidates: listing.candidates.map((candidate) => ({ ...candidate, writes: [] })),
    });
    const safe = proposeRecoveryTool.run(tightWeek(), {});
    expect(safe.content).toBe("nothing to recover: no review with a deadline is at risk");
    expect(parseToolData("propose_recovery", safe.content)).toEqual(safe.data);
    for (const said of ["recover", "Recover them please", "do the recovery", "补救", "执行补救方案", "ok, recover it"])
      expect(parseScheduleRequest(said).kind, said).toBe("recover");
    for (const said of ["recover my password", "how do I recover?"])
      expect(parseScheduleRequest(said).kind, said).not.toBe("recover");
  });

  test("said after the notice, it proposes the change as one card; approved, the drills are before the midterm", async () => {
    const tempo = await atRiskTempo();
    const recovered = await converse(tempo, "recover", [], "recover-en");
    expect(recovered.cards.map((card) => card.action)).toEqual(["confirm_plan", "move", "place"]);
    const week = { ...(await tempo.repository.load("student")), now: FRIDAY_NIGHT };
    expect(placeOf(week, "derivative-drills")).toBe("day 6 slots 1-1");
    expect(atRiskOf(week).atRisk).toEqual([]);
    expect(recovered.finalAnswer).toContain("Derivative practice set");
    // Nothing is at risk any more: asked again, it says so and proposes nothing.
    const again = await converse(tempo, "recover", [], "recover-en");
    expect(again.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(again.finalAnswer).toContain("no review with a deadline is at risk");
  });

  test("declined, the week is as it was; in Chinese the answer is Chinese", async () => {
    const tempo = await atRiskTempo();
    const before = await tempo.repository.load("student");
    const declined = await converse(
      tempo,
      "补救",
      [{ type: "accept", args: null }, ...[1, 2].map(() => ({ type: "ignore", args: null }))],
      "recover-zh",
    );
    expect(declined.cards.map((card) => card.action)).toEqual(["confirm_plan", "move", "place"]);
    expect(await tempo.repository.load("student")).toEqual(before);
    expect(declined.finalAnswer).toMatch(/[\u4e00-\u9fff]/);
    expect(declined.finalAnswer).not.toMatch(/nothing was changed|not carried out|declined/);
    expect(declined.said).toContain("补救 “Derivative practice set” 的修改（卡片上逐项列出）。");
  });
});

describe("a recovery that trades one due review for another", () => {
  test("a long task's sessions, more than the days left before its deadline: no change recovers one", async () => {
    // Wednesday 14:30: "before Friday" leaves Wednesday evening and Thursday; three sessions, no two on one day.
    const now = new Date("2024-03-13T06:30:00Z");
    const tempo = await offlineTempo(halfPlacedWeek(), () => now);
    const outcome = await converse(tempo, "write the essay, 4 hours, before Friday");
    const week = { ...outcome.schedule, now: now.toISOString() };
    const sessions = week.tasks.filter(
      (task): task is TaskItem => task.source === "task_item" && task.group?.kind === "sessions",
    );
    expect(sessions.map((task) => task.status).sort()).toEqual(["pending", "placed", "placed"]);
    const report = atRiskOf(week);
    expect(report.atRisk.map((task) => task.id)).toEqual(
      sessions.filter((task) => task.status === "pending").map((task) => task.id),
    );
    // Placing the third session takes off one of the other two (its day): it meets no more deadlines.
    expect(report.recovery).toBeUndefined();
    expect(report.noneProved).toBe(true);
    expect(report.trades).toBe(true);
    expect(outcome.finalAnswer).not.toContain("The change that recovers the most");
    // Said as the trade it is: moving a placed session does give the third one a place, the moved one's.
    expect(outcome.finalAnswer).toContain(
      "Moving the reviews not yet started only trades one review due for another, meeting no more deadlines (proved)",
    );
    // Free time there is (Wednesday evening, Thursday): the other sessions' days keep the third out, and it says so.
    expect(report.atRisk.map((task) => task.sessionEachDay)).toEqual([true]);
    expect(outcome.finalAnswer).toContain(
      "(due before Fri 15 Mar): each day before its deadline with free time for it already holds another session of the same task (no two sessions on one day).",
    );
    expect(outcome.finalAnswer).not.toContain("no free time before");
  });

  test("in Chinese, the third session is kept out by the other two's days, not by no free time; named in Chinese", async () => {
    const now = new Date("2024-03-13T06:30:00Z");
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }), () => now);
    const outcome = await converse(tempo, "写论文，4小时，周五前");
    expect(outcome.finalAnswer).toMatch(
      /写论文（第 3 次，共 3 次）（3月15日周五之前）：截止前每个有空闲时间的日子都已安排了同一任务的另一次（同一任务一天只安排一次）。/,
    );
    expect(outcome.finalAnswer).not.toContain("截止前已没有空闲时间");
    // A Chinese task's sessions are named in Chinese.
    expect(outcome.finalAnswer).not.toContain("session");
  });
});

describe("a deadline past the window's end", () => {
  test("is told by its date: a review due before the day after Sunday is due before Mon 18 Mar", () => {
    const week = tightWeek();
    const day = week.window.slotsPerDay;
    const marathon: TaskItem = {
      id: "marathon",
      name: "Revision marathon",
      source: "task_item",
      duration: day,
      categoryId: week.categories[0]!.id,
      status: "pending",
      dueBefore: { day: week.window.totalDays + 1 },
    };
    const withMarathon = { ...week, tasks: [...week.tasks, marathon] };
    const report = atRiskOf(withMarathon);
    expect(report.atRisk.find((task) => task.id === "marathon")?.due).toBe("Mon 18 Mar");
    expect(atRiskText(report, "en")).toContain("Revision marathon (due before Mon 18 Mar)");
    expect(atRiskText(atRiskOf(withMarathon, {}, "zh"), "zh")).toContain("Revision marathon（3月18日周一之前）");
  });
});
