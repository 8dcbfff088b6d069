/**
 * What the chat says once a write card is answered with edits or rejections (docs/design.md#one-write-path): the
 * proposal's message is rewritten, under its own id, to say what will apply — each edit as edited, each write left
 * out, and how many apply as proposed — and deliver names the same decisions in the final answer, read back from
 * those proposals. Both are in the user's language (English or Chinese); either language's lines are read back.
 */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { Language } from "../../contracts/language.js";
import { messageText } from "../../contracts/message-text.js";

/** The line heads, by language. */
const WORDS = {
  en: { edited: "Applying your edit: ", leftOut: "Left out at your request: ", end: "." },
  zh: { edited: "按你的修改执行：", leftOut: "按你的要求不执行：", end: "。" },
} as const;

/** The proposal's new text after its card's answer: the edits, the writes left out (with feedback), the rest. */
export function answeredProposalText(edited: readonly string[], leftOut: ReadonlyArray<{ summary: string; feedback: string }>, asProposed: number, language: Language = "en"): string {
  const words = WORDS[language];
  const said = (feedback: string) => (feedback ? (language === "zh" ? `（你说：“${feedback}”）` : ` (you said: “${feedback}”)`) : "");
  const lines = [...edited.map((text) => `${words.edited}${text}${words.end}`), ...leftOut.map(({ summary, feedback }) => `${words.leftOut}${summary}${said(feedback)}${words.end}`)];
  if (asProposed > 0) {
    lines.push(language === "zh" ? `${asProposed === 1 ? "另一项修改" : `其余 ${asProposed} 项修改`}按提议执行。` : `Applying ${asProposed === 1 ? "the other change" : `the other ${asProposed} changes`} as proposed.`);
  }
  return lines.join("\n");
}

/** The card decisions a task's proposals record: what was applied as edited and what was left out, in order. */
export function cardDecisions(messages: readonly BaseMessage[]): { edited: string[]; leftOut: string[] } {
  const edited: string[] = [];
  const leftOut: string[] = [];
  for (const message of messages) {
    if (message.getType() !== "ai" || ((message as AIMessage).tool_calls ?? []).length === 0) continue;
    for (const line of messageText(message).split("\n")) {
      for (const words of Object.values(WORDS)) {
        const body = (head: string) => line.slice(head.length).replace(/[.。]$/, "");
        if (line.startsWith(words.edited)) edited.push(body(words.edited));
        if (line.startsWith(words.leftOut)) leftOut.push(body(words.leftOut));
      }
    }
  }
  return { edited, leftOut };
}

/** The final answer's line naming the card decisions, or "" when the user approved everything as proposed. */
export function decisionsLine({ edited, leftOut }: { edited: string[]; leftOut: string[] }, language: Language = "en"): string {
  if (language === "zh") {
    const parts = [...(edited.length > 0 ? [`按你的修改执行 — ${edited.join("；")}`] : []), ...(leftOut.length > 0 ? [`按你的要求不执行 — ${leftOut.join("；")}`] : [])];
    return parts.length === 0 ? "" : `你在卡片上的决定：${parts.join("；")}。`;
  }
  const parts = [...(edited.length > 0 ? [`applied with your edit — ${edited.join("; ")}`] : []), ...(leftOut.length > 0 ? [`left out at your request — ${leftOut.join("; ")}`] : [])];
  return parts.length === 0 ? "" : `Your decisions on the cards: ${parts.join("; ")}.`;
}
