/**
 * Atomic multi-task moves, shared by `swap` and `batch_move`: every request is
 * checked (task exists, may move, lands in the window without conflict) and
 * either all land or none does.
 */
import { failure, movedTaskLine, quoteName, type Dating } from "./format.js";
import type { OccupancyIndex } from "./occupancy-index.js";
import { commitPlacements, resolvePlacements, type PlacementRequest } from "./placement.js";
import type { ScheduleState, ScheduleTask, SlotRange } from "./state.js";
import { saySummary } from "./summary-phrases.js";
import type { ToolRun } from "../domain.js";

/** A task a write put somewhere: place's data, and each `- task <id> now on …` line of a multi-task move. */
export interface MovedTask {
  /** Task id. */
  id: string;
  day: number;
  start: number;
  end: number;
  /** Id of the host it landed embedded in, if any. */
  hostId?: string;
  /**
   * Where it sat before a multi-task move (swap, batch_move): what undo moves it back to. Absent for place, and on
   * a move recorded before it was kept.
   */
  from?: SlotRange;
}

/** `header`, then one `- task <id> now on …[; was on …]` line per moved task. */
export function movesText(header: string, moved: readonly MovedTask[], window?: Dating): string {
  return [header, ...moved.map((task) => movedTaskLine(task.id, task, task.hostId, window, task.from))].join("\n");
}

/**
 * Moves every request atomically. On success, `report` gives the result's data from the tasks moved (in request
 * order) and `text` its content from that data.
 */
export function moveAtomically<TData>(
  state: ScheduleState,
  index: OccupancyIndex,
  requests: readonly PlacementRequest[],
  failurePrefix: string,
  report: (moved: MovedTask[]) => TData,
  text: (data: TData, window?: Dating) => string,
): ToolRun<ScheduleState> {
  const outcome = resolvePlacements(index, requests);
  if (!outcome.ok) {
    const task = state.tasks[requests[outcome.requestIndex]?.position ?? -1];
    const which = task === undefined ? "" : ` (task ${task.id})`;
    return failure(`${failurePrefix}${which}: ${outcome.problem}${saySummary("en", "nothingMoved")}`, outcome.refusal);
  }
  const next = commitPlacements(state, index, outcome.placements);
  const moved = outcome.placements.map((placement): MovedTask => {
    const task = state.tasks[placement.position] as ScheduleTask;
    const hostId = placement.hostPosition === undefined ? undefined : state.tasks[placement.hostPosition]?.id;
    const { day, start, end } = placement.range;
    // A movable task sits on one range (the callers checked): where it was, before this move.
    const was = task.slots?.[0];
    const from = was === undefined ? {} : { from: { day: was.day, start: was.start, end: was.end } };
    return { id: task.id, day, start, end, ...(hostId === undefined ? {} : { hostId }), ...from };
  });
  const data = report(moved);
  return { ok: true, content: text(data, state.window), state: next, data };
}

/** `task <id> "<name>"` for messages. */
export function taskLabel(task: ScheduleTask): string {
  return `${task.source === "event" ? "event" : "task"} ${task.id} ${quoteName(task.name)}`;
}

/** A placement request for a task at `position` moving to `range`. */
export function request(position: number, range: SlotRange): PlacementRequest {
  return { position, range };
}
