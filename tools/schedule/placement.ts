/**
 * The placement engine shared by the write tools. A request puts a task on a
 * range; a batch of requests is resolved atomically: every moving task leaves
 * its cells first, then each lands in request order and is checked against
 * everything else (including the batch's earlier landings). A task item that
 * lands entirely inside one `canEmbed` event embeds in it; anything else that
 * touches an occupied slot is a conflict, and the whole batch fails. Nothing lands in a slot the clock has started,
 * and a review placed in the past does not move (`rules.ts` `startedProblem`, `fixedProblem`).
 */
import { buildEventTask, buildTaskItem, sortIds } from "./canonical-form.js";
import { formatRange, quoteName, type Dating } from "./format.js";
import {
  FREE,
  cellOf,
  clearTask,
  cloneOccupancyIndex,
  fillRange,
  findPositions,
  type OccupancyIndex,
} from "./occupancy-index.js";
import {
  bufferBreach,
  fixedProblem,
  pastRefusal,
  type BufferRefusal,
  type PastRefusal,
  groupDaysOf,
  placementRuleProblem,
  startedProblem,
  type RuleBook,
} from "./rules.js";
import { windowProblem } from "./slot-range.js";
import type { ScheduleState, ScheduleTask, SlotRange, TaskItem } from "./state.js";
import { saySummary } from "./summary-phrases.js";

/** Put the task at `position` (in the task list) on `range`. */
export interface PlacementRequest {
  /** Position of the task in `state.tasks`. */
  position: number;
  /** Where it should go; its length is the task's duration. */
  range: SlotRange;
}

/** A request that passed the conflict check. */
export interface ResolvedPlacement extends PlacementRequest {
  /** Position of the `canEmbed` event it embeds in, when it lands inside one. */
  hostPosition?: number;
}

/** Outcome of resolving a batch: all placements, or the first problem. */
export type PlacementOutcome =
  | { ok: true; placements: ResolvedPlacement[] }
  | {
      ok: false;
      problem: string;
      requestIndex: number;
      /**
       * The problem as data when the clock refused it (a place that has started: the past is fixed), or a class's
       * buffer did.
       */
      refusal?: PastRefusal | BufferRefusal;
    };

/** Resolves a batch of placements atomically against the index; the index itself is not changed. */
export function resolvePlacements(index: OccupancyIndex, requests: readonly PlacementRequest[]): PlacementOutcome {
  // The clock first (issue 47): a review or an event in the past stays there, and none goes into a slot that has
  // started.
  for (const [requestIndex, request] of requests.entries()) {
    const task = index.tasks[request.position];
    if (task === undefined) continue;
    const fixed = fixedProblem(task, index.rules);
    if (fixed !== undefined) {
      const refusal = pastRefusal(task, index.rules, "move");
      return { ok: false, problem: fixed, requestIndex, ...(refusal ? { refusal } : {}) };
    }
    const problem = startedProblem(request.range, index.rules);
    if (problem !== undefined) return { ok: false, problem, requestIndex };
  }
  const work = cloneOccupancyIndex(index);
  for (const request of requests) clearTask(work, request.position);
  const placements: ResolvedPlacement[] = [];
  const landed = new Map<number, SlotRange>();
  for (const [requestIndex, request] of requests.entries()) {
    const outcome = landOne(work, request, landed);
    if (typeof outcome === "string") return { ok: false, problem: outcome, requestIndex };
    placements.push(outcome);
    landed.set(request.position, request.range);
  }
  // The rules, once everything landed: an event moved in the batch is the deadline where it lands, and a session's
  // buffer may be broken by another landing of the batch.
  const rangeOf = (position: number) => landed.get(position) ?? work.tasks[position]?.slots?.[0];
  const movedEvents = new Set(
    [...landed.keys()].flatMap((position) =>
      work.tasks[position]?.source === "event" ? [work.tasks[position]!.id] : [],
    ),
  );
  const moved = movedEvents.size === 0 ? work.rules : withEventsMoved(work.rules, work.tasks, landed);
  // A task group's items are judged where the batch leaves them (one leaving a day makes room for another).
  const grouped = [...landed.keys()].some((position) => {
    const task = work.tasks[position];
    return task?.source === "task_item" && task.group !== undefined;
  });
  const book = grouped ? withGroupsMoved(moved, work.tasks, rangeOf) : moved;
  // The task items that landed, and — only when an event moved — those placed and due before it (a done one is
  // history: it was done, whenever the event is now).
  const checked =
    movedEvents.size === 0
      ? [...landed.keys()]
      : work.tasks.flatMap((task, position) =>
          landed.has(position) ||
          (task.source === "task_item" &&
            task.status === "placed" &&
            task.dueBefore &&
            "eventId" in task.dueBefore &&
            movedEvents.has(task.dueBefore.eventId))
            ? [position]
            : [],
        );
  for (const position of checked) {
    const task = work.tasks[position];
    const range = rangeOf(position);
    if (task?.source !== "task_item" || !range) continue;
    const broken = placementRuleProblem(task, range, book);
    if (broken !== undefined)
      return {
        ok: false,
        problem: broken,
        requestIndex: Math.max(
          0,
          requests.findIndex((request) => request.position === position),
        ),
      };
  }
  const occupants = (day: number, slot: number) =>
    [work.primary[cellOf(work, day, slot)] ?? FREE, work.embedded[cellOf(work, day, slot)] ?? FREE].filter(
      (position) => position !== FREE,
    );
  const crowded = bufferBreach(work.tasks, rangeOf, occupants, work.slotsPerDay, new Set(landed.keys()), work.rules);
  if (crowded !== undefined) return { ok: false, problem: crowded.problem, requestIndex: 0, refusal: crowded.refusal };
  return { ok: true, placements };
}

/** Checks one request against the working index and writes it there; a string is the conflict. `landed` holds the batch's earlier landings. */
function landOne(
  work: OccupancyIndex,
  request: PlacementRequest,
  landed: ReadonlyMap<number, SlotRange>,
): ResolvedPlacement | string {
  const task = work.tasks[request.position] as ScheduleTask;
  const { range } = request;
  const outside = windowProblem(work, range);
  if (outside !== undefined) return outside;

  let firstOccupant = FREE;
  let sameOccupantEverywhere = true;
  let anyFree = false;
  for (let slot = range.start; slot <= range.end; slot += 1) {
    const occupant = work.primary[cellOf(work, range.day, slot)] ?? FREE;
    if (occupant === FREE) anyFree = true;
    else if (firstOccupant === FREE) firstOccupant = occupant;
    else if (occupant !== firstOccupant) sameOccupantEverywhere = false;
  }

  if (firstOccupant === FREE) {
    fillRange(work, work.primary, range, request.position);
    return { ...request };
  }
  const occupant = work.tasks[firstOccupant] as ScheduleTask;
  const span = formatRange(range, work.rules.window);
  const spanOf = (task: ScheduleTask, position: number) =>
    occupantRangeText(task, position, range, landed, work.rules.window);
  if (occupant.source !== "event" || !occupant.canEmbed) {
    return saySummary("en", "overlapsOccupant", {
      span,
      occupant: occupantLabel(occupant),
      occupantSpan: spanOf(occupant, firstOccupant),
    });
  }
  const host = { id: occupant.id, event: quoteName(occupant.name) };
  if (task.source === "event") return saySummary("en", "overlapsEmbeddable", { span, ...host });
  if (anyFree || !sameOccupantEverywhere) {
    return saySummary("en", "partlyInside", { span, ...host, occupantSpan: spanOf(occupant, firstOccupant) });
  }
  for (let slot = range.start; slot <= range.end; slot += 1) {
    const embedded = work.embedded[cellOf(work, range.day, slot)] ?? FREE;
    if (embedded !== FREE) {
      const other = work.tasks[embedded] as ScheduleTask;
      return saySummary("en", "overlapsEmbedded", {
        span,
        occupant: occupantLabel(other),
        ...host,
        occupantSpan: spanOf(other, embedded),
      });
    }
  }
  fillRange(work, work.embedded, range, request.position);
  return { ...request, hostPosition: firstOccupant };
}

/** The rule book with the events a batch moves at the places they land. */
function withEventsMoved(
  book: RuleBook,
  tasks: readonly ScheduleTask[],
  landed: ReadonlyMap<number, SlotRange>,
): RuleBook {
  const eventStarts = new Map(book.eventStarts);
  for (const [position, range] of landed) {
    const task = tasks[position];
    if (task?.source === "event") eventStarts.set(task.id, { range, name: task.name });
  }
  return { ...book, eventStarts };
}

/** The rule book with each task group's items where the batch leaves them. */
function withGroupsMoved(
  book: RuleBook,
  tasks: readonly ScheduleTask[],
  rangeOf: (position: number) => SlotRange | undefined,
): RuleBook {
  const { groupDays: _before, ...rest } = book;
  const groupDays = groupDaysOf(tasks, (_task, position) => rangeOf(position));
  return groupDays ? { ...rest, groupDays } : rest;
}

/** `task <id> "<name>"` or `locked event <id> "<name>"` for conflict messages. */
function occupantLabel(task: ScheduleTask): string {
  if (task.source === "event") return `${task.locked ? "locked " : ""}event ${task.id} ${quoteName(task.name)}`;
  return `task ${task.id} ${quoteName(task.name)}`;
}

/** The occupant's range on the conflicting day (where it landed, if it moved in this batch), as `day <d> slots <a>-<b>`. */
function occupantRangeText(
  task: ScheduleTask,
  position: number,
  near: SlotRange,
  landed: ReadonlyMap<number, SlotRange>,
  window: Dating,
): string {
  const moved = landed.get(position);
  const match = (moved === undefined ? (task.slots ?? []) : [moved]).find(
    (range) => range.day === near.day && range.start <= near.end && near.start <= range.end,
  );
  return match === undefined ? `day ${near.day}` : formatRange(match, window);
}

/** The next state after resolved placements: tasks moved or placed, embed relations updated both ways. */
export function commitPlacements(
  state: ScheduleState,
  index: OccupancyIndex,
  placements: readonly ResolvedPlacement[],
): ScheduleState {
  const tasks = state.tasks.slice();
  const embedChanges = new EmbedChanges();
  for (const placement of placements) {
    const before = state.tasks[placement.position] as ScheduleTask;
    if (before.source === "event") {
      tasks[placement.position] = buildEventTask({ ...before, slots: [placement.range] });
      continue;
    }
    const hostId =
      placement.hostPosition === undefined ? undefined : (state.tasks[placement.hostPosition] as ScheduleTask).id;
    const after: TaskItem = { ...before, status: "placed", slots: [placement.range] };
    delete after.embeddedIn;
    if (hostId !== undefined) after.embeddedIn = hostId;
    tasks[placement.position] = buildTaskItem(after);
    embedChanges.record(before.id, before.embeddedIn, hostId);
  }
  embedChanges.applyTo(tasks, index);
  return { ...state, tasks };
}

/** The next state after returning the task item at `position` to pending (host relation cleared both ways). */
export function commitUnplace(state: ScheduleState, index: OccupancyIndex, position: number): ScheduleState {
  return commitUnplaces(state, index, [position]);
}

/**
 * The next state after returning the placed task items at `positions` to pending, each as `commitUnplace` returns it,
 * in one copy of the week (a rearrangement takes a long window's hundreds of reviews off at once).
 */
export function commitUnplaces(
  state: ScheduleState,
  index: OccupancyIndex,
  positions: readonly number[],
): ScheduleState {
  const tasks = state.tasks.slice();
  const embedChanges = new EmbedChanges();
  for (const position of positions) {
    const before = state.tasks[position] as TaskItem;
    tasks[position] = buildTaskItem({ ...before, status: "pending" });
    embedChanges.record(before.id, before.embeddedIn, undefined);
  }
  embedChanges.applyTo(tasks, index);
  return { ...state, tasks };
}

/** Collects which task items leave or join which hosts, then rewrites those hosts' `embeds`. */
class EmbedChanges {
  private readonly removed = new Map<string, Set<string>>();
  private readonly added = new Map<string, Set<string>>();

  /** Notes that `taskId` moved from host `from` to host `to` (either may be undefined). */
  record(taskId: string, from: string | undefined, to: string | undefined): void {
    if (from === to) return;
    if (from !== undefined) this.setFor(this.removed, from).add(taskId);
    if (to !== undefined) this.setFor(this.added, to).add(taskId);
  }

  /** Rewrites the `embeds` list of every host touched. */
  applyTo(tasks: ScheduleTask[], index: OccupancyIndex): void {
    const hosts = new Set([...this.removed.keys(), ...this.added.keys()]);
    if (hosts.size === 0) return;
    const positions = findPositions(index.tasks, hosts);
    for (const hostId of hosts) {
      const position = positions.get(hostId);
      const host = position === undefined ? undefined : tasks[position];
      if (position === undefined || host === undefined || host.source !== "event") continue;
      const removed = this.removed.get(hostId) ?? new Set<string>();
      const embeds = new Set(host.embeds.filter((id) => !removed.has(id)));
      for (const id of this.added.get(hostId) ?? []) embeds.add(id);
      tasks[position] = buildEventTask({ ...host, embeds: sortIds(embeds) });
    }
  }

  private setFor(map: Map<string, Set<string>>, key: string): Set<string> {
    const existing = map.get(key);
    if (existing !== undefined) return existing;
    const created = new Set<string>();
    map.set(key, created);
    return created;
  }
}
