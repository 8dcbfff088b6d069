/**
 * A long task said with a lead before its name — "add a task: essay, 4 hours, due Friday", "new task: …",
 * "添加任务：写论文，4小时，周五前" — was added under the name "add a task: essay" (only "add the long task" was taken
 * off). The lead is no part of the name. Through the graph with the offline policy: the add_task card's name.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

describe("a long task said with a lead before its name", () => {
  test.each([
    ["add a task: essay, 4 hours, due Friday", "essay"],
    ["add task essay, 4 hours, before friday", "essay"],
    ["new task: write the essay, 4 hours, by friday", "write the essay"],
    ["添加任务：写论文，4小时，周五前", "写论文"],
    ["任务：写论文，4小时，周五前", "写论文"],
  ])("%s: the task is named %s", async (request, name) => {
    expect(parseScheduleRequest(request)).toMatchObject({ kind: "add_long_task", name, minutes: 240, dueWeekday: 5 });
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) }));
    const outcome = await converse(tempo, request);
    expect(outcome.cards[1]).toMatchObject({ action: "add_task", args: { name, duration: 6, sessions: true } });
  });

  test("a name that begins with the word for task keeps it: '任务分析，2小时，周五前'", () => {
    expect(parseScheduleRequest("任务分析，2小时，周五前")).toMatchObject({ kind: "add_long_task", name: "任务分析" });
  });
});
