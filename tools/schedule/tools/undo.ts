/**
 * `propose_undo` ("undo that", issue 47 item 4): the writes that reverse the thread's last applied card, as one
 * candidate (`u1`) for `choose_candidate` — so the undo is a new card of ordinary writes, applied exactly once like
 * any write. The inverse of place is unplace, of move a move back, of swap the same swap, of unplace a place where it
 * was, of a mark the status it had (reopen, and its old place back), of add_task remove_task, of a class created its
 * removal (and of a removal the class again), of add_habit its sessions and class removed, of import_calendar its
 * events removed (remove_event), of remove_event the event put back (restore_event). Each inverse is tried
 * on the week as it is now, last write first: one the week no longer allows (its slot taken, a rule broken, the slot
 * passed by the clock, the task changed since) is left out and said, with the reason; the rest are offered.
 */
import { z } from "zod";
import type { AppliedWrite, CandidateListing, DomainTool, ProposedCandidate, ToolRun } from "../../domain.js";
import {
  isSettled,
  type PastPlace,
  type ScheduleState,
  type SlotRange,
  type TaskCategory,
  type TaskItem,
  type TaskStatus,
} from "../state.js";
import { SUMMARY_WORDS } from "../summary-phrases.js";
import { sayUndo, UNDO_WORDS } from "../undo-words.js";
import { dayOfDate, placeName } from "../calendar.js";
import { clockOfState, hasStarted } from "../window-clock.js";
import { markDoneTool, reopenTool, skipTool, type TaskLifeData } from "./task-life.js";
import { moveTool, type MoveData } from "./move.js";
import { batchMoveTool, type BatchMoveData } from "./batch-move.js";
import { placeTool, type PlaceData } from "./place.js";
import {
  removeTaskClassTool,
  upsertTaskClassTool,
  type RemoveTaskClassData,
  type TaskClassData,
} from "./task-classes.js";
import { removeTaskTool, updateTaskTool, type RemoveTaskData, type UpdateTaskData } from "./task-items.js";
import { type ImportCalendarData } from "./calendar-io.js";
import type { AddHabitData } from "./habits.js";
import { restoreTaskTool } from "./restore-task.js";
import { removeEventTool, type RemoveEventData } from "./remove-event.js";
import { restoreEventTool } from "./restore-event.js";
import { swapTool, type SwapData } from "./swap.js";
import { unplaceTool, type UnplaceData } from "./unplace.js";

/** Why a roll is not undone: its reverse would put history back on the schedule, rewriting the past. */
export const ROLL_NOT_UNDONE = UNDO_WORDS.en.rollNotUndone;

/** The id of the one candidate an undo listing offers. */
export const UNDO_CANDIDATE_ID = "u1";

/** What propose_undo found, as data: the candidate (when anything can be undone), and what cannot, with why. */
export interface UndoListing extends CandidateListing {
  /** The last card's writes that the candidate reverses, as `tool task` ("move matrix-review"). */
  undone: string[];
  /** The last card's writes that cannot be undone now, each with the reason. */
  kept: Array<{ write: string; why: string }>;
  /** The tools of the last card's writes that another domain made (`ScheduleState.lastChangeElsewhere`). */
  elsewhere?: string[];
  /**
   * The name of each task, event and class `kept` names by its id (its write, its reason), by id: what a person reads
   * instead of the id. Absent when nothing is kept, and on a listing read back from its text.
   */
  names?: Record<string, string>;
  /**
   * The last card was itself an undo (chosen from propose_undo's listing): the candidate redoes the change it took
   * back, and is said to (never as a plain undo).
   */
  redoes?: true;
}

/** propose_undo's name: the listing an undo's card is chosen from (`AppliedWrite.chosenFrom`). */
const PROPOSE_UNDO = "propose_undo";

/** The line of propose_undo's text that says its candidate redoes what the last undo took back. */
export const REDOES_LINE = "the last change was an undo: this redoes what it took back";

/**
 * The writes that reverse one applied write on `state`, or why there are none; `partly` says what of it they leave
 * as it is (a field a later write changed).
 */
type Inverse =
  | {
      writes: Array<{ name: string; arguments: Record<string, unknown> }>;
      partly?: string;
      /** The tasks `partly` is about, when only some of the write's are (a batch's moves that stay). */
      partlyOf?: string[];
    }
  | { why: string };

/**
 * One field a write changes, with its label and the arguments that set it back to the value `before` held; none
 * when that value cannot be written back (a bound the tool cannot clear).
 */
interface FieldBack<T> {
  field: keyof T;
  label: string;
  back: (before: T) => Record<string, unknown> | undefined;
}

/** The fields update_task changes, each with the arguments that set it to a stored value (or clear it). */
const UPDATE_FIELDS: ReadonlyArray<FieldBack<TaskItem>> = [
  { field: "name", label: "name", back: (task) => ({ name: task.name }) },
  { field: "categoryId", label: "class", back: (task) => ({ class_id: task.categoryId }) },
  { field: "duration", label: "length", back: (task) => ({ duration: task.duration }) },
  {
    field: "dueBefore",
    label: "deadline",
    back: ({ dueBefore: due }) =>
      due === undefined
        ? { clear_due_before: true }
        : "eventId" in due
          ? { due_before_event: due.eventId }
          : { due_before_day: due.day },
  },
  {
    field: "priority",
    label: "priority",
    back: (task) => (task.priority === undefined ? { clear_priority: true } : { priority: task.priority }),
  },
  {
    field: "earliestDay",
    label: "earliest day",
    back: (task) =>
      task.earliestDay === undefined ? { clear_earliest_day: true } : { earliest_day: task.earliestDay },
  },
];

/** A class field upsert_task_class sets by `argument`: a list without a value is cleared by an empty one; a bound,
 * the strategy or the buffer cannot be cleared. */
function classField(field: keyof TaskCategory, label: string, argument: string, list = false): FieldBack<TaskCategory> {
  return {
    field,
    label,
    back: (before) => {
      const value = before[field] ?? (list ? [] : undefined);
      return value === undefined ? undefined : { [argument]: value };
    },
  };
}

/** The class fields upsert_task_class sets. */
const CLASS_FIELDS: ReadonlyArray<FieldBack<TaskCategory>> = [
  classField("name", "name", "name"),
  classField("preferredParts", "preferred parts", "preferred_parts", true),
  classField("minSession", "min session", "min_session"),
  classField("maxSession", "max session", "max_session"),
  classField("excludedDaysOfWeek", "excluded weekdays", "excluded_days_of_week", true),
  classField("blockedDays", "blocked days", "blocked_days", true),
  classField("strategy", "strategy", "strategy"),
  classField("bufferSlots", "buffer", "buffer_slots"),
];

/**
 * The `tool` call (from `args`) that gives back, field by field, the values `before` held before a write made them
 * `written`; a field a later write changed again (it is no longer `written` in `now`) is kept as it is now, and said,
 * as is one that cannot be written back.
 */
function giveBack<T>(
  tool: string,
  fields: ReadonlyArray<FieldBack<T>>,
  values: { before: T; written: T; now: T },
  args: Record<string, unknown>,
): Inverse {
  const { before, written, now } = values;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const since: string[] = [];
  const cannot: string[] = [];
  const call = { ...args };
  let changes = 0;
  for (const { field, label, back } of fields) {
    if (same(before[field], written[field])) continue;
    const set = back(before);
    if (!same(now[field], written[field])) since.push(label);
    else if (set === undefined) cannot.push(label);
    else {
      Object.assign(call, set);
      changes += 1;
    }
  }
  const said = [
    ...(since.length > 0 ? [sayUndo("en", "fieldsChangedSince", { fields: since.join(", ") })] : []),
    ...(cannot.length > 0 ? [sayUndo("en", "fieldsNotCleared", { fields: cannot.join(", ") })] : []),
  ];
  const partly = said.length > 0 ? said.join("; ") : undefined;
  if (changes === 0) return { why: partly ?? UNDO_WORDS.en.nothingLeft };
  return { writes: [{ name: tool, arguments: call }], ...(partly ? { partly } : {}) };
}

/** The update_task that gives task `data.task.id` back the values it had before `data`'s update. */
function unupdate(state: ScheduleState, data: UpdateTaskData): Inverse {
  if (data.before === undefined) return { why: UNDO_WORDS.en.beforeNotOnRecord };
  const before = data.before;
  const now = state.tasks.find((task) => task.id === before.id);
  if (now?.source !== "task_item") return { why: UNDO_WORDS.en.removedSince };
  return giveBack("update_task", UPDATE_FIELDS, { before, written: data.task, now }, { task_id: before.id });
}

/**
 * The upsert_task_class that gives a changed class back the fields it had before `data`'s change; a class the write
 * created is removed again, unless tasks use it now (said, with their ids) or it has changed since.
 */
function unupsertClass(state: ScheduleState, data: TaskClassData): Inverse {
  const id = data.class.id;
  const now = state.categories.find((entry) => entry.id === id);
  if (now === undefined) return { why: UNDO_WORDS.en.removedSince };
  if (data.created) {
    const users = state.tasks.filter((task) => task.source === "task_item" && task.categoryId === id);
    if (users.length > 0) return { why: sayUndo("en", "classInUse", { ids: users.map((task) => task.id).join(", ") }) };
    if (JSON.stringify(now) !== JSON.stringify(data.class)) return { why: UNDO_WORDS.en.changedSince };
    return { writes: [{ name: "remove_task_class", arguments: { class_id: id } }] };
  }
  if (data.before === undefined) return { why: UNDO_WORDS.en.beforeNotOnRecord };
  const values = { before: data.before, written: data.class, now };
  return giveBack("upsert_task_class", CLASS_FIELDS, values, { class_id: id, name: now.name });
}

/** The upsert_task_class that creates a removed class again, with every field it had. */
function unremoveClass(state: ScheduleState, data: RemoveTaskClassData): Inverse {
  const removed = data.class;
  if (state.categories.some((entry) => entry.id === removed.id)) return { why: UNDO_WORDS.en.classExistsAgain };
  const args: Record<string, unknown> = { class_id: removed.id, name: removed.name };
  for (const { field, back } of CLASS_FIELDS) if (removed[field] !== undefined) Object.assign(args, back(removed));
  return { writes: [{ name: "upsert_task_class", arguments: args }] };
}

/**
 * The writes that take back a habit: each of its sessions still pending or placed is removed, then its class. A
 * session since marked done, missed or skipped is history: it stays, and so does the class it names (said).
 */
function unaddHabit(state: ScheduleState, data: AddHabitData): Inverse {
  const ids = new Set(data.tasks.map((task) => task.id));
  const sessions = state.tasks.filter((task): task is TaskItem => task.source === "task_item" && ids.has(task.id));
  const kept = sessions.filter((task) => isSettled(task.status));
  const removes = sessions
    .filter((task) => !isSettled(task.status))
    .map((task) => ({ name: "remove_task", arguments: { task_id: task.id } }));
  const classId = data.class.id;
  const others = state.tasks.filter(
    (task) => task.source === "task_item" && task.categoryId === classId && !ids.has(task.id),
  );
  const hasClass = state.categories.some((entry) => entry.id === classId);
  const classStays = hasClass && (kept.length > 0 || others.length > 0);
  const removesClass = hasClass && !classStays;
  const writes = removesClass ? [...removes, { name: "remove_task_class", arguments: { class_id: classId } }] : removes;
  const said = [
    ...(kept.length > 0
      ? [
          sayUndo("en", "historyKept", {
            settled: kept
              .map((task) => sayUndo("en", "sessionSettled", { who: task.id, status: task.status }))
              .join(", "),
          }),
        ]
      : []),
    ...(others.length > 0
      ? [sayUndo("en", "classUsedByOthers", { ids: others.map((task) => task.id).join(", ") })]
      : []),
    ...(classStays ? [UNDO_WORDS.en.classStays] : []),
  ];
  if (writes.length === 0) return { why: said.length > 0 ? said.join("; ") : UNDO_WORDS.en.sessionsRemoved };
  return { writes, ...(said.length > 0 ? { partly: said.join("; ") } : {}) };
}

/**
 * The remove_event writes that take back an import: each event it added that the week still has. One a later write
 * made the week depend on (a task inside it, a deadline naming it) is kept, and said, by remove_event's refusal.
 */
function unimport(state: ScheduleState, data: ImportCalendarData): Inverse {
  const ids = new Set(state.tasks.map((task) => task.id));
  const there = data.events.filter((event) => ids.has(event.id));
  if (there.length === 0) return { why: UNDO_WORDS.en.eventsRemoved };
  // Each on its own (removing one event never changes whether another can go): one the week depends on keeps only
  // itself. proposeUndo tries the removable ones together on the week.
  const kept: string[] = [];
  const removable = there
    .map((event) => ({ name: "remove_event", arguments: { event_id: event.id } }))
    .filter((write) => {
      const alone = tryWrites(state, [write]);
      if (!alone.ok) kept.push(alone.why);
      return alone.ok;
    });
  if (removable.length === 0) return { why: kept.join("; ") };
  return kept.length === 0
    ? { writes: removable }
    : { writes: removable, partly: sayUndo("en", "importKept", { why: kept.join("; ") }) };
}

/** The tools an inverse is made of, to try it on the week as it is now. */
const INVERSE_TOOLS: Readonly<Record<string, DomainTool<ScheduleState>>> = Object.fromEntries(
  [
    placeTool,
    moveTool,
    batchMoveTool,
    swapTool,
    unplaceTool,
    reopenTool,
    markDoneTool,
    skipTool,
    removeTaskTool,
    updateTaskTool,
    restoreTaskTool,
    removeEventTool,
    restoreEventTool,
    upsertTaskClassTool,
    removeTaskClassTool,
  ].map((tool) => [tool.name, tool]),
);

/** The names of the writes an undo card can be made of: what a policy reading the card's ending looks for. */
export const UNDO_WRITES: ReadonlySet<string> = new Set(Object.keys(INVERSE_TOOLS));

/** The current place of task `id` (its first range), if placed. */
function rangeOf(state: ScheduleState, id: string): SlotRange | undefined {
  return state.tasks.find((task) => task.id === id)?.slots?.[0];
}

/** True when task `id` sits at `range` now. */
function sitsAt(state: ScheduleState, id: string, range: { day: number; start: number; end: number }): boolean {
  const now = rangeOf(state, id);
  return now !== undefined && now.day === range.day && now.start === range.start && now.end === range.end;
}

/** The window's day index of a past place (by its date, else its week and weekday), if the window still shows it. */
function dayOfPlace(state: ScheduleState, place: PastPlace): number | undefined {
  if (place.date !== undefined) return dayOfDate(state.window, place.date);
  return state.window.days.find((day) => day.week === place.week && day.dayOfWeek === place.dayOfWeek)?.dayIndex;
}

/** The writes that put task `id` back on `place` (it is pending or missed now). */
function placeBack(state: ScheduleState, id: string, place: PastPlace | undefined): Inverse {
  if (place === undefined) return { why: UNDO_WORDS.en.whereNotOnRecord };
  const day = dayOfPlace(state, place);
  if (day === undefined) return { why: UNDO_WORDS.en.dayNotInWindow };
  return { writes: [{ name: "place", arguments: { task_id: id, day, slot_start: place.start } }] };
}

/**
 * The write that gives task `id` back its place `place` as placed when the clock has passed that place (the mark of a
 * review after its time, undone): `restore_task` of the task as it was, inside the event that holds the place if one
 * can; undefined when the place is ahead (place puts it back) or not in the window.
 */
function pastPlaceBack(state: ScheduleState, id: string, place: PastPlace | undefined): Inverse | undefined {
  const task = state.tasks.find((candidate) => candidate.id === id);
  const day = place === undefined ? undefined : dayOfPlace(state, place);
  if (task?.source !== "task_item" || place === undefined || day === undefined) return undefined;
  if (!hasStarted(day, place.start, clockOfState(state))) return undefined;
  const range = { day, start: place.start, end: place.end };
  const host =
    task.embeddedIn ??
    state.tasks.find(
      (event) =>
        event.source === "event" &&
        event.canEmbed &&
        event.slots.some((slots) => slots.day === day && slots.start <= range.start && slots.end >= range.end),
    )?.id;
  const { markedAt: _marked, was: _was, embeddedIn: _host, ...rest } = task;
  const record: TaskItem = {
    ...rest,
    status: "placed",
    slots: [range],
    ...(host === undefined ? {} : { embeddedIn: host }),
  };
  return { writes: [{ name: "restore_task", arguments: { task: record } }] };
}

/**
 * True when task `data.id` was marked while its place `data.was` was still ahead (done ahead of it, or skipped before
 * it came: its `markedAt`) and the clock has passed that place since: the review was never there, and the place is
 * gone, so an undo gives it back pending rather than placed in the past.
 */
function markedAheadOfPassedPlace(state: ScheduleState, data: TaskLifeData, task: TaskItem | undefined): boolean {
  const place = data.was;
  if (place === undefined || task === undefined) return false;
  const day = dayOfPlace(state, place);
  const first = state.window.days[0]?.date;
  const passed =
    day === undefined
      ? place.date !== undefined && first !== undefined && place.date < first
      : hasStarted(day, place.start, clockOfState(state));
  if (!passed) return false;
  if (data.freed) return true;
  if (task.markedAt === undefined || day === undefined) return place.date !== undefined && task.markedAt !== undefined;
  return !hasStarted(day, place.start, clockOfState({ window: state.window, now: task.markedAt }));
}

/** The writes that give a marked task item back the status it had (`data` is the mark's). */
function unmark(state: ScheduleState, data: TaskLifeData): Inverse {
  const task = state.tasks.find((candidate) => candidate.id === data.id);
  const status = task?.source === "task_item" ? task.status : undefined;
  if (status !== data.to)
    return {
      why:
        status === undefined
          ? sayUndo("en", "goneNow", { marked: data.to })
          : sayUndo("en", "statusNow", { status, marked: data.to }),
    };
  const reopen = { name: "reopen", arguments: { task_id: data.id } };
  const back: Record<TaskStatus, () => Inverse> = {
    pending: () => ({ writes: [reopen] }),
    placed: () => {
      // Marked before its place came, and the place has passed since: never placed in the past, it comes back pending.
      if (markedAheadOfPassedPlace(state, data, task?.source === "task_item" ? task : undefined))
        return { writes: [reopen], partly: UNDO_WORDS.en.placePassedSinceMarked };
      // A place the clock has passed is history: the task is given it back as it was (placed there), in place.
      const past = pastPlaceBack(state, data.id, data.was);
      if (past !== undefined) return past;
      // A missed task is placed again as it is; a done or skipped one is reopened first.
      const placed = placeBack(state, data.id, data.was);
      if ("why" in placed) return placed;
      return { writes: data.to === "missed" ? placed.writes : [reopen, ...placed.writes] };
    },
    done: () => ({ writes: [reopen, { name: "mark_done", arguments: { task_id: data.id } }] }),
    skipped: () => ({ writes: [reopen, { name: "skip", arguments: { task_id: data.id } }] }),
    missed: () => ({ why: UNDO_WORDS.en.missedOnlyFromPlace }),
  };
  return back[data.from]();
}

/**
 * The writes that put a removed task back as `data` recorded it: restore_task — a done, missed or skipped one with its
 * history — and for a placed one place where it was; when that place can no longer be given back (taken, passed), it
 * comes back pending and that is said, as does history the week no longer takes (its place taken since).
 */
function unremove(state: ScheduleState, data: RemoveTaskData): Inverse {
  const task = data.task;
  if (task === undefined) return { why: UNDO_WORDS.en.wasNotOnRecord };
  const { slots, embeddedIn: _host, markedAt: _marked, was: _was, ...rest } = task;
  const restore = { name: "restore_task", arguments: { task: { ...rest, status: "pending" } } };
  if (task.status === "pending") return { writes: [restore] };
  if (task.status !== "placed") {
    const history = { name: "restore_task", arguments: { task } };
    const tried = tryWrites(state, [history]);
    return tried.ok
      ? { writes: [history] }
      : {
          writes: [restore],
          partly: sayUndo("en", "historyNotBack", { status: task.status, why: tried.why }),
        };
  }
  const range = slots?.[0];
  if (range === undefined) return { writes: [restore] };
  const place = { name: "place", arguments: { task_id: task.id, day: range.day, slot_start: range.start } };
  const tried = tryWrites(state, [restore, place]);
  return tried.ok
    ? { writes: [restore, place] }
    : { writes: [restore], partly: sayUndo("en", "placeNotBack", { why: tried.why }) };
}

/** A batch_move's refusal, naming the task it refused: `cannot apply batch_move (task <id>): <why>; nothing was moved`. */
const BATCH_REFUSAL = /^cannot apply batch_move \(task ([^)\s]+)\): ([\s\S]*?)(?:; nothing was moved\.?)?$/;

/**
 * The batch_move that puts back the tasks a batch moved, as many as the week allows: one the week refuses to move back
 * now (its old place taken or passed by the clock, its place now passed) stays where it is, and is said, with why; the
 * rest go back together. None goes back when one has moved since, or a refusal names no task of the batch.
 */
function unbatch(state: ScheduleState, batch: BatchMoveData): Inverse {
  if (batch.moved.some((task) => task.from === undefined)) return { why: UNDO_WORDS.en.whereTasksNotOnRecord };
  // A task moved since is a change of the batch made again: the batch is not taken back (its reverse is the later
  // move's business), as for a move.
  const since = batch.moved.filter((task) => !sitsAt(state, task.id, task)).map((task) => task.id);
  if (since.length > 0) return { why: sayUndo("en", "listMovedSince", { ids: since.join(", ") }) };
  const said: string[] = [];
  const stays: string[] = [];
  let back = batch.moved;
  const writeOf = (tasks: typeof back) => ({
    name: "batch_move",
    arguments: {
      moves: tasks.map((task) => ({ task_id: task.id, day: task.from!.day, slot_start: task.from!.start })),
    },
  });
  while (back.length > 0) {
    const tried = tryWrites(state, [writeOf(back)]);
    if (tried.ok) break;
    const refused = BATCH_REFUSAL.exec(tried.why);
    if (!refused || !back.some((task) => task.id === refused[1])) return { why: tried.why };
    said.push(sayUndo("en", "taskStays", { ids: refused[1]!, why: refused[2]! }));
    stays.push(refused[1]!);
    back = back.filter((task) => task.id !== refused[1]);
  }
  if (back.length === 0) return { why: said.join("; ") };
  return said.length === 0
    ? { writes: [writeOf(back)] }
    : { writes: [writeOf(back)], partly: said.join("; "), partlyOf: stays };
}

/** The writes that reverse `write` on `state`, or why it cannot be reversed. */
function inverseOf(state: ScheduleState, write: AppliedWrite): Inverse {
  const taskId = String(write.arguments.task_id ?? "");
  if (write.name === "roll_window") return { why: ROLL_NOT_UNDONE };
  if (write.data === undefined) return { why: UNDO_WORDS.en.changeNotOnRecord };
  switch (write.name) {
    case "place": {
      const placed = write.data as PlaceData;
      if (!sitsAt(state, placed.id, placed)) return { why: UNDO_WORDS.en.notWherePlaced };
      const unplace = { name: "unplace", arguments: { task_id: placed.id } };
      // A missed review placed again (rescheduled) is taken off and missed again, with its miss as it was on record.
      const task = state.tasks.find((candidate) => candidate.id === placed.id);
      if (placed.missed === undefined || task?.source !== "task_item") return { writes: [unplace] };
      const { slots: _slots, embeddedIn: _host, ...rest } = task;
      const record: TaskItem = { ...rest, status: "missed", ...placed.missed };
      return { writes: [unplace, { name: "restore_task", arguments: { task: record } }] };
    }
    case "move": {
      const moved = write.data as MoveData;
      if (!sitsAt(state, moved.id, moved.to)) return { why: UNDO_WORDS.en.movedSince };
      return (
        passedPlace(state, moved.from) ?? {
          writes: [
            { name: "move", arguments: { task_id: moved.id, day: moved.from.day, slot_start: moved.from.start } },
          ],
        }
      );
    }
    case "batch_move":
      return unbatch(state, write.data as BatchMoveData);
    case "swap": {
      const swapped = write.data as SwapData;
      return swapped.moved.every((task) => sitsAt(state, task.id, task))
        ? {
            writes: [
              { name: "swap", arguments: { first_task_id: swapped.swapped[0], second_task_id: swapped.swapped[1] } },
            ],
          }
        : { why: UNDO_WORDS.en.oneOfTwoMoved };
    }
    case "unplace": {
      const unplaced = write.data as UnplaceData;
      const task = state.tasks.find((candidate) => candidate.id === unplaced.id);
      if (task?.source !== "task_item" || task.status !== "pending") return { why: UNDO_WORDS.en.noLongerPending };
      return (
        passedPlace(state, unplaced.from) ?? {
          writes: [
            {
              name: "place",
              arguments: { task_id: unplaced.id, day: unplaced.from.day, slot_start: unplaced.from.start },
            },
          ],
        }
      );
    }
    case "mark_done":
    case "mark_missed":
    case "skip":
    case "reopen":
      return unmark(state, write.data as TaskLifeData);
    case "update_task":
      return unupdate(state, write.data as UpdateTaskData);
    case "remove_task":
      return unremove(state, write.data as RemoveTaskData);
    case "upsert_task_class":
      return unupsertClass(state, write.data as TaskClassData);
    case "remove_task_class":
      return unremoveClass(state, write.data as RemoveTaskClassData);
    case "add_habit":
      return unaddHabit(state, write.data as AddHabitData);
    case "restore_task":
    case "restore_event": {
      // The undo of an undo: what it put back is removed again (the removal's own checks say when it cannot be).
      const back = write.data as { task?: { id: string }; event?: { id: string }; replaced?: TaskItem };
      const id = (back.task ?? back.event)!.id;
      if (!state.tasks.some((task) => task.id === id)) return { why: UNDO_WORDS.en.removedAgain };
      // A history given back to a task in place (a reschedule undone) is taken back by reopening it, not removing it.
      if (write.name === "restore_task" && back.replaced !== undefined)
        return { writes: [{ name: "restore_task", arguments: { task: back.replaced } }] };
      return write.name === "restore_task"
        ? { writes: [{ name: "remove_task", arguments: { task_id: id } }] }
        : { writes: [{ name: "remove_event", arguments: { event_id: id } }] };
    }
    case "import_calendar":
      return unimport(state, write.data as ImportCalendarData);
    case "remove_event": {
      // A one-off's slots count from the window it was removed in: once the window moved, they name other days.
      const removed = write.data as RemoveEventData;
      if (removed.event.series === undefined && JSON.stringify(state.window.days[0]) !== JSON.stringify(removed.from))
        return { why: UNDO_WORDS.en.oneOffGone };
      return { writes: [{ name: "restore_event", arguments: { event: removed.event } }] };
    }
    case "add_task": {
      const id = (write.data as { task?: { id?: string } }).task?.id ?? taskId;
      return state.tasks.some((task) => task.id === id && task.source === "task_item")
        ? { writes: [{ name: "remove_task", arguments: { task_id: id } }] }
        : { why: UNDO_WORDS.en.removedAlready };
    }
    default:
      return { why: sayUndo("en", "notUndoneByTempo", { tool: write.name }) };
  }
}

/** "move matrix-review": a write named by its tool and the task(s) it was about. */
function writeName(write: AppliedWrite): string {
  const args = write.arguments;
  const moves = Array.isArray(args.moves)
    ? (args.moves as Array<{ task_id?: unknown }>).map((move) => move.task_id)
    : [];
  const classId = write.name === "upsert_task_class" ? args.class_id : undefined;
  const ids = [args.task_id, args.event_id, classId, args.first_task_id, args.second_task_id, ...moves].filter(
    (id) => typeof id === "string",
  );
  const added = (write.data as { task?: { id?: string } } | undefined)?.task?.id;
  return [write.name, ...(ids.length > 0 ? ids : added ? [added] : [])].join(" ");
}

/**
 * The names of the tasks, events and classes `kept` names by id, by id: as the week has them now, else as the last
 * card's writes recorded them (a task removed since). A word of `kept` that is no id of these is not named.
 */
function namesOfKept(
  state: ScheduleState,
  last: readonly AppliedWrite[],
  kept: UndoListing["kept"],
): Record<string, string> {
  const known = new Map<string, string>();
  for (const write of last) {
    const data = write.data as
      | {
          task?: { id?: unknown; name?: unknown };
          event?: { id?: unknown; name?: unknown };
          class?: { id?: unknown; name?: unknown };
          events?: unknown;
          tasks?: unknown;
        }
      | undefined;
    const recorded = [
      data?.task,
      data?.event,
      data?.class,
      ...(Array.isArray(data?.events) ? data.events : []),
      ...(Array.isArray(data?.tasks) ? data.tasks : []),
    ];
    for (const entry of recorded as Array<{ id?: unknown; name?: unknown } | undefined>)
      if (typeof entry?.id === "string" && typeof entry.name === "string") known.set(entry.id, entry.name);
  }
  for (const entry of state.categories) known.set(entry.id, entry.name);
  for (const task of state.tasks) known.set(task.id, task.name);
  const words = new Set(
    kept.flatMap((entry) => `${entry.write} ${entry.why}`.match(/[A-Za-z0-9_][A-Za-z0-9_.:-]*/g) ?? []),
  );
  return Object.fromEntries([...known].filter(([id]) => words.has(id)));
}

/**
 * Why a review cannot go back to `place`, the place it had before, when the clock has passed it: said by its date and
 * time (the clock rule would refuse the write with its day and slot indices); undefined while it has not started.
 */
function passedPlace(state: ScheduleState, place: SlotRange): { why: string } | undefined {
  if (!hasStarted(place.day, place.start, clockOfState(state))) return undefined;
  return { why: sayUndo("en", "placeBackPassed", { place: placeName(state.window, place) }) };
}

/** Runs `writes` on `state` in order with the real tools: the state after, or the first refusal. */
function tryWrites(
  state: ScheduleState,
  writes: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }>,
): { ok: true; state: ScheduleState; lines: string[] } | { ok: false; why: string } {
  let current = state;
  const lines: string[] = [];
  for (const write of writes) {
    const run = INVERSE_TOOLS[write.name]!.run(current, write.arguments);
    if (!run.ok || !run.state) return { ok: false, why: run.content.replace(/^error:\s*/i, "") };
    current = run.state;
    lines.push(run.content.split("\n")[0]!);
  }
  return { ok: true, state: current, lines };
}

/**
 * Why an undo listing is empty: nothing applied in the conversation, the last change another domain's (a to-do), or
 * nothing of it can be undone any more.
 */
export const NOTHING_TO_UNDO = {
  none: SUMMARY_WORDS.en.undoNoneYet,
  elsewhere: "the last change was not to the schedule",
  gone: SUMMARY_WORDS.en.undoGone,
} as const;

/** Why a write of the last card that another domain made is not undone here. */
export const NOT_A_SCHEDULE_CHANGE = UNDO_WORDS.en.notAScheduleChange;

/** The undo of the last applied card on `state` (`ScheduleState.lastChange`). */
export function proposeUndo(state: ScheduleState): UndoListing {
  const last = state.lastChange ?? [];
  const elsewhere = state.lastChangeElsewhere ?? [];
  if (last.length === 0)
    return elsewhere.length > 0
      ? { candidates: [], undone: [], kept: [], elsewhere, empty: NOTHING_TO_UNDO.elsewhere }
      : { candidates: [], undone: [], kept: [], empty: NOTHING_TO_UNDO.none };
  const writes: ProposedCandidate["writes"] = [];
  const undone: string[] = [];
  const kept: UndoListing["kept"] = [];
  const said: string[] = [];
  let current = state;
  // Last write first: each inverse on the week as the later ones' inverses leave it.
  for (const write of [...last].reverse()) {
    const inverse = inverseOf(current, write);
    if ("why" in inverse) {
      kept.push({ write: writeName(write), why: inverse.why });
      continue;
    }
    const tried = tryWrites(current, inverse.writes);
    if (!tried.ok) {
      kept.push({ write: writeName(write), why: tried.why });
      continue;
    }
    current = tried.state;
    writes.push(...inverse.writes);
    undone.push(writeName(write));
    if (inverse.partly)
      kept.push({
        write: inverse.partlyOf ? [write.name, ...inverse.partlyOf].join(" ") : writeName(write),
        why: inverse.partly,
      });
    said.push(...tried.lines);
  }
  // A write of the same card that another domain made stays as it is, and is named.
  for (const name of elsewhere) kept.push({ write: name, why: NOT_A_SCHEDULE_CHANGE });
  const candidates: ProposedCandidate[] =
    writes.length > 0
      ? [{ id: UNDO_CANDIDATE_ID, writes, summary: `undo ${undone.join(", ")}: ${said.join("; ")}` }]
      : [];
  const names = kept.length > 0 ? namesOfKept(state, last, kept) : {};
  const redoes = candidates.length > 0 && last.every((write) => write.chosenFrom === PROPOSE_UNDO);
  return {
    candidates,
    undone,
    kept,
    ...(redoes ? { redoes: true as const } : {}),
    ...(candidates.length === 0 ? { empty: NOTHING_TO_UNDO.gone } : {}),
    ...(Object.keys(names).length > 0 ? { names } : {}),
  };
}

/** propose_undo's text: the candidate line, then each write that cannot be undone, with why. */
export function undoListingText(listing: UndoListing): string {
  const lines = listing.candidates.map((candidate) => `${candidate.id}: ${candidate.summary}`);
  if (listing.redoes) lines.push(REDOES_LINE);
  // Another domain's change: named, so the model can take it back with that domain's own tools.
  const whose = listing.elsewhere?.length
    ? ` (${listing.elsewhere.join(", ")}): propose_undo takes back schedule changes only; that domain's tools can reverse it`
    : "";
  if (listing.empty) lines.unshift(`nothing to undo: ${listing.empty}${whose}`);
  for (const entry of listing.kept) lines.push(`cannot undo ${entry.write}: ${entry.why}`);
  return lines.join("\n");
}

/** Lists the undo of the last applied card. */
export const proposeUndoTool: DomainTool<ScheduleState, Record<string, never>> = {
  name: PROPOSE_UNDO,
  description:
    'Lists the writes that undo the last change applied in this conversation ("undo that") as candidate u1 — unplace what ' +
    "was placed, move or swap back, restore a mark, remove an added task — and what can no longer be undone, with why. " +
    "Choose u1 with choose_candidate; nothing is applied before its card.",
  schema: z.object({}).strict(),
  kind: "read",
  proposes: true,
  run(state): ToolRun<ScheduleState> {
    const listing = proposeUndo(state);
    return { ok: true, content: undoListingText(listing), data: listing };
  },
};
