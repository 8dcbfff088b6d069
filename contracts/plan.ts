/** The plan stage's contract (docs/design.md#stage-contracts). */
import { z } from "zod";
import { skipWhile, trimEdges } from "./edge-trim.js";

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

/** The label of a step's done-when condition, found anywhere in a line (a plain search: linear in the line). */
const DONE_WHEN_LABEL_TEXT = /done when|完成标志|完成标准/giu;

/** The words that open a limit in brackets at the end of a line: "(not Friday)", "(only mornings)", "（不要周五）". */
const LIMIT_WORD = /^(?:not|no|only|except|avoid|never|keep|不要|不|别|只|除了)/iu;

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
      const split = doneWhenSplit(line);
      let content = (split?.content ?? line).trim();
      let doneWhen = (split?.doneWhen ?? "").trim();
      // A limit typed at the end of the line ("… — done when: …, (not Friday)") is about the step, not its check.
      const limit = trailingLimitAt(doneWhen);
      if (limit > 0) {
        content = `${content} ${doneWhen.slice(limit).trim()}`;
        doneWhen = trimEdges(doneWhen.slice(0, limit), /[\s,，;；]/u, "end");
      }
      const step = content || line;
      return { content: step, done_when: doneWhen || `"${step}" is carried out` };
    });
  return steps.length > 0 ? steps : undefined;
}

/*
 * A line of a plan is read with plain searches and loops over its characters, not with regular expressions such as
 * `/^(.*?)\s*(?:[—–-]+\s*)?(?:done when)\s*[:：]?\s*(.*?)\s*$/`: their ambiguous runs backtrack in time quadratic
 * (or worse) in the line, and an edit of the plan card is a person's text up to the answer's limit — one line of
 * 30 000 spaces held the served process's event loop for half a minute.
 */

const SPACE = /\s/u;
const isSpace = (char: string | undefined) => char !== undefined && SPACE.test(char);
const OPENING = new Set(["(", "（"]);
const CLOSING = new Set([")", "）"]);

/**
 * A line's step and its done-when condition, split at the first label: "… (done when: …)" when a bracket opens right
 * before a label and the line ends with a closing bracket, else "… — done when: …" (the dash optional). Undefined
 * for a line without a label.
 */
function doneWhenSplit(line: string): { content: string; doneWhen: string } | undefined {
  const labels = [...line.matchAll(DONE_WHEN_LABEL_TEXT)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
  if (labels.length === 0) return undefined;
  const end = trimEdges(line, SPACE, "end").length;
  if (CLOSING.has(line[end - 1]!)) {
    // "… (done when: …)": the first label right after an opening bracket, before the closing one.
    for (const label of labels) {
      const bracket = skipSpaces(line, label.start, -1) - 1;
      if (label.end < end && OPENING.has(line[bracket]!)) {
        return { content: line.slice(0, bracket), doneWhen: conditionAfter(line, label.end, end - 1) };
      }
    }
  }
  // "… — done when: …": the first label, with the dash (and spaces) before it left out of the step.
  const label = labels[0]!;
  let before = skipSpaces(line, label.start, -1);
  const dashes = skipWhile(line, before, -1, (char) => char === "—" || char === "–" || char === "-");
  if (dashes < before) before = skipSpaces(line, dashes, -1);
  return { content: line.slice(0, before), doneWhen: conditionAfter(line, label.end, line.length) };
}

/** The condition after a label that ends at `from`, up to `to`: its colon and the spaces around it left out. */
function conditionAfter(line: string, from: number, to: number): string {
  let start = skipSpaces(line, from, 1);
  if (start < to && (line[start] === ":" || line[start] === "：")) start = skipSpaces(line, start + 1, 1);
  return start < to ? line.slice(start, to) : "";
}

/**
 * Where a limit in brackets at the end of `text` starts ("…, (not Friday)"), the spaces before its bracket included:
 * the last bracket of the text closes it, the one before opens it and is followed by a limit's word. -1 for none.
 */
function trailingLimitAt(text: string): number {
  const end = trimEdges(text, SPACE, "end").length;
  if (!CLOSING.has(text[end - 1]!)) return -1;
  const open = skipWhile(text, end - 1, -1, (char) => !OPENING.has(char) && !CLOSING.has(char)) - 1;
  if (!OPENING.has(text[open]!) || !LIMIT_WORD.test(text.slice(skipSpaces(text, open + 1, 1), end - 1))) return -1;
  return skipSpaces(text, open, -1);
}

/** The index past the spaces from `index` on (`step` 1), or of the first of the spaces before it (`step` -1). */
function skipSpaces(text: string, index: number, step: 1 | -1): number {
  return skipWhile(text, index, step, isSpace);
}

/** A step's text as plans are compared: trimmed, its spaces collapsed, in lower case. */
export function normalizeStepText(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}
