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
import { describeScheduleCall } from "./describe-call.js";
import { analyzeHealth, type HealthPreferences } from "./health.js";
import {
  DEFAULT_NODE_LIMIT,
  pastDeadline,
  searchInputOf,
  searchPlacements,
  startBudget,
  type PlannedPlacement,
  type SearchBudget,
} from "./placement-search.js";
import { withRules } from "./rules.js";
import type { ScheduleState, TaskItem } from "./state.js";
import { batchMoveTool } from "./tools/batch-move.js";
import { moveTool } from "./tools/move.js";
import { placeTool } from "./tools/place.js";
import { swapTool } from "./tools/swap.js";
import { unplaceTool } from "./tools/unplace.js";
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
    if (this.exhausted) return false;
    // The clock is read every 64 steps, the first one's included.
    if (
      this.taken >= this.limit ||
      this.meter.nodes >= this.scoringNodes ||
      (this.taken % 64 === 0 && pastDeadline(this.search))
    ) {
      this.exhausted = true;
      return false;
    }
    this.taken += 1;
    return true;
  }
}

type Write = { name: string; arguments: Record<string, unknown> };

/** The week after `writes`, applied in order with the real tools, or undefined when one of them fails. */
export function applyWrites(state: ScheduleState, writes: readonly Write[]): ScheduleState | undefined {
  const tools = {
    place: placeTool,
    move: moveTool,
    swap: swapTool,
    unplace: unplaceTool,
    batch_move: batchMoveTool,
  } as const;
  let current = state;
  for (const write of writes) {
    const tool = tools[write.name as keyof typeof tools];
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
 * The top `k` changes that raise the week's score, best first (ties: placements, moves, swaps, then by summary): single
 * changes, one per task, and — when several single changes in a row keep raising it — their chain as one
 * `batch_move` (the reviews moved to where the chain leaves them, checked together).
 */
export function proposeCandidates(
  state: ScheduleState,
  options: {
    k?: number;
    preferences?: HealthPreferences;
    avoid?: readonly AvoidedPlace[];
    placePending?: boolean;
    /** Only these placed reviews may move or swap (a pending one may still be placed); default: any. */
    movable?: ReadonlySet<string>;
    budget?: ChangeBudget;
  } = {},
): ScheduleListing {
  const preferences = options.preferences ?? {};
  const k = Math.min(MAX_CANDIDATES, Math.max(1, options.k ?? DEFAULT_CANDIDATES));
  const work = new ChangeWork(options.budget);
  const report = analyzeHealth(state, preferences, work.search);
  // Hard limits: no review goes to a day the user avoids, or back to a place they rejected; what may not move stays.
  const blocks = (place: AvoidedPlace, target: Required<AvoidedPlace>) =>
    place.task_id === target.task_id &&
    (place.day === undefined || place.day === target.day) &&
    (place.slot_start === undefined || place.slot_start === target.slot_start);
  // (Changes only move what is placed; a review pending now is placed, never moved, by any change made from here.)
  const pending = new Set(
    state.tasks.filter((task) => task.source === "task_item" && task.status === "pending").map((task) => task.id),
  );
  const stays = (id: string) => options.movable !== undefined && !options.movable.has(id) && !pending.has(id);
  const allowedIn = (week: ScheduleState) => (writes: readonly Write[]) =>
    targetsOf(week, writes).every(
      (target) =>
        !stays(target.task_id) &&
        !(preferences.avoidDays ?? []).includes(target.day) &&
        !(options.avoid ?? []).some((place) => blocks(place, target)),
    );
  const allowed = allowedIn(state);
  // Without `placePending`, only what is placed moves: refining never places what the arrangement left pending.
  const singles = singleChanges(state, report.score, preferences, work, allowed).filter(
    (candidate) => options.placePending !== false || candidate.kind !== "place",
  );
  const chain = chainOf(state, report.score, singles, preferences, allowedIn, work);
  // The placed reviews arranged again from scratch (a way out of a week single changes cannot improve further).
  const fresh = rearrangementOf(state, report.score, preferences, allowedIn, work);
  const best = singles[0]?.delta ?? 0;
  const wholesale = [chain, fresh]
    .filter(
      (candidate): candidate is Omit<ScheduleCandidate, "id"> => candidate !== undefined && candidate.delta > best,
    )
    .sort((a, b) => b.delta - a.delta);
  // Two wholesale changes ending in the same week are one candidate.
  const distinct = wholesale.filter(
    (candidate, index) => index === 0 || JSON.stringify(candidate.writes) !== JSON.stringify(wholesale[0]!.writes),
  );
  const ranked = [...distinct, ...singles];
  const candidates = ranked.slice(0, k).map((candidate, index) => ({ id: `c${index + 1}`, ...candidate }));
  const forced = forcedText(report);
  const stopped = work.exhausted || report.feasibility.stop === "budget";
  const listing: ScheduleListing = {
    candidates,
    score: report.score,
    ...(forced ? { forced } : {}),
    ...(stopped ? { stop: "budget" as const } : {}),
  };
  return candidates.length > 0 ? listing : { ...listing, empty: "no single move, swap or placement raises the score" };
}

/** What no change can fix: the reviews proved not to fit. */
export function forcedText(report: ReturnType<typeof analyzeHealth>): string | undefined {
  const forced = report.issues
    .filter((issue) => issue.forced)
    .flatMap((issue) => issue.tasks.map((id) => `${id} (fits nowhere beside the others, proved)`));
  return forced.length > 0 ? forced.join(", ") : undefined;
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

/** Every single change that raises the score by at least `MIN_GAIN` (and `allowed`), best first, the best one per task. */
function singleChanges(
  state: ScheduleState,
  score: number,
  preferences: HealthPreferences,
  work: ChangeWork,
  allowed: (writes: readonly Write[]) => boolean = () => true,
  only?: ReadonlySet<string>,
): Array<Omit<ScheduleCandidate, "id">> {
  const scored: Array<Omit<ScheduleCandidate, "id">> = [];
  // Each change scored is a step of the work's budget; past it the changes scored so far are all there is.
  const consider = (kind: ScheduleCandidate["kind"], writes: Write[]) => {
    if (!allowed(writes) || !work.take()) return;
    const after = applyWrites(state, writes);
    if (!after) return;
    const scoreAfter = scoreWithin(after, preferences, work);
    if (scoreAfter === undefined) return;
    const delta = round(scoreAfter - score);
    if (delta < MIN_GAIN) return;
    scored.push({ kind, writes, summary: summaryOf(state, writes), scoreAfter, delta });
  };
  const reviews = state.tasks.filter((task): task is TaskItem => task.source === "task_item");
  const placed = reviews.filter(
    (task) => task.status === "placed" && task.slots?.length === 1 && (!only || only.has(task.id)),
  );
  for (const task of placed) {
    if (work.exhausted) break;
    // Where it could go: the free runs of the week without it.
    const without = unplaceTool.run(state, { task_id: task.id });
    if (!without.ok || !without.state) continue;
    const current = task.slots![0]!;
    for (const run of searchInputOf(without.state).runs) {
      for (let start = run.start; start + task.duration - 1 <= run.end; start += 1) {
        if (run.day === current.day && start === current.start) continue;
        consider("move", [{ name: "move", arguments: { task_id: task.id, day: run.day, slot_start: start } }]);
      }
    }
  }
  for (let first = 0; first < placed.length && !work.exhausted; first += 1) {
    for (let second = first + 1; second < placed.length; second += 1) {
      if (
        placed[first]!.duration !== placed[second]!.duration ||
        placed[first]!.slots![0]!.day === placed[second]!.slots![0]!.day
      )
        continue;
      consider("swap", [
        { name: "swap", arguments: { first_task_id: placed[first]!.id, second_task_id: placed[second]!.id } },
      ]);
    }
  }
  const { runs } = searchInputOf(state);
  for (const task of reviews.filter(
    (candidate) => candidate.status === "pending" && (!only || only.has(candidate.id)),
  )) {
    if (work.exhausted) break;
    for (const run of runs)
      for (let start = run.start; start + task.duration - 1 <= run.end; start += 1)
        consider("place", [{ name: "place", arguments: { task_id: task.id, day: run.day, slot_start: start } }]);
  }
  const order: Record<ScheduleCandidate["kind"], number> = { arrangement: 0, chain: 0, place: 1, move: 2, swap: 3 };
  scored.sort((a, b) => b.delta - a.delta || order[a.kind] - order[b.kind] || a.summary.localeCompare(b.summary));
  // One candidate per task (its best), so the list offers different changes rather than one task's many slots.
  const seen = new Set<string>();
  return scored.filter((candidate) => {
    const key = tasksOf(candidate.writes).join(",");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The week's score, its search within the work's scoring nodes; undefined (and the work exhausted) when the budget cut
 * that search short — such a score is no score, and the changes scored before it are all there is.
 */
function scoreWithin(week: ScheduleState, preferences: HealthPreferences, work: ChangeWork): number | undefined {
  const report = analyzeHealth(week, preferences, work.scoring());
  if (report.feasibility.stop !== "budget") return report.score;
  work.exhausted = true;
  return undefined;
}

/** Most single changes a chain strings together. */
const MAX_CHAIN = 8;

/** Limits that apply to changes made from a week (a swap's targets depend on where its tasks are in that week). */
type AllowedIn = (week: ScheduleState) => (writes: readonly Write[]) => boolean;

/**
 * How a climb goes: the start's single changes when already known (not scanned again), the only tasks it may move, its
 * most steps, and the work it may spend scoring changes (it stops, keeping the week it reached, once that runs out).
 */
interface ClimbOptions {
  singles?: ReadonlyArray<Omit<ScheduleCandidate, "id">>;
  only?: ReadonlySet<string>;
  maxSteps?: number;
  work: ChangeWork;
}

/**
 * The week after the best single move or swap, then the best one after it, and so on while the score rises (at most
 * `MAX_CHAIN` steps unless `maxSteps` says otherwise).
 */
function climb(
  start: ScheduleState,
  preferences: HealthPreferences,
  allowedIn: AllowedIn,
  { singles, only, maxSteps = MAX_CHAIN, work }: ClimbOptions,
): { week: ScheduleState; steps: number } {
  let week = start;
  let steps = 0;
  while (steps < maxSteps && !work.exhausted) {
    let changes = steps === 0 ? singles : undefined;
    if (!changes) {
      const score = scoreWithin(week, preferences, work);
      if (score === undefined) break;
      changes = singleChanges(week, score, preferences, work, allowedIn(week), only);
    }
    const next = changes.find((candidate) => candidate.kind === "move" || candidate.kind === "swap");
    const after = next ? applyWrites(week, next.writes) : undefined;
    if (!after) break;
    week = after;
    steps += 1;
  }
  return { week, steps };
}

/**
 * `week` with the reviews `ids` (just placed there) moved or swapped among themselves while the score rises — the
 * best single change each time, at most two per review — each move within `fits` (the limits they were placed
 * under). Every other task stays where it is. An arrangement so polished is what its card proposes: the refinement
 * after it is not left to move what the user has just approved. It stops early, keeping the week it reached, once
 * `work` runs out (`work.exhausted` then says so).
 */
export function polishPlacements(
  week: ScheduleState,
  ids: ReadonlySet<string>,
  preferences: HealthPreferences,
  fits: (target: Required<AvoidedPlace>) => boolean,
  work: ChangeWork,
): ScheduleState {
  // (Only the reviews `ids` are moved or swapped: the climb scans no others.)
  const allowedIn: AllowedIn = (current) => (writes) => targetsOf(current, writes).every(fits);
  return climb(week, preferences, allowedIn, { only: ids, maxSteps: ids.size * 2, work }).week;
}

/**
 * The climb from `state` as one `batch_move` of the reviews it moved, or undefined when fewer than two changes chain
 * (placements are not chained: a pending review is placed on its own card).
 */
function chainOf(
  state: ScheduleState,
  score: number,
  singles: ReadonlyArray<Omit<ScheduleCandidate, "id">>,
  preferences: HealthPreferences,
  allowedIn: AllowedIn,
  work: ChangeWork,
): Omit<ScheduleCandidate, "id"> | undefined {
  const { week, steps } = climb(state, preferences, allowedIn, { singles, work });
  return steps < 2
    ? undefined
    : batchMoveTo(state, week, score, preferences, allowedIn(state), (count) => `move ${count} reviews in one change`);
}

/**
 * The reviews of `state` placed where `target` has them, as one `batch_move` candidate (checked together, so they may
 * take each other's slots); undefined when fewer than two move, it does not apply, or it crosses a hard limit.
 */
function batchMoveTo(
  state: ScheduleState,
  target: ScheduleState,
  score: number,
  preferences: HealthPreferences,
  allowed: (writes: readonly Write[]) => boolean,
  label: (count: number) => string,
): Omit<ScheduleCandidate, "id"> | undefined {
  const where = (week: ScheduleState) =>
    new Map(
      week.tasks.flatMap((task) =>
        task.source === "task_item" && task.slots?.length === 1 ? [[task.id, task.slots[0]!] as const] : [],
      ),
    );
  const before = where(state);
  const moves = [...where(target)]
    .filter(
      ([id, range]) => before.has(id) && (before.get(id)!.day !== range.day || before.get(id)!.start !== range.start),
    )
    .map(([id, range]) => ({ task_id: id, day: range.day, slot_start: range.start }));
  const writes = [{ name: "batch_move", arguments: { moves } }];
  const applied = moves.length >= 2 ? applyWrites(state, writes) : undefined;
  if (!applied || !allowed(writes)) return undefined;
  const scoreAfter = analyzeHealth(applied, preferences).score;
  const summary = `${label(moves.length)}: ${moves.map((move) => summaryOf(state, [{ name: "move", arguments: move }])).join("; ")}`;
  return { kind: "chain", writes, summary, scoreAfter, delta: round(scoreAfter - score) };
}

/**
 * Every placed review arranged again from scratch — the placement search on the week without them, on the quietest days
 * first, then the best single moves and swaps while they raise the score — as one `batch_move` of the reviews that
 * end up elsewhere; undefined when it does not place them all, moves fewer than two, or crosses a hard limit.
 */
function rearrangementOf(
  state: ScheduleState,
  score: number,
  preferences: HealthPreferences,
  allowedIn: AllowedIn,
  work: ChangeWork,
): Omit<ScheduleCandidate, "id"> | undefined {
  const placed = state.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "placed" && task.slots?.length === 1,
  );
  if (placed.length < 2 || work.exhausted) return undefined;
  let base = state;
  for (const task of placed) {
    const unplaced = unplaceTool.run(base, { task_id: task.id });
    if (!unplaced.ok || !unplaced.state) return undefined;
    base = unplaced.state;
  }
  const avoid = new Set(preferences.avoidDays ?? []);
  const { room, dayLoad, rules: book } = searchInputOf(base);
  const search = searchPlacements(
    placed.map((task) =>
      withRules({ id: task.id, duration: task.duration, ...(avoid.size > 0 ? { notDays: avoid } : {}) }, task, book),
    ),
    room,
    { ...work.search, dayLoad },
  );
  if (search.stop === "budget") work.exhausted = true;
  if (search.placements.length < placed.length) return undefined;
  const arranged = applyWrites(
    base,
    search.placements.map((placement) => ({
      name: "place",
      arguments: { task_id: placement.id, day: placement.day, slot_start: placement.start },
    })),
  );
  return arranged
    ? batchMoveTo(
        state,
        climb(arranged, preferences, allowedIn, { work }).week,
        score,
        preferences,
        allowedIn(state),
        (count) => `arrange ${count} reviews again`,
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
