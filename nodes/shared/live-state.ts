/**
 * The domain's live state (its preflight read, e.g. the schedule's get_overview), read fresh for a stage prompt:
 * the planner plans on it and the execute model acts on it without calling a read tool for what it shows. Kept in
 * the run-only `liveState` field; a write applied in the run clears it, so the next prompt reads it again.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import { runTool } from "../../tools/runner.js";
import type { NodeDependencies } from "./dependencies.js";
import { newToolCallId } from "./messages.js";

/** The live state as a prompt shows it (`text`), and the preflight tool's structured result (`data`) for programs. */
export interface LiveState {
  text: string;
  data?: unknown;
}

/** Runs the domain's preflight read now: its result headed "<tool> (fetched just now):", or "" for a domain without one. */
export async function readLiveState(dependencies: NodeDependencies, config: LangGraphRunnableConfig, stepId: string | null = null): Promise<LiveState> {
  const preflight = dependencies.domain.preflight;
  if (!preflight) return { text: "" };
  const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
  const outcome = await runTool(dependencies.domain, { userId, threadId, stepId }, { id: newToolCallId(), name: preflight.tool, arguments: preflight.arguments }, dependencies.executionLog);
  return { text: `${preflight.tool} (fetched just now):\n${outcome.content}`, ...(outcome.data === undefined ? {} : { data: outcome.data }) };
}

/** The live state the run already read (kept in the run-only `liveState` / `liveStateData`), or none. */
export function keptLiveState(state: { liveState: string; liveStateData: unknown }): LiveState | undefined {
  if (!state.liveState) return undefined;
  return state.liveStateData === null || state.liveStateData === undefined ? { text: state.liveState } : { text: state.liveState, data: state.liveStateData };
}

/** The update that keeps `live` for the rest of the run, when it is not what the state holds already. */
export function keepLiveState(state: { liveState: string }, live: LiveState): { liveState?: string; liveStateData?: unknown } {
  return live.text === state.liveState ? {} : { liveState: live.text, liveStateData: live.data ?? null };
}
