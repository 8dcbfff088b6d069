/**
 * Builders that give every task and schedule one canonical shape (fixed key
 * order, optional keys absent rather than undefined, `embeds` sorted), so two
 * equal schedules serialise to the same JSON byte for byte.
 */
import {
  isSettled,
  type EventSeries,
  type EventTask,
  type PastPlace,
  type ScheduleState,
  type ScheduleTask,
  type ScheduleWindow,
  type SeriesRule,
  type SlotRange,
  type TaskCategory,
  type TaskGroup,
  type TaskItem,
} from "./state.js";

/** Sorts ids ascending in code-unit order (the order `embeds` is kept in). */
export function sortIds(ids: Iterable<string>): string[] {
  return [...ids].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
}

/** A copy of a slot range with its keys in canonical order. */
export function canonicalRange(range: SlotRange): SlotRange {
  return { day: range.day, start: range.start, end: range.end };
}

/** An event in canonical form: a one-off carries no `series` key. */
export function buildEventTask(task: EventTask): EventTask {
  const event: EventTask = {
    id: task.id,
    name: task.name,
    source: "event",
    slots: task.slots.map(canonicalRange),
    canEmbed: task.canEmbed,
    locked: task.locked,
    embeds: sortIds(task.embeds),
  };
  if (task.series !== undefined) event.series = canonicalSeries(task.series);
  return event;
}

/** A series in canonical form: its keys in a fixed order, unset rule parts absent, exceptions sorted by date. */
export function canonicalSeries(series: EventSeries): EventSeries {
  const canonical: EventSeries = {
    rule: canonicalRule(series.rule),
    ...(series.moreRules !== undefined && series.moreRules.length > 0
      ? { moreRules: series.moreRules.map(canonicalRule) }
      : {}),
    firstDate: series.firstDate,
    start: series.start,
    end: series.end,
    timeZone: series.timeZone,
    cancelled: [...new Set(series.cancelled)].sort(),
    moved: series.moved
      .map((moved) => ({ from: moved.from, date: moved.date, start: moved.start, end: moved.end }))
      .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0)),
  };
  // Added occurrences (RDATE): one per date and time, by date and time; no key when there are none.
  const added = [
    ...new Map(
      (series.added ?? []).map(({ date, start, end }) => [
        `${date} ${start}`,
        { date, start, ...(end !== undefined ? { end } : {}) },
      ]),
    ),
  ]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, occurrence]) => occurrence);
  if (added.length > 0) canonical.added = added;
  return canonical;
}

/** A rule in canonical form: its keys in a fixed order, unset parts absent, lists ascending without repeats. */
function canonicalRule(rule: SeriesRule): SeriesRule {
  const { freq, interval, byDay, byNthDay, byMonthDay, bySetPos, byMonth, count, until } = rule;
  const ascending = (values: readonly number[]) => [...new Set(values)].sort((a, b) => a - b);
  return {
    freq,
    interval,
    ...(byDay !== undefined ? { byDay: ascending(byDay) } : {}),
    ...(byNthDay !== undefined
      ? {
          byNthDay: [...new Map(byNthDay.map(({ nth, day }) => [`${nth}|${day}`, { nth, day }])).values()].sort(
            (a, b) => a.nth - b.nth || a.day - b.day,
          ),
        }
      : {}),
    ...(byMonthDay !== undefined ? { byMonthDay: ascending(byMonthDay) } : {}),
    ...(bySetPos !== undefined ? { bySetPos: ascending(bySetPos) } : {}),
    ...(byMonth !== undefined ? { byMonth: ascending(byMonth) } : {}),
    ...(count !== undefined ? { count } : {}),
    ...(until !== undefined ? { until } : {}),
  };
}

/** A task item in canonical form: only a placed or done one carries `slots` and `embeddedIn`, only a settled one `markedAt` and `was`. */
export function buildTaskItem(task: TaskItem): TaskItem {
  const item: TaskItem = {
    id: task.id,
    name: task.name,
    source: "task_item",
    duration: task.duration,
    categoryId: task.categoryId,
    status: task.status,
  };
  const onSchedule = task.status === "placed" || task.status === "done";
  if (onSchedule && task.slots !== undefined && task.slots.length > 0) item.slots = task.slots.map(canonicalRange);
  if (onSchedule && item.slots !== undefined && task.embeddedIn !== undefined) item.embeddedIn = task.embeddedIn;
  if (task.dueBefore !== undefined)
    item.dueBefore = "eventId" in task.dueBefore ? { eventId: task.dueBefore.eventId } : { day: task.dueBefore.day };
  if (task.priority !== undefined) item.priority = task.priority;
  if (task.earliestDay !== undefined) item.earliestDay = task.earliestDay;
  if (isSettled(task.status) && task.markedAt !== undefined) item.markedAt = task.markedAt;
  if (isSettled(task.status) && task.was !== undefined) item.was = canonicalPastPlace(task.was);
  if (task.group !== undefined) item.group = canonicalGroup(task.group);
  return item;
}

/** A task group with its keys in canonical order, the unset ones absent. */
export function canonicalGroup(group: TaskGroup): TaskGroup {
  return {
    id: group.id,
    kind: group.kind,
    ...(group.perWeek !== undefined ? { perWeek: group.perWeek } : {}),
    ...(group.week !== undefined ? { week: group.week } : {}),
    ...(group.sameDay ? { sameDay: true } : {}),
  };
}

/** A past place with its keys in canonical order. */
export function canonicalPastPlace(place: PastPlace): PastPlace {
  return {
    week: place.week,
    dayOfWeek: place.dayOfWeek,
    ...(place.date !== undefined ? { date: place.date } : {}),
    start: place.start,
    end: place.end,
  };
}

/** Any task in canonical form. */
export function canonicalTask(task: ScheduleTask): ScheduleTask {
  return task.source === "event" ? buildEventTask(task) : buildTaskItem(task);
}

/** A deep copy of a schedule in canonical form. */
export function canonicalScheduleState(state: ScheduleState): ScheduleState {
  const window: ScheduleWindow = {
    totalDays: state.window.totalDays,
    slotsPerDay: state.window.slotsPerDay,
    days: state.window.days.map((day) => ({
      dayIndex: day.dayIndex,
      week: day.week,
      dayOfWeek: day.dayOfWeek,
      ...(day.date !== undefined ? { date: day.date } : {}),
    })),
  };
  if (state.window.timeZone !== undefined) window.timeZone = state.window.timeZone;
  if (state.window.slotTimes !== undefined)
    window.slotTimes = state.window.slotTimes.map((time) => ({ start: time.start, end: time.end }));
  if (state.window.rolledAt !== undefined) window.rolledAt = state.window.rolledAt;
  return { window, categories: state.categories.map(canonicalCategory), tasks: state.tasks.map(canonicalTask) };
}

/** A task class in canonical form: its profile's keys in a fixed order, the unset ones absent. */
export function canonicalCategory(category: TaskCategory): TaskCategory {
  const built: TaskCategory = { id: category.id, name: category.name };
  if (category.preferredParts !== undefined) built.preferredParts = [...category.preferredParts];
  if (category.minSession !== undefined) built.minSession = category.minSession;
  if (category.maxSession !== undefined) built.maxSession = category.maxSession;
  if (category.excludedDaysOfWeek !== undefined) built.excludedDaysOfWeek = [...category.excludedDaysOfWeek];
  if (category.blockedDays !== undefined) built.blockedDays = [...category.blockedDays];
  if (category.strategy !== undefined) built.strategy = category.strategy;
  if (category.bufferSlots !== undefined) built.bufferSlots = category.bufferSlots;
  return built;
}
