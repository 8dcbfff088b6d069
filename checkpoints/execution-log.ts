/**
 * The execution log in Postgres (docs/design.md#execution-log): an append-only
 * table `tempo_execution_log` with one row per tool call — the call, its
 * result, whether it applied a change, and how the row came about
 * (`completed`, `replayed` after a crash, `failed`). Rows are never updated
 * or deleted by Tempo; a thread's rows read back in the order they were
 * written (`readExecutionLog`).
 *
 * It is also what makes a confirmed write exactly-once, for every domain: the
 * runner asks it for a completed entry before running a write, then
 * `applyOnce` claims the write — inserts its completed entry, unless a
 * partial unique index on (thread, tool-call id) already holds one — and
 * applies the change in the same transaction (every domain keeps its tables
 * in this database), so a write is never applied without its entry and never
 * twice: a run claiming it at the same moment waits for the first to commit,
 * then finds it claimed and applies nothing. With a `resumeGuard` (the Tempo checkpointer) it
 * also refuses a write of a run that lost the race to resume an interrupt.
 *
 * Every statement is parameterised; the schema name is checked and quoted.
 */
import type pg from "pg";

import { storableCopy } from "../contracts/storable-text.js";
import { ConfigurationError } from "../errors/index.js";
import type { TransactionClient } from "../tools/domain.js";
import type {
  ExecutionLog,
  ExecutionLogEntry,
  ExecutionLogStatus,
  ToolInvocation,
  ToolOutcome,
  ToolRunContext,
} from "../tools/runner.js";
import { inTransaction, onceUntilFailure, runMigration, SCHEMA_PATTERN } from "../database/index.js";

/** Name of the execution log table. */
export const EXECUTION_LOG_TABLE = "tempo_execution_log";

/** A row of the execution log as read back. */
export interface ExecutionLogRecord extends Required<ExecutionLogEntry> {
  /** Position in the log (bigserial): later entries have larger ids. */
  id: number;
}

/** What the log needs from the checkpointer to refuse the writes of a run that lost a resume race. */
export interface ResumeGuard {
  /**
   * Resolves once the checkpoint the calling graph step runs from is saved; rejects with `ALREADY_RESUMED` when
   * it never will be because another run resumed the thread first. Outside a graph run it resolves at once.
   */
  admitCurrentRun(): Promise<void>;
}

/** Options of {@link PostgresExecutionLog}. */
export interface PostgresExecutionLogOptions {
  /** Schema of the table (created if missing). Default "public". */
  schema?: string;
  /**
   * Claim a write and apply it in one transaction on this log's database (default true). Only correct when the
   * domains store their data in the same database as this log — as `createTempo` wires them; without it, the entry
   * is written after the change.
   */
  sameDatabaseAsRepository?: boolean;
  /** The Tempo checkpointer, so a run that lost the race to resume an interrupt cannot apply a write. */
  resumeGuard?: ResumeGuard;
}

/** The quoted table name for `schema`; throws `ConfigurationError` for a schema name that is not a plain identifier. */
function tableName(schema: string): string {
  if (!SCHEMA_PATTERN.test(schema)) {
    throw new ConfigurationError(
      `Invalid execution log schema name "${schema}": use letters, digits and underscores, starting with a letter or underscore.`,
      {
        schema,
      },
    );
  }
  return `"${schema}".${EXECUTION_LOG_TABLE}`;
}

/** The idempotent migration statements of the log in `schema`. */
export function executionLogMigration(schema = "public"): string[] {
  const table = tableName(schema);
  return [
    `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
    `CREATE TABLE IF NOT EXISTS ${table} (
      id bigserial PRIMARY KEY,
      thread_id text NOT NULL,
      user_id text NOT NULL,
      step_id text,
      tool_call_id text NOT NULL,
      tool text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('read', 'write', 'unknown')),
      arguments jsonb NOT NULL,
      result text NOT NULL,
      ok boolean NOT NULL,
      applied boolean NOT NULL,
      started_at timestamptz NOT NULL,
      finished_at timestamptz NOT NULL,
      status text NOT NULL CHECK (status IN ('completed', 'replayed', 'failed'))
    )`,
    `CREATE INDEX IF NOT EXISTS ${EXECUTION_LOG_TABLE}_thread ON ${table} (thread_id, id)`,
    `CREATE INDEX IF NOT EXISTS ${EXECUTION_LOG_TABLE}_call ON ${table} (tool_call_id)`,
    // At most one completed entry per write call: the database itself refuses a second application.
    `CREATE UNIQUE INDEX IF NOT EXISTS ${EXECUTION_LOG_TABLE}_write_once ON ${table} (thread_id, tool_call_id) WHERE kind = 'write' AND status = 'completed'`,
  ];
}

/** Creates the execution log table if it is missing; safe from any number of processes (advisory lock). */
export async function migrateExecutionLog(pool: pg.Pool, schema = "public"): Promise<void> {
  await runMigration(pool, `tempo:execution-log:migrate:${schema}`, executionLogMigration(schema));
}

interface LogRow {
  id: string;
  thread_id: string;
  user_id: string;
  step_id: string | null;
  tool_call_id: string;
  tool: string;
  kind: ExecutionLogEntry["kind"];
  arguments: Record<string, unknown>;
  result: string;
  ok: boolean;
  applied: boolean;
  started_at: Date;
  finished_at: Date;
  status: ExecutionLogStatus;
}

const COLUMNS =
  "thread_id, user_id, step_id, tool_call_id, tool, kind, arguments, result, ok, applied, started_at, finished_at, status";

function insertStatement(table: string): string {
  return `INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13)`;
}

/** The unique index's conflict: a write that already has its completed entry on the thread. */
const ALREADY_COMPLETED =
  " ON CONFLICT (thread_id, tool_call_id) WHERE kind = 'write' AND status = 'completed' DO NOTHING";

/** The insert of a write's completed entry that does nothing when the write already has one (the claim). */
function claimStatement(table: string): string {
  return insertStatement(table) + ALREADY_COMPLETED;
}

/**
 * An entry's columns. The call as the model made it may hold text Postgres cannot store (a NUL, an unpaired
 * surrogate), which its argument check refused: the record of it is made storable, so the refusal is logged and the
 * thread goes on.
 */
function insertValues(entry: ExecutionLogEntry): unknown[] {
  return [
    entry.threadId,
    entry.userId,
    entry.stepId,
    entry.toolCallId,
    storableCopy(entry.tool),
    entry.kind,
    JSON.stringify(storableCopy(entry.arguments ?? {})),
    storableCopy(entry.result),
    entry.ok,
    entry.applied,
    entry.startedAt,
    entry.finishedAt,
    entry.status ?? "completed",
  ];
}

/** The Postgres `ExecutionLog`: append-only, exactly-once for writes, optionally guarded against resume races. */
export class PostgresExecutionLog implements ExecutionLog {
  private readonly pool: pg.Pool;
  private readonly schema: string;
  private readonly table: string;
  private readonly resumeGuard?: ResumeGuard;

  constructor(pool: pg.Pool, options: PostgresExecutionLogOptions = {}) {
    this.pool = pool;
    this.schema = options.schema ?? "public";
    this.table = tableName(this.schema);
    this.resumeGuard = options.resumeGuard;
    if (options.sameDatabaseAsRepository ?? true) this.applyOnce = (entry, apply) => this.claimAndApply(entry, apply);
  }

  /**
   * Claims the write of `entry` and runs `apply` in the same transaction (see the module note); absent when the
   * domains are not in this log's database (`sameDatabaseAsRepository: false`).
   */
  readonly applyOnce?: (
    entry: ExecutionLogEntry,
    apply: (client?: TransactionClient) => Promise<void>,
  ) => Promise<boolean>;

  /** Creates the table if needed (idempotent, under an advisory lock); the other methods call it once by themselves. */
  readonly migrate = onceUntilFailure(() => migrateExecutionLog(this.pool, this.schema));

  /** The first completed entry of this call (in this thread, when given), as the outcome to give back. */
  async completed(toolCallId: string, threadId?: string): Promise<ToolOutcome | undefined> {
    await this.migrate();
    const result = await this.pool.query<Pick<LogRow, "result" | "ok" | "applied">>(
      `SELECT result, ok, applied FROM ${this.table}
        WHERE tool_call_id = $1 AND ($2::text IS NULL OR thread_id = $2) AND status = 'completed'
        ORDER BY id LIMIT 1`,
      [toolCallId, threadId ?? null],
    );
    const row = result.rows[0];
    return row ? { ok: row.ok, content: row.result, applied: row.applied } : undefined;
  }

  /** `completed` for many calls of one thread, in one query: the first completed entry of each call that has one. */
  async completedMany(toolCallIds: readonly string[], threadId: string): Promise<Map<string, ToolOutcome>> {
    if (toolCallIds.length === 0) return new Map();
    await this.migrate();
    const result = await this.pool.query<Pick<LogRow, "tool_call_id" | "result" | "ok" | "applied">>(
      `SELECT DISTINCT ON (tool_call_id) tool_call_id, result, ok, applied FROM ${this.table}
        WHERE tool_call_id = ANY($1::text[]) AND thread_id = $2 AND status = 'completed'
        ORDER BY tool_call_id, id`,
      [[...toolCallIds], threadId],
    );
    return new Map(
      result.rows.map((row) => [row.tool_call_id, { ok: row.ok, content: row.result, applied: row.applied }]),
    );
  }

  /** Appends one entry on its own. */
  async append(entry: ExecutionLogEntry): Promise<void> {
    await this.migrate();
    await this.pool.query(insertStatement(this.table), insertValues(entry));
  }

  private async claimAndApply(
    entry: ExecutionLogEntry,
    apply: (client?: TransactionClient) => Promise<void>,
  ): Promise<boolean> {
    // Migrated before the transaction: the migration's advisory lock takes another connection, which on the embedded
    // server would wait for this very transaction.
    await this.migrate();
    return inTransaction(this.pool, async (client) => {
      // A run claiming the same write at this moment waits here for the first to commit, then inserts nothing.
      const claimed = await client.query(claimStatement(this.table), insertValues(entry));
      if (claimed.rowCount === 0) return false;
      await apply(client);
      return true;
    });
  }

  /** Lets a write through only for the run that owns the thread's resume (see `ResumeGuard`). */
  async admitWrite(_context: ToolRunContext, _call: ToolInvocation): Promise<void> {
    await this.resumeGuard?.admitCurrentRun();
  }
}

/** Options of {@link readExecutionLog}. */
export interface ReadExecutionLogOptions {
  /** Schema of the table. Default "public". */
  schema?: string;
}

/** A thread's execution log, oldest entry first; empty when the table does not exist yet. */
export async function readExecutionLog(
  pool: pg.Pool,
  threadId: string,
  options: ReadExecutionLogOptions = {},
): Promise<ExecutionLogRecord[]> {
  const table = tableName(options.schema ?? "public");
  let result: pg.QueryResult<LogRow>;
  try {
    result = await pool.query<LogRow>(`SELECT id, ${COLUMNS} FROM ${table} WHERE thread_id = $1 ORDER BY id`, [
      threadId,
    ]);
  } catch (error) {
    if (typeof error === "object" && error !== null && "code" in error && error.code === "42P01") return []; // no table yet
    throw error;
  }
  return result.rows.map((row) => ({
    id: Number(row.id),
    threadId: row.thread_id,
    userId: row.user_id,
    stepId: row.step_id,
    toolCallId: row.tool_call_id,
    tool: row.tool,
    kind: row.kind,
    arguments: row.arguments,
    result: row.result,
    ok: row.ok,
    applied: row.applied,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
  }));
}
