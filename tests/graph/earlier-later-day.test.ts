/**
 * A day before or after the task's own: "move the essay to an earlier day", "… to a later day", "… earlier in the
 * week", "把作文挪到更早的一天". Before, "to an earlier day" was read as anywhere (the essay, on Saturday, could go to
 * Sunday) and "earlier in the week" as part of the task's name; and "to another day in the evening" kept the task's own
 * day. The stored week is the oracle: the task lands on a day on that side of its own, or, from the schedule's first
 * (last) day, nothing moves and the answer says there is no day that way.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import {
  converse,
  halfPlacedWeek,
  HALF_PLACED,
  offlineTempo,
  SAMPLE_WEEK_EVE,
} from "./support/offline-conversation.js";

const isChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);
/** Wednesday 13 March 2024, 10:00 in Shanghai: Monday and Tuesday have passed. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");

function placed(outcome: { schedule: { tasks: unknown[] } }, id: string) {
  return (outcome.schedule.tasks as TaskItem[]).find((task) => task.id === id)!.slots![0]!;
}

describe("a day before or after the task's own", () => {
  test.each([
    ["move the essay to an earlier day", "essay-draft", "earlier"],
    ["move the essay earlier in the week", "essay-draft", "earlier"],
    ["push the matrix review to some earlier day", "matrix-review", "earlier"],
    ["move the essay to a later day", "essay-draft", "later"],
    ["把作文挪到更早的一天", "essay-draft", "earlier"],
    ["把矩阵复习改到更晚的一天", "matrix-review", "later"],
  ] as const)("%s, said on the eve: %s lands on a day %s than its own", async (request, id, way) => {
    const week = halfPlacedWeek({ chinese: isChinese(request) });
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const own = HALF_PLACED[id]![0];
    const day = placed(outcome, id).day;
    expect(way === "earlier" ? day < own : day > own).toBe(true);
  });

  test("earlier in the week, said on Wednesday: a day from today on, before the essay's Saturday", async () => {
    const outcome = await converse(
      await offlineTempo(halfPlacedWeek(), WEDNESDAY),
      "move the essay earlier in the week",
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    const { day, start } = placed(outcome, "essay-draft");
    expect(day >= 3 && day < 6).toBe(true);
    // Not before the clock: Wednesday's slots from 10:55 on (slot 4).
    expect(day > 3 || start >= 4).toBe(true);
  });

  test.each([
    ["move the essay earlier in the week, in the evening", (day: number) => day < 6],
    ["move the essay to another day in the evening", (day: number) => day !== 6],
  ])("%s: another day's evening, not the essay's own day", async (request, dayFits) => {
    const outcome = await converse(await offlineTempo(halfPlacedWeek(), () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    const { day, start } = placed(outcome, "essay-draft");
    expect(dayFits(day)).toBe(true);
    expect(start).toBeGreaterThanOrEqual(9);
  });

  test.each([
    [
      "move the limits review to an earlier day",
      /"Review limits and continuity" is on Mon 11 Mar, 14:00–15:40, the first day of your schedule: there is no earlier day/,
    ],
    ["把极限复习挪到更早的一天", /"极限与连续复习" 在3月11日周一 14:00–15:40，已经是日程的第一天，没有更早的一天/],
  ])("%s: from the first day there is none, so nothing moves and the answer says why", async (request, said) => {
    const week = halfPlacedWeek({ chinese: isChinese(request) });
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(said);
    expect(outcome.finalAnswer).not.toMatch(/days is empty/);
    expect(outcome.schedule).toEqual(week);
  });

  /** The half-placed week with the matrix review moved to Thursday 16:00, beside the vocabulary list's 08:00. */
  function twoOnThursday(chinese = false): ScheduleState {
    const week = halfPlacedWeek({ chinese });
    week.tasks = week.tasks.map((task) =>
      task.id === "matrix-review" ? ({ ...task, slots: [{ day: 4, start: 7, end: 8 }] } as TaskItem) : task,
    );
    return week;
  }

  test.each([
    ["move all my Thursday reviews to an earlier day", "earlier"],
    ["move Thursday's reviews to a later day", "later"],
    ["把周四的所有复习挪到更早的一天", "earlier"],
  ] as const)("%s: every one of them lands on a day %s than Thursday", async (request, way) => {
    const week = twoOnThursday(isChinese(request));
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    for (const id of ["matrix-review", "vocabulary-list"]) {
      const day = placed(outcome, id).day;
      expect(way === "earlier" ? day < 4 : day > 4).toBe(true);
    }
    // The others stay where they were.
    expect(placed(outcome, "essay-draft")).toEqual(placed({ schedule: week }, "essay-draft"));
  });

  test("all of Monday's reviews to an earlier day: none is left that way, so none moves and the answer says why", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, () => SAMPLE_WEEK_EVE),
      "move all my Monday reviews to an earlier day",
    );
    expect(outcome.schedule).toEqual(week);
    expect(outcome.said.join("\n")).toMatch(/there is no earlier day/);
  });

  test("later in the week is still the end of the week, and a day earlier still a shift by one day", () => {
    expect(parseScheduleRequest("move the essay later in the week")).toMatchObject({
      kind: "move",
      task: "essay",
      where: { only: { weekdays: [5, 6, 7] } },
    });
    expect(parseScheduleRequest("move the essay later in the week")).not.toHaveProperty("dayward");
    expect(parseScheduleRequest("move the essay a day earlier")).toMatchObject({ shift: { days: -1 } });
  });
});
