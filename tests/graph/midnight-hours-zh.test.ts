/**
 * 晚上12点 and 半夜12点 are midnight wherever a Chinese hour is read. "晚上12点以前不要" was stored as "nothing before
 * 12:00" (noon: only the afternoon and the evening were left), "半夜12点以前" was a time limit of noon and "半夜12点" a
 * time of noon, "0点以后不要" was "nothing after 12:00", and an hour no rule keeps ("晚上25点以后不要", "晚上12点半以后
 * 不要") left its "晚上" to be stored as the evening preferred or kept out. Nothing starts before midnight, so "晚上12点
 * 以前不要" has no standing meaning: it stores nothing and says so, as an hour of minutes does; "晚上12点以后不要" is
 * the day's end, as "nothing after midnight" is (d64bb1b9).
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { loadPreferences } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { parseScheduleRequest, readClockTime, readEndsBy } from "../../tools/schedule/request-parsing.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

/** The rules a sentence states, without their words. */
const rulesOf = (text: string) => readSchedulePreferences(text).add.map(({ kind, value }) => ({ kind, value }));

describe("the reader", () => {
  test.each([
    "晚上12点以后不要学习",
    "半夜12点以后别排",
    "深夜十二点以后不要",
    "晚上１２点以后不要",
    "0点以后不要",
    "零点以后不要学习",
    "晚上0点以后不要",
    // 午夜 alone is midnight, as "半夜12点" is (before, "午夜以后不要学习" stored nothing and was not understood).
    "午夜以后不要学习",
    "午夜之后不学",
    "午夜后别排",
  ])("'%s' is the standing hour 24, as 'nothing after midnight' is", (said) => {
    expect(rulesOf("nothing after midnight")).toEqual([{ kind: "not_after_hour", value: 24 }]);
    expect(rulesOf(said)).toEqual(rulesOf("nothing after midnight"));
  });

  test.each([
    "晚上12点以前不要",
    "晚上12点以前不要学习",
    "半夜12点以前别排",
    "晚上十二点之前不要",
    "晚上１２点以前不要",
    "0点以前不要",
    "nothing before 12am",
  ])("'%s' (nothing before midnight) states nothing, never noon", (said) => {
    expect(readSchedulePreferences(said)).toEqual({ add: [], lift: [] });
  });

  test.each([
    // An hour no clock has, one of minutes, one past the day's end: no rule of it, nor of its "晚上".
    "晚上25点以后不要",
    "晚上12点半以后不要",
    "晚上9点半以后不要",
    "半夜1点以后不要",
    "晚上99点以前不要",
  ])("'%s' states nothing: never the evening, never another hour", (said) => {
    expect(readSchedulePreferences(said)).toEqual({ add: [], lift: [] });
  });

  test("a very long repetition of '晚上12点以前不要' states nothing, and is read quickly", () => {
    expect(readSchedulePreferences("晚上12点以前不要".repeat(5000))).toEqual({ add: [], lift: [] });
    expect(readSchedulePreferences("晚上12点以前不要。".repeat(5000))).toEqual({ add: [], lift: [] });
  });

  test.each([
    ["半夜12点以前", "晚上12点以前"],
    ["深夜十二点以前", "晚上12点以前"],
  ])("'%s' is a time limit of the day's end, as '%s' is", (said, twin) => {
    expect(readEndsBy(twin)).toBe("24:00");
    expect(readEndsBy(said)).toBe("24:00");
  });

  test.each([
    ["半夜12点", "00:00"],
    ["夜里十二点", "00:00"],
    // The night's small hours are before dawn (before, "半夜2点" read as "2点" alone: 14:00); its late hours the evening's.
    ["半夜2点", "02:00"],
    ["夜里11点", "23:00"],
    // Noon stays noon.
    ["中午12点", "12:00"],
  ])("'%s' is the clock time %s", (said, at) => {
    expect(readClockTime(said)).toBe(at);
  });

  test("'把作文挪到周五半夜12点' names midnight, as '把作文挪到周五晚上12点' does", () => {
    const request = parseScheduleRequest("把作文挪到周五半夜12点");
    expect(request.kind === "move" && request.where.slots.at).toBe("00:00");
  });
});

describe("through the graph", () => {
  test("'晚上12点以前不要' stores nothing and says the hour cannot be kept; '晚上12点以后不要' stores midnight", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    const before = await converse(tempo, "晚上12点以前不要", [], "t-1");
    expect(await loadPreferences(store, "student")).toEqual([]);
    expect(before.cards).toEqual([]);
    expect(before.said.at(-1)).toContain("记不住“晚上12点以前”这样的时间，所以没有记下");
    await converse(tempo, "晚上12点以后不要", [], "t-2");
    expect((await loadPreferences(store, "student")).map(({ kind, value }) => `${kind} ${value}`)).toEqual([
      "not_after_hour 24",
    ]);
  });

  test.each(["晚上25点以后不要", "晚上12点半以后不要"])("'%s' stores nothing", async (said) => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    const outcome = await converse(tempo, said, [], "t-1");
    expect(await loadPreferences(store, "student")).toEqual([]);
    expect(outcome.cards).toEqual([]);
  });

  test("'半夜12点以后别排' held, an arrangement is the one 'nothing after midnight' makes", async () => {
    const arranged = async (said: string) => {
      const store = new InMemoryStore();
      const tempo = await offlineTempo(sampleWeek(), undefined, { store });
      await converse(tempo, said, [], "t-1");
      const rules = (await loadPreferences(store, "student")).map(({ kind, value }) => `${kind} ${value}`);
      return { rules, places: reviewPlaces((await converse(tempo, "帮我安排复习", [], "t-2")).schedule) };
    };
    const night = await arranged("半夜12点以后别排");
    expect(night.rules).toEqual(["not_after_hour 24"]);
    expect(night.places.length).toBeGreaterThan(0);
    expect(night).toEqual(await arranged("nothing after midnight"));
  });
});
