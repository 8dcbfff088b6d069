/**
 * A week a user fills in by hand (README: "Your own week"): a JSON file of the `ScheduleState` shape — the window
 * with its dates, time zone and slot clock times, the task classes with their study profiles, the timetable's events
 * and the tasks to arrange with their deadlines. `readWeekFile` reads and checks it; every problem is told at once,
 * by where it is, and nothing is stored from a file that has one.
 */
import { readFile } from "node:fs/promises";
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
