/**
 * The undo's reasons (`tools/schedule/undo-words.ts`): every reason has its Chinese with the same places, reads back
 * from the English propose_undo writes, and is said with the tasks' names in place of their ids.
 */
import { describe, expect, test } from "vitest";
import { placesOf } from "../../contracts/language.js";
import {
  sayUndo,
  UNDO_WORDS,
  undoReasonIn,
  undoReasonNamed,
  type UndoReasonKey,
} from "../../tools/schedule/undo-words.js";

/** A value for each place a reason may have, as propose_undo writes it. */
const SAMPLE: Readonly<Record<string, string>> = {
  ids: "matrix-review, essay-draft",
  who: "habit-1",
  status: "done",
  marked: "skipped",
  fields: "deadline, priority",
  settled: "habit-1 is done, habit-2 is missed",
  why: "the slot is taken",
  tool: "mystery_tool",
};

describe("the undo's reasons", () => {
  test.each(Object.keys(UNDO_WORDS.en) as UndoReasonKey[])("%s reads back in Chinese", (key) => {
    expect(placesOf(UNDO_WORDS.zh[key]).sort()).toEqual(placesOf(UNDO_WORDS.en[key]).sort());
    const english = sayUndo("en", key, SAMPLE);
    const chinese = undoReasonIn(english, "zh", () => "（其他）");
    expect(chinese).not.toMatch(/[a-z]{3,} [a-z]{3,}/);
    expect(undoReasonIn(english, "en", () => "")).toBe(english);
  });

  test("reasons joined by a semicolon, each holding one of its own, are read one by one", () => {
    const english = [
      sayUndo("en", "fieldsChangedSince", { fields: "deadline" }),
      sayUndo("en", "fieldsNotCleared", { fields: "priority" }),
    ].join("; ");
    expect(undoReasonIn(english, "zh", (part) => part)).toBe(
      "它的截止时间之后又被修改过；保持现在的样子；它的优先级原来没有值，无法清除；保留",
    );
  });

  test("the ids a reason lists are said by name, and in Chinese quotation marks", () => {
    const names = { "matrix-review": "Matrix review", "essay-draft": 'Essay "draft"', "habit-1": "Run" };
    const moved = undoReasonNamed("matrix-review, essay-draft moved since", names);
    expect(moved).toBe('"Matrix review", "Essay \\"draft\\"" moved since');
    expect(undoReasonIn(moved, "zh", (part) => part)).toBe('“Matrix review”、“Essay "draft"” 之后又被移动过');
    const history = undoReasonNamed("habit-1 is done: history, kept; its class stays", names);
    expect(history).toBe('"Run" is done: history, kept; its class stays');
    expect(undoReasonIn(history, "zh", (part) => part)).toBe("“Run” 是已完成状态：已成为记录，保留；它的类别保留");
    // A week's refusal inside a reason is the caller's to say; an id with no name stays.
    expect(undoReasonIn(sayUndo("en", "placeNotBack", { why: "slot taken" }), "zh", () => "时段已被占用")).toBe(
      "它原来的位置无法恢复（时段已被占用）；它恢复为待安排",
    );
    expect(undoReasonNamed("other-id moved since", names)).toBe("other-id moved since");
  });
});
