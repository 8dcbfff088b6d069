/**
 * Builds Tempo the way `createTempo` does — Tempo's checkpointer, the memory store (where confirm records approved
 * writes), the Postgres execution log, the schedule domain on its Postgres repository, the deterministic offline
 * policy — on a given database URL, for the persistence tests and
 * their child processes (which must all build the same graph on the same database).
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command, type Interrupt } from "@langchain/langgraph";
import type { RunnableConfig } from "@langchain/core/runnables";
import { createTempoCheckpointer, PostgresExecutionLog, TempoPostgresSaver } from "../../checkpoints/index.js";
import { openDatabase, type Database, type OpenDatabaseOptions } from "../../database/index.js";
import { createThreadLock } from "../../server/postgres-thread-lock.js";
import { createMemoryStore } from "../../memory/store.js";
import { buildTempoGraph, type TempoGraph } from "../../server/tempo-graph.js";
import type { ToolDomain } from "../../tools/domain.js";
import {
  createScheduleDomain,
  PostgresScheduleRepository,
  sampleWeek,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../../offline/schedule/policy.js";
import { afterAll, beforeAll } from "vitest";
import type { PostgresTarget, TestPostgres } from "../support/postgres.js";

/** The user a test thread schedules for (one per thread, so tests on one server never share a schedule). */
export function studentOf(threadId: string): string {
  return `student-${threadId}`;
}

/** The request that starts the offline policy's three-step plan. */
export const ARRANGE_REQUEST = "Help me arrange next week's review";

/**
 * The step snapshots of the arrange task run to its end, oldest first ("stepId:status"): place, refine (the
 * schedule's refinement step, on by default), verify.
 */
export const ARRANGE_STEP_TRANSITIONS = [
  "step-1:running",
  "step-1:done",
  "step-2:running",
  "step-2:done",
  "step-3:running",
  "step-3:done",
];

/** A Tempo built on a test database, and what the tests inspect. */
export interface TempoOnDatabase {
  graph: TempoGraph;
  database: Database;
  checkpointer: TempoPostgresSaver;
  executionLog: PostgresExecutionLog;
  repository: PostgresScheduleRepository;
  close(): Promise<void>;
}

/** Options of {@link openTempoOnDatabase}. */
export interface TempoOnDatabaseOptions {
  poolSize?: number;
  /** Wraps the schedule domain (the crash tests kill the process around `persist`). */
  wrapDomain?: (domain: ToolDomain<ScheduleState>) => ToolDomain<ScheduleState>;
  /** Wraps the execution log the graph writes to (e.g. to stop the process right after a write commits). */
  wrapExecutionLog?: (log: PostgresExecutionLog) => PostgresExecutionLog;
  /** Makes the checkpointer (the crash tests use a subclass that kills the process after a save). */
  makeCheckpointer?: (database: Database) => Promise<TempoPostgresSaver>;
  /**
   * Hold each thread for the whole run across processes, as `createTempo` does (`createThreadLock`). Off by default:
   * the resume-race tests exercise the one-resume-per-interrupt claim underneath it.
   */
  holdThreads?: boolean;
  /** Most writes on one card (default 1: these tests follow a write card, then the next one). */
  writesPerCard?: number;
  /**
   * The schedule's refinement step after arranging (default true, as served: it lists candidates after the
   * placements, and on the sample week finds nothing to change). The kill-point sweep turns it off: its subject is
   * the arrangement's writes, and the refinement's listing would multiply its save points.
   */
  refine?: boolean;
  /** Pool settings (timeouts) beyond the URL and the pool size. */
  databaseOptions?: Omit<OpenDatabaseOptions, "databaseUrl" | "poolSize">;
}

/** Opens a pool on `url` and builds the graph on it. */
export async function openTempoOnDatabase(url: string, options: TempoOnDatabaseOptions = {}): Promise<TempoOnDatabase> {
  const database = await openDatabase({
    ...options.databaseOptions,
    databaseUrl: url,
    poolSize: options.poolSize ?? 4,
  });
  try {
    const checkpointer = options.makeCheckpointer
      ? await options.makeCheckpointer(database)
      : await createTempoCheckpointer(database);
    const executionLog = new PostgresExecutionLog(database.pool, { resumeGuard: checkpointer });
    await executionLog.migrate();
    const repository = new PostgresScheduleRepository(database.pool);
    await repository.migrate();
    const domain = createScheduleDomain({ repository, refine: options.refine ?? true });
    const store = await createMemoryStore(database, { poolSize: 2 });
    const threadLock = options.holdThreads ? createThreadLock(database) : undefined;
    const graph = buildTempoGraph({
      models: { default: new ScheduleOfflinePolicy({ writesPerCard: options.writesPerCard ?? 1 }) },
      domain: options.wrapDomain ? options.wrapDomain(domain) : domain,
      checkpointer,
      store,
      executionLog: options.wrapExecutionLog ? options.wrapExecutionLog(executionLog) : executionLog,
      ...(threadLock ? { threadLock } : {}),
    });
    return {
      graph,
      database,
      checkpointer,
      executionLog,
      repository,
      // The thread lock's own connection too, as `createTempo` closes it: one left open made the test server's smart
      // stop wait out its 5 s before stopping fast.
      close: () =>
        store
          .stop()
          .finally(() => threadLock?.close?.())
          .finally(() => database.close()),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Seeds the sample week for the thread's student. */
export async function seedStudent(tempo: TempoOnDatabase, threadId: string): Promise<void> {
  await tempo.repository.seed(studentOf(threadId), sampleWeek());
}

/** Run config of a thread of the student, optionally at a given checkpoint. */
export function studentThread(threadId: string, checkpointId?: string): RunnableConfig {
  return {
    configurable: {
      thread_id: threadId,
      user_id: studentOf(threadId),
      ...(checkpointId ? { checkpoint_id: checkpointId } : {}),
    },
  };
}

/** An `accept` resume. */
export function accept(): Command<unknown, Record<string, never>, never> {
  return new Command({ resume: { type: "accept", args: null } });
}

/** The interrupts of an invoke result. */
export function interruptsOf(result: object): Interrupt[] {
  return (result as { __interrupt__?: Interrupt[] }).__interrupt__ ?? [];
}

/** The action of the first open interrupt card, or undefined. */
export function cardOf(result: object): string | undefined {
  const value = interruptsOf(result)[0]?.value as { action_request?: { action?: string } } | undefined;
  return value?.action_request?.action;
}

/** Starts the arrange request and accepts the plan: returns with the first write card open. */
export async function startUntilFirstWrite(tempo: TempoOnDatabase, threadId: string): Promise<object> {
  let result: object = await tempo.graph.invoke(
    { messages: [new HumanMessage(ARRANGE_REQUEST)] },
    studentThread(threadId),
  );
  for (let turn = 0; turn < 5 && cardOf(result) === "confirm_plan"; turn += 1)
    result = await tempo.graph.invoke(accept(), studentThread(threadId));
  if (cardOf(result) !== "place") throw new Error(`expected the first place card, got ${String(cardOf(result))}`);
  return result;
}

/**
 * Continues a thread the way a client does after a restart: answers an open card with accept, or, when the last run
 * stopped between steps (a crash), continues from the latest checkpoint. Then accepts every further card until the
 * task ends, or only until the next card with `untilNextCard`.
 */
export async function continueThread(
  tempo: TempoOnDatabase,
  threadId: string,
  options: { untilNextCard?: boolean } = {},
): Promise<object> {
  const config = studentThread(threadId);
  const snapshot = await tempo.graph.getState(config);
  const waiting = snapshot.tasks.some((task) => task.interrupts.length > 0);
  let result: object = await tempo.graph.invoke(waiting ? accept() : null, config);
  if (options.untilNextCard) return result;
  for (let turn = 0; turn < 40 && interruptsOf(result).length > 0; turn += 1)
    result = await tempo.graph.invoke(accept(), config);
  return result;
}

/** Message of an input for tests that need one. */
export function userMessage(text: string) {
  return { messages: [new HumanMessage(text)] };
}

/** A test server of `target` with Tempo on it, started before the suite's tests and stopped after them. */
export interface TempoOnTarget {
  readonly server: TestPostgres;
  readonly tempo: TempoOnDatabase;
}

/** Registers the beforeAll / afterAll that start and stop a server of `target` with Tempo on it. */
export function useTempoOnTarget(target: PostgresTarget, options: TempoOnDatabaseOptions = {}): TempoOnTarget {
  let server: TestPostgres | undefined;
  let tempo: TempoOnDatabase | undefined;
  beforeAll(async () => {
    server = await target.start();
    tempo = await openTempoOnDatabase(server.url, options);
  });
  afterAll(async () => {
    await tempo?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error("the test server has not started");
      return server;
    },
    get tempo() {
      if (!tempo) throw new Error("Tempo has not been opened on the test server");
      return tempo;
    },
  };
}
