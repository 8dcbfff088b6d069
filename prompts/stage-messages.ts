/**
 * The unified stage-message layout (docs/design.md#prompt-layout), shared by every stage:
 *
 *   msg0 system : global prompt + stage prompt + tool brief
 *                 — or, for a stage given the shared head (plan and execute): msg0 the global prompt + the head (the
 *                 tools the request binds, said in text), then a user message with the shared context (the live
 *                 state), then the stage's own user message, beginning with its stage tag: stage prompt + tool brief
 *   msg1 user   : pinned blocks (when there are any)
 *   msg2 user   : conversation so far (recent turns, archived summary)
 *   msg3 …      : the stage workspace as real messages (tool rounds, corrections)
 *   msgN user   : "now" (one line) + stage state + memory + this round's instruction
 *
 * What stays the same across a task's calls comes first (the system prompt, the tools the request binds, the pinned
 * blocks), what changes after it (the history, the workspace, the last message): a provider's prompt cache reuses a
 * byte-identical prefix. The plan and execute requests of a task share one head byte for byte — the same bound tools
 * (nodes/execute/tool-offer.ts), the same first system message, and the live state as read for the run (it changes
 * only when a write applies) — and say what is their own after it.
 *
 * The original layout used assistant/system roles for msg1 and msgN; user roles are used
 * here so every OpenAI-compatible server accepts the sequence (a system
 * message mid-conversation or an assistant-first history is rejected by some).
 */
import { createHash } from "node:crypto";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { CONTEXT_DATA_KEY, isProgressLine, messageText, oneLine } from "../contracts/message-text.js";
import { languageOf, type Language } from "../contracts/language.js";
import { withCalendarsNamed, withoutCalendarText } from "../contracts/attached-calendar.js";
import { GLOBAL_SYSTEM_PROMPT } from "./global.js";
import { languageInstruction } from "../contracts/language.js";

export interface StageMessagesInput {
  /**
   * The system text several stages share (the tools offered, said in text): with it, the first system message is the
   * global prompt and this head only, byte-identical across the stages given the same head, and the stage prompt and
   * tool brief follow as a user message of their own (a provider's prompt cache reuses the shared part; the only
   * system message stays the first, which every OpenAI-compatible server accepts).
   */
  head?: string;
  stagePrompt: string;
  toolBrief?: string;
  /**
   * Context sections the stages given the same head share (the live state), rendered like `context` but in a user
   * message of their own between the head and the stage's own message; only with `head` (else in the last message).
   */
  sharedContext?: Record<string, string>;
  /** Recent conversation turns (user / assistant), rendered as text. */
  conversation: BaseMessage[];
  /** Pinned context blocks by key. */
  pinnedBlocks?: Record<string, string>;
  /** Extra context sections (memory, task state), rendered as tagged blocks. */
  context?: Record<string, string>;
  /**
   * Structured data of context sections, by section name (the live state's tool data): kept on the context message
   * as `additional_kwargs.tempo_context_data` for a program that reads the prompt (an offline policy). OpenAI-compatible
   * clients send the text only.
   */
  contextData?: Record<string, unknown>;
  /** The stage workspace, as real messages. */
  workspace?: BaseMessage[];
  /** The current stage state and the round's instruction. */
  stageState: string;
  instruction: string;
  /** The user's language; read from the conversation when not given. */
  language?: Language;
  /** The "now" line (`contracts/clock.ts` `nowLine`), first in the last message. */
  now?: string;
}

/** Assembles a stage's messages in the fixed layout. */
export function buildStageMessages(input: StageMessagesInput): BaseMessage[] {
  const language = input.language ?? languageOf(input.conversation);
  const joined = (parts: Array<string | undefined>) => parts.filter(Boolean).join("\n\n");
  const global = [GLOBAL_SYSTEM_PROMPT, languageInstruction(language)];
  const shared = input.head ? tagged(input.sharedContext) : [];
  // The data of the shared sections goes with their message, the rest with the last one.
  const [sharedData, lastData] = splitData(input.contextData, input.head ? Object.keys(input.sharedContext ?? {}) : []);
  const system = input.head
    ? [
        new SystemMessage(joined([...global, input.head])),
        ...(shared.length > 0 ? [contextMessage(shared.join("\n\n"), sharedData)] : []),
        // The stage's own instructions in a user message, not a second system message: some servers' chat templates
        // refuse a system message after a user one. It begins with its stage tag (contracts/stage-tag.ts).
        new HumanMessage(joined([input.stagePrompt, input.toolBrief])),
      ]
    : [new SystemMessage(joined([...global, input.stagePrompt, input.toolBrief]))];
  const pinned = Object.entries(input.pinnedBlocks ?? {})
    .filter(([, content]) => content.trim() !== "")
    .map(([key, content]) => `<pinned key="${key}">\n${content}\n</pinned>`);
  const conversation = `<conversation>\n${renderConversation(input.conversation) || "(no earlier messages)"}\n</conversation>`;
  const context = tagged({ ...input.context, ...(input.head ? {} : input.sharedContext) });
  return [
    ...system,
    ...(pinned.length > 0 ? [new HumanMessage(pinned.join("\n\n"))] : []),
    new HumanMessage(conversation),
    ...answersAfterCalls(input.workspace ?? [])
      .map(withSendableToolCallIds)
      .map(withCalendarCallsNamed),
    contextMessage(
      [
        ...(input.now ? [input.now] : []),
        ...context,
        `<stage_state>\n${input.stageState}\n</stage_state>`,
        `<instruction>\n${input.instruction}\n</instruction>`,
      ].join("\n\n"),
      lastData,
    ),
  ];
}

/** Context sections as tagged blocks, the empty ones left out. */
function tagged(sections: Record<string, string> = {}): string[] {
  return Object.entries(sections)
    .filter(([, content]) => content.trim() !== "")
    .map(([key, content]) => `<${key}>\n${content}\n</${key}>`);
}

/** `data` split in two: the sections named in `keys`, and the rest. */
function splitData(
  data: Record<string, unknown> = {},
  keys: readonly string[],
): [Record<string, unknown>, Record<string, unknown>] {
  const entries = Object.entries(data);
  return [
    Object.fromEntries(entries.filter(([key]) => keys.includes(key))),
    Object.fromEntries(entries.filter(([key]) => !keys.includes(key))),
  ];
}

/** A user message of context, with its sections' structured data beside the text (never sent to a model server). */
function contextMessage(content: string, data: Record<string, unknown>): HumanMessage {
  return new HumanMessage({
    content,
    ...(Object.keys(data).length > 0 ? { additional_kwargs: { [CONTEXT_DATA_KEY]: data } } : {}),
  });
}

/**
 * The workspace with each assistant message's tool calls followed at once by their answers, in call order — as
 * OpenAI-compatible servers require. A card's calls are answered at two times (a rejection when the card is
 * answered, the approved writes as they apply), so their tool messages are not always in call order in the state.
 */
export function answersAfterCalls(workspace: readonly BaseMessage[]): BaseMessage[] {
  const answers = new Map<string, BaseMessage>();
  for (const message of workspace) if (message instanceof ToolMessage) answers.set(message.tool_call_id, message);
  const placed = new Set<BaseMessage>();
  const ordered: BaseMessage[] = [];
  for (const message of workspace) {
    if (placed.has(message)) continue;
    ordered.push(message);
    for (const call of (message as AIMessage).tool_calls ?? []) {
      const answer = call.id === undefined ? undefined : answers.get(call.id);
      if (!answer || placed.has(answer)) continue;
      ordered.push(answer);
      placed.add(answer);
    }
  }
  return ordered;
}

/** Renders user/assistant turns as "role: text" lines; tool rounds become one-line notes. */
export function renderConversation(messages: BaseMessage[]): string {
  return messages
    .map((message) => {
      // Progress lines ("Step 2 of 3: …") are for the person watching; the plan says the same to the model.
      if (isProgressLine(message)) return "";
      if (message instanceof ToolMessage || message.getType() === "tool")
        return `tool result: ${oneLine(messageText(message), 300)}`;
      // A calendar file is named, not shown: its text travels only with its own request (the execute stage's attached files).
      if (message.getType() === "human") return `user: ${withoutCalendarText(messageText(message))}`;
      if (message.getType() === "ai") {
        const calls = (message as AIMessage).tool_calls ?? [];
        const text = messageText(message);
        const callText = calls
          .map((call) => `[called ${call.name} ${JSON.stringify(withCalendarsNamed(call.args))}]`)
          .join(" ");
        return `assistant: ${[text, callText].filter(Boolean).join(" ")}`;
      }
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

/**
 * An assistant message whose tool calls carried a calendar file, with the file named in their arguments: the call has
 * happened, and the request's file is attached to the prompt when it is still needed (a file's text in a past call
 * would fill the budget, and arguments are never cut). The same message when no call carries one.
 */
function withCalendarCallsNamed(message: BaseMessage): BaseMessage {
  const calls = (message as AIMessage).tool_calls ?? [];
  if (message.getType() !== "ai" || calls.length === 0) return message;
  const named = calls.map((call) => ({ ...call, args: withCalendarsNamed(call.args) }));
  if (named.every((call, index) => JSON.stringify(call.args) === JSON.stringify(calls[index]!.args))) return message;
  return new AIMessage({ id: message.id, content: message.content, tool_calls: named });
}

/** Longest tool-call id OpenAI's API accepts (`messages[i].tool_calls[j].id`: "maximum length 40"); gateways (LiteLLM, OpenRouter) enforce it too. */
export const MAX_TOOL_CALL_ID_LENGTH = 40;

/** A tool-call id a model server accepts: ids within the limit as they are, longer ones (threads saved before ids were short) as a stable digest. */
export function sendableToolCallId(id: string): string {
  return id.length <= MAX_TOOL_CALL_ID_LENGTH
    ? id
    : `call_${createHash("sha256").update(id).digest("hex").slice(0, 24)}`;
}

/** The message with every tool-call id it carries made sendable; the same message when none needs it. */
function withSendableToolCallIds(message: BaseMessage): BaseMessage {
  if (message instanceof ToolMessage && message.tool_call_id.length > MAX_TOOL_CALL_ID_LENGTH) {
    return new ToolMessage({
      id: message.id,
      content: message.content,
      name: message.name,
      status: message.status,
      artifact: message.artifact,
      tool_call_id: sendableToolCallId(message.tool_call_id),
    });
  }
  const calls = (message as AIMessage).tool_calls ?? [];
  if (message.getType() === "ai" && calls.some((call) => (call.id ?? "").length > MAX_TOOL_CALL_ID_LENGTH)) {
    return new AIMessage({
      id: message.id,
      content: message.content,
      tool_calls: calls.map((call) => ({
        ...call,
        id: call.id === undefined ? undefined : sendableToolCallId(call.id),
      })),
    });
  }
  return message;
}
