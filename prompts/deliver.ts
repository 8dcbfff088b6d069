/** Deliver stage prompt: the final summary in plain text (docs/design.md#deliver), told as it really ended. */
export const DELIVER_STAGE_PROMPT = `<stage name="deliver">
The task has ended. Write the final summary for the user in plain text (not JSON): what was done, what changed, anything left open. Be concise: at most a short paragraph and a list.
Tell the outcome given in the stage state as it is: never say the task is complete or all done unless the outcome is "completed"; otherwise say what was left and why, and name every item listed as still pending.
</stage>`;
