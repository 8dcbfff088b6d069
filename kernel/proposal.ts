/**
 * A write proposal is an assistant message's tool calls (docs/design.md#one-write-path): execute writes the message
 * when it proposes, confirm raises the card from its calls and answers the rejected ones (a tool message with status
 * error) or rewrites the edited ones (the same message id, edited arguments), and execute applies what is left
 * unanswered — approved — and answers each call with its result. A call is open until a tool message answers it.
 */
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { workspaceMessages, type ProposedWrite, type TempoState, type WriteCall } from "./state.js";
import { toolResultMessage } from "./tool-results.js";
import { callArguments } from "./call-records.js";

/** The calls of `messages`' assistant messages that no tool message among `messages` answers, in order. */
export function unansweredCalls(messages: readonly BaseMessage[]): WriteCall[] {
  const answered = answeredCallIds(messages);
  return messages.flatMap((message) =>
    message.getType() !== "ai"
      ? []
      : ((message as AIMessage).tool_calls ?? []).flatMap((call) =>
          call.id && !answered.has(call.id)
            ? [{ id: call.id, name: call.name, arguments: callArguments(message, call) }]
            : [],
        ),
  );
}

/**
 * The open write card's proposal — its assistant message, and its writes as the card shows them (the message's calls
 * not answered yet: a card that decided only some of them comes back with the rest) — when the thread waits on one.
 * The message is found by id and its tool calls alone, so state values as a server returns them (messages as JSON)
 * read the same.
 */
export function openProposal(
  state: Pick<TempoState, "pending" | "messages">,
): { message: AIMessage; writes: ProposedWrite[] } | undefined {
  const pending = state.pending;
  if (pending?.kind !== "confirm_tool") return undefined;
  const message = state.messages.find(
    (candidate) => candidate.id === pending.messageId && Array.isArray((candidate as AIMessage).tool_calls),
  ) as AIMessage | undefined;
  if (!message) return undefined;
  // A call already answered (applied, or declined on an earlier card of the same proposal) is not on the card again.
  const answered = answeredCallIds(state.messages);
  const writes = message
    .tool_calls!.filter((call) => !answered.has(call.id!))
    .map((call) => {
      const shown = pending.shown?.[call.id!];
      return {
        id: call.id!,
        name: call.name,
        arguments: callArguments(message, call),
        summary: pending.summaries[call.id!] ?? call.name,
        reason: pending.reason,
        ...(shown ? { shown } : {}),
      };
    });
  return { message, writes };
}

/** The calls the tool messages among `messages` answer — message objects, or their JSON as a server returns them. */
function answeredCallIds(messages: readonly BaseMessage[]): Set<string> {
  const isTool = (message: BaseMessage) =>
    (typeof message.getType === "function" ? message.getType() : (message as unknown as { type?: unknown }).type) ===
    "tool";
  return new Set(messages.flatMap((message) => (isTool(message) ? [(message as ToolMessage).tool_call_id] : [])));
}

/** The writes of the open write card, as the card shows them; [] when the thread waits on none. */
export function proposedWrites(state: Pick<TempoState, "pending" | "messages">): ProposedWrite[] {
  return openProposal(state)?.writes ?? [];
}

/**
 * Tool messages closing the workspace's open calls when the task leaves them (a card dropped, a thread ended, a stale
 * plan replanned): every call in the conversation is answered. What a call did is not claimed here — a run may have
 * applied it and died before saying so; the task's endings tell that from the execution log.
 */
export function closeOpenCalls(
  state: Pick<TempoState, "messages" | "workspaceMessageIds">,
  why: string,
): ToolMessage[] {
  return unansweredCalls(workspaceMessages(state)).map((call) =>
    toolResultMessage(call, `Left unanswered: ${why}.`, "held"),
  );
}
