/**
 * How much of a sweep a run covers. The two slowest sweeps — the clock sweep (every request at every moment of ten
 * days) and the kill-point sweep (every save point with each of three follow-ups) — run a rotating share by default, so
 * that `npm test` stays well under twenty minutes on a two-core machine: every request still meets every time of day
 * and every kill point is still crashed, with the follow-ups taken in turn. `TEMPO_FULL_SWEEPS=1` runs all of each
 * (about six more minutes): before a release, or after a change to the clock, the saver or the run's resume.
 */
export const FULL_SWEEPS = process.env.TEMPO_FULL_SWEEPS === "1";

/** True when the item at `index` (a sum of the sweep's indices) is in a run's share of 1 in `share`. */
export function inShare(index: number, share: number): boolean {
  return FULL_SWEEPS || index % share === 0;
}
