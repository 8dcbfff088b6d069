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

/**
 * Wraps `repository` so that loading an empty schedule seeds the sample week first (`sample(now())`); `unseeded` says
 * which stored states are seeded over (by default, one with no tasks).
 */
export function withSampleSchedule(
  repository: ScheduleRepository,
  sample: (now: Date) => ScheduleState = sampleWeekFrom,
  now: () => Date = () => new Date(),
  unseeded: (state: ScheduleState) => boolean = (state) => state.tasks.length === 0,
): ScheduleRepository {
  return {
    async load(userId: string): Promise<ScheduleState> {
      const state = await repository.load(userId);
      if (!unseeded(state)) return state;
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

/**
 * An empty week for a user seeded at `now`, without the sample's timetable and reviews (`TEMPO_SAMPLE_DATA=false`):
 * dated as the sample is (the coming week, its slot times, the sample's zone), so a calendar file can be mapped onto
 * it — an undated week refuses every import, and nothing the agent can do dates it.
 */
export function emptyWeekFrom(now: Date): ScheduleState {
  return { ...sampleWeekFrom(now), categories: [], tasks: [] };
}

/** Wraps `repository` so that a user with nothing stored gets `emptyWeekFrom(now())`, stored at the first load. */
export function withEmptyWeek(repository: ScheduleRepository, now: () => Date = () => new Date()): ScheduleRepository {
  // Seeded once: an empty week with dates (stored) is the user's own from then on.
  return withSampleSchedule(
    repository,
    emptyWeekFrom,
    now,
    (state) => state.tasks.length === 0 && state.window.days.every((day) => day.date === undefined),
  );
}
