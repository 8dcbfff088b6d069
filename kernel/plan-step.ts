/** A step of the task's plan and its lifecycle: a file of its own so the channels and the state both read it. */
/** A plan step's lifecycle (docs/design.md#plan-steps): pending → running → done(summary) | failed; skipped when replanned away. */
export type StepStatus = "pending" | "running" | "done" | "failed" | "skipped";

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
  /** The tool packs the planner named for the step (it starts with them instead of the domain's defaults). */
  packs?: string[];
}
