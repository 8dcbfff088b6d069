/**
 * An hour of the night as the last ("nothing after 01:00") from the memory model, or in a profile stored before it was
 * guarded: a review is placed within its own day, by midnight, so such a rule would keep every review off the week.
 * The offline reader reads no such hour (night-hours.test.ts); a model may still give one. It is never stored — the
 * rest of the model's change is, and the memory says why it was not — and one a profile already holds is read as no
 * limit: "帮我安排复习" places what it places with nothing said, and /prefs marks the entry as not applied (still
 * listed, so /forget reaches it). Before, the model's was stored, and either left no review placed.
 */
import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { loadPreferences, preferenceId, preferencePromptLines } from "../../memory/preferences.js";
import { preferencesNamespace } from "../../memory/namespaces.js";
import type { PreferenceRule } from "../../contracts/preferences.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { json, scripted, threadConfig } from "../support/scripted.js";
import { converse, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

/** Where "帮我安排复习" places the reviews of the sample week with nothing said. */
async function placedWithNothingSaid(): Promise<string[]> {
  const tempo = await offlineTempo(sampleWeek(), undefined, { store: new InMemoryStore() });
  return reviewPlaces((await converse(tempo, "帮我安排复习", [], "t-0")).schedule);
}

describe("a model's hour of the night as the last", () => {
  test("is never stored, the rest of its change is, the memory says why, and the week is arranged", async () => {
    const store = new InMemoryStore();
    const memory = scripted([
      json({
        preferences: [
          { kind: "not_after_hour", value: 1, text: "no studying after 1am", source_index: 1 },
          { kind: "avoid_day", value: 7, text: "never on Sunday", source_index: 1 },
        ],
        lifted: [],
      }),
    ]);
    const tempo = await offlineTempo(sampleWeek(), undefined, { store, memory });
    const config = threadConfig("t-1", "student");
    const statuses: string[] = [];
    const stream = await tempo.graph.stream(
      { messages: [new HumanMessage("I never study on Sundays, and no studying after 1am")] },
      { ...config, streamMode: "custom" },
    );
    for await (const event of stream as AsyncIterable<{ kind: string; text?: string }>)
      if (event.kind === "status" && event.text) statuses.push(event.text);
    expect(memory.callCount).toBe(1);
    const rules = (await loadPreferences(store, "student")).map(({ kind, value }) => `${kind} ${String(value)}`);
    expect(rules).toEqual(["avoid_day 7"]);
    expect(statuses).toContain(
      'Not remembered as a standing preference: "no studying after 1am" — reviews are only placed within a day, ending by midnight at the latest, so an hour of the night (01:00-05:00) as the last would keep every review off the week. To stop earlier in the evening, say the hour: "no studying after 11pm".',
    );
    const places = reviewPlaces((await converse(tempo, "帮我安排复习", [], "t-2")).schedule);
    expect(places.length).toBeGreaterThan(0);
  });
});

describe("a profile that already holds one, stored before", () => {
  test("is read as no limit: the week is arranged as with nothing said; /prefs and the prompt mark it not applied", async () => {
    const store = new InMemoryStore();
    const rule: PreferenceRule = { kind: "not_after_hour", value: 1 };
    const id = preferenceId(rule);
    await store.put(preferencesNamespace("student"), id, {
      ...rule,
      id,
      text: "nothing after 01:00",
      source: "stated in a message (thread t-old)",
      createdAt: "2026-01-05T10:00:00.000Z",
    });
    const tempo = await offlineTempo(sampleWeek(), undefined, { store });
    const nothing = await placedWithNothingSaid();
    expect(nothing.length).toBeGreaterThan(0);
    expect(reviewPlaces((await converse(tempo, "帮我安排复习", [], "t-1")).schedule)).toEqual(nothing);
    const listed = (await converse(tempo, "/prefs", [], "t-2")).said.at(-1) ?? "";
    expect(listed).toContain(
      `1. nothing after 01:00 — stated in a message (thread t-old), 2026-01-05 [${id}] (not applied: `,
    );
    expect(preferencePromptLines(await loadPreferences(store, "student"))).toEqual([
      "- nothing after 01:00 (not applied: the tools keep no such hour)",
    ]);
    // Still reachable: /forget removes it.
    const forgot = await converse(tempo, "/forget 1", [], "t-2");
    expect(forgot.said.at(-1)).toContain("nothing after 01:00");
    expect(await loadPreferences(store, "student")).toEqual([]);
  });
});
