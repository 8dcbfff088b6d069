/**
 * `get_overview`: the whole schedule at a glance — the window, occupancy per
 * day, embeddable hosts, task classes and pending task items.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import {
  DAY_LINE_LIMIT,
  HOST_LINE_LIMIT,
  TASK_LINE_LIMIT,
  appendCapped,
  formatCount,
  formatDay,
  formatRanges,
  pendingTaskLine,
  quoteName,
  readResult,
} from "../format.js";
import { FREE, buildOccupancyIndex, cellOf, type OccupancyIndex } from "../occupancy-index.js";
import {
  dayOfWeekName,
  type DayMapping,
  type EventTask,
  type ScheduleState,
  type SlotRange,
  type SlotTime,
  type TaskItem,
} from "../state.js";

/** Arguments of get_overview: none. */
export const getOverviewArgumentsSchema = z.object({});

/** Parsed arguments of get_overview. */
export type GetOverviewArguments = z.infer<typeof getOverviewArgumentsSchema>;

/** A day of the overview (one `- day … occupied=…` line). */
export interface OverviewDay {
  /** Day index. */
  day: number;
  /** Week of the term. */
  week: number;
  /** Day of the week, 1 = Monday … 7 = Sunday. */
  dayOfWeek: number;
  /** Its date, "YYYY-MM-DD", in a dated window. */
  date?: string;
  /** Slots taken by a task without a host (hosts included). */
  occupied: number;
  /** The other slots. */
  free: number;
  /** Host slots still open for embedding. */
  embeddable: number;
  /** Slots of embedded task items. */
  embedded: number;
}

/** A range of an embeddable event (one `- host …` line). */
export interface OverviewHost {
  id: string;
  name: string;
  day: number;
  start: number;
  end: number;
  /** Slots of the range still free for embedding. */
  open: number;
}

/** A task class with its counts (one `- category …` line). */
export interface OverviewCategory {
  id: string;
  name: string;
  pending: number;
  placed: number;
  /** The weekdays the class excludes (1 = Monday), when it excludes any: a class rule adds to them. */
  excludedDaysOfWeek?: number[];
}

/** A pending task item (one `- task …` line). */
export interface PendingTaskEntry {
  /** Task id. */
  id: string;
  /** Display name. */
  name: string;
  /** Consecutive slots it needs. */
  duration: number;
  /** Id of its task class. */
  categoryId: string;
}

/** A placed task item (one `- placed task …` line): enough to name it. */
export interface PlacedTaskEntry {
  id: string;
  name: string;
  categoryId: string;
  /** A placed task item's first range (where it begins); none for a missed one. */
  place?: SlotRange;
}

/** What get_overview says, as data: the counts, and the lines of each list it shows (each capped as the text is). */
export interface GetOverviewData {
  totalDays: number;
  slotsPerDay: number;
  /** The window's time zone and its slots' clock times, when it has them. */
  timeZone?: string;
  slotTimes?: SlotTime[];
  /** Events, embeddable events (on the timetable), locked events. */
  events: number;
  embeddableEvents: number;
  lockedEvents: number;
  /** Task items placed (a done one keeps its place) and pending. */
  placed: number;
  pending: number;
  /**
   * Task items with no place that are neither pending nor done: missed (their time passed unmarked, or the user said
   * so; `propose_reschedule` proposes them again) and skipped (the user let them go this week).
   */
  missed: number;
  skipped: number;
  days: OverviewDay[];
  daysOmitted: number;
  hosts: OverviewHost[];
  hostsOmitted: number;
  categories: OverviewCategory[];
  categoriesOmitted: number;
  pendingTasks: PendingTaskEntry[];
  pendingOmitted: number;
  /** The placed task items (by name: a planner names the tasks a move or a swap is about from them). */
  placedTasks: PlacedTaskEntry[];
  placedOmitted: number;
  /** The missed task items, by name. */
  missedTasks: PlacedTaskEntry[];
  missedOmitted: number;
}

/**
 * Task items by name (`- placed <id> "<name>" category=<class>[ day <d> slots <a>-<b>]`, where a placed one begins: a
 * planner tells from it whether a review is still ahead), capped; those shown.
 */
function appendNamed(lines: string[], status: "placed" | "missed", tasks: readonly TaskItem[]): TaskItem[] {
  return appendCapped(
    lines,
    tasks,
    TASK_LINE_LIMIT,
    (task) =>
      `- ${status} ${task.id} ${quoteName(task.name)} category=${task.categoryId}${status === "placed" && task.slots?.[0] ? ` ${formatRanges([task.slots[0]])}` : ""}`,
    `narrow with list_tasks status=${status} and a category`,
  );
}

/** The week's tasks by what they are: events (and how many locked), and task items by status (and by class). */
function tasksByStatus(state: ScheduleState) {
  const events: EventTask[] = [];
  const pending: TaskItem[] = [];
  const placed: TaskItem[] = [];
  const missed: TaskItem[] = [];
  let skipped = 0;
  let lockedCount = 0;
  const pendingByCategory = new Map<string, number>();
  const placedByCategory = new Map<string, number>();
  for (const task of state.tasks) {
    if (task.source === "event") {
      events.push(task);
      if (task.locked) lockedCount += 1;
    } else if (task.status === "pending") {
      pending.push(task);
      pendingByCategory.set(task.categoryId, (pendingByCategory.get(task.categoryId) ?? 0) + 1);
    } else if (task.status === "missed") {
      // Without a place: never told as placed (a week of missed reviews is not "every review placed").
      missed.push(task);
    } else if (task.status === "skipped") {
      skipped += 1;
    } else {
      placed.push(task);
      placedByCategory.set(task.categoryId, (placedByCategory.get(task.categoryId) ?? 0) + 1);
    }
  }
  return { events, pending, placed, missed, skipped, lockedCount, pendingByCategory, placedByCategory };
}

/** Each day's line (occupied, free, embeddable and embedded slots), capped; the days shown. */
function appendDays(lines: string[], window: ScheduleState["window"], index: OccupancyIndex): OverviewDay[] {
  const days: OverviewDay[] = [];
  appendCapped(
    lines,
    window.days,
    DAY_LINE_LIMIT,
    (day) => {
      let occupied = 0;
      let embeddable = 0;
      let embedded = 0;
      for (let slot = 1; slot <= window.slotsPerDay; slot += 1) {
        const cell = cellOf(index, day.dayIndex, slot);
        const occupant = index.primary[cell] ?? FREE;
        const guest = index.embedded[cell] ?? FREE;
        if (occupant !== FREE) occupied += 1;
        if (guest !== FREE) embedded += 1;
        const task = occupant === FREE ? undefined : index.tasks[occupant];
        if (guest === FREE && task !== undefined && task.source === "event" && task.canEmbed) embeddable += 1;
      }
      const free = window.slotsPerDay - occupied;
      days.push({
        day: day.dayIndex,
        week: day.week,
        dayOfWeek: day.dayOfWeek,
        ...(day.date === undefined ? {} : { date: day.date }),
        occupied,
        free,
        embeddable,
        embedded,
      });
      return `- ${formatDay(day)}: occupied=${occupied} free=${free} embeddable=${embeddable} embedded=${embedded}`;
    },
    "use query_range or find_free with days to look at later days",
  );

  return days;
}

/** Each embeddable host's range and its room left for embedding, capped; those shown and every range. */
function appendHosts(lines: string[], hosts: readonly EventTask[], index: OccupancyIndex) {
  const hostRanges: Array<{ host: EventTask; range: SlotRange }> = [];
  for (const host of hosts) for (const range of host.slots) hostRanges.push({ host, range });
  lines.push(`embeddable hosts (${formatCount(hostRanges.length)}):`);
  const hostRows: OverviewHost[] = [];
  appendCapped(
    lines,
    hostRanges,
    HOST_LINE_LIMIT,
    ({ host, range }) => {
      let open = 0;
      for (let slot = range.start; slot <= range.end; slot += 1) {
        if ((index.embedded[cellOf(index, range.day, slot)] ?? FREE) === FREE) open += 1;
      }
      hostRows.push({ id: host.id, name: host.name, day: range.day, start: range.start, end: range.end, open });
      return `- host ${host.id} ${quoteName(host.name)} day ${range.day} slots ${range.start}-${range.end} (${open} free for embedding)`;
    },
    "use find_free with days to find embeddable room on other days",
  );

  return { hostRows, hostRanges };
}

/** Each task class with its pending and placed counts and the weekdays it keeps off, capped; those shown. */
function appendCategories(
  lines: string[],
  all: ScheduleState["categories"],
  pendingByCategory: ReadonlyMap<string, number>,
  placedByCategory: ReadonlyMap<string, number>,
): OverviewCategory[] {
  lines.push(`categories (${formatCount(all.length)}):`);
  const categories: OverviewCategory[] = [];
  appendCapped(
    lines,
    all,
    TASK_LINE_LIMIT,
    (category) => {
      const excluded = category.excludedDaysOfWeek ?? [];
      const row: OverviewCategory = {
        id: category.id,
        name: category.name,
        pending: pendingByCategory.get(category.id) ?? 0,
        placed: placedByCategory.get(category.id) ?? 0,
        ...(excluded.length > 0 ? { excludedDaysOfWeek: [...excluded] } : {}),
      };
      categories.push(row);
      return `- category ${row.id} ${quoteName(row.name)} pending=${row.pending} placed=${row.placed}${excluded.length > 0 ? ` excluded_days_of_week=${excluded.join(",")}` : ""}`;
    },
    "use list_tasks with a category to see one task class",
  );

  return categories;
}

/** Shows the window, occupancy per day, embeddable hosts, task classes and pending tasks. */
export const getOverviewTool: DomainTool<ScheduleState, GetOverviewArguments> = {
  name: "get_overview",
  description: "The week: free and occupied slots per day, embeddable events, task classes, pending tasks.",
  schema: getOverviewArgumentsSchema,
  kind: "read",
  run(state) {
    const index = buildOccupancyIndex(state);
    const { window } = state;
    const lines: string[] = [];

    const first = window.days[0];
    const last = window.days[window.days.length - 1];
    const dated = (day: DayMapping) =>
      `week ${day.week} ${dayOfWeekName(day.dayOfWeek)}${day.date === undefined ? "" : ` ${day.date}`}`;
    const zone = window.timeZone === undefined ? "" : `, ${window.timeZone}`;
    const span = first !== undefined && last !== undefined ? ` (${dated(first)} - ${dated(last)}${zone})` : "";
    lines.push(`schedule: ${formatCount(window.totalDays)} days${span}, ${window.slotsPerDay} slots per day`);

    const { events, pending, placed, missed, skipped, lockedCount, pendingByCategory, placedByCategory } =
      tasksByStatus(state);
    const placedCount = placed.length;
    const hosts = events.filter((event) => event.canEmbed && event.slots.length > 0);
    lines.push(
      `tasks: ${formatCount(events.length)} events (${formatCount(hosts.length)} embeddable, ${formatCount(lockedCount)} locked), ` +
        `${formatCount(pending.length + placedCount)} task items (${formatCount(placedCount)} placed, ${formatCount(pending.length)} pending)`,
    );

    if (window.slotTimes !== undefined)
      lines.push(
        `slot times: ${window.slotTimes.map((time, index) => `${index + 1} ${time.start}-${time.end}`).join(", ")}`,
      );
    lines.push("days:");
    const days = appendDays(lines, window, index);

    const { hostRows, hostRanges } = appendHosts(lines, hosts, index);

    const categories = appendCategories(lines, state.categories, pendingByCategory, placedByCategory);

    lines.push(`pending tasks (${formatCount(pending.length)}):`);
    const shownPending = appendCapped(
      lines,
      pending,
      TASK_LINE_LIMIT,
      pendingTaskLine,
      "narrow with list_tasks status=pending and a category",
    );
    lines.push(`placed tasks (${formatCount(placed.length)}):`);
    // Names and where each begins (a planner names the task a move is about); list_tasks tells the rest.
    const shownPlaced = appendNamed(lines, "placed", placed);
    // Last, so the lines before read as they always did.
    if (missed.length + skipped > 0)
      lines.push(
        `without a place: ${formatCount(missed.length)} missed (propose_reschedule proposes them again), ${formatCount(skipped)} skipped by the user`,
      );
    if (missed.length > 0) lines.push(`missed tasks (${formatCount(missed.length)}):`);
    const shownMissed = appendNamed(lines, "missed", missed);
    const data: GetOverviewData = {
      totalDays: window.totalDays,
      slotsPerDay: window.slotsPerDay,
      ...(window.timeZone === undefined ? {} : { timeZone: window.timeZone }),
      ...(window.slotTimes === undefined
        ? {}
        : { slotTimes: window.slotTimes.map(({ start, end }) => ({ start, end })) }),
      events: events.length,
      embeddableEvents: hosts.length,
      lockedEvents: lockedCount,
      placed: placedCount,
      pending: pending.length,
      missed: missed.length,
      skipped,
      days,
      daysOmitted: window.days.length - days.length,
      hosts: hostRows,
      hostsOmitted: hostRanges.length - hostRows.length,
      categories,
      categoriesOmitted: state.categories.length - categories.length,
      pendingTasks: shownPending.map(({ id, name, duration, categoryId }) => ({ id, name, duration, categoryId })),
      pendingOmitted: pending.length - shownPending.length,
      placedTasks: shownPlaced.map(({ id, name, categoryId, slots }) => ({
        id,
        name,
        categoryId,
        ...(slots?.[0] ? { place: { ...slots[0] } } : {}),
      })),
      placedOmitted: placed.length - shownPlaced.length,
      missedTasks: shownMissed.map(({ id, name, categoryId }) => ({ id, name, categoryId })),
      missedOmitted: missed.length - shownMissed.length,
    };
    return readResult(lines, data);
  },
};
