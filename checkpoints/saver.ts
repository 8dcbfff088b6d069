/**
 * The LangGraph checkpointer: the official `PostgresSaver` on Tempo's pool,
 * set up once under a Postgres advisory lock so any number of processes can
 * start at the same time.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";

import { ConfigurationError, DatabaseUnreachableError } from "../errors/index.js";
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
export async function createCheckpointer(database: Database, options: CheckpointerOptions = {}): Promise<PostgresSaver> {
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
    if (error instanceof DatabaseUnreachableError) throw error;
    throw new DatabaseUnreachableError(
      `Could not set up the checkpoint tables in schema "${schema}" of ${redactUrl(database.url)}: ${messageOf(error)}. ` +
        "Check that the database user may create schemas and tables there.",
      { url: redactUrl(database.url), schema },
      { cause: error },
    );
  }
  return saver;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
