/**
 * A clock time in a move ("move the matrix review to Sunday 14:00", "at 2pm", "下午两点", "周日14点") was read as the
 * day alone: the review went to the day's first free start (Sunday 08:00), another hour than asked. The time is now
 * part of the request: the review goes to the slot that starts then when it fits, else the answer says plainly why
 * not — the slot taken (by what), the time outside the day's slots or between two starts, or passed by the run's clock
 * — and nothing moves.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Monday 11 March 2024, 09:30 in Shanghai: the matrix review is on Tuesday, 10:00–11:40 (slots 3-4). */
const MONDAY_MORNING = { now: new Date("2024-03-11T09:30:00+08:00").toISOString() };

async function moveSaid(request: string, chinese = false) {
  const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
  const outcome = await converse(tempo, request, [], undefined, "student", MONDAY_MORNING);
  const review = outcome.schedule.tasks.find((task) => task.id === "matrix-review");
  return { outcome, slots: review?.slots };
}

describe("a clock time is read as part of the request", () => {
  test.each([
    ["move Calculus review to Sunday 14:00", "14:00"],
    ["move the matrix review to Sunday at 2pm", "14:00"],
    ["move the matrix review to Sunday 2 p.m.", "14:00"],
    ["move the matrix review to Sunday 14:30", "14:30"],
    ["move the matrix review to tonight at 8", "20:00"],
    ["move the matrix review to Saturday 8:00", "08:00"],
    ["把矩阵复习移到周日下午两点", "14:00"],
    ["把矩阵复习移到周日14点", "14:00"],
    ["把矩阵复习移到周日下午2点半", "14:30"],
    // A weekday's numeral ("周一") is no part of the hour after it.
    ["把矩阵复习移到周一14点", "14:00"],
    ["把矩阵复习移到周一8点", "08:00"],
    ["把矩阵复习移到周一两点", "14:00"],
    ["把矩阵复习移到星期三三点", "15:00"],
  ])("%s: at %s", (request, at) => {
    const read = parseScheduleRequest(request);
    expect(read.kind).toBe("move");
    expect(read.kind === "move" ? read.where.slots.at : undefined).toBe(at);
  });

  test.each(["move the matrix review to later", "把矩阵复习挪到晚一点", "arrange my reviews, nothing before 10:00"])(
    "%s: no clock time",
    (request) => {
      const read = parseScheduleRequest(request);
      expect("where" in read ? read.where.slots.at : undefined).toBeUndefined();
    },
  );
});

describe("a move to a named clock time", () => {
  test.each([
    ["move the matrix review to Sunday 14:00", false],
    ["move the matrix review to Sunday at 2pm", false],
    ["把矩阵运算复习移到周日下午两点", true],
    ["把矩阵运算复习移到周日14点", true],
  ])("%s: the move card and the week put it at 14:00 (slot 5)", async (request, chinese) => {
    const { outcome, slots } = await moveSaid(request, chinese);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.cards[1]?.args).toEqual({ task_id: "matrix-review", day: 7, slot_start: 5 });
    expect(slots).toEqual([{ day: 7, start: 5, end: 6 }]);
    expect(outcome.finalAnswer).toMatch(chinese ? /3月17日周日 14:00–15:40/ : /to Sun 17 Mar, 14:00–15:40/);
  });

  test.each([
    [
      "move the matrix review to Sunday 14:30",
      false,
      "Your schedule is unchanged: no slot starts at 14:30 (the slots near it start at 14:00 and 14:55); nothing was moved.",
    ],
    [
      "move the matrix review to Sunday at 11pm",
      false,
      "Your schedule is unchanged: 23:00 is outside the day's slots (08:00–22:30); nothing was moved.",
    ],
    [
      "把矩阵运算复习移到周日14点半",
      true,
      "日程没有改动：没有从 14:30 开始的时段（附近的时段从 14:00 和 14:55 开始）；没有移动任何任务。",
    ],
    ["把矩阵运算复习移到周日晚上11点", true, "日程没有改动：23:00 不在一天的时段内（08:00–22:30）；没有移动任何任务。"],
  ])("%s: no slot starts then, said, nothing moves", async (request, chinese, answer) => {
    const { outcome, slots } = await moveSaid(request, chinese);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toBe(answer);
    expect(slots).toEqual([{ day: 2, start: 3, end: 4 }]);
  });

  test("a time taken says by what, and nothing moves", async () => {
    const { outcome, slots } = await moveSaid("move the matrix review to Monday 14:00");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(/overlaps "Review limits and continuity" on Mon 11 Mar, 14:00–15:40/);
    expect(slots).toEqual([{ day: 2, start: 3, end: 4 }]);
  });

  test("周一14点 is Monday 14:00, not 16:00 (the weekday's 一 read into the hour)", async () => {
    const { outcome, slots } = await moveSaid("把矩阵运算复习移到周一14点", true);
    expect(outcome.planSteps[0]).toMatch(/3月11日周一，14:00$/);
    expect(outcome.finalAnswer).toMatch(
      /3月11日周一 14:00–15:40 与 "极限与连续复习"（3月11日周一 14:00–15:40）时间冲突/,
    );
    expect(slots).toEqual([{ day: 2, start: 3, end: 4 }]);
  });

  test("a time already passed today (by the run's clock) says so, and nothing moves", async () => {
    const { outcome, slots } = await moveSaid("move the matrix review to Monday 8:00");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(/Mon 11 Mar 08:00 has passed/);
    expect(slots).toEqual([{ day: 2, start: 3, end: 4 }]);
  });

  test("another time of the day it is on moves it; its own time says it is there", async () => {
    const other = await moveSaid("move the matrix review to Tuesday 19:00");
    expect(other.outcome.cards[1]?.args).toEqual({ task_id: "matrix-review", day: 2, slot_start: 9 });
    expect(other.slots).toEqual([{ day: 2, start: 9, end: 10 }]);
    const same = await moveSaid("move the matrix review to Tuesday 10:00");
    expect(same.outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(same.outcome.finalAnswer).toMatch(/is already on Tue 12 Mar, 10:00–11:40; nothing to move\.$/);
  });
});
