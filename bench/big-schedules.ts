/**
 * `npx tsx bench/big-schedules.ts`: the CPU time of `propose_arrangement` (the tool, default budget) on the 7-day
 * sample week and on generated weeks of 100, 1,000 and 10,000 tasks (7 days × 12 slots, seed 7), each as a ratio to
 * the sample week measured in the same run, with how its search stopped ("exact", or "budget": the best found within
 * the search budget) and how many reviews the card places. CPU time (`process.cpuUsage`, user + system) rather than
 * wall time, so other processes on the machine do not count; each size is run once after one warm-up call on the
 * sample week. Issue 44, item 7: the 10,000-task week overflowed the stack and the 1,000-task one gave no card
 * after 9 minutes; the budget (nodes, changes scored, 2 s of CPU by default) now bounds them.
 */
import {
  generateSchedule,
  proposeArrangementTool,
  sampleWeek,
  type ScheduleListing,
  type ScheduleState,
} from "../tools/schedule/index.js";

/** CPU milliseconds of one propose_arrangement call on `week`, and what it proposed. */
function measure(week: ScheduleState): { ms: number; stop: string; placed: number; pending: number } {
  const pending = week.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length;
  const before = process.cpuUsage();
  const run = proposeArrangementTool.run(week, {});
  const used = process.cpuUsage(before);
  const listing = run.data as ScheduleListing;
  return {
    ms: (used.user + used.system) / 1000,
    stop: listing.stop ?? "exact",
    placed: listing.candidates[0]?.writes.length ?? 0,
    pending,
  };
}

const weeks: Array<[string, ScheduleState]> = [
  ["7-day sample", sampleWeek()],
  ...[100, 1_000, 10_000].map((taskCount): [string, ScheduleState] => [
    `${taskCount.toLocaleString("en-US")} tasks`,
    generateSchedule({ days: 7, slotsPerDay: 12, taskCount, seed: 7 }),
  ]),
];

measure(weeks[0]![1]); // warm-up: the first call also compiles the code
const rows = weeks.map(([name, week]) => ({ name, ...measure(week) }));
const base = rows[0]!.ms;
console.log("| week | pending | placed | stop | CPU ms | × sample |");
console.log("|---|---|---|---|---|---|");
for (const row of rows)
  console.log(
    `| ${row.name} | ${row.pending} | ${row.placed} | ${row.stop} | ${row.ms.toFixed(0)} | ${(row.ms / base).toFixed(1)}× |`,
  );
