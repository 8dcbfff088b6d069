/**
 * Habits (issue 47 item 5): a recurring task ("vocabulary 3× a week, 30 min, mornings") is stored as its occurrences,
 * task items tied together by a `TaskGroup` of kind `habit` (its id, how many a week, the week each belongs to). Each
 * week of the window gets its occurrences, each kept to its week (earliest day and deadline) and placed by the
 * placement search like any task; no two on one day (`rules.ts`). A roll carries an active habit on: the new week's
 * occurrences are made, and an occurrence whose week passed unplaced becomes missed, on record like any other.
 */
import { buildTaskItem } from "./canonical-form.js";
import type { ScheduleState, ScheduleWindow, TaskItem } from "./state.js";
import { clockIn, type WindowClock } from "./window-clock.js";

/** What a habit's occurrences are made from: its id, name, length, class and how many a week. */
export interface HabitTemplate {
  id: string;
  name: string;
  duration: number;
  categoryId: string;
  perWeek: number;
}

/** The weeks of a window, in order, each with its first and last day index. */
export function weeksOf(window: Pick<ScheduleWindow, "days">): Array<{ week: number; first: number; last: number }> {
  const weeks: Array<{ week: number; first: number; last: number }> = [];
  for (const day of window.days) {
    const current = weeks.at(-1);
    if (current?.week === day.week) current.last = day.dayIndex;
    else weeks.push({ week: day.week, first: day.dayIndex, last: day.dayIndex });
  }
  return weeks;
}

/**
 * The first day of `first`..`last` on which a session of `duration` slots can still start by `clock` (today counts
 * while a session still fits after the slots that have started), or undefined when the clock has passed them all.
 */
export function firstOpenDay(
  first: number,
  last: number,
  duration: number,
  slotsPerDay: number,
  clock: WindowClock | undefined,
): number | undefined {
  if (clock === undefined || clock.dayIndex < first) return first;
  const today = clock.slot + duration - 1 <= slotsPerDay ? clock.dayIndex : clock.dayIndex + 1;
  return today <= last ? Math.max(first, today) : undefined;
}

/**
 * The occurrences of `habit` for the weeks of `window` (only `only`, when given): `perWeek` of them in each week, as
 * many as the days still open in it hold when fewer (by `clock`: a half-over week gets what fits in what is left of
 * it, from today on, and a week the clock has passed gets none), pending, each kept to its week. The days still open
 * run to the week's Sunday, shown or not: a week the window's end cuts short is not a shorter week (its days come in
 * with the next roll, which makes no second set for it), so it gets all its occurrences. Ids: `<habit>-w<week>-<n>`.
 */
export function habitOccurrences(
  window: Pick<ScheduleWindow, "days" | "slotsPerDay">,
  habit: HabitTemplate,
  only?: ReadonlySet<number>,
  clock?: WindowClock,
): TaskItem[] {
  return weeksOf(window).flatMap(({ week, first, last }) => {
    if (only && !only.has(week)) return [];
    const open = firstOpenDay(first, last, habit.duration, window.slotsPerDay, clock);
    if (open === undefined) return [];
    const sunday = last + 7 - (window.days[last - 1]?.dayOfWeek ?? 7);
    const count = Math.min(habit.perWeek, sunday - open + 1);
    return Array.from({ length: count }, (_, index) =>
      buildTaskItem({
        id: `${habit.id}-w${week}-${index + 1}`,
        name: `${habit.name} (${index + 1} of ${count})`,
        source: "task_item",
        duration: habit.duration,
        categoryId: habit.categoryId,
        status: "pending",
        dueBefore: { day: last + 1 },
        ...(open > 1 ? { earliestDay: open } : {}),
        group: { id: habit.id, kind: "habit", perWeek: habit.perWeek, week },
      }),
    );
  });
}

/**
 * The habits a roll carries on, by id: those with an occurrence in a week the window showed (a habit whose shown
 * weeks' occurrences were all removed has ended), each as its latest occurrence gives it.
 */
export function activeHabits(state: Pick<ScheduleState, "window" | "tasks">): Map<string, HabitTemplate> {
  const shown = new Set(state.window.days.map((day) => day.week));
  const latest = new Map<string, TaskItem>();
  for (const task of state.tasks) {
    const group = task.source === "task_item" ? task.group : undefined;
    if (task.source !== "task_item" || group?.kind !== "habit" || group.week === undefined) continue;
    const known = latest.get(group.id)?.group?.week ?? 0;
    if (group.week >= known) latest.set(group.id, task);
  }
  const habits = new Map<string, HabitTemplate>();
  for (const [id, task] of latest) {
    if (!shown.has(task.group!.week!)) continue;
    habits.set(id, {
      id,
      name: task.name.replace(/ \(\d+ of \d+\)$/, ""),
      duration: task.duration,
      categoryId: task.categoryId,
      perWeek: task.group!.perWeek ?? 1,
    });
  }
  return habits;
}

/**
 * The rolled schedule's new occurrences: each active habit's, for the weeks the roll brought in that it has none in —
 * by the run's clock (`before.now`), only what still fits in what is left of a week the clock is already in. `carried`
 * stands in for `before`'s active habits in a step of a longer roll (`rollWindowBy`): a week the clock passed whole
 * gets none, and the habit still carries on to the week of now.
 */
export function rolledHabitOccurrences(
  before: Pick<ScheduleState, "window" | "tasks" | "now">,
  after: Pick<ScheduleState, "window" | "tasks">,
  carried?: ReadonlyMap<string, HabitTemplate>,
): TaskItem[] {
  const habits = carried ?? activeHabits(before);
  if (habits.size === 0) return [];
  const clock = before.now === undefined ? undefined : clockIn(after.window, new Date(before.now));
  const shownBefore = new Set(before.window.days.map((day) => day.week));
  const taken = new Set(after.tasks.map((task) => task.id));
  const has = new Set(
    after.tasks.flatMap((task) =>
      task.source === "task_item" && task.group?.kind === "habit" ? [`${task.group.id}|${task.group.week}`] : [],
    ),
  );
  return [...habits.values()].flatMap((habit) => {
    const weeks = new Set(
      after.window.days
        .map((day) => day.week)
        .filter((week) => !shownBefore.has(week) && !has.has(`${habit.id}|${week}`)),
    );
    return habitOccurrences(after.window, habit, weeks, clock).filter((task) => !taken.has(task.id));
  });
}
