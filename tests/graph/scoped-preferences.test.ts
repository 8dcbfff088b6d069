/**
 * Standing preferences said with a qualifier of days were stored much wider than said: "no reviews before 10am on
 * weekdays" became never Monday … Friday plus nothing before 10:00 on every day, "I never study on Sunday mornings"
 * became never on Sunday, "no studying after 9pm on Fridays" never on Friday, and "我上午10点以前从不学习" stored a
 * hidden "never in the morning" beside the hour while the reply said nothing changed. An arrangement then left
 * reviews unplaced. Now a part of the day or an hour said of some days holds on those days only (`days`); an hour no
 * preference keeps to (one of minutes: "after 21:30") is said and noted nowhere; the reply names what is stored, in either language. Through the graph
 * with the offline policy and an in-memory store; where a review may start is checked against the sample week's own
 * clock times, not Tempo's code.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { daysOfRule, ruleOf } from "../../contracts/preferences.js";
import { applyPreferenceChange, loadPreferences, preferenceId } from "../../memory/preferences.js";
import { preferencesNamespace } from "../../memory/namespaces.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import { converse, offlineTempo, placeOf, tempoHolding } from "./support/offline-conversation.js";

/** The rules a sentence states, without their words. */
const rulesOf = (text: string) =>
  readSchedulePreferences(text).add.map(({ text: _text, ...rule }) => rule as Record<string, unknown>);

/** Days ruled out whole, as rules. */
const avoiding = (...days: number[]) => days.map((value) => ({ kind: "avoid_day", value }));

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Each placed review's start as "Mon 08:00" (the sample window's day 1 is a Monday), off the week's clock times. */
function startsOf(week: ScheduleState): string[] {
  return week.tasks.flatMap((task) =>
    task.source === "task_item" && task.status === "placed"
      ? (task.slots ?? []).map(
          (range) => `${WEEKDAYS[range.day - 1]} ${week.window.slotTimes![range.start - 1]!.start}`,
        )
      : [],
  );
}

const pendingOf = (week: ScheduleState) =>
  week.tasks.filter((task) => task.source === "task_item" && task.status === "pending").map((task) => task.id);

/** The starts on `days` ("Mon", …), and those of them in the clock range [from, to). */
const on = (starts: string[], days: string[]) => starts.filter((start) => days.includes(start.slice(0, 3)));
const between = (starts: string[], from: string, to: string) =>
  starts.filter((start) => start.slice(4) >= from && start.slice(4) < to);

const WORKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri"];

/** `said` stated on a fresh thread, then the week arranged: the replies, the profile, the week's starts. */
async function statedThenArranged(said: string, arrange: string) {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(sampleWeek(), undefined, { store });
  const stated = await converse(tempo, said, [], "t-1");
  const profile = (await loadPreferences(store, "student")).map((entry) => ({
    kind: entry.kind,
    value: entry.value,
    days: daysOfRule(entry),
  }));
  const arranged = await converse(tempo, arrange, [], "t-2");
  return { reply: stated.said.at(-1), profile, week: arranged.schedule, starts: startsOf(arranged.schedule) };
}

describe("what a qualified sentence keeps", () => {
  test.each([
    ["no reviews before 10am on weekdays", [{ kind: "not_before_hour", value: 10, days: [1, 2, 3, 4, 5] }]],
    ["工作日10点以前从不复习", [{ kind: "not_before_hour", value: 10, days: [1, 2, 3, 4, 5] }]],
    ["never before 9 on Mondays", [{ kind: "not_before_hour", value: 9, days: [1] }]],
    ["我周一9点以前从不学习", [{ kind: "not_before_hour", value: 9, days: [1] }]],
    ["I never study on Sunday mornings", [{ kind: "avoid_part_of_day", value: "morning", days: [7] }]],
    ["我周日上午从不学习", [{ kind: "avoid_part_of_day", value: "morning", days: [7] }]],
    ["周末上午不学习", [{ kind: "avoid_part_of_day", value: "morning", days: [6, 7] }]],
    ["I never study on weekday evenings", [{ kind: "avoid_part_of_day", value: "evening", days: [1, 2, 3, 4, 5] }]],
    ["weekends only in the afternoon", [{ kind: "only_part_of_day", value: "afternoon", days: [6, 7] }]],
    ["周末只在下午学习", [{ kind: "only_part_of_day", value: "afternoon", days: [6, 7] }]],
    ["I prefer mornings on weekends", [{ kind: "part_of_day", value: "morning", days: [6, 7] }]],
    // The morning is the hour's: no rule of its own.
    ["我上午10点以前从不学习", [{ kind: "not_before_hour", value: 10 }]],
    // An hour nothing goes after holds on the days said (tests/graph/not-after-hour.test.ts); one of minutes is no
    // preference: nothing, never the whole day.
    ["no studying after 9pm on Fridays", [{ kind: "not_after_hour", value: 21, days: [5] }]],
    ["工作日晚上9点以后不复习", [{ kind: "not_after_hour", value: 21, days: [1, 2, 3, 4, 5] }]],
    ["no studying after 21:30 on Fridays", []],
    ["工作日晚上9点半以后不复习", []],
    // The afternoon of some days kept out leaves two parts of those days: nothing, never the whole day.
    ["never on Sunday afternoons", []],
    // Unchanged: days ruled out in a clause of their own, and days alone.
    ["I never study on Sundays, and nothing before 10", [...avoiding(7), { kind: "not_before_hour", value: 10 }]],
    ["never on weekends", avoiding(6, 7)],
    ["I only study on weekends", [{ kind: "only_days", value: [6, 7] }]],
    ["线性代数只在晚上复习", []],
  ])("%s", (text, rules) => {
    expect(rulesOf(text)).toEqual(rules);
  });
});

describe("stated, then the week arranged", () => {
  test.each([
    [
      "no reviews before 10am on weekdays",
      "Arrange my reviews",
      "Noted as a standing preference (nothing before 10:00 on weekdays): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
    [
      "工作日10点以前从不复习",
      "帮我安排复习",
      "记下了这条长期偏好：“工作日10点以前从不复习”（工作日10:00以前不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
  ])(
    "'%s': weekdays keep reviews, none before 10:00 on them; weekend mornings stay in use",
    async (said, ask, reply) => {
      const outcome = await statedThenArranged(said, ask);
      expect(outcome.reply).toBe(reply);
      expect(outcome.profile).toEqual([{ kind: "not_before_hour", value: 10, days: [1, 2, 3, 4, 5] }]);
      expect(pendingOf(outcome.week)).toEqual([]);
      expect(on(outcome.starts, WORKDAYS).length).toBeGreaterThan(0);
      expect(between(on(outcome.starts, WORKDAYS), "00:00", "10:00")).toEqual([]);
      // The sample week's weekend mornings (Saturday 08:55, Sunday 08:00) are outside the rule's days: still used.
      expect(between(on(outcome.starts, ["Sat", "Sun"]), "00:00", "10:00").length).toBeGreaterThan(0);
    },
  );

  test.each([
    [
      "I never study on Sunday mornings",
      "Arrange my reviews",
      "Noted as a standing preference (never in the morning on Sunday): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
    [
      "我周日上午从不学习",
      "帮我安排复习",
      "记下了这条长期偏好：“我周日上午从不学习”（周日上午不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
  ])("'%s': Sunday keeps a review in the afternoon, none before noon", async (said, ask, reply) => {
    const outcome = await statedThenArranged(said, ask);
    expect(outcome.reply).toBe(reply);
    expect(outcome.profile).toEqual([{ kind: "avoid_part_of_day", value: "morning", days: [7] }]);
    expect(pendingOf(outcome.week)).toEqual([]);
    const sunday = on(outcome.starts, ["Sun"]);
    expect(sunday.length).toBeGreaterThan(0);
    expect(between(sunday, "00:00", "12:00")).toEqual([]);
    // Other days' mornings are no part of it: the sample week's Thursday 08:00 is still used.
    expect(between(on(outcome.starts, WORKDAYS), "00:00", "12:00").length).toBeGreaterThan(0);
  });

  test.each([
    ["weekends only in the afternoon", "Arrange my reviews", "only in the afternoon on weekends"],
    ["周末只在下午学习", "帮我安排复习", "周末只在下午"],
  ])("'%s': weekend reviews in the afternoon, weekdays as before", async (said, ask, named) => {
    const outcome = await statedThenArranged(said, ask);
    expect(outcome.reply).toContain(named);
    expect(outcome.profile).toEqual([{ kind: "only_part_of_day", value: "afternoon", days: [6, 7] }]);
    expect(pendingOf(outcome.week)).toEqual([]);
    const weekend = on(outcome.starts, ["Sat", "Sun"]);
    expect(weekend.length).toBeGreaterThan(0);
    expect(weekend).toEqual(between(weekend, "12:00", "18:00"));
    expect(between(on(outcome.starts, WORKDAYS), "00:00", "12:00").length).toBeGreaterThan(0);
  });

  test.each([
    ["no studying after 21:30 on Fridays", "Arrange my reviews", /but not "after 21:30", so I noted nothing/],
    ["工作日晚上9点半以后不复习", "帮我安排复习", /但记不住“晚上9点半以后”这样的时间，所以没有记下/],
  ])("'%s' is said not kept, and no day is ruled out", async (said, ask, reply) => {
    const outcome = await statedThenArranged(said, ask);
    expect(outcome.reply).toMatch(reply);
    expect(outcome.profile).toEqual([]);
    expect(pendingOf(outcome.week)).toEqual([]);
    expect(on(outcome.starts, ["Fri"]).length).toBeGreaterThan(0);
  });

  test("'我上午10点以前从不学习' stores the hour alone, and the reply names it", async () => {
    const outcome = await statedThenArranged("我上午10点以前从不学习", "帮我安排复习");
    expect(outcome.reply).toBe(
      "记下了这条长期偏好：“我上午10点以前从不学习”（10:00以前不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    );
    expect(outcome.profile).toEqual([{ kind: "not_before_hour", value: 10, days: undefined }]);
    expect(pendingOf(outcome.week)).toEqual([]);
    expect(between(outcome.starts, "00:00", "10:00")).toEqual([]);
    // Never "never in the morning": 10:00-12:00 stays open.
    expect(between(outcome.starts, "10:00", "12:00").length).toBeGreaterThan(0);
  });
});

describe("a write into the kept time", () => {
  test.each([
    [
      "no reviews before 10am on weekdays",
      "Put the matrix review on Thursday at 8:00",
      "Put the matrix review on Saturday at 8:00",
      /your standing preference "no reviews before 10am on weekdays" allows slots 3-12 only/,
    ],
    [
      "工作日10点以前从不复习",
      "把矩阵复习安排到周四早上8点",
      "把矩阵复习安排到周六早上8点",
      /你的长期偏好“工作日10点以前从不复习”只允许第3-12节/,
    ],
  ])(
    "'%s': Thursday 08:00 is refused naming the rule; Saturday 08:00 is not",
    async (said, thursday, saturday, refusal) => {
      const { tempo } = await tempoHolding(said, sampleWeek());
      const refused = await converse(tempo, thursday, [], "t-1");
      expect(refused.said.join("\n")).toMatch(refusal);
      expect(placeOf(refused.schedule, "matrix-review")).toBe("pending");
      // The sample week's Saturday 08:00-09:40 is free and outside the rule's days.
      const placed = await converse(tempo, saturday, [], "t-2");
      expect(placeOf(placed.schedule, "matrix-review")).toBe("day 6 slots 1-2");
    },
  );
});

describe("in the profile", () => {
  const at = "2026-01-05T10:00:00.000Z";
  let minute = 0;
  // Each said a minute after the one before: the profile lists them oldest first.
  const said = async (store: InMemoryStore, text: string) =>
    applyPreferenceChange(
      store,
      "student",
      readSchedulePreferences(text),
      "s",
      new Date(Date.parse(at) + 60_000 * ++minute).toISOString(),
    );
  const kinds = async (store: InMemoryStore) =>
    (await loadPreferences(store, "student")).map(
      (entry) => `${entry.kind} ${String(entry.value)}${daysOfRule(entry) ? ` @${daysOfRule(entry)!.join(",")}` : ""}`,
    );

  test("'Sunday mornings are fine now' keeps the morning out on the other days; 'mornings are fine now' lifts it all", async () => {
    const store = new InMemoryStore();
    await said(store, "I never study in the morning");
    await said(store, "Sunday mornings are fine now");
    expect(await kinds(store)).toEqual(["avoid_part_of_day morning @1,2,3,4,5,6"]);
    await said(store, "mornings are fine now");
    expect(await kinds(store)).toEqual([]);
  });

  test("a rule of some days replaces one of no other days only", async () => {
    const store = new InMemoryStore();
    await said(store, "never before 9 on Mondays");
    await said(store, "nothing before 10 on weekends, never");
    expect(await kinds(store)).toEqual(["not_before_hour 9 @1", "not_before_hour 10 @6,7"]);
    await said(store, "no reviews before 10am on weekdays");
    expect(await kinds(store)).toEqual(["not_before_hour 10 @6,7", "not_before_hour 10 @1,2,3,4,5"]);
  });

  test("a rule stored before scopes loads as it did, under its old id; a scope that is not weekdays is no rule", async () => {
    const store = new InMemoryStore();
    const namespace = preferencesNamespace("student");
    const old = { kind: "not_before_hour", value: 10, text: "nothing before 10", source: "s", createdAt: at };
    const id = preferenceId({ kind: "not_before_hour", value: 10 });
    await store.put(namespace, id, { ...old, id });
    await store.put(namespace, "pref-bad", { ...old, id: "pref-bad", days: [0, 9] });
    expect(await loadPreferences(store, "student")).toEqual([{ ...old, id }]);
    // The memory model's rules: days kept for a part or an hour, all seven read as every day, none for a day's rule.
    expect(ruleOf({ kind: "not_before_hour", value: 10, days: [5, 1, 1] })).toEqual({
      kind: "not_before_hour",
      value: 10,
      days: [1, 5],
    });
    expect(ruleOf({ kind: "avoid_part_of_day", value: "morning", days: [1, 2, 3, 4, 5, 6, 7] })).toEqual({
      kind: "avoid_part_of_day",
      value: "morning",
    });
    expect(ruleOf({ kind: "avoid_day", value: 3, days: [3] })).toBeUndefined();
  });
});
