/**
 * "How many reviews are left before Friday?" gave the list of every open review. It now answers what is still to do
 * before that day: each review placed on an earlier day whose time has not come, and each without a place that is
 * due before it. The clock moves morning and evening through the week; the oracle reads the stored week alone (each
 * review's start from its dates and slot times, its deadline's day).
 */
import { describe, expect, test } from "vitest";
import type { ScheduleState, TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** When a placed review starts, as the stored week says it (the sample week is in Shanghai). */
function startOf(week: ScheduleState, task: TaskItem): number {
  const range = task.slots![0]!;
  const date = week.window.days.find((day) => day.dayIndex === range.day)!.date!;
  return new Date(`${date}T${week.window.slotTimes![range.start - 1]!.start}:00+08:00`).getTime();
}

/** The reviews left before day `day` of `week` at `now`, by name: the oracle. */
function leftBefore(week: ScheduleState, day: number, now: string): string[] {
  return week.tasks
    .filter((task): task is TaskItem => task.source === "task_item")
    .filter((task) =>
      task.status === "placed"
        ? task.slots![0]!.day < day && startOf(week, task) > new Date(now).getTime()
        : (task.status === "pending" || task.status === "missed") &&
          task.dueBefore !== undefined &&
          "day" in task.dueBefore &&
          task.dueBefore.day <= day,
    )
    .map((task) => task.name);
}

/** Each day of the sample week (Mon 11 – Sun 17 March 2024), morning and evening, in Shanghai. */
const CLOCKS = [11, 12, 13, 14, 15, 16, 17].flatMap((date) => [
  `2024-03-${date}T09:00:00+08:00`,
  `2024-03-${date}T20:00:00+08:00`,
]);

describe("what is left before a day", () => {
  test("each morning and evening, 'how many reviews are left before friday?' names exactly what is left", async () => {
    let listed = 0;
    for (const now of CLOCKS) {
      const week = halfPlacedWeek();
      // The essay (pending here) is due before Friday: a review without a place that counts.
      const essay = week.tasks.find((task) => task.id === "essay-draft") as TaskItem;
      essay.status = "pending";
      delete essay.slots;
      essay.dueBefore = { day: 5 };
      const tempo = await offlineTempo(week, () => new Date(now));
      const outcome = await converse(tempo, "how many reviews are left before friday?", [], undefined, "student", {
        now,
      });
      const want = leftBefore(week, 5, now);
      const answer = outcome.finalAnswer ?? "";
      expect(outcome.cards, now).toEqual([]);
      expect(outcome.planSteps, now).toEqual(["Show what is left before Friday"]);
      if (want.length === 0) expect(answer, now).toMatch(/^Nothing is left to do before Fri 15 Mar\./);
      else expect(answer, now).toMatch(new RegExp(`^Before Fri 15 Mar: ${want.length} review\\(s\\) left to do\\.`));
      const named = answer
        .split("\n")
        .filter((line) => line.startsWith("- "))
        .map((line) => line.slice(2, line.indexOf(":")));
      expect(named.sort(), now).toEqual([...want].sort());
      listed += want.length;
    }
    expect(listed).toBeGreaterThan(10);
  });

  test("in Chinese, and a day said from today", async () => {
    const chinese = await converse(
      await offlineTempo(halfPlacedWeek({ chinese: true }), () => new Date(CLOCKS[2]!)),
      "周五之前还有几个复习",
    );
    expect(chinese.finalAnswer).toMatch(/^3月15日周五之前：还有 2 个复习要做。\n- 矩阵运算复习: 已安排在3月12日周二/);
    expect(chinese.finalAnswer).toContain("另有 4 个复习还没安排，也不必在3月15日周五之前完成。");
    // Wednesday evening: tomorrow is Thursday, and nothing is placed before it that has not passed.
    const tomorrow = await converse(
      await offlineTempo(halfPlacedWeek(), () => new Date(CLOCKS[5]!)),
      "what's left before tomorrow",
    );
    expect(tomorrow.planSteps).toEqual(["Show what is left before Thursday"]);
    expect(tomorrow.finalAnswer).toMatch(/^Nothing is left to do before Thu 14 Mar\./);
  });

  test.each([
    ["how many reviews are left before friday?", { weekdays: [5], days: [] }],
    ["what's left before the weekend", { weekdays: [6, 7], days: [] }],
    ["周五前还剩什么", { weekdays: [5], days: [] }],
    // The plan's own step read back.
    ["Show what is left before Friday", { weekdays: [5], days: [] }],
  ])("%s reads as what is left before a day", (text, only) => {
    const request = parseScheduleRequest(text);
    expect(request.kind).toBe("left_before");
    expect(request.kind === "left_before" ? request.when?.only : undefined).toEqual(only);
  });

  test("an event stays an event: 'what's left before the midterm'", () => {
    expect(parseScheduleRequest("what's left before the midterm")).toEqual({ kind: "left_before", event: "midterm" });
  });
});
