/**
 * `get_task_info`: one task in full, with its embed relations.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure, formatRanges, placedTaskLine, quoteName, readResult } from "../format.js";
import { findPositions, positionOf } from "../occupancy-index.js";
import type { ScheduleState, ScheduleTask } from "../state.js";
import { taskIdField } from "./argument-fields.js";

/** Arguments of get_task_info. */
export const getTaskInfoArgumentsSchema = z.object({
  task_id: taskIdField("Id of the task, as listed by get_overview, list_tasks or query_range."),
});

/** Parsed arguments of get_task_info. */
export type GetTaskInfoArguments = z.infer<typeof getTaskInfoArgumentsSchema>;

/** Shows one task with its embed relations. */
export const getTaskInfoTool: DomainTool<ScheduleState, GetTaskInfoArguments> = {
  name: "get_task_info",
  description:
    "Shows one task in full: its source, status, duration, task class and slots, the event it is embedded in, " +
    "or, for an embeddable event, the task items embedded in it.",
  schema: getTaskInfoArgumentsSchema,
  kind: "read",
  run(state, args) {
    const position = positionOf(state.tasks, args.task_id);
    const task = position === undefined ? undefined : state.tasks[position];
    if (task === undefined) return failure(`no task with id ${quoteName(args.task_id)}; use list_tasks to find ids`);

    // Only the task's relations are resolved: one scan for a handful of ids, no map of every task.
    const relatedIds = task.source === "task_item" ? (task.embeddedIn === undefined ? [] : [task.embeddedIn]) : task.embeds;
    const related = findPositions(state.tasks, relatedIds);
    const byId = (id: string): ScheduleTask | undefined => {
      const found = related.get(id);
      return found === undefined ? undefined : state.tasks[found];
    };
    const lines = [`task ${task.id} ${quoteName(task.name)}`, `source: ${task.source}`];
    if (task.source === "task_item") {
      const category = state.categories.find((candidate) => candidate.id === task.categoryId);
      lines.push(`status: ${task.status}`, `duration: ${task.duration}`);
      lines.push(`category: ${task.categoryId}${category === undefined ? "" : ` ${quoteName(category.name)}`}`);
      if (task.status === "placed") lines.push(`slots: ${formatRanges(task.slots ?? [])}`);
      if (task.embeddedIn !== undefined) {
        const host = byId(task.embeddedIn);
        lines.push(`embedded in: host ${task.embeddedIn}${host === undefined ? "" : ` ${quoteName(host.name)}`}`);
      }
      return readResult(lines);
    }
    lines.push(`slots: ${formatRanges(task.slots)}`, `locked: ${task.locked}`, `can_embed: ${task.canEmbed}`);
    lines.push(`embeds: ${task.embeds.length}`);
    for (const guestId of task.embeds) {
      const guest = byId(guestId);
      lines.push(guest !== undefined && guest.source === "task_item" ? placedTaskLine(guest) : `- unknown task ${guestId}`);
    }
    return readResult(lines);
  },
};
