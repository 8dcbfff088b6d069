/**
 * What the terminal check-in (`cli/checkin.ts`) and the served one (`cli/checkin-served.ts`) share: the request they
 * send, what a check-in did, and the actions of the card it left waiting.
 */
/**
 * The check-in's request: what the offline policy and a model both read as "propose the missed reviews again, then
 * arrange what is left this week".
 */
export const CHECKIN_REQUEST = "reschedule my missed reviews, then arrange my reviews into free slots";

/** What a check-in did: its thread, its answer so far, and the card waiting there (its actions), if any. */
export interface CheckinOutcome {
  threadId: string;
  /** What the clock moved at the start of the check-in (the window rolled on), told before the card; absent when nothing moved. */
  movedOn?: string;
  said: string[];
  waiting: string[];
  /** True when another check-in of the day was still working on the thread when this one gave up reading it. */
  busy?: boolean;
  /** What the free time left is proved not to hold (a deadline, an exam), with the change that recovers the most; absent when nothing is. */
  atRisk?: string;
}

/** The actions of the cards waiting on a thread. */
export function waitingOn(state: {
  tasks?: ReadonlyArray<{ interrupts: ReadonlyArray<{ value?: unknown }> }>;
}): string[] {
  return (state.tasks ?? []).flatMap((task) =>
    task.interrupts.flatMap(
      (entry) =>
        (entry.value as { action_requests?: Array<{ name: string }> } | undefined)?.action_requests?.map(
          (request) => request.name,
        ) ?? [],
    ),
  );
}
