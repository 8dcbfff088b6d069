/**
 * roll(roll(s)) keeps what roll keeps (issue 47, "Property tests"), on generated weeks that hold everything a roll
 * settles: a timetable of series with exceptions (cancelled dates, a moved occurrence) and one-off events, task items
 * pending, placed, done, missed and skipped (some due before a day or a one-off event, some not before a day), and a
 * habit. For windows of one and two weeks and every split `a + b` of a roll the window allows (`roll_window` moves on
 * by at most the window's length; the clock makes a longer roll in such steps):
 *
 * - rolling by `a`, then by `b`, is rolling by `a + b` once: the same schedule, and the two rolls' answers name, all
 *   told, the same done reviews moved to history, the same reviews become missed and the same events gone;
 * - nothing is lost silently: every task item is still there (in the new window, or on record with where it was), and
 *   every event the roll took is one that lay wholly in the days gone, named in the answer (`left`).
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { addDays } from "../../contracts/clock.js";
import type { RollWindowData } from "../../tools/schedule/tools/roll-window.js";
import { expandSeries } from "../../tools/schedule/event-series.js";
import type { EventSeries, EventTask, ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import { parseScheduleState } from "../../tools/schedule/validation.js";
import { runTool } from "./support.js";
import { scheduleOf } from "./series-arbitraries.js";

const ZONE = "Europe/Berlin";
const AT = "2026-01-01T12:00:00+01:00";

/** A series event in hour band `band` (its own hours, so no two events overlap), with its exceptions. */
interface DrawnSeries {
  byDay: number[];
  interval: number;
  /** Days before the window's first date the series starts. */
  startsBefore: number;
  /** Offsets (days from the window's first date) of cancelled dates. */
  cancelled: number[];
  /** An occurrence moved to the next day, same hours (offset from the window's first date), if any. */
  moved?: number;
}

/** A one-off event: its day of the window. */
type DrawnOneOff = { day: number; hours: 1 | 2 };

/** A task item and what becomes of it before the roll. */
interface DrawnTask {
  fate: "pending" | "placed" | "done" | "missed" | "skipped";
  day: number;
  hour: number;
  due?: { day: number } | { oneOff: number };
  earliestDay?: number;
}

interface DrawnWeek {
  firstDate: string;
  days: 7 | 14;
  series: DrawnSeries[];
  oneOffs: DrawnOneOff[];
  tasks: DrawnTask[];
  habit?: { times: number; done: number };
}

const drawnWeek: fc.Arbitrary<DrawnWeek> = fc.record(
  {
    firstDate: fc.integer({ min: 0, max: 700 }).map((offset) => addDays("2025-09-01", offset)),
    days: fc.constantFrom<7 | 14>(7, 14),
    series: fc.array(
      fc.record(
        {
          byDay: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 3 }),
          interval: fc.integer({ min: 1, max: 2 }),
          startsBefore: fc.integer({ min: 0, max: 30 }),
          cancelled: fc.uniqueArray(fc.integer({ min: 0, max: 13 }), { maxLength: 3 }),
          moved: fc.integer({ min: 0, max: 12 }),
        },
        { requiredKeys: ["byDay", "interval", "startsBefore", "cancelled"] },
      ),
      { maxLength: 3 },
    ),
    oneOffs: fc.array(fc.record({ day: fc.integer({ min: 1, max: 14 }), hours: fc.constantFrom<1 | 2>(1, 2) }), {
      maxLength: 3,
    }),
    tasks: fc.array(
      fc.record(
        {
          fate: fc.constantFrom<DrawnTask["fate"]>("pending", "placed", "placed", "done", "missed", "skipped"),
          day: fc.integer({ min: 1, max: 14 }),
          hour: fc.integer({ min: 21, max: 22 }),
          due: fc.oneof(
            fc.record({ day: fc.integer({ min: 1, max: 15 }) }),
            fc.record({ oneOff: fc.integer({ min: 0, max: 2 }) }),
          ),
          earliestDay: fc.integer({ min: 1, max: 14 }),
        },
        { requiredKeys: ["fate", "day", "hour"] },
      ),
      { maxLength: 10 },
    ),
    habit: fc.record({ times: fc.integer({ min: 1, max: 4 }), done: fc.integer({ min: 0, max: 4 }) }),
  },
  { requiredKeys: ["firstDate", "days", "series", "oneOffs", "tasks"] },
);

/** The drawn week as a schedule: events on hourly slots (series at 8–13, one-offs at 13–19), task items at 21–24. */
function weekOf(drawn: DrawnWeek): ScheduleState {
  const base = scheduleOf(drawn.firstDate, drawn.days, ZONE);
  const date = (offset: number) => addDays(drawn.firstDate, offset);
  const events: EventTask[] = drawn.series.map((series, index) => {
    const hour = 8 + 2 * index;
    const clock = (at: number) => `${String(at).padStart(2, "0")}:00`;
    const firstDate = date(-series.startsBefore);
    const stored: EventSeries = {
      rule: { freq: "weekly", interval: series.interval, byDay: series.byDay },
      firstDate,
      start: clock(hour),
      end: clock(hour + 1),
      timeZone: ZONE,
      cancelled: [...new Set(series.cancelled.map(date))].filter((day) => day > firstDate).sort(),
      moved: [],
    };
    if (series.moved !== undefined && date(series.moved) > firstDate && !stored.cancelled.includes(date(series.moved)))
      stored.moved = [
        { from: date(series.moved), date: date(series.moved + 1), start: clock(hour), end: clock(hour + 1) },
      ];
    const slots = expandSeries(stored, base.window).slots;
    return {
      id: `series-${index}`,
      name: `Series ${index}`,
      source: "event",
      slots,
      canEmbed: false,
      locked: false,
      embeds: [],
      series: stored,
    };
  });
  const oneOffs: EventTask[] = drawn.oneOffs
    .filter((event) => event.day <= drawn.days)
    .map((event, index) => ({
      id: `once-${index}`,
      name: `One-off ${index}`,
      source: "event",
      slots: [{ day: event.day, start: 14 + 2 * index, end: 14 + 2 * index + event.hours - 1 }],
      canEmbed: false,
      locked: index === 0,
      embeds: [],
    }));
  const items: TaskItem[] = drawn.tasks.map((task, index) => {
    const item: TaskItem = {
      id: `task-${index}`,
      name: `Review ${index}`,
      source: "task_item",
      duration: 1,
      categoryId: "study",
      status: "pending",
    };
    if (task.due !== undefined)
      item.dueBefore =
        "day" in task.due
          ? { day: Math.min(task.due.day, drawn.days + 1) }
          : oneOffs[task.due.oneOff]
            ? { eventId: oneOffs[task.due.oneOff]!.id }
            : { day: drawn.days + 1 };
    if (task.earliestDay !== undefined) item.earliestDay = Math.min(task.earliestDay, drawn.days);
    return item;
  });
  let state = parseScheduleState({
    ...base,
    categories: [{ id: "study", name: "Study" }],
    tasks: [...events, ...oneOffs, ...items],
  });
  // Each task item's life goes through the tools, as the user's cards would take it: a place the rules refuse
  // (a deadline, a taken hour) leaves it pending.
  drawn.tasks.forEach((task, index) => {
    const id = `task-${index}`;
    if (task.fate === "pending") return;
    if (task.fate !== "skipped")
      state = attempt(state, "place", { task_id: id, day: Math.min(task.day, drawn.days), slot_start: task.hour + 1 });
    if (task.fate === "done") state = attempt(state, "mark_done", { task_id: id, at: AT });
    if (task.fate === "missed") state = attempt(state, "mark_missed", { task_id: id, at: AT });
    if (task.fate === "skipped") state = attempt(state, "skip", { task_id: id, at: AT });
  });
  if (drawn.habit) {
    state = attempt(state, "add_habit", { name: "Vocabulary", times_per_week: drawn.habit.times, duration: 1 });
    const sessions = state.tasks.filter((task) => task.source === "task_item" && task.group?.kind === "habit");
    sessions.slice(0, drawn.habit.done).forEach((session, index) => {
      state = attempt(state, "place", { task_id: session.id, day: 1 + index, slot_start: 24 });
      if (index % 2 === 0) state = attempt(state, "mark_done", { task_id: session.id, at: AT });
    });
  }
  return state;
}

/** The state after a write, or `state` when the write is refused. */
function attempt(state: ScheduleState, name: string, args: Record<string, unknown>): ScheduleState {
  const result = runTool(name, state, args);
  return result.ok && result.state ? result.state : state;
}

/** `roll_window` by `days`: the schedule after it and what its answer names. */
function roll(state: ScheduleState, days: number): { state: ScheduleState; data: RollWindowData } {
  const result = runTool("roll_window", state, { days });
  if (!result.ok || !result.state) throw new Error(`roll_window ${days} failed: ${result.content}`);
  return { state: result.state, data: result.data as RollWindowData };
}

const sorted = (values: Iterable<string>) => [...values].sort();

/**
 * A schedule as the tools read it: `earliestDay: 1` (the window's first day, which a roll leaves on a task whose
 * earliest day has come) says what no `earliestDay` says, and a habit's new occurrence leaves it out.
 */
function asRead(state: ScheduleState): ScheduleState {
  return {
    ...state,
    tasks: state.tasks.map((task) => {
      if (task.source !== "task_item" || task.earliestDay !== 1) return task;
      const { earliestDay: _first, ...rest } = task;
      return rest;
    }),
  };
}

/** A roll split in two: the window, and `a + b` no longer than it. */
const splitRoll = drawnWeek.chain((drawn) =>
  fc.integer({ min: 1, max: drawn.days - 1 }).chain((first) =>
    fc.record({
      drawn: fc.constant(drawn),
      first: fc.constant(first),
      second: fc.integer({ min: 1, max: drawn.days - first }),
    }),
  ),
);

describe("roll(roll(s)) keeps what roll keeps", () => {
  test("rolling by a then b is rolling by a + b once, and both answers name the same", () => {
    fc.assert(
      fc.property(splitRoll, ({ drawn, first, second }) => {
        const state = weekOf(drawn);
        const once = roll(state, first + second);
        const a = roll(state, first);
        const b = roll(a.state, second);
        expect(asRead(b.state)).toEqual(asRead(once.state));
        expect(sorted([...a.data.history, ...b.data.history])).toEqual(sorted(once.data.history));
        expect(sorted([...a.data.missed, ...b.data.missed])).toEqual(sorted(once.data.missed));
        expect(sorted([...a.data.removed, ...b.data.removed])).toEqual(sorted(once.data.removed));
        expect(sorted(new Set([...a.data.left, ...b.data.left]))).toEqual(sorted(once.data.left));
      }),
      { numRuns: 150 },
    );
  });

  test("a roll loses nothing silently: every task item stays, every event that left lay in the old days and is named", () => {
    // What the drawn weeks held, so a generator that stopped making some of it fails here rather than passing idly.
    const seen = new Map<string, number>();
    const count = (what: string, yes: boolean) => yes && seen.set(what, (seen.get(what) ?? 0) + 1);
    fc.assert(
      fc.property(splitRoll, ({ drawn, first, second }) => {
        const state = weekOf(drawn);
        const days = first + second;
        const { state: after, data } = roll(state, days);
        const items = state.tasks.filter((task): task is TaskItem => task.source === "task_item");
        for (const status of ["pending", "placed", "done", "missed", "skipped"])
          count(
            status,
            items.some((task) => task.status === status && task.group === undefined),
          );
        count(
          "habit",
          items.some((task) => task.group?.kind === "habit"),
        );
        count("habit added", data.added.length > 0);
        count("moved to history", data.history.length > 0);
        count("became missed", data.missed.length > 0);
        count("one-off left", data.left.length > 0);
        count(
          "series with exceptions",
          state.tasks.some((task) => task.source === "event" && (task.series?.cancelled.length ?? 0) > 0),
        );
        const kept = new Map(after.tasks.map((task) => [task.id, task]));
        for (const task of state.tasks) {
          const now = kept.get(task.id);
          if (task.source === "task_item") {
            // Still there: in the new window, or on record with where it was.
            expect(now?.source).toBe("task_item");
            const item = now as TaskItem;
            const left = (task.slots ?? []).length > 0 && task.slots!.every((range) => range.day <= days);
            if (left) {
              expect(item.slots).toBeUndefined();
              expect(item.was).toBeDefined();
              expect(item.status).toBe(task.status === "done" ? "done" : "missed");
              expect(task.status === "done" ? data.history : data.missed).toContain(task.id);
            } else if (task.status !== "pending" || task.group?.kind !== "habit") {
              expect(item.status).toBe(task.status);
            }
            continue;
          }
          if (now !== undefined) continue;
          // An event gone: a one-off whose days all went, named in the answer.
          expect(task.series).toBeUndefined();
          expect(task.slots.every((range) => range.day <= days)).toBe(true);
          expect(data.removed).toContain(task.id);
          expect(data.left).toContain(task.name);
        }
        // A series is never lost: each shows its expansion into the new window.
        for (const task of after.tasks)
          if (task.source === "event" && task.series !== undefined)
            expect(task.slots).toEqual(expandSeries(task.series, after.window).slots);
      }),
      // A fixed seed: the counts below ask that each kind of week was drawn, which a random seed missed now and then
      // ("missed" drawn 5 times of 150).
      { seed: Number(process.env.FCSEED ?? 20261204), numRuns: Number(process.env.FCRUNS ?? 150) },
    );
    for (const what of [
      "pending",
      "placed",
      "done",
      "missed",
      "skipped",
      "habit",
      "habit added",
      "moved to history",
      "became missed",
      "one-off left",
      "series with exceptions",
    ])
      expect(seen.get(what) ?? 0, what).toBeGreaterThan(5);
  });
});
