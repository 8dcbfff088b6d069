/**
 * The backend decides, the model chooses (seed 003): candidates the backend generates and scores, for the model to
 * pick from by id instead of searching the week itself.
 *
 * - `proposeArrangement` (arrangement.ts): the exact-when-possible placement search places what is pending — one
 *   proposal of `place` writes, the most reviews that fit, on the quietest days first;
 * - `proposeCandidates`: single changes scanned from the current week — each placed review moved to every slot it
 *   fits, each pair of reviews of one length swapped, each pending review placed — each scored by re-running the
 *   health judge on the changed week; the top k that raise the score, best first.
 *
 * A candidate is the real tool calls it stands for (`writes`), applied through the batch card like any write; its
 * score is what the judge gives the week once they apply. Nothing here changes the week.
 */
import { saySummary } from "./summary-phrases.js";
import { placeName } from "./calendar.js";
import { describeScheduleCall } from "./describe-call.js";
import { analyzeHealth, healthSteps, type HealthPreferences } from "./health.js";
import {
  DEFAULT_NODE_LIMIT,
  pastDeadline,
  placementSteps,
  searchInputOf,
  startBudget,
  type PlannedPlacement,
  type SearchBudget,
} from "./placement-search.js";
import { buildOccupancyIndex } from "./occupancy-index.js";
import { commitPlacements, commitUnplaces, resolvePlacements } from "./placement.js";
import { deadlinePassed, isFixedByClock, ruleBookOf, withRules, type RuleBook, type SearchTask } from "./rules.js";
import { rangeFrom } from "./slot-range.js";
import type { ScheduleState, SlotRange, TaskItem } from "./state.js";
import { BATCH_MOVE_LIMIT, batchMoveTool } from "./tools/batch-move.js";
import { moveTool } from "./tools/move.js";
import { placeTool } from "./tools/place.js";
import { swapTool } from "./tools/swap.js";
import { unplaceTool } from "./tools/unplace.js";
import { finish, finishAsync, type Steps } from "./steps.js";
import { swapPartners } from "./swap-partners.js";
import { WeekModel } from "./week-model.js";
import type { CandidateListing, ProposedCandidate } from "../domain.js";

/** A change smaller than this is no gain (the loop's ε). */
export const MIN_GAIN = 0.05;

/** Candidates `propose_candidates` lists by default, and at most. */
export const DEFAULT_CANDIDATES = 5;
export const MAX_CANDIDATES = 10;

/** A candidate of the schedule: its writes, what it does in words, and the score it leaves. */
export interface ScheduleCandidate extends ProposedCandidate {
  kind: "arrangement" | "move" | "swap" | "place" | "chain";
  /** The health score once its writes apply. */
  scoreAfter: number;
  /** `scoreAfter` minus the current score. */
  delta: number;
  /** An arrangement's placements, where each task goes (day, first and last slot). */
  places?: PlannedPlacement[];
}

/** What `propose_*` gives as data: the listing `choose_candidate` picks from. */
export interface ScheduleListing extends CandidateListing {
  candidates: ScheduleCandidate[];
  /** The week's score now. */
  score: number;
  /** An arrangement's: placements that fit beyond its card, proposed once its writes apply and the week is listed again. */
  later?: number;
  /** An arrangement's: the pending tasks in scope it gives no place, each with why. */
  left?: Array<{ id: string; why: string }>;
  /** "budget" when a search or the polishing stopped at its budget: the best found so far, nothing claimed proved. */
  stop?: "budget";
  /** With `stop`, what stopped, when only the polishing did (the search's claims stand); `BUDGET_NOTE` without. */
  budgetNote?: string;
}

/**
 * What a listing may spend beyond the search's own budget: the single changes it scores (`stepLimit`, default
 * 200,000) and the search nodes those scorings take together (`scoringNodes`, default 2,000,000) — so the polishing
 * of a big week is bounded however many tasks it holds.
 */
export interface ChangeBudget extends SearchBudget {
  stepLimit?: number;
  scoringNodes?: number;
}

const DEFAULT_STEP_LIMIT = 200_000;
const DEFAULT_SCORING_NODES = 2_000_000;

/** The work of one listing: the search budget (its deadline fixed at the start), the steps and scoring nodes left. */
export class ChangeWork {
  /** The search budget of the listing's own searches (its deadline). */
  readonly search: SearchBudget;
  private readonly limit: number;
  private readonly scoringNodes: number;
  private readonly meter = { nodes: 0 };
  private taken = 0;
  /** True once the steps, the scoring nodes or the deadline ran out. */
  exhausted = false;

  constructor(budget: ChangeBudget = {}) {
    const { stepLimit, scoringNodes, ...search } = startBudget(budget);
    this.search = search;
    this.limit = stepLimit ?? DEFAULT_STEP_LIMIT;
    this.scoringNodes = scoringNodes ?? DEFAULT_SCORING_NODES;
  }

  /** The search's budget without its deadline (bounded by its nodes): the headline score of what a listing proposes. */
  undated(): SearchBudget {
    const { deadline: _deadline, ...rest } = this.search;
    return rest;
  }

  /** The search budget of one scoring: the search's, within the scoring nodes left. */
  scoring(): SearchBudget {
    const left = Math.max(0, this.scoringNodes - this.meter.nodes);
    return {
      ...this.search,
      nodeLimit: Math.min(this.search.nodeLimit ?? DEFAULT_NODE_LIMIT, left),
      meter: this.meter,
    };
  }

  /** Takes one step: false (and exhausted from then on) when none is left, nor scoring nodes, or the deadline passed. */
  take(): boolean {
    return this.takeMany(1);
  }

  /**
   * Takes `count` steps in one go (false, and exhausted from then on, when the limit, the scoring nodes or the deadline
   * refuses one of them): a listing's climbs pass over thousands of days whose moves they count without scoring them.
   * The clock is read when one of the steps is a multiple of 1,024 (the first one's included), as one by one.
   */
  takeMany(count: number): boolean {
    if (count <= 0) return true;
    if (this.exhausted) return false;
    // The step among them at which `take` reads the clock (a multiple of 1,024), when one comes before the limit.
    const clock = Math.ceil(this.taken / 1024) * 1024;
    if (
      this.taken + count > this.limit ||
      this.meter.nodes >= this.scoringNodes ||
      (clock < this.taken + count && pastDeadline(this.search))
    ) {
      // (Once exhausted, no step is taken again: how many were is not read.)
      this.exhausted = true;
      return false;
    }
    this.taken += count;
    return true;
  }
}

type Write = { name: string; arguments: Record<string, unknown> };

/** The writes that change where reviews are: what `applyWrites` applies, and what a week picture draws. */
const PLACE_WRITES = {
  place: placeTool,
  move: moveTool,
  swap: swapTool,
  unplace: unplaceTool,
  batch_move: batchMoveTool,
} as const;

/** True for a write `applyWrites` applies (place, move, swap, unplace, batch_move). */
export function isPlaceWrite(name: string): name is keyof typeof PLACE_WRITES {
  return Object.hasOwn(PLACE_WRITES, name);
}

/** The week after `writes`, applied in order with the real tools, or undefined when one of them fails. */
export function applyWrites(state: ScheduleState, writes: readonly Write[]): ScheduleState | undefined {
  return finish(writesApplied(state, writes));
}

/** Writes a long-running search applies between two pauses (each checks and copies the week: a long window's cost). */
const WRITES_PER_PAUSE = 16;

/** `applyWrites` as work that pauses now and then (`steps.ts`): a card of a long window's hundreds of places. */
export function* writesApplied(state: ScheduleState, writes: readonly Write[]): Steps<ScheduleState | undefined> {
  let current = state;
  for (const [index, write] of writes.entries()) {
    if (index > 0 && index % WRITES_PER_PAUSE === 0) yield;
    const tool = isPlaceWrite(write.name) ? PLACE_WRITES[write.name] : undefined;
    if (!tool) return undefined;
    const ran = (tool.run as (state: ScheduleState, args: unknown) => { ok: boolean; state?: ScheduleState })(
      current,
      write.arguments,
    );
    if (!ran.ok || !ran.state) return undefined;
    current = ran.state;
  }
  return current;
}

/**
 * `writesApplied` for `place` writes of pending (or missed) reviews, each once — a search's placements: checked
 * together in one batch with the checks the place tool makes of each (`resolvePlacements`, which lands them in turn,
 * then checks the rules and buffers of all that landed) and committed at once, instead of a copy of the week and its
 * index per write (a long window's hundreds of places made that quadratic). When the batch is refused, or a write is
 * not such a place, the writes are applied one by one, so what comes back is the tools' either way.
 */
export function* placesApplied(state: ScheduleState, writes: readonly Write[]): Steps<ScheduleState | undefined> {
  const index = buildOccupancyIndex(state);
  const positions = new Map(state.tasks.map((task, position) => [task.id, position]));
  const requests: Array<{ position: number; range: SlotRange }> = [];
  const seen = new Set<number>();
  for (const write of writes) {
    const position = positions.get(String(write.arguments.task_id));
    const task = position === undefined ? undefined : state.tasks[position];
    const [day, start] = [write.arguments.day, write.arguments.slot_start];
    if (
      write.name !== "place" ||
      position === undefined ||
      seen.has(position) ||
      task?.source !== "task_item" ||
      (task.status !== "pending" && task.status !== "missed") ||
      !Number.isInteger(day) ||
      !Number.isInteger(start)
    )
      return yield* writesApplied(state, writes);
    seen.add(position);
    requests.push({ position, range: rangeFrom(Number(day), Number(start), task.duration) });
  }
  yield;
  const outcome = resolvePlacements(index, requests);
  if (!outcome.ok) return yield* writesApplied(state, writes);
  return commitPlacements(state, index, outcome.placements);
}

/**
 * The top `k` changes that raise the week's score, best first (ties: placements, moves, swaps, then by summary): single
 * changes, one per task, and — when several single changes in a row keep raising it — their chain as one
 * `batch_move` (the reviews moved to where the chain leaves them, checked together).
 */
export function proposeCandidates(state: ScheduleState, options: CandidateOptions = {}): ScheduleListing {
  return finish(candidateSteps(state, options));
}

/** `proposeCandidates` in slices that give the event loop back (`finishAsync`): the same listing. */
export function proposeCandidatesAsync(state: ScheduleState, options: CandidateOptions = {}): Promise<ScheduleListing> {
  return finishAsync(candidateSteps(state, options));
}

/** What a listing keeps to: how many candidates, the user's preferences and rejected places, its budget. */
export interface CandidateOptions {
  k?: number;
  preferences?: HealthPreferences;
  avoid?: readonly AvoidedPlace[];
  placePending?: boolean;
  /**
   * With `placePending` false, pending reviews that may be placed all the same wherever they fit: those the task tried
   * to place and the tool refused (`retry_pending`).
   */
  retryPending?: ReadonlySet<string>;
  /** Only these placed reviews may move or swap (a pending one may still be placed); default: any. */
  movable?: ReadonlySet<string>;
  budget?: ChangeBudget;
}

/** `proposeCandidates` as work that pauses now and then (`steps.ts`). */
export function* candidateSteps(state: ScheduleState, options: CandidateOptions = {}): Steps<ScheduleListing> {
  const preferences = options.preferences ?? {};
  const k = Math.min(MAX_CANDIDATES, Math.max(1, options.k ?? DEFAULT_CANDIDATES));
  const work = new ChangeWork(options.budget);
  const report = yield* healthSteps(state, preferences, work.search);
  yield;
  // Hard limits: no review goes to a day the user avoids, or back to a place they rejected; what may not move stays.
  const blocks = (place: AvoidedPlace, target: Required<AvoidedPlace>) =>
    place.task_id === target.task_id &&
    (place.day === undefined || place.day === target.day) &&
    (place.slot_start === undefined || place.slot_start === target.slot_start);
  // (Changes only move what is placed; a review pending now is placed, never moved, by any change made from here.)
  const pending = new Set(
    state.tasks.filter((task) => task.source === "task_item" && task.status === "pending").map((task) => task.id),
  );
  // The past is fixed (issue 47): a review whose place has started stays, whatever else may move.
  const book = ruleBookOf(state);
  const fixed = new Set(state.tasks.filter((task) => isFixedByClock(task, book)).map((task) => task.id));
  const stays = (id: string) =>
    fixed.has(id) || (options.movable !== undefined && !options.movable.has(id) && !pending.has(id));
  const avoidDays = preferences.avoidDays ?? [];
  const avoided = options.avoid ?? [];
  const fits: Fits = (target) => {
    if (stays(target.task_id) || avoidDays.includes(target.day)) return false;
    for (const place of avoided) if (blocks(place, target)) return false;
    return true;
  };
  const allowedIn = (week: ScheduleState) => (writes: readonly Write[]) => targetsOf(week, writes).every(fits);
  // Without `placePending`, only what is placed moves: refining never places what the arrangement left pending — but
  // a review the task's own placing left pending, refused by the tool, it places where it fits now.
  const retried = (candidate: Omit<ScheduleCandidate, "id">) =>
    tasksOf(candidate.writes).every((id) => options.retryPending?.has(id) === true);
  const singles = (yield* singleChanges(state, report.score, preferences, work, fits)).filter(
    (candidate) => options.placePending !== false || candidate.kind !== "place" || retried(candidate),
  );
  const chain = yield* chainOf(state, report.score, preferences, fits, allowedIn, work);
  // The placed reviews arranged again from scratch (a way out of a week single changes cannot improve further), with
  // the pending reviews they may make room for (issue 46): what the user pinned or the clock fixed stays in the room.
  const pinned = new Set(
    avoided.filter((place) => place.day === undefined && place.slot_start === undefined).map((place) => place.task_id),
  );
  const open = openReviewsOf(state, book, report, options.placePending !== false, options.retryPending).filter(
    (task) => !pinned.has(task.id),
  );
  const scope: Rearranging = {
    moves: (id) => !stays(id) && !pinned.has(id),
    open,
    limits: (id) => rejectedOf(avoided, id),
  };
  const fresh = yield* rearrangementOf(state, report.score, preferences, fits, allowedIn, work, scope);
  const best = singles[0]?.delta ?? 0;
  const most = Math.max(0, ...singles.map(placesIn));
  // A change that places more comes first, whatever the health score says of it: a placed review is what was asked.
  const first = (a: Omit<ScheduleCandidate, "id">, b: Omit<ScheduleCandidate, "id">) =>
    placesIn(b) - placesIn(a) || b.delta - a.delta;
  const wholesale = [chain, fresh]
    .filter(
      (candidate): candidate is Omit<ScheduleCandidate, "id"> =>
        candidate !== undefined && (candidate.delta > best || placesIn(candidate) > most),
    )
    .sort(first);
  // Two wholesale changes ending in the same week are one candidate.
  const distinct = wholesale.filter(
    (candidate, index) => index === 0 || JSON.stringify(candidate.writes) !== JSON.stringify(wholesale[0]!.writes),
  );
  const ranked = [...distinct, ...singles].sort(first);
  const candidates = ranked.slice(0, k).map((candidate, index) => ({ id: `c${index + 1}`, ...candidate }));
  const forced = forcedText(report, state, preferences);
  const stopped = work.exhausted || report.feasibility.stop === "budget";
  const listing: ScheduleListing = {
    candidates,
    score: report.score,
    open: pending.size,
    ...(forced ? { forced } : {}),
    ...(stopped ? { stop: "budget" as const } : {}),
  };
  return candidates.length > 0 ? listing : { ...listing, empty: "no single move, swap or placement raises the score" };
}

/**
 * What no change can fix: the reviews proved not to fit — `report`'s (the health judge's, of `state`), kept only when
 * no arrangement of the reviews still ahead places more of them (`moreFitRearranged`): a review that fits nowhere
 * beside the others as they are placed is not forced when moving them makes room (issue 46 item 2). A review whose
 * deadline has passed is forced whatever moves, and named so ("x (deadline passed)"), never as one that fits nowhere.
 */
export function forcedText(
  report: ReturnType<typeof analyzeHealth>,
  state: ScheduleState,
  preferences: HealthPreferences = {},
): string | undefined {
  const forced = report.issues.filter((issue) => issue.forced);
  if (forced.length === 0) return undefined;
  const book = ruleBookOf(state);
  const roomless = forced.filter(
    (issue) => !issue.tasks.every((id) => deadlinePassed(state.tasks.find((task) => task.id === id) as TaskItem, book)),
  );
  const proved =
    roomless.length === 0 ||
    !moreFitRearranged(state, preferences, roomless.flatMap((issue) => issue.tasks).length, true)
      ? forced
      : forced.filter((issue) => !roomless.includes(issue));
  // A review past its deadline is forced for that reason, not for the room: it is said so.
  const passed = (id: string) => {
    const task = state.tasks.find((each) => each.id === id);
    return task?.source === "task_item" && deadlinePassed(task, book);
  };
  const text = proved.flatMap((issue) =>
    issue.tasks.map((id) => `${id}${saySummary("en", passed(id) ? "forcedPassed" : "forcedApart")}`),
  );
  return text.length > 0 ? text.join(", ") : undefined;
}

/**
 * True when an exact search over every review still ahead — the placed ones the clock has not fixed, taken off, and
 * the pending ones whose deadline has not passed (`withMissed`: the missed ones without a place too, as the health
 * judge's `roomless` counts them) — places more of them than stay unplaced-free now (all but the `roomless` that fit
 * nowhere beside the others), or cannot tell within its budget: then no "proved" is said.
 */
export function moreFitRearranged(
  state: ScheduleState,
  preferences: HealthPreferences,
  roomless: number,
  withMissed = false,
): boolean {
  const book = ruleBookOf(state);
  const positions = movablePlaced(state, book);
  const ahead = [
    ...positions.map((position) => state.tasks[position] as TaskItem),
    ...pendingAhead(state, book),
    ...(withMissed ? missedAhead(state, book) : []),
  ];
  const { room, dayLoad, rules } = roomWithout(state, positions);
  const search = finish(
    placementSteps(
      searchTasksOf(ahead, rules, preferences),
      room,
      // A bare search, bounded by its node limit (no clock: the same answer on any machine).
      { dayLoad },
    ),
  );
  return search.stop === "budget" || search.placements.length > ahead.length - roomless;
}

/** How many more reviews stand placed once a candidate's writes apply: those it places less those it takes off. */
function placesIn(candidate: Pick<ScheduleCandidate, "writes">): number {
  const count = (name: string) => candidate.writes.filter((write) => write.name === name).length;
  return count("place") - count("unplace");
}

/**
 * The pending reviews a rearrangement may place beside the placed ones, their deadline still ahead: every one with
 * `placePending`; without it (a refinement, which does not place what the arrangement left out where it fits), only
 * those that fit nowhere beside the others as they are placed — what moving them is the one way to place — and those
 * the task tried to place and the tool refused (`retry`).
 */
function openReviewsOf(
  state: ScheduleState,
  book: RuleBook,
  report: ReturnType<typeof analyzeHealth>,
  placePending: boolean,
  retry: ReadonlySet<string> = new Set(),
): TaskItem[] {
  const roomless = new Set(report.issues.flatMap((issue) => (issue.kind === "cannot_fit" ? issue.tasks : [])));
  return pendingAhead(state, book).filter((task) => placePending || roomless.has(task.id) || retry.has(task.id));
}

/** The missed reviews without a place (still to place, as the health judge counts them) whose deadline has not passed. */
function missedAhead(state: ScheduleState, book: RuleBook): TaskItem[] {
  return state.tasks.filter(
    (task): task is TaskItem =>
      task.source === "task_item" && task.status === "missed" && !task.slots?.length && !deadlinePassed(task, book),
  );
}

/** The pending reviews whose deadline has not passed. */
function pendingAhead(state: ScheduleState, book: RuleBook): TaskItem[] {
  return state.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "pending" && !deadlinePassed(task, book),
  );
}

/** The week with the placed reviews at `positions` taken off at once (one copy of the week), and its search input. */
function roomWithout(state: ScheduleState, positions: readonly number[]) {
  const base = positions.length > 0 ? commitUnplaces(state, buildOccupancyIndex(state), positions) : state;
  return { base, ...searchInputOf(base) };
}

/** A task's places and days the user rejected, as the placement search keeps off them. */
function rejectedOf(avoided: readonly AvoidedPlace[], id: string): Pick<SearchTask, "notDays" | "notAt"> {
  const own = avoided.filter((place) => place.task_id === id && place.day !== undefined);
  const notDays = new Set(own.filter((place) => place.slot_start === undefined).map((place) => place.day!));
  const notAt = new Set(
    own.filter((place) => place.slot_start !== undefined).map((place) => `${place.day}:${place.slot_start}`),
  );
  return { ...(notDays.size > 0 ? { notDays } : {}), ...(notAt.size > 0 ? { notAt } : {}) };
}

/** Where in `state.tasks` the placed reviews that may be arranged again are: one place each, not fixed by the clock. */
function movablePlaced(state: ScheduleState, book: RuleBook = ruleBookOf(state)): number[] {
  return state.tasks.flatMap((task, position) =>
    task.source === "task_item" && task.status === "placed" && task.slots?.length === 1 && !isFixedByClock(task, book)
      ? [position]
      : [],
  );
}

/**
 * `tasks` as the placement search takes them: under their rules, kept off the days the preferences avoid and the
 * days and places `limits` gives each (what the user rejected for it).
 */
function searchTasksOf(
  tasks: readonly TaskItem[],
  book: RuleBook,
  preferences: HealthPreferences,
  limits: (id: string) => Pick<SearchTask, "notDays" | "notAt"> = () => ({}),
) {
  const avoid = preferences.avoidDays ?? [];
  return tasks.map((task) => {
    const own = limits(task.id);
    const notDays = new Set([...avoid, ...(own.notDays ?? [])]);
    return withRules(
      {
        id: task.id,
        duration: task.duration,
        ...(notDays.size > 0 ? { notDays } : {}),
        ...(own.notAt ? { notAt: own.notAt } : {}),
      },
      task,
      book,
    );
  });
}

/** Where a task must not go: a place the user rejected (day and slot), a day, or — with neither — anywhere (left as it is). */
export interface AvoidedPlace {
  task_id: string;
  day?: number;
  slot_start?: number;
}

/** The ids of the tasks `writes` place, move or swap, in order. */
export function tasksOf(writes: readonly Write[]): string[] {
  return writes.flatMap((write) => {
    const args = write.arguments;
    if (write.name === "batch_move")
      return ((args.moves as Array<{ task_id: string }> | undefined) ?? []).map((move) => move.task_id);
    if (write.name === "swap") return [String(args.first_task_id), String(args.second_task_id)];
    return [String(args.task_id)];
  });
}

/** Where each task the writes move or place ends up (a swap moves each task to the other's place). */
function targetsOf(state: ScheduleState, writes: readonly Write[]): Array<Required<AvoidedPlace>> {
  const startOf = (id: unknown) => {
    const task = state.tasks.find((candidate) => candidate.id === id);
    const range = task?.slots?.[0];
    return range ? { day: range.day, slot_start: range.start } : undefined;
  };
  return writes.flatMap((write): Array<Required<AvoidedPlace>> => {
    const args = write.arguments;
    if (write.name === "place" || write.name === "move")
      return [{ task_id: String(args.task_id), day: Number(args.day), slot_start: Number(args.slot_start) }];
    if (write.name === "batch_move")
      return ((args.moves as Array<Required<AvoidedPlace>> | undefined) ?? []).map((move) => ({
        task_id: move.task_id,
        day: move.day,
        slot_start: move.slot_start,
      }));
    if (write.name === "swap") {
      const [first, second] = [startOf(args.first_task_id), startOf(args.second_task_id)];
      return first && second
        ? [
            { task_id: String(args.first_task_id), ...second },
            { task_id: String(args.second_task_id), ...first },
          ]
        : [];
    }
    return [];
  });
}

/** A move or a swap of placed reviews, by their positions in the task list. */
type Change = { kind: "move"; position: number; range: SlotRange } | { kind: "swap"; first: number; second: number };

/** Where a change may put a task: the limits of a listing (avoided days and places) or of an arrangement. */
type Fits = (target: Required<AvoidedPlace>) => boolean;

/** Days a change may take a review across: a week's, whatever the window's length. */
const REACH_DAYS = 7;

/**
 * The days (first and last) a change may take a review on `day` to: the `REACH_DAYS` days centred on it, shifted to
 * stay within days `low`-`high` — all of them on a window of a week or less. So a scan costs the same per review on
 * any window, and the climb's work grows with the window's reviews, not with their reach.
 */
function reachOf(day: number, low: number, high: number): [number, number] {
  const first = Math.max(low, Math.min(day - Math.floor(REACH_DAYS / 2), high - REACH_DAYS + 1));
  return [first, Math.min(high, first + REACH_DAYS - 1)];
}

/** Changes scored between two pauses of the work (`steps.ts`). */
const PAUSE_EVERY = 64;

/** Days a polishing climbs at a time: a longer window is polished a block of days after another. */
const BLOCK_DAYS = 7;

/** The tool call a change stands for. */
function writeOf(week: ScheduleState, change: Change): Write {
  if (change.kind === "move")
    return {
      name: "move",
      arguments: { task_id: week.tasks[change.position]!.id, day: change.range.day, slot_start: change.range.start },
    };
  return {
    name: "swap",
    arguments: { first_task_id: week.tasks[change.first]!.id, second_task_id: week.tasks[change.second]!.id },
  };
}

/** Which reviews a scan may change, and within which days (inclusive). */
interface ScanScope {
  /** Only the reviews at these positions (ascending); default: every placed review. */
  only?: readonly number[] | undefined;
  days?: readonly [number, number];
}

/**
 * Every move (each placed review to every start within its reach, `reachOf`) and swap (two reviews of one length on
 * different days within that reach) that `fits` and the write tools accept, scored on the model (no state built, no
 * text): `visit` gets each with the model's unclamped score after it. Each one scored is a step of `work`; the scan
 * stops once that runs out.
 */
function* scanChanges(
  model: WeekModel,
  fits: Fits,
  scope: ScanScope,
  work: ChangeWork,
  worth: (raw: number) => boolean,
  visit: (change: Change, raw: number) => void,
): Steps<void> {
  const { tasks } = model.state;
  const { totalDays, slotsPerDay } = model.state.window;
  const [low, high] = scope.days ?? [1, totalDays];
  // A scoped scan looks at its own reviews only: a polishing's block of a long window, not the window's every task.
  // (A loop, not a list of positions and an array per review: a listing's every climb step scans.)
  const placed: Array<{ position: number; id: string; range: SlotRange }> = [];
  const count = scope.only?.length ?? tasks.length;
  for (let at = 0; at < count; at += 1) {
    const position = scope.only ? scope.only[at]! : at;
    const task = tasks[position]!;
    const range = model.placeOf(position);
    if (task.source === "task_item" && range && task.slots?.length === 1) placed.push({ position, id: task.id, range });
  }
  let evaluated = 0;
  const scored = (raw: number | undefined): raw is number => {
    evaluated += 1;
    if (raw === undefined) return false;
    if (Number.isNaN(raw) || !work.take()) {
      work.exhausted = true;
      return false;
    }
    return true;
  };
  // Each day's reach, worked out once a scan (its moves and its swap partners read it for every review and day near
  // it: a whole window's scan, step after step of a listing's climbs, made them by the thousand).
  const reaches = Array.from({ length: high - low + 1 }, (_, offset) => reachOf(low + offset, low, high));
  const reach = (day: number) => (day >= low && day <= high ? reaches[day - low]! : reachOf(day, low, high));
  // Each move is scored on one range the model reads and lets go of; a range of its own only for a change visited.
  const target = { day: 0, start: 0, end: 0 };
  for (const { position, id, range } of placed) {
    const length = range.end - range.start;
    const [first, last] = reach(range.day);
    for (let day = first; day <= last; day += 1) {
      // A day none of whose moves is worth taking (the best of them, when the model knows it without scoring each)
      // is passed over; its moves still count as scored, so the budget runs out, and the work pauses, as it would.
      const best = model.bestMoveOn(position, day);
      if (best !== undefined && (model.movesLanding === 0 || !worth(best))) {
        if (!work.takeMany(model.movesLanding)) return;
        // Its starts count as evaluated at once, pausing once if one of them is where a pause falls.
        const starts = Math.max(0, slotsPerDay - length);
        if (starts > 0 && Math.floor((evaluated + starts - 1) / PAUSE_EVERY) * PAUSE_EVERY >= evaluated) yield;
        evaluated += starts;
        continue;
      }
      for (let start = 1; start + length <= slotsPerDay; start += 1) {
        if (work.exhausted) return;
        if (day === range.day && start === range.start) continue;
        if (evaluated % PAUSE_EVERY === 0) yield;
        target.day = day;
        target.start = start;
        target.end = start + length;
        // The limits are asked only of a change worth taking (they cost more than the model's checks).
        const raw = model.scoreIfMoved(position, target);
        if (scored(raw) && worth(raw) && fits({ task_id: id, day, slot_start: start }))
          visit({ kind: "move", position, range: { day, start, end: start + length } }, raw);
      }
      model.noteMovesOn(position, day);
    }
  }
  const partners = swapPartners(
    placed.map((entry) => entry.range.day),
    reach,
  );
  for (let first = 0; first < placed.length; first += 1) {
    const a = placed[first]!;
    for (const second of partners[first]!) {
      if (work.exhausted) return;
      const b = placed[second]!;
      if (a.range.end - a.range.start !== b.range.end - b.range.start) continue;
      if (evaluated % PAUSE_EVERY === 0) yield;
      const raw = model.scoreIfSwapped(a.position, b.position);
      if (
        scored(raw) &&
        worth(raw) &&
        fits({ task_id: a.id, day: b.range.day, slot_start: b.range.start }) &&
        fits({ task_id: b.id, day: a.range.day, slot_start: a.range.start })
      )
        visit({ kind: "swap", first: a.position, second: b.position }, raw);
    }
  }
}

/** A model of `week` whose searches keep to `work`'s scoring budget; undefined (the work exhausted) when it stopped at it. */
function modelWithin(week: ScheduleState, preferences: HealthPreferences, work: ChangeWork): WeekModel | undefined {
  const model = new WeekModel(week, preferences, () => work.scoring());
  if (!model.stoppedAtBudget()) return model;
  work.exhausted = true;
  return undefined;
}

/** Every single change that raises the score by at least `MIN_GAIN` (and `fits`), best first, the best one per task. */
function* singleChanges(
  state: ScheduleState,
  score: number,
  preferences: HealthPreferences,
  work: ChangeWork,
  fits: Fits,
): Steps<Array<Omit<ScheduleCandidate, "id">>> {
  type Scored = Omit<ScheduleCandidate, "id" | "summary">;
  const scored: Scored[] = [];
  const keep = (kind: ScheduleCandidate["kind"], writes: Write[], scoreAfter: number) => {
    const delta = round(scoreAfter - score);
    if (delta >= MIN_GAIN) scored.push({ kind, writes, scoreAfter, delta });
  };
  const model = modelWithin(state, preferences, work);
  if (!model) return [];
  yield;
  // Moves and swaps, scored on the model (nothing is written or described until it is kept).
  yield* scanChanges(
    model,
    fits,
    {},
    work,
    (raw) => round(Math.max(0, raw) - score) >= MIN_GAIN,
    (change, raw) => keep(change.kind, [writeOf(state, change)], Math.max(0, raw)),
  );
  // Placements: each pending review on every start the place tool accepts, scored on the week it leaves.
  for (const [position, task] of state.tasks.entries()) {
    if (task.source !== "task_item" || task.status !== "pending") continue;
    for (let day = 1; day <= state.window.totalDays; day += 1)
      for (let start = 1; start + task.duration - 1 <= state.window.slotsPerDay; start += 1) {
        if (work.exhausted || !fits({ task_id: task.id, day, slot_start: start })) continue;
        if (!model.canPlace(position, { day, start, end: start + task.duration - 1 }) || !work.take()) continue;
        const writes = [{ name: "place", arguments: { task_id: task.id, day, slot_start: start } }];
        const after = applyWrites(state, writes);
        const scoreAfter = after ? yield* scoreWithin(after, preferences, work) : undefined;
        if (scoreAfter !== undefined) keep("place", writes, scoreAfter);
        yield;
      }
  }
  const order: Record<ScheduleCandidate["kind"], number> = { arrangement: 0, chain: 0, place: 1, move: 2, swap: 3 };
  // Ties are broken by what the cards say, described only when a tie needs it.
  const summaries = new Map<Scored, string>();
  const summary = (candidate: Scored) => {
    if (!summaries.has(candidate)) summaries.set(candidate, summaryOf(state, candidate.writes));
    return summaries.get(candidate)!;
  };
  scored.sort((a, b) => b.delta - a.delta || order[a.kind] - order[b.kind] || summary(a).localeCompare(summary(b)));
  // One candidate per task (its best), so the list offers different changes rather than one task's many slots.
  const seen = new Set<string>();
  return scored.flatMap((candidate) => {
    const key = tasksOf(candidate.writes).join(",");
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ ...candidate, summary: summary(candidate) }];
  });
}

/**
 * The week's score, its search within the work's scoring nodes; undefined (and the work exhausted) when the budget cut
 * that search short — such a score is no score, and the changes scored before it are all there is.
 */
function* scoreWithin(
  week: ScheduleState,
  preferences: HealthPreferences,
  work: ChangeWork,
): Steps<number | undefined> {
  const report = yield* healthSteps(week, preferences, work.scoring());
  if (report.feasibility.stop !== "budget") return report.score;
  work.exhausted = true;
  return undefined;
}

/** Most single changes a chain strings together. */
const MAX_CHAIN = 8;

/** Limits that apply to changes made from a week (a swap's targets depend on where its tasks are in that week). */
type AllowedIn = (week: ScheduleState) => (writes: readonly Write[]) => boolean;

/**
 * How a climb goes: the only tasks it may move and the days it keeps to, its most steps, and the work it may spend
 * scoring changes (it stops, keeping the week it reached, once that runs out).
 */
interface ClimbOptions extends ScanScope {
  maxSteps?: number;
  work: ChangeWork;
}

/**
 * The best single move or swap, then the best one after it, and so on while the score rises (at most `MAX_CHAIN`
 * steps unless `maxSteps` says otherwise), made on `model`: changes are scored there, and the one taken each step
 * changes it. The score climbed is the unclamped one, so a week below 0 still improves (above 0 it is the judge's
 * score). Ties go to a move before a swap, then by what the cards say. Gives the steps taken.
 */
function* climb(model: WeekModel, fits: Fits, { maxSteps = MAX_CHAIN, work, ...scope }: ClimbOptions): Steps<number> {
  let steps = 0;
  const { described, targetOf } = tieWords(model);
  while (steps < maxSteps && !work.exhausted) {
    const now = model.raw();
    let best = MIN_GAIN;
    let tied: Change[] = [];
    yield* scanChanges(
      model,
      fits,
      scope,
      work,
      (raw) => round(raw - now) >= best,
      (change, raw) => {
        const delta = round(raw - now);
        if (delta > best) [best, tied] = [delta, []];
        tied.push(change);
      },
    );
    if (tied.length === 0) break;
    const chosen = firstOfTied(tied, described, targetOf);
    if (chosen.kind === "move") {
      model.move(chosen.position, chosen.range);
      model.settle();
    } else model.swap(chosen.first, chosen.second);
    steps += 1;
  }
  return steps;
}

/**
 * What the cards say of the changes a climb ties, kept for the whole climb: the same changes tie again step after step
 * (a long window's many equal days), and a card's words depend only on the change and where its reviews are then.
 * `targetOf` names where a move's card says it goes (`placeName`), once per range; a move's words (`described`) are
 * its review's head ("Move <name> from <place> to ", cut from the first card written for that review and place) and
 * its target's, rather than a card written per move.
 */
function tieWords(model: WeekModel) {
  const cards = new Map<string, string>();
  const card = (change: Change) => {
    const positions = change.kind === "move" ? [change.position] : [change.first, change.second];
    const target = change.kind === "move" ? `>${change.range.day}:${change.range.start}` : "";
    const key = positions.map((position) => `${position}@${placeKey(model.placeOf(position))}`).join() + target;
    let text = cards.get(key);
    if (text === undefined) {
      text = summaryOf(model.viewOf(positions), [writeOf(model.state, change)]);
      cards.set(key, text);
    }
    return text;
  };
  const targets = new Map<number, string>();
  const targetOf = (change: Change & { kind: "move" }) => {
    const { day, start } = change.range;
    const end = start + (model.state.tasks[change.position] as TaskItem).duration - 1;
    const key = (day * 1024 + start) * 1024 + end;
    let text = targets.get(key);
    if (text === undefined) {
      text = placeName(model.state.window, { day, start, end });
      targets.set(key, text);
    }
    return text;
  };
  const heads = new Map<number, { at: number; head: string | undefined }>();
  const described = (change: Change) => {
    if (change.kind !== "move") return card(change);
    const place = model.placeOf(change.position);
    const at = place ? place.day * 1024 + place.start : -1;
    let entry = heads.get(change.position);
    if (entry?.at !== at) {
      const text = card(change);
      const target = targetOf(change);
      entry = { at, head: text.endsWith(target) ? text.slice(0, text.length - target.length) : undefined };
      heads.set(change.position, entry);
    }
    return entry.head === undefined ? card(change) : entry.head + targetOf(change);
  };
  return { described, targetOf };
}

/**
 * The change a climb takes among those tied for the best gain: a move before a swap, then the first by what its card
 * says (the first of them in scan order when two say the same). Only the changes that can win are described — the
 * moves when one is tied, and none when one change is alone in the running — since a long window's many equal days tie
 * many changes step after step, and describing each (a card's text) cost more than scoring it. Two moves of one review
 * (most of a long window's ties) say the same up to where it goes ("Move <name> from <place> to "), and a locale's
 * order of two texts with one beginning is their ends' order: they are told apart by their targets' words alone
 * (`targetOf`), which a climb names once per range.
 */
function firstOfTied(
  tied: readonly Change[],
  described: (change: Change) => string,
  targetOf: (change: Change & { kind: "move" }) => string,
): Change {
  const moves = tied.filter((change) => change.kind === "move");
  const running = moves.length > 0 ? moves : tied;
  let chosen = running[0]!;
  for (let at = 1; at < running.length; at += 1) {
    const change = running[at]!;
    const before =
      change.kind === "move" && chosen.kind === "move" && change.position === chosen.position
        ? targetOf(change).localeCompare(targetOf(chosen)) < 0
        : described(change).localeCompare(described(chosen)) < 0;
    if (before) chosen = change;
  }
  return chosen;
}

/** A place as a key: its day and first slot. */
function placeKey(range: SlotRange | undefined): string {
  return range ? `${range.day}:${range.start}` : "-";
}

/**
 * `start` (the week `model` was made from) with its reviews where the model has them now: one `batch_move` of those
 * that moved, applied with the real tool (checked together); `start` when none moved or it does not apply.
 */
function weekOf(model: WeekModel, start: ScheduleState): ScheduleState {
  const moves = start.tasks.flatMap((task, position) => {
    const before = task.source === "task_item" && task.slots?.length === 1 ? task.slots[0]! : undefined;
    const now = model.placeOf(position);
    return before && now && (before.day !== now.day || before.start !== now.start)
      ? [{ task_id: task.id, day: now.day, slot_start: now.start }]
      : [];
  });
  if (moves.length === 0) return start;
  return applyWrites(start, [{ name: "batch_move", arguments: { moves } }]) ?? start;
}

/**
 * `week` with the reviews `ids` (just placed there) moved or swapped among themselves while the score rises — the
 * best single change each time, at most two per review — each move within `fits` (the limits they were placed
 * under). Every other task stays where it is. An arrangement so polished is what its card proposes: the refinement
 * after it is not left to move what the user has just approved. A window longer than a week is polished a week of days
 * at a time (the reviews on those days, within them), so the work grows with the window, not with its square. It
 * stops early, keeping the week it reached, once `work` runs out (`work.exhausted` then says so).
 */
export function* polishPlacements(
  week: ScheduleState,
  ids: ReadonlySet<string>,
  preferences: HealthPreferences,
  fits: Fits,
  work: ChangeWork,
): Steps<ScheduleState> {
  const model = modelWithin(week, preferences, work);
  if (!model) return week;
  const { totalDays } = week.window;
  const polished = new Set(week.tasks.flatMap((task, position) => (ids.has(task.id) ? [position] : [])));
  for (let low = 1; low <= totalDays && !work.exhausted; low += BLOCK_DAYS) {
    const high = Math.min(totalDays, low + BLOCK_DAYS - 1);
    // The block's reviews, read off its own days (not the window's every review for each block), in task order.
    const block: number[] = [];
    for (let day = low; day <= high; day += 1)
      for (const position of model.reviewsOn(day)) if (polished.has(position)) block.push(position);
    block.sort((a, b) => a - b);
    if (block.length === 0) continue;
    const scope = totalDays <= BLOCK_DAYS ? {} : { days: [low, high] as const };
    yield* climb(model, fits, { only: block, ...scope, maxSteps: block.length * 2, work });
  }
  return weekOf(model, week);
}

/**
 * The climb from `state` as one `batch_move` of the reviews it moved, or undefined when fewer than two changes chain
 * (placements are not chained: a pending review is placed on its own card).
 */
function* chainOf(
  state: ScheduleState,
  score: number,
  preferences: HealthPreferences,
  fits: Fits,
  allowedIn: AllowedIn,
  work: ChangeWork,
): Steps<Omit<ScheduleCandidate, "id"> | undefined> {
  const model = modelWithin(state, preferences, work);
  if (!model) return undefined;
  const steps = yield* climb(model, fits, { work });
  const week = weekOf(model, state);
  return steps < 2
    ? undefined
    : yield* batchMoveTo(
        state,
        week,
        score,
        preferences,
        allowedIn(state),
        (count) => `move ${count} reviews in one change`,
      );
}

/**
 * The reviews of `state` placed where `target` has them, as one `batch_move` candidate (checked together, so they may
 * take each other's slots). With `adds` (pending reviews `target` places), an `unplace` of each review `target` leaves
 * out first and a `place` of each one added last, when that places more in all; undefined when it places no more
 * and fewer than two move, it does not apply, or it crosses a hard limit.
 */
function* batchMoveTo(
  state: ScheduleState,
  target: ScheduleState,
  score: number,
  preferences: HealthPreferences,
  allowed: (writes: readonly Write[]) => boolean,
  label: (moved: number, more: number) => string,
  adds: readonly string[] = [],
): Steps<Omit<ScheduleCandidate, "id"> | undefined> {
  const where = (week: ScheduleState) =>
    new Map(
      week.tasks.flatMap((task) =>
        task.source === "task_item" && task.slots?.length === 1 ? [[task.id, task.slots[0]!] as const] : [],
      ),
    );
  const before = where(state);
  const after = where(target);
  const moves = [...after]
    .filter(
      ([id, range]) => before.has(id) && (before.get(id)!.day !== range.day || before.get(id)!.start !== range.start),
    )
    .map(([id, range]) => ({ task_id: id, day: range.day, slot_start: range.start }));
  const drops = [...before.keys()].filter((id) => !after.has(id)).map((id) => ({ task_id: id }));
  const places = adds.flatMap((id) => {
    const range = after.get(id);
    return range && !before.has(id) ? [{ task_id: id, day: range.day, slot_start: range.start }] : [];
  });
  const writes = [
    ...drops.map((drop) => ({ name: "unplace", arguments: drop })),
    ...(moves.length > 0 ? [{ name: "batch_move", arguments: { moves } }] : []),
    ...places.map((place) => ({ name: "place", arguments: place })),
  ];
  const more = places.length - drops.length;
  const enough = more > 0 || (drops.length === 0 && places.length === 0 && moves.length >= 2);
  const applied = enough && moves.length <= BATCH_MOVE_LIMIT ? applyWrites(state, writes) : undefined;
  if (!applied || !allowed(writes)) return undefined;
  yield;
  const scoreAfter = (yield* healthSteps(applied, preferences)).score;
  yield;
  const said = [
    ...drops.map((drop) => summaryOf(state, [{ name: "unplace", arguments: drop }])),
    ...moves.map((move) => summaryOf(state, [{ name: "move", arguments: move }])),
    ...places.map((place) => summaryOf(state, [{ name: "place", arguments: place }])),
  ];
  const summary = `${label(moves.length, more)}: ${said.join("; ")}`;
  return { kind: "chain", writes, summary, scoreAfter, delta: round(scoreAfter - score) };
}

/** What a rearrangement may change: the placed reviews it may move, the pending ones it may place, each one's limits. */
interface Rearranging {
  /** True for a placed review it may move (not pinned by the user, not kept by the listing's limits). */
  moves: (id: string) => boolean;
  /** The pending reviews it may place too. */
  open: readonly TaskItem[];
  /** The days and places the user rejected for a task. */
  limits: (id: string) => Pick<SearchTask, "notDays" | "notAt">;
}

/**
 * The placed reviews that may move arranged again from scratch — the exact placement search on the week without them,
 * on the quietest days first, then the best single moves and swaps while they raise the score — as one `batch_move`
 * of the reviews that end up elsewhere; undefined when it does not place them all, moves fewer than two, or crosses a
 * hard limit. The search takes the pending reviews `scope` opens too (issue 46: a week placed badly by hand may hold
 * more once its reviews move): when it places more of them all than stand now, the candidate is that week — the
 * `batch_move`, a `place` of each review it adds, and an `unplace` of any placed one the most that fit leave out.
 */
function* rearrangementOf(
  state: ScheduleState,
  score: number,
  preferences: HealthPreferences,
  fits: Fits,
  allowedIn: AllowedIn,
  work: ChangeWork,
  scope: Rearranging,
): Steps<Omit<ScheduleCandidate, "id"> | undefined> {
  // What is in the past stays where it is (issue 47), and what the user pinned or the listing keeps: only the reviews
  // still ahead that may move are arranged again.
  const positions = movablePlaced(state).filter((position) => scope.moves(state.tasks[position]!.id));
  const placed = positions.map((position) => state.tasks[position] as TaskItem);
  if (placed.length + scope.open.length < 2 || work.exhausted) return undefined;
  // All of them taken off at once, each as the unplace tool takes it off (one copy of the week, not one a review).
  const { base, room, dayLoad, rules: book } = roomWithout(state, positions);
  yield;
  const searched = function* (tasks: readonly TaskItem[]) {
    const search = yield* placementSteps(searchTasksOf(tasks, book, preferences, scope.limits), room, {
      ...work.search,
      dayLoad,
    });
    if (search.stop === "budget") work.exhausted = true;
    return search.placements;
  };
  let placements = scope.open.length > 0 ? yield* searched([...placed, ...scope.open]) : [];
  const more = placements.length > placed.length;
  if (!more) {
    if (placed.length < 2 || work.exhausted) return undefined;
    placements = yield* searched(placed);
    if (placements.length < placed.length) return undefined;
  }
  yield;
  const arranged = yield* placesApplied(
    base,
    placements.map((placement) => ({
      name: "place",
      arguments: { task_id: placement.id, day: placement.day, slot_start: placement.start },
    })),
  );
  const model = arranged ? modelWithin(arranged, preferences, work) : undefined;
  if (model) yield* climb(model, fits, { work });
  const added = new Set(placements.map((placement) => placement.id));
  return arranged && model
    ? yield* batchMoveTo(
        state,
        weekOf(model, arranged),
        score,
        preferences,
        allowedIn(state),
        (moved, gained) =>
          gained > 0 ? `arrange ${moved} reviews again to place ${gained} more` : `arrange ${moved} reviews again`,
        more ? scope.open.filter((task) => added.has(task.id)).map((task) => task.id) : [],
      )
    : undefined;
}

/** The writes as cards name them. */
function summaryOf(state: ScheduleState, writes: readonly Write[]): string {
  return writes
    .map(
      (write) =>
        describeScheduleCall(state, write.name, write.arguments) ?? `${write.name} ${JSON.stringify(write.arguments)}`,
    )
    .join("; ");
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A listing as the model reads it: the score now, then one line a candidate. */
export function formatListing(listing: ScheduleListing): string {
  const head = `health score now ${listing.score}/100`;
  const forced = listing.forced ? `\nforced (no change can fix): ${listing.forced}` : "";
  const budget = listing.stop === "budget" ? `\n${listing.budgetNote ?? BUDGET_NOTE}` : "";
  const left = listing.left?.length
    ? `\nleft pending:\n${listing.left.map((entry) => `  - task ${entry.id}: ${entry.why}`).join("\n")}`
    : "";
  if (listing.candidates.length === 0)
    return `${head}\nno candidates: ${listing.empty ?? "nothing to propose"}${left}${forced}${budget}`;
  const lines = listing.candidates.flatMap((candidate) => [
    `- ${candidate.id} (${candidate.delta >= 0 ? "+" : ""}${candidate.delta} → ${candidate.scoreAfter}): ${candidate.summary}`,
    ...(candidate.places ?? []).map(
      (place) =>
        `  - task ${place.id} on day ${place.day} slots ${place.start}-${place.end}${place.hostId ? ` in host ${place.hostId}` : ""}`,
    ),
  ]);
  return (
    [head, `candidates (choose one with choose_candidate {"id": "<id>"}, or "none"):`, ...lines].join("\n") +
    left +
    forced +
    budget
  );
}

/** What a listing says when its search or polishing stopped at the budget. */
export const BUDGET_NOTE =
  "stopped at the search budget: the best found so far (what is left out: not found within the search budget)";

/** What an arrangement says when its search finished but polishing where the placements go stopped at the budget. */
export const POLISH_BUDGET_NOTE = "polishing stopped at the search budget: the places are the best found so far";
