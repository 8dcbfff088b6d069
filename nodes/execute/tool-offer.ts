/**
 * What the execute stage offers (nodes/shared/tool-offer.ts says the shape): for a set of active packs, the domain's
 * tools of those packs, the agent's own tools and the control tools, bound to the execute model in native tool
 * calling or listed in the prompt under the JSON contract, with the head that says them. Built once per graph and
 * handed to the plan node too, whose request carries the same head.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import { CONTROL_TOOLS } from "../../contracts/execute.js";
import type { TempoState } from "../../kernel/state.js";
import { callsToolsNatively, modelFor } from "../../models/stage-models.js";
import { toolBrief } from "../../prompts/tool-brief.js";
import { toolsInPacks } from "../../tools/domain.js";
import { langChainTools } from "../../tools/langchain-tools.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import type { ToolOffer, ToolOffers } from "../shared/tool-offer.js";
import { AGENT_TOOLS } from "./calls.js";
import { CHOOSE_CANDIDATE_TOOL, offersCandidates } from "./candidates.js";
import { MEMORY_TOOLS, searchesMemory } from "./memory-tools.js";
import { activePacksIn, packList, PACK_TOOLS } from "./packs.js";

/** The stage rule that comes with the tools that list candidates (seed 003: the backend decides, the model chooses). */
const CHOOSING_RULE =
  "<choosing>\nTo change the data, prefer the backend's candidates to searching yourself: call a propose_* tool, then choose_candidate with the id of the best one for the user (its writes go to the card as they are). Write by hand only what no candidate offers.\n</choosing>";

/** The offers of a graph's nodes, one per set of active packs (and whether a store is there to search), built once. */
export function createToolOffers(dependencies: Pick<NodeDependencies, "domain" | "models">): ToolOffers {
  const { domain, models } = dependencies;
  const model = modelFor(models, "execute");
  // Native tool calling: the active packs' tools, the agent's own tools (memory, packs) and the control tools bound
  // to the model, from their zod schemas; otherwise the tools listed in the prompt and the JSON contract (the named
  // fallback).
  const native = callsToolsNatively(models, "execute");
  const offers = new Map<string, ToolOffer>();
  function offerFor(active: readonly string[], remembers: boolean): ToolOffer {
    const key = `${active.join("\n")}\n${remembers}`;
    let offer = offers.get(key);
    if (!offer) {
      const offered = { ...domain, tools: toolsInPacks(domain, active) };
      // The searches of long-term memory only where there is a store to search (without, they can only fail); the
      // pack tools and the pack list only where the domain has packs of its own (its one implicit pack is always
      // active: there is nothing to add or drop, as the planner's brief says none).
      const agentTools = AGENT_TOOLS.filter(
        (tool) => (remembers || !searchesMemory(tool)) && (domain.packs !== undefined || !PACK_TOOLS.includes(tool)),
      );
      // choose_candidate comes with the tools that list candidates, and so does the rule to prefer it.
      const choose = offersCandidates(offered) ? [CHOOSE_CANDIDATE_TOOL] : [];
      const packs = [domain.packs ? packList(domain, active) : "", choose.length > 0 ? CHOOSING_RULE : ""]
        .filter((part) => part !== "")
        .join("\n");
      if (native) {
        const tools = langChainTools(offered, [...agentTools, ...choose, ...CONTROL_TOOLS]);
        offer = {
          head: [`<tools domain="${domain.name}">\n${domain.description}\n</tools>`, packs].filter(Boolean).join("\n"),
          tools,
          bound: model.bindTools!(tools) as Runnable<BaseMessage[], BaseMessage>,
        };
      } else {
        const listed = [
          ...agentTools.map((tool) => ({ ...tool, kind: MEMORY_TOOLS.includes(tool) ? "memory" : "context" })),
          ...choose.map((tool) => ({ ...tool, kind: "choose" })),
        ];
        offer = { head: [toolBrief(offered, listed), packs].filter(Boolean).join("\n") };
      }
      offers.set(key, offer);
    }
    return offer;
  }
  return { offerFor, packsAfterPlanning: (state) => packsAfterPlanning(state, domain) };
}

/**
 * The packs the next execute call of a planning pass will most likely have, for the plan request's head: those of
 * the plan's next pending step (a replan between steps), else the domain's defaults for arranging (a new task: the
 * domain's main use). A task whose first step has other packs shares less of the head, never a wrong one.
 */
function packsAfterPlanning(state: TempoState, domain: NodeDependencies["domain"]): string[] {
  const next = state.planSteps.find((step) => step.status === "pending" || step.status === "running");
  if (next) return activePacksIn({ ...state, currentStepId: next.id, activePacks: null }, domain);
  return activePacksIn({ planSteps: [], currentStepId: null, activePacks: null, runMode: "first_full" }, domain);
}
