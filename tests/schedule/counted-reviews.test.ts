/**
 * Reviews counted and not named ("arrange a review tomorrow morning", "two reviews", "一个复习"): read as a count, never
 * as a task of that name, and the plan steps written for them read back as the same request in both languages.
 */
import { describe, expect, test } from "vitest";
import { chineseStepsFor, stepsFor } from "../../offline/schedule/plan-stage.js";
import type { WeekFacts } from "../../offline/schedule/week-facts.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";

const facts: WeekFacts = { slotsPerDay: 12, weekdays: new Map(), dates: new Map(), totalDays: 7 };

describe("a count of reviews", () => {
  test.each([
    ["arrange a review tomorrow morning", 1],
    ["arrange one review tomorrow", 1],
    ["can I fit another review today?", 1],
    ["fit one more review in today", 1],
    ["put one study session on sunday evening", 1],
    ["schedule two reviews on friday", 2],
    ["arrange 3 reviews this weekend", 3],
    ["schedule 12 reviews", 12],
    ["明天早上安排一个复习", 1],
    ["明天早上有空，帮我安排一个复习", 1],
    ["周六安排两个复习", 2],
    ["安排2个复习", 2],
  ] as const)("'%s' asks for %i, naming no task", (said, count) => {
    expect(parseScheduleRequest(said)).toMatchObject({ kind: "arrange", tasks: [], count });
  });

  test.each([
    ["schedule a review of the limits on friday", ["review of the limits"]],
    ["arrange the matrix review on friday", ["matrix review"]],
    ["arrange my reviews", []],
    ["安排复习", []],
  ] as const)("'%s' counts nothing", (said, tasks) => {
    const read = parseScheduleRequest(said);
    expect(read).toMatchObject({ kind: "arrange", tasks });
    expect(read).not.toHaveProperty("count");
  });

  test.each([
    "arrange a review tomorrow morning",
    "schedule two reviews on friday",
    "arrange 3 reviews this weekend",
    "明天早上安排一个复习",
    "周六安排两个复习",
    "schedule 12 reviews",
  ])("the steps written for '%s' read back as its count and time of day, in English and in Chinese", (said) => {
    // (Its days come back as the days of the week shown: "Friday (day 5)".)
    const request = parseScheduleRequest(said) as Extract<ReturnType<typeof parseScheduleRequest>, { kind: "arrange" }>;
    for (const steps of [stepsFor(request, facts), chineseStepsFor(request, facts)])
      expect(parseScheduleRequest(steps[0]!.content)).toMatchObject({
        kind: "arrange",
        tasks: [],
        count: request.count,
        where: { slots: request.where.slots },
      });
  });
});
