/**
 * Database bounds on a real PostgreSQL 15 (issue 25 point 6):
 *
 * - a frozen server (every server process SIGSTOPped) ends `getState` and a run within the client-side bounds
 *   (`queryTimeoutMs`, `connectTimeoutMs`) with a typed Tempo error, instead of waiting for ever; after SIGCONT the
 *   same pool serves again and the thread goes on (the write applies once); a run's thread lock let go after such a
 *   failure does not ask the frozen server again (an unlock would wait out the query bound a second time);
 * - a server out of connections (53300, here a role's CONNECTION LIMIT) is DatabaseResourcesError with a message
 *   that says what to do, at open and on a call; so is a server at its max_connections ("too many clients") when a
 *   run opens its thread lock's connection, or a checkpointer its set-up lock's;
 * - by code (no server needed): every Postgres class 53 code, 57P01 / 57P03, and node-postgres's query read
 *   timeout become typed Tempo errors.
 */
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";
import { describe, expect, test } from "vitest";
import { asDatabaseError } from "../../database/driver-errors.js";
import { openDatabase } from "../../database/pool.js";
import { DatabaseResourcesError, DatabaseTimeoutError, TempoError } from "../../errors/index.js";
import { createThreadLock, PostgresThreadLock } from "../../server/postgres-thread-lock.js";
import { appliedRows } from "../persistence/exactly-once.js";
import {
  accept,
  cardOf,
  seedStudent,
  startUntilFirstWrite,
  studentThread,
  userMessage,
  useTempoOnTarget,
} from "../persistence/tempo-on-database.js";
import { createTempoCheckpointer } from "../../checkpoints/index.js";
import { startRealTestPostgres } from "../support/postgres.js";
import { thrownBy } from "./support/thread-state.js";
import { writesOnCard } from "../support/card-writes.js";

const QUERY_TIMEOUT_MS = 1_000;
/** The max_connections of the server run out of connections on purpose. */
const MAX_CONNECTIONS = 12;
const CONNECT_TIMEOUT_MS = 1_000;
/**
 * What a call may take on a frozen server. Its bounds here are 1 s each (query, connect), so a call that is bounded at
 * all ends within a few seconds, and one that is not hangs until the database answers: the line sits far from both,
 * so a loaded 2-core machine (where 4 s tripped on a bounded call) cannot fail it and an unbounded call still does.
 */
const FROZEN_BOUND_MS = 20_000;

/** The server's postmaster and every process it started (backends, checkpointer, walwriter …). */
async function serverProcesses(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const dataDir = (await client.query<{ data_directory: string }>("SHOW data_directory")).rows[0]!.data_directory;
  await client.end();
  const postmaster = Number(readFileSync(`${dataDir}/postmaster.pid`, "utf8").split("\n")[0]);
  const children = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // "pid (comm) state ppid …": the parent is the second field after the command's closing parenthesis.
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

function signal(pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // a backend that ended meanwhile
    }
  }
}

async function timed(promise: Promise<unknown>): Promise<{ failure: unknown; ms: number }> {
  const started = Date.now();
  const failure = await thrownBy(promise);
  return { failure, ms: Date.now() - started };
}

/** Try-lock calls sent by the clients of pools made by `lockPool`, by pool. */
const tryLocksSent = new WeakMap<pg.Pool, { sent: number }>();

/**
 * A pool with a 1 s client-side query bound whose clients (the thread lock's connection among them) send each
 * try-lock with a server-side wait of `seconds` before it, and count the try-locks they send.
 */
function lockPool(url: string, seconds: number): pg.Pool {
  const count = { sent: 0 };
  const send = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  class SlowTryLockClient extends pg.Client {}
  (SlowTryLockClient.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: pg.Client,
    text: unknown,
    ...rest: unknown[]
  ) {
    if (typeof text === "string" && text.includes("pg_try_advisory_lock")) {
      count.sent += 1;
      text = text.replace("SELECT ", `SELECT pg_sleep(${seconds}) IS NULL AS slept, `);
    }
    return send.call(this, text, ...rest);
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    query_timeout: QUERY_TIMEOUT_MS,
    Client: SlowTryLockClient,
  });
  pool.on("error", () => undefined);
  tryLocksSent.set(pool, count);
  return pool;
}

function sentTryLocks(pool: pg.Pool): number {
  return tryLocksSent.get(pool)!.sent;
}

describe("real postgres", () => {
  const env = useTempoOnTarget(
    { kind: "real", start: startRealTestPostgres },
    { holdThreads: true, databaseOptions: { queryTimeoutMs: QUERY_TIMEOUT_MS, connectTimeoutMs: CONNECT_TIMEOUT_MS } },
  );

  test("a frozen server (SIGSTOP): getState and a run fail within the bound, typed; after SIGCONT the thread goes on and the write applies once", async () => {
    const threadId = "frozen-server";
    await seedStudent(env.tempo, threadId);
    await startUntilFirstWrite(env.tempo, threadId);
    const config = studentThread(threadId);
    const waiting = await env.tempo.graph.getState(config);
    const callId = writesOnCard(waiting.values)[0]!.id;

    const processes = await serverProcesses(env.server.url);
    expect(processes.length).toBeGreaterThan(3);
    signal(processes, "SIGSTOP");
    let read: { failure: unknown; ms: number };
    let run: { failure: unknown; ms: number };
    try {
      read = await timed(env.tempo.graph.getState(config));
      run = await timed(env.tempo.graph.invoke(accept(), config));
    } finally {
      signal(processes, "SIGCONT");
    }
    for (const { failure, ms } of [read, run]) {
      expect(ms).toBeLessThan(FROZEN_BOUND_MS);
      expect(failure).toBeInstanceOf(TempoError);
      expect((failure as TempoError).code).toMatch(/^DATABASE_(TIMEOUT|UNREACHABLE)$/);
      // What the user can do: nothing was kept, go on once the database answers.
      expect((failure as Error).message).toMatch(/last checkpoint|Nothing was written/);
      expect((failure as Error).message).toMatch(/once the database (answers|is back)/);
    }
    // A pooled connection that had no answer: the client-side query timeout, said as such.
    expect(read.failure).toMatchObject({
      code: "DATABASE_TIMEOUT",
      message: expect.stringContaining("TEMPO_DB_QUERY_TIMEOUT"),
    });

    // Back: the same pool serves (connections that timed out were dropped), the thread is where it was.
    const after = await env.tempo.graph.getState(config);
    expect(after.config.configurable?.checkpoint_id).toBe(waiting.config.configurable?.checkpoint_id);
    expect(await appliedRows(env.tempo, threadId, callId)).toBe(0);
    expect(cardOf(await env.tempo.graph.invoke(accept(), config))).toBe("place");
    expect(await appliedRows(env.tempo, threadId, callId)).toBe(1);
  });

  test("a thread lock let go after the database stopped answering (SIGSTOP) does not ask it again; the server drops the lock with the session", async () => {
    // The lock's own calls wait up to this long: asked again on the frozen server, the release would outlast the test.
    const database = await openDatabase({ databaseUrl: env.server.url, poolSize: 1, queryTimeoutMs: 600_000 });
    try {
      const lease = await createThreadLock(database).acquire("frozen-lock", 0);
      const processes = await serverProcesses(env.server.url);
      signal(processes, "SIGSTOP");
      try {
        // The run ended because the database did not answer: its thread is let go while the server is still frozen.
        await lease.release(new DatabaseTimeoutError("The database did not answer within the query timeout."));
      } finally {
        signal(processes, "SIGCONT");
      }
      // Back: the session is gone, and its advisory lock with it; another process takes the thread.
      const next = await new PostgresThreadLock(env.tempo.database.pool).acquire("frozen-lock", 10_000);
      await next.release();
    } finally {
      await database.close();
    }
  });

  test("a burst of runs asking for their threads at once: each lock call's bound starts when it is sent, not queued", async () => {
    // Each try-lock takes the server 150 ms here; 20 asked at once on the one lock connection queue for 3 s in all,
    // three times the 1 s bound, while each is answered well within it.
    const pool = lockPool(env.server.url, 0.15);
    const lock = new PostgresThreadLock(pool);
    try {
      const leases = await Promise.all(
        Array.from({ length: 20 }, (_, index) => lock.acquire(`burst-${index}`, 60_000)),
      );
      expect(leases).toHaveLength(20);
      await Promise.all(leases.map((lease) => lease.release()));
    } finally {
      await lock.close();
      await pool.end();
    }
  });

  test("a frozen server (SIGSTOP): lock calls queued behind the one without an answer fail with it, unsent", async () => {
    const pool = lockPool(env.server.url, 0);
    const lock = new PostgresThreadLock(pool);
    try {
      await (await lock.acquire("frozen-burst-first", 0)).release();
      const sentBefore = sentTryLocks(pool);
      const processes = await serverProcesses(env.server.url);
      signal(processes, "SIGSTOP");
      let failures: unknown[];
      try {
        failures = await Promise.all(
          Array.from({ length: 5 }, (_, index) => thrownBy(lock.acquire(`frozen-burst-${index}`, 60_000))),
        );
      } finally {
        signal(processes, "SIGCONT");
      }
      expect(failures.map((failure) => (failure as TempoError).code)).toEqual(Array(5).fill("DATABASE_TIMEOUT"));
      // One call went to the frozen server; the four behind it were not sent to wait out the bound each in turn.
      expect(sentTryLocks(pool) - sentBefore).toBe(1);
    } finally {
      await lock.close();
      await pool.end();
    }
  });

  test("a long legitimate statement within the bound still runs", async () => {
    const result = await env.tempo.database.pool.query<{ ok: number }>("SELECT 1 AS ok FROM pg_sleep($1)", [
      (QUERY_TIMEOUT_MS * 0.5) / 1000,
    ]);
    expect(result.rows[0]?.ok).toBe(1);
  });

  test("too many connections (53300): DatabaseResourcesError that says what to do, at open and on a call", async () => {
    const admin = new pg.Client({ connectionString: env.server.url });
    await admin.connect();
    await admin.query("CREATE ROLE limited LOGIN CONNECTION LIMIT 2");
    await admin.query("CREATE DATABASE limited_db OWNER limited");
    await admin.end();
    const url = new URL(env.server.url);
    url.username = "limited";
    url.pathname = "/limited_db";

    const database = await openDatabase({
      databaseUrl: url.toString(),
      poolSize: 4,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
    });
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    try {
      // Both of the role's connections are taken (the pool's one, the holder): a second open is refused by the server.
      const refused = await thrownBy(openDatabase({ databaseUrl: url.toString(), queryTimeoutMs: QUERY_TIMEOUT_MS }));
      expect(refused).toBeInstanceOf(DatabaseResourcesError);
      expect(refused).toMatchObject({ code: "DATABASE_RESOURCES", details: { code: "53300" } });
      expect((refused as Error).message).toMatch(/too many connections.*max_connections/);

      // A call that needs a second pooled connection meets the same refusal, typed by the driver-error map.
      const calls = await Promise.allSettled([
        database.pool.query("SELECT pg_sleep(0.3)"),
        database.pool.query("SELECT 1"),
      ]);
      const failed = calls.find((call) => call.status === "rejected") as PromiseRejectedResult | undefined;
      expect(failed?.reason).toMatchObject({ code: "53300" });
      expect(asDatabaseError(failed?.reason)).toMatchObject({
        name: "DatabaseResourcesError",
        message: expect.stringContaining("close other clients of this server"),
      });
    } finally {
      await holder.end();
      await database.close();
    }
  });
});

describe('a server at its max_connections (53300, "sorry, too many clients already")', () => {
  const env = useTempoOnTarget(
    { kind: "real", start: () => startRealTestPostgres({ maxConnections: MAX_CONNECTIONS }) },
    {
      holdThreads: true,
      poolSize: 2,
      databaseOptions: { queryTimeoutMs: QUERY_TIMEOUT_MS, connectTimeoutMs: CONNECT_TIMEOUT_MS },
    },
  );

  test("a run that needs a connection for its thread lock, and a checkpointer set-up, are DATABASE_RESOURCES, not DATABASE_UNREACHABLE", async () => {
    const threadId = "out-of-connections";
    await seedStudent(env.tempo, threadId);
    const config = studentThread(threadId);
    // Every connection the server has left is taken by other clients (the pool keeps its own, idle).
    const holders: pg.Client[] = [];
    let refusal: unknown;
    while (refusal === undefined && holders.length < MAX_CONNECTIONS) {
      const holder = new pg.Client({ connectionString: env.server.url });
      holder.on("error", () => undefined);
      refusal = await holder.connect().then(
        () => void holders.push(holder),
        (error: unknown) => error,
      );
    }
    try {
      expect(refusal).toMatchObject({ code: "53300", message: expect.stringMatching(/too many clients/) });
      // The run holds its thread on a connection of its own: the server has none to give.
      const run = await thrownBy(env.tempo.graph.invoke(userMessage("Help me arrange next week's review"), config));
      expect(run).toBeInstanceOf(DatabaseResourcesError);
      expect(run).toMatchObject({ code: "DATABASE_RESOURCES", details: { code: "53300" } });
      expect((run as Error).message).toMatch(
        /no connection left \(too many connections, max_connections reached\).*raise the server's max_connections/,
      );
      // Table set-up takes its advisory lock on a connection of its own too.
      const setup = await thrownBy(createTempoCheckpointer(env.tempo.database, { schema: "tempo_setup_refused" }));
      expect(setup).toMatchObject({ code: "DATABASE_RESOURCES", details: { code: "53300" } });
    } finally {
      for (const holder of holders) await holder.end();
    }
    // With the connections back, the same thread runs: nothing of the refused run was written.
    expect(cardOf(await env.tempo.graph.invoke(userMessage("Help me arrange next week's review"), config))).toBe(
      "confirm_plan",
    );
  });
});

describe("database driver errors are typed", () => {
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

  test.each([
    [
      "53300",
      "sorry, too many clients already",
      "DATABASE_RESOURCES",
      /no connection left \(too many connections, max_connections reached\).*raise the server's max_connections/,
    ],
    [
      "53100",
      "could not extend file: No space left on device",
      "DATABASE_RESOURCES",
      /no disk space left \(disk full\).*free disk space/,
    ],
    ["53200", "out of memory", "DATABASE_RESOURCES", /ran out of memory/],
    ["53400", "configuration limit exceeded", "DATABASE_RESOURCES", /reached a configured limit/],
    [
      "53000",
      "insufficient resources",
      "DATABASE_RESOURCES",
      /lacks a resource \(Postgres error 53000: insufficient resources\)/,
    ],
    [
      "57P01",
      "terminating connection due to administrator command",
      "DATABASE_UNREACHABLE",
      /shutting down or an administrator ended the session.*resume it once the database is back/,
    ],
    ["57P03", "the database system is starting up", "DATABASE_UNREACHABLE", /starting up or in recovery/],
  ])("pg %s → %s", (code, message, expected, says) => {
    const typed = asDatabaseError(pgError(code, message));
    expect(typed).toBeInstanceOf(TempoError);
    expect(typed).toMatchObject({ code: expected, details: { code } });
    expect((typed as Error).message).toMatch(says);
    expect((typed as Error).message).toContain("last checkpoint");
    expect((typed as Error).cause).toMatchObject({ code });
  });

  test("node-postgres's query read timeout → DATABASE_TIMEOUT naming TEMPO_DB_QUERY_TIMEOUT; a dropped connection → DATABASE_UNREACHABLE; other errors unchanged", () => {
    expect(asDatabaseError(new Error("Query read timeout"))).toMatchObject({
      name: "DatabaseTimeoutError",
      code: "DATABASE_TIMEOUT",
      message: expect.stringContaining("TEMPO_DB_QUERY_TIMEOUT"),
    });
    expect(asDatabaseError(new Error("Client has encountered a connection error and is not queryable"))).toMatchObject({
      code: "DATABASE_UNREACHABLE",
    });
    const other = pgError("23505", "duplicate key");
    expect(asDatabaseError(other)).toBe(other);
  });
});
