/**
 * Table set-up shared by everything that keeps tables of its own (the execution log, each domain's repository):
 * idempotent statements run under an advisory lock, so any number of processes may start at once, and run at most
 * once per process while they succeed.
 */
import type pg from "pg";
import { withAdvisoryLock } from "./advisory-lock.js";

/** Runs `statements` in order under the advisory lock `key`; each statement must be idempotent (`IF NOT EXISTS`). */
export async function runMigration(pool: pg.Pool, key: string, statements: readonly string[]): Promise<void> {
  await withAdvisoryLock(pool, key, async () => {
    for (const statement of statements) await pool.query(statement);
  });
}

/**
 * `run` made to run once: every call shares the first run's promise while it succeeds; a run that fails is
 * forgotten, so the next call tries again (a database that was down at start-up).
 */
export function onceUntilFailure(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= run().catch((error: unknown) => {
      running = undefined;
      throw error;
    });
    return running;
  };
}
