/**
 * Atomic multi-task moves, shared by `swap` and `batch_move`: every request is
 * checked (task exists, may move, lands in the window without conflict) and
 * either all land or none does.
 */
import { failure, movedTaskLine, quoteName } from "./format.js";
import type { OccupancyIndex } from "./occupancy-index.js";
import { commitPlacements, resolvePlacements, type PlacementRequest } from "./placement.js";
import type { ScheduleState, ScheduleTask, SlotRange } from "./state.js";
import type { ToolRun } from "../domain.js";

/** Moves every request atomically; `header` starts the success text, which then lists each task's new place. */
export function moveAtomically(
  state: ScheduleState,
  index: OccupancyIndex,
  requests: readonly PlacementRequest[],
  header: string,
  failurePrefix: string,
): ToolRun<ScheduleState> {
  const outcome = resolvePlacements(index, requests);
  if (!outcome.ok) {
    const task = state.tasks[requests[outcome.requestIndex]?.position ?? -1];
    const which = task === undefined ? "" : ` (task ${task.id})`;
    return failure(`${failurePrefix}${which}: ${outcome.problem}; nothing was moved`);
  }
  const next = commitPlacements(state, index, outcome.placements);
  const lines = [header];
  for (const placement of outcome.placements) {
    const task = state.tasks[placement.position] as ScheduleTask;
    const hostId = placement.hostPosition === undefined ? undefined : state.tasks[placement.hostPosition]?.id;
    lines.push(movedTaskLine(task.id, placement.range, hostId));
  }
  return { ok: true, content: lines.join("\n"), state: next };
}

/** `task <id> "<name>"` for messages. */
export function taskLabel(task: ScheduleTask): string {
  return `${task.source === "event" ? "event" : "task"} ${task.id} ${quoteName(task.name)}`;
}

/** A placement request for a task at `position` moving to `range`. */
export function request(position: number, range: SlotRange): PlacementRequest {
  return { position, range };
}
