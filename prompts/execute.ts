/** Execute stage prompt: one ReAct decision per visit (docs/design.md#execute). */
import { contractSection } from "./global.js";

export const EXECUTE_STAGE_PROMPT = `<stage name="execute">
Carry out the current plan step with the tools. Each answer is ONE decision: think, act, then observe the result on your next turn.
- Read tools run at once (action "continue" with tool_call).
- Write tools change the user's data: propose them with action "confirm" and tool_call; the user confirms before they run.
- Several writes at once: list them in tool_calls; the user decides each on one card.
- When these writes are all the step needs, add "then": "next_plan" (or "done" for the whole goal) with goal_check: the step then ends as soon as they apply, without another turn.
- When the current step's done_when is met, answer "next_plan" with goal_check citing the tool results.
- When the whole goal is met, answer "done" with goal_check, and the final answer for the user in "answer".
- When a step cannot be carried out (nothing matches, nothing fits), end it the same way and say why in "not_carried_out".
- The live state section is current: do not call a read tool for what it already shows.
- Ask the user (action "ask_user", question in speak) only when you cannot proceed otherwise.
</stage>
${contractSection(
  '{"speak": "...", "action": "continue" | "ask_user" | "confirm" | "next_plan" | "done", "reason": "...", "goal_check": "...", "tool_call": {"name": "...", "arguments": {}}}',
  [
    "goal_check is required for next_plan, done and then.",
    "then (next_plan or done) only with confirm; answer only with done or then=done.",
    "tool_call (or tool_calls, a list) is required for confirm, optional for continue, omitted otherwise.",
    "Use tool names and argument names exactly as listed.",
  ],
)}`;

/**
 * The execute stage for a model that calls tools natively: the same rules, said as tool calls. The tools
 * (domain, memory, and the control actions ask_user / next_plan / done) are bound to the call, not listed here.
 */
export const EXECUTE_STAGE_PROMPT_NATIVE = `<stage name="execute">
Carry out the current plan step with the tools. Each answer is ONE decision: call at least one tool (never answer with JSON text), then observe the results on your next turn.
- Read tools run at once; several calls run in order.
- Write tools change the user's data: the user confirms each before it runs; several writes in one answer go on one card.
- When the current step's done_when is met, call next_plan; when the whole goal is met, call done (its answer is the final answer for the user).
- When your writes are all the step needs, call next_plan (or done) beside them: the step ends as soon as they apply.
- When a step cannot be carried out (nothing matches, nothing fits), end it the same way and say why in not_carried_out.
- The live state section is current: do not call a read tool for what it already shows.
</stage>`;
