/**
 * The health judge of a week (seed 003's `analyze_health`): a pure function of the schedule — and of the user's
 * preferences, when there are any — to metrics a student would recognise, one score out of 100, and the issues
 * behind the lost points, each naming its tasks and days. The candidate loop (`candidates.ts`) re-runs it on every
 * changed week it considers, so a candidate's worth is the score it would leave.
 *
 * - rhythm: review slots per day, how unevenly they spread (standard deviation), days heavier than
 *   `HEAVY_DAY_SLOTS`, reviews right after one another with no break (back to back);
 * - tightness: reviews with something busy on both sides (no buffer), single free slots left between busy ones
 *   (fragmented free time);
 * - profile: reviews on a day the user avoids or outside the part of the day they prefer, and reviews placed before a
 *   standing preference was said on a day or at an hour it now rules out;
 * - feasibility: reviews still to place — pending ones, and missed ones not made up (a missed review has no place and
 *   is work still to do until it is placed again, done or skipped, as `at-risk.ts` counts it) — that still fit
 *   somewhere (the exact placement search says how many at most) and those that cannot fit anywhere — proved when the search is exact, and then a forced imperfection; when the search
 *   stopped at its budget (a big week), they are "not found within the search budget", never proved.
 *
 * The past is fixed (issue 47 item 1): with a clock (`ScheduleState.now`), the judge scores only what can still change.
 * A placed review whose place has started is history: it adds no penalty of its own and no load to its day — it is
 * busy time beside the reviews still ahead, as an event is — the spread is over the days not yet over, and a single
 * free slot that has started is no longer free time to lose. A week's score is then the score of its future alone.
 *
 * Each issue's message names days as the tools do, `day 3 (Wed 13 Mar 2024)` in a dated window, so a model can act on
 * the index and a person reads the date (`readable.ts`).
 */
import { placementSteps, searchInputOf, type SearchBudget, type SearchTask } from "./placement-search.js";
import { finish, type Steps } from "./steps.js";
import { FREE, buildOccupancyIndex, cellOf, type OccupancyIndex } from "./occupancy-index.js";
import {
  dayText,
  deadlinePassed,
  isFixedByClock,
  partsOf,
  preferredPartsOn,
  withRules,
  type RuleBook,
} from "./rules.js";
import { standingRuleAgainst } from "./placed-against.js";
import { formatRange } from "./format.js";
import { breakInside } from "./slot-range.js";
import { hasStarted, type WindowClock } from "./window-clock.js";
import type { ScheduleState, ScheduleWindow, SlotRange, TaskItem } from "./state.js";

/** What the user prefers (issue 31 fills it from their profile; task classes add their own in issue 30). */
export interface HealthPreferences {
  /** Day indices the user does not want reviews on. */
  avoidDays?: readonly number[];
  /** The part of the day reviews should lie in (slots, inclusive). */
  preferredSlots?: { from: number; to: number };
}

/** The kinds of issue the judge reports. */
export type HealthIssueKind =
  | "unplaced"
  | "cannot_fit"
  | "heavy_day"
  | "uneven"
  | "back_to_back"
  | "no_buffer"
  | "fragmented"
  | "off_profile"
  | "off_strategy";

/** One reason the week loses points. */
export interface HealthIssue {
  kind: HealthIssueKind;
  /** Points it costs. */
  penalty: number;
  /** True when nothing can fix it (a review proved not to fit anywhere). */
  forced: boolean;
  /** Ids of the tasks concerned. */
  tasks: string[];
  /** Day indices concerned. */
  days: number[];
  /** One sentence for the model and the user. */
  message: string;
}

/** The judge's verdict on a week. */
export interface HealthReport {
  /** 100 minus the issues' penalties, never below 0, to one decimal. */
  score: number;
  rhythm: {
    /** Review slots per day, day 1 first: of the reviews not yet started (a day that is over holds none). */
    dailyLoad: number[];
    /** Standard deviation of `dailyLoad` over the days not yet over (`firstOpenDayOf` on), to two decimals. */
    spread: number;
    /** Days with more than `HEAVY_DAY_SLOTS` review slots. */
    heavyDays: number[];
    /** Pairs of reviews with no free slot between them. */
    backToBack: number;
  };
  tightness: {
    /** Placed reviews with something busy right before and right after. */
    unbuffered: number;
    /** Single free slots with something busy on both sides. */
    isolatedSlots: number;
  };
  profile: {
    /** Reviews on an avoided day or outside the preferred slots. */
    offProfile: number;
  };
  feasibility: {
    /** Pending reviews. */
    pending: number;
    /** Missed reviews without a place (not made up): still to place, as the pending ones are; absent when none. */
    missed?: number;
    /** How many of the reviews still to place (pending and missed) fit into the free time at most. */
    placeable: number;
    /** Reviews still to place (pending and missed) that fit nowhere beside the others, or whose deadline passed. */
    cannotFit: number;
    /** True when the search proved `placeable` is the most that fits (never with days kept free: only of the rest). */
    proved: boolean;
    /** "budget" when the search stopped at its budget (a big week): then nothing is proved. */
    stop?: "budget";
    /**
     * The reviews still to place (pending and missed) whose deadline the clock has passed, by id and name: nothing can
     * place them any more, so each costs points until the user lets it go (`skip`); absent when none.
     */
    passed?: Array<{ id: string; name: string }>;
  };
  /** Every issue, the costliest first. */
  issues: HealthIssue[];
}

/** Review slots in a day above which the day is heavy. */
export const HEAVY_DAY_SLOTS = 4;

/** Points each issue costs. */
export const HEALTH_PENALTIES = {
  /** A pending review that still fits somewhere. */
  unplaced: 12,
  /** A pending review that fits nowhere. */
  cannotFit: 6,
  /** Each review slot of a day above `HEAVY_DAY_SLOTS`. */
  heavySlot: 3,
  /** Per unit of standard deviation of the daily review load. */
  spread: 2,
  /** Each pair of reviews back to back. */
  backToBack: 3,
  /** Each review with no buffer on either side. */
  noBuffer: 1.5,
  /** Each single free slot squeezed between busy ones. */
  isolatedSlot: 0.5,
  /** Each review outside the user's preferences. */
  offProfile: 5,
  /** Each session against its class's strategy: a second one on a day (steady), or a day more than needed (compact). */
  offStrategy: 2,
  /** Each session of a habit or long task on a day another of its group holds already (the rules refuse it on a write). */
  sameDaySession: 4,
} as const;

/** Judges the week; its feasibility search keeps to `budget` (the search's defaults without). */
export function analyzeHealth(
  state: ScheduleState,
  preferences: HealthPreferences = {},
  budget: SearchBudget = {},
): HealthReport {
  return finish(healthSteps(state, preferences, budget));
}

/** `analyzeHealth` as work that pauses now and then (`steps.ts`): its feasibility search in slices. */
export function* healthSteps(
  state: ScheduleState,
  preferences: HealthPreferences = {},
  budget: SearchBudget = {},
): Steps<HealthReport> {
  const index = buildOccupancyIndex(state);
  const reviews = state.tasks.filter((task): task is TaskItem => task.source === "task_item");
  // The past is fixed: a review whose place has started is busy time, not a review to judge (see the file's comment).
  const placed = reviews.filter(
    (task) => task.status === "placed" && (task.slots?.length ?? 0) > 0 && !isFixedByClock(task, index.rules),
  );
  const pending = reviews.filter((task) => task.status === "pending");
  // A missed review not made up is still to place (it has no place: `mark_missed` and the roll free it).
  const missed = reviews.filter((task) => task.status === "missed" && (task.slots?.length ?? 0) === 0);
  const judging: Judging = {
    state,
    index,
    placed,
    firstOpen: firstOpenDayOf(state.window, index.rules.clock),
    name: (task) => JSON.stringify(task.name),
    day: (each) => dayText(each, index.rules),
  };
  const rhythm = rhythmOf(judging);
  const tightness = tightnessOf(judging);
  const profile = offProfileOf(judging, preferences);
  const strategy = strategyIssues(judging);
  const feasibility = yield* feasibilitySteps(judging, { pending, missed }, preferences, budget);
  const issues = [...rhythm.issues, ...tightness.issues, ...profile.issues, ...strategy, ...feasibility.issues];
  issues.sort((a, b) => b.penalty - a.penalty || a.kind.localeCompare(b.kind));
  const score = Math.max(0, round(100 - issues.reduce((sum, issue) => sum + issue.penalty, 0), 1));
  return {
    score,
    rhythm: rhythm.figures,
    tightness: tightness.figures,
    profile: profile.figures,
    feasibility: feasibility.figures,
    issues,
  };
}

/** What every part of the judgement reads: the week, its occupancy, its placed reviews not yet started, and words. */
interface Judging {
  state: ScheduleState;
  index: OccupancyIndex;
  /** The placed reviews whose place has not started (the past is fixed: busy time, not a review to judge). */
  placed: TaskItem[];
  /** The first day not yet over by the clock. */
  firstOpen: number;
  name: (task: TaskItem) => string;
  day: (day: number) => string;
}

/** A part of the judgement: its figures in the report, and the issues it found (in the order found). */
interface Judged<Figures> {
  figures: Figures;
  issues: HealthIssue[];
}

/** Rhythm, over the days not yet over: each day's load, its spread, heavy days, reviews back to back. */
function rhythmOf({ state, placed, firstOpen, name, day }: Judging): Judged<HealthReport["rhythm"]> {
  const { totalDays } = state.window;
  const issues: HealthIssue[] = [];
  const dailyLoad = Array.from({ length: totalDays }, () => 0);
  for (const task of placed) for (const range of task.slots!) dailyLoad[range.day - 1]! += range.end - range.start + 1;
  const spread = spreadOf(
    dailyLoad.reduce((sum, load) => sum + load, 0),
    dailyLoad.reduce((sum, load) => sum + load * load, 0),
    totalDays - firstOpen + 1,
  );
  const heavyDays = dailyLoad.flatMap((load, offset) => (load > HEAVY_DAY_SLOTS ? [offset + 1] : []));
  for (const heavy of heavyDays) {
    const over = dailyLoad[heavy - 1]! - HEAVY_DAY_SLOTS;
    issues.push({
      kind: "heavy_day",
      penalty: over * HEALTH_PENALTIES.heavySlot,
      forced: false,
      tasks: placed.filter((task) => task.slots![0]!.day === heavy).map((task) => task.id),
      days: [heavy],
      message: `${day(heavy)} holds ${dailyLoad[heavy - 1]} review slots (more than ${HEAVY_DAY_SLOTS})`,
    });
  }
  if (spread >= 1) {
    const open = dailyLoad.slice(firstOpen - 1);
    const heaviest = open.indexOf(Math.max(...open)) + firstOpen;
    const lightest = open.indexOf(Math.min(...open)) + firstOpen;
    issues.push({
      kind: "uneven",
      penalty: unevenPenalty(spread),
      forced: false,
      tasks: [],
      days: [heaviest, lightest],
      message: `reviews are spread unevenly (${day(heaviest)} has ${dailyLoad[heaviest - 1]} slots, ${day(lightest)} has ${dailyLoad[lightest - 1]})`,
    });
  }
  const byStart = [...placed].sort(
    (a, b) => a.slots![0]!.day - b.slots![0]!.day || a.slots![0]!.start - b.slots![0]!.start,
  );
  let backToBack = 0;
  for (let position = 1; position < byStart.length; position += 1) {
    const before = byStart[position - 1]!.slots![0]!;
    const after = byStart[position]!.slots![0]!;
    if (before.day !== after.day || before.end + 1 !== after.start) continue;
    backToBack += 1;
    issues.push({
      kind: "back_to_back",
      penalty: HEALTH_PENALTIES.backToBack,
      forced: false,
      tasks: [byStart[position - 1]!.id, byStart[position]!.id],
      days: [after.day],
      message: `${name(byStart[position - 1]!)} and ${name(byStart[position]!)} follow each other with no break on ${day(after.day)}`,
    });
  }
  return { figures: { dailyLoad, spread, heavyDays, backToBack }, issues };
}

/** Tightness: reviews with no buffer around them, single free slots squeezed between busy ones. */
function tightnessOf({ state, index, placed, firstOpen, name, day }: Judging): Judged<HealthReport["tightness"]> {
  const { totalDays, slotsPerDay } = state.window;
  const { clock } = index.rules;
  const issues: HealthIssue[] = [];
  const busy = (day: number, slot: number) => slot >= 1 && slot <= slotsPerDay && isBusy(index, day, slot);
  let unbuffered = 0;
  for (const task of placed) {
    const range = task.slots![0]!;
    if (!busy(range.day, range.start - 1) || !busy(range.day, range.end + 1)) continue;
    unbuffered += 1;
    issues.push({
      kind: "no_buffer",
      penalty: HEALTH_PENALTIES.noBuffer,
      forced: false,
      tasks: [task.id],
      days: [range.day],
      message: `${name(task)} has something busy right before and right after it on ${day(range.day)}`,
    });
  }
  let isolatedSlots = 0;
  const isolatedDays = new Set<number>();
  for (let each = firstOpen; each <= totalDays; each += 1) {
    for (let slot = 2; slot < slotsPerDay; slot += 1) {
      // A free slot that has started is no free time left to lose.
      if (hasStarted(each, slot, clock) || busy(each, slot) || !busy(each, slot - 1) || !busy(each, slot + 1)) continue;
      isolatedSlots += 1;
      isolatedDays.add(each);
    }
  }
  if (isolatedSlots > 0) {
    issues.push({
      kind: "fragmented",
      penalty: isolatedSlots * HEALTH_PENALTIES.isolatedSlot,
      forced: false,
      tasks: [],
      days: [...isolatedDays],
      message: `${isolatedSlots} single free slot(s) are squeezed between busy ones (${[...isolatedDays].map(day).join(", ")})`,
    });
  }
  return { figures: { unbuffered, isolatedSlots }, issues };
}

/** Profile: reviews on an avoided day or outside the preferred slots. */
function offProfileOf(
  { state, index, placed, name }: Judging,
  preferences: HealthPreferences,
): Judged<HealthReport["profile"]> {
  const issues: HealthIssue[] = [];
  const profile = profileOf(state, preferences, index.rules);
  let offProfile = 0;
  for (const task of placed) {
    const range = task.slots![0]!;
    const why = profile(task, range);
    if (!why) continue;
    offProfile += 1;
    issues.push({
      kind: "off_profile",
      penalty: HEALTH_PENALTIES.offProfile,
      forced: false,
      tasks: [task.id],
      days: [range.day],
      message: `${name(task)} is ${why}`,
    });
  }
  return { figures: { offProfile }, issues };
}

/** Strategy: a class's sessions spread or kept together as it names, and no two sessions of one task on a day. */
function strategyIssues({ state, placed, day }: Judging): HealthIssue[] {
  const issues: HealthIssue[] = [];
  // Strategy, for a class that names one: `steady` spreads its sessions (no two on a day), `compact` keeps them on as
  // few days as they can share (one day per session beyond the first that opens a day of its own is off) — a long
  // task's sessions keep to a day each, so the fewest days are its count of sessions, not one (issue 47 item 5).
  for (const category of state.categories) {
    if (!category.strategy) continue;
    const sessions = placed.filter((task) => task.categoryId === category.id);
    const days = [...new Set(sessions.map((task) => task.slots![0]!.day))];
    const off = category.strategy === "steady" ? sessions.length - days.length : days.length - fewestDaysOf(sessions);
    if (off <= 0) continue;
    const message =
      category.strategy === "steady"
        ? `${off} ${category.name} session(s) share a day with another; its strategy is steady (spread over the days)`
        : `${category.name} is spread over ${days.length} days; its strategy is compact (together on few days)`;
    issues.push({
      kind: "off_strategy",
      penalty: off * HEALTH_PENALTIES.offStrategy,
      forced: false,
      tasks: sessions.map((task) => task.id),
      days,
      message,
    });
  }

  // A task's sessions together: two of one habit or long task on one day (a week stored before the rule) is off.
  for (const [group, days] of groupDaysOf(placed)) {
    const kind = placed.find((task) => task.group?.id === group)?.group?.kind === "habit" ? "habit" : "task";
    for (const [shared, ids] of days) {
      if (ids.length < 2) continue;
      issues.push({
        kind: "off_strategy",
        penalty: (ids.length - 1) * HEALTH_PENALTIES.sameDaySession,
        forced: false,
        tasks: ids,
        days: [shared],
        message: `${ids.length} sessions of ${kind} ${group} (${ids.join(", ")}) share ${day(shared)}; no two sessions of one task go on one day`,
      });
    }
  }
  return issues;
}

/** Feasibility: how many reviews still to place (pending, and missed ones not made up) fit beside one another. */
function* feasibilitySteps(
  { state, index, name }: Judging,
  { pending, missed }: { pending: TaskItem[]; missed: TaskItem[] },
  preferences: HealthPreferences,
  budget: SearchBudget,
): Steps<Judged<HealthReport["feasibility"]>> {
  const toPlace = [...pending, ...missed];
  const avoid = new Set(preferences.avoidDays ?? []);
  const issues: HealthIssue[] = [];
  const input = searchInputOf(state, index);
  const searchTasks: SearchTask[] = toPlace.map((task) =>
    withRules(
      { id: task.id, duration: task.duration, ...(avoid.size > 0 ? { notDays: avoid } : {}) },
      task,
      input.rules,
    ),
  );
  const search =
    toPlace.length === 0
      ? { placements: [], exact: true, stop: "exact" as const }
      : yield* placementSteps(searchTasks, input.room, { ...budget, dayLoad: input.dayLoad });
  const fitting = new Set(search.placements.map((placement) => placement.id));
  // A review whose deadline the clock has passed cannot fit, and says so (issue 47): not a question of room.
  /** Reviews of one status by what became of them: they fit, the clock passed their deadline, or they cannot fit. */
  const split = (tasks: TaskItem[]) => {
    const passed = tasks.filter((task) => !fitting.has(task.id) && deadlinePassed(task, input.rules));
    return {
      fit: tasks.filter((task) => fitting.has(task.id)),
      passed,
      cannot: tasks.filter((task) => !fitting.has(task.id) && !passed.includes(task)),
    };
  };
  const parts = [
    { which: "pending", notDone: "are not placed", ...split(pending) },
    { which: "missed", notDone: "are not made up", ...split(missed) },
  ] as const;
  for (const { which, notDone, fit } of parts) {
    if (fit.length === 0) continue;
    issues.push({
      kind: "unplaced",
      penalty: fit.length * HEALTH_PENALTIES.unplaced,
      forced: false,
      tasks: fit.map((task) => task.id),
      days: [],
      message: `${fit.length} ${which} review(s) fit and ${notDone}: ${fit.map(name).join(", ")}`,
    });
  }
  // Kept off the days the request keeps free (`avoidDays`), what is proved is about the other days only: a review that
  // fits on a day kept free is not one nothing can fix.
  const limited = avoid.size > 0;
  const proof = search.exact
    ? limited
      ? "the search proved no free time outside the days kept free holds them beside the others"
      : "the search proved no free time holds them beside the others"
    : search.stop === "budget"
      ? "not found within the search budget"
      : "the search found no room for them (not proved)";
  for (const { which, cannot: tasks } of parts) {
    if (tasks.length === 0) continue;
    issues.push({
      kind: "cannot_fit",
      penalty: tasks.length * HEALTH_PENALTIES.cannotFit,
      forced: search.exact && !limited,
      tasks: tasks.map((task) => task.id),
      days: [],
      message:
        search.stop === "budget"
          ? `${tasks.length} ${which} review(s) got no place: ${tasks.map(name).join(", ")} (${proof})`
          : `${tasks.length} ${which} review(s) cannot fit: ${tasks.map(name).join(", ")} (${proof})`,
    });
  }
  for (const { which, passed: tasks } of parts) {
    if (tasks.length === 0) continue;
    issues.push({
      kind: "cannot_fit",
      penalty: tasks.length * HEALTH_PENALTIES.cannotFit,
      forced: true,
      tasks: tasks.map((task) => task.id),
      days: [],
      message: `${tasks.length} ${which} review(s) cannot fit: ${tasks.map(name).join(", ")} (deadline passed)`,
    });
  }
  return {
    figures: {
      pending: pending.length,
      ...(missed.length > 0 ? { missed: missed.length } : {}),
      placeable: parts.reduce((sum, part) => sum + part.fit.length, 0),
      cannotFit: parts.reduce((sum, part) => sum + part.cannot.length + part.passed.length, 0),
      proved: search.exact && !limited,
      ...(search.stop === "budget" ? { stop: "budget" as const } : {}),
      ...(parts.some((part) => part.passed.length > 0)
        ? { passed: parts.flatMap((part) => part.passed.map((task) => ({ id: task.id, name: task.name }))) }
        : {}),
    },
    issues,
  };
}

/**
 * The first day of `window` not yet over by `clock`: one with a slot not yet started (1 without a clock; `totalDays + 1`
 * once the whole window is over). The spread of the daily load is over it and the days after.
 */
export function firstOpenDayOf(
  window: Pick<ScheduleWindow, "totalDays" | "slotsPerDay">,
  clock: WindowClock | undefined,
): number {
  if (clock === undefined) return 1;
  const today = clock.slot > window.slotsPerDay ? clock.dayIndex + 1 : clock.dayIndex;
  return Math.min(window.totalDays + 1, Math.max(1, today));
}

/**
 * The placed sessions of each task group that keeps its sessions apart (not `sameDay`), by day: group id → day →
 * task ids, in the order given.
 */
export function groupDaysOf(placed: readonly TaskItem[]): Map<string, Map<number, string[]>> {
  const groups = new Map<string, Map<number, string[]>>();
  for (const task of placed) {
    if (!task.group || task.group.sameDay) continue;
    const days = groups.get(task.group.id) ?? new Map<number, string[]>();
    groups.set(task.group.id, days);
    const day = task.slots![0]!.day;
    days.set(day, [...(days.get(day) ?? []), task.id]);
  }
  return groups;
}

/** The fewest days `sessions` (placed, of one class) can share: one, or the most of one group kept apart. */
export function fewestDaysOf(sessions: readonly TaskItem[]): number {
  const counts = new Map<string, number>();
  for (const task of sessions)
    if (task.group && !task.group.sameDay) counts.set(task.group.id, (counts.get(task.group.id) ?? 0) + 1);
  return Math.max(1, ...counts.values());
}

/** True when (day, slot) is taken by something a student is busy with: an event that holds no reviews, or a review. */
function isBusy(index: OccupancyIndex, day: number, slot: number): boolean {
  const cell = cellOf(index, day, slot);
  if ((index.embedded[cell] ?? FREE) !== FREE) return true;
  const occupant = index.primary[cell] ?? FREE;
  if (occupant === FREE) return false;
  const task = index.tasks[occupant];
  // An embeddable event (a self-study hall) with no review in this slot is room, not a commitment.
  return !(task?.source === "event" && task.canEmbed);
}

/**
 * Why a review on `range` is off the user's profile (across a break of the day, a day they avoid, a day a standing
 * preference rules out, outside the preferred slots or the parts its class or the user prefer), or undefined when it
 * is not.
 */
export function profileOf(
  state: ScheduleState,
  preferences: HealthPreferences,
  rules: RuleBook,
): (task: TaskItem, range: SlotRange) => string | undefined {
  const avoid = new Set(preferences.avoidDays ?? []);
  const categories = new Map(state.categories.map((category) => [category.id, category]));
  const window = preferences.preferredSlots;
  // The user's standing preferences: a day they rule out (a session placed before they said so), the parts they prefer.
  const { standing, weekdays } = rules;
  const times = state.window.slotTimes;
  return (task, range) => {
    const preferred =
      categories.get(task.categoryId)?.preferredParts ?? preferredPartsOn(standing, weekdays[range.day - 1] ?? 0);
    const ruledOut = standingRuleAgainst(range, rules);
    // A session stored across a break of the day (placed before the rule was kept): no write puts one there now.
    const broken = breakInside(range, state.window);
    return broken !== undefined
      ? `across the break between ${times![broken - 1]!.end} and ${times![broken]!.start} (a session runs without a break)`
      : avoid.has(range.day)
        ? `on ${dayText(range.day, rules)}, which you avoid`
        : ruledOut
          ? `on ${ruledOut.kind === "avoid_day" || ruledOut.kind === "only_days" ? dayText(range.day, rules) : formatRange(range, state.window)}, which your standing preference ${JSON.stringify(ruledOut.text)} rules out`
          : window && (range.start < window.from || range.end > window.to)
            ? `outside slots ${window.from}-${window.to}`
            : preferred.length > 0 && !partsOf(range, state.window).some((part) => preferred.includes(part))
              ? `outside the ${preferred.join(" or ")} ${categories.get(task.categoryId)?.preferredParts ? "its class prefers" : "you prefer"}`
              : undefined;
  };
}

/**
 * The standard deviation of the daily review load, to two decimals, from the loads' sum and sum of squares over
 * `days` days (integers, so exact: the incremental judge keeps the two sums and gets the same figure).
 */
export function spreadOf(sum: number, sumOfSquares: number, days: number): number {
  const count = Math.max(1, days);
  return round(Math.sqrt(Math.max(0, count * sumOfSquares - sum * sum)) / count, 2);
}

/** What an uneven spread costs (nothing below 1). */
export function unevenPenalty(spread: number): number {
  return spread >= 1 ? round(spread * HEALTH_PENALTIES.spread, 1) : 0;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * An issue's tag in the report the model reads: "(forced)" — no change can fix it — only for reviews past their
 * deadline. One that fits nowhere beside the placed reviews is proved so with them where they are; moving them may make
 * room, which this report does not search (`forcedText` in candidates.ts does, for the listing).
 */
function forcedTag(issue: HealthIssue): string {
  if (!issue.forced) return "";
  return issue.message.endsWith("(deadline passed)") ? " (forced)" : " (no room beside the placed reviews as they are)";
}

/** The report as the model reads it: the score, the metrics in a line each, the issues. */
export function formatHealth(report: HealthReport): string {
  const lines = [
    `health score ${report.score}/100`,
    `rhythm: review slots per day ${report.rhythm.dailyLoad.join(" ")}; spread ${report.rhythm.spread}; heavy days ${report.rhythm.heavyDays.join(", ") || "none"}; back to back ${report.rhythm.backToBack}`,
    `tightness: reviews without a buffer ${report.tightness.unbuffered}; single free slots ${report.tightness.isolatedSlots}`,
    `profile: reviews outside your preferences ${report.profile.offProfile}`,
    `feasibility: pending ${report.feasibility.pending}${report.feasibility.missed ? `, missed without a place ${report.feasibility.missed}` : ""}, of which fit ${report.feasibility.placeable}, ${report.feasibility.stop === "budget" ? "no place found" : "cannot fit"} ${report.feasibility.cannotFit}${report.feasibility.cannotFit > 0 ? (report.feasibility.proved ? " beside the placed reviews as they are (proved)" : report.feasibility.stop === "budget" ? " (not found within the search budget)" : " (not proved)") : ""}`,
  ];
  if (report.issues.length === 0) lines.push("issues: none");
  else
    lines.push(
      `issues (${report.issues.length}):`,
      ...report.issues.map((issue) => `- ${issue.kind} -${issue.penalty}${forcedTag(issue)}: ${issue.message}`),
    );
  return lines.join("\n");
}
