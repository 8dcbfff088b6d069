/**
 * Tempo built from its domain plug-ins on a given database URL, the way `createTempo` builds it (Tempo's checkpointer,
 * the memory store, the execution log, the thread lock, and `createTempoDependencies` with `TEMPO_DOMAINS`), offline:
 * for the crash tests of a domain other than the schedule, in the test process and in domains-child.ts.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { createTempoCheckpointer, type PostgresExecutionLog } from "../../checkpoints/index.js";
import { readSettings } from "../../config/environment.js";
import { openDatabase, type Database } from "../../database/index.js";
import { createMemoryStore } from "../../memory/store.js";
import { createTempoDependencies, repositoryOf } from "../../server/create-tempo.js";
import type { StageModels } from "../../models/stage-models.js";
import { createThreadLock } from "../../server/postgres-thread-lock.js";
import { buildTempoGraph, type TempoGraph } from "../../server/tempo-graph.js";
import type { ToolDomain } from "../../tools/domain.js";
import { accept, cardOf, interruptsOf, studentThread, userMessage } from "./tempo-on-database.js";

/** Tempo on a test database, serving `domains`. */
export interface DomainsOnDatabase {
  graph: TempoGraph;
  database: Database;
  executionLog: PostgresExecutionLog;
  /** The repository of a served domain. */
  repositoryOf<TRepository>(name: string): TRepository;
  close(): Promise<void>;
}

/** Options: the domains served, the wrappers the crash child kills the process with, and scripted models. */
export interface DomainsOnDatabaseOptions {
  domains: string;
  /** The stages' models (scripted), instead of the offline policy's. */
  models?: StageModels;
  wrapDomain?: (domain: ToolDomain) => ToolDomain;
  wrapExecutionLog?: (log: PostgresExecutionLog) => PostgresExecutionLog;
}

/** Opens a pool on `url` and builds the graph, its domains from their plug-ins. */
export async function openDomainsOnDatabase(
  url: string,
  options: DomainsOnDatabaseOptions,
): Promise<DomainsOnDatabase> {
  const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
  try {
    const checkpointer = await createTempoCheckpointer(database);
    const store = await createMemoryStore(database, { poolSize: 2 });
    // Offline (no model key in these settings), the domains' sample data on for a new user.
    const settings = readSettings({ TEMPO_DOMAINS: options.domains });
    const dependencies = await createTempoDependencies(settings, { pool: database.pool, resumeGuard: checkpointer });
    const executionLog = options.wrapExecutionLog
      ? options.wrapExecutionLog(dependencies.executionLog!)
      : dependencies.executionLog!;
    const graph = buildTempoGraph({
      models: options.models ?? dependencies.models,
      domain: options.wrapDomain ? options.wrapDomain(dependencies.domain) : dependencies.domain,
      checkpointer,
      store,
      settings: settings.workflow,
      executionLog,
      threadLock: createThreadLock(database),
    });
    return {
      graph,
      database,
      executionLog: dependencies.executionLog!,
      repositoryOf: (name) => repositoryOf(dependencies.domains, name),
      close: () => store.stop().finally(() => database.close()),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Sends `request` and accepts the plan card: returns with the first write card open (or the run's end). */
export async function requestUntilWriteCard(
  tempo: DomainsOnDatabase,
  threadId: string,
  request: string,
): Promise<object> {
  let result: object = await tempo.graph.invoke(userMessage(request), studentThread(threadId));
  for (let turn = 0; turn < 5 && cardOf(result) === "confirm_plan"; turn += 1)
    result = await tempo.graph.invoke(accept(), studentThread(threadId));
  return result;
}

/** Continues the thread as a client does after a restart (accept the open card, or continue), accepting every card to the end. */
export async function continueToEnd(tempo: DomainsOnDatabase, threadId: string): Promise<object> {
  const config: RunnableConfig = studentThread(threadId);
  const snapshot = await tempo.graph.getState(config);
  const waiting = snapshot.tasks.some((task) => task.interrupts.length > 0);
  let result: object = await tempo.graph.invoke(waiting ? accept() : null, config);
  for (let turn = 0; turn < 40 && interruptsOf(result).length > 0; turn += 1)
    result = await tempo.graph.invoke(accept(), config);
  return result;
}
