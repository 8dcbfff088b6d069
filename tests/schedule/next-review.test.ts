/**
 * "My next review" read against the week and the clock (`offline/schedule/next-review.ts`): the edges the sweep over
 * the sample week (tests/graph/next-review-sweep.test.ts) does not reach — no clock, a task of that very name, two
 * reviews of one name, a listing that leaves placed reviews out, and what each of its words stands for.
 */
import { describe, expect, test } from "vitest";
import { isNextReview, withNextReview } from "../../offline/schedule/next-review.js";
import type { WeekFacts } from "../../offline/schedule/week-facts.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { GetOverviewData } from "../../tools/schedule/tools/index.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { runTool } from "./support.js";

const overviewOf = (week = halfPlacedWeek()) => runTool("get_overview", week).data as GetOverviewData;

/** The sample week's facts as the planner reads them, at `time` on `date` (no clock when `date` is undefined). */
function factsOf(overview: GetOverviewData, date?: string, time = "09:00"): WeekFacts {
  return {
    totalDays: overview.totalDays,
    slotsPerDay: overview.slotsPerDay,
    weekdays: new Map(overview.days.map((day) => [day.day, day.dayOfWeek])),
    dates: new Map(overview.days.map((day) => [day.day, day.date!])),
    slotTimes: overview.slotTimes!,
    ...(date ? { now: { date, time, dayOfWeek: 1, timeZone: "Asia/Shanghai" } } : {}),
  };
}

/** `said` read against `overview` on `date` at 09:00 (no clock without a date). */
const nextOf = (said: string, overview: GetOverviewData, date?: string, language: "en" | "zh" = "en") =>
  withNextReview(parseScheduleRequest(said), overview, factsOf(overview, date), language);

describe("what 'next review' stands for", () => {
  test("the words of either language, and not a task's other words", () => {
    for (const said of [
      "next review",
      "my next review",
      "the upcoming session",
      "next task",
      "下一个复习",
      "下次复习",
      "接下来的复习",
    ])
      expect(isNextReview(said), said).toBe(true);
    for (const said of ["review", "next week's review", "matrix review", "下周的复习", "the review after next"])
      expect(isNextReview(said), said).toBe(false);
  });

  test("Wednesday 09:00: Thursday's 08:00 review, said before the plan", () => {
    const overview = overviewOf();
    const next = nextOf("skip my next review", overview, "2024-03-13");
    expect(next).toEqual({
      request: { kind: "mark", task: "Vocabulary list unit 5", to: "skipped" },
      said: 'Your next review is "Vocabulary list unit 5" (Thu 14 Mar, 08:00–08:45). ',
    });
  });

  test("no clock: which review is asked, and why", () => {
    const overview = overviewOf();
    const next = nextOf("下次复习推迟一天", overview, undefined, "zh");
    expect(next).toEqual({ question: expect.stringContaining("我不知道现在的时间") });
  });

  test("a task named 'Next review' is that task, not the next by the clock", () => {
    const week = halfPlacedWeek();
    week.tasks = week.tasks.map((task) => (task.id === "essay-draft" ? { ...task, name: "Next review" } : task));
    const overview = overviewOf(week);
    expect(nextOf("cancel my next review", overview, "2024-03-11")).toBeUndefined();
  });

  test("two reviews of one name: the next is named by its id", () => {
    const week = halfPlacedWeek();
    week.tasks = week.tasks.map((task) =>
      task.id === "essay-draft" ? { ...task, name: "Vocabulary list unit 5" } : task,
    );
    const overview = overviewOf(week);
    const next = nextOf("cancel my next review", overview, "2024-03-13");
    expect(next && "request" in next ? next.request : next).toEqual({ kind: "unplace", task: "vocabulary-list" });
  });

  test("a listing that leaves placed reviews out cannot tell which comes next: asked", () => {
    const overview = { ...overviewOf(), placedOmitted: 3 };
    const next = nextOf("move my next review to friday", overview, "2024-03-13");
    expect(next).toEqual({
      question: expect.stringMatching(
        /^Which review do you mean by "next review"\? Your week has more placed reviews than I can see/,
      ),
    });
  });
});
