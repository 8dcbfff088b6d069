/**
 * The connection plan under load (issue 44.8), on a real PostgreSQL 15 server with few connections: 30 conversations
 * at once over 2 worker processes (`createTempo` each, on one DATABASE_URL), max_connections 20. Each process's plan
 * — its pool, ONE thread-lock connection whatever the number of runs, its memory pool — fits the server, and the
 * runs beyond the pool wait their turn in the process instead of failing at the pool's connect timeout. Before the
 * plan every running run opened a lock connection of its own: "too many clients" and "timeout exceeded when trying to
 * connect" ended most conversations.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { realPostgresAvailable, startRealTestPostgres, type TestPostgres } from "../support/postgres.js";
import { runLoadProbe } from "./load-probe.js";

/** max_connections of the server: 2 × (pool 5 + 1 lock connection + memory pool 2) = 16, and room for the probe's setup. */
const MAX_CONNECTIONS = 20;

describe.runIf(realPostgresAvailable() || process.env.TEMPO_REQUIRE_REAL_POSTGRES === "1")(
  "load on PostgreSQL 15 with few connections",
  () => {
    let server: TestPostgres;
    beforeAll(async () => {
      server = await startRealTestPostgres({ maxConnections: MAX_CONNECTIONS });
    });
    afterAll(async () => {
      await server?.stop();
    });

    test("30 conversations at once over 2 workers at max_connections 20 all end with their writes approved: 0 errors", async () => {
      const result = await runLoadProbe({
        url: server.url,
        conversations: 30,
        workers: 2,
        // No lone conversation, no warm-up: this test counts errors, not times.
        loneRuns: 0,
        warmUp: false,
        environment: { TEMPO_DB_POOL_SIZE: "5", TEMPO_MEMORY_POOL_SIZE: "2" },
        timeoutMs: 800_000,
      });
      expect(result.conversations).toHaveLength(30);
      expect(
        result.conversations.filter((conversation) => conversation.error).map((conversation) => conversation.error),
      ).toEqual([]);
      expect(result.conversations.every((conversation) => conversation.cards === result.conversations[0]!.cards)).toBe(
        true,
      );
    });
  },
);
