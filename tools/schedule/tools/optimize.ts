/**
 * The optimisation tools (seed 003: the backend decides, the model chooses): `analyze_health` judges the week,
 * `propose_arrangement` and `propose_candidates` list changes the backend generated and scored, which the model
 * picks by id with `choose_candidate` — instead of searching the week itself. All three only read.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { DEFAULT_CANDIDATES, formatListing, MAX_CANDIDATES, proposeArrangement, proposeCandidates, type ScheduleListing } from "../candidates.js";
import { analyzeHealth, formatHealth, type HealthReport } from "../health.js";
import type { ScheduleState } from "../state.js";

/** Judges the week: its score out of 100, its metrics, and the issues behind the lost points. */
export const analyzeHealthTool: DomainTool<ScheduleState, Record<string, never>> = {
  name: "analyze_health",
  description:
    "Judges the week: a health score out of 100, the rhythm (review slots per day, how evenly they spread, back-to-back reviews), the tightness " +
    "(reviews with no break around them, single free slots), the fit to preferences, and feasibility (pending reviews that fit, and those proved not to), " +
    "with the issues behind the lost points. Call it before refining.",
  schema: z.object({}),
  kind: "read",
  run(state) {
    const report: HealthReport = analyzeHealth(state);
    return { ok: true, content: formatHealth(report), data: report };
  },
};

/** One proposal placing as many pending reviews as fit, found by the exact-when-possible search. */
export const proposeArrangementTool: DomainTool<ScheduleState, Record<string, never>> = {
  name: "propose_arrangement",
  description:
    "Proposes where every pending review goes: the placement search places the most that fit, on the quietest days first (proved optimal when the pending set is small). " +
    "Nothing is applied: choose it with choose_candidate {\"id\": \"a1\"} and its placements go to the user's card. The easy way to arrange a week.",
  schema: z.object({}),
  kind: "read",
  proposes: true,
  run(state) {
    const listing: ScheduleListing = proposeArrangement(state);
    return { ok: true, content: formatListing(listing), data: listing };
  },
};

/** The top k single changes (move, swap, place) that raise the health score, each with its score delta. */
export const proposeCandidatesTool: DomainTool<ScheduleState, { k: number }> = {
  name: "propose_candidates",
  description:
    "Lists the best single changes to the week — a review moved, two reviews swapped, a pending review placed — each scored by the health judge on the changed week, " +
    "best first, with its score delta. Nothing is applied: choose one with choose_candidate {\"id\": \"c1\"} (or \"none\"). An empty list means no single change helps.",
  schema: z.object({ k: z.number().int().min(1).max(MAX_CANDIDATES).default(DEFAULT_CANDIDATES).describe(`How many candidates to list (1-${MAX_CANDIDATES}, default ${DEFAULT_CANDIDATES}).`) }),
  kind: "read",
  proposes: true,
  run(state, args) {
    const listing: ScheduleListing = proposeCandidates(state, { k: args.k });
    return { ok: true, content: formatListing(listing), data: listing };
  },
};
