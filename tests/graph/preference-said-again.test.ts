/**
 * A standing preference said again ("I never study on Sundays" twice, or "我周日不学习" after "I don't study on
 * Sundays"): the memory keeps one copy, but the reply said "Noted as a standing preference" each time, as if a second
 * rule were kept. Now a preference every rule of which is held already is said to be kept as it was, in the user's
 * language, and the profile holds one rule; one that adds a rule beside a held one is noted as before.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { expect, test } from "vitest";
import { loadPreferences } from "../../memory/preferences.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const NOTED = /^Noted as a standing preference/;

test.each([
  [
    "I never study on Sundays",
    "I never study on Sundays",
    /^You have told me this before: your standing preferences already keep "never on Sunday", so nothing new was noted/,
  ],
  ["I don't study on Sundays", "我周日不学习", /^这条长期偏好之前已经记下了：“我周日不学习”，没有重复记录/],
  [
    "我晚上从不复习",
    "no reviews in the evening",
    /^You have told me this before: your standing preferences already keep "never in the evening"/,
  ],
])("%s, then %s: told it is kept already; one rule stored", async (first, again, told) => {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  const stated = await converse(tempo, first, [], "t-1");
  expect(stated.said.at(-1)).toMatch(/^Noted as a standing preference|^记下了这条长期偏好/);
  const before = await loadPreferences(store, "student");
  expect(before).toHaveLength(1);
  const repeated = await converse(tempo, again, [], "t-2");
  expect(repeated.said.at(-1)).toMatch(told);
  expect(repeated.cards).toEqual([]);
  expect(await loadPreferences(store, "student")).toEqual(before);
});

test("a preference that adds a rule beside one held is noted, and both are kept once", async () => {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  await converse(tempo, "I never study on Sundays", [], "t-1");
  const more = await converse(tempo, "I never study in the evenings and never on Sundays", [], "t-2");
  expect(more.said.at(-1)).toMatch(NOTED);
  const kinds = (await loadPreferences(store, "student")).map(({ kind, value }) => `${kind} ${String(value)}`);
  expect(kinds.sort()).toEqual(["avoid_day 7", "avoid_part_of_day evening"]);
});
