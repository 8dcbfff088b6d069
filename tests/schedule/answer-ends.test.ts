/**
 * A short answer's ends ("all.", " 5 天 。"), read in one pass: the offline policy's readers of an answer to its
 * question (`meansAll`, the bare day number) had three `\s*` around an optional mark, which split a long run of
 * spaces every way.
 */
import { describe, expect, test } from "vitest";
import { meansAll, withoutClosingMark } from "../../offline/schedule/grounding.js";
import { withAnswer } from "../../offline/schedule/plan-stage.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";

describe("a short answer's ends", () => {
  // The limit on these tests is the symptom's bound, 50 times what the one-pass reading takes and more: read with the
  // old expressions, each input below holds the event loop past it, even on a machine several times faster than
  // the one that measured them (meansAll: 5 to 14 s for one answer at the message limit; the bare day number: 40 s
  // and more for 5 000 spaces, cubic in them). A vitest limit cannot stop a synchronous call, so a slow reading fails
  // the test once it returns.
  const LIMIT = 10_000;
  const original = parseScheduleRequest("Arrange my reviews for next week");

  test(
    "spaces and one closing mark go; an answer of 100 000 spaces before a word reads in one pass",
    () => {
      expect(meansAll(" All of them . ")).toBe(true);
      expect(meansAll("全部！")).toBe(true);
      expect(meansAll("all!!")).toBe(false);
      expect(meansAll(`all${" ".repeat(100_000)}.`)).toBe(true);
      // Three answers at the message limit whose run of spaces stops before a last letter: none means all.
      for (const word of ["all", "everything", "全部"]) {
        const answer = `${word}${" ".repeat(100_000 - word.length - 1)}x`;
        expect(answer).toHaveLength(100_000);
        expect(meansAll(answer)).toBe(false);
      }
      expect(withoutClosingMark(" 5 天 。 ", /[.。!！]/)).toBe("5 天");
      expect(withoutClosingMark(`5${" ".repeat(100_000)}x`, /[.。!！]/)).toBe(`5${" ".repeat(100_000)}x`);
    },
    LIMIT,
  );

  test(
    "a bare day number answers which day; a number, 5 000 spaces and a letter is no day, read in one pass",
    () => {
      // What the planner's question takes ("5", "第5天", " 5 天 。"): the request narrowed to that day.
      for (const answer of ["5", "第5天", " 5 天 。 "])
        expect(withAnswer(original, answer)).toMatchObject({ where: { only: { days: [5] } } });
      // The old /^\s*第?(\d+|…)\s*(?:天|号)?\s*[.。!！]?\s*$/ split this run of spaces every way (minutes for 10 000).
      expect(withAnswer(original, `5${" ".repeat(5_000)}x`)).toEqual(original);
    },
    LIMIT,
  );
});
