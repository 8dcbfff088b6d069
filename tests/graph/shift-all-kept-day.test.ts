/**
 * "Push all my reviews back a day" when the day after a review is one a standing preference keeps free ("never on
 * Sunday"): the review stays, and the reply says the preferences keep that day free, and how to lift one — not "no free time fits it on
 * Sun 17 Mar", which was false (Sunday is free after the library's morning). The single move said so already; this is
 * the batch of every review (its search for any day says which days the preferences left out). Through the graph with the offline policy, in English and Chinese.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { applyPreferenceChange } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

/** `ask` on the half-placed week, every card accepted, by a user who said `said` before (nothing when empty). */
async function shifted(said: string, ask: string) {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(halfPlacedWeek(), undefined, { store });
  if (said)
    await applyPreferenceChange(store, "student", readSchedulePreferences(said), "stated", "2026-01-05T10:00:00.000Z");
  return converse(tempo, ask, [], "t-1");
}

describe("every review pushed a day later, onto a Sunday a preference keeps free", () => {
  test("without the preference, the essay goes to Sunday: there is room there", async () => {
    const week = halfPlacedWeek();
    // Sunday holds the library 08:00-11:40 (slots 1-4) and nothing after; the essay sits on Saturday's slots 1-2.
    const sunday = week.tasks.filter((task) => task.slots?.some((range) => range.day === 7));
    expect(sunday.flatMap((task) => task.slots!.map((range) => `${range.start}-${range.end}`))).toEqual(["1-4"]);
    expect(placeOf(week, "essay-draft")).toBe("day 6 slots 1-2");
    const outcome = await shifted("", "push all my reviews back a day");
    expect(placeOf(outcome.schedule, "essay-draft")).toMatch(/^day 7 /);
  });

  test.each([
    [
      "never on Sunday",
      "push all my reviews back a day",
      /"Draft the English essay" stays on Sat 16 Mar, 08:00–09:40: your standing preferences keep Sun 17 Mar free \(\/prefs lists them, \/forget removes one\)\./,
    ],
    [
      "我周日从不学习",
      "把所有复习往后推一天",
      /“Draft the English essay”保留在3月16日周六 08:00–09:40：你的长期偏好让3月17日周日空着（\/prefs 查看偏好，\/forget 删除一条）。/,
    ],
  ])("'%s', then '%s': the essay stays, told why by the preference", async (said, ask, told) => {
    const outcome = await shifted(said, ask);
    const all = [...outcome.said, outcome.finalAnswer ?? ""].join("\n");
    expect(all).toMatch(told);
    expect(all).not.toMatch(/no free time|没有能容纳|day 7/);
    // The final report says the same in the request's language.
    expect(outcome.finalAnswer ?? "").toMatch(/keep Sun 17 Mar free|让3月17日周日空着/);
    expect(placeOf(outcome.schedule, "essay-draft")).toBe("day 6 slots 1-2");
    // The others moved a day later, as before.
    expect(placeOf(outcome.schedule, "review-limits")).toMatch(/^day 2 /);
    expect(placeOf(outcome.schedule, "matrix-review")).toMatch(/^day 3 /);
    expect(placeOf(outcome.schedule, "vocabulary-list")).toMatch(/^day 5 /);
  });
});
