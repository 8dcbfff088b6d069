/**
 * "Move my reviews off Thursday and Friday", "I'm busy Thursday, Friday and Saturday, move my reviews",
 * "把周四和周五的所有复习挪到别的天", "push Thursday's and Friday's reviews back a day": the reviews of every day named
 * move, on one card. Before, a second day was dropped without a word ("把周四和周五的所有复习挪到别的天" moved only
 * Thursday's, and the essay could land on Friday), or the words read as a move of one review named "reviews", which
 * asked which review of the whole week was meant. The stored week is the oracle: each review of those days still ahead
 * is on none of them after (or, for a part of the day, in that part of none of them), every other review is where it
 * was, and the week's invariants hold.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, oneBatchOnHalfPlacedWeek } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: Thursday's and Saturday's reviews are still ahead. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");

/** The sample week's days: Monday 11 March is day 1. Each part of the day is 4 of its 12 slots. */
const MORNING = { from: 1, to: 4 };

const placed = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed");

describe("the reviews of several days moved off them", () => {
  test.each([
    ["move my reviews off Thursday and Friday", [4, 5], "Move all of Thursday's and Friday's reviews to another day"],
    [
      "I'm busy Thursday, Friday and Saturday, move my reviews",
      [4, 5, 6],
      "Move all of Thursday's, Friday's and Saturday's reviews to another day",
    ],
    [
      "I'm busy Thursday, Friday, move my reviews",
      [4, 5],
      "Move all of Thursday's and Friday's reviews to another day",
    ],
    [
      "move Thursday and Saturday's reviews to other days",
      [4, 6],
      "Move all of Thursday's and Saturday's reviews to another day",
    ],
    ["move my reviews off the weekend", [6, 7], "Move all of Saturday's and Sunday's reviews to another day"],
    [
      "I'm busy today and tomorrow, move my reviews",
      [3, 4],
      "Move all of Wednesday's and Thursday's reviews to another day",
    ],
    ["把周四和周六的所有复习挪到别的天", [4, 6], "把周四和周六的所有复习挪到别的天"],
    ["周四周六我有事，把复习都挪走", [4, 6], "把周四和周六的所有复习挪到别的天"],
  ])("%s: every review of those days lands on none of them", async (request, days, step) => {
    const { week, outcome } = await oneBatchOnHalfPlacedWeek(request, WEDNESDAY, step);
    let moved = 0;
    for (const task of placed(week)) {
      const now = outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem;
      if (days.includes(task.slots![0]!.day)) {
        moved += 1;
        expect({ id: task.id, day: now.slots?.[0]?.day, named: days.includes(now.slots?.[0]?.day ?? 0) }).toEqual({
          id: task.id,
          day: now.slots?.[0]?.day,
          named: false,
        });
      } else expect({ id: task.id, slots: now.slots }).toEqual({ id: task.id, slots: task.slots });
    }
    expect(moved).toBeGreaterThan(0);
  });

  test.each([
    [
      "move my reviews off Thursday and Saturday morning",
      "Move all of Thursday morning's and Saturday morning's reviews out of Thursday and Saturday morning",
    ],
    ["把周四和周六上午的所有复习挪出周四和周六上午", "把周四和周六上午的所有复习挪出周四和周六上午"],
  ])("%s: out of that part of both days, in that part of neither", async (request, step) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
    expect(outcome.planSteps).toEqual([step]);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    // Thursday's vocabulary review (08:00) and Saturday's essay (08:00) both begin in the morning.
    for (const id of ["vocabulary-list", "essay-draft"]) {
      const now = (outcome.schedule.tasks.find((each) => each.id === id) as TaskItem).slots![0]!;
      const inMorning = [4, 6].includes(now.day) && now.start <= MORNING.to && now.end >= MORNING.from;
      expect({ id, now, inMorning }).toEqual({ id, now, inMorning: false });
    }
    for (const id of ["review-limits", "matrix-review"])
      expect(outcome.schedule.tasks.find((each) => each.id === id)!.slots).toEqual(
        week.tasks.find((each) => each.id === id)!.slots,
      );
  });

  test("two days' reviews pushed back a day: each a day later, the others where they were", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, WEDNESDAY),
      "push Thursday's and Saturday's reviews back a day",
    );
    expect(outcome.planSteps).toEqual(["Push all of Thursday's and Saturday's reviews 1 day later"]);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const dayOf = (id: string) => (outcome.schedule.tasks.find((each) => each.id === id) as TaskItem).slots![0]!.day;
    expect([dayOf("vocabulary-list"), dayOf("essay-draft"), dayOf("review-limits"), dayOf("matrix-review")]).toEqual([
      5, 7, 1, 2,
    ]);
  });

  test.each([
    [
      "move Thursday's and Saturday's reviews to Sunday",
      ["Push all of Thursday's reviews 3 days later", "Push all of Saturday's reviews 1 day later"],
    ],
    ["把周四和周六的所有复习挪到周日", ["把周四的所有复习往后推3天", "把周六的所有复习往后推1天"]],
    [
      "move my reviews from Thursday and Saturday to Sunday",
      ["Push all of Thursday's reviews 3 days later", "Push all of Saturday's reviews 1 day later"],
    ],
  ])("%s: each day's reviews to that day, by its own days (none dropped)", async (request, steps) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
    expect(outcome.planSteps).toEqual(steps);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "batch_move", "batch_move"]);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const dayOf = (id: string) => (outcome.schedule.tasks.find((each) => each.id === id) as TaskItem).slots![0]!.day;
    expect([dayOf("vocabulary-list"), dayOf("essay-draft"), dayOf("review-limits"), dayOf("matrix-review")]).toEqual([
      7, 7, 1, 2,
    ]);
  });

  // Read as said: every day named, none dropped ("the weekend" is both of its days, no place to go to).
  test.each([
    ["move all my reviews off the weekend", { weekday: 6, more: [{ weekday: 7 }], away: "day" }],
    ["把周四和周五的所有复习挪到别的天", { weekday: 4, more: [{ weekday: 5 }], away: "day" }],
    ["I'm busy Thursday, Friday and Saturday, move my reviews", { weekday: 4, more: [{ weekday: 5 }, { weekday: 6 }] }],
    ["I'm busy today and tomorrow, move my reviews", { fromToday: 0, more: [{ fromToday: 1 }], away: "day" }],
    [
      "move my reviews off Thursday and Friday morning",
      { weekday: 4, more: [{ weekday: 5 }], part: "morning", away: "part" },
    ],
    [
      "push Thursday and Friday evening's reviews back a day",
      { weekday: 4, more: [{ weekday: 5 }], part: "evening", days: 1 },
    ],
    ["push all of Thursday and Friday's reviews back an hour", { weekday: 4, more: [{ weekday: 5 }], minutes: 60 }],
  ])("%s reads every day it names", (request, expected) => {
    expect(parseScheduleRequest(request)).toMatchObject({ kind: "shift_all", ...expected });
  });

  test.each([
    // Two parts of the day: not one request over both days.
    "move all of Thursday morning's and Friday evening's reviews to another day",
    // A task's name with "and" in it stays the task's.
    "move the reading and writing review to another day",
  ])("%s is no shift of several days", (request) => {
    expect(parseScheduleRequest(request)).not.toHaveProperty("more");
  });
});
