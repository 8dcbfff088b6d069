/**
 * A task's life said to the offline policy (issue 47 item 8), in English and Chinese, typos tolerated, through the
 * whole graph (chat → plan → confirm → execute → deliver): each request becomes a plan card for the one mark and the
 * mark's own card; the schedule afterwards holds the new status. A request the policy cannot read is declined.
 */
import { describe, expect, test } from "vitest";
import { canonicalScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, type ConversationOutcome } from "./support/offline-conversation.js";

const statusOf = (outcome: ConversationOutcome, id: string) =>
  (outcome.schedule.tasks.find((task) => task.id === id) as TaskItem).status;

const ROWS: Array<{ request: string; chinese?: boolean; tool: string; id: string; status: string }> = [
  { request: "I did the matrix review", tool: "mark_done", id: "matrix-review", status: "done" },
  { request: "i finsihed the matrix review", tool: "mark_done", id: "matrix-review", status: "done" },
  { request: "I missed Tuesday's review", tool: "mark_missed", id: "matrix-review", status: "missed" },
  { request: "我周二的复习没做", chinese: true, tool: "mark_missed", id: "matrix-review", status: "missed" },
  { request: "skip the vocabulary list this week", tool: "skip", id: "vocabulary-list", status: "skipped" },
  { request: "这周跳过单词表", chinese: true, tool: "skip", id: "vocabulary-list", status: "skipped" },
  { request: "矩阵复习做完了", chinese: true, tool: "mark_done", id: "matrix-review", status: "done" },
];

describe("the offline policy reads a task's life", () => {
  test.each(ROWS.map((row) => [row.request, row] as const))("%s", async (_, row) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: row.chinese }));
    const outcome = await converse(tempo, row.request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", row.tool]);
    expect(outcome.cards[1]?.args).toMatchObject({ task_id: row.id });
    expect(outcome.phase).toBe("done");
    expect(statusOf(outcome, row.id)).toBe(row.status);
  });

  test("a mark the user rejects changes nothing, and the reply says it was left as it was", async () => {
    const week = halfPlacedWeek();
    const tempo = await offlineTempo(week);
    const outcome = await converse(tempo, "I did the matrix review", (card) =>
      card.action === "mark_done" ? { type: "response", args: "no, not yet" } : { type: "accept", args: null },
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "mark_done"]);
    expect(statusOf(outcome, "matrix-review")).toBe("placed");
    expect(outcome.said.join("\n")).toMatch(/I left it as it was/);
  });

  test("a request it cannot read (undo, for now) is declined with what it can do, and nothing changes", async () => {
    const week = halfPlacedWeek();
    const tempo = await offlineTempo(week);
    const outcome = await converse(tempo, "undo that");
    expect(outcome.cards).toEqual([]);
    expect(JSON.stringify(canonicalScheduleState(outcome.schedule))).toBe(JSON.stringify(canonicalScheduleState(week)));
    expect(outcome.said.at(-1)).toMatch(/can/i);
  });
});
