/**
 * Days said as a stretch, as students say them: "Thursday or later", "no earlier than Thursday", "between Wednesday
 * and Friday", "周四到周六". Before, each read as its one or two named days ("Tuesday through Thursday" was Tuesday and
 * Thursday, "between Monday and Wednesday" named a task "reviews between"), and "from Wednesday on" ruled Wednesday
 * out. Now every day of the stretch is where the task may go, and no other; the stored week is the oracle.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, sampleWeek, type TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const accept = () => ({ type: "accept", args: null });
const EN_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const ZH_DAYS = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"];

describe("a stretch of days", () => {
  test.each([
    ["move the matrix review to Thursday or later", false, "matrix-review", [4, 5, 6, 7]],
    ["move the matrix review no earlier than Thursday", false, "matrix-review", [4, 5, 6, 7]],
    ["move the matrix review to Thursday through Saturday", false, "matrix-review", [4, 5, 6]],
    // (The essay is on Saturday; the matrix review, on Tuesday, would already be where this asks.)
    ["move the essay to Wednesday at the latest", false, "essay-draft", [1, 2, 3]],
    ["把矩阵运算复习移到周四到周六", true, "matrix-review", [4, 5, 6]],
  ] as const)("%s: it moves to a day of the stretch", async (message, chinese, id, stretch) => {
    const week = halfPlacedWeek({ chinese });
    const outcome = await converse(await offlineTempo(week), message, accept);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    // The plan's step names every day of the stretch (before, only the one or two said).
    const names = chinese ? ZH_DAYS : EN_DAYS;
    for (const day of [1, 2, 3, 4, 5, 6, 7])
      expect(outcome.planSteps[0]!.includes(names[day - 1]!)).toBe((stretch as readonly number[]).includes(day));
    const moved = outcome.schedule.tasks.find((task) => task.id === id) as TaskItem;
    expect(moved.slots).toHaveLength(1);
    expect(stretch).toContain(moved.slots![0]!.day);
    expect(moved.slots).not.toEqual((week.tasks.find((task) => task.id === id) as TaskItem).slots);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  });

  test("'arrange my reviews between Wednesday and Friday' places reviews on those days only", async () => {
    const week = sampleWeek();
    const outcome = await converse(await offlineTempo(week), "arrange my reviews between Wednesday and Friday", accept);
    const places = outcome.cards.filter((card) => card.action === "place");
    expect(places.length).toBeGreaterThan(0);
    for (const card of places) expect([3, 4, 5]).toContain(Number(card.args.day));
    const placed = outcome.schedule.tasks.filter(
      (task) =>
        task.source === "task_item" &&
        task.status === "placed" &&
        !week.tasks.some((was) => was.id === task.id && was.source === "task_item" && was.status === "placed"),
    );
    expect(placed.length).toBe(places.length);
    for (const task of placed) expect([3, 4, 5]).toContain(task.slots![0]!.day);
  });
  // Tuesday 12 March 2024, 09:00 in Shanghai: the matrix review is today at 10:00.
  const TUESDAY = () => new Date("2024-03-12T09:00:00+08:00");

  test.each([
    ["move the matrix review to any day after today", false],
    ["move the matrix review to tomorrow or later", false],
    ["move the matrix review no earlier than tomorrow", false],
    ["把矩阵运算复习移到明天或以后", true],
  ] as const)("%s (on a Tuesday): it moves to Wednesday or a day after", async (message, chinese) => {
    const week = halfPlacedWeek({ chinese });
    const outcome = await converse(await offlineTempo(week, TUESDAY), message, accept);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    const names = chinese ? ZH_DAYS : EN_DAYS;
    for (const day of [1, 2, 3, 4, 5, 6, 7]) expect(outcome.planSteps[0]!.includes(names[day - 1]!)).toBe(day >= 3);
    const moved = outcome.schedule.tasks.find((task) => task.id === "matrix-review") as TaskItem;
    expect(moved.slots![0]!.day).toBeGreaterThanOrEqual(3);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  });

  test.each([
    ["move the matrix review any day after today", "matrix-review"],
    ["schedule the linked list exercises any day after today", "linked-list-exercises"],
    ["put the linked list exercises sometime after today", "linked-list-exercises"],
  ] as const)("%s (on a Tuesday): 'any day' is of the stretch, not of the name", async (message, id) => {
    // Before, the words "any day" were read as the task's name ("matrix review any day"), which named no task.
    const outcome = await converse(await offlineTempo(halfPlacedWeek(), TUESDAY), message, accept);
    expect(outcome.cards.map((card) => card.action)).toEqual([
      "confirm_plan",
      id === "matrix-review" ? "move" : "place",
    ]);
    const task = outcome.schedule.tasks.find((each) => each.id === id) as TaskItem;
    expect(task.slots).toHaveLength(1);
    expect(task.slots![0]!.day).toBeGreaterThanOrEqual(3);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  });

  // On the eve of the week shown (Sunday 10 March, the default clock) a stretch from tomorrow or from Monday on is the
  // whole week: a review anywhere in it is already where it is asked to go.
  test.each([
    ["move the essay to tomorrow or later", false],
    ["move the essay to Monday or later", false],
    ["move the essay no earlier than tomorrow", false],
    ["把英语作文草稿移到明天或以后", true],
  ] as const)(
    "%s (on the eve, the essay on Saturday): it is already there, nothing moves",
    async (message, chinese) => {
      // Before, a move to every day of the week was a move to its first day: the essay went to Monday.
      const week = halfPlacedWeek({ chinese });
      const outcome = await converse(await offlineTempo(week), message, accept);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
      expect(outcome.schedule).toEqual(week);
      expect(outcome.finalAnswer).toMatch(chinese ? /已经在/ : /is already on Sat/);
    },
  );
});
