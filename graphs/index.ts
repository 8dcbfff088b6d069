/**
 * The compiled graph that `langgraph.json` serves to `langgraph dev` and
 * LangGraph Studio. The server brings its own checkpointer and store; the
 * models and the schedule repository come from the environment:
 * DATABASE_URL → the Postgres schedule repository, otherwise an in-memory
 * one that gives each user the sample week.
 */
import pg from "pg";
import { readSettings } from "../config/environment.js";
import { createStageModels } from "../models/create-models.js";
import { createScheduleDomain, InMemoryScheduleRepository, PostgresScheduleRepository } from "../tools/schedule/index.js";
import { ScheduleOfflinePolicy } from "../tools/schedule/offline-policy.js";
import { withSampleSchedule } from "../tools/schedule/sample-seeding.js";
import { endThreadOnClientEnd } from "./end-thread.js";
import { guardRuns } from "./run-guard.js";
import { createTempoBuilder } from "./tempo.js";

export { buildTempoGraph, createTempoBuilder, GRAPH_VERSION, type TempoGraph, type TempoGraphOptions } from "./tempo.js";
export * from "./state.js";
export * from "./routing.js";

const settings = readSettings();
const repository = settings.database.databaseUrl ? new PostgresScheduleRepository(servedPool(settings.database)) : new InMemoryScheduleRepository();
const domain = createScheduleDomain({ repository: settings.sampleData ? withSampleSchedule(repository) : repository });
const { models } = createStageModels(settings.models, () => new ScheduleOfflinePolicy());

/** The schedule pool of the served graph: Tempo's timeouts, and a lost idle connection dropped instead of crashing the server. */
function servedPool(database: typeof settings.database): pg.Pool {
  const pool = new pg.Pool({ connectionString: database.databaseUrl, max: 5, statement_timeout: database.statementTimeoutMs, lock_timeout: database.lockTimeoutMs });
  pool.on("error", () => undefined);
  return pool;
}

/** The Tempo graph for the LangGraph server and Studio. */
export const graph = guardRuns(endThreadOnClientEnd(createTempoBuilder({ models, domain, settings: settings.workflow }).compile(), domain), settings.workflow);
graph.name = "Tempo";
