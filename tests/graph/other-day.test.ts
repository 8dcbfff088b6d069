/**
 * "Move the essay to another day" could move it to another time the same day: "another day" named no day, so the move
 * took any free place. It is now any day but the one the review is on. The oracle is the stored week: each placed
 * review, asked to move to another day, is on a different day after (or still where it was, said so), with the week's
 * invariants kept.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, crowdedMondayWeek, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The sample week's eve: every day of it ahead. */
const EVE = () => new Date("2024-03-10T20:00:00+08:00");

const placed = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed");

describe("a move to another day", () => {
  test.each([
    ["half placed", halfPlacedWeek],
    ["crowded Monday", crowdedMondayWeek],
  ] as const)(
    "every placed review of the %s week, asked to move to another day, is on another day",
    async (_, make) => {
      let moved = 0;
      for (const review of placed(make())) {
        const outcome = await converse(await offlineTempo(make(), EVE), `move "${review.name}" to another day`);
        expect(checkScheduleInvariants(outcome.schedule), review.id).toEqual([]);
        const after = outcome.schedule.tasks.find((task) => task.id === review.id) as TaskItem;
        if (after.slots?.[0]?.day === review.slots![0]!.day) {
          // Only by staying where it was, and saying why.
          expect(after.slots, review.id).toEqual(review.slots);
          expect(
            outcome.cards.map((card) => card.action),
            review.id,
          ).not.toContain("move");
        } else moved += 1;
      }
      expect(moved).toBeGreaterThan(2);
    },
  );

  test.each([
    ["move the essay to another day", "essay"],
    ["move the essay to a different day", "essay"],
    ["把作文换到别的天", "作文"],
    ["把作文挪到另一天", "作文"],
  ])("%s reads as another day", (request, task) => {
    expect(parseScheduleRequest(request)).toMatchObject({ kind: "move", task, otherDay: true });
  });

  test.each(["move the matrix review to another evening", "把矩阵运算复习挪到别的晚上"])(
    "%s: the evening of another day (before, the evening of its own day)",
    async (request) => {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
      const review = week.tasks.find((task) => task.id === "matrix-review") as TaskItem;
      const outcome = await converse(await offlineTempo(week, EVE), request);
      const after = outcome.schedule.tasks.find((task) => task.id === "matrix-review") as TaskItem;
      expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
      expect(after.slots?.[0]?.day).not.toBe(review.slots![0]!.day);
      expect(after.slots?.[0]?.start).toBeGreaterThanOrEqual(9);
    },
  );

  test.each(["move the essay somewhere else", "move the essay elsewhere"])("%s names the essay", (request) => {
    expect(parseScheduleRequest(request)).toMatchObject({ kind: "move", task: "essay" });
  });
});
