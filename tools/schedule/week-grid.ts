/**
 * The week as a picture (issue 48): a day × slot grid that says what is drawn where — the timetable, the placed
 * reviews by task class, free time, the slots the clock has passed, and, for a proposal, what it adds, what moves
 * from where to where and what a swap exchanges. One model for every renderer (the terminal's box drawing, the
 * Generative UI component), so both draw the same week. Plain data: no colours, no text layout.
 */
import type { Language } from "../../contracts/language.js";
import { dayName } from "./calendar.js";
import { isSettled, type EventTask, type ScheduleState, type SlotRange, type TaskItem } from "./state.js";
import { clockIn, hasStarted } from "./window-clock.js";
import { isPlaceWrite } from "./candidate-writes.js";

/** What a proposal does to one review. */
export type GridChangeKind = "added" | "moved" | "swapped" | "removed";

/** A review a proposal changes: where it was and where it goes (either may be absent: added, removed). */
export interface GridChange {
  kind: GridChangeKind;
  taskId: string;
  name: string;
  from?: SlotRange;
  to?: SlotRange;
  /** For a swap, the review it exchanges places with. */
  partnerId?: string;
}

/** What one cell shows. */
export interface GridCell {
  /** The timetable entry in it, if any. */
  event?: { id: string; name: string; locked: boolean; canEmbed: boolean };
  /**
   * The review in it, if any (inside an event that hosts it, or on its own); `done` when it was marked done there (a
   * done review keeps its place as history, and is drawn so, not as free or passed time).
   */
  review?: { id: string; name: string; categoryId: string; colour: number; done?: boolean };
  /** The first slot of the occupant's run (the renderer writes the name there and continues below). */
  starts: boolean;
  /**
   * The cell where the event's name is written: the first of its run where no other name begins (a review, or the ghost
   * of one leaving), so a review sitting at a lecture's start does not hide the lecture; the run's first cell when a
   * name begins in every one (a one-slot hall holding a one-slot review), written beside that name.
   */
  eventNamed?: boolean;
  /** The clock has passed this slot's start. */
  past: boolean;
  /** What the proposal does here: a review arrives (`to`), or leaves (`from`, drawn as a ghost of the old place). */
  change?: { kind: GridChangeKind; side: "to" | "from"; taskId: string; name: string };
}

export interface GridDay {
  dayIndex: number;
  /** "YYYY-MM-DD" in a dated window. */
  date?: string;
  /** 1 = Monday … 7 = Sunday. */
  dayOfWeek: number;
  /** "Thu 14 Mar" / "3月14日周四". */
  label: string;
  /** Today, by the clock. */
  today: boolean;
  /** One per slot, slot 1 first. */
  cells: GridCell[];
}

export interface GridSlot {
  slot: number;
  /** "08:00" in a window with clock times. */
  start?: string;
  end?: string;
}

export interface WeekGrid {
  days: GridDay[];
  slots: GridSlot[];
  /** Task classes in the order of their colours. */
  classes: Array<{ id: string; name: string; colour: number }>;
  /** The clock, when the window is dated and the moment is inside it: the day, and the first slot not yet started. */
  now?: { dayIndex: number; slot: number; time: string };
  /** The proposal's changes, in task order. */
  changes: GridChange[];
  /** Reviews still without a place (after the proposal, when there is one). */
  pending: Array<{ id: string; name: string }>;
  /** Missed reviews without a place, not made up (after the proposal, when there is one): still to place too. */
  missed: Array<{ id: string; name: string }>;
}

export interface WeekGridOptions {
  /** The week the proposal leads to: the grid draws this one, with the changes from `state` marked. */
  after?: ScheduleState;
  /** The moment that splits past from future (default: none marked). */
  now?: Date;
  /** Only these days (day indices, default every day of the window). */
  days?: { from: number; to: number };
  language?: Language;
}

/** The grid of `state` — or of `options.after`, with what changed from `state` marked on it. */
export function weekGrid(state: ScheduleState, options: WeekGridOptions = {}): WeekGrid {
  const shown = options.after ?? state;
  const { window } = shown;
  const language = options.language ?? "en";
  const colours = new Map(shown.categories.map((category, index) => [category.id, index]));
  const first = Math.max(1, options.days?.from ?? 1);
  const last = Math.min(window.totalDays, options.days?.to ?? window.totalDays);
  const now = options.now === undefined ? undefined : clockIn(shown.window, options.now);

  const slots: GridSlot[] = [];
  for (let slot = 1; slot <= window.slotsPerDay; slot++) {
    const time = window.slotTimes?.[slot - 1];
    slots.push(time ? { slot, start: time.start, end: time.end } : { slot });
  }

  const days: GridDay[] = [];
  for (let dayIndex = first; dayIndex <= last; dayIndex++) {
    const mapping = window.days[dayIndex - 1];
    const cells: GridCell[] = [];
    for (let slot = 1; slot <= window.slotsPerDay; slot++)
      cells.push({ starts: false, past: hasStarted(dayIndex, slot, now) });
    days.push({
      dayIndex,
      ...(mapping?.date === undefined ? {} : { date: mapping.date }),
      dayOfWeek: mapping?.dayOfWeek ?? ((dayIndex - 1) % 7) + 1,
      label: dayName(window, dayIndex, language),
      today: now?.dayIndex === dayIndex,
      cells,
    });
  }
  const cellAt = (day: number, slot: number): GridCell | undefined => days[day - first]?.cells[slot - 1];

  for (const task of shown.tasks) {
    if (task.source !== "event") continue;
    for (const range of task.slots) markRun(range, cellAt, (cell) => void (cell.event = eventOf(task)));
  }
  // The cells where a name other than an event's begins: a review's first slot, a leaving review's ghost's.
  const otherNames = new Set<GridCell>();
  for (const task of shown.tasks) {
    if (task.source !== "task_item" || (task.status !== "placed" && task.status !== "done")) continue;
    const review = {
      id: task.id,
      name: task.name,
      categoryId: task.categoryId,
      colour: colours.get(task.categoryId) ?? 0,
      ...(task.status === "done" ? { done: true } : {}),
    };
    for (const range of task.slots ?? []) {
      markRun(range, cellAt, (cell) => void (cell.review = review));
      const first = cellAt(range.day, range.start);
      if (first) otherNames.add(first);
    }
  }

  const changes = options.after ? changesBetween(state, options.after) : [];
  const markOf = (change: GridChange) => ({ kind: change.kind, taskId: change.taskId, name: change.name });
  // Every arrival first, then the departures: a place that receives another review keeps that arrival (and its run
  // goes on there: no start of the departure's is marked on it), whichever change comes first; the departure shows
  // where nothing arrives.
  for (const change of changes)
    if (change.to) markRun(change.to, cellAt, (cell) => void (cell.change = { ...markOf(change), side: "to" }));
  for (const change of changes)
    if (change.from)
      markRun(change.from, cellAt, (cell) => {
        if (cell.change?.side === "to") return false;
        cell.change = { ...markOf(change), side: "from" };
        return true;
      });
  for (const change of changes) {
    const first = change.from && cellAt(change.from.day, change.from.start);
    if (first?.change?.side === "from" && first.change.taskId === change.taskId && !first.review) otherNames.add(first);
  }
  for (const task of shown.tasks) {
    if (task.source !== "event") continue;
    for (const range of task.slots) {
      const run: GridCell[] = [];
      for (let slot = range.start; slot <= range.end; slot++) {
        const cell = cellAt(range.day, slot);
        if (cell?.event?.id === task.id) run.push(cell);
      }
      const named = run.find((cell) => !otherNames.has(cell)) ?? run[0];
      if (named) named.eventNamed = true;
    }
  }

  const pending = shown.tasks
    .filter((task): task is TaskItem => task.source === "task_item" && task.status === "pending")
    .map((task) => ({ id: task.id, name: task.name }));
  const missed = shown.tasks
    .filter((task): task is TaskItem => task.source === "task_item" && task.status === "missed" && !task.slots?.length)
    .map((task) => ({ id: task.id, name: task.name }));
  return {
    days,
    slots,
    classes: shown.categories.map((category, index) => ({ id: category.id, name: category.name, colour: index })),
    ...(now === undefined || now.dayIndex < first || now.dayIndex > last ? {} : { now }),
    changes,
    pending,
    missed,
  };
}

/**
 * True when a card of `writes` has a proposal worth drawing on `grid` (its week after them): placing writes always
 * (a card that moves nothing is still about places), any other write only when it changes a place (a removal, an
 * import, an undo), not a class's new profile or a review marked done. Agent Chat UI's picture and the terminal's
 * drawing ask the same.
 */
export function drawsProposal(grid: WeekGrid, writes: ReadonlyArray<{ name: string }>): boolean {
  return grid.changes.length > 0 || writes.every((write) => isPlaceWrite(write.name));
}

/**
 * What `after` changes from `before`, review by review: placed, moved, swapped (two reviews trading places), unplaced
 * or removed; then the timetable's events the change removes or adds (an import, a removal, an undo), one change per
 * place they hold. Nothing when the window moved (a roll lays other dates under the day indices: no place compares).
 */
export function changesBetween(before: ScheduleState, after: ScheduleState): GridChange[] {
  if (!sameWindow(before, after)) return [];
  const old = new Map(
    before.tasks.filter((task): task is TaskItem => task.source === "task_item").map((task) => [task.id, task]),
  );
  const kept = new Set(after.tasks.map((task) => task.id));
  const moves: GridChange[] = [];
  for (const task of after.tasks) {
    if (task.source !== "task_item") continue;
    // A review marked done, missed or skipped is settled, not taken off: its card is about its life, not a place.
    if (isSettled(task.status)) continue;
    const was = old.get(task.id);
    const from = was?.status === "placed" ? was.slots?.[0] : undefined;
    const to = task.status === "placed" ? task.slots?.[0] : undefined;
    if (from && to && sameRange(from, to)) continue;
    if (!from && !to) continue;
    const kind: GridChangeKind = from && to ? "moved" : to ? "added" : "removed";
    moves.push({ kind, taskId: task.id, name: task.name, ...(from ? { from } : {}), ...(to ? { to } : {}) });
  }
  // A placed review the change removes from the week (remove_task) leaves its place.
  for (const task of old.values())
    if (!kept.has(task.id) && task.status === "placed" && task.slots?.[0])
      moves.push({ kind: "removed", taskId: task.id, name: task.name, from: task.slots[0] });
  for (const move of moves) {
    if (move.kind !== "moved") continue;
    const partner = moves.find(
      (other) =>
        other !== move &&
        other.kind !== "added" &&
        other.kind !== "removed" &&
        other.from &&
        other.to &&
        move.from &&
        move.to &&
        sameStart(other.from, move.to) &&
        sameStart(other.to, move.from),
    );
    if (partner) {
      move.kind = "swapped";
      move.partnerId = partner.taskId;
    }
  }
  return [...moves, ...eventChanges(before, after)];
}

/**
 * The events' places only one side has: removed from each place `before` gave an event that `after` does not (the
 * event gone, or — a removal the clock had begun — its times ahead gone and those that started kept), added on each
 * place `after` gives one that `before` did not (an import, an undo).
 */
function eventChanges(before: ScheduleState, after: ScheduleState): GridChange[] {
  const events = (state: ScheduleState) =>
    new Map(state.tasks.filter((task): task is EventTask => task.source === "event").map((task) => [task.id, task]));
  const was = events(before);
  const is = events(after);
  const only = (side: Map<string, EventTask>, other: Map<string, EventTask>, kind: "added" | "removed") =>
    [...side.values()].flatMap((event) =>
      event.slots
        .filter((range) => !(other.get(event.id)?.slots ?? []).some((there) => sameRange(there, range)))
        .map((range): GridChange => ({
          kind,
          taskId: event.id,
          name: event.name,
          ...(kind === "added" ? { to: range } : { from: range }),
        })),
    );
  return [...only(was, is, "removed"), ...only(is, was, "added")];
}

/** True when both weeks lay the same dates on the same day indices (a roll does not). */
function sameWindow(before: ScheduleState, after: ScheduleState): boolean {
  const dates = (state: ScheduleState) => state.window.days.map((day) => day.date ?? "").join(",");
  return before.window.totalDays === after.window.totalDays && dates(before) === dates(after);
}

function eventOf(task: EventTask): NonNullable<GridCell["event"]> {
  return { id: task.id, name: task.name, locked: task.locked, canEmbed: task.canEmbed };
}

/** Marks the cells of `range`, and its first as a start unless `mark` left it (returned false). */
function markRun(
  range: SlotRange,
  cellAt: (day: number, slot: number) => GridCell | undefined,
  mark: (cell: GridCell) => boolean | void,
): void {
  for (let slot = range.start; slot <= range.end; slot++) {
    const cell = cellAt(range.day, slot);
    if (!cell) continue;
    const marked = mark(cell);
    if (slot === range.start && marked !== false) cell.starts = true;
  }
}

function sameRange(a: SlotRange, b: SlotRange): boolean {
  return a.day === b.day && a.start === b.start && a.end === b.end;
}

function sameStart(a: SlotRange, b: SlotRange): boolean {
  return a.day === b.day && a.start === b.start;
}
