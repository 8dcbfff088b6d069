/**
 * The answer to a plan card, read into what the confirm node does with it:
 *
 *   approve → go | edit → go with the edited plan (validated here; confirm revises it through the plan's diff)
 *   reject with feedback → revise | reject without, or a dismissal ("no", "cancel", "取消") → drop the task
 */
import { PLAN_STEPS_FIELD } from "../contracts/cards.js";
import { PlanStepDraftSchema, readPlanStepsText } from "../contracts/plan.js";
import type { PlanStep } from "../kernel/state.js";
import { isShortDismissal, namedKeys, rejectResume } from "./human-response.js";
import { parseTextValues, type AnswerVerdict } from "./resume.js";

/** What a plan card's answer asks for. */
export type PlanVerdict =
  { kind: "go"; editedPlan?: PlanStep[] } | { kind: "drop" } | { kind: "revise"; feedback: string };

/** Reads the answer to the plan card; an edit must carry a valid plan (else InvalidResumeError, the card stays). */
export function readPlanAnswer([answer]: AnswerVerdict[]): PlanVerdict {
  if (answer?.verdict === "go")
    return answer.args === undefined ? { kind: "go" } : { kind: "go", editedPlan: editedPlan(answer.args) };
  const feedback = answer?.verdict === "decline" ? answer.feedback : answer?.verdict === "reply" ? answer.text : "";
  return feedback === "" || isShortDismissal(feedback) ? { kind: "drop" } : { kind: "revise", feedback };
}

/**
 * The plan from an edit: its `steps` text (one step a line, what the card's edit box shows), or a `plan_steps` list
 * of {content, done_when} (or that list's JSON text), validated.
 */
function editedPlan(edited: Record<string, unknown>): PlanStep[] {
  // A key the plan does not take would be dropped without a word: refused, named, and the card stays open.
  const unknown = Object.keys(edited).filter((key) => key !== PLAN_STEPS_FIELD && key !== "plan_steps");
  if (unknown.length > 0) {
    rejectResume(
      `An "edit" of the plan takes only its steps (args.args.${PLAN_STEPS_FIELD}, or plan_steps): ${namedKeys(unknown)} ${unknown.length === 1 ? "is" : "are"} not part of the plan; nothing was changed.`,
      { expected: ["edit"] },
    );
  }
  const text = edited[PLAN_STEPS_FIELD];
  const listed = parseTextValues(edited).plan_steps;
  const drafts =
    typeof text === "string" && listed === undefined
      ? readPlanStepsText(text)
      : listed !== undefined
        ? PlanStepDraftSchema.array().min(1).safeParse(listed).data
        : undefined;
  if (!drafts) {
    rejectResume(
      `An "edit" of the plan needs its steps: args.args.${PLAN_STEPS_FIELD} as text, one step a line ("1. what to do — done when: how to tell"), or args.args.plan_steps: a non-empty list of {content, done_when}.`,
      { expected: ["edit"] },
    );
  }
  return drafts.map((step, index) => ({
    id: `step-${index + 1}`,
    content: step.content,
    doneWhen: step.done_when,
    status: "pending",
  }));
}
