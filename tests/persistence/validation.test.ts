/**
 * LangGraph's checkpointer conformance suite (`@langchain/langgraph-checkpoint-validation`) against Tempo's
 * checkpointer (`TempoPostgresSaver`: PostgresSaver plus step-snapshot metadata and resume claims), on every target,
 * as tests/checkpoints/validation.test.ts runs it against the plain PostgresSaver.
 */
import { validate, type CheckpointSaverTestInitializer } from "@langchain/langgraph-checkpoint-validation";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test } from "vitest";

import { createTempoCheckpointer, openDatabase, type Database, type TempoPostgresSaver } from "../../checkpoints/index.js";
import { postgresTargets, type PostgresTarget, type TestPostgres } from "../support/postgres.js";

// The suite calls vitest's functions as globals; this project does not enable globals.
Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test });

/** Each checkpointer gets its own schema on one shared server, dropped when the checkpointer is destroyed. */
function initializer(target: PostgresTarget): CheckpointSaverTestInitializer<TempoPostgresSaver> {
  let server: TestPostgres | undefined;
  let schemaCount = 0;
  const open = new Map<TempoPostgresSaver, { database: Database; schema: string }>();

  return {
    checkpointerName: `TempoPostgresSaver (${target.kind})`,
    beforeAllTimeout: 120_000,
    async beforeAll() {
      server = await target.start();
    },
    async afterAll() {
      await Promise.allSettled([...open.values()].map(({ database }) => database.close()));
      await server?.stop();
    },
    async createCheckpointer() {
      if (!server) throw new Error("the test server did not start");
      schemaCount += 1;
      const schema = `tempo_validation_${schemaCount}`;
      const database = await openDatabase({ databaseUrl: server.url, poolSize: 5 });
      const saver = await createTempoCheckpointer(database, { schema });
      open.set(saver, { database, schema });
      return saver;
    },
    async destroyCheckpointer(saver) {
      const entry = open.get(saver);
      if (!entry) return;
      open.delete(saver);
      try {
        await entry.database.pool.query(`DROP SCHEMA IF EXISTS "${entry.schema}" CASCADE`);
      } finally {
        await entry.database.close();
      }
    },
  };
}

for (const target of postgresTargets()) {
  validate(initializer(target));
}
