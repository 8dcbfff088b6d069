/**
 * Checkpoints: the LangGraph checkpointer (plain, or Tempo's with step snapshots and one resume per interrupt),
 * the execution log, checkpoint retention. The pool and the embedded server are in `database/`; ExecutionState, a
 * projection of the graph state, is in `server/execution-state.ts`.
 */
export { DEFAULT_CHECKPOINT_SCHEMA, createCheckpointer, type CheckpointerOptions } from "./saver.js";
export type { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
export {
  AlreadyResumedError,
  PLAN_CHANNEL,
  RESUME_CLAIMS_TABLE,
  TempoPostgresSaver,
  createTempoCheckpointer,
  currentRunCheckpoint,
  type CheckpointRef,
  type TempoCheckpointerOptions,
  type TempoSaverOptions,
} from "./tempo-saver.js";
export {
  STEP_SNAPSHOT_METADATA_KEY,
  TRANSITION_STATUSES,
  asPlanSteps,
  stepSnapshotMarker,
  stepTransitions,
  type StepSnapshotMarker,
  type StepTransition,
} from "./step-transitions.js";
export {
  EXECUTION_LOG_TABLE,
  PostgresExecutionLog,
  executionLogMigration,
  migrateExecutionLog,
  readExecutionLog,
  type ExecutionLogRecord,
  type PostgresExecutionLogOptions,
  type ReadExecutionLogOptions,
  type ResumeGuard,
} from "./execution-log.js";
export { pruneCheckpoints, type PruneOptions, type PruneReport } from "./retention.js";
