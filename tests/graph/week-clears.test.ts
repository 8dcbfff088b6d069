/**
 * "skip the rest of the week", "skip all my reviews this week", "skip everything until the end of the week", "clear
 * the rest of my week", "这周剩下的复习都跳过", "把本周的复习都撤下": every review still ahead this week skipped (or taken
 * off). Before, each read as a mark or an unplace of a task named "rest of the week" or "this week" (the planner asked
 * which task), and the Chinese was not understood at all. The stored week is the oracle: each review placed from
 * today to Sunday is skipped (or pending again), every review before today is where it was.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, expectDaysCleared, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: Monday's and Tuesday's reviews are past, Thursday's and Saturday's ahead. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");
/** The clocks the requests are said at: Wednesday, or Friday 15 March 09:00 (only Saturday's review is still ahead). */
const CLOCKS = { Wednesday: WEDNESDAY, Friday: () => new Date("2024-03-15T09:00:00+08:00") } as const;

const isChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

describe("what is left of the week skipped or taken off", () => {
  test.each([
    ["skip the rest of the week", "Wednesday", [3, 4, 5, 6, 7], "skipped"],
    ["skip all my reviews this week", "Wednesday", [3, 4, 5, 6, 7], "skipped"],
    ["skip everything until the end of the week", "Wednesday", [3, 4, 5, 6, 7], "skipped"],
    ["I'm sick, skip my reviews for the rest of the week", "Wednesday", [3, 4, 5, 6, 7], "skipped"],
    ["clear the rest of my week", "Wednesday", [3, 4, 5, 6, 7], "pending"],
    ["skip the rest of the week", "Friday", [5, 6, 7], "skipped"],
    ["skip everything later this week", "Wednesday", [3, 4, 5, 6, 7], "skipped"],
    ["这周剩下的复习都跳过", "Wednesday", [3, 4, 5, 6, 7], "skipped"],
    ["把本周的复习都撤下", "Wednesday", [3, 4, 5, 6, 7], "pending"],
  ] as const)("%s, on %s: each review from today to Sunday is %s", async (request, clock, days, status) => {
    const week = halfPlacedWeek({ chinese: isChinese(request) });
    const outcome = await converse(await offlineTempo(week, CLOCKS[clock]), request);
    expect(outcome.cards[0]?.action).toBe("confirm_plan");
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    expectDaysCleared(week, outcome, days, status);
    // The days are said as a span, and the summary speaks of days, not of one day.
    const said = `${outcome.said.join("\n")}\n${outcome.finalAnswer ?? ""}`;
    if (isChinese(request)) expect(said).toMatch(/3月13日周三到3月17日周日/);
    else expect(said).toMatch(/from (?:Wed 13|Fri 15) Mar to Sun 17 Mar/);
    expect(outcome.finalAnswer).toMatch(isChinese(request) ? /这几天/ : /the days/);
  });

  test("next week, which the schedule does not reach yet, is said and nothing changes", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), "clear next week", () => ({
      type: "response",
      args: "never mind",
    }));
    expect(outcome.said.join("\n")).toMatch(/"next week" \(Mon 18 Mar to Sun 24 Mar\) is not on it yet/);
    expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user"]);
    expect(outcome.schedule.tasks).toEqual(week.tasks);
  });

  test.each([
    // A task of the week named is that task's mark, not a clear of the week.
    ["skip the vocabulary review this week", { kind: "mark", task: "vocabulary review", to: "skipped" }],
    // A week and a day besides is neither a clear of the week nor of the day.
    ["skip everything this week except Friday", undefined],
  ])("%s is no clear of the week", (request, expected) => {
    const read = parseScheduleRequest(request);
    if (expected) expect(read).toEqual(expected);
    else expect(read.kind).not.toBe("clear_day");
  });
});
