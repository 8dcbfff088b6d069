/**
 * Long work in slices (issue 46, item 5): the arrangement's and the listing's searches are generators that pause
 * (`yield`) every few dozen changes scored. Run with `finish`, they run to the end at once (the tools' `run`, the
 * offline benches); run with `finishAsync`, they give the event loop back whenever a slice has taken `sliceMs`, so a
 * long arrangement never stalls the other runs of the process (their database pings, their streams, their timers)
 * for longer than a slice. The work, and what it gives, is the same either way.
 */

/** Work that pauses now and then, and gives a `T` at the end. */
export type Steps<T> = Generator<void, T, void>;

/** Milliseconds a slice of `finishAsync` runs before it gives the event loop back, unless told otherwise. */
export const DEFAULT_SLICE_MS = 10;

/** Runs `steps` to the end at once. */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Runs `steps` to the end in slices of about `sliceMs` (on `clock`, wall time by default: what a waiting event loop
 * sees), giving the event loop back between them (`setImmediate`: timers and I/O callbacks run first).
 */
export async function finishAsync<T>(
  steps: Steps<T>,
  { sliceMs = DEFAULT_SLICE_MS, clock = () => performance.now() }: { sliceMs?: number; clock?: () => number } = {},
): Promise<T> {
  let sliceEnd = clock() + sliceMs;
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (clock() < sliceEnd) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceEnd = clock() + sliceMs;
  }
}
