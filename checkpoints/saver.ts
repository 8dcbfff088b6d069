/**
 * The LangGraph checkpointer: the official `PostgresSaver` on Tempo's pool,
 * set up once under a Postgres advisory lock so any number of processes can
 * start at the same time.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";

import { ConfigurationError, DatabaseUnreachableError, type TempoError } from "../errors/index.js";
import { typedDatabaseErrorOr } from "../database/driver-errors.js";
import { redactUrl, SCHEMA_PATTERN, withAdvisoryLock, type Database } from "../database/index.js";

/** Options of {@link createCheckpointer}. */
export type CheckpointerOptions = {
  /** Postgres schema of the checkpoint tables (created if missing). Default "public". */
  schema?: string;
};

/** Schema of the checkpoint tables when none is given. */
export const DEFAULT_CHECKPOINT_SCHEMA = "public";

/**
 * Creates a `PostgresSaver` on `database.pool` and runs its idempotent `setup()` under an advisory lock.
 * Do not call the saver's `end()`: it ends the shared pool; close the `Database` instead.
 */
export async function createCheckpointer(
  database: Database,
  options: CheckpointerOptions = {},
): Promise<PostgresSaver> {
  const schema = options.schema ?? DEFAULT_CHECKPOINT_SCHEMA;
  if (!SCHEMA_PATTERN.test(schema)) {
    throw new ConfigurationError(
      `Invalid checkpoint schema name "${schema}": use letters, digits and underscores, starting with a letter or underscore (at most 63).`,
      { schema },
    );
  }
  const saver = new PostgresSaver(database.pool, undefined, { schema });
  try {
    await withAdvisoryLock(database.pool, `tempo:checkpoints:setup:${schema}`, () => saver.setup());
  } catch (error) {
    throw checkpointSetupFailed(error, database, schema);
  }
  return saver;
}

/**
 * What a failed set-up of the checkpoint tables in `schema` is: a database that answered "no room" (53300: too many
 * clients) or no answer in time, typed as such (DATABASE_RESOURCES, DATABASE_TIMEOUT); a connection that could not
 * be opened as it came; anything else (a user that may not create tables) as DATABASE_UNREACHABLE naming the schema.
 */
export function checkpointSetupFailed(error: unknown, database: Pick<Database, "url">, schema: string): TempoError {
  if (error instanceof DatabaseUnreachableError) return error;
  return typedDatabaseErrorOr(
    error,
    () =>
      new DatabaseUnreachableError(
        `Could not set up the checkpoint tables in schema "${schema}" of ${redactUrl(database.url)}: ${messageOf(error)}. ` +
          "Check that the database user may create schemas and tables there.",
        { url: redactUrl(database.url), schema },
        { cause: error },
      ),
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
