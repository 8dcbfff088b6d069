/**
 * `get_task_info`: one task in full, with its embed relations.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure, formatRanges, placedTaskLine, quoteName, readResult } from "../format.js";
import { findPositions, positionOf } from "../occupancy-index.js";
import { dayOfWeekName, type ScheduleState, type ScheduleTask } from "../state.js";
import { listedTask, type ListedTask } from "./list-tasks.js";
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
    const relatedIds =
      task.source === "task_item" ? (task.embeddedIn === undefined ? [] : [task.embeddedIn]) : task.embeds;
    const related = findPositions(state.tasks, relatedIds);
    const byId = (id: string): ScheduleTask | undefined => {
      const found = related.get(id);
      return found === undefined ? undefined : state.tasks[found];
    };
    const data: GetTaskInfoData = { task: listedTask(task) };
    if (task.source === "task_item") {
      const category = state.categories.find((candidate) => candidate.id === task.categoryId);
      if (category !== undefined) data.categoryName = category.name;
      const host = task.embeddedIn === undefined ? undefined : byId(task.embeddedIn);
      if (host !== undefined) data.hostName = host.name;
    } else {
      data.embeds = task.embeds.map((id) => {
        const guest = byId(id);
        return guest !== undefined && guest.source === "task_item" ? { id, task: listedTask(guest) } : { id };
      });
    }
    return readResult(taskInfoLines(data), data);
  },
};

/** What get_task_info says, as data: the task as a list shows it, and the names and guests its lines add. */
export interface GetTaskInfoData {
  task: ListedTask;
  /** Name of the task item's class, when the schedule has it. */
  categoryName?: string;
  /** Name of the event a task item is embedded in. */
  hostName?: string;
  /** An event's embedded task items, in its order (`task` absent for an id the schedule does not have). */
  embeds?: Array<{ id: string; task?: ListedTask }>;
}

/** The `key: value` lines of a task's info, in order: `[key, value]`. */
export function taskInfoFields(data: GetTaskInfoData): Array<[string, string]> {
  const { task } = data;
  if (task.kind === "event") {
    return [
      ["source", "event"],
      ["slots", formatRanges(task.slots)],
      ["locked", String(task.locked)],
      ["can_embed", String(task.canEmbed)],
      ["embeds", String(data.embeds?.length ?? 0)],
    ];
  }
  const fields: Array<[string, string]> = [
    ["source", "task_item"],
    ["status", task.kind],
    ["duration", String(task.duration)],
  ];
  fields.push([
    "category",
    `${task.categoryId ?? ""}${data.categoryName === undefined ? "" : ` ${quoteName(data.categoryName)}`}`,
  ]);
  // Where it is: placed, or done in the window (a done review keeps its place as history).
  if (task.slots.length > 0) fields.push(["slots", formatRanges(task.slots)]);
  // Where a settled one was, as on record (`pastPlaceText`).
  if (task.was !== undefined) {
    const { date, dayOfWeek, start, end } = task.was;
    fields.push(["was", `${date ?? dayOfWeekName(dayOfWeek)} slots ${start}-${end}`]);
  }
  if (task.hostId !== undefined)
    fields.push([
      "embedded in",
      `host ${task.hostId}${data.hostName === undefined ? "" : ` ${quoteName(data.hostName)}`}`,
    ]);
  return fields;
}

/** The `- placed task …` lines of an event's embedded task items. */
export function taskInfoGuestLines(data: GetTaskInfoData): string[] {
  return (data.embeds ?? []).map(({ id, task }) =>
    task === undefined
      ? `- unknown task ${id}`
      : placedTaskLine({
          id,
          name: task.name,
          source: "task_item",
          status: "placed",
          duration: task.duration,
          categoryId: task.categoryId ?? "",
          slots: task.slots,
          ...(task.hostId === undefined ? {} : { embeddedIn: task.hostId }),
        }),
  );
}

/** get_task_info's text: `task <id> "<name>"`, the fields, the guests. */
function taskInfoLines(data: GetTaskInfoData): string[] {
  return [
    `task ${data.task.id} ${quoteName(data.task.name)}`,
    ...taskInfoFields(data).map(([key, value]) => `${key}: ${value}`),
    ...taskInfoGuestLines(data),
  ];
}
