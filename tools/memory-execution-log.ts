/**
 * The execution log of a graph built without a database (tests, `buildTempoGraph` with an in-memory checkpointer):
 * the part of the Postgres log's contract (checkpoints/execution-log.ts) that answers "was this call completed?" —
 * one completed entry per write and thread, the first kept, looked up by tool-call id, and claimed before the write
 * applies (`applyOnce`) — kept in this process's memory, so every reader asks "applied?" of one table, with or without a database. Replayed and failed entries,
 * which only the audit reads, are not kept. Bounded: past `limit` completed calls the oldest are forgotten.
 */
import { TempoError } from "../errors/index.js";
import type { ExecutionLog, ExecutionLogEntry, ToolOutcome } from "./runner.js";

/** How many completed calls a log keeps in memory by default. */
const DEFAULT_LIMIT = 10_000;

export class MemoryExecutionLog implements ExecutionLog {
  /** Completed calls by thread and tool-call id, oldest first. */
  readonly #completed = new Map<string, ToolOutcome & { toolCallId: string }>();

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  async completed(toolCallId: string, threadId?: string): Promise<ToolOutcome | undefined> {
    const found =
      threadId !== undefined
        ? this.#completed.get(key(threadId, toolCallId))
        : [...this.#completed.values()].find((entry) => entry.toolCallId === toolCallId);
    return found && { ok: found.ok, content: found.content, applied: found.applied };
  }

  /**
   * Claims the write of `entry` (its completed entry, unless one is held) and runs `apply`; the claim is taken before
   * `apply` starts (a run claiming the same write meanwhile finds it taken) and dropped again if `apply` fails.
   */
  async applyOnce(entry: ExecutionLogEntry, apply: () => Promise<void>): Promise<boolean> {
    const id = key(entry.threadId, entry.toolCallId);
    if (this.#completed.has(id)) return false;
    this.#remember(id, entry);
    try {
      await apply();
    } catch (error) {
      this.#completed.delete(id);
      throw error;
    }
    return true;
  }

  async append(entry: ExecutionLogEntry): Promise<void> {
    if ((entry.status ?? "completed") !== "completed") return;
    const id = key(entry.threadId, entry.toolCallId);
    if (this.#completed.has(id)) {
      // As the Postgres log's unique index does: a write completes once per thread (a read's id is never reused).
      if (entry.kind === "write")
        throw new TempoError(
          "PERSISTENCE_FAILED",
          `The write ${entry.toolCallId} already has a completed entry on thread ${entry.threadId}.`,
          { toolCallId: entry.toolCallId },
        );
      return;
    }
    this.#remember(id, entry);
  }

  /** Keeps `entry` as the completed call `id`; past `limit` calls the oldest is forgotten. */
  #remember(id: string, entry: ExecutionLogEntry): void {
    this.#completed.set(id, {
      toolCallId: entry.toolCallId,
      ok: entry.ok,
      content: entry.result,
      applied: entry.applied,
    });
    if (this.#completed.size > this.limit) this.#completed.delete(this.#completed.keys().next().value!);
  }
}

function key(threadId: string, toolCallId: string): string {
  return JSON.stringify([threadId, toolCallId]);
}
