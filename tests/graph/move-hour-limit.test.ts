/**
 * A move said with an hour nothing goes after, in a habit's words ("move the essay to tomorrow, no studying after
 * 9pm"), dropped the hour: the move went where it would without it (past 21:00). Now the hour is the move's own time
 * limit, carried as "arrange my reviews, not after 9pm" carries it (`where.slots.endsBy`): the move keeps to it, and
 * no standing preference is kept from it ("move the essay to friday, no reviews after 9pm" kept one for Fridays).
 * Through the reader and through the graph on the crowded-Monday week.
 */
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { loadPreferences } from "../../memory/preferences.js";
import { readSchedulePreferences } from "../../tools/schedule/preferences.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, crowdedMondayWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

describe("the reader", () => {
  test.each([
    ["move the essay to tomorrow, no studying after 9pm", "move the essay to tomorrow, not after 9pm"],
    ["move the essay to tomorrow, I don't study after 9pm", "move the essay to tomorrow, not after 9pm"],
    ["move the essay to friday, no reviews after 9pm", "move the essay to friday, not after 9pm"],
    ["arrange my reviews, no studying after 9pm", "arrange my reviews, not after 9pm"],
  ])("'%s' is read as '%s'", (said, twin) => {
    const request = parseScheduleRequest(said);
    expect(request).toEqual(parseScheduleRequest(twin));
    expect("where" in request && request.where.slots.endsBy).toBe("21:00");
  });

  test.each(["move the essay to tomorrow, no studying after 9pm", "move the essay to friday, no reviews after 9pm"])(
    "'%s' is the move's own limit, no standing preference",
    (said) => {
      expect(readSchedulePreferences(said)).toEqual({ add: [], lift: [] });
    },
  );
});

describe("through the graph", () => {
  test.each([
    ["move the derivative practice to thursday evening, no studying after 9pm"],
    ["move the derivative practice to tuesday evening, no studying after 9pm"],
    ["move the derivative practice to tomorrow, no studying after 9pm"],
  ])("'%s' moves as its 'not after 9pm' twin does", async (said) => {
    const twin = said.replace("no studying after 9pm", "not after 9pm");
    const store = new InMemoryStore();
    const moved = await converse(await offlineTempo(crowdedMondayWeek(), undefined, { store }), said, [], "t-1");
    const limited = await converse(await offlineTempo(crowdedMondayWeek()), twin, [], "t-1");
    expect(moved.planSteps).toEqual(limited.planSteps);
    expect(placeOf(moved.schedule, "derivative-drills")).toBe(placeOf(limited.schedule, "derivative-drills"));
    expect(await loadPreferences(store, "student")).toEqual([]);
  });

  test("Thursday evening's only free time ends past 21:00: the review stays where it is", async () => {
    const week = crowdedMondayWeek();
    const before = placeOf(week, "derivative-drills");
    // Without the hour it goes to Thursday 20:50–21:35 (slot 11).
    const free = await converse(
      await offlineTempo(crowdedMondayWeek()),
      "move the derivative practice to thursday evening",
    );
    expect(placeOf(free.schedule, "derivative-drills")).toBe("day 4 slots 11-11");
    const kept = await converse(
      await offlineTempo(week),
      "move the derivative practice to thursday evening, no studying after 9pm",
    );
    expect(placeOf(kept.schedule, "derivative-drills")).toBe(before);
    expect(kept.said.at(-1)).toMatch(/unchanged/);
  });

  test("Tuesday evening has room before 21:00: the review moves there", async () => {
    const moved = await converse(
      await offlineTempo(crowdedMondayWeek()),
      "move the derivative practice to tuesday evening, no studying after 9pm",
    );
    expect(placeOf(moved.schedule, "derivative-drills")).toBe("day 2 slots 9-9");
  });
});
