/**
 * The reviews a candidate search takes: those still open ahead of the clock (pending, missed), the placed ones it may
 * move, the room a review leaves, and the places the user rejected.
 */
import { analyzeHealth, type HealthPreferences } from "./health.js";
import { searchInputOf } from "./placement-search.js";
import { buildOccupancyIndex } from "./occupancy-index.js";
import { commitUnplaces } from "./placement.js";
import { deadlinePassed, isFixedByClock, ruleBookOf, withRules, type RuleBook, type SearchTask } from "./rules.js";
import type { ScheduleState, TaskItem } from "./state.js";
import type { AvoidedPlace } from "./candidate-writes.js";
import type { ScheduleCandidate } from "./candidate-listing.js";

/** How many more reviews stand placed once a candidate's writes apply: those it places less those it takes off. */
export function placesIn(candidate: Pick<ScheduleCandidate, "writes">): number {
  const count = (name: string) => candidate.writes.filter((write) => write.name === name).length;
  return count("place") - count("unplace");
}

/**
 * The pending reviews a rearrangement may place beside the placed ones, their deadline still ahead: every one with
 * `placePending`; without it (a refinement, which does not place what the arrangement left out where it fits), only
 * those that fit nowhere beside the others as they are placed — what moving them is the one way to place — and those
 * the task tried to place and the tool refused (`retry`).
 */
export function openReviewsOf(
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
export function missedAhead(state: ScheduleState, book: RuleBook): TaskItem[] {
  return state.tasks.filter(
    (task): task is TaskItem =>
      task.source === "task_item" && task.status === "missed" && !task.slots?.length && !deadlinePassed(task, book),
  );
}

/** The pending reviews whose deadline has not passed. */
export function pendingAhead(state: ScheduleState, book: RuleBook): TaskItem[] {
  return state.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "pending" && !deadlinePassed(task, book),
  );
}

/** The week with the placed reviews at `positions` taken off at once (one copy of the week), and its search input. */
export function roomWithout(state: ScheduleState, positions: readonly number[]) {
  const base = positions.length > 0 ? commitUnplaces(state, buildOccupancyIndex(state), positions) : state;
  return { base, ...searchInputOf(base) };
}

/** A task's places and days the user rejected, as the placement search keeps off them. */
export function rejectedOf(avoided: readonly AvoidedPlace[], id: string): Pick<SearchTask, "notDays" | "notAt"> {
  const own = avoided.filter((place) => place.task_id === id && place.day !== undefined);
  const notDays = new Set(own.filter((place) => place.slot_start === undefined).map((place) => place.day!));
  const notAt = new Set(
    own.filter((place) => place.slot_start !== undefined).map((place) => `${place.day}:${place.slot_start}`),
  );
  return { ...(notDays.size > 0 ? { notDays } : {}), ...(notAt.size > 0 ? { notAt } : {}) };
}

/** Where in `state.tasks` the placed reviews that may be arranged again are: one place each, not fixed by the clock. */
export function movablePlaced(state: ScheduleState, book: RuleBook = ruleBookOf(state)): number[] {
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
export function searchTasksOf(
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
