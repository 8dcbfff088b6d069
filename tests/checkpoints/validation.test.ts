/**
 * LangGraph's own conformance suite for checkpointers
 * (`@langchain/langgraph-checkpoint-validation`), run against every
 * checkpointer class of ours — the plain PostgresSaver that `createCheckpointer`
 * makes, and `TempoPostgresSaver` (step-snapshot metadata and resume claims) —
 * on every Postgres target here.
 *
 * The suite calls vitest's `describe` / `it` / `expect` / hooks as globals (its
 * CLI runs vitest with `globals: true`); this project's vitest config does not
 * enable globals, so they are installed on `globalThis` before `validate()`.
 */
import type { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { validate, type CheckpointSaverTestInitializer } from "@langchain/langgraph-checkpoint-validation";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test } from "vitest";

import { createCheckpointer, createTempoCheckpointer } from "../../checkpoints/index.js";
import { openDatabase, type Database } from "../../database/index.js";
import { postgresTargets, type PostgresTarget, type TestPostgres } from "../support/postgres.js";

Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test });

/** The checkpointer classes under test. */
const SAVERS = [
  { name: "PostgresSaver", create: createCheckpointer },
  { name: "TempoPostgresSaver", create: createTempoCheckpointer },
] as const;

/** Each checkpointer gets its own schema on one shared server, dropped when the checkpointer is destroyed. */
function initializer(
  target: PostgresTarget,
  saverClass: (typeof SAVERS)[number],
): CheckpointSaverTestInitializer<PostgresSaver> {
  let server: TestPostgres | undefined;
  let schemaCount = 0;
  const open = new Map<PostgresSaver, { database: Database; schema: string }>();

  return {
    checkpointerName: `${saverClass.name} (${target.kind})`,
    beforeAllTimeout: 600_000,
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
      const schema = `validation_${schemaCount}`;
      const database = await openDatabase({ databaseUrl: server.url, poolSize: 5 });
      const saver = await saverClass.create(database, { schema });
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
  for (const saverClass of SAVERS) validate(initializer(target, saverClass));
}
