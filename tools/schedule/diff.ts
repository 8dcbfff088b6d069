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
import { buildEventTask, buildTaskItem, canonicalRange, sortIds } from "./canonical-form.js";
import { InvalidScheduleError, ScheduleConflictError } from "./errors.js";
import { rangeListsEqual } from "./slot-range.js";
import type { ScheduleState, ScheduleTask, SlotRange, TaskItem } from "./state.js";
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

/** One persisted change of a schedule. */
export type ScheduleChange = PlaceChange | MoveChange | UnplaceChange;

/** The changes that turn `before` into `after`, in the order of `after.tasks`; throws when the two differ in anything but placements. */
export function diffScheduleState(before: ScheduleState, after: ScheduleState): ScheduleChange[] {
  const problems: string[] = [];
  if (JSON.stringify(before.window) !== JSON.stringify(after.window)) problems.push("the window changed; only placements can be persisted");
  if (JSON.stringify(before.categories) !== JSON.stringify(after.categories)) problems.push("the task classes changed; only placements can be persisted");
  const beforeById = new Map<string, ScheduleTask>();
  for (const task of before.tasks) beforeById.set(task.id, task);
  if (before.tasks.length !== after.tasks.length) problems.push(`the task count changed from ${before.tasks.length} to ${after.tasks.length}`);

  const changes: ScheduleChange[] = [];
  for (const task of after.tasks) {
    const previous = beforeById.get(task.id);
    if (previous === undefined) {
      problems.push(`task ${task.id} was added; tools never add tasks`);
      continue;
    }
    const fixedProblem = fixedFieldProblem(previous, task);
    if (fixedProblem !== undefined) {
      problems.push(fixedProblem);
      continue;
    }
    const change = placementChange(previous, task);
    if (change !== undefined) changes.push(change);
  }
  if (problems.length > 0) throw new InvalidScheduleError(problems);
  return changes;
}

/** Why a task changed in a field a change cannot carry, or undefined. */
function fixedFieldProblem(before: ScheduleTask, after: ScheduleTask): string | undefined {
  if (before.source !== after.source) return `task ${after.id} changed source`;
  if (before.name !== after.name) return `task ${after.id} changed name`;
  if (before.source === "event" && after.source === "event" && (before.canEmbed !== after.canEmbed || before.locked !== after.locked)) {
    return `event ${after.id} changed canEmbed or locked`;
  }
  if (before.source === "task_item" && after.source === "task_item" && (before.duration !== after.duration || before.categoryId !== after.categoryId)) {
    return `task ${after.id} changed duration or category`;
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
  const tasks = state.tasks.slice();
  const touchedHosts = new Set<string>();

  for (const change of changes) {
    const position = positions.get(change.taskId);
    const current = position === undefined ? undefined : tasks[position];
    if (position === undefined || current === undefined) throw new ScheduleConflictError(`Task ${change.taskId} is not in the stored schedule.`, { change });
    if (current.source !== change.source) {
      throw new ScheduleConflictError(`Task ${change.taskId} is stored as ${current.source}, but the change is for ${change.source}.`, { change });
    }
    const currentSlots = current.slots ?? [];
    const currentHost = hostOf(current);
    if (change.kind === "place" && currentSlots.length > 0) {
      throw new ScheduleConflictError(`Task ${change.taskId} is already on the schedule, so it cannot be placed.`, { change });
    }
    if (change.kind !== "place" && (!rangeListsEqual(currentSlots, change.from) || currentHost !== change.fromEmbeddedIn)) {
      throw new ScheduleConflictError(`Task ${change.taskId} is no longer where the change expects it.`, { change });
    }
    if (currentHost !== null) touchedHosts.add(currentHost);
    const slots = change.kind === "unplace" ? [] : change.slots.map(canonicalRange);
    const host = change.kind === "unplace" ? null : change.embeddedIn;
    if (host !== null) touchedHosts.add(host);
    tasks[position] = current.source === "event" ? buildEventTask({ ...current, slots }) : placedOrPending(current, slots, host);
  }

  rebuildEmbeds(tasks, positions, touchedHosts);
  const next: ScheduleState = { ...state, tasks };
  const problems = checkScheduleInvariants(next);
  if (problems.length > 0) {
    throw new ScheduleConflictError(`The changes do not fit the stored schedule: ${problems.slice(0, 3).join("; ")}.`, { problems });
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
function rebuildEmbeds(tasks: ScheduleTask[], positions: ReadonlyMap<string, number>, hostIds: ReadonlySet<string>): void {
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
