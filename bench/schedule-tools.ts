/**
 * Bench of the schedule tools that run most in a scheduling conversation —
 * find_free, place and get_overview — on a 16-week window (112 days × 12
 * slots) with 500, 1,000, 2,000 and 5,000 tasks. Prints the median time per
 * call, the growth from 500 to 5,000 tasks against the ideal linear 10×, and
 * a verdict. Figures are printed, not asserted.
 *
 *   npx tsx bench/schedule-tools.ts
 */
import type { DomainTool } from "../tools/domain.js";
import {
  findFreeTool,
  generateSchedule,
  getOverviewTool,
  placeTool,
  type ScheduleState,
} from "../tools/schedule/index.js";
import { parseFreeRuns, parsePendingTasks } from "../offline/schedule/result-parsing.js";

/** Days in the window: 16 weeks. */
const DAYS = 112;
/** Slots per day. */
const SLOTS_PER_DAY = 12;
/** Task counts to compare. */
const TASK_COUNTS = [500, 1_000, 2_000, 5_000] as const;
/** Calls before measuring, so the JIT has settled. */
const WARM_UP_CALLS = 300;
/** Measured calls per tool and size. */
const MEASURED_CALLS = 1_500;

/** One tool call to time: the tool and its arguments on one state. */
interface Case {
  label: string;
  run: () => void;
}

/** Median of a list of numbers. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Median wall time of one call, in milliseconds, after a warm-up. */
function medianMilliseconds(run: () => void): number {
  for (let call = 0; call < WARM_UP_CALLS; call += 1) run();
  const samples: number[] = [];
  for (let call = 0; call < MEASURED_CALLS; call += 1) {
    const start = process.hrtime.bigint();
    run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

/** Runs a tool and fails loudly if the call does not succeed (a bench of errors would measure nothing). */
function mustSucceed<TArgs>(tool: DomainTool<ScheduleState, TArgs>, state: ScheduleState, args: TArgs): string {
  const result = tool.run(state, args);
  if (!result.ok) throw new Error(`${tool.name} failed in the bench setup: ${result.content}`);
  return result.content;
}

/** The three cases on a schedule of `taskCount` tasks. */
function casesFor(state: ScheduleState): Case[] {
  const pendingTask = parsePendingTasks(mustSucceed(getOverviewTool, state, {}))[0];
  if (pendingTask === undefined) throw new Error("the generated schedule has no pending task");
  const run = parseFreeRuns(mustSucceed(findFreeTool, state, { min_length: pendingTask.duration })).find(
    (candidate) => candidate.hostId === undefined,
  );
  if (run === undefined) throw new Error("the generated schedule has no free run");
  const placeArgs = { task_id: pendingTask.id, day: run.day, slot_start: run.start };
  mustSucceed(placeTool, state, placeArgs);
  return [
    { label: "find_free", run: () => findFreeTool.run(state, { min_length: 2 }) },
    { label: "place", run: () => placeTool.run(state, placeArgs) },
    { label: "get_overview", run: () => getOverviewTool.run(state, {}) },
  ];
}

/** Formats milliseconds for the table. */
function formatMilliseconds(value: number): string {
  return value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(2)} ms`;
}

/** Measures every case at every size and prints the table, the growth ratios and a verdict. */
function main(): void {
  const results = new Map<string, number[]>();
  const shapes: string[] = [];
  for (const taskCount of TASK_COUNTS) {
    const state = generateSchedule({ days: DAYS, slotsPerDay: SLOTS_PER_DAY, taskCount, seed: 42 });
    const events = state.tasks.filter((task) => task.source === "event").length;
    const placed = state.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length;
    shapes.push(
      `${taskCount.toLocaleString("en-US")} tasks = ${events} events + ${placed} placed + ${taskCount - events - placed} pending`,
    );
    for (const testCase of casesFor(state)) {
      results.set(testCase.label, [...(results.get(testCase.label) ?? []), medianMilliseconds(testCase.run)]);
    }
  }

  const idealRatio = (TASK_COUNTS[TASK_COUNTS.length - 1] ?? 1) / (TASK_COUNTS[0] ?? 1);
  const header = ["tool", ...TASK_COUNTS.map((count) => `${count.toLocaleString("en-US")} tasks`), "5,000 / 500"];
  const rows: string[][] = [];
  let worstRatio = 0;
  for (const [label, timings] of results) {
    const ratio = (timings[timings.length - 1] ?? 0) / (timings[0] ?? 1);
    worstRatio = Math.max(worstRatio, ratio);
    rows.push([label, ...timings.map(formatMilliseconds), `${ratio.toFixed(1)}×`]);
  }
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join(" | ");

  console.log(
    `schedule tools, ${DAYS} days × ${SLOTS_PER_DAY} slots, median of ${MEASURED_CALLS} calls after ${WARM_UP_CALLS} warm-up calls`,
  );
  for (const shape of shapes) console.log(`  ${shape}`);
  console.log("");
  console.log(line(header));
  console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
  for (const row of rows) console.log(line(row));
  console.log("");
  console.log(`growth 500 → 5,000 tasks: worst ${worstRatio.toFixed(1)}× against the ideal linear ${idealRatio}×`);
  console.log(
    worstRatio <= idealRatio * 1.2
      ? `verdict: OK — every tool grows at most linearly with the task count (worst ${worstRatio.toFixed(1)}× ≤ ${idealRatio}×)`
      : `verdict: SLOW — a tool grows faster than linearly (worst ${worstRatio.toFixed(1)}× > ${idealRatio}×); look for a quadratic lookup`,
  );
}

main();
