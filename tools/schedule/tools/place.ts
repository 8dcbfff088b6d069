/**
 * `place`: puts a pending task item on the schedule, embedding it in an
 * embeddable event when it falls entirely inside one.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure, formatRange, formatRanges, hostSuffix, quoteName, type Dating } from "../format.js";
import { buildOccupancyIndex } from "../occupancy-index.js";
import { commitPlacements, resolvePlacements } from "../placement.js";
import { rangeFrom } from "../slot-range.js";
import type { ScheduleState, TaskItem } from "../state.js";
import type { MovedTask } from "../atomic-moves.js";
import { dayField, slotField, taskIdField } from "./argument-fields.js";
import { findTask } from "./task-checks.js";
import { saySummary } from "../summary-phrases.js";

/** Arguments of place. */
export const placeArgumentsSchema = z.object({
  task_id: taskIdField("A pending task item."),
  day: dayField("Day index."),
  slot_start: slotField("First slot."),
});

/** Parsed arguments of place. */
export type PlaceArguments = z.infer<typeof placeArgumentsSchema>;

/**
 * What place did, as data: the task and where it now sits (as a multi-task move reports each task); for a missed task
 * placed again (rescheduled), its miss as it was on record — when it was marked and where it was — which the placed
 * task no longer carries and undo gives back. The miss is data only (the text a person and a model read is the
 * placement's): a reader of the text alone — a tool message saved before — undoes the reschedule to pending.
 */
export type PlaceData = MovedTask & { missed?: Pick<TaskItem, "markedAt" | "was"> };

/** place's text: `placed task <id> on day <d> slots <a>-<b>[ (<date and time>)][ embedded in host <hostId>]` (dated from `window`). */
export function placedText(data: PlaceData, window?: Dating): string {
  return `${saySummary("en", "placed", { id: data.id, where: formatRange(data, window) })}${hostSuffix(data.hostId)}`;
}

/** Places a pending task item. */
export const placeTool: DomainTool<ScheduleState, PlaceArguments> = {
  name: "place",
  description:
    "Places a pending (or missed) task item on day from slot_start: on free slots, or inside one embeddable event.",
  schema: placeArgumentsSchema,
  kind: "write",
  run(state, args) {
    const index = buildOccupancyIndex(state);
    const found = findTask(index, args.task_id);
    if (!found.ok) return failure(found.problem);
    const { task, position } = found.value;
    if (task.source === "event") {
      return failure(
        `${task.id} ${quoteName(task.name)} is a timetable event, not a task item; use move to change its slots`,
      );
    }
    if (task.status === "done" || task.status === "skipped") {
      return failure(`task ${task.id} is ${task.status}; use reopen first to make it pending again`);
    }
    if (task.status === "placed") {
      return failure(
        `task ${task.id} is already placed on ${formatRanges(task.slots ?? [], state.window)}; use move to change it`,
      );
    }
    const range = rangeFrom(args.day, args.slot_start, task.duration);
    const outcome = resolvePlacements(index, [{ position, range }]);
    if (!outcome.ok)
      return failure(`${saySummary("en", "cannotPlace", { id: task.id, duration: task.duration })}${outcome.problem}`);
    const next = commitPlacements(state, index, outcome.placements);
    const placed = outcome.placements[0];
    const hostId = placed?.hostPosition === undefined ? undefined : state.tasks[placed.hostPosition]?.id;
    const missed: PlaceData["missed"] =
      task.status === "missed"
        ? {
            ...(task.markedAt !== undefined ? { markedAt: task.markedAt } : {}),
            ...(task.was !== undefined ? { was: task.was } : {}),
          }
        : undefined;
    const data: PlaceData = {
      id: task.id,
      ...range,
      ...(hostId === undefined ? {} : { hostId }),
      ...(missed === undefined ? {} : { missed }),
    };
    return { ok: true, content: placedText(data, state.window), state: next, data };
  },
};
