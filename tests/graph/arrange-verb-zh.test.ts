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
