/** The plan stage's contract (docs/design.md#stage-contracts). */
import { z } from "zod";

export const PlanStepDraftSchema = z.object({
  content: z.string().trim().min(1).describe("What this step does, in one imperative sentence."),
  done_when: z.string().trim().min(1).describe("An observable condition that tells the step is finished."),
  packs: z
    .array(z.string().trim().min(1))
    .optional()
    .describe("The tool packs the step needs, by name (the <packs> list); omit it for the default packs."),
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
    run_mode: z
      .enum(["first_full", "global_reopt", "local_adjust"])
      .optional()
      .describe(
        "What kind of change the plan makes to the domain's data: first_full arranges what is pending and refines after (a refinement step is added when the plan has none); global_reopt re-arranges what is already placed (through the refinement step); local_adjust is exactly the user's own move or swap. Omit it for a question.",
      ),
    read_only: z
      .boolean()
      .default(false)
      .describe(
        "True when every step only reads (the request is a question): a new read-only plan runs without a plan card; any write is still confirmed.",
      ),
    plan_steps: z
      .array(PlanStepDraftSchema)
      .default([])
      .describe("The ordered plan; required and non-empty when action=plan_done."),
  })
  .superRefine((decision, context) => {
    if (decision.action === "plan_done" && decision.plan_steps.length === 0) {
      context.addIssue({
        code: "custom",
        path: ["plan_steps"],
        message: "plan_steps must be non-empty when action is plan_done",
      });
    }
    if (decision.action === "ask_user" && decision.speak.trim() === "") {
      context.addIssue({
        code: "custom",
        path: ["speak"],
        message: "speak must hold the question when action is ask_user",
      });
    }
  })
  .describe("Decision of the plan stage");

export type PlanDecision = z.infer<typeof PlanDecisionSchema>;
export type PlanStepDraft = z.infer<typeof PlanStepDraftSchema>;

const DONE_WHEN_IN_BRACKETS = /^(.*?)\s*[(（]\s*(?:done when|完成标志|完成标准)\s*[:：]?\s*(.*?)\s*[)）]\s*$/iu;
const DONE_WHEN_AFTER = /^(.*?)\s*(?:[—–-]+\s*)?(?:done when|完成标志|完成标准)\s*[:：]?\s*(.*?)\s*$/iu;

/** A limit in brackets at the end of a line: "(not Friday)", "(only mornings)", "（不要周五）". */
const TRAILING_LIMIT = /\s*[(（]\s*(?:not|no|only|except|avoid|never|keep|不要|不|别|只|除了)[^()（）]*[)）]\s*$/iu;

/** The label between a step and its done-when condition in a plan written as text, per language (both are read back). */
const DONE_WHEN_LABEL = { en: "done when: ", zh: "完成标志：" } as const;

/**
 * A plan as text a person reads and edits in a card's form field: one step a line, "1. what to do — done when: how
 * to tell" (Agent Inbox and Agent Chat UI show a list argument as one line of JSON, a text argument as it is).
 */
export function planStepsText(steps: readonly PlanStepDraft[], language: "en" | "zh" = "en"): string {
  return steps
    .map((step, index) => `${index + 1}. ${step.content} — ${DONE_WHEN_LABEL[language]}${step.done_when}`)
    .join("\n");
}

/**
 * Reads a plan written as text back (the inverse of {@link planStepsText}): each non-empty line is a step, its
 * numbering ("1.", "2)", "3、", "-") dropped; "— done when: …" (or "(done when: …)", "完成标志：…") gives its
 * condition, and a line without one is done when the step itself is carried out. A JSON list of
 * {content, done_when} is read as such. Undefined when no step is left.
 */
export function readPlanStepsText(text: string): PlanStepDraft[] | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    try {
      const parsed = PlanStepDraftSchema.array().min(1).safeParse(JSON.parse(trimmed));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
  const steps = trimmed
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:\d+\s*[.)、．:：]|[-*•])\s*/u, "").trim())
    .filter((line) => line !== "")
    .map((line) => {
      // "… (done when: …)", or "… — done when: …" (the dash optional).
      const split = DONE_WHEN_IN_BRACKETS.exec(line) ?? DONE_WHEN_AFTER.exec(line);
      let content = (split?.[1] ?? line).trim();
      let doneWhen = (split?.[2] ?? "").trim();
      // A limit typed at the end of the line ("… — done when: …, (not Friday)") is about the step, not its check.
      const limit = TRAILING_LIMIT.exec(doneWhen);
      if (limit && limit.index > 0) {
        content = `${content} ${limit[0].trim()}`;
        doneWhen = doneWhen.slice(0, limit.index).replace(/[\s,，;；]+$/u, "");
      }
      const step = content || line;
      return { content: step, done_when: doneWhen || `"${step}" is carried out` };
    });
  return steps.length > 0 ? steps : undefined;
}

/** A step's text as plans are compared: trimmed, its spaces collapsed, in lower case. */
export function normalizeStepText(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}
