/**
 * The standing hour 24 (the day's end: "nothing after midnight", "晚上12点以后不要") is said as midnight wherever a
 * preference is put in words: the chat's reply once it is stored, /prefs, the prompts' rule. Before, "nothing after
 * 24:00" and "24:00以后不安排", a time no clock shows. Every other hour is said as before.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { describeRule, ruleOf, type PreferenceRule } from "../../contracts/preferences.js";
import { loadPreferences, preferencePromptLines } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

const rulesOf = (text: string) =>
  readSchedulePreferences(text).add.map(({ text: _text, ...rule }) => rule as PreferenceRule);

describe("a rule in words", () => {
  test.each<[PreferenceRule, string, string]>([
    [{ kind: "not_after_hour", value: 24 }, "nothing after midnight", "晚上12点以后不安排"],
    [{ kind: "not_after_hour", value: 24, days: [5] }, "nothing after midnight on Friday", "周五晚上12点以后不安排"],
    // The others as before.
    [{ kind: "not_after_hour", value: 23 }, "nothing after 23:00", "23:00以后不安排"],
    [{ kind: "not_after_hour", value: 12 }, "nothing after 12:00", "12:00以后不安排"],
    [{ kind: "not_before_hour", value: 0 }, "nothing before 00:00", "00:00以前不安排"],
  ])("%j is '%s', '%s'", (rule, english, chinese) => {
    expect(describeRule(rule, "en")).toBe(english);
    expect(describeRule(rule, "zh")).toBe(chinese);
  });

  test("each words of midnight read back as the rule they say", () => {
    const rule: PreferenceRule = { kind: "not_after_hour", value: 24 };
    expect(rulesOf(describeRule(rule, "en"))).toEqual([rule]);
    expect(rulesOf(describeRule(rule, "zh"))).toEqual([rule]);
  });

  test("a model's hour past midnight is no rule, and says nothing", () => {
    expect(ruleOf({ kind: "not_after_hour", value: 25 })).toBeUndefined();
    expect(ruleOf({ kind: "not_after_hour", value: 24.5 })).toBeUndefined();
    expect(ruleOf({ kind: "not_after_hour", value: -1 })).toBeUndefined();
  });

  test("a model's 'nothing after 0' is midnight, the day's end: as 0 it kept every review off the week", () => {
    expect(ruleOf({ kind: "not_after_hour", value: 0 })).toEqual({ kind: "not_after_hour", value: 24 });
    expect(ruleOf({ kind: "not_after_hour", value: 0, days: [5] })).toEqual({
      kind: "not_after_hour",
      value: 24,
      days: [5],
    });
    expect(ruleOf({ kind: "not_before_hour", value: 0 })).toEqual({ kind: "not_before_hour", value: 0 });
  });
});

describe("through the graph", () => {
  test("'no studying after midnight on fridays, nothing before 9': the reply, /prefs and the prompt say midnight", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    const stated = await converse(tempo, "no studying after midnight on fridays, nothing before 9", [], "t-1");
    expect(stated.said.at(-1)).toContain("nothing after midnight on Friday");
    const listed = (await converse(tempo, "/prefs", [], "t-2")).said.at(-1) ?? "";
    expect(listed).toContain("1. nothing after midnight on Friday");
    const everything = [stated.said.at(-1), listed, ...preferencePromptLines(await loadPreferences(store, "student"))];
    for (const said of everything) expect(said).not.toContain("24:00");
  });

  test("'晚上12点以后不要学习': the Chinese reply says 晚上12点, never 24:00", async () => {
    const tempo = await offlineTempo(sampleWeek(), undefined, { store: new InMemoryStore() });
    const stated = await converse(tempo, "晚上12点以后不要学习", [], "t-1");
    expect(stated.said.at(-1)).toContain("（晚上12点以后不安排）");
    expect(stated.said.at(-1)).not.toContain("24:00");
  });

  test("midnight narrowed to its other days by a lift on Friday is said as midnight too", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    await converse(tempo, "no studying after midnight", [], "t-1");
    const lifted = await converse(tempo, "I can study after 12am on fridays again", [], "t-2");
    expect(lifted.said.at(-1)).toContain('I no longer keep to "nothing after midnight on Friday"');
    const listed = (await converse(tempo, "/prefs", [], "t-3")).said.at(-1) ?? "";
    expect(listed).toContain("1. nothing after midnight on Monday, Tuesday, Wednesday, Thursday, Saturday and Sunday");
    expect(listed).not.toContain("24:00");
  });
});
