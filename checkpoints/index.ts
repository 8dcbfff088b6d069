/**
 * Checkpoints: the LangGraph checkpointer (plain, or Tempo's with step snapshots and one resume per interrupt),
 * ExecutionState, the execution log, checkpoint retention. The pool and the embedded server are in `database/`.
 */
export { DEFAULT_CHECKPOINT_SCHEMA, createCheckpointer, type CheckpointerOptions } from "./saver.js";
export type { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
export {
  STEP_SNAPSHOT_METADATA_KEY,
  readExecutionState,
  stepSnapshots,
  toExecutionState,
  type ExecutionState,
  type ExecutionStatus,
  type Observation,
  type StateReader,
  type StepSnapshot,
} from "../graphs/execution-state.js";
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
export { TRANSITION_STATUSES, asPlanSteps, stepSnapshotMarker, stepTransitions, type StepSnapshotMarker, type StepTransition } from "./step-transitions.js";
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
