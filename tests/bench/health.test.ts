/**
 * bench/health.ts's paths on a few of its weeks: the backend paths place the most that fit whenever the search
 * proves it and never lower the score; choosing at random among the top three ends within 5 % of the best; the
 * free-choice path spends two calls (find_free, place) per review it places.
 */
import { expect, test } from "vitest";
import { backendPath, benchWeeks, freeChoicePath, mostThatFit } from "../../bench/health.js";

test("the backend paths place the most that fit and only raise the score; free choice costs two calls a review", () => {
  for (const [index, week] of benchWeeks(6).entries()) {
    const before = week.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length;
    const { most, proved } = mostThatFit(week);
    const best = backendPath(week, () => 0);
    const random = backendPath(week, (count) => (index + count) % count);
    for (const path of [best, random]) {
      if (proved) expect(path.placed - before).toBe(most);
      for (let at = 1; at < path.scores.length; at += 1) expect(path.scores[at]).toBeGreaterThan(path.scores[at - 1]!);
    }
    expect(random.score).toBeGreaterThanOrEqual(0.95 * best.score);
    const free = freeChoicePath(week);
    const pending = week.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length;
    expect(free.calls).toBe(pending + (free.placed - before));
  }
});
