/**
 * The served graph (`createServedGraph`, what `langgraph dev` runs) keeps the run gate of the connection plan in
 * front of its pool (issue 44.8): the LangGraph server starts several jobs at once, and without a gate a burst of
 * runs all asked the pool of 5 at once and ended at its connect timeout.
 */
import { expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { createServedGraph } from "../../server/create-tempo.js";
import type { TempoCompiledGraph } from "../../server/run-guard.js";

test("the served graph holds runs at a gate: TEMPO_MAX_RUNS when set, its pool's size (5) when not", async () => {
  for (const [environment, maxRuns] of [
    [{}, 5],
    [{ TEMPO_MAX_RUNS: "2" }, 2],
    [{ TEMPO_DB_POOL_SIZE: "7" }, 7],
  ] as const) {
    const served = await createServedGraph(readSettings({ TEMPO_DOMAINS: "schedule", ...environment }));
    try {
      // The guarded graph is typed as the compiled graph it wraps; its guard is its own field.
      expect(
        (served.graph as unknown as TempoCompiledGraph).runGuard.runGate?.maxRuns,
        JSON.stringify(environment),
      ).toBe(maxRuns);
    } finally {
      await served.close();
    }
  }
});
