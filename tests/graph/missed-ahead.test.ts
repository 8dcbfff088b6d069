/**
 * "I didn't do the essay" said before the essay's time: a review is missed once its time has come, so one still ahead
 * is not marked missed (and moved) — it is said to be ahead, with its place, with no card (not even the plan's: the
 * overview's placed reviews carry their places, so the planner knows), and the week is unchanged. The clock
 * moves day by day across the half-placed week; the oracle reads each review's start from the stored week's dates and
 * slot times alone (no policy or tool code) and compares it with the run's clock.
 */
import { describe, expect, test } from "vitest";
import type { ScheduleState, TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Where a review starts, as the stored week says it: "2024-03-13T19:00:00+08:00" (the sample week is in Shanghai). */
function startOf(week: ScheduleState, id: string): string {
  const task = week.tasks.find((each) => each.id === id) as TaskItem;
  const range = task.slots![0]!;
  const date = week.window.days.find((day) => day.dayIndex === range.day)!.date!;
  return `${date}T${week.window.slotTimes![range.start - 1]!.start}:00+08:00`;
}

/** Each day of the sample week at 12:00 in Shanghai. */
const NOONS = [11, 12, 13, 14, 15, 16, 17].map((day) => `2024-03-${day}T12:00:00+08:00`);

describe("a review is missed once its time has come, the clock moving day by day", () => {
  test("each placed review, each noon: marked missed only once it has begun; one still ahead is said so, unchanged", async () => {
    const week = halfPlacedWeek();
    const placed = week.tasks.filter(
      (task): task is TaskItem => task.source === "task_item" && task.status === "placed",
    );
    expect(placed.length).toBe(4);
    let ahead = 0;
    let begun = 0;
    for (const now of NOONS)
      for (const review of placed) {
        const tempo = await offlineTempo(halfPlacedWeek(), () => new Date(now));
        // The new place a missed review is proposed at is declined: the mark alone is under test.
        const outcome = await converse(
          tempo,
          `I didn't do the ${review.name.toLowerCase()}`,
          (card) => (card.action === "place" ? { type: "response", args: "no" } : { type: "accept", args: null }),
          undefined,
          "student",
          { now },
        );
        const after = outcome.schedule.tasks.find((task) => task.id === review.id) as TaskItem;
        const hasBegun = new Date(startOf(week, review.id)).getTime() <= new Date(now).getTime();
        const at = `${review.name} at ${now}`;
        if (hasBegun) {
          begun += 1;
          expect(
            outcome.cards.map((card) => card.action),
            at,
          ).toContain("mark_missed");
          expect(after.status, at).toBe("missed");
        } else {
          ahead += 1;
          // No card at all: nothing is missed yet, so there is no plan to approve either.
          expect(
            outcome.cards.map((card) => card.action),
            at,
          ).toEqual([]);
          expect(after, at).toEqual(review);
          expect(outcome.finalAnswer, at).toContain("still ahead, so it cannot be marked missed yet");
          // Every line said shows the place as a person reads it, never as the tools write it ("day 6 slots 1-2").
          expect(outcome.said.join("\n"), at).not.toMatch(/\bday \d+ slots \d+-\d+/);
          // Said once: not as the step's note and again in the answer.
          expect(outcome.said.filter((line) => line.includes("cannot be marked missed yet")).length, at).toBe(1);
        }
      }
    // Both sides were seen.
    expect(ahead).toBeGreaterThan(3);
    expect(begun).toBeGreaterThan(3);
  });

  test("said in Chinese, of a review still ahead: its place and what to do, no card", async () => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }), () => new Date(NOONS[1]!));
    const outcome = await converse(tempo, "我没做英语作文草稿");
    // Not even the plan's card (it once asked to approve a plan that could do nothing).
    expect(outcome.cards.map((card) => card.action)).toEqual([]);
    expect(outcome.finalAnswer).toContain(
      '"英语作文草稿" 安排在3月16日周六 08:00–09:40，时间还没到，还不能记为错过（这周不做的话，可以跳过它）',
    );
    expect(outcome.said.filter((line) => line.includes("还不能记为错过")).length).toBe(1);
  });
});
