/**
 * The reviews from a time of the clock on: "push everything after 3pm back an hour", "move my reviews after 7pm on
 * Friday to Saturday", "把今天下午三点以后的复习都往后推一小时". Before, a task named "everything after 3pm" was sought
 * (and not found: the request was asked about, then dropped).
 *
 * Said with no day they are today's. Swept over every day of the half-placed sample week at 08:00, with three times
 * in English and in Chinese: the test works out on its own which reviews are meant (today's that start at or after the
 * time, by the week's slot times); those, and only those, may move, each later the same day, and every other review
 * stays where it was.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { checkScheduleInvariants, type ScheduleState } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

describe("reading: every review from a time on", () => {
  test.each([
    ["push everything after 3pm back an hour", { minutes: 60, fromToday: 0, startsFrom: "15:00" }],
    ["push my reviews after 3pm back an hour", { minutes: 60, fromToday: 0, startsFrom: "15:00" }],
    ["push all my reviews from 3pm onwards back an hour", { minutes: 60, fromToday: 0, startsFrom: "15:00" }],
    ["push everything from 15:00 on back 30 minutes", { minutes: 30, fromToday: 0, startsFrom: "15:00" }],
    ["push everything after 3pm tomorrow back 30 minutes", { minutes: 30, fromToday: 1, startsFrom: "15:00" }],
    ["push my reviews after 7pm on friday back an hour", { minutes: 60, weekday: 5, startsFrom: "19:00" }],
    ["push friday's reviews after 7 back a day", { days: 1, weekday: 5, startsFrom: "19:00" }],
    ["把今天三点以后的复习都往后推一小时", { minutes: 60, fromToday: 0, startsFrom: "15:00" }],
    ["把下午三点以后的复习都推迟一小时", { minutes: 60, fromToday: 0, startsFrom: "15:00" }],
    ["把三点以后的都往后推一小时", { minutes: 60, fromToday: 0, startsFrom: "15:00" }],
    ["把所有三点以后的复习推迟一小时", { minutes: 60, fromToday: 0, startsFrom: "15:00" }],
    // The part of the day said with its day: the time's half, and the day.
    ["把今晚8点以后的复习都推迟半小时", { minutes: 30, fromToday: 0, startsFrom: "20:00" }],
    ["把明晚8点以后的复习都推迟半小时", { minutes: 30, fromToday: 1, startsFrom: "20:00" }],
    ["把今天晚上8点以后的复习都推迟半小时", { minutes: 30, fromToday: 0, startsFrom: "20:00" }],
    ["push everything after 7 tonight back an hour", { minutes: 60, fromToday: 0, startsFrom: "19:00" }],
    // A weekday right after them with no "on" names them too (before, a task "reviews … friday back an hour").
    ["push my reviews after 7pm friday back an hour", { minutes: 60, weekday: 5, startsFrom: "19:00" }],
    ["push my reviews friday back an hour", { minutes: 60, weekday: 5 }],
    ["push everything friday back a day", { days: 1, weekday: 5 }],
  ])("'%s'", (said, read) => {
    expect(parseScheduleRequest(said)).toEqual({ kind: "shift_all", ...read });
  });

  test("to a day: 'move everything after 3pm to tomorrow' is today's reviews from 15:00 on", () => {
    expect(parseScheduleRequest("move everything after 3pm to tomorrow")).toMatchObject({
      kind: "shift_all",
      fromToday: 0,
      startsFrom: "15:00",
      to: { only: { dates: [{ kind: "offset", days: 1 }] } },
    });
  });

  test("the plan's step reads back as what it says", () => {
    expect(parseScheduleRequest("Push all of Monday's reviews from 15:00 on 60 minutes later")).toEqual({
      kind: "shift_all",
      minutes: 60,
      weekday: 1,
      startsFrom: "15:00",
    });
    expect(parseScheduleRequest("把周一15:00以后的所有复习往后推60分钟")).toEqual({
      kind: "shift_all",
      minutes: 60,
      weekday: 1,
      startsFrom: "15:00",
    });
  });

  test("a task's own name is still the task: 'push the essay after 3pm back an hour' is no shift of every review", () => {
    expect(parseScheduleRequest("push the essay after 3pm back an hour")).toMatchObject({ kind: "move" });
  });
});

const TIMES = [
  ["9am", "上午九点", "09:00"],
  ["1pm", "下午一点", "13:00"],
  ["3pm", "下午三点", "15:00"],
] as const;

/** Minutes of the day of "HH:MM". */
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));

/** Each placed review: id → [day, first slot, start time]. */
function placed(week: ScheduleState): Map<string, [number, number, string]> {
  const times = week.window.slotTimes!;
  return new Map(
    week.tasks
      .filter((task) => task.source === "task_item" && task.status === "placed")
      .map((task) => {
        const range = task.slots![0]!;
        return [task.id, [range.day, range.start, times[range.start - 1]!.start]] as const;
      }),
  );
}

describe("said to the agent on each day: only today's reviews from the time on move, each later that day", () => {
  const moved: string[] = [];
  test.each(
    [1, 2, 3, 4, 5, 6, 7].flatMap((today) =>
      TIMES.flatMap(([en, zh, at]) => [
        [`push everything after ${en} back an hour`, today, at] as const,
        [`把今天${zh}以后的复习都往后推一小时`, today, at] as const,
      ]),
    ),
  )("'%s' on day %i", async (said, today, at) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(said) });
    const now = () => new Date(`2024-03-${String(10 + today).padStart(2, "0")}T08:00:00+08:00`);
    const outcome = await converse(await offlineTempo(week, now), said);
    // One step, of today's reviews from that time on (the plan names today by its weekday).
    expect(outcome.planSteps).toHaveLength(1);
    expect(outcome.planSteps[0]).toContain(
      /[\u4e00-\u9fff]/.test(said) ? `${at}以后的所有复习` : `reviews from ${at} on`,
    );
    const before = placed(week);
    const after = placed(outcome.schedule);
    // The reviews meant, by the test's own reckoning: today's that start at or after the time.
    const meant = [...before].filter(([, [day, , start]]) => day === today && minutes(start) >= minutes(at));
    for (const [id, [day, slot, start]] of before) {
      const now = after.get(id);
      expect(now, id).toBeDefined();
      if (!meant.some(([each]) => each === id)) expect(now, `${id} is not meant: it stays`).toEqual([day, slot, start]);
      else if (now![1] !== slot) {
        expect(now![0], `${id} moves within its day`).toBe(day);
        expect(minutes(now![2]), `${id} moves later`).toBeGreaterThan(minutes(start));
        moved.push(id);
      }
    }
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    // With none meant, no card is raised.
    if (meant.length === 0) expect(outcome.cards.filter((card) => card.action === "batch_move")).toEqual([]);
  });

  test("the sweep moved some review (it is not vacuous)", () => {
    expect(moved.length).toBeGreaterThan(0);
  });

  test("a day said: 'push my reviews after 9am on thursday back an hour' on Monday moves Thursday's, not Monday's", async () => {
    const week = halfPlacedWeek();
    const monday = () => new Date("2024-03-11T08:00:00+08:00");
    const outcome = await converse(
      await offlineTempo(week, monday),
      "push my reviews after 9am on thursday back an hour",
    );
    expect(outcome.planSteps).toEqual(["Push all of Thursday's reviews from 09:00 on 60 minutes later"]);
    // The vocabulary list is Thursday's, at 08:00: before 09:00, so it stays; Monday's 14:00 review stays too.
    expect(placeOf(outcome.schedule, "vocabulary-list")).toBe(placeOf(week, "vocabulary-list"));
    expect(placeOf(outcome.schedule, "review-limits")).toBe(placeOf(week, "review-limits"));
  });
});
