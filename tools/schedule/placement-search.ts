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
import type { RuleBook, SearchTask } from "./rules.js";

export type { SearchTask } from "./rules.js";
import type { ScheduleState } from "./state.js";
import { findFreeRuns } from "./tools/find-free.js";

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
export interface SearchOptions extends SearchBudget {
  /** Task items already placed per day, so new ones go to quieter days first. */
  dayLoad?: ReadonlyMap<number, number>;
}

/**
 * How much work a search (and the polishing after it) may do before it keeps the best found so far: the caller's, or
 * the defaults. Past it the result says so (`stop: "budget"`), and nothing it left out is said to be proved not to fit.
 */
export interface SearchBudget {
  /** Search nodes before the best placement found so far is kept; default 200,000. */
  nodeLimit?: number;
  /**
   * When, on `now`'s clock, the work stops and keeps the best found so far. A bare search has none by default (the
   * node limit bounds it); a listing (`propose_arrangement`, `propose_candidates`) sets one `DEFAULT_TIME_LIMIT_MS` on.
   */
  deadline?: number;
  /** The clock `deadline` is on, in milliseconds; default the process's CPU time. */
  now?: () => number;
  /** A running count of the nodes searched (each search adds its own): the caller's, to bound many searches at once. */
  meter?: { nodes: number };
}

/** Why a search ended: it finished (`exact`: nothing fits more), or its budget ran out (`budget`: the best found so far). */
export type StopReason = "exact" | "budget";

/**
 * A week as the search takes it: every free run (plain, and inside embeddable hosts no task item uses yet) and the
 * task items placed per day — what `find_free` and `list_tasks` show, read from the state itself.
 */
export function searchInputOf(
  state: ScheduleState,
  index: OccupancyIndex = buildOccupancyIndex(state),
): { runs: SearchRun[]; dayLoad: Map<number, number>; rules: RuleBook } {
  const days = Array.from({ length: state.window.totalDays }, (_, offset) => offset + 1);
  const runs = findFreeRuns(index, days, 1, state.window.slotsPerDay, 1, true).map((run) => ({
    ...run.range,
    ...(run.hostId ? { hostId: run.hostId } : {}),
  }));
  const dayLoad = new Map<number, number>();
  for (const task of state.tasks)
    if (task.source === "task_item" && task.status === "placed")
      for (const range of task.slots ?? []) dayLoad.set(range.day, (dayLoad.get(range.day) ?? 0) + 1);
  return { runs, dayLoad, rules: index.rules };
}

/** The chosen placements (in day and slot order), whether the search proved no placement fits more tasks, and why it stopped. */
export interface SearchResult {
  placements: PlannedPlacement[];
  exact: boolean;
  stop: StopReason;
}

/** Search nodes before a search keeps the best found so far, unless the caller says otherwise. */
export const DEFAULT_NODE_LIMIT = 200_000;

/** Nodes between two looks at the clock, the first node's included (a deadline is kept to within this many). */
const CLOCK_EVERY = 1024;

/** True once `budget`'s deadline has passed on its clock; false without a deadline. */
export function pastDeadline(budget: SearchBudget): boolean {
  return budget.deadline !== undefined && (budget.now ?? defaultClock)() >= budget.deadline;
}

/** The CPU time a listing's searches and polishing (`propose_arrangement`, `propose_candidates`) may take by default, in milliseconds. */
export const DEFAULT_TIME_LIMIT_MS = 2_000;

/** `budget` with its deadline fixed: the caller's, or `DEFAULT_TIME_LIMIT_MS` from now on its clock. */
export function startBudget<Budget extends SearchBudget>(budget: Budget): Budget {
  return budget.deadline !== undefined
    ? budget
    : { ...budget, deadline: (budget.now ?? defaultClock)() + DEFAULT_TIME_LIMIT_MS };
}

/** The process's CPU time in milliseconds: a busy machine (other processes on its cores) does not cut a search short. */
function defaultClock(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One task of the search's order being decided: the runs it tries in turn, then leaving it out. */
interface Frame {
  position: number;
  placed: number;
  /** The runs to try, in order; undefined until the node is entered. */
  runOrder?: number[];
  next: number;
  /** The run it sits in now (undone when the branch below it returns). */
  taken?: { run: number; saved: number; day: number; used: number };
  /** True once the branch that leaves it out was entered. */
  skipped: boolean;
}

/**
 * Finds placements for as many of `tasks` as fit into `runs`. Iterative (an explicit stack: no recursion as deep as
 * the tasks are many), within the budget: past `nodeLimit` nodes or the deadline it keeps the best found so far and
 * says so (`stop: "budget"`, `exact: false`).
 */
export function searchPlacements(
  tasks: readonly SearchTask[],
  runs: readonly SearchRun[],
  options: SearchOptions = {},
): SearchResult {
  const candidates = tasks.map((task) => runs.flatMap((run, index) => (fitsAlone(task, run) ? [index] : [])));
  // Hardest first: longest, then fewest runs it fits in; the order of the list breaks ties.
  const order = tasks
    .map((task, index) => index)
    .filter((index) => candidates[index]!.length > 0)
    .sort((a, b) => tasks[b]!.duration - tasks[a]!.duration || candidates[a]!.length - candidates[b]!.length || a - b);
  const sameAsPrevious = order.map(
    (taskIndex, position) => position > 0 && interchangeable(tasks[taskIndex]!, tasks[order[position - 1]!]!),
  );
  // The order is longest first, so the shortest of the tasks from any position on are the last ones: `tail[k]` is the
  // slots the k shortest take.
  const tail = [0];
  for (let k = 1; k <= order.length; k += 1) tail.push(tail[k - 1]! + tasks[order[order.length - k]!]!.duration);

  const cursor = runs.map((run) => run.start);
  let room = runs.reduce((sum, run) => sum + run.end - run.start + 1, 0);
  const load = new Map(options.dayLoad ?? []);
  const chosen: Array<{ task: number; run: number; start: number } | undefined> = new Array(order.length).fill(
    undefined,
  );
  let best: Array<{ task: number; run: number; start: number }> = [];
  let bestCount = 0;
  // The best is copied out of `chosen` only when `chosen` is about to change below `bestPosition` (or at the end):
  // one copy per backtrack instead of one per task placed on the way down.
  let bestPosition = -1;
  const keepBest = () => {
    if (bestPosition < 0) return;
    best = chosen
      .slice(0, bestPosition)
      .filter((entry): entry is { task: number; run: number; start: number } => entry !== undefined);
    bestPosition = -1;
  };
  const setChosen = (position: number, entry: { task: number; run: number; start: number } | undefined) => {
    if (position < bestPosition) keepBest();
    chosen[position] = entry;
  };
  let nodes = 0;
  const nodeLimit = options.nodeLimit ?? DEFAULT_NODE_LIMIT;
  let stopped = false;
  let leafReached = false;

  // No placement from `position` on, `placed` so far, can place more than the shortest remaining tasks the room holds.
  const upperBound = (position: number, placed: number): number => {
    let low = 0;
    let high = order.length - position;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (tail[middle]! <= room) low = middle;
      else high = middle - 1;
    }
    return placed + low;
  };

  // Enters the node: false when it ends at once (the budget, a leaf, nothing better below it).
  const enter = (frame: Frame): boolean => {
    const { position, placed } = frame;
    nodes += 1;
    if (nodes > nodeLimit || (nodes % CLOCK_EVERY === 1 && pastDeadline(options))) {
      stopped = true;
      return false;
    }
    if (placed > bestCount) {
      bestCount = placed;
      bestPosition = position;
    }
    if (position === order.length) {
      leafReached = true;
      return false;
    }
    if (bestCount === order.length) return false;
    if (upperBound(position, placed) <= bestCount) return false;
    const taskIndex = order[position]!;
    // Interchangeable tasks take runs in one order only, and one skipped means the next is skipped too. Not on the
    // first descent, whose choices follow the day loads only: it is the spread placement kept when nothing beats it.
    const symmetric = sameAsPrevious[position] && leafReached;
    const previous = symmetric ? chosen[position - 1] : undefined;
    const skippedPrevious = symmetric && chosen[position - 1] === undefined;
    frame.runOrder = skippedPrevious
      ? []
      : candidates[taskIndex]!.filter((run) => previous === undefined || run >= previous.run).sort(
          (a, b) =>
            (load.get(runs[a]!.day) ?? 0) - (load.get(runs[b]!.day) ?? 0) ||
            runs[a]!.day - runs[b]!.day ||
            runs[a]!.start - runs[b]!.start,
        );
    return true;
  };

  const stack: Frame[] = [{ position: 0, placed: 0, next: 0, skipped: false }];
  if (!enter(stack[0]!)) stack.pop();
  while (stack.length > 0 && !stopped) {
    const frame = stack[stack.length - 1]!;
    const task = tasks[order[frame.position]!]!;
    // The branch below the run it sat in has returned: give the run back.
    if (frame.taken) {
      const { run, saved, day, used } = frame.taken;
      setChosen(frame.position, undefined);
      load.set(day, (load.get(day) ?? 0) - 1);
      cursor[run] = saved;
      room += used;
      frame.taken = undefined;
      if (bestCount === order.length) {
        stack.pop();
        continue;
      }
    }
    let child: Frame | undefined;
    while (child === undefined && frame.next < frame.runOrder!.length) {
      const run = frame.runOrder![frame.next]!;
      frame.next += 1;
      const pad = task.pad ?? 0;
      const start = Math.max(cursor[run]! + pad, task.from ?? 1);
      const end = start + task.duration - 1;
      if (end + pad > runs[run]!.end || end > (task.to ?? Number.POSITIVE_INFINITY)) continue;
      const saved = cursor[run]!;
      const day = runs[run]!.day;
      const used = end + 1 + pad - saved;
      cursor[run] = end + 1 + pad;
      room -= used;
      load.set(day, (load.get(day) ?? 0) + 1);
      setChosen(frame.position, { task: order[frame.position]!, run, start });
      frame.taken = { run, saved, day, used };
      child = { position: frame.position + 1, placed: frame.placed + 1, next: 0, skipped: false };
    }
    if (child === undefined) {
      if (frame.skipped) {
        stack.pop();
        continue;
      }
      frame.skipped = true;
      child = { position: frame.position + 1, placed: frame.placed, next: 0, skipped: false };
    }
    if (enter(child)) stack.push(child);
  }
  keepBest();
  if (options.meter) options.meter.nodes += nodes;

  const placements = best
    .map(({ task, run, start }) => {
      const placement: PlannedPlacement = {
        id: tasks[task]!.id,
        day: runs[run]!.day,
        start,
        end: start + tasks[task]!.duration - 1,
      };
      const hostId = runs[run]!.hostId;
      if (hostId !== undefined) placement.hostId = hostId;
      return placement;
    })
    .sort((a, b) => a.day - b.day || a.start - b.start);
  return { placements, exact: !stopped, stop: stopped ? "budget" : "exact" };
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
  return (
    a.duration === b.duration &&
    a.from === b.from &&
    a.to === b.to &&
    a.pad === b.pad &&
    sameSet(a.days, b.days) &&
    sameSet(a.notDays, b.notDays)
  );
}

function sameSet(a: ReadonlySet<number> | undefined, b: ReadonlySet<number> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && [...a].every((value) => b.has(value));
}
