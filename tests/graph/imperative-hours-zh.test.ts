/**
 * A Chinese hour said as a short "don't" ("早上10点以前不要学习", "早上10点以前不想学习") is the standing hour its 从不
 * twin ("我早上10点以前从不学习") is. Before, "不要学习" after the hour was read as a request to arrange a task named
 * "习" (so no preference was kept), and "不想学习" likewise, after either side of the hour; beside a request,
 * "帮我安排复习，早上10点以前不想学习" named a task "想学习".
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { loadPreferences } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

/** The rules a sentence states, without their words. */
const rulesOf = (text: string) => readSchedulePreferences(text).add.map(({ kind, value }) => ({ kind, value }));

describe("the reader", () => {
  test.each([
    "早上10点以前不要学习",
    "早上10点以前别学习",
    "早上10点以前不想学习",
    "10点以前不要学习",
    "我10点以前不想学习",
  ])("'%s' is the hour '我早上10点以前从不学习' is", (said) => {
    expect(rulesOf("我早上10点以前从不学习")).toEqual([{ kind: "not_before_hour", value: 10 }]);
    expect(rulesOf(said)).toEqual(rulesOf("我早上10点以前从不学习"));
  });

  test.each(["晚上9点以后不想学习", "晚上9点以后不想排"])("'%s' is the hour '我晚上9点以后从不学习' is", (said) => {
    expect(rulesOf("我晚上9点以后从不学习")).toEqual([{ kind: "not_after_hour", value: 21 }]);
    expect(rulesOf(said)).toEqual(rulesOf("我晚上9点以后从不学习"));
  });

  test.each(["早上25点以前不要学习", "早上10点半以前不要学习", "早上99点以前不想学习"])(
    "'%s' names no hour a rule keeps: nothing stored, no morning kept out",
    (said) => {
      expect(readSchedulePreferences(said)).toEqual({ add: [], lift: [] });
    },
  );

  test("a very long repetition of it, with no stop between, is read as no sentence at all", () => {
    expect(readSchedulePreferences("早上10点以前不要学习".repeat(3000))).toEqual({ add: [], lift: [] });
  });

  test("the same sentence said again and again is one preference", () => {
    expect(rulesOf("早上10点以前不要学习。".repeat(3000))).toEqual(rulesOf("我早上10点以前从不学习"));
  });

  test("beside a request it is the request's own limit, as '帮我安排复习，晚上9点以后不要' is", () => {
    expect(readSchedulePreferences("帮我安排复习，早上10点以前不要学习")).toEqual({ add: [], lift: [] });
  });

  test.each([
    "帮我安排复习，早上10点以前不想学习",
    "帮我安排复习，早上10点以前不要学习",
    "帮我安排复习，晚上9点以后不想学习",
  ])("'%s' arranges every review within its hour, as its short twin does: no task named '想学习'", (said) => {
    const twin = said.replace(/不想学习|不要学习/, "不要");
    expect(parseScheduleRequest(twin)).toMatchObject({ kind: "arrange", tasks: [] });
    expect(parseScheduleRequest(said)).toEqual(parseScheduleRequest(twin));
  });
});

describe("through the graph", () => {
  test("'早上10点以前不要学习' is kept and arranges as '我早上10点以前从不学习' does", async () => {
    const held = async (said: string) => {
      const store = new InMemoryStore();
      const tempo = await offlineTempo(sampleWeek(), undefined, { store });
      const stated = await converse(tempo, said, [], "t-1");
      const rules = (await loadPreferences(store, "student")).map(({ kind, value }) => `${kind} ${value}`);
      const places = reviewPlaces((await converse(tempo, "帮我安排复习", [], "t-2")).schedule);
      return { cards: stated.cards, rules, places };
    };
    const short = await held("早上10点以前不要学习");
    expect(short.cards).toEqual([]);
    expect(short.rules).toEqual(["not_before_hour 10"]);
    expect(short.places.length).toBeGreaterThan(0);
    expect(short).toEqual(await held("我早上10点以前从不学习"));
  });
});
