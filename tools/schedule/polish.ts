/**
 * Polishing what was just placed: the reviews moved or swapped among themselves while the score rises, a week of days at a
 * time (`polishPlacements`), and a rearrangement that makes room for more to fit.
 */
import { healthSteps, type HealthPreferences } from "./health.js";
import { placementSteps } from "./placement-search.js";
import type { SearchTask } from "./rules.js";
import type { ScheduleState, TaskItem } from "./state.js";
import { BATCH_MOVE_LIMIT } from "./tools/batch-move.js";
import type { Steps } from "./steps.js";
import { applyWrites, placesApplied, type Write } from "./candidate-writes.js";
import { round, type ScheduleCandidate, summaryOf } from "./candidate-listing.js";
import { movablePlaced, roomWithout, searchTasksOf } from "./search-tasks.js";
import { type AllowedIn, BLOCK_DAYS, ChangeWork, climb, type Fits, modelWithin, weekOf } from "./change-scan.js";

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
export function* chainOf(
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
export interface Rearranging {
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
export function* rearrangementOf(
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
