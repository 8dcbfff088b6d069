/**
 * Where in the week a student says a move goes, and which day is no good: "move the vocabulary list to the end of the
 * week" (Friday to Sunday), "to Friday or Saturday", "to Saturday, Friday is full", "把单词表挪到周末，周五排满了"; and
 * "clear my Thursday" / "free up my Thursday", which take the day's reviews off as "clear Thursday" does. Before, the
 * end of the week was no place at all (the review moved to Wednesday), a move to two days went to the first of them
 * however full, "Friday is full" named Friday as the day to use, and "clear my Friday" looked for a task named
 * "friday". The stored week is the oracle: the review lands on one of the days said and nowhere else, and every other
 * review stays where it was.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: the vocabulary review (Thursday 08:00) is still ahead. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");

/** The half-placed sample week with Friday (day 5) taken whole by a locked event: no review fits there. */
function fullFriday(chinese = false): ScheduleState {
  const week = halfPlacedWeek({ chinese });
  const event = week.tasks.find((task) => task.source === "event" && task.slots?.length === 1)!;
  const day = {
    ...event,
    id: "friday-fair",
    name: "Career fair",
    locked: true,
    slots: [{ day: 5, start: 1, end: 12 }],
  };
  return {
    ...week,
    tasks: [...week.tasks.filter((task) => task.source !== "event" || task.slots?.[0]?.day !== 5), day],
  };
}

const placeOf = (week: ScheduleState, id: string) => (week.tasks.find((task) => task.id === id) as TaskItem).slots;

/** Each review but the vocabulary list where it was. */
function othersStayed(before: ScheduleState, after: ScheduleState) {
  for (const task of before.tasks.filter((each) => each.source === "task_item" && each.id !== "vocabulary-list"))
    expect({ id: task.id, slots: placeOf(after, task.id) }).toEqual({ id: task.id, slots: placeOf(before, task.id) });
}

describe("a move to a stretch of the week, or to one of several days", () => {
  test.each([
    ["move the vocabulary list to the end of the week", [5, 6, 7], halfPlacedWeek],
    ["move the vocabulary list to later in the week", [5, 6, 7], halfPlacedWeek],
    ["move the vocabulary list to Friday or Saturday", [6], () => fullFriday()],
    ["move the vocabulary list to the end of the week", [6, 7], () => fullFriday()],
    ["move the vocabulary list to Saturday, Friday is full", [6], halfPlacedWeek],
    ["move the vocabulary list to Sunday, Friday's packed", [7], halfPlacedWeek],
    ["把单词表挪到周五或周六", [6], () => fullFriday(true)],
    ["把单词表挪到周六，周五排满了", [6], () => halfPlacedWeek({ chinese: true })],
  ])("%s: it lands on one of days %j", async (request, days, weekOf) => {
    const week = weekOf();
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const day = placeOf(outcome.schedule, "vocabulary-list")?.[0]?.day;
    expect({ request, day, said: days.includes(day ?? 0) }).toEqual({ request, day, said: true });
    othersStayed(week, outcome.schedule);
  });

  test("the plan names every day of the stretch, so the step may use any", async () => {
    const outcome = await converse(
      await offlineTempo(halfPlacedWeek(), WEDNESDAY),
      "move the vocabulary list to the end of the week",
    );
    expect(outcome.planSteps).toEqual([
      'Move "vocabulary list" to Friday, Mar 15 or Saturday, Mar 16 or Sunday, Mar 17',
    ]);
  });
});

describe("a day cleared, said with 'my'", () => {
  test.each(["clear my Thursday", "free up my Thursday", "clear out Thursday", "empty my Thursday"])(
    "%s: Thursday's review is taken off, pending again; the rest stay",
    async (request) => {
      const week = halfPlacedWeek();
      const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
      expect(outcome.planSteps).toEqual(["Unplace every review placed on Thursday, Mar 14"]);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "unplace"]);
      const vocabulary = outcome.schedule.tasks.find((task) => task.id === "vocabulary-list") as TaskItem;
      expect({ status: vocabulary.status, slots: vocabulary.slots }).toEqual({ status: "pending", slots: undefined });
      othersStayed(week, outcome.schedule);
    },
  );
});
