/**
 * `npx tsx bench/health.ts`: the backend decides, the model chooses (issue 29), against the model's free search, on
 * the same generated weeks. Three ways to arrange each week, each a sequence of model decisions made through the
 * real tools (one decision = one model call):
 *
 * - backend, best: propose_arrangement, choose a1; then propose_candidates and choose the top candidate until the
 *   list is empty (what the offline policy does);
 * - backend, random top 3: the same, choosing at random among the top three (a model that chooses loosely);
 * - free choice: for each pending review, in list order, find_free with its length and place it on the first free
 *   run it reads (a model searching the week itself, as the execute stage did before candidates); no refinement.
 *
 * Printed per week and on average: reviews placed against the most that fit (the placement search, proved when
 * `exact`), the final health score (`analyzeHealth`) and its ratio to the best path's, and model calls per review.
 * Exits non-zero when a backend path places fewer reviews than the search proves fit, or lowers the score.
 */
import { fileURLToPath } from "node:url";
import path from "node:path";
import { proposeArrangement } from "../tools/schedule/arrangement.js";
import { applyWrites } from "../tools/schedule/candidate-writes.js";
import { proposeCandidates } from "../tools/schedule/candidates.js";
import { analyzeHealth } from "../tools/schedule/health.js";
import { searchInputOf, searchPlacements } from "../tools/schedule/placement-search.js";
import { generateSchedule, type ScheduleState, type TaskItem } from "../tools/schedule/index.js";
import { buildOccupancyIndex } from "../tools/schedule/occupancy-index.js";
import { findFreeRuns } from "../tools/schedule/tools/find-free.js";
import { placeTool } from "../tools/schedule/tools/place.js";
import { withRules } from "../tools/schedule/rules.js";
import { oracle } from "../tests/support/schedule-oracle.js";
import { ruleWeek } from "../tests/support/rule-weeks.js";

/** How one path ended on one week. */
export interface PathResult {
  placed: number;
  score: number;
  calls: number;
  /** Scores after each change, in order (a backend path never lowers it). */
  scores: number[];
  /** The week it ended with. */
  week: ScheduleState;
}

const pendingOf = (week: ScheduleState) =>
  week.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "pending");
const placedOf = (week: ScheduleState) =>
  week.tasks.filter((task) => task.source === "task_item" && task.status === "placed").length;

/** The backend path: arrange by choosing a1, then refine by choosing `pick(count)` among the top three. */
export function backendPath(start: ScheduleState, pick: (count: number) => number): PathResult {
  let week = start;
  let calls = 1; // propose_arrangement
  const arrangement = proposeArrangement(week).candidates[0];
  if (arrangement) {
    week = applyWrites(week, arrangement.writes)!;
    calls += 1; // choose_candidate a1
  }
  const scores = [analyzeHealth(week).score];
  for (let round = 0; round < 20; round += 1) {
    const listing = proposeCandidates(week, { k: 3 });
    calls += 1; // propose_candidates
    if (listing.candidates.length === 0) break;
    week = applyWrites(week, listing.candidates[pick(listing.candidates.length)]!.writes)!;
    calls += 1; // choose_candidate
    scores.push(analyzeHealth(week).score);
  }
  return { placed: placedOf(week), score: scores.at(-1)!, calls, scores, week };
}

/** The free-choice path: per pending review, find_free with its length, then place it on the first run read. */
export function freeChoicePath(start: ScheduleState): PathResult {
  let week = start;
  let calls = 0;
  for (const task of pendingOf(start)) {
    const days = Array.from({ length: week.window.totalDays }, (_, offset) => offset + 1);
    const runs = findFreeRuns(buildOccupancyIndex(week), days, 1, week.window.slotsPerDay, task.duration, true);
    calls += 1; // find_free
    const first = runs[0];
    if (!first) continue;
    const placed = placeTool.run(week, { task_id: task.id, day: first.range.day, slot_start: first.range.start });
    calls += 1; // place
    if (placed.ok && placed.state) week = placed.state;
  }
  const score = analyzeHealth(week).score;
  return { placed: placedOf(week), score, calls, scores: [score], week };
}

/** The most pending reviews that fit under the rules (the placement search), and whether it proved it. */
export function mostThatFit(week: ScheduleState): { most: number; proved: boolean } {
  const { room, rules } = searchInputOf(week);
  const search = searchPlacements(
    pendingOf(week).map((task) => withRules({ id: task.id, duration: task.duration }, task, rules)),
    room,
  );
  return { most: search.placements.length, proved: search.exact };
}

/** A seeded generator of choices among the top three. */
export function seededPick(seed: number): (count: number) => number {
  let state = seed >>> 0 || 1;
  return (count) => {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    return state % count;
  };
}

/** The generated weeks: roomy ones (7 days of 12 slots, 18-30 tasks) and tight ones (3 days of 8 slots, 14-22 tasks), alternately. */
export function benchWeeks(count: number): ScheduleState[] {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0
      ? generateSchedule({ days: 7, slotsPerDay: 12, taskCount: 18 + (index % 13), seed: 1000 + index })
      : generateSchedule({ days: 3, slotsPerDay: 8, taskCount: 14 + (index % 9), seed: 2000 + index }),
  );
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

/** One rule-bearing week arranged by `propose_arrangement` (choose a1), against the oracle's maximum. */
export interface RuleWeekRow {
  pending: number;
  /** The most that fit under the rules (the brute-force oracle). */
  most: number;
  /** Placed by the arrangement's card. */
  placed: number;
  /** The card's placements by priority (high, normal, low), and the oracle's best such profile among the most. */
  profile: [number, number, number];
  bestProfile: [number, number, number];
  /** Reviews said to be proved not to fit (the summary's "(proved)", a forced issue after the card) that fit beside the placed. */
  falseProofs: number;
  /** True when the card's writes do not apply (a hard rule broken). */
  broken: boolean;
}

/** The rule-bearing week `seed` (tests/support/rule-weeks.ts) arranged and checked against the oracle. */
export function ruleWeekRow(seed: number): RuleWeekRow {
  const week = ruleWeek(seed);
  const answer = oracle(week);
  const listing = proposeArrangement(week);
  const card = listing.candidates[0];
  const after = card ? applyWrites(week, card.writes) : listing.empty?.includes("do not apply") ? undefined : week;
  const placedIds = (card?.places ?? []).map((place) => place.id);
  const priorityOf = new Map(pendingOf(week).map((task) => [task.id, task.priority ?? "normal"]));
  const profile: [number, number, number] = [0, 0, 0];
  for (const id of placedIds) {
    const priority = priorityOf.get(id);
    profile[priority === "high" ? 0 : priority === "low" ? 2 : 1] += 1;
  }
  const claimed = new Set<string>();
  if (card?.summary.includes("(proved)")) for (const id of answer.ids) if (!placedIds.includes(id)) claimed.add(id);
  if (after)
    for (const issue of analyzeHealth(after).issues)
      if (issue.kind === "cannot_fit" && issue.forced) for (const id of issue.tasks) claimed.add(id);
  const falseProofs = [...claimed].filter((id) => answer.fitsTogether([...placedIds, id])).length;
  return {
    pending: answer.ids.length,
    most: answer.most,
    placed: placedIds.length,
    profile,
    bestProfile: answer.profile,
    falseProofs,
    broken: after === undefined,
  };
}

/** The rule-bearing weeks' table: per week and in all, placed against the oracle's maximum; the failures counted. */
export function ruleWeekTable(seeds: readonly number[]): { lines: string[]; failures: number } {
  const lines = ["seed  pending  oracle max  placed  profile (h/n/l)  oracle's  false proofs  rules"];
  const totals = { pending: 0, most: 0, placed: 0, below: 0, profile: 0, falseProofs: 0, broken: 0 };
  for (const seed of seeds) {
    const row = ruleWeekRow(seed);
    const profileOff = row.profile.join("/") !== row.bestProfile.join("/");
    totals.pending += row.pending;
    totals.most += row.most;
    totals.placed += row.placed;
    totals.below += Number(row.placed < row.most);
    totals.profile += Number(profileOff);
    totals.falseProofs += row.falseProofs;
    totals.broken += Number(row.broken);
    if (row.placed < row.most || profileOff || row.falseProofs > 0 || row.broken)
      lines.push(
        `${String(seed).padStart(4)}  ${String(row.pending).padStart(7)}  ${String(row.most).padStart(10)}  ${String(row.placed).padStart(6)}  ${row.profile.join("/").padStart(15)}  ${row.bestProfile.join("/").padStart(8)}  ${String(row.falseProofs).padStart(12)}  ${row.broken ? "BROKEN" : "kept"}`,
      );
  }
  lines.push(
    `${seeds.length} rule-bearing weeks (only those off the oracle listed): placed ${totals.placed} of the oracle's maximum ${totals.most} (${totals.pending} pending); ${totals.below} week(s) below the maximum; ${totals.profile} with a worse priority profile; ${totals.falseProofs} review(s) called proved not to fit that fit; ${totals.broken} week(s) breaking a hard rule`,
  );
  return { lines, failures: totals.below + totals.profile + totals.falseProofs + totals.broken };
}

async function main(): Promise<void> {
  const rules = ruleWeekTable(Array.from({ length: 200 }, (_, index) => index + 1));
  console.log(
    "Rule-bearing weeks (≤ 7 days × 9 slots, ≤ 12 pending): propose_arrangement against the brute-force oracle\n",
  );
  for (const line of rules.lines) console.log(line);
  console.log("");
  if (rules.failures > 0) process.exitCode = 1;
  if (process.argv.includes("--rules")) return;
  const weeks = benchWeeks(24);
  const rows: string[] = [];
  const totals = {
    most: 0,
    best: { placed: 0, score: 0, calls: 0 },
    random: { placed: 0, score: 0, calls: 0 },
    free: { placed: 0, score: 0, calls: 0 },
    reviews: 0,
    worstRandom: 1,
  };
  let failures = 0;
  rows.push(
    "week  pending  most fit  | best: placed score calls | random top 3: placed score (ratio) calls | free choice: placed score (ratio) calls",
  );
  for (const [index, week] of weeks.entries()) {
    const pending = pendingOf(week).length;
    const { most, proved } = mostThatFit(week);
    const best = backendPath(week, () => 0);
    const random = backendPath(week, seededPick(index + 7));
    const free = freeChoicePath(week);
    const before = placedOf(week);
    for (const path of [best, random]) {
      if (proved && path.placed - before < most) failures += 1;
      if (path.scores.some((score, at) => at > 0 && score < path.scores[at - 1]!)) failures += 1;
    }
    totals.most += most;
    totals.reviews += pending;
    for (const [name, path] of [
      ["best", best],
      ["random", random],
      ["free", free],
    ] as const) {
      totals[name].placed += path.placed - before;
      totals[name].score += path.score;
      totals[name].calls += path.calls;
    }
    totals.worstRandom = Math.min(totals.worstRandom, random.score / best.score);
    rows.push(
      `${String(index + 1).padStart(4)}  ${String(pending).padStart(7)}  ${`${most}${proved ? "" : "?"}`.padStart(8)}  | ${String(best.placed - before).padStart(11)} ${fixed(best.score).padStart(5)} ${String(best.calls).padStart(5)} | ${String(random.placed - before).padStart(20)} ${fixed(random.score).padStart(5)} (${fixed((random.score / best.score) * 100)} %) ${String(random.calls).padStart(3)} | ${String(free.placed - before).padStart(19)} ${fixed(free.score).padStart(5)} (${fixed((free.score / best.score) * 100)} %) ${String(free.calls).padStart(3)}`,
    );
  }
  const n = weeks.length;
  console.log(
    `Health of ${n} generated weeks (roomy: 7 days × 12 slots, 18-30 tasks; tight: 3 days × 8 slots, 14-22 tasks, alternately): the backend's candidates against the model's free search\n`,
  );
  for (const row of rows) console.log(row);
  console.log("");
  console.log(`reviews pending in all: ${totals.reviews}; the most that fit (placement search): ${totals.most}`);
  const line = (name: string, total: { placed: number; score: number; calls: number }) =>
    `${name.padEnd(22)} placed ${String(total.placed).padStart(4)} of ${totals.most} (${fixed((total.placed / totals.most) * 100)} %); mean health ${fixed(total.score / n)} (${fixed((total.score / totals.best.score) * 100)} % of best); ${fixed(total.calls / totals.reviews, 2)} model calls per review`;
  console.log(line("backend, best", totals.best));
  console.log(line("backend, random top 3", totals.random));
  console.log(line("free choice", totals.free));
  console.log(`worst random-top-3 week: ${fixed(totals.worstRandom * 100)} % of the best path's score (goal ≥ 95 %)`);
  if (failures > 0 || totals.worstRandom < 0.95) {
    console.error(
      `\nFAILED: ${failures} path(s) placed fewer than the search proves fit or lowered the score; worst ratio ${fixed(totals.worstRandom * 100)} %.`,
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
