/** Message helpers shared by the nodes: ids, the conversation outside the workspace, text, tool rounds. */
import { randomUUID } from "node:crypto";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { promptMessages, type TempoState } from "../../kernel/state.js";
import { newId } from "../../kernel/ids.js";
import { toolResultMessage, type CallOutcome } from "../../kernel/tool-results.js";
import { HIDDEN_ID_PREFIX, messageText } from "../../contracts/message-text.js";
import { attachedCalendars, type AttachedCalendar } from "../../contracts/attached-calendar.js";
import { boundedGoal } from "../../kernel/transitions.js";
import { isSilentOpener } from "../../streaming/progress-ui.js";

/** A fresh tool-call id: `call_` and 24 random hex digits, 29 characters in all (OpenAI's API accepts at most 40: `MAX_TOOL_CALL_ID_LENGTH`, prompts/stage-messages.ts). */
export function newToolCallId(): string {
  return `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
}

/**
 * Recent conversation turns outside the workspace (the stage sees its workspace separately), after the turns
 * compression summarised (`promptMessages`). A served turn's opener that says nothing yet (`openTurn`) is not a turn:
 * the stages read the conversation an `invoke` without one would give them (the chat stage's "all but the request"
 * would otherwise leave out the opener and keep the request).
 */
export function conversationMessages(
  state: Pick<TempoState, "messages" | "workspaceMessageIds"> & { compressedUpTo?: string | null },
  limit = 20,
): BaseMessage[] {
  const ids = new Set(state.workspaceMessageIds);
  return promptMessages(state)
    .filter((message) => (message.id === undefined || !ids.has(message.id)) && !isSilentOpener(message))
    .slice(-limit);
}

/** Text of the latest human message, or "". */
export function latestUserText(messages: BaseMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message && message.getType() === "human") return messageText(message);
  }
  return "";
}

/**
 * The calendar files attached to the task's request, and only those: the newest user message, at or before the
 * task's start, whose request is the task's goal (the start message itself; for a retried task, the message it
 * retries). No other message of the thread, nothing recalled: a file never stands in for another.
 */
export function requestCalendars(
  state: Pick<TempoState, "messages" | "taskStartMessageId" | "goal">,
): AttachedCalendar[] {
  const start = state.messages.findIndex((message) => message.id === state.taskStartMessageId);
  for (let index = start === -1 ? state.messages.length - 1 : start; index >= 0; index -= 1) {
    const message = state.messages[index]!;
    if (message.getType() !== "human") continue;
    const text = messageText(message);
    if (boundedGoal(text) === state.goal) return attachedCalendars(text);
  }
  return [];
}

/** A tool call as a round records it. */
export interface RoundCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The calls of one round (one, or several made together: a batch, parallel tool calls): one assistant message carrying every
 * call, then one tool message per call, in order — kept or summarised together, like any round.
 */
export function toolRoundOf(entries: ReadonlyArray<RoundEntry>, speak = "", internal = false): BaseMessage[] {
  if (entries.length === 0) return [];
  const round = [
    new AIMessage({
      id: newId("ai"),
      content: speak,
      tool_calls: entries.map(({ call }) => ({
        id: call.id,
        name: call.name,
        args: call.arguments,
        type: "tool_call" as const,
      })),
    }),
    ...entries.map(({ call, result, outcome, data }) => toolResultMessage(call, result, outcome, data)),
  ];
  // The agent's own bookkeeping (working memory, recalled facts) is not for a person to read: Agent Chat UI does not
  // draw messages whose id starts with this prefix. Models still read the round.
  if (internal) for (const message of round) message.id = `${HIDDEN_ID_PREFIX}${message.id}`;
  return round;
}

/** One call of a round: the call, its result as the model reads it, and what happened to it (kernel/tool-results.ts). */
export interface RoundEntry {
  call: RoundCall;
  result: string;
  outcome: CallOutcome;
  /** The tool's structured result, when it gave one (the tool message's `artifact.data`). */
  data?: unknown;
}
