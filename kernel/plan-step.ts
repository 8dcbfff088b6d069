/** A step of the task's plan and its lifecycle: a file of its own so the channels and the state both read it. */
/** A plan step's lifecycle (docs/design.md#plan-steps): pending → running → done(summary) | failed; skipped when replanned away. */
export type StepStatus = "pending" | "running" | "done" | "failed" | "skipped";

/** A done step's end when it did not do what it asks (`PlanStep.outcome`). */
export interface StepOutcome {
  kind: "not_carried_out";
  reason: string;
}

export interface PlanStep {
  /** Stable id within the plan, e.g. "step-1". */
  id: string;
  /** What the step does. */
  content: string;
  /** Observable completion condition (the contract's done_when). */
  doneWhen: string;
  status: StepStatus;
  /** Written when the step finishes; the compressed context later steps see (docs/design.md#plan-steps). */
  summary?: string;
  /** Why the step failed (repeated tool errors, the round budget spent mid-step, the user declining what it needs). */
  reason?: string;
  /**
   * How a done step ended, when not as asked: `not_carried_out` — it ended without doing what it asks (nothing
   * matched, nothing fitted), with why (the execute decision's `not_carried_out`). Absent for a step carried out,
   * and on steps saved before it (their summary says "not carried out: …").
   */
  outcome?: StepOutcome;
  /** The tool packs the planner named for the step (it starts with them instead of the domain's defaults). */
  packs?: string[];
}

/** The summary a step not carried out is given by the offline policies, and old steps' summaries said: "not carried out: R". */
export const NOT_CARRIED_OUT_SUMMARY = "not carried out: ";

/** The reason of a summary "not carried out: R" (`NOT_CARRIED_OUT_SUMMARY`), or undefined for any other summary. */
export function notCarriedOutSummaryReason(summary: string | undefined): string | undefined {
  return summary?.startsWith(NOT_CARRIED_OUT_SUMMARY) ? summary.slice(NOT_CARRIED_OUT_SUMMARY.length) : undefined;
}

/**
 * A step's status as a person reads it: "not carried out" for a done step that ended without doing what it asks (its
 * `outcome`), else its status. Only shown (the plan list, the terminal); the step's `status` stays "done".
 */
export function shownStatus(step: Pick<PlanStep, "status" | "outcome">): string {
  return step.status === "done" && step.outcome?.kind === "not_carried_out" ? "not carried out" : step.status;
}

/**
 * A step's summary as shown beside its status: a step not carried out whose summary is the offline policy's "not
 * carried out: R" (R its outcome's reason) shows R alone, as the status says the rest; any other summary as it is.
 */
export function shownSummary(step: Pick<PlanStep, "summary" | "outcome">): string | undefined {
  const reason = notCarriedOutSummaryReason(step.summary);
  return step.outcome?.kind === "not_carried_out" && reason === step.outcome.reason ? reason : step.summary;
}

/** A step that was carried out: done, and not ended without doing what it asks. */
export function carriedOut(step: Pick<PlanStep, "status" | "outcome">): boolean {
  return shownStatus(step) === "done";
}
