/**
 * The per-call occupancy index: for every (day, slot) cell of the window, which
 * task occupies it and which task item sits embedded in it. Built once per tool
 * call in O(tasks + cells), so every lookup after that is O(1) per cell and no
 * tool is quadratic in the task count.
 */
import { ruleBookOf, type RuleBook } from "./rules.js";
import type { ScheduleState, ScheduleTask, SlotRange } from "./state.js";

/** Marks a free cell in the occupancy arrays. */
export const FREE = -1;

/** Cells of the window with their occupants, and the id → position map of the task list. */
export interface OccupancyIndex {
  /** Days in the window. */
  readonly totalDays: number;
  /** Slots per day. */
  readonly slotsPerDay: number;
  /** Per cell: position (in `tasks`) of the task occupying it without a host, or `FREE`. */
  readonly primary: Int32Array;
  /** Per cell: position of the task item embedded there, or `FREE`. */
  readonly embedded: Int32Array;
  /** The task list the positions refer to. */
  readonly tasks: readonly ScheduleTask[];
  /** The hard rules of its task classes and task items (rules.ts). */
  readonly rules: RuleBook;
}

/** Position of the cell (day, slot) in the occupancy arrays. */
export function cellOf(index: Pick<OccupancyIndex, "slotsPerDay">, day: number, slot: number): number {
  return (day - 1) * index.slotsPerDay + (slot - 1);
}

/** Builds the occupancy index of a schedule in O(tasks + cells); cells outside the window are ignored. */
export function buildOccupancyIndex(state: ScheduleState): OccupancyIndex {
  const { totalDays, slotsPerDay } = state.window;
  const primary = new Int32Array(totalDays * slotsPerDay).fill(FREE);
  const embedded = new Int32Array(totalDays * slotsPerDay).fill(FREE);
  state.tasks.forEach((task, position) => {
    const layer = task.source === "task_item" && task.embeddedIn !== undefined ? embedded : primary;
    for (const range of task.slots ?? []) {
      markRange(layer, slotsPerDay, totalDays, range, position);
    }
  });
  return { totalDays, slotsPerDay, primary, embedded, tasks: state.tasks, rules: ruleBookOf(state) };
}

/** A copy of the index whose cell arrays can be changed without touching the original. */
export function cloneOccupancyIndex(index: OccupancyIndex): OccupancyIndex {
  return { ...index, primary: index.primary.slice(), embedded: index.embedded.slice() };
}

/** Writes `position` into every cell of `range` that is still free (the first occupant wins). */
function markRange(
  layer: Int32Array,
  slotsPerDay: number,
  totalDays: number,
  range: SlotRange,
  position: number,
): void {
  if (range.day < 1 || range.day > totalDays) return;
  const first = Math.max(range.start, 1);
  const last = Math.min(range.end, slotsPerDay);
  for (let slot = first; slot <= last; slot += 1) {
    const cell = (range.day - 1) * slotsPerDay + (slot - 1);
    if (layer[cell] === FREE) layer[cell] = position;
  }
}

/** Sets every cell of `range` in `layer` to `value` (a position, or `FREE` to clear). */
export function fillRange(index: OccupancyIndex, layer: Int32Array, range: SlotRange, value: number): void {
  for (let slot = range.start; slot <= range.end; slot += 1) {
    layer[cellOf(index, range.day, slot)] = value;
  }
}

/** Clears the cells a task occupies (in whichever layer it sits), if they still hold it. */
export function clearTask(index: OccupancyIndex, position: number): void {
  const task = index.tasks[position];
  if (task === undefined) return;
  const layer = task.source === "task_item" && task.embeddedIn !== undefined ? index.embedded : index.primary;
  for (const range of task.slots ?? []) {
    for (let slot = range.start; slot <= range.end; slot += 1) {
      const cell = cellOf(index, range.day, slot);
      if (layer[cell] === position) layer[cell] = FREE;
    }
  }
}

/** Positions of the given ids in `tasks`, in one pass that stops once all are found; unknown ids are absent. */
export function findPositions(tasks: readonly ScheduleTask[], ids: Iterable<string>): Map<string, number> {
  const wanted = new Set(ids);
  const found = new Map<string, number>();
  for (let position = 0; position < tasks.length && found.size < wanted.size; position += 1) {
    const id = (tasks[position] as ScheduleTask).id;
    if (wanted.has(id) && !found.has(id)) found.set(id, position);
  }
  return found;
}

/** Position of one id in `tasks`, or undefined. */
export function positionOf(tasks: readonly ScheduleTask[], id: string): number | undefined {
  for (let position = 0; position < tasks.length; position += 1) {
    if ((tasks[position] as ScheduleTask).id === id) return position;
  }
  return undefined;
}
