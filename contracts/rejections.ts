/**
 * The words a rejected card leaves in the conversation, written by `nodes/confirm` and read back by whoever needs the
 * user's feedback (the offline policies, the standing-preference reader): one place for both, so a change of wording
 * cannot leave a reader behind.
 */

/** The user's note for a plan card turned down (with its feedback, when they gave one). */
export function planRejectionText(feedback: string): string {
  return feedback ? `I reject this plan. Feedback: ${feedback}` : "I reject this plan.";
}

/** The feedback a plan rejection note carries ("" without one), or undefined for any other text. */
export function planRejectionFeedback(text: string): string | undefined {
  const match = /^I reject this plan\.(?: Feedback: ([\s\S]*))?$/.exec(text.trim());
  return match ? (match[1] ?? "").trim() : undefined;
}

/** What the model reads for a write the user turned down. */
export function writeRejectionText(feedback: string): string {
  return feedback
    ? `Not applied: the user rejected this change. Their feedback: ${feedback}`
    : "Not applied: the user rejected this change without comment. Choose a different action.";
}

/** The feedback a rejected write's result carries ("" for a rejection without a comment). */
export function writeRejectionFeedback(result: string): string {
  return /Their feedback: ([\s\S]*)$/.exec(result)?.[1]?.trim() ?? "";
}
