/**
 * The served graph (`createServedGraph`, what `langgraph dev` runs) keeps the run gate of the connection plan in
 * front of its pool (issue 44.8): the LangGraph server starts several jobs at once, and without a gate a burst of
 * runs all asked the pool of 5 at once and ended at its connect timeout.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { readSettings } from "../../config/environment.js";
import { createServedGraph } from "../../server/create-tempo.js";
import type { TempoCompiledGraph } from "../../server/run-guard.js";
import type { RunGate } from "../../server/run-gate.js";
import { startEmbeddedTestPostgres } from "../support/postgres.js";
import { useServedGraph } from "../support/served-graph.js";

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

describe("on PGlite, one user's many runs at once", () => {
  // A short wait for a turn: before the gate was fair, the other user's run got SERVER_BUSY after it.
  const on = useServedGraph(startEmbeddedTestPostgres, { TEMPO_RUN_QUEUE_WAIT: "20" });
  const asUser = (user: string, thread: string) => ({
    configurable: { thread_id: thread, langgraph_auth_user_id: user },
  });
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  test("take at most half the gate's turns (TEMPO_MAX_RUNS_PER_USER unset): another user's run goes through at once", async () => {
    const graph = on.served.graph;
    const gate = (graph as unknown as TempoCompiledGraph).runGuard.runGate as RunGate;
    // Alice asks for five turns (standing in for runs of hers computing, for as long as the test says) and sends runs
    // on three more threads: two of hers hold a turn, the other six wait for hers.
    const held = await Promise.all([0, 1].map(() => gate.enter("alice")));
    const holding = [2, 3, 4].map(() => gate.enter("alice"));
    const ended: string[] = [];
    const alices = ["a1", "a2", "a3"].map((thread) =>
      graph
        .invoke({ messages: [new HumanMessage("hello")] }, asUser("alice", thread))
        .then((result) => (ended.push(thread), result)),
    );
    while (gate.active + gate.queued < 8) await settled();
    // Bob's run is admitted at once and ends while all of Alice's still hold or wait for her turns.
    const bob = await graph.invoke({ messages: [new HumanMessage("hello")] }, asUser("bob", "b1"));
    expect(bob.messages.map((entry: { getType(): string }) => entry.getType())).toEqual(["human", "ai"]);
    expect([ended, gate.queued, gate.activeOf("alice"), gate.maxRunsPerUser]).toEqual([[], 6, 2, 2]);
    // Alice's turns given back, her runs go on, two at a time, and end.
    for (const end of held) end();
    for (const turn of holding) (await turn)();
    const results = await Promise.all(alices);
    expect(results.map((result) => result.messages.map((entry: { getType(): string }) => entry.getType()))).toEqual([
      ["human", "ai"],
      ["human", "ai"],
      ["human", "ai"],
    ]);
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });
});
