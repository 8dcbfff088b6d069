/**
 * Persistence by difference (docs/design.md#diff-persistence): `diffScheduleState` turns a
 * tool's before/after states into place / move / unplace changes — for both
 * task sources, events and task items (the original design lost task-item
 * placements) — and `applyScheduleChanges` replays them on a
 * stored schedule, checking that each change still fits what is stored.
 *
 * Hosts' `embeds` lists are not part of a change: they follow from the task
 * items' `embeddedIn`, and are rebuilt for every host a change touches.
 */
import { daysBetween } from "../../contracts/clock.js";
import { rollWindow, rollWindowBy } from "./calendar.js";
import {
  buildEventTask,
  buildTaskItem,
  canonicalCategory,
  canonicalRange,
  canonicalScheduleState,
  sortIds,
} from "./canonical-form.js";
import { InvalidScheduleError, ScheduleConflictError } from "./errors.js";
import { rangeListsEqual } from "./slot-range.js";
import {
  isSettled,
  type DayMapping,
  type EventTask,
  type ScheduleState,
  type ScheduleTask,
  type SlotRange,
  type TaskCategory,
  type TaskItem,
} from "./state.js";
import { checkScheduleInvariants } from "./validation.js";

/** The two task sources. */
export type TaskSource = ScheduleTask["source"];

/** A task that had no slots gets slots (a pending task item is placed). */
export interface PlaceChange {
  kind: "place";
  /** Id of the task. */
  taskId: string;
  /** Its source; a change never converts one into the other. */
  source: TaskSource;
  /** Where it now is. */
  slots: SlotRange[];
  /** The host it is embedded in, or null. Always null for events. */
  embeddedIn: string | null;
}

/** A task on the schedule changes slots or host. */
export interface MoveChange {
  kind: "move";
  /** Id of the task. */
  taskId: string;
  /** Its source. */
  source: TaskSource;
  /** Where it was (checked against the store before applying). */
  from: SlotRange[];
  /** The host it was embedded in, or null (checked against the store). */
  fromEmbeddedIn: string | null;
  /** Where it now is. */
  slots: SlotRange[];
  /** The host it is now embedded in, or null. */
  embeddedIn: string | null;
}

/** A task leaves the schedule (a task item goes back to pending). */
export interface UnplaceChange {
  kind: "unplace";
  /** Id of the task. */
  taskId: string;
  /** Its source. */
  source: TaskSource;
  /** Where it was (checked against the store before applying). */
  from: SlotRange[];
  /** The host it was embedded in, or null. */
  fromEmbeddedIn: string | null;
}

/** A task class is added (`from` null), its name or profile changes, or it is removed (`to` null). */
export interface ClassChange {
  kind: "class";
  /** Id of the class. */
  classId: string;
  /** The class as stored before (checked), or null for a new one. */
  from: TaskCategory | null;
  /** The class after, or null when it is removed (no task item may use it then: checked on the result). */
  to: TaskCategory | null;
}

/**
 * A task item, pending or settled (history put back by restore_task), or an imported event, is added at the end of
 * the task list; a task item is never added placed (placing is `place`'s, with the clock and the rules).
 */
export interface AddChange {
  kind: "add";
  taskId: string;
  source: ScheduleTask["source"];
  task: ScheduleTask;
}

/** What a task item is, apart from where it is. */
export type TaskFields = Pick<TaskItem, "name" | "duration" | "categoryId" | "dueBefore" | "priority" | "earliestDay">;

/**
 * A task item's name, length, class or rules change; or a timetable event's times do (`remove_event` with the clock
 * inside the window ends a series where time has not passed and keeps what has: its slots and series change together).
 */
export type UpdateChange =
  | {
      kind: "update";
      taskId: string;
      source: "task_item";
      /** Its fields as stored before (checked). */
      from: TaskFields;
      to: TaskFields;
    }
  | {
      kind: "update";
      taskId: string;
      source: "event";
      /** The event as stored before, series, slots and guests (checked whole). */
      from: EventTask;
      /** The event after (same name; its guests follow from the task items). */
      to: EventTask;
    };

/** A task item, or a timetable event (remove_event), leaves the task list. */
export type RemoveChange =
  | {
      kind: "remove";
      taskId: string;
      source: "task_item";
      /** The task as stored before (checked). */
      task: TaskItem;
    }
  | {
      kind: "remove";
      taskId: string;
      source: "event";
      /** The event as stored before, series and all (checked). */
      task: EventTask;
    };

/**
 * A task item's life changes (`TaskStatus`): it is marked done, missed or skipped, or a settled one goes back to
 * pending or placed. It carries the whole task before (checked) and after, place and all.
 */
export interface StatusChange {
  kind: "status";
  taskId: string;
  source: "task_item";
  /** The task as stored before (checked). */
  from: TaskItem;
  /** The task after. */
  to: TaskItem;
}

/** The window moves on by `days` days (`rollWindow`): past days go with what was on them, the rest shifts. */
export interface RollChange {
  kind: "roll";
  days: number;
  /** The window's first day before (checked: a roll applies to the window it was made on, once). */
  from: DayMapping;
  /**
   * The run's clock the roll was made at (`ScheduleState.now`), when it had one: a habit's sessions for a week the
   * clock is already in are only those that still fit (`habits.ts`), so the roll is replayed at the same moment.
   */
  now?: string;
}

/** One persisted change of a schedule. */
export type ScheduleChange =
  | PlaceChange
  | MoveChange
  | UnplaceChange
  | ClassChange
  | AddChange
  | UpdateChange
  | RemoveChange
  | StatusChange
  | RollChange;

/** A change of a task (every kind but a class's and the window's). */
export type TaskChange = Exclude<ScheduleChange, ClassChange | RollChange>;

/**
 * The changes that turn `before` into `after`: task classes added or changed, task items added (pending or settled, at the end),
 * changed or removed, and placements; throws when the two differ in anything else (the window, an event's fields, a
 * class removed, the order of the tasks).
 */
export function diffScheduleState(before: ScheduleState, after: ScheduleState): ScheduleChange[] {
  const problems: string[] = [];
  if (JSON.stringify(before.window) !== JSON.stringify(after.window)) {
    // The one window change there is: a roll forward, whole (anything else with it is a separate write).
    const days = rolledBy(before, after);
    if (days !== undefined)
      return [{ kind: "roll", days, from: { ...before.window.days[0]! }, ...(before.now ? { now: before.now } : {}) }];
    problems.push(
      "the window changed other than by rolling forward; only placements, tasks and rolls can be persisted",
    );
  }
  const changes: ScheduleChange[] = [];
  const classesBefore = new Map(before.categories.map((category) => [category.id, category]));
  for (const category of after.categories) {
    const previous = classesBefore.get(category.id);
    if (
      previous === undefined ||
      JSON.stringify(canonicalCategory(previous)) !== JSON.stringify(canonicalCategory(category))
    ) {
      changes.push({
        kind: "class",
        classId: category.id,
        from: previous === undefined ? null : canonicalCategory(previous),
        to: canonicalCategory(category),
      });
    }
  }
  const classesAfter = new Set(after.categories.map((category) => category.id));
  for (const category of before.categories)
    if (!classesAfter.has(category.id))
      changes.push({ kind: "class", classId: category.id, from: canonicalCategory(category), to: null });

  const beforeById = new Map<string, ScheduleTask>();
  for (const task of before.tasks) beforeById.set(task.id, task);
  const afterIds = new Set(after.tasks.map((task) => task.id));
  // The tasks kept stay in their order; new ones come after them.
  const kept = before.tasks.filter((task) => afterIds.has(task.id)).map((task) => task.id);
  if (JSON.stringify(after.tasks.slice(0, kept.length).map((task) => task.id)) !== JSON.stringify(kept))
    problems.push("the tasks changed order");
  const removals: ScheduleChange[] = [];
  for (const task of before.tasks) {
    if (afterIds.has(task.id)) continue;
    if (task.source === "event")
      removals.push({ kind: "remove", taskId: task.id, source: "event", task: buildEventTask(task) });
    else removals.push({ kind: "remove", taskId: task.id, source: "task_item", task: buildTaskItem(task) });
  }
  for (const task of after.tasks) {
    const previous = beforeById.get(task.id);
    if (previous === undefined) {
      if (task.source === "event")
        changes.push({ kind: "add", taskId: task.id, source: "event", task: buildEventTask(task) });
      else if (task.status !== "placed")
        changes.push({ kind: "add", taskId: task.id, source: "task_item", task: buildTaskItem(task) });
      else problems.push(`task ${task.id} was added placed; task items are added pending (or settled, as history)`);
      continue;
    }
    const fixedProblem = fixedFieldProblem(previous, task);
    if (fixedProblem !== undefined) {
      problems.push(fixedProblem);
      continue;
    }
    if (previous.source === "task_item" && task.source === "task_item" && lifeChanged(previous, task)) {
      changes.push({
        kind: "status",
        taskId: task.id,
        source: "task_item",
        from: buildTaskItem(previous),
        to: buildTaskItem(task),
      });
      continue;
    }
    if (
      previous.source === "task_item" &&
      task.source === "task_item" &&
      JSON.stringify(fieldsOf(previous)) !== JSON.stringify(fieldsOf(task))
    ) {
      changes.push({
        kind: "update",
        taskId: task.id,
        source: "task_item",
        from: fieldsOf(previous),
        to: fieldsOf(task),
      });
    }
    // An event whose series changes (ended where time has not passed) carries its times whole, slots and all. Most
    // writes keep every event as it was, series object and all: those are not put in canonical form (every write's diff).
    if (previous.source === "event" && task.source === "event" && previous.series !== task.series) {
      const from = buildEventTask(previous);
      const to = buildEventTask(task);
      if (JSON.stringify(from.series) !== JSON.stringify(to.series)) {
        changes.push({ kind: "update", taskId: task.id, source: "event", from, to });
        continue;
      }
    }
    const change = placementChange(previous, task);
    if (change !== undefined) changes.push(change);
  }
  if (problems.length > 0) throw new InvalidScheduleError(problems);
  return [...changes, ...removals];
}

/** How many days `after` is `before` rolled forward by, or undefined when it is not a roll of it. */
function rolledBy(before: ScheduleState, after: ScheduleState): number | undefined {
  const wanted = JSON.stringify(canonicalScheduleState(after));
  for (let days = 1; days <= before.window.totalDays; days += 1) {
    if (JSON.stringify(canonicalScheduleState(rollWindow(before, days))) === wanted) return days;
  }
  // Past the window's length (a clock weeks past it, `rollWindowBy`): the days its first date moved.
  const [from, to] = [before.window.days[0]?.date, after.window.days[0]?.date];
  const days = from === undefined || to === undefined ? 0 : daysBetween(from, to);
  if (days > before.window.totalDays && JSON.stringify(canonicalScheduleState(rollWindowBy(before, days))) === wanted)
    return days;
  return undefined;
}

/** True when a task item's life changed beyond pending ↔ placed (a settled status, or when or where it was settled). */
function lifeChanged(before: TaskItem, after: TaskItem): boolean {
  const life = (task: TaskItem) => {
    const { status, markedAt, was } = buildTaskItem(task);
    return JSON.stringify({ status: isSettled(status) ? status : "open", markedAt, was });
  };
  return life(before) !== life(after);
}

/** A task item's fields apart from its place, in canonical form (unset ones absent). */
function fieldsOf(task: TaskItem): TaskFields {
  const { name, duration, categoryId, dueBefore, priority, earliestDay } = buildTaskItem(task);
  return {
    name,
    duration,
    categoryId,
    ...(dueBefore ? { dueBefore } : {}),
    ...(priority ? { priority } : {}),
    ...(earliestDay ? { earliestDay } : {}),
  };
}

/** Why a task changed in a field a change cannot carry, or undefined. */
function fixedFieldProblem(before: ScheduleTask, after: ScheduleTask): string | undefined {
  if (before.source !== after.source) return `task ${after.id} changed source`;
  if (
    before.source === "event" &&
    after.source === "event" &&
    (before.name !== after.name || before.canEmbed !== after.canEmbed || before.locked !== after.locked)
  ) {
    return `event ${after.id} changed name, canEmbed or locked`;
  }
  return undefined;
}

/** The place / move / unplace change of one task, or undefined when its placement did not change. */
function placementChange(before: ScheduleTask, after: ScheduleTask): ScheduleChange | undefined {
  const from = (before.slots ?? []).map(canonicalRange);
  const to = (after.slots ?? []).map(canonicalRange);
  const fromEmbeddedIn = hostOf(before);
  const embeddedIn = hostOf(after);
  const source = after.source;
  if (rangeListsEqual(from, to) && fromEmbeddedIn === embeddedIn) return undefined;
  if (from.length === 0) return { kind: "place", taskId: after.id, source, slots: to, embeddedIn };
  if (to.length === 0) return { kind: "unplace", taskId: after.id, source, from, fromEmbeddedIn };
  return { kind: "move", taskId: after.id, source, from, fromEmbeddedIn, slots: to, embeddedIn };
}

/** The host of a task item, or null. */
function hostOf(task: ScheduleTask): string | null {
  return task.source === "task_item" ? (task.embeddedIn ?? null) : null;
}

/**
 * Applies changes to a schedule and returns the next one (the input is not
 * changed). Each change must match what is stored (a place needs a task with
 * no slots, a move or unplace needs the task where `from` says), and the
 * result must keep every invariant; otherwise it throws `ScheduleConflictError`
 * and nothing is applied.
 */
export function applyScheduleChanges(state: ScheduleState, changes: readonly ScheduleChange[]): ScheduleState {
  if (changes.length === 0) return state;
  const positions = new Map<string, number>();
  state.tasks.forEach((task, position) => positions.set(task.id, position));
  let tasks = state.tasks.slice();
  const categories = state.categories.slice();
  const touchedHosts = new Set<string>();
  const removed = new Set<string>();

  for (const change of changes) {
    if (change.kind === "roll") {
      if (JSON.stringify(state.window.days[0]) !== JSON.stringify(change.from) || changes.length > 1)
        throw new ScheduleConflictError("The window is no longer where the roll expects it.", { change });
      return rollWindowBy(change.now ? { ...state, now: change.now } : state, change.days);
    }
    if (change.kind === "class") {
      const index = categories.findIndex((category) => category.id === change.classId);
      const stored = index === -1 ? null : canonicalCategory(categories[index]!);
      if (JSON.stringify(stored) !== JSON.stringify(change.from))
        throw new ScheduleConflictError(`Task class ${change.classId} is no longer as the change expects it.`, {
          change,
        });
      if (change.to === null) categories.splice(index, 1);
      else if (index === -1) categories.push(canonicalCategory(change.to));
      else categories[index] = canonicalCategory(change.to);
      continue;
    }
    if (change.kind === "add") {
      if (positions.has(change.taskId))
        throw new ScheduleConflictError(
          `Task ${change.taskId} is already in the stored schedule, so it cannot be added.`,
          { change },
        );
      positions.set(change.taskId, tasks.length);
      tasks.push(change.task.source === "event" ? buildEventTask(change.task) : buildTaskItem(change.task));
      // History put back inside an event (done in a study hall) is that event's guest again.
      if (change.task.source === "task_item" && change.task.embeddedIn !== undefined)
        touchedHosts.add(change.task.embeddedIn);
      continue;
    }
    const position = positions.get(change.taskId);
    const current = position === undefined ? undefined : tasks[position];
    if (position === undefined || current === undefined)
      throw new ScheduleConflictError(`Task ${change.taskId} is not in the stored schedule.`, { change });
    if (current.source !== change.source || removed.has(change.taskId)) {
      throw new ScheduleConflictError(
        `Task ${change.taskId} is stored as ${removed.has(change.taskId) ? "removed" : current.source}, but the change is for ${change.source}.`,
        { change },
      );
    }
    if (change.kind === "status") {
      const stored = current as TaskItem;
      if (JSON.stringify(buildTaskItem(stored)) !== JSON.stringify(buildTaskItem(change.from)))
        throw new ScheduleConflictError(`Task ${change.taskId} is no longer as the change expects it.`, { change });
      if (stored.embeddedIn !== undefined) touchedHosts.add(stored.embeddedIn);
      const next = buildTaskItem(change.to);
      if (next.embeddedIn !== undefined) touchedHosts.add(next.embeddedIn);
      tasks[position] = next;
      continue;
    }
    if (change.kind === "remove" && change.source === "event") {
      // Checked whole, guests included: one placed inside it since makes the removal a conflict.
      if (JSON.stringify(buildEventTask(change.task)) !== JSON.stringify(buildEventTask(current as EventTask)))
        throw new ScheduleConflictError(`Event ${change.taskId} is no longer as the change expects it.`, { change });
      removed.add(change.taskId);
      continue;
    }
    if (change.kind === "update" && change.source === "event") {
      // Checked whole, guests included, as a removal is; the guests stay (the result's invariants check they fit).
      if (JSON.stringify(buildEventTask(change.from)) !== JSON.stringify(buildEventTask(current as EventTask)))
        throw new ScheduleConflictError(`Event ${change.taskId} is no longer as the change expects it.`, { change });
      tasks[position] = buildEventTask({ ...change.to, embeds: (current as EventTask).embeds });
      continue;
    }
    if (change.kind === "remove" || change.kind === "update") {
      const stored = current as TaskItem;
      const expected =
        change.kind === "remove"
          ? JSON.stringify(buildTaskItem(change.task)) === JSON.stringify(buildTaskItem(stored))
          : JSON.stringify(fieldsOf(stored)) === JSON.stringify(change.from);
      if (!expected)
        throw new ScheduleConflictError(`Task ${change.taskId} is no longer as the change expects it.`, { change });
      if (change.kind === "remove") {
        removed.add(change.taskId);
        if (stored.embeddedIn !== undefined) touchedHosts.add(stored.embeddedIn);
      } else {
        const next: TaskItem = {
          ...stored,
          name: change.to.name,
          duration: change.to.duration,
          categoryId: change.to.categoryId,
        };
        delete next.dueBefore;
        delete next.priority;
        delete next.earliestDay;
        tasks[position] = buildTaskItem({ ...next, ...change.to });
      }
      continue;
    }
    const currentSlots = current.slots ?? [];
    const currentHost = hostOf(current);
    if (change.kind === "place" && currentSlots.length > 0) {
      throw new ScheduleConflictError(`Task ${change.taskId} is already on the schedule, so it cannot be placed.`, {
        change,
      });
    }
    if (
      change.kind !== "place" &&
      (!rangeListsEqual(currentSlots, change.from) || currentHost !== change.fromEmbeddedIn)
    ) {
      throw new ScheduleConflictError(`Task ${change.taskId} is no longer where the change expects it.`, { change });
    }
    if (currentHost !== null) touchedHosts.add(currentHost);
    const slots = change.kind === "unplace" ? [] : change.slots.map(canonicalRange);
    const host = change.kind === "unplace" ? null : change.embeddedIn;
    if (host !== null) touchedHosts.add(host);
    tasks[position] =
      current.source === "event" ? buildEventTask({ ...current, slots }) : placedOrPending(current, slots, host);
  }

  if (removed.size > 0) {
    tasks = tasks.filter((task) => !removed.has(task.id));
    positions.clear();
    tasks.forEach((task, position) => positions.set(task.id, position));
  }
  rebuildEmbeds(tasks, positions, touchedHosts);
  const next: ScheduleState = { ...state, categories, tasks };
  const problems = checkScheduleInvariants(next);
  if (problems.length > 0) {
    throw new ScheduleConflictError(`The changes do not fit the stored schedule: ${problems.slice(0, 3).join("; ")}.`, {
      problems,
    });
  }
  return next;
}

/** A task item with new slots (placed) or none (pending), in canonical form. */
function placedOrPending(task: TaskItem, slots: SlotRange[], host: string | null): TaskItem {
  if (slots.length === 0) return buildTaskItem({ ...task, status: "pending" });
  const next: TaskItem = { ...task, status: "placed", slots };
  delete next.embeddedIn;
  if (host !== null) next.embeddedIn = host;
  return buildTaskItem(next);
}

/** Rewrites the `embeds` of the given hosts from the task items' `embeddedIn`, in O(tasks). */
function rebuildEmbeds(
  tasks: ScheduleTask[],
  positions: ReadonlyMap<string, number>,
  hostIds: ReadonlySet<string>,
): void {
  if (hostIds.size === 0) return;
  const guests = new Map<string, string[]>();
  for (const hostId of hostIds) guests.set(hostId, []);
  for (const task of tasks) {
    if (task.source === "task_item" && task.embeddedIn !== undefined) guests.get(task.embeddedIn)?.push(task.id);
  }
  for (const [hostId, ids] of guests) {
    const position = positions.get(hostId);
    const host = position === undefined ? undefined : tasks[position];
    if (position === undefined || host === undefined || host.source !== "event") continue;
    tasks[position] = buildEventTask({ ...host, embeds: sortIds(ids) });
  }
}
