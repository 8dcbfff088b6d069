/**
 * The offline policy's refinement step (seed 003: the backend decides, the model chooses): list the backend's
 * candidates, choose the top one — its writes go to the card as they are — and list again once it applied. The
 * code ends the step when the loop stops (nothing left to choose, no gain, the budget: nodes/execute/refinement.ts);
 * the policy finishes it itself only when the user declined the change it chose, or a listing came back empty.
 */
import { say, type Language } from "../../../contracts/language.js";
import { finish, read, type Decision, type Finish } from "../../offline/decisions.js";
import { section, type PromptView, type RoundView } from "../../offline/prompt-reading.js";
import { arrangeLimits } from "./arrange-step.js";
import type { ScheduleListing } from "../candidates.js";
import { isRefinementStep } from "../../domain.js";
import { SCHEDULE_REFINEMENT } from "../domain.js";
import { callResultOf } from "./tool-data.js";

/** True for the text of the schedule's refinement step. */
export function isRefineStep(content: string): boolean {
  return isRefinementStep({ refinement: SCHEDULE_REFINEMENT }, content);
}

/** The listing of a whole propose_candidates round, as data. */
function listingOf(round: RoundView): ScheduleListing | undefined {
  const data = round.data as Partial<ScheduleListing> | undefined;
  return round.name === "propose_candidates" && !round.summarised && data && Array.isArray(data.candidates) && typeof data.score === "number" ? (data as ScheduleListing) : undefined;
}

/** The refinement step's next decision. */
export function refineStep(view: PromptView, end: Finish, language: Language): Decision {
  const rounds = view.rounds.filter((round) => !round.summarised);
  const lastWrite = rounds.findLastIndex((round) => round.name !== "propose_candidates" && round.name !== "choose_candidate" && round.name !== "analyze_health");
  const write = lastWrite === -1 ? undefined : rounds[lastWrite]!;
  if (write && callResultOf(write) === "rejected") {
    return finish(end, say(language, "Understood: the week stays as it is.", "好的，这一周保持现状。"), "not carried out: you declined the refinement; the week stays as arranged", "the user declined the change");
  }
  const listing = rounds.slice(lastWrite + 1).map(listingOf).findLast((found) => found !== undefined);
  if (!listing) {
    // What the user turned down while arranging stays turned down: those places, days and tasks are off limits.
    const avoid = arrangeLimits(section(view.context, "scratchpad"));
    // Refining moves what is placed; what the arrangement left pending stays pending (the user's choice, or no room).
    return read(say(language, "Looking for changes that make the week better.", "正在寻找能让这一周更合理的调整。"), "propose_candidates", { k: 3, place_pending: false, ...(avoid.length > 0 ? { avoid } : {}) }, "the step chooses among the backend's candidates");
  }
  const best = listing.candidates[0];
  if (!best) return finish(end, "", `refined: health score ${listing.score}; ${listing.empty ?? "no change raises it"}`, "nothing left to choose");
  const speak = say(language, `This raises the week's health score from ${listing.score} to ${best.scoreAfter}: ${best.summary}.`, `这项调整把这一周的健康分从 ${listing.score} 提高到 ${best.scoreAfter}。`);
  return { speak, action: "confirm", reason: `the backend's best candidate (+${best.delta})`, tool_call: { name: "choose_candidate", arguments: { id: best.id } } };
}
