/**
 * Text formats of the schedule tools' results. They are a STABLE contract: the
 * model reads them, and a reader that has only the text (a model stand-in fed
 * over the wire) parses them back (`offline/schedule/result-parsing.ts`).
 * Change them only together with the domain version (`SCHEDULE_DOMAIN_VERSION`).
 *
 * Conventions
 * - `<id>` is a task / category id: 1-64 characters of `A-Z a-z 0-9 _ . : -`.
 * - `"<name>"` is the display name as a JSON string literal (quotes and
 *   backslashes escaped, other characters as they are).
 * - Numbers in item lines are plain digits; counts in headers and in the
 *   overflow line group thousands with commas ("4,812").
 * - Slot ranges are inclusive and 1-based: `slots 3-4` is two slots, `slots 5-5` one.
 * - In a dated window with clock times, the ranges of write results (place, move, swap, batch_move, unplace) and of
 *   rule refusals carry their date and clock time after them: `day 4 slots 7-8 (Thu 14 Mar 2024, 16:00–17:40)`
 *   (`<place>` below stands for the range with that note); an event's start in a deadline, its start time alone.
 * - Lists are capped; a capped list ends with the overflow line
 *     `... and <count> more; <hint>`
 * - A failed call (ok: false) answers exactly one line:
 *     `error: <what is wrong and what to do>`
 *
 * Item lines (each starts with "- " and the first word tells its kind; a line
 * starting with "- task " is ALWAYS a pending task item, nothing else):
 *   pending task item   `- task <id> "<name>" duration=<n> category=<categoryId>`
 *   placed task item    `- placed task <id> "<name>" duration=<n> category=<categoryId> day <d> slots <a>-<b>[ embedded in host <hostId>]`
 *   event               `- event <id> "<name>" <where>[ locked][ can_embed][ embeds <id>,<id>...]`
 *                        where <where> is `day <d> slots <a>-<b>` joined by `; `, or `not on the timetable`
 *   free run            `- day <d> slots <a>-<b> (<len> free)[ embeddable host <hostId>]`
 *   day occupancy       `- day <d> week <w> <Dow>[ <YYYY-MM-DD>]: occupied=<n> free=<n> embeddable=<n> embedded=<n>`
 *                        (the date in a dated window)
 *                        occupied = slots taken by a task without a host (hosts included), free = the rest,
 *                        embeddable = host slots still open for embedding, embedded = slots of embedded task items
 *   embeddable host     `- host <id> "<name>" day <d> slots <a>-<b> (<n> free for embedding)`  (one line per host range)
 *   category            `- category <id> "<name>" pending=<n> placed=<n>`
 *   range segment       `- slots <a>-<b>: <occupant>` where <occupant> is `free`,
 *                        `task <id> "<name>" category=<categoryId>`, or
 *                        `event <id> "<name>"[ locked][ can_embed]` followed, for a host, by
 *                        `, free for embedding` or `, embedded task <id> "<name>" category=<categoryId>`; with the run's
 *                        clock, a segment that has started ends ` (started)`, or for a review ` (started, done)` /
 *                        ` (started, not marked done)` (a free run is cut where the clock is)
 *   move result         `- task <id> now on <place>[ embedded in host <hostId>]`
 *
 * Results
 *   get_overview   `schedule: <n> days (week <w> <Dow>[ <date>] - week <w> <Dow>[ <date>][, <time zone>]), <n> slots per day`
 *                  `tasks: <n> events (<n> embeddable, <n> locked), <n> task items (<n> placed, <n> pending)`
 *                  `slot times: 1 <HH:MM>-<HH:MM>, 2 …` (a window with clock times only)
 *                  `days:` + day occupancy lines (capped)
 *                  `embeddable hosts (<count>):` + host lines (capped)
 *                  `categories (<count>):` + category lines
 *                  `pending tasks (<count>):` + pending task lines (capped)
 *   query_range    one block per day: `day <d> week <w> <Dow> slots <a>-<b>:` + range segment lines
 *   find_free      `free runs with min_length=<n> on days <days> slots <a>-<b>: <count> found`
 *                  + free run lines (capped), in day then slot order;
 *                  or `no free run with min_length=<n> on days <days> slots <a>-<b>`
 *                  (<days> is a compressed list such as `1-3,5`)
 *   list_tasks     `tasks matching <filters>: <count> of <total>` (filters `source=… status=… category=… day=…`
 *                  or `all`) + pending / placed / event lines (capped), in task-list order
 *   get_task_info  `task <id> "<name>"` then `key: value` lines:
 *                  task item: `source: task_item`, `status: pending|placed`, `duration: <n>`,
 *                             `category: <id> "<name>"`, `slots: <where>` (placed), `embedded in: host <id> "<name>"` (if any)
 *                  event:     `source: event`, `slots: <where>`, `locked: true|false`, `can_embed: true|false`,
 *                             `embeds: <n>` + `- placed task …` lines of the embedded task items
 *   place          `placed task <id> on <place>[ embedded in host <hostId>]`
 *   move           `moved task <id> from <place> to <place>[ embedded in host <hostId>]`
 *   swap           `swapped task <id> and task <id>` + two move result lines
 *   batch_move     `moved <n> tasks` + one move result line per task, in request order
 *   unplace        `unplaced task <id> from <place>[ (was embedded in host <hostId>)]; it is pending again`
 *
 * Beside the text, every successful call gives the same facts as data (`ToolRun.data`, typed next to each tool:
 * `ListTasksData`, `FindFreeData`, `GetOverviewData`, `QueryRangeData`, `GetTaskInfoData`, `PlaceData`, `MoveData`,
 * `SwapData`, `BatchMoveData`, `UnplaceData`, `TaskClassData`, `AddTaskData`, `ImportCalendarData`); programs (the
 * offline policy) read that, not the text. A failure
 * gives none: its `error:` line is all there is.
 */
import type { ToolRun } from "../domain.js";
import { placeNote } from "./calendar.js";
import {
  dayOfWeekName,
  type DayMapping,
  type EventTask,
  type PastPlace,
  type ScheduleTask,
  type ScheduleWindow,
  type SlotRange,
  type TaskItem,
} from "./state.js";
import { saySummary } from "./summary-phrases.js";

/** Lines of tasks shown before a list is cut. */
export const TASK_LINE_LIMIT = 20;
/** Lines of days shown by get_overview before the list is cut. */
export const DAY_LINE_LIMIT = 31;
/** Lines of hosts shown by get_overview before the list is cut. */
export const HOST_LINE_LIMIT = 10;
/** Free runs shown by find_free unless the call asks for another limit. */
export const RUN_LINE_LIMIT = 20;

/** A count with thousands grouped by commas ("4,812"). */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Task ids as a refusal names them: the first `most`, then how many more ("a, b, c and 4 more"). */
export function someIds(ids: readonly string[], most = 5): string {
  const shown = ids.slice(0, most).join(", ");
  return ids.length > most ? `${shown} and ${ids.length - most} more` : shown;
}

/** A display name as a JSON string literal. */
export function quoteName(name: string): string {
  return JSON.stringify(name);
}

/** What a range's date and clock time are read from: the window (without one, or undated, the range stands alone). */
export type Dating = Pick<ScheduleWindow, "days" | "slotTimes"> | undefined;

/** `day <d> slots <a>-<b>`, and in a dated window with clock times ` (<Dow> <d> <Mon> <yyyy>, <HH:MM>–<HH:MM>)`. */
export function formatRange(range: SlotRange, window?: Dating): string {
  return `${saySummary("en", "range", { day: range.day, start: range.start, end: range.end })}${dateNote(range, window)}`;
}

/** ` (Thu 14 Mar 2024, 14:00–15:40)` beside a range in a dated window (`calendar.ts` `placeNote`), else "". */
export function dateNote(range: SlotRange, window: Dating, options: { startOnly?: boolean } = {}): string {
  const note = window === undefined ? undefined : placeNote(window, range, options);
  return note === undefined ? "" : ` (${note})`;
}

/** Ranges joined by "; ", or `not on the timetable` when there are none. */
export function formatRanges(ranges: readonly SlotRange[], window?: Dating): string {
  return ranges.length === 0 ? "not on the timetable" : ranges.map((range) => formatRange(range, window)).join("; ");
}

/** `day <d> week <w> <Dow>`, with ` <YYYY-MM-DD>` after it in a dated window. */
export function formatDay(day: DayMapping): string {
  return `day ${day.dayIndex} week ${day.week} ${dayOfWeekName(day.dayOfWeek)}${day.date === undefined ? "" : ` ${day.date}`}`;
}

/** Day indices compressed into runs: "1-3,5,7-9". */
export function formatDayList(days: readonly number[]): string {
  const parts: string[] = [];
  let index = 0;
  while (index < days.length) {
    const first = days[index] ?? 0;
    let last = first;
    while (index + 1 < days.length && days[index + 1] === last + 1) {
      index += 1;
      last += 1;
    }
    parts.push(first === last ? String(first) : `${first}-${last}`);
    index += 1;
  }
  return parts.join(",");
}

/** `- task <id> "<name>" duration=<n> category=<categoryId>` (a pending task item). */
export function pendingTaskLine(task: TaskItem): string {
  return `- task ${task.id} ${quoteName(task.name)} duration=${task.duration} category=${task.categoryId}${dueSuffix(task)}`;
}

/** ` due_before=event:<id>` / ` due_before=day:<n>` for a task with a deadline, or nothing. */
export function dueSuffix(task: TaskItem): string {
  const due = task.dueBefore;
  if (due === undefined) return "";
  return "eventId" in due ? ` due_before=event:${due.eventId}` : ` due_before=day:${due.day}`;
}

/** `- placed task <id> "<name>" duration=<n> category=<c> day <d> slots <a>-<b>[ embedded in host <h>]`. */
export function placedTaskLine(task: TaskItem): string {
  const host = task.embeddedIn === undefined ? "" : ` embedded in host ${task.embeddedIn}`;
  return `- placed task ${task.id} ${quoteName(task.name)} duration=${task.duration} category=${task.categoryId} ${formatRanges(task.slots ?? [])}${host}${dueSuffix(task)}`;
}

/** `- event <id> "<name>" <where>[ locked][ can_embed][ embeds <ids>]`. */
export function eventLine(task: EventTask): string {
  const flags = `${task.locked ? " locked" : ""}${task.canEmbed ? " can_embed" : ""}`;
  const embeds = task.embeds.length > 0 ? ` embeds ${task.embeds.join(",")}` : "";
  return `- event ${task.id} ${quoteName(task.name)} ${formatRanges(task.slots)}${flags}${embeds}`;
}

/**
 * `- <done|missed|skipped> task <id> "<name>" duration=<n> category=<c>[ day <d> slots <a>-<b>][ was <place>][ marked <at>]`:
 * a settled task item, with where it was (in the window, or `was` once that is history) and when it was marked.
 */
export function settledTaskLine(task: TaskItem): string {
  const where = task.slots !== undefined ? ` ${formatRanges(task.slots)}` : "";
  const was = task.was === undefined ? "" : ` was ${pastPlaceText(task.was)}`;
  const marked = task.markedAt === undefined ? "" : ` marked ${task.markedAt}`;
  return `- ${task.status} task ${task.id} ${quoteName(task.name)} duration=${task.duration} category=${task.categoryId}${where}${was}${marked}${dueSuffix(task)}`;
}

/** A past place: `2024-03-12 slots 9-10`, or without a date `week 1 Tue slots 9-10`. */
export function pastPlaceText(place: PastPlace): string {
  const day = place.date ?? `week ${place.week} ${dayOfWeekName(place.dayOfWeek)}`;
  return `${day} slots ${place.start}-${place.end}`;
}

/** The list line of any task: pending, placed, settled or event. */
export function taskLine(task: ScheduleTask): string {
  if (task.source === "event") return eventLine(task);
  if (task.status === "pending") return pendingTaskLine(task);
  return task.status === "placed" ? placedTaskLine(task) : settledTaskLine(task);
}

/** `- day <d> slots <a>-<b> (<len> free)[ embeddable host <hostId>]`. */
export function freeRunLine(range: SlotRange, hostId?: string): string {
  const host = hostId === undefined ? "" : ` embeddable host ${hostId}`;
  return `- day ${range.day} slots ${range.start}-${range.end} (${range.end - range.start + 1} free)${host}`;
}

/**
 * `- task <id> now on day <d> slots <a>-<b>[ (<date and time>)][ embedded in host <hostId>][; was on <range>]`, the
 * last part when `from`, where it sat before, is given.
 */
export function movedTaskLine(
  taskId: string,
  range: SlotRange,
  hostId?: string,
  window?: Dating,
  from?: SlotRange,
): string {
  const was = from === undefined ? "" : saySummary("en", "wasOn", { where: formatRange(from, window) });
  return `${saySummary("en", "nowOn", { id: taskId, where: formatRange(range, window) })}${hostSuffix(hostId)}${was}`;
}

/** ` embedded in host <hostId>`, or nothing without a host. */
export function hostSuffix(hostId: string | undefined): string {
  return hostId === undefined ? "" : saySummary("en", "embedded", { host: hostId });
}

/** `... and <count> more; <hint>`. */
export function overflowLine(count: number, hint: string): string {
  return `... and ${formatCount(count)} more; ${hint}`;
}

/** Appends up to `limit` lines from `items` to `lines`, then the overflow line when some were left out; answers the items shown. */
export function appendCapped<T>(
  lines: string[],
  items: readonly T[],
  limit: number,
  render: (item: T) => string,
  hint: string,
): T[] {
  const shown = items.slice(0, Math.min(items.length, limit));
  for (const item of shown) lines.push(render(item));
  if (items.length > shown.length) lines.push(overflowLine(items.length - shown.length, hint));
  return shown;
}

/** A failed tool run: one `error: …` line, no state. */
export function failure<TState>(message: string, data?: unknown): ToolRun<TState> {
  return data === undefined
    ? { ok: false, content: `error: ${message}` }
    : { ok: false, content: `error: ${message}`, data };
}

/** A successful read: the text, and what it says as data (`ToolRun.data`), no state. */
export function readResult<TState>(lines: readonly string[], data: unknown): ToolRun<TState> {
  return { ok: true, content: lines.join("\n"), data };
}
