/**
 * A candidate's writes: the real tool calls it stands for (`place`, `move`, `swap`, `batch_move`, `unplace`), applied to
 * a week without a card (`applyWrites`, a pause every so many), what they place, and where each task they touch ends up.
 */
import { buildOccupancyIndex } from "./occupancy-index.js";
import { commitPlacements, resolvePlacements } from "./placement.js";
import { rangeFrom } from "./slot-range.js";
import type { ScheduleState, SlotRange } from "./state.js";
import { batchMoveTool } from "./tools/batch-move.js";
import { moveTool } from "./tools/move.js";
import { placeTool } from "./tools/place.js";
import { swapTool } from "./tools/swap.js";
import { unplaceTool } from "./tools/unplace.js";
import { finish, type Steps } from "./steps.js";

export type Write = { name: string; arguments: Record<string, unknown> };

/** The writes that change where reviews are: what `applyWrites` applies, and what a week picture draws. */
const PLACE_WRITES = {
  place: placeTool,
  move: moveTool,
  swap: swapTool,
  unplace: unplaceTool,
  batch_move: batchMoveTool,
} as const;

/** True for a write `applyWrites` applies (place, move, swap, unplace, batch_move). */
export function isPlaceWrite(name: string): name is keyof typeof PLACE_WRITES {
  return Object.hasOwn(PLACE_WRITES, name);
}

/** The week after `writes`, applied in order with the real tools, or undefined when one of them fails. */
export function applyWrites(state: ScheduleState, writes: readonly Write[]): ScheduleState | undefined {
  return finish(writesApplied(state, writes));
}

/** Writes a long-running search applies between two pauses (each checks and copies the week: a long window's cost). */
const WRITES_PER_PAUSE = 16;

/** `applyWrites` as work that pauses now and then (`steps.ts`): a card of a long window's hundreds of places. */
export function* writesApplied(state: ScheduleState, writes: readonly Write[]): Steps<ScheduleState | undefined> {
  let current = state;
  for (const [index, write] of writes.entries()) {
    if (index > 0 && index % WRITES_PER_PAUSE === 0) yield;
    const tool = isPlaceWrite(write.name) ? PLACE_WRITES[write.name] : undefined;
    if (!tool) return undefined;
    const ran = (tool.run as (state: ScheduleState, args: unknown) => { ok: boolean; state?: ScheduleState })(
      current,
      write.arguments,
    );
    if (!ran.ok || !ran.state) return undefined;
    current = ran.state;
  }
  return current;
}

/**
 * `writesApplied` for `place` writes of pending (or missed) reviews, each once — a search's placements: checked
 * together in one batch with the checks the place tool makes of each (`resolvePlacements`, which lands them in turn,
 * then checks the rules and buffers of all that landed) and committed at once, instead of a copy of the week and its
 * index per write (a long window's hundreds of places made that quadratic). When the batch is refused, or a write is
 * not such a place, the writes are applied one by one, so what comes back is the tools' either way.
 */
export function* placesApplied(state: ScheduleState, writes: readonly Write[]): Steps<ScheduleState | undefined> {
  const index = buildOccupancyIndex(state);
  const positions = new Map(state.tasks.map((task, position) => [task.id, position]));
  const requests: Array<{ position: number; range: SlotRange }> = [];
  const seen = new Set<number>();
  for (const write of writes) {
    const position = positions.get(String(write.arguments.task_id));
    const task = position === undefined ? undefined : state.tasks[position];
    const [day, start] = [write.arguments.day, write.arguments.slot_start];
    if (
      write.name !== "place" ||
      position === undefined ||
      seen.has(position) ||
      task?.source !== "task_item" ||
      (task.status !== "pending" && task.status !== "missed") ||
      !Number.isInteger(day) ||
      !Number.isInteger(start)
    )
      return yield* writesApplied(state, writes);
    seen.add(position);
    requests.push({ position, range: rangeFrom(Number(day), Number(start), task.duration) });
  }
  yield;
  const outcome = resolvePlacements(index, requests);
  if (!outcome.ok) return yield* writesApplied(state, writes);
  return commitPlacements(state, index, outcome.placements);
}

/** Where a task must not go: a place the user rejected (day and slot), a day, or — with neither — anywhere (left as it is). */
export interface AvoidedPlace {
  task_id: string;
  day?: number;
  slot_start?: number;
}

/** The ids of the tasks `writes` place, move or swap, in order. */
export function tasksOf(writes: readonly Write[]): string[] {
  return writes.flatMap((write) => {
    const args = write.arguments;
    if (write.name === "batch_move")
      return ((args.moves as Array<{ task_id: string }> | undefined) ?? []).map((move) => move.task_id);
    if (write.name === "swap") return [String(args.first_task_id), String(args.second_task_id)];
    return [String(args.task_id)];
  });
}

/** Where each task the writes move or place ends up (a swap moves each task to the other's place). */
export function targetsOf(state: ScheduleState, writes: readonly Write[]): Array<Required<AvoidedPlace>> {
  const startOf = (id: unknown) => {
    const task = state.tasks.find((candidate) => candidate.id === id);
    const range = task?.slots?.[0];
    return range ? { day: range.day, slot_start: range.start } : undefined;
  };
  return writes.flatMap((write): Array<Required<AvoidedPlace>> => {
    const args = write.arguments;
    if (write.name === "place" || write.name === "move")
      return [{ task_id: String(args.task_id), day: Number(args.day), slot_start: Number(args.slot_start) }];
    if (write.name === "batch_move")
      return ((args.moves as Array<Required<AvoidedPlace>> | undefined) ?? []).map((move) => ({
        task_id: move.task_id,
        day: move.day,
        slot_start: move.slot_start,
      }));
    if (write.name === "swap") {
      const [first, second] = [startOf(args.first_task_id), startOf(args.second_task_id)];
      return first && second
        ? [
            { task_id: String(args.first_task_id), ...second },
            { task_id: String(args.second_task_id), ...first },
          ]
        : [];
    }
    return [];
  });
}
