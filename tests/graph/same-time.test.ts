/**
 * "move the essay to the same time on Sunday", "move the matrix review to Thursday, same time", "把作文挪到周日同一时间":
 * the day changes, the time does not. Before, "the same time" was dropped: the review went to any free time of that
 * day, and "…, same time" asked for a second task named "same time". The stored week is the oracle: the review starts
 * at the slot it started at, on the day named, or it stays where it was and the answer names what holds that time.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, SAMPLE_WEEK_EVE } from "./support/offline-conversation.js";

const isChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

async function after(request: string) {
  const week = halfPlacedWeek({ chinese: isChinese(request) });
  const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
  expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  const was = (id: string) => week.tasks.find((task) => task.id === id) as TaskItem;
  const now = (id: string) => outcome.schedule.tasks.find((task) => task.id === id) as TaskItem;
  return { outcome, was, now };
}

describe("a move to the same time on another day", () => {
  test.each([
    "move the matrix review to the same time on Sunday",
    "move the matrix review to Sunday, same time",
    "move the matrix review to Sunday at the same time",
    "把矩阵复习挪到周日同一时间",
  ])("%s: it starts on Sunday at the slot it started at on Tuesday", async (request) => {
    const { outcome, was, now } = await after(request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    // (Sunday's first free time is 08:00, where a move to Sunday alone puts it.)
    expect(was("matrix-review").slots).toEqual([{ day: 2, start: 3, end: 4 }]);
    expect(now("matrix-review").slots).toEqual([{ day: 7, start: 3, end: 4 }]);
  });

  test.each(["move the limits review to Thursday, same time", "把极限复习挪到周四同一时间"])(
    "%s: a lecture holds that time on Thursday, so the review stays and the answer says why",
    async (request) => {
      const { outcome, was, now } = await after(request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
      expect(now("review-limits").slots).toEqual(was("review-limits").slots);
      expect(outcome.finalAnswer).toMatch(/14:00–15:40/);
      expect(outcome.finalAnswer).toMatch(isChinese(request) ? /时间冲突/ : /overlaps "Data Structures lecture"/);
    },
  );

  test("the same time is read as the time, never as a task", () => {
    for (const text of [
      "move the essay to Friday, same time",
      "move the essay to the same time on Friday",
      "把作文挪到周五同一时间",
    ])
      expect(parseScheduleRequest(text)).toEqual({
        kind: "move",
        task: isChinese(text) ? "作文" : "essay",
        where: { only: { weekdays: [5], days: [] }, not: { weekdays: [], days: [] }, slots: { sameTime: true } },
      });
  });
});
