/**
 * A time that leaves no slot of the day ("before 8:30" when the first slot ends at 08:45, "after 22:30", "in the
 * morning after 12", "between 9pm and 8am", "周五8点前", "not before 23", "today before 10" at 09:00): the window
 * resolves to no slot, and the offline policy says why from the phrase table — the plan stage asks for another time
 * before any plan card (it planned "in slots 1-0", and propose_arrangement refused "slots.to: Too small").
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest, type Where } from "../../tools/schedule/request-parsing.js";
import { slotRangeOf, type WeekFacts } from "../../offline/schedule/week-facts.js";
import {
  emptyWindowQuestion,
  emptyWindowWhy,
  isEmptyRange,
  passedWindowWhy,
} from "../../offline/schedule/empty-window.js";
import { DEFAULT_SLOT_TIMES } from "../../tools/schedule/calendar.js";
import { summaryInChinese } from "../../tools/schedule/summary-words.js";
import { stepsFor } from "../../offline/schedule/plan-stage.js";

/** A week of the default timetable: 12 sections a day, 08:00–08:45 … 21:45–22:30. */
const facts: WeekFacts = {
  totalDays: 7,
  slotsPerDay: 12,
  weekdays: new Map(),
  dates: new Map(),
  slotTimes: [...DEFAULT_SLOT_TIMES],
};

const whereOf = (text: string) => (parseScheduleRequest(text) as { where: Where }).where;
const slotsOf = (text: string) => whereOf(text).slots;

describe("a window that holds no slot of the day", () => {
  test.each([
    [
      "schedule the matrix review on Friday before 8:30",
      "no slot of the day ends by 08:30: the first one runs 08:00–08:45",
      "一天中没有在 08:30 之前结束的时段：第一节是 08:00–08:45",
    ],
    [
      "schedule the matrix review on Friday after 22:30",
      "no slot of the day starts at 22:30 or later: the last one runs 21:45–22:30",
      "一天中没有在 22:30 或之后开始的时段：最后一节是 21:45–22:30",
    ],
    [
      "arrange my reviews, not before 23",
      "no slot of the day starts at 23:00 or later: the last one runs 21:45–22:30",
      "一天中没有在 23:00 或之后开始的时段：最后一节是 21:45–22:30",
    ],
    [
      "schedule the matrix review on Friday between 9pm and 8am",
      "no slot of the day is starting at 21:00 or later and ending by 08:00",
      "一天中没有同时满足这些条件的时段：21:00 或之后开始、08:00 之前结束",
    ],
    [
      "schedule the matrix review in the morning after 12",
      "no slot of the day is in the morning (slots 1-4) and starting at 12:00 or later",
      "一天中没有同时满足这些条件的时段：上午（第1-4节）、12:00 或之后开始",
    ],
    [
      "schedule the matrix review on Friday in the evening before 17:00",
      "no slot of the day is in the evening (slots 9-12) and ending by 17:00",
      "一天中没有同时满足这些条件的时段：晚上（第9-12节）、17:00 之前结束",
    ],
    [
      'Place the pending review tasks "matrix review" into free slots that fit them, on Friday, in slots 1-0',
      "no slot of the day is in slots 1-0 (a day has slots 1-12)",
      "一天中没有第1-0节（一天有第1-12节）",
    ],
    [
      "move the matrix review to Friday before 8am",
      "no slot of the day ends by 08:00: the first one runs 08:00–08:45",
      "一天中没有在 08:00 之前结束的时段：第一节是 08:00–08:45",
    ],
    [
      "when am I free on Friday before 8?",
      "no slot of the day ends by 08:00: the first one runs 08:00–08:45",
      "一天中没有在 08:00 之前结束的时段：第一节是 08:00–08:45",
    ],
  ])("%s: said in both languages, the Chinese the English read back", (text, english, chinese) => {
    const slots = slotsOf(text);
    expect(isEmptyRange(slotRangeOf(slots, facts), facts.slotsPerDay)).toBe(true);
    expect(emptyWindowWhy(slots, facts, "en")).toBe(english);
    expect(emptyWindowWhy(slots, facts, "zh")).toBe(chinese);
    expect(summaryInChinese(english)).toBe(chinese);
  });

  test("the plan stage's question says why and asks for another time, in the user's language", () => {
    expect(emptyWindowQuestion(whereOf("schedule the matrix review on Friday before 8:30"), facts, "en")).toBe(
      "No slot of the day ends by 08:30: the first one runs 08:00–08:45. Which time do you mean instead?",
    );
    expect(emptyWindowQuestion(whereOf("周五8点前安排矩阵复习"), facts, "zh")).toBe(
      "一天中没有在 08:00 之前结束的时段：第一节是 08:00–08:45。你想改在什么时间？",
    );
  });

  test("a window that holds a slot is none of these, and its step names its slots", () => {
    for (const text of [
      "schedule the matrix review on Friday before 10:00",
      "schedule the matrix review on Friday after 21:00",
      "schedule the matrix review on Friday between 14:00 and 16:00",
      "schedule the matrix review in the afternoon after 15:00",
    ])
      expect(emptyWindowWhy(slotsOf(text), facts, "en"), text).toBeUndefined();
    expect(stepsFor(parseScheduleRequest("schedule the matrix review on Friday after 21:00"), facts)[0]!.content).toBe(
      'Place the pending review tasks "matrix review" into free slots that fit them, on Friday (day 5), in slots 12-12',
    );
  });
});

describe("a window the clock has left no slot of today", () => {
  /** The default timetable's week from Monday 11 March 2024, at 09:00 on its Monday. */
  const dated: WeekFacts = {
    ...facts,
    dates: new Map(Array.from({ length: 7 }, (_, index) => [index + 1, `2024-03-${11 + index}`])),
    now: { date: "2024-03-11", time: "09:00", dayOfWeek: 1, timeZone: "Asia/Shanghai" },
  };

  test("today before 10 at 09:00: both slots that end by 10:00 have started, said in both languages", () => {
    const where = whereOf("schedule the matrix review today before 10");
    expect(passedWindowWhy(where, dated, "en")).toBe(
      "the time asked for today has passed: it is 09:00 now, and the last slot it allows started at 08:55",
    );
    expect(passedWindowWhy(where, dated, "zh")).toBe(
      "今天要求的时间已经过去了：现在是 09:00，它允许的最后一节在 08:55 开始",
    );
    expect(emptyWindowQuestion(where, dated, "en")).toMatch(
      /^The time asked for today has passed: .+\. Which time do you mean instead\?$/,
    );
  });

  test("a slot not started yet, another day, or no limit on the slots is no such window", () => {
    for (const text of [
      "schedule the matrix review today before 11",
      "schedule the matrix review tomorrow before 10",
      "schedule the matrix review today",
    ])
      expect(passedWindowWhy(whereOf(text), dated, "en"), text).toBeUndefined();
  });
});
