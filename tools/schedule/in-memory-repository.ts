/**
 * A `ScheduleRepository` in process memory, for tests, demos and the offline
 * mode. Stores deep copies, so neither loaders nor seeders can change it
 * behind its back.
 */
import type { PersistOptions } from "../domain.js";
import { applyScheduleChanges, type ScheduleChange } from "./diff.js";
import { ScheduleConflictError } from "./errors.js";
import type { ApplyResult, ScheduleRepository, ScheduleRepositoryOptions } from "./repository.js";
import { emptyScheduleState, type ScheduleState } from "./state.js";
import { parseScheduleState } from "./validation.js";

/** Schedules kept in a Map, per user. */
export class InMemoryScheduleRepository implements ScheduleRepository {
  private readonly schedules = new Map<string, ScheduleState>();
  private readonly whenMissing: (userId: string) => ScheduleState;

  constructor(options: ScheduleRepositoryOptions = {}) {
    this.whenMissing = options.whenMissing ?? (() => emptyScheduleState());
  }

  /** The user's schedule, as a deep copy. */
  async load(userId: string): Promise<ScheduleState> {
    const stored = this.schedules.get(userId);
    return structuredClone(stored ?? this.whenMissing(userId));
  }

  /** Applies the changes, all or nothing (exactly-once is the runner's: tools/runner.ts). */
  async applyChanges(
    userId: string,
    changes: readonly ScheduleChange[],
    _options: PersistOptions,
  ): Promise<ApplyResult> {
    const stored = this.schedules.get(userId);
    if (stored === undefined && changes.length > 0) {
      throw new ScheduleConflictError(`No schedule is stored for user ${userId}, so changes cannot be applied.`, {
        userId,
      });
    }
    if (stored !== undefined) this.schedules.set(userId, structuredClone(applyScheduleChanges(stored, changes)));
    return { applied: true };
  }

  /** The time zone of the user's window (the default's for a user with none stored). */
  async timeZone(userId: string): Promise<string | undefined> {
    return (this.schedules.get(userId) ?? this.whenMissing(userId)).window.timeZone;
  }

  /** Validates and stores a copy of `state` as the user's schedule. */
  async seed(userId: string, state: ScheduleState): Promise<void> {
    this.schedules.set(userId, parseScheduleState(structuredClone(state)));
  }
}
