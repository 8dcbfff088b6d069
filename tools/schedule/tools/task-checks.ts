/**
 * Checks the write tools share before they touch the placement engine: the
 * task exists, it can move, its duration. Each answers either a value or a
 * one-line problem for the model.
 */
import { formatCount, quoteName } from "../format.js";
import { positionOf, type OccupancyIndex } from "../occupancy-index.js";
import { rangeLength } from "../slot-range.js";
import { isSettled, type ScheduleTask, type SlotRange } from "../state.js";

/** A value, or the problem that prevents it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The task with this id and its position (looked up in `known` when given, else by a scan), or a problem naming the unknown id. */
export function findTask(
  index: OccupancyIndex,
  taskId: string,
  known?: ReadonlyMap<string, number>,
): Checked<{ position: number; task: ScheduleTask }> {
  const position = known === undefined ? positionOf(index.tasks, taskId) : known.get(taskId);
  const task = position === undefined ? undefined : index.tasks[position];
  if (position === undefined || task === undefined) {
    return {
      ok: false,
      problem: `no task with id ${quoteName(taskId)} among ${formatCount(index.tasks.length)} tasks; use list_tasks to find ids`,
    };
  }
  return { ok: true, value: { position, task } };
}

/** Number of consecutive slots a task needs: its duration, or the length of an event's single range. */
export function taskDuration(task: ScheduleTask): number {
  if (task.source === "task_item") return task.duration;
  const only = task.slots[0];
  return task.slots.length === 1 && only !== undefined ? rangeLength(only) : 0;
}

/**
 * What a locked event is (issue 47): an exam or a fixed appointment whose time someone else sets. Tempo never moves
 * it on its own — no swap, no batch of moves, no search makes room with it — but when its time really changes (the
 * school moves the exam) the person moves it with a `move` of its own, through a card that says it is locked.
 */
export type LockedEvents = "move alone" | "refuse";

/**
 * The one range a placed task occupies, if it may move; otherwise why it may not. A locked event may move only
 * where `locked` is "move alone" (the `move` tool).
 */
export function movableRange(task: ScheduleTask, locked: LockedEvents = "refuse"): Checked<SlotRange> {
  const label = `${task.source === "event" ? "event" : "task"} ${task.id} ${quoteName(task.name)}`;
  if (task.source === "task_item" && task.status === "pending") {
    return {
      ok: false,
      problem: `task ${task.id} ${quoteName(task.name)} is pending, not on the schedule; use place to put it there`,
    };
  }
  if (task.source === "task_item" && isSettled(task.status)) {
    return {
      ok: false,
      problem: `task ${task.id} ${quoteName(task.name)} is ${task.status}, history that nothing moves; use reopen to make it pending again`,
    };
  }
  if (task.source === "event") {
    if (task.locked && locked === "refuse")
      return {
        ok: false,
        problem: `${label} is locked: nothing moves it to make room; if its time really changed, move it alone with move`,
      };
    if (task.slots.length === 0) return { ok: false, problem: `${label} is not on the timetable, so it cannot move` };
    if (task.slots.length > 1) {
      return {
        ok: false,
        problem: `${label} occupies ${task.slots.length} separate slot ranges; only a task on a single range can move`,
      };
    }
    if (task.embeds.length > 0) {
      return {
        ok: false,
        problem: `${label} hosts embedded tasks ${task.embeds.join(",")}; move or unplace them first`,
      };
    }
  }
  const only = task.slots?.[0];
  if (only === undefined) return { ok: false, problem: `${label} has no slots` };
  return { ok: true, value: only };
}
