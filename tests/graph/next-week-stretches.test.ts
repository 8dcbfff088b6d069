/**
 * A stretch of next week: "move the essay to next weekend", "early next week", "把作文挪到下周末". Before, "next weekend"
 * was this week's Saturday and Sunday (on a Wednesday the essay, on Saturday already, stayed: "already on Sat 16 Mar"),
 * and "early next week" any day of next week. Now each names those weekdays of the calendar week after today's: on
 * the eve of the week shown that is the week shown, later it is a week the schedule does not reach yet, which is said
 * once, and nothing changes. The stored week is the oracle.
 */
import { describe, expect, test } from "vitest";
import type { TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, SAMPLE_WEEK_EVE } from "./support/offline-conversation.js";

const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");
const isChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);
const never = { type: "response", args: "never mind" };

describe("a stretch of next week", () => {
  test("later this week, said on Wednesday: the days from today on, so the list, on Thursday, is already there", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), "move the vocabulary list to later this week");
    expect(outcome.planSteps[0]).toMatch(/Wednesday, Mar 13 or Thursday, Mar 14 or .* or Sunday, Mar 17/);
    expect(outcome.finalAnswer).toMatch(/"Vocabulary list unit 5" is already on Thu 14 Mar/);
    expect(outcome.schedule).toEqual(week);
  });

  test.each([
    ["move the essay to next weekend", '"next weekend" is not in it'],
    ["move the essay to early next week", '"early next week" is not in it'],
    ["把作文挪到下周末", '"下周末" 不在其中'],
  ])("%s, said on Wednesday: next week is not shown yet, so it is asked and nothing moves", async (request, said) => {
    const week = halfPlacedWeek({ chinese: isChinese(request) });
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), request, (card) =>
      card.action === "ask_user" ? never : { type: "accept", args: null },
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
    const question = outcome.said.find((text) => text.includes(said));
    expect(question).toBeDefined();
    expect(question!.split(said.split(" ")[0]!).length - 1).toBe(1);
    expect(outcome.schedule).toEqual(week);
  });

  test.each([
    ["move the essay to early next week", "essay-draft", [1, 2]],
    ["move the matrix review to late next week", "matrix-review", [5, 6, 7]],
    ["把矩阵复习挪到下周中", "matrix-review", [3, 4]],
  ] as const)("%s, said on the eve of the week shown: it moves to those days of it", async (request, id, days) => {
    const week = halfPlacedWeek({ chinese: isChinese(request) });
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    const review = outcome.schedule.tasks.find((task) => task.id === id) as TaskItem;
    expect(review.slots!.every((range) => (days as readonly number[]).includes(range.day))).toBe(true);
  });

  // A stretch of this week said with no "to" before it: before, "later in the week", "this weekend", "the end of the
  // week" and "midweek" were read as part of the task's name ("matrix review later", "matrix review this"); three of
  // the four then moved nothing.
  test.each([
    ["move the matrix review later in the week", [5, 6, 7]],
    ["move the matrix review this weekend", [6, 7]],
    ["push the matrix review the end of the week", [5, 6, 7]],
    ["reschedule the matrix review midweek", [3, 4]],
  ] as const)("%s, said on the eve: it moves to those days", async (request, days) => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    const review = outcome.schedule.tasks.find((task) => task.id === "matrix-review") as TaskItem;
    expect(review.slots!.every((range) => (days as readonly number[]).includes(range.day))).toBe(true);
  });
});
