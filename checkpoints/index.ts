/** Postgres persistence foundation: embedded server, connection pool, LangGraph checkpointer. */
export {
  DEFAULT_EMBEDDED_DATA_DIR,
  DEFAULT_EMBEDDED_MAX_CONNECTIONS,
  EMBEDDED_LOCK_FILE,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
} from "./embedded-postgres.js";
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  openDatabase,
  redactUrl,
  type Database,
  type OpenDatabaseOptions,
} from "./database.js";
export { DEFAULT_CHECKPOINT_SCHEMA, createCheckpointer, withAdvisoryLock, type CheckpointerOptions } from "./saver.js";
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
} from "./execution-state.js";
