/**
 * Approvals of writes: the confirm node records the exact call (thread,
 * tool-call id, tool, arguments) a human accepted or edited on its card, and
 * execute applies a write only when that call's approval is on record. A
 * write call that reached the state any other way (state written around the
 * run guard) has no approval and applies nothing (WRITE_NOT_APPROVED).
 *
 * Approvals live outside the thread's state, where no state update reaches:
 * in the run's store when it has one (the LangGraph server's, Postgres with
 * `createTempo`), under `["tempo", "approvals", <thread>]` — a namespace the
 * served API's auth refuses to every client — so an approval survives a
 * restart between the answer and its write; without a store, in this graph's
 * memory.
 */
import type { BaseStore } from "@langchain/langgraph";
import { TempoError } from "../../errors/index.js";
import type { WriteCall } from "../../kernel/state.js";
import { namespaceLabel } from "../../memory/namespaces.js";

/** How many approvals a graph keeps in memory when it has no store (the oldest go first). */
const MEMORY_LIMIT = 10_000;

/** The approvals one built graph records and checks. */
export class WriteApprovals {
  readonly #memory = new Map<string, string>();

  /** Records that a human approved `tool` (with these arguments) on thread `threadId`. */
  async record(store: BaseStore | undefined, threadId: string, tool: WriteCall): Promise<void> {
    const call = describeCall(tool);
    if (store) return store.put(approvalsNamespace(threadId), tool.id, { call });
    this.#memory.delete(memoryKey(threadId, tool.id));
    this.#memory.set(memoryKey(threadId, tool.id), call);
    if (this.#memory.size > MEMORY_LIMIT) this.#memory.delete(this.#memory.keys().next().value!);
  }

  /** Throws WRITE_NOT_APPROVED unless a human approved exactly `tool` on thread `threadId`. */
  async assertApproved(store: BaseStore | undefined, threadId: string, tool: WriteCall): Promise<void> {
    const recorded = store
      ? ((await store.get(approvalsNamespace(threadId), tool.id))?.value as { call?: unknown } | undefined)?.call
      : this.#memory.get(memoryKey(threadId, tool.id));
    if (recorded !== describeCall(tool)) {
      throw new TempoError(
        "WRITE_NOT_APPROVED",
        `The write ${tool.name} (${tool.id}) was not approved on its card, so it was not applied; a write applies only after its card is answered. Nothing was changed.`,
        { threadId, toolCallId: tool.id },
      );
    }
  }
}

/** The store namespace of a thread's approvals (outside every user's own `["tempo", "users", …]`). */
export function approvalsNamespace(threadId: string): string[] {
  return ["tempo", "approvals", namespaceLabel(threadId)];
}

function memoryKey(threadId: string, toolCallId: string): string {
  return JSON.stringify([threadId, toolCallId]);
}

/** The call as canonical JSON (keys sorted), so a stored copy compares equal whatever its key order. */
function describeCall(tool: WriteCall): string {
  return JSON.stringify(sortKeys({ name: tool.name, arguments: tool.arguments }));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
