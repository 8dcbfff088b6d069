/**
 * "Push all my reviews back a day", then "undo that" once the clock has moved (issue 47 item 4): the undo was all or
 * nothing — one review whose place has passed since (or whose old place has) kept every other review where the push
 * left it, and nothing was undone. Now the reviews that can go back go back, through the undo's card, and each one
 * that stays is named with why, in the user's language. Undone right away, every review goes back, as before.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, HALF_PLACED, offlineTempo, placeOf } from "./support/offline-conversation.js";

/** Monday 11 March 2024, 09:00 in Shanghai, before any placed review of the half-placed week. */
const MONDAY = "2024-03-11T09:00:00+08:00";
/** Wednesday 13 March 2024, 09:00: Tuesday has passed. */
const WEDNESDAY = "2024-03-13T09:00:00+08:00";

const where = (id: string) => {
  const [day, start] = HALF_PLACED[id]!;
  return `day ${day} slots ${start}-`;
};

describe("the undo of a push of every review, with the clock moved", () => {
  test.each([
    ["push all my reviews back a day", "undo that", /"Review limits and continuity" stays where it is \(/],
    ["把所有复习往后推一天", "撤销", /“极限与连续复习” 保持在现在的位置（/],
  ])("%s on Monday, %s on Wednesday: the reviews ahead go back, the rest are named", async (push, undo, stays) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: undo === "撤销" }));
    const pushed = await converse(tempo, push, [], "t-push", "student", { now: MONDAY });
    expect(pushed.cards.map((card) => card.action)).toEqual(["confirm_plan", "batch_move"]);
    const undone = await converse(tempo, undo, [], "t-push", "student", { now: WEDNESDAY });
    // Through its card, like any write: the two reviews whose places are ahead go back.
    expect(undone.cards.map((card) => card.action)).toEqual(["confirm_plan", "batch_move"]);
    expect((undone.cards[1]!.args.moves as Array<{ task_id: string }>).map((move) => move.task_id)).toEqual([
      "vocabulary-list",
      "essay-draft",
    ]);
    expect(placeOf(undone.schedule, "vocabulary-list")).toMatch(where("vocabulary-list"));
    expect(placeOf(undone.schedule, "essay-draft")).toMatch(where("essay-draft"));
    // The review on a passed place, and the one whose old place has passed, stay where the push left them.
    expect(placeOf(undone.schedule, "review-limits")).toBe(placeOf(pushed.schedule, "review-limits"));
    expect(placeOf(undone.schedule, "matrix-review")).toBe(placeOf(pushed.schedule, "matrix-review"));
    expect(checkScheduleInvariants(undone.schedule)).toEqual([]);
    expect(undone.finalAnswer).toMatch(stays);
  });

  test("undone right away, every review goes back", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    await converse(tempo, "push all my reviews back a day", [], "t-now", "student", { now: MONDAY });
    const undone = await converse(tempo, "undo that", [], "t-now", "student", { now: MONDAY });
    for (const id of Object.keys(HALF_PLACED)) expect(placeOf(undone.schedule, id)).toMatch(where(id));
    expect(undone.finalAnswer).not.toMatch(/stays where it is|not as it was/);
  });
});
