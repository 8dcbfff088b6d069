/**
 * An hour of the night as the last ("nothing after 01:00") from the memory model: a review is placed within its own
 * day, by midnight, so such a rule would keep every review off the week. The offline reader reads no such hour
 * (night-hours.test.ts); a model may still give one. It is never stored — the rest of the model's change is, and the
 * memory says why it was not. Before, it was stored, and "帮我安排复习" then placed no review.
 */
import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { loadPreferences } from "../../memory/preferences.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { json, scripted, threadConfig } from "../support/scripted.js";
import { converse, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

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
