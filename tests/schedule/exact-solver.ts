/**
 * A test-side exact solver for placement: how many pending task items of a
 * schedule can be placed at once, at most. Brute force over every start of
 * every pending task (or leaving it out), each placement checked by the real
 * `place` tool, so it shares no code with the placement search it judges.
 * Meant for small weeks only.
 */
import { placeTool, type ScheduleState } from "../../tools/schedule/index.js";

/**
 * The largest number of the schedule's pending task items that can be placed together, on `days` only when given
 * (1-based days of the window), none reaching into a part of a day `keptFree` names (slots `from`-`to` of `day`).
 */
export function maximumPlaceable(
  state: ScheduleState,
  days?: readonly number[],
  keptFree: ReadonlyArray<{ day: number; from: number; to: number }> = [],
): number {
  const pendingTasks = state.tasks.filter((task) => task.source === "task_item" && task.status === "pending");
  const pending = pendingTasks.map((task) => task.id);
  const durations = pendingTasks.map((task) => (task.source === "task_item" ? task.duration : 1));
  // Slot by slot, as a person would check it: does any slot the task takes lie in a part kept free?
  const reachesKeptFree = (index: number, day: number, start: number) => {
    for (let slot = start; slot < start + durations[index]!; slot += 1)
      if (keptFree.some((kept) => kept.day === day && slot >= kept.from && slot <= kept.to)) return true;
    return false;
  };
  const { totalDays, slotsPerDay } = state.window;
  const searched = days ?? Array.from({ length: totalDays }, (_, index) => index + 1);
  let best = 0;
  const search = (current: ScheduleState, index: number, placed: number): void => {
    if (placed > best) best = placed;
    if (index === pending.length || placed + (pending.length - index) <= best) return;
    for (const day of searched) {
      for (let slot = 1; slot <= slotsPerDay; slot += 1) {
        if (reachesKeptFree(index, day, slot)) continue;
        const run = placeTool.run(current, { task_id: pending[index]!, day, slot_start: slot });
        if (run.ok && run.state) search(run.state, index + 1, placed + 1);
        if (best === pending.length) return;
      }
    }
    search(current, index + 1, placed);
  };
  search(state, 0, 0);
  return best;
}
