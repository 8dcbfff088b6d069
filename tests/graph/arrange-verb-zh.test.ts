/**
 * "排" for "安排", as Chinese students write it: "周末不要排复习", "别在周末排复习", "今晚别排复习", "帮我排复习",
 * "把作文排到周五". Before, each was not understood (the capabilities list came back). Each reads as its "安排" twin,
 * and the graph arranges the week as the twin does.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

const TWINS = [
  ["周末不要排复习", "周末不要安排复习"],
  ["别在周末排复习", "别在周末安排复习"],
  ["今晚别排复习", "今晚别安排复习"],
  ["周末别给我排复习", "周末别给我安排复习"],
  ["帮我排复习", "帮我安排复习"],
  ["排复习", "安排复习"],
  ["把作文排到周五晚上", "把作文安排到周五晚上"],
] as const;

describe("排 as 安排", () => {
  test.each(TWINS)("'%s' reads as '%s'", (said, twin) => {
    const read = parseScheduleRequest(said);
    expect(read.kind).not.toBe("unknown");
    expect(read).toEqual(parseScheduleRequest(twin));
  });

  test.each([
    ["周末不要排复习", "周末不要安排复习"],
    ["把作文排到周五晚上", "把作文安排到周五晚上"],
  ])("'%s' arranges the week as '%s' does", async (said, twin) => {
    const week = halfPlacedWeek({ chinese: true });
    const [asked, asTwin] = [
      await converse(await offlineTempo(halfPlacedWeek({ chinese: true })), said),
      await converse(await offlineTempo(halfPlacedWeek({ chinese: true })), twin),
    ];
    expect(asked.cards[0]?.action).toBe("confirm_plan");
    expect(reviewPlaces(asked.schedule)).toEqual(reviewPlaces(asTwin.schedule));
    expect(reviewPlaces(asked.schedule)).not.toEqual(reviewPlaces(week));
  });
});

/**
 * An exam said before a request ("我周五考试，帮我安排复习") is a day taken, as "I have an exam on Friday, arrange my
 * reviews" always was. Before, the Chinese arranged every review on Friday, the exam's day.
 */
describe("an exam said before a request", () => {
  test.each([
    ["我周五考试，帮我安排复习", "I have an exam on Friday, arrange my reviews"],
    ["我周五有考试，帮我安排复习", "I have an exam on Friday, arrange my reviews"],
    ["我明天要考试，今晚别排复习", "I have an exam tomorrow, don't schedule reviews tonight"],
  ])("'%s' reads where as '%s' does", (said, english) => {
    const [chinese, twin] = [parseScheduleRequest(said), parseScheduleRequest(english)];
    expect(chinese.kind).toBe("arrange");
    const days = (request: typeof chinese) =>
      request.kind === "arrange"
        ? { only: request.where.only.weekdays, not: request.where.not.weekdays, dates: request.where.not.dates?.length }
        : undefined;
    expect(days(chinese)).toEqual(days(twin));
  });

  test("'我周五考试，帮我安排复习' places no review on Friday", async () => {
    const outcome = await converse(await offlineTempo(halfPlacedWeek({ chinese: true })), "我周五考试，帮我安排复习");
    expect(outcome.cards[0]?.action).toBe("confirm_plan");
    const added = reviewPlaces(outcome.schedule).filter((place) => !reviewPlaces(halfPlacedWeek()).includes(place));
    expect(added.length).toBeGreaterThan(0);
    expect(added.filter((place) => / day 5 slots /.test(place))).toEqual([]);
  });
});

/**
 * "Before my exam on Friday", "周五考试前": before that day. Before, every review was placed on Friday itself — in the
 * evening, after any exam — or, in "在周五考试之前", nothing was placed ("周五考试" matched no event).
 */
describe("before an exam named by its day", () => {
  test.each([
    ["arrange my reviews before my exam on friday", "arrange my reviews before friday"],
    ["arrange my reviews before the test on friday", "arrange my reviews before friday"],
    ["周五考试前帮我安排复习", "帮我在周五之前安排复习"],
    ["在周五考试之前帮我安排复习", "帮我在周五之前安排复习"],
  ])("'%s' reads as '%s'", (said, twin) => {
    expect(parseScheduleRequest(said)).toEqual(parseScheduleRequest(twin));
  });

  test.each(["arrange my reviews before my exam on friday", "周五考试前帮我安排复习"])(
    "'%s' places reviews, none on Friday or after",
    async (said) => {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(said) });
      const outcome = await converse(await offlineTempo(week), said);
      const added = reviewPlaces(outcome.schedule).filter((place) => !reviewPlaces(week).includes(place));
      expect(added.length).toBeGreaterThan(0);
      expect(added.filter((place) => / day [567] slots /.test(place))).toEqual([]);
    },
  );
});
