/**
 * An hour rule taken back. "I can study after 9pm again" was no lift (its twin "after 9pm is fine now" was), "before
 * 8am is fine now" and "I can study before 8am again" lifted nothing, and "早上8点以前也可以了" lifted the morning; and a
 * lift of an hour took away every rule of its kind ("after 9pm is fine now" also took "no studying after 8pm on
 * fridays"). Now each is read as the rule's own words are, and takes back that hour alone.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { daysOfRule, type PreferenceRule } from "../../contracts/preferences.js";
import { applyPreferenceChange, loadPreferences } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

/** The profile as "kind value @days". */
async function profileOf(store: InMemoryStore): Promise<string[]> {
  return (await loadPreferences(store, "student")).map(
    (entry) => `${entry.kind} ${String(entry.value)}${daysOfRule(entry) ? ` @${daysOfRule(entry)!.join(",")}` : ""}`,
  );
}

describe("the reader", () => {
  test.each<[string, PreferenceRule[]]>([
    ["I can study after 9pm again", [{ kind: "not_after_hour", value: 21 }]],
    ["after 9pm is fine now", [{ kind: "not_after_hour", value: 21 }]],
    ["before 8am is fine now", [{ kind: "not_before_hour", value: 8 }]],
    ["I can study before 8am again", [{ kind: "not_before_hour", value: 8 }]],
    ["studying before 10 on mondays is fine again", [{ kind: "not_before_hour", value: 10, days: [1] }]],
    ["晚上9点以后也可以了", [{ kind: "not_after_hour", value: 21 }]],
    ["早上8点以前也可以了", [{ kind: "not_before_hour", value: 8 }]],
    ["8点以前也可以学习了", [{ kind: "not_before_hour", value: 8 }]],
    // A part of the day with a day and no hour stays the part on that day.
    ["I can study on Saturday mornings again", [{ kind: "part_of_day", value: "morning", days: [6] }]],
  ])("'%s' takes back %j", (said, lift) => {
    expect(readSchedulePreferences(said)).toEqual({ add: [], lift });
  });
});

describe("through the graph", () => {
  test.each([
    ["nothing after 9pm", "I can study after 9pm again", ["not_after_hour 20 @5"]],
    ["nothing after 9pm", "after 9pm is fine now", ["not_after_hour 20 @5"]],
    ["晚上9点以后不学习", "晚上9点以后也可以了", ["not_after_hour 20 @5"]],
    ["nothing after 9pm", "after 8pm on fridays is fine now", ["not_after_hour 21"]],
  ])("'%s' and Friday's 8pm held, then '%s': only the matching rule goes", async (said, lift, left) => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    await converse(tempo, said, [], "t-1");
    await converse(tempo, "no studying after 8pm on fridays", [], "t-2");
    expect(await profileOf(store)).toEqual(["not_after_hour 21", "not_after_hour 20 @5"]);
    const lifted = await converse(tempo, lift, [], "t-3");
    expect(await profileOf(store)).toEqual(left);
    expect(lifted.said.at(-1)).not.toMatch(/no standing preference that|没有可以因/);
  });

  test.each([
    ["nothing before 10am", "I can study before 10am again"],
    ["nothing before 10am", "before 10am is fine now"],
    ["我早上10点以前从不学习", "早上10点以前也可以了"],
  ])("'%s', then '%s': the rule is gone and an arrangement is the one no rule makes", async (said, lift) => {
    const free = await converse(await offlineTempo(sampleWeek()), "Arrange my reviews", [], "t-0");
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    await applyPreferenceChange(store, "student", readSchedulePreferences(said), "stated", "2026-01-05T10:00:00.000Z");
    expect(await profileOf(store)).toEqual(["not_before_hour 10"]);
    await converse(tempo, lift, [], "t-1");
    expect(await profileOf(store)).toEqual([]);
    const arranged = await converse(tempo, "Arrange my reviews", [], "t-2");
    expect(reviewPlaces(arranged.schedule)).toEqual(reviewPlaces(free.schedule));
  });
});
