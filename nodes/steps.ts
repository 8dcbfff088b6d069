/** Plan-step transitions shared by confirm and execute (seed 001's step lifecycle). */
import { currentStep, type PlanStep, type TempoState, type TempoUpdate } from "../graphs/state.js";
import { renderPlan } from "./interrupt-cards.js";

/** The update that starts the step at `index` (or finishes the task when there is none). */
export function startStep(state: Pick<TempoState, "planSteps" | "pinnedBlocks">, index: number): TempoUpdate {
  const step = state.planSteps[index];
  if (!step) return { planSteps: state.planSteps, currentStepId: null, phase: "done", workspaceMessageIds: [] };
  const planSteps = state.planSteps.map((candidate, position) => (position === index ? { ...candidate, status: "running" as const } : candidate));
  return {
    planSteps,
    currentStepId: step.id,
    phase: "executing",
    workspaceMessageIds: [],
    consecutiveCorrections: 0,
    pinnedBlocks: { ...state.pinnedBlocks, execution_context: executionContext(planSteps, step) },
  };
}

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

/**
 * Continues execution at the first unfinished step of `planSteps` (or finishes when none is left).
 * Resuming the step that was already current keeps its workspace (its tool rounds and the feedback in them).
 */
export function resumeExecution(state: Pick<TempoState, "pinnedBlocks" | "currentStepId">, planSteps: PlanStep[]): TempoUpdate {
  const index = planSteps.findIndex((step) => step.status !== "done" && step.status !== "skipped");
  const step = planSteps[index];
  if (step && step.id === state.currentStepId) {
    const running = planSteps.map((candidate) => (candidate.id === step.id ? { ...candidate, status: "running" as const } : candidate));
    return { planSteps: running, currentStepId: step.id, phase: "executing", pinnedBlocks: { ...state.pinnedBlocks, execution_context: executionContext(running, step) } };
  }
  return startStep({ planSteps, pinnedBlocks: state.pinnedBlocks }, index);
}

/** The blocks pinned into the plan prompt (seed 003 §9.3), rendered from the plan: the plan, and the current step's context. */
export function pinnedBlocksOf(state: Pick<TempoState, "planSteps" | "currentStepId">): Record<string, string> {
  if (state.planSteps.length === 0) return {};
  const step = currentStep(state);
  return { plan: renderPlan(state.planSteps), ...(step ? { execution_context: executionContext(state.planSteps, step) } : {}) };
}

/** Index of the first step still pending after the current one, or -1. */
export function nextPendingIndex(plan: PlanStep[]): number {
  return plan.findIndex((step) => step.status === "pending");
}
