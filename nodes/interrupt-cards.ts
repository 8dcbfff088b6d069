/**
 * The cards Tempo raises (contract: contracts/cards.ts): the plan card, the
 * write-tool card and the question, each in LangChain v1's HITL shape with
 * the legacy `HumanInterrupt` fields, and a markdown description a person
 * can read.
 */
import { ANSWER_FIELD, ASK_USER_ACTION, buildCard, CONFIRM_PLAN_ACTION, type Card, type DecisionType } from "../contracts/cards.js";
import type { PendingTool, PlanStep } from "../graphs/state.js";
import { renderPlan } from "../prompts/plan-list.js";

const CONFIRM_DECISIONS: readonly DecisionType[] = ["approve", "edit", "reject"];
const CONFIRM_CONFIG = { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true };

/** Where execution stands when a write is proposed: step `index` (from 1) of `total`. */
export interface StepPosition {
  index: number;
  total: number;
  content: string;
}

/** The plan confirmation card: approve, edit the steps, or reject (with feedback: revise it). */
export function planInterrupt(goal: string, plan: PlanStep[]): Card {
  const args = { plan_steps: plan.map((step) => ({ content: step.content, done_when: step.doneWhen })) };
  const description = [
    `**Plan for:** ${goal}`,
    renderPlan(plan, { doneWhen: "markdown" }),
    "Approve to run it, edit the steps, or reject with feedback to have it revised.",
  ].join("\n\n");
  return buildCard("confirm_plan", [{ name: CONFIRM_PLAN_ACTION, args, description, allowed: CONFIRM_DECISIONS }], {
    action_request: { action: CONFIRM_PLAN_ACTION, args },
    config: CONFIRM_CONFIG,
    description,
  });
}

/** The write-tool card: what the write does, why, and where the plan stands. */
export function toolInterrupt(tool: PendingTool, step: StepPosition | null = null, argsSchema?: Record<string, unknown>): Card {
  const lines = [`**${tool.summary}**`];
  if (tool.reason.trim()) lines.push(`**Why:** ${tool.reason.trim()}`);
  if (step) lines.push(`**Step ${step.index} of ${step.total}:** ${step.content}`);
  lines.push("Approve to apply it, edit its arguments, or reject it (with feedback, the plan is reviewed; without, another option is chosen).");
  const description = lines.join("\n\n");
  return buildCard("confirm_tool", [{ name: tool.name, args: tool.arguments, description, allowed: CONFIRM_DECISIONS, ...(argsSchema ? { argsSchema } : {}) }], {
    action_request: { action: tool.name, args: tool.arguments },
    config: CONFIRM_CONFIG,
    description,
  });
}

/** A question: answered with text (v1: an edit of its `answer` field; legacy: a response). */
export function questionInterrupt(question: string): Card {
  return buildCard("ask_user", [{ name: ASK_USER_ACTION, args: { [ANSWER_FIELD]: "" }, description: question, allowed: ["edit"] }], {
    action_request: { action: ASK_USER_ACTION, args: { question } },
    config: { allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: false },
    description: question,
  });
}
