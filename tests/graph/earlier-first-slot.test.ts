/**
 * "Earlier" on a write card that proposes the first slot of the day: nothing that day is earlier, so the answer says
 * so plainly, in the person's language, never a search of slots 1-0 nor a bare "no free slot fits".
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo, type SeenCard } from "./support/offline-conversation.js";

/** Answers "earlier" (`word`) on the first write card at slot 1, accepts everything else. */
function earlierAtFirstSlot(word: string) {
  const seen: SeenCard[] = [];
  const answer = (card: SeenCard) => {
    if (seen.length === 0 && card.action !== "confirm_plan" && card.args.slot_start === 1) {
      seen.push(card);
      return { type: "response", args: word };
    }
    return { type: "accept", args: null };
  };
  return { seen, answer };
}

describe("'earlier' at the first slot of the day", () => {
  test("is answered plainly: nothing that day is earlier, in English and in Chinese", async () => {
    // Before, the step searched slots 1-0 and ended "no free time of 2 slot(s) fits … where asked".
    const english = earlierAtFirstSlot("earlier");
    const moved = await converse(
      await offlineTempo(halfPlacedWeek()),
      "move the matrix review to sunday morning",
      english.answer,
    );
    expect(english.seen).toEqual([{ action: "move", args: { task_id: "matrix-review", day: 7, slot_start: 1 } }]);
    expect(moved.finalAnswer).toMatch(
      /^Your schedule is unchanged: "Matrix operations review" was proposed at the first slot of the day, so nothing on that day is earlier; name another day or a time\./,
    );
    expect(moved.schedule).toEqual(halfPlacedWeek());
    const chinese = earlierAtFirstSlot("早一点");
    const zh = await converse(await offlineTempo(halfPlacedWeek()), "把矩阵复习移到周日上午", chinese.answer);
    expect(chinese.seen).toHaveLength(1);
    expect(zh.finalAnswer).toMatch(
      /^日程没有改动："Matrix operations review"提议的已经是当天的第一节，当天没有更早的时段；请说另一天或一个时间。/,
    );
    expect(zh.schedule).toEqual(halfPlacedWeek());
  });
});
