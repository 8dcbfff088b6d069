/**
 * Clock times as students say them: "move the essay to 7 tonight", "… to 7 this evening", "把作文挪到今晚7点", "… to
 * half past 3", "quarter to 5", "傍晚6点", "明早8点". Before, the hour was dropped: "7 tonight" and "今晚7点" moved the
 * essay to any free time of the evening, and "half past 3" to any free time at all. The stored week is the oracle: the
 * essay starts at 19:00 that evening, or, when no slot starts at the time said, nothing moves and the answer says so.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest, readClockTime } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, SAMPLE_WEEK_EVE } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: tonight is Wednesday evening, whose slot 9 starts at 19:00. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");
/** Thursday 14 March 2024, 10:00: tonight the robotics club holds 19:00–20:40. */
const THURSDAY = () => new Date("2024-03-14T10:00:00+08:00");

describe("a clock time said as people say it", () => {
  test.each(["move the essay to 7 tonight", "move the essay to 7 this evening", "把作文挪到今晚7点"])(
    "%s: the essay starts on Wednesday at 19:00",
    async (request) => {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
      const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
      expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
      const essay = outcome.schedule.tasks.find((task) => task.id === "essay-draft") as TaskItem;
      expect(essay.slots).toEqual([{ day: 3, start: 9, end: 10 }]);
    },
  );

  test.each(["move the essay to 7 tonight", "把作文挪到今晚7点"])(
    "%s, on Thursday: the club holds 19:00, so nothing moves (the evening's free 20:50 is not what was said)",
    async (request) => {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
      const outcome = await converse(await offlineTempo(week, THURSDAY), request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
      expect(outcome.finalAnswer).toMatch(/19:00–20:40/);
      expect(outcome.finalAnswer).toMatch(/Robotics club meeting/);
      expect(outcome.schedule).toEqual(week);
    },
  );

  test("half past 3 is 15:30: no slot starts then, so nothing moves and the slots near it are named", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), "move the essay to half past 3");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(/no slot starts at 15:30 \(the slots near it start at 14:55 and 16:00\)/);
    expect(outcome.schedule).toEqual(week);
  });

  test.each([
    ["half past 3", "15:30"],
    ["quarter past 4", "16:15"],
    ["quarter to 5", "16:45"],
    ["7 tonight", "19:00"],
    ["傍晚6点", "18:00"],
    ["今晚7点", "19:00"],
    ["明早8点", "08:00"],
    ["晚上7点", "19:00"],
    ["周三三点", "15:00"],
    ["at lunch", "12:00"],
    ["during lunchtime", "12:00"],
    ["tomorrow lunchtime", "12:00"],
    ["明天中午", "12:00"],
    ["午休的时候", "12:00"],
    ["明天中午两点", "14:00"],
  ])("%s is %s", (said, clock) => {
    expect(readClockTime(said)).toBe(clock);
  });

  // An hour in words, and a marker after "half past" / "quarter to": before, "at ten pm" named no time (the task was
  // asked about as "vocabulary list at ten pm"), "quarter to 10pm" was 22:00 and "at 12 am" noon.
  test.each([
    ["at seven", "19:00"],
    ["at ten", "10:00"],
    ["at ten pm", "22:00"],
    ["seven pm", "19:00"],
    ["eight o'clock", "08:00"],
    ["at seven thirty", "19:30"],
    ["at nine forty-five pm", "21:45"],
    ["seven thirty tonight", "19:30"],
    ["half past seven pm", "19:30"],
    ["half past 7pm", "19:30"],
    ["quarter to ten pm", "21:45"],
    ["quarter to 10pm", "21:45"],
    ["quarter past nine", "09:15"],
    ["at 12 am", "00:00"],
    // A dot as the colon (with a marker, after "at" / "to", or a 24-hour hour), "midnight", "around", "-ish": before,
    // "2.30pm" and "14.00" were unread numbers, and the rest was dropped (the move went to any time of the day).
    ["2.30pm", "14:30"],
    ["at 9.15", "09:15"],
    ["14.00", "14:00"],
    ["midnight", "00:00"],
    ["around 10", "10:00"],
    ["at about 7", "19:00"],
    ["10ish", "10:00"],
  ])("%s is %s", (said, clock) => {
    expect(readClockTime(said)).toBe(clock);
  });

  test.each(["schedule the vocabulary list tomorrow at quarter to ten pm", "schedule the vocabulary list at seven"])(
    "%s: the time is no part of the task's name",
    (said) => {
      expect(parseScheduleRequest(said)).toMatchObject({ kind: "arrange", tasks: ["vocabulary list"] });
    },
  );

  test.each([
    "schedule the essay at one of the free times",
    "do one tonight",
    "read chapter 3.14 on friday",
    "move about 3 reviews to friday",
    "push the essay back 1.5 hours",
  ])("%s names no clock time", (said) => {
    expect(parseScheduleRequest(said)).not.toMatchObject({ where: { slots: { at: expect.any(String) } } });
  });

  // A part of the day said otherwise: before, "first thing", "after dinner" and "end of the day" were part of the task's
  // name (the planner asked which task) or dropped, and "before bed" a deadline before an event named "bed".
  test.each([
    ["put the essay first thing tomorrow", "morning"],
    ["move the essay to friday first thing", "morning"],
    ["schedule the essay after dinner on friday", "evening"],
    ["move the essay to the end of the day", "evening"],
    ["schedule the essay before bed", "evening"],
  ])("%s: the %s, no part of the task's name", (said, part) => {
    const read = parseScheduleRequest(said) as { tasks?: string[]; task?: string; where: { slots: { part?: string } } };
    expect(read.tasks ?? [read.task]).toEqual(["essay"]);
    expect(read.where.slots.part).toBe(part);
    expect(read.where).not.toHaveProperty("before");
  });

  test("first thing on Thursday, said on the eve: its mornings hold no two free slots, so the essay stays", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, () => SAMPLE_WEEK_EVE),
      "move the essay to first thing thursday",
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.planSteps[0]).toMatch(/Thursday, Mar 14, in the morning/);
    expect(outcome.schedule).toEqual(week);
  });

  // Lunch as a time: before, "at lunch" and "明天中午" named no time, and the essay went to Monday's first free slot —
  // 19:00, the evening. Noon is a time no slot of the sample week starts at, so nothing moves and the answer says so.
  test.each([
    "move the essay to tomorrow at lunch",
    "move the essay to lunchtime tomorrow",
    "move the essay to tomorrow over lunch",
    // Lunch first in the words of where, or after the task's name with no "to": before, the time was dropped ("to lunch
    // tomorrow", "at lunch tomorrow": the essay went to Monday's first free slot) or read into the task's name ("the
    // essay over lunch").
    "move the essay to lunch tomorrow",
    "move the essay at lunch tomorrow",
    "move the essay over lunch tomorrow",
    "move the essay tomorrow over lunch",
    "把作文移到明天中午",
    "把作文移到明天午饭时间",
  ])("%s: noon, which no slot starts at; nothing moves", async (request) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.planSteps[0]).toMatch(/12:00/);
    expect(outcome.finalAnswer).toMatch(/(no slot starts at 12:00|没有从 12:00 开始的时段)/);
    expect(outcome.schedule).toEqual(week);
  });

  // A review already started, asked to a time no slot starts at: before, the answer named the slots near noon, which
  // the move would then refuse in turn. Now the reason that holds at any time is said.
  test.each(["move the matrix review to Friday at lunch", "把矩阵复习移到周五中午"])(
    "%s, said after the review began: it has started, so it stays",
    async (request) => {
      const chinese = /[\u4e00-\u9fff]/.test(request);
      const week = halfPlacedWeek({ chinese });
      const tuesdayAfterTen = () => new Date("2024-03-12T10:30:00+08:00");
      const outcome = await converse(await offlineTempo(week, tuesdayAfterTen), request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
      expect(outcome.finalAnswer).toMatch(
        chinese
          ? /“矩阵运算复习”（3月12日周二 10:00–11:40）已经开始了：过去的安排不能改/
          : /"Matrix operations review" \(Tue 12 Mar, 10:00–11:40\) has already started/,
      );
      expect(outcome.finalAnswer).not.toMatch(/12:00|10:55/);
      expect(outcome.schedule).toEqual(week);
    },
  );

  test.each([
    ["move the essay before lunch tomorrow", { endsBy: "12:00" }],
    ["move the essay after lunch tomorrow", { startsFrom: "13:00" }],
  ])("%s: a limit after the task's name, which stays the essay", (said, slots) => {
    expect(parseScheduleRequest(said)).toMatchObject({ kind: "move", task: "essay", where: { slots } });
  });

  // A dot for the colon before noon, where a time goes: before, "to 10.30" was asked about and "to sunday 10.00"
  // moved the essay to any free time of Sunday (only 13.00–23.59 were read after a day).
  test("move the essay to sunday 10.00: Sunday at 10:00", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), "move the essay to sunday 10.00");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    const essay = outcome.schedule.tasks.find((task) => task.id === "essay-draft") as TaskItem;
    expect(essay.slots).toEqual([{ day: 7, start: 3, end: 4 }]);
  });

  test.each([
    ["move the essay to 10.30", "10:30", /no slot starts at 10:30/],
    ["move the essay to tomorrow 10.55", "10:55", /overlaps "College English"/],
  ])("%s: the time said, refused for what it is", async (request, at, said) => {
    expect(parseScheduleRequest(request)).toMatchObject({ kind: "move", task: "essay", where: { slots: { at } } });
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(said);
    expect(outcome.schedule).toEqual(week);
  });

  test("a number with a dot in a task's name is no time", () => {
    expect(parseScheduleRequest("move the unit 5.20 review to friday")).toMatchObject({
      task: "unit 5.20 review",
      where: { slots: {} },
    });
  });

  test("a task named with lunch keeps its name; its time is the one said", () => {
    expect(parseScheduleRequest("move the lunch review to friday at 2pm")).toMatchObject({
      kind: "move",
      task: "lunch review",
      where: { slots: { at: "14:00" } },
    });
  });

  // Lunch that is not a time: a limit ("before lunch", "午饭后"), the break itself, or a thing named so.
  test.each([
    "晚一点",
    "早一点",
    "晚两点",
    "before lunch",
    "after lunch",
    "by lunchtime",
    "the lunch break",
    "lunch with anna",
    "中午以前",
    "午饭后",
    "中午饭",
  ])("%s (a little later or earlier, or lunch as no time) is no clock time", (said) => {
    expect(readClockTime(said)).toBeUndefined();
  });
});

/**
 * An hour of the small hours, or of the 24-hour clock with its leading zero: before, "2am" was read right but its step
 * ("… at 02:00") was read back as 14:00, so the review was tried — or moved — there; "07:00" was 19:00, "凌晨2点" and
 * "半夜3点" 14:00 and 15:00, "3 at night" 15:00, "夜里11点" 11:00, and "8 in the morning" lost its hour.
 */
describe("the small hours and the 24-hour clock", () => {
  test.each([
    ["2am", "02:00"],
    ["at 02:00", "02:00"],
    ["at 07:30", "07:30"],
    ["07:00", "07:00"],
    ["8 in the morning", "08:00"],
    ["at 9 in the morning", "09:00"],
    ["3 at night", "03:00"],
    ["11 at night", "23:00"],
    ["凌晨2点", "02:00"],
    ["凌晨五点半", "05:30"],
    ["半夜3点", "03:00"],
    ["夜里11点", "23:00"],
    // Half past twelve of the night is after midnight (before, 12:30: noon's).
    ["晚上12点半", "00:30"],
    ["半夜十二点半", "00:30"],
    ["夜里12点15分", "00:15"],
    ["12:30 at night", "00:30"],
    ["half past twelve at night", "00:30"],
    ["中午12点半", "12:30"],
    ["12:30pm tonight", "12:30"],
    ["12:30 in the afternoon", "12:30"],
    // The 12-hour words keep their reading.
    ["at 7", "19:00"],
    ["7:30", "19:30"],
    ["19:30", "19:30"],
    ["10:00", "10:00"],
  ])("%s is %s", (said, clock) => {
    expect(readClockTime(said)).toBe(clock);
  });

  test("'3 at night' names no evening", () => {
    expect(parseScheduleRequest("move the essay to 3 at night tomorrow")).toMatchObject({
      where: { slots: { at: "03:00" } },
    });
    const request = parseScheduleRequest("move the essay to 3 at night tomorrow");
    expect(request.kind === "move" && request.where.slots.part).toBeUndefined();
  });

  test.each([
    ["move the essay to 2am tomorrow", "02:00"],
    ["move the essay to 3 at night tomorrow", "03:00"],
    ["move the essay to 07:00 tomorrow", "07:00"],
    ["把作文挪到明天凌晨2点", "02:00"],
    ["把作文挪到明天半夜3点", "03:00"],
  ])("%s: the time said is outside the day's slots, said so, and nothing moves", async (request, at) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
    expect(outcome.planSteps.join("\n")).toContain(at);
    expect(outcome.finalAnswer).toContain(
      /[\u4e00-\u9fff]/.test(request)
        ? `${at} 不在一天的时段内（08:00–22:30）`
        : `${at} is outside the day's slots (08:00–22:30)`,
    );
    expect(outcome.schedule).toEqual(week);
  });

  test("'move the essay to 10 in the morning on sunday' puts it at 10:00 on Sunday, not the morning's first free time", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, WEDNESDAY),
      "move the essay to 10 in the morning on sunday",
    );
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const essay = outcome.schedule.tasks.find((task) => task.id === "essay-draft") as TaskItem;
    expect(essay.slots).toEqual([{ day: 7, start: 3, end: 4 }]);
  });
});
