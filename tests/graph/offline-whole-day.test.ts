/**
 * Every review of a day at once, as a student says it to the offline policy: "skip all my reviews today" was a skip of
 * one task named "reviews", "I'm sick today, skip everything" was not understood, and "clear tomorrow" asked which task
 * "tomorrow" is. Each is one plan step and one batch card with a write per review placed that day (`skip`, or
 * `unplace` for a day cleared: its reviews pending again), every write decided on the card; a day with no review
 * says so and proposes nothing.
 */
import { describe, expect, test } from "vitest";
import type { TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, crowdedMondayWeek, offlineTempo } from "./support/offline-conversation.js";

/** crowdedMondayWeek: five reviews on Monday 11 March 2024 (14:00, then 19:00–22:30), three later in the week. */
const MONDAY_REVIEWS = [
  "review-limits",
  "determinant-exercises",
  "vocabulary-list",
  "binary-tree-review",
  "derivative-drills",
].sort();
const at = (iso: string) => ({ now: new Date(iso).toISOString() });
const MONDAY_MORNING = at("2024-03-11T09:00:00+08:00");
const SUNDAY_EVENING = at("2024-03-10T20:00:00+08:00");
const accept = () => ({ type: "accept", args: null });

const statusOf = (tasks: readonly unknown[], id: string) =>
  (tasks as TaskItem[]).find((task) => task.id === id)?.status;

describe("every review of a day, skipped or cleared", () => {
  test.each([
    ["skip all my reviews today", MONDAY_MORNING, "skip"],
    ["I'm sick today, skip everything", MONDAY_MORNING, "skip"],
    ["今天的复习都跳过", MONDAY_MORNING, "skip"],
    ["我今天病了，全部跳过", MONDAY_MORNING, "skip"],
    ["clear tomorrow", SUNDAY_EVENING, "unplace"],
    ["把明天清空", SUNDAY_EVENING, "unplace"],
  ] as const)("%s: one card with a write for each of Monday's reviews", async (message, now, tool) => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(tempo, message, accept, undefined, "student", now);
    expect(outcome.cards[0]?.action).toBe("confirm_plan");
    expect(outcome.cardCounts.slice(1)).toEqual([5]);
    expect(outcome.cards.slice(1).every((card) => card.action === tool)).toBe(true);
    expect(
      outcome.cards
        .slice(1)
        .map((card) => String(card.args.task_id))
        .sort(),
    ).toEqual(MONDAY_REVIEWS);
    for (const id of MONDAY_REVIEWS)
      expect(statusOf(outcome.schedule.tasks, id)).toBe(tool === "skip" ? "skipped" : "pending");
    // The rest of the week is untouched.
    expect(statusOf(outcome.schedule.tasks, "matrix-review")).toBe("placed");
    // The answer is in the user's language: a Chinese one tells each write in Chinese, by name.
    if (/[\u4e00-\u9fff]/.test(message)) {
      expect(outcome.finalAnswer ?? "").toMatch(tool === "skip" ? /已跳过这一天的复习/ : /已清空这一天/);
      expect(outcome.finalAnswer ?? "").not.toMatch(/marked|unplaced|binary-tree-review/);
    }
  });

  test("a cleared day keeps a review that has started: the past is marked, not undone", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(tempo, "clear today", accept, undefined, "student", at("2024-03-11T15:00:00+08:00"));
    const ids = outcome.cards.slice(1).map((card) => String(card.args.task_id));
    expect(ids.sort()).toEqual(MONDAY_REVIEWS.filter((id) => id !== "review-limits"));
    expect(statusOf(outcome.schedule.tasks, "review-limits")).toBe("placed");
    expect(outcome.said.join("\n")).toMatch(/"Review limits and continuity" has started/);
  });

  test.each([
    ["skip all my reviews today", /"Review limits and continuity" has started, so it stays/],
    ["今天的复习都跳过", /“Review limits and continuity”已经开始，保留不动/],
    ["clear today", /"Review limits and continuity" has started, so it stays/],
  ])("%s at 15:00: the review that has started is left out, and the answer says so", async (message, said) => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(tempo, message, accept, undefined, "student", at("2024-03-11T15:00:00+08:00"));
    const ids = outcome.cards.slice(1).map((card) => String(card.args.task_id));
    expect(ids.sort()).toEqual(MONDAY_REVIEWS.filter((id) => id !== "review-limits"));
    expect(statusOf(outcome.schedule.tasks, "review-limits")).toBe("placed");
    expect(outcome.finalAnswer ?? "").toMatch(said);
  });

  test("a day with no review placed proposes nothing and says so", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(tempo, "clear Tuesday", accept);
    // Nothing to approve: no plan card (one was raised for nothing before).
    expect(outcome.cards.map((card) => card.action)).toEqual([]);
    expect(`${outcome.said.join("\n")}\n${outcome.finalAnswer ?? ""}`).toMatch(/No review is placed on Tue 12 Mar/);
  });

  test("rejecting the card leaves the day as it was", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(
      tempo,
      "skip all my reviews today",
      (card) => (card.action === "confirm_plan" ? accept() : { type: "ignore", args: null }),
      undefined,
      "student",
      MONDAY_MORNING,
    );
    expect(outcome.cardCounts.slice(1)).toEqual([5]);
    for (const id of MONDAY_REVIEWS) expect(statusOf(outcome.schedule.tasks, id)).toBe("placed");
  });

  test("a write rejected on the card keeps that review; the others apply", async () => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(
      tempo,
      "clear tomorrow",
      (card) => (card.args.task_id === "binary-tree-review" ? { type: "ignore", args: null } : accept()),
      undefined,
      "student",
      SUNDAY_EVENING,
    );
    expect(statusOf(outcome.schedule.tasks, "binary-tree-review")).toBe("placed");
    for (const id of MONDAY_REVIEWS.filter((each) => each !== "binary-tree-review"))
      expect(statusOf(outcome.schedule.tasks, id)).toBe("pending");
    expect(outcome.finalAnswer ?? "").toMatch(/kept "Binary tree review"/);
  });

  test("the plan's steps read back as the same request, in both languages", () => {
    for (const step of [
      "Skip every review placed on Monday (day 1), in the evening (slots 9-12)",
      "跳过周一（第1天），晚上（第9-12节）的所有复习",
    ])
      expect(parseScheduleRequest(step)).toMatchObject({
        kind: "clear_day",
        how: "skip",
        where: { only: { days: [1] }, slots: { from: 9, to: 12 } },
      });
    expect(parseScheduleRequest("取消安排周二（第2天）的所有复习")).toMatchObject({
      kind: "clear_day",
      how: "unplace",
    });
    // A reason said first ("I'm sick", "不想复习了", "有事") before the whole day goes.
    for (const said of ["今天不想复习了，全部跳过", "我今天有事，全部跳过", "今晚的复习都跳过"])
      expect(parseScheduleRequest(said)).toMatchObject({ kind: "clear_day", how: "skip" });
    for (const said of ["remove everything tomorrow", "delete all my reviews on Friday"])
      expect(parseScheduleRequest(said)).toMatchObject({ kind: "clear_day", how: "unplace" });
    // An event named with its day is still an event to remove.
    expect(parseScheduleRequest("remove the Friday tutorial")).toMatchObject({
      kind: "unplace",
      task: "friday tutorial",
    });
    // One review of a day, and a task named with a day, stay what they were.
    expect(parseScheduleRequest("skip today's review")).toMatchObject({ kind: "mark", to: "skipped", daysAgo: 0 });
    expect(parseScheduleRequest("skip the vocabulary list this week")).toMatchObject({ kind: "mark" });
  });
  test.each([
    ["skip everything", "skip"],
    ["cancel everything", "unplace"],
    ["全部跳过", "skip"],
    ["取消所有复习", "unplace"],
  ] as const)("%s, with no day: today's reviews", async (message, tool) => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(tempo, message, accept, undefined, "student", MONDAY_MORNING);
    expect(outcome.cards[0]?.action).toBe("confirm_plan");
    expect(outcome.cards.slice(1).every((card) => card.action === tool)).toBe(true);
    expect(
      outcome.cards
        .slice(1)
        .map((card) => String(card.args.task_id))
        .sort(),
    ).toEqual(MONDAY_REVIEWS);
    expect(statusOf(outcome.schedule.tasks, "matrix-review")).toBe("placed");
  });

  test.each([
    ["clear everything", "tomorrow", /Which day should I clear\?/],
    ["全部清空", "明天", /要清空哪一天？/],
  ] as const)("%s, with no day: asks which day, and the answer's day is cleared", async (message, day, question) => {
    const tempo = await offlineTempo(crowdedMondayWeek());
    const outcome = await converse(
      tempo,
      message,
      (card) => (card.action === "ask_user" ? { type: "response", args: day } : accept()),
      undefined,
      "student",
      SUNDAY_EVENING,
    );
    expect(outcome.cards[0]?.action).toBe("ask_user");
    expect(outcome.said.join("\n")).toMatch(question);
    expect(outcome.cards.slice(2).every((card) => card.action === "unplace")).toBe(true);
    for (const id of MONDAY_REVIEWS) expect(statusOf(outcome.schedule.tasks, id)).toBe("pending");
    expect(statusOf(outcome.schedule.tasks, "matrix-review")).toBe("placed");
  });

  test("no day and no word for everything stays one task", () => {
    expect(parseScheduleRequest("skip the vocabulary list")).toMatchObject({ kind: "mark", to: "skipped" });
    expect(parseScheduleRequest("clear everything")).toMatchObject({
      kind: "clear_day",
      how: "unplace",
      where: { only: { weekdays: [], days: [] } },
    });
  });
});
