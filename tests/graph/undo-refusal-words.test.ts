/**
 * An undo the week no longer allows is said in the user's words: the write it cannot take back by its task's name,
 * never its id, and why in the user's language. A review placed on thread A and moved since on thread B: "undo that"
 * on A cannot take the place back, and says so — in a Chinese conversation in Chinese ("撤销刚才的修改"), not "place
 * derivative-drills: it is no longer where it was placed".
 */
import { describe, expect, test } from "vitest";
import { CHINESE_NAMES, converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** A task id of the sample week, or an English reason of propose_undo's, in a reply. */
const IDS = /\b(?:derivative-drills|matrix-review|review-limits|vocabulary-list|essay-draft)\b/;
const ENGLISH_REASON = /no longer where|moved since|cannot be given back|not on record|[a-z]{3,} [a-z]{3,}/;

describe("an undo the week no longer allows names the task and says why in the user's language", () => {
  test.each([
    {
      language: "en",
      change: "put the derivative drills on Friday",
      since: "move the derivative drills to Thursday",
      undo: "undo that",
      name: "Derivative practice set",
      reason: "it is no longer where it was placed",
    },
    {
      language: "zh",
      change: "把导数练习安排在周五",
      since: "把导数练习移到周四",
      undo: "撤销刚才的修改",
      name: CHINESE_NAMES["derivative-drills"]!,
      reason: "它已不在当时安排的位置",
    },
    {
      language: "en",
      change: "move the matrix review to Friday",
      since: "move the matrix review to Thursday",
      undo: "undo that",
      name: "Matrix operations review",
      reason: "it has moved since",
    },
    {
      language: "zh",
      change: "把矩阵复习移到周五",
      since: "把矩阵复习移到周四",
      undo: "撤销",
      name: CHINESE_NAMES["matrix-review"]!,
      reason: "它之后又被移动过",
    },
  ])(
    "$language: $change, changed since elsewhere, then $undo",
    async ({ language, change, since, undo, name, reason }) => {
      const tempo = await offlineTempo(halfPlacedWeek({ chinese: language === "zh" }));
      const changed = await converse(tempo, change, [], "thread-a");
      const moved = await converse(tempo, since, [], "thread-b");
      expect(JSON.stringify(moved.schedule)).not.toBe(JSON.stringify(changed.schedule));
      const refused = await converse(tempo, undo, [], "thread-a");
      // Nothing to take back: the schedule stays as thread B left it, and no card of writes is shown.
      expect(JSON.stringify(refused.schedule)).toBe(JSON.stringify(moved.schedule));
      expect(refused.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
      const reply = refused.finalAnswer ?? "";
      expect(reply).toContain(reason);
      expect(reply).toContain(language === "zh" ? `“${name}”` : JSON.stringify(name));
      expect(reply).not.toMatch(IDS);
      if (language === "zh") expect(reply).not.toMatch(ENGLISH_REASON);
    },
  );
});
