/**
 * How many pending tasks the offline policy's placement search fits, against
 * a baseline run in the same process: the earlier policy's greedy placement
 * (one task at a time in list order, each into the free run on the least
 * loaded day, find_free again after every place). Both act on the same
 * generated weeks through the real tools; every placement is applied with
 * `place`, so only valid placements count. Also prints whether the search
 * finished (proved no placement fits more) and its time.
 *
 *   npx tsx bench/placement.ts
 */
import { searchPlacements } from "../tools/schedule/placement-search.js";
import {
  findFreeTool,
  generateSchedule,
  listTasksTool,
  placeTool,
  type ScheduleState,
} from "../tools/schedule/index.js";
import { parseFreeRuns, parseTaskListing } from "../offline/schedule/result-parsing.js";

const WEEKS_PER_SIZE = 30;
/** [days, tasks, slots per day]: tight small weeks first, then bigger windows. */
const SIZES: ReadonlyArray<[number, number, number]> = [
  [3, 12, 6],
  [5, 24, 8],
  [7, 40, 12],
  [7, 80, 12],
  [14, 120, 12],
];

/** Applies placements with the real place tool; returns how many were accepted. */
function apply(state: ScheduleState, placements: ReadonlyArray<{ id: string; day: number; start: number }>): number {
  let current = state;
  let placed = 0;
  for (const placement of placements) {
    const run = placeTool.run(current, { task_id: placement.id, day: placement.day, slot_start: placement.start });
    if (run.ok && run.state) {
      current = run.state;
      placed += 1;
    }
  }
  return placed;
}

/** The earlier policy: list order, find_free per task, the run on the least loaded day, then the earliest. */
function greedyBaseline(state: ScheduleState): number {
  const pending = parseTaskListing(listTasksTool.run(state, { status: "pending", limit: 100 }).content);
  const perDay = new Map<number, number>();
  let current = state;
  let placed = 0;
  for (const task of pending) {
    const runs = parseFreeRuns(findFreeTool.run(current, { min_length: task.duration, limit: 100 }).content).filter(
      (run) => run.length >= task.duration,
    );
    const run = runs.sort(
      (a, b) => (perDay.get(a.day) ?? 0) - (perDay.get(b.day) ?? 0) || a.day - b.day || a.start - b.start,
    )[0];
    if (!run) continue;
    const result = placeTool.run(current, { task_id: task.id, day: run.day, slot_start: run.start });
    if (!result.ok || !result.state) continue;
    current = result.state;
    placed += 1;
    perDay.set(run.day, (perDay.get(run.day) ?? 0) + 1);
  }
  return placed;
}

/** The offline policy's way: read the week once, search, apply in order. */
function searched(state: ScheduleState): { placed: number; exact: boolean; milliseconds: number } {
  const pending = parseTaskListing(listTasksTool.run(state, { status: "pending", limit: 100 }).content);
  const runs = parseFreeRuns(findFreeTool.run(state, { min_length: 1, limit: 100 }).content);
  const started = performance.now();
  const result = searchPlacements(
    pending.map((task) => ({ id: task.id, duration: task.duration })),
    runs.map((run) => ({
      day: run.day,
      start: run.start,
      end: run.end,
      ...(run.hostId ? { hostId: run.hostId } : {}),
    })),
  );
  const milliseconds = performance.now() - started;
  return { placed: apply(state, result.placements), exact: result.exact, milliseconds };
}

console.log(
  `placement: ${WEEKS_PER_SIZE} generated weeks per size; tasks placed by the search vs the earlier greedy policy (same weeks, same process)\n`,
);
console.log(
  "days × slots, tasks | pending | greedy placed | search placed | ratio | weeks search > greedy | search exact | search ms (mean / max)",
);
for (const [days, taskCount, slotsPerDay] of SIZES) {
  let pending = 0;
  let greedy = 0;
  let search = 0;
  let better = 0;
  let worse = 0;
  let exact = 0;
  let totalMs = 0;
  let maxMs = 0;
  for (let seed = 1; seed <= WEEKS_PER_SIZE; seed += 1) {
    const state = generateSchedule({ days, slotsPerDay, taskCount, seed });
    pending += state.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length;
    const baseline = greedyBaseline(state);
    const outcome = searched(state);
    greedy += baseline;
    search += outcome.placed;
    if (outcome.placed > baseline) better += 1;
    if (outcome.placed < baseline) worse += 1;
    if (outcome.exact) exact += 1;
    totalMs += outcome.milliseconds;
    maxMs = Math.max(maxMs, outcome.milliseconds);
  }
  console.log(
    `${days} × ${slotsPerDay}, ${taskCount} | ${pending} | ${greedy} | ${search} | ${(search / Math.max(1, greedy)).toFixed(3)}× | ${better} (worse: ${worse}) | ${exact}/${WEEKS_PER_SIZE} | ${(totalMs / WEEKS_PER_SIZE).toFixed(1)} / ${maxMs.toFixed(1)}`,
  );
}
