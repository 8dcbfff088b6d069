/**
 * "Undo that" twice (issue 47 item 4): the second undo takes back the first, which re-applies the change the first
 * undo took back (docs/design.md#undo: the undo of an undo — every card's writes are undone, whatever they were;
 * tests/cli/calendar-import.test.ts). It did so silently: its card and answer said "undid the last change", as if
 * something new were taken back. Now the undo of an undo is known (its card was chosen from propose_undo's listing:
 * `AppliedWrite.chosenFrom`) and said before the card, on the card and in the answer, in the user's language; it is
 * still a card the user may turn down, which leaves the week as the first undo left it.
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

describe("the undo of an undo is said to redo the change", () => {
  test.each([
    {
      change: "move the matrix review to Friday",
      undo: "undo that",
      said: "Your last change was an undo, so undoing it redoes what it took back",
      why: "itself an undo: it redoes what that undo took back",
      answer:
        /^Done: the last change was an undo, and undoing it redid what it took back: moved "Matrix operations review" from Tue 12 Mar, 10:00–11:40 to Fri 15 Mar, 19:00–20:40\.$/,
      first: /^Done: undid the last change: /,
    },
    {
      change: "把矩阵复习移到周五",
      undo: "撤销",
      said: "你上一次的修改本身就是一次撤销，撤销它就会重做被撤销的修改",
      why: "它本身是一次撤销",
      answer:
        /^完成：上一次的修改本身是一次撤销，撤销它就重做了被撤销的修改：已把"矩阵运算复习" 从3月12日周二 10:00–11:40移到3月15日周五 19:00–20:40。$/,
      first: /^完成：已撤销上一次的修改：/,
    },
  ])(
    "$change, $undo, $undo: the second says it redoes the move",
    async ({ change, undo, said, why, answer, first }) => {
      const tempo = await offlineTempo(halfPlacedWeek({ chinese: undo === "撤销" }));
      await converse(tempo, change, [], "t-twice");
      const undone = await converse(tempo, undo, [], "t-twice");
      expect(placeOf(undone.schedule, "matrix-review")).toBe("day 2 slots 3-4");
      // The first undo is a plain undo, said as before.
      expect(undone.finalAnswer).toMatch(first);
      expect(undone.descriptions[1]).not.toContain(why);
      const again = await converse(tempo, undo, [], "t-twice");
      expect(again.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
      expect(again.descriptions[1]).toContain(why);
      expect(again.said.join("\n")).toContain(said);
      expect(again.finalAnswer).toMatch(answer);
      expect(placeOf(again.schedule, "matrix-review")).toBe("day 5 slots 9-10");
    },
  );

  test("turned down, the redo leaves the week as the first undo left it", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    await converse(tempo, "move the matrix review to Friday", [], "t-decline");
    await converse(tempo, "undo that", [], "t-decline");
    const declined = await converse(
      tempo,
      "undo that",
      (card) => (card.action === "move" ? { type: "ignore", args: null } : { type: "accept", args: null }),
      "t-decline",
    );
    expect(declined.said.join("\n")).toContain("Your last change was an undo");
    expect(placeOf(declined.schedule, "matrix-review")).toBe("day 2 slots 3-4");
  });
});
