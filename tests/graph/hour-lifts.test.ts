/**
 * An hour rule taken back. "I can study after 9pm again" was no lift (its twin "after 9pm is fine now" was), "before
 * 8am is fine now" and "I can study before 8am again" lifted nothing, and "早上8点以前也可以了" lifted the morning; and a
 * lift of an hour took away every rule of its kind ("after 9pm is fine now" also took "no studying after 8pm on
 * fridays"). Now each is read as the rule's own words are, and takes back that hour alone. "After 8pm is fine on
 * fridays now" (the days said after "is fine") was no lift, and a lift of an hour on some days, which the memory keeps
 * on the other days, was answered that nothing changed: it is Friday's alone now, and said so.
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
    // The days said after "is fine", before "now": that hour on those days alone, as "after 8pm on fridays is fine
    // now" is (before, no lift).
    ["after 8pm is fine on fridays now", [{ kind: "not_after_hour", value: 20, days: [5] }]],
    ["after 8pm is ok on fridays and saturdays again", [{ kind: "not_after_hour", value: 20, days: [5, 6] }]],
    ["after midnight is fine on fridays now", [{ kind: "not_after_hour", value: 24, days: [5] }]],
    ["before 10am is fine on weekends now", [{ kind: "not_before_hour", value: 10, days: [6, 7] }]],
    ["周五晚上8点以后也可以了", [{ kind: "not_after_hour", value: 20, days: [5] }]],
    // Midnight, as "I can study after 12am again" and "晚上12点以后也可以了" are (before, no lift).
    ["I can study after midnight again", [{ kind: "not_after_hour", value: 24 }]],
    ["after midnight is fine now", [{ kind: "not_after_hour", value: 24 }]],
    ["after midnight on fridays is fine now", [{ kind: "not_after_hour", value: 24, days: [5] }]],
    ["午夜以后也可以了", [{ kind: "not_after_hour", value: 24 }]],
    // A part of the day with a day and no hour stays the part on that day.
    ["I can study on Saturday mornings again", [{ kind: "part_of_day", value: "morning", days: [6] }]],
  ])("'%s' takes back %j", (said, lift) => {
    expect(readSchedulePreferences(said)).toEqual({ add: [], lift });
  });

  test("'after 8pm is fine on fridays now' is read as its twin 'after 8pm on fridays is fine now'", () => {
    expect(readSchedulePreferences("after 8pm is fine on fridays now")).toEqual(
      readSchedulePreferences("after 8pm on fridays is fine now"),
    );
  });

  test.each([
    // Days said fine on days, an hour no clock has, the days said again and again: no lift.
    "mondays are fine on fridays now",
    "after 25pm is fine on fridays now",
    "after 8:30pm is fine on fridays now",
    `after 8pm is fine on ${"fridays and ".repeat(400)}fridays now`,
  ])("'%s' takes nothing back", (said) => {
    expect(readSchedulePreferences(said)).toEqual({ add: [], lift: [] });
  });
});

describe("through the graph", () => {
  test.each([
    ["nothing after 9pm", "I can study after 9pm again", ["not_after_hour 20 @5"]],
    ["nothing after 9pm", "after 9pm is fine now", ["not_after_hour 20 @5"]],
    ["晚上9点以后不学习", "晚上9点以后也可以了", ["not_after_hour 20 @5"]],
    ["nothing after 9pm", "after 8pm on fridays is fine now", ["not_after_hour 21"]],
    ["nothing after 9pm", "after 8pm is fine on fridays now", ["not_after_hour 21"]],
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
    ["no studying after 8pm", "after 8pm is fine on fridays now"],
    ["no studying after 8pm", "after 8pm on fridays is fine now"],
    ["晚上8点以后不学习", "周五晚上8点以后也可以了"],
  ])("'%s' held, then '%s': Friday alone is free of it, and the reply says so", async (said, lift) => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    await converse(tempo, said, [], "t-1");
    const lifted = await converse(tempo, lift, [], "t-2");
    expect(await profileOf(store)).toEqual(["not_after_hour 20 @1,2,3,4,6,7"]);
    expect(lifted.said.at(-1)).toMatch(/I no longer keep to "nothing after 20:00 on Friday"|不再受这条偏好限制/);
  });

  test("a Saturday rule held, a lift on Friday changes nothing and says so", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    await converse(tempo, "no studying after 8pm on saturdays", [], "t-1");
    const lifted = await converse(tempo, "after 8pm is fine on fridays now", [], "t-2");
    expect(await profileOf(store)).toEqual(["not_after_hour 20 @6"]);
    expect(lifted.said.at(-1)).toMatch(/no standing preference that/);
  });

  test.each([
    ["no studying after 8pm on fridays", "after 8pm is fine on mondays now", "nothing after 20:00 on Friday"],
    ["nothing before 10am on weekends", "before 10am is fine on mondays now", "nothing before 10:00 on weekends"],
    [
      "no studying after midnight on fridays",
      "I can study after midnight on mondays again",
      "nothing after midnight on Friday",
    ],
    ["周五晚上8点以后不学习", "周一晚上8点以后也可以了", "周五20:00以后不安排"],
  ])(
    "'%s' held, '%s' (other days) changes nothing, names what is kept, and the lift it suggests takes it back",
    async (said, lift, kept) => {
      const store = new InMemoryStore();
      const tempo = await offlineTempo(sampleWeek(), undefined, { store });
      await converse(tempo, said, [], "t-1");
      const held = await profileOf(store);
      expect(held.length).toBe(1);
      const reply = (await converse(tempo, lift, [], "t-2")).said.at(-1) ?? "";
      expect(await profileOf(store)).toEqual(held);
      expect(reply).toMatch(/no standing preference that|没有可以因/);
      expect(reply).toContain(kept);
      // The lift it suggests, said, takes the rule back.
      const suggested = /name its days \("([^"]+)"\)|请说出它的日子（如“([^”]+)”）/.exec(reply);
      expect(suggested).not.toBeNull();
      await converse(tempo, suggested![1] ?? suggested![2]!, [], "t-3");
      expect(await profileOf(store)).toEqual([]);
    },
  );

  test.each([
    ["nothing after midnight", "I can study after midnight again", "I can study after 12am again"],
    ["午夜以后不要学习", "午夜以后也可以了", "晚上12点以后也可以了"],
  ])("'%s' held, '%s' takes it back, as '%s' does", async (said, lift, twin) => {
    const liftedBy = async (words: string) => {
      const store = new InMemoryStore();
      const tempo = await offlineTempo(sampleWeek(), undefined, { store });
      await converse(tempo, said, [], "t-1");
      expect(await profileOf(store)).toEqual(["not_after_hour 24"]);
      const reply = (await converse(tempo, words, [], "t-2")).said.at(-1);
      return { profile: await profileOf(store), reply: reply?.replace(words, "…") };
    };
    const twinLifted = await liftedBy(twin);
    expect(twinLifted.profile).toEqual([]);
    expect(await liftedBy(lift)).toEqual(twinLifted);
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
