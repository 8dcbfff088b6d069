/**
 * Issue 45: a move the schedule refuses — over another event, partly inside an embeddable one, past the end of the
 * day — answered a Chinese request with the tool's English reason inside the Chinese reply ("… overlaps "Physics lab"
 * on 3月15日周五 …", "slots 12-13 run past the end of the day (slots 1-12)"): the reasons written by the placement
 * engine (`tools/schedule/placement.ts`, `slot-range.ts`) were no phrases of the summary table. They are now, so the
 * reply says them in Chinese from the table, through the real graph.
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

/** Runs of 3+ ASCII letters outside the quoted names: English left in a Chinese reply. */
function englishLeft(reply: string): string[] {
  return reply.replace(/"(?:[^"\\]|\\.)*"/g, " ").match(/[A-Za-z]{3,}/g) ?? [];
}

const HEAD = '日程没有改动：无法移动"矩阵运算复习"：';

describe("a Chinese move refused by where it would land: the reason in Chinese", () => {
  test.each([
    ["把矩阵复习安排在周五下午4点", '3月15日周五 16:00–17:40 与 "Physics lab"（3月15日周五 14:00–17:40）时间冲突'],
    [
      "把矩阵复习安排在周日上午10点55",
      '3月17日周日 10:55–14:45 只有一部分在可嵌入的"Library study block"（3月17日周日 08:00–11:40）里；请整个放在它里面或整个放在外面',
    ],
    ["把矩阵复习安排在周五晚上9点45", "第 12-13 节超出了一天的最后一节（第 1–12 节）"],
  ])("%s: nothing moves, and no English reason is left", async (request, reason) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }));
    const outcome = await converse(tempo, request, []);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toBe(`${HEAD}${reason}。`);
    expect(englishLeft(outcome.finalAnswer ?? "")).toEqual([]);
    expect(placeOf(outcome.schedule, "matrix-review")).toBe(placeOf(halfPlacedWeek(), "matrix-review"));
  });
});
