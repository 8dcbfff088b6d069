/**
 * `pendingThatFit`: how many pending reviews still fit somewhere as the week stands (what ends a step placed by hand
 * in code, issue 49 item 2) — under the rules and the clock, nothing else moved.
 */
import { describe, expect, test } from "vitest";
import { pendingThatFit } from "../../tools/schedule/arrangement.js";
import { sampleWeek, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { runTool } from "./support.js";

const pendingOf = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "pending");

describe("pendingThatFit", () => {
  test("every pending review of the sample fits; none once all are placed", () => {
    const week = sampleWeek();
    expect(pendingThatFit(week)).toBe(pendingOf(week).length);
    const arranged = runTool("propose_arrangement", week);
    let placed = week;
    for (const write of (
      arranged.data as { candidates: Array<{ writes: Array<{ arguments: Record<string, unknown> }> }> }
    ).candidates[0]!.writes)
      placed = runTool("place", placed, write.arguments).state as ScheduleState;
    expect(pendingOf(placed)).toEqual([]);
    expect(pendingThatFit(placed)).toBe(0);
  });

  test("a review longer than every free run does not count; one that fits only in the past does not either", () => {
    const week = sampleWeek();
    const [first] = pendingOf(week);
    week.tasks = [
      ...week.tasks.filter((task) => task.source !== "task_item"),
      { ...first!, id: "long", duration: 9, dueBefore: undefined },
      { ...first!, id: "short", duration: 1, dueBefore: undefined },
    ];
    // The longest free run is 8 slots (Sunday's): "long" fits nowhere, "short" anywhere free.
    expect(pendingThatFit(week)).toBe(1);
    // Late on Sunday nothing is left to start in: "short" fits nowhere either.
    expect(pendingThatFit({ ...week, now: "2024-03-17T23:30:00+08:00" })).toBe(0);
    expect(pendingThatFit({ ...week, now: "2024-03-17T08:00:00+08:00" })).toBe(1);
  });
});
