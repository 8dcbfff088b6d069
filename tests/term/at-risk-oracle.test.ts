/**
 * At risk against the brute-force oracle (issue 47 item 6: "when a deadline or exam cannot be met … the exact search
 * proves it"). Over small generated weeks with a clock, rules and task groups, where every review still to place has
 * a deadline (a day or an exam), the at-risk report agrees with the oracle the search tests use
 * (tests/support/schedule-oracle.ts, which shares no code with the search): the reviews it leaves out of danger fit
 * together, as many as the oracle's most; each one it reports at risk cannot join them; and when the oracle can meet
 * every deadline, nothing is reported. A report made without the clock (one rule broken) is caught by the same check.
 */
import { describe, expect, test } from "vitest";
import { atRiskOf, type AtRiskReport } from "../../tools/schedule/at-risk.js";
import type { ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { clockedWeek } from "../support/rule-weeks.js";
import { oracle } from "../support/schedule-oracle.js";

/**
 * The clocked rule-bearing week of `seed` with a deadline on every pending review (those without one are due before
 * a day of the window, by turns) and, by turns, two of them tied as a long task's sessions (never on one day).
 */
function deadlineWeek(seed: number): ScheduleState {
  const week = clockedWeek(seed);
  let turn = seed;
  const tasks = week.tasks.map((task) => {
    if (task.source !== "task_item" || task.status !== "pending") return task;
    turn += 1;
    const due = task.dueBefore ?? { day: 2 + (turn % week.window.totalDays) };
    return {
      ...task,
      dueBefore: due,
      ...(turn % 3 === 0 ? { group: { id: "essay", kind: "sessions" as const } } : {}),
    };
  });
  return { ...week, tasks };
}

/** The pending reviews of `state`. */
const pendingOf = (state: ScheduleState) =>
  state.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "pending");

/**
 * Where `report` and the oracle disagree on `state`, in words (undefined when they agree): the reviews not at risk
 * that can be placed at all must fit together, as many as the oracle's most; an at-risk one cannot join them.
 */
function disagreement(state: ScheduleState, report: AtRiskReport): string | undefined {
  const answer = oracle(state);
  const risked = new Set(report.atRisk.map((task) => task.id));
  const pending = pendingOf(state).map((task) => task.id);
  const safe = pending.filter((id) => !risked.has(id) && (answer.alone.get(id) ?? []).length > 0);
  if (report.unproved.length > 0) return `unproved ${report.unproved.map((task) => task.id).join(",")}`;
  if (!answer.fitsTogether(safe)) return `the reviews not at risk (${safe.join(",")}) do not fit together`;
  if (safe.length !== answer.most) return `${safe.length} not at risk, but the oracle fits ${answer.most}`;
  const joins = [...risked].find((id) => answer.fitsTogether([...safe, id]));
  if (joins) return `${joins} is reported at risk but fits beside the others`;
  const placeable = pending.filter((id) => (answer.alone.get(id) ?? []).length > 0);
  const meetable = answer.fitsTogether(placeable) ? placeable.find((id) => risked.has(id)) : undefined;
  if (meetable) return `every deadline the oracle can meet fits, yet ${meetable} is at risk`;
  return undefined;
}

/** The seeds of small weeks (1-6 reviews to place, with room for the oracle) the property runs over. */
function seeds(count: number): number[] {
  const chosen: number[] = [];
  for (let seed = 1; chosen.length < count; seed += 1) {
    const week = deadlineWeek(seed);
    const pending = pendingOf(week).length;
    if (pending >= 1 && pending <= 6 && week.window.totalDays * week.window.slotsPerDay <= 45) chosen.push(seed);
  }
  return chosen;
}

/** The weeks checked: 50 seeds. */
const WEEKS = seeds(50);

describe("at risk against the brute-force oracle", () => {
  test("every review reported at risk is confirmed by the oracle, and a deadline it can meet never is", () => {
    let atRisk = 0;
    let safe = 0;
    for (const seed of WEEKS) {
      const week = deadlineWeek(seed);
      const report = atRiskOf(week);
      expect({ seed, problem: disagreement(week, report) }).toEqual({ seed, problem: undefined });
      if (report.atRisk.length > 0) atRisk += 1;
      else safe += 1;
    }
    // The weeks must give both answers something to check.
    expect(atRisk).toBeGreaterThan(8);
    expect(safe).toBeGreaterThan(8);
  });

  test("mutation: a report made without the clock (the past taken as free) is caught on some week", () => {
    const caught = WEEKS.filter((seed) => {
      const week = deadlineWeek(seed);
      const { now: _clock, ...unclocked } = week;
      return disagreement(week, atRiskOf(unclocked)) !== undefined;
    });
    expect(caught.length).toBeGreaterThan(0);
  });
});
