/**
 * The schedule's calendar: which date each day index of the window is, in which time zone, and when each slot starts
 * and ends on the clock — and a place named as a person reads it ("Thu 14 Mar, 14:00–15:30", "3月14日周四 14:00–15:30").
 * Pure functions over the window, with the stdlib only (`contracts/clock.ts`: `Intl` does the zone work).
 *
 * A window made before dates (old stored ones, `generateSchedule`'s) has no `date`, `timeZone` or `slotTimes`: every
 * formatter then falls back to the wording of week and day index ("Mon, week 1 (day 1), slots 9–10").
 *
 * `rollWindow` moves a window on by a week (or any number of days): the past days go with what was on them, and the
 * timetable's series are expanded into the new days (`rollTimetable`).
 */
import { addDays, dayOfWeekOfDate, daysBetween, isIsoDate, isTimeZone } from "../../contracts/clock.js";
import { weekdayName, type Language } from "../../contracts/language.js";
import { TempoError } from "../../errors/index.js";
import { buildEventTask, buildTaskItem, canonicalCategory } from "./canonical-form.js";
import { expandSeries, occursAfter } from "./event-series.js";
import { activeHabits, rolledHabitOccurrences, weeksOf, type HabitTemplate } from "./habits.js";
import {
  dayOfWeekName,
  dayOfWeekNumber,
  formatDate,
  type DayMapping,
  type EventSeries,
  type EventTask,
  type PastPlace,
  type ScheduleState,
  type ScheduleTask,
  type ScheduleWindow,
  type SlotRange,
  type SlotTime,
  type TaskCategory,
  type TaskItem,
} from "./state.js";

// A date as a person reads it lives beside the window's types (state.ts), where the clock's texts read it too.

/**
 * The default timetable of 12 sections, as a Chinese university's day runs: 45-minute sections with 10-minute breaks
 * (20 minutes mid-morning and mid-afternoon); the morning is 1–4 (08:00–11:40), the afternoon 5–8 (14:00–17:40),
 * the evening 9–12 (19:00–22:30) — the thirds the offline policy calls morning, afternoon and evening.
 */
export const DEFAULT_SLOT_TIMES: readonly SlotTime[] = [
  { start: "08:00", end: "08:45" },
  { start: "08:55", end: "09:40" },
  { start: "10:00", end: "10:45" },
  { start: "10:55", end: "11:40" },
  { start: "14:00", end: "14:45" },
  { start: "14:55", end: "15:40" },
  { start: "16:00", end: "16:45" },
  { start: "16:55", end: "17:40" },
  { start: "19:00", end: "19:45" },
  { start: "19:55", end: "20:40" },
  { start: "20:50", end: "21:35" },
  { start: "21:45", end: "22:30" },
];

/** What a dated window is built from. */
export interface DatedWindowOptions {
  /** The date of day 1, "YYYY-MM-DD". */
  firstDate: string;
  /** Days in the window. */
  days: number;
  /** IANA time zone of the dates and clock times. */
  timeZone: string;
  /** Clock times of the slots, one per slot; `DEFAULT_SLOT_TIMES` (12 slots) by default. */
  slotTimes?: readonly SlotTime[];
  /** Week of the term of day 1; 1 by default (weeks turn on Mondays). */
  firstWeek?: number;
}

/** A window of `days` consecutive dated days from `firstDate`: weekdays from the dates, weeks turning on Mondays. */
export function datedWindow(options: DatedWindowOptions): ScheduleWindow {
  const slotTimes = (options.slotTimes ?? DEFAULT_SLOT_TIMES).map((time) => ({ start: time.start, end: time.end }));
  const window: ScheduleWindow = {
    totalDays: options.days,
    slotsPerDay: slotTimes.length,
    days: [],
    timeZone: options.timeZone,
    slotTimes,
  };
  if (!isIsoDate(options.firstDate))
    throw calendarError(`firstDate "${options.firstDate}" is not a date written YYYY-MM-DD`);
  const firstDayOfWeek = dayOfWeekOfDate(options.firstDate);
  for (let offset = 0; offset < options.days; offset += 1) {
    const absolute = firstDayOfWeek - 1 + offset;
    window.days.push({
      dayIndex: offset + 1,
      week: (options.firstWeek ?? 1) + Math.floor(absolute / 7),
      dayOfWeek: (absolute % 7) + 1,
      date: addDays(options.firstDate, offset),
    });
  }
  const problems = calendarProblems(window);
  if (problems.length > 0) throw calendarError(problems.join("; "));
  return window;
}

/**
 * What is wrong with a window's calendar, one line each (empty for a sound one, and for a window without dates):
 * every day dated or none, consecutive dates whose weekdays match, a time zone `Intl` knows, one clock time per slot,
 * each ending after it starts and not before the previous one ends.
 */
export function calendarProblems(window: ScheduleWindow): string[] {
  const problems: string[] = [];
  const dated = window.days.filter((day) => day.date !== undefined);
  if (dated.length > 0 && dated.length < window.days.length)
    problems.push("window.days: either every day has a date or none has");
  window.days.forEach((day, position) => {
    if (day.date === undefined) return;
    if (!isIsoDate(day.date)) problems.push(`window.days[${position}].date ${day.date} is not a calendar date`);
    else if (dayOfWeekOfDate(day.date) !== day.dayOfWeek)
      problems.push(
        `window.days[${position}] says day of week ${day.dayOfWeek} but ${day.date} is a ${weekdayName(dayOfWeekOfDate(day.date), "en")}`,
      );
    const previous = window.days[position - 1]?.date;
    if (previous !== undefined && isIsoDate(previous) && isIsoDate(day.date) && daysBetween(previous, day.date) !== 1)
      problems.push(`window.days[${position}].date ${day.date} does not follow ${previous}`);
  });
  if (window.timeZone !== undefined && !isTimeZone(window.timeZone))
    problems.push(
      `window.timeZone "${window.timeZone}" is not a time zone (use an IANA name such as "Asia/Shanghai" or "UTC")`,
    );
  if (window.slotTimes !== undefined) {
    if (window.slotTimes.length !== window.slotsPerDay)
      problems.push(`window.slotTimes has ${window.slotTimes.length} entries for ${window.slotsPerDay} slots per day`);
    window.slotTimes.forEach((time, index) => {
      if (time.end <= time.start)
        problems.push(`slot ${index + 1} ends (${time.end}) before it starts (${time.start})`);
      const previous = window.slotTimes?.[index - 1];
      if (previous !== undefined && time.start < previous.end)
        problems.push(`slot ${index + 1} starts (${time.start}) before slot ${index} ends (${previous.end})`);
    });
  }
  return problems;
}

/** The date of a day index, or undefined (no such day, or a window without dates). */
export function dateOfDay(window: ScheduleWindow, day: number): string | undefined {
  return window.days[day - 1]?.date;
}

/** The day index of a date, or undefined when the window does not cover it (or has no dates). */
export function dayOfDate(window: ScheduleWindow, date: string): number | undefined {
  const first = window.days[0]?.date;
  if (first === undefined || !isIsoDate(date)) return undefined;
  const day = daysBetween(first, date) + 1;
  return day >= 1 && day <= window.days.length ? day : undefined;
}

/** "14:00–15:40" for slots `start`…`end`, or undefined for a window without clock times (or slots outside it). */
export function slotClock(
  window: Pick<ScheduleWindow, "slotTimes">,
  start: number,
  end: number = start,
): string | undefined {
  const first = window.slotTimes?.[start - 1];
  const last = window.slotTimes?.[end - 1];
  return first && last ? `${first.start}–${last.end}` : undefined;
}

/** A day as a person reads it: "Thu 14 Mar" / "3月14日周四", or without a date "Thu, week 1 (day 4)" / "周四，第1周（第4天）". */
export function dayName(window: Pick<ScheduleWindow, "days">, day: number, language: Language = "en"): string {
  const mapping: DayMapping | undefined = window.days[day - 1];
  if (mapping?.date !== undefined) return formatDate(mapping.date, language);
  if (language === "zh")
    return mapping ? `${weekdayName(mapping.dayOfWeek, "zh")}，第${mapping.week}周（第${day}天）` : `第${day}天`;
  return mapping ? `${dayOfWeekName(mapping.dayOfWeek)}, week ${mapping.week} (day ${day})` : `day ${day}`;
}

/**
 * A place as a person reads it: "Thu 14 Mar, 14:00–15:40" / "3月14日周四 14:00–15:40" in a dated window with clock
 * times; otherwise the day as `dayName` gives it and the slots ("Mon, week 1 (day 1), slots 9–10", "周一，第1周（第1天），第9–10节").
 */
export function placeName(
  window: Pick<ScheduleWindow, "days" | "slotTimes">,
  range: SlotRange,
  language: Language = "en",
): string {
  const day = dayName(window, range.day, language);
  const clock = slotClock(window, range.start, range.end);
  if (clock !== undefined && window.days[range.day - 1]?.date !== undefined)
    return language === "zh" ? `${day} ${clock}` : `${day}, ${clock}`;
  const slots = range.start === range.end ? `${range.start}` : `${range.start}–${range.end}`;
  return language === "zh"
    ? `${day}，第${slots}节`
    : `${day}, ${range.start === range.end ? "slot" : "slots"} ${slots}`;
}

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A place `placeName` said in English, said as it says it in `language` (a step's summary stores the English); a text
 * it does not give stays as it is.
 */
export function placeNameIn(english: string, language: Language): string {
  if (language === "en") return english;
  const place = /^(.*), (?:slots? (\d+(?:–\d+)?)|(\d\d:\d\d–\d\d:\d\d))$/.exec(english);
  if (!place) return english;
  const [, dayWords = "", slots, clock] = place;
  const weekday = (name: string) => weekdayName(dayOfWeekNumber(name), "zh");
  const dated = /^(\w{3}) (\d{1,2}) (\w{3})$/.exec(dayWords);
  const weekly = /^(\w+), week (\d+) \(day (\d+)\)$/.exec(dayWords);
  const bare = /^day (\d+)$/.exec(dayWords);
  const month = dated ? MONTH_NAMES.indexOf(dated[3]!) + 1 : 0;
  const day =
    dated && month > 0
      ? `${month}月${dated[2]}日${weekday(dated[1]!)}`
      : weekly
        ? `${weekday(weekly[1]!)}，第${weekly[2]}周（第${weekly[3]}天）`
        : bare
          ? `第${bare[1]}天`
          : undefined;
  if (day === undefined) return english;
  return clock !== undefined ? `${day} ${clock}` : `${day}，第${slots}节`;
}

/**
 * A place's date and clock time as the tools' result text carries it beside `day D slots a-b`, for a model to tell a
 * person: "Thu 14 Mar 2024, 14:00–15:40" (a single slot with `startOnly`: "Sat 16 Mar 2024, 10:00", when an event
 * starts); undefined in a window without dates or clock times. `readable.ts` turns it into the user's language.
 */
export function placeNote(
  window: Pick<ScheduleWindow, "days" | "slotTimes">,
  range: SlotRange,
  options: { startOnly?: boolean } = {},
): string | undefined {
  const date = window.days[range.day - 1]?.date;
  const first = window.slotTimes?.[range.start - 1];
  const last = window.slotTimes?.[range.end - 1];
  if (date === undefined || !first || !last) return undefined;
  return `${formatDate(date)} ${date.slice(0, 4)}, ${options.startOnly ? first.start : `${first.start}–${last.end}`}`;
}

/**
 * The schedule a week (or `days` days) later: the first `days` days are dropped and as many new days appended after
 * the last (dated when the window is). An event of a series is expanded anew into the rolled window (`rollTimetable`):
 * the timetable carries on; one-off events that lay wholly in the dropped days go with them. The task items there stay
 * on record (`settleTasksOnRoll`): a done one as history, a placed one as missed, each with where it was.
 * A habit the old window showed carries on (`habits.ts`): the weeks the roll brings in get its occurrences.
 * Everything else moves `days` indices earlier: slot ranges, `dueBefore.day`,
 * `earliestDay` and the task classes' `blockedDays`. Pending task items stay pending. A deadline that has passed
 * (a day or an event among the dropped ones) becomes "before day 1": the task is overdue, and the write tools say so.
 */
export function rollWindow(
  state: ScheduleState,
  days = 7,
  carried?: ReadonlyMap<string, HabitTemplate>,
): ScheduleState {
  const { window } = state;
  if (!Number.isInteger(days) || days < 1 || days > window.totalDays) {
    throw calendarError(
      `a window of ${window.totalDays} days rolls forward by 1 to ${window.totalDays} days, not ${days}`,
    );
  }
  const shift = (range: SlotRange): SlotRange | undefined =>
    range.day > days ? { day: range.day - days, start: range.start, end: range.end } : undefined;
  const kept = window.days.slice(days).map((day, index) => ({ ...day, dayIndex: index + 1 }));
  let last = window.days[window.days.length - 1]!;
  const added: DayMapping[] = [];
  for (let offset = 1; offset <= days; offset += 1) {
    const dayOfWeek = (last.dayOfWeek % 7) + 1;
    const next: DayMapping = {
      dayIndex: kept.length + offset,
      week: dayOfWeek === 1 ? last.week + 1 : last.week,
      dayOfWeek,
    };
    if (last.date !== undefined) next.date = addDays(last.date, 1);
    added.push(next);
    last = next;
  }

  const rolled: ScheduleWindow = {
    totalDays: window.totalDays,
    slotsPerDay: window.slotsPerDay,
    days: [...kept, ...added],
  };
  if (window.timeZone !== undefined) rolled.timeZone = window.timeZone;
  if (window.slotTimes !== undefined)
    rolled.slotTimes = window.slotTimes.map((time) => ({ start: time.start, end: time.end }));
  // The roll's clock: the days it settled as past stay past for a clock set back after it (`clockBehindText`).
  const rolledAt = state.now ?? window.rolledAt;
  if (rolledAt !== undefined) rolled.rolledAt = rolledAt;

  const removed = new Set<string>();
  for (const task of state.tasks) {
    const slots = task.slots ?? [];
    if (task.source === "task_item" && slots.length > 0 && slots.every((range) => range.day <= days))
      removed.add(task.id);
  }
  const timetable = rollTimetable(state, days, rolled, removed);
  for (const [id, event] of timetable) if (event === undefined) removed.add(id);
  const settled = settleTasksOnRoll(state, days);
  const weekEnds = habitWeekEnds(window, rolled);
  const tasks = state.tasks.flatMap((stored): ScheduleTask[] => {
    const task = settled.get(stored.id) ?? stored;
    if (task.source === "event") {
      const event = timetable.get(task.id);
      return event === undefined ? [] : [event];
    }
    const item: TaskItem = {
      ...task,
      ...(task.slots ? { slots: task.slots.flatMap((range) => shift(range) ?? []) } : {}),
    };
    if (task.dueBefore !== undefined) {
      const weekEnd =
        task.group?.kind === "habit" && task.group.week !== undefined ? weekEnds.get(task.group.week) : undefined;
      const dueDay =
        "day" in task.dueBefore
          ? weekEnd !== undefined && task.dueBefore.day === window.totalDays + 1
            ? weekEnd
            : task.dueBefore.day - days
          : removed.has(task.dueBefore.eventId)
            ? 0
            : undefined;
      item.dueBefore = dueDay === undefined ? task.dueBefore : { day: Math.max(1, dueDay) };
    }
    if (task.earliestDay !== undefined) item.earliestDay = Math.max(1, task.earliestDay - days);
    return [buildTaskItem(item)];
  });
  const categories = state.categories.map((category): TaskCategory => {
    if (category.blockedDays === undefined) return canonicalCategory(category);
    const blockedDays = category.blockedDays.filter((day) => day > days).map((day) => day - days);
    const { blockedDays: _dropped, ...rest } = category;
    return canonicalCategory(blockedDays.length > 0 ? { ...rest, blockedDays } : rest);
  });
  // A habit carries on: the weeks the roll brought in get its occurrences (history keeps the old ones).
  const habits = rolledHabitOccurrences(state, { window: rolled, tasks }, carried);
  return { window: rolled, categories, tasks: [...tasks, ...habits] };
}

/**
 * The schedule `days` days later, `days` past the window's length too (a clock weeks past the window): in steps of at
 * most the window's length, each at the run's clock (`state.now`), the habits `state` carries on carried through every
 * step. A week the clock passed whole gets no habit occurrences, and the habit is not lost for having none there: it
 * carries on to the week of now, as one roll of a longer window carries it.
 */
export function rollWindowBy(state: ScheduleState, days: number): ScheduleState {
  const { totalDays } = state.window;
  if (!Number.isInteger(days) || days <= totalDays) return rollWindow(state, days);
  const carried = activeHabits(state);
  let rolled = state;
  for (let left = days; left > 0; left -= Math.min(left, totalDays))
    rolled = rollWindow(
      state.now === undefined ? rolled : { ...rolled, now: state.now },
      Math.min(left, totalDays),
      carried,
    );
  return rolled;
}

/**
 * The deadline a habit's occurrence of the old window's last week keeps in the rolled window, by week: the day after
 * that week's last day there. A week the old window cut short gave its occurrences the window's end as deadline, not
 * the week's; moved `days` earlier, that deadline would fall inside the week and cut it shorter with every roll (a
 * roll by 1 and then 1 kept a day less than a roll by 2). Re-read from the rolled window, it is the same however the
 * days were rolled: the week's end, or the rolled window's end when the week still runs past it.
 */
function habitWeekEnds(before: ScheduleWindow, rolled: ScheduleWindow): Map<number, number> {
  const lastWeek = before.days.at(-1)?.week;
  const ends = new Map<number, number>();
  for (const { week, last } of weeksOf(rolled)) if (week === lastWeek) ends.set(week, last + 1);
  return ends;
}

/** True for a series of one occurrence: a one-off kept for a later week (`calendar-one-offs.ts`), moved or not. */
function oneOccurrence(series: EventSeries): boolean {
  return series.rule.count === 1 && series.moreRules === undefined && (series.added ?? []).length === 0;
}

/**
 * The timetable after a roll by `days` (issue 47), by event id: an event of a series re-expanded into the rolled
 * window (the series is the truth, so no lecture is lost whatever lay in the dropped days); a one-off shifted `days`
 * earlier, or undefined — gone with the dropped days — when it lay wholly in them, and so a one-off kept for a later
 * week (a series of its one occurrence) once its time is behind the rolled window. Hosts keep the guests not in
 * `removedItems`.
 */
function rollTimetable(
  state: ScheduleState,
  days: number,
  rolled: ScheduleWindow,
  removedItems: ReadonlySet<string>,
): Map<string, EventTask | undefined> {
  const timetable = new Map<string, EventTask | undefined>();
  for (const task of state.tasks) {
    if (task.source !== "event") continue;
    const embeds = task.embeds.filter((id) => !removedItems.has(id));
    if (task.series !== undefined) {
      const expansion = expandSeries(task.series, rolled);
      const over = oneOccurrence(task.series) && expansion.occurrences.length + expansion.left.length === 0;
      // A one-off kept for its week (a series of its one occurrence) whose time is behind the rolled window: over, so
      // gone with the old days as a one-off of the window is.
      if (over && !occursAfter(task.series, rolled.days.at(-1)?.date ?? task.series.firstDate)) {
        timetable.set(task.id, undefined);
        continue;
      }
      timetable.set(task.id, buildEventTask({ ...task, slots: expansion.slots, embeds }));
      continue;
    }
    const gone = task.slots.length > 0 && task.slots.every((range) => range.day <= days);
    const slots = task.slots.flatMap((range) =>
      range.day > days ? [{ day: range.day - days, start: range.start, end: range.end }] : [],
    );
    timetable.set(task.id, gone ? undefined : buildEventTask({ ...task, slots, embeds }));
  }
  return timetable;
}

/**
 * The task items whose place leaves the window in a roll by `days` days, settled: a done one keeps its record (when
 * it was marked) and its place becomes `was`, the calendar day it was on; a placed one whose day passed without
 * being marked done becomes `missed`, with `was` where it was planned; a habit's occurrence still pending when its week
 * leaves becomes `missed` too. Keyed by task id; nothing else changes.
 */
export function settleTasksOnRoll(state: ScheduleState, days: number): Map<string, TaskItem> {
  const settled = new Map<string, TaskItem>();
  const firstWeekLeft = weekAfterRoll(state.window, days);
  for (const task of state.tasks) {
    // A habit's occurrence left unplaced in a week that has passed is missed: its week will not come again. (A week
    // the window's end cut short has its deadline at the window's end, not the week's: its week tells when it is over.)
    if (
      task.source === "task_item" &&
      task.status === "pending" &&
      task.group?.kind === "habit" &&
      task.dueBefore !== undefined &&
      "day" in task.dueBefore &&
      task.dueBefore.day <= days + 1 &&
      (task.group.week === undefined || task.group.week < firstWeekLeft)
    ) {
      settled.set(task.id, buildTaskItem({ ...task, status: "missed" }));
      continue;
    }
    if (task.source !== "task_item" || (task.status !== "placed" && task.status !== "done")) continue;
    const range = task.slots?.[0];
    if (range === undefined || range.day > days) continue;
    const item: TaskItem = {
      ...task,
      status: task.status === "done" ? "done" : "missed",
      was: pastPlaceOf(state.window, range),
    };
    delete item.slots;
    delete item.embeddedIn;
    settled.set(task.id, buildTaskItem(item));
  }
  return settled;
}

/** The week of the first day a roll by `days` leaves in the window (the day after the last, when it leaves none). */
function weekAfterRoll(window: ScheduleWindow, days: number): number {
  const kept = window.days[days];
  if (kept !== undefined) return kept.week;
  const last = window.days[window.days.length - 1]!;
  return last.dayOfWeek === 7 ? last.week + 1 : last.week;
}

/** A place of the window as history (`PastPlace`): its calendar day (week, weekday, date) and slots. */
export function pastPlaceOf(window: Pick<ScheduleWindow, "days">, range: SlotRange): PastPlace {
  const day = window.days[range.day - 1];
  return {
    week: day?.week ?? 1,
    dayOfWeek: day?.dayOfWeek ?? 1,
    ...(day?.date !== undefined ? { date: day.date } : {}),
    start: range.start,
    end: range.end,
  };
}

function calendarError(message: string): TempoError {
  return new TempoError("INVALID_INPUT", `The calendar is not valid: ${message}.`);
}

/** The first slot (1-based) that starts at `hour`:00 or later ("not before 10"), or one past the last when none does. */
export function firstSlotFrom(slotTimes: readonly SlotTime[], hour: number): number {
  const first = slotTimes.findIndex((time) => Number(time.start.slice(0, 2)) >= hour);
  return first === -1 ? slotTimes.length + 1 : first + 1;
}

/**
 * The last slot (1-based) ending at or before `hour` o'clock ("HH:MM" of its end, 24 being midnight), or 0 when none
 * does: the last slot a review may use under "nothing after `hour`".
 */
export function lastSlotBy(slotTimes: readonly SlotTime[], hour: number): number {
  const by = `${String(hour).padStart(2, "0")}:00`;
  return slotTimes.reduce((last, time, index) => (time.end <= by ? index + 1 : last), 0);
}
