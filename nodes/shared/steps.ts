/** Plan-step helpers shared by the transitions and the stage prompts (docs/design.md#plan-steps). */
import { currentStep, type PlanStep, type TempoState } from "../../kernel/state.js";
import { renderPlan } from "../../prompts/plan-list.js";

/** The step-context block pinned for execute: the plan with status markers and the current step (docs/design.md#step-context). */
export function executionContext(plan: PlanStep[], current: PlanStep): string {
  const overview = renderPlan(plan, { marker: (step) => statusMarker(step, current) });
  return `Plan overview:\n${overview}\n\nCurrent step (${plan.indexOf(current) + 1} of ${plan.length}): ${current.content}\nDone when: ${current.doneWhen}`;
}

/**
 * The plan as execute pins it: the steps without their status, so the block stays byte-identical across the task's
 * execute calls (a prompt-cache prefix); the status and the current step are in {@link stepContext}, after the history.
 */
export function planOverview(plan: PlanStep[]): string {
  return `Plan overview:\n${renderPlan(plan, {})}`;
}

/** The step context execute sends after the history: each step's status by number, and the current step. */
export function stepContext(plan: PlanStep[], current: PlanStep): string {
  const progress = plan.map((step, index) => `${index + 1} ${statusMarker(step, current) || "pending"}`).join(" · ");
  return `Progress: ${progress}\nCurrent step (${plan.indexOf(current) + 1} of ${plan.length}): ${current.content}\nDone when: ${current.doneWhen}`;
}

function statusMarker(step: PlanStep, current: PlanStep): string {
  if (step.id === current.id) return ">> current";
  if (step.status === "done") return "✓ done";
  if (step.status === "failed") return "FAILED";
  if (step.status === "skipped") return "(skipped)";
  return "";
}

/** The blocks pinned into the plan prompt (docs/design.md#pinned-blocks), rendered from the plan: the plan, and the current step's context. */
export function pinnedBlocksOf(state: Pick<TempoState, "planSteps" | "currentStepId">): Record<string, string> {
  if (state.planSteps.length === 0) return {};
  const step = currentStep(state);
  return {
    plan: renderPlan(state.planSteps),
    ...(step ? { execution_context: executionContext(state.planSteps, step) } : {}),
  };
}

/** Index of the first step still pending after the current one, or -1. */
export function nextPendingIndex(plan: PlanStep[]): number {
  return plan.findIndex((step) => step.status === "pending");
}
