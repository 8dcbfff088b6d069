/**
 * "Push all my reviews back a day" (it asked which review): every review still ahead moves by the days said, on one
 * card (`batch_move`), at its own time on its new day when that is free, else the free time nearest it; one whose new
 * day is outside the schedule, or has no room, stays and is named. The clock moves day by day; the oracle reads the
 * stored week alone (each review's start from its dates and slot times, the invariants' checker) — no policy code.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, placeTool, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** When a placed task item starts, as the stored week says it (the sample week is in Shanghai). */
function startOf(week: ScheduleState, task: TaskItem): number {
  const range = task.slots![0]!;
  const date = week.window.days.find((day) => day.dayIndex === range.day)!.date!;
  return new Date(`${date}T${week.window.slotTimes![range.start - 1]!.start}:00+08:00`).getTime();
}

const reviews = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed");

/** Each day of the sample week at 09:00 in Shanghai. */
const MORNINGS = [11, 12, 13, 14, 15, 16, 17].map((day) => `2024-03-${day}T09:00:00+08:00`);

/**
 * `request` asked of the half-placed week at `now`, its cards accepted: the week as it was and the outcome, checked
 * for the week's invariants and at most one card of writes, a single batch_move.
 */
async function askedAt(request: string, now: string) {
  const week = halfPlacedWeek();
  const tempo = await offlineTempo(week, () => new Date(now));
  const outcome = await converse(tempo, request, [], undefined, "student", { now });
  expect(checkScheduleInvariants(outcome.schedule), now).toEqual([]);
  expect(
    outcome.cards.filter((card) => card.action !== "confirm_plan").map((card) => card.action),
    now,
  ).toEqual(outcome.cards.length > 1 ? ["batch_move"] : []);
  return { week, outcome };
}

describe("every review moved by whole days at once", () => {
  test("each morning, 'push all my reviews back a day': what was ahead is a day on, or named as staying", async () => {
    let movedSeen = 0;
    for (const now of MORNINGS) {
      const { week, outcome } = await askedAt("push all my reviews back a day", now);
      const after = outcome.schedule;
      for (const review of reviews(week)) {
        const moved = after.tasks.find((task) => task.id === review.id) as TaskItem;
        const at = `${review.id} at ${now}`;
        if (startOf(week, review) <= new Date(now).getTime()) {
          // Begun before the request: the past is fixed.
          expect(moved, at).toEqual(review);
        } else if (moved.slots![0]!.day === review.slots![0]!.day + 1) {
          movedSeen += 1;
          expect(moved.status, at).toBe("placed");
        } else {
          // It stayed: where it was, and the answer says so by name.
          expect(moved.slots, at).toEqual(review.slots);
          expect(outcome.finalAnswer, at).toContain(`"${review.name}" stays`);
        }
      }
    }
    expect(movedSeen).toBeGreaterThan(3);
  });

  test("a review on the window's last day stays, named, with why; the rest move", async () => {
    // The essay on Sunday evening, the window's last day (placed by the place tool).
    const unplaced = halfPlacedWeek();
    const essay = unplaced.tasks.find((task) => task.id === "essay-draft") as TaskItem;
    essay.status = "pending";
    delete essay.slots;
    const ran = placeTool.run(unplaced, { task_id: "essay-draft", day: 7, slot_start: 9 });
    const week = ran.state!;
    const tempo = await offlineTempo(week, () => new Date(MORNINGS[1]!));
    const outcome = await converse(tempo, "push all my reviews back a day");
    expect(placeOf(outcome.schedule, "essay-draft")).toEqual({ day: 7, start: 9, end: 10 });
    expect(placeOf(outcome.schedule, "matrix-review")?.day).toBe(3);
    expect(outcome.finalAnswer).toContain('"Draft the English essay" stays: a day later is outside the schedule');
  });

  test("declined on its card: every review stays where it was", async () => {
    const week = halfPlacedWeek();
    const tempo = await offlineTempo(week, () => new Date(MORNINGS[1]!));
    const outcome = await converse(tempo, "push all my reviews back a day", [
      { type: "accept", args: null },
      { type: "response", args: "no, leave them" },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "batch_move"]);
    for (const review of reviews(week)) expect(placeOf(outcome.schedule, review.id)).toEqual(review.slots![0]);
    expect(outcome.finalAnswer).toContain("you kept the reviews where they are");
  });

  test("a move the week refuses (a deadline) leaves that review where it is; the rest move on one card", async () => {
    // The vocabulary list (Thursday) is due before Friday: a day later breaks its deadline.
    const week = halfPlacedWeek();
    (week.tasks.find((task) => task.id === "vocabulary-list") as TaskItem).dueBefore = { day: 5 };
    const tempo = await offlineTempo(week, () => new Date(MORNINGS[1]!));
    const outcome = await converse(tempo, "push all my reviews back a day");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "batch_move"]);
    expect((outcome.cards[1]!.args.moves as Array<{ task_id: string }>).map((move) => move.task_id)).not.toContain(
      "vocabulary-list",
    );
    // Its places read for it, the deadline is kept from the first proposal: the week refuses no batch.
    expect(outcome.toolCalls.filter((name) => name === "batch_move")).toHaveLength(1);
    expect(placeOf(outcome.schedule, "vocabulary-list")).toEqual({ day: 4, start: 1, end: 1 });
    expect(placeOf(outcome.schedule, "matrix-review")?.day).toBe(3);
    expect(outcome.finalAnswer).toContain('"Vocabulary list unit 5" stays');
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  });

  test("in Chinese, the reviews that stay are said in Chinese: a deadline, the window's last day", async () => {
    const week = halfPlacedWeek({ chinese: true });
    (week.tasks.find((task) => task.id === "vocabulary-list") as TaskItem).dueBefore = { day: 5 };
    const essay = week.tasks.find((task) => task.id === "essay-draft") as TaskItem;
    essay.status = "pending";
    delete essay.slots;
    const tempo = await offlineTempo(
      placeTool.run(week, { task_id: "essay-draft", day: 7, slot_start: 9 }).state!,
      () => new Date(MORNINGS[1]!),
    );
    const outcome = await converse(tempo, "把所有复习往后推一天");
    expect(placeOf(outcome.schedule, "matrix-review")?.day).toBe(3);
    expect(outcome.finalAnswer).toMatch(/^完成：已移动这些复习：/);
    expect(outcome.finalAnswer).toContain('"第五单元单词表" 保留不动：');
    expect(outcome.finalAnswer).toContain('"英语作文草稿" 保留不动：');
    expect(outcome.finalAnswer).not.toMatch(/stays|due before|too late|outside the schedule|[a-z]{4,}/);
  });

  test("one day's reviews to another: 'move today's reviews to tomorrow', 把今天的复习都挪到明天", async () => {
    for (const [request, chinese] of [
      ["move today's reviews to tomorrow", false],
      ["把今天的复习都挪到明天", true],
    ] as const) {
      const week = halfPlacedWeek({ chinese });
      const tempo = await offlineTempo(week, () => new Date(MORNINGS[1]!));
      const outcome = await converse(tempo, request);
      // Tuesday's one review moves to Wednesday; no other review moves.
      expect(placeOf(outcome.schedule, "matrix-review")?.day).toBe(3);
      for (const review of reviews(week).filter((task) => task.id !== "matrix-review"))
        expect(placeOf(outcome.schedule, review.id)).toEqual(review.slots![0]);
    }
  });

  test.each([
    ["push all my reviews back a day", { kind: "shift_all", days: 1 }],
    ["move all of my reviews a day later", { kind: "shift_all", days: 1 }],
    ["push my reviews 2 days earlier", { kind: "shift_all", days: -2 }],
    ["push everything back a day", { kind: "shift_all", days: 1 }],
    ["把所有复习往后推一天", { kind: "shift_all", days: 1 }],
    ["所有复习都推迟一天", { kind: "shift_all", days: 1 }],
    // "我(的)所有的复习" ("all of my reviews", said with its possessive) was read as one review named so, and asked about.
    ["把我所有的复习推迟一天", { kind: "shift_all", days: 1 }],
    ["把我全部的复习提前一天", { kind: "shift_all", days: -1 }],
    ["把我的复习全部往后推一小时", { kind: "shift_all", minutes: 60 }],
    ["push tomorrow's reviews back a day", { kind: "shift_all", days: 1, fromToday: 1 }],
    ["把周五的所有复习往后推两天", { kind: "shift_all", days: 2, weekday: 5 }],
    // The plan's own steps read back.
    ["Push all of Tuesday's reviews 1 day later", { kind: "shift_all", days: 1, weekday: 2 }],
    ["把周二的所有复习提前1天", { kind: "shift_all", days: -1, weekday: 2 }],
  ])("%s reads as every review moved by days", (text, request) => {
    expect(parseScheduleRequest(text)).toEqual(request);
  });

  test.each([
    ["push all my reviews back an hour", { kind: "shift_all", minutes: 60 }],
    ["move all my reviews an hour earlier", { kind: "shift_all", minutes: -60 }],
    ["push today's reviews back 30 minutes", { kind: "shift_all", minutes: 30, fromToday: 0 }],
    ["把所有复习往后推一小时", { kind: "shift_all", minutes: 60 }],
    // The plan's own step read back.
    ["Push all reviews 60 minutes later", { kind: "shift_all", minutes: 60 }],
  ])("%s reads as every review moved by time the same day", (text, request) => {
    expect(parseScheduleRequest(text)).toEqual(request);
  });

  test.each([
    "push the matrix review back a day",
    "push all my reviews later",
    "move all my reviews to friday",
    "move thursday's review to friday",
  ])("%s stays a move", (text) => {
    expect(parseScheduleRequest(text).kind).toBe("move");
  });
});

describe("every review moved by time the same day", () => {
  test.each([60, -60, 120])(
    "each morning and afternoon, a shift of %i minutes: each review ahead moves past its own start that way, or is named as staying",
    async (minutes) => {
      const request = `${minutes > 0 ? "push" : "move"} all my reviews ${Math.abs(minutes) / 60} hour${Math.abs(minutes) === 60 ? "" : "s"} ${minutes > 0 ? "later" : "earlier"}`;
      let movedSeen = 0;
      for (const now of [...MORNINGS, ...MORNINGS.map((morning) => morning.replace("T09:00", "T15:00"))]) {
        const { week, outcome } = await askedAt(request, now);
        const after = outcome.schedule;
        for (const review of reviews(week)) {
          const moved = after.tasks.find((task) => task.id === review.id) as TaskItem;
          const at = `${review.id} at ${now}`;
          const own = review.slots![0]!;
          if (startOf(week, review) <= new Date(now).getTime()) expect(moved, at).toEqual(review);
          else if (moved.slots![0]!.start !== own.start) {
            // On its own day, past its own start the way asked (the nearest such place: shift-all-oracle.test.ts).
            movedSeen += 1;
            const landed = moved.slots![0]!;
            expect(landed.day, at).toBe(own.day);
            expect(minutes > 0 ? landed.start > own.start : landed.start < own.start, at).toBe(true);
          } else expect(outcome.finalAnswer, at).toContain(`"${review.name}" stays`);
        }
      }
      // An hour earlier: this week's reviews sit at the day's first free slots, so each stays, named (above).
      expect(movedSeen).toBe(minutes > 0 ? Math.max(movedSeen, 4) : 0);
    },
  );
});

/** Where task `id` sits in `week`. */
function placeOf(week: ScheduleState, id: string) {
  return (week.tasks.find((task) => task.id === id) as TaskItem).slots?.[0];
}
