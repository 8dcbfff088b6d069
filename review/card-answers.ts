/**
 * What the chat says once a write card is answered with edits or rejections (docs/design.md#one-write-path): the
 * proposal's message is rewritten, under its own id, to say what will apply — each edit as edited, each write left
 * out, and how many apply as proposed — and deliver names the same decisions in the final answer, read back from
 * those proposals. Both are in the user's language (English or Chinese); either language's lines are read back.
 */
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { callOutcomeOf, type CallOutcome } from "../kernel/tool-results.js";
import { say, type Language } from "../contracts/language.js";
import { messageText } from "../contracts/message-text.js";

/** The chat's and the final answer's own words, by language. */
const WORDS = {
  en: {
    edited: "Applying your edit: ",
    leftOut: "Left out at your request: ",
    end: ".",
    join: "; ",
    decisions: "Your decisions on the cards: ",
    decided: {
      edited: "applied with your edit — ",
      failed: "your edit could not be applied — ",
      leftOut: "left out at your request — ",
    },
  },
  zh: {
    edited: "按你的修改执行：",
    leftOut: "按你的要求不执行：",
    end: "。",
    join: "；",
    decisions: "你在卡片上的决定：",
    decided: { edited: "按你的修改执行 — ", failed: "你的修改未能执行 — ", leftOut: "按你的要求不执行 — " },
  },
} as const;

/** The proposal's new text after its card's answer: the edits, the writes left out (with feedback), the rest. */
export function answeredProposalText(
  edited: readonly string[],
  leftOut: ReadonlyArray<{ summary: string; feedback: string }>,
  asProposed: number,
  language: Language = "en",
): string {
  const words = WORDS[language];
  const said = (feedback: string) =>
    feedback ? say(language, ` (you said: “${feedback}”)`, `（你说：“${feedback}”）`) : "";
  const lines = [
    ...edited.map((text) => `${words.edited}${text}${words.end}`),
    ...leftOut.map(({ summary, feedback }) => `${words.leftOut}${summary}${said(feedback)}${words.end}`),
  ];
  if (asProposed === 1) lines.push(say(language, "Applying the other change as proposed.", "另一项修改按提议执行。"));
  if (asProposed > 1)
    lines.push(
      say(language, `Applying the other ${asProposed} changes as proposed.`, `其余 ${asProposed} 项修改按提议执行。`),
    );
  return lines.join("\n");
}

/** Where a rewritten proposal records which of its calls were edited or left out (`additional_kwargs`; never sent to a model server). */
const CARD_ANSWERS_KEY = "tempo_card_answers";

/** One decided call: its id and how the chat named it (the edit as edited). */
export interface DecidedCall {
  callId: string;
  text: string;
}

interface CardAnswersRecord {
  edited: DecidedCall[];
  leftOut: DecidedCall[];
}

/**
 * The proposal as its card's answer leaves it — its text saying what will apply (`answeredProposalText`) and the
 * record of which call each line is about (after any earlier card's on the same proposal), so deliver can tell an
 * edit that applied from one that failed. The caller keeps the id and sets the calls.
 */
export function answeredProposal(
  proposal: AIMessage,
  edited: readonly DecidedCall[],
  leftOut: ReadonlyArray<DecidedCall & { feedback: string }>,
  asProposed: number,
  language: Language,
): { content: string; additional_kwargs: Record<string, unknown> } {
  const earlier = recordOf(proposal);
  const record: CardAnswersRecord = {
    edited: [...(earlier?.edited ?? []), ...edited],
    leftOut: [...(earlier?.leftOut ?? []), ...leftOut.map(({ callId, text }) => ({ callId, text }))],
  };
  return {
    content: answeredProposalText(
      edited.map((call) => call.text),
      leftOut.map(({ text, feedback }) => ({ summary: text, feedback })),
      asProposed,
      language,
    ),
    additional_kwargs: { ...(proposal.additional_kwargs ?? {}), [CARD_ANSWERS_KEY]: record },
  };
}

/** The ids of the calls of proposal `message` the user edited on its card (none for a proposal without the record). */
export function editedCallIds(message: BaseMessage): string[] {
  return (recordOf(message)?.edited ?? []).map((call) => call.callId);
}

function recordOf(message: BaseMessage): CardAnswersRecord | undefined {
  const record = (message.additional_kwargs as Record<string, unknown> | undefined)?.[CARD_ANSWERS_KEY] as
    CardAnswersRecord | undefined;
  return record && Array.isArray(record.edited) && Array.isArray(record.leftOut) ? record : undefined;
}

/**
 * The card decisions a task's proposals record, in order: the edits that applied, the edits whose write then failed,
 * and the writes left out. An edit's outcome is its call's tool result; a proposal without the record (a thread
 * saved before it) is read from its text lines, its edits counted as applied.
 */
export function cardDecisions(messages: readonly BaseMessage[]): {
  edited: string[];
  failed: string[];
  leftOut: string[];
} {
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
export function decisionsLine(
  { edited, failed = [], leftOut }: { edited: string[]; failed?: string[]; leftOut: string[] },
  language: Language = "en",
): string {
  const words = WORDS[language];
  const parts = (
    [
      [words.decided.edited, edited],
      [words.decided.failed, failed],
      [words.decided.leftOut, leftOut],
    ] as const
  ).flatMap(([head, texts]) => (texts.length > 0 ? [`${head}${texts.join(words.join)}`] : []));
  return parts.length === 0 ? "" : `${words.decisions}${parts.join(words.join)}${words.end}`;
}
