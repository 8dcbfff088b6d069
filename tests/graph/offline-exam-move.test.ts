/**
 * Moving an exam offline (issue 47, "How it is checked": the student moves an exam). An exam is an event of the
 * timetable, not a review: the planner's check of the names a request holds (which reads the placed reviews) must
 * not take "the calculus mid-term" for an unknown review and ask which one is meant. The move is planned, proposed
 * on a card and carried out, in English and Chinese, with a typo; a made-up exam is asked about, nothing changed.
 * A locked exam (the sample's midterm) moves too when the person says its time changed — its card says it is locked —
 * but a swap never takes it (`LockedEvents` in tools/schedule/tools/task-checks.ts).
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import type { ScheduleState } from "../../tools/schedule/index.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

/** The sample week with its Saturday midterm unlocked, so that it may move. */
function weekWithMovableMidterm(chinese = false): ScheduleState {
  const week = halfPlacedWeek({ chinese });
  week.tasks = week.tasks.map((task) =>
    task.source === "event" && task.id === "sat-calculus-midterm" ? { ...task, locked: false } : task,
  );
  return week;
}

describe("moving an exam through the offline policy", () => {
  test.each([
    ["English", "move the calculus mid-term to Sunday afternoon", false],
    ["English, with a typo", "move the calculus midtem exam to Sunday afternoon", false],
    ["Chinese", "把微积分期中考试改到周日下午", true],
  ])("%s: the exam moves on a card to Sunday afternoon; no question about which review", async (_, message, zh) => {
    const tempo = await offlineTempo(weekWithMovableMidterm(zh));
    const outcome = await converse(tempo, message);
    expect(outcome.cards.map((card) => card.action)).not.toContain("ask_user");
    expect(outcome.cards.at(-1)).toMatchObject({ action: "move", args: { task_id: "sat-calculus-midterm", day: 7 } });
    expect(placeOf(outcome.schedule, "sat-calculus-midterm")).toBe("day 7 slots 5-7");
  });

  test.each([
    [
      "English",
      "move the calculus midterm exam to Sunday afternoon",
      false,
      "(a locked event: approve only if its time really changed)",
    ],
    ["Chinese", "把微积分期中考试改到周日下午", true, "（这是锁定的日程：只有它的时间确实改了才批准）"],
  ])(
    "%s: the locked midterm moves when the person says its time changed, and its card says it is locked",
    async (_, message, zh, warning) => {
      const week = halfPlacedWeek({ chinese: zh });
      expect(week.tasks.find((task) => task.id === "sat-calculus-midterm")).toMatchObject({ locked: true });
      const tempo = await offlineTempo(week);
      const outcome = await converse(tempo, message);
      expect(outcome.cards.at(-1)).toMatchObject({ action: "move", args: { task_id: "sat-calculus-midterm", day: 7 } });
      expect(outcome.descriptions.at(-1)).toContain(warning);
      expect(placeOf(outcome.schedule, "sat-calculus-midterm")).toBe("day 7 slots 5-7");
      // Still locked where it is now: nothing makes room with it.
      expect(outcome.schedule.tasks.find((task) => task.id === "sat-calculus-midterm")).toMatchObject({ locked: true });
    },
  );

  test.each([
    [
      "English",
      "swap the calculus midterm exam with the matrix review",
      false,
      '"Calculus midterm exam" is locked, and a swap never moves it; if its time really changed, ask me to move it',
    ],
    ["Chinese", "把微积分期中考试和矩阵复习交换", true, "已锁定，交换不会移动它；如果它的时间确实改了，请让我移动它"],
  ])("%s: a swap never takes the locked midterm; it says why and changes nothing", async (_, message, zh, said) => {
    const week = halfPlacedWeek({ chinese: zh });
    const tempo = await offlineTempo(week);
    const outcome = await converse(tempo, message);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toContain(said);
    expect(await tempo.repository.load("student")).toEqual(week);
  });

  test("a made-up exam is never moved: after the plan card comes the question which task is meant, nothing changed", async () => {
    const week = weekWithMovableMidterm();
    const tempo = await offlineTempo(week);
    const config = threadConfig("made-up-exam", "student");
    let result = await tempo.graph.invoke(
      { messages: [new HumanMessage("move the zebra exam to Sunday afternoon")] },
      config,
    );
    const asked: Array<{ name: string; description?: string }> = [];
    for (let turn = 0; turn < 4 && interruptsOf(result).length > 0; turn += 1) {
      const request = (
        interruptsOf(result)[0]!.value as { action_requests: Array<{ name: string; description?: string }> }
      ).action_requests[0]!;
      asked.push(request);
      if (request.name === "ask_user") break;
      result = await tempo.graph.invoke(resume({ type: "accept", args: null }), config);
    }
    expect(asked.map((request) => request.name)).toEqual(["confirm_plan", "ask_user"]);
    expect(asked[1]?.description).toContain('I found no task matching "zebra exam"');
    expect(await tempo.repository.load("student")).toEqual(week);
  });
});
