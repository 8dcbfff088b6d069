/**
 * `move`: moves a placed task item or an event on one range to another place,
 * checking conflicts against everything but itself. A locked event moves only
 * here, alone, when its time really changed (`LockedEvents`).
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure, formatRange, hostSuffix, type Dating } from "../format.js";
import { buildOccupancyIndex } from "../occupancy-index.js";
import { commitPlacements, resolvePlacements } from "../placement.js";
import { copyRange, rangeFrom, rangesEqual } from "../slot-range.js";
import type { ScheduleState, SlotRange } from "../state.js";
import { dayField, slotField, taskIdField } from "./argument-fields.js";
import { findTask, movableRange, taskDuration } from "./task-checks.js";
import { saySummary } from "../summary-phrases.js";

/** Arguments of move. */
export const moveArgumentsSchema = z.object({
  task_id: taskIdField("A placed task item or an event."),
  day: dayField("Day index."),
  slot_start: slotField("First slot."),
});

/** Parsed arguments of move. */
export type MoveArguments = z.infer<typeof moveArgumentsSchema>;

/** What move did, as data: the task, where it was and where it is now. */
export interface MoveData {
  /** Task id. */
  id: string;
  from: SlotRange;
  to: SlotRange;
  /** Id of the host it landed embedded in, if any. */
  hostId?: string;
}

/** move's text: `moved task <id> from day <d> slots <a>-<b> to day <d> slots <a>-<b>[ embedded in host <hostId>]`, each range dated from `window`. */
export function movedText(data: MoveData, window?: Dating): string {
  const moved = saySummary("en", "moved", {
    id: data.id,
    was: formatRange(data.from, window),
    where: formatRange(data.to, window),
  });
  return `${moved}${hostSuffix(data.hostId)}`;
}

/** Moves one task. */
export const moveTool: DomainTool<ScheduleState, MoveArguments> = {
  name: "move",
  description: "Moves a placed task item or an event, keeping its length; a locked event only if the user asks.",
  schema: moveArgumentsSchema,
  kind: "write",
  run(state, args) {
    const index = buildOccupancyIndex(state);
    const found = findTask(index, args.task_id);
    if (!found.ok) return failure(found.problem);
    const { task, position } = found.value;
    const current = movableRange(task, "move alone");
    if (!current.ok) return failure(current.problem);
    const range = rangeFrom(args.day, args.slot_start, taskDuration(task));
    if (rangesEqual(range, current.value))
      return failure(
        saySummary("en", "alreadyOn", { subject: `task ${task.id}`, where: formatRange(range, state.window) }),
      );
    const outcome = resolvePlacements(index, [{ position, range }]);
    if (!outcome.ok)
      return failure(`${saySummary("en", "cannotMove", { id: task.id })}${outcome.problem}`, outcome.refusal);
    const next = commitPlacements(state, index, outcome.placements);
    const hostPosition = outcome.placements[0]?.hostPosition;
    const hostId = hostPosition === undefined ? undefined : state.tasks[hostPosition]?.id;
    const data: MoveData = {
      id: task.id,
      from: copyRange(current.value),
      to: range,
      ...(hostId === undefined ? {} : { hostId }),
    };
    return { ok: true, content: movedText(data, state.window), state: next, data };
  },
};
