/**
 * Messages as students type them, through the whole graph on the half-placed sample week: a reason said after where
 * the essay goes ("cuz i have a party saturday"), a correction with no comma ("saturday no wait friday") and two different
 * requests in one message. The stored week is the oracle: the essay lands on the day meant, or nothing changes and the
 * reply asks for the requests one at a time (or for a day it could read). Before, the first two moved the essay to
 * Monday (the day said was ruled out with the reason's), the third moved the vocabulary list to Friday as if "skip the
 * vocab list" were a task, and a typo of a day ("thrusday", "m/w/f") was read as anywhere; a move and a mark in one
 * sentence marked a task named by both, or moved the essay and dropped the mark unsaid.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, SAMPLE_WEEK_EVE } from "./support/offline-conversation.js";

const essayDays = (tasks: readonly { id: string }[]) =>
  ((tasks.find((task) => task.id === "essay-draft") as TaskItem).slots ?? []).map((range) => range.day);

describe("where the essay goes when more is said than where", () => {
  test.each([
    ["move the essay to friday cuz i have a party saturday", 5],
    ["move the essay to friday if it doesn't clash", 5],
    ["move essay to saturday no wait friday", 5],
    ["把作文挪到周四 哦不 周五", 5],
    ["move the essay to thrusday", 4],
  ])("%s: the essay goes to that day and nowhere else", async (request, day) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    expect(new Set(essayDays(outcome.schedule.tasks))).toEqual(new Set([day]));
  });

  test.each([
    [
      "move the essay to friday and skip the vocab list",
      /I read two different requests in .*first "move the essay to friday", then "skip the vocab list"/,
    ],
    ["把作文挪到周五，另外把周六清空", /读到了两个不同的请求.*先发“把作文挪到周五”，再发“把周六清空”/],
    ["move the essay to friday. put the vocab list on saturday", /I read two different requests/],
    [
      "move the essay to friday and mark the matrix review done",
      /I read two different requests .*first "move the essay to friday", then "mark the matrix review done"/,
    ],
    [
      "mark the matrix review done and move the essay to friday",
      /I read two different requests .*first "mark the matrix review done", then "move the essay to friday"/,
    ],
    ["把矩阵复习标记完成，然后把论文移到周五", /读到了两个不同的请求.*先发“把矩阵复习标记完成”，再发“把论文移到周五”/],
    ["move the essay to m/w/f", /I could not read a day or time in/],
  ])("%s: nothing changes, and the reply asks for one request at a time, or for the day", async (request, reply) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards).toEqual([]);
    expect(outcome.said.join("\n")).toMatch(reply);
    expect(outcome.schedule).toEqual(week);
  });

  test("a question about what a move would do changes nothing", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, () => SAMPLE_WEEK_EVE),
      "if i move the essay to friday will it clash",
    );
    expect(outcome.cards).toEqual([]);
    expect(outcome.schedule).toEqual(week);
  });
});
