/**
 * What the chat says once a write card is answered with edits or rejections (docs/design.md#one-write-path): the
 * proposal's message is rewritten, under its own id, to say what will apply — each edit as edited, each write left
 * out, and how many apply as proposed — and deliver names the same decisions in the final answer, read back from
 * those proposals.
 */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import { messageText } from "../../contracts/message-text.js";

const EDITED = "Applying your edit: ";
const LEFT_OUT = "Left out at your request: ";

/** The proposal's new text after its card's answer: the edits, the writes left out (with feedback), the rest. */
export function answeredProposalText(edited: readonly string[], leftOut: ReadonlyArray<{ summary: string; feedback: string }>, asProposed: number): string {
  const lines = [
    ...edited.map((text) => `${EDITED}${text}.`),
    ...leftOut.map(({ summary, feedback }) => `${LEFT_OUT}${summary}${feedback ? ` (you said: “${feedback}”)` : ""}.`),
  ];
  if (asProposed > 0) lines.push(`Applying ${asProposed === 1 ? "the other change" : `the other ${asProposed} changes`} as proposed.`);
  return lines.join("\n");
}

/** The card decisions a task's proposals record: what was applied as edited and what was left out, in order. */
export function cardDecisions(messages: readonly BaseMessage[]): { edited: string[]; leftOut: string[] } {
  const edited: string[] = [];
  const leftOut: string[] = [];
  for (const message of messages) {
    if (message.getType() !== "ai" || ((message as AIMessage).tool_calls ?? []).length === 0) continue;
    for (const line of messageText(message).split("\n")) {
      if (line.startsWith(EDITED)) edited.push(line.slice(EDITED.length).replace(/\.$/, ""));
      if (line.startsWith(LEFT_OUT)) leftOut.push(line.slice(LEFT_OUT.length).replace(/\.$/, ""));
    }
  }
  return { edited, leftOut };
}

/** The final answer's line naming the card decisions, or "" when the user approved everything as proposed. */
export function decisionsLine({ edited, leftOut }: { edited: string[]; leftOut: string[] }): string {
  const parts = [...(edited.length > 0 ? [`applied with your edit — ${edited.join("; ")}`] : []), ...(leftOut.length > 0 ? [`left out at your request — ${leftOut.join("; ")}`] : [])];
  return parts.length === 0 ? "" : `Your decisions on the cards: ${parts.join("; ")}.`;
}
