/**
 * Where a move may go: the free time the step's words allow, the constraints the user's rejections add, the first fit,
 * a spot next to another task or class, the same time shifted by days or minutes, and why a move finds no place.
 */
import { formatRange } from "../../tools/schedule/format.js";
import type { SlotRange } from "../../tools/schedule/state.js";
import type { FreeRunEntry, ListedTask } from "../../tools/schedule/tools/index.js";
import { feedbackOfResult, parseFeedback } from "../../tools/schedule/feedback.js";
import { say, type Language } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import { classAnchorOf, isEmptySelection, type MoveShift, type Where } from "../../tools/schedule/request-parsing.js";
import { matchTasks } from "./task-matching.js";
import { datingOf, shiftSaid, startMinute, hasStarted, resolveDays, type WeekFacts } from "./week-facts.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";
import { label, nameOf } from "./task-lookup.js";

/**
 * Why a review placed at `range` does not move when the clock has reached it ("… has already started: the past is
 * fixed"), as the move's own check says it; undefined while it is ahead.
 */
export function startedWhy(task: ListedTask, range: SlotRange, facts: WeekFacts): string | undefined {
  if (!hasStarted(range, facts)) return undefined;
  return saySummary("en", "pastStarted", { said: nameOf(task), place: formatRange(range, datingOf(facts)) });
}

/** Why the move step proposes nothing: no free time where asked fits `task` (the time that has passed left out). */
export function noFreeTimeWhereAsked(task: ListedTask, passed: boolean): string {
  return saySummary("en", passed ? "noFreeTimeAskedPassed" : "noFreeTimeAsked", {
    length: task.duration,
    subject: label(task, "en"),
  });
}

/**
 * The slot a clock time names: the one that starts then (a review starts with a slot); else why none does — the time
 * outside the day's slots, between two starts (the nearest starts named), or a window without clock times.
 */
export function slotStartingAt(at: string, facts: Pick<WeekFacts, "slotTimes">): { slot: number } | { why: string } {
  const times = facts.slotTimes;
  if (times === undefined || times.length === 0) return { why: saySummary("en", "noClockTimes", { at }) };
  const index = times.findIndex((time) => time.start === at);
  if (index !== -1) return { slot: index + 1 };
  const first = times[0]!.start;
  const last = times.at(-1)!.end;
  if (at < first || at >= last) return { why: saySummary("en", "outsideDaySlots", { at, first, last }) };
  const before = times.findLast((time) => time.start < at)?.start;
  const after = times.find((time) => time.start > at)?.start;
  const near = [before, after].filter((time) => time !== undefined).join(" and ");
  return { why: saySummary("en", "noSlotStartsAt", { at, near }) };
}

/** Why the move step does not move event `task`: it is on several ranges. */
export function cannotMoveSpread(task: ListedTask): string {
  return saySummary("en", "cannotMoveSpread", { subject: label(task, "en") });
}

/** Why the move step does not shift `task`: it has no place to shift from. */
export function noPlaceToMoveFrom(task: ListedTask): string {
  return saySummary("en", "noPlaceToMoveFrom", { subject: label(task, "en") });
}

/** Why the move step proposes nothing for a shift: no free time fits `task` where `shift` lands it. */
export function noFreeTimeShifted(task: ListedTask, shift: MoveShift): string {
  return saySummary("en", "noFreeTimeShifted", { subject: label(task, "en"), shift: shiftSaid(shift, "en") });
}

/**
 * Where a shift lands, among the free runs of its day: by days, the task's own start, else the nearest free start that
 * day; by minutes, the free start nearest the time it names, past the task's own start that way; later / earlier the
 * same day, the nearest free start that way. Undefined when none fits.
 */
export function shiftedSpot(
  runs: FreeRunEntry[],
  shift: MoveShift,
  current: { day: number; start: number },
  duration: number,
  day: number,
  facts: WeekFacts,
): { day: number; start: number; hostId?: string } | undefined {
  const starts = runs
    .filter((run) => run.day === day)
    .flatMap((run) =>
      Array.from({ length: Math.max(0, run.end - run.start - duration + 2) }, (_, offset) => ({
        day,
        start: run.start + offset,
        ...(run.hostId ? { hostId: run.hostId } : {}),
      })),
    )
    .filter((spot) => !(spot.day === current.day && spot.start === current.start));
  const later = "days" in shift ? shift.days > 0 : "minutes" in shift ? shift.minutes > 0 : shift.sameDay === "later";
  const own = startMinute(current.start, facts);
  const target = "minutes" in shift ? own + shift.minutes : own;
  const candidates =
    "days" in shift
      ? starts
      : starts.filter((spot) => (later ? spot.start > current.start : spot.start < current.start));
  // Nearest the target time; a tie goes the shift's way.
  const distance = (spot: { start: number }) =>
    "sameDay" in shift ? Math.abs(spot.start - current.start) : Math.abs(startMinute(spot.start, facts) - target);
  return candidates.reduce<(typeof candidates)[number] | undefined>((best, spot) => {
    if (!best) return spot;
    const [a, b] = [distance(spot), distance(best)];
    if (a !== b) return a < b ? spot : best;
    return later === spot.start > best.start ? spot : best;
  }, undefined);
}

/** What a user's rejections of earlier proposals add to where a task may go. */
export interface Constraints {
  where: Where;
  notDays: Set<number>;
  /** First slot allowed. */
  from: number;
  /** Last slot allowed. */
  to: number;
}

/** Folds the feedback of rejected proposals into the step's `where`. */
export function constraintsFrom(rejected: RoundView[], base: Where): Constraints {
  const constraints: Constraints = {
    where: {
      ...base,
      only: { ...base.only },
      not: {
        weekdays: [...base.not.weekdays],
        days: [...base.not.days],
        ...(base.not.dates ? { dates: [...base.not.dates] } : {}),
      },
      slots: { ...base.slots },
    },
    notDays: new Set(),
    from: 1,
    to: Number.POSITIVE_INFINITY,
  };
  for (const round of rejected) {
    const feedback = parseFeedback(feedbackOfResult(round.result));
    const day = Number(round.arguments.day);
    const start = Number(round.arguments.slot_start);
    if (feedback.kind !== "constrain") {
      if (Number.isFinite(day) && Number.isFinite(start)) constraints.notDays.add(day);
      continue;
    }
    constraints.where.not.weekdays.push(...feedback.not.weekdays);
    constraints.where.not.days.push(...feedback.not.days);
    if (feedback.not.dates)
      constraints.where.not.dates = [...(constraints.where.not.dates ?? []), ...feedback.not.dates];
    if (!isEmptySelection(feedback.only)) constraints.where.only = feedback.only;
    if (feedback.part) constraints.where.slots = { part: feedback.part };
    // "Later" and "earlier" mean later or earlier on the same day.
    if ((feedback.later || feedback.earlier) && isEmptySelection(feedback.only) && Number.isFinite(day))
      constraints.where.only = { weekdays: [], days: [day] };
    if (feedback.later && Number.isFinite(start)) constraints.from = Math.max(constraints.from, start + 1);
    if (feedback.earlier && Number.isFinite(start)) constraints.to = Math.min(constraints.to, start - 1);
  }
  return constraints;
}

/** The days a `where` allows (undefined for every day), without its excluded days. */
export function allowedDays(where: Where, facts: WeekFacts): number[] | undefined {
  const not = new Set(resolveDays(where.not, facts));
  const only = resolveDays(where.only, facts);
  if (only.length > 0) return only.filter((day) => !not.has(day));
  if (not.size === 0) return undefined;
  const total = facts.totalDays ?? Math.max(7, ...facts.weekdays.keys());
  return Array.from({ length: total }, (_, index) => index + 1).filter((day) => !not.has(day));
}

/** The first place in the runs where `duration` slots fit inside the window, avoiding the task's current place. */
export function firstFit(
  runs: FreeRunEntry[],
  duration: number,
  window: { from: number; to: number },
  notDays: ReadonlySet<number>,
  current: { day: number; start: number } | undefined,
): { day: number; start: number; hostId?: string } | undefined {
  for (const run of runs) {
    if (notDays.has(run.day)) continue;
    const start = Math.max(run.start, window.from);
    if (start + duration - 1 > Math.min(run.end, window.to)) continue;
    if (current && current.day === run.day && current.start === start) continue;
    return { day: run.day, start, ...(run.hostId ? { hostId: run.hostId } : {}) };
  }
  return undefined;
}

/** "I found no task or event matching "quantum lecture", so … stays where it is." */
export function noAnchorSaid(anchor: string, task: ListedTask, language: Language): string {
  return say(
    language,
    `I found no task or event matching ${anchor}, so ${nameOf(task)} stays where it is.`,
    `我没有找到与${anchor}匹配的任务或活动，${nameOf(task)}保持不动。`,
  );
}

/**
 * The place in the week shown of the task or event `anchor` names (other than `task`) that a day `offset` from it
 * counts from: its first whose day that way is today or later (any first, with no clock), else its first — whose day
 * has passed, which the search then says. Undefined when the words name nothing.
 */
export function comingOccurrence(
  { anchor, offset }: { anchor: string; offset: number },
  task: ListedTask,
  tasks: readonly ListedTask[],
  today: number | undefined,
): SlotRange | undefined {
  const places = matchTasks(
    anchor,
    tasks.filter((each) => each.id !== task.id),
  )
    .flatMap((each) => each.slots)
    .sort((a, b) => a.day - b.day || a.start - b.start);
  return places.find((place) => today === undefined || place.day + offset >= today) ?? places[0];
}

/**
 * Each day's last (or first) class: the event of the timetable that ends last (starts first) that day, a block that
 * hosts reviews (a study hall, a library block) not counted.
 */
function classesOf(which: "last" | "first", tasks: readonly ListedTask[]): SlotRange[] {
  const byDay = new Map<number, SlotRange>();
  for (const range of tasks.filter((each) => each.kind === "event" && !each.canEmbed).flatMap((each) => each.slots)) {
    const kept = byDay.get(range.day);
    if (!kept || (which === "last" ? range.end > kept.end : range.start < kept.start)) byDay.set(range.day, range);
  }
  return [...byDay.values()];
}

/**
 * The place right next to another task or event (`anchor`), on `side` of it: for each of its occurrences in time order
 * on the days allowed (every task the words name, the moved task left out), the free start nearest it that fits
 * `task` — after: the first at or after the slot past its end; before: the last that ends by the slot before its
 * start — in the free runs shown (the time that has passed is not among them). `why` when the words name nothing
 * ("unknown") or no occurrence has room ("none").
 */
export function spotNextTo(
  next: { side: "after" | "before"; anchor: string },
  task: ListedTask,
  tasks: readonly ListedTask[],
  runs: readonly FreeRunEntry[],
  days: readonly number[] | undefined,
): { day: number; start: number } | { why: "unknown" | "none" | "noClass" } {
  const which = classAnchorOf(next.anchor);
  const anchors = which
    ? classesOf(which, tasks)
    : matchTasks(
        next.anchor,
        tasks.filter((each) => each.id !== task.id),
      ).flatMap((anchor) => anchor.slots);
  const occurrences = anchors
    .filter((range) => !days || days.includes(range.day))
    .sort((a, b) => a.day - b.day || a.start - b.start);
  if (which && occurrences.length === 0) return { why: "noClass" };
  if (anchors.length === 0) return { why: "unknown" };
  const length = task.duration;
  for (const range of occurrences) {
    // In each free run of its day, the start nearest it on that side, kept when the task fits there.
    const starts = runs.flatMap((run) => {
      if (run.day !== range.day) return [];
      const start =
        next.side === "after" ? Math.max(run.start, range.end + 1) : Math.min(run.end, range.start - 1) - length + 1;
      return start >= run.start && start + length - 1 <= run.end ? [start] : [];
    });
    if (starts.length > 0)
      return { day: range.day, start: next.side === "after" ? Math.min(...starts) : Math.max(...starts) };
  }
  return { why: "none" };
}
