/**
 * The backend decides, the model chooses (seed 003): candidates the backend generates and scores, for the model to
 * pick from by id instead of searching the week itself.
 *
 * - `proposeArrangement`: the exact-when-possible placement search places what is pending — one proposal of
 *   `place` writes, the most reviews that fit, on the quietest days first;
 * - `proposeCandidates`: single changes scanned from the current week — each placed review moved to every slot it
 *   fits, each pair of reviews of one length swapped, each pending review placed — each scored by re-running the
 *   health judge on the changed week; the top k that raise the score, best first.
 *
 * A candidate is the real tool calls it stands for (`writes`), applied through the batch card like any write; its
 * score is what the judge gives the week once they apply. Nothing here changes the week.
 */
import { describeScheduleCall } from "./describe-call.js";
import { analyzeHealth, type HealthPreferences } from "./health.js";
import { searchPlacements, type SearchRun } from "./placement-search.js";
import { buildOccupancyIndex } from "./occupancy-index.js";
import type { ScheduleState, TaskItem } from "./state.js";
import { findFreeRuns } from "./tools/find-free.js";
import { moveTool } from "./tools/move.js";
import { placeTool } from "./tools/place.js";
import { swapTool } from "./tools/swap.js";
import { unplaceTool } from "./tools/unplace.js";
import type { CandidateListing, ProposedCandidate } from "../domain.js";

/** A change smaller than this is no gain (the loop's ε). */
export const MIN_GAIN = 0.05;

/** Candidates `propose_candidates` lists by default, and at most. */
export const DEFAULT_CANDIDATES = 5;
export const MAX_CANDIDATES = 10;

/** A candidate of the schedule: its writes, what it does in words, and the score it leaves. */
export interface ScheduleCandidate extends ProposedCandidate {
  kind: "arrangement" | "move" | "swap" | "place";
  /** The health score once its writes apply. */
  scoreAfter: number;
  /** `scoreAfter` minus the current score. */
  delta: number;
}

/** What `propose_*` gives as data: the listing `choose_candidate` picks from. */
export interface ScheduleListing extends CandidateListing {
  candidates: ScheduleCandidate[];
  /** The week's score now. */
  scoreBefore: number;
  /** Why the list is empty, when it is. */
  empty?: string;
}

type Write = { name: string; arguments: Record<string, unknown> };

/** The week after `writes`, applied in order with the real tools, or undefined when one of them fails. */
export function applyWrites(state: ScheduleState, writes: readonly Write[]): ScheduleState | undefined {
  const tools = { place: placeTool, move: moveTool, swap: swapTool, unplace: unplaceTool } as const;
  let current = state;
  for (const write of writes) {
    const tool = tools[write.name as keyof typeof tools];
    if (!tool) return undefined;
    const ran = (tool.run as (state: ScheduleState, args: unknown) => { ok: boolean; state?: ScheduleState })(current, write.arguments);
    if (!ran.ok || !ran.state) return undefined;
    current = ran.state;
  }
  return current;
}

/** The free runs of the week, as the placement search takes them. */
function searchRuns(state: ScheduleState): SearchRun[] {
  const days = Array.from({ length: state.window.totalDays }, (_, offset) => offset + 1);
  return findFreeRuns(buildOccupancyIndex(state), days, 1, state.window.slotsPerDay, 1, true).map((run) => ({ ...run.range, ...(run.hostId ? { hostId: run.hostId } : {}) }));
}

/** Review slots per day. */
function dayLoad(state: ScheduleState): Map<number, number> {
  const load = new Map<number, number>();
  for (const task of state.tasks) if (task.source === "task_item" && task.status === "placed") for (const range of task.slots ?? []) load.set(range.day, (load.get(range.day) ?? 0) + range.end - range.start + 1);
  return load;
}

/** One proposal that places as many pending reviews as fit (none when nothing is pending or nothing fits). */
export function proposeArrangement(state: ScheduleState, preferences: HealthPreferences = {}): ScheduleListing {
  const scoreBefore = analyzeHealth(state, preferences).score;
  const pending = state.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "pending");
  if (pending.length === 0) return { candidates: [], scoreBefore, empty: "no review task is pending" };
  const avoid = new Set(preferences.avoidDays ?? []);
  const search = searchPlacements(
    pending.map((task) => ({ id: task.id, duration: task.duration, ...(avoid.size > 0 ? { notDays: avoid } : {}) })),
    searchRuns(state),
    { dayLoad: dayLoad(state) },
  );
  if (search.placements.length === 0) return { candidates: [], scoreBefore, empty: "no pending review fits into the free time" };
  const writes = search.placements.map((placement) => ({ name: "place", arguments: { task_id: placement.id, day: placement.day, slot_start: placement.start } }));
  const after = applyWrites(state, writes);
  if (!after) return { candidates: [], scoreBefore, empty: "the search's placements do not apply (a bug: please report it)" };
  const scoreAfter = analyzeHealth(after, preferences).score;
  const left = pending.length - writes.length;
  const summary = `place ${writes.length} of ${pending.length} pending review(s)${left > 0 ? `; ${left} cannot fit${search.exact ? " (proved)" : ""}` : ""}`;
  return { candidates: [{ id: "a1", kind: "arrangement", writes, summary, scoreAfter, delta: round(scoreAfter - scoreBefore) }], scoreBefore };
}

/** The top `k` single changes that raise the week's score, best first (ties: moves before swaps, then by id). */
export function proposeCandidates(state: ScheduleState, options: { k?: number; preferences?: HealthPreferences } = {}): ScheduleListing {
  const preferences = options.preferences ?? {};
  const k = Math.min(MAX_CANDIDATES, Math.max(1, options.k ?? DEFAULT_CANDIDATES));
  const scoreBefore = analyzeHealth(state, preferences).score;
  const scored: Array<Omit<ScheduleCandidate, "id">> = [];
  const consider = (kind: ScheduleCandidate["kind"], writes: Write[]) => {
    const after = applyWrites(state, writes);
    if (!after) return;
    const scoreAfter = analyzeHealth(after, preferences).score;
    const delta = round(scoreAfter - scoreBefore);
    if (delta < MIN_GAIN) return;
    const summary = writes.map((write) => describeScheduleCall(state, write.name, write.arguments) ?? `${write.name} ${JSON.stringify(write.arguments)}`).join("; ");
    scored.push({ kind, writes, summary, scoreAfter, delta });
  };
  const reviews = state.tasks.filter((task): task is TaskItem => task.source === "task_item");
  const placed = reviews.filter((task) => task.status === "placed" && task.slots?.length === 1);
  for (const task of placed) {
    // Where it could go: the free runs of the week without it.
    const without = unplaceTool.run(state, { task_id: task.id });
    if (!without.ok || !without.state) continue;
    const current = task.slots![0]!;
    for (const run of searchRuns(without.state)) {
      for (let start = run.start; start + task.duration - 1 <= run.end; start += 1) {
        if (run.day === current.day && start === current.start) continue;
        consider("move", [{ name: "move", arguments: { task_id: task.id, day: run.day, slot_start: start } }]);
      }
    }
  }
  for (let first = 0; first < placed.length; first += 1) {
    for (let second = first + 1; second < placed.length; second += 1) {
      if (placed[first]!.duration !== placed[second]!.duration || placed[first]!.slots![0]!.day === placed[second]!.slots![0]!.day) continue;
      consider("swap", [{ name: "swap", arguments: { first_task_id: placed[first]!.id, second_task_id: placed[second]!.id } }]);
    }
  }
  const runs = searchRuns(state);
  for (const task of reviews.filter((candidate) => candidate.status === "pending")) {
    for (const run of runs) for (let start = run.start; start + task.duration - 1 <= run.end; start += 1) consider("place", [{ name: "place", arguments: { task_id: task.id, day: run.day, slot_start: start } }]);
  }
  const order: Record<ScheduleCandidate["kind"], number> = { arrangement: 0, place: 1, move: 2, swap: 3 };
  scored.sort((a, b) => b.delta - a.delta || order[a.kind] - order[b.kind] || a.summary.localeCompare(b.summary));
  // One candidate per task (its best), so the list offers different changes rather than one task's many slots.
  const seen = new Set<string>();
  const distinct = scored.filter((candidate) => {
    const key = candidate.writes.map((write) => String(write.arguments.task_id ?? `${String(write.arguments.first_task_id)}+${String(write.arguments.second_task_id)}`)).join(",");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const candidates = distinct.slice(0, k).map((candidate, index) => ({ id: `c${index + 1}`, ...candidate }));
  return candidates.length > 0 ? { candidates, scoreBefore } : { candidates, scoreBefore, empty: "no single move, swap or placement raises the score" };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A listing as the model reads it: the score now, then one line a candidate. */
export function formatListing(listing: ScheduleListing): string {
  const head = `health score now ${listing.scoreBefore}/100`;
  if (listing.candidates.length === 0) return `${head}\nno candidates: ${listing.empty ?? "nothing to propose"}`;
  const lines = listing.candidates.map((candidate) => `- ${candidate.id} (${candidate.delta >= 0 ? "+" : ""}${candidate.delta} → ${candidate.scoreAfter}): ${candidate.summary}`);
  return [head, `candidates (choose one with choose_candidate {"id": "<id>"}, or "none"):`, ...lines].join("\n");
}
