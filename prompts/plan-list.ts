/**
 * The one plan renderer: a plan as a numbered list, one step a line, for the prompts (the pinned plan block, the
 * step context, the planner's current plan), the plan card and the task report. Each caller picks what a line
 * shows; the numbering and the order of the parts are the same everywhere.
 */
import type { PlanStep } from "../kernel/state.js";
import { shownStatus, shownSummary } from "../kernel/plan-step.js";
import { stepStatusInChinese } from "../contracts/language.js";
import { sayReport, stopNoteIn } from "../contracts/report-words.js";

/** What each line of {@link renderPlan} shows besides "N. content". */
export interface PlanListOptions {
  /** The step's status before its content: "1. [done] …". */
  status?: boolean;
  /** The step's done-when condition: after the content "(done when: …)", or on a markdown line of its own (the card). */
  doneWhen?: "inline" | "markdown";
  /** " — summary" for a step that has one. */
  summary?: boolean;
  /** " — failed: reason" for a failed step with a reason. */
  failure?: boolean;
  /**
   * The words a person reads (the card's done-when label; the task report's statuses and failures): "en" unless the
   * user writes Chinese.
   */
  language?: "en" | "zh";
  /** A marker after the line (e.g. ">> current"); an empty marker leaves the line as it is. */
  marker?: (step: PlanStep) => string;
}

/** The plan as a numbered list; by default each step with its done-when condition (the plan pinned into later prompts). */
export function renderPlan(plan: readonly PlanStep[], options: PlanListOptions = { doneWhen: "inline" }): string {
  return plan.map((step, index) => planLine(step, index, options)).join("\n");
}

function planLine(step: PlanStep, index: number, options: PlanListOptions): string {
  const language = options.language ?? "en";
  const shown = shownStatus(step);
  const status = language === "zh" ? stepStatusInChinese(shown) : shown;
  let line = `${index + 1}. ${options.status ? `[${status}] ` : ""}${step.content}`;
  if (options.doneWhen === "inline") line += ` (done when: ${step.doneWhen})`;
  if (options.doneWhen === "markdown")
    line += language === "zh" ? `  \n   *完成标志*：${step.doneWhen}` : `  \n   *done when:* ${step.doneWhen}`;
  // A step not carried out says why; the offline policy's summary is that reason after "not carried out: " (as the
  // status says so already, it is not said twice).
  const summary = shownSummary(step);
  if (options.summary && summary) line += ` — ${summary}`;
  if (options.failure && step.status === "failed" && step.reason)
    line += sayReport(language, "failedStep", { reason: stopNoteIn(step.reason, language) });
  return options.marker ? `${line} ${options.marker(step)}`.trimEnd() : line;
}
