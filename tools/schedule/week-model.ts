/**
 * The week as the candidate loop's climb changes it (issue 46, item 5): the health judge's score kept up to date move
 * by move, instead of a fresh `analyzeHealth` over a freshly built index for every change considered, and the write
 * tools' checks made on the model itself, without building the next state or its result text.
 *
 * The score decomposes by day: what a day costs (its heavy slots, reviews back to back, reviews without a buffer,
 * single free slots, reviews off the profile) depends only on that day's cells and reviews, so a move or a swap
 * recomputes the two days it touches and the cached total changes by their difference. What spans days is kept as
 * running sums: the daily loads' sum and sum of squares (the spread, exactly as `spreadOf` computes it), each class's
 * sessions per day (its strategy). Feasibility (how many pending reviews still fit) is the placement search's, as in
 * `analyzeHealth`; when nothing pending fitted before a move, only the free room of the days the move touches can
 * change that, and the search is run again on the whole week only when a pending review could fit there.
 *
 * `score()` equals `analyzeHealth(state, preferences).score` of the week the moves made (the property test in
 * tests/schedule/week-model.test.ts checks it over random weeks and moves), and `canMove` / `canSwap` say what the
 * `move` and `swap` tools would accept, with the same checks: the window, conflicts and embedding (`landOne`), the
 * class's and the task's rules (`placementRuleProblem`), buffers (`bufferProblem`).
 */
import {
  HEALTH_PENALTIES,
  HEAVY_DAY_SLOTS,
  isBusy,
  profileOf,
  spreadOf,
  unevenPenalty,
  type HealthPreferences,
} from "./health.js";
import { FREE, buildOccupancyIndex, cellOf, cloneOccupancyIndex, type OccupancyIndex } from "./occupancy-index.js";
import { searchPlacements, type SearchBudget, type SearchRun, type SearchTask } from "./placement-search.js";
import { bufferOf, placementRuleProblem, withRules } from "./rules.js";
import { windowProblem } from "./slot-range.js";
import type { ScheduleState, SlotRange, TaskItem } from "./state.js";
import { findFreeRuns } from "./tools/find-free.js";

/** What the feasibility search found: the penalty it costs, and whether it was exact or stopped at its budget. */
interface Feasibility {
  penalty: number;
  placeable: number;
  exact: boolean;
  budget: boolean;
}

/** A class's sessions: how many, and how many on each day. */
interface ClassSessions {
  strategy: "steady" | "compact";
  sessions: number;
  perDay: Map<number, number>;
}

/** A placed review's place in the model: where it is, and the host it sits in (`FREE` for none). */
interface Place {
  range: SlotRange;
  host: number;
}

/** The health score of a week, kept up to date as placed reviews move and swap (see the file's comment). */
export class WeekModel {
  readonly state: ScheduleState;
  private readonly index: OccupancyIndex;
  private readonly slotsPerDay: number;
  private readonly totalDays: number;
  private readonly profile: (task: TaskItem, range: SlotRange) => string | undefined;
  /** Per position: where a placed review is now (its first range), when it is one. */
  private readonly places = new Map<number, Place>();
  /** Per day (index 0 is day 1): positions of the placed reviews whose first range is on it. */
  private readonly onDay: number[][];
  private readonly dailyLoad: number[];
  private loadSum = 0;
  private loadSquares = 0;
  private readonly dayCost: number[];
  private dayTotal = 0;
  private readonly classes = new Map<string, ClassSessions>();
  private strategyTotal = 0;
  private readonly pending: SearchTask[];
  /** Per day: the shortest pending review its rules allow there (Infinity when none). */
  private readonly shortestPending: number[];
  private readonly budget: () => SearchBudget;
  private feasibility: Feasibility;

  /** `budget`: each feasibility search's (a function: read when the search runs, so a shared meter's nodes count). */
  constructor(
    state: ScheduleState,
    preferences: HealthPreferences = {},
    budget: SearchBudget | (() => SearchBudget) = {},
  ) {
    this.state = state;
    this.budget = typeof budget === "function" ? budget : () => budget;
    this.index = cloneOccupancyIndex(buildOccupancyIndex(state));
    const { totalDays, slotsPerDay } = state.window;
    this.totalDays = totalDays;
    this.slotsPerDay = slotsPerDay;
    this.profile = profileOf(state, preferences, this.index.rules);
    this.onDay = Array.from({ length: totalDays }, () => []);
    this.dailyLoad = Array.from({ length: totalDays }, () => 0);
    this.dayCost = Array.from({ length: totalDays }, () => 0);
    for (const category of state.categories)
      if (category.strategy)
        this.classes.set(category.id, { strategy: category.strategy, sessions: 0, perDay: new Map() });
    const avoid = new Set(preferences.avoidDays ?? []);
    const pending: SearchTask[] = [];
    state.tasks.forEach((task, position) => {
      if (task.source !== "task_item") return;
      if (task.status === "pending")
        pending.push(
          withRules(
            { id: task.id, duration: task.duration, ...(avoid.size > 0 ? { notDays: avoid } : {}) },
            task,
            this.index.rules,
          ),
        );
      if (task.status !== "placed" || !task.slots?.length) return;
      for (const range of task.slots)
        if (range.day >= 1 && range.day <= totalDays) this.dailyLoad[range.day - 1]! += range.end - range.start + 1;
      const first = task.slots[0]!;
      const host =
        this.index.embedded[cellOf(this.index, first.day, first.start)] === position ? this.hostAt(first) : FREE;
      this.places.set(position, { range: first, host });
      this.onDay[first.day - 1]?.push(position);
      this.countSession(task, first.day, 1);
    });
    this.pending = pending;
    this.shortestPending = Array.from({ length: totalDays }, (_, offset) =>
      pending.reduce(
        (shortest, task) =>
          (task.days && !task.days.has(offset + 1)) || task.notDays?.has(offset + 1)
            ? shortest
            : Math.min(shortest, task.duration),
        Number.POSITIVE_INFINITY,
      ),
    );
    for (const load of this.dailyLoad) {
      this.loadSum += load;
      this.loadSquares += load * load;
    }
    for (let day = 1; day <= totalDays; day += 1) {
      this.dayCost[day - 1] = this.costOfDay(day);
      this.dayTotal += this.dayCost[day - 1]!;
    }
    this.feasibility = this.searchFeasibility();
  }

  /** The health score of the week as it is now (`analyzeHealth`'s). */
  score(): number {
    return Math.max(0, this.raw());
  }

  /** 100 minus every penalty, to one decimal, not clamped at 0 (the climb's measure: it still rises below 0). */
  raw(): number {
    const spread = spreadOf(this.loadSum, this.loadSquares, this.totalDays);
    const penalties = this.dayTotal + this.strategyTotal + this.feasibility.penalty + unevenPenalty(spread);
    return Math.round((100 - penalties) * 10) / 10;
  }

  /** True when the feasibility search stopped at its budget: the score is then no score. */
  stoppedAtBudget(): boolean {
    return this.feasibility.budget;
  }

  /** Where the placed review at `position` is now, or undefined. */
  placeOf(position: number): SlotRange | undefined {
    return this.places.get(position)?.range;
  }

  /** Positions of the placed reviews on `day` (by their first range). */
  reviewsOn(day: number): readonly number[] {
    return this.onDay[day - 1] ?? [];
  }

  /** True when `move` would move the placed review at `position` to `range` (its length kept). */
  canMove(position: number, range: SlotRange): boolean {
    const place = this.places.get(position);
    if (!place || this.isMultiRange(position)) return false;
    this.lift(position);
    const host = this.landing(position, range);
    this.land(position, place.range, place.host);
    return host !== undefined;
  }

  /** True when `place` would put the pending review at `position` on `range`. */
  canPlace(position: number, range: SlotRange): boolean {
    const task = this.state.tasks[position];
    return task?.source === "task_item" && task.status === "pending" && this.landing(position, range) !== undefined;
  }

  /** Moves the placed review at `position` to `range` (checked with `canMove` first). */
  move(position: number, range: SlotRange): void {
    this.lift(position);
    const host = this.landing(position, range);
    if (host === undefined) throw new Error(`week model: task at ${position} cannot land on ${JSON.stringify(range)}`);
    this.land(position, range, host);
  }

  /** The score after moving the review at `position` to `range`, or undefined when `move` would refuse it; the week stays as it is. */
  scoreIfMoved(position: number, range: SlotRange): number | undefined {
    const place = this.places.get(position);
    if (!place || this.isMultiRange(position)) return undefined;
    this.lift(position);
    const host = this.landing(position, range);
    if (host === undefined) {
      this.land(position, place.range, place.host);
      return undefined;
    }
    this.land(position, range, host);
    const feasibility = this.feasibilityAfter([place.range.day, range.day]);
    const raw = this.rawWith(feasibility);
    this.lift(position);
    this.land(position, place.range, place.host);
    return raw;
  }

  /** The score after swapping the reviews at `first` and `second`, or undefined when `swap` would refuse it. */
  scoreIfSwapped(first: number, second: number): number | undefined {
    const swapped = this.swapIfAllowed(first, second);
    if (!swapped) return undefined;
    const feasibility = this.feasibilityAfter([swapped[0].range.day, swapped[1].range.day]);
    const raw = this.rawWith(feasibility);
    this.undoSwap(first, second, swapped);
    return raw;
  }

  /** Swaps the reviews at `first` and `second` (checked with `scoreIfSwapped` first). */
  swap(first: number, second: number): void {
    if (!this.swapIfAllowed(first, second)) throw new Error(`week model: tasks at ${first} and ${second} cannot swap`);
    this.feasibility = this.searchFeasibility();
  }

  /** Keeps a move made with `move` in the feasibility figure. */
  settle(): void {
    this.feasibility = this.searchFeasibility();
  }

  /** The two places `first` and `second` held, after swapping them, or undefined (nothing changed) when refused. */
  private swapIfAllowed(first: number, second: number): [Place, Place] | undefined {
    const a = this.places.get(first);
    const b = this.places.get(second);
    if (!a || !b || first === second || this.isMultiRange(first) || this.isMultiRange(second)) return undefined;
    const length = (range: SlotRange) => range.end - range.start;
    if (length(a.range) !== length(b.range)) return undefined;
    this.lift(first);
    this.lift(second);
    // As the swap tool lands them: the first on the second's place, then the second on the first's.
    const firstHost = this.landing(first, b.range);
    if (firstHost !== undefined) {
      this.land(first, b.range, firstHost);
      const secondHost = this.landing(second, a.range);
      if (secondHost !== undefined) {
        this.land(second, a.range, secondHost);
        return [a, b];
      }
      this.lift(first);
    }
    this.land(first, a.range, a.host);
    this.land(second, b.range, b.host);
    return undefined;
  }

  private undoSwap(first: number, second: number, [a, b]: [Place, Place]): void {
    this.lift(first);
    this.lift(second);
    this.land(first, a.range, a.host);
    this.land(second, b.range, b.host);
  }

  private isMultiRange(position: number): boolean {
    return (this.state.tasks[position]?.slots?.length ?? 0) !== 1;
  }

  private rawWith(feasibility: Feasibility): number {
    const saved = this.feasibility;
    this.feasibility = feasibility;
    const raw = this.raw();
    this.feasibility = saved;
    return feasibility.budget ? Number.NaN : raw;
  }

  /**
   * Where the lifted review at `position` would land on `range`: `FREE` (plain free slots), a host's position, or
   * undefined when the write tools refuse it there (outside the window, a conflict, a rule, a buffer).
   */
  private landing(position: number, range: SlotRange): number | undefined {
    const task = this.state.tasks[position];
    if (task?.source !== "task_item" || windowProblem(this.index, range) !== undefined) return undefined;
    let first = FREE;
    let anyFree = false;
    for (let slot = range.start; slot <= range.end; slot += 1) {
      const occupant = this.index.primary[cellOf(this.index, range.day, slot)]!;
      if (occupant === FREE) anyFree = true;
      else if (first === FREE) first = occupant;
      else if (occupant !== first) return undefined;
    }
    let host = FREE;
    if (first !== FREE) {
      const occupant = this.index.tasks[first];
      if (anyFree || occupant?.source !== "event" || !occupant.canEmbed) return undefined;
      for (let slot = range.start; slot <= range.end; slot += 1)
        if (this.index.embedded[cellOf(this.index, range.day, slot)] !== FREE) return undefined;
      host = first;
    }
    if (placementRuleProblem(task, range, this.index.rules) !== undefined) return undefined;
    if (!this.buffersHold(position, range)) return undefined;
    return host;
  }

  /**
   * True when the review at `position`, landing on `range` (not yet marked), breaks no buffer: nothing but its host
   * within its own buffer, and it within no buffer of a review on that day.
   */
  private buffersHold(position: number, range: SlotRange): boolean {
    const rules = this.index.rules;
    if (!rules.buffered) return true;
    const task = this.state.tasks[position]!;
    const own = bufferOf(task, rules);
    for (let offset = 1; offset <= own; offset += 1) {
      for (const slot of [range.start - offset, range.end + offset]) {
        if (slot < 1 || slot > this.slotsPerDay) continue;
        const cell = cellOf(this.index, range.day, slot);
        for (const other of [this.index.primary[cell]!, this.index.embedded[cell]!]) {
          if (other === FREE || other === position) continue;
          const neighbour = this.index.tasks[other];
          const hosts =
            neighbour?.source === "event" &&
            neighbour.canEmbed &&
            neighbour.slots.some(
              (slots) => slots.day === range.day && slots.start <= range.start && slots.end >= range.end,
            );
          if (!hosts) return false;
        }
      }
    }
    for (const other of this.onDay[range.day - 1] ?? []) {
      if (other === position) continue;
      const buffer = bufferOf(this.state.tasks[other]!, rules);
      const around = this.places.get(other)!.range;
      if (buffer === 0) continue;
      const before = range.end >= around.start - buffer && range.start <= around.start - 1;
      const after = range.start <= around.end + buffer && range.end >= around.end + 1;
      if (before || after) return false;
    }
    return true;
  }

  /** Takes the review at `position` off its place (its cells, its day, its loads and costs). */
  private lift(position: number): void {
    const place = this.places.get(position)!;
    const { range } = place;
    const layer = place.host === FREE ? this.index.primary : this.index.embedded;
    for (let slot = range.start; slot <= range.end; slot += 1) {
      const cell = cellOf(this.index, range.day, slot);
      if (layer[cell] === position) layer[cell] = FREE;
    }
    const list = this.onDay[range.day - 1]!;
    list.splice(list.indexOf(position), 1);
    this.addLoad(range.day, -(range.end - range.start + 1));
    this.countSession(this.state.tasks[position] as TaskItem, range.day, -1);
    this.places.delete(position);
    this.recost(range.day);
  }

  /** Puts the review at `position` on `range` (in `host`, or plainly when `FREE`). */
  private land(position: number, range: SlotRange, host: number): void {
    const layer = host === FREE ? this.index.primary : this.index.embedded;
    for (let slot = range.start; slot <= range.end; slot += 1) {
      const cell = cellOf(this.index, range.day, slot);
      if (layer[cell] === FREE) layer[cell] = position;
    }
    this.places.set(position, { range, host });
    this.onDay[range.day - 1]!.push(position);
    this.addLoad(range.day, range.end - range.start + 1);
    this.countSession(this.state.tasks[position] as TaskItem, range.day, 1);
    this.recost(range.day);
  }

  private addLoad(day: number, slots: number): void {
    const before = this.dailyLoad[day - 1]!;
    const after = before + slots;
    this.dailyLoad[day - 1] = after;
    this.loadSum += slots;
    this.loadSquares += after * after - before * before;
  }

  /** Counts a session of the review's class on `day` in or out (`change` 1 or -1), and the strategy's cost. */
  private countSession(task: TaskItem, day: number, change: 1 | -1): void {
    const sessions = this.classes.get(task.categoryId);
    if (!sessions) return;
    this.strategyTotal -= strategyCost(sessions);
    sessions.sessions += change;
    const count = (sessions.perDay.get(day) ?? 0) + change;
    if (count === 0) sessions.perDay.delete(day);
    else sessions.perDay.set(day, count);
    this.strategyTotal += strategyCost(sessions);
  }

  private recost(day: number): void {
    const cost = this.costOfDay(day);
    this.dayTotal += cost - this.dayCost[day - 1]!;
    this.dayCost[day - 1] = cost;
  }

  /** What `day` costs: its heavy slots, its reviews back to back, without a buffer or off the profile, its single free slots. */
  private costOfDay(day: number): number {
    const load = this.dailyLoad[day - 1]!;
    let cost = load > HEAVY_DAY_SLOTS ? (load - HEAVY_DAY_SLOTS) * HEALTH_PENALTIES.heavySlot : 0;
    const busy = (slot: number) => slot >= 1 && slot <= this.slotsPerDay && isBusy(this.index, day, slot);
    const reviews = [...this.onDay[day - 1]!].sort(
      (a, b) => this.places.get(a)!.range.start - this.places.get(b)!.range.start || a - b,
    );
    let previous: SlotRange | undefined;
    for (const position of reviews) {
      const range = this.places.get(position)!.range;
      if (previous && previous.end + 1 === range.start) cost += HEALTH_PENALTIES.backToBack;
      previous = range;
      if (busy(range.start - 1) && busy(range.end + 1)) cost += HEALTH_PENALTIES.noBuffer;
      if (this.profile(this.state.tasks[position] as TaskItem, range)) cost += HEALTH_PENALTIES.offProfile;
    }
    for (let slot = 2; slot < this.slotsPerDay; slot += 1)
      if (!busy(slot) && busy(slot - 1) && busy(slot + 1)) cost += HEALTH_PENALTIES.isolatedSlot;
    return cost;
  }

  /** The feasibility after a change on `days`: the one before when nothing pending could newly fit there. */
  private feasibilityAfter(days: readonly number[]): Feasibility {
    const before = this.feasibility;
    if (this.pending.length === 0) return before;
    if (before.exact && before.placeable === 0) {
      const touched = [...new Set(days)].sort((a, b) => a - b);
      const runs = findFreeRuns(this.index, touched, 1, this.slotsPerDay, 1, true).map(runOf);
      const roomy = runs.filter((run) => run.end - run.start + 1 >= this.shortestPending[run.day - 1]!);
      if (roomy.length === 0) return before;
      const found = searchPlacements(this.pending, runs, { ...this.budget(), dayLoad: this.dayLoad() });
      if (found.placements.length === 0 && found.stop !== "budget") return before;
    }
    return this.searchFeasibility();
  }

  /** The feasibility search over the whole week, as `analyzeHealth` runs it. */
  private searchFeasibility(): Feasibility {
    if (this.pending.length === 0) return { penalty: 0, placeable: 0, exact: true, budget: false };
    const days = Array.from({ length: this.totalDays }, (_, offset) => offset + 1);
    const runs = findFreeRuns(this.index, days, 1, this.slotsPerDay, 1, true).map(runOf);
    const search = searchPlacements(this.pending, runs, { ...this.budget(), dayLoad: this.dayLoad() });
    const placeable = search.placements.length;
    return {
      penalty: placeable * HEALTH_PENALTIES.unplaced + (this.pending.length - placeable) * HEALTH_PENALTIES.cannotFit,
      placeable,
      exact: search.exact,
      budget: search.stop === "budget",
    };
  }

  /** Task items placed per day, as `searchInputOf` counts them (each range). */
  private dayLoad(): Map<number, number> {
    const load = new Map<number, number>();
    this.state.tasks.forEach((task, position) => {
      if (task.source !== "task_item" || task.status !== "placed") return;
      const ranges = this.places.has(position)
        ? [this.places.get(position)!.range, ...(task.slots ?? []).slice(1)]
        : [];
      for (const range of ranges) load.set(range.day, (load.get(range.day) ?? 0) + 1);
    });
    return load;
  }

  /** The canEmbed event whose slots hold `range`, by position (`FREE` when none). */
  private hostAt(range: SlotRange): number {
    return this.index.primary[cellOf(this.index, range.day, range.start)] ?? FREE;
  }
}

function runOf(run: { range: SlotRange; hostId?: string }): SearchRun {
  return { ...run.range, ...(run.hostId ? { hostId: run.hostId } : {}) };
}

/** What a class's strategy costs: sessions sharing a day (steady), or days beyond the first (compact). */
function strategyCost(sessions: ClassSessions): number {
  const off = sessions.strategy === "steady" ? sessions.sessions - sessions.perDay.size : sessions.perDay.size - 1;
  return off > 0 ? off * HEALTH_PENALTIES.offStrategy : 0;
}
