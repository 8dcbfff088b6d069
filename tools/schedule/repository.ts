/**
 * Where schedules live. The repository is the source of truth: the graph
 * loads a user's schedule for each tool call and persists a confirmed write as
 * a diff, in one transaction — the runner's, which also claims the write in the
 * execution log, so it applies once (tools/runner.ts); the repository keeps no
 * record of applied ids.
 */
import type { PersistOptions } from "../domain.js";
import type { ScheduleChange } from "./diff.js";
import type { ScheduleState } from "./state.js";

/** What `applyChanges` reports. */
export interface ApplyResult {
  /** True once the changes are applied (a repository applies every call it gets). */
  applied: boolean;
}

/** Storage of users' schedules. */
export interface ScheduleRepository {
  /** The user's current schedule (a fresh copy the caller may keep); a user with none stored gets the repository's default. */
  load(userId: string): Promise<ScheduleState>;
  /**
   * Applies `changes` atomically — through `options.client` when the caller holds the transaction — or throws
   * `ScheduleConflictError` (nothing applied) when a change no longer fits the stored schedule.
   */
  applyChanges(userId: string, changes: readonly ScheduleChange[], options: PersistOptions): Promise<ApplyResult>;
  /** Replaces the user's schedule with `state` (validated first; throws `InvalidScheduleError`), e.g. to load sample data. */
  seed(userId: string, state: ScheduleState): Promise<void>;
  /** The time zone of the user's window (undefined when it has none, or nothing is stored), without loading the schedule. */
  timeZone(userId: string): Promise<string | undefined>;
}

/** Options shared by the repositories. */
export interface ScheduleRepositoryOptions {
  /** The schedule `load` returns for a user with none stored (not stored by loading). Default: an empty 7-day, 12-slot week. */
  whenMissing?: (userId: string) => ScheduleState;
}
