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
 *
 * The parts: a candidate's writes (`candidate-writes.ts`), the listing and its budget (`candidate-listing.ts`), the
 * reviews a search takes (`search-tasks.ts`), single changes scored and climbed (`change-scan.ts`), and polishing what
 * was just placed (`polish.ts`); this file proposes.
 */
import { saySummary } from "./summary-phrases.js";
import { analyzeHealth, healthSteps, type HealthPreferences } from "./health.js";
import { placementSteps } from "./placement-search.js";
import { deadlinePassed, isFixedByClock, ruleBookOf } from "./rules.js";
import type { ScheduleState, TaskItem } from "./state.js";
import { finish, finishAsync, type Steps } from "./steps.js";
import { type AvoidedPlace, targetsOf, tasksOf, type Write } from "./candidate-writes.js";
import {
  type ChangeBudget,
  DEFAULT_CANDIDATES,
  MAX_CANDIDATES,
  type ScheduleCandidate,
  type ScheduleListing,
} from "./candidate-listing.js";
import {
  missedAhead,
  movablePlaced,
  openReviewsOf,
  pendingAhead,
  placesIn,
  rejectedOf,
  roomWithout,
  searchTasksOf,
} from "./search-tasks.js";
import { ChangeWork, type Fits, singleChanges } from "./change-scan.js";
import { chainOf, rearrangementOf, type Rearranging } from "./polish.js";

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
