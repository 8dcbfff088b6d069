/**
 * "过了12点不学" and "晚上10点过后不学习" say what "12点以后不学" and "晚上10点以后不学习" say: the hour nothing goes
 * after. Before, neither was read (no preference, and in a request no time limit): only 以后, 之后 and 后 right after
 * the hour were.
 */
import { describe, expect, test } from "vitest";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";

/** The rules a sentence states, without their words. */
const rulesOf = (text: string) => readSchedulePreferences(text).add.map(({ text: _text, ...rule }) => rule);

describe("过了 before an hour, 过后 after it", () => {
  test.each([
    ["过了12点不学", "12点以后不学"],
    ["过了晚上12点不学习", "晚上12点以后不学习"],
    ["过了10点不学", "10点以后不学"],
    ["过了晚上10点就不学了", "晚上10点以后就不学了"],
    ["过了午夜不学", "午夜以后不学"],
    ["周五过了晚上10点不学习", "周五晚上10点以后不学习"],
    ["晚上10点过后不学习", "晚上10点以后不学习"],
    ["10点过后不要", "10点以后不要"],
  ])("'%s' states what '%s' does", (said, twin) => {
    expect(rulesOf(twin).length).toBe(1);
    expect(rulesOf(said)).toEqual(rulesOf(twin));
  });

  test.each([
    ["过了凌晨2点不学", "凌晨2点以后不学"],
    ["过了10点不行", "10点以后不行"],
  ])("'%s' states nothing, as '%s' does", (said, twin) => {
    expect(readSchedulePreferences(twin)).toEqual({ add: [], lift: [] });
    expect(readSchedulePreferences(said)).toEqual(readSchedulePreferences(twin));
  });

  test.each([
    ["晚上10点过后也可以了", "晚上10点以后也可以了"],
    ["过了12点也可以学了", "12点以后也可以学了"],
    ["过了晚上10点也可以了", "晚上10点以后也可以了"],
  ])("'%s' takes back what '%s' does", (said, twin) => {
    expect(readSchedulePreferences(twin).lift.length).toBe(1);
    expect(readSchedulePreferences(said)).toEqual(readSchedulePreferences(twin));
  });

  test.each([
    ["帮我安排复习，过了10点不要", "帮我安排复习，晚上10点以后不要"],
    ["帮我安排复习，10点过后不要", "帮我安排复习，晚上10点以后不要"],
  ])("the request '%s' is read as '%s' is: a time limit", (said, twin) => {
    const read = parseScheduleRequest(twin);
    expect(read.kind === "arrange" && read.where.slots.endsBy).toBe("22:00");
    expect(parseScheduleRequest(said)).toEqual(read);
  });
});
