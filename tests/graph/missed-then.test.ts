/**
 * A missed review and where to put it, said at once: "I missed the matrix review, put it on Friday", "I missed
 * Tuesday's review, put it on Thursday afternoon", "我周二的复习没做，补到周六吧". Before, the place was read as the day of the
 * mark ("I missed … Friday": the review missed on Friday, which the matrix review never was) and the rest of the clause
 * as the task's name ("matrix review, put it"). Now the review is marked missed, then placed where the user said — not
 * at the candidates' best place. The oracle is the stored week and the timetable alone: the review ends placed on the
 * day said, within the part of the day said, on a start the week leaves free, and every other review is as it was.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: Tuesday's matrix review (day 2, slot 3) has passed. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");

/** The slots of `day` nothing but `id` holds in `week`: a start the oracle allows. */
function freeOf(week: ScheduleState, day: number, id: string): Set<number> {
  const taken = new Set<number>();
  for (const task of week.tasks)
    if (task.id !== id)
      for (const range of task.slots ?? [])
        if (range.day === day) for (let slot = range.start; slot <= range.end; slot += 1) taken.add(slot);
  return new Set(Array.from({ length: week.window.slotsPerDay }, (_, index) => index + 1).filter((s) => !taken.has(s)));
}

describe("a missed review and where to put it, said at once", () => {
  test.each([
    ["I missed the matrix review, put it on Friday", 5, [1, 12]],
    ["I missed the matrix review, can you move it to tomorrow", 4, [1, 12]],
    ["I didn't do the matrix review, do it on Friday instead", 5, [1, 12]],
    ["I missed Tuesday's review, put it on Thursday afternoon", 4, [5, 8]],
    ["我周二的复习没做，补到周六吧", 6, [1, 12]],
    ["我错过了矩阵复习，把它改到周五", 5, [1, 12]],
  ] as const)("%s: marked missed, then placed on day %i", async (request, day, [from, to]) => {
    const week = halfPlacedWeek({ chinese: /[\u3400-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "mark_missed", "place"]);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const review = outcome.schedule.tasks.find((task) => task.id === "matrix-review") as TaskItem;
    expect(review.status).toBe("placed");
    const [range] = review.slots ?? [];
    expect(review.slots).toHaveLength(1);
    expect(range!.day).toBe(day);
    expect(range!.start).toBeGreaterThanOrEqual(from);
    expect(range!.end).toBeLessThanOrEqual(to);
    const free = freeOf(week, day, "matrix-review");
    for (let slot = range!.start; slot <= range!.end; slot += 1) expect(free.has(slot)).toBe(true);
    for (const task of week.tasks.filter((each): each is TaskItem => each.source === "task_item"))
      if (task.id !== "matrix-review") {
        const now = outcome.schedule.tasks.find((each) => each.id === task.id) as TaskItem;
        expect({ id: task.id, status: now.status, slots: now.slots }).toEqual({
          id: task.id,
          status: task.status,
          slots: task.slots,
        });
      }
  });
});
