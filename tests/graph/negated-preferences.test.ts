/**
 * Standing preferences said with a "no": "I never study in the evenings" was kept as a preference *for* the evening
 * (the reader took the part of the day and dropped the "never"), and the next arrangement put every review in the
 * evening; habits said plainly — "I don't study on Sundays", "no reviews on Sundays", "周日不复习" — were no preference
 * at all ("Offline, I can't tell what to do with …"). Through the graph with the offline policy and an in-memory
 * store; where a review may start is checked against the sample week's own clock times, not Tempo's part-of-day code.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { applyPreferenceChange, loadPreferences } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

/** The rules a sentence states, without their words. */
const rulesOf = (text: string) => readSchedulePreferences(text).add.map(({ kind, value }) => ({ kind, value }));

/** Each placed review's start as "weekday HH:MM" (the window's day 1 is a Monday), read off the week's clock times. */
function startsOf(week: ScheduleState): string[] {
  const weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
  return week.tasks.flatMap((task) =>
    task.source === "task_item" && task.status === "placed"
      ? (task.slots ?? []).map(
          (range) => `${weekdays[range.day - 1]} ${week.window.slotTimes![range.start - 1]!.start}`,
        )
      : [],
  );
}
/** `ask` sent on the half-placed week by a user who has said `said` before. */
async function askHolding(said: string, ask: string) {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  await applyPreferenceChange(store, "student", readSchedulePreferences(said), "stated", "2026-01-05T10:00:00.000Z");
  return converse(tempo, ask, [], "t-9");
}
const pendingOf = (week: ScheduleState) =>
  week.tasks.filter((task) => task.source === "task_item" && task.status === "pending").map((task) => task.id);

describe("what a sentence with a 'no' keeps out", () => {
  test.each([
    ["I never study in the evenings", [{ kind: "avoid_part_of_day", value: "evening" }]],
    ["never in the morning", [{ kind: "avoid_part_of_day", value: "morning" }]],
    ["no reviews in the morning", [{ kind: "avoid_part_of_day", value: "morning" }]],
    ["I prefer not to study in the evening", [{ kind: "avoid_part_of_day", value: "evening" }]],
    ["我晚上从不复习", [{ kind: "avoid_part_of_day", value: "evening" }]],
    ["我从不在上午学习", [{ kind: "avoid_part_of_day", value: "morning" }]],
    ["I don't study on Sundays", [{ kind: "avoid_day", value: 7 }]],
    ["no reviews on Sundays", [{ kind: "avoid_day", value: 7 }]],
    ["no studying on sunday", [{ kind: "avoid_day", value: 7 }]],
    ["周日不复习", [{ kind: "avoid_day", value: 7 }]],
    ["我周日不学习", [{ kind: "avoid_day", value: 7 }]],
    ["no studying before 10", [{ kind: "not_before_hour", value: 10 }]],
    ["I only study in the evenings", [{ kind: "only_part_of_day", value: "evening" }]],
    // The "never" is the hour's, not the evening's.
    [
      "only in the evening and never before 10",
      [
        { kind: "only_part_of_day", value: "evening" },
        { kind: "not_before_hour", value: 10 },
      ],
    ],
    ["我只在晚上复习", [{ kind: "only_part_of_day", value: "evening" }]],
    // "以后" (from now on) and "我" are no class: was a rule for a class named "以后", kept for no task.
    ["以后都只在晚上复习", [{ kind: "only_part_of_day", value: "evening" }]],
    // Unchanged: a part preferred, and one-off wishes with no study word.
    ["I prefer mornings", [{ kind: "part_of_day", value: "morning" }]],
    ["周一不行", []],
    ["not Monday", []],
    ["no reviews", []],
    // The afternoon alone is not kept out (the morning and the evening would be two ranges of a day): no rule.
    ["never in the afternoon", []],
  ])("%s", (text, rules) => {
    expect(rulesOf(text)).toEqual(rules);
  });
});

test("a class named before 只 is still a class's rule; the speaker or 'from now on' is none", () => {
  expect(parseScheduleRequest("线性代数只在晚上复习")).toMatchObject({ kind: "class_rules", classPhrase: "线性代数" });
  for (const text of ["我只在晚上复习", "以后都只在晚上复习", "从现在起只在晚上复习"])
    expect(parseScheduleRequest(text).kind).not.toBe("class_rules");
});

describe("through the graph", () => {
  test("'never in the afternoon' notes nothing and says why, in either language", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    const english = await converse(tempo, "never in the afternoon", [], "t-1");
    expect(english.said.at(-1)).toMatch(
      /^I can keep the morning or the evening out for good, but not the afternoon alone/,
    );
    const chinese = await converse(tempo, "我从不在下午学习", [], "t-2");
    expect(chinese.said.at(-1)).toMatch(/^我可以长期避开上午或晚上，但不能只避开下午/);
    expect(await loadPreferences(store, "student")).toEqual([]);
  });

  test("'I never study in the evenings' is noted as never in the evening, and the week is arranged with no review from 18:00", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    const stated = await converse(tempo, "I never study in the evenings", [], "t-1");
    expect(stated.said.at(-1)).toBe(
      "Noted as a standing preference (never in the evening): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    );
    const arranged = await converse(tempo, "Arrange my reviews", [], "t-2");
    const starts = startsOf(arranged.schedule);
    expect(pendingOf(arranged.schedule)).toEqual([]);
    expect(starts.length).toBeGreaterThan(0);
    expect(starts.filter((start) => start.slice(4) >= "18:00")).toEqual([]);
  });

  test("'I don't study on Sundays' and '周日不复习' are noted, not answered as requests the policy cannot tell", async () => {
    const store = new InMemoryStore();
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    const english = await converse(tempo, "I don't study on Sundays", [], "t-1");
    expect(english.said.at(-1)).toBe(
      "Noted as a standing preference (never on Sunday): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.",
    );
    // Said to a student who has not said it yet (said again, it is kept already: preference-said-again.test.ts).
    const chinese = await converse(
      await offlineTempo(sampleWeek(), undefined, { store: new InMemoryStore() }),
      "周日不复习",
      [],
      "t-2",
    );
    expect(chinese.said.at(-1)).toBe(
      "记下了这条长期偏好：“周日不复习”（周日不安排）。以后安排或移动复习时都会照此来（/prefs 可以查看）。",
    );
    expect((await loadPreferences(store, "student")).map(({ kind, value }) => ({ kind, value }))).toEqual([
      { kind: "avoid_day", value: 7 },
    ]);
    const arranged = await converse(tempo, "Arrange my reviews", [], "t-3");
    expect(startsOf(arranged.schedule).filter((start) => start.startsWith("Sun"))).toEqual([]);
  });

  test("a move into the morning kept out is refused naming the preference, in the request's language", async () => {
    for (const [said, ask, refusal] of [
      [
        "no reviews in the morning",
        "Move the matrix review to Wednesday morning",
        /your standing preference "no reviews in the morning" allows slots 5-12 only/,
      ],
      ["我上午从不复习", "把矩阵复习移到周三上午", /你的长期偏好“我上午从不复习”只允许第5-12节/],
    ] as const) {
      const outcome = await askHolding(said, ask);
      expect(outcome.said.join("\n")).toMatch(refusal);
      expect(placeOf(outcome.schedule, "matrix-review")).toBe(placeOf(halfPlacedWeek(), "matrix-review"));
    }
  });
});

describe("a shift onto a day a preference keeps free", () => {
  test("'push the essay back a day' onto a Sunday kept free is refused naming the preference, never 'no free time'", async () => {
    // Sunday holds the library 08:00-11:40 and nothing after: the essay's two slots fit there but for the preference.
    const week = halfPlacedWeek();
    const sunday = week.tasks.filter((task) => task.slots?.some((range) => range.day === 7));
    expect(sunday.flatMap((task) => task.slots!.map((range) => `${range.start}-${range.end}`))).toEqual(["1-4"]);
    for (const [said, ask, refusal] of [
      [
        "never on Sunday",
        "push the essay back a day",
        /cannot go on Sun 17 Mar: your standing preference "never on Sunday" rules Sun out/,
      ],
      ["我周日从不学习", "把作文往后推一天", /不能安排在3月17日周日：你的长期偏好“我周日从不学习”排除了周日/],
    ] as const) {
      const outcome = await askHolding(said, ask);
      const told = outcome.said.join("\n");
      expect(told).toMatch(refusal);
      expect(told).not.toMatch(/no free time|没有能容纳/);
      expect(placeOf(outcome.schedule, "essay-draft")).toBe(placeOf(week, "essay-draft"));
    }
  });
});

describe("in the profile", () => {
  test("'evenings are fine now' takes 'never in the evening' back; 'I prefer evenings' replaces it", async () => {
    const store = new InMemoryStore();
    const at = "2026-01-05T10:00:00.000Z";
    const kinds = async () => (await loadPreferences(store, "student")).map(({ kind, value }) => `${kind} ${value}`);
    await applyPreferenceChange(store, "student", readSchedulePreferences("I never study in the evenings"), "s", at);
    expect(await kinds()).toEqual(["avoid_part_of_day evening"]);
    await applyPreferenceChange(store, "student", readSchedulePreferences("evenings are fine now"), "s", at);
    expect(await kinds()).toEqual([]);
    await applyPreferenceChange(store, "student", readSchedulePreferences("I never study in the evenings"), "s", at);
    await applyPreferenceChange(store, "student", readSchedulePreferences("I prefer evenings"), "s", at);
    expect(await kinds()).toEqual(["part_of_day evening"]);
  });
});
