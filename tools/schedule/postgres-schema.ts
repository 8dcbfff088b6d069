/**
 * The Postgres tables of the schedule repository and their idempotent
 * migration, run under an advisory lock so that concurrent processes never
 * race on `CREATE TABLE`.
 *
 * - `tempo_schedule_windows`: one row per user — the window (its days with their dates, and in `calendar` its time
 *   zone, the clock times of its slots and the clock of its last roll) and the task classes with their profiles.
 * - `tempo_schedule_tasks`: one row per task, in list order (`ordinal`);
 *   placement columns (`slots`, `status`, `embedded_in`) are what changes write; a task item's deadline,
 *   priority, earliest day, when and where it was settled (`markedAt`, `was`) and the habit or long task it is part
 *   of (`group`, issue 47) are in `attributes`.
 *   Hosts' `embeds` are not stored: they are derived from `embedded_in` on load.
 *
 * - Format 2 (issue 47): an event may be the expansion of a series, stored in `tempo_schedule_tasks.series` (null for a
 *   one-off); `tempo_schedule_windows.format_version` says which format a row was written in. A schedule stored
 *   before is format 1: its events are one-offs and stay exactly as they were (nothing is rewritten or lost), and the
 *   migration marks it format 2. A row of a later format than this code knows is refused on load, never misread.
 * - Format 3 (issue 47): a task item may be part of a habit or a long task's sessions (`group` in `attributes`) and may
 *   be settled (`done`, `missed`, `skipped`, with `markedAt` and `was`). A Tempo of format 2 would read such a row and
 *   drop what it does not know — the tie of a habit's sessions, and with it the rule that keeps them on separate days —
 *   so it must refuse it; hence the bump. A row of format 2 has no group and needs no change: the migration marks it
 *   format 3.
 *
 * Which writes were applied is not the repository's to keep: the execution log claims each write in the transaction
 * that applies it (tools/runner.ts). A database made before that may still hold a `tempo_schedule_applied` table,
 * no longer written or read.
 */
import type pg from "pg";
import { runMigration } from "../../database/index.js";

/** Advisory lock key the migration runs under. */
export const SCHEDULE_MIGRATION_LOCK_KEY = "tempo_schedule_migrate";

/** The format schedules are stored in; a bump comes with the migration statements that carry older rows forward. */
export const SCHEDULE_FORMAT_VERSION = 3;

/** The migration, statement by statement; every statement is idempotent. */
export const SCHEDULE_MIGRATION_STATEMENTS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS tempo_schedule_windows (
    user_id text PRIMARY KEY,
    total_days integer NOT NULL CHECK (total_days >= 0),
    slots_per_day integer NOT NULL CHECK (slots_per_day >= 1),
    days jsonb NOT NULL,
    categories jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE IF NOT EXISTS tempo_schedule_tasks (
    user_id text NOT NULL REFERENCES tempo_schedule_windows (user_id) ON DELETE CASCADE,
    task_id text NOT NULL,
    ordinal integer NOT NULL,
    source text NOT NULL CHECK (source IN ('event', 'task_item')),
    name text NOT NULL,
    slots jsonb NOT NULL DEFAULT '[]'::jsonb,
    can_embed boolean,
    locked boolean,
    duration integer,
    category_id text,
    status text CHECK (status IN ('pending', 'placed')),
    embedded_in text,
    PRIMARY KEY (user_id, task_id)
  )`,
  `CREATE INDEX IF NOT EXISTS tempo_schedule_tasks_user_ordinal ON tempo_schedule_tasks (user_id, ordinal)`,
  // The calendar (time zone, clock times of the slots) and a task item's rules (deadline, priority, earliest day).
  `ALTER TABLE tempo_schedule_windows ADD COLUMN IF NOT EXISTS calendar jsonb NOT NULL DEFAULT '{}'::jsonb`,
  `ALTER TABLE tempo_schedule_tasks ADD COLUMN IF NOT EXISTS attributes jsonb NOT NULL DEFAULT '{}'::jsonb`,
  // Format 2 (issue 47): an event's series. Rows from before are format 1 (the column's default when it is added):
  // their one-off events need no change, so carrying them forward is marking them format 2.
  `ALTER TABLE tempo_schedule_tasks ADD COLUMN IF NOT EXISTS series jsonb`,
  `ALTER TABLE tempo_schedule_windows ADD COLUMN IF NOT EXISTS format_version integer NOT NULL DEFAULT 1`,
  `UPDATE tempo_schedule_windows SET format_version = 2 WHERE format_version < 2`,
  `ALTER TABLE tempo_schedule_windows ALTER COLUMN format_version SET DEFAULT 2`,
  // A task item's life (done, missed, skipped): the status check widened; when and where it was are in `attributes`.
  `ALTER TABLE tempo_schedule_tasks DROP CONSTRAINT IF EXISTS tempo_schedule_tasks_status_check`,
  `ALTER TABLE tempo_schedule_tasks ADD CONSTRAINT tempo_schedule_tasks_status_check
    CHECK (status IN ('pending', 'placed', 'done', 'missed', 'skipped'))`,
  // Format 3 (issue 47): a task item's group (habit, sessions) in `attributes`. Rows of format 2 have none, so carrying
  // them forward is marking them format 3; from now on an older Tempo refuses them rather than dropping the group.
  `UPDATE tempo_schedule_windows SET format_version = 3 WHERE format_version < 3`,
  `ALTER TABLE tempo_schedule_windows ALTER COLUMN format_version SET DEFAULT 3`,
];

/** Creates the schedule tables if they are missing; safe to run any number of times, from any number of processes. */
export async function migrateScheduleTables(pool: pg.Pool): Promise<void> {
  await runMigration(pool, SCHEDULE_MIGRATION_LOCK_KEY, SCHEDULE_MIGRATION_STATEMENTS);
}
