/**
 * "No studying after 9pm" — one of the commonest things a student says — was no preference: the reply said only an
 * hour nothing starts before could be kept ("… but not "after 9pm", so I noted nothing"), and "晚上9点以后不学习" was
 * even stored as "never in the evening". Now it is `not_after_hour` (the hour every review ends by), on every day or on
 * the days said; a placement asked after the hour ("put the matrix review on Friday after 9pm") stays one-off. Through
 * the graph with the offline policy and an in-memory store; where a review ends is checked against the sample week's
 * own clock times, not Tempo's code.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { daysOfRule, PreferenceExtractionSchema, ruleOf } from "../../contracts/preferences.js";
import { applyPreferenceChange, loadPreferences } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import { converse, crowdedMondayWeek, offlineTempo, placeOf, tempoHolding } from "./support/offline-conversation.js";

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const WORKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri"];

/** Each placed review as "Mon 19:55-20:40" (the sample window's day 1 is a Monday), off the week's clock times. */
function placesOf(week: ScheduleState): string[] {
  const times = week.window.slotTimes!;
  return week.tasks.flatMap((task) =>
    task.source === "task_item" && task.status === "placed"
      ? (task.slots ?? []).map(
          (range) => `${WEEKDAYS[range.day - 1]} ${times[range.start - 1]!.start}-${times[range.end - 1]!.end}`,
        )
      : [],
  );
}

const pendingOf = (week: ScheduleState) =>
  week.tasks.filter((task) => task.source === "task_item" && task.status === "pending").map((task) => task.id);

/** The places on `days` ("Mon", …); those ending after `hour` ("21:00"); those starting at `from` or later. */
const on = (places: string[], days: string[]) => places.filter((place) => days.includes(place.slice(0, 3)));
const endingAfter = (places: string[], hour: string) => places.filter((place) => place.slice(10) > hour);
const startingFrom = (places: string[], from: string) => places.filter((place) => place.slice(4, 9) >= from);

/** The profile as "kind value @days". */
async function profileOf(store: InMemoryStore): Promise<string[]> {
  return (await loadPreferences(store, "student")).map(
    (entry) => `${entry.kind} ${String(entry.value)}${daysOfRule(entry) ? ` @${daysOfRule(entry)!.join(",")}` : ""}`,
  );
}

/** `said` on a fresh thread, then `arrange` on another: the reply, the profile, the week's places. */
async function statedThenArranged(said: string, arrange: string) {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(sampleWeek(), undefined, { store });
  const stated = await converse(tempo, said, [], "t-1");
  const profile = await profileOf(store);
  const arranged = await converse(tempo, arrange, [], "t-2");
  return { reply: stated.said.at(-1), profile, week: arranged.schedule, places: placesOf(arranged.schedule) };
}

describe("an hour nothing goes after, stated", () => {
  test.each([
    [
      "no studying after 9pm",
      "Arrange my reviews",
      "not_after_hour 21",
      "Noted as a standing preference (nothing after 21:00): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
    [
      "nothing after 21:00",
      "Arrange my reviews",
      "not_after_hour 21",
      "Noted as a standing preference (nothing after 21:00): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
    [
      "晚上9点以后不学习",
      "帮我安排复习",
      "not_after_hour 21",
      "记下了这条长期偏好：“晚上9点以后不学习”（21:00以后不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
    [
      "9点之后不复习",
      "帮我安排复习",
      "not_after_hour 21",
      "记下了这条长期偏好：“9点之后不复习”（21:00以后不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
    [
      "晚上9点后不复习",
      "帮我安排复习",
      "not_after_hour 21",
      "记下了这条长期偏好：“晚上9点后不复习”（21:00以后不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
    // Said of the placing: before, the Chinese arranged every review at once with no evening at all (its "晚上" and
    // "不要" read as "不要晚上"), and the English was not understood and kept nothing.
    [
      "晚上九点以后不要安排复习",
      "帮我安排复习",
      "not_after_hour 21",
      "记下了这条长期偏好：“晚上九点以后不要安排复习”（21:00以后不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
    [
      "晚上9点以后不要安排复习",
      "帮我安排复习",
      "not_after_hour 21",
      "记下了这条长期偏好：“晚上9点以后不要安排复习”（21:00以后不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
    [
      "don't schedule reviews after 9pm",
      "Arrange my reviews",
      "not_after_hour 21",
      "Noted as a standing preference (nothing after 21:00): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
    [
      "don't put any reviews after 9pm",
      "Arrange my reviews",
      "not_after_hour 21",
      "Noted as a standing preference (nothing after 21:00): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
  ])("'%s' is kept; the week arranged ends every review by 21:00", async (said, arrange, rule, reply) => {
    const outcome = await statedThenArranged(said, arrange);
    expect(outcome.reply).toBe(reply);
    expect(outcome.profile).toEqual([rule]);
    expect(pendingOf(outcome.week)).toEqual([]);
    expect(outcome.places.length).toBeGreaterThan(0);
    // The sample week's 20:50-21:35 and 21:45-22:30 are out; the evening before them is still used.
    expect(endingAfter(outcome.places, "21:00")).toEqual([]);
    expect(startingFrom(outcome.places, "19:00").length).toBeGreaterThan(0);
  });

  test.each([
    [
      "I never study past 10pm on Fridays",
      "Arrange my reviews",
      "not_after_hour 22 @5",
      ["Fri"],
      "Noted as a standing preference (nothing after 22:00 on Friday): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
    [
      "工作日晚上9点以后不复习",
      "帮我安排复习",
      "not_after_hour 21 @1,2,3,4,5",
      WORKDAYS,
      "记下了这条长期偏好：“工作日晚上9点以后不复习”（工作日21:00以后不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
    [
      "no reviews after 9pm on weekends",
      "Arrange my reviews",
      "not_after_hour 21 @6,7",
      ["Sat", "Sun"],
      "Noted as a standing preference (nothing after 21:00 on weekends): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
    // Said of the placing, with its hour in Chinese numerals or its days: before, an arrangement with no evening at all
    // (or no Friday at all).
    [
      "晚上十点以后不要安排复习",
      "帮我安排复习",
      "not_after_hour 22",
      WEEKDAYS,
      "记下了这条长期偏好：“晚上十点以后不要安排复习”（22:00以后不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
    [
      "周五晚上9点以后不要安排复习",
      "帮我安排复习",
      "not_after_hour 21 @5",
      ["Fri"],
      "记下了这条长期偏好：“周五晚上9点以后不要安排复习”（周五21:00以后不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    ],
    // Its English with its days: before, read as a class named "reviews after 9pm", and the student asked which class.
    [
      "don't schedule reviews after 9pm on fridays",
      "Arrange my reviews",
      "not_after_hour 21 @5",
      ["Fri"],
      "Noted as a standing preference (nothing after 21:00 on Friday): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
    [
      "never put any reviews after 9pm on weekends",
      "Arrange my reviews",
      "not_after_hour 21 @6,7",
      ["Sat", "Sun"],
      "Noted as a standing preference (nothing after 21:00 on weekends): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    ],
  ])(
    "'%s' holds on its days only; those days are still used before the hour",
    async (said, arrange, rule, days, reply) => {
      const outcome = await statedThenArranged(said, arrange);
      expect(outcome.reply).toBe(reply);
      expect(outcome.profile).toEqual([rule]);
      expect(pendingOf(outcome.week)).toEqual([]);
      const hour = `${rule.split(" ")[1]}:00`;
      expect(endingAfter(on(outcome.places, days), hour)).toEqual([]);
      expect(on(outcome.places, days).length).toBeGreaterThan(0);
    },
  );

  test.each([["put the matrix review on Friday after 9pm", "把矩阵复习安排在周五晚上9点以后"]])(
    "a placement after the hour stays one-off: '%s', '%s' state no preference",
    (english, chinese) => {
      expect(readSchedulePreferences(english)).toEqual({ add: [], lift: [] });
      expect(readSchedulePreferences(chinese)).toEqual({ add: [], lift: [] });
    },
  );
});

describe("an hour nothing starts before, said with nothing", () => {
  // "Nothing before" an hour is kept as "no studying before" it is, in both languages (before, each got the list of
  // what is understood; "10pm" read as 10:00). "Not before 22" stays a one-off wish, as "not after 9pm" does.
  test.each([
    ["nothing before 22:00", "not_before_hour 22", "Noted as a standing preference (nothing before 22:00)"],
    ["nothing before 10pm", "not_before_hour 22", "Noted as a standing preference (nothing before 22:00)"],
    ["22点之前不要", "not_before_hour 22", "记下了这条长期偏好：“22点之前不要”（22:00以前不安排）"],
  ])("'%s' is kept as %s", async (said, rule, reply) => {
    const store = new InMemoryStore();
    const outcome = await converse(await offlineTempo(sampleWeek(), undefined, { store }), said);
    expect(outcome.said[0]).toContain(reply);
    expect(outcome.cards).toEqual([]);
    expect(await profileOf(store)).toEqual([rule]);
  });
});

describe("an hour said with an arrangement", () => {
  // The request's own limit, in both languages, as "arrange my reviews, not after 9pm" always was: before, the Chinese
  // asked which task "9点以后不要" was, its "晚上 … 不要" read as no evening at all, and kept the hour for good.
  test("'帮我安排复习，晚上9点以后不要' arranges as 'arrange my reviews, not after 9pm' does, and keeps no rule", async () => {
    const arranged = async (said: string) => {
      const store = new InMemoryStore();
      const outcome = await converse(await offlineTempo(sampleWeek(), undefined, { store }), said);
      return { outcome, profile: await profileOf(store), places: placesOf(outcome.schedule) };
    };
    const [chinese, english] = [
      await arranged("帮我安排复习，晚上9点以后不要"),
      await arranged("arrange my reviews, not after 9pm"),
    ];
    for (const { outcome, profile, places } of [chinese, english]) {
      expect(outcome.cards[0]?.action).toBe("confirm_plan");
      expect(profile).toEqual([]);
      expect(pendingOf(outcome.schedule)).toEqual([]);
      expect(endingAfter(places, "21:00")).toEqual([]);
      // The evening before the hour is still used.
      expect(startingFrom(places, "19:00").length).toBeGreaterThan(0);
    }
    expect(chinese.places).toEqual(english.places);
  });

  // A time of minutes: before, "9点半以后不要" was sought as a task's name and "no studying after 9:30pm" refused as a
  // number read as nothing. Each ends the request's day as "nothing after 9:30pm" always did, and is kept by no rule.
  test.each([
    ["帮我安排复习，晚上9点半以后不要", "arrange my reviews, nothing after 9:30pm", "21:30"],
    ["arrange my reviews, no studying after 9:30pm", "arrange my reviews, nothing after 9:30pm", "21:30"],
    ["帮我安排复习，晚上9点40分以后别排", "arrange my reviews, nothing after 9:40pm", "21:40"],
  ])("'%s' arranges as '%s' does, nothing ending after %s", async (said, twin, limit) => {
    const arranged = async (words: string) => {
      const store = new InMemoryStore();
      const outcome = await converse(await offlineTempo(sampleWeek(), undefined, { store }), words);
      return { outcome, profile: await profileOf(store), places: placesOf(outcome.schedule) };
    };
    const [asked, asTwin] = [await arranged(said), await arranged(twin)];
    expect(asked.outcome.cards[0]?.action).toBe("confirm_plan");
    expect(asked.profile).toEqual([]);
    expect(pendingOf(asked.outcome.schedule)).toEqual([]);
    expect(endingAfter(asked.places, limit)).toEqual([]);
    expect(asked.places).toEqual(asTwin.places);
  });

  // An hour of the night ends no day: the arrangement is made as if it were not said (before, refused as a number
  // read as nothing), and no rule is kept.
  test.each(["arrange my reviews, no studying after 1am", "帮我安排复习，凌晨1点以后不要"])(
    "'%s' arranges as 'arrange my reviews' does",
    async (said) => {
      const store = new InMemoryStore();
      const asked = await converse(await offlineTempo(sampleWeek(), undefined, { store }), said);
      const twin = await converse(await offlineTempo(sampleWeek()), "arrange my reviews");
      expect(asked.cards[0]?.action).toBe("confirm_plan");
      expect(await profileOf(store)).toEqual([]);
      expect(pendingOf(asked.schedule)).toEqual([]);
      expect(placesOf(asked.schedule)).toEqual(placesOf(twin.schedule));
    },
  );

  test.each([
    ["把矩阵复习安排到周五，晚上9点以后不要", []],
    ["帮我安排复习，9点以后别排", []],
    // "从不", "都": "every time" said of the hour itself — kept, beside the arrangement.
    ["帮我安排复习，我晚上9点以后从不学习", [{ kind: "not_after_hour", value: 21, text: "我晚上9点以后从不学习" }]],
    ["帮我安排复习，晚上9点以后都不要", [{ kind: "not_after_hour", value: 21, text: "晚上9点以后都不要" }]],
  ])("'%s' keeps %j", (said, kept) => {
    expect(readSchedulePreferences(said)).toEqual({ add: kept, lift: [] });
  });
});

describe("an hour said of one day of the calendar", () => {
  // "Tomorrow", "tonight", "this Friday", "3月12日" name one day: no rule of every week. They were stored as "nothing
  // after 21:00" on every day ("this friday …" too), and "I never study tomorrow evening" as evenings preferred.
  test.each([
    ["明天晚上9点以后不要安排复习"],
    ["今晚9点以后不要安排复习"],
    ["no studying after 9pm tomorrow"],
    ["this friday no studying after 9pm"],
    ["3月12日晚上9点以后不学习"],
    ["I never study tomorrow evening"],
  ])("'%s' states no standing preference, and the profile stays empty", async (said) => {
    expect(readSchedulePreferences(said)).toEqual({ add: [], lift: [] });
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    await converse(tempo, said, [], "t-1");
    expect(await profileOf(store)).toEqual([]);
  });

  // Nor a request: before, the English got the list of what is understood, and "明天晚上9点以后不要安排复习" a plan card
  // arranging every pending review with all of tomorrow kept out. Now said plainly, with the words for every week.
  test.each([
    [
      "no studying after 9pm tomorrow",
      '"no studying after 9pm tomorrow" is about one day, and I keep an hour like this only as a standing rule for every week, so I noted nothing and changed nothing. To keep it every week, say "no studying after 9pm". If a review is already placed after 21:00 that day, move it: "move <the review> to <another time>".',
    ],
    [
      "明天晚上9点以后不要安排复习",
      "“明天晚上9点以后不要安排复习”说的是某一天，而这样的时间限制我只能作为每周都适用的长期偏好记下，所以没有记下，也没有做任何改动。想每周都这样，请说“晚上9点以后不要安排复习”。那天21:00以后如果已经安排了复习，可以把它挪走：“把<复习名>移到<别的时间>”。",
    ],
  ])("'%s' raises no card, changes nothing, and says what to say instead", async (said, reply) => {
    const week = sampleWeek();
    const outcome = await converse(await offlineTempo(week), said);
    expect(outcome.cards).toEqual([]);
    expect(outcome.said).toEqual([reply]);
    expect(outcome.schedule).toEqual(week);
  });

  test.each([
    ["from tomorrow on, no studying after 9pm", "not_after_hour 21"],
    ["从明天开始晚上9点以后不学习", "not_after_hour 21"],
  ])("'%s' is a rule from then on: kept", async (said, rule) => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    await converse(tempo, said, [], "t-1");
    expect(await profileOf(store)).toEqual([rule]);
  });
});

describe("a write past the hour", () => {
  test.each([
    [
      "no studying after 9pm",
      "Put the matrix review on Friday after 8pm",
      /your standing preference "no studying after 9pm" rules out/,
    ],
    ["晚上9点以后不学习", "把矩阵复习安排在周五晚上8点以后", /你的长期偏好 "晚上9点以后不学习" 排除了能容纳它的时段/],
    [
      "no studying after 9pm on Fridays",
      "Put the matrix review on Friday at 20:50",
      /your standing preference "no studying after 9pm on Fridays" allows slots up to 10 only/,
    ],
    ["周五晚上9点以后不学习", "把矩阵复习安排到周五20:50", /你的长期偏好“周五晚上9点以后不学习”只允许到第10节/],
  ])(
    "'%s', then '%s': refused naming the rule; the evening before the hour is still open",
    async (said, ask, refusal) => {
      const { tempo } = await tempoHolding(said, sampleWeek());
      const refused = await converse(tempo, ask, [], "t-1");
      expect(refused.said.join("\n")).toMatch(refusal);
      expect(placeOf(refused.schedule, "matrix-review")).toBe("pending");
      // The sample week's Friday 19:00-20:40 ends by 21:00: never "no evening".
      const earlier = /[\u4e00-\u9fff]/.test(ask)
        ? "把矩阵复习安排到周五晚上7点"
        : "Put the matrix review on Friday at 19:00";
      const placed = await converse(tempo, earlier, [], "t-2");
      expect(placeOf(placed.schedule, "matrix-review")).toBe("day 5 slots 9-10");
    },
  );
});

describe("lifted", () => {
  test.each([
    ["no studying after 9pm", "studying after 9pm is fine now", "You"],
    ["晚上9点以后不学习", "晚上9点以后也可以学习了", "晚"],
  ])("'%s', then '%s': the rule is gone", async (said, lift) => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    await converse(tempo, said, [], "t-1");
    expect(await profileOf(store)).toEqual(["not_after_hour 21"]);
    await converse(tempo, lift, [], "t-2");
    expect(await profileOf(store)).toEqual([]);
  });

  test("a newer hour replaces an older one its days cover, not one of other days", async () => {
    const store = new InMemoryStore();
    let minute = 0;
    const said = (text: string) =>
      applyPreferenceChange(
        store,
        "student",
        readSchedulePreferences(text),
        "s",
        new Date(Date.parse("2026-01-05T10:00:00.000Z") + 60_000 * ++minute).toISOString(),
      );
    await said("I never study past 10pm on Fridays");
    await said("no reviews after 9pm on weekends");
    expect(await profileOf(store)).toEqual(["not_after_hour 22 @5", "not_after_hour 21 @6,7"]);
    await said("no studying after 9pm");
    expect(await profileOf(store)).toEqual(["not_after_hour 21"]);
  });
});

describe("an hour no slot of the day ends by", () => {
  test.each([
    ["nothing after 8am", "Put the matrix review on Saturday at 8:00", /"nothing after 8am" leaves no slot of the day/],
    ["早上8点以后不学习", "把矩阵复习安排到周六早上8点", /你的长期偏好“早上8点以后不学习”排除了一天中的每个时段/],
  ])("'%s': a write is refused naming the rule, and an arrangement places nothing", async (said, ask, refusal) => {
    const { store, tempo } = await tempoHolding(said, sampleWeek());
    expect(await profileOf(store)).toEqual(["not_after_hour 8"]);
    const refused = await converse(tempo, ask, [], "t-1");
    expect(refused.said.join("\n")).toMatch(refusal);
    expect(placeOf(refused.schedule, "matrix-review")).toBe("pending");
    const arranged = await converse(tempo, "Arrange my reviews", [], "t-2");
    expect(placesOf(arranged.schedule)).toEqual(placesOf(sampleWeek()));
    expect(arranged.said.join("\n")).toMatch(
      /your standing preference "(?:nothing after 8am|早上8点以后不学习)" rules out/,
    );
  });
});

describe("reviews placed before the hour was said", () => {
  // The crowded Monday ends with reviews at 20:50-21:35 and 21:45-22:30 (placed before the rule): the week's health
  // must name them. It judged a standing rule's whole days only, and said nothing.
  test.each([
    [
      "no studying after 9pm",
      "How is my week?",
      /is on Mon 11 Mar, 21:45–22:30, which your standing preference "no studying after 9pm" rules out/,
    ],
    ["晚上9点以后不学习", "我这周的安排健康吗", /不符合你的偏好（3月11日周一/],
  ])("'%s', then '%s': the judge names the reviews past the hour", async (said, ask, named) => {
    const week = crowdedMondayWeek();
    const late = endingAfter(placesOf(week), "21:00");
    expect([...late].sort()).toEqual(["Mon 20:50-21:35", "Mon 21:45-22:30"]);
    const { tempo } = await tempoHolding(said, week);
    const judged = await converse(tempo, ask, [], "t-1");
    expect(judged.said.at(-1)).toMatch(named);
    expect(judged.schedule).toEqual(week);
  });
});

describe("from the memory model", () => {
  test("not_after_hour is a kind it may give: 0-24, its days kept; past 24 or a fraction is no rule", () => {
    const parsed = PreferenceExtractionSchema.parse({
      preferences: [{ kind: "not_after_hour", value: 21, days: [5, 1], text: "no studying after 9pm on Mon and Fri" }],
    });
    const [given] = parsed.preferences;
    expect(ruleOf(given!)).toEqual({ kind: "not_after_hour", value: 21, days: [1, 5] });
    expect(ruleOf({ kind: "not_after_hour", value: 24 })).toEqual({ kind: "not_after_hour", value: 24 });
    expect(ruleOf({ kind: "not_after_hour", value: 25 })).toBeUndefined();
    expect(ruleOf({ kind: "not_after_hour", value: 21.5 })).toBeUndefined();
  });
});
