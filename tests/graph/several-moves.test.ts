/**
 * "Move the matrix review to Thursday and the essay to Friday": several moves said at once are each carried out — a
 * step and a card each — where the words used to read as one move of the matrix review to "Thursday or Friday", the
 * essay's move dropped unsaid. So do "unplace A and B" and "move A and B to Friday" (it acted on one). The oracle is
 * the stored week: each named review on the day asked (the day index of the weekday, read from the stored window), the
 * others where they were, and the week's invariants.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, type ConversationOutcome } from "./support/offline-conversation.js";

/** Tuesday 12 March 2024, 09:00 in Shanghai: the half-placed week's Monday review is behind, the rest ahead. */
const TUESDAY = () => new Date("2024-03-12T09:00:00+08:00");

/** The day index of a weekday ("2024-03-14" is a Thursday) in the stored window. */
function dayOf(week: ScheduleState, date: string): number {
  return week.window.days.find((day) => day.date === date)!.dayIndex;
}

const items = (week: ScheduleState) => week.tasks.filter((task): task is TaskItem => task.source === "task_item");

/** Each review's status and place, by id. */
function places(week: ScheduleState): Record<string, string> {
  return Object.fromEntries(items(week).map((task) => [task.id, `${task.status} ${JSON.stringify(task.slots ?? [])}`]));
}

/** Checks each id in `moved` is placed on its date, and every other review is as it was. */
function expectMoved(before: ScheduleState, outcome: ConversationOutcome, moved: Record<string, string>): void {
  const after = outcome.schedule;
  expect(checkScheduleInvariants(after)).toEqual([]);
  const was = places(before);
  for (const task of items(after)) {
    const date = moved[task.id];
    if (date === undefined) expect(`${task.status} ${JSON.stringify(task.slots ?? [])}`, task.id).toBe(was[task.id]);
    else {
      expect(task.status, task.id).toBe("placed");
      expect(
        task.slots?.map((range) => range.day),
        task.id,
      ).toEqual([dayOf(after, date)]);
    }
  }
}

const THURSDAY = "2024-03-14";
const FRIDAY = "2024-03-15";

describe("several moves said at once", () => {
  test.each([
    "move the matrix review to thursday and the essay to friday",
    "Move the matrix review to Thursday, then the essay to Friday.",
    "Move the matrix review to Thursday. Move the essay to Friday.",
    "move the matrix review to thursday. And the essay to friday",
    "把矩阵复习挪到周四，作文挪到周五",
    "把矩阵复习挪到周四，然后把作文挪到周五",
  ])("%s: each review on its own day, a step and a card each", async (request) => {
    const chinese = /[\u4e00-\u9fff]/.test(request);
    const week = halfPlacedWeek({ chinese });
    const outcome = await converse(await offlineTempo(week, TUESDAY), request);
    expect(outcome.cards.filter((card) => card.action === "move").map((card) => card.args.task_id)).toEqual([
      "matrix-review",
      "essay-draft",
    ]);
    expect(outcome.planSteps).toHaveLength(2);
    expectMoved(week, outcome, { "matrix-review": THURSDAY, "essay-draft": FRIDAY });
    expect(outcome.finalAnswer).toMatch(chinese ? /^完成：\n/ : /^Done:\n/);
  });

  test.each([
    "move the matrix review and the essay to friday",
    "把矩阵复习和作文挪到周五",
    // The last task without a place of its own goes where the one before it goes (it was dropped unsaid).
    "move the matrix review to friday and the essay too",
  ])("%s: both to the day said", async (request) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, TUESDAY), request);
    expect(outcome.cards.filter((card) => card.action === "move")).toHaveLength(2);
    expectMoved(week, outcome, { "matrix-review": FRIDAY, "essay-draft": FRIDAY });
  });

  test("a shift and a move together: each as said", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, TUESDAY),
      "push the matrix review back a day and the essay to friday",
    );
    // The matrix review is on Tuesday: a day later is Wednesday.
    expectMoved(week, outcome, { "matrix-review": "2024-03-13", "essay-draft": FRIDAY });
  });

  test("unplace A and B: both pending again, the rest as they were", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week, TUESDAY), "unplace the matrix review and the essay");
    expect(outcome.cards.filter((card) => card.action === "unplace").map((card) => card.args.task_id)).toEqual([
      "matrix-review",
      "essay-draft",
    ]);
    const after = Object.fromEntries(items(outcome.schedule).map((task) => [task.id, task]));
    expect([after["matrix-review"]!.status, after["essay-draft"]!.status]).toEqual(["pending", "pending"]);
    const was = places(week);
    for (const task of items(outcome.schedule))
      if (task.id !== "matrix-review" && task.id !== "essay-draft")
        expect(`${task.status} ${JSON.stringify(task.slots ?? [])}`).toBe(was[task.id]);
  });

  test("the second card declined: the first move stands, the answer says the other was not carried out", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, TUESDAY),
      "move the matrix review to thursday and the essay to friday",
      [
        { type: "accept", args: null },
        { type: "accept", args: null },
        { type: "response", args: "no, keep the essay" },
      ],
    );
    expectMoved(week, outcome, { "matrix-review": THURSDAY });
    expect(outcome.finalAnswer).toMatch(/^Done 1 of 2; the others were not carried out \(below\)\./);
    expect(outcome.finalAnswer).toContain('[not carried out] Move "essay" to Friday');
  });

  test("a name the week does not hold is asked about; the answer is that move's, the other move kept", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, TUESDAY),
      "move the matrix review to thursday and the zebra notes to friday",
      [{ type: "response", args: "the vocabulary list" }],
    );
    expect(outcome.cards[0]!.action).toBe("ask_user");
    expect(outcome.said[0]).toContain('"zebra notes"');
    expectMoved(week, outcome, { "matrix-review": THURSDAY, "vocabulary-list": FRIDAY });
  });

  test("two names the week does not hold: one question, then the other move is left out and said", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(
      await offlineTempo(week, TUESDAY),
      "move the zebra notes to thursday and the quux to friday",
      [{ type: "response", args: "the vocabulary list" }],
    );
    expect(outcome.cards.filter((card) => card.action === "ask_user")).toHaveLength(1);
    expect(outcome.said.join("\n")).toContain('I left out moving "quux"');
    expectMoved(week, outcome, { "vocabulary-list": THURSDAY });
  });
});

describe("reading several moves", () => {
  const moves = (text: string) => {
    const request = parseScheduleRequest(text);
    if (request.kind !== "move") return request.kind;
    return [request, ...(request.also ?? [])].map((move) => [move.task, move.where.only.weekdays, move.shift ?? null]);
  };

  test.each([
    [
      "move the matrix review to thursday and the essay to friday",
      [
        ["matrix review", [4], null],
        ["essay", [5], null],
      ],
    ],
    [
      "move the matrix review to thursday, the essay to friday and binary trees to monday",
      [
        ["matrix review", [4], null],
        ["essay", [5], null],
        ["binary trees", [1], null],
      ],
    ],
    [
      "push the essay back a day and the matrix review to friday",
      [
        ["essay", [], { days: 1 }],
        ["matrix review", [5], null],
      ],
    ],
    [
      "把矩阵复习挪到周四，作文挪到周五",
      [
        ["矩阵复习", [4], null],
        ["作文", [5], null],
      ],
    ],
    // One move: its target names two days, or words after it are no move of a task.
    ["move the matrix review to thursday and friday", [["matrix review", [4, 5], null]]],
    ["move the matrix review to thursday, and friday", [["matrix review", [4, 5], null]]],
    ["move the matrix review to thursday and make it the morning", [["matrix review", [4], null]]],
    ["move review limits and continuity to friday", [["review limits and continuity", [5], null]]],
    ["Move the essay to Friday. I prefer mornings.", [["essay", [5], null]]],
    [
      "move the matrix review to thursday and the essay",
      [
        ["matrix review", [4], null],
        ["essay", [4], null],
      ],
    ],
    [
      "push the essay back a day and the matrix review",
      [
        ["essay", [], { days: 1 }],
        ["matrix review", [], { days: 1 }],
      ],
    ],
    ["move the essay to friday and thanks", [["essay", [5], null]]],
  ])("%s", (text, expected) => {
    expect(moves(text)).toEqual(expected);
  });
});
