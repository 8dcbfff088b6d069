/**
 * A `ScheduleRepository` on Postgres (its own tables, see postgres-schema.ts).
 * Every statement is parameterised. `applyChanges` runs in one transaction —
 * the runner's (`options.client`: the one that claims the write in the
 * execution log), or its own: lock the user's window row, replay the changes
 * on the stored schedule with `applyScheduleChanges` (which checks that they
 * still fit), write the changed task rows.
 */
import type pg from "pg";
import { inTransaction, onceUntilFailure } from "../../database/index.js";
import type { PersistOptions } from "../domain.js";
import { sortIds } from "./canonical-form.js";
import { applyScheduleChanges, type ScheduleChange } from "./diff.js";
import { InvalidScheduleError, ScheduleConflictError } from "./errors.js";
import { migrateScheduleTables, SCHEDULE_FORMAT_VERSION } from "./postgres-schema.js";
import type { ApplyResult, ScheduleRepository, ScheduleRepositoryOptions } from "./repository.js";
import {
  emptyScheduleState,
  type DayMapping,
  type EventSeries,
  type EventTask,
  type ScheduleState,
  type ScheduleTask,
  type ScheduleWindow,
  type SlotRange,
  type SlotTime,
  type TaskCategory,
  type TaskItem,
  type TaskStatus,
} from "./state.js";
import { parseScheduleState } from "./validation.js";

/** A row of `tempo_schedule_windows`. */
interface WindowRow {
  total_days: number;
  slots_per_day: number;
  days: DayMapping[];
  categories: TaskCategory[];
  calendar: { timeZone?: string; slotTimes?: SlotTime[]; rolledAt?: string };
  /** The format the row was written in (`SCHEDULE_FORMAT_VERSION`). */
  format_version: number;
}

/** A row of `tempo_schedule_tasks` (also the shape written through `jsonb_to_recordset`). */
interface TaskRow {
  task_id: string;
  ordinal: number;
  source: "event" | "task_item";
  name: string;
  slots: SlotRange[];
  can_embed: boolean | null;
  locked: boolean | null;
  duration: number | null;
  category_id: string | null;
  status: TaskStatus | null;
  embedded_in: string | null;
  attributes: Pick<TaskItem, "dueBefore" | "priority" | "earliestDay" | "markedAt" | "was" | "group">;
  /** An event's series (format 2); null for a one-off and a task item. */
  series: EventSeries | null;
}

/** Column list of task rows, in `TaskRow` order. */
/** The columns of a window row, as `WindowRow` holds them. */
const WINDOW_COLUMNS = "total_days, slots_per_day, days, categories, calendar, format_version";
const TASK_COLUMNS =
  "task_id, ordinal, source, name, slots, can_embed, locked, duration, category_id, status, embedded_in, attributes, series";
/** The record definition that reads task rows out of a JSON array parameter. */
const TASK_RECORD =
  "task_id text, ordinal integer, source text, name text, slots jsonb, can_embed boolean, locked boolean, duration integer, category_id text, status text, embedded_in text, attributes jsonb, series jsonb";

/** Schedules in Postgres, per user. */
export class PostgresScheduleRepository implements ScheduleRepository {
  private readonly pool: pg.Pool;
  private readonly whenMissing: (userId: string) => ScheduleState;

  constructor(pool: pg.Pool, options: ScheduleRepositoryOptions = {}) {
    this.pool = pool;
    this.whenMissing = options.whenMissing ?? (() => emptyScheduleState());
  }

  /** Creates the tables if needed (idempotent, under an advisory lock); the other methods call it once by themselves. */
  readonly migrate = onceUntilFailure(() => migrateScheduleTables(this.pool));

  /** The user's schedule, or the default when none is stored. */
  async load(userId: string): Promise<ScheduleState> {
    await this.migrate();
    return (await readSchedule(this.pool, userId)) ?? this.whenMissing(userId);
  }

  /** Applies the changes, all or nothing: in the caller's transaction (`options.client`), or in one of its own. */
  async applyChanges(
    userId: string,
    changes: readonly ScheduleChange[],
    options: PersistOptions,
  ): Promise<ApplyResult> {
    // Migrated at build; never from inside the caller's transaction (the migration's lock takes another connection).
    await this.migrate();
    const apply = async (client: Queryable): Promise<ApplyResult> => {
      // Lock the user's window row first: concurrent applies for one user run one after the other.
      const window = await readWindow(client, userId, true);
      if (changes.length === 0) return { applied: true };
      if (window === undefined) {
        throw new ScheduleConflictError(`No schedule is stored for user ${userId}, so changes cannot be applied.`, {
          userId,
        });
      }
      const storedRows = await readTaskRows(client, userId);
      const next = applyScheduleChanges(rowsToSchedule(window, storedRows, userId), changes);
      // A roll changes every row: the schedule is written whole, in this transaction.
      if (changes.some((change) => change.kind === "roll")) {
        await writeSchedule(client, userId, next);
        return { applied: true };
      }
      const removed = changes.flatMap((change) => (change.kind === "remove" ? [change.taskId] : []));
      const added = new Set(changes.flatMap((change) => (change.kind === "add" ? [change.taskId] : [])));
      const changedIds = new Set(
        changes.flatMap((change) =>
          change.kind === "class" || change.kind === "remove" || change.kind === "add" || change.kind === "roll"
            ? []
            : [change.taskId],
        ),
      );
      // A host whose guest is removed needs no write: hosts' embeds are derived on load.
      const ordinals = new Map(storedRows.map((row) => [row.task_id, row.ordinal]));
      let nextOrdinal = Math.max(-1, ...storedRows.map((row) => row.ordinal)) + 1;
      const rows = next.tasks.flatMap((task) =>
        changedIds.has(task.id) ? [taskToRow(task, ordinals.get(task.id) ?? 0)] : [],
      );
      const newRows = next.tasks.flatMap((task) => (added.has(task.id) ? [taskToRow(task, nextOrdinal++)] : []));
      // The window row's touch (its categories when a class changed: $3, else null) rides on the first statement:
      // one round trip fewer a write (issue 44.8). The window row is this transaction's, locked above.
      const categories = changes.some((change) => change.kind === "class") ? JSON.stringify(next.categories) : null;
      if (rows.length > 0) {
        await client.query(
          `WITH touched AS (
             UPDATE tempo_schedule_windows SET categories = COALESCE($3::jsonb, categories), updated_at = now()
              WHERE user_id = $1
           )
           UPDATE tempo_schedule_tasks AS stored
              SET name = changed.name, duration = changed.duration, category_id = changed.category_id, slots = changed.slots,
                  status = changed.status, embedded_in = changed.embedded_in, attributes = changed.attributes,
                  series = changed.series
             FROM jsonb_to_recordset($2::jsonb) AS changed(${TASK_RECORD})
            WHERE stored.user_id = $1 AND stored.task_id = changed.task_id`,
          [userId, JSON.stringify(rows), categories],
        );
      }
      if (newRows.length > 0) {
        await client.query(
          `INSERT INTO tempo_schedule_tasks (user_id, ${TASK_COLUMNS})
           SELECT $1, ${TASK_COLUMNS} FROM jsonb_to_recordset($2::jsonb) AS added(${TASK_RECORD})`,
          [userId, JSON.stringify(newRows)],
        );
      }
      if (removed.length > 0)
        await client.query("DELETE FROM tempo_schedule_tasks WHERE user_id = $1 AND task_id = ANY($2::text[])", [
          userId,
          removed,
        ]);
      if (rows.length === 0)
        await client.query(
          "UPDATE tempo_schedule_windows SET categories = COALESCE($2::jsonb, categories), updated_at = now() WHERE user_id = $1",
          [userId, categories],
        );
      return { applied: true };
    };
    return options.client ? apply(options.client as Queryable) : inTransaction(this.pool, apply);
  }

  /** The time zone of the user's window, read from its row alone. */
  async timeZone(userId: string): Promise<string | undefined> {
    await this.migrate();
    const rows = await this.pool.query<{ zone: string | null }>(
      "SELECT calendar->>'timeZone' AS zone FROM tempo_schedule_windows WHERE user_id = $1",
      [userId],
    );
    const row = rows.rows[0];
    return row === undefined ? this.whenMissing(userId).window.timeZone : (row.zone ?? undefined);
  }

  /** Validates `state` and replaces the user's stored schedule with it, in one transaction. */
  async seed(userId: string, state: ScheduleState): Promise<void> {
    const valid = parseScheduleState(state);
    await this.migrate();
    await inTransaction(this.pool, (client) => writeSchedule(client, userId, valid));
  }
}

/** Writes a user's whole schedule (window row and every task row) in the caller's transaction. */
async function writeSchedule(client: Queryable, userId: string, state: ScheduleState): Promise<void> {
  await client.query(
    `INSERT INTO tempo_schedule_windows (user_id, total_days, slots_per_day, days, categories, calendar, format_version)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7)
     ON CONFLICT (user_id) DO UPDATE
       SET total_days = EXCLUDED.total_days, slots_per_day = EXCLUDED.slots_per_day, days = EXCLUDED.days,
           categories = EXCLUDED.categories, calendar = EXCLUDED.calendar, format_version = EXCLUDED.format_version,
           updated_at = now()`,
    [
      userId,
      state.window.totalDays,
      state.window.slotsPerDay,
      JSON.stringify(state.window.days),
      JSON.stringify(state.categories),
      JSON.stringify(calendarOf(state.window)),
      SCHEDULE_FORMAT_VERSION,
    ],
  );
  await client.query("DELETE FROM tempo_schedule_tasks WHERE user_id = $1", [userId]);
  await client.query(
    `INSERT INTO tempo_schedule_tasks (user_id, ${TASK_COLUMNS})
     SELECT $1, ${TASK_COLUMNS} FROM jsonb_to_recordset($2::jsonb) AS seeded(${TASK_RECORD})`,
    [userId, JSON.stringify(state.tasks.map(taskToRow))],
  );
}

/** Something that runs queries: the pool or a client inside a transaction. */
type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;

/**
 * Reads a user's schedule, or undefined when none is stored: the window and its tasks in one query (one round trip,
 * one snapshot — a load runs dozens of times a conversation).
 */
async function readSchedule(queryable: Queryable, userId: string): Promise<ScheduleState | undefined> {
  const result = await queryable.query<WindowRow & { tasks: TaskRow[] }>(
    `SELECT ${WINDOW_COLUMNS},
        COALESCE((SELECT json_agg(task ORDER BY task.ordinal)
                    FROM (SELECT ${TASK_COLUMNS} FROM tempo_schedule_tasks WHERE user_id = $1) AS task), '[]'::json) AS tasks
       FROM tempo_schedule_windows WHERE user_id = $1`,
    [userId],
  );
  const row = result.rows[0];
  if (row === undefined) return undefined;
  const { tasks, ...window } = checkedFormat(row, userId);
  return rowsToSchedule(window, tasks, userId);
}

/** Reads a user's window row (optionally locking it until the transaction ends), or undefined. */
async function readWindow(queryable: Queryable, userId: string, lock: boolean): Promise<WindowRow | undefined> {
  const windows = await queryable.query<WindowRow>(
    `SELECT ${WINDOW_COLUMNS} FROM tempo_schedule_windows WHERE user_id = $1${lock ? " FOR UPDATE" : ""}`,
    [userId],
  );
  const row = windows.rows[0];
  return row === undefined ? undefined : checkedFormat(row, userId);
}

/** `row`, refused when it is stored in a format newer than this Tempo reads. */
function checkedFormat<TRow extends Pick<WindowRow, "format_version">>(row: TRow, userId: string): TRow {
  if (row.format_version > SCHEDULE_FORMAT_VERSION)
    throw new InvalidScheduleError([
      `the schedule of ${userId} is stored in format ${row.format_version}, newer than this Tempo's ${SCHEDULE_FORMAT_VERSION}; update Tempo to read it`,
    ]);
  return row;
}

/** Reads a user's task rows in list order. */
async function readTaskRows(queryable: Queryable, userId: string): Promise<TaskRow[]> {
  const tasks = await queryable.query<TaskRow>(
    `SELECT ${TASK_COLUMNS} FROM tempo_schedule_tasks WHERE user_id = $1 ORDER BY ordinal`,
    [userId],
  );
  return tasks.rows;
}

/** The stored row of a task. */
function taskToRow(task: ScheduleTask, ordinal: number): TaskRow {
  if (task.source === "event") {
    return {
      task_id: task.id,
      ordinal,
      source: "event",
      name: task.name,
      slots: task.slots,
      can_embed: task.canEmbed,
      locked: task.locked,
      duration: null,
      category_id: null,
      status: null,
      embedded_in: null,
      attributes: {},
      series: task.series ?? null,
    };
  }
  return {
    task_id: task.id,
    ordinal,
    source: "task_item",
    name: task.name,
    slots: task.slots ?? [],
    can_embed: null,
    locked: null,
    duration: task.duration,
    category_id: task.categoryId,
    status: task.status,
    embedded_in: task.embeddedIn ?? null,
    attributes: {
      ...(task.dueBefore ? { dueBefore: task.dueBefore } : {}),
      ...(task.priority ? { priority: task.priority } : {}),
      ...(task.earliestDay ? { earliestDay: task.earliestDay } : {}),
      ...(task.markedAt ? { markedAt: task.markedAt } : {}),
      ...(task.was ? { was: task.was } : {}),
      ...(task.group ? { group: task.group } : {}),
    },
    series: null,
  };
}

/**
 * Rebuilds the schedule from its rows, in canonical form (hosts' `embeds` derived from `embedded_in`), checked as a
 * schedule given to `seed` is (`parseScheduleState`): a row written by hand or by an older Tempo with a rule no tool
 * writes (a task class's `minSession` of 0, `blockedDays` of null, a slot range that is no list) is refused with an
 * `InvalidScheduleError` naming the user and each problem, instead of a TypeError on load or a search that reads it.
 */
function rowsToSchedule(window: WindowRow, rows: readonly TaskRow[], userId: string): ScheduleState {
  const guests = new Map<string, string[]>();
  for (const row of rows) {
    if (row.embedded_in !== null) guests.set(row.embedded_in, [...(guests.get(row.embedded_in) ?? []), row.task_id]);
  }
  const tasks = rows.map((row): ScheduleTask => {
    // Not a list: left as it is for the check below to name.
    const slots = Array.isArray(row.slots)
      ? row.slots.map((range) => ({ day: range?.day, start: range?.start, end: range?.end }) as SlotRange)
      : (row.slots as SlotRange[]);
    if (row.source === "event") {
      const event: EventTask = {
        id: row.task_id,
        name: row.name,
        source: "event",
        slots,
        canEmbed: row.can_embed === true,
        locked: row.locked === true,
        embeds: sortIds(guests.get(row.task_id) ?? []),
      };
      if (row.series !== null) event.series = row.series;
      return event;
    }
    const item: TaskItem = {
      id: row.task_id,
      name: row.name,
      source: "task_item",
      duration: row.duration ?? 0,
      categoryId: row.category_id ?? "",
      status: row.status ?? "pending",
    };
    if (slots.length > 0 && (item.status === "placed" || item.status === "done")) item.slots = slots;
    if (item.slots !== undefined && row.embedded_in !== null) item.embeddedIn = row.embedded_in;
    return { ...item, ...row.attributes };
  });
  const state = {
    window: { totalDays: window.total_days, slotsPerDay: window.slots_per_day, days: window.days, ...window.calendar },
    categories: window.categories,
    tasks,
  };
  try {
    return parseScheduleState(state);
  } catch (error) {
    if (!(error instanceof InvalidScheduleError)) throw error;
    throw new InvalidScheduleError(error.problems.map((problem) => `as stored for ${userId}, ${problem}`));
  }
}

/** The window's calendar as stored: its time zone, the clock times of its slots and the clock of its last roll. */
function calendarOf(window: ScheduleWindow): WindowRow["calendar"] {
  return {
    ...(window.timeZone !== undefined ? { timeZone: window.timeZone } : {}),
    ...(window.slotTimes !== undefined ? { slotTimes: window.slotTimes } : {}),
    ...(window.rolledAt !== undefined ? { rolledAt: window.rolledAt } : {}),
  };
}
