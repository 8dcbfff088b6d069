/**
 * One run per thread at a time. Two runs that start from the same checkpoint
 * fork the thread (each saves its own child checkpoint, and one of them is
 * silently lost), so the run guard holds the thread for the whole run.
 *
 * `LocalThreadLock` serialises the runs of one process (and is the whole lock
 * on the embedded database, which only ever runs inside one process);
 * `PostgresThreadLock` (`server/postgres-thread-lock.ts`) adds a Postgres advisory
 * lock so workers in several processes on one database hold threads too.
 */
import { ThreadBusyError, TempoError } from "../errors/index.js";

/** A held thread. */
export interface ThreadLease {
  /** True when another run held the thread when this one asked, so it waited. */
  readonly waited: boolean;
  /**
   * Marks (true) or unmarks (false) the run as carrying on a run that stopped part-way (a killed worker), so that
   * readers of the thread see it `resuming` (`ThreadLock.carriesOn`); unmarked when the lease is released.
   */
  carryingOn(on: boolean): Promise<void>;
  /**
   * Gives the thread to the next run. Safe to call twice. `failure` is the error the run ended with, if any: after a
   * database that did not answer (`databaseGoneQuiet`), a lock held on it is let go without asking that database
   * again, so the run's error reaches its caller within the database bound, not one bound later.
   */
  release(failure?: unknown): Promise<void>;
}

/**
 * True for a run's error that says the database did not answer or is gone (DATABASE_TIMEOUT, DATABASE_UNREACHABLE):
 * another call to it would wait out the same bound.
 */
export function databaseGoneQuiet(failure: unknown): boolean {
  return (
    failure instanceof TempoError && (failure.code === "DATABASE_TIMEOUT" || failure.code === "DATABASE_UNREACHABLE")
  );
}

/** Holds threads for runs. */
export interface ThreadLock {
  /** Takes the thread, waiting at most `waitMs` for the run holding it; throws `ThreadBusyError` past that. */
  acquire(threadId: string, waitMs: number): Promise<ThreadLease>;
  /**
   * Optional: whether a run holds `threadId` now (in any process this lock spans). Tells a run in progress from a
   * run that stopped (a killed worker) when both leave the same checkpoint.
   */
  holds?(threadId: string): Promise<boolean>;
  /** Optional: whether the run holding `threadId` is carrying on a stopped run now (its lease marked `carryingOn`). */
  carriesOn?(threadId: string): Promise<boolean>;
  /** Optional: ends what the lock holds open (the Postgres lock's one connection); its owner calls it on close. */
  close?(): Promise<void>;
}

/** The error a run gets when the thread is still busy after `waitMs`. */
export function threadBusy(threadId: string, waitMs: number): ThreadBusyError {
  const waited = waitMs > 0 ? ` after waiting ${waitMs} ms` : "";
  return new ThreadBusyError(
    `Another run is still working on thread ${threadId}${waited}; nothing was written. Wait until it ends (read the thread's state), then send your message or answer again.`,
    { threadId, waitMs },
  );
}

/** In-process FIFO lock per thread id: the first caller holds the thread, later ones queue until `waitMs` passes. */
export class LocalThreadLock implements ThreadLock {
  private readonly waiters = new Map<string, Array<() => void>>();
  private readonly held = new Set<string>();
  /** The held threads whose run carries a stopped run on. */
  private readonly resuming = new Set<string>();

  async acquire(threadId: string, waitMs: number): Promise<ThreadLease> {
    if (!this.held.has(threadId)) {
      this.held.add(threadId);
      return this.lease(threadId, false);
    }
    if (waitMs <= 0) throw threadBusy(threadId, waitMs);
    const queue = this.waiters.get(threadId) ?? [];
    this.waiters.set(threadId, queue);
    await new Promise<void>((resolve, reject) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = queue.indexOf(handOver);
        if (index >= 0) queue.splice(index, 1);
        reject(threadBusy(threadId, waitMs));
      }, waitMs);
      queue.push(handOver);
    });
    // The releasing run handed the thread over without un-holding it.
    return this.lease(threadId, true);
  }

  /** True while a run holds `threadId` in this process. */
  isHeld(threadId: string): boolean {
    return this.held.has(threadId);
  }

  async holds(threadId: string): Promise<boolean> {
    return this.isHeld(threadId);
  }

  async carriesOn(threadId: string): Promise<boolean> {
    return this.resuming.has(threadId);
  }

  private lease(threadId: string, waited: boolean): ThreadLease {
    let released = false;
    return {
      waited,
      carryingOn: async (on) => {
        if (on && !released) this.resuming.add(threadId);
        else this.resuming.delete(threadId);
      },
      release: async () => {
        if (released) return;
        released = true;
        this.resuming.delete(threadId);
        const next = this.waiters.get(threadId)?.shift();
        if (next) {
          next();
          return;
        }
        this.waiters.delete(threadId);
        this.held.delete(threadId);
      },
    };
  }
}
