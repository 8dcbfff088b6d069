/**
 * "Arrange my reviews" on the Monday after a week rolled on over placed reviews not marked done: the plan makes the
 * missed reviews up first, and that step's summary says what it placed ("rescheduled: placed …"), in English and in
 * Chinese — never the closing check's "0 review task(s) still pending", which the code wrote when the reschedule's
 * card applied and the answer's heading could no longer tell the missed reviews had new places.
 */
import { describe, expect, test } from "vitest";
import { datedWindow, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

/** Monday 14 September 2026, 08:00 in Shanghai: the week before has passed, its four placed reviews unmarked. */
const NEXT_MONDAY = "2026-09-14T08:00:00+08:00";

/** A week of Mon 7 – Sun 13 Sep 2026 with four two-slot reviews placed on Tuesday, Wednesday, Thursday and Saturday. */
function placedWeek(chinese: boolean): ScheduleState {
  const review = (id: string, name: string, categoryId: string, day: number): TaskItem => ({
    id,
    name,
    source: "task_item",
    duration: 2,
    categoryId,
    status: "placed",
    slots: [{ day, start: 1, end: 2 }],
  });
  return {
    window: datedWindow({ firstDate: "2026-09-07", days: 7, timeZone: "Asia/Shanghai" }),
    categories: [
      { id: "calculus", name: chinese ? "微积分" : "Calculus" },
      { id: "algebra", name: chinese ? "线性代数" : "Linear Algebra" },
      { id: "english", name: chinese ? "英语" : "English" },
    ],
    tasks: [
      review("mat", chinese ? "矩阵复习" : "Matrix review", "algebra", 2),
      review("lim", chinese ? "极限复习" : "Limits review", "calculus", 3),
      review("ess", chinese ? "作文草稿" : "Essay draft", "english", 4),
      review("w1", "第1周习题", "calculus", 6),
    ],
  };
}

describe("the reschedule step of an arrangement says what it placed", () => {
  test.each([
    ["arrange my reviews into free slots", false, "- [done] Reschedule the missed review to its best free place — "],
    ["帮我安排复习", true, "- [完成] 把错过的复习补排到最合适的空闲时段 — "],
  ] as const)("%s: the missed reviews are placed, and the step says so", async (request, chinese, line) => {
    const tempo = await offlineTempo(placedWeek(chinese));
    const outcome = await converse(tempo, request, [], undefined, undefined, { now: NEXT_MONDAY });
    // The four missed reviews all have a place again.
    const items = outcome.schedule.tasks.filter((task): task is TaskItem => task.source === "task_item");
    expect(items.filter((task) => task.status !== "placed")).toEqual([]);
    const said = outcome.finalAnswer ?? "";
    const step = said.split("\n").find((each) => each.startsWith(line));
    expect(step).toBeDefined();
    expect(step).not.toMatch(/still pending|待安排/);
    // Each of the four made-up reviews is named by its new place.
    expect(step!.slice(line.length)).toMatch(chinese ? /^已补排：/ : /^rescheduled: placed /);
    expect(step!.match(chinese ? /已把|安排/g : /placed /g)?.length ?? 0).toBeGreaterThanOrEqual(4);
    expect(said.split("\n")[0]).not.toBe("");
  });
});
