/** Plan stage prompts: quick assessment and the deep pass for complex tasks (docs/design.md#plan). */
import { contractSection } from "./global.js";

const PLAN_CONTRACT = contractSection(
  '{"speak": "...", "action": "continue" | "ask_user" | "plan_done", "reason": "...", "complexity": "simple" | "moderate" | "complex", "need_thinking": false, "read_only": false, "run_mode": "first_full" | "global_reopt" | "local_adjust", "plan_steps": [{"content": "...", "done_when": "..."}]}',
  [
    "plan_done: plan_steps is the complete ordered plan, each step with an observable done_when.",
    "ask_user: speak holds one precise question; only ask when the task cannot be planned without the answer.",
    "continue: you need another planning round (rare).",
    "read_only: true only when every step just reads (a question such as what is free or what is planned); such a plan runs without asking the user to confirm it.",
    "run_mode (omit for a question): first_full to arrange what is pending (a refinement step is added after it), global_reopt to improve what is already placed, local_adjust for exactly the user's own move or swap.",
    "Plan only what the tools can do; do not plan steps that need data you do not have.",
  ],
);

export const PLAN_STAGE_PROMPT = `<stage name="plan">
Turn the user's goal into a short, ordered plan the execute stage can carry out with the tools below.
Assess complexity honestly: simple (1–2 steps), moderate (3–5), complex (needs careful sequencing).
</stage>
${PLAN_CONTRACT}`;

export const PLAN_DEEP_STAGE_PROMPT = `<stage name="plan_deep">
The quick assessment found this task complex. Think it through and produce a detailed plan: each step small, verifiable, in the right order, with a precise done_when.
</stage>
${PLAN_CONTRACT}`;
