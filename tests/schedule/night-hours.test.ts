/**
 * An hour of the night past the day's end, said as one nothing may go after ("凌晨2点以后不要学习", "no studying after
 * 1am", "after 2 at night"), is no rule: a review is placed within its own day, which ends by midnight, so the rule
 * holds whatever is arranged — and the reader keeps hours within a day only (`not_after_hour`: 0-24). Before, each
 * was stored as an afternoon's hour or a morning's ("凌晨2点" 14:00, "after 1 a.m." 13:00, "after 1am" 01:00 — which
 * left no slot for any review), as "半夜1点以后不要" no longer was. The hour's part of the day said after it ("after 10
 * in the evening", "after 9 at night") is the hour's own, as "晚上10点以后" is: no evening kept out besides.
 */
import { describe, expect, test } from "vitest";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";

/** The rules a sentence states, without their words. */
const rulesOf = (text: string) => readSchedulePreferences(text).add.map(({ text: _text, ...rule }) => rule);

describe("an hour of the night past the day's end", () => {
  test.each([
    "凌晨2点以后不要学习",
    "凌晨1点以后不要学习",
    "凌晨两点之后别排",
    "深夜2点以后不要学习",
    "no studying after 1am",
    "no studying after 1 a.m.",
    "nothing after 2am",
    "I never study after 1:00am",
    "no studying after 01:00",
    "no studying after 1 in the morning",
    "no studying after 2 at night",
    "no studying after 3am on fridays",
  ])("'%s' states nothing, as '半夜1点以后不要' does: never an afternoon's hour or a day ending by it", (said) => {
    expect(readSchedulePreferences("半夜1点以后不要")).toEqual({ add: [], lift: [] });
    expect(readSchedulePreferences(said)).toEqual(readSchedulePreferences("半夜1点以后不要"));
  });

  test.each([
    "after 1am is fine now",
    "半夜2点以后也可以了",
    "凌晨2点以后也可以了",
    "I can study after 2 at night again",
  ])("'%s' takes nothing back, never an afternoon's hour", (said) => {
    expect(readSchedulePreferences(said)).toEqual({ add: [], lift: [] });
  });

  test.each([
    ["凌晨12点以后不要", "晚上12点以后不要"],
    ["no studying after 12 at night", "nothing after midnight"],
    ["no studying after 12 in the morning", "nothing after midnight"],
  ])("'%s' is midnight, as '%s' is", (said, twin) => {
    expect(rulesOf(twin)).toEqual([{ kind: "not_after_hour", value: 24 }]);
    expect(rulesOf(said)).toEqual(rulesOf(twin));
  });
});

describe("the part of the day said after the hour", () => {
  test.each([
    ["no studying after 10 in the evening", "no studying after 10pm"],
    ["no studying after 9 at night", "no studying after 9pm"],
    ["no studying after 3 in the afternoon", "no studying after 3pm"],
    ["no studying after 10 in the evening on fridays", "no studying after 10pm on fridays"],
  ])("'%s' states what '%s' does: the hour alone, no part of the day kept out", (said, twin) => {
    expect(rulesOf(twin).length).toBe(1);
    expect(rulesOf(said)).toEqual(rulesOf(twin));
  });

  test.each([
    ["after 10 in the evening is fine now", "after 10pm is fine now"],
    ["I can study after 9 at night again", "I can study after 9pm again"],
  ])("'%s' takes back what '%s' does", (said, twin) => {
    expect(readSchedulePreferences(twin).lift.length).toBe(1);
    expect(readSchedulePreferences(said)).toEqual(readSchedulePreferences(twin));
  });
});

describe("a.m., p.m. and a dot between digits end no sentence", () => {
  test.each([
    ["no studying after 9 p.m. on fridays", "no studying after 9pm on fridays"],
    ["nothing before 8 p.m.", "nothing before 8pm"],
    ["nothing before 10 A.M.", "nothing before 10am"],
    ["no studying after 21.30", "no studying after 21:30"],
  ])("'%s' states what '%s' does", (said, twin) => {
    expect(rulesOf(said)).toEqual(rulesOf(twin));
  });

  test("a sentence after 'a.m.' is its own: 'no studying after 1 a.m. I prefer mornings.' keeps the mornings alone", () => {
    expect(rulesOf("no studying after 1 a.m. I prefer mornings.")).toEqual(rulesOf("I prefer mornings."));
  });
});
