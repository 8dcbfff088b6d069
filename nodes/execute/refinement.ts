/**
 * The refinement loop (seed 003's active optimisation, `Refinement` in tools/domain.ts): in a refinement step the
 * code lists the candidates (`Refinement.list`; the model may list again) and the model chooses, round after round;
 * the code — not the model — ends the step when a listing
 * has nothing left to choose (what is left is forced), when `stagnantRounds` listings in a row gained less than
 * `minGain`, or after `maxRounds` listings. The loop's state (`Optimization`) is checkpointed and shown in
 * ExecutionState. While refining, the step is limited to the domain's whitelisted packs.
 */
import type { Optimization, PlanStep, TempoState } from "../../kernel/state.js";
import {
  isRefinementStep,
  packOfTool,
  type CandidateListing,
  type Refinement,
  type ToolDomain,
} from "../../tools/domain.js";

/** The domain's refinement when the current step is its refinement step, else undefined. */
export function refinementOf(
  state: Pick<TempoState, "planSteps" | "currentStepId">,
  domain: Pick<ToolDomain, "refinement">,
): Refinement | undefined {
  const step: PlanStep | undefined = state.planSteps.find((candidate) => candidate.id === state.currentStepId);
  return step && isRefinementStep(domain, step.content) ? domain.refinement : undefined;
}

/** Why `tool` may not run in a refinement step (its pack is not whitelisted), or undefined when it may. */
export function outsideWhitelist(domain: ToolDomain, refinement: Refinement, tool: string): string | undefined {
  const pack = packOfTool(domain, tool);
  if (!pack || refinement.packs.includes(pack.name)) return undefined;
  return `Error: while refining, only the tools of ${refinement.packs.join(", ")} are offered: list candidates and choose one (choose_candidate) instead of calling ${tool}. Nothing was changed.`;
}

/** The loop after one more listing in step `stepId`: counts, scores and the verdict (`running` while it goes on). */
export function afterListing(
  previous: Optimization | null,
  stepId: string | null,
  listing: CandidateListing,
  refinement: Refinement,
): Optimization {
  const score = listing.score ?? previous?.bestScore ?? 0;
  const fresh = !previous || previous.stepId !== stepId;
  const rounds = fresh ? 1 : previous.rounds + 1;
  const startScore = fresh ? score : previous.startScore;
  const gained = !fresh && score >= previous.bestScore + refinement.minGain;
  const bestScore = fresh ? score : Math.max(previous.bestScore, score);
  const stagnantRounds = fresh || gained ? 0 : previous.stagnantRounds + 1;
  const verdict =
    listing.candidates.length === 0
      ? "forced"
      : stagnantRounds >= refinement.stagnantRounds
        ? "stagnant"
        : rounds >= refinement.maxRounds
          ? "budget"
          : "running";
  return {
    stepId,
    rounds,
    startScore,
    bestScore,
    stagnantRounds,
    verdict,
    ...(listing.forced ? { forced: listing.forced } : {}),
  };
}

/** The step's summary once the loop ended: what it gained and why it stopped (what is forced, named by id). */
export function refinementSummary(optimization: Optimization, refinement: Refinement): string {
  const why = {
    running: "",
    forced: "no change raises the score any more",
    stagnant: `no gain of ${refinement.minGain} or more in ${refinement.stagnantRounds} rounds in a row`,
    budget: `the budget of ${refinement.maxRounds} rounds is spent`,
  }[optimization.verdict];
  const forced = optimization.forced ? `; forced, no change can fix: ${optimization.forced}` : "";
  // Nothing gained (a week already as good as single changes make it): said as such, not as a refinement.
  if (optimization.bestScore <= optimization.startScore)
    return `nothing to refine: health score ${optimization.startScore}; stopped: ${why}${forced}`;
  return `refined in ${optimization.rounds} round(s): health score ${optimization.startScore} → ${optimization.bestScore}; stopped: ${why}${forced}`;
}
