/**
 * A week placed as a person might place it by hand: the sample week arranged, then its placed reviews moved one by one
 * to the free places of the day that already holds the most of them. The offline arrangement polishes its own
 * placements, so a week the refinement has work on is made this way.
 */
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { analyzeHealth } from "../../tools/schedule/health.js";
import { sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";

/** `week` with its placed reviews crowded onto its busiest day (as many as fit there); its score is lower. */
export function crowded(week: ScheduleState): ScheduleState {
  const placed = week.tasks.filter(
    (task) => task.source === "task_item" && task.status === "placed" && task.slots?.length === 1,
  );
  const load = new Map<number, number>();
  for (const task of placed) load.set(task.slots![0]!.day, (load.get(task.slots![0]!.day) ?? 0) + 1);
  const busiest = [...load].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  let current = week;
  for (const task of placed) {
    if (busiest === undefined || task.slots![0]!.day === busiest) continue;
    for (let start = 1; start <= current.window.slotsPerDay; start += 1) {
      const moved = applyWrites(current, [
        { name: "move", arguments: { task_id: task.id, day: busiest, slot_start: start } },
      ]);
      if (moved) {
        current = moved;
        break;
      }
    }
  }
  if (analyzeHealth(current).score >= analyzeHealth(week).score)
    throw new Error("crowding the week did not lower its score");
  return current;
}

/** The sample week with every review placed, crowded: what "optimise my week" has work on. */
export function crowdedSampleWeek(): ScheduleState {
  return crowded(applyWrites(sampleWeek(), proposeArrangement(sampleWeek()).candidates[0]!.writes)!);
}
