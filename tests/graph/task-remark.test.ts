/**
 * A remark after the task is no part of its name. "Unplace the essay draft, I'll do it later" looked for a task named
 * "essay draft, i'll do it later" and found none; "把英语作文草稿取消安排，我以后再做" took the remark itself as the task.
 * The stored week is the oracle: the review named is taken off (pending again) or marked, every other as it was.
 */
import { describe, expect, test } from "vitest";
import type { ScheduleState, TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const items = (week: ScheduleState) => week.tasks.filter((task): task is TaskItem => task.source === "task_item");

describe("a remark after the task", () => {
  test.each([
    ["unplace the essay draft, I'll do it later", "unplace", "pending"],
    ["把英语作文草稿取消安排，我以后再做", "unplace", "pending"],
    ["取消安排英语作文草稿，我以后再做", "unplace", "pending"],
    ["skip the essay draft this week, it's too much", "skip", "skipped"],
  ] as const)("%s: the essay alone is written on", async (request, card, status) => {
    const chinese = /[\u4e00-\u9fff]/.test(request);
    const week = halfPlacedWeek({ chinese });
    const outcome = await converse(await offlineTempo(week), request);
    expect(outcome.cards.map((each) => each.action)).toEqual(["confirm_plan", card]);
    const after = items(outcome.schedule);
    for (const task of items(week)) {
      const now = after.find((each) => each.id === task.id)!;
      if (task.id === "essay-draft") expect(now.status).toBe(status);
      else expect(now, task.id).toEqual(task);
    }
  });

  test.each([
    ["I did the essay, it was hard", { kind: "mark", task: "essay", to: "done" }],
    ["I did the essay, not the matrix review", { kind: "mark", task: "essay", to: "done" }],
    ["unplace the essay, thanks", { kind: "unplace", task: "essay" }],
  ])("%s names the task alone", (request, expected) => {
    expect(parseScheduleRequest(request)).toEqual(expected);
  });
});
