/**
 * "Put back the matrix review", as a student says it to the offline policy: it was read as placing a pending task
 * named "back the matrix review" (and "把矩阵复习放回去" was not understood). A task on the week already has nothing to
 * put back: said, with where it is, and no card; a task taken off the week (pending) is placed again, on its cards.
 * "Move the matrix review back to where it was" ("把矩阵复习挪回原来的位置") is the same request: it was read as a move to
 * any other free place, and moved the review away from where it was.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const accept = () => ({ type: "accept", args: null });

// halfPlacedWeek: the matrix review placed on Tuesday slots 3-4; the binary tree review pending.
describe("putting a task back", () => {
  test.each([
    ["put back the matrix review", false, /"Matrix operations review" is on your schedule already/],
    ["把矩阵运算复习放回去", true, /"矩阵运算复习"已经在日程上了/],
    // (A move back to where it was: before, a move to any other free place.)
    ["move the matrix review back to where it was", false, /"Matrix operations review" is on your schedule already/],
    ["把矩阵运算复习挪回原来的位置", true, /"矩阵运算复习"已经在日程上了/],
  ] as const)("%s: placed already, so no card and the week unchanged", async (message, chinese, said) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, message, accept);
    expect(outcome.cards).toEqual([]);
    expect(outcome.said.join("\n")).toMatch(said);
    expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 2 slots 3-4");
  });

  test.each([
    ["put the binary tree review back", false],
    ["把二叉树复习放回去", true],
  ] as const)("%s: pending, so it is placed again on its card", async (message, chinese) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, message, accept);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "place"]);
    expect(outcome.cards[1]?.args).toMatchObject({ task_id: "binary-tree-review" });
    expect(placeOf(outcome.schedule, "binary-tree-review")).not.toBe("pending");
  });

  test.each([
    ["move the matrix review to Thursday", "put the matrix review back", false],
    ["move the matrix review to Thursday", "put it back where it was", false],
    ["把矩阵运算复习移到周四", "把矩阵运算复习放回去", true],
    ["把矩阵运算复习移到周四", "放回去", true],
    ["move the matrix review to Thursday", "bring the matrix review back to its old slot", false],
    ["把矩阵运算复习移到周四", "把矩阵运算复习移回原处", true],
    ["unplace the matrix review", "put the matrix review back", false],
  ] as const)("%s, then %s: where it was, by undoing that change on its card", async (first, then, chinese) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const thread = `put-back-${Math.random().toString(36).slice(2)}`;
    const moved = await converse(tempo, first, accept, thread);
    expect(placeOf(moved.schedule, "matrix-review")).not.toBe("day 2 slots 3-4");
    const outcome = await converse(tempo, then, accept, thread);
    expect(outcome.planSteps).toEqual([chinese ? "撤销上一次的修改" : "Undo the last change"]);
    expect(outcome.cards.map((card) => card.action)).toEqual([
      "confirm_plan",
      first.startsWith("unplace") ? "place" : "move",
    ]);
    expect(placeOf(outcome.schedule, "matrix-review")).toBe("day 2 slots 3-4");
    expect(outcome.finalAnswer ?? "").not.toMatch(/already|已经在日程上|每个复习任务都安排好了/);
  });

  test("the particle is no part of the name; a day said still counts", () => {
    expect(parseScheduleRequest("put back the matrix review")).toMatchObject({ tasks: ["matrix review"] });
    expect(parseScheduleRequest("put the matrix review back on Thursday")).toMatchObject({
      tasks: ["matrix review"],
      where: { only: { weekdays: [4] } },
    });
    expect(parseScheduleRequest("put it back")).toEqual({ kind: "undo" });
    expect(parseScheduleRequest("放回去")).toEqual({ kind: "undo" });
    expect(parseScheduleRequest("把它放回去")).toEqual({ kind: "undo" });
    expect(parseScheduleRequest("put back the reviews I missed")).toEqual({ kind: "reschedule" });
  });
  test.each([
    ["skip the matrix review this week", "put back the matrix review", false, /was skipped this week.*say "undo that"/],
    ["这周跳过矩阵运算复习", "把矩阵运算复习放回去", true, /“矩阵运算复习”本周已跳过.*说“撤销”/],
    ["I did the matrix review", "place the matrix review", false, /is done already, so there is nothing to put back/],
  ] as const)("%s, then %s: its state said, never 'already on the schedule'", async (first, then, chinese, said) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const thread = `put-back-${Math.random().toString(36).slice(2)}`;
    await converse(tempo, first, accept, thread);
    const outcome = await converse(tempo, then, accept, thread);
    const answer = `${outcome.said.join("\n")}\n${outcome.finalAnswer ?? ""}`;
    expect(answer).toMatch(said);
    expect(answer).not.toMatch(/already on the schedule|已在日程上|no pending task matching/);
    expect(outcome.cards.filter((card) => card.action !== "confirm_plan")).toEqual([]);
  });
});
