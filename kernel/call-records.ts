/**
 * A proposal's calls as a person sees them, and as they apply (issue 48: people's words, not internals). A
 * candidate's write (`restore_event`, `restore_task`: `DomainTool.candidateOf`) applies a record the backend kept —
 * the whole event or task as its removal recorded it — and Agent Chat UI draws every tool call's arguments as a
 * table, so the proposal message's call carries the words its card shows (`ProposedWrite.shown`) and the record is
 * kept beside it, in the same message, by tool-call id (`additional_kwargs`: never sent to a model server, never
 * drawn by a client). Every reader that needs what a call applies — the write path, the approvals, the undo of an
 * undo, the reports — reads a call's arguments through {@link callArguments}; a proposal saved before (the record in
 * the call) reads as it did.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ProposedWrite } from "./state.js";

/** A write as its proposal carries it: the call, and the words its card shows in place of a record. */
type ProposalWrite = Pick<ProposedWrite, "id" | "name" | "arguments" | "shown">;

/** Where a proposal keeps, by tool-call id, the arguments of its calls shown in words. */
const CALL_RECORDS_KEY = "tempo_call_records";

/**
 * Where a proposal keeps, by tool-call id, the frame each write's card was made in (`ToolDomain.cardFrame`: the
 * schedule's window), so the write applies only while the state is still in it.
 */
const CARD_FRAMES_KEY = "tempo_card_frames";

/** A message as a reader holds it: an object, or its JSON as a server returns it. */
type MessageLike = Pick<BaseMessage, "additional_kwargs"> | { additional_kwargs?: Record<string, unknown> };

/** The arguments `call` of `message` applies with: the record kept for it, or its arguments as they are. */
export function callArguments(
  message: MessageLike,
  call: { id?: string; args: Record<string, unknown> },
): Record<string, unknown> {
  const records = (message.additional_kwargs as Record<string, unknown> | undefined)?.[CALL_RECORDS_KEY] as
    Record<string, Record<string, unknown>> | undefined;
  const kept = call.id === undefined ? undefined : records?.[call.id];
  return kept !== null && typeof kept === "object" ? kept : call.args;
}

/** The frame the card of call `callId` of `message` was made in (`proposalMessage`'s `frames`), if it kept one. */
export function callFrame(message: MessageLike, callId: string): string | undefined {
  const frames = (message.additional_kwargs as Record<string, unknown> | undefined)?.[CARD_FRAMES_KEY] as
    Record<string, unknown> | undefined;
  const frame = frames?.[callId];
  return typeof frame === "string" ? frame : undefined;
}

/**
 * The assistant message proposing `writes` (its id and words given): one call each, in order — a write with shown
 * arguments shows them in its call, its record kept for {@link callArguments}; `frames`, by tool-call id, the frame each
 * write's card is made in (kept for {@link callFrame}).
 */
export function proposalMessage(
  id: string,
  content: string,
  writes: readonly ProposalWrite[],
  frames: Readonly<Record<string, string>> = {},
): AIMessage {
  const records = Object.fromEntries(writes.flatMap((write) => (write.shown ? [[write.id, write.arguments]] : [])));
  const kept = {
    ...(Object.keys(records).length > 0 ? { [CALL_RECORDS_KEY]: records } : {}),
    ...(Object.keys(frames).length > 0 ? { [CARD_FRAMES_KEY]: { ...frames } } : {}),
  };
  return new AIMessage({
    id,
    content,
    tool_calls: writes.map((write) => ({
      id: write.id,
      name: write.name,
      args: write.shown ?? write.arguments,
      type: "tool_call" as const,
    })),
    ...(Object.keys(kept).length > 0 ? { additional_kwargs: kept } : {}),
  });
}
