/**
 * "Move Monday evening's reviews to Tuesday" moved every review of Monday, the afternoon's too: the part of the day
 * that named them was dropped. A part of the day now narrows a move of a day's reviews to those that begin in it (the
 * day's slots in thirds: morning, afternoon, evening); the others stay where they are. The oracle is the stored week:
 * which reviews began in the part named, by their slots, and where each is after — no policy code.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, crowdedMondayWeek, offlineTempo } from "./support/offline-conversation.js";

const placed = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed");

/** True when a review begins in the day's last third of slots (the evening), on `day`. */
function inEveningOf(week: ScheduleState, task: TaskItem, day: number): boolean {
  const perDay = week.window.slotsPerDay;
  const range = task.slots![0]!;
  return range.day === day && range.start > perDay - Math.round(perDay / 3);
}

/** When a placed review starts, as the stored week says it (the sample week is in Shanghai). */
function startOf(week: ScheduleState, task: TaskItem): number {
  const range = task.slots![0]!;
  const date = week.window.days.find((day) => day.dayIndex === range.day)!.date!;
  return new Date(`${date}T${week.window.slotTimes![range.start - 1]!.start}:00+08:00`).getTime();
}

async function asked(request: string, now: string) {
  const week = crowdedMondayWeek();
  const tempo = await offlineTempo(week, () => new Date(now));
  const outcome = await converse(tempo, request, [], undefined, "student", { now });
  expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  const after = (id: string) => outcome.schedule.tasks.find((task) => task.id === id) as TaskItem;
  return { week, outcome, after };
}

describe("a day's reviews of one part of the day, moved together", () => {
  test.each([
    "move Monday evening's reviews to Tuesday",
    "push Monday evening's reviews back a day",
    "把周一晚上的所有复习推迟1天",
    "把周一晚上的复习都移到周二",
  ])("%s: Monday evening's reviews are on Tuesday, every other review where it was", async (request) => {
    const { week, outcome, after } = await asked(request, "2024-03-10T20:00:00+08:00");
    const evening = placed(week).filter((task) => inEveningOf(week, task, 1));
    // The crowded Monday holds reviews in the afternoon and the evening: both sides are seen.
    expect(evening.length).toBeGreaterThan(1);
    expect(placed(week).some((task) => task.slots![0]!.day === 1 && !inEveningOf(week, task, 1))).toBe(true);
    for (const task of placed(week)) {
      if (evening.includes(task)) expect(after(task.id).slots![0]!.day, task.id).toBe(2);
      else expect(after(task.id), task.id).toEqual(task);
    }
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "batch_move"]);
  });

  test.each(["2024-03-11T08:00:00+08:00", "2024-03-11T19:30:00+08:00"])(
    "'push tonight's reviews back an hour' at %s: this evening's reviews still ahead move the same day or are named",
    async (now) => {
      const { week, outcome, after } = await asked("push tonight's reviews back an hour", now);
      const tonight = placed(week).filter(
        (task) => inEveningOf(week, task, 1) && startOf(week, task) > new Date(now).getTime(),
      );
      expect(tonight.length).toBeGreaterThan(0);
      for (const task of placed(week)) {
        const was = task.slots![0]!;
        const is = after(task.id).slots![0]!;
        if (!tonight.includes(task)) {
          // Not tonight's, or begun: where it was, and not named as staying either.
          expect(after(task.id), task.id).toEqual(task);
          expect(outcome.finalAnswer, task.id).not.toContain(`"${task.name}" stays`);
        } else if (is.start === was.start && is.day === was.day)
          expect(outcome.finalAnswer, task.id).toContain(`"${task.name}" stays`);
        else {
          expect(is.day, task.id).toBe(was.day);
          expect(startOf(week, after(task.id)), task.id).toBeGreaterThan(startOf(week, task));
        }
      }
    },
  );

  // "This afternoon's reviews" read as the day "this afternoon" named, so no review was: a move of one named so.
  test.each([
    ["push this afternoon's reviews back an hour", "afternoon"],
    ["push this evening's reviews back an hour", "evening"],
  ] as const)(
    "%s on Monday at 08:00: that part's reviews move later the same day or are named",
    async (request, part) => {
      const { week, outcome, after } = await asked(request, "2024-03-11T08:00:00+08:00");
      const perDay = week.window.slotsPerDay;
      const third = Math.round(perDay / 3);
      const inPart = (task: TaskItem) => {
        const range = task.slots![0]!;
        return (
          range.day === 1 &&
          (part === "afternoon" ? range.start > third && range.start <= 2 * third : range.start > 2 * third)
        );
      };
      const chosen = placed(week).filter(inPart);
      expect(chosen.length).toBeGreaterThan(0);
      // One card when any moves; none when every one stays (each named).
      const moved = chosen.filter((task) => after(task.id).slots![0]!.start !== task.slots![0]!.start);
      expect(outcome.cards.map((card) => card.action)).toEqual(
        moved.length > 0 ? ["confirm_plan", "batch_move"] : ["confirm_plan"],
      );
      for (const task of placed(week)) {
        const was = task.slots![0]!;
        const is = after(task.id).slots![0]!;
        if (!chosen.includes(task)) expect(after(task.id), task.id).toEqual(task);
        else if (is.start === was.start) expect(outcome.finalAnswer, task.id).toContain(`"${task.name}" stays`);
        else {
          expect(is.day, task.id).toBe(was.day);
          expect(startOf(week, after(task.id)), task.id).toBeGreaterThan(startOf(week, task));
        }
      }
    },
  );

  test.each([
    ["move Monday evening's reviews to Tuesday", { weekday: 1, part: "evening" }],
    ["push Monday afternoon's reviews back an hour", { weekday: 1, part: "afternoon", minutes: 60 }],
    ["把周一晚上的所有复习推迟1天", { weekday: 1, part: "evening", days: 1 }],
    ["push tonight's reviews back an hour", { fromToday: 0, part: "evening", minutes: 60 }],
    ["push this morning's reviews back an hour", { fromToday: 0, part: "morning", minutes: 60 }],
    ["move this afternoon's reviews to another day", { fromToday: 0, part: "afternoon", away: "day" }],
    ["把今早的复习都推迟一小时", { fromToday: 0, part: "morning", minutes: 60 }],
  ])("%s reads the part of the day", (request, expected) => {
    expect(parseScheduleRequest(request)).toMatchObject({ kind: "shift_all", ...expected });
  });

  test("a day's reviews without a part are every one of the day", () => {
    expect(parseScheduleRequest("move Monday's reviews to Tuesday")).not.toHaveProperty("part");
  });
});
