/**
 * Tempo's one composition root. `createTempoDependencies` builds what the
 * graph needs besides a checkpointer and a store — the stage models (or the
 * offline policies of `offline/registry.ts`), the tool domains `TEMPO_DOMAINS` names (plug-ins from
 * `tools/registry.ts`; none is named here) on their repositories, the execution
 * log — from settings, on a Postgres pool when there is one. Two callers:
 *
 * - `createTempo` (the demo, the terminal chat, the benches, your own
 *   workers): opens the database (Postgres at DATABASE_URL, or the embedded
 *   one) and adds Tempo's checkpointer (the official PostgresSaver plus step
 *   snapshots and one resume per interrupt) and the memory store;
 * - `createServedGraph` (`server/served.ts`, for the LangGraph server, which
 *   brings its own checkpointer and store): with DATABASE_URL, the Postgres
 *   repository and execution log, so confirmed writes apply once there too.
 *
 * The graph itself is built by `buildTempoGraph` and knows none of this.
 */
import type pg from "pg";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  createTempoCheckpointer,
  PostgresExecutionLog,
  type ResumeGuard,
  type TempoPostgresSaver,
} from "../checkpoints/index.js";
import { openDatabase, redactUrl, type Database } from "../database/index.js";
import { createThreadLock } from "./postgres-thread-lock.js";
import { createMemoryStore } from "../memory/store.js";
import { DEFAULT_MEMORY_POOL_SIZE, DEFAULT_RUN_QUEUE_WAIT_MS, type TempoSettings } from "../config/environment.js";
import { DEFAULT_POOL_SIZE } from "../database/pool.js";
import { defaultMaxRunsPerUser, RunGate } from "./run-gate.js";
import { buildTempoGraph, type TempoGraph } from "./tempo-graph.js";
import { recoverThread, type Recovery } from "./carry-on.js";
import { createStageModels } from "../models/create-models.js";
import type { StageModels } from "../models/stage-models.js";
import { ConfigurationError } from "../errors/index.js";
import { combineDomains } from "../tools/combined-domain.js";
import type { ToolDomain } from "../tools/domain.js";
import type { BuiltDomain, DomainPlugin } from "../tools/plugin.js";
import { DOMAIN_PLUGINS, pluginsNamed } from "../tools/registry.js";
import type { OfflinePlugin } from "../offline/plugin.js";
import { OFFLINE_PLUGINS, offlinePoliciesFor } from "../offline/registry.js";
import { OfflineRouter } from "../offline/router.js";
import { WriteBatches } from "../review/write-batches.js";

/** What the graph needs besides its checkpointer and store. */
export interface TempoDependencies {
  models: StageModels;
  /** The domain the graph takes: the served domains combined (`tools/combined-domain.ts`), one as it is. */
  domain: ToolDomain;
  /** Each served domain as built, by plug-in name (its repository, to seed or read). */
  domains: ReadonlyMap<string, BuiltDomain>;
  /** The Postgres execution log, when built on a pool. */
  executionLog?: PostgresExecutionLog;
  /** The batches of approved writes applying now in this process, by thread (`review/apply.ts`). */
  writeBatches: WriteBatches;
  /** True when the offline policy drives the graph. */
  offline: boolean;
  /** Which model runs, for people. */
  modelDescription: string;
}

/** Options of {@link createTempoDependencies}. */
export interface TempoDependencyOptions {
  /** Postgres for the schedule repository and the execution log; without it, schedules live in memory and there is no log. */
  pool?: pg.Pool;
  /** Refuses a write of a run that lost the race to resume an interrupt (Tempo's checkpointer). */
  resumeGuard?: ResumeGuard;
  /** The plug-ins `settings.domains` picks from; default every registered one (`DOMAIN_PLUGINS`). */
  plugins?: readonly DomainPlugin[];
  /** The offline policies the served domains may have, by plug-in name; default every registered one (`OFFLINE_PLUGINS`). */
  offlinePlugins?: readonly OfflinePlugin[];
}

/** Builds the models, the served domains and (on a pool) the execution log, migrating their tables. */
export async function createTempoDependencies(
  settings: TempoSettings,
  options: TempoDependencyOptions = {},
): Promise<TempoDependencies> {
  const plugins = pluginsNamed(settings.domains, options.plugins ?? DOMAIN_PLUGINS);
  let executionLog: PostgresExecutionLog | undefined;
  if (options.pool) {
    // Same database as the domains' repositories: each write's log entry commits in the write's transaction.
    executionLog = new PostgresExecutionLog(options.pool, { resumeGuard: options.resumeGuard });
    await executionLog.migrate();
  }
  const domains = new Map<string, BuiltDomain>();
  for (const plugin of plugins)
    domains.set(plugin.name, await plugin.build({ pool: options.pool, sampleData: settings.sampleData }));
  const domain = combineDomains([...domains.values()].map((built) => built.domain));
  // Offline, each prompt is answered by the policy of the domain it is about (the first served one by default).
  const created = createStageModels(settings.models, () => {
    const policies = offlinePoliciesFor(
      plugins.map((plugin) => plugin.name),
      options.offlinePlugins ?? OFFLINE_PLUGINS,
    );
    if (policies.length === 0) {
      throw new ConfigurationError(
        `No served domain (${plugins.map((plugin) => plugin.name).join(", ")}) has an offline policy: set OPENAI_API_KEY or OPENAI_BASE_URL.`,
      );
    }
    return new OfflineRouter(policies);
  });
  return {
    models: created.models,
    domain,
    domains,
    executionLog,
    writeBatches: new WriteBatches(),
    offline: created.offline,
    modelDescription: created.description,
  };
}

/** The pool of the served graph's domains and execution log (the LangGraph server keeps checkpoints in its own). */
const SERVED_POOL_SIZE = 5;

/** The graph the LangGraph server runs, and what it holds open. */
export interface ServedGraph {
  graph: TempoGraph;
  dependencies: TempoDependencies;
  /** Closes the pool, if any. */
  close(): Promise<void>;
}

/**
 * Builds the graph for the LangGraph server: no checkpointer or store (the server attaches its own), the
 * dependencies of `settings` — with DATABASE_URL, on Postgres.
 */
export async function createServedGraph(settings: TempoSettings): Promise<ServedGraph> {
  const poolSize = settings.database.poolSize ?? SERVED_POOL_SIZE;
  const database = settings.database.databaseUrl
    ? await openDatabase({
        databaseUrl: settings.database.databaseUrl,
        poolSize,
        statementTimeoutMs: settings.database.statementTimeoutMs,
        lockTimeoutMs: settings.database.lockTimeoutMs,
        queryTimeoutMs: settings.database.queryTimeoutMs,
      })
    : undefined;
  try {
    const dependencies = await createTempoDependencies(settings, { pool: database?.pool });
    // A refused answer raises its card again: a failed run would leave the server's thread in `error`. A bad
    // configurable value is refused by the auth handler before the server stores it; one stored before is ignored.
    // The server runs several jobs at once; at most as many compute as the pool has connections, the rest wait their
    // turn (as in createTempo), so a burst never ends in the pool's connect timeout.
    const runGate = runGateOf(settings, poolSize);
    const graph = buildTempoGraph({
      ...dependencies,
      settings: settings.workflow,
      refusedAnswers: "ask_again",
      invalidConfigurable: "ignore",
      // A client's recursion_limit neither stops a task midway nor unbounds a looping run: the round budget's applies.
      callerRecursionLimit: "ignore",
      // A client's configurable.now moves the run's moment (its week rolls on by it): taken only when the server is
      // told to (TEMPO_CLIENT_CLOCK=on: tests, replays); otherwise one off the server's clock is ignored.
      clientClock: settings.clientClock ? "honour" : "server",
      runGate,
      // The tools keep to the system clock (`configurable.now` overrides it per run): nothing goes into the past.
      now: () => new Date(),
    });
    return { graph, dependencies, close: async () => database?.close() };
  } catch (error) {
    await database?.close();
    throw error;
  }
}

export interface Tempo {
  graph: TempoGraph;
  database: Database;
  /** PostgresSaver with step-snapshot metadata and one resume per interrupt. */
  checkpointer: TempoPostgresSaver;
  /** The execution log (`tempo_execution_log`): every tool call, and each confirmed write once. */
  executionLog: PostgresExecutionLog;
  /** Each served domain as built, by plug-in name. */
  domains: ReadonlyMap<string, BuiltDomain>;
  /** The repository of the served domain `name` (e.g. to seed or read a user's data); a name not served throws. */
  repositoryOf<TRepository>(name: string): TRepository;
  /** True when the offline policy drives the graph. */
  offline: boolean;
  /**
   * Reads a thread (`config`: its `thread_id` and `user_id`), first carrying on a run of it that stopped part-way (a
   * killed worker) to its next card or its answer — what to call when a thread is opened (server/carry-on.ts).
   */
  recover(config: RunnableConfig): Promise<Recovery>;
  /** Human-readable lines: where the state lives, which model runs. */
  describe(): string[];
  /** Closes the pool and stops the embedded server. */
  close(): Promise<void>;
}

/**
 * Opens the database and builds the graph for `settings`. The connection plan of the process
 * (docs/operations.md#connection-plan): the pool (`TEMPO_DB_POOL_SIZE`, 10), one thread-lock connection shared by
 * every run, the memory store's pool (`TEMPO_MEMORY_POOL_SIZE`, 8); at most as many runs compute at once as the pool
 * has connections (`TEMPO_MAX_RUNS`), at most half of them one user's (`TEMPO_MAX_RUNS_PER_USER`); the others wait
 * their turn, round-robin by user (`TEMPO_RUN_QUEUE_WAIT`, 600 s).
 */
export async function createTempo(settings: TempoSettings): Promise<Tempo> {
  const poolSize = settings.database.poolSize ?? DEFAULT_POOL_SIZE;
  const database = await openDatabase({
    databaseUrl: settings.database.databaseUrl,
    dataDir: settings.database.dataDir,
    poolSize,
    statementTimeoutMs: settings.database.statementTimeoutMs,
    lockTimeoutMs: settings.database.lockTimeoutMs,
    queryTimeoutMs: settings.database.queryTimeoutMs,
  });
  const closers: Array<() => Promise<void>> = [];
  try {
    const checkpointer = await createTempoCheckpointer(database, { schema: settings.database.schema });
    const store = await createMemoryStore(database, {
      poolSize: settings.database.memoryPoolSize ?? DEFAULT_MEMORY_POOL_SIZE,
    });
    closers.push(() => store.stop());
    const threadLock = createThreadLock(database);
    closers.push(async () => threadLock.close?.());
    const runGate = runGateOf(settings, poolSize);
    const dependencies = await createTempoDependencies(settings, { pool: database.pool, resumeGuard: checkpointer });
    const { models, domain, domains, offline } = dependencies;
    const executionLog = dependencies.executionLog!; // always built on a pool
    const graph = buildTempoGraph({
      models,
      domain,
      checkpointer,
      store,
      settings: settings.workflow,
      executionLog,
      writeBatches: dependencies.writeBatches,
      threadLock,
      runGate,
      // The tools keep to the system clock (`configurable.now` overrides it per run): nothing goes into the past.
      now: () => new Date(),
    });
    return {
      graph,
      database,
      checkpointer,
      executionLog,
      domains,
      repositoryOf: <TRepository>(name: string) => repositoryOf<TRepository>(domains, name),
      offline,
      recover: (config) => recoverThread(graph, config),
      describe: () => [
        `model: ${dependencies.modelDescription}`,
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

/** The repository of served domain `name`; a ConfigurationError naming the served ones when it is not served. */
export function repositoryOf<TRepository>(domains: ReadonlyMap<string, BuiltDomain>, name: string): TRepository {
  const built = domains.get(name);
  if (!built)
    throw new ConfigurationError(
      `The ${name} domain is not served (served: ${[...domains.keys()].join(", ")}); add it to TEMPO_DOMAINS.`,
    );
  return built.repository as TRepository;
}

/**
 * The process's run gate: as many runs at once as `TEMPO_MAX_RUNS` (the pool's size when unset), as many of one user's
 * as `TEMPO_MAX_RUNS_PER_USER` (half of those, at least 1, when unset) — one user's burst of runs on many threads
 * leaves turns for the others — the waiting runs admitted round-robin by user.
 */
export function runGateOf(settings: TempoSettings, poolSize: number): RunGate {
  const maxRuns = settings.runs?.maxConcurrentRuns ?? poolSize;
  return new RunGate(
    maxRuns,
    settings.runs?.queueWaitMs ?? DEFAULT_RUN_QUEUE_WAIT_MS,
    settings.runs?.maxRunsPerUser ?? defaultMaxRunsPerUser(maxRuns),
  );
}
