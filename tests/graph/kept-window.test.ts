/**
 * A window of the clock kept free: "keep 2pm to 4pm free today", "keep Thursday 8am to 10am free". Before, it was read
 * as a question of free time ("You have no free run … in 14:00–15:40") and the review in it stayed.
 *
 * Swept over every day of the half-placed sample week at 08:00 with four windows: the test works out on its own, from
 * the week's slot times, which reviews reach into the window; after the conversation none of them does (each moved, or
 * the answer names it as staying), and every other review is where it was.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { checkScheduleInvariants } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, placedRanges } from "./support/offline-conversation.js";

describe("reading: a window of the clock kept free", () => {
  test.each([
    ["keep 2pm to 4pm free today", { fromToday: 0 }],
    ["keep today 2pm to 4pm free", { fromToday: 0 }],
    ["keep 2pm to 4pm free", { fromToday: 0 }],
    ["keep thursday 14:00-16:00 free", { weekday: 4 }],
    ["keep 2pm to 4pm free on thursday", { weekday: 4 }],
    ["今天下午两点到四点空着", { fromToday: 0 }],
    ["周四14:00-16:00留空", { weekday: 4 }],
    // Hours alone, with no am or pm (before, a question of free time today).
    ["keep 2 to 4 free today", { fromToday: 0 }],
    ["keep 2 to 4 free", { fromToday: 0 }],
    ["keep 2-4 free on thursday", { weekday: 4 }],
  ])("'%s'", (said, day) => {
    expect(parseScheduleRequest(said)).toEqual({
      kind: "shift_all",
      ...day,
      startsFrom: "14:00",
      endsBy: "16:00",
      away: "part",
    });
  });

  test("the plan's step reads back as what it says; a part of the day kept free reads as before", () => {
    expect(parseScheduleRequest("Move all of Monday's reviews out of Monday 14:00-16:00")).toEqual({
      kind: "shift_all",
      weekday: 1,
      startsFrom: "14:00",
      endsBy: "16:00",
      away: "part",
    });
    expect(parseScheduleRequest("把周一的所有复习挪出周一14:00-16:00")).toEqual({
      kind: "shift_all",
      weekday: 1,
      startsFrom: "14:00",
      endsBy: "16:00",
      away: "part",
    });
    expect(parseScheduleRequest("keep tonight free")).toEqual({
      kind: "shift_all",
      fromToday: 0,
      part: "evening",
      away: "part",
    });
  });
});

const WINDOWS = [
  ["keep 8am to 10am free today", "08:00", "10:00"],
  ["keep 2pm to 4pm free today", "14:00", "16:00"],
  ["keep 3pm to 4pm free today", "15:00", "16:00"],
  ["keep 7pm to 9pm free today", "19:00", "21:00"],
  ["keep 2 to 4 free today", "14:00", "16:00"],
  ["keep 7 to 9 free tonight", "19:00", "21:00"],
  ["今天下午两点到四点空着", "14:00", "16:00"],
  ["今天晚上七点到九点留空", "19:00", "21:00"],
] as const;
const WEEKDAYS = {
  en: ["", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  zh: ["", "周一", "周二", "周三", "周四", "周五", "周六", "周日"],
};

describe("said to the agent on each day: no review of the day is left in the window", () => {
  const moved: string[] = [];
  test.each(
    [1, 2, 3, 4, 5, 6, 7].flatMap((today) => WINDOWS.map(([said, from, to]) => [said, today, from, to] as const)),
  )("'%s' on day %i", async (said, today, from, to) => {
    const chinese = /[\u4e00-\u9fff]/.test(said);
    const week = halfPlacedWeek({ chinese });
    const times = week.window.slotTimes!;
    const now = () => new Date(`2024-03-${String(10 + today).padStart(2, "0")}T08:00:00+08:00`);
    const outcome = await converse(await offlineTempo(week, now), said);
    const day = WEEKDAYS[chinese ? "zh" : "en"][today];
    expect(outcome.planSteps).toEqual([
      expect.stringContaining(chinese ? `挪出${day}${from}-${to}` : `reviews out of ${day} ${from}-${to}`),
    ]);
    // The test's own reckoning: a review reaches into the window when it starts before its end and ends after its start;
    // one the clock (08:00) has reached has started, and stays where it is.
    const reaches = (day: number, first: number, last: number) =>
      day === today && times[first - 1]!.start < to && times[last - 1]!.end > from;
    const started = (day: number, first: number) => day === today && times[first - 1]!.start <= "08:00";
    const before = placedRanges(week);
    const after = placedRanges(outcome.schedule);
    for (const [id, [day, first, last]] of before) {
      const now = after.get(id)!;
      if (!reaches(day, first, last) || started(day, first))
        expect(now, `${id} is not in the window, or has started: it stays`).toEqual([day, first, last]);
      else if (reaches(...now))
        expect(outcome.finalAnswer, `${id} stays: the answer says so`).toMatch(/stays|保留|不动/);
      else moved.push(id);
    }
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  });

  test("the sweep moved some review out of its window (it is not vacuous)", () => {
    expect(moved.length).toBeGreaterThan(0);
  });
});
