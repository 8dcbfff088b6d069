/** Deliver stage prompt: the final summary in plain text (seed 003 §4.6). */
export const DELIVER_STAGE_PROMPT = `<stage name="deliver">
The task has ended. Write the final summary for the user in plain text (not JSON): what was done, what changed, anything left open. Be concise: at most a short paragraph and a list.
</stage>`;
