/** The schedule domain as a plug-in (`tools/plugin.ts`): its repository, and sample week (its offline policy: `offline/schedule/`). */
import type { DomainPlugin } from "../plugin.js";
import { createScheduleDomain } from "./domain.js";
import { InMemoryScheduleRepository } from "./in-memory-repository.js";
import { PostgresScheduleRepository } from "./postgres-repository.js";
import type { ScheduleRepository } from "./repository.js";
import { withEmptyWeek, withSampleSchedule } from "./sample-seeding.js";
import type { ScheduleState } from "./state.js";

export const schedulePlugin: DomainPlugin<ScheduleState, ScheduleRepository> = {
  name: "schedule",
  summary: "a student's study week: find free slots, place, move and swap review tasks",
  async build({ pool, sampleData }) {
    let base: ScheduleRepository;
    if (pool) {
      const postgres = new PostgresScheduleRepository(pool);
      await postgres.migrate();
      base = postgres;
    } else {
      base = new InMemoryScheduleRepository();
    }
    // Without the sample, a new user's week is empty but dated, so a calendar file can be imported onto it.
    const repository = sampleData ? withSampleSchedule(base) : withEmptyWeek(base);
    // The window's time zone is the default of the "now" the stages are told (until domain.ts says it itself).
    return { domain: createScheduleDomain({ repository }), repository };
  },
  demoRequest: "Help me arrange next week's review sessions.",
};
