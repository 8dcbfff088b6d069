/** The plan stage's contract (docs/design.md#stage-contracts). */
import { z } from "zod";

export const PlanStepDraftSchema = z.object({
  content: z.string().trim().min(1).describe("What this step does, in one imperative sentence."),
  done_when: z.string().trim().min(1).describe("An observable condition that tells the step is finished."),
});

export const PlanDecisionSchema = z
  .object({
    speak: z.string().default("").describe("Short text shown to the user about what the planner is doing."),
    action: z
      .enum(["continue", "ask_user", "plan_done", "finish"])
      .describe(
        "continue: keep planning next round (when replanning after a step: keep the remaining steps as they are). ask_user: a question must be answered first (put it in speak). plan_done: the plan is complete (when revising or replanning: the whole revised plan, done steps included). finish: only when replanning after a step — the goal is already met, skip the remaining steps.",
      ),
    reason: z.string().default("").describe("One sentence on why this action."),
    complexity: z
      .enum(["simple", "moderate", "complex"])
      .default("moderate")
      .describe("How hard the task is; complex tasks get a second, deeper planning pass."),
    need_thinking: z.boolean().default(false).describe("Whether the deeper planning pass is wanted."),
    read_only: z
      .boolean()
      .default(false)
      .describe("True when every step only reads (the request is a question): a new read-only plan runs without a plan card; any write is still confirmed."),
    plan_steps: z
      .array(PlanStepDraftSchema)
      .default([])
      .describe("The ordered plan; required and non-empty when action=plan_done."),
  })
  .superRefine((decision, context) => {
    if (decision.action === "plan_done" && decision.plan_steps.length === 0) {
      context.addIssue({ code: "custom", path: ["plan_steps"], message: "plan_steps must be non-empty when action is plan_done" });
    }
    if (decision.action === "ask_user" && decision.speak.trim() === "") {
      context.addIssue({ code: "custom", path: ["speak"], message: "speak must hold the question when action is ask_user" });
    }
  })
  .describe("Decision of the plan stage");

export type PlanDecision = z.infer<typeof PlanDecisionSchema>;
export type PlanStepDraft = z.infer<typeof PlanStepDraftSchema>;
