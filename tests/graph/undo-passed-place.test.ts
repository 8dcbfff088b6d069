/**
 * "Undo that" with the clock moving (issue 47 item 4): a review marked done or skipped before its place came, undone
 * once the clock has passed that place, was put back *placed* on the passed place — a review in the past, which no
 * write may make. Now it comes back pending through the undo's card (a reopen), and the answer says why, in the
 * user's language. Undone while its place is still ahead, it goes back there as before; a move whose old place has
 * passed is not undone, and nothing is placed in the past.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

/** Monday 11 March 2024, 09:00 in Shanghai: the matrix review's place (Tuesday 10:00–11:40) is ahead. */
const MONDAY = "2024-03-11T09:00:00+08:00";
/** Wednesday 13 March 2024, 09:00: Tuesday's place has passed. */
const WEDNESDAY = "2024-03-13T09:00:00+08:00";

const matrix = (week: ScheduleState) => week.tasks.find((task) => task.id === "matrix-review") as TaskItem;

/** `mark` said on Monday on a thread, then `undo` said at `undoAt`: the undo's outcome. */
async function markThenUndo(mark: string, undo: string, undoAt: string) {
  const tempo = await offlineTempo(halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(mark) }));
  const marked = await converse(tempo, mark, [], "t-undo", "student", { now: MONDAY });
  expect(placeOf(marked.schedule, "matrix-review")).toBe("pending");
  return converse(tempo, undo, [], "t-undo", "student", { now: undoAt });
}

describe("a review marked ahead of its place, undone after the place has passed", () => {
  test.each([
    [
      "I did the matrix review",
      "undo that",
      /it was marked before its place, which has passed since, so it comes back pending/,
    ],
    [
      "skip the matrix review",
      "undo that",
      /it was marked before its place, which has passed since, so it comes back pending/,
    ],
    ["矩阵复习做完了", "撤销", /它是在原定时间之前标记的，而那个时间现在已经过去，所以恢复为待安排/],
    ["这周跳过矩阵运算复习", "撤销", /它是在原定时间之前标记的，而那个时间现在已经过去，所以恢复为待安排/],
  ] as const)("%s, then %s on Wednesday: pending again through a card, and told why", async (mark, undo, why) => {
    const undone = await markThenUndo(mark, undo, WEDNESDAY);
    // A write like any other: its card, approved.
    expect(undone.cards.map((card) => card.action)).toEqual(["confirm_plan", "reopen"]);
    expect(matrix(undone.schedule)).toMatchObject({ status: "pending" });
    expect(matrix(undone.schedule).slots).toBeUndefined();
    expect(checkScheduleInvariants(undone.schedule)).toEqual([]);
    expect(undone.finalAnswer).toMatch(why);
    expect(undone.finalAnswer).toMatch(/^(?:Done|完成)/);
  });

  test.each([
    ["I did the matrix review", "undo that"],
    ["这周跳过矩阵运算复习", "撤销"],
  ])("%s, then %s while the place is still ahead: back on its place, as before", async (mark, undo) => {
    const undone = await markThenUndo(mark, undo, MONDAY);
    expect(matrix(undone.schedule)).toMatchObject({ status: "placed", slots: [{ day: 2, start: 3, end: 4 }] });
    expect(undone.finalAnswer).not.toMatch(/not as it was|没有完全恢复原样/);
  });

  test("a move whose old place has passed is not undone: nothing goes into the past", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    await converse(tempo, "move the matrix review to Friday", [], "t-move", "student", { now: MONDAY });
    const undone = await converse(tempo, "undo that", [], "t-move", "student", { now: WEDNESDAY });
    expect(undone.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(placeOf(undone.schedule, "matrix-review")).toBe("day 5 slots 9-10");
    expect(undone.finalAnswer).toMatch(/Tue 12 Mar, 10:00–11:40, has passed/);
  });
});
