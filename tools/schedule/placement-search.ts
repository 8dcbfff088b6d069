/**
 * Chooses where pending tasks go so that as many as possible fit: the
 * placement search of the offline policy.
 *
 * The room is the free runs `find_free` reports (plainly free runs, and runs
 * inside an embeddable host that no task item uses yet). A task fits inside
 * one run — a run inside a host embeds it there — and several tasks may share
 * a run one after the other, so the problem is packing tasks into runs to
 * place as many as possible. The search places the hardest tasks first
 * (longest, then fewest runs they fit in), tries the runs on the least loaded
 * days first (so reviews spread over the week), and backtracks with a bound
 * (the room left cannot hold more than the shortest remaining tasks fill), so
 * that for a small pending set it is exact: no placement fits more tasks.
 * Past a node budget it keeps the best placement found.
 */
import { buildOccupancyIndex, type OccupancyIndex } from "./occupancy-index.js";
import type { RuleBook } from "./rules.js";
import type { ScheduleState } from "./state.js";
import { findFreeRuns } from "./tools/find-free.js";

/** A task to place, with the slots it may use. */
export interface SearchTask {
  /** Task id. */
  id: string;
  /** Consecutive slots it needs. */
  duration: number;
  /** Only these day indices, when given. */
  days?: ReadonlySet<number>;
  /** Never these day indices. */
  notDays?: ReadonlySet<number>;
  /** First slot it may start at. */
  from?: number;
  /** Last slot it may end at, inclusive. */
  to?: number;
  /** Free slots it keeps on each side inside its run (its class's buffer). */
  pad?: number;
}

/** A run of free slots on one day (inside a host when `hostId` is set). */
export interface SearchRun {
  day: number;
  start: number;
  end: number;
  hostId?: string;
}

/** Where a task goes. */
export interface PlannedPlacement {
  id: string;
  day: number;
  start: number;
  /** Last slot it takes, inclusive. */
  end: number;
  /** The host it embeds in, when its run is inside one. */
  hostId?: string;
}

/** Options of `searchPlacements`. */
export interface SearchOptions {
  /** Task items already placed per day, so new ones go to quieter days first. */
  dayLoad?: ReadonlyMap<number, number>;
  /** Search nodes before the best placement found so far is kept; default 200,000. */
  nodeLimit?: number;
}

/**
 * A week as the search takes it: every free run (plain, and inside embeddable hosts no task item uses yet) and the
 * task items placed per day — what `find_free` and `list_tasks` show, read from the state itself.
 */
export function searchInputOf(state: ScheduleState, index: OccupancyIndex = buildOccupancyIndex(state)): { runs: SearchRun[]; dayLoad: Map<number, number>; rules: RuleBook } {
  const days = Array.from({ length: state.window.totalDays }, (_, offset) => offset + 1);
  const runs = findFreeRuns(index, days, 1, state.window.slotsPerDay, 1, true).map((run) => ({ ...run.range, ...(run.hostId ? { hostId: run.hostId } : {}) }));
  const dayLoad = new Map<number, number>();
  for (const task of state.tasks) if (task.source === "task_item" && task.status === "placed") for (const range of task.slots ?? []) dayLoad.set(range.day, (dayLoad.get(range.day) ?? 0) + 1);
  return { runs, dayLoad, rules: index.rules };
}

/** The chosen placements (in day and slot order) and whether the search proved no placement fits more tasks. */
export interface SearchResult {
  placements: PlannedPlacement[];
  exact: boolean;
}

const DEFAULT_NODE_LIMIT = 200_000;

/** Finds placements for as many of `tasks` as fit into `runs`. */
export function searchPlacements(tasks: readonly SearchTask[], runs: readonly SearchRun[], options: SearchOptions = {}): SearchResult {
  const candidates = tasks.map((task) => runs.flatMap((run, index) => (fitsAlone(task, run) ? [index] : [])));
  // Hardest first: longest, then fewest runs it fits in; the order of the list breaks ties.
  const order = tasks
    .map((task, index) => index)
    .filter((index) => candidates[index]!.length > 0)
    .sort((a, b) => tasks[b]!.duration - tasks[a]!.duration || candidates[a]!.length - candidates[b]!.length || a - b);
  const sameAsPrevious = order.map((taskIndex, position) => position > 0 && interchangeable(tasks[taskIndex]!, tasks[order[position - 1]!]!));

  const cursor = runs.map((run) => run.start);
  const load = new Map(options.dayLoad ?? []);
  const chosen: Array<{ task: number; run: number; start: number } | undefined> = new Array(order.length).fill(undefined);
  let best: Array<{ task: number; run: number; start: number }> = [];
  let nodes = 0;
  const nodeLimit = options.nodeLimit ?? DEFAULT_NODE_LIMIT;
  let stopped = false;
  let leafReached = false;

  const upperBound = (position: number, placed: number): number => {
    let room = 0;
    for (let run = 0; run < runs.length; run += 1) room += runs[run]!.end - cursor[run]! + 1;
    const durations = order.slice(position).map((taskIndex) => tasks[taskIndex]!.duration).sort((a, b) => a - b);
    let fit = 0;
    for (const duration of durations) {
      if (duration > room) break;
      room -= duration;
      fit += 1;
    }
    return placed + fit;
  };

  const search = (position: number, placed: number): void => {
    nodes += 1;
    if (nodes > nodeLimit) {
      stopped = true;
      return;
    }
    if (placed > best.length) best = chosen.filter((entry): entry is { task: number; run: number; start: number } => entry !== undefined);
    if (position === order.length) {
      leafReached = true;
      return;
    }
    if (best.length === order.length) return;
    if (upperBound(position, placed) <= best.length) return;
    const taskIndex = order[position]!;
    const task = tasks[taskIndex]!;
    // Interchangeable tasks take runs in one order only, and one skipped means the next is skipped too. Not on the
    // first descent, whose choices follow the day loads only: it is the spread placement kept when nothing beats it.
    const symmetric = sameAsPrevious[position] && leafReached;
    const previous = symmetric ? chosen[position - 1] : undefined;
    const skippedPrevious = symmetric && chosen[position - 1] === undefined;
    if (!skippedPrevious) {
      const runOrder = candidates[taskIndex]!
        .filter((run) => previous === undefined || run >= previous.run)
        .sort((a, b) => (load.get(runs[a]!.day) ?? 0) - (load.get(runs[b]!.day) ?? 0) || runs[a]!.day - runs[b]!.day || runs[a]!.start - runs[b]!.start);
      for (const run of runOrder) {
        const pad = task.pad ?? 0;
        const start = Math.max(cursor[run]! + pad, task.from ?? 1);
        const end = start + task.duration - 1;
        if (end + pad > runs[run]!.end || end > (task.to ?? Number.POSITIVE_INFINITY)) continue;
        const saved = cursor[run]!;
        const day = runs[run]!.day;
        cursor[run] = end + 1 + pad;
        load.set(day, (load.get(day) ?? 0) + 1);
        chosen[position] = { task: taskIndex, run, start };
        search(position + 1, placed + 1);
        chosen[position] = undefined;
        load.set(day, (load.get(day) ?? 0) - 1);
        cursor[run] = saved;
        if (stopped || best.length === order.length) return;
      }
    }
    search(position + 1, placed);
  };
  search(0, 0);

  const placements = best
    .map(({ task, run, start }) => {
      const placement: PlannedPlacement = { id: tasks[task]!.id, day: runs[run]!.day, start, end: start + tasks[task]!.duration - 1 };
      const hostId = runs[run]!.hostId;
      if (hostId !== undefined) placement.hostId = hostId;
      return placement;
    })
    .sort((a, b) => a.day - b.day || a.start - b.start);
  return { placements, exact: !stopped };
}

/** True when the task fits in the run on its own, within its days and slots. */
function fitsAlone(task: SearchTask, run: SearchRun): boolean {
  if (task.days && !task.days.has(run.day)) return false;
  if (task.notDays?.has(run.day)) return false;
  const pad = task.pad ?? 0;
  const from = Math.max(run.start + pad, task.from ?? 1);
  const to = Math.min(run.end - pad, task.to ?? Number.POSITIVE_INFINITY);
  return to - from + 1 >= task.duration;
}

/** True when two tasks can take each other's place: same length, same limits. */
function interchangeable(a: SearchTask, b: SearchTask): boolean {
  return a.duration === b.duration && a.from === b.from && a.to === b.to && a.pad === b.pad && sameSet(a.days, b.days) && sameSet(a.notDays, b.notDays);
}

function sameSet(a: ReadonlySet<number> | undefined, b: ReadonlySet<number> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && [...a].every((value) => b.has(value));
}
