/**
 * Write calls in words a person reads on a confirmation card: the task by
 * name (its id is in the card's arguments), the day as its weekday and week (what the window maps the
 * day index to), and the slot range — `Place "Review: limits"
 * on Wed, week 1 (day 3), slots 5–6`.
 */
import { dayOfWeekName, taskSlots, type ScheduleState, type ScheduleTask, type SlotRange } from "./state.js";

/** One write call of the schedule domain described, or undefined for a call it does not describe. */
export function describeScheduleCall(state: ScheduleState, tool: string, args: Record<string, unknown>): string | undefined {
  const task = (id: unknown) => state.tasks.find((candidate) => candidate.id === id);
  switch (tool) {
    case "place":
    case "move": {
      const found = task(args.task_id);
      if (!found) return undefined;
      const target = rangeAt(args.day, args.slot_start, lengthOf(found));
      const from = tool === "move" && taskSlots(found)[0] ? ` from ${where(state, taskSlots(found)[0]!)}` : "";
      return `${tool === "place" ? "Place" : "Move"} ${label(found)}${from} ${tool === "place" ? "on" : "to"} ${target ? where(state, target) : "?"}`;
    }
    case "swap": {
      const first = task(args.first_task_id);
      const second = task(args.second_task_id);
      if (!first || !second) return undefined;
      return `Swap ${label(first)} (${places(state, first)}) with ${label(second)} (${places(state, second)})`;
    }
    case "unplace": {
      const found = task(args.task_id);
      return found ? `Take ${label(found)} off ${places(state, found)}; it is pending again` : undefined;
    }
    case "batch_move": {
      const moves = Array.isArray(args.moves) ? (args.moves as Array<Record<string, unknown>>) : [];
      const lines = moves.map((move) => {
        const found = task(move.task_id);
        const target = found ? rangeAt(move.day, move.slot_start, lengthOf(found)) : undefined;
        return found && target ? `${label(found)} to ${where(state, target)}` : `${String(move.task_id)} to day ${String(move.day)}`;
      });
      return `Move ${moves.length} task(s) together: ${lines.join("; ")}`;
    }
    default:
      return undefined;
  }
}

/** `"Review: limits"`: the name a person reads (the card's arguments carry the id). */
function label(task: ScheduleTask): string {
  return JSON.stringify(task.name);
}

/** The slots a task takes: its duration, or its one range's length. */
function lengthOf(task: ScheduleTask): number {
  if (task.source === "task_item") return task.duration;
  const range = taskSlots(task)[0];
  return range ? range.end - range.start + 1 : 1;
}

function rangeAt(day: unknown, start: unknown, length: number): SlotRange | undefined {
  return typeof day === "number" && typeof start === "number" ? { day, start, end: start + length - 1 } : undefined;
}

/** `Wed, week 1 (day 3), slots 5–6`. */
function where(state: ScheduleState, range: SlotRange): string {
  const mapping = state.window.days.find((day) => day.dayIndex === range.day);
  const day = mapping ? `${dayOfWeekName(mapping.dayOfWeek)}, week ${mapping.week} (day ${range.day})` : `day ${range.day}`;
  return `${day}, ${range.start === range.end ? `slot ${range.start}` : `slots ${range.start}–${range.end}`}`;
}

/** Where a task is now, or "not on the schedule". */
function places(state: ScheduleState, task: ScheduleTask): string {
  const ranges = taskSlots(task);
  return ranges.length === 0 ? "not on the schedule" : ranges.map((range) => where(state, range)).join("; ");
}
