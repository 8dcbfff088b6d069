/**
 * The writes that shape what there is to arrange (issue 30), each through a card like any write and persisted with
 * the rest: `upsert_task_class` (a course with its study profile), `add_task`, `update_task` and `remove_task` (task
 * items only: events stay as imported). Each checks the rules it would break — a session length outside its class's
 * bounds, a placed session its new rules would rule out, an unknown class or exam — and refuses, saying which, with the
 * week unchanged.
 */
import { z } from "zod";
import { weekdayName, type Language } from "../../../contracts/language.js";
import type { DomainTool } from "../../domain.js";
import { buildTaskItem, canonicalCategory } from "../canonical-form.js";
import { failure, quoteName, someIds } from "../format.js";
import { bufferProblem, placementRuleProblem, ruleBookOf } from "../rules.js";
import {
  formatDate,
  TASK_ID_PATTERN,
  type DueBefore,
  type EventTask,
  type ScheduleState,
  type ScheduleTask,
  type TaskCategory,
  type TaskItem,
} from "../state.js";
import { checkScheduleInvariants } from "../validation.js";
import {
  alreadyThereText,
  CalendarFileError,
  exportCalendar,
  importTimetable,
  passedEventText,
  reviewsLeftOutText,
  type PassedEvent,
  type ImportedOccurrence,
} from "../calendar-files.js";
import { rollWindowBy, settleTasksOnRoll } from "../calendar.js";
import { daysBetween, localClock } from "../../../contracts/clock.js";
import { clockOfState } from "../window-clock.js";
import { buildOccupancyIndex, cellOf, FREE } from "../occupancy-index.js";
import { PLAIN_NAME_RULE, plainNameField } from "../../../contracts/plain-name.js";
import { taskIdField } from "./argument-fields.js";
import { saySummary } from "../summary-phrases.js";

const dayList = (description: string) => z.array(z.number().int().min(1)).max(400).optional().describe(description);

const upsertTaskClassArgumentsSchema = z.object({
  class_id: z
    .string()
    .min(1)
    .optional()
    .describe("Id of the class to change; omit to create one (its id is made from the name)."),
  name: plainNameField(80).describe(`The class's name (a course or subject). ${PLAIN_NAME_RULE}`),
  preferred_parts: z
    .array(z.enum(["morning", "afternoon", "evening"]))
    .max(3)
    .optional()
    .describe("Parts of the day its sessions should lie in; [] clears them (your standing preference applies)."),
  min_session: z.number().int().min(1).max(24).optional().describe("Fewest slots one session takes."),
  max_session: z.number().int().min(1).max(24).optional().describe("Most slots one session takes."),
  excluded_days_of_week: z
    .array(z.number().int().min(1).max(7))
    .max(7)
    .optional()
    .describe("Weekdays none of its sessions may use (1 = Monday … 7 = Sunday); [] clears them."),
  blocked_days: dayList("Whole days (day indices) none of its sessions may use."),
  strategy: z
    .enum(["steady", "compact"])
    .optional()
    .describe("steady: spread over the days; compact: together on few days."),
  buffer_slots: z
    .number()
    .int()
    .min(0)
    .max(12)
    .optional()
    .describe("Free slots kept between a session and anything else that day."),
});

const dueFields = {
  due_before_day: z.number().int().min(1).optional().describe("It must end on an earlier day than this day index."),
  due_before_event: z.string().min(1).optional().describe("It must end before this event (an exam, say) starts."),
  priority: z.enum(["high", "normal", "low"]).optional().describe("How much it matters."),
  earliest_day: z.number().int().min(1).optional().describe("The first day index it may go on."),
};

const addTaskArgumentsSchema = z.object({
  name: plainNameField(120).describe(`The task's name. ${PLAIN_NAME_RULE}`),
  class_id: taskIdField("Id of its class."),
  duration: z.number().int().min(1).max(96).describe("Consecutive slots it needs (with sessions: in all)."),
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

/** A slug id from a name, unique among `taken`. */
export function idFrom(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 48) || "task";
  let id = base;
  for (let suffix = 2; taken.has(id); suffix += 1) id = `${base}-${suffix}`;
  return id;
}

/** Why the placed sessions of `classId` (or the one task) would break the rules of `next`, or undefined. */
function placedRuleProblem(next: ScheduleState, taskIds: ReadonlySet<string>): string | undefined {
  // A class's own rules: sessions placed before a standing preference was stated are not the class edit's business.
  const book = ruleBookOf({ ...next, standing: undefined });
  for (const task of next.tasks) {
    const range = task.slots?.[0];
    if (task.source !== "task_item" || !range || !taskIds.has(task.id)) continue;
    const broken = placementRuleProblem(task, range, book);
    if (broken) return `${broken}; move or unplace it first`;
  }
  const positions = new Set(next.tasks.flatMap((task, position) => (taskIds.has(task.id) ? [position] : [])));
  const crowded = bufferProblem(
    next.tasks,
    (position) => next.tasks[position]?.slots?.[0],
    occupantsOf(next.tasks),
    next.window.slotsPerDay,
    positions,
    book,
  );
  return crowded ? `${crowded}; move or unplace it first` : undefined;
}

/** The positions (in `tasks`) of what covers a slot. */
function occupantsOf(tasks: readonly ScheduleTask[]): (day: number, slot: number) => number[] {
  return (day, slot) =>
    tasks.flatMap((task, position) =>
      (task.slots ?? []).some((range) => range.day === day && range.start <= slot && range.end >= slot)
        ? [position]
        : [],
    );
}

/**
 * The buffer an imported event would break, as any write would: a placed session's class keeps free slots around it
 * and the event lands in them. Each of the event's ranges is checked as a landing of its own.
 */
function importedEventBufferProblem(state: ScheduleState, event: EventTask): string | undefined {
  const pieces = event.slots.map((range) => ({ ...event, slots: [range] }));
  const tasks = [...state.tasks, ...pieces];
  const landed = new Set(pieces.map((_, index) => state.tasks.length + index));
  return bufferProblem(
    tasks,
    (position) => tasks[position]?.slots?.[0],
    occupantsOf(tasks),
    state.window.slotsPerDay,
    landed,
    ruleBookOf(state),
  );
}

/** The deadline the arguments give, or a problem. */
export function dueOf(
  state: ScheduleState,
  args: { due_before_day?: number | undefined; due_before_event?: string | undefined },
): { ok: true; due?: DueBefore } | { ok: false; problem: string } {
  if (args.due_before_day !== undefined && args.due_before_event !== undefined)
    return { ok: false, problem: "give due_before_day or due_before_event, not both" };
  if (args.due_before_event !== undefined) {
    const event = state.tasks.find((task) => task.id === args.due_before_event);
    if (event?.source !== "event")
      return {
        ok: false,
        problem: `no event with id ${quoteName(args.due_before_event)}; list_tasks source=event shows the events`,
      };
    return { ok: true, due: { eventId: event.id } };
  }
  if (args.due_before_day !== undefined) {
    if (args.due_before_day < 2 || args.due_before_day > state.window.totalDays + 1)
      return {
        ok: false,
        problem: `due_before_day ${args.due_before_day} is outside the window (2-${state.window.totalDays + 1})`,
      };
    return { ok: true, due: { day: args.due_before_day } };
  }
  return { ok: true };
}

/** The task item with this id, or why there is none to change (an unknown id, an event). */
function taskItemOf(state: ScheduleState, id: string): { ok: true; task: TaskItem } | { ok: false; problem: string } {
  const task = state.tasks.find((entry) => entry.id === id);
  if (!task) return { ok: false, problem: `no task with id ${quoteName(id)}; use list_tasks to find ids` };
  if (task.source === "event")
    return { ok: false, problem: `${task.id} ${quoteName(task.name)} is a timetable event; events stay as imported` };
  return { ok: true, task };
}

/** Session length when a class names no longest session: two slots (a double period). */
export const DEFAULT_SESSION_SLOTS = 2;

/**
 * A long task of `total` slots split into sessions within its class's session bounds (`maxSession`, else
 * `DEFAULT_SESSION_SLOTS`, and `minSession`): as few as hold it, as even as can be, longer ones first; or why none can.
 */
export function sessionLengths(total: number, category: TaskCategory): number[] | string {
  const most = category.maxSession ?? Math.max(DEFAULT_SESSION_SLOTS, category.minSession ?? 1);
  const count = Math.ceil(total / most);
  const lengths = Array.from(
    { length: count },
    (_, index) => Math.floor(total / count) + (index < total % count ? 1 : 0),
  );
  const least = category.minSession ?? 1;
  if (lengths.some((length) => length < least))
    return `${total} slot(s) cannot be split into sessions of ${least}-${most} slot(s) (the class ${quoteName(category.name)})`;
  return lengths;
}

/** Why `count` sessions (no two on one day) can never fit the days between the earliest day and the deadline, or undefined. */
function sessionDaysProblem(
  state: ScheduleState,
  count: number,
  earliest: number | undefined,
  due: DueBefore | undefined,
): string | undefined {
  if (count <= 1) return undefined;
  const last =
    due && "day" in due
      ? due.day - 1
      : due && "eventId" in due
        ? (ruleBookOf(state).eventStarts.get(due.eventId)?.range.day ?? state.window.totalDays)
        : state.window.totalDays;
  const days = last - (earliest ?? 1) + 1;
  return days < count
    ? `${count} sessions, no two on one day, need ${count} days, but only ${Math.max(0, days)} lie before its deadline`
    : undefined;
}

/** Why `duration` does not fit its class's session bounds, or undefined. */
export function sessionProblem(duration: number, category: TaskCategory): string | undefined {
  if (category.minSession !== undefined && duration < category.minSession)
    return `a session of ${quoteName(category.name)} takes at least ${category.minSession} slot(s); ${duration} is too short`;
  if (category.maxSession !== undefined && duration > category.maxSession)
    return `a session of ${quoteName(category.name)} takes at most ${category.maxSession} slot(s); ${duration} is too long`;
  return undefined;
}

/**
 * Why a task of this length, earliest day and deadline can never be placed in the window, whatever else is there, or
 * undefined: a session longer than a day, an earliest day on or after its due day (it must end on an earlier day), or
 * a deadline event that starts before its earliest day leaves it room for (or before it could end on the event's day).
 */
export function neverFitsProblem(
  state: ScheduleState,
  task: Pick<TaskItem, "duration" | "earliestDay" | "dueBefore">,
): string | undefined {
  const { slotsPerDay } = state.window;
  if (task.duration > slotsPerDay)
    return `a session of ${task.duration} slot(s) is longer than a day (${slotsPerDay} slots): it could never be placed`;
  const earliest = task.earliestDay ?? 1;
  const due = task.dueBefore;
  if (due && "day" in due && earliest >= due.day)
    return `earliest_day ${earliest} is not before its due day ${due.day} (it must end on an earlier day): no day is left for it`;
  const eventId = due && "eventId" in due ? due.eventId : undefined;
  const event = eventId === undefined ? undefined : ruleBookOf(state).eventStarts.get(eventId);
  if (
    event &&
    (event.range.day < earliest || (event.range.day === earliest && event.range.start - 1 < task.duration))
  ) {
    return `event ${eventId} ${quoteName(event.name)} starts at day ${event.range.day} slot ${event.range.start}, before a session of ${task.duration} slot(s) from day ${earliest} could end: no room is left for it`;
  }
  return undefined;
}

/** Creates a task class, or changes one's name or profile (the fields given replace those stored). */
export const upsertTaskClassTool: DomainTool<ScheduleState, z.infer<typeof upsertTaskClassArgumentsSchema>> = {
  name: "upsert_task_class",
  description:
    "Creates a task class (a course) or changes one: its name and study profile — preferred parts of the day, session length bounds, excluded weekdays, blocked days, strategy, buffer.",
  schema: upsertTaskClassArgumentsSchema,
  kind: "write",
  run(state, args) {
    const existing =
      args.class_id === undefined ? undefined : state.categories.find((category) => category.id === args.class_id);
    if (args.class_id !== undefined && !TASK_ID_PATTERN.test(args.class_id))
      return failure(`class id ${quoteName(args.class_id)} may hold only A-Z a-z 0-9 _ . : - (1-64)`);
    const id = args.class_id ?? idFrom(args.name, new Set(state.categories.map((category) => category.id)));
    const next: TaskCategory = { ...(existing ?? {}), id, name: args.name };
    // An empty list clears the field: a class with no parts of its own follows the user's standing preference.
    const list = <K extends "preferredParts" | "excludedDaysOfWeek" | "blockedDays">(
      field: K,
      values: TaskCategory[K] | undefined,
    ) => {
      if (values === undefined) return;
      if (values.length === 0) delete next[field];
      else next[field] = values;
    };
    list("preferredParts", args.preferred_parts && [...new Set(args.preferred_parts)]);
    if (args.min_session !== undefined) next.minSession = args.min_session;
    if (args.max_session !== undefined) next.maxSession = args.max_session;
    list(
      "excludedDaysOfWeek",
      args.excluded_days_of_week && [...new Set(args.excluded_days_of_week)].sort((a, b) => a - b),
    );
    list("blockedDays", args.blocked_days && [...new Set(args.blocked_days)].sort((a, b) => a - b));
    if (args.strategy !== undefined) next.strategy = args.strategy;
    if (args.buffer_slots !== undefined) next.bufferSlots = args.buffer_slots;
    if (next.minSession !== undefined && next.maxSession !== undefined && next.minSession > next.maxSession)
      return failure(`min_session ${next.minSession} is more than max_session ${next.maxSession}`);
    const outside = (next.blockedDays ?? []).find((day) => day > state.window.totalDays);
    if (outside !== undefined)
      return failure(`blocked day ${outside} is outside the window (days 1-${state.window.totalDays})`);
    const members = state.tasks.filter(
      (task): task is TaskItem => task.source === "task_item" && task.categoryId === id,
    );
    for (const task of members) {
      const problem = sessionProblem(task.duration, next);
      if (problem) return failure(`${problem} for task ${task.id} ${quoteName(task.name)}; change its duration first`);
    }
    const category = canonicalCategory(next);
    const data: TaskClassData = {
      class: category,
      created: !existing,
      ...(existing ? { before: canonicalCategory(existing) } : {}),
    };
    const after: ScheduleState = {
      ...state,
      categories: existing
        ? state.categories.map((entry) => (entry.id === id ? category : entry))
        : [...state.categories, category],
    };
    const broken = placedRuleProblem(after, new Set(members.map((task) => task.id)));
    if (broken) return failure(broken);
    return { ok: true, content: taskClassText(data), state: after, data };
  },
};

/** What upsert_task_class did, as data: the class as stored, and whether the write created it. */
export interface TaskClassData {
  class: TaskCategory;
  created: boolean;
  /** The class as it was before a change (what undo gives back); absent when created, or on an older card. */
  before?: TaskCategory;
}

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

/** What import_calendar did, as data: the events added, their times as the file gave them, and what was left out. */
export interface ImportCalendarData {
  events: EventTask[];
  times: Record<string, ImportedOccurrence[]>;
  skipped: string[];
  /** The events whose times in the window have started by the run's clock: left out, each also in `skipped`. */
  passed: PassedEvent[];
  /** The file's placed reviews (CATEGORIES:review), by name: not imported, told in `skipped` (absent on older cards). */
  reviews?: string[];
  /** The file's events already on the schedule, by name: left as they are, told in `skipped` (absent on older cards). */
  present?: string[];
}

/** The text upsert_task_class gives for its data. */
export function taskClassText(data: TaskClassData): string {
  return saySummary("en", data.created ? "classCreated" : "classUpdated", {
    id: data.class.id,
    said: quoteName(data.class.name),
  });
}

/** The text add_task gives for its data. */
export function addedTaskText(data: AddTaskData): string {
  const { task, sessions } = data;
  if (sessions)
    return `added task ${task.group?.id ?? task.id} ${quoteName(task.name.replace(/ \(session \d+ of \d+\)$/, ""))} as ${sessions.length} sessions (${sessions.map((entry) => `${entry.id}: ${entry.duration} slot(s)`).join(", ")}; class ${task.categoryId}, no two on one day); they are pending`;
  return `added task ${task.id} ${quoteName(task.name)} (${task.duration} slot(s), class ${task.categoryId}); it is pending`;
}

/** The text import_calendar gives for its data. */
export function importedText(data: ImportCalendarData): string {
  const skippedText = data.skipped.length > 0 ? `; left out: ${data.skipped.join("; ")}` : "";
  return `imported ${data.events.length} event(s): ${data.events.map((event) => `${event.id} ${quoteName(event.name)}`).join(", ")}${skippedText}`;
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
        name: lengths.length > 1 ? `${args.name} (session ${index + 1} of ${lengths.length})` : args.name,
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

const removeTaskClassArgumentsSchema = z.object({
  class_id: z.string().min(1).max(64).describe("Id of the task class to remove."),
});

/** What remove_task_class did, as data: the class as it was (what undo creates again). */
export interface RemoveTaskClassData {
  class: TaskCategory;
}

/**
 * Removes a task class that no task item uses, done, missed and skipped ones included: their history names it. So
 * "undo that" can take back a class a card created, and a user can drop a course that has no work left.
 */
export const removeTaskClassTool: DomainTool<ScheduleState, z.infer<typeof removeTaskClassArgumentsSchema>> = {
  name: "remove_task_class",
  description:
    "Removes a task class (a course) that no task uses, done ones included; remove its tasks or give them another class first.",
  schema: removeTaskClassArgumentsSchema,
  kind: "write",
  run(state, args) {
    const existing = state.categories.find((category) => category.id === args.class_id);
    if (existing === undefined)
      return failure(
        `no task class ${quoteName(args.class_id)}; the classes are ${state.categories.map((entry) => entry.id).join(", ") || "none"}`,
      );
    const users = state.tasks.filter((task) => task.source === "task_item" && task.categoryId === existing.id);
    if (users.length > 0) {
      return failure(
        `task class ${existing.id} ${quoteName(existing.name)} is used by ${users.length} task(s) (${someIds(users.map((task) => task.id))}); remove them or give them another class first; nothing was removed`,
      );
    }
    const data: RemoveTaskClassData = { class: canonicalCategory(existing) };
    return {
      ok: true,
      content: `removed task class ${existing.id} ${quoteName(existing.name)}`,
      state: { ...state, categories: state.categories.filter((category) => category.id !== existing.id) },
      data,
    };
  },
};

/** Most occurrences of one imported event a card lists. */
const CARD_OCCURRENCES = 4;

/** An imported event's occurrences as a card tells them: "Mon 25 Mar 10:00–11:40 (08:00 Europe/Berlin → 15:00 Asia/Shanghai), …". */
function occurrencesText(occurrences: readonly ImportedOccurrence[], language: Language): string {
  const zh = language === "zh";
  // A series whose times in this window have passed, or start after it: it is added for the weeks after.
  if (occurrences.length === 0)
    return zh ? "本窗口内已没有它的时间，之后各周照常" : "no time left in this window; it is kept for the weeks after";
  const shown = occurrences.slice(0, CARD_OCCURRENCES).map((occurrence) => {
    const converted = occurrence.converted
      ? zh
        ? `（${occurrence.converted.zone} ${occurrence.converted.start} 换算为 ${occurrence.converted.windowZone} ${occurrence.start}）`
        : ` (${occurrence.converted.start} ${occurrence.converted.zone} → ${occurrence.start} ${occurrence.converted.windowZone})`
      : "";
    return `${formatDate(occurrence.date, language)} ${occurrence.start}–${occurrence.end}${converted}`;
  });
  const more = occurrences.length - shown.length;
  if (more > 0) shown.push(zh ? `另有 ${more} 次` : `and ${more} more`);
  return shown.join(zh ? "、" : ", ");
}

/** The task writes as a card names them, in the user's language; undefined for another tool. */
export function describeTaskWrite(
  state: ScheduleState,
  tool: string,
  args: Record<string, unknown>,
  language: Language,
): string | undefined {
  const zh = language === "zh";
  const task = state.tasks.find((entry) => entry.id === args.task_id);
  const named = (fallback: unknown) => JSON.stringify(task?.name ?? String(fallback));
  const className = (id: unknown) =>
    JSON.stringify(state.categories.find((entry) => entry.id === id)?.name ?? String(id));
  switch (tool) {
    case "upsert_task_class": {
      const parts: string[] = [];
      if (Array.isArray(args.excluded_days_of_week))
        parts.push(
          zh
            ? `不用${(args.excluded_days_of_week as number[]).map((day) => weekdayName(day, "zh")).join("、")}`
            : `never on ${(args.excluded_days_of_week as number[]).map((day) => weekdayName(day, "en")).join(", ")}`,
        );
      if (Array.isArray(args.preferred_parts))
        parts.push(
          zh
            ? `偏好${(args.preferred_parts as string[]).map((part) => ({ morning: "上午", afternoon: "下午", evening: "晚上" })[part] ?? part).join("、")}`
            : `prefers the ${(args.preferred_parts as string[]).join(" or ")}`,
        );
      if (typeof args.buffer_slots === "number")
        parts.push(zh ? `前后留 ${args.buffer_slots} 节空` : `${args.buffer_slots} free slot(s) around each session`);
      const what =
        args.class_id !== undefined && state.categories.some((entry) => entry.id === args.class_id)
          ? zh
            ? "修改课程"
            : "Change the class"
          : zh
            ? "新建课程"
            : "Create the class";
      return `${what} ${JSON.stringify(String(args.name))}${parts.length > 0 ? (zh ? `：${parts.join("，")}` : `: ${parts.join("; ")}`) : ""}`;
    }
    case "add_task": {
      const split = args.sessions === true ? addTaskTool.run(state, args as never) : undefined;
      const sessions = split?.ok ? ((split.data as AddTaskData).sessions?.map((task) => task.duration) ?? []) : [];
      if (sessions.length > 1)
        return zh
          ? `新增任务 ${JSON.stringify(String(args.name))}（共 ${String(args.duration)} 节，分 ${sessions.length} 次：${sessions.join("+")} 节，不在同一天，${className(args.class_id)}），待安排`
          : `Add the task ${JSON.stringify(String(args.name))} (${String(args.duration)} slot(s) in ${sessions.length} sessions of ${sessions.join("+")}, no two on one day, ${className(args.class_id)}), pending`;
      return zh
        ? `新增任务 ${JSON.stringify(String(args.name))}（${String(args.duration)} 节，${className(args.class_id)}），待安排`
        : `Add the task ${JSON.stringify(String(args.name))} (${String(args.duration)} slot(s), ${className(args.class_id)}), pending`;
    }
    case "add_habit": {
      const part = typeof args.part === "string" ? args.part : undefined;
      const partZh = part ? ({ morning: "上午", afternoon: "下午", evening: "晚上" }[part] ?? part) : undefined;
      return zh
        ? `新增习惯 ${JSON.stringify(String(args.name))}：每周 ${String(args.times_per_week)} 次，每次 ${String(args.duration)} 节${partZh ? `，偏好${partZh}` : ""}，不在同一天；每到新的一周自动添加`
        : `Add the habit ${JSON.stringify(String(args.name))}: ${String(args.times_per_week)} time(s) a week, ${String(args.duration)} slot(s) each${part ? `, in the ${part}` : ""}, no two on one day; each new week gets its own`;
    }
    case "update_task":
      return zh ? `修改任务 ${named(args.task_id)}` : `Change the task ${named(args.task_id)}`;
    case "remove_task":
      return zh ? `删除任务 ${named(args.task_id)}` : `Remove the task ${named(args.task_id)}`;
    case "remove_task_class":
      return zh ? `删除课程 ${className(args.class_id)}` : `Remove the class ${className(args.class_id)}`;
    case "roll_window": {
      const days = typeof args.days === "number" ? args.days : 7;
      return zh
        ? `把日程窗口向后移动 ${days} 天（之前的日子和其上的日程移出；已完成的复习留作记录，未完成的记为错过）`
        : `Move the window on by ${days} day(s) (the past days go with their events; done reviews stay on record, placed ones not done become missed)`;
    }
    case "import_calendar": {
      const outcome = importCalendarTool.run(state, { ics: String(args.ics ?? "") });
      // A file nothing of which can be added: the attempt is named, its refusal told where it is refused.
      if (!outcome.ok) return zh ? "从日历文件导入日程" : "Import events from the calendar file";
      const found = outcome.data as ImportCalendarData;
      // Each event with its day and clock times, and the file's own times when it wrote them in another zone: nobody approves blind.
      // Then what the clock leaves out: the times that have passed, and the events with none left; then what is there
      // already, and the placed reviews.
      const reviews = found.reviews ?? [];
      const present = found.present ?? [];
      const told = [
        ...found.events.map((event) => `${event.name} — ${occurrencesText(found.times[event.id] ?? [], language)}`),
        ...found.passed.map((passed) => passedEventText(passed, language)),
        ...(present.length > 0 ? [alreadyThereText(present, language)] : []),
        ...(reviews.length > 0 ? [reviewsLeftOutText(reviews, language)] : []),
      ];
      return zh
        ? `从日历文件导入 ${found.events.length} 个日程：${told.join("；")}`
        : `Import ${found.events.length} event(s) from the calendar file: ${told.join("; ")}`;
    }
    default:
      return undefined;
  }
}

const importCalendarArgumentsSchema = z.object({
  ics: z.string().min(1).max(1_000_000).describe("The timetable as iCalendar (.ics) text."),
});

/** Adds a timetable's events from an iCalendar file, recurring ones expanded into the window; a card before anything is stored. */
export const importCalendarTool: DomainTool<ScheduleState, z.infer<typeof importCalendarArgumentsSchema>> = {
  name: "import_calendar",
  description:
    "Imports a timetable from iCalendar (.ics) text: each event's occurrences in the window become an event on the slots they cover (recurring lectures expanded). What does not fit is told.",
  schema: importCalendarArgumentsSchema,
  kind: "write",
  run(state, args) {
    let found: ReturnType<typeof importTimetable>;
    try {
      found = importTimetable(state, args.ics);
    } catch (error) {
      if (error instanceof CalendarFileError) return failure(error.message);
      throw error;
    }
    const index = buildOccupancyIndex(state);
    const skipped = [...found.skipped];
    // An event that overlaps what is there, or an event of the file taken before it, is left out and told.
    const taken = new Map<number, string>();
    const free = found.events.filter((event) => {
      const cells = event.slots.flatMap((range) =>
        Array.from({ length: range.end - range.start + 1 }, (_, offset) =>
          cellOf(index, range.day, range.start + offset),
        ),
      );
      const there = cells.map((cell) => index.primary[cell] ?? FREE).find((position) => position !== FREE);
      const clash =
        there !== undefined
          ? (index.tasks[there]?.name ?? "another task")
          : cells.map((cell) => taken.get(cell)).find((name) => name !== undefined);
      if (clash !== undefined) {
        skipped.push(`${event.name}: it overlaps ${clash}`);
        return false;
      }
      for (const cell of cells) taken.set(cell, event.name);
      return true;
    });
    // The hard rules of any write: an event inside the free slots a placed session's class keeps is left out, told.
    let next: ScheduleState = state;
    const events: EventTask[] = [];
    for (const event of free) {
      const crowded = importedEventBufferProblem(next, event);
      if (crowded) {
        skipped.push(`${event.name}: ${crowded}`);
        continue;
      }
      events.push(event);
      next = { ...next, tasks: [...next.tasks, event] };
    }
    if (events.length === 0) {
      // Each event of the file already there (its own export imported again), or a placed review: nothing is new.
      const known = (found.present.length > 0 ? 1 : 0) + (found.reviews.length > 0 ? 1 : 0);
      if (found.present.length > 0 && skipped.length === known)
        return failure(saySummary("en", "importNothingNew", { skipped: skipped.join("; ") }));
      return failure(
        skipped.length > 0
          ? saySummary("en", "importNone", { skipped: skipped.join("; ") })
          : saySummary("en", "importNoneInWindow"),
      );
    }
    const problems = checkScheduleInvariants(next);
    if (problems.length > 0) return failure(problems.join("; "));
    const data: ImportCalendarData = {
      events,
      times: Object.fromEntries(events.map((event) => [event.id, found.times[event.id] ?? []])),
      skipped,
      passed: found.passed,
      ...(found.reviews.length > 0 ? { reviews: found.reviews } : {}),
      ...(found.present.length > 0 ? { present: found.present } : {}),
    };
    return { ok: true, content: importedText(data), state: next, data };
  },
};

/** The arranged week as iCalendar text. */
export const exportCalendarTool: DomainTool<ScheduleState, Record<string, never>> = {
  name: "export_calendar",
  description:
    "Exports the week as iCalendar (.ics) text: every timetable event and every placed review, with its date and clock times.",
  schema: z.object({}),
  kind: "read",
  run(state) {
    try {
      const ics = exportCalendar(state);
      return { ok: true, content: ics, data: { ics } };
    } catch (error) {
      if (error instanceof CalendarFileError) return failure(error.message);
      throw error;
    }
  },
};

const rollWindowArgumentsSchema = z.object({
  days: z.number().int().min(1).max(366).default(7).describe("Days to move on by (default 7: the next week)."),
  from_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe("Optional: the window's first date now, YYYY-MM-DD; the roll is refused if the window has moved."),
});

/** What a roll did, as data: the days, the events gone with the old days, the task items moved to history or missed. */
export interface RollWindowData {
  days: number;
  /** Ids of the events that left with the old days. */
  removed: string[];
  /** Their names, each once: what the answer tells the user is no longer on the schedule. */
  left: string[];
  /** Ids of the done task items whose place is now history. */
  history: string[];
  /** Ids of the placed task items whose time passed without being marked done: now missed. */
  missed: string[];
  /** Ids of the habits' occurrences made for the weeks the roll brought in. */
  added: string[];
}

/** roll_window's text: the new span, and every item the old days took, by what became of it. */
export function rolledText(data: RollWindowData, span: string): string {
  const list = (ids: readonly string[]) => (ids.length > 0 ? `: ${ids.join(", ")}` : "");
  return (
    `moved the window on by ${data.days} day(s): it now runs ${span}; ` +
    `${data.history.length} done task(s) moved to history${list(data.history)}; ` +
    `${data.missed.length} placed task(s) passed without being marked done and are now missed${list(data.missed)}; ` +
    `${data.removed.length} past event(s) left with the old days${list(data.removed)}` +
    (data.added.length > 0 ? `; ${data.added.length} habit session(s) added for the new days${list(data.added)}` : "")
  );
}

/** The days from the window's first that are over by the run's clock (past its end too), or undefined without one. */
function daysOver(state: ScheduleState): number | undefined {
  const clock = clockOfState(state);
  const first = state.window.days[0]?.date;
  if (clock === undefined || first === undefined) return undefined;
  if (clock.dayIndex <= state.window.totalDays) return Math.max(0, clock.dayIndex - 1);
  return daysBetween(first, localClock(new Date(state.now!), state.window.timeZone!).date);
}

/**
 * Why a roll by `days` would take a day that is not over by the run's clock, or undefined when every day it takes is
 * over (or the run has no clock). A roll settles the days it takes as the past — a placed review on them becomes
 * missed, "passed without being marked done" — so a day still to come, today included, is not the roll's to take: the
 * window moves on by itself once its last day has passed (`clock-roll.ts`), and only by days that are over.
 */
function dayNotOver(state: ScheduleState, days: number): string | undefined {
  const over = daysOver(state);
  if (over === undefined || days <= over) return undefined;
  const firstNotOver = state.window.days[over]?.date;
  const today = localClock(new Date(state.now!), state.window.timeZone!);
  return (
    `${firstNotOver === undefined ? `day ${over + 1}` : formatDate(firstNotOver)} has not passed yet ` +
    `(it is ${formatDate(today.date)}, ${today.time} now): the window moves on only by days that are over, ` +
    `${over} day(s) at most now; it moves on by itself once its last day has passed`
  );
}

/**
 * Moves the window on: the past days go, the events on them with them; the task items on them stay on record (done
 * ones as history, placed ones as missed), the rest shifts, new days come after. The answer names each.
 */
export const rollWindowTool: DomainTool<ScheduleState, z.infer<typeof rollWindowArgumentsSchema>> = {
  name: "roll_window",
  description:
    "Moves the window on by some days (default a week), only by days that are over by the clock (it moves on by itself once its last day has passed): the first days go with the events on them, everything else keeps its date, new empty days come at the end. Pending tasks stay pending; a done task on the old days stays on record as history, a placed one that was not marked done becomes missed.",
  schema: rollWindowArgumentsSchema,
  kind: "write",
  run(state, args) {
    // A roll made for a window that has moved meanwhile (another request rolled it first) is not made twice.
    const firstDate = state.window.days[0]?.date;
    if (args.from_date !== undefined && args.from_date !== firstDate)
      return failure(`the window starts on ${firstDate ?? "no date"}, not ${args.from_date}: it has moved already`);
    // Past the window's length only by days the clock has passed (a clock weeks past the window: one roll to it).
    if (args.days > state.window.totalDays && (daysOver(state) ?? 0) < args.days)
      return failure(
        `a window of ${state.window.totalDays} days moves on by 1 to ${state.window.totalDays} days, not ${args.days}`,
      );
    const notOver = dayNotOver(state, args.days);
    if (notOver !== undefined) return failure(notOver);
    const next = rollWindowBy(state, args.days);
    const settled = settleTasksOnRoll(state, args.days);
    const idsWith = (status: string) =>
      [...settled.values()].filter((task) => task.status === status).map((task) => task.id);
    const gone = state.tasks.filter((task) => !next.tasks.some((kept) => kept.id === task.id));
    const data: RollWindowData = {
      days: args.days,
      removed: gone.map((task) => task.id),
      left: [...new Set(gone.map((task) => task.name))],
      history: idsWith("done"),
      missed: idsWith("missed"),
      added: next.tasks.filter((task) => !state.tasks.some((old) => old.id === task.id)).map((task) => task.id),
    };
    const first = next.window.days[0];
    const last = next.window.days.at(-1);
    const span =
      first?.date && last?.date
        ? `${first.date} – ${last.date}`
        : `week ${first?.week ?? "?"} to week ${last?.week ?? "?"}`;
    return { ok: true, content: rolledText(data, span), state: next, data };
  },
};
