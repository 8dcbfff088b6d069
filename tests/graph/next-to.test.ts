/**
 * "move the essay after the matrix review", "move the essay to right before the matrix review", "schedule the
 * derivative drills right after the limits review", "把作文挪到矩阵复习之后": a place next to another task or event.
 * Before, the words after "after" became part of the task's name ("essay after the matrix review", asked about), or
 * were dropped ("to right after …", "挪到矩阵复习之后" moved the essay anywhere). The move tool is the oracle: the task
 * lands on the anchor's day on the side said, and no start nearer the anchor on that side is one the tool accepts.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, moveTool, placeTool, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, SAMPLE_WEEK_EVE } from "./support/offline-conversation.js";

const isChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

describe("a place next to another task or event", () => {
  test.each([
    ["move the essay after the matrix review", "essay-draft", "matrix-review", "after", "move"],
    ["move the essay to right after the matrix review", "essay-draft", "matrix-review", "after", "move"],
    ["把作文挪到矩阵复习之后", "essay-draft", "matrix-review", "after", "move"],
    [
      "schedule the derivative drills right after the limits review",
      "derivative-drills",
      "review-limits",
      "after",
      "place",
    ],
    ["move the vocabulary list right after the matrix review", "vocabulary-list", "matrix-review", "after", "move"],
    [
      "move the vocabulary list just before English listening",
      "vocabulary-list",
      "wed-english-listening",
      "before",
      "move",
    ],
  ] as const)(
    "%s: %s lands next to %s (%s), at the nearest start the week allows",
    async (request, id, anchorId, side, tool) => {
      const week = halfPlacedWeek({ chinese: isChinese(request) });
      const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", tool]);
      expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
      const anchor = (week.tasks.find((task) => task.id === anchorId) as TaskItem).slots![0]!;
      const landed = (outcome.schedule.tasks.find((task) => task.id === id) as TaskItem).slots![0]!;
      const length = landed.end - landed.start + 1;
      expect(landed.day).toBe(anchor.day);
      if (side === "after") expect(landed.start).toBeGreaterThan(anchor.end);
      else expect(landed.end).toBeLessThan(anchor.start);
      // Nearer starts on that side: each refused by the write itself.
      const nearer =
        side === "after"
          ? Array.from({ length: landed.start - anchor.end - 1 }, (_, offset) => anchor.end + 1 + offset)
          : Array.from({ length: anchor.start - length - landed.start }, (_, offset) => landed.start + 1 + offset);
      const write = tool === "move" ? moveTool : placeTool;
      for (const start of nearer)
        expect(write.run(week, { task_id: id, day: anchor.day, slot_start: start }).ok, `start ${start}`).toBe(false);
    },
  );

  test("words that name nothing leave the task where it is, and say so", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, () => SAMPLE_WEEK_EVE),
      "move the essay after the zebra notes",
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(/no task or event matches "zebra notes"/);
    expect(outcome.schedule).toEqual(week);
  });

  // A day said before the anchor in Chinese: before, "周二矩阵复习" was read as a day alone (the anchor lost, the essay
  // anywhere on Tuesday), and a plan step next to an anchor wrote no day.
  test.each([
    ["把作文挪到周二矩阵复习之后", /3月12日周二，"矩阵复习"之后/],
    ["把作文挪到周二的矩阵复习之后", /3月12日周二，"矩阵复习"之后/],
  ])("%s: right after the matrix review, on the day said, the day in the plan", async (request, step) => {
    const week = halfPlacedWeek({ chinese: true });
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(outcome.planSteps[0]).toMatch(step);
    const anchor = (week.tasks.find((task) => task.id === "matrix-review") as TaskItem).slots![0]!;
    const essay = (outcome.schedule.tasks.find((task) => task.id === "essay-draft") as TaskItem).slots![0]!;
    expect(essay.day).toBe(anchor.day);
    expect(essay.start).toBeGreaterThan(anchor.end);
    for (let start = anchor.end + 1; start < essay.start; start += 1)
      expect(moveTool.run(week, { task_id: "essay-draft", day: anchor.day, slot_start: start }).ok).toBe(false);
  });

  test("a Chinese request whose anchor names nothing is told so in Chinese", async () => {
    const week = halfPlacedWeek({ chinese: true });
    const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), "把作文挪到斑马笔记之后");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.finalAnswer).toMatch(/没有与"斑马笔记"匹配的任务或活动/);
    expect(outcome.finalAnswer).not.toMatch(/no task or event/);
    expect(outcome.schedule).toEqual(week);
  });

  test("a day, a time, a meal or a deadline after the words is no task to go next to", () => {
    for (const text of [
      "move the essay after wednesday",
      "move the essay after 9pm",
      "move the essay after lunch",
      "move the essay before the midterm",
      "把作文挪到周四之后",
    ])
      expect((parseScheduleRequest(text) as { where?: { next?: unknown } }).where?.next).toBeUndefined();
    expect(parseScheduleRequest('Move "essay" to Friday, Mar 15, right after "calculus tutorial"')).toMatchObject({
      kind: "move",
      task: "essay",
      where: { next: { side: "after", anchor: "calculus tutorial" } },
    });
  });
});
