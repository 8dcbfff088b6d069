/**
 * Typed errors of the schedule domain. Tools never throw for a bad call (they
 * answer `ok: false`); these are raised by validation and persistence.
 */
import { TempoError } from "../../errors/index.js";

/** A stored or supplied schedule breaks the data model (bad shape, overlap, dangling embed relation). */
export class InvalidScheduleError extends TempoError {
  /** Every problem found, one line each. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const shown = problems.slice(0, 5).join("; ");
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : "";
    super("INVALID_INPUT", `The schedule is not valid: ${shown}${more}.`, { problems: [...problems] });
    this.name = "InvalidScheduleError";
    this.problems = problems;
  }
}

/**
 * A change could not be applied because the stored schedule no longer matches
 * what the change was computed from (another write got there first), or it
 * would create a conflict. Nothing was applied; reload and try again.
 */
export class ScheduleConflictError extends TempoError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("SCHEDULE_CONFLICT", `${message} Nothing was applied; reload the schedule and try again.`, details);
    this.name = "ScheduleConflictError";
  }
}
