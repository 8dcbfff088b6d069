/**
 * `find_free`: runs of consecutive free slots of at least a given length.
 * Slots inside an embeddable event that no task item uses yet are free for
 * embedding; they are reported as separate runs, marked with their host.
 * Asked for one task (`task_id`), it lists where that task may go: each run's
 * starts are places a `place` (pending, missed) or `move` (placed, an event)
 * of it alone takes — every rule its write checks kept, its own slots free.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import {
  RUN_LINE_LIMIT,
  appendCapped,
  failure,
  formatCount,
  formatDayList,
  freeRunLine,
  readResult,
} from "../format.js";
import { FREE, buildOccupancyIndex, cellOf, type OccupancyIndex } from "../occupancy-index.js";
import { resolvePlacements } from "../placement.js";
import { boundsOn, fixedProblem, pastRefusal, weekdayOf } from "../rules.js";
import { rangeFrom, rangesEqual } from "../slot-range.js";
import { saySummary } from "../summary-phrases.js";
import type { ScheduleState, SlotRange } from "../state.js";
import { limitField, optionalSlotField } from "./argument-fields.js";
import { findTask, movableRange, taskDuration } from "./task-checks.js";
import { clockOfState, hasStarted, type WindowClock } from "../window-clock.js";

/** Arguments of find_free. */
export const findFreeArgumentsSchema = z.object({
  min_length: z.number().int().min(1).optional().describe("Shortest run (slots)."),
  days: z.array(z.number().int()).max(400).optional().describe("Only these days."),
  slot_start: optionalSlotField("From this slot on."),
  slot_end: optionalSlotField("Up to this slot."),
  include_embeddable: z.boolean().optional().describe("Room inside embeddable events too (default true)."),
  task_id: z.string().optional().describe("Only this task's places."),
  limit: limitField(RUN_LINE_LIMIT),
});

/** Parsed arguments of find_free. */
export type FindFreeArguments = z.infer<typeof findFreeArgumentsSchema>;

/** A run of free slots, with its host when it lies inside an embeddable event. */
export interface FreeRun {
  /** The free slots. */
  range: SlotRange;
  /** Id of the embeddable event the run lies in; absent for plainly free slots. */
  hostId?: string;
}

/** A free run as find_free lists it (one `- day … (n free)` line). */
export interface FreeRunEntry {
  /** Day index. */
  day: number;
  /** First free slot. */
  start: number;
  /** Last free slot, inclusive. */
  end: number;
  /** Number of free slots. */
  length: number;
  /** Id of the embeddable host the run lies in, if any. */
  hostId?: string;
}

/** What find_free says, as data. */
export interface FindFreeData {
  /** The runs listed, in day then slot order (at most the call's limit). */
  runs: FreeRunEntry[];
  /** Runs found in all. */
  found: number;
  /** Runs left out of the list (the overflow line's count). */
  omitted: number;
  /** The last day searched. */
  lastDay: number;
  /** True when the run's clock left out time of the days searched that has started. */
  pastLeftOut?: true;
  /**
   * The days a search for any day left out because the standing preferences rule them out (why none is there): the
   * days they rule out whole, and the days their hours leave no slot (`standingHours` says which preference).
   */
  standingLeftOut?: number[];
  /** What the standing preferences' hours do to the days searched or left out, each note with the preferences behind it. */
  standingHours?: StandingHoursNote[];
}

/**
 * Days whose hours the standing preferences bound ("nothing after 9pm", "nothing before 10:00 on Fridays"), as
 * find_free notes them: left out of a search for any day (no slot kept), searched by name with no slot kept, or with
 * free room outside the slots kept (the runs are the plainly free room; a review keeps to `slots`).
 */
export interface StandingHoursNote {
  /** The days, in order. */
  days: number[];
  /** The preferences behind the bounds, each JSON-quoted in the user's words. */
  rules: string[];
  /** The slots a review may take on those days; absent when the preferences leave none. */
  slots?: { from: number; to: number };
  /** True when a search for any day left the days out. */
  leftOut?: true;
}

/** A free run as find_free lists it. */
function freeRunEntry(run: FreeRun): FreeRunEntry {
  const { day, start, end } = run.range;
  return run.hostId === undefined
    ? { day, start, end, length: end - start + 1 }
    : { day, start, end, length: end - start + 1, hostId: run.hostId };
}

/** Finds runs of free consecutive slots. */
export const findFreeTool: DomainTool<ScheduleState, FindFreeArguments> = {
  name: "find_free",
  description: "Finds free runs (`embeddable host <id>`: inside that event) to place or move into.",
  schema: findFreeArgumentsSchema,
  kind: "read",
  run(state, args) {
    const { window } = state;
    if (window.totalDays === 0) return failure("the schedule window has no days, so there is no free time to find");
    const minLength = args.min_length ?? 1;
    const slotStart = args.slot_start ?? 1;
    const slotEnd = args.slot_end ?? window.slotsPerDay;
    if (slotStart < 1 || slotStart > window.slotsPerDay)
      return failure(`slot_start ${slotStart} is outside the day (slots 1-${window.slotsPerDay})`);
    if (slotEnd < slotStart || slotEnd > window.slotsPerDay) {
      return failure(`slot_end ${slotEnd} must be between slot_start ${slotStart} and ${window.slotsPerDay}`);
    }
    // Asked for any day, the days a standing preference rules out are not suggested (asked for them by name, they are
    // shown): a day of the week ruled out whole, and a day whose hours the preferences leave no slot of.
    const index = buildOccupancyIndex(state);
    const hours = (day: number) => hoursOn(index, day, window.slotsPerDay);
    const avoided = (day: number) => index.rules.standing.avoid.has(weekdayOf(day, index.rules));
    const ruledOut = args.days === undefined ? allDays(window.totalDays).filter(avoided) : [];
    const emptied =
      args.days === undefined ? allDays(window.totalDays).filter((day) => !avoided(day) && hours(day)?.none) : [];
    const leftOut = [...ruledOut, ...emptied].sort((left, right) => left - right);
    const days =
      args.days === undefined
        ? allDays(window.totalDays).filter((day) => !leftOut.includes(day))
        : [...new Set(args.days)].sort((left, right) => left - right);
    const outside = days.find((day) => day < 1 || day > window.totalDays);
    if (outside !== undefined) return failure(`day ${outside} is outside the window (days 1-${window.totalDays})`);
    if (days.length === 0)
      return failure(
        leftOut.length > 0
          ? // (With the preference whose hours leave a day no slot, where one does.)
            saySummary("en", "standingEveryDay") + hoursNotes(emptied, [], hours, []).map(hoursNoteText).join("")
          : "days is empty; leave it out to search every day",
      );

    // With the run's clock, time that has started is not free: nothing can be placed there (issue 47 item 1).
    const clock = clockOfState(state);
    const forTask = args.task_id === undefined ? undefined : taskRoom(index, args.task_id);
    if (forTask && "problem" in forTask) return failure(forTask.problem, forTask.refusal);
    const runs = forTask
      ? taskRuns(index, forTask, days, slotStart, slotEnd, args.include_embeddable ?? true)
      : findFreeRuns(index, days, slotStart, slotEnd, minLength, args.include_embeddable ?? true, clock);
    const left = ruledOut.length > 0 ? saySummary("en", "standingDaysLeftOut", { days: formatDayList(ruledOut) }) : "";
    // Where the preferences' hours keep a review from the free room: said, with the preference (a task's places keep
    // to them already).
    const notes = hoursNotes(emptied, forTask ? [] : days, hours, runs);
    const hoursSaid = notes.map(hoursNoteText).join("");
    const past = days.some((day) => hasStarted(day, slotStart, clock)) ? " (time that has started left out)" : "";
    const whose = forTask
      ? ` (where task ${forTask.id} may start: every rule of its write kept, its own slots free)`
      : "";
    const where = `on days ${formatDayList(days)} slots ${slotStart}-${slotEnd}${whose}${left}${hoursSaid}${past}`;
    const lastDay = days[days.length - 1] as number;
    const cut = {
      ...(past ? { pastLeftOut: true as const } : {}),
      ...(leftOut.length > 0 ? { standingLeftOut: leftOut } : {}),
      ...(notes.length > 0 ? { standingHours: notes } : {}),
    };
    if (runs.length === 0)
      return readResult([`no free run with min_length=${forTask?.duration ?? minLength} ${where}`], {
        runs: [],
        found: 0,
        omitted: 0,
        lastDay,
        ...cut,
      } satisfies FindFreeData);
    const lines = [
      `free runs with min_length=${forTask?.duration ?? minLength} ${where}: ${formatCount(runs.length)} found`,
    ];
    const shown = appendCapped(
      lines,
      runs,
      args.limit ?? RUN_LINE_LIMIT,
      (run) => freeRunLine(run.range, run.hostId),
      "narrow with day/slot filters",
    );
    const data: FindFreeData = {
      runs: shown.map(freeRunEntry),
      found: runs.length,
      omitted: runs.length - shown.length,
      lastDay,
      ...cut,
    };
    return readResult(lines, data);
  },
};

/** The task a search is for: its position, length and place now; or why no write of it can go anywhere. */
type TaskRoom =
  { id: string; position: number; duration: number; current?: SlotRange } | { problem: string; refusal?: unknown };

/** What `task_id` names for a search of where it may go (a write of it alone: place or move). */
function taskRoom(index: OccupancyIndex, taskId: string): TaskRoom {
  const found = findTask(index, taskId);
  if (!found.ok) return { problem: found.problem };
  const { task, position } = found.value;
  const duration = taskDuration(task);
  if (task.source === "task_item" && (task.status === "pending" || task.status === "missed"))
    return { id: task.id, position, duration };
  const movable = movableRange(task, "move alone");
  if (!movable.ok) return { problem: movable.problem };
  // A place that has started is fixed: no write of it goes anywhere (the move's own refusal, as data too).
  const fixed = fixedProblem(task, index.rules);
  if (fixed !== undefined) return { problem: fixed, refusal: pastRefusal(task, index.rules, "move") };
  return { id: task.id, position, duration, current: movable.value };
}

/**
 * Where the task of `room` may start on `days` within slots `slotStart`-`slotEnd`, as runs: a run's starts (its first
 * slot to its last less the task's length) are each a place the write of it alone takes — the placement engine's own
 * check, so every rule it keeps — in day then slot order, a run apart per host; its place now is left out.
 */
function taskRuns(
  index: OccupancyIndex,
  room: Extract<TaskRoom, { position: number }>,
  days: readonly number[],
  slotStart: number,
  slotEnd: number,
  includeEmbeddable: boolean,
): FreeRun[] {
  const runs: FreeRun[] = [];
  for (const day of days) {
    let open: { start: number; last: number; hostId?: string } | undefined;
    const close = () => {
      if (open) {
        const range = { day, start: open.start, end: open.last + room.duration - 1 };
        runs.push(open.hostId === undefined ? { range } : { range, hostId: open.hostId });
      }
      open = undefined;
    };
    for (let start = slotStart; start + room.duration - 1 <= slotEnd; start += 1) {
      const range = rangeFrom(day, start, room.duration);
      const outcome =
        room.current && rangesEqual(range, room.current)
          ? undefined
          : resolvePlacements(index, [{ position: room.position, range }]);
      const host = outcome?.ok ? outcome.placements[0]?.hostPosition : undefined;
      const hostId = host === undefined ? undefined : index.tasks[host]?.id;
      if (!outcome?.ok || (hostId !== undefined && !includeEmbeddable)) {
        close();
        continue;
      }
      if (open && open.hostId === hostId && open.last === start - 1) open.last = start;
      else {
        close();
        open = hostId === undefined ? { start, last: start } : { start, last: start, hostId };
      }
    }
    close();
  }
  return runs;
}

/** The slots the standing preferences keep a review to on one day, and the preferences (JSON-quoted) that bound them. */
interface DayHours {
  from: number;
  to: number;
  rules: string[];
  /** True when they keep no slot of the day. */
  none: boolean;
}

/** The hours the standing preferences keep a review to on `day` (every day's, or its weekday's); undefined when the whole day. */
function hoursOn(index: OccupancyIndex, day: number, slotsPerDay: number): DayHours | undefined {
  const bounds = boundsOn(index.rules.standing, weekdayOf(day, index.rules));
  const from = bounds.from?.slot ?? 1;
  const to = bounds.to?.slot ?? slotsPerDay;
  if (from <= 1 && to >= slotsPerDay) return undefined;
  const none = from > to;
  // Of a day kept empty, the preference that keeps it so alone where one does ("nothing after 7am"), else both.
  const behind = !none
    ? [from > 1 ? bounds.from : undefined, to < slotsPerDay ? bounds.to : undefined]
    : to < 1
      ? [bounds.to]
      : from > slotsPerDay
        ? [bounds.from]
        : [bounds.from, bounds.to];
  const rules = [...new Set(behind.flatMap((bound) => (bound ? [JSON.stringify(bound.rule.text)] : [])))];
  return { from, to, rules, none };
}

/**
 * find_free's notes of the standing preferences' hours: the days `emptied` (left out: no slot kept), then of the days
 * `shown`, those with no slot kept and those with a free run outside the slots kept — each note the days one bound holds
 * on, in day order.
 */
function hoursNotes(
  emptied: readonly number[],
  shown: readonly number[],
  hours: (day: number) => DayHours | undefined,
  runs: readonly FreeRun[],
): StandingHoursNote[] {
  const notes = new Map<string, StandingHoursNote>();
  const note = (day: number, on: DayHours, leftOut: boolean) => {
    const key = `${leftOut}|${on.none ? "" : `${on.from}-${on.to}`}|${on.rules.join(", ")}`;
    const known = notes.get(key);
    if (known) known.days.push(day);
    else
      notes.set(key, {
        days: [day],
        rules: on.rules,
        ...(on.none ? {} : { slots: { from: on.from, to: on.to } }),
        ...(leftOut ? { leftOut: true as const } : {}),
      });
  };
  for (const day of emptied) note(day, hours(day)!, true);
  for (const day of shown) {
    const on = hours(day);
    if (!on) continue;
    const cut = runs.some((run) => run.range.day === day && (run.range.start < on.from || run.range.end > on.to));
    if (on.none || cut) note(day, on, false);
  }
  return [...notes.values()].sort(
    (left, right) => Number(!left.leftOut) - Number(!right.leftOut) || left.days[0]! - right.days[0]!,
  );
}

/** A note of `hoursNotes` as find_free's header says it. */
function hoursNoteText(note: StandingHoursNote): string {
  const places = { dayList: formatDayList(note.days), rules: note.rules.join(", ") };
  if (note.leftOut) return saySummary("en", "standingHoursLeftOut", places);
  return note.slots
    ? saySummary("en", "standingHoursCut", { ...places, from: note.slots.from, to: note.slots.to })
    : saySummary("en", "standingHoursNone", places);
}

/** Day indices 1..totalDays. */
function allDays(totalDays: number): number[] {
  return Array.from({ length: totalDays }, (_, offset) => offset + 1);
}

/**
 * Maximal runs of free (or free-for-embedding, per host) cells, in day then slot order; O(days × slots). With a
 * `clock`, a cell that has started is not free.
 */
export function findFreeRuns(
  index: OccupancyIndex,
  days: readonly number[],
  slotStart: number,
  slotEnd: number,
  minLength: number,
  includeEmbeddable: boolean,
  clock?: WindowClock,
): FreeRun[] {
  const runs: FreeRun[] = [];
  for (const day of days) {
    let runStart = 0;
    let runKey = BLOCKED;
    for (let slot = slotStart; slot <= slotEnd + 1; slot += 1) {
      const key =
        slot > slotEnd || hasStarted(day, slot, clock) ? BLOCKED : cellKey(index, day, slot, includeEmbeddable);
      if (key === runKey) continue;
      if (runKey !== BLOCKED && slot - runStart >= minLength) {
        const range = { day, start: runStart, end: slot - 1 };
        const host = runKey === OPEN ? undefined : index.tasks[runKey];
        runs.push(host === undefined ? { range } : { range, hostId: host.id });
      }
      runKey = key;
      runStart = slot;
    }
  }
  return runs;
}

/** Cell key for a blocked cell. */
const BLOCKED = -2;
/** Cell key for a plainly free cell; a host's position is the key of a cell free for embedding in it. */
const OPEN = FREE;

/** What a cell offers: `OPEN`, a host position (free for embedding), or `BLOCKED`. */
function cellKey(index: OccupancyIndex, day: number, slot: number, includeEmbeddable: boolean): number {
  const cell = cellOf(index, day, slot);
  const occupant = index.primary[cell] ?? FREE;
  if (occupant === FREE) return OPEN;
  if (!includeEmbeddable) return BLOCKED;
  const task = index.tasks[occupant];
  if (task === undefined || task.source !== "event" || !task.canEmbed) return BLOCKED;
  return (index.embedded[cell] ?? FREE) === FREE ? occupant : BLOCKED;
}
