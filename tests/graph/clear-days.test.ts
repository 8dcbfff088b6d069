/**
 * "skip all my reviews on Thursday and Saturday", "clear Thursday and Saturday", "I'm sick, skip everything today and
 * tomorrow", "跳过周四和周六的所有复习", "把周四和周六清空": every review of each day named skipped (or taken off). Before,
 * the word joining the days broke the request: it marked one review named "reviews and" (Thursday's), or asked which
 * task "every review placed on …" was, since the plan's own step did not read back. The stored week is the oracle:
 * each review of those days still ahead is skipped (or pending again), every other review is where it was.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants } from "../../tools/schedule/index.js";
import { converse, expectDaysCleared, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: Thursday's and Saturday's reviews are still ahead. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");

describe("the reviews of several days skipped or taken off", () => {
  test.each([
    ["skip all my reviews on Thursday and Saturday", [4, 6], "skipped"],
    ["clear Thursday and Saturday", [4, 6], "pending"],
    ["skip everything on Thursday, Friday and Saturday", [4, 5, 6], "skipped"],
    ["I'm sick, skip everything today and tomorrow", [3, 4], "skipped"],
    ["跳过周四和周六的所有复习", [4, 6], "skipped"],
    ["把周四和周六清空", [4, 6], "pending"],
  ] as const)("%s: each review of days %j is %s, the rest stay", async (request, days, status) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
    expect(outcome.cards[0]?.action).toBe("confirm_plan");
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    expectDaysCleared(week, outcome, days, status);
  });
});
