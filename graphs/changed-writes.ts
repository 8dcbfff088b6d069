/**
 * Writes only what changed. LangGraph stores every field a node returns — a
 * row in `checkpoint_writes` and, for a replace-on-write channel, a new
 * version with its own blob row — even when the value is the one the state
 * already holds. `writeChangesOnly` wraps a node so its update keeps only the
 * fields whose value differs from the state the node ran on; an empty message
 * list is dropped too. Dropping a write of an equal value changes nothing in
 * the state, the routing or the stream of values; it only saves rows.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { isDeepStrictEqual } from "node:util";
import type { TempoState, TempoUpdate } from "./state.js";

/** A Tempo node: the state in, an update out. */
export type TempoNode = (state: TempoState, config: LangGraphRunnableConfig) => Promise<TempoUpdate>;

/** The fields of `update` that change `state` (messages: any non-empty write; other fields: a value not deep-equal to the current one). */
export function changedFields(state: TempoState, update: TempoUpdate): TempoUpdate {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue;
    if (key === "messages") {
      if (!Array.isArray(value) || value.length > 0) changed[key] = value;
      continue;
    }
    if (!isDeepStrictEqual(value, (state as Record<string, unknown>)[key])) changed[key] = value;
  }
  return changed as TempoUpdate;
}

/** Wraps a node so that it writes only the fields it changes (see the module comment). */
export function writeChangesOnly(node: TempoNode): TempoNode {
  const wrapped: TempoNode = async (state, config) => changedFields(state, await node(state, config));
  Object.defineProperty(wrapped, "name", { value: node.name });
  return wrapped;
}
