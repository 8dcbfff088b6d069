/**
 * The week as the candidate loop's climb changes it (issue 46, item 5): the health judge's score kept up to date move
 * by move, instead of a fresh `analyzeHealth` over a freshly built index for every change considered, and the write
 * tools' checks made on the model itself, without building the next state or its result text.
 *
 * The score decomposes by day: what a day costs (its heavy slots, reviews back to back, reviews without a buffer,
 * single free slots, reviews off the profile) depends only on that day's cells and reviews, so a move or a swap
 * recomputes the two days it touches and the cached total changes by their difference. What spans days is kept as
 * running sums: the daily loads' sum and sum of squares (the spread, exactly as `spreadOf` computes it), each class's
 * sessions per day (its strategy). Feasibility (how many reviews still to place — pending, and missed ones not made up —
 * still fit) is the placement search's, as in
 * `analyzeHealth`; when nothing pending fitted before a move, only the free room of the days the move touches can
 * change that, and the search is run again on the whole week only when a pending review could fit there.
 *
 * `score()` equals `analyzeHealth(state, preferences).score` of the week the moves made (the property test in
 * tests/schedule/week-model.test.ts checks it over random weeks and moves), and `canMove` / `canSwap` say what the
 * `move` and `swap` tools would accept, with the same checks: the window, conflicts and embedding (`landOne`), the
 * class's and the task's rules (`placementRuleProblem`), buffers (`bufferProblem`), the clock (`startedProblem`: a
 * review in the past stays, none lands in a started slot).
 *
 * The past is fixed, as the judge has it: a placed review whose place has started never moves, so it is counted once,
 * as busy time in the cells, and never as a review (no load, no class session, no cost of its own); the spread is over
 * the days not yet over, and a single free slot that has started costs nothing.
 */
import {
  HEALTH_PENALTIES,
  HEAVY_DAY_SLOTS,
  fewestDaysOf,
  firstOpenDayOf,
  profileOf,
  spreadOf,
  unevenPenalty,
  type HealthPreferences,
} from "./health.js";
import { FREE, buildOccupancyIndex, cloneOccupancyIndex, type OccupancyIndex } from "./occupancy-index.js";
import { searchPlacements, type SearchBudget, type SearchTask } from "./placement-search.js";
import { searchRoomOf } from "./search-room.js";
import {
  breaksPlacementRule,
  bufferOf,
  isFixedByClock,
  isHostOf,
  isStartedByClock,
  withRules,
  type RuleBook,
} from "./rules.js";
import { windowProblem } from "./slot-range.js";
import { hasStarted } from "./window-clock.js";
import type { ScheduleState, SlotRange, TaskItem } from "./state.js";

// Read once: the hot loops below use plain numbers (no module-namespace reads, no closures made per call).
const EMPTY = FREE;
const HEAVY = HEAVY_DAY_SLOTS;
const PENALTY = { ...HEALTH_PENALTIES };

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
  /** The fewest days its placed sessions can share (`fewestDaysOf`: a long task's keep a day each); moves keep it. */
  fewestDays: number;
}

/** A placed review's place in the model: where it is, and the host it sits in (`EMPTY` for none). */
interface Place {
  range: SlotRange;
  host: number;
}

/** The health score of a week, kept up to date as placed reviews move and swap (see the file's comment). */
export class WeekModel {
  readonly state: ScheduleState;
  private readonly index: OccupancyIndex;
  private readonly slotsPerDay: number;
  /** The days the spread is over: those not yet over by the clock (all of them without one). */
  private readonly openDays: number;
  /** Per position: 1 for a placed review whose place has started (fixed: busy time, never judged as a review). */
  private readonly fixed: Uint8Array;
  private readonly profile: (task: TaskItem, range: SlotRange) => string | undefined;
  /** Per position: where a placed review is now (its first range), when it is one. */
  private readonly places: Array<Place | undefined>;
  /** Per day (index 0 is day 1): positions of the placed reviews whose first range is on it. */
  private readonly onDay: number[][];
  private readonly dailyLoad: number[];
  private loadSum = 0;
  private loadSquares = 0;
  private readonly dayCost: number[];
  private dayTotal = 0;
  /**
   * Days whose cost is out of date (a review left or landed there since it was last counted), in the order they went
   * out of date: the first `dirtyCount` of `dirtyDays`, each flagged in `isDirty` (by day). Not a `Set`, whose `clear`
   * makes a new table: a scan's every trial clears it.
   */
  private readonly dirtyDays: Int32Array;
  private dirtyCount = 0;
  private readonly isDirty: Uint8Array;
  /** Per position: 1 for an event reviews may sit in (a cell it holds alone is room, not a commitment). */
  private readonly room: Uint8Array;
  /**
   * Per cell: 1 inside the buffer a done review's class keeps (history keeps its place, and a write keeps its buffer:
   * `bufferProblem`); the placed reviews' buffers are read from where they are now (`onDay`).
   */
  private readonly settledKept: Uint8Array;
  /**
   * Per position, per day (index 0 is day 1), by start slot: 1 when a review starting there is off the profile, 2 when
   * not, 0 unknown. Rows are made on first use, so a long window keeps only the days a review was costed on (a row of
   * the window's every cell per review grew with the window's square).
   */
  private readonly offProfile: Array<Array<Uint8Array | undefined> | undefined>;
  /**
   * Scratch rows for `costOfDay`: the day's busy slots, and its reviews in order (a typed row: an array emptied by
   * `length = 0` lets go of its store, and one was made again for every day costed).
   */
  private readonly busyRow: Uint8Array;
  private readonly sorted: Int32Array;
  /** The places a trial's moved reviews land on (`scratch`), not one made per trial. */
  private readonly trialPlaces: [Place, Place] = [
    { range: { day: 1, start: 1, end: 1 }, host: EMPTY },
    { range: { day: 1, start: 1, end: 1 }, host: EMPTY },
  ];
  /** What `save` keeps of a trial change's two days. */
  private readonly saved = { first: 1, second: 1, firstCost: 0, secondCost: 0, total: 0, strategy: 0, squares: 0 };
  /** `moveTerms`' last answer, and the change counter, review and days it holds for. */
  private readonly terms = { epoch: 0, position: -1, from: 0, to: 0, strategy: 0, uneven: 0 };
  private readonly classes = new Map<string, ClassSessions>();
  private strategyTotal = 0;
  private readonly pending: SearchTask[];
  /** Per day: the shortest pending review its rules allow there (Infinity when none). */
  private readonly shortestPending: number[];
  private readonly budget: () => SearchBudget;
  /**
   * The rules as the week is now: the index's, with each task group's days (no two sessions of a habit or long task on
   * one day) kept up to date as its placed sessions move, as the tools read them from the week they change.
   */
  private readonly rules: RuleBook;
  private readonly groupDays = new Map<string, Map<number, string[]>>();
  private feasibility: Feasibility;
  /**
   * The rescan's memory (see `Trials`): the change counter, each day's last change, and the feasibility's. A trial
   * scored while none of the days it reads has changed since gives the score its parts say, without being made again.
   */
  private epoch = 1;
  private readonly dayChanged: Uint32Array;
  private feasibilityChanged = 0;
  /**
   * Per position, per target day (index 0 is day 1): its trial moves by start slot (`TRIAL_FIELDS` numbers each),
   * made on first use, so a long window keeps only the days its reviews' moves reach.
   */
  private readonly moveTrials: Array<Array<Float64Array | undefined> | undefined>;
  /** Its trial swaps, by `first * tasks + second`. */
  private readonly swapTrials = new Map<number, Float64Array>();
  /**
   * A move to another day scored by its two days' parts, each kept apart (`PART_FIELDS` numbers): per position, its
   * day with it taken out (`sourceParts`); per position, per target day, by start slot, that day with it put in
   * (`targetParts`, made on first use). A part holds while its day has not changed, whatever the other day did, so a
   * review's moves out of a day that changed cost one day's count, and the moves into a day that did not are recalled.
   */
  private readonly sourceParts: Float64Array;
  private readonly targetParts: Array<Array<Float64Array | undefined> | undefined>;

  /** `budget`: each feasibility search's (a function: read when the search runs, so a shared meter's nodes count). */
  constructor(
    state: ScheduleState,
    preferences: HealthPreferences = {},
    budget: SearchBudget | (() => SearchBudget) = {},
  ) {
    this.state = state;
    this.budget = typeof budget === "function" ? budget : () => budget;
    this.index = cloneOccupancyIndex(buildOccupancyIndex(state));
    this.places = Array.from({ length: state.tasks.length }, () => undefined);
    this.offProfile = Array.from({ length: state.tasks.length }, () => undefined);
    this.moveTrials = Array.from({ length: state.tasks.length }, () => undefined);
    this.sourceParts = new Float64Array(state.tasks.length * PART_FIELDS);
    this.targetParts = Array.from({ length: state.tasks.length }, () => undefined);
    const { totalDays, slotsPerDay } = state.window;
    this.slotsPerDay = slotsPerDay;
    for (const [group, days] of this.index.rules.groupDays ?? [])
      this.groupDays.set(group, new Map([...days].map(([day, ids]) => [day, [...ids]])));
    const { groupDays: _fixed, ...ungrouped } = this.index.rules;
    this.rules = { ...ungrouped, groupDays: this.groupDays };
    this.profile = profileOf(state, preferences, this.rules);
    this.openDays = totalDays - firstOpenDayOf(state.window, this.rules.clock) + 1;
    this.fixed = Uint8Array.from(state.tasks, (task) =>
      task.source === "task_item" && isFixedByClock(task, this.rules) ? 1 : 0,
    );
    this.room = Uint8Array.from(state.tasks, (task) => (task.source === "event" && task.canEmbed ? 1 : 0));
    this.settledKept = new Uint8Array(totalDays * slotsPerDay);
    for (const task of state.tasks) {
      const range = task.source === "task_item" && task.status === "done" ? task.slots?.[0] : undefined;
      const buffer = range ? bufferOf(task, this.rules) : 0;
      if (!range || range.day < 1 || range.day > totalDays) continue;
      for (let offset = 1; offset <= buffer; offset += 1)
        for (const slot of [range.start - offset, range.end + offset])
          if (slot >= 1 && slot <= slotsPerDay) this.settledKept[this.cell(range.day, slot)] = 1;
    }
    this.busyRow = new Uint8Array(slotsPerDay + 2);
    this.sorted = new Int32Array(state.tasks.length);
    this.onDay = Array.from({ length: totalDays }, () => []);
    this.dailyLoad = Array.from({ length: totalDays }, () => 0);
    this.dayCost = Array.from({ length: totalDays }, () => 0);
    this.dayChanged = new Uint32Array(totalDays + 1);
    this.dirtyDays = new Int32Array(totalDays + 1);
    this.isDirty = new Uint8Array(totalDays + 2);
    const placedReviews = state.tasks.filter(
      (task, position): task is TaskItem =>
        task.source === "task_item" && task.status === "placed" && !!task.slots?.length && this.fixed[position] === 0,
    );
    for (const category of state.categories)
      if (category.strategy)
        this.classes.set(category.id, {
          strategy: category.strategy,
          sessions: 0,
          perDay: new Map(),
          fewestDays: fewestDaysOf(placedReviews.filter((task) => task.categoryId === category.id)),
        });
    const avoid = new Set(preferences.avoidDays ?? []);
    const pending: SearchTask[] = [];
    state.tasks.forEach((task, position) => {
      if (task.source !== "task_item") return;
      // The reviews still to place, as the judge has them: pending ones, and missed ones not made up.
      if (task.status === "pending" || (task.status === "missed" && !task.slots?.length))
        pending.push(
          withRules(
            { id: task.id, duration: task.duration, ...(avoid.size > 0 ? { notDays: avoid } : {}) },
            task,
            ungrouped,
          ),
        );
      if (task.status !== "placed" || !task.slots?.length) return;
      const first = task.slots[0]!;
      const host = this.index.embedded[this.cell(first.day, first.start)] === position ? this.hostAt(first) : EMPTY;
      this.places[position] = { range: first, host };
      this.onDay[first.day - 1]?.push(position);
      if (this.fixed[position] === 1) return;
      for (const range of task.slots)
        if (range.day >= 1 && range.day <= totalDays) this.dailyLoad[range.day - 1]! += range.end - range.start + 1;
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
    this.flush();
    const spread = spreadOf(this.loadSum, this.loadSquares, this.openDays);
    const penalties = this.dayTotal + this.strategyTotal + this.feasibility.penalty + unevenPenalty(spread);
    return Math.round((100 - penalties) * 10) / 10;
  }

  /** True when the feasibility search stopped at its budget: the score is then no score. */
  stoppedAtBudget(): boolean {
    return this.feasibility.budget;
  }

  /** Where the placed review at `position` is now, or undefined. */
  placeOf(position: number): SlotRange | undefined {
    return this.places[position]?.range;
  }

  /** The host the placed review at `position` sits in now, by position, or undefined. */
  hostOf(position: number): number | undefined {
    const host = this.places[position]?.host;
    return host === undefined || host === EMPTY ? undefined : host;
  }

  /**
   * The week as a card describes a change of the reviews at `positions`: those reviews where they are now (in their
   * hosts), and the hosts; enough for `describeScheduleCall`, built without the rest of the week.
   */
  viewOf(positions: readonly number[]): ScheduleState {
    const tasks = positions.flatMap((position) => {
      const task = this.state.tasks[position] as TaskItem;
      const place = this.places[position];
      if (!place) return [task];
      const { embeddedIn: _host, ...rest } = task;
      const host = place.host === EMPTY ? undefined : this.state.tasks[place.host];
      const moved: TaskItem = { ...rest, slots: [place.range], ...(host ? { embeddedIn: host.id } : {}) };
      return host ? [moved, host] : [moved];
    });
    return { ...this.state, tasks };
  }

  /** Positions of the placed reviews on `day` (by their first range). */
  reviewsOn(day: number): readonly number[] {
    return this.onDay[day - 1] ?? [];
  }

  /** True when `move` would move the placed review at `position` to `range` (its length kept). */
  canMove(position: number, range: SlotRange): boolean {
    const place = this.places[position];
    if (!place || this.isMultiRange(position)) return false;
    this.lift(position);
    const host = this.landing(position, range);
    this.land(position, place.range, place.host, place);
    return host !== undefined;
  }

  /** True when `place` would put the pending review at `position` on `range`. */
  canPlace(position: number, range: SlotRange): boolean {
    const task = this.state.tasks[position];
    return task?.source === "task_item" && task.status === "pending" && this.landing(position, range) !== undefined;
  }

  /** Moves the placed review at `position` to `range` (checked with `canMove` first). */
  move(position: number, range: SlotRange): void {
    const from = this.places[position]?.range.day ?? range.day;
    this.lift(position);
    const host = this.landing(position, range);
    if (host === undefined) throw new Error(`week model: task at ${position} cannot land on ${JSON.stringify(range)}`);
    this.land(position, range, host);
    this.changed(from, range.day);
  }

  /** The score after moving the review at `position` to `range`, or undefined when `move` would refuse it; the week stays as it is. */
  scoreIfMoved(position: number, range: SlotRange): number | undefined {
    const place = this.places[position];
    if (!place || this.isMultiRange(position)) return undefined;
    const from = place.range.day;
    // (A start before the day's first has no part: a row's first numbers are its summary, `bestMoveOn`'s.)
    if (from !== range.day && range.start >= 1) {
      const parted = this.scoreByParts(position, place, range);
      if (parted !== WHOLE) return parted;
    }
    const trials = this.rowOf(this.moveTrials, position, range.day, TRIAL_FIELDS);
    const at = range.start * TRIAL_FIELDS;
    if (this.current(trials, at, from, range.day)) return this.recalled(trials, at);
    if (this.blocked(position, range)) return this.remember(trials, at, from, range.day, undefined);
    this.save(from, range.day);
    this.lift(position);
    const host = this.landing(position, range);
    if (host === undefined) {
      this.land(position, place.range, place.host, place);
      this.restore();
      return this.remember(trials, at, from, range.day, undefined);
    }
    this.land(position, range, host, this.scratch(range, host));
    const raw = this.trialRaw(trials, at, from, range.day);
    this.lift(position);
    this.land(position, place.range, place.host, place);
    this.restore();
    return raw;
  }

  /** The score after swapping the reviews at `first` and `second`, or undefined when `swap` would refuse it. */
  scoreIfSwapped(first: number, second: number): number | undefined {
    const a = this.places[first];
    const b = this.places[second];
    if (!a || !b) return undefined;
    const key = first * this.places.length + second;
    let trials = this.swapTrials.get(key);
    if (!trials) {
      trials = new Float64Array(TRIAL_FIELDS);
      this.swapTrials.set(key, trials);
    }
    const [dayA, dayB] = [a.range.day, b.range.day];
    if (this.current(trials, 0, dayA, dayB)) return this.recalled(trials, 0);
    this.save(dayA, dayB);
    if (!this.swapIfAllowed(first, second, true)) {
      this.restore();
      return this.remember(trials, 0, dayA, dayB, undefined);
    }
    const raw = this.trialRaw(trials, 0, dayA, dayB);
    this.undoSwap(first, second, a, b);
    this.restore();
    return raw;
  }

  /** How many starts of the row `bestMoveOn` last read land (each a move the `move` tool would accept). */
  movesLanding = 0;
  /** The range `bestMoveOn` reads a move's terms on (its day and length: what `moveTerms` reads), not one per call. */
  private readonly boundRange: SlotRange = { day: 1, start: 1, end: 1 };
  /** The range `targetPart` lands a row's starts on in turn. */
  private readonly rowRange: SlotRange = { day: 1, start: 1, end: 1 };

  /**
   * The best raw score `scoreIfMoved` gives among the moves of the placed review at `position` to the starts of
   * `day` (another day than its own), with how many of them land (`movesLanding`) — read off the row of its parts a
   * scan last went through whole (`noteMovesOn`) while `day` has not changed since, and only where each of those moves
   * scores by its parts with the week's own feasibility: they then differ by their target day's cost alone, so the
   * cheapest one's score is the best. Undefined when that does not hold (its moves are scored one by one). A scan's
   * climb asks it of every review and day at each step, and most days are as they were.
   */
  bestMoveOn(position: number, day: number): number | undefined {
    const place = this.places[position];
    if (!place || place.range.day === day || this.isMultiRange(position)) return undefined;
    const parts = this.targetParts[position]?.[day - 1];
    // Its first `PART_FIELDS` numbers (start 0, no start) hold the row's summary: when made, how many land, the least
    // cost of the day with it landed, 1 when a pending review could fit there after one of them.
    if (!parts || parts[0] === 0 || parts[0]! < this.dayChanged[day]!) return undefined;
    const feasibility = this.feasibility;
    if (feasibility.budget) return undefined;
    this.movesLanding = parts[1]!;
    if (parts[1] === 0) return Number.NEGATIVE_INFINITY;
    this.sourcePart(position, place);
    const source = this.sourceParts;
    // As `scoreByParts`: the week's own feasibility holds unless a pending review might newly fit on either day.
    if (
      this.pending.length > 0 &&
      !(feasibility.exact && feasibility.placeable === 0 && source[position * PART_FIELDS + 3] === 0 && parts[3] === 0)
    )
      return undefined;
    this.flush();
    const from = place.range.day;
    const days =
      this.dayTotal -
      this.dayCost[from - 1]! -
      this.dayCost[day - 1]! +
      source[position * PART_FIELDS + 2]! +
      parts[2]!;
    const target = this.boundRange;
    target.day = day;
    target.end = place.range.end - place.range.start + 1;
    const { strategy, uneven } = this.moveTerms(position, from, target);
    return Math.round((100 - (days + strategy + feasibility.penalty + uneven)) * 10) / 10;
  }

  /**
   * After a scan scored every move of the review at `position` to the starts of `day` (another day than its own) one
   * by one: the row's summary for `bestMoveOn`, when each start's part is now current.
   */
  noteMovesOn(position: number, day: number): void {
    const place = this.places[position];
    if (!place || place.range.day === day) return;
    const parts = this.targetParts[position]?.[day - 1];
    if (!parts) return;
    const last = this.slotsPerDay - (place.range.end - place.range.start);
    const changed = this.dayChanged[day]!;
    let landing = 0;
    let least = Number.POSITIVE_INFINITY;
    let room = 0;
    for (let start = 1; start <= last; start += 1) {
      const at = start * PART_FIELDS;
      if (parts[at] === 0 || parts[at]! < changed) return;
      if (parts[at + 1] === 0) continue;
      landing += 1;
      least = Math.min(least, parts[at + 2]!);
      if (parts[at + 3] === 1) room = 1;
    }
    parts[0] = this.epoch;
    parts[1] = landing;
    parts[2] = least;
    parts[3] = room;
  }

  /** The row of `table` for the review at `position` and `day`: `fields` numbers per start slot, made on first use. */
  private rowOf(
    table: Array<Array<Float64Array | undefined> | undefined>,
    position: number,
    day: number,
    fields: number,
  ): Float64Array {
    const days = (table[position] ??= []);
    return (days[day - 1] ??= new Float64Array((this.slotsPerDay + 1) * fields));
  }

  /**
   * The raw score after moving the review at `position` from its day to `range` on another day, from the two days'
   * parts (each made again only when its day changed) and the week's running sums; undefined when `move` would refuse
   * it; `WHOLE` when the feasibility must be searched again (the trial is then made whole).
   */
  private scoreByParts(position: number, place: Place, range: SlotRange): number | undefined | typeof WHOLE {
    const target = this.targetPart(position, place, range);
    const to = range.start * PART_FIELDS;
    if (target[to + 1] === 0) return undefined;
    this.sourcePart(position, place);
    const source = this.sourceParts;
    const from = place.range.day;
    const feasibility = this.feasibility;
    // As `feasibilityAfter`: the week's own feasibility holds unless a pending review might newly fit on either day.
    if (
      this.pending.length > 0 &&
      !(
        feasibility.exact &&
        feasibility.placeable === 0 &&
        source[position * PART_FIELDS + 3] === 0 &&
        target[to + 3] === 0
      )
    )
      return WHOLE;
    if (feasibility.budget) return Number.NaN;
    this.flush();
    // The penalties are multiples of 0.5, so these sums are the trial's exactly.
    const days =
      this.dayTotal -
      this.dayCost[from - 1]! -
      this.dayCost[range.day - 1]! +
      source[position * PART_FIELDS + 2]! +
      target[to + 2]!;
    const { strategy, uneven } = this.moveTerms(position, from, range);
    const penalties = days + strategy + feasibility.penalty + uneven;
    return Math.round((100 - penalties) * 10) / 10;
  }

  /**
   * What a move of the review at `position` from day `from` to `range`'s day costs beyond the two days: the class
   * sessions' cost and the uneven spread's after it. They read the week's sums, the two days' loads and the review's
   * class, none of which its start changes: worked out once for a review and a target day while the week stays as
   * it is (a scan asks for every start of a day in a row), not once per start.
   */
  private moveTerms(position: number, from: number, range: SlotRange): { strategy: number; uneven: number } {
    const terms = this.terms;
    if (terms.epoch === this.epoch && terms.position === position && terms.from === from && terms.to === range.day)
      return terms;
    const length = range.end - range.start + 1;
    const [fromLoad, toLoad] = [this.dailyLoad[from - 1]!, this.dailyLoad[range.day - 1]!];
    const squares =
      this.loadSquares +
      (fromLoad - length) * (fromLoad - length) -
      fromLoad * fromLoad +
      (toLoad + length) * (toLoad + length) -
      toLoad * toLoad;
    terms.epoch = this.epoch;
    terms.position = position;
    terms.from = from;
    terms.to = range.day;
    terms.strategy = this.strategyTotal + this.strategyChange(position, from, range.day);
    terms.uneven = unevenPenalty(spreadOf(this.loadSum, squares, this.openDays));
    return terms;
  }

  /**
   * The row of `targetParts` holding the part of the move of the review at `position` to `range` (another day), made
   * again first when that day changed since: whether it lands, the day's cost then, whether a pending review could fit.
   * The row's every start out of date is made at once (a scan asks them all in a row): the review is lifted off its
   * own day once for them all, and, with nothing pending (no room to read off the cells), each start's landing is
   * costed without being made (`costOfDay`'s `landed`), as a long window's every change makes rows again.
   */
  private targetPart(position: number, place: Place, range: SlotRange): Float64Array {
    const parts = this.rowOf(this.targetParts, position, range.day, PART_FIELDS);
    const made = parts[range.start * PART_FIELDS]!;
    if (made !== 0 && made >= this.dayChanged[range.day]!) return parts;
    const day = range.day;
    const length = range.end - range.start;
    const changed = this.dayChanged[day]!;
    const virtual = this.pending.length === 0;
    const target = this.rowRange;
    this.flush();
    this.lift(position);
    for (let start = 1; start + length <= this.slotsPerDay; start += 1) {
      const at = start * PART_FIELDS;
      if (parts[at] !== 0 && parts[at]! >= changed) continue;
      parts[at] = this.epoch;
      parts[at + 1] = 0;
      target.day = day;
      target.start = start;
      target.end = start + length;
      if (this.blocked(position, target)) continue;
      const host = this.landing(position, target);
      if (host === undefined) continue;
      parts[at + 1] = 1;
      if (virtual) {
        parts[at + 2] = this.costOfDay(day, position, target);
        parts[at + 3] = 0;
        continue;
      }
      this.land(position, target, host, this.scratch(target, host));
      parts[at + 2] = this.costOfDay(day);
      parts[at + 3] = this.roomFor(day) ? 1 : 0;
      this.lift(position);
    }
    this.land(position, place.range, place.host, place);
    // Its days are as they were: their counted costs stand.
    this.clean();
    return parts;
  }

  /** Its `sourceParts` of the review at `position`, made again when its day changed: the day's cost without it, room. */
  private sourcePart(position: number, place: Place): void {
    const parts = this.sourceParts;
    const at = position * PART_FIELDS;
    const day = place.range.day;
    const made = parts[at]!;
    if (made === 0 || made < this.dayChanged[day]! || parts[at + 1] !== day) {
      this.flush();
      this.lift(position);
      parts[at] = this.epoch;
      parts[at + 1] = day;
      parts[at + 2] = this.costOfDay(day);
      parts[at + 3] = this.pending.length > 0 && this.roomFor(day) ? 1 : 0;
      this.land(position, place.range, place.host, place);
      this.clean();
    }
  }

  /** How the class sessions' cost changes when the review at `position` moves from day `from` to day `to`. */
  private strategyChange(position: number, from: number, to: number): number {
    const sessions = this.classes.get((this.state.tasks[position] as TaskItem).categoryId);
    if (!sessions) return 0;
    const { perDay } = sessions;
    const days = perDay.size - ((perDay.get(from) ?? 0) === 1 ? 1 : 0) + ((perDay.get(to) ?? 0) === 0 ? 1 : 0);
    return strategyCostOf(sessions, sessions.sessions, days) - strategyCost(sessions);
  }

  /**
   * The raw score of the trial change made now (on days `first` and `second`), remembered at `at` in `trials` by its
   * parts when the feasibility it takes is the week's own (no search ran for it).
   */
  private trialRaw(trials: Float64Array, at: number, first: number, second: number): number {
    const feasibility = this.feasibilityAfter(first, second);
    const raw = this.rawWith(feasibility);
    if (feasibility !== this.feasibility || feasibility.budget) {
      trials[at] = 0;
      return raw;
    }
    // `raw` flushed the two days: their costs, the class sessions and the loads are the trial's now.
    trials[at] = this.epoch;
    trials[at + 1] = 1;
    trials[at + 2] = this.dayTotal - this.saved.total;
    trials[at + 3] = this.strategyTotal - this.saved.strategy;
    trials[at + 4] = this.loadSquares - this.saved.squares;
    return raw;
  }

  /** Remembers a refused trial (`raw` undefined) at `at`: refusals read only the two days. */
  private remember(trials: Float64Array, at: number, first: number, second: number, raw: undefined): undefined {
    trials[at] = this.epoch;
    trials[at + 1] = 0;
    return raw;
  }

  /** True when the trial remembered at `at` still holds: neither of its days (nor the feasibility it took) changed. */
  private current(trials: Float64Array, at: number, first: number, second: number): boolean {
    const made = trials[at]!;
    return (
      made > 0 &&
      made >= this.dayChanged[first]! &&
      made >= this.dayChanged[second]! &&
      (trials[at + 1] === 0 || made >= this.feasibilityChanged)
    );
  }

  /**
   * The raw score a remembered trial gives on the week as it is now: its days' costs, class sessions and loads are as
   * they were, the rest of the week's are now's (the penalties are multiples of 0.5, so the sums are exact).
   */
  private recalled(trials: Float64Array, at: number): number | undefined {
    if (trials[at + 1] === 0) return undefined;
    this.flush();
    const spread = spreadOf(this.loadSum, this.loadSquares + trials[at + 4]!, this.openDays);
    const penalties =
      this.dayTotal +
      trials[at + 2]! +
      (this.strategyTotal + trials[at + 3]!) +
      this.feasibility.penalty +
      unevenPenalty(spread);
    return Math.round((100 - penalties) * 10) / 10;
  }

  /** A change made to the week on `days`: the trials that read them are made again when next asked. */
  private changed(...days: number[]): void {
    this.epoch += 1;
    for (const day of days) this.dayChanged[day] = this.epoch;
  }

  /** The week's feasibility searched again; a change of it makes the trials that took it again. */
  private refeasible(): void {
    const before = this.feasibility;
    const after = this.searchFeasibility();
    this.feasibility = after;
    if (
      after.penalty !== before.penalty ||
      after.placeable !== before.placeable ||
      after.exact !== before.exact ||
      after.budget !== before.budget
    ) {
      this.epoch += 1;
      this.feasibilityChanged = this.epoch;
    }
  }

  /** The costs of the days `first` and `second` as they are (counted first), to restore once a trial change is undone. */
  private save(first: number, second: number): void {
    this.flush();
    this.saved.first = first;
    this.saved.second = second;
    this.saved.firstCost = this.dayCost[first - 1]!;
    this.saved.secondCost = this.dayCost[second - 1]!;
    this.saved.total = this.dayTotal;
    this.saved.strategy = this.strategyTotal;
    this.saved.squares = this.loadSquares;
  }

  private restore(): void {
    const saved = this.saved;
    this.dayCost[saved.first - 1] = saved.firstCost;
    this.dayCost[saved.second - 1] = saved.secondCost;
    this.dayTotal = saved.total;
    this.clean();
  }

  /** Counts the days changed since they were last counted. */
  private flush(): void {
    // Most calls find nothing to count (a scan's every change asks).
    if (this.dirtyCount === 0) return;
    for (let at = 0; at < this.dirtyCount; at += 1) this.recost(this.dirtyDays[at]!);
    this.clean();
  }

  /** Marks `day`'s cost out of date (once: a day already marked keeps its place in the order). */
  private dirty(day: number): void {
    if (this.isDirty[day] === 1) return;
    this.isDirty[day] = 1;
    this.dirtyDays[this.dirtyCount] = day;
    this.dirtyCount += 1;
  }

  /** Forgets the days out of date (their counted costs stand, or were just counted). */
  private clean(): void {
    for (let at = 0; at < this.dirtyCount; at += 1) this.isDirty[this.dirtyDays[at]!] = 0;
    this.dirtyCount = 0;
  }

  /** Swaps the reviews at `first` and `second` (checked with `scoreIfSwapped` first). */
  swap(first: number, second: number): void {
    const [a, b] = [this.places[first], this.places[second]];
    if (!a || !b || !this.swapIfAllowed(first, second, false))
      throw new Error(`week model: tasks at ${first} and ${second} cannot swap`);
    this.changed(a.range.day, b.range.day);
    this.refeasible();
  }

  /** Keeps a move made with `move` in the feasibility figure. */
  settle(): void {
    this.refeasible();
  }

  /**
   * True when the swap tool would swap the reviews at `first` and `second`, which are then swapped (on the scratch
   * places for a `trial`, undone before the next); false, nothing changed, when refused.
   */
  private swapIfAllowed(first: number, second: number, trial: boolean): boolean {
    const a = this.places[first];
    const b = this.places[second];
    if (!a || !b || first === second || this.isMultiRange(first) || this.isMultiRange(second)) return false;
    if (a.range.end - a.range.start !== b.range.end - b.range.start) return false;
    this.lift(first);
    this.lift(second);
    // As the swap tool lands them: the first on the second's place, then the second on the first's.
    const firstHost = this.landing(first, b.range);
    if (firstHost !== undefined) {
      this.land(first, b.range, firstHost, trial ? this.scratch(b.range, firstHost) : undefined);
      const secondHost = this.landing(second, a.range);
      if (secondHost !== undefined) {
        this.land(second, a.range, secondHost, trial ? this.scratch(a.range, secondHost, 1) : undefined);
        return true;
      }
      this.lift(first);
    }
    this.land(first, a.range, a.host, a);
    this.land(second, b.range, b.host, b);
    return false;
  }

  /** Puts the reviews at `first` and `second` back on the places `a` and `b` they had before a trial swap. */
  private undoSwap(first: number, second: number, a: Place, b: Place): void {
    this.lift(first);
    this.lift(second);
    this.land(first, a.range, a.host, a);
    this.land(second, b.range, b.host, b);
  }

  /** True when something other than the review at `position`, and no host, takes a slot of `range` (a quick refusal). */
  private blocked(position: number, range: SlotRange): boolean {
    if (windowProblem(this.index, range) !== undefined) return true;
    for (let slot = range.start; slot <= range.end; slot += 1) {
      const occupant = this.index.primary[this.cell(range.day, slot)]!;
      if (occupant === EMPTY || occupant === position) continue;
      const task = this.index.tasks[occupant];
      if (task?.source !== "event" || !task.canEmbed) return true;
    }
    return false;
  }

  private cell(day: number, slot: number): number {
    return (day - 1) * this.slotsPerDay + slot - 1;
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
   * Where the lifted review at `position` would land on `range`: `EMPTY` (plain free slots), a host's position, or
   * undefined when the write tools refuse it there (outside the window, a conflict, a rule, a buffer).
   */
  private landing(position: number, range: SlotRange): number | undefined {
    const task = this.state.tasks[position];
    if (task?.source !== "task_item" || windowProblem(this.index, range) !== undefined) return undefined;
    let first = EMPTY;
    let anyFree = false;
    for (let slot = range.start; slot <= range.end; slot += 1) {
      const occupant = this.index.primary[this.cell(range.day, slot)]!;
      if (occupant === EMPTY) anyFree = true;
      else if (first === EMPTY) first = occupant;
      else if (occupant !== first) return undefined;
    }
    let host = EMPTY;
    if (first !== EMPTY) {
      const occupant = this.index.tasks[first];
      if (anyFree || occupant?.source !== "event" || !occupant.canEmbed) return undefined;
      for (let slot = range.start; slot <= range.end; slot += 1)
        if (this.index.embedded[this.cell(range.day, slot)] !== EMPTY) return undefined;
      host = first;
    }
    // The clock (issue 47): a review in the past stays, and none lands in a slot that has started.
    const rules = this.rules;
    if (rules.clock && (isFixedByClock(task, rules) || isStartedByClock(range, rules))) return undefined;
    if (breaksPlacementRule(task, range, rules)) return undefined;
    if (!this.buffersHold(position, range)) return undefined;
    return host;
  }

  /**
   * True when the review at `position`, landing on `range` (not yet marked), breaks no buffer: nothing but its host
   * within its own buffer, and it within no buffer of a review on that day (placed, or done).
   */
  private buffersHold(position: number, range: SlotRange): boolean {
    const rules = this.rules;
    if (!rules.buffered) return true;
    const task = this.state.tasks[position]!;
    const own = bufferOf(task, rules);
    // Each slot within its buffer before and after it, each layer of the cell (no array made per slot: a scan's every
    // landing asks).
    for (let offset = 1; offset <= own; offset += 1) {
      for (let side = 0; side < 2; side += 1) {
        const slot = side === 0 ? range.start - offset : range.end + offset;
        if (slot < 1 || slot > this.slotsPerDay) continue;
        const cell = this.cell(range.day, slot);
        if (!this.hosts(this.index.primary[cell]!, position, range)) return false;
        if (!this.hosts(this.index.embedded[cell]!, position, range)) return false;
      }
    }
    for (let slot = range.start; slot <= range.end; slot += 1)
      if (this.settledKept[this.cell(range.day, slot)] === 1) return false;
    for (const other of this.onDay[range.day - 1] ?? []) {
      if (other === position) continue;
      const buffer = bufferOf(this.state.tasks[other]!, rules);
      const around = this.places[other]!.range;
      if (buffer === 0) continue;
      const before = range.end >= around.start - buffer && range.start <= around.start - 1;
      const after = range.start <= around.end + buffer && range.end >= around.end + 1;
      if (before || after) return false;
    }
    return true;
  }

  /** True when `other` (a cell's occupant) is none, the review at `position` itself, or an event that holds `range`. */
  private hosts(other: number, position: number, range: SlotRange): boolean {
    if (other === EMPTY || other === position) return true;
    const neighbour = this.index.tasks[other];
    return neighbour !== undefined && isHostOf(neighbour, range);
  }

  /**
   * A scratch place of the model (`which`: 0, or 1 for a swap's second review), now `range` in `host`: a trial's
   * landing, lifted again before the next.
   */
  private scratch(range: SlotRange, host: number, which: 0 | 1 = 0): Place {
    const place = this.trialPlaces[which];
    place.range = range;
    place.host = host;
    return place;
  }

  /** Takes the review at `position` off its place (its cells, its day, its loads and costs). */
  private lift(position: number): void {
    const place = this.places[position]!;
    const { range } = place;
    const layer = place.host === EMPTY ? this.index.primary : this.index.embedded;
    for (let slot = range.start; slot <= range.end; slot += 1) {
      const cell = this.cell(range.day, slot);
      if (layer[cell] === position) layer[cell] = EMPTY;
    }
    // Taken out of its day's list in place (the order of the rest kept), without the array `splice` returns; the last
    // one dropped with `pop`, not by setting `length`, which lets go of the list's store when it empties (a day of one
    // review: its every trial made the store again).
    const list = this.onDay[range.day - 1]!;
    const found = list.indexOf(position);
    for (let at = found < 0 ? list.length - 1 : found; at >= 0 && at < list.length - 1; at += 1)
      list[at] = list[at + 1]!;
    list.pop();
    if (this.fixed[position] === 0) {
      this.addLoad(range.day, -(range.end - range.start + 1));
      this.countSession(this.state.tasks[position] as TaskItem, range.day, -1);
    }
    this.groupDay(position, range.day, -1);
    this.places[position] = undefined;
    this.dirty(range.day);
  }

  /**
   * Puts the review at `position` on `range` (in `host`, or plainly when `EMPTY`), as `place` when given (the place it
   * had, put back after a trial; or the model's scratch place for a trial's own landing), so a trial makes no place.
   */
  private land(position: number, range: SlotRange, host: number, place?: Place): void {
    const layer = host === EMPTY ? this.index.primary : this.index.embedded;
    for (let slot = range.start; slot <= range.end; slot += 1) {
      const cell = this.cell(range.day, slot);
      if (layer[cell] === EMPTY) layer[cell] = position;
    }
    this.places[position] = place ?? { range, host };
    this.onDay[range.day - 1]!.push(position);
    if (this.fixed[position] === 0) {
      this.addLoad(range.day, range.end - range.start + 1);
      this.countSession(this.state.tasks[position] as TaskItem, range.day, 1);
    }
    this.groupDay(position, range.day, 1);
    this.dirty(range.day);
  }

  /** Counts the grouped review at `position` on `day` in or out (`change` 1 or -1) of its group's days. */
  private groupDay(position: number, day: number, change: 1 | -1): void {
    const task = this.state.tasks[position] as TaskItem;
    if (!task.group || task.group.sameDay) return;
    let days = this.groupDays.get(task.group.id);
    if (!days) {
      days = new Map();
      this.groupDays.set(task.group.id, days);
    }
    const ids = (days.get(day) ?? []).filter((id) => id !== task.id);
    if (change === 1) ids.push(task.id);
    if (ids.length > 0) days.set(day, ids);
    else days.delete(day);
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

  /**
   * What `day` costs: its heavy slots, its reviews back to back, without a buffer or off the profile, its single free
   * slots. With `landed`, as it would with the review at `extra` (lifted) landed there, without landing it.
   */
  private costOfDay(day: number, extra = -1, landed?: SlotRange): number {
    const load = this.dailyLoad[day - 1]! + (landed && this.fixed[extra] === 0 ? landed.end - landed.start + 1 : 0);
    let cost = load > HEAVY ? (load - HEAVY) * PENALTY.heavySlot : 0;
    const slots = this.slotsPerDay;
    const busy = this.busyRow;
    const base = (day - 1) * slots;
    const { primary, embedded } = this.index;
    // Busy: an event that holds no reviews, or a review (`isBusy`); slots 0 and past the day are not.
    for (let slot = 1; slot <= slots; slot += 1) {
      const cell = base + slot - 1;
      const occupant = primary[cell]!;
      busy[slot] = embedded[cell] !== EMPTY || (occupant !== EMPTY && this.room[occupant] === 0) ? 1 : 0;
    }
    if (landed) for (let slot = landed.start; slot <= landed.end; slot += 1) busy[slot] = 1;
    // The day's reviews by start (then by position, as the judge's stable sort leaves them).
    const order = this.sorted;
    const list = this.onDay[day - 1]!;
    const listed = list.length;
    let count = 0;
    for (let next = 0; next < (landed ? listed + 1 : listed); next += 1) {
      const position = next < listed ? list[next]! : extra;
      // A review in the past is busy time (in `busy` above), not a review to judge.
      if (this.fixed[position] === 1) continue;
      const start = this.rangeIn(position, extra, landed).start;
      let at = count;
      while (at > 0) {
        const before = order[at - 1]!;
        const beforeStart = this.rangeIn(before, extra, landed).start;
        if (beforeStart < start || (beforeStart === start && before < position)) break;
        order[at] = before;
        at -= 1;
      }
      order[at] = position;
      count += 1;
    }
    let previousEnd = -2;
    for (let next = 0; next < count; next += 1) {
      const position = order[next]!;
      const range = this.rangeIn(position, extra, landed);
      if (previousEnd + 1 === range.start) cost += PENALTY.backToBack;
      previousEnd = range.end;
      if (busy[range.start - 1] === 1 && busy[range.end + 1] === 1) cost += PENALTY.noBuffer;
      if (this.isOffProfile(position, range)) cost += PENALTY.offProfile;
      if (this.sharesGroupDay(position, order, count)) cost += PENALTY.sameDaySession;
    }
    const clock = this.rules.clock;
    for (let slot = 2; slot < slots; slot += 1)
      if (busy[slot] === 0 && busy[slot - 1] === 1 && busy[slot + 1] === 1 && !hasStarted(day, slot, clock))
        cost += PENALTY.isolatedSlot;
    return cost;
  }

  /** Where the review at `position` is for `costOfDay`: `landed` for the review at `extra`, else its place. */
  private rangeIn(position: number, extra: number, landed: SlotRange | undefined): SlotRange {
    return position === extra && landed ? landed : this.places[position]!.range;
  }

  /**
   * True when the review at `position` follows another of its group (kept apart) among the day's first `count` in
   * `order` (the judge's).
   */
  private sharesGroupDay(position: number, order: Int32Array, count: number): boolean {
    const group = (this.state.tasks[position] as TaskItem).group;
    if (!group || group.sameDay) return false;
    for (let next = 0; next < count; next += 1) {
      const other = order[next]!;
      if (other === position) return false;
      const otherGroup = (this.state.tasks[other] as TaskItem).group;
      if (otherGroup?.id === group.id && !otherGroup.sameDay) return true;
    }
    return false;
  }

  /** True when the review at `position` on `range` is off the profile (`profileOf`), remembered per place. */
  private isOffProfile(position: number, range: SlotRange): boolean {
    const days = (this.offProfile[position] ??= []);
    let known = days[range.day - 1];
    if (!known) {
      known = new Uint8Array(this.slotsPerDay + 1);
      days[range.day - 1] = known;
    }
    if (known[range.start] === 0)
      known[range.start] = this.profile(this.state.tasks[position] as TaskItem, range) ? 1 : 2;
    return known[range.start] === 1;
  }

  /** The feasibility after a change on `days`: the one before when nothing pending could newly fit there. */
  private feasibilityAfter(first: number, second: number): Feasibility {
    const before = this.feasibility;
    if (this.pending.length === 0) return before;
    if (before.exact && before.placeable === 0) {
      if (!this.roomFor(first) && (first === second || !this.roomFor(second))) return before;
      // Something pending might newly fit there: the full search says (a probe of the two days' free runs alone would
      // miss room the judge's search finds, a buffer reaching past a day's edge).
    }
    return this.searchFeasibility();
  }

  /** True when some run of free room on `day` (plain, or in a host) is as long as a pending review its rules allow there. */
  private roomFor(day: number): boolean {
    const shortest = this.shortestPending[day - 1]!;
    if (shortest === Number.POSITIVE_INFINITY) return false;
    const { primary, embedded } = this.index;
    const base = (day - 1) * this.slotsPerDay;
    let length = 0;
    let key = -2;
    for (let slot = 1; slot <= this.slotsPerDay; slot += 1) {
      const cell = base + slot - 1;
      const occupant = primary[cell]!;
      // As find_free keys a cell: plainly free, free inside a host (that host's), or blocked.
      const cellKey =
        occupant === EMPTY ? EMPTY : this.room[occupant] === 1 && embedded[cell] === EMPTY ? occupant : -2;
      length = cellKey !== -2 && cellKey === key ? length + 1 : cellKey === -2 ? 0 : 1;
      key = cellKey;
      if (length >= shortest) return true;
    }
    return false;
  }

  /** The feasibility search over the whole week, as `analyzeHealth` runs it. */
  private searchFeasibility(): Feasibility {
    if (this.pending.length === 0) return { penalty: 0, placeable: 0, exact: true, budget: false };
    // The room as the full judge reads it (searchInputOf): the index's cells, and the buffers of the reviews where
    // the model has them now.
    const room = searchRoomOf({ ...this.index, tasks: this.currentTasks() });
    const search = searchPlacements(this.pendingNow(), room, { ...this.budget(), dayLoad: this.dayLoad() });
    const placeable = search.placements.length;
    return {
      penalty: placeable * HEALTH_PENALTIES.unplaced + (this.pending.length - placeable) * HEALTH_PENALTIES.cannotFit,
      placeable,
      exact: search.exact,
      budget: search.stop === "budget",
    };
  }

  /** The pending reviews kept off the days their groups' placed sessions are on now (as `withRules` keeps them). */
  private pendingNow(): SearchTask[] {
    return this.pending.map((search) => {
      const days = search.group === undefined ? undefined : this.groupDays.get(search.group);
      if (!days || days.size === 0) return search;
      const taken = [...days].filter(([, ids]) => ids.some((id) => id !== search.id)).map(([day]) => day);
      return taken.length === 0 ? search : { ...search, notDays: new Set([...(search.notDays ?? []), ...taken]) };
    });
  }

  /** The week's tasks with the reviews where the model has them now. */
  private currentTasks(): ScheduleState["tasks"] {
    return this.state.tasks.map((task, position) => {
      const place = this.places[position];
      return place && task.source === "task_item"
        ? { ...task, slots: [place.range, ...(task.slots ?? []).slice(1)] }
        : task;
    });
  }

  /** Task items placed per day, as `searchInputOf` counts them (each range). */
  private dayLoad(): Map<number, number> {
    const load = new Map<number, number>();
    this.state.tasks.forEach((task, position) => {
      if (task.source !== "task_item" || task.status !== "placed") return;
      const ranges =
        this.places[position] !== undefined ? [this.places[position]!.range, ...(task.slots ?? []).slice(1)] : [];
      for (const range of ranges) load.set(range.day, (load.get(range.day) ?? 0) + 1);
    });
    return load;
  }

  /** The canEmbed event whose slots hold `range`, by position (`EMPTY` when none). */
  private hostAt(range: SlotRange): number {
    return this.index.primary[this.cell(range.day, range.start)] ?? EMPTY;
  }
}

/**
 * Numbers a remembered trial keeps (`Trials` in the class): when it was made (the change counter; 0 for never), 1 when
 * it was scored (0: refused), and its days' cost, class sessions' cost and squared loads less the week's then.
 */
const TRIAL_FIELDS = 5;

/**
 * Numbers a move's part keeps (`sourceParts`, `targetParts` in the class): when it was made (the change counter; 0 for
 * never), then a source's day, its cost without the review, 1 when a pending review could fit there; a target's 1 when
 * the review lands (0: refused), the day's cost with it, 1 when a pending review could fit there.
 */
const PART_FIELDS = 4;

/** What `scoreByParts` gives when the move's trial must be made whole (a feasibility search). */
const WHOLE = Symbol("whole");

/** What a class's strategy costs: sessions sharing a day (steady), or days beyond the fewest they need (compact). */
function strategyCost(sessions: ClassSessions): number {
  return strategyCostOf(sessions, sessions.sessions, sessions.perDay.size);
}

/** What `kind`'s strategy costs with `sessions` on `days` days. */
function strategyCostOf(kind: ClassSessions, sessions: number, days: number): number {
  const off = kind.strategy === "steady" ? sessions - days : days - kind.fewestDays;
  return off > 0 ? off * HEALTH_PENALTIES.offStrategy : 0;
}
