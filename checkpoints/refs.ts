/**
 * Where a checkpoint is, for Tempo's saver: a checkpoint's ref and the keys it is remembered by, the tables of a
 * checkpoint schema, and the checkpoint the current LangGraph task runs from.
 */
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import type { RunnableConfig } from "@langchain/core/runnables";

/** Table of the resume claims, next to the checkpoint tables. */
export const RESUME_CLAIMS_TABLE = "tempo_resume_claims";

/** Where a checkpoint is: thread, namespace, id. */
export interface CheckpointRef {
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
}

/** The tables Tempo's saver reads and writes in one schema, qualified for SQL. */
export interface SaverTables {
  checkpoints: string;
  blobs: string;
  writes: string;
  claims: string;
}

/** The tables of `schema` (a name `SCHEMA_PATTERN` accepts). */
export function saverTables(schema: string): SaverTables {
  return {
    checkpoints: `"${schema}".checkpoints`,
    blobs: `"${schema}".checkpoint_blobs`,
    writes: `"${schema}".checkpoint_writes`,
    claims: `"${schema}".${RESUME_CLAIMS_TABLE}`,
  };
}

/** The checkpoint the current LangGraph task runs from (its thread, namespace and id), or undefined outside a run. */
export function currentRunCheckpoint(): CheckpointRef | undefined {
  const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as RunnableConfig | undefined;
  const configurable = (config?.configurable ?? {}) as Record<string, unknown>;
  const map = configurable.checkpoint_map as Record<string, string> | undefined;
  const threadId = configurable.thread_id;
  if (!map || typeof threadId !== "string") return undefined;
  // The innermost graph's entry is the last one added.
  const innermost = Object.entries(map).at(-1);
  if (!innermost || typeof innermost[1] !== "string") return undefined;
  return { threadId, checkpointNs: innermost[0], checkpointId: innermost[1] };
}

export function keyOf(ref: CheckpointRef): string {
  return `${threadPrefix(ref)}${ref.checkpointId}`;
}

export function threadPrefix(ref: Pick<CheckpointRef, "threadId" | "checkpointNs">): string {
  return `${ref.threadId}\u0000${ref.checkpointNs}\u0000`;
}

const REMEMBERED = 5_000;

/** Sets `key` in a map used as a bounded memory of recent entries (oldest dropped first). */
export function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

/** `($1, $2), ($3, $4)`: the VALUES of `rows` rows of `columns` parameters each. */
export function valuesList(rows: number, columns: number): string {
  return Array.from(
    { length: rows },
    (_, row) => `(${Array.from({ length: columns }, (__, column) => `$${row * columns + column + 1}`).join(", ")})`,
  ).join(", ");
}
