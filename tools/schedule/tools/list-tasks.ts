/**
 * `list_tasks`: tasks filtered by source, status, task class and day, in
 * task-list order, capped.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { TASK_LINE_LIMIT, appendCapped, failure, formatCount, quoteName, readResult, taskLine } from "../format.js";
import { copyRange } from "../slot-range.js";
import type { DueBefore, PastPlace, ScheduleState, ScheduleTask, SlotRange, TaskStatus } from "../state.js";
import { limitField, optionalDayField } from "./argument-fields.js";

/** A task as a list shows it (one `- task` / `- placed task` / `- event` line): a pending or placed task item, or an event. */
export interface ListedTask {
  /** Task id. */
  id: string;
  /** Display name. */
  name: string;
  /** A task item's status (`TaskStatus`: pending, placed, done, missed, skipped), or "event". */
  kind: TaskStatus | "event";
  /** Slots it needs (task items), or the length of its single range (events; 0 for an event on several ranges or none). */
  duration: number;
  /** Task class id (task items). */
  categoryId?: string;
  /** Where it sits: placed task items and events on the timetable. */
  slots: SlotRange[];
  /** Host it is embedded in (placed task items). */
  hostId?: string;
  /** Locked event. */
  locked: boolean;
  /** Embeddable event. */
  canEmbed: boolean;
  /** A task item's deadline, when it has one (the day, or the event it must end before). */
  dueBefore?: DueBefore;
  /** Where a settled task item (done, missed, skipped) was, as on record: its weekday, date (dated windows), slots. */
  was?: ListedPastPlace;
}

/** A past place as a task line says it (`pastPlaceText`): its weekday, its date when dated, its slots. */
export type ListedPastPlace = Pick<PastPlace, "dayOfWeek" | "date" | "start" | "end">;

/** What list_tasks says, as data: the tasks it lists, and how many matched in all. */
export interface ListTasksData {
  /** The tasks listed, in task-list order (at most the call's limit). */
  tasks: ListedTask[];
  /** Tasks that matched the filters. */
  matching: number;
  /** Tasks of the schedule. */
  total: number;
  /** Matching tasks left out of the list (the overflow line's count). */
  omitted: number;
}

/** A task as a list shows it. */
export function listedTask(task: ScheduleTask): ListedTask {
  if (task.source === "event") {
    const only = task.slots.length === 1 ? task.slots[0] : undefined;
    return {
      id: task.id,
      name: task.name,
      kind: "event",
      duration: only ? only.end - only.start + 1 : 0,
      slots: task.slots.map(copyRange),
      locked: task.locked,
      canEmbed: task.canEmbed,
    };
  }
  const listed: ListedTask = {
    id: task.id,
    name: task.name,
    kind: task.status,
    duration: task.duration,
    categoryId: task.categoryId,
    slots: (task.slots ?? []).map(copyRange),
    locked: false,
    canEmbed: false,
  };
  if (task.embeddedIn !== undefined) listed.hostId = task.embeddedIn;
  if (task.dueBefore !== undefined) listed.dueBefore = { ...task.dueBefore };
  if (task.was !== undefined) {
    const { dayOfWeek, date, start, end } = task.was;
    listed.was = { dayOfWeek, ...(date === undefined ? {} : { date }), start, end };
  }
  return listed;
}

/** Arguments of list_tasks. */
export const listTasksArgumentsSchema = z.object({
  source: z.enum(["event", "task_item"]).optional().describe("Events or task items."),
  status: z
    .enum(["pending", "placed", "done", "missed", "skipped"])
    .optional()
    .describe("Task items with this status."),
  category: z.string().min(1).optional().describe("Task items of this task class."),
  day: optionalDayField("Tasks on this day."),
  limit: limitField(TASK_LINE_LIMIT),
});

/** Parsed arguments of list_tasks. */
export type ListTasksArguments = z.infer<typeof listTasksArgumentsSchema>;

/** Lists tasks by source, status, task class and day. */
export const listTasksTool: DomainTool<ScheduleState, ListTasksArguments> = {
  name: "list_tasks",
  description: "Lists tasks by source, status, task class and day.",
  schema: listTasksArgumentsSchema,
  kind: "read",
  run(state, args) {
    if (args.source === "event" && (args.status !== undefined || args.category !== undefined)) {
      return failure("status and category apply to task items only; drop them or use source=task_item");
    }
    if (args.category !== undefined && !state.categories.some((category) => category.id === args.category)) {
      const known = state.categories.map((category) => category.id).join(", ") || "none";
      return failure(`no task class with id ${quoteName(args.category)}; known task classes: ${known}`);
    }
    if (args.day !== undefined && (args.day < 1 || args.day > state.window.totalDays)) {
      return failure(`day ${args.day} is outside the window (days 1-${state.window.totalDays})`);
    }
    const matches = state.tasks.filter((task) => matchesFilters(task, args));
    const filters = describeFilters(args);
    const lines = [`tasks matching ${filters}: ${formatCount(matches.length)} of ${formatCount(state.tasks.length)}`];
    const shown = appendCapped(
      lines,
      matches,
      args.limit ?? TASK_LINE_LIMIT,
      taskLine,
      "narrow with source/status/category/day filters",
    );
    const data: ListTasksData = {
      tasks: shown.map(listedTask),
      matching: matches.length,
      total: state.tasks.length,
      omitted: matches.length - shown.length,
    };
    return readResult(lines, data);
  },
};

/** True when a task passes every filter given. */
function matchesFilters(task: ScheduleTask, args: ListTasksArguments): boolean {
  if (args.source !== undefined && task.source !== args.source) return false;
  if (args.status !== undefined || args.category !== undefined) {
    if (task.source !== "task_item") return false;
    if (args.status !== undefined && task.status !== args.status) return false;
    if (args.category !== undefined && task.categoryId !== args.category) return false;
  }
  if (args.day !== undefined && !(task.slots ?? []).some((range) => range.day === args.day)) return false;
  return true;
}

/** `source=… status=… category=… day=…`, or `all`. */
function describeFilters(args: ListTasksArguments): string {
  const parts: string[] = [];
  if (args.source !== undefined) parts.push(`source=${args.source}`);
  if (args.status !== undefined) parts.push(`status=${args.status}`);
  if (args.category !== undefined) parts.push(`category=${args.category}`);
  if (args.day !== undefined) parts.push(`day=${args.day}`);
  return parts.length === 0 ? "all" : parts.join(" ");
}
