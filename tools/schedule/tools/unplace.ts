/**
 * `unplace`: takes a placed task item off the schedule, back to pending, and
 * clears its embed relation on both sides. A review whose place has started by the clock stays: the past is fixed.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure, formatRange, quoteName, type Dating } from "../format.js";
import { buildOccupancyIndex } from "../occupancy-index.js";
import { commitUnplace } from "../placement.js";
import { fixedProblem, pastRefusal } from "../rules.js";
import { copyRange } from "../slot-range.js";
import type { ScheduleState, SlotRange } from "../state.js";
import { taskIdField } from "./argument-fields.js";
import { findTask } from "./task-checks.js";
import { saySummary } from "../summary-phrases.js";

/** Arguments of unplace. */
export const unplaceArgumentsSchema = z.object({
  task_id: taskIdField("A placed task item."),
});

/** Parsed arguments of unplace. */
export type UnplaceArguments = z.infer<typeof unplaceArgumentsSchema>;

/** What unplace did, as data: the task and where it was. */
export interface UnplaceData {
  /** Task id. */
  id: string;
  from: SlotRange;
  /** Id of the host it was embedded in, if any. */
  hostId?: string;
}

/** unplace's text: `unplaced task <id> from day <d> slots <a>-<b>[ (was embedded in host <hostId>)]; it is pending again`. */
export function unplacedText(data: UnplaceData, window?: Dating): string {
  const was = formatRange(data.from, window);
  return data.hostId === undefined
    ? saySummary("en", "unplaced", { id: data.id, was })
    : saySummary("en", "unplacedFromHost", { id: data.id, was, host: data.hostId });
}

/** Returns a placed task item to pending. */
export const unplaceTool: DomainTool<ScheduleState, UnplaceArguments> = {
  name: "unplace",
  description: "Takes a placed task item off the schedule: it is pending again.",
  schema: unplaceArgumentsSchema,
  kind: "write",
  run(state, args) {
    const index = buildOccupancyIndex(state);
    const found = findTask(index, args.task_id);
    if (!found.ok) return failure(found.problem);
    const { task, position } = found.value;
    if (task.source === "event")
      return failure(`${task.id} ${quoteName(task.name)} is a timetable event; only task items can be unplaced`);
    const range = task.slots?.[0];
    if (task.status === "pending" || range === undefined)
      return failure(`task ${task.id} is already pending; nothing to unplace`);
    if (task.status !== "placed")
      return failure(`task ${task.id} is ${task.status}, history that nothing moves; use reopen to make it pending`);
    // A place that has started is the past, as for a move: what happened to it is marked (done, missed), not undone.
    const fixed = fixedProblem(
      task,
      index.rules,
      "it is not taken off; mark it done or missed instead (mark_done, mark_missed)",
    );
    // The model reads the text (ids, the tools to use); a person is told the refusal from its data (`pastRefusalText`).
    if (fixed) return failure(fixed, pastRefusal(task, index.rules, "unplace"));
    const next = commitUnplace(state, index, position);
    const data: UnplaceData = {
      id: task.id,
      from: copyRange(range),
      ...(task.embeddedIn === undefined ? {} : { hostId: task.embeddedIn }),
    };
    return { ok: true, content: unplacedText(data, state.window), state: next, data };
  },
};
