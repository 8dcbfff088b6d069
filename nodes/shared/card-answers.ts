/**
 * What the chat says once a write card is answered with edits or rejections (docs/design.md#one-write-path): the
 * proposal's message is rewritten, under its own id, to say what will apply — each edit as edited, each write left
 * out, and how many apply as proposed — and deliver names the same decisions in the final answer, read back from
 * those proposals. Both are in the user's language (English or Chinese); either language's lines are read back.
 */
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { callOutcomeOf, type CallOutcome } from "../../kernel/tool-results.js";
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

/** Where a rewritten proposal records which of its calls were edited or left out (`additional_kwargs`; never sent to a model server). */
export const CARD_ANSWERS_KEY = "tempo_card_answers";

/** One decided call: its id and how the chat named it (the edit as edited). */
export interface DecidedCall {
  callId: string;
  text: string;
}

interface CardAnswersRecord {
  edited: DecidedCall[];
  leftOut: DecidedCall[];
}

/** The record for a proposal rewritten after its card's answer: earlier cards' decisions on it, and these. */
export function cardAnswersRecord(proposal: AIMessage, edited: DecidedCall[], leftOut: DecidedCall[]): CardAnswersRecord {
  const earlier = recordOf(proposal);
  return { edited: [...(earlier?.edited ?? []), ...edited], leftOut: [...(earlier?.leftOut ?? []), ...leftOut] };
}

function recordOf(message: BaseMessage): CardAnswersRecord | undefined {
  const record = (message.additional_kwargs as Record<string, unknown> | undefined)?.[CARD_ANSWERS_KEY] as CardAnswersRecord | undefined;
  return record && Array.isArray(record.edited) && Array.isArray(record.leftOut) ? record : undefined;
}

/**
 * The card decisions a task's proposals record, in order: the edits that applied, the edits whose write then failed,
 * and the writes left out. An edit's outcome is its call's tool result; a proposal without the record (a thread
 * saved before it) is read from its text lines, its edits counted as applied.
 */
export function cardDecisions(messages: readonly BaseMessage[]): { edited: string[]; failed: string[]; leftOut: string[] } {
  const edited: string[] = [];
  const failed: string[] = [];
  const leftOut: string[] = [];
  const outcomes = new Map<string, CallOutcome | undefined>();
  for (const message of messages) {
    if (message.getType() === "tool") outcomes.set((message as ToolMessage).tool_call_id, callOutcomeOf(message));
  }
  for (const message of messages) {
    if (message.getType() !== "ai" || ((message as AIMessage).tool_calls ?? []).length === 0) continue;
    const record = recordOf(message);
    if (record) {
      for (const { callId, text } of record.edited) (outcomes.get(callId) === "failed" ? failed : edited).push(text);
      leftOut.push(...record.leftOut.map(({ text }) => text));
      continue;
    }
    for (const line of messageText(message).split("\n")) {
      for (const words of Object.values(WORDS)) {
        const body = (head: string) => line.slice(head.length).replace(/[.。]$/, "");
        if (line.startsWith(words.edited)) edited.push(body(words.edited));
        if (line.startsWith(words.leftOut)) leftOut.push(body(words.leftOut));
      }
    }
  }
  return { edited, failed, leftOut };
}

/** The final answer's line naming the card decisions, or "" when the user approved everything as proposed. */
export function decisionsLine({ edited, failed = [], leftOut }: { edited: string[]; failed?: string[]; leftOut: string[] }, language: Language = "en"): string {
  if (language === "zh") {
    const parts = [
      ...(edited.length > 0 ? [`按你的修改执行 — ${edited.join("；")}`] : []),
      ...(failed.length > 0 ? [`你的修改未能执行 — ${failed.join("；")}`] : []),
      ...(leftOut.length > 0 ? [`按你的要求不执行 — ${leftOut.join("；")}`] : []),
    ];
    return parts.length === 0 ? "" : `你在卡片上的决定：${parts.join("；")}。`;
  }
  const parts = [
    ...(edited.length > 0 ? [`applied with your edit — ${edited.join("; ")}`] : []),
    ...(failed.length > 0 ? [`your edit could not be applied — ${failed.join("; ")}`] : []),
    ...(leftOut.length > 0 ? [`left out at your request — ${leftOut.join("; ")}`] : []),
  ];
  return parts.length === 0 ? "" : `Your decisions on the cards: ${parts.join("; ")}.`;
}
