/**
 * Postgres for all of Tempo: the connection pool (a given server, or the embedded PGlite one), advisory locks, the
 * schema-name check, and the Postgres thread lock. Checkpoints, the memory store and the tools' tables use these.
 */
export {
  DEFAULT_EMBEDDED_DATA_DIR,
  DEFAULT_EMBEDDED_MAX_CONNECTIONS,
  DEFAULT_EMBEDDED_START_TIMEOUT_MS,
  EMBEDDED_LOCK_FILE,
  LOCK_HEARTBEAT_MS,
  LOCK_STALE_MS,
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
} from "./pool.js";
export { withAdvisoryLock } from "./advisory-lock.js";
export { onceUntilFailure, runMigration } from "./migration.js";
export { inTransaction } from "./transaction.js";
export { asDatabaseError } from "./driver-errors.js";
export { SCHEMA_PATTERN } from "./schema-name.js";
