/**
 * The writes that shape what there is to arrange (issue 30), each through a card like any write and persisted with
 * the rest: `upsert_task_class` / `remove_task_class` (`task-classes.ts`), `add_task`, `update_task` and `remove_task`
 * (`task-items.ts`, task items only: events stay as imported), `import_calendar` / `export_calendar`
 * (`calendar-io.ts`), `roll_window` (`roll-window.ts`); what a card says of each is `task-write-cards.ts`. Each checks
 * the rules it would break — a session length outside its class's bounds, a placed session its new rules would rule
 * out, an unknown class or exam — and refuses, saying which, with the week unchanged. This file holds those checks.
 */
import { z } from "zod";
import { quoteName } from "../format.js";
import { bufferProblem, placementRuleProblem, ruleBookOf } from "../rules.js";
import type { DueBefore, EventTask, ScheduleState, ScheduleTask, TaskCategory, TaskItem } from "../state.js";

export const dayList = (description: string) =>
  z.array(z.number().int().min(1)).max(400).optional().describe(description);

export const dueFields = {
  due_before_day: z.number().int().min(1).optional().describe("It must end on an earlier day than this day index."),
  due_before_event: z.string().min(1).optional().describe("It must end before this event (an exam, say) starts."),
  priority: z.enum(["high", "normal", "low"]).optional().describe("How much it matters."),
  earliest_day: z.number().int().min(1).optional().describe("The first day index it may go on."),
};

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
export function placedRuleProblem(next: ScheduleState, taskIds: ReadonlySet<string>): string | undefined {
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
export function importedEventBufferProblem(state: ScheduleState, event: EventTask): string | undefined {
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
export function taskItemOf(
  state: ScheduleState,
  id: string,
): { ok: true; task: TaskItem } | { ok: false; problem: string } {
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
export function sessionDaysProblem(
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
