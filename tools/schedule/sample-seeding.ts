/**
 * Demo mode: a user whose schedule is empty gets the sample week the first
 * time it is loaded, so the agent has something to arrange out of the box: the coming week (`sampleWeekFrom`), dated
 * from the clock at that moment (injectable: `now`).
 */
import type { PersistOptions } from "../domain.js";
import type { ScheduleChange } from "./diff.js";
import type { ApplyResult, ScheduleRepository } from "./repository.js";
import { sampleWeekFrom } from "./sample-data.js";
import type { ScheduleState } from "./state.js";

/** Wraps `repository` so that loading an empty schedule seeds the sample week first (`sample(now())`). */
export function withSampleSchedule(
  repository: ScheduleRepository,
  sample: (now: Date) => ScheduleState = sampleWeekFrom,
  now: () => Date = () => new Date(),
): ScheduleRepository {
  return {
    async load(userId: string): Promise<ScheduleState> {
      const state = await repository.load(userId);
      if (state.tasks.length > 0) return state;
      await repository.seed(userId, sample(now()));
      return repository.load(userId);
    },
    applyChanges(userId: string, changes: readonly ScheduleChange[], options: PersistOptions): Promise<ApplyResult> {
      return repository.applyChanges(userId, changes, options);
    },
    seed(userId: string, state: ScheduleState): Promise<void> {
      return repository.seed(userId, state);
    },
    // A user with nothing stored is seeded (as loading does) and gets the sample's zone.
    async timeZone(userId: string): Promise<string | undefined> {
      return (await repository.timeZone(userId)) ?? (await this.load(userId)).window.timeZone;
    },
  };
}
