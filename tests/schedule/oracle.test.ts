/**
 * The oracle of issue 46 (tests/support/schedule-oracle.ts) against the place tool: on small rule-bearing weeks its
 * maximum is what a brute force over every start of every review, each checked by the real `place` tool, finds.
 */
import { describe, expect, test } from "vitest";
import { oracle } from "../support/schedule-oracle.js";
import { ruleWeek, sessionWeek } from "../support/rule-weeks.js";
import { maximumPlaceable } from "./exact-solver.js";

describe("the schedule oracle", () => {
  test("its maximum is the place tool's brute force, on small rule-bearing weeks", () => {
    let weeks = 0;
    for (let seed = 1; weeks < 12; seed += 1) {
      const week = ruleWeek(seed);
      const pending = week.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length;
      if (pending > 4 || week.window.totalDays > 3) continue;
      weeks += 1;
      expect({ seed, most: oracle(week).most }).toEqual({ seed, most: maximumPlaceable(week) });
    }
  });

  test("with sessions (no two of a task on one day), its maximum is still the place tool's brute force", () => {
    let weeks = 0;
    let grouped = 0;
    for (let seed = 1; weeks < 12; seed += 1) {
      const week = sessionWeek(seed);
      const pending = week.tasks.filter((task) => task.source === "task_item" && task.status === "pending");
      if (pending.length > 4 || pending.length < 2 || week.window.totalDays > 3) continue;
      weeks += 1;
      if (pending.some((task) => task.source === "task_item" && task.group)) grouped += 1;
      expect({ seed, most: oracle(week).most }).toEqual({ seed, most: maximumPlaceable(week) });
    }
    expect(grouped).toBeGreaterThan(6);
  });

  test("a set fits together only when each of its reviews fits somewhere on its own", () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const answer = oracle(ruleWeek(seed));
      for (const id of answer.ids) expect(answer.fitsTogether([id])).toBe((answer.alone.get(id) ?? []).length > 0);
      expect(answer.profile[0] + answer.profile[1] + answer.profile[2]).toBe(answer.most);
    }
  });
});
