/**
 * "Move the essay before Friday" moved it to Friday, "schedule it after Wednesday" put it on Wednesday, and "周六之前"
 * meant Saturday: the day named was read as the only day. Before a weekday now means the days of the week before it,
 * "by" up to it, after it the days after it (a week runs Monday to Sunday). The oracle is the stored week: the
 * review's new place is on one of those weekdays.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The sample week's eve: every day of it ahead. */
const EVE = () => new Date("2024-03-10T20:00:00+08:00");

describe("a day before or after a weekday", () => {
  test.each([
    ["move the essay draft before Friday", "essay-draft", [1, 2, 3, 4]],
    ["move the essay draft to sometime before Thursday", "essay-draft", [1, 2, 3]],
    ["move the matrix review after Wednesday", "matrix-review", [4, 5, 6, 7]],
    ["schedule the derivative drills after Thursday", "derivative-drills", [5, 6, 7]],
    ["schedule the derivative drills by Tuesday", "derivative-drills", [1, 2]],
    ["把英语作文草稿改到周四之前", "essay-draft", [1, 2, 3]],
    ["把矩阵运算复习移到周四以后", "matrix-review", [5, 6, 7]],
  ] as const)("%s: on one of those weekdays", async (request, id, weekdays) => {
    const chinese = /[\u4e00-\u9fff]/.test(request);
    const outcome = await converse(await offlineTempo(halfPlacedWeek({ chinese }), EVE), request);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const after = outcome.schedule.tasks.find((task) => task.id === id) as TaskItem;
    expect(after.status).toBe("placed");
    const day = outcome.schedule.window.days.find((each) => each.dayIndex === after.slots![0]!.day)!;
    expect(weekdays).toContain(day.dayOfWeek);
  });

  test.each([
    ["move the essay before Friday", { task: "essay", where: { only: { weekdays: [1, 2, 3, 4] } } }],
    ["schedule the essay by Friday", { tasks: ["essay"], where: { only: { weekdays: [1, 2, 3, 4, 5] } } }],
    ["schedule the essay before the weekend", { where: { only: { weekdays: [1, 2, 3, 4, 5] } } }],
    ["把作文移到周三以后", { where: { only: { weekdays: [4, 5, 6, 7] } } }],
    // An event named after "before" is still a deadline, not days.
    ["schedule the essay before the midterm", { where: { before: "midterm", only: { weekdays: [] } } }],
  ] as const)("%s", (request, expected) => {
    expect(parseScheduleRequest(request)).toMatchObject(expected);
  });
});
