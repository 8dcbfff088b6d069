/**
 * The domain's live state (its preflight read, e.g. the schedule's get_overview), read fresh for a stage prompt:
 * the planner plans on it and the execute model acts on it without calling a read tool for what it shows. Kept in
 * the run-only `liveState` field (its text and its tool's data); a write applied in the run clears it, so the next
 * prompt reads it again.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { ensureConfiguration } from "../../config/configuration.js";
import type { LiveState, TempoState } from "../../kernel/state.js";
import { runTool, stateForRun } from "../../tools/runner.js";
import type { Preference } from "../../contracts/preferences.js";
import type { NodeDependencies } from "./dependencies.js";
import { newToolCallId } from "./messages.js";
import { toolClock } from "./now.js";

/** Runs the domain's preflight read now: its result headed "<tool> (fetched just now):" with its data, or empty text for a domain without one. */
export async function readLiveState(
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  stepId: string | null = null,
  preferences: readonly Preference[] = [],
): Promise<LiveState> {
  const preflight = dependencies.domain.preflight;
  if (!preflight) return { text: "" };
  const { userId, threadId } = ensureConfiguration(config, dependencies.settings);
  const outcome = await runTool(
    dependencies.domain,
    { userId, threadId, stepId, preferences, ...toolClock(dependencies, config) },
    { id: newToolCallId(), name: preflight.tool, arguments: preflight.arguments },
    dependencies.executionLog,
  );
  return {
    text: `${preflight.tool} (fetched just now):\n${outcome.content}`,
    ...(outcome.data === undefined ? {} : { data: outcome.data }),
  };
}

/**
 * The user's stored domain state as the run's tools see it (`stateForRun`): the standing preferences recall loaded
 * folded in as rules, and the run's clock (nothing fits in a slot that has started). What a node tells of the data —
 * what is still open and whether it fits — is judged on it, as a tool would judge it. `load` gives a state the caller
 * loaded already.
 */
export async function stateAsRun(
  state: Pick<TempoState, "recalled">,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
  load?: () => Promise<unknown>,
): Promise<unknown> {
  const { userId } = ensureConfiguration(config, dependencies.settings);
  const context = { userId, preferences: state.recalled.preferences ?? [], ...toolClock(dependencies, config) };
  return stateForRun(dependencies.domain, context, load);
}
