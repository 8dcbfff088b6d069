/**
 * Writes only what changed. LangGraph stores every field a node returns — a
 * row in `checkpoint_writes` and, for a replace-on-write channel, a new
 * version with its own blob row — even when the value is the one the state
 * already holds. `writeChangesOnly` wraps a node so its update keeps only the
 * fields whose value differs from the state the node ran on; an empty message
 * list is dropped too. Dropping a write of an equal value changes nothing in
 * the state, the routing or the stream of values; it only saves rows.
 *
 * For the delta channels it also writes the smaller value where one exists: the plan's changed steps instead of the
 * whole plan, the ids a round added to the workspace instead of the whole list (`channels.ts`). The state after the
 * write is the same; an `updates` stream shows the smaller write, as it shows only the new messages.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { isDeepStrictEqual } from "node:util";
import { SMALLER_WRITES } from "./channels.js";
import type { TempoState, TempoUpdate } from "./state.js";

/** A Tempo node: the state in, an update out. */
export type TempoNode = (state: TempoState, config: LangGraphRunnableConfig) => Promise<TempoUpdate>;

/** The fields of `update` that change `state` (messages: any non-empty write; other fields: a value not deep-equal to the current one, as its delta channel's smaller write where it has one). */
export function changedFields(state: TempoState, update: TempoUpdate): TempoUpdate {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue;
    if (key === "messages") {
      if (!Array.isArray(value) || value.length > 0) changed[key] = value;
      continue;
    }
    const current = (state as Record<string, unknown>)[key];
    if (isDeepStrictEqual(value, current)) continue;
    // The delta channels' smaller writes: the plan's changed steps, the ids a round added to the workspace.
    const smaller = SMALLER_WRITES[key];
    changed[key] = smaller && Array.isArray(value) ? smaller(current as never, value as never) : value;
  }
  return changed as TempoUpdate;
}

/** Wraps a node so that it writes only the fields it changes (see the module comment). */
export function writeChangesOnly(node: TempoNode): TempoNode {
  const wrapped: TempoNode = async (state, config) => changedFields(state, await node(state, config));
  Object.defineProperty(wrapped, "name", { value: node.name });
  return wrapped;
}
