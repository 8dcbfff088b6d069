/**
 * The preference reader's Chinese hours are the request reader's (`HOUR_NUMBER_ZH`, through
 * tools/schedule/request-parsing.ts): before, tools/schedule/preferences.ts spelled the hour's number out again in
 * its own patterns (the hour with its part of the day, the hour no preference keeps, the hour taken out of a
 * sentence), one of them without 两 and 零, so a change to what counts as an hour had to be made in each. Each pattern
 * reads an hour in Chinese numerals as it reads one in digits, and an hour is never the tail of a longer number ("晚上
 * 100点以后不要" was "nothing after 12:00" and the evening preferred).
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { readSchedulePreferences, unkeptHourIn } from "../../tools/schedule/preferences.js";
import { normalizeText } from "../../tools/schedule/request-parsing.js";

const rulesOf = (text: string) =>
  readSchedulePreferences(text).add.map(({ text: _text, ...rule }) => rule as Record<string, unknown>);

describe("the Chinese hour of the preference reader", () => {
  test("is spelled once, in the request reader: preferences.ts composes HOUR_NUMBER_ZH", () => {
    const source = readFileSync(new URL("../../tools/schedule/preferences.ts", import.meta.url), "utf8");
    // No class of Chinese numerals of its own ("[零一二两三四五六七八九十]", "[\d零一…]", "[一二三…]{1,3}").
    expect(source.match(/\[(?:\\d)?零?一二两?三四五六七八九十\]/g) ?? []).toEqual([]);
    expect((source.match(/\$\{HOUR_NUMBER_ZH\}/g) ?? []).length).toBeGreaterThanOrEqual(3);
  });

  test.each([
    ["我晚上九点半以后从不学习", "我晚上9点半以后从不学习"],
    ["我晚上两点半以后从不学习", "我晚上2点半以后从不学习"],
    ["工作日晚上十点半以后不复习", "工作日晚上10点半以后不复习"],
  ])("'%s' names an hour no preference keeps, as '%s' does", (numerals, digits) => {
    expect(unkeptHourIn(normalizeText(digits))).toBeDefined();
    expect(unkeptHourIn(normalizeText(numerals))).toBe(
      unkeptHourIn(normalizeText(digits))!.replace(/\d+/, (hour) => NUMERALS[hour]!),
    );
    expect(readSchedulePreferences(numerals)).toEqual({ add: [], lift: [] });
  });

  test.each([
    ["我早上十点以前从不学习", "我早上10点以前从不学习"],
    ["周末上午十点以前不学习", "周末上午10点以前不学习"],
    ["晚上十点以前不要", "晚上10点以前不要"],
    ["工作日晚上九点以后从不复习", "工作日晚上9点以后从不复习"],
  ])("'%s' states what '%s' does: the hour alone, its part of the day the hour's", (numerals, digits) => {
    expect(rulesOf(digits).length).toBe(1);
    expect(rulesOf(numerals)).toEqual(rulesOf(digits));
  });

  test.each([
    "晚上100点以后不要",
    "100点以前不要",
    "晚上112点以后不要学习",
    "晚上9999点以后不要",
    "晚上十十十点以后不要",
  ])("'%s' names no hour: nothing stored, never the tail of the number nor the evening", (said) => {
    expect(readSchedulePreferences(said)).toEqual({ add: [], lift: [] });
  });
});

const NUMERALS: Readonly<Record<string, string>> = { "2": "两", "9": "九", "10": "十" };
