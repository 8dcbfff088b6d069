/**
 * What `propose_*` gives: candidates with their writes, words and scores, the listing `choose_candidate` picks from, the
 * budget a listing is searched within, and the listing as the model reads it (`formatListing`).
 */
import { describeScheduleCall } from "./describe-call.js";
import type { PlannedPlacement, SearchBudget } from "./placement-search.js";
import type { ScheduleState } from "./state.js";
import type { CandidateListing, ProposedCandidate } from "../domain.js";
import type { Write } from "./candidate-writes.js";

/** A change smaller than this is no gain (the loop's ε). */
export const MIN_GAIN = 0.05;

/** Candidates `propose_candidates` lists by default, and at most. */
export const DEFAULT_CANDIDATES = 5;
export const MAX_CANDIDATES = 10;

/** A candidate of the schedule: its writes, what it does in words, and the score it leaves. */
export interface ScheduleCandidate extends ProposedCandidate {
  kind: "arrangement" | "move" | "swap" | "place" | "chain";
  /** The health score once its writes apply. */
  scoreAfter: number;
  /** `scoreAfter` minus the current score. */
  delta: number;
  /** An arrangement's placements, where each task goes (day, first and last slot). */
  places?: PlannedPlacement[];
}

/** What `propose_*` gives as data: the listing `choose_candidate` picks from. */
export interface ScheduleListing extends CandidateListing {
  candidates: ScheduleCandidate[];
  /** The week's score now. */
  score: number;
  /** An arrangement's: placements that fit beyond its card, proposed once its writes apply and the week is listed again. */
  later?: number;
  /** An arrangement's: the pending tasks in scope it gives no place, each with why. */
  left?: Array<{ id: string; why: string }>;
  /** "budget" when a search or the polishing stopped at its budget: the best found so far, nothing claimed proved. */
  stop?: "budget";
  /** With `stop`, what stopped, when only the polishing did (the search's claims stand); `BUDGET_NOTE` without. */
  budgetNote?: string;
}

/**
 * What a listing may spend beyond the search's own budget: the single changes it scores (`stepLimit`, default
 * 200,000) and the search nodes those scorings take together (`scoringNodes`, default 2,000,000) — so the polishing
 * of a big week is bounded however many tasks it holds.
 */
export interface ChangeBudget extends SearchBudget {
  stepLimit?: number;
  scoringNodes?: number;
}

/** The writes as cards name them. */
export function summaryOf(state: ScheduleState, writes: readonly Write[]): string {
  return writes
    .map(
      (write) =>
        describeScheduleCall(state, write.name, write.arguments) ?? `${write.name} ${JSON.stringify(write.arguments)}`,
    )
    .join("; ");
}

export function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A listing as the model reads it: the score now, then one line a candidate. */
export function formatListing(listing: ScheduleListing): string {
  const head = `health score now ${listing.score}/100`;
  const forced = listing.forced ? `\nforced (no change can fix): ${listing.forced}` : "";
  const budget = listing.stop === "budget" ? `\n${listing.budgetNote ?? BUDGET_NOTE}` : "";
  const left = listing.left?.length
    ? `\nleft pending:\n${listing.left.map((entry) => `  - task ${entry.id}: ${entry.why}`).join("\n")}`
    : "";
  if (listing.candidates.length === 0)
    return `${head}\nno candidates: ${listing.empty ?? "nothing to propose"}${left}${forced}${budget}`;
  const lines = listing.candidates.flatMap((candidate) => [
    `- ${candidate.id} (${candidate.delta >= 0 ? "+" : ""}${candidate.delta} → ${candidate.scoreAfter}): ${candidate.summary}`,
    ...(candidate.places ?? []).map(
      (place) =>
        `  - task ${place.id} on day ${place.day} slots ${place.start}-${place.end}${place.hostId ? ` in host ${place.hostId}` : ""}`,
    ),
  ]);
  return (
    [head, `candidates (choose one with choose_candidate {"id": "<id>"}, or "none"):`, ...lines].join("\n") +
    left +
    forced +
    budget
  );
}

/** What a listing says when its search or polishing stopped at the budget. */
export const BUDGET_NOTE =
  "stopped at the search budget: the best found so far (what is left out: not found within the search budget)";

/** What an arrangement says when its search finished but polishing where the placements go stopped at the budget. */
export const POLISH_BUDGET_NOTE = "polishing stopped at the search budget: the places are the best found so far";
