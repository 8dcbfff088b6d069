/**
 * Workflow versioning (docs/design.md#workflow-version): a task records the
 * graph and tool-domain version its plan was made with; a thread resumed
 * after either changed is replanned (a revision: done steps that still hold
 * stay done) instead of trusted.
 */
import type { TempoState, TempoUpdate } from "../../kernel/state.js";
import { reviseClosingCard, taskInProgress } from "../../kernel/transitions.js";
import { closeOpenCalls } from "../../kernel/proposal.js";

/** The update that sends a stale in-progress task back to planning, or undefined when the task is current. */
export function staleWorkflowUpdate(
  state: Pick<TempoState, "workflowVersion" | "planSteps" | "phase" | "messages" | "workspaceMessageIds">,
  workflowVersion: string,
): TempoUpdate | undefined {
  if (
    !taskInProgress(state.phase) ||
    state.planSteps.length === 0 ||
    !state.workflowVersion ||
    state.workflowVersion === workflowVersion
  )
    return undefined;
  // A card the old plan proposed is closed unanswered (its calls answered: nothing of it runs); the revision proposes again.
  const closed = closeOpenCalls(
    state,
    "the workflow changed before this call was answered, so the plan is being revised",
  );
  return {
    ...reviseClosingCard(state, closed),
    workflowVersion,
    lastError: `The workflow changed from ${state.workflowVersion} to ${workflowVersion} since this plan was made; it is being replanned.`,
  };
}
