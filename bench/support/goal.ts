/**
 * How a bench says it ran to the end, its figures true, but missed its goal: exit code 2. The runner
 * (bench/run-all.ts) still writes such a run's figures into docs/benchmarks.md, marked "goal not met", so the page
 * holds the figure as it is rather than an older, better one; any other non-zero code is a failed run, its block kept.
 */
export const GOAL_MISSED_EXIT_CODE = 2;

/** Marks this process's run as "goal not met", unless it already failed outright. */
export function goalMissed(): void {
  if (!process.exitCode) process.exitCode = GOAL_MISSED_EXIT_CODE;
}

/** How a bench run ended, from its exit code: `ok` when its figures are true (goal met or not), `goalMissed` apart. */
export function runEnding(exitCode: number | null, timedOut: boolean): { ok: boolean; goalMissed: boolean } {
  const goalMissed = !timedOut && exitCode === GOAL_MISSED_EXIT_CODE;
  return { ok: goalMissed || (!timedOut && exitCode === 0), goalMissed };
}
