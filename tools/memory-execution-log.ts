/**
 * The execution log of a graph built without a database (tests, `buildTempoGraph` with an in-memory checkpointer):
 * the same contract as the Postgres log (checkpoints/execution-log.ts) — one completed entry per write and thread,
 * answered by tool-call id — kept in this process's memory, so every reader asks "applied?" of one table, with or
 * without a database. Bounded: past `limit` entries the oldest go first.
 */
import { TempoError } from "../errors/index.js";
import type { ExecutionLog, ExecutionLogEntry, ToolOutcome } from "./runner.js";

/** How many entries a log keeps in memory by default. */
const DEFAULT_LIMIT = 10_000;

export class MemoryExecutionLog implements ExecutionLog {
  readonly #entries: ExecutionLogEntry[] = [];
  readonly #completed = new Map<string, ToolOutcome>();

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  async completed(toolCallId: string, threadId?: string): Promise<ToolOutcome | undefined> {
    if (threadId !== undefined) return this.#completed.get(key(threadId, toolCallId));
    const entry = this.#entries.find((candidate) => candidate.toolCallId === toolCallId && (candidate.status ?? "completed") === "completed");
    return entry ? { ok: entry.ok, content: entry.result, applied: entry.applied } : undefined;
  }

  async append(entry: ExecutionLogEntry): Promise<void> {
    const completed = (entry.status ?? "completed") === "completed";
    const id = key(entry.threadId, entry.toolCallId);
    if (completed && entry.kind === "write" && this.#completed.has(id)) {
      // As the Postgres log's unique index does: a write completes once per thread.
      throw new TempoError("PERSISTENCE_FAILED", `The write ${entry.toolCallId} already has a completed entry on thread ${entry.threadId}.`, { toolCallId: entry.toolCallId });
    }
    this.#entries.push(entry);
    if (completed && !this.#completed.has(id)) this.#completed.set(id, { ok: entry.ok, content: entry.result, applied: entry.applied });
    while (this.#entries.length > this.limit) {
      const dropped = this.#entries.shift()!;
      const droppedKey = key(dropped.threadId, dropped.toolCallId);
      if (!this.#entries.some((kept) => key(kept.threadId, kept.toolCallId) === droppedKey)) this.#completed.delete(droppedKey);
    }
  }

  /** Every entry kept, oldest first (for inspection). */
  entries(): readonly ExecutionLogEntry[] {
    return this.#entries;
  }
}

function key(threadId: string, toolCallId: string): string {
  return JSON.stringify([threadId, toolCallId]);
}
