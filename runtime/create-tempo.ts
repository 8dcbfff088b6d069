/**
 * Assembles a running Tempo from settings: the database (Postgres at
 * DATABASE_URL, or the embedded one), Tempo's checkpointer (the official
 * PostgresSaver plus step snapshots and one resume per interrupt), the
 * execution log, the schedule domain on its Postgres repository, and the
 * stage models (or the offline policy). Used by the demo, the terminal chat and the benches; the
 * graph itself is built by `buildTempoGraph` and knows none of this.
 */
import { createTempoCheckpointer, openDatabase, PostgresExecutionLog, redactUrl, type Database, type TempoPostgresSaver } from "../checkpoints/index.js";
import { createMemoryStore } from "../checkpoints/store.js";
import { createThreadLock } from "../checkpoints/thread-lock.js";
import type { TempoSettings } from "../config/environment.js";
import { buildTempoGraph, type TempoGraph } from "../graphs/tempo.js";
import { createStageModels } from "../models/create-models.js";
import { createScheduleDomain, PostgresScheduleRepository } from "../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../tools/schedule/offline-policy.js";
import { withSampleSchedule } from "../tools/schedule/sample-seeding.js";
import type { ScheduleRepository } from "../tools/schedule/repository.js";

export interface Tempo {
  graph: TempoGraph;
  database: Database;
  /** PostgresSaver with step-snapshot metadata and one resume per interrupt. */
  checkpointer: TempoPostgresSaver;
  /** The execution log (`tempo_execution_log`): every tool call, and each confirmed write once. */
  executionLog: PostgresExecutionLog;
  repository: ScheduleRepository;
  /** True when the offline policy drives the graph. */
  offline: boolean;
  /** Human-readable lines: where the state lives, which model runs. */
  describe(): string[];
  /** Closes the pool and stops the embedded server. */
  close(): Promise<void>;
}

/** Opens the database and builds the graph for `settings`. */
export async function createTempo(settings: TempoSettings): Promise<Tempo> {
  const database = await openDatabase({
    databaseUrl: settings.database.databaseUrl,
    dataDir: settings.database.dataDir,
    statementTimeoutMs: settings.database.statementTimeoutMs,
    lockTimeoutMs: settings.database.lockTimeoutMs,
  });
  const closers: Array<() => Promise<void>> = [];
  try {
    const checkpointer = await createTempoCheckpointer(database, { schema: settings.database.schema });
    // Same database as the schedule repository: each write's log entry commits in the write's transaction.
    const executionLog = new PostgresExecutionLog(database.pool, { resumeGuard: checkpointer });
    await executionLog.migrate();
    const store = await createMemoryStore(database);
    closers.push(() => store.stop());
    const postgresRepository = new PostgresScheduleRepository(database.pool);
    await postgresRepository.migrate();
    const repository = settings.sampleData ? withSampleSchedule(postgresRepository) : postgresRepository;
    const domain = createScheduleDomain({ repository });
    const created = createStageModels(settings.models, () => new ScheduleOfflinePolicy());
    const graph = buildTempoGraph({ models: created.models, domain, checkpointer, store, settings: settings.workflow, executionLog, threadLock: createThreadLock(database) });
    return {
      graph,
      database,
      checkpointer,
      executionLog,
      repository,
      offline: created.offline,
      describe: () => [
        `model: ${created.description}`,
        `state: ${database.embedded ? `embedded Postgres (PGlite) in ${settings.database.dataDir ?? ".tempo/pgdata"}` : "Postgres"} at ${redactUrl(database.url)}`,
      ],
      close: async () => {
        for (const close of closers.reverse()) await close();
        await database.close();
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await database.close();
    throw error;
  }
}
