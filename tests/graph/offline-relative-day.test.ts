/**
 * "I missed yesterday's review", said to the offline policy: the day is counted from the run's clock
 * (`configurable.now`), so on Wednesday it is Tuesday's review and on Friday Thursday's — as "I missed Tuesday's
 * review" is read — in English and Chinese. A day said after a task's name ("I did the vocabulary list today") says
 * when, not which: the named task is marked, even one that had no place that day.
 */
import { describe, expect, test } from "vitest";
import type { TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** The sample week's days (Mon 11 – Sun 17 March 2024, Shanghai), at 21:00. */
const at = (date: string) => ({ now: new Date(`${date}T21:00:00+08:00`).toISOString() });
const WEDNESDAY = at("2024-03-13");
const FRIDAY = at("2024-03-15");
const MONDAY = at("2024-03-11");

const ROWS: Array<{ request: string; chinese?: boolean; now: { now: string }; tool: string; id: string }> = [
  // halfPlacedWeek: the matrix review on Tuesday, the vocabulary list on Thursday, the limits review on Monday.
  { request: "I missed yesterday's review", now: WEDNESDAY, tool: "mark_missed", id: "matrix-review" },
  { request: "I missed yesterday's review", now: FRIDAY, tool: "mark_missed", id: "vocabulary-list" },
  { request: "我昨天的复习没做", chinese: true, now: WEDNESDAY, tool: "mark_missed", id: "matrix-review" },
  { request: "I did today's review", now: MONDAY, tool: "mark_done", id: "review-limits" },
  { request: "I did the binary tree review yesterday", now: WEDNESDAY, tool: "mark_done", id: "binary-tree-review" },
];

describe("a review named by a day counted from today", () => {
  test.each(ROWS.map((row) => [`${row.request} (${row.now.now})`, row] as const))("%s", async (_, row) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: row.chinese }));
    const outcome = await converse(
      tempo,
      row.request,
      (card) => (card.action === "place" ? { type: "response", args: "no" } : { type: "accept", args: null }),
      undefined,
      "student",
      row.now,
    );
    expect(outcome.cards.slice(0, 2).map((card) => card.action)).toEqual(["confirm_plan", row.tool]);
    expect(outcome.cards[1]?.args).toMatchObject({ task_id: row.id });
    const task = outcome.schedule.tasks.find((each) => each.id === row.id) as TaskItem;
    expect(task.status).toBe(row.tool === "mark_done" ? "done" : "missed");
  });
});

describe("a day said as students type it, counted from the run's clock", () => {
  // Tuesday 12 March, 09:00: "in 2 days" is Thursday (it planned a whole arrangement in Chinese, and asked which task
  // "on in 2 days" was in English); "tmr" is Wednesday (it could not tell).
  const TUESDAY = { now: new Date("2024-03-12T09:00:00+08:00").toISOString() };
  test.each([
    ["what's on in 2 days?", false, /^Thu 14 Mar, 08:00–22:30:/],
    ["2天后有什么安排", true, /^3月14日周四，08:00–22:30：/],
    ["wat's on tmr?", false, /^Wed 13 Mar, 08:00–22:30:/],
    ["what do I have 2moro", false, /^Wed 13 Mar, 08:00–22:30:/],
    // No day named: today's (it asked which task "on" was).
    ["what's on?", false, /^Tue 12 Mar, 08:00–22:30:/],
    ["有什么安排", true, /^3月12日周二，08:00–22:30：/],
  ])("%s", async (request, chinese, answer) => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese }));
    const outcome = await converse(tempo, request, [], undefined, "student", TUESDAY);
    expect(outcome.cards).toEqual([]);
    expect(outcome.finalAnswer).toMatch(answer);
  });
});
