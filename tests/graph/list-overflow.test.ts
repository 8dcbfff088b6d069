/**
 * "Which reviews are not done yet?" reads one listing of every task item, which stops at 100. What it leaves out may
 * be done or skipped, so it is never counted as not done: with 110 skipped reviews after the week's 8, the answer
 * said "8+18 review task(s) not done yet" where 8 were. The oracle is the stored week's own statuses.
 */
import { describe, expect, test } from "vitest";
import type { TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Tuesday 12 March 2024, 09:00 in Shanghai. */
const TUESDAY = () => new Date("2024-03-12T09:00:00+08:00");

describe("a listing of more than 100 task items", () => {
  test("'not done yet' counts only what it read as not done, and says how many it did not list", async () => {
    const week = halfPlacedWeek();
    const template = week.tasks.find((task) => task.source === "task_item") as TaskItem;
    for (let index = 0; index < 110; index += 1) {
      const { slots: _slots, ...rest } = template;
      week.tasks.push({ ...rest, id: `old-review-${index}`, name: `Old review ${index}`, status: "skipped" });
    }
    const open = week.tasks.filter(
      (task): task is TaskItem => task.source === "task_item" && !["done", "skipped"].includes(task.status),
    );
    const outcome = await converse(await offlineTempo(week, TUESDAY), "which reviews are not done yet?");
    const answer = outcome.finalAnswer ?? "";
    const [count] = /^(\d+)/.exec(answer) ?? [];
    // Never more than the week holds.
    expect(Number(count)).toBeLessThanOrEqual(open.length);
    expect(answer).not.toMatch(/^\d+\+\d+/);
    expect(answer).toMatch(
      /^8 review task\(s\) not done yet among the first 100 task\(s\) listed; 18 more task\(s\) were not listed:/,
    );
    for (const task of open) expect(answer).toContain(task.name);
  });
});
