/**
 * The schedule domain (docs/design.md#schedule-domain): data model, the ten tools, diff
 * persistence, repositories and sample data.
 */
export {
  createScheduleDomain,
  SCHEDULE_DOMAIN_DESCRIPTION,
  SCHEDULE_DOMAIN_VERSION,
  SCHEDULE_PACKS,
  SCHEDULE_REFINEMENT,
  type ScheduleDomainOptions,
} from "./domain.js";
export {
  consecutiveDays,
  dayMappingSchema,
  dayOfWeekName,
  DEFAULT_SLOTS_PER_DAY,
  emptyScheduleState,
  eventTaskSchema,
  formatDate,
  scheduleStateSchema,
  scheduleTaskSchema,
  scheduleWindowSchema,
  slotRangeSchema,
  TASK_ID_PATTERN,
  taskCategorySchema,
  taskItemSchema,
  taskSlots,
  type DayMapping,
  type EventTask,
  type ScheduleState,
  type ScheduleTask,
  type ScheduleWindow,
  type SlotRange,
  type TaskCategory,
  type TaskItem,
} from "./state.js";
export { canonicalScheduleState, canonicalTask } from "./canonical-form.js";
export { checkScheduleInvariants, parseScheduleState } from "./validation.js";
export { InvalidScheduleError, ScheduleConflictError } from "./errors.js";
export {
  applyScheduleChanges,
  diffScheduleState,
  type MoveChange,
  type PlaceChange,
  type ScheduleChange,
  type TaskSource,
  type UnplaceChange,
} from "./diff.js";
export type { ApplyResult, ScheduleRepository, ScheduleRepositoryOptions } from "./repository.js";
export { InMemoryScheduleRepository } from "./in-memory-repository.js";
export { PostgresScheduleRepository } from "./postgres-repository.js";
export {
  migrateScheduleTables,
  SCHEDULE_FORMAT_VERSION,
  SCHEDULE_MIGRATION_LOCK_KEY,
  SCHEDULE_MIGRATION_STATEMENTS,
} from "./postgres-schema.js";
export {
  generateSchedule,
  SAMPLE_TIME_ZONE,
  SAMPLE_WEEK_MONDAY,
  sampleWeek,
  sampleWeekFrom,
  type GenerateScheduleOptions,
  type SampleWeekOptions,
} from "./sample-data.js";
export {
  calendarProblems,
  dateOfDay,
  datedWindow,
  dayName,
  dayOfDate,
  DEFAULT_SLOT_TIMES,
  placeName,
  rollWindow,
  rollWindowBy,
  slotClock,
  type DatedWindowOptions,
} from "./calendar.js";
export { DAY_LINE_LIMIT, HOST_LINE_LIMIT, RUN_LINE_LIMIT, TASK_LINE_LIMIT } from "./format.js";
export * from "./tools/index.js";
export {
  analyzeHealth,
  formatHealth,
  HEALTH_PENALTIES,
  HEAVY_DAY_SLOTS,
  type HealthIssue,
  type HealthPreferences,
  type HealthReport,
} from "./health.js";
export { proposeArrangement, type ArrangementOptions, type TaskLimits } from "./arrangement.js";
export { applyWrites } from "./candidate-writes.js";
export { formatListing, MIN_GAIN, type ScheduleCandidate, type ScheduleListing } from "./candidate-listing.js";
export { proposeCandidates } from "./candidates.js";
