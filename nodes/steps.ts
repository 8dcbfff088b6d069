/** Plan-step helpers shared by the transitions and the execute prompt (seed 001's step lifecycle). */
import type { PlanStep } from "../graphs/state.js";

/** The step-context block pinned for execute: the plan with status markers and the current step (seed 001). */
export function executionContext(plan: PlanStep[], current: PlanStep): string {
  const overview = plan
    .map((step, index) => `${index + 1}. ${step.content} ${statusMarker(step, current)}`.trimEnd())
    .join("\n");
  return `Plan overview:\n${overview}\n\nCurrent step (${plan.indexOf(current) + 1} of ${plan.length}): ${current.content}\nDone when: ${current.doneWhen}`;
}

function statusMarker(step: PlanStep, current: PlanStep): string {
  if (step.id === current.id) return ">> current";
  if (step.status === "done") return "✓ done";
  if (step.status === "failed") return "FAILED";
  if (step.status === "skipped") return "(skipped)";
  return "";
}

/** Index of the first step still pending after the current one, or -1. */
export function nextPendingIndex(plan: PlanStep[]): number {
  return plan.findIndex((step) => step.status === "pending");
}
