/**
 * The week's health right after the week rolls over: the reviews that passed without being marked done are missed and
 * have no place. They are work still to place (as the at-risk check counts them), so the health judge counts them as
 * it counts pending ones — one that fits costs what an unplaced review costs, one whose deadline passed is a forced
 * "cannot fit" — and the answer to "how healthy is my week?" never reads 100 with "nothing costs points" over them.
 */
import { describe, expect, test } from "vitest";
import { analyzeHealth, formatHealth, HEALTH_PENALTIES } from "../../tools/schedule/health.js";
import { forcedText } from "../../tools/schedule/candidates.js";
import { NO_PLACE_BEFORE, proposeReschedule } from "../../tools/schedule/tools/reschedule.js";
import { rollWindowTool } from "../../tools/schedule/tools/roll-window.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { WeekModel } from "../../tools/schedule/week-model.js";
import { converse, crowdedMondayWeek, offlineTempo } from "../graph/support/offline-conversation.js";

/** Tuesday of the week after the sample week, 09:00 in Shanghai: the clock rolls the window on by 7 days. */
const NEXT_TUESDAY = new Date("2024-03-19T09:00:00+08:00");

/** The sample week with all eight reviews placed (none marked done), rolled by 7 days, its clock next Tuesday. */
function rolledWeek(): ScheduleState {
  const rolled = rollWindowTool.run(crowdedMondayWeek(), { days: 7 });
  if (!rolled.ok || !rolled.state) throw new Error(rolled.content);
  return { ...rolled.state, now: NEXT_TUESDAY.toISOString() };
}

const missedOf = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "missed");

describe("the health of a week with missed reviews", () => {
  test("counts each missed review without a place: one that fits as unplaced, a passed deadline as forced", () => {
    const week = rolledWeek();
    const missed = missedOf(week);
    expect(missed).toHaveLength(8);
    const report = analyzeHealth(week);
    expect(report.feasibility).toMatchObject({ pending: 0, missed: 8 });
    // The calculus reviews were due before the midterm, which left with the old days: their deadline has passed.
    const passed = report.issues.find((issue) => /\(deadline passed\)/.test(issue.message));
    expect(passed).toMatchObject({ kind: "cannot_fit", forced: true });
    expect([...passed!.tasks].sort()).toEqual(["derivative-drills", "review-limits"]);
    const fits = report.issues.find((issue) => issue.kind === "unplaced");
    expect(fits?.message).toMatch(/^6 missed review\(s\) fit and are not made up: /);
    expect(report.feasibility.placeable).toBe(6);
    expect(report.score).toBe(Math.max(0, 100 - 6 * HEALTH_PENALTIES.unplaced - 2 * HEALTH_PENALTIES.cannotFit));
    expect(formatHealth(report)).toContain("feasibility: pending 0, missed without a place 8, of which fit 6");
    // The climb's incremental judge scores the same week the same.
    expect(new WeekModel(week).score()).toBe(report.score);
  });

  test("a missed review made up (placed again) or skipped costs nothing any more", () => {
    const week = rolledWeek();
    const settled = {
      ...week,
      tasks: week.tasks.map((task) =>
        task.source === "task_item" && task.status === "missed" ? { ...task, status: "skipped" as const } : task,
      ),
    };
    expect(analyzeHealth(settled).score).toBe(100);
  });
});

describe("what no change can fix, after the roll", () => {
  test("a review past its deadline is named so, never as one that fits nowhere beside the others", () => {
    const rolled = rolledWeek();
    // One of the two calculus reviews left pending (never placed), the other missed: both are past the midterm.
    const week: ScheduleState = {
      ...rolled,
      tasks: rolled.tasks.map((task) => {
        if (task.id !== "derivative-drills" || task.source !== "task_item") return task;
        const { was: _was, markedAt: _markedAt, ...rest } = task;
        return { ...rest, status: "pending" as const };
      }),
    };
    const text = forcedText(analyzeHealth(week), week);
    expect(text?.split(", ").sort()).toEqual([
      "derivative-drills (deadline passed)",
      "review-limits (deadline passed)",
    ]);
  });
});

describe('"how healthy is my week?" right after the roll', () => {
  test("the answer gives the score with the missed reviews counted, and names them", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek(), () => NEXT_TUESDAY);
    const outcome = await converse(tempo, "how healthy is my week?");
    const answer = outcome.said.at(-1) ?? "";
    expect(answer).toMatch(/^A new week: /);
    const stored = { ...outcome.schedule, now: NEXT_TUESDAY.toISOString() };
    expect(missedOf(stored)).toHaveLength(8);
    const score = analyzeHealth(stored).score;
    expect(score).toBeLessThan(100);
    expect(answer).toContain(`Your week's health score is ${score}/100.`);
    expect(answer).not.toContain("Nothing costs points");
    expect(answer).toContain("8 missed review(s) are not made up (6 of them fit).");
    expect(answer).toMatch(
      /"Review limits and continuity", "Derivative practice set" \(deadline passed\)|"Derivative practice set", "Review limits and continuity" \(deadline passed\)/,
    );
  });

  test("in Chinese too", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek(), () => NEXT_TUESDAY);
    const outcome = await converse(tempo, "我的这一周健康吗");
    const answer = outcome.said.at(-1) ?? "";
    const score = analyzeHealth({ ...outcome.schedule, now: NEXT_TUESDAY.toISOString() }).score;
    expect(score).toBeLessThan(100);
    expect(answer).toContain(`这一周的健康分是 ${score}/100。`);
    expect(answer).not.toContain("没有扣分项");
    expect(answer).toContain("还有 8 个复习待安排（其中 8 个是错过后还没补上的），其中 6 个放得下。");
  });
});

describe("making up the missed reviews after the roll", () => {
  test("a missed review past its deadline is said to be so, not to have no free place", () => {
    const week = rolledWeek();
    const listing = proposeReschedule(
      week,
      missedOf(week).map((task) => task.id),
    );
    // The six without a deadline get places; the two calculus reviews are past the midterm.
    expect(listing.candidates[0]?.writes).toHaveLength(6);
    expect(listing.unplaced).toEqual([
      { id: "review-limits", name: "Review limits and continuity", why: NO_PLACE_BEFORE.passed },
      { id: "derivative-drills", name: "Derivative practice set", why: NO_PLACE_BEFORE.passed },
    ]);
  });

  test('"补排错过的复习" with only reviews past their deadline missed: said so, in Chinese', async () => {
    // Every review but the two calculus ones marked done before the week rolls over.
    const week = crowdedMondayWeek();
    week.tasks = week.tasks.map((task) =>
      task.source === "task_item" && task.categoryId !== "calculus"
        ? { ...task, status: "done" as const, markedAt: "2024-03-11T12:00:00.000Z" }
        : task,
    );
    const tempo = await offlineTempo(week, () => NEXT_TUESDAY);
    await converse(tempo, "how healthy is my week?");
    const outcome = await converse(tempo, "补排错过的复习");
    const said = outcome.said.join("\n");
    expect(said).toContain("没有找到可以补做的时段：错过的复习已过了截止时间。");
    expect(said).not.toMatch(/no free place|past their deadline/);
    const english = await converse(tempo, "reschedule my missed reviews");
    expect(english.said.join("\n")).toContain(
      "I found no place to make it up: the missed review(s) are past their deadline.",
    );
  });
});

describe("a missed review past its deadline: what the student can do about it", () => {
  test("the health answer and the reschedule say how to let it go, and skipping it ends its cost", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek(), () => NEXT_TUESDAY);
    const health = (await converse(tempo, "how healthy is my week?")).said.at(-1) ?? "";
    // It costs points every day it stays, and nothing can place it: the answer says what ends that.
    expect(health).toContain(
      '"Review limits and continuity" is past its deadline: nothing can make it up now, and it costs points until you let it go — say "skip Review limits and continuity" and it stops.',
    );
    expect(health).toContain('say "skip Derivative practice set"');
    // The six that fit are made up; the two past their deadline stay missed.
    await converse(tempo, "reschedule my missed reviews");
    // The words offered do what they say: the skip card, approved, takes the review's cost off the score.
    const before = analyzeHealth({ ...(await tempo.repository.load("student")), now: NEXT_TUESDAY.toISOString() });
    const skipped = await converse(tempo, "skip Derivative practice set");
    expect(skipped.cards.map((card) => card.action)).toEqual(["confirm_plan", "skip"]);
    const after = analyzeHealth({ ...skipped.schedule, now: NEXT_TUESDAY.toISOString() });
    expect(after.score).toBe(before.score + HEALTH_PENALTIES.cannotFit);
    expect(after.feasibility.passed).toEqual([{ id: "review-limits", name: "Review limits and continuity" }]);
  });

  test("in Chinese too", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek(), () => NEXT_TUESDAY);
    const health = (await converse(tempo, "我的这一周健康吗")).said.at(-1) ?? "";
    expect(health).toContain("“Review limits and continuity”已过截止时间，无法再补做");
    expect(health).toContain("说“跳过Review limits and continuity”即可不再扣分");
  });
});
