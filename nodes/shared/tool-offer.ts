/**
 * The tools a request offers, and the shared head that says them (issue 49 item 3), as the plan and execute nodes
 * both read them: for a set of active packs, the tools bound to the execute model (native tool calling) or listed in
 * its prompt (the JSON contract), and the system text that goes with them. The plan request carries the same head
 * and, in native mode, binds the same tools in the same order (answering in text: `tool_choice` "none"), so the plan
 * call and the first execute call of a task share one byte-identical prefix a provider's prompt cache reuses; each
 * stage's own instructions come after it. What execute offers is execute's (nodes/execute/tool-offer.ts builds the
 * offers); the graph builder hands the same offers to both nodes.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { TempoState } from "../../kernel/state.js";
import { modelFor, type StageModels } from "../../models/stage-models.js";

/** What a request offers for a set of active packs. */
export interface ToolOffer {
  /** The shared head: the system text that says the tools (the whole brief in JSON mode), the packs, the choosing rule. */
  head: string;
  /** Native tool calling: the tools bound, in the order every request of the task binds them. */
  tools?: StructuredToolInterface[];
  /** The execute model with {@link tools} bound. */
  bound?: Runnable<BaseMessage[], BaseMessage>;
}

/** The offers of a graph's nodes, built once per set of active packs (and whether a store is there to search). */
export interface ToolOffers {
  /** The offer for the packs `active`, with the searches of long-term memory when `remembers`. */
  offerFor(active: readonly string[], remembers: boolean): ToolOffer;
  /** The packs the next execute call of a planning pass will most likely have, for the plan request's head. */
  packsAfterPlanning(state: TempoState): string[];
}

/**
 * The plan model with `offer`'s tools bound and told to answer in text (`tool_choice` "none"), so the plan request
 * begins with the execute requests' tools; undefined when the plan should bind none: no native tool calling, a
 * structured-output plan (its response format comes first anyway), or a plan model other than the execute model (no
 * cache to share).
 */
export function planModelWithTools(
  models: StageModels,
  stage: "plan" | "plan_deep",
  offer: ToolOffer,
): Runnable<BaseMessage[], BaseMessage> | undefined {
  if (!offer.tools || models.structuredOutput) return undefined;
  const plan = modelFor(models, stage);
  const execute = modelFor(models, "execute");
  // The same model: the same instance, or two clients naming the same model. Two unnamed models (scripted ones) are
  // not taken for the same: binding tools to one would change what it answers.
  const nameOf = (model: unknown) => (model as { model?: unknown }).model;
  const same = plan === execute || (nameOf(plan) !== undefined && nameOf(plan) === nameOf(execute));
  if (typeof plan.bindTools !== "function" || !same) return undefined;
  return plan.bindTools(offer.tools, { tool_choice: "none" }) as Runnable<BaseMessage[], BaseMessage>;
}
