/**
 * Ending a step in execute: the step finished with its summary, then the task (done), the planner's review of the
 * rest (docs/design.md#replanning) or the next step.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { StepEnding, TempoState, TempoUpdate } from "../../kernel/state.js";
import { emitStatus } from "../../streaming/events.js";
import type { NodeDependencies } from "../shared/dependencies.js";
import { isSetback } from "../../kernel/tool-results.js";
import { nextPendingIndex } from "../shared/steps.js";
import { finishStep, finishTask, resumeExecution, sendToPlanner } from "../../kernel/transitions.js";
import type { WorkflowSettings } from "../../config/configuration.js";

/**
 * Ends the current step (next_plan) or the task (done) with `ending.goalCheck` as the step's summary (and
 * `ending.notCarriedOut` as why it was not carried out, when it says so). After a step
 * with steps left, the planner reviews the rest (docs/design.md#replanning) when `replanAfterStep` says so: "always",
 * or "when_needed" — only when the step met a setback (a write declined or failed, a tool error); otherwise the
 * next step starts without a planner call. A done's answer is kept as the task's closing words.
 */
export function endStep(
  state: TempoState,
  ending: StepEnding,
  stepMessages: BaseMessage[],
  dependencies: NodeDependencies,
  config: LangGraphRunnableConfig,
): TempoUpdate {
  const finished = finishStep(state, ending.goalCheck.trim(), ending.notCarriedOut);
  const planSteps = finished.planSteps;
  if (ending.action === "done") {
    // The goal is met: steps never started are skipped, not silently left pending.
    const skipped = planSteps.map((step) =>
      step.status === "pending" ? { ...step, status: "skipped" as const } : step,
    );
    return { ...finished, ...finishTask(state, skipped), closingWords: ending.answer.trim() || null };
  }
  const next = nextPendingIndex(planSteps);
  if (next !== -1) {
    const number = state.planSteps.findIndex((step) => step.id === state.currentStepId) + 1;
    emitStatus(config, "execute", state.messages, `Step ${number} done`, `第 ${number} 步完成`);
  }
  if (next !== -1 && replanNeeded(dependencies.settings.replanAfterStep, stepMessages)) {
    // docs/design.md#replanning: the planner reviews the remaining steps before the next one starts.
    return { ...finished, ...sendToPlanner(state, "replan") };
  }
  return { ...finished, ...resumeExecution({ ...state, planSteps, currentStepId: null }, planSteps) };
}

/** Whether the planner reviews the plan after a step whose rounds were `stepMessages`. */
function replanNeeded(mode: WorkflowSettings["replanAfterStep"], stepMessages: BaseMessage[]): boolean {
  if (mode === "always" || mode === "never") return mode === "always";
  return stepMessages.some(isSetback);
}
