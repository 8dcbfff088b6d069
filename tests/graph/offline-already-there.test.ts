/**
 * "Move the matrix review to tomorrow morning" when it is there already: the offline policy said "no free time of 2
 * slot(s) fits" (its own place is no free time), as if the week had no room. It says the review is already there and
 * proposes nothing; a move to another time of the day it is on still moves it. In a Chinese conversation the answer —
 * and the "no free time" one — is said in Chinese (both were English inside "日程没有改动：").
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Monday 11 March 2024, 09:00 in Shanghai: the matrix review is on Tuesday, 10:00–11:40 (slots 3-4). */
const MONDAY_MORNING = { now: new Date("2024-03-11T09:00:00+08:00").toISOString() };

describe("a move to where the review already is", () => {
  test.each([
    [
      "move the matrix review to tomorrow morning",
      false,
      /^Your schedule is unchanged: "Matrix operations review" is already on Tue 12 Mar, 10:00–11:40; nothing to move\.$/,
    ],
    ["move the matrix review to Tuesday morning", false, /is already on Tue 12 Mar, 10:00–11:40; nothing to move\.$/],
    ["把矩阵运算复习移到明天上午", true, /^日程没有改动："矩阵运算复习" 已经在3月12日周二 10:00–11:40，不用移动。$/],
    ["把矩阵运算复习移到周二第3节", true, /^日程没有改动："矩阵运算复习" 已经在3月12日周二 10:00–11:40，不用移动。$/],
    // The day alone, with other room on it: it moved the review to Tuesday evening, a move nobody asked for.
    ["move the matrix review to Tuesday", false, /is already on Tue 12 Mar, 10:00–11:40; nothing to move\.$/],
    ["move the matrix review to tomorrow", false, /is already on Tue 12 Mar, 10:00–11:40; nothing to move\.$/],
    ["把矩阵运算复习挪到周二", true, /^日程没有改动："矩阵运算复习" 已经在3月12日周二 10:00–11:40，不用移动。$/],
  ])("%s: no move card, it says it is there", async (request, chinese, answer) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, request, [], undefined, "student", MONDAY_MORNING);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(answer);
    const review = outcome.schedule.tasks.find((task) => task.id === "matrix-review");
    expect(review?.slots).toEqual([{ day: 2, start: 3, end: 4 }]);
  });

  test("another part of the same day still moves it", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const outcome = await converse(
      tempo,
      "move the matrix review to tomorrow afternoon",
      [],
      undefined,
      "student",
      MONDAY_MORNING,
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.cards[1]?.args).toMatchObject({ task_id: "matrix-review", day: 2 });
  });

  // The day alone said "already on" once before (7f712f9), and was reverted: "to Sunday 14:00" read as Sunday alone,
  // so another time of the day it is on was refused as already there. A clock time is read now: it moves.
  test.each([
    ["move the matrix review to Tuesday 19:00", false, 9],
    ["move the matrix review to tomorrow at 4pm", false, 7],
    ["把矩阵运算复习移到周二晚上7点", true, 9],
  ])("%s: another time of the day it is on moves it there", async (request, chinese, slot) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, request, [], undefined, "student", MONDAY_MORNING);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.cards[1]?.args).toEqual({ task_id: "matrix-review", day: 2, slot_start: slot });
    const review = outcome.schedule.tasks.find((task) => task.id === "matrix-review");
    expect(review?.slots).toEqual([{ day: 2, start: slot, end: slot + 1 }]);
  });

  test.each([
    ["move the matrix review to Tuesday 10:00", false, /is already on Tue 12 Mar, 10:00–11:40; nothing to move\.$/],
    [
      "把矩阵运算复习移到周二上午10点",
      true,
      /^日程没有改动："矩阵运算复习" 已经在3月12日周二 10:00–11:40，不用移动。$/,
    ],
  ])("%s: the day and the time it is at say it is there", async (request, chinese, answer) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, request, [], undefined, "student", MONDAY_MORNING);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(answer);
  });

  test("no room where asked is said in Chinese to a Chinese user", async () => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }));
    const outcome = await converse(tempo, "把矩阵运算复习移到周一上午", [], undefined, "student", MONDAY_MORNING);
    expect(outcome.finalAnswer).toMatch(/^日程没有改动：要求的时间里没有能容纳"矩阵运算复习"的 2 节空闲时间/);
    expect(outcome.finalAnswer).not.toMatch(/no free time/);
  });
});
