/**
 * The health judge treats the sessions of one task together (issue 47 item 5): a long task's sessions keep a day
 * each, so a compact class is not marked off for the days they need; two sessions of one task on one day (a week
 * stored before the rule) cost points, unless the group allows it; the incremental judge the candidates climb with
 * scores these weeks as `analyzeHealth` does.
 */
import { describe, expect, test } from "vitest";
import { analyzeHealth } from "../../tools/schedule/health.js";
import { sampleWeek, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { WeekModel } from "../../tools/schedule/week-model.js";
import { write } from "./support.js";

/** An empty dated week with an Essay class (compact, sessions of 1-2 slots) and a 6-slot essay in 3 sessions. */
function essayWeek(): ScheduleState {
  let state: ScheduleState = { ...sampleWeek(), tasks: [] };
  state = write("upsert_task_class", state, { name: "Essay", min_session: 1, max_session: 2, strategy: "compact" });
  return write("add_task", state, { name: "Essay", class_id: "essay", duration: 6, sessions: true });
}

/** `state` with each task placed as given (day, start), built directly as a stored week would load. */
function placedAt(state: ScheduleState, places: Record<string, [number, number]>): ScheduleState {
  return {
    ...state,
    tasks: state.tasks.map((task) => {
      const place = places[task.id];
      if (!place || task.source !== "task_item") return task;
      const [day, start] = place;
      return { ...task, status: "placed", slots: [{ day, start, end: start + task.duration - 1 }] } as TaskItem;
    }),
  };
}

const strategyIssues = (state: ScheduleState) =>
  analyzeHealth(state).issues.filter((issue) => issue.kind === "off_strategy");

describe("the sessions of one task in the health judge", () => {
  test("a compact class is not off for the days a long task's sessions need: one day each", () => {
    const week = essayWeek();
    const apart = placedAt(week, { "essay-s1": [1, 1], "essay-s2": [2, 1], "essay-s3": [3, 1] });
    expect(strategyIssues(apart)).toEqual([]);
    // A review of the class on a fourth day is one day more than they need.
    const withMore = write("add_task", apart, { name: "Outline", class_id: "essay", duration: 1 });
    const fourth = placedAt(withMore, { outline: [4, 1] });
    const issues = strategyIssues(fourth);
    expect(issues.map((issue) => issue.penalty)).toEqual([2]);
    expect(issues[0]!.message).toMatch(/Essay is spread over 4 days; its strategy is compact/);
    // On a day of a session it is together with the task, and nothing is off.
    expect(strategyIssues(placedAt(withMore, { outline: [2, 5] }))).toEqual([]);
  });

  test("two sessions of one task on one day (stored before the rule) cost points naming both; allowed, they do not", () => {
    const week = essayWeek();
    const shared = placedAt(
      {
        ...week,
        categories: week.categories.map((category) => ({ ...category, strategy: undefined })),
      },
      { "essay-s1": [2, 1], "essay-s2": [2, 5], "essay-s3": [3, 1] },
    );
    const issues = strategyIssues(shared);
    expect(issues).toEqual([
      {
        kind: "off_strategy",
        penalty: 4,
        forced: false,
        tasks: ["essay-s1", "essay-s2"],
        days: [2],
        message:
          "2 sessions of task essay (essay-s1, essay-s2) share day 2 (Tue 12 Mar 2024); no two sessions of one task go on one day",
      },
    ]);
    const allowed: ScheduleState = {
      ...shared,
      tasks: shared.tasks.map((task) =>
        task.source === "task_item" && task.group ? { ...task, group: { ...task.group, sameDay: true } } : task,
      ),
    };
    expect(strategyIssues(allowed)).toEqual([]);
    expect(analyzeHealth(allowed).score).toBe(analyzeHealth(shared).score + 4);
  });

  test("the incremental judge scores these weeks as analyzeHealth does, and after a move that parts the sessions", () => {
    const week = essayWeek();
    const weeks = [
      placedAt(week, { "essay-s1": [1, 1], "essay-s2": [2, 1], "essay-s3": [3, 1] }),
      placedAt(week, { "essay-s1": [2, 1], "essay-s2": [2, 5], "essay-s3": [3, 1] }),
    ];
    for (const state of weeks) expect(new WeekModel(state).score()).toBe(analyzeHealth(state).score);
    const shared = weeks[1]!;
    const position = shared.tasks.findIndex((task) => task.id === "essay-s2");
    const parted = placedAt(shared, { "essay-s2": [4, 5] });
    expect(new WeekModel(shared).scoreIfMoved(position, { day: 4, start: 5, end: 6 })).toBe(
      analyzeHealth(parted).score,
    );
  });
});
