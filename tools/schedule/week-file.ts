/**
 * A week a user fills in by hand (README: "Your own week"): a JSON file of the `ScheduleState` shape — the window
 * with its dates, time zone and slot clock times, the task classes with their study profiles, the timetable's events
 * and the tasks to arrange with their deadlines. `readWeekFile` reads and checks it; every problem is told at once,
 * by where it is, and nothing is stored from a file that has one.
 */
import { readFile } from "node:fs/promises";
import { addDays, daysBetween, localClock } from "../../contracts/clock.js";
import { expandSeries } from "./event-series.js";
import { TempoError } from "../../errors/index.js";
import { InvalidScheduleError } from "./errors.js";
import type { ScheduleState } from "./state.js";
import { parseScheduleState } from "./validation.js";

/** A week file that cannot be used: missing, not JSON, or not a valid week. */
export class WeekFileError extends TempoError {
  constructor(path: string, problem: string) {
    super("INVALID_INPUT", `The week file ${path} cannot be used: ${problem}`, { path });
    this.name = "WeekFileError";
  }
}

/** The week in `path`, checked and in canonical form. */
export async function readWeekFile(path: string): Promise<ScheduleState> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new WeekFileError(
      path,
      (error as NodeJS.ErrnoException).code === "ENOENT"
        ? "there is no such file."
        : `it cannot be read (${(error as Error).message}).`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WeekFileError(path, `it is not JSON (${(error as Error).message}).`);
  }
  try {
    return parseScheduleState(value);
  } catch (error) {
    if (error instanceof InvalidScheduleError)
      throw new WeekFileError(path, `${error.problems.length} problem(s): ${error.problems.join("; ")}.`);
    throw error;
  }
}

/** A week file's days, moved by whole weeks to the present (`weekInTime`): where they were, and by how many weeks. */
export interface MovedWeek {
  /** The file's first and last dates, as written. */
  from: { first: string; last: string };
  /** The window's first and last dates now. */
  to: { first: string; last: string };
  weeks: number;
}

/**
 * `state` as a week of now: a week file is a week a person fills in by hand (examples/week.json is dated March 2024),
 * and a week whose days have all passed can hold nothing more once the clock is a rule. Such a window is moved by
 * whole weeks — every weekday stays the weekday it was, every event and placement stays on its day index — to the
 * first week whose last day is after `moment`'s date in the window's time zone (on a Sunday, the coming week). An
 * event of a series is expanded anew into the moved days (a series may have ended, or skip a holiday week); the
 * moved week is checked as a stored one is. A window without dates, or with a day still to come, is left as it is
 * (`moved` absent).
 */
export function weekInTime(state: ScheduleState, moment: Date): { state: ScheduleState; moved?: MovedWeek } {
  const { window } = state;
  const first = window.days[0]?.date;
  const last = window.days.at(-1)?.date;
  if (first === undefined || last === undefined) return { state };
  const today = localClock(moment, window.timeZone ?? "UTC").date;
  if (last > today) return { state };
  const weeks = Math.floor(daysBetween(last, today) / 7) + 1;
  const days = window.days.map((day) => ({ ...day, date: addDays(day.date!, weeks * 7) }));
  const movedWindow = { ...window, days };
  const tasks = state.tasks.map((task) =>
    task.source === "event" && task.series !== undefined
      ? { ...task, slots: expandSeries(task.series, movedWindow).slots }
      : task,
  );
  return {
    state: parseScheduleState({ ...state, window: movedWindow, tasks }),
    moved: { from: { first, last }, to: { first: days[0]!.date!, last: days.at(-1)!.date! }, weeks },
  };
}
