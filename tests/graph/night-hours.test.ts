/**
 * An hour of the night past the day's end said as one nothing goes after ("no studying after 1am", "凌晨2点以后不要学习")
 * is stored as nothing, and the reply says why: a review is placed within its day, by midnight, so nothing is ever
 * placed after such an hour. Before, "no studying after 1am" was stored as "nothing after 01:00", which left no slot
 * for any review ("帮我安排复习" placed none), and "凌晨2点以后不要学习" as "nothing after 14:00".
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { loadPreferences } from "../../memory/preferences.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

/** What `said` leaves in the memory, and where "帮我安排复习" then places the reviews. */
async function heldAndArranged(said: string | undefined) {
  const store = new InMemoryStore();
  const tempo = await offlineTempo(sampleWeek(), undefined, { store });
  const reply = said === undefined ? undefined : (await converse(tempo, said, [], "t-1")).said.at(-1);
  const rules = (await loadPreferences(store, "student")).map(({ kind, value }) => `${kind} ${value}`);
  return { reply, rules, places: reviewPlaces((await converse(tempo, "帮我安排复习", [], "t-2")).schedule) };
}

describe("an hour of the night past the day's end, through the graph", () => {
  test.each([
    ["no studying after 1am", 'nothing is placed "after 1am" anyway, and I noted nothing'],
    ["no studying after 1 a.m.", 'nothing is placed "after 1 a.m." anyway'],
    ["no studying after 2 at night", 'nothing is placed "after 2 at night" anyway'],
    ["凌晨2点以后不要学习", "所以“凌晨2点以后”本来就不会有安排，没有另外记下"],
    ["半夜2点以后不要学习", "所以“半夜2点以后”本来就不会有安排，没有另外记下"],
  ])("'%s' stores nothing, says why, and the week is arranged as with nothing said", async (said, why) => {
    const night = await heldAndArranged(said);
    expect(night.rules).toEqual([]);
    expect(night.reply).toContain(why);
    const nothing = await heldAndArranged(undefined);
    expect(nothing.places.length).toBeGreaterThan(0);
    expect(night.places).toEqual(nothing.places);
  });

  test("'no studying after 10 in the evening' is stored as 'no studying after 10pm' is: no evening kept out", async () => {
    const twin = await heldAndArranged("no studying after 10pm");
    expect(twin.rules).toEqual(["not_after_hour 22"]);
    const { reply: _reply, ...said } = await heldAndArranged("no studying after 10 in the evening");
    expect(said).toEqual({ rules: twin.rules, places: twin.places });
  });
});
