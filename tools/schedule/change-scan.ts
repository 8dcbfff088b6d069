/**
 * Single changes scored on the week's model: every move of a placed review within its reach and every swap of two of one
 * length (`scanChanges`), the best of them (`singleChanges`), and a climb of best changes while the score rises — all
 * within the work's budget of steps and scoring nodes (`ChangeWork`).
 */
import { placeName } from "./calendar.js";
import { healthSteps, type HealthPreferences } from "./health.js";
import { DEFAULT_NODE_LIMIT, pastDeadline, startBudget, type SearchBudget } from "./placement-search.js";
import type { ScheduleState, SlotRange, TaskItem } from "./state.js";
import type { Steps } from "./steps.js";
import { swapPartners } from "./swap-partners.js";
import { WeekModel } from "./week-model.js";
import { applyWrites, type AvoidedPlace, tasksOf, type Write } from "./candidate-writes.js";
import { type ChangeBudget, MIN_GAIN, round, type ScheduleCandidate, summaryOf } from "./candidate-listing.js";

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

/** A move or a swap of placed reviews, by their positions in the task list. */
type Change = { kind: "move"; position: number; range: SlotRange } | { kind: "swap"; first: number; second: number };

/** Where a change may put a task: the limits of a listing (avoided days and places) or of an arrangement. */
export type Fits = (target: Required<AvoidedPlace>) => boolean;

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
export const BLOCK_DAYS = 7;

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
export function modelWithin(
  week: ScheduleState,
  preferences: HealthPreferences,
  work: ChangeWork,
): WeekModel | undefined {
  const model = new WeekModel(week, preferences, () => work.scoring());
  if (!model.stoppedAtBudget()) return model;
  work.exhausted = true;
  return undefined;
}

/** Every single change that raises the score by at least `MIN_GAIN` (and `fits`), best first, the best one per task. */
export function* singleChanges(
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
export type AllowedIn = (week: ScheduleState) => (writes: readonly Write[]) => boolean;

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
export function* climb(
  model: WeekModel,
  fits: Fits,
  { maxSteps = MAX_CHAIN, work, ...scope }: ClimbOptions,
): Steps<number> {
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
export function weekOf(model: WeekModel, start: ScheduleState): ScheduleState {
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
