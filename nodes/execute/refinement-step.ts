/**
 * A refinement step's rounds made by the code (nodes/execute/refinement.ts has the loop's rules): the backend's
 * listing run without a model call, and the step ended when the loop stops.
 */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
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
import { CHOOSE_CANDIDATE, listingsIn } from "./candidates.js";
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
  emitStatus(
    config,
    "execute",
    state.messages,
    refinementSummary(optimization, refinement, "en", "person"),
    refinementSummary(optimization, refinement, "zh"),
  );
  const ending: StepEnding = { action: last ? "done" : "next_plan", goalCheck: summary, answer: "" };
  return {
    ...update,
    optimization,
    ...endStep(state, ending, [...workspaceMessages(state), ...rounds], dependencies, config),
    ...(update.messages === undefined ? {} : { messages: update.messages }),
  };
}

/**
 * The refinement step ended in code when the model passed over the listing in view (issue 49 item 2): as many turns
 * in a row as the loop allows rounds without a gain (`Refinement.stagnantRounds`) made since it, none of them choosing
 * (`choose_candidate`, "none" included) or listing again — it read or checked the week instead. What it would do next
 * is end the step, and the listing still stands, so asking again would cost a call and change nothing; the summary
 * says the listed changes were not taken. Undefined while the model engages with the listing, or has turns left.
 */
export function passedOverInCode(
  state: TempoState,
  refinement: Refinement,
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): TempoUpdate | undefined {
  const workspace = workspaceMessages(state);
  const latest = listingsIn(workspace).at(-1);
  const loop = state.optimization;
  if (!latest || !loop || loop.stepId !== state.currentStepId || loop.verdict !== "running") return undefined;
  const engaged = new Set([CHOOSE_CANDIDATE, refinement.list?.tool]);
  let turns = 0;
  for (const message of workspace.slice(latest.index + 1)) {
    const calls = message.getType() === "ai" ? ((message as AIMessage).tool_calls ?? []) : [];
    if (calls.some((call) => engaged.has(call.name))) return undefined;
    if (calls.length > 0) turns += 1;
  }
  if (turns < refinement.stagnantRounds) return undefined;
  const optimization: Optimization = { ...loop, verdict: "passed" };
  return endRefinement(state, refinement, optimization, [], {}, dependencies, config);
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
