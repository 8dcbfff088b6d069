/**
 * The standing-preference profile (issue 31 item 3): the schedule's offline reader tells standing preferences from
 * one-off wishes; the profile in the store is deduplicated, a contradiction replaces, a lift removes, removal by number
 * or id; one user's profile is never another's; the memory model extracts when configured; the prompt block is
 * bounded; the fact extractor keeps short Chinese facts and statements that do not start with I/my; an episode's
 * lessons hold each lesson once.
 */
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { MAX_PREFERENCE_SENTENCES, readSchedulePreferences } from "../../tools/schedule/preferences.js";
import {
  applyPreferenceChange,
  loadPreferences,
  mergePreferences,
  MAX_PREFERENCES,
  removePreference,
  renderPreferenceList,
} from "../../memory/preferences.js";
import { preferencesNamespace } from "../../memory/namespaces.js";
import { extractUserFacts, taskEpisode } from "../../memory/invocation-summary.js";
import { preferencesContext, PREFERENCES_TAG } from "../../memory/prompt-memory.js";
import { nothingRecalled } from "../../kernel/state.js";
import type { Preference, PreferenceChange } from "../../contracts/preferences.js";
import { preferenceSources, rememberPreferences } from "../../nodes/preference-extraction.js";
import type { NodeDependencies } from "../../nodes/shared/dependencies.js";
import { createScheduleDomain, InMemoryScheduleRepository } from "../../tools/schedule/index.js";
import { estimateCounter } from "../../memory/tokens.js";
import { json, scripted } from "../support/scripted.js";

const NOW = "2026-01-05T10:00:00.000Z";
const later = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();

describe("the offline reader: standing preferences, not one-off wishes", () => {
  test.each([
    ["never on Monday", [{ kind: "avoid_day", value: 1 }]],
    ["I never study on Mondays", [{ kind: "avoid_day", value: 1 }]],
    ["don't ever put anything on Sunday", [{ kind: "avoid_day", value: 7 }]],
    ["我从不在周一学习", [{ kind: "avoid_day", value: 1 }]],
    ["我周一从不学习", [{ kind: "avoid_day", value: 1 }]],
    ["周一从来不复习", [{ kind: "avoid_day", value: 1 }]],
    ["以后周五都不学习", [{ kind: "avoid_day", value: 5 }]],
    ["always keep Saturday free", [{ kind: "avoid_day", value: 6 }]],
    ["Sundays always stay free", [{ kind: "avoid_day", value: 7 }]],
    ["以后周日都空出来", [{ kind: "avoid_day", value: 7 }]],
    ["I prefer mornings", [{ kind: "part_of_day", value: "morning" }]],
    ["我喜欢晚上复习", [{ kind: "part_of_day", value: "evening" }]],
    ["only in the evening from now on", [{ kind: "only_part_of_day", value: "evening" }]],
    ["always only on weekends", [{ kind: "only_days", value: [6, 7] }]],
    ["never before 10", [{ kind: "not_before_hour", value: 10 }]],
    // "Nothing before" an hour, as "nothing after" one (before, not read; "10pm" was 10:00, and "晚上10点" no evening).
    ["nothing before 22:00", [{ kind: "not_before_hour", value: 22 }]],
    ["nothing before 10pm", [{ kind: "not_before_hour", value: 22 }]],
    ["no reviews before 10pm", [{ kind: "not_before_hour", value: 22 }]],
    ["22点之前不要", [{ kind: "not_before_hour", value: 22 }]],
    ["22点以前不要", [{ kind: "not_before_hour", value: 22 }]],
    ["晚上10点之前不要", [{ kind: "not_before_hour", value: 22 }]],
    // A habit said with "can't" or "don't", as "no studying" is (before, none of these was read).
    ["I don't study before 9am", [{ kind: "not_before_hour", value: 9 }]],
    ["I can't study before 9", [{ kind: "not_before_hour", value: 9 }]],
    ["I can't study after 11pm", [{ kind: "not_after_hour", value: 23 }]],
    ["don't study after 10pm", [{ kind: "not_after_hour", value: 22 }]],
    ["I can't study on Mondays", [{ kind: "avoid_day", value: 1 }]],
    // The hour in Chinese numerals, as in digits (before, none was read: "早上十点以前不要" kept the mornings out,
    // "晚上十点之前不要" the evenings).
    ["十点以前不要", [{ kind: "not_before_hour", value: 10 }]],
    ["早上十点以前不要", [{ kind: "not_before_hour", value: 10 }]],
    ["晚上十点之前不要", [{ kind: "not_before_hour", value: 22 }]],
    ["我上午十点以前从不学习", [{ kind: "not_before_hour", value: 10 }]],
  ])("%s is a standing preference", (text, rules) => {
    const change = readSchedulePreferences(text);
    expect(change.add.map(({ kind, value }) => ({ kind, value }))).toEqual(rules);
    expect(change.add[0]!.text).toBe(text);
    expect(change.lift).toEqual([]);
  });

  test.each([
    ["我周一从不学习，帮我安排复习", "我周一从不学习"],
    ["I never study on Mondays, so arrange my reviews", "I never study on Mondays"],
  ])("%s keeps the words that state the preference: %s", (text, words) => {
    expect(readSchedulePreferences(text).add.map((entry) => entry.text)).toEqual([words]);
  });

  test("'never on Monday, Tuesday or Friday' rules out all three days", () => {
    expect(
      readSchedulePreferences("never on Monday, Tuesday or Friday").add.map(({ kind, value }) => ({ kind, value })),
    ).toEqual([1, 2, 5].map((value) => ({ kind: "avoid_day", value })));
  });

  test.each([
    "Saturday instead",
    "never schedule linear algebra on Monday",
    "never put calculus on Friday",
    "微积分以后只在上午",
    "I'd prefer Saturday instead",
    "周一不行",
    "not this one",
    "later in the day",
    "I like the plan",
    // "Not before" an hour is a one-off wish, as "not after 9pm" and "not Monday" are — the words of a card's feedback;
    // and an hour an arrangement is asked with is its own limit ("arrange my reviews, not before 10" is one).
    "not before 22",
    "not after 9pm",
    "arrange my reviews, nothing before 10:00",
    "帮我安排复习，10点以前不要",
    "arrange my reviews, nothing after 9pm",
    "move the essay to friday, nothing after 9pm",
  ])("%s is no standing preference", (text) => {
    expect(readSchedulePreferences(text)).toEqual({ add: [], lift: [] });
  });

  test.each([
    ["Mondays are fine now", [{ kind: "avoid_day", value: 1 }]],
    ["周一现在可以了", [{ kind: "avoid_day", value: 1 }]],
  ])("%s takes a preference back", (text, lifted) => {
    expect(readSchedulePreferences(text)).toEqual({ add: [], lift: lifted });
  });

  test("a message of thousands of sentences: each said once is read once, and only the first hundred are read", () => {
    // Each sentence is read as a request is: 33 000 sentences of "从不" held the event loop for 1.9 s before (the
    // bench, bench/hostile-text.ts, times a card answered so). The limit on this test is the symptom's bound.
    const repeated = readSchedulePreferences("never on Monday. ".repeat(6_000) + "从不\n".repeat(30_000));
    expect(repeated.add.map(({ kind, value }) => ({ kind, value }))).toEqual([{ kind: "avoid_day", value: 1 }]);
    const notes = Array.from({ length: MAX_PREFERENCE_SENTENCES - 1 }, (_, index) => `Note ${index + 1}.`).join(" ");
    expect(readSchedulePreferences(`${notes} Never on Friday.`).add.map(({ value }) => value)).toEqual([5]);
    expect(readSchedulePreferences(`${notes} Note 100. Never on Friday.`)).toEqual({ add: [], lift: [] });
  }, 10_000);
});

describe("the profile", () => {
  const change = (text: string): PreferenceChange => readSchedulePreferences(text);

  test("the same meaning twice is one entry (one id), whatever the words", () => {
    const first = mergePreferences([], change("never on Monday"), "card feedback on place", NOW);
    const second = mergePreferences(first.profile, change("I never study on Mondays"), "stated in a message", later(1));
    expect(second.profile).toHaveLength(1);
    expect(second.added).toEqual([]);
    expect(second.profile[0]).toMatchObject({
      kind: "avoid_day",
      value: 1,
      text: "never on Monday",
      source: "card feedback on place",
      createdAt: NOW,
    });
  });

  test("a contradicting preference replaces the old one; a lift removes it", () => {
    let profile = mergePreferences([], change("never on Saturday"), "s", NOW).profile;
    profile = mergePreferences(profile, change("I prefer mornings"), "s", later(1)).profile;
    const weekends = mergePreferences(profile, change("always only on weekends"), "s", later(2));
    expect(weekends.removed.map((entry) => entry.text)).toEqual(["never on Saturday"]);
    const evenings = mergePreferences(weekends.profile, change("我喜欢晚上复习"), "s", later(3));
    expect(evenings.removed.map((entry) => entry.text)).toEqual(["I prefer mornings"]);
    expect(evenings.profile.map((entry) => entry.kind)).toEqual(["only_days", "part_of_day"]);
    const monday = mergePreferences(
      mergePreferences([], change("never on Monday"), "s", NOW).profile,
      change("Mondays are fine now"),
      "s",
      later(1),
    );
    expect(monday.profile).toEqual([]);
    expect(monday.removed.map((entry) => entry.text)).toEqual(["never on Monday"]);
  });

  test(`bounded: past ${MAX_PREFERENCES} entries the oldest go first`, () => {
    let profile: Preference[] = [];
    for (let index = 0; index < MAX_PREFERENCES + 3; index += 1) {
      profile = mergePreferences(
        profile,
        { add: [{ kind: "note", value: `note ${index}`, text: `note ${index}` }], lift: [] },
        "s",
        later(index),
      ).profile;
    }
    expect(profile).toHaveLength(MAX_PREFERENCES);
    expect(profile[0]!.text).toBe("note 3");
  });

  test("in the store: listed oldest first, removed by number or id, an unknown one is PREFERENCE_NOT_FOUND; another user's profile is apart", async () => {
    const store = new InMemoryStore();
    await applyPreferenceChange(store, "alice", change("never on Monday"), "card feedback on place (thread t-1)", NOW);
    await applyPreferenceChange(
      store,
      "alice",
      change("I prefer mornings"),
      "stated in a message (thread t-1)",
      later(1),
    );
    await applyPreferenceChange(
      store,
      "alice",
      change("never before 10"),
      "stated in a message (thread t-2)",
      later(2),
    );
    const profile = await loadPreferences(store, "alice");
    expect(profile.map((entry) => entry.text)).toEqual(["never on Monday", "I prefer mornings", "never before 10"]);
    expect(renderPreferenceList(profile)).toContain(
      "1. never on Monday — card feedback on place (thread t-1), 2026-01-05",
    );
    // Bob sees nothing of Alice's, and cannot remove her entries through his own profile.
    expect(await loadPreferences(store, "bob")).toEqual([]);
    await expect(removePreference(store, "bob", profile[0]!.id)).rejects.toMatchObject({
      code: "PREFERENCE_NOT_FOUND",
    });
    expect((await store.search(preferencesNamespace("alice"))).length).toBe(3);

    expect((await removePreference(store, "alice", "2")).text).toBe("I prefer mornings");
    expect((await removePreference(store, "alice", profile[2]!.id)).text).toBe("never before 10");
    await expect(removePreference(store, "alice", "5")).rejects.toMatchObject({
      code: "PREFERENCE_NOT_FOUND",
      message: expect.stringContaining("1-1"),
    });
    expect((await loadPreferences(store, "alice")).map((entry) => entry.text)).toEqual(["never on Monday"]);
  });

  test("an entry the rules cannot read (written through the store API) is left out, never breaking a run", async () => {
    const store = new InMemoryStore();
    await store.put(preferencesNamespace("alice"), "bad-1", {
      id: "bad-1",
      kind: "only_days",
      value: "weekends",
      text: "x",
      createdAt: NOW,
    });
    await store.put(preferencesNamespace("alice"), "bad-2", {
      id: "bad-2",
      kind: "avoid_day",
      value: 1,
      text: "no createdAt",
    });
    await store.put(preferencesNamespace("alice"), "bad-3", {
      kind: "teleport",
      value: 1,
      text: "?",
      id: "bad-3",
      createdAt: NOW,
    });
    await applyPreferenceChange(store, "alice", change("never on Monday"), "s", NOW);
    expect((await loadPreferences(store, "alice")).map((entry) => entry.text)).toEqual(["never on Monday"]);
  });
});

describe("extraction from an invocation", () => {
  const domain = createScheduleDomain({ repository: new InMemoryScheduleRepository() });
  const invocation = [
    new HumanMessage("Arrange my reviews. I prefer mornings."),
    new HumanMessage("I reject this plan. Feedback: never before 10"),
    new AIMessage({
      content: "",
      tool_calls: [{ id: "call-1", name: "place", args: { task_id: "a", day: 1, slot_start: 1 } }],
    }),
    new ToolMessage({
      tool_call_id: "call-1",
      name: "place",
      content: "Not applied: the user rejected this change. Their feedback: never on Monday",
      artifact: { outcome: "declined" },
    }),
    new ToolMessage({
      tool_call_id: "call-2",
      name: "place",
      content: "Not applied: the user rejected this change. Their feedback: Saturday instead",
      artifact: { outcome: "declined" },
    }),
  ];

  test("messages and card feedback are the sources, each saying where it came from", () => {
    expect(preferenceSources(invocation, "t-9")).toEqual([
      {
        text: "Arrange my reviews. I prefer mornings.",
        origin: { kind: "message" },
        source: "stated in a message (thread t-9)",
      },
      {
        text: "never before 10",
        origin: { kind: "card_feedback", tool: "the plan" },
        source: "card feedback on the plan (thread t-9)",
      },
      {
        text: "never on Monday",
        origin: { kind: "card_feedback", tool: "place" },
        source: "card feedback on place (thread t-9)",
      },
      {
        text: "Saturday instead",
        origin: { kind: "card_feedback", tool: "place" },
        source: "card feedback on place (thread t-9)",
      },
    ]);
  });

  test("offline: the domain's reader; the one-off 'Saturday instead' adds nothing", async () => {
    const store = new InMemoryStore();
    const dependencies = { models: { default: scripted([]) }, domain } as unknown as NodeDependencies;
    await rememberPreferences(store, "student", preferenceSources(invocation, "t-9"), dependencies, {}, NOW);
    const stored = (await loadPreferences(store, "student")).map(({ kind, value, source }) => ({
      kind,
      value,
      source,
    }));
    expect(stored.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "avoid_day", value: 1, source: "card feedback on place (thread t-9)" },
      { kind: "not_before_hour", value: 10, source: "card feedback on the plan (thread t-9)" },
      { kind: "part_of_day", value: "morning", source: "stated in a message (thread t-9)" },
    ]);
  });

  test("with a memory model: the model extracts (its reading, not the offline one), each entry from the text it names; a text with no lasting word costs no call", async () => {
    const store = new InMemoryStore();
    const memory = scripted([
      json({
        preferences: [
          { kind: "avoid_day", value: 1, text: "never Mondays", source_index: 3 },
          { kind: "note", value: "short sessions", text: "short sessions", source_index: 1 },
          { kind: "avoid_day", value: 9, text: "bad day" },
        ],
        lifted: [],
      }),
    ]);
    const dependencies = { models: { default: scripted([]), memory }, domain } as unknown as NodeDependencies;
    await rememberPreferences(store, "student", preferenceSources(invocation, "t-9"), dependencies, {}, NOW);
    const stored = (await loadPreferences(store, "student")).map(({ kind, value, text, source }) => ({
      kind,
      value,
      text,
      source,
    }));
    expect(stored.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "avoid_day", value: 1, text: "never Mondays", source: "card feedback on place (thread t-9)" },
      { kind: "note", value: "short sessions", text: "short sessions", source: "stated in a message (thread t-9)" },
    ]);
    await rememberPreferences(
      store,
      "student",
      [{ text: "Saturday instead", origin: { kind: "card_feedback", tool: "place" }, source: "x" }],
      dependencies,
      {},
      NOW,
    );
    expect(memory.callCount).toBe(1);
  });

  test("from the run's thread, by the memory model and by the offline reader alike; a run naming no thread keeps none", async () => {
    const read = async (memory: ReturnType<typeof scripted> | undefined, config: object) => {
      const store = new InMemoryStore();
      const models = memory ? { default: scripted([]), memory } : { default: scripted([]) };
      const dependencies = { models, domain } as unknown as NodeDependencies;
      await rememberPreferences(store, "student", preferenceSources(invocation, "t-9"), dependencies, config, NOW);
      return (await loadPreferences(store, "student")).map(({ kind, from }) => ({ kind, from }));
    };
    const model = () =>
      scripted([
        json({
          preferences: [
            { kind: "avoid_day", value: 1, text: "never Mondays", source_index: 3 },
            { kind: "part_of_day", value: "morning", text: "I prefer mornings", source_index: 1 },
          ],
          lifted: [],
        }),
      ]);
    const thread = { configurable: { thread_id: "t-9" } };
    const byModel = await read(model(), thread);
    expect(byModel).toEqual(
      expect.arrayContaining([
        { kind: "avoid_day", from: { kind: "card_feedback", tool: "place", threadId: "t-9" } },
        { kind: "part_of_day", from: { kind: "message", threadId: "t-9" } },
      ]),
    );
    expect(byModel).toHaveLength(2);
    const offline = await read(undefined, thread);
    expect(offline.find((entry) => entry.kind === "not_before_hour")?.from).toEqual({
      kind: "card_feedback",
      tool: "the plan",
      threadId: "t-9",
    });
    expect((await read(model(), {})).every((entry) => entry.from === undefined)).toBe(true);
  });
});

describe("the prompt block", () => {
  test("every entry, hard or soft, within its budget: the newest stay", () => {
    let profile: Preference[] = [];
    profile = mergePreferences(profile, readSchedulePreferences("never on Monday"), "s", NOW).profile;
    profile = mergePreferences(profile, readSchedulePreferences("I prefer mornings"), "s", later(1)).profile;
    const block = preferencesContext({ ...nothingRecalled(), preferences: profile }, 500)[PREFERENCES_TAG]!;
    expect(block).toContain("Your standing preferences");
    expect(block).toContain("- never on Monday (hard: the tools refuse otherwise)");
    expect(block).toContain("- I prefer mornings → rather in the morning (soft)");
    const tight = preferencesContext({ ...nothingRecalled(), preferences: profile }, estimateCounter.count(block) - 5)[
      PREFERENCES_TAG
    ]!;
    expect(tight).not.toContain("never on Monday");
    expect(tight).toContain("I prefer mornings");
    expect(preferencesContext(nothingRecalled(), 500)).toEqual({});
  });
});

describe("the fact extractor and episode lessons (issue 31)", () => {
  test("short Chinese facts and statements not starting with I/my are kept; questions are not facts", () => {
    expect(
      extractUserFacts([
        "我喜欢晚上复习",
        "Mornings work best for me.",
        "Never on Monday",
        "What do I have on Monday?",
        "Hello there",
      ]),
    ).toEqual(["我喜欢晚上复习", "Mornings work best for me", "Never on Monday"]);
  });

  test("an episode's lessons hold each lesson once", () => {
    const rejection = () =>
      new ToolMessage({
        tool_call_id: `c-${Math.random()}`,
        name: "place",
        content: "Not applied: the user rejected this change. Their feedback: never on Monday",
        artifact: { outcome: "declined" },
      });
    const episode = taskEpisode(
      { goal: "Arrange", planSteps: [], finalAnswer: "done", lastError: null, outcome: null },
      [rejection(), rejection(), rejection(), rejection(), rejection()],
      NOW,
    );
    expect(episode.lessons).toEqual(["the user rejected this change. Their feedback: never on Monday"]);
  });
});
