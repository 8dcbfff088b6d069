/**
 * What a write card of the schedule is read against (`ToolDomain.cardFrame`), so that a card approved after the week
 * changed underneath it — a check-in or a request on another thread rolled the window on, another thread's card moved
 * the review — never applies a change other than the one it showed. A card is made on one state: its days are days of
 * that window ("Sun 17 Mar" is `day: 7`), and it names where each review it touches is ("Move … from Tue 12 Mar …").
 * Its frame keeps both; the write applies only while both still hold, else it is refused with the reason, nothing is
 * changed, and the step proposes again on the week as it is now.
 */
import { createHash } from "node:crypto";
import { addDays, daysBetween } from "../../contracts/clock.js";
import { formatRange } from "./format.js";
import { formatDate, type ScheduleState, type ScheduleTask, type SlotRange } from "./state.js";

/** A write call as its card holds it. */
type Call = { name: string; arguments: Record<string, unknown> };

/** How a task a card names stood when the card was made: its status (`event` for an event) and its place. */
interface Standing {
  status: string;
  slots?: SlotRange[];
}

/** What a card's frame holds: the window's dates ("first/last", when dated) and, by id, how each task it names stood. */
interface Frame {
  window?: string;
  tasks?: Record<string, Standing | null>;
}

/**
 * The writes a card's window does not bear on: removals by id, the calendar file's import and export (its dates are
 * its own), and the roll itself (its `from_date` guards it). Every other write names days of the window, or a review
 * whose place is one.
 */
const UNFRAMED_WRITES: ReadonlySet<string> = new Set([
  "roll_window",
  "import_calendar",
  "export_calendar",
  "remove_event",
  "remove_task",
  "remove_task_class",
]);

/** The task ids a write's arguments name as what it changes (`task_id`, swap's two, batch_move's). */
function namedTasks(call: Call): string[] {
  const args = call.arguments;
  const ids = [args.task_id, args.first_task_id, args.second_task_id];
  if (Array.isArray(args.moves))
    ids.push(...args.moves.map((move) => (move as Record<string, unknown> | null)?.task_id));
  return ids.filter((id): id is string => typeof id === "string");
}

/** How task `id` stands in `state`, or null when there is none. */
function standing(state: ScheduleState, id: string): Standing | null {
  const task = state.tasks.find((candidate) => candidate.id === id);
  if (!task) return null;
  const status = task.source === "task_item" ? task.status : "event";
  return task.slots && task.slots.length > 0
    ? { status, slots: task.slots.map((range) => ({ ...range })) }
    : { status };
}

/** The window's dates, "2024-03-11/2024-03-17", or undefined for a window without dates (it never rolls by the clock). */
function windowDates(state: Pick<ScheduleState, "window">): string | undefined {
  const first = state.window.days[0]?.date;
  const last = state.window.days.at(-1)?.date;
  return first === undefined || last === undefined ? undefined : `${first}/${last}`;
}

/** The frame a card of `call` is made in on `state` (see the module's note), or undefined when it bears on none. */
export function cardFrameOf(state: ScheduleState, call: Call): string | undefined {
  if (UNFRAMED_WRITES.has(call.name)) return undefined;
  const window = windowDates(state);
  const tasks = Object.fromEntries(namedTasks(call).map((id) => [id, standing(state, id)]));
  const frame: Frame = {
    ...(window ? { window } : {}),
    ...(Object.keys(tasks).length > 0 ? { tasks } : {}),
  };
  return Object.keys(frame).length === 0 ? undefined : JSON.stringify(frame);
}

/**
 * The week as a card bears on it: the window's dates and how every task stands (status and place), in id order, as
 * a digest (it rides on the checkpointed step ending). Riders of a loaded state (the clock, standing preferences, the
 * last change) are no part of it.
 */
export function weekOf(state: ScheduleState): string {
  const tasks = state.tasks
    .map((task) => [task.id, standing(state, task.id)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify({ window: windowDates(state) ?? null, tasks }))
    .digest("base64url");
}

/** A frame as kept; an unreadable one reads as none (it holds nothing to check). */
function readFrame(frame: string): Frame {
  try {
    const read: unknown = JSON.parse(frame);
    return read !== null && typeof read === "object" ? (read as Frame) : {};
  } catch {
    return {};
  }
}

/** "day 1 (Mon 11 Mar 2024) – day 7 (Sun 17 Mar 2024)" for "2024-03-11/2024-03-17" (people read the dates alone). */
function span(dates: string | undefined): string {
  const [first, last] = (dates ?? "").split("/");
  if (!first || !last) return "another window";
  const day = (index: number, date: string) => `day ${index} (${formatDate(date)} ${date.slice(0, 4)})`;
  return `${day(1, first)} – ${day(daysBetween(first, last) + 1, last)}`;
}

/** What ends every refusal of a stale card. */
const NOTHING_CHANGED = "nothing was changed, and a change for the week as it is now needs a card of its own";

/**
 * Why the week a card made in `frame` bears on is not `state`'s any more — the window moved on since (a check-in,
 * another thread) — or undefined when it still is: every write of such a card names days that are other dates now.
 */
export function movedCardWeek(state: ScheduleState, frame: string): string | undefined {
  const kept = readFrame(frame).window;
  const window = windowDates(state);
  if (kept === undefined || window === undefined || kept === window) return undefined;
  return `this card was made on the week of ${span(kept)}, and the schedule has moved on to ${span(window)} since, so its days would be other dates now; ${NOTHING_CHANGED}`;
}

/**
 * Why `call`, whose card was made in `frame`, would not do on `state` what its card showed — the window moved on, or a
 * task it names (and named when the card was made: an edit may name another) changed since — or undefined when it
 * still would.
 */
export function staleCardReason(state: ScheduleState, call: Call, frame: string): string | undefined {
  const moved = movedCardWeek(state, frame);
  if (moved !== undefined) return moved;
  const kept = readFrame(frame);
  for (const id of namedTasks(call)) {
    const was = kept.tasks?.[id];
    if (was === undefined || JSON.stringify(was) === JSON.stringify(standing(state, id))) continue;
    const task = state.tasks.find((candidate) => candidate.id === id);
    const now = !task
      ? "it is gone"
      : task.source === "task_item" && task.status !== "placed"
        ? `it is ${task.status} now`
        : `it is on ${(task.slots ?? []).map((range) => formatRange(range, state.window)).join("; ")} now`;
    return `task ${id} has changed since this card was made (${now}, by another change), so the card no longer shows what it would do; ${NOTHING_CHANGED}`;
  }
  return undefined;
}

/**
 * `state` as the card of `frame` saw it, so a write is named as its card named it: the window dated as it was, and each
 * task the card named where it stood then.
 */
export function seenInCardFrame(state: ScheduleState, frame: string): ScheduleState {
  const kept = readFrame(frame);
  const was = kept.window?.split("/")[0];
  const first = state.window.days[0]?.date;
  const shift = was && first && was !== first ? daysBetween(first, was) : 0;
  const days = state.window.days.map((day) =>
    day.date && shift !== 0 ? { ...day, date: addDays(day.date, shift) } : day,
  );
  const tasks = state.tasks.map((task) => {
    const then = kept.tasks?.[task.id];
    if (!then) return task;
    const slots = then.slots ? { slots: then.slots } : { slots: undefined };
    return task.source === "task_item" && then.status !== "event"
      ? ({ ...task, ...slots, status: then.status } as ScheduleTask)
      : ({ ...task, ...slots } as ScheduleTask);
  });
  return { ...state, window: { ...state.window, days }, tasks };
}
