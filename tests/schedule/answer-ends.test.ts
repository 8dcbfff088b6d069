/**
 * A short answer's ends ("all.", " 5 天 。"), read in one pass: the offline policy's readers of an answer to its
 * question (`meansAll`, the bare day number) had three `\s*` around an optional mark, which split a long run of
 * spaces every way.
 */
import { describe, expect, test } from "vitest";
import { meansAll, withoutClosingMark } from "../../offline/schedule/grounding.js";

describe("a short answer's ends", () => {
  test("spaces and one closing mark go; an answer of 100 000 spaces before a word reads in one pass", () => {
    // "all", 100 000 spaces and "x" took 5 s in meansAll, and "5", 10 000 spaces and "x" minutes as a day number:
    // the event loop held. The limit on this test is the symptom's bound.
    expect(meansAll(" All of them . ")).toBe(true);
    expect(meansAll("全部！")).toBe(true);
    expect(meansAll("all!!")).toBe(false);
    expect(meansAll(`all${" ".repeat(100_000)}x`)).toBe(false);
    expect(meansAll(`all${" ".repeat(100_000)}.`)).toBe(true);
    expect(withoutClosingMark(" 5 天 。 ", /[.。!！]/)).toBe("5 天");
    expect(withoutClosingMark(`5${" ".repeat(100_000)}x`, /[.。!！]/)).toBe(`5${" ".repeat(100_000)}x`);
  }, 10_000);
});
