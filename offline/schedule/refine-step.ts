/**
 * The offline policy's refinement step (seed 003: the backend decides, the model chooses): list the backend's
 * candidates, choose the top one — its writes go to the card as they are — and list again once it applied. The
 * code ends the step when the loop stops (nothing left to choose, no gain, the budget: nodes/execute/refinement.ts);
 * the policy finishes it itself only when the user declined the change it chose, or a listing came back empty.
 */
import { say, type Language } from "../../contracts/language.js";
import { finish, read, type Decision, type Finish } from "../decisions.js";
import { section, type PromptView } from "../prompt-reading.js";
import { arrangeLimits } from "./arrange-memory.js";
import { tasksOf, type AvoidedPlace } from "../../tools/schedule/candidate-writes.js";
import { isRefinementStep } from "../../tools/domain.js";
import { SCHEDULE_REFINEMENT } from "../../tools/schedule/domain.js";
import { callResultOf, toolDataOf, notCarriedOut } from "./tool-data.js";
import { SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";

/** True for the text of the schedule's refinement step. */
export function isRefineStep(content: string): boolean {
  return isRefinementStep({ refinement: SCHEDULE_REFINEMENT }, content);
}

/**
 * The refinement step's next decision. The code lists the candidates (at the step's start and after each change);
 * the policy chooses the best one that leaves alone every task the user turned something down for while arranging —
 * listing again itself with those limits (`avoid`) when every candidate touches one.
 */
export function refineStep(view: PromptView, end: Finish, language: Language): Decision {
  const rounds = view.rounds.filter((round) => !round.summarised);
  const lastWrite = rounds.findLastIndex(
    (round) => !["propose_candidates", "choose_candidate", "analyze_health"].includes(round.name),
  );
  const write = lastWrite === -1 ? undefined : rounds[lastWrite]!;
  if (write && callResultOf(write) === "rejected") {
    return finish(
      end,
      say(language, "Understood: the week stays as it is.", "好的，这一周保持现状。"),
      notCarriedOut(SUMMARY_WORDS.en.declinedRefinement),
      "the user declined the change",
    );
  }
  const limits = arrangeLimits(section(view.context, "scratchpad"));
  const limited = new Set(limits.map((limit) => limit.task_id));
  const listingRound = rounds
    .slice(lastWrite + 1)
    .findLast((round) => toolDataOf(round, "propose_candidates") !== undefined);
  const listing = toolDataOf(listingRound, "propose_candidates");
  // Listed with the step's limits: every one of them is among the listing's `avoid`.
  const listedAvoid = ((listingRound?.arguments.avoid as AvoidedPlace[] | undefined) ?? []).map((place) =>
    JSON.stringify(place),
  );
  const listedWithLimits =
    listingRound?.arguments.avoid !== undefined && limits.every((limit) => listedAvoid.includes(JSON.stringify(limit)));
  const best = listing?.candidates.find((candidate) => tasksOf(candidate.writes).every((id) => !limited.has(id)));
  if (!listing || (!best && listing.candidates.length > 0 && limits.length > 0 && !listedWithLimits)) {
    // What the user turned down while arranging stays turned down: those places, days and tasks are off limits.
    return read(
      say(language, "Looking for changes that keep to what you asked.", "正在寻找符合你要求的调整。"),
      "propose_candidates",
      // The code's listing's limits (what the user decided on the cards) stay; the step's own are added.
      {
        k: 3,
        place_pending: false,
        ...listingRound?.arguments,
        avoid: [...((listingRound?.arguments.avoid as AvoidedPlace[] | undefined) ?? []), ...limits],
      },
      "the step chooses among the backend's candidates",
    );
  }
  if (!best)
    return finish(
      end,
      "",
      `refined: health score ${listing.score}; ${listing.empty ?? "no change keeps to your limits"}`,
      "nothing left to choose",
    );
  const speak = say(
    language,
    `This raises the week's health score from ${listing.score} to ${best.scoreAfter}: ${best.summary}.`,
    `这项调整把这一周的健康分从 ${listing.score} 提高到 ${best.scoreAfter}。`,
  );
  return {
    speak,
    action: "confirm",
    reason: `the backend's best candidate (+${best.delta})`,
    tool_call: { name: "choose_candidate", arguments: { id: best.id } },
  };
}
