/**
 * `roll_window`: the window moves on by days that are over — the past days go, the events on them with them; the task
 * items on them stay on record (done ones as history, placed ones as missed), the rest shifts, new days come after.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure } from "../format.js";
import { formatDate, type ScheduleState } from "../state.js";
import { rollWindowBy, settleTasksOnRoll } from "../calendar.js";
import { daysBetween, localClock } from "../../../contracts/clock.js";
import { clockOfState } from "../window-clock.js";

const rollWindowArgumentsSchema = z.object({
  days: z.number().int().min(1).max(366).default(7).describe("Days to move on by (default 7: the next week)."),
  from_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe("Optional: the window's first date now, YYYY-MM-DD; the roll is refused if the window has moved."),
});

/** What a roll did, as data: the days, the events gone with the old days, the task items moved to history or missed. */
export interface RollWindowData {
  days: number;
  /** Ids of the events that left with the old days. */
  removed: string[];
  /** Their names, each once: what the answer tells the user is no longer on the schedule. */
  left: string[];
  /** Ids of the done task items whose place is now history. */
  history: string[];
  /** Ids of the placed task items whose time passed without being marked done: now missed. */
  missed: string[];
  /** Ids of the habits' occurrences made for the weeks the roll brought in. */
  added: string[];
}

/** roll_window's text: the new span, and every item the old days took, by what became of it. */
export function rolledText(data: RollWindowData, span: string): string {
  const list = (ids: readonly string[]) => (ids.length > 0 ? `: ${ids.join(", ")}` : "");
  return (
    `moved the window on by ${data.days} day(s): it now runs ${span}; ` +
    `${data.history.length} done task(s) moved to history${list(data.history)}; ` +
    `${data.missed.length} placed task(s) passed without being marked done and are now missed${list(data.missed)}; ` +
    `${data.removed.length} past event(s) left with the old days${list(data.removed)}` +
    (data.added.length > 0 ? `; ${data.added.length} habit session(s) added for the new days${list(data.added)}` : "")
  );
}

/** The days from the window's first that are over by the run's clock (past its end too), or undefined without one. */
function daysOver(state: ScheduleState): number | undefined {
  const clock = clockOfState(state);
  const first = state.window.days[0]?.date;
  if (clock === undefined || first === undefined) return undefined;
  if (clock.dayIndex <= state.window.totalDays) return Math.max(0, clock.dayIndex - 1);
  return daysBetween(first, localClock(new Date(state.now!), state.window.timeZone!).date);
}

/**
 * Why a roll by `days` would take a day that is not over by the run's clock, or undefined when every day it takes is
 * over (or the run has no clock). A roll settles the days it takes as the past — a placed review on them becomes
 * missed, "passed without being marked done" — so a day still to come, today included, is not the roll's to take: the
 * window moves on by itself once its last day has passed (`clock-roll.ts`), and only by days that are over.
 */
function dayNotOver(state: ScheduleState, days: number): string | undefined {
  const over = daysOver(state);
  if (over === undefined || days <= over) return undefined;
  const firstNotOver = state.window.days[over]?.date;
  const today = localClock(new Date(state.now!), state.window.timeZone!);
  return (
    `${firstNotOver === undefined ? `day ${over + 1}` : formatDate(firstNotOver)} has not passed yet ` +
    `(it is ${formatDate(today.date)}, ${today.time} now): the window moves on only by days that are over, ` +
    `${over} day(s) at most now; it moves on by itself once its last day has passed`
  );
}

/**
 * Moves the window on: the past days go, the events on them with them; the task items on them stay on record (done
 * ones as history, placed ones as missed), the rest shifts, new days come after. The answer names each.
 */
export const rollWindowTool: DomainTool<ScheduleState, z.infer<typeof rollWindowArgumentsSchema>> = {
  name: "roll_window",
  description:
    "Moves the window on by some days (default a week), only by days that are over by the clock (it moves on by itself once its last day has passed): the first days go with the events on them, everything else keeps its date, new empty days come at the end. Pending tasks stay pending; a done task on the old days stays on record as history, a placed one that was not marked done becomes missed.",
  schema: rollWindowArgumentsSchema,
  kind: "write",
  run(state, args) {
    // A roll made for a window that has moved meanwhile (another request rolled it first) is not made twice.
    const firstDate = state.window.days[0]?.date;
    if (args.from_date !== undefined && args.from_date !== firstDate)
      return failure(`the window starts on ${firstDate ?? "no date"}, not ${args.from_date}: it has moved already`);
    // Past the window's length only by days the clock has passed (a clock weeks past the window: one roll to it).
    if (args.days > state.window.totalDays && (daysOver(state) ?? 0) < args.days)
      return failure(
        `a window of ${state.window.totalDays} days moves on by 1 to ${state.window.totalDays} days, not ${args.days}`,
      );
    const notOver = dayNotOver(state, args.days);
    if (notOver !== undefined) return failure(notOver);
    const next = rollWindowBy(state, args.days);
    const settled = settleTasksOnRoll(state, args.days);
    const idsWith = (status: string) =>
      [...settled.values()].filter((task) => task.status === status).map((task) => task.id);
    const gone = state.tasks.filter((task) => !next.tasks.some((kept) => kept.id === task.id));
    const data: RollWindowData = {
      days: args.days,
      removed: gone.map((task) => task.id),
      left: [...new Set(gone.map((task) => task.name))],
      history: idsWith("done"),
      missed: idsWith("missed"),
      added: next.tasks.filter((task) => !state.tasks.some((old) => old.id === task.id)).map((task) => task.id),
    };
    const first = next.window.days[0];
    const last = next.window.days.at(-1);
    const span =
      first?.date && last?.date
        ? `${first.date} – ${last.date}`
        : `week ${first?.week ?? "?"} to week ${last?.week ?? "?"}`;
    return { ok: true, content: rolledText(data, span), state: next, data };
  },
};
