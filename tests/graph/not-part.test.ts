/**
 * A part of the day said not to be used. "Move the essay but not Saturday morning" moved the essay to a morning (the
 * part read as the only time to use), "arrange my reviews but not on Friday evening" placed them in evenings, "move
 * the essay, but not in the morning" dropped the limit, and "arrange my reviews, not in the evening" looked for a task
 * named "not". Now a part said with a day rules out that whole day, a part said alone rules out that part of every day
 * (the morning: the slots before the afternoon; the evening: those after it), and "not in the afternoon", which would
 * leave two ranges of the day, is not understood rather than read as anywhere. The stored week is the oracle, on the
 * week's eve and with the week half over.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, crowdedMondayWeek, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The sample week's eve, and its Wednesday at 10:00 (Monday, Tuesday and Wednesday morning passed). */
const CLOCKS = [
  ["on the week's eve", "2024-03-10T20:00:00+08:00"],
  ["on Wednesday at 10:00", "2024-03-13T10:00:00+08:00"],
] as const;

/** The sample week's 12 slots a day in thirds: the morning is slots 1-4, the evening 9-12. */
const MORNING = { from: 1, to: 4 };
const EVENING = { from: 9, to: 12 };

const items = (week: ScheduleState) => week.tasks.filter((task): task is TaskItem => task.source === "task_item");
const overlaps = (range: { start: number; end: number }, part: { from: number; to: number }) =>
  range.start <= part.to && part.from <= range.end;

describe("a part of the day ruled out is read as ruled out", () => {
  test.each([
    ["move the essay but not Saturday morning", { not: [6] }],
    ["move the essay, but not on Saturday evening", { not: [6] }],
    ["arrange my reviews but not on Friday evening", { not: [5] }],
    ["不要把复习安排在周五晚上", { not: [5] }],
    ["move the essay, but not in the morning", { notPart: "morning" }],
    ["move the essay to Friday but not in the morning", { notPart: "morning", only: [5] }],
    ["arrange my reviews, not in the evening", { notPart: "evening" }],
    ["schedule my reviews, no mornings", { notPart: "morning" }],
    ["arrange everything except mornings", { notPart: "morning" }],
    ["I'm busy in the mornings, arrange my reviews", { notPart: "morning" }],
    ["把复习安排好，不要晚上", { notPart: "evening" }],
    ["把作文挪到周五，上午不行", { notPart: "morning", only: [5] }],
    ["把作文挪走，不要上午", { notPart: "morning" }],
  ] as const)("%s", (request, expected) => {
    const read = parseScheduleRequest(request);
    expect(read.kind === "move" || read.kind === "arrange").toBe(true);
    const where = (read as Extract<typeof read, { kind: "move" | "arrange" }>).where;
    expect(where.slots.part).toBeUndefined();
    expect(where.slots.notPart).toBe("notPart" in expected ? expected.notPart : undefined);
    expect(where.not.weekdays).toEqual("not" in expected ? expected.not : []);
    expect(where.only.weekdays).toEqual("only" in expected ? expected.only : []);
    if (read.kind === "arrange") expect(read.tasks.filter((task) => /\b(?:not|no)\b/.test(task))).toEqual([]);
  });

  test.each([
    "move the essay but not in the afternoon",
    "arrange my reviews, not in the afternoon",
    "把作文挪走，不要下午",
  ])("%s leaves two ranges of the day: said so, and nothing changes", async (request) => {
    expect(parseScheduleRequest(request)).toEqual({ kind: "unknown", why: "afternoon_out" });
    const chinese = /[\u4e00-\u9fff]/.test(request);
    const outcome = await converse(await offlineTempo(halfPlacedWeek({ chinese })), request);
    expect(outcome.cards).toEqual([]);
    expect(outcome.said.join("\n")).toContain(chinese ? "不能只避开下午" : "not the afternoon alone");
    expect(outcome.schedule).toEqual(halfPlacedWeek({ chinese }));
  });
});

describe.each(CLOCKS)("moved or arranged with a part ruled out, %s", (_, clock) => {
  const now = () => new Date(clock);

  test.each([
    ["half placed", halfPlacedWeek],
    ["crowded Monday", crowdedMondayWeek],
  ] as const)("each placed review of the %s week, moved but not in the morning, lands outside it", async (__, make) => {
    let moved = 0;
    for (const review of items(make()).filter((task) => task.status === "placed")) {
      const outcome = await converse(await offlineTempo(make(), now), `move "${review.name}", but not in the morning`);
      expect(checkScheduleInvariants(outcome.schedule), review.id).toEqual([]);
      const after = items(outcome.schedule).find((task) => task.id === review.id)!;
      if (JSON.stringify(after.slots) === JSON.stringify(review.slots)) {
        expect(
          outcome.cards.map((card) => card.action),
          review.id,
        ).not.toContain("move");
        continue;
      }
      moved += 1;
      expect(overlaps(after.slots![0]!, MORNING), review.id).toBe(false);
    }
    expect(moved).toBeGreaterThan(0);
  });

  test.each([
    ["move the essay draft but not Saturday morning", 6],
    ["move the essay draft, but not on Friday evening", 5],
  ])("%s: never onto that day", async (request, weekday) => {
    const outcome = await converse(await offlineTempo(halfPlacedWeek(), now), request);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const essay = items(outcome.schedule).find((task) => task.id === "essay-draft")!;
    const day = outcome.schedule.window.days.find((each) => each.dayIndex === essay.slots![0]!.day)!;
    expect(day.dayOfWeek).not.toBe(weekday);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
  });

  test.each(["arrange my reviews, not in the evening", "把复习安排好，不要晚上"])(
    "%s: every review placed lands outside the evening",
    async (request) => {
      const chinese = /[\u4e00-\u9fff]/.test(request);
      const week = halfPlacedWeek({ chinese });
      const outcome = await converse(await offlineTempo(week, now), request);
      expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
      const before = new Map(items(week).map((task) => [task.id, JSON.stringify(task.slots ?? null)]));
      const placed = items(outcome.schedule).filter(
        (task) => task.slots && JSON.stringify(task.slots) !== before.get(task.id),
      );
      expect(placed.length).toBeGreaterThan(0);
      for (const task of placed) expect(overlaps(task.slots![0]!, EVENING), task.id).toBe(false);
    },
  );
});
