/**
 * The thread lock of `createTempo` workers: one run per thread at a time
 * across every process on one Postgres. A run holds a session advisory lock
 * keyed by its thread id (`hashtextextended('tempo:thread:' || id, 0)`).
 *
 * The connection plan: every lock of a process is held through ONE lock
 * connection of that process, opened on first use outside the pool (so a
 * run's own queries never wait for it, and it never waits for them), shared
 * by every run of the process — a process needs its pool plus one connection,
 * however many runs it holds threads for. Session advisory locks live as long
 * as the session: a killed worker's connection dies and the server drops all
 * its locks, so a dead process never leaves a thread held. Runs of one
 * process queue in memory first (`LocalThreadLock`), so one key is taken
 * once per session and a waiting run costs no connection.
 *
 * If the lock connection itself is lost while the process lives (a network
 * cut, a server restart, a call with no answer within the query timeout),
 * the server has dropped its locks: the next use opens a new connection and
 * takes the held threads' locks again (best effort — another process may have
 * taken one meanwhile; the checkpointer's one-resume-per-interrupt claim still
 * holds underneath). The socket is unreferenced while no thread is held, so an
 * idle lock connection never keeps a process alive; `close()` ends it.
 *
 * On the embedded server advisory locks never block (every connection
 * shares one session), so there the lock is the in-process `LocalThreadLock`
 * that every graph of this process on that server shares: runs of one
 * process are held; processes that connect to another process's embedded
 * server by its URL are not (use a real Postgres server for several workers).
 */
import pg from "pg";

import { DatabaseUnreachableError } from "../errors/index.js";
import { asDatabaseError, QUERY_READ_TIMEOUT, typedDatabaseErrorOr } from "../database/driver-errors.js";
import { databaseGoneQuiet, LocalThreadLock, threadBusy, type ThreadLease, type ThreadLock } from "./thread-lock.js";
import type { Database } from "../database/pool.js";
import { redactUrl } from "../database/pool.js";

/** Options of {@link PostgresThreadLock}. */
export interface PostgresThreadLockOptions {
  /** How often a waiting run asks again for the advisory lock, in ms. Default 50. */
  pollMs?: number;
}

/** In-process queue, then a Postgres advisory lock held through the process's one shared lock connection. */
export class PostgresThreadLock implements ThreadLock {
  private readonly local = new LocalThreadLock();
  private readonly pollMs: number;
  /** Lock keys this process holds now (at most once each: the local lock queues a thread's runs). */
  private readonly held = new Set<string>();
  /** Acquires in progress: while any, or any key is held, the lock connection keeps the process alive. */
  private acquiring = 0;
  /** The open (or opening) lock connection; undefined before first use and after it was lost. */
  private connection: Promise<pg.Client> | undefined;
  private closed = false;
  /** The end of the calls asked for on the lock connection so far (`inLane`). */
  private lane: Promise<void> = Promise.resolve();
  /** The last call that got no answer: calls queued behind it fail with its error. */
  private quiet: { error: Error } | undefined;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresThreadLockOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 50;
  }

  /** Whether the server is PGlite (found out on first use): its advisory locks never block. */
  private pglite: Promise<boolean> | undefined;

  async holds(threadId: string): Promise<boolean> {
    if (await this.isEmbedded().catch(() => false))
      return embeddedLock(this.pool.options.connectionString ?? "").isHeld(threadId);
    if (this.local.isHeld(threadId)) return true;
    return this.isLocked(lockKey(threadId));
  }

  async carriesOn(threadId: string): Promise<boolean> {
    if (await this.isEmbedded().catch(() => false))
      return embeddedLock(this.pool.options.connectionString ?? "").carriesOn(threadId);
    if (await this.local.carriesOn(threadId)) return true;
    return this.isLocked(carryOnKey(threadId));
  }

  /** Whether any session on this database holds the advisory lock of `key`. */
  private async isLocked(key: string): Promise<boolean> {
    const result = await this.pool.query<{ held: boolean }>(HELD_QUERY, [key]);
    return result.rows[0]?.held === true;
  }

  private isEmbedded(): Promise<boolean> {
    this.pglite ??= this.pool.query<{ version: string }>("SELECT version() AS version").then(
      (result) => /PGlite/i.test(result.rows[0]?.version ?? ""),
      (error: unknown) => {
        this.pglite = undefined;
        throw error;
      },
    );
    return this.pglite;
  }

  async acquire(threadId: string, waitMs: number): Promise<ThreadLease> {
    if (await this.isEmbedded().catch(() => false))
      return embeddedLock(this.pool.options.connectionString ?? "").acquire(threadId, waitMs);
    const deadline = Date.now() + Math.max(0, waitMs);
    // Runs of this process queue in memory first, so they do not each ask the server while they wait.
    const local = await this.local.acquire(threadId, waitMs);
    const key = lockKey(threadId);
    this.acquiring += 1;
    this.keepAlive();
    try {
      let waited = local.waited;
      for (;;) {
        const result = await this.tryLock(threadId, key);
        if (result.rows[0]?.held === true) break;
        waited = true;
        const left = deadline - Date.now();
        if (left <= 0) throw threadBusy(threadId, waitMs);
        await new Promise((resolve) => setTimeout(resolve, Math.min(this.pollMs, left)));
      }
      this.held.add(key);
      let released: Promise<void> | undefined;
      // A run carrying a stopped run on also holds a second advisory key on the lock connection, so any process sees
      // it (`carriesOn`). The thread's own lock is held, so nobody else asks for that key: a try never waits.
      const carryOn = carryOnKey(threadId);
      let carrying = false;
      return {
        waited,
        carryingOn: async (on) => {
          if (on === carrying || released) return;
          carrying = on;
          await local.carryingOn(on);
          if (on) this.held.add(carryOn);
          else this.held.delete(carryOn);
          await (on ? this.tryLock(threadId, carryOn) : this.unlock(carryOn)).catch(() => undefined);
        },
        release: (failure?: unknown) => {
          released ??= (async () => {
            try {
              this.held.delete(key);
              this.held.delete(carryOn);
              if (databaseGoneQuiet(failure)) {
                // The database did not answer the run: an unlock would wait out the query bound again (a frozen server
                // doubled the run's wait). The lock connection is dropped instead — the server drops its locks with
                // it — and the next use opens a new one, taking the threads still held again.
                await this.dropConnection();
                return;
              }
              await this.unlock(key);
              if (carrying) await this.unlock(carryOn);
            } finally {
              this.keepAlive();
              await local.release();
            }
          })();
          return released;
        },
      };
    } catch (error) {
      await local.release();
      // A frozen server (no answer within the query timeout) or one out of connections: typed, like a run's own calls.
      throw asDatabaseError(error);
    } finally {
      this.acquiring -= 1;
      this.keepAlive();
    }
  }

  /**
   * Asks for `key` on the lock connection. A connection found dead (the server ended it, the network cut it) is
   * replaced once — the new one takes the held locks again first; a call with no answer is not repeated (its query
   * timeout is the bound callers are promised).
   */
  private tryLock(threadId: string, key: string): Promise<pg.QueryResult<{ held: boolean }>> {
    return this.inLane(() => this.tryLockNow(threadId, key));
  }

  /**
   * Runs `call` on the lock connection once the calls asked for before it have ended. node-postgres starts a call's
   * query timeout when the call is made, queue included: with every run of a busy process asking at once (a burst of
   * 100 conversations), calls queued behind the others on the one connection timed out while the server answered
   * each in milliseconds. In the lane a call's timeout starts when it is sent, so it bounds the server's answer only.
   * When a call gets no answer, the calls queued behind it fail with its error at once: the server went quiet, and
   * each would otherwise wait its own timeout in turn.
   */
  private inLane<T>(call: () => Promise<T>): Promise<T> {
    const quietSince = this.quiet;
    const turn = this.lane.then(() => {
      if (this.quiet !== quietSince) throw this.quiet!.error;
      return call();
    });
    this.lane = turn.then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof Error && QUERY_READ_TIMEOUT.test(error.message) && this.quiet === quietSince)
          this.quiet = { error };
      },
    );
    return turn;
  }

  private async tryLockNow(threadId: string, key: string): Promise<pg.QueryResult<{ held: boolean }>> {
    const connection = this.lockConnection(threadId);
    const client = await connection;
    try {
      return await client.query<{ held: boolean }>(TRY_LOCK, [key]);
    } catch (error) {
      if (error instanceof Error && QUERY_READ_TIMEOUT.test(error.message)) throw error;
      if (this.connection === connection) this.connection = undefined;
      await client.end().catch(() => undefined);
      return (await this.lockConnection(threadId)).query<{ held: boolean }>(TRY_LOCK, [key]);
    }
  }

  /** Ends the lock connection (the server drops every lock it held). Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = undefined;
    const client = await connection?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  /** Drops the lock connection without a word to the server (it did not answer); the next use opens a new one. */
  private async dropConnection(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    const client = await connection?.catch(() => undefined);
    (client as unknown as { connection?: { stream?: { destroy(): void } } } | undefined)?.connection?.stream?.destroy();
  }

  /** Unlocks `key` on the lock connection; a lost connection took the lock with it. */
  private async unlock(key: string): Promise<void> {
    await this.inLane(async () => {
      const client = await this.connection?.catch(() => undefined);
      await client?.query(UNLOCK, [key]);
    }).catch(() => undefined);
  }

  /**
   * The process's lock connection, opened on first use (and again after it was lost, taking the locks this process
   * still holds once more): a pg client outside the pool, with the pool's settings and client-side query bound.
   */
  private lockConnection(threadId: string): Promise<pg.Client> {
    if (this.closed)
      return Promise.reject(
        new DatabaseUnreachableError(`The thread lock of this process was closed; thread ${threadId} cannot be held.`, {
          threadId,
        }),
      );
    if (!this.connection) {
      // A lock connection that fails to open, or dies later, is forgotten, so the next use opens a new one.
      const forget = () => {
        if (this.connection === opening) this.connection = undefined;
      };
      const opening = this.openConnection(threadId, forget);
      opening.catch(forget);
      this.connection = opening;
    }
    return this.connection;
  }

  private async openConnection(threadId: string, lost: () => void): Promise<pg.Client> {
    const Client = (this.pool.options as { Client?: typeof pg.Client }).Client ?? pg.Client;
    const client = new Client(this.pool.options);
    // A lock connection that dies makes the server drop its locks (the run's own queries report any outage).
    client.on("error", lost);
    client.on("end", lost);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      // A server out of connections (53300) is said as such (DATABASE_RESOURCES), not as unreachable.
      throw typedDatabaseErrorOr(error, () => {
        const where = this.pool.options.connectionString ? ` at ${redactUrl(this.pool.options.connectionString)}` : "";
        return new DatabaseUnreachableError(
          `Cannot open the thread-lock connection to the database${where} to hold thread ${threadId}: ${error instanceof Error ? error.message : String(error)}. Nothing was written; try again once the database is back.`,
          { threadId },
          { cause: error },
        );
      });
    }
    // Locks held when an earlier connection was lost: taken again on this one, where nobody else took them meanwhile.
    for (const key of this.held) await client.query(TRY_LOCK, [key]).catch(() => undefined);
    this.socketOf(client)?.[this.acquiring > 0 || this.held.size > 0 ? "ref" : "unref"]();
    return client;
  }

  /** Refs the lock connection's socket while a thread is held or asked for, unrefs it when idle. */
  private keepAlive(): void {
    const busy = this.acquiring > 0 || this.held.size > 0;
    void this.connection?.then(
      (client) => this.socketOf(client)?.[busy ? "ref" : "unref"](),
      () => undefined,
    );
  }

  private socketOf(client: pg.Client): { ref(): void; unref(): void } | undefined {
    return (client as unknown as { connection?: { stream?: { ref?(): void; unref?(): void } } }).connection?.stream as
      { ref(): void; unref(): void } | undefined;
  }
}

const TRY_LOCK = "SELECT pg_try_advisory_lock(hashtextextended($1::text, 0)) AS held";
const UNLOCK = "SELECT pg_advisory_unlock(hashtextextended($1::text, 0))";

/**
 * Whether any session on this database holds the advisory lock of `threadId`: a session advisory lock on one bigint
 * key shows in `pg_locks` with the key's high half in `classid`, its low half in `objid`, and `objsubid` 1.
 */
const HELD_QUERY = `SELECT EXISTS (
  SELECT 1 FROM pg_locks
   WHERE locktype = 'advisory' AND objsubid = 1 AND granted
     AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1::text, 0)
) AS held`;

/** In-process locks of embedded databases, by URL: every graph of this process on one embedded server shares one. */
const embeddedLocks = new Map<string, LocalThreadLock>();

/** The thread lock for a database: advisory locks on a real server, the process's in-process lock on the embedded one. */
export function createThreadLock(database: Pick<Database, "pool" | "embedded" | "url">): ThreadLock {
  return database.embedded ? embeddedLock(database.url) : new PostgresThreadLock(database.pool);
}

/** This process's lock for the embedded server at `url`. */
function embeddedLock(url: string): LocalThreadLock {
  let lock = embeddedLocks.get(url);
  if (!lock) {
    lock = new LocalThreadLock();
    embeddedLocks.set(url, lock);
  }
  return lock;
}

function lockKey(threadId: string): string {
  return `tempo:thread:${threadId}`;
}

/** The key of the advisory lock a run holds while it carries a stopped run of `threadId` on. */
function carryOnKey(threadId: string): string {
  return `tempo:carry-on:${threadId}`;
}
