/**
 * What memory keeps is dated by the run's clock (`configurable.now`, else the graph's), as everything else a run does
 * is: a preference stated in a message or said on a card, the answer to a question, the conversation's summary and the
 * task's episode are dated
 * the moment the student said them, so /prefs lists "I prefer mornings" on the day of the week being lived — never on
 * the machine's date, which under an injected clock (tests, replays, the terminal's --now) is another day altogether.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { expect, test } from "vitest";
import { conversationMemory, type Episode } from "../../memory/long-term.js";
import { episodesNamespace } from "../../memory/namespaces.js";
import { loadPreferences, renderPreferenceList } from "../../memory/preferences.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "../graph/support/offline-conversation.js";

/** Tuesday of the sample week: the run's now, given as `configurable.now` (the graph's own clock is another moment). */
const TUESDAY = "2024-03-12T09:30:00.000Z";

test("preferences, the conversation and the episode are dated by configurable.now", async () => {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(sampleWeek(), undefined, { store });
  const now = { now: TUESDAY };
  await converse(tempo, "I prefer mornings", [], "t-said", "student", now);
  await converse(
    tempo,
    "Arrange my reviews",
    (card) =>
      card.action !== "confirm_plan" && card.args.day === 3
        ? { type: "response", args: "never on Wednesday" }
        : { type: "accept", args: null },
    "t-card",
    "student",
    now,
  );
  // A question's answer is dated too (the task's user replies).
  await converse(
    tempo,
    "I did the flux capacitor review",
    (card) =>
      card.action === "ask_user" ? { type: "response", args: "matrix review" } : { type: "accept", args: null },
    "t-asked",
    "student",
    now,
  );
  const asked = await tempo.graph.getState({ configurable: { thread_id: "t-asked", user_id: "student" } });
  const replies = (asked.values as { userReplies: Array<{ answer: string; at: string }> }).userReplies;
  expect(replies.map((reply) => reply.answer)).toEqual(["matrix review"]);
  expect(replies.map((reply) => reply.at)).toEqual([TUESDAY]);

  const profile = await loadPreferences(store, "student");
  expect(profile.map((entry) => entry.text).sort()).toEqual(["I prefer mornings", "never on Wednesday"]);
  expect(profile.map((entry) => entry.createdAt)).toEqual([TUESDAY, TUESDAY]);
  expect(renderPreferenceList(profile)).toContain(
    "I prefer mornings — stated in a message (thread t-said), 2024-03-12",
  );

  for (const thread of ["t-said", "t-card", "t-asked"]) {
    const entries = await conversationMemory(store, "student", thread);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.map((entry) => entry.createdAt)).toEqual(entries.map(() => TUESDAY));
  }
  const episodes = (await store.search(episodesNamespace("student"), { limit: 10 })).map(
    (item) => item.value as unknown as Episode,
  );
  expect(episodes.length).toBeGreaterThan(0);
  expect(episodes.map((episode) => episode.createdAt)).toEqual(episodes.map(() => TUESDAY));
});
