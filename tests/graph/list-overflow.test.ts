/**
 * "Which reviews are not done yet?" first reads one listing of every task item, which stops at 100. What it leaves
 * out may be still to do, so past 100 each status still to do (pending, placed, missed) is listed on its own and the
 * answer counts from those: with 110 skipped reviews before the week's 8, the answer once named none of the 8 and
 * said "0 … among the first 100"; with 110 after them, "8+18" claimed 26. The oracle is the stored week's statuses.
 */
import { describe, expect, test } from "vitest";
import type { ScheduleState, TaskItem } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Tuesday 12 March 2024, 09:00 in Shanghai. */
const TUESDAY = () => new Date("2024-03-12T09:00:00+08:00");

/** The week with `count` more reviews of `status`, before or after its own task items. */
function weekWith(count: number, status: TaskItem["status"], where: "before" | "after"): ScheduleState {
  const week = halfPlacedWeek();
  const template = week.tasks.find((task) => task.source === "task_item") as TaskItem;
  const { slots: _slots, ...rest } = template;
  const added = Array.from({ length: count }, (_, index) => ({
    ...rest,
    id: `old-review-${index}`,
    name: `Old review ${index}`,
    status,
  }));
  week.tasks = where === "after" ? [...week.tasks, ...added] : [...added, ...week.tasks];
  return week;
}

/** The task items the stored week holds as still to do. */
const stillToDo = (week: ScheduleState) =>
  week.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && !["done", "skipped"].includes(task.status),
  );

describe("a listing of more than 100 task items", () => {
  test.each(["before", "after"] as const)(
    "'not done yet' with 110 skipped reviews %s the week's own counts and names exactly the open ones",
    async (where) => {
      const week = weekWith(110, "skipped", where);
      const open = stillToDo(week);
      const outcome = await converse(await offlineTempo(week, TUESDAY), "which reviews are not done yet?");
      const answer = outcome.finalAnswer ?? "";
      expect(answer).toMatch(new RegExp(`^${open.length} review task\\(s\\) not done yet:\\n`));
      for (const task of open) expect(answer).toContain(`- ${task.name},`);
      expect(answer).not.toContain("Old review");
      // One line per open review, no more.
      expect(answer.split("\n").filter((line) => line.startsWith("- "))).toHaveLength(open.length);
    },
  );

  test("more open reviews than one status listing holds: the count is exact and says how many are listed", async () => {
    const week = weekWith(130, "pending", "after");
    const open = stillToDo(week);
    const outcome = await converse(await offlineTempo(week, TUESDAY), "which reviews are not done yet?");
    const answer = outcome.finalAnswer ?? "";
    const [, total, listed] = /^(\d+) review task\(s\) not done yet; (\d+) listed:/.exec(answer) ?? [];
    expect(Number(total)).toBe(open.length);
    expect(answer.split("\n").filter((line) => line.startsWith("- "))).toHaveLength(Number(listed));
    // Every placed review of the week is listed (its own listing holds all of them).
    for (const task of open.filter((each) => each.status === "placed")) expect(answer).toContain(`- ${task.name},`);
  });

  test("in Chinese too", async () => {
    const week = weekWith(110, "skipped", "before");
    const open = stillToDo(week);
    const outcome = await converse(await offlineTempo(week, TUESDAY), "哪些复习还没完成？");
    const answer = outcome.finalAnswer ?? "";
    expect(answer).toMatch(new RegExp(`^${open.length} 个`));
    for (const task of open) expect(answer).toContain(`- ${task.name}，`);
  });
});
