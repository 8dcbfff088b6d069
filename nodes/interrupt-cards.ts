/**
 * The `HumanInterrupt` payloads Tempo raises (valid for LangChain's Agent
 * Inbox): the plan card, the write-tool card and the question.
 */
import type { HumanInterrupt } from "@langchain/langgraph/prebuilt";
import type { PendingTool, PlanStep } from "../graphs/state.js";

export const CONFIRM_PLAN_ACTION = "confirm_plan";
export const ASK_USER_ACTION = "ask_user";

/** Renders the plan as a numbered card. */
export function renderPlan(plan: PlanStep[]): string {
  return plan.map((step, index) => `${index + 1}. ${step.content} (done when: ${step.doneWhen})`).join("\n");
}

/** The plan confirmation card: accept, edit the steps, respond with feedback, or ignore. */
export function planInterrupt(goal: string, plan: PlanStep[]): HumanInterrupt {
  return {
    action_request: {
      action: CONFIRM_PLAN_ACTION,
      args: { goal, plan_steps: plan.map((step) => ({ content: step.content, done_when: step.doneWhen })) },
    },
    config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
    description: `Confirm this plan for: ${goal}\n\n${renderPlan(plan)}\n\nAccept to run it, edit the steps, reply with feedback to revise it, or ignore to drop it.`,
  };
}

/** The write-tool confirmation card. */
export function toolInterrupt(tool: PendingTool): HumanInterrupt {
  return {
    action_request: { action: tool.name, args: tool.arguments },
    config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
    description: `Confirm write: ${tool.summary}${tool.reason ? `\nWhy: ${tool.reason}` : ""}\n\nAccept to apply it, edit its arguments, reply with feedback to have another option chosen, or ignore to skip it.`,
  };
}

/** A question for the user; only a text response is allowed. */
export function questionInterrupt(question: string): HumanInterrupt {
  return {
    action_request: { action: ASK_USER_ACTION, args: { question } },
    config: { allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: false },
    description: question,
  };
}
