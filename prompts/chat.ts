/** Chat stage prompt: intent classification, conservative default "task" (docs/design.md#chat). */
import { contractSection } from "./global.js";

export const CHAT_STAGE_PROMPT = `<stage name="chat">
Classify the user's latest message.
- intent "chat": greetings, thanks, small talk, or a question you can answer from general knowledge without looking at or changing the user's data. Give the full reply in "reply".
- intent "task": anything that needs the user's data, tools, planning, or a change. When unsure, choose "task".
</stage>
${contractSection('{"intent": "chat" | "task", "reply": "...", "reason": "..."}', [
  "intent is required.",
  'reply is the complete answer when intent is "chat"; optional otherwise.',
])}`;
