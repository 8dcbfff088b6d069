/**
 * "I finished the matrix review and the limits review": a mark that names several reviews marks each of them — a step
 * and a card for each — where it used to mark the first that matched and say the other "matches too". A name with
 * "and" in it ("Review limits and continuity") stays one review. The oracle is the repository's stored statuses.
 */
import { describe, expect, test } from "vitest";
import type { TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, type ConversationOutcome } from "./support/offline-conversation.js";

/** Tuesday 12 March 2024, 09:00 in Shanghai: the half-placed week's Monday review is behind, the rest ahead. */
const TUESDAY = () => new Date("2024-03-12T09:00:00+08:00");

/** Each review's stored status, by id. */
function statuses(outcome: ConversationOutcome): Record<string, string> {
  return Object.fromEntries(
    outcome.schedule.tasks
      .filter((task): task is TaskItem => task.source === "task_item")
      .map((task) => [task.id, task.status]),
  );
}

describe("a mark that names several reviews", () => {
  test.each([
    ["I finished the matrix review and the limits review", "mark_done", "done", ["matrix-review", "review-limits"]],
    ["我做完了矩阵运算复习和极限与连续复习", "mark_done", "done", ["matrix-review", "review-limits"]],
    [
      "skip the matrix review, the essay and the vocabulary list",
      "skip",
      "skipped",
      ["matrix-review", "essay-draft", "vocabulary-list"],
    ],
  ])("%s: each is marked, one card each", async (request, tool, status, ids) => {
    const chinese = /[\u4e00-\u9fff]/.test(request);
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }), TUESDAY);
    const before = statuses(await converse(tempo, "which reviews are placed?"));
    const outcome = await converse(tempo, request);
    expect(outcome.cards.filter((card) => card.action === tool).map((card) => card.args.task_id)).toEqual(ids);
    const after = statuses(outcome);
    for (const [id, was] of Object.entries(before)) expect(after[id]).toBe(ids.includes(id) ? status : was);
    expect(outcome.planSteps).toHaveLength(ids.length);
    expect(outcome.finalAnswer).toMatch(chinese ? /^完成：\n/ : /^Done:\n/);
  });

  test("a review whose name holds 'and' is one review, marked alone", async () => {
    const tempo = await offlineTempo(halfPlacedWeek(), TUESDAY);
    const outcome = await converse(tempo, "I did review limits and continuity");
    expect(outcome.cards.filter((card) => card.action === "mark_done").map((card) => card.args.task_id)).toEqual([
      "review-limits",
    ]);
    expect(outcome.planSteps).toHaveLength(1);
    expect(statuses(outcome)["matrix-review"]).toBe("placed");
  });

  test("a card declined leaves its review as it was, and the answer counts only what was done", async () => {
    const tempo = await offlineTempo(halfPlacedWeek(), TUESDAY);
    const outcome = await converse(tempo, "I finished the matrix review and the limits review", [
      { type: "accept", args: null },
      { type: "accept", args: null },
      { type: "response", args: "not yet" },
    ]);
    expect(statuses(outcome)).toMatchObject({ "matrix-review": "done", "review-limits": "placed" });
    expect(outcome.finalAnswer).toMatch(/^Done 1 of 2; the others were not carried out \(below\)\./);
    expect(outcome.finalAnswer).toContain('- [not carried out] Mark "limits review" done — the user rejected it');
    expect(outcome.finalAnswer).not.toMatch(/\[done\][^\n]*not carried out/);
  });

  test("a part that names no review is left out and said; the rest is marked", async () => {
    const tempo = await offlineTempo(halfPlacedWeek(), TUESDAY);
    const outcome = await converse(tempo, "I finished the matrix review and the zebra notes");
    expect(outcome.planSteps).toEqual(['Mark "matrix review" done']);
    expect(outcome.said.join("\n")).toContain('I found no task matching "zebra notes"; I left it out.');
    expect(statuses(outcome)).toMatchObject({ "matrix-review": "done", "review-limits": "placed" });
  });
});
