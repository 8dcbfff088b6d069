/**
 * A day the task leaves: "move the essay off today", "I can't do the essay today", "I won't get to the matrix review
 * today", "把作文挪出今天", "我今天做不了矩阵复习". Before, a move off a day the task was not on moved it anyway, from
 * wherever it was (the essay, on Saturday, went to Wednesday on a Tuesday's "move the essay off today"), and "I can't do
 * X today" was not understood. Now a task on that day moves off it, and one not on it (or with no place) stays, and the
 * answer says where it is. The stored week is the oracle; "move the essay, but not on Tuesday" (where it must not go)
 * still moves it.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Tuesday 12 March 2024, 09:00 in Shanghai: the matrix review is today at 10:00, the essay on Saturday. */
const TUESDAY = () => new Date("2024-03-12T09:00:00+08:00");
const isChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

async function said(request: string) {
  const week = halfPlacedWeek({ chinese: isChinese(request) });
  const outcome = await converse(await offlineTempo(week, TUESDAY), request);
  const now = (id: string) => outcome.schedule.tasks.find((task) => task.id === id) as TaskItem;
  return { week, outcome, now };
}

describe("a day the task leaves", () => {
  test.each([
    "I can't do the matrix review today",
    "I won't get to the matrix review today",
    "no time for the matrix review today",
    "move the matrix review off today",
    // ("Take … off today" was read as taking a task named "matrix review off today" off the week.)
    "take the matrix review off today",
    "我今天做不了矩阵复习",
    "把矩阵复习挪出今天",
  ])("%s: the review, today at 10:00, moves to another day", async (request) => {
    const { outcome, now } = await said(request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(now("matrix-review").slots!.every((range) => range.day !== 2)).toBe(true);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  });

  test.each([
    ["move the essay off today", /"Draft the English essay" is not on Tue 12 Mar \(it is on Sat 16 Mar, 08:00–09:40\)/],
    ["I can't do the essay today", /"Draft the English essay" is not on Tue 12 Mar/],
    ["take the essay off today", /"Draft the English essay" is not on Tue 12 Mar/],
    ["把作文挪出今天", /"英语作文草稿" 不在3月12日周二（它在3月16日周六 08:00–09:40）/],
    [
      "I can't do the derivative drills today",
      /"Derivative practice set" has no place yet, so it is not on Tue 12 Mar/,
    ],
    ["我今天做不了导数练习", /"导数练习" 还没有安排时间，不在3月12日周二/],
  ])("%s: it is not on today, so nothing moves and the answer says where it is", async (request, answer) => {
    const { week, outcome } = await said(request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(answer);
    expect(outcome.schedule).toEqual(week);
  });

  test("taken off the schedule, with no day, it is pending again; said of time, nothing is taken off", async () => {
    const off = await said("take the essay off my schedule");
    expect(off.outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "unplace"]);
    expect(off.now("essay-draft").status).toBe("pending");
    // "The essay will take 3 hours" took a task named "3 hours" off the week: not understood, no card, nothing changed.
    const time = await said("the essay will take 3 hours");
    expect(time.outcome.cards).toEqual([]);
    expect(time.outcome.schedule).toEqual(time.week);
  });

  test.each(["remove the essay from Saturday", "take the essay off my schedule for Saturday", "把作文从周六拿掉"])(
    "%s: the essay, on Saturday, is taken off the schedule",
    async (request) => {
      const { outcome, now } = await said(request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "unplace"]);
      expect(now("essay-draft").status).toBe("pending");
    },
  );

  // Before, the day was part of the name ("essay from friday": asked which task), or a day kept free while every review
  // was arranged ("take the essay off my schedule for Friday").
  test.each([
    [
      "remove the essay from Friday",
      /"Draft the English essay" is not on Fri 15 Mar \(it is on Sat 16 Mar, 08:00–09:40\); nothing to take off/,
    ],
    ["take the essay off my schedule for Friday", /"Draft the English essay" is not on Fri 15 Mar/],
    ["cancel the matrix review tomorrow", /"Matrix operations review" is not on Wed 13 Mar \(it is on Tue 12 Mar/],
    ["把作文从周五拿掉", /"英语作文草稿" 不在3月15日周五（它在3月16日周六 08:00–09:40），不用撤下/],
  ])("%s: it is not on that day, so nothing is taken off and the answer says where it is", async (request, answer) => {
    const { week, outcome } = await said(request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(answer);
    expect(outcome.schedule).toEqual(week);
  });

  test("where it must not go is no day it leaves: the essay still moves, not to Tuesday", async () => {
    const { outcome, now } = await said("move the essay, but not on Tuesday");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(now("essay-draft").slots!.every((range) => range.day !== 2 && range.day !== 6)).toBe(true);
  });

  test("a sentence that names no task is no move", () => {
    for (const text of ["I can't make it today", "I can't do today", "I can't do the essay"])
      expect(parseScheduleRequest(text).kind).toBe("unknown");
    expect(parseScheduleRequest("move the essay off thursday to friday")).not.toHaveProperty("leaves");
    expect(parseScheduleRequest("I won't get to the matrix review on Thursday")).toMatchObject({
      kind: "move",
      task: "matrix review",
      where: { not: { weekdays: [4] } },
      leaves: true,
    });
  });
});
