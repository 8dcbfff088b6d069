/**
 * Plan revision (docs/design.md#plan-revision; feedback is processed like a
 * build cache): the revised plan is compared with the current one step by step
 * (content and done-when); the matching prefix keeps its status and summary;
 * every step from the first mismatch on is invalidated (pending, no summary);
 * execution resumes from the first step not done. A revision identical to
 * the current plan changes nothing.
 */
import { normalizeStepText, type PlanStepDraft } from "../../contracts/plan.js";
import type { PlanStep } from "../../kernel/state.js";

export interface PlanRevision {
  steps: PlanStep[];
  /** Index of the first invalidated step; steps.length when none was. */
  firstInvalid: number;
  /** False for a no-op revision. */
  changed: boolean;
}

/** Applies a revised list of steps to the current plan. `revision` makes the ids of new steps unique. */
export function revisePlan(current: PlanStep[], revised: PlanStepDraft[], revision: number): PlanRevision {
  const same = (step: PlanStep | undefined, draft: PlanStepDraft | undefined) =>
    step !== undefined &&
    draft !== undefined &&
    normalizeStepText(step.content) === normalizeStepText(draft.content) &&
    normalizeStepText(step.doneWhen) === normalizeStepText(draft.done_when);
  let firstInvalid = 0;
  while (firstInvalid < revised.length && same(current[firstInvalid], revised[firstInvalid])) firstInvalid += 1;
  const changed = firstInvalid < revised.length || revised.length !== current.length;
  if (!changed) return { steps: current, firstInvalid: current.length, changed: false };
  const kept = current.slice(0, firstInvalid);
  const invalidated = revised.slice(firstInvalid).map((draft, offset): PlanStep => ({
    id: revision > 0 ? `step-${firstInvalid + offset + 1}-r${revision}` : `step-${firstInvalid + offset + 1}`,
    content: draft.content.trim(),
    doneWhen: draft.done_when.trim(),
    status: "pending",
    ...(draft.packs && draft.packs.length > 0 ? { packs: draft.packs } : {}),
  }));
  return { steps: [...kept, ...invalidated], firstInvalid, changed: true };
}

/** True once any step has started. */
export function executionStarted(steps: PlanStep[]): boolean {
  return steps.some((step) => step.status !== "pending");
}

/** A step's identity for comparing plans: its content and done-when, normalised. */
export function normaliseStep(step: Pick<PlanStep, "content" | "doneWhen">): string {
  return `${normalizeStepText(step.content)} | ${normalizeStepText(step.doneWhen)}`;
}

/**
 * What the user changed by editing the plan card: steps they wrote (in the edited plan, not proposed)
 * and steps they removed (proposed, not in the edited plan), added to the edits of the task so far.
 */
export function recordEdits(
  proposed: PlanStep[],
  edited: PlanStep[],
  previous: { added: string[]; removed: string[] },
): { added: string[]; removed: string[] } {
  const proposedKeys = new Set(proposed.map(normaliseStep));
  const editedKeys = new Set(edited.map(normaliseStep));
  const added = [
    ...previous.added.filter((key) => editedKeys.has(key)),
    ...[...editedKeys].filter((key) => !proposedKeys.has(key)),
  ];
  const removed = [
    ...previous.removed.filter((key) => !editedKeys.has(key)),
    ...[...proposedKeys].filter((key) => !editedKeys.has(key)),
  ];
  return { added: [...new Set(added)], removed: [...new Set(removed)] };
}
