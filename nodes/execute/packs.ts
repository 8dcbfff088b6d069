/**
 * Tool packs in a step (seed 003): which of the domain's packs the execute model is offered, and the two tools it
 * changes them with — `context_tools_add` / `context_tools_remove`, which run at once (no card: they change only
 * what the agent sees). A step starts with the domain's default packs; the active set is state (`activePacks`,
 * checkpointed), read afresh on every visit; a saved thread naming packs that no longer exist falls back to the
 * defaults. A call to a tool of a pack not active brings that pack in (`withPackOf`).
 */
import { z } from "zod";
import type { TempoState } from "../../kernel/state.js";
import { defaultPacks, offeredToolNames, packOfTool, packsOf, type ToolDomain } from "../../tools/domain.js";
import type { MemoryTool } from "./memory-tools.js";
import { refinementOf } from "./refinement.js";

/**
 * The packs active in the current step: those the step's calls left; else those its plan step names (the ones the
 * domain has); else the domain's defaults for the plan's kind (an arranging run mode, or another change).
 */
export function activePacksIn(
  state: Pick<TempoState, "activePacks" | "currentStepId" | "planSteps"> & Partial<Pick<TempoState, "runMode">>,
  domain: ToolDomain,
): string[] {
  // The packs a step may have: the domain's, or in a refinement step its whitelist (those the domain has).
  const known = packsOf(domain).map((pack) => pack.name);
  const refinement = refinementOf(state, domain);
  const usable = new Set(refinement ? refinement.packs.filter((name) => known.includes(name)) : known);
  const keep = (names: readonly string[]) => [...new Set(names.filter((name) => usable.has(name)))];
  const saved = state.activePacks?.stepId === state.currentStepId ? keep(state.activePacks.packs) : [];
  if (saved.length > 0) return saved;
  const named = keep(state.planSteps.find((step) => step.id === state.currentStepId)?.packs ?? []);
  if (named.length > 0) return named;
  const arranging = state.runMode === "first_full" || state.runMode === "global_reopt";
  const defaults = keep(defaultPacks(domain, { arranging }));
  return defaults.length > 0 || !refinement ? defaults : [...usable];
}

/** The packs of the domain as the model reads them: name, whether active, what for, and its tools. */
export function packList(domain: ToolDomain, active: readonly string[]): string {
  const lines = packsOf(domain).map(
    (pack) =>
      `- ${pack.name}${active.includes(pack.name) ? " (active)" : ""}: ${pack.description} — ${offeredToolNames(domain, pack).join(", ")}`,
  );
  return `<packs>\nTool packs; only the active ones' tools are offered. context_tools_add / context_tools_remove change them.\n${lines.join("\n")}\n</packs>`;
}

/** `active` with the pack of `tool` added (a call to a tool of a pack not active brings it in), or as it is. */
export function withPackOf(domain: ToolDomain, active: readonly string[], tool: string): string[] {
  const pack = packOfTool(domain, tool);
  return pack && !active.includes(pack.name) ? [...active, pack.name] : [...active];
}

const packsArgument = z.object({
  packs: z.array(z.string().min(1)).min(1).describe("Pack names (<packs>)."),
});

/** The tools that change the active packs (they read the domain's packs from their context). */
export const PACK_TOOLS: readonly MemoryTool[] = [
  {
    name: "context_tools_add",
    description: "Adds tool packs, offered from the next round on.",
    schema: packsArgument,
    run: (args, { state, domain }) =>
      changePacks(state, domain, args.packs as string[], (active, named) => [...new Set([...active, ...named])]),
  },
  {
    name: "context_tools_remove",
    description: "Drops tool packs.",
    schema: packsArgument,
    run: (args, { state, domain }) =>
      changePacks(state, domain, args.packs as string[], (active, named) =>
        active.filter((name) => !named.includes(name)),
      ),
  },
];

/** The step's active packs changed by `change` with the packs `named`; unknown names, or no pack left, change nothing. */
async function changePacks(
  state: TempoState,
  domain: ToolDomain,
  named: readonly string[],
  change: (active: string[], named: readonly string[]) => string[],
) {
  const unknown = unknownPacks(domain, named);
  if (unknown) return { content: unknown };
  const refinement = refinementOf(state, domain);
  const barred = refinement ? named.filter((name) => !refinement.packs.includes(name)) : [];
  if (refinement && barred.length > 0)
    return {
      content: `Error: while refining, only ${refinement.packs.join(", ")} may be active (not ${barred.join(", ")}); choose among the candidates. Nothing was changed.`,
    };
  const packs = change(activePacksIn(state, domain), named);
  if (packs.length === 0) return { content: "Error: at least one pack stays active; nothing was changed." };
  return {
    content: `active packs: ${packs.join(", ")}`,
    update: { activePacks: { stepId: state.currentStepId, packs } },
  };
}

/** An error text naming the packs the domain does not have, or undefined when it has them all. */
function unknownPacks(domain: ToolDomain, names: readonly string[]): string | undefined {
  const known = packsOf(domain).map((pack) => pack.name);
  const unknown = names.filter((name) => !known.includes(name));
  return unknown.length === 0
    ? undefined
    : `Error: no pack named ${unknown.map((name) => `"${name}"`).join(", ")}; the packs are: ${known.join(", ")}. Nothing was changed.`;
}
