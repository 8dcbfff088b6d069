/**
 * The thread lock of `createTempo` workers: one run per thread at a time
 * across every process on one Postgres. A run holds a session advisory lock
 * keyed by its thread id (`hashtextextended('tempo:thread:' || id, 0)`) on a
 * connection of its own for the whole run; the server drops the lock when
 * that connection dies, so a killed worker never leaves a thread held.
 *
 * On the embedded server advisory locks never block (every connection
 * shares one session), so there the lock is the in-process `LocalThreadLock`
 * that every graph of this process on that server shares: runs of one
 * process are held; processes that connect to another process's embedded
 * server by its URL are not (use a real Postgres server for several workers).
 */
import pg from "pg";

import { DatabaseUnreachableError } from "../errors/index.js";
import { asDatabaseError, typedDatabaseErrorOr } from "../database/driver-errors.js";
import { databaseGoneQuiet, LocalThreadLock, threadBusy, type ThreadLease, type ThreadLock } from "./thread-lock.js";
import type { Database } from "../database/pool.js";
import { redactUrl } from "../database/pool.js";

/** Options of {@link PostgresThreadLock}. */
export interface PostgresThreadLockOptions {
  /** How often a waiting run asks again for the advisory lock, in ms. Default 50. */
  pollMs?: number;
}

/** In-process queue, then a Postgres advisory lock held on a dedicated connection for the whole run. */
export class PostgresThreadLock implements ThreadLock {
  private readonly local = new LocalThreadLock();
  private readonly pollMs: number;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresThreadLockOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 50;
  }

  /** Whether the server is PGlite (found out on first use): its advisory locks never block. */
  private pglite: Promise<boolean> | undefined;

  async holds(threadId: string): Promise<boolean> {
    if (await this.isEmbedded().catch(() => false)) return embeddedLock(this.pool.options.connectionString ?? "").isHeld(threadId);
    if (this.local.isHeld(threadId)) return true;
    return this.isLocked(lockKey(threadId));
  }

  async carriesOn(threadId: string): Promise<boolean> {
    if (await this.isEmbedded().catch(() => false)) return embeddedLock(this.pool.options.connectionString ?? "").carriesOn(threadId);
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
    if (await this.isEmbedded().catch(() => false)) return embeddedLock(this.pool.options.connectionString ?? "").acquire(threadId, waitMs);
    const deadline = Date.now() + Math.max(0, waitMs);
    // Runs of this process queue in memory first, so they do not each take a connection to wait.
    const local = await this.local.acquire(threadId, waitMs);
    const client = new pg.Client(this.pool.options);
    // A lock connection that dies makes the server drop the lock; the run's own queries report the outage.
    client.on("error", () => undefined);
    try {
      await client.connect().catch((error: unknown) => {
        // A server out of connections (53300: every running run holds one here besides the pool's) is said as such.
        throw typedDatabaseErrorOr(error, () => {
          const where = this.pool.options.connectionString ? ` at ${redactUrl(this.pool.options.connectionString)}` : "";
          return new DatabaseUnreachableError(
            `Cannot open a connection to the database${where} to hold thread ${threadId}: ${error instanceof Error ? error.message : String(error)}. Nothing was written; try again once the database is back.`,
            { threadId },
            { cause: error },
          );
        });
      });
      let waited = local.waited;
      for (;;) {
        const result = await client.query<{ held: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1::text, 0)) AS held", [lockKey(threadId)]);
        if (result.rows[0]?.held === true) break;
        waited = true;
        const left = deadline - Date.now();
        if (left <= 0) throw threadBusy(threadId, waitMs);
        await new Promise((resolve) => setTimeout(resolve, Math.min(this.pollMs, left)));
      }
      let released: Promise<void> | undefined;
      // A run carrying a stopped run on also holds a second advisory lock on the same session, so any process sees it.
      const carryOnLock = (on: boolean) =>
        client.query(on ? "SELECT pg_advisory_lock(hashtextextended($1::text, 0))" : "SELECT pg_advisory_unlock(hashtextextended($1::text, 0))", [carryOnKey(threadId)]);
      let carrying = false;
      return {
        waited,
        carryingOn: async (on) => {
          if (on === carrying || released) return;
          carrying = on;
          await local.carryingOn(on);
          await carryOnLock(on).catch(() => undefined);
        },
        release: (failure?: unknown) => {
          released ??= (async () => {
            try {
              if (databaseGoneQuiet(failure)) {
                // The database did not answer the run: an unlock would wait out the query bound again (a frozen server
                // doubled the run's wait). The session is dropped instead; the server drops its lock with it.
                dropConnection(client);
                return;
              }
              // Ending the session releases the advisory lock too; unlocking first frees it without waiting for that.
              await client.query("SELECT pg_advisory_unlock(hashtextextended($1::text, 0))", [lockKey(threadId)]).catch(() => undefined);
              await client.end().catch(() => undefined);
            } finally {
              await local.release();
            }
          })();
          return released;
        },
      };
    } catch (error) {
      await client.end().catch(() => undefined);
      await local.release();
      // A frozen server (no answer within the query timeout) or one out of connections: typed, like a run's own calls.
      throw asDatabaseError(error);
    }
  }
}

/**
 * Whether any session on this database holds the advisory lock of a key: a session advisory lock on one bigint
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

/** Closes `client`'s socket at once, with no goodbye to a server that may not answer one. */
function dropConnection(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

function lockKey(threadId: string): string {
  return `tempo:thread:${threadId}`;
}

/** The key of the advisory lock a run holds while it carries a stopped run of `threadId` on. */
function carryOnKey(threadId: string): string {
  return `tempo:carry-on:${threadId}`;
}
