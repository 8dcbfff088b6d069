/**
 * The parts of a stage prompt every offline policy reads the same way, whatever its domain: the plan as the stage
 * state shows it, the feedback on a plan card, and the steps of a task as they ended (for the deliver stage).
 */
import { latestUserLine, section, type PromptView } from "./prompt-reading.js";
import { planRejectionFeedback } from "../contracts/rejections.js";
import { NOT_CARRIED_OUT_SUMMARY, notCarriedOutSummaryReason } from "../kernel/plan-step.js";

/** A plan step as the plan contract carries it. */
export interface StepDraft {
  content: string;
  done_when: string;
  /** The tool packs the step needs, when not the default ones. */
  packs?: string[];
}

/** A plan step as it ended: its status ("done", "failed", …), its text and its summary. */
export interface StepOutcome {
  status: string;
  content: string;
  summary: string;
}

/** The plan the stage state shows ("1. [pending] content (done when: …)"), or none. */
export function currentPlanSteps(stageState: string): StepDraft[] {
  const steps: StepDraft[] = [];
  for (const line of stageState.split("\n")) {
    const match = /^\d+\. \[\w+\] (.*) \(done when: (.*?)\)(?: — [\s\S]*)?$/.exec(line);
    if (match) steps.push({ content: match[1] ?? "", done_when: match[2] ?? "" });
  }
  return steps;
}

/** The feedback on the plan card: from the rejection note in the workspace, or the user's latest message. */
export function planCardFeedback(view: PromptView): string {
  for (const message of [...view.workspace].reverse()) {
    if (message.getType() !== "human") continue;
    const text = typeof message.content === "string" ? message.content : "";
    const feedback = planRejectionFeedback(text);
    if (feedback !== undefined) return feedback;
  }
  return latestUserLine(view).trim();
}

/** What the deliver stage's state says of the task: its outcome, its steps as they ended, the items left open and the note. */
export interface TaskAccount {
  outcome: string;
  steps: StepOutcome[];
  stillPending: string[];
  note?: string;
}

/** Reads the deliver stage's state (`<stage_state>`). */
export function readTaskAccount(view: PromptView): TaskAccount {
  const state = section(view.context, "stage_state");
  const note = /\nNote: ([\s\S]*)$/.exec(state)?.[1]?.trim();
  // The task's real outcome heads the stage state, and the items it left open follow its steps.
  const outcome = /^Outcome: (\w+)/m.exec(state)?.[1] ?? "completed";
  const stillPending = state.split("\n").filter((line) => line.startsWith("Still pending:"));
  const report = (note === undefined ? state : state.slice(0, state.indexOf("\nNote: ")))
    .split("\n")
    .filter((line) => !line.startsWith("Still pending:"))
    .join("\n");
  const steps = [...report.matchAll(/(?:^|\n)(\d+)\. \[(\w+(?: \w+)*)\] ([\s\S]*?)(?=\n\d+\. \[|$)/g)].map(
    ([, , status = "", rest = ""]) => {
      const split = rest.indexOf(" — ");
      const content = split === -1 ? rest : rest.slice(0, split);
      const summary = split === -1 ? "" : rest.slice(split + 3).trim();
      // A step not carried out (its status so shown, `shownStatus`) is a done step whose summary says why: as the
      // policy wrote it ("not carried out: <reason>"), which the list shows as the reason alone.
      if (status === "not carried out")
        return {
          status: "done",
          content,
          summary: notCarriedOutSummaryReason(summary) === undefined ? NOT_CARRIED_OUT_SUMMARY + summary : summary,
        };
      return { status, content, summary };
    },
  );
  return { outcome, steps, stillPending, ...(note === undefined ? {} : { note }) };
}
