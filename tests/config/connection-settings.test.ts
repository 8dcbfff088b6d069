/**
 * The connection plan's settings (issue 44.8): the pool, the memory pool and the run gate are read from the
 * environment, with defaults that fit two workers in PostgreSQL's default 100 connections; a bad value stops the
 * start with INVALID_CONFIGURATION naming the variable.
 */
import { describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { TempoError } from "../../errors/index.js";
import { runGateOf } from "../../server/create-tempo.js";

describe("connection plan settings", () => {
  test("defaults: the pool and the run gate left to createTempo (10 each), memory pool 8, 600 s of waiting for a turn", () => {
    const settings = readSettings({});
    expect(settings.database).toMatchObject({ poolSize: undefined, memoryPoolSize: 8 });
    expect(settings.runs).toEqual({ maxConcurrentRuns: undefined, queueWaitMs: 600_000 });
  });

  test("TEMPO_DB_POOL_SIZE, TEMPO_MEMORY_POOL_SIZE, TEMPO_MAX_RUNS and TEMPO_RUN_QUEUE_WAIT (seconds) are read", () => {
    const settings = readSettings({
      TEMPO_DB_POOL_SIZE: "4",
      TEMPO_MEMORY_POOL_SIZE: "2",
      TEMPO_MAX_RUNS: "3",
      TEMPO_RUN_QUEUE_WAIT: "2.5",
    });
    expect(settings.database).toMatchObject({ poolSize: 4, memoryPoolSize: 2 });
    expect(settings.runs).toEqual({ maxConcurrentRuns: 3, queueWaitMs: 2_500 });
  });

  test("TEMPO_MAX_RUNS_PER_USER is read; unset, one user gets half the gate's turns (at least 1); above TEMPO_MAX_RUNS, all of them", () => {
    const perUser = (environment: Record<string, string>, poolSize = 10) => {
      const gate = runGateOf(readSettings(environment), poolSize);
      return [gate.maxRuns, gate.maxRunsPerUser];
    };
    expect(readSettings({ TEMPO_MAX_RUNS_PER_USER: "3" }).runs?.maxRunsPerUser).toBe(3);
    expect(perUser({})).toEqual([10, 5]);
    expect(perUser({}, 5)).toEqual([5, 2]);
    expect(perUser({ TEMPO_MAX_RUNS: "1" })).toEqual([1, 1]);
    expect(perUser({ TEMPO_MAX_RUNS_PER_USER: "3" })).toEqual([10, 3]);
    expect(perUser({ TEMPO_MAX_RUNS: "4", TEMPO_MAX_RUNS_PER_USER: "9" })).toEqual([4, 4]);
  });

  test.each([
    ["TEMPO_DB_POOL_SIZE", "0"],
    ["TEMPO_DB_POOL_SIZE", "ten"],
    ["TEMPO_MEMORY_POOL_SIZE", "1"],
    ["TEMPO_MAX_RUNS", "2.5"],
    ["TEMPO_RUN_QUEUE_WAIT", "-1"],
    ["TEMPO_MAX_RUNS_PER_USER", "0"],
  ])("%s=%s is refused with INVALID_CONFIGURATION naming it", (name, value) => {
    let failure: unknown;
    try {
      readSettings({ [name]: value });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(TempoError);
    expect(failure).toMatchObject({ code: "INVALID_CONFIGURATION", message: expect.stringContaining(name) });
  });
});
