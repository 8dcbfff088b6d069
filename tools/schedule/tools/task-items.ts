/**
 * `add_task`, `update_task` and `remove_task` (task items only: events stay as imported), each refusing, with the week
 * unchanged, a session length outside its class's bounds, an unknown class or exam, a session that never fits.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { buildTaskItem } from "../canonical-form.js";
import { failure, quoteName } from "../format.js";
import { TASK_ID_PATTERN, type ScheduleState, type TaskItem } from "../state.js";
import { checkScheduleInvariants } from "../validation.js";
import { dayText } from "../rules.js";
import { firstOpenDayOf } from "../health.js";
import { clockOfState } from "../window-clock.js";
import { PLAIN_NAME_RULE, plainNameField } from "../../../contracts/plain-name.js";
import { taskIdField } from "./argument-fields.js";
import {
  dueFields,
  dueOf,
  idFrom,
  neverFitsProblem,
  placedRuleProblem,
  sessionDaysProblem,
  sessionLengths,
  sessionProblem,
  taskItemOf,
} from "./task-writes.js";

/** The most slots one task item takes (with sessions: in all). */
export const MAX_TASK_SLOTS = 96;

const addTaskArgumentsSchema = z.object({
  name: plainNameField(120).describe(`The task's name. ${PLAIN_NAME_RULE}`),
  class_id: taskIdField("Id of its class."),
  duration: z.number().int().min(1).max(MAX_TASK_SLOTS).describe("Consecutive slots it needs (with sessions: in all)."),
  sessions: z.boolean().optional().describe("true: split into sessions of its class's length, one a day."),
  task_id: z.string().min(1).optional().describe("Its id; omit to make one from the name."),
  ...dueFields,
});

const updateTaskArgumentsSchema = z.object({
  task_id: taskIdField("Id of the task item."),
  name: plainNameField(120).optional().describe(`A new name. ${PLAIN_NAME_RULE}`),
  class_id: z.string().min(1).optional().describe("A new class."),
  duration: z
    .number()
    .int()
    .min(1)
    .max(24)
    .optional()
    .describe("A new length in slots (a placed task must be unplaced first)."),
  clear_due_before: z.boolean().optional().describe("true to drop its deadline."),
  clear_priority: z.boolean().optional().describe("true to drop its priority (normal again)."),
  clear_earliest_day: z.boolean().optional().describe("true to drop its earliest day."),
  ...dueFields,
});

const removeTaskArgumentsSchema = z.object({ task_id: taskIdField("Id of the task item to remove.") });

/** What add_task did, as data: the task item added, pending (its first session, and all of them, when split). */
export interface AddTaskData {
  task: TaskItem;
  sessions?: TaskItem[];
}

/** What update_task did, as data: the task as stored after, and as it was before (what undo gives back). */
export interface UpdateTaskData {
  task: TaskItem;
  /** Absent on a card applied before it was recorded. */
  before?: TaskItem;
}

/** What remove_task did, as data: the task item's id, and the task as it was (what undo puts back). */
export interface RemoveTaskData {
  id: string;
  /** Absent on a card applied before it was recorded. */
  task?: TaskItem;
}

/** The text add_task gives for its data. */
export function addedTaskText(data: AddTaskData): string {
  const { task, sessions } = data;
  if (sessions)
    return `added task ${task.group?.id ?? task.id} ${quoteName(task.name.replace(SESSION_OF, ""))} as ${sessions.length} sessions (${sessions.map((entry) => `${entry.id}: ${entry.duration} slot(s)`).join(", ")}; class ${task.categoryId}, no two on one day); they are pending`;
  return `added task ${task.id} ${quoteName(task.name)} (${task.duration} slot(s), class ${task.categoryId}); it is pending`;
}

/** Adds a pending task item to a class. */
export const addTaskTool: DomainTool<ScheduleState, z.infer<typeof addTaskArgumentsSchema>> = {
  name: "add_task",
  description:
    "Adds a task to arrange (pending) to a class: its name, length in slots, and optionally a deadline (a day, or an exam event), a priority, an earliest day.",
  schema: addTaskArgumentsSchema,
  kind: "write",
  run(state, args) {
    const category = state.categories.find((entry) => entry.id === args.class_id);
    if (!category)
      return failure(
        `no task class ${quoteName(args.class_id)}; the classes are ${state.categories.map((entry) => entry.id).join(", ") || "none yet (upsert_task_class makes one)"}`,
      );
    const taken = new Set(state.tasks.map((task) => task.id));
    if (args.task_id !== undefined && (taken.has(args.task_id) || !TASK_ID_PATTERN.test(args.task_id)))
      return failure(
        `task id ${quoteName(args.task_id)} ${taken.has(args.task_id) ? "is taken" : "may hold only A-Z a-z 0-9 _ . : - (1-64)"}`,
      );
    const lengths = args.sessions ? sessionLengths(args.duration, category) : [args.duration];
    if (typeof lengths === "string") return failure(lengths);
    const session = sessionProblem(Math.max(...lengths), category) ?? sessionProblem(Math.min(...lengths), category);
    if (session) return failure(session);
    const due = dueOf(state, args);
    if (!due.ok) return failure(due.problem);
    if (args.earliest_day !== undefined && args.earliest_day > state.window.totalDays)
      return failure(`earliest_day ${args.earliest_day} is outside the window (days 1-${state.window.totalDays})`);
    // By the run's clock, a deadline whose days before it have all passed leaves none (a task due sooner than all its
    // sessions fit is added, what does not fit said at risk).
    if (due.due && "day" in due.due && firstOpenDayOf(state.window, clockOfState(state)) >= due.due.day)
      return failure(
        `its deadline has passed: it must end before ${dayText(due.due.day, { window: state.window })}, and no day before that is left. Nothing was added`,
      );
    const never =
      neverFitsProblem(state, {
        duration: Math.max(...lengths),
        ...(args.earliest_day ? { earliestDay: args.earliest_day } : {}),
        ...(due.due ? { dueBefore: due.due } : {}),
      }) ?? sessionDaysProblem(state, lengths.length, args.earliest_day, due.due);
    if (never) return failure(`${never}. Nothing was added`);
    const id = args.task_id ?? idFrom(args.name, taken);
    // A long task's sessions: one task item each, tied by a group (no two on one day), each with the task's rules.
    const tasks = lengths.map((duration, index) =>
      buildTaskItem({
        id: lengths.length > 1 ? `${id}-s${index + 1}` : id,
        name: lengths.length > 1 ? sessionName(args.name, index + 1, lengths.length) : args.name,
        source: "task_item",
        duration,
        categoryId: category.id,
        status: "pending",
        ...(due.due ? { dueBefore: due.due } : {}),
        ...(args.priority ? { priority: args.priority } : {}),
        ...(args.earliest_day ? { earliestDay: args.earliest_day } : {}),
        ...(lengths.length > 1 ? { group: { id, kind: "sessions" as const } } : {}),
      }),
    );
    const clash = tasks.find((task) => taken.has(task.id));
    if (clash) return failure(`task id ${quoteName(clash.id)} is taken`);
    const next: ScheduleState = { ...state, tasks: [...state.tasks, ...tasks] };
    const problems = checkScheduleInvariants(next);
    if (problems.length > 0) return failure(problems.join("; "));
    const data: AddTaskData = { task: tasks[0]!, ...(tasks.length > 1 ? { sessions: tasks } : {}) };
    return { ok: true, content: addedTaskText(data), state: next, data };
  },
};

/** A session's mark after its task's name: " (session 2 of 3)", or "（第 2 次，共 3 次）" after a Chinese name. */
const SESSION_OF = / \(session \d+ of \d+\)$|（第 \d+ 次，共 \d+ 次）$/;

/** Session `index` of `count` of the task named `name`, in the language of its name. */
function sessionName(name: string, index: number, count: number): string {
  return /[\u4e00-\u9fff]/.test(name)
    ? `${name}（第 ${index} 次，共 ${count} 次）`
    : `${name} (session ${index} of ${count})`;
}

/** Changes a task item's name, length, class, deadline, priority or earliest day. */
export const updateTaskTool: DomainTool<ScheduleState, z.infer<typeof updateTaskArgumentsSchema>> = {
  name: "update_task",
  description:
    "Changes a task item: its name, class, length (unplace it first), deadline (or clear_due_before), priority or earliest day. Events stay as imported.",
  schema: updateTaskArgumentsSchema,
  kind: "write",
  run(state, args) {
    const found = taskItemOf(state, args.task_id);
    if (!found.ok) return failure(found.problem);
    const current = found.task;
    if (args.duration !== undefined && args.duration !== current.duration && current.status === "placed")
      return failure(`task ${current.id} is placed; unplace it before changing its length`);
    const classId = args.class_id ?? current.categoryId;
    const category = state.categories.find((entry) => entry.id === classId);
    if (!category) return failure(`no task class ${quoteName(classId)}`);
    const session = sessionProblem(args.duration ?? current.duration, category);
    if (session) return failure(session);
    const due = dueOf(state, args);
    if (!due.ok) return failure(due.problem);
    if (args.clear_due_before && due.due) return failure("give a new deadline or clear_due_before, not both");
    if (args.earliest_day !== undefined && args.earliest_day > state.window.totalDays)
      return failure(`earliest_day ${args.earliest_day} is outside the window (days 1-${state.window.totalDays})`);
    const next: TaskItem = {
      ...current,
      name: args.name ?? current.name,
      categoryId: classId,
      duration: args.duration ?? current.duration,
    };
    if (args.clear_due_before) delete next.dueBefore;
    if (due.due) next.dueBefore = due.due;
    if (args.clear_priority && args.priority) return failure("give a priority or clear_priority, not both");
    if (args.clear_earliest_day && args.earliest_day !== undefined)
      return failure("give an earliest_day or clear_earliest_day, not both");
    if (args.clear_priority) delete next.priority;
    if (args.clear_earliest_day) delete next.earliestDay;
    if (args.priority) next.priority = args.priority;
    if (args.earliest_day) next.earliestDay = args.earliest_day;
    const task = buildTaskItem(next);
    if (JSON.stringify(task) === JSON.stringify(buildTaskItem(current)))
      return failure(`nothing to change for task ${current.id}: every value given is already so`);
    // Only a change of what decides where it can go is checked (a rename of a task that never fits is no new problem).
    const reshaped = args.duration !== undefined || args.earliest_day !== undefined || due.due !== undefined;
    const never = reshaped ? neverFitsProblem(state, task) : undefined;
    if (never) return failure(`${never}. Nothing was changed`);
    const after: ScheduleState = { ...state, tasks: state.tasks.map((entry) => (entry.id === task.id ? task : entry)) };
    const broken = placedRuleProblem(after, new Set([task.id]));
    if (broken) return failure(broken);
    const data: UpdateTaskData = { task, before: buildTaskItem(current) };
    return { ok: true, content: `updated task ${task.id} ${quoteName(task.name)}`, state: after, data };
  },
};

/** Removes a task item (from its place too); events stay as imported. */
export const removeTaskTool: DomainTool<ScheduleState, z.infer<typeof removeTaskArgumentsSchema>> = {
  name: "remove_task",
  description: "Removes a task item, placed or pending. Events stay as imported.",
  schema: removeTaskArgumentsSchema,
  kind: "write",
  run(state, args) {
    const found = taskItemOf(state, args.task_id);
    if (!found.ok) return failure(found.problem);
    const current = found.task;
    const tasks = state.tasks
      .filter((task) => task.id !== current.id)
      .map((task) =>
        task.source === "event" && task.embeds.includes(current.id)
          ? { ...task, embeds: task.embeds.filter((id) => id !== current.id) }
          : task,
      );
    return {
      ok: true,
      content: `removed task ${current.id} ${quoteName(current.name)}`,
      state: { ...state, tasks },
      data: { id: current.id, task: buildTaskItem(current) } satisfies RemoveTaskData,
    };
  },
};
