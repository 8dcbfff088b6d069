/**
 * What an offline policy answers with: the stage rules a domain gives (`answerStage` dispatches a prompt to them),
 * and builders of the execute decisions (the execute stage's JSON contract).
 */
import type { PromptView } from "./prompt-reading.js";
import { NOT_CARRIED_OUT_SUMMARY } from "../kernel/plan-step.js";

/** An execute decision, as the contract reads it. */
export type Decision = Record<string, unknown>;

/** How a step ends: `next_plan` with steps left, `done` on the last one. */
export type Finish = "next_plan" | "done";

/** A tool call of a decision. */
export interface Call {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * How a proposal ends its step once the user approves every write unchanged and each applies (the contract's
 * `then`): with `goalCheck` as the step's summary and, for `done`, `answer` as the final answer. Anything else
 * (a rejection, an edit, a failed write) brings the decision back to the policy.
 */
export interface Then {
  action: Finish;
  goalCheck: string;
  answer?: string;
}

function thenFields(then: Then | undefined): Decision {
  if (!then) return {};
  return {
    then: then.action,
    goal_check: then.goalCheck,
    ...(then.action === "done" && then.answer ? { answer: then.answer } : {}),
  };
}

/** A read tool call. */
export function read(speak: string, name: string, args: Record<string, unknown>, reason: string): Decision {
  return { speak, action: "continue", reason, tool_call: { name, arguments: args } };
}

/** Several read (or memory) tool calls at once: run in order, in one round. */
export function readAll(speak: string, calls: Call[], reason: string): Decision {
  return calls.length === 1
    ? read(speak, calls[0]!.name, calls[0]!.arguments, reason)
    : { speak, action: "continue", reason, tool_calls: calls };
}

/** A write for the user to confirm (ending the step with `then` once it applies unchanged). */
export function propose(
  speak: string,
  name: string,
  args: Record<string, unknown>,
  reason: string,
  then?: Then,
): Decision {
  return { speak, action: "confirm", reason, ...thenFields(then), tool_call: { name, arguments: args } };
}

/**
 * Several writes for the user to confirm on one batch card, decided one by one (memory calls among them run at
 * once); with `then`, the step ends once every write applies unchanged.
 */
export function proposeAll(speak: string, calls: Call[], reason: string, then?: Then): Decision {
  return { speak, action: "confirm", reason, ...thenFields(then), tool_calls: calls };
}

/**
 * A step's end without doing what it asks (nothing matched, nothing fitted): the summary later steps see, and why —
 * the decision's `not_carried_out`, which the task's report reads (never the summary's words).
 */
export interface NotCarriedOut {
  summary: string;
  reason: string;
}

/** A step not carried out because of `reason`; its summary "not carried out: <reason>" unless the domain words it. */
export function notCarriedOutEnd(reason: string, summary = NOT_CARRIED_OUT_SUMMARY + reason): NotCarriedOut {
  return { summary, reason };
}

/**
 * The end of the step, with what was found or done as its summary — or, given a `NotCarriedOut`, the step ended
 * without doing it, and why; with `done`, `answer` is the final answer.
 */
export function finish(
  action: Finish,
  speak: string,
  goalCheck: string | NotCarriedOut,
  reason = "the step's condition is met",
  answer = "",
): Decision {
  const ended =
    typeof goalCheck === "string"
      ? { goal_check: goalCheck }
      : { goal_check: goalCheck.summary, not_carried_out: goalCheck.reason };
  return { speak, action, reason, ...ended, ...(action === "done" && answer ? { answer } : {}) };
}

/** A domain's answer to each stage's prompt: the stage contract's JSON object, or (deliver) the final answer's text. */
export interface StageRules {
  chat(view: PromptView): Decision;
  plan(view: PromptView): Decision;
  execute(view: PromptView): Decision;
  deliver(view: PromptView): string;
}

/** The answer `rules` give the prompt `view`, by its stage (`plan_deep` as `plan`); a stage they do not cover goes on unchanged. */
export function answerStage(view: PromptView, rules: StageRules): string {
  switch (view.stage) {
    case "chat":
      return JSON.stringify(rules.chat(view));
    case "plan":
    case "plan_deep":
      return JSON.stringify(rules.plan(view));
    case "execute":
      return JSON.stringify(rules.execute(view));
    case "deliver":
      return rules.deliver(view);
    default:
      return JSON.stringify({
        speak: "",
        action: "continue",
        reason: `the offline policy has no rule for stage "${view.stage}"`,
      });
  }
}
