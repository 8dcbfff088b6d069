/**
 * Step transitions (docs/design.md#step-snapshots): which plan steps became
 * running, done or failed between two versions of the plan. `stepSnapshots()`
 * compares each checkpoint of a thread's history with its parent this way;
 * the Tempo checkpointer also marks such checkpoints with
 * `metadata.tempo_step`, which retention keeps.
 */

/** Metadata key that marks a checkpoint written at a step transition. */
export const STEP_SNAPSHOT_METADATA_KEY = "tempo_step";

/**
 * What the checkpoint layer reads of a plan step (the graph's `PlanStep` has more): its id and status
 * (pending, running, done, failed, skipped).
 */
export interface StepRecord {
  id: string;
  status: string;
}

/** The statuses whose arrival is a step transition. */
export const TRANSITION_STATUSES: ReadonlySet<string> = new Set(["running", "done", "failed"]);

/** One step reaching a transition status. */
export interface StepTransition {
  stepId: string;
  status: string;
}

/**
 * The metadata value of a step-transition checkpoint: the transition it is named after (the last one in plan
 * order, so a "step 1 done, step 2 running" checkpoint is named after step 2 starting) and every transition in it.
 */
export interface StepSnapshotMarker extends StepTransition {
  transitions: StepTransition[];
}

/** The steps of `after` whose status became running, done or failed since `before` (plan order). */
export function stepTransitions(before: readonly StepRecord[], after: readonly StepRecord[]): StepTransition[] {
  const previous = new Map(before.map((step) => [step.id, step.status]));
  return after
    .filter((step) => TRANSITION_STATUSES.has(step.status) && previous.get(step.id) !== step.status)
    .map((step) => ({ stepId: step.id, status: step.status }));
}

/** The marker for a checkpoint whose plan went from `before` to `after`, or undefined when no step transitioned. */
export function stepSnapshotMarker(
  before: readonly StepRecord[],
  after: readonly StepRecord[],
): StepSnapshotMarker | undefined {
  const transitions = stepTransitions(before, after);
  const named = transitions.at(-1);
  return named ? { stepId: named.stepId, status: named.status, transitions } : undefined;
}

/** Reads a channel value as a plan (an array of steps with string ids and statuses); anything else is no plan. */
export function asPlanSteps<Step extends StepRecord = StepRecord>(value: unknown): Step[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (step): step is Step =>
      typeof step === "object" &&
      step !== null &&
      typeof (step as StepRecord).id === "string" &&
      typeof (step as StepRecord).status === "string",
  );
}
