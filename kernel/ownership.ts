/**
 * Thread ownership: a thread belongs to the user who started it (the owner recorded in its state, or the
 * `metadata.owner` the served API's auth handler stamps on the thread), and no other user may run it. The run
 * checks (`run-admission.ts`) refuse such a run before anything is written; the nodes that read or ask on the
 * user's behalf (recall, confirm, ask_user) check again, for state written around those checks.
 */
import { TempoError } from "../errors/index.js";

/** Refuses a run of `userId` on a thread `owner` (when known: a non-empty string) owns: THREAD_ACCESS_DENIED. */
export function assertThreadOwner(owner: unknown, userId: string): void {
  if (typeof owner === "string" && owner !== "" && owner !== userId) {
    throw new TempoError(
      "THREAD_ACCESS_DENIED",
      "This thread belongs to another user; use a thread of your own. Nothing was changed.",
      { userId },
    );
  }
}
