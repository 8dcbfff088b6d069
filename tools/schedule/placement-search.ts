/**
 * Chooses where pending tasks go so that as many as possible fit: the placement search behind `propose_arrangement`,
 * the health judge's feasibility and the offline policy (issue 46: exact under every rule).
 *
 * The room is the week itself (`search-room.ts`): where each task may start on its own, within every hard rule a
 * write checks. The search decides task by task — highest priority first, then longest, then the task with the fewest
 * days — which day it goes on (the quietest days first, so reviews spread over the week) or that it is left out; a
 * day's tasks fit when some order of them, each at the first place it may take after the one before with the larger
 * buffer between, fits. It keeps the arrangement with the most tasks, then the most high-priority ones, then the most
 * normal ones, and backtracks with a bound (the room left cannot hold more than the shortest tasks left fill), so it
 * is exact: it proves no arrangement is better. Past a node budget or a deadline it keeps the best found so far and
 * says so: then nothing it left out is proved not to fit.
 */
import { buildOccupancyIndex, type OccupancyIndex } from "./occupancy-index.js";
import type { RuleBook, SearchTask } from "./rules.js";
import { hostAt, roomOfRuns, searchRoomOf, startTable, type SearchRoom } from "./search-room.js";

export type { SearchTask } from "./rules.js";
export type { SearchRoom } from "./search-room.js";
import type { ScheduleState } from "./state.js";
import { finish, type Steps } from "./steps.js";
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
 * A week as the search takes it: its room (`search-room.ts`), every free run (plain, and inside embeddable hosts no
 * task item uses yet: what `find_free` shows) and the task items placed per day, read from the state itself.
 */
export function searchInputOf(
  state: ScheduleState,
  index: OccupancyIndex = buildOccupancyIndex(state),
): { runs: SearchRun[]; room: SearchRoom; dayLoad: Map<number, number>; rules: RuleBook } {
  const dayLoad = new Map<number, number>();
  for (const task of state.tasks)
    if (task.source === "task_item" && task.status === "placed")
      for (const range of task.slots ?? []) dayLoad.set(range.day, (dayLoad.get(range.day) ?? 0) + 1);
  // The runs and the room are read when asked for (a week with nothing pending needs neither).
  let runs: SearchRun[] | undefined;
  let room: SearchRoom | undefined;
  return {
    get runs() {
      const days = Array.from({ length: state.window.totalDays }, (_, offset) => offset + 1);
      return (runs ??= findFreeRuns(index, days, 1, state.window.slotsPerDay, 1, true).map((run) => ({
        ...run.range,
        ...(run.hostId ? { hostId: run.hostId } : {}),
      })));
    },
    get room() {
      return (room ??= searchRoomOf(index));
    },
    dayLoad,
    rules: index.rules,
  };
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

/**
 * Wall milliseconds within which `defaultClock` counts on from its last reading instead of reading the CPU time again:
 * a reading (getrusage over the process's threads) can take milliseconds on a loaded machine while V8's helper threads
 * run, so reading it every 1,024 steps of a long listing cost more than the steps.
 */
const CLOCK_READ_EVERY_MS = 10;

/** The last reading of the CPU time, and the wall time (`performance.now`) it was taken at. */
const lastReading = { wall: Number.NEGATIVE_INFINITY, cpu: 0 };

/**
 * The process's CPU time in milliseconds: a busy machine (other processes on its cores) does not cut a search short.
 * Read at most once every `CLOCK_READ_EVERY_MS` of wall time; in between, the last reading plus the wall time since
 * (what one thread can take; helper threads' time counts from the next reading), so a deadline is kept to within about
 * that many milliseconds.
 */
function defaultClock(): number {
  const wall = performance.now();
  const since = wall - lastReading.wall;
  if (since >= 0 && since < CLOCK_READ_EVERY_MS) return lastReading.cpu + since;
  const { user, system } = process.cpuUsage();
  lastReading.wall = wall;
  lastReading.cpu = (user + system) / 1000;
  return lastReading.cpu;
}

/** One task of the search's order being decided: the days it tries in turn, then leaving it out. */
interface Frame {
  position: number;
  /** Placed so far, and of them the high- and normal-priority ones. */
  placed: number;
  high: number;
  normal: number;
  /**
   * Where it is in its days (`DayOrder`): the load and the day it tried last, and the first day it may take (-1: none).
   */
  load: number;
  day: number;
  first: number;
  /** The day it is on now (undone when the branch below it returns). */
  taken?: number;
  /** True once the branch that leaves it out was entered. */
  skipped: boolean;
}

/** Most tasks on one day whose order the search tries every way (beyond, a day it cannot order is not proved full). */
const ORDERED_DAY_LIMIT = 14;

/** A task's priority as a rank: 0 high, 1 normal, 2 low. */
function rankOf(task: SearchTask): number {
  return task.priority === "high" ? 0 : task.priority === "low" ? 2 : 1;
}

/** Tasks with one signature may start at the same places. */
function signatureOf(task: SearchTask): string {
  const set = (values: Iterable<number | string> | undefined) => (values ? [...values].sort().join(",") : "");
  const due = task.endBefore ? `${task.endBefore.day}.${task.endBefore.slot}` : "";
  return `${task.duration}|${task.pad ?? 0}|${task.from ?? ""}|${task.to ?? ""}|${set(task.days)}|${set(task.notDays)}|${due}|${set(task.notAt)}|${task.group ?? ""}|${dayBoundsKey(task.dayBounds)}`;
}

/** A task's bounds of its own days (`SearchTask.dayBounds`) as a string, made once a map (tasks of one rule book share it). */
function dayBoundsKey(bounds: SearchTask["dayBounds"]): string {
  if (!bounds) return "";
  let key = dayBoundsKeys.get(bounds);
  if (key === undefined) {
    key = [...bounds].map(([day, { from, to }]) => `${day}:${from}-${to}`).join(",");
    dayBoundsKeys.set(bounds, key);
  }
  return key;
}

const dayBoundsKeys = new WeakMap<NonNullable<SearchTask["dayBounds"]>, string>();

/**
 * Finds placements for as many of `tasks` as fit into the room (a week's `SearchRoom`, or bare free runs): the most
 * tasks, then the most high-priority ones, then the most normal ones. Exact: every assignment of tasks to days is
 * covered, and a day's tasks are tried in every order, each at the first place it may take after the one before (a
 * placement that fits can always be moved so). Iterative (an explicit stack: no recursion as deep as the tasks are
 * many), within the budget: past `nodeLimit` nodes or the deadline it keeps the best found so far and says so
 * (`stop: "budget"`, `exact: false`).
 */
export function searchPlacements(
  tasks: readonly SearchTask[],
  where: SearchRoom | readonly SearchRun[],
  options: SearchOptions = {},
): SearchResult {
  return finish(placementSteps(tasks, where, options));
}

/** Search nodes, tables or days between two pauses of `placementSteps` (a node of a long window costs ~0.1 ms). */
const WORK_PER_PAUSE = 32;

/**
 * `searchPlacements` as work that pauses now and then (`steps.ts`): every `WORK_PER_PAUSE` start tables built,
 * search nodes entered and days laid out, so a long window's search never holds the event loop for long. The same
 * result either way.
 */
export function* placementSteps(
  tasks: readonly SearchTask[],
  where: SearchRoom | readonly SearchRun[],
  options: SearchOptions = {},
): Steps<SearchResult> {
  const room: SearchRoom = "holder" in where ? where : roomOfRuns(where);
  const { days, slotsPerDay } = room;
  const width = slotsPerDay + 2;

  // The places each task may take on its own, shared by tasks with the same limits (a table's id groups them).
  const tables = new Map<string, { id: number; next: Int16Array; days: number[]; last: Int16Array }>();
  const capacity = new Int32Array(days + 1);
  const covered = new Uint8Array((days + 1) * width);
  const tableOf: Array<{ id: number; next: Int16Array; days: number[]; last: Int16Array }> = [];
  for (const task of tasks) {
    const built = tables.size;
    tableOf.push(tableFor(task));
    if (tables.size > built && tables.size % WORK_PER_PAUSE === 0) yield;
  }
  function tableFor(task: SearchTask) {
    const key = signatureOf(task);
    const known = tables.get(key);
    if (known) return known;
    const next = startTable(task, room);
    const last = new Int16Array(days + 1);
    const onDays: number[] = [];
    for (let day = 1; day <= days; day += 1) {
      for (let start = next[(day - 1) * width + 1]!; start > 0; start = next[(day - 1) * width + start + 1]!) {
        last[day] = start;
        for (let slot = start; slot < start + task.duration; slot += 1) {
          if (covered[day * width + slot]) continue;
          covered[day * width + slot] = 1;
          capacity[day] = capacity[day]! + 1;
        }
      }
      if (last[day]! > 0) onDays.push(day);
    }
    const table = { id: tables.size, next, days: onDays, last };
    tables.set(key, table);
    return table;
  }

  // Highest priority first, then longest, then fewest days it fits on; tasks alike next to one another.
  const order = tasks
    .map((_, index) => index)
    .filter((index) => tableOf[index]!.days.length > 0)
    .sort(
      (a, b) =>
        rankOf(tasks[a]!) - rankOf(tasks[b]!) ||
        tasks[b]!.duration - tasks[a]!.duration ||
        tableOf[a]!.days.length - tableOf[b]!.days.length ||
        tableOf[a]!.id - tableOf[b]!.id ||
        a - b,
    );
  const count = order.length;
  const duration = order.map((index) => tasks[index]!.duration);
  const pad = order.map((index) => tasks[index]!.pad ?? 0);
  const rank = order.map((index) => rankOf(tasks[index]!));
  const table = order.map((index) => tableOf[index]!);
  const sameAsPrevious = order.map(
    (_, position) => position > 0 && table[position] === table[position - 1] && rank[position] === rank[position - 1],
  );

  // The value of an arrangement: placed, then high-priority placed, then normal-priority placed.
  const base = count + 1;
  const valueOf = (placed: number, high: number, normal: number) => placed * base * base + high * base + normal;
  const most = valueOf(count, rank.filter((entry) => entry === 0).length, rank.filter((entry) => entry === 1).length);

  // What is left to decide (positions from the current one on): how many of each length, and of each priority.
  const longest = duration.reduce((max, entry) => Math.max(max, entry), 0);
  const lengths = new Int32Array(longest + 1);
  const ranks = new Int32Array(3);
  for (let position = 0; position < count; position += 1) {
    lengths[duration[position]!] = lengths[duration[position]!]! + 1;
    ranks[rank[position]!] = ranks[rank[position]!]! + 1;
  }
  const decide = (position: number, sign: 1 | -1) => {
    lengths[duration[position]!] = lengths[duration[position]!]! - sign;
    ranks[rank[position]!] = ranks[rank[position]!]! - sign;
  };

  // The week as it fills: each day's tasks, the slots they take, the room left on the days (slots any task may use).
  const members: number[][] = Array.from({ length: days + 1 }, () => []);
  const used = new Int32Array(days + 1);
  let roomLeft = 0;
  for (let day = 1; day <= days; day += 1) roomLeft += capacity[day]!;
  const load = new Int32Array(days + 1);
  for (const [day, tasksThere] of options.dayLoad ?? []) if (day >= 1 && day <= days) load[day] = tasksThere;
  const dayOrder = new DayOrder(load);
  // Each table's days as a set, once per table (tasks alike share one).
  const daySets = new Map<number, Uint32Array>();
  const tableDays = table.map((entry) => {
    let set = daySets.get(entry.id);
    if (!set) daySets.set(entry.id, (set = dayOrder.setOf(entry.days)));
    return set;
  });
  const join = (day: number, position: number, sign: 1 | -1) => {
    const before = Math.max(0, capacity[day]! - used[day]!);
    used[day] = used[day]! + sign * duration[position]!;
    roomLeft += Math.max(0, capacity[day]! - used[day]!) - before;
    dayOrder.shift(day, load[day]!, load[day]! + sign);
    load[day] = load[day]! + sign;
    if (sign === 1) members[day]!.push(position);
    else members[day]!.pop();
  };

  // Whether a day's tasks fit on it together, and where: memoised by the day and its tasks' tables.
  let unordered = false;
  const known = new Map<string, boolean>();
  const firstAt = (position: number, day: number, slot: number) =>
    slot > slotsPerDay ? 0 : table[position]!.next[(day - 1) * width + slot]!;
  const arrange = (day: number, positions: readonly number[]): number[] | undefined => {
    // First the tasks that must start soonest, each at the first place it may take.
    const greedy = [...positions].sort(
      (a, b) => table[a]!.last[day]! - table[b]!.last[day]! || duration[b]! - duration[a]!,
    );
    const starts = new Map<number, number>();
    let end = 0;
    let previous = -1;
    for (const position of greedy) {
      const start = firstAt(position, day, previous < 0 ? 1 : end + 1 + Math.max(pad[previous]!, pad[position]!));
      if (start === 0) break;
      starts.set(position, start);
      end = start + duration[position]! - 1;
      previous = position;
    }
    if (starts.size === positions.length) return positions.map((position) => starts.get(position)!);
    if (positions.length > ORDERED_DAY_LIMIT) {
      unordered = true;
      return undefined;
    }
    return everyOrder(day, positions);
  };
  // Every order of a day's tasks: the earliest end of each set of them by the one that comes last.
  const everyOrder = (day: number, positions: readonly number[]): number[] | undefined => {
    const size = positions.length;
    const full = (1 << size) - 1;
    const ends = new Int16Array((full + 1) * size).fill(0x7fff);
    const before = new Int8Array((full + 1) * size).fill(-1);
    positions.forEach((position, index) => {
      const start = firstAt(position, day, 1);
      if (start > 0) ends[(1 << index) * size + index] = start + duration[position]! - 1;
    });
    for (let set = 1; set <= full; set += 1)
      for (let last = 0; last < size; last += 1) {
        const end = ends[set * size + last]!;
        if (end === 0x7fff) continue;
        for (let index = 0; index < size; index += 1) {
          if (set & (1 << index)) continue;
          const position = positions[index]!;
          const start = firstAt(position, day, end + 1 + Math.max(pad[positions[last]!]!, pad[position]!));
          if (start === 0) continue;
          const cell = (set | (1 << index)) * size + index;
          if (start + duration[position]! - 1 < ends[cell]!) {
            ends[cell] = start + duration[position]! - 1;
            before[cell] = last;
          }
        }
      }
    let last = positions.findIndex((_, index) => ends[full * size + index] !== 0x7fff);
    if (last < 0) return undefined;
    const starts: number[] = new Array(size);
    for (let set = full; last >= 0;) {
      starts[last] = ends[set * size + last]! - duration[positions[last]!]! + 1;
      const previous = before[set * size + last]!;
      set ^= 1 << last;
      last = previous;
    }
    return starts;
  };
  // A task group's items (a habit, a long task's sessions) never share a day.
  const group = order.map((index) => tasks[index]!.group);
  const fitsWith = (day: number, position: number): boolean => {
    const own = group[position];
    if (own !== undefined && members[day]!.some((other) => group[other] === own)) return false;
    const together = [...members[day]!, position];
    const key = `${day}:${together
      .map((entry) => table[entry]!.id)
      .sort((a, b) => a - b)
      .join(",")}`;
    const memo = known.get(key);
    if (memo !== undefined) return memo;
    const fits = arrange(day, together) !== undefined;
    if (known.size > 200_000) known.clear();
    known.set(key, fits);
    return fits;
  };

  // The day each decided position is on (0: left out); the best found is copied out of it only when it is about to
  // change below `bestPosition` (or at the end): one copy per backtrack instead of one per task placed.
  const chosen = new Int32Array(count);
  let best = new Int32Array(0);
  let bestValue = -1;
  let bestPosition = -1;
  const keepBest = () => {
    if (bestPosition < 0) return;
    best = chosen.slice(0, bestPosition);
    bestPosition = -1;
  };
  const setChosen = (position: number, day: number) => {
    if (position < bestPosition) keepBest();
    chosen[position] = day;
  };
  let nodes = 0;
  const nodeLimit = options.nodeLimit ?? DEFAULT_NODE_LIMIT;
  let stopped = false;
  let leafReached = false;

  // No completion from `frame` on is worth more than its counts plus the shortest tasks left that the room holds.
  const upperBound = (frame: Frame): number => {
    let more = 0;
    let left = roomLeft;
    for (let length = 1; length <= longest; length += 1) {
      const have = lengths[length]!;
      if (have === 0) continue;
      const take = Math.min(have, Math.floor(left / length));
      more += take;
      left -= take * length;
      if (take < have) break;
    }
    return valueOf(
      frame.placed + more,
      frame.high + Math.min(ranks[0]!, more),
      frame.normal + Math.min(ranks[1]!, more),
    );
  };

  // Enters the node: false when it ends at once (the budget, a leaf, nothing better below it).
  const enter = (frame: Frame): boolean => {
    const { position } = frame;
    nodes += 1;
    if (nodes > nodeLimit || (nodes % CLOCK_EVERY === 1 && pastDeadline(options))) {
      stopped = true;
      return false;
    }
    const value = valueOf(frame.placed, frame.high, frame.normal);
    if (value > bestValue) {
      bestValue = value;
      bestPosition = position;
    }
    if (position === count) {
      leafReached = true;
      return false;
    }
    if (bestValue === most || upperBound(frame) <= bestValue) return false;
    // Tasks alike take days in one order only, and one left out means the next is left out too. Not on the first
    // descent, whose choices follow the day loads only: it is the spread placement kept when nothing beats it.
    const symmetric = sameAsPrevious[position] && leafReached;
    const previous = symmetric ? chosen[position - 1]! : 0;
    frame.first = symmetric && previous === 0 ? -1 : previous;
    return true;
  };
  // The next day a node tries (0: none left): of its table's days from its first on, the quietest first, then by day.
  const nextDay = (frame: Frame): number => (frame.first < 0 ? 0 : dayOrder.next(frame, tableDays[frame.position]!));
  const descend = (child: Frame) => {
    decide(child.position - 1, 1);
    if (enter(child)) stack.push(child);
    else decide(child.position - 1, -1);
  };

  const stack: Frame[] = [];
  const root: Frame = { position: 0, placed: 0, high: 0, normal: 0, ...UNENTERED, skipped: false };
  if (enter(root)) stack.push(root);
  let pausedAt = nodes;
  while (stack.length > 0 && !stopped) {
    if (nodes - pausedAt >= WORK_PER_PAUSE) {
      pausedAt = nodes;
      yield;
    }
    const frame = stack[stack.length - 1]!;
    const { position } = frame;
    // The branch below the day it sat on has returned: take it off that day.
    if (frame.taken !== undefined) {
      join(frame.taken, position, -1);
      setChosen(position, 0);
      frame.taken = undefined;
    }
    let child: Frame | undefined;
    while (bestValue < most && child === undefined) {
      const day = nextDay(frame);
      if (day === 0) break;
      if (!fitsWith(day, position)) continue;
      join(day, position, 1);
      setChosen(position, day);
      frame.taken = day;
      child = {
        position: position + 1,
        placed: frame.placed + 1,
        high: frame.high + Number(rank[position] === 0),
        normal: frame.normal + Number(rank[position] === 1),
        ...UNENTERED,
        skipped: false,
      };
    }
    if (child === undefined) {
      if (frame.skipped || bestValue === most) {
        stack.pop();
        if (position > 0) decide(position - 1, -1);
        continue;
      }
      frame.skipped = true;
      child = {
        position: position + 1,
        placed: frame.placed,
        high: frame.high,
        normal: frame.normal,
        ...UNENTERED,
        skipped: false,
      };
    }
    descend(child);
  }
  keepBest();
  if (options.meter) options.meter.nodes += nodes;

  const placements: PlannedPlacement[] = [];
  const byDay: number[][] = Array.from({ length: days + 1 }, () => []);
  best.forEach((day, position) => byDay[day]!.push(position));
  for (let day = 1; day <= days; day += 1) {
    if (day % WORK_PER_PAUSE === 0) yield;
    const onDay = byDay[day]!;
    if (onDay.length === 0) continue;
    const starts = arrange(day, onDay) ?? [];
    onDay.forEach((position, index) => {
      const start = starts[index]!;
      const placement: PlannedPlacement = {
        id: tasks[order[position]!]!.id,
        day,
        start,
        end: start + duration[position]! - 1,
      };
      const hostId = hostAt(room, day, start);
      if (hostId !== undefined) placement.hostId = hostId;
      placements.push(placement);
    });
  }
  placements.sort((a, b) => a.day - b.day || a.start - b.start);
  const exact = !stopped && !unordered;
  return { placements, exact, stop: exact ? "exact" : "budget" };
}

/** A node's place in its days before it is entered. */
const UNENTERED = { load: 0, day: 0, first: -1 } as const;

/**
 * The days by how many tasks each holds (its load), kept as the search joins and leaves them: per load, the set of
 * days (as bits). A node reads its days from it one at a time, the quietest first then by day, as it tries them —
 * not sorted whole when it is entered (a long window's every node sorted its every day, nodes × days, though most
 * take the first that fits). The loads it reads are those it was entered with: every day the branches below it took
 * is left again before it tries its next, so its days come in the order a sort at its entry gave.
 */
class DayOrder {
  /** Words of bits per set of days (day `d` is bit `d % 32` of word `d >> 5`). */
  private readonly words: number;
  /** Per load, the days holding that many tasks, and how many they are. */
  private readonly byLoad: Uint32Array[] = [];
  private readonly counts: number[] = [];
  /** The largest load a day holds. */
  private top = 0;

  /** `load`: per day (index 0 unused), the tasks it holds. */
  constructor(load: Int32Array) {
    this.words = (load.length >> 5) + 1;
    for (let day = 1; day < load.length; day += 1) this.add(day, load[day]!);
  }

  /** `days` as a set of bits. */
  setOf(days: readonly number[]): Uint32Array {
    const set = new Uint32Array(this.words);
    for (const day of days) set[day >> 5]! |= 1 << (day & 31);
    return set;
  }

  /** `day`'s load changed from `from` to `to`. */
  shift(day: number, from: number, to: number): void {
    this.byLoad[from]![day >> 5]! &= ~(1 << (day & 31));
    this.counts[from]! -= 1;
    this.add(day, to);
    while (this.top > 0 && this.counts[this.top] === 0) this.top -= 1;
  }

  /**
   * The day after `cursor`'s (`load`, then `day`) among `days` from `cursor.first` on, in the order of load then day,
   * or 0 when none is left; `cursor` moves to it.
   */
  next(cursor: { load: number; day: number; first: number }, days: Uint32Array): number {
    for (; cursor.load <= this.top; cursor.load += 1, cursor.day = 0) {
      if (this.counts[cursor.load] === 0) continue;
      const set = this.byLoad[cursor.load]!;
      const from = Math.max(cursor.day + 1, cursor.first);
      for (let word = from >> 5; word < this.words; word += 1) {
        let bits = set[word]! & days[word]!;
        if (word === from >> 5) bits &= ~0 << (from & 31);
        if (bits === 0) continue;
        cursor.day = word * 32 + 31 - Math.clz32(bits & -bits);
        return cursor.day;
      }
    }
    return 0;
  }

  private add(day: number, load: number): void {
    while (this.byLoad.length <= load) {
      this.byLoad.push(new Uint32Array(this.words));
      this.counts.push(0);
    }
    this.byLoad[load]![day >> 5]! |= 1 << (day & 31);
    this.counts[load]! += 1;
    if (load > this.top) this.top = load;
  }
}
