/**
 * The offline policy's day answers keep to the window's own time zone, whatever zone the run names
 * (`configurable.time_zone`: the prompt's now line is written in it). The window's dates, slot times and clock rule are
 * in its zone (Asia/Shanghai for the sample week): at 00:30 on Tuesday in Shanghai it is still Monday in UTC, and
 * "today" is the window's Tuesday; at 12:30 on Monday in Shanghai it is 17:30 in Auckland, and Monday's 14:00 review
 * has not started.
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

/** The run's configuration: `now` (an instant with its offset) and the zone the run names. */
const run = (now: string, timeZone: string) => ({ now: new Date(now).toISOString(), time_zone: timeZone });

/** Accept the plan, decline every write (the answer then names what the card held). */
const declineWrites = (card: { action: string }) =>
  card.action === "confirm_plan" ? { type: "accept", args: null } : { type: "ignore", args: null };

describe("day words in the window's zone, not the run's", () => {
  // Tue 12 Mar 00:30 in Shanghai = Mon 11 Mar 16:30 UTC.
  const pastMidnight = run("2024-03-12T00:30:00+08:00", "UTC");

  test.each([
    ["what's on today?", "Tue 12 Mar"],
    ["what's on tomorrow?", "Wed 13 Mar"],
  ])("%s just past midnight in the window is its new day", async (message, day) => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const answer = await converse(tempo, message, [], undefined, "student", pastMidnight);
    expect(answer.finalAnswer).toMatch(new RegExp(`^${day}, 08:00–22:30:`));
  });

  test("skip today proposes the window's today (Tuesday's review), not Monday's", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const answer = await converse(tempo, "skip today", declineWrites, undefined, "student", pastMidnight);
    expect(answer.cards.map((card) => card.action)).toEqual(["confirm_plan", "skip"]);
    expect(answer.cards[1]?.args).toEqual({ task_id: "matrix-review" });
    expect(answer.planSteps.join("\n")).toMatch(/Tuesday, Mar 12/);
  });

  test("clear tomorrow is the window's Wednesday: nothing placed there", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const answer = await converse(tempo, "clear tomorrow", declineWrites, undefined, "student", pastMidnight);
    // Nothing to approve: no plan card.
    expect(answer.cards.map((card) => card.action)).toEqual([]);
    expect(answer.finalAnswer).toMatch(/no review is placed on Wed 13 Mar/);
    expect(placeOf(answer.schedule, "matrix-review")).toBe("day 2 slots 3-4");
  });

  test("a review still ahead in the window's clock is not taken as started by the run's zone", async () => {
    // Mon 11 Mar 12:30 in Shanghai = 17:30 in Auckland: the limits review (Monday 14:00) has not started.
    const tempo = await offlineTempo(halfPlacedWeek());
    const answer = await converse(
      tempo,
      "skip today",
      [],
      undefined,
      "student",
      run("2024-03-11T12:30:00+08:00", "Pacific/Auckland"),
    );
    expect(answer.cards.map((card) => card.action)).toEqual(["confirm_plan", "skip"]);
    expect(answer.cards[1]?.args).toEqual({ task_id: "review-limits" });
    expect(answer.finalAnswer).not.toMatch(/has started/);
    expect(answer.schedule.tasks.find((task) => task.id === "review-limits")).toMatchObject({ status: "skipped" });
  });
});
