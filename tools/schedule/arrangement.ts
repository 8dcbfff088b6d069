/**
 * `propose_arrangement`'s search (seed 003: the backend decides, the model chooses): where the pending reviews go,
 * found by the exact placement search (issue 46: under every rule and limit), as one candidate (`a1`) of `place`
 * writes for the model — or the offline policy — to choose. It keeps to the limits the step and the user gave: which tasks, which days and
 * slots, and per task the days, slots and places the user turned down (a rejected place is never proposed again).
 * What gets no place is told, each with why, truthfully.
 *
 * Nothing here changes the week; the score of each proposal is the health judge's once its writes apply.
 */
import { weekdayName } from "../../contracts/language.js";
import { ChangeWork } from "./change-scan.js";
import { forcedText, moreFitRearranged } from "./candidates.js";
import { polishPlacements } from "./polish.js";
import { POLISH_BUDGET_NOTE, type ChangeBudget, type ScheduleListing } from "./candidate-listing.js";
import { placesApplied } from "./candidate-writes.js";
import { healthSteps, type HealthPreferences } from "./health.js";
import {
  placementSteps,
  searchInputOf,
  type PlannedPlacement,
  type SearchTask,
  type StopReason,
} from "./placement-search.js";
import { fitsAnywhere, type SearchRoom } from "./search-room.js";
import { deadlinePassed, standingBookOf, withinDayBounds, withRules, type RuleBook } from "./rules.js";
import { finish, finishAsync, type Steps } from "./steps.js";
import type { ScheduleState, StandingRule, TaskItem } from "./state.js";
import { saySummary, SUMMARY_WORDS, type SummaryKey, type SummaryParams } from "./summary-phrases.js";

/** One task's limits, as the user gave them (feedback on a card, or the request). */
export interface TaskLimits {
  task_id: string;
  /** Only these days. */
  days?: number[];
  /** Never these days. */
  not_days?: number[];
  /** First slot it may start at. */
  from?: number;
  /** Last slot it may end at. */
  to?: number;
  /** Places the user rejected: never proposed again. */
  not_at?: Array<{ day: number; slot_start: number }>;
}

/** What an arrangement keeps to. */
export interface ArrangementOptions extends HealthPreferences {
  /** Only these pending tasks (default: every pending review). */
  taskIds?: readonly string[];
  /** Pending tasks to leave pending. */
  skipIds?: readonly string[];
  /** Only these days. */
  days?: readonly number[];
  /** Only these slots of each day. */
  slots?: { from?: number; to?: number };
  /** Parts of days to keep free ("not tonight": the evening's slots of today), each its day and slots from-to. */
  keepFree?: readonly KeptFree[];
  /** Per task. */
  limits?: readonly TaskLimits[];
  /** At most this many placements in the proposal (a card); the rest fit once they apply and the week is listed again. */
  maxPlaces?: number;
  /**
   * The work it may do (search nodes per search, changes scored while polishing, a deadline on a clock); the defaults
   * without. Past it the listing keeps the best found so far and says so (`stop: "budget"`): nothing is "proved".
   */
  budget?: ChangeBudget;
}

/** Slots `from`-`to` of day `day`, kept free of the arrangement's placements. */
export interface KeptFree {
  day: number;
  from: number;
  to: number;
}

/** A pending task the arrangement gives no place, and why. */
export interface LeftPending {
  id: string;
  why: string;
}

/**
 * How many pending reviews still fit somewhere as the week stands, nothing else moved, under every rule (the clock
 * too when the state carries one). A review that fits only once others move is not counted: making room is the
 * arrangement's and the refinement's.
 */
export function pendingThatFit(state: ScheduleState): number {
  return pendingFitting(state).length;
}

/** The ids of the pending reviews that still fit somewhere as the week stands (`pendingThatFit`'s, each named). */
export function pendingFitting(state: ScheduleState): string[] {
  const pending = state.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "pending",
  );
  if (pending.length === 0) return [];
  const { room, rules: book } = searchInputOf(state);
  return pending
    .filter((task) => fitsAnywhere(withRules(searchTaskOf(task, undefined), task, book), room))
    .map((task) => task.id);
}

/** One proposal that places as many of the pending reviews in scope as fit, within the limits. */
export function proposeArrangement(state: ScheduleState, options: ArrangementOptions = {}): ScheduleListing {
  return finish(arrangementSteps(state, options));
}

/** `proposeArrangement` in slices that give the event loop back (`finishAsync`): the same proposal. */
export function proposeArrangementAsync(
  state: ScheduleState,
  options: ArrangementOptions = {},
): Promise<ScheduleListing> {
  return finishAsync(arrangementSteps(state, options));
}

/** `proposeArrangement` as work that pauses now and then (`steps.ts`). */
export function* arrangementSteps(state: ScheduleState, options: ArrangementOptions = {}): Steps<ScheduleListing> {
  const preferences: HealthPreferences = {
    ...(options.avoidDays ? { avoidDays: options.avoidDays } : {}),
    ...(options.preferredSlots ? { preferredSlots: options.preferredSlots } : {}),
  };
  const work = new ChangeWork(options.budget);
  const score = (yield* healthSteps(state, preferences, work.search)).score;
  const pending = state.tasks.filter(
    (task): task is TaskItem => task.source === "task_item" && task.status === "pending",
  );
  const named = options.taskIds ? new Set(options.taskIds) : undefined;
  const skipped = new Set(options.skipIds ?? []);
  const scope = pending.filter((task) => (!named || named.has(task.id)) && !skipped.has(task.id));
  if (scope.length === 0)
    return {
      candidates: [],
      score,
      empty: pending.length === 0 ? "no review task is pending" : "none of the tasks asked for is pending",
    };

  const { room, dayLoad, rules: book } = searchInputOf(state);
  const only = new Set(options.days ?? []);
  const notDays = new Set(options.avoidDays ?? []);
  const from = Math.max(1, options.slots?.from ?? 1);
  const to = Math.min(state.window.slotsPerDay, options.slots?.to ?? state.window.slotsPerDay);
  const keepFree = options.keepFree ?? [];
  const step: StepLimits = { days: [...only], notDays: [...notDays], from, to, keepFree };
  const limits = new Map((options.limits ?? []).map((entry) => [entry.task_id, entry]));
  const tasks = scope.map((task) => withRules(stepped(searchTaskOf(task, limits.get(task.id)), step), task, book));
  // One exact search under every rule and limit: the most placed, then by priority.
  yield;
  const search = yield* placementSteps(tasks, room, { ...work.search, dayLoad });
  const budgetStop = search.stop === "budget";
  // Tasks the user gave limits for come first: their place answers what they said.
  const placements = [...search.placements].sort((a, b) => Number(limits.has(b.id)) - Number(limits.has(a.id)));
  const placed = new Set(placements.map((entry) => entry.id));
  const stepLimited =
    only.size > 0 || notDays.size > 0 || from > 1 || to < state.window.slotsPerDay || keepFree.length > 0;
  const left: LeftPending[] = scope
    .filter((task) => !placed.has(task.id))
    .map((task) => ({
      id: task.id,
      why: whyLeftOut(task, limits.get(task.id), room, stepLimited ? step : undefined, state, book, search.stop),
    }));
  const leftPart = left.length > 0 ? { left } : {};
  if (placements.length === 0) {
    return budgetStop
      ? { candidates: [], score, empty: "no place found within the search budget", ...leftPart, stop: "budget" }
      : { candidates: [], score, empty: "no pending review in scope fits into the free time", ...leftPart };
  }

  // The search places the most that fit; where among the room they go is then polished by the health judge, within
  // the same limits, so the card proposes the week the refinement would otherwise move them to. All of them are
  // polished together (a card of `maxPlaces` takes the first of them: the rest still fit once it applies).
  yield;
  const all = yield* polishedPlacements(state, placements, tasks, preferences, work);
  const chosen = all.slice(0, Math.max(1, options.maxPlaces ?? all.length));
  const later = all.length - chosen.length;
  const writes = placedAt(chosen);
  const after = yield* placesApplied(state, writes);
  if (!after) return { candidates: [], score, empty: "the search's placements do not apply (a bug: please report it)" };
  // Its score is read whatever the polishing spent: within the search's nodes, not its deadline.
  yield;
  const afterReport = yield* healthSteps(after, preferences, work.undated());
  const scoreAfter = afterReport.score;
  const proved = search.exact && !stepLimited && limits.size === 0;
  // Past their deadline (issue 47): said as such, not counted among what the search proved has no room.
  const overdue = left.filter((entry) =>
    deadlinePassed(
      scope.find((task) => task.id === entry.id)!,
      book,
    ),
  ).length;
  const roomless = left.length - overdue;
  const summary = [
    `place ${writes.length} of ${scope.length} pending review(s)`,
    ...(later > 0 ? [`${later} more fit after these: list again once they apply`] : []),
    ...(overdue > 0 ? [`${overdue} cannot fit (deadline passed)`] : []),
    ...(roomless > 0
      ? [
          budgetStop
            ? `${roomless} not placed (not found within the search budget)`
            : // Kept to the days, slots or limits asked for, what is left may fit elsewhere in the week: said so.
              `${roomless} cannot fit${stepLimited || limits.size > 0 ? " where asked" : !proved ? "" : moreFitRearranged(after, preferences, roomless) ? " beside the reviews already placed (moving them may make room)" : " (proved)"}`,
        ]
      : []),
  ].join("; ");
  const searchStopped = budgetStop || afterReport.feasibility.stop === "budget";
  // What fits nowhere beside the card's placements is forced only when the search proved nothing places more.
  const forced = later === 0 && !budgetStop ? forcedText(afterReport, after, preferences) : undefined;
  return {
    candidates: [
      {
        id: "a1",
        kind: "arrangement",
        writes,
        summary,
        scoreAfter,
        delta: Math.round((scoreAfter - score) * 10) / 10,
        places: chosen,
      },
    ],
    score,
    ...(later > 0 ? { later } : {}),
    ...leftPart,
    ...(forced ? { forced } : {}),
    ...(searchStopped
      ? { stop: "budget" as const }
      : work.exhausted
        ? { stop: "budget" as const, budgetNote: POLISH_BUDGET_NOTE }
        : {}),
  };
}

/**
 * `placements` (the search's) polished: applied, then moved and swapped among themselves while the health score
 * rises, each within its search task's limits — the step's days and slots, the user's, the places it must not start
 * at (rejected, or reaching into a part kept free) — as the search kept to them; in the same order. Each polished place is free, and keeps the
 * rules, in the polished week, so any of them apply as place writes on `state` (the caller applies its card's).
 */
function* polishedPlacements(
  state: ScheduleState,
  placements: readonly PlannedPlacement[],
  tasks: readonly SearchTask[],
  preferences: HealthPreferences,
  work: ChangeWork,
): Steps<PlannedPlacement[]> {
  const searched = yield* placesApplied(state, placedAt(placements));
  if (!searched || placements.length === 0) return [...placements];
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const allowed = (target: { task_id: string; day: number; slot_start: number }) => {
    const task = byId.get(target.task_id);
    if (!task || (task.days && !task.days.has(target.day)) || task.notDays?.has(target.day)) return false;
    // A place's key is made only for a task with starts it must not take (the polishing asks of every change worth
    // taking).
    if (task.notAt && task.notAt.size > 0 && task.notAt.has(`${target.day}:${target.slot_start}`)) return false;
    const end = target.slot_start + task.duration - 1;
    return (
      target.slot_start >= (task.from ?? 1) &&
      end <= (task.to ?? end) &&
      withinDayBounds(task, target.day, target.slot_start, end)
    );
  };
  const week = yield* polishPlacements(
    searched,
    new Set(placements.map((entry) => entry.id)),
    preferences,
    allowed,
    work,
  );
  // Each task looked up by id (the first of that id, as a walk would find it), not a walk of the window's tasks per
  // placement (a long window's hundreds of placements made that quadratic).
  const polished = new Map<string, ScheduleState["tasks"][number]>();
  for (const task of week.tasks) if (!polished.has(task.id)) polished.set(task.id, task);
  return placements.map((entry): PlannedPlacement => {
    const task = polished.get(entry.id);
    const range = task?.source === "task_item" ? task.slots?.[0] : undefined;
    if (task?.source !== "task_item" || !range) return entry;
    return {
      id: entry.id,
      day: range.day,
      start: range.start,
      end: range.end,
      ...(task.embeddedIn ? { hostId: task.embeddedIn } : {}),
    };
  });
}

/** Placements as `place` writes. */
function placedAt(entries: readonly PlannedPlacement[]): Array<{ name: string; arguments: Record<string, unknown> }> {
  return entries.map((entry) => ({
    name: "place",
    arguments: { task_id: entry.id, day: entry.day, slot_start: entry.start },
  }));
}

/** The search's view of a task under its limits. */
function searchTaskOf(task: TaskItem, limits: TaskLimits | undefined): SearchTask {
  const searchTask: SearchTask = { id: task.id, duration: task.duration };
  if (limits?.days?.length) searchTask.days = new Set(limits.days);
  if (limits?.not_days?.length) searchTask.notDays = new Set(limits.not_days);
  if (limits?.from !== undefined) searchTask.from = limits.from;
  if (limits?.to !== undefined) searchTask.to = limits.to;
  if (limits?.not_at?.length)
    searchTask.notAt = new Set(limits.not_at.map((place) => `${place.day}:${place.slot_start}`));
  return searchTask;
}

/**
 * A search task kept to the step's limits too: its days, the days it avoids, its slots, and the parts of days kept
 * free — as the starts from which it would reach into them (`notAt`, which the search and its polishing keep to).
 */
function stepped(task: SearchTask, step: StepLimits): SearchTask {
  const days = step.days.length > 0 ? step.days.filter((day) => !task.days || task.days.has(day)) : undefined;
  const notDays = new Set([...(task.notDays ?? []), ...step.notDays]);
  const notAt = new Set(task.notAt ?? []);
  // (Only the starts the step allows at all: a part said past the day's last slot — "to": 10^12 from a model — is
  // walked no further than it.)
  for (const kept of step.keepFree)
    for (let start = Math.max(1, kept.from - task.duration + 1); start <= Math.min(kept.to, step.to); start += 1)
      notAt.add(`${kept.day}:${start}`);
  return {
    ...task,
    ...(days ? { days: new Set(days) } : {}),
    ...(notDays.size > 0 ? { notDays } : {}),
    ...(notAt.size > 0 ? { notAt } : {}),
    ...(step.from > 1 ? { from: Math.max(task.from ?? 1, step.from) } : {}),
    to: Math.min(task.to ?? step.to, step.to),
  };
}

/** The step's own limits: its days, the days it avoids, its slots, the parts of days it keeps free. */
interface StepLimits {
  days: number[];
  notDays: number[];
  from: number;
  to: number;
  keepFree: readonly KeptFree[];
}

/**
 * Why a task in scope got no place, truthfully: the other placements took the room it fits in, or its limits (the
 * user's, the step's days and slots) leave no free slot that fits, or no free slot fits it at all. When the search
 * stopped at its budget, room beside the others was not found in time (not that there is none).
 */
function whyLeftOut(
  task: TaskItem,
  limits: TaskLimits | undefined,
  room: SearchRoom,
  step: StepLimits | undefined,
  state: ScheduleState,
  book: RuleBook,
  stop: StopReason,
): string {
  const say = (key: SummaryKey, params?: SummaryParams) => saySummary("en", key, params);
  if (deadlinePassed(task, book)) return say("deadlinePassed");
  const whole: StepLimits = { days: [], notDays: [], from: 1, to: state.window.slotsPerDay, keepFree: [] };
  const within = (searchTask: SearchTask, notAt = true) =>
    fitsAnywhere(stepped(notAt ? searchTask : { ...searchTask, notAt: new Set() }, step ?? whole), room);
  const own = searchTaskOf(task, limits);
  if (within(withRules(own, task, book))) return stop === "budget" ? say("notFoundInBudget") : say("noRoomBeside");
  // Room there is, but the rules rule it out: the user's standing preferences (named), or the task's own rules.
  if (within(own)) {
    const withoutStanding: RuleBook = { ...book, standing: { avoid: new Map(), preferredParts: [] } };
    if (!within(withRules(own, task, withoutStanding))) {
      // The task's own rules: its class's and its deadline's, its group's (another session on each day with room for
      // it), or both together — each named only when it is what blocks it.
      const group = task.group && !task.group.sameDay ? task.group : undefined;
      const classRules = say("classRules");
      if (!group) return classRules;
      const { group: _group, ...ungrouped } = task;
      const what = group.kind === "habit" ? "habit" : "task";
      if (within(withRules(own, ungrouped, withoutStanding))) return say("sessionEachDay", { what, group: group.id });
      const { dueBefore: _due, earliestDay: _earliest, ...unruled } = task;
      if (within(withRules(own, { ...unruled, categoryId: "" }, withoutStanding))) return classRules;
      return say("classRulesApart", { what, group: group.id });
    }
    const binding = [
      ...new Set(
        [book.standing, ...(book.standing.onWeekday?.values() ?? [])]
          .flatMap((bounds) => [bounds.from?.rule, bounds.to?.rule])
          .concat([...book.standing.avoid.values()])
          .flatMap((rule) => (rule ? [rule] : [])),
      ),
    ];
    // Named: the preferences whose removal alone lets it fit (what a person can do), else those that rule it out on
    // their own, else — only together do they — all of them.
    const ruledBy = (rules: readonly StandingRule[]) =>
      !within(withRules(own, task, { ...book, standing: standingBookOf(rules, state.window) }));
    const lifting = binding.filter((rule) => !ruledBy((state.standing ?? []).filter((other) => other !== rule)));
    const alone = binding.filter((rule) => ruledBy([rule]));
    const standing = (lifting.length > 0 ? lifting : alone.length > 0 ? alone : binding).map((rule) =>
      JSON.stringify(rule.text),
    );
    return say("standingRulesOut", { rules: standing.join(", ") });
  }
  const bare: SearchTask = { id: task.id, duration: task.duration };
  if (!fitsAnywhere(bare, room))
    return room.opens > 0 && fitsAnywhere(bare, { ...room, opens: 0 })
      ? say("noFreeSlotRestPassed")
      : say("noFreeSlot");
  const blocking =
    step && !within(bare)
      ? [
          ...limitsText(
            { task_id: task.id, days: step.days, not_days: step.notDays, from: step.from, to: step.to },
            state,
          ),
          ...step.keepFree.map((kept) =>
            saySummary("en", "limitOutsideSlots", {
              days: daysText([kept.day], state),
              start: kept.from,
              end: kept.to,
            }),
          ),
        ]
      : [];
  // The places rejected for it are named only when they are what blocks it.
  if (limits) {
    blocking.push(...limitsText({ ...limits, not_at: [] }, state));
    if (within(own, false)) blocking.push(say("limitRejected"));
  }
  // Where the step's days would fit it but their time has passed ("put it today" at 23:50): said, never as if those
  // days had no room.
  const passed = step !== undefined && room.opens > 0 && fitsAnywhere(stepped(bare, step), { ...room, opens: 0 });
  // A limit given twice (a day off for the step and for the task) is said once.
  return blocking.length > 0
    ? say(passed ? "noFreeSlotWithinPassed" : "noFreeSlotWithin", {
        limits: [...new Set(blocking)].join(SUMMARY_WORDS.en.limitsAnd),
      })
    : say("noFreeSlot");
}

/** Days as the limits name them: weekday names in a window of a week, day numbers in a longer one (`limitDay`). */
function daysText(days: readonly number[], state: ScheduleState): string {
  const long = state.window.totalDays > 7;
  const weekday = (day: number) =>
    state.window.days.find((entry) => entry.dayIndex === day)?.dayOfWeek ?? ((day - 1) % 7) + 1;
  return [
    ...new Set(days.map((day) => (long ? saySummary("en", "limitDay", { day }) : weekdayName(weekday(day), "en")))),
  ].join(SUMMARY_WORDS.en.limitDaysAnd);
}

/** Limits in words, each a phrase of the summary table ("only on Tuesday", "outside Friday", "in slots 9-12"). */
function limitsText(limits: TaskLimits, state: ScheduleState): string[] {
  const parts: string[] = [];
  const slots = state.window.slotsPerDay;
  if (limits.days?.length) parts.push(saySummary("en", "limitOnlyOn", { days: daysText(limits.days, state) }));
  if (limits.not_days?.length) parts.push(saySummary("en", "limitOutside", { days: daysText(limits.not_days, state) }));
  if ((limits.from !== undefined && limits.from > 1) || (limits.to !== undefined && limits.to < slots))
    parts.push(saySummary("en", "limitSlots", { start: limits.from ?? 1, end: Math.min(limits.to ?? slots, slots) }));
  return parts;
}
