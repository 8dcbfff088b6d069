/**
 * `ScheduleState`: the one data source the schedule tools work on
 * (docs/design.md#schedule-domain). Plain JSON-serialisable data: a window of days split into numbered
 * slots (class sections), a flat task list and the task classes.
 *
 * Canonical form (so that two equal schedules are equal byte for byte as
 * JSON, which the diff round-trip and the property tests rely on):
 * - a pending, missed or skipped task_item has no `slots` and no `embeddedIn` key (a done one keeps its place while
 *   its day is in the window, unless it was done ahead of its place);
 * - a task_item without a host has no `embeddedIn` key;
 * - an event always has `embeds`, sorted ascending by id (code-unit order).
 */
import { z } from "zod";
import { dayOfWeekOfDate } from "../../contracts/clock.js";
import { weekdayName, type Language } from "../../contracts/language.js";
import type { PreferenceRule } from "../../contracts/preferences.js";
import type { AppliedWrite } from "../domain.js";

/** The number of slots (class sections) in a day unless a window says otherwise. */
export const DEFAULT_SLOTS_PER_DAY = 12;

/** Ids are short tokens without spaces, so that they read and parse unambiguously in tool results. */
export const TASK_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A run of consecutive slots on one day; `start` and `end` are inclusive, 1-based slot numbers. */
export interface SlotRange {
  /** Day index in the window, 1-based. */
  day: number;
  /** First slot of the run, 1-based. */
  start: number;
  /** Last slot of the run, inclusive; `end >= start`. */
  end: number;
}

/** Which calendar day a day index of the window stands for. */
export interface DayMapping {
  /** Day index in the window, 1-based and consecutive. */
  dayIndex: number;
  /** Week number of the term, 1-based. */
  week: number;
  /** Day of the week, 1 = Monday … 7 = Sunday. */
  dayOfWeek: number;
  /** The calendar date, ISO "YYYY-MM-DD" (a window made before dates has none). */
  date?: string;
}

/** When a slot starts and ends on the clock, "HH:MM" (24-hour, the window's time zone). */
export interface SlotTime {
  start: string;
  end: string;
}

/** The stretch of time the schedule covers. */
export interface ScheduleWindow {
  /** Number of days in the window; equals `days.length`. */
  totalDays: number;
  /** Number of slots (class sections) in each day; 12 by default. */
  slotsPerDay: number;
  /** One entry per day index, in order: day index → (week, day of week, date). */
  days: DayMapping[];
  /** IANA time zone of the dates and clock times ("Asia/Shanghai"); absent in a window made before dates. */
  timeZone?: string;
  /** Clock times of slots 1…slotsPerDay, in order; absent in a window made before dates. */
  slotTimes?: SlotTime[];
  /**
   * The run's clock (an ISO instant) when the window last moved on by a roll: the days the roll settled as past stay
   * past, so a clock set back before it is said and kept to it (`clock-roll.ts`); absent before any roll with a clock.
   */
  rolledAt?: string;
}

/** A part of the day a task class prefers. */
export type DayPart = "morning" | "afternoon" | "evening";

/** How a task class's sessions are spread: `steady` over the days, `compact` together on few days. */
export type PlacementStrategy = "steady" | "compact";

/** A task class (a course or subject) that task items belong to, with its study profile. */
export interface TaskCategory {
  /** Stable id, referenced by `TaskItem.categoryId`. */
  id: string;
  /** Display name, e.g. "Calculus". */
  name: string;
  /** Parts of the day its sessions should lie in (soft). */
  preferredParts?: DayPart[];
  /** Fewest slots one session of it takes (hard, for its tasks' durations). */
  minSession?: number;
  /** Most slots one session of it takes (hard, for its tasks' durations). */
  maxSession?: number;
  /** Days of the week (1 = Monday … 7 = Sunday) none of its sessions may use (hard). */
  excludedDaysOfWeek?: number[];
  /** Whole days of the window (day indices) none of its sessions may use (hard). */
  blockedDays?: number[];
  /** How its sessions are spread (soft); `steady` by default. */
  strategy?: PlacementStrategy;
  /** Free slots kept between its session and the next busy slot on the same day (hard). */
  bufferSlots?: number;
}

/** What a task must be done before: a day of the window (it ends on an earlier day), or an event (it ends before the event starts). */
export type DueBefore = { day: number } | { eventId: string };

/** How much a task matters when not everything fits. */
export type TaskPriority = "high" | "normal" | "low";

/**
 * How an event series repeats: an RFC 5545 RRULE of the kinds a timetable uses — FREQ=DAILY, WEEKLY (BYDAY),
 * MONTHLY (BYMONTHDAY, BYDAY with or without an ordinal, BYSETPOS) or YEARLY (BYMONTH, and with it BYMONTHDAY or
 * BYDAY), BYMONTH limiting a daily, weekly or monthly one to its months.
 */
export interface SeriesRule {
  /** FREQ: every day, week, month or year. */
  freq: "daily" | "weekly" | "monthly" | "yearly";
  /** INTERVAL: every how many days, weeks, months or years; 1 by default. */
  interval: number;
  /**
   * BYDAY without an ordinal (1 = Monday … 7 = Sunday), ascending: the days of the week a weekly rule falls on; of a
   * monthly rule, every such day of the month.
   */
  byDay?: number[];
  /** BYDAY with an ordinal, of a monthly rule: `{ nth: 2, day: 2 }` is 2TU (the second Tuesday), `nth: -1` the last. */
  byNthDay?: NthWeekday[];
  /** BYMONTHDAY of a monthly rule: days of the month, 1 … 31, or counted from its end, -1 (the last) … -31. */
  byMonthDay?: number[];
  /** BYSETPOS of a monthly rule: which of the month's days the other parts give it keeps (1 the first, -1 the last). */
  bySetPos?: number[];
  /**
   * BYMONTH, 1 = January … 12, ascending: the months a yearly rule falls in (BYMONTHDAY and BYDAY are days of those
   * months); the only months a daily, weekly or monthly rule's occurrences are kept in.
   */
  byMonth?: number[];
  /** COUNT: how many occurrences it has, the first one included. */
  count?: number;
  /** UNTIL: the last local date an occurrence may fall on, "YYYY-MM-DD". */
  until?: string;
}

/** A day of the week with its ordinal in the month (RFC 5545 BYDAY "2TU", "-1FR"). */
export interface NthWeekday {
  /** Which one of the month: 1 … 5, or from the month's end -1 … -5. */
  nth: number;
  /** The day of the week, 1 = Monday … 7 = Sunday. */
  day: number;
}

/** An occurrence added to a series' rule (RFC 5545 RDATE): a local date and start time; it lasts as the others do. */
export interface AddedOccurrence {
  date: string;
  start: string;
  /** Its own end, "HH:MM" the same day, for an RDATE written as a PERIOD; absent, it lasts as the others do. */
  end?: string;
}

/** A single occurrence of a series moved elsewhere (RFC 5545 RECURRENCE-ID). */
export interface MovedOccurrence {
  /** The local date the rule gives it (the RECURRENCE-ID), "YYYY-MM-DD". */
  from: string;
  /** Where it takes place instead: local date and clock times in the series' zone. */
  date: string;
  start: string;
  end: string;
}

/**
 * A recurring timetable entry, the stored truth of a lecture (issue 47): the rule with its local clock time and time
 * zone, and its exceptions. `event-series.ts` expands it into any window's slots.
 */
export interface EventSeries {
  /** How it repeats. */
  rule: SeriesRule;
  /**
   * Further RRULEs of the same event (RFC 5545 allows several): each counted from the first date as `rule` is, the
   * series' days the union of all; absent when there is one.
   */
  moreRules?: SeriesRule[];
  /** The local date of the first occurrence (DTSTART), "YYYY-MM-DD". */
  firstDate: string;
  /** Local clock times of each occurrence, "HH:MM", in `timeZone`. */
  start: string;
  end: string;
  /** IANA time zone of the dates and clock times (TZID). */
  timeZone: string;
  /** Local dates of cancelled occurrences (EXDATE; a holiday week is its dates), ascending. */
  cancelled: string[];
  /** Occurrences moved to another date or time (RECURRENCE-ID), ascending by `from`. */
  moved: MovedOccurrence[];
  /** Occurrences added to the rule's (RDATE), ascending; absent when there are none. */
  added?: AddedOccurrence[];
}

/** An existing entry of the timetable (a lecture, a lab, an exam). */
export interface EventTask {
  /** Stable id, unique across all tasks. */
  id: string;
  /** Display name. */
  name: string;
  /** Marks a timetable entry. */
  source: "event";
  /** Where it takes place: compressed, non-overlapping slot ranges (empty for an event not on the timetable). */
  slots: SlotRange[];
  /** True when task items may be placed inside it (a self-study hall, a long lab). */
  canEmbed: boolean;
  /** True when Tempo never moves it on its own (an exam): only a move of it alone, on the person's word (`LockedEvents`). */
  locked: boolean;
  /** Ids of the task items embedded in it, sorted ascending; always empty when `canEmbed` is false. */
  embeds: string[];
  /** The series it is an expansion of (its `slots` are the series' occurrences in the window); absent for a one-off. */
  series?: EventSeries;
}

/**
 * Where a task item was once its place is history (it was done there and the day left the window, or it was missed
 * or skipped there): the calendar day, not a day index, so a roll never moves it.
 */
export interface PastPlace {
  /** Week of the term. */
  week: number;
  /** Day of the week, 1 = Monday … 7 = Sunday. */
  dayOfWeek: number;
  /** The calendar date, when the window was dated. */
  date?: string;
  /** First slot, 1-based. */
  start: number;
  /** Last slot, inclusive. */
  end: number;
}

/**
 * Where a task item is in its life: `pending` (to place) → `placed` → `done` | `missed` | `skipped`, and back to
 * `pending` to reschedule. Done, missed and skipped are settled: nothing moves them, and nothing scores a done or
 * skipped one; a missed one has no place and is work still to place (the health judge and the at-risk check count it)
 * until it is placed again, done or skipped.
 */
export type TaskStatus = "pending" | "placed" | "done" | "missed" | "skipped";

/** Each status as a Chinese reply or card says it. */
export const TASK_STATUS_ZH: Readonly<Record<TaskStatus, string>> = {
  pending: "待安排",
  placed: "已安排",
  done: "已完成",
  missed: "已错过",
  skipped: "已跳过",
};

/** The settled statuses: a task item in one of them is history, not work to place. */
export const SETTLED_STATUSES: readonly TaskStatus[] = ["done", "missed", "skipped"];

/** True for a done, missed or skipped task item. */
export function isSettled(status: TaskStatus): boolean {
  return status === "done" || status === "missed" || status === "skipped";
}

/**
 * What ties task items together (issue 47): the occurrences of one habit (a recurring task, `perWeek` of them each
 * week of the term, made anew by each roll) or the sessions of one long task. No two of a group go on one day (a
 * hard rule, `rules.ts`) unless `sameDay` allows it.
 */
export interface TaskGroup {
  /** The habit's id, or the long task's id; shared by every item of the group. */
  id: string;
  /** `habit`: a recurring task; `sessions`: one long task split into sessions. */
  kind: "habit" | "sessions";
  /** A habit's occurrences each week (1-7). */
  perWeek?: number;
  /** The week of the term a habit's occurrence belongs to. */
  week?: number;
  /** True when two items of the group may go on one day. */
  sameDay?: boolean;
}

/** A task to place, coming from a task class (e.g. a review session). */
export interface TaskItem {
  /** Stable id, unique across all tasks. */
  id: string;
  /** Display name. */
  name: string;
  /** Marks a task to place. */
  source: "task_item";
  /** Number of consecutive slots it needs. */
  duration: number;
  /** Id of its task class in `ScheduleState.categories`. */
  categoryId: string;
  /** "pending" until placed; "placed" once it has `slots`; then done, missed or skipped (`TaskStatus`). */
  status: TaskStatus;
  /** Where it is placed (placed, or done in the window): exactly one range of `duration` slots; absent otherwise. */
  slots?: SlotRange[];
  /** Id of the `canEmbed` event it sits inside; absent when it has no host. */
  embeddedIn?: string;
  /** Its deadline (hard): it must end before this. */
  dueBefore?: DueBefore;
  /** How much it matters; `normal` when absent. */
  priority?: TaskPriority;
  /** The first day of the window it may go on (hard). */
  earliestDay?: number;
  /** When it was marked done, missed or skipped (ISO date-time); absent otherwise. */
  markedAt?: string;
  /** Where it was, once that is history (`PastPlace`); only on a done, missed or skipped task item. */
  was?: PastPlace;
  /** The habit or long task it is part of (`TaskGroup`); absent for a task on its own. */
  group?: TaskGroup;
}

/** Any task of the flat task list. */
export type ScheduleTask = EventTask | TaskItem;

/** A user-level rule from one of the user's standing preferences: its meaning, its words, its entry's id. */
export type StandingRule = PreferenceRule & { text: string; id: string };

/** The whole schedule of one user. */
export interface ScheduleState {
  /** The days and slots the schedule covers. */
  window: ScheduleWindow;
  /** The task classes task items belong to. */
  categories: TaskCategory[];
  /** Events and task items, in a stable order. */
  tasks: ScheduleTask[];
  /**
   * The user's standing preferences as rules every task item keeps to (`rules.ts`), folded in at load by the domain's
   * `withPreferences`. Never persisted: the diff, the canonical form and the repositories leave it out.
   */
  standing?: StandingRule[];
  /**
   * The moment the run takes as now (an ISO date-time), folded in at load by the domain's `withClock` from
   * `configurable.now` or the real clock: the slots it has started are out of reach (`window-clock.ts`). Never
   * persisted, like `standing`; without it (a bare tool call) nothing is past.
   */
  now?: string;
  /**
   * The writes of the thread's last applied card (`ToolRunContext.lastChange`), folded in by the domain's
   * `withLastChange` so `propose_undo` can offer their inverse. Never persisted, like `now`.
   */
  lastChange?: AppliedWrite[];
  /**
   * The tools of the last applied card's writes that another domain served beside the schedule made (a to-do added),
   * folded in with `lastChange`: the schedule cannot undo them, and says so. Never persisted.
   */
  lastChangeElsewhere?: string[];
}

const positiveInteger = z.number().int().min(1);
const taskId = z.string().regex(TASK_ID_PATTERN, "ids are 1-64 characters of A-Z a-z 0-9 _ . : -");

/** Validates a `SlotRange` (structure only; window bounds are checked by `checkScheduleInvariants`). */
export const slotRangeSchema = z
  .object({
    day: positiveInteger.describe("Day index in the window, 1-based."),
    start: positiveInteger.describe("First slot, 1-based."),
    end: positiveInteger.describe("Last slot, inclusive."),
  })
  .refine((range) => range.end >= range.start, {
    message: "a slot range needs end >= start",
  }) satisfies z.ZodType<SlotRange>;

/** Validates a `DayMapping`. */
export const dayMappingSchema = z.object({
  dayIndex: positiveInteger.describe("Day index in the window, 1-based."),
  week: positiveInteger.describe("Week number of the term, 1-based."),
  dayOfWeek: z.number().int().min(1).max(7).describe("Day of the week, 1 = Monday … 7 = Sunday."),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "a date is YYYY-MM-DD")
    .optional()
    .describe("The calendar date."),
}) satisfies z.ZodType<DayMapping>;

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "a clock time is HH:MM");

/** Validates a `SlotTime`. */
export const slotTimeSchema = z.object({ start: clockTime, end: clockTime }) satisfies z.ZodType<SlotTime>;

/** Validates a `ScheduleWindow`. */
export const scheduleWindowSchema = z.object({
  totalDays: z.number().int().min(0).describe("Number of days in the window."),
  slotsPerDay: positiveInteger.max(96).describe("Number of slots in each day."),
  days: z.array(dayMappingSchema).describe("Day index → (week, day of week, date), in order."),
  timeZone: z.string().min(1).optional().describe("IANA time zone of the dates and clock times."),
  slotTimes: z.array(slotTimeSchema).optional().describe("Clock times of slots 1…slotsPerDay."),
  rolledAt: z
    .string()
    .datetime({ offset: true })
    .optional()
    .describe("The clock when the window last moved on by a roll."),
}) satisfies z.ZodType<ScheduleWindow>;

/** Validates a `TaskCategory`. */
export const taskCategorySchema = z.strictObject({
  id: taskId.describe("Stable id of the task class."),
  name: z.string().min(1).describe("Display name."),
  preferredParts: z
    .array(z.enum(["morning", "afternoon", "evening"]))
    .optional()
    .describe("Parts of the day its sessions should lie in."),
  minSession: positiveInteger.optional().describe("Fewest slots one session takes."),
  maxSession: positiveInteger.optional().describe("Most slots one session takes."),
  excludedDaysOfWeek: z
    .array(z.number().int().min(1).max(7))
    .optional()
    .describe("Days of the week none of its sessions may use (1 = Monday)."),
  blockedDays: z
    .array(positiveInteger)
    .optional()
    .describe("Whole days of the window (day indices) none of its sessions may use."),
  strategy: z
    .enum(["steady", "compact"])
    .optional()
    .describe("steady: spread over the days; compact: together on few days."),
  bufferSlots: z
    .number()
    .int()
    .min(0)
    .max(12)
    .optional()
    .describe("Free slots kept between a session and the next busy slot."),
}) satisfies z.ZodType<TaskCategory>;

/** Validates a `DueBefore`. */
export const dueBeforeSchema = z.union([
  z.strictObject({ day: positiveInteger.describe("A day index: the task ends on an earlier day.") }),
  z.strictObject({ eventId: taskId.describe("An event: the task ends before it starts.") }),
]) satisfies z.ZodType<DueBefore>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date is YYYY-MM-DD");

/** Validates a `NthWeekday`. */
export const nthWeekdaySchema = z.strictObject({
  nth: z.number().int().min(-5).max(5).describe("Which one of the month: 1 … 5, or -1 (the last) … -5."),
  day: z.number().int().min(1).max(7).describe("The day of the week, 1 = Monday."),
}) satisfies z.ZodType<NthWeekday>;

/** Validates a `SeriesRule` (its bounds are checked by `seriesProblems` in event-series.ts). */
export const seriesRuleSchema = z.strictObject({
  freq: z.enum(["daily", "weekly", "monthly", "yearly"]).describe("FREQ: every day, week, month or year."),
  interval: positiveInteger.describe("INTERVAL: every how many days, weeks, months or years."),
  byDay: z
    .array(z.number().int().min(1).max(7))
    .max(7)
    .optional()
    .describe("BYDAY without an ordinal, 1 = Monday: a weekly rule's days; a monthly rule's every such day."),
  byNthDay: z
    .array(nthWeekdaySchema)
    .max(35)
    .optional()
    .describe("BYDAY with an ordinal (2TU, -1FR) of a monthly rule."),
  byMonthDay: z.array(z.number().int().min(-31).max(31)).max(62).optional().describe("BYMONTHDAY of a monthly rule."),
  bySetPos: z.array(z.number().int().min(-31).max(31)).max(62).optional().describe("BYSETPOS of a monthly rule."),
  byMonth: z
    .array(z.number().int().min(1).max(12))
    .max(12)
    .optional()
    .describe("BYMONTH, 1 = January: a yearly rule's months; the months a daily, weekly or monthly rule keeps."),
  count: z.number().int().optional().describe("COUNT: how many occurrences it has."),
  until: isoDate.optional().describe("UNTIL: the last local date an occurrence may fall on."),
}) satisfies z.ZodType<SeriesRule>;

/** Most occurrences added to a series' rule (RDATE). */
export const MAX_ADDED_OCCURRENCES = 1_000;

/**
 * Most cancelled (EXDATE) and most moved (RECURRENCE-ID) occurrences of a series: `seriesProblems` refuses more, so a
 * series an import accepts is one the stored form (`eventSeriesSchema`) reads back.
 */
export const MAX_CANCELLED_OCCURRENCES = 1_000;
export const MAX_MOVED_OCCURRENCES = 1_000;

/** Validates an `AddedOccurrence`. */
export const addedOccurrenceSchema = z.strictObject({
  date: isoDate.describe("The local date of the added occurrence (RDATE)."),
  start: clockTime.describe("Its local start time."),
  end: clockTime.optional().describe("Its own local end time (an RDATE PERIOD); absent, it lasts as the others do."),
}) satisfies z.ZodType<AddedOccurrence>;

/** Validates a `MovedOccurrence`. */
export const movedOccurrenceSchema = z.strictObject({
  from: isoDate.describe("The local date the rule gives it (RECURRENCE-ID)."),
  date: isoDate.describe("The local date it takes place on instead."),
  start: clockTime.describe("Its local start time."),
  end: clockTime.describe("Its local end time."),
}) satisfies z.ZodType<MovedOccurrence>;

/** Validates an `EventSeries`. */
export const eventSeriesSchema = z.strictObject({
  rule: seriesRuleSchema.describe("How it repeats."),
  moreRules: z.array(seriesRuleSchema).max(8).optional().describe("Further RRULEs of the same event (their union)."),
  firstDate: isoDate.describe("The local date of the first occurrence."),
  start: clockTime.describe("Local start time of each occurrence."),
  end: clockTime.describe("Local end time of each occurrence."),
  timeZone: z.string().min(1).max(64).describe("IANA time zone of its dates and times."),
  cancelled: z.array(isoDate).max(MAX_CANCELLED_OCCURRENCES).describe("Local dates of cancelled occurrences."),
  moved: z.array(movedOccurrenceSchema).max(MAX_MOVED_OCCURRENCES).describe("Occurrences moved elsewhere."),
  added: z
    .array(addedOccurrenceSchema)
    .max(MAX_ADDED_OCCURRENCES)
    .optional()
    .describe("Occurrences added to the rule's (RDATE)."),
}) satisfies z.ZodType<EventSeries>;

/** Validates a `PastPlace`. */
export const pastPlaceSchema = z
  .strictObject({
    week: positiveInteger.describe("Week of the term."),
    dayOfWeek: z.number().int().min(1).max(7).describe("Day of the week, 1 = Monday."),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "a date is YYYY-MM-DD")
      .optional()
      .describe("The calendar date."),
    start: positiveInteger.describe("First slot, 1-based."),
    end: positiveInteger.describe("Last slot, inclusive."),
  })
  .refine((place) => place.end >= place.start, {
    message: "a past place needs end >= start",
  }) satisfies z.ZodType<PastPlace>;

/** Validates a `TaskGroup`. */
export const taskGroupSchema = z.strictObject({
  id: taskId.describe("The habit's or the long task's id."),
  kind: z.enum(["habit", "sessions"]).describe("habit: a recurring task; sessions: a long task split up."),
  perWeek: z.number().int().min(1).max(7).optional().describe("A habit's occurrences each week."),
  week: positiveInteger.optional().describe("The week of the term a habit's occurrence belongs to."),
  sameDay: z.boolean().optional().describe("True when two items of the group may go on one day."),
}) satisfies z.ZodType<TaskGroup>;

/** Validates an `EventTask`. */
export const eventTaskSchema = z.strictObject({
  id: taskId.describe("Stable id, unique across all tasks."),
  name: z.string().min(1).describe("Display name."),
  source: z.literal("event").describe("Marks a timetable entry."),
  slots: z.array(slotRangeSchema).describe("Compressed slot ranges."),
  canEmbed: z.boolean().describe("True when task items may be placed inside it."),
  locked: z.boolean().describe("True when it must never move."),
  embeds: z.array(taskId).describe("Ids of the task items embedded in it, sorted ascending."),
  series: eventSeriesSchema.optional().describe("The series its slots are the expansion of; absent for a one-off."),
}) satisfies z.ZodType<EventTask>;

/** Validates a `TaskItem`. */
export const taskItemSchema = z.strictObject({
  id: taskId.describe("Stable id, unique across all tasks."),
  name: z.string().min(1).describe("Display name."),
  source: z.literal("task_item").describe("Marks a task to place."),
  duration: positiveInteger.describe("Number of consecutive slots it needs."),
  categoryId: taskId.describe("Id of its task class."),
  status: z
    .enum(["pending", "placed", "done", "missed", "skipped"])
    .describe("pending until placed; then done, missed or skipped."),
  slots: z.array(slotRangeSchema).optional().describe("Where it is placed; absent while pending."),
  embeddedIn: taskId.optional().describe("Id of the canEmbed event it sits inside."),
  dueBefore: dueBeforeSchema.optional().describe("Its deadline: it must end before this."),
  priority: z.enum(["high", "normal", "low"]).optional().describe("How much it matters."),
  earliestDay: positiveInteger.optional().describe("The first day of the window it may go on."),
  markedAt: z.string().datetime({ offset: true }).optional().describe("When it was marked done, missed or skipped."),
  was: pastPlaceSchema.optional().describe("Where it was, once that is history."),
  group: taskGroupSchema.optional().describe("The habit or long task it is part of."),
}) satisfies z.ZodType<TaskItem>;

/** Validates any task. */
export const scheduleTaskSchema = z.discriminatedUnion("source", [eventTaskSchema, taskItemSchema]);

/** Validates the structure of a `ScheduleState`; `parseScheduleState` also checks its invariants. */
export const scheduleStateSchema = z.object({
  window: scheduleWindowSchema.describe("The days and slots the schedule covers."),
  categories: z.array(taskCategorySchema).describe("The task classes."),
  tasks: z.array(scheduleTaskSchema).describe("Events and task items."),
}) satisfies z.ZodType<ScheduleState>;

/** Day-of-week names, index 1 = Monday. */
const DAY_OF_WEEK_NAMES = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;

/** Three-letter English name of a day of the week (1 = Mon … 7 = Sun). */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** A date as a person reads it: "Thu 14 Mar", or "3月14日周四". */
export function formatDate(date: string, language: Language = "en"): string {
  const [, month = 1, dayOfMonth = 1] = date.split("-").map(Number);
  const weekday = dayOfWeekOfDate(date);
  if (language === "zh") return `${month}月${dayOfMonth}日${weekdayName(weekday, "zh")}`;
  return `${dayOfWeekName(weekday)} ${dayOfMonth} ${MONTHS[month - 1]}`;
}

export function dayOfWeekName(dayOfWeek: number): string {
  return DAY_OF_WEEK_NAMES[dayOfWeek] ?? `day-of-week-${dayOfWeek}`;
}

/** The day of the week an English name gives ("Mon", "monday" → 1 … "Sun" → 7), or -1 for anything else. */
export function dayOfWeekNumber(name: string): number {
  const prefix = name.slice(0, 3).toLowerCase();
  return prefix === "" ? -1 : DAY_OF_WEEK_NAMES.findIndex((entry) => entry.toLowerCase() === prefix);
}

/** Builds the day mappings of a window of `totalDays` consecutive days starting on (`firstWeek`, `firstDayOfWeek`). */
export function consecutiveDays(totalDays: number, firstWeek = 1, firstDayOfWeek = 1): DayMapping[] {
  const days: DayMapping[] = [];
  for (let offset = 0; offset < totalDays; offset += 1) {
    const absolute = firstDayOfWeek - 1 + offset;
    days.push({ dayIndex: offset + 1, week: firstWeek + Math.floor(absolute / 7), dayOfWeek: (absolute % 7) + 1 });
  }
  return days;
}

/** An empty schedule: one week of `slotsPerDay` slots, no tasks, no task classes. */
export function emptyScheduleState(totalDays = 7, slotsPerDay = DEFAULT_SLOTS_PER_DAY): ScheduleState {
  return { window: { totalDays, slotsPerDay, days: consecutiveDays(totalDays) }, categories: [], tasks: [] };
}

/** The slot ranges a task occupies (empty for a pending task item). */
export function taskSlots(task: ScheduleTask): SlotRange[] {
  return task.slots ?? [];
}
