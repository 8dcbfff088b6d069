/**
 * "Swap Monday's and Tuesday's reviews", "swap tomorrow's review with Tuesday's", "把周一和周二的复习交换": a swap of the
 * reviews named by their days. Before, the words read as tasks named "monday's" and "tuesday's reviews", and the
 * planner asked which tasks were meant; a day said alone ("Monday's") was no task at all. The stored week is the
 * oracle: the two reviews trade places, and every other review stays where it was.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants } from "../../tools/schedule/index.js";
import { converse, crowdedMondayWeek, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: Monday's and Tuesday's reviews have passed, Thursday's is ahead. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");

describe("a swap of the reviews named by their days", () => {
  test.each([
    ["swap Monday's and Tuesday's reviews", 'Swap "monday\'s review" with "tuesday\'s reviews"'],
    ["swap Monday's review with Tuesday's", 'Swap "monday\'s review" with "tuesday\'s review"'],
    ["swap tomorrow's review with Tuesday's", 'Swap "monday\'s review" with "tuesday\'s review"'],
    ["把周一和周二的复习交换", '交换 "周一的复习" 和 "周二的复习"'],
  ])("%s, on the week's eve: Monday's and Tuesday's reviews trade places", async (request, step) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week), request);
    expect(outcome.planSteps).toEqual([step]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "swap"]);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    expect([placeOf(outcome.schedule, "review-limits"), placeOf(outcome.schedule, "matrix-review")]).toEqual([
      placeOf(week, "matrix-review"),
      placeOf(week, "review-limits"),
    ]);
    for (const id of ["vocabulary-list", "essay-draft"]) expect(placeOf(outcome.schedule, id)).toBe(placeOf(week, id));
  });

  test("a day that holds no review: nothing is swapped, and the day is named", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), "swap Thursday's review with Friday's");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(/no review is placed on Friday/);
    expect(outcome.schedule).toEqual(week);
  });

  test("a day that holds several reviews: nothing is swapped, and each is named to choose from", async () => {
    const week = crowdedMondayWeek();
    // The question waits for an answer; withdrawn, nothing is swapped.
    const outcome = await converse(await offlineTempo(week), "swap Monday's review with Thursday's", [
      { type: "accept", args: null },
      { type: "response", args: "never mind" },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "ask_user"]);
    const monday = week.tasks.filter((task) => task.source === "task_item" && task.slots?.[0]?.day === 1);
    expect(monday.length).toBeGreaterThan(1);
    const said = outcome.said.join("\n");
    expect(said).toMatch(new RegExp(`Monday holds ${monday.length} reviews`));
    for (const task of monday) expect(said).toContain(`(${task.id})`);
    expect(outcome.schedule).toEqual(week);
  });

  test.each([
    ["the limits review", "review-limits"],
    ["review-limits", "review-limits"],
  ])("a day that holds several reviews, answered %s: that one swaps with Thursday's", async (answer, id) => {
    const week = crowdedMondayWeek();
    const outcome = await converse(await offlineTempo(week), "swap Monday's review with Thursday's", [
      { type: "accept", args: null },
      { type: "response", args: answer },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "ask_user", "swap"]);
    expect(outcome.cards[2]?.args).toEqual({ first_task_id: id, second_task_id: "matrix-review" });
    const slotsOf = (schedule: typeof week, taskId: string) => schedule.tasks.find((task) => task.id === taskId)?.slots;
    expect(slotsOf(outcome.schedule, id)).toEqual(slotsOf(week, "matrix-review"));
    expect(slotsOf(outcome.schedule, "matrix-review")).toEqual(slotsOf(week, id));
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  });

  test("a day that holds several reviews, answered with none of them: nothing is swapped, and that is said", async () => {
    const week = crowdedMondayWeek();
    const outcome = await converse(await offlineTempo(week), "swap Monday's review with Thursday's", [
      { type: "accept", args: null },
      { type: "response", args: "the zebra notes" },
    ]);
    expect(outcome.finalAnswer).toMatch(/Monday holds 5 reviews; the swap needs one named/);
    expect(outcome.schedule).toEqual(week);
  });
});
