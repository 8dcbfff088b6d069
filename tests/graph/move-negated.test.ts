/**
 * "Move the essay but not on Saturday" moved the essay to Saturday: the words after the negation were read as the only
 * day it could go to ("anywhere but Saturday", "…, not on Saturday", "周六以外的时间" alike). The oracle is the stored
 * week: the review moved, and is on none of the days excluded.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The sample week's eve: every day of it ahead. */
const EVE = () => new Date("2024-03-10T20:00:00+08:00");

describe("a move with a day it must not go to", () => {
  test.each([
    ["move the matrix review but not on Thursday", "matrix-review", [4]],
    ["move the matrix review, not on Thursday", "matrix-review", [4]],
    ["move the matrix review anywhere but Thursday", "matrix-review", [4]],
    ["move the matrix review, but not to Thursday or Friday", "matrix-review", [4, 5]],
    ["reschedule the essay draft but not for Friday", "essay-draft", [5]],
    ["把矩阵运算复习移到周四以外的时间", "matrix-review", [4]],
    ["把矩阵运算复习移到周四和周五之外的时间", "matrix-review", [4, 5]],
    ["move the matrix review away from Thursday", "matrix-review", [4]],
    ["move the matrix review, I can't do Thursday", "matrix-review", [4]],
    ["I'm busy on Tuesday, so move the matrix review", "matrix-review", [2]],
    ["I can't do Saturday, move the essay draft", "essay-draft", [6]],
    // The day it is moved from named ("从周六"): it was read as part of the name, and no day was ruled out.
    ["把英语作文草稿从周六挪到别的天", "essay-draft", [6]],
    ["周六我有事，把英语作文草稿挪到别的时间", "essay-draft", [6]],
    // A clause after the task, or one about it before the verb: it read as part of the name (or "my shift" as the
    // task, "shift" as the verb), and the day was not ruled out.
    ["reschedule the essay draft, Saturday doesn't work", "essay-draft", [6]],
    ["move the essay draft, Saturday is bad", "essay-draft", [6]],
    ["the essay draft clashes with my shift on Saturday, move it", "essay-draft", [6]],
    ["the essay draft can't be on Saturday, move it", "essay-draft", [6]],
    // The same in Chinese, the task said first with no 把 ("英语作文草稿周六不行，帮我" was the task), or "挪一下".
    ["英语作文草稿周六不行，挪一下", "essay-draft", [6]],
    ["英语作文草稿周六不行，帮我挪到别的时间", "essay-draft", [6]],
    ["把英语作文草稿挪一下，周六不行", "essay-draft", [6]],
    ["英语作文草稿和周六的考试冲突，换个时间", "essay-draft", [6]],
  ] as const)("%s: it moves, and to none of those days", async (request, id, excluded) => {
    const chinese = /[\u4e00-\u9fff]/.test(request);
    const week = halfPlacedWeek({ chinese });
    const before = week.tasks.find((task) => task.id === id) as TaskItem;
    const outcome = await converse(await offlineTempo(week, EVE), request);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const after = outcome.schedule.tasks.find((task) => task.id === id) as TaskItem;
    const place = after.slots![0]!;
    expect(place).not.toEqual(before.slots![0]);
    const weekday = outcome.schedule.window.days.find((day) => day.dayIndex === place.day)!.dayOfWeek;
    expect(excluded).not.toContain(weekday);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
  });

  test.each([
    ["move the essay but not on Saturday", [6]],
    ["move the essay anywhere but Saturday", [6]],
    ["move the essay, not to Saturday or Sunday", [6, 7]],
    ["move the essay out of Saturday", [6]],
    ["move the essay, i'm busy on Saturday", [6]],
    ["I can't do Saturday, move the essay", [6]],
    ["把作文移到周六以外的时间", [6]],
  ] as const)("%s reads the days as excluded, none as the only ones", (request, days) => {
    const read = parseScheduleRequest(request);
    expect(read).toMatchObject({ kind: "move", where: { only: { weekdays: [] }, not: { weekdays: days } } });
  });

  test.each([
    ["move the essay, Saturday works", [6]],
    ["move the essay, tuesday or wednesday", [2, 3]],
    ["作文能不能挪到周五", [5]],
  ] as const)("%s: a clause of days after the task is where it goes, no part of its name", (request, days) => {
    expect(parseScheduleRequest(request)).toMatchObject({
      kind: "move",
      task: /[\u4e00-\u9fff]/.test(request) ? "作文" : "essay",
      where: { only: { weekdays: days }, not: { weekdays: [] } },
    });
  });

  // A change said not to be made was read as the change (its days as where): nothing is done now, no card raised.
  test.each([
    "don't move the essay draft",
    "never move the essay draft",
    "do not schedule the derivative drills",
    "don't clear Saturday",
    "don't move anything to Friday",
    "skip all my reviews except Saturday's",
    "不要把英语作文草稿移到周五",
    // Not wanted, or no need: was the move itself (the essay went to Friday).
    "I don't want to move the essay draft to Friday",
    "I'd rather not move the essay draft",
    "no need to move the essay draft",
    "you don't have to move the essay draft",
    "我不想把英语作文草稿移到周五",
    "没必要把英语作文草稿移到周五",
    // Said after the day it names: no move on that day or any.
    "on Saturday, don't move the essay draft",
    // Another task's place as where to go, which no reader holds: the words were dropped, and it moved anywhere.
    "move the essay draft to where the matrix review is",
    "move the essay draft to the matrix review's slot",
    "move the essay draft to the same time as the matrix review",
    // Words that leave a task out, read as the task to write on: a write on the essay alone.
    "unplace everything except the essay draft",
    "clear Saturday except the essay draft",
    "skip Saturday but keep the essay draft",
  ])("%s: no card, the week as it was", async (request) => {
    const chinese = /[\u4e00-\u9fff]/.test(request);
    const outcome = await converse(await offlineTempo(halfPlacedWeek({ chinese }), EVE), request);
    expect(outcome.cards).toEqual([]);
    expect(outcome.schedule).toEqual(halfPlacedWeek({ chinese }));
  });

  test.each([
    // A placing said not to happen on a day stays a limit of where.
    ["don't schedule anything on Friday", { kind: "arrange", tasks: [], where: { not: { weekdays: [5] } } }],
    ["不要把复习安排在周五", { kind: "arrange", tasks: [], where: { not: { weekdays: [5] } } }],
    ["put the essay on any day but Saturday", { kind: "arrange", tasks: ["essay"], where: { not: { weekdays: [6] } } }],
    ["arrange my reviews but not the essay", { kind: "arrange", tasks: [], except: ["essay"] }],
    ["move the essay, not the matrix review", { kind: "move", task: "essay" }],
    ["I did the essay, not the matrix review", { kind: "mark", task: "essay", to: "done" }],
    ["swap the essay with the matrix review, not the limits review", { kind: "swap", second: "matrix review" }],
    ["mark the keep-fit review done", { kind: "mark", task: "keep-fit review" }],
    [
      "把作文从周六上午挪到下午",
      { kind: "move", task: "作文", where: { not: { weekdays: [] }, slots: { part: "afternoon" } } },
    ],
  ] as const)("%s", (request, expected) => {
    expect(parseScheduleRequest(request)).toMatchObject(expected);
  });
});
