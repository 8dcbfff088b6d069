/**
 * A review the clock made missed — placed on Sunday evening, the week rolled on on Monday — asked to move ("move the
 * matrix review to Friday 19:00", "把矩阵复习移到周五晚上7点") was answered "I found no placed task matching "matrix
 * review", and you have no placed tasks": the plan looked for the name among the pending and placed reviews alone,
 * though the review is there, missed and without a place. It is now put where the student says (the place card, as
 * for a pending review), or refused with that place's own reason.
 */
import { describe, expect, test } from "vitest";
import { sampleWeek, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

/** The sample week, its timetable weekly, the matrix review on Sunday 17 March 19:00–20:40 (slots 9-10). */
function sundayEvening(): ScheduleState {
  const week = sampleWeek({ weekly: true });
  week.tasks = week.tasks.map((task) =>
    task.id === "matrix-review"
      ? ({ ...task, status: "placed", slots: [{ day: 7, start: 9, end: 10 }] } as TaskItem)
      : task,
  );
  return week;
}

/** Monday 18 March 2024, 09:00 in Shanghai: the window rolls to 18–24 March, the Sunday review is missed. */
const NEXT_MONDAY = new Date("2024-03-18T09:00:00+08:00").toISOString();

async function moved(request: string) {
  const tempo = await offlineTempo(sundayEvening());
  const outcome = await converse(tempo, request, [], undefined, "student", { now: NEXT_MONDAY });
  const review = outcome.schedule.tasks.find((task) => task.id === "matrix-review") as TaskItem;
  return { outcome, review, days: outcome.schedule.window.days.map((day) => day.date) };
}

describe("a missed review moved to a named time", () => {
  test.each([
    ["move the matrix review to Friday 19:00", "on Fri 22 Mar, 19:00–20:40"],
    ["把矩阵复习移到周五晚上7点", "3月22日周五 19:00–20:40"],
  ])("%s: placed there in the new week", async (request, place) => {
    const { outcome, review, days } = await moved(request);
    expect(days[0]).toBe("2024-03-18");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "place"]);
    expect(outcome.cards[1]?.args).toEqual({ task_id: "matrix-review", day: 5, slot_start: 9 });
    expect(review).toMatchObject({ status: "placed", slots: [{ day: 5, start: 9, end: 10 }] });
    expect(outcome.finalAnswer).toContain(place);
  });

  test("a time taken says by what, and the review stays missed", async () => {
    const { outcome, review } = await moved("move the matrix review to Friday 16:00");
    expect(outcome.finalAnswer).toMatch(/overlaps "Physics lab"/);
    expect(review.status).toBe("missed");
    expect(review.slots).toBeUndefined();
  });
});
