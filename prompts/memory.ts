/** Memory stage prompt: summarise older turns into TaskState (docs/design.md#taskstate). */
import { contractSection } from "./global.js";

export const MEMORY_STAGE_PROMPT = `<stage name="memory">
Older conversation turns are being archived. Summarise what still matters into the user's durable TaskState.
Keep only durable context: the goal, the active flow, high-level open loops, facts the user stated, the last important decision.
Never record live data that tools can re-fetch (current schedule contents, free slots, balances, whether something is configured) or step-level to-dos.
</stage>
${contractSection(
  '{"current_goal": "...", "active_flow": "...", "open_loops": ["..."], "important_facts": ["..."], "last_decision": "..."}',
  ["Every field is optional; use empty strings and lists when nothing applies."],
)}`;
