/**
 * A refinement step's rounds made by the code (nodes/execute/refinement.ts has the loop's rules): the backend's
 * listing run without a model call, and the step ended when the loop stops.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import {
  workspaceMessages,
  type Optimization,
  type StepEnding,
  type TempoState,
  type TempoUpdate,
} from "../../kernel/state.js";
import { emitStatus } from "../../streaming/events.js";
import type { Refinement } from "../../tools/domain.js";
import type { ToolRunContext } from "../../tools/runner.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { listingsIn } from "./candidates.js";
import { afterListing, refinementSummary } from "./refinement.js";
import { newToolCallId, toolRoundOf } from "../shared/messages.js";
import { runReported } from "./tool-run.js";
import { endStep } from "./step-ending.js";

/**
 * The refinement step ended in code, its loop stopped (nothing left to choose, stagnation, the budget) after `rounds`
 * (just run): `update` with the loop's state and the step's ending, its summary saying what it gained and why it stopped.
 */
export function endRefinement(
  state: TempoState,
  refinement: Refinement,
  optimization: Optimization,
  rounds: BaseMessage[],
  update: TempoUpdate,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): TempoUpdate {
  const last = state.planSteps.findIndex((step) => step.id === state.currentStepId) === state.planSteps.length - 1;
  const summary = refinementSummary(optimization, refinement);
  emitStatus(config, "execute", state.messages, summary, refinementSummary(optimization, refinement, "zh"));
  const ending: StepEnding = { action: last ? "done" : "next_plan", goalCheck: summary, answer: "" };
  return {
    ...update,
    optimization,
    ...endStep(state, ending, [...workspaceMessages(state), ...rounds], dependencies, config),
    messages: update.messages,
  };
}

/**
 * A refinement step's listing, made by the code (the backend lists, the model chooses): at the step's start and after
 * each change applied, the domain's listing tool runs as a round of the step — no model call — and the loop moves on;
 * when it stops the step ends here, else the model next chooses from what the round shows.
 */
export async function listForRefinement(
  state: TempoState,
  refinement: Refinement & { list: NonNullable<Refinement["list"]> },
  context: ToolRunContext,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): Promise<TempoUpdate> {
  const call = { id: newToolCallId(), name: refinement.list.tool, arguments: refinement.list.arguments };
  const outcome = await runReported(call, context, dependencies, config);
  const rounds = toolRoundOf([
    {
      call,
      result: outcome.content,
      outcome: outcome.ok ? "done" : "failed",
      ...(outcome.data === undefined ? {} : { data: outcome.data }),
    },
  ]);
  const update: TempoUpdate = {
    messages: rounds,
    workspaceMessageIds: [...state.workspaceMessageIds, ...rounds.map((message) => message.id!)],
  };
  const listing = listingsIn(rounds).at(-1)?.listing;
  // A listing that failed is the model's to handle, as any tool error.
  if (!listing) return update;
  const optimization = afterListing(state.optimization, state.currentStepId, listing, refinement);
  return optimization.verdict === "running"
    ? { ...update, optimization }
    : endRefinement(state, refinement, optimization, rounds, update, dependencies, config);
}
