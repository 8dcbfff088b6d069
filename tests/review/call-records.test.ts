/**
 * A proposal's calls as a person sees them and as they apply (kernel/call-records.ts): a write whose card shows words
 * (a candidate's record) shows them in the message's call too — what Agent Chat UI's tool-call table draws — and the
 * record, kept beside it, is what the write path reads; the message as a server returns it (JSON) reads the same, and
 * a proposal saved before (the record in the call) reads as it did.
 */
import { AIMessage, mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { callArguments, proposalMessage } from "../../kernel/call-records.js";
import { openProposal, unansweredCalls } from "../../kernel/proposal.js";
import type { TempoState } from "../../kernel/state.js";

const record = {
  event: { id: "fri-tutorial", name: "Calculus tutorial", source: "event", slots: [{ day: 5, start: 1 }] },
};
const words = { event: "Calculus tutorial", when: "Fri 15 Mar, 08:00–09:40" };
const writes = [
  { id: "call-1", name: "restore_event", arguments: record, shown: words },
  { id: "call-2", name: "place", arguments: { task_id: "review-limits", day: 5, slot_start: 9 } },
];

function pendingOn(message: AIMessage): Pick<TempoState, "pending" | "messages"> {
  return {
    messages: [message],
    pending: {
      kind: "confirm_tool",
      messageId: message.id!,
      summaries: { "call-1": "Put back Calculus tutorial", "call-2": "Place review-limits" },
      reason: "undo",
      shown: { "call-1": words },
    } as TempoState["pending"],
  };
}

describe("a proposal's calls", () => {
  test("show the card's words where it has them, and apply the record kept beside them", () => {
    const message = proposalMessage("ai-1", "", writes);
    expect(message.tool_calls!.map((call) => call.args)).toEqual([words, writes[1]!.arguments]);
    expect(JSON.stringify(message.tool_calls)).not.toContain("fri-tutorial");
    expect(unansweredCalls([message]).map((call) => call.arguments)).toEqual([record, writes[1]!.arguments]);
    const open = openProposal(pendingOn(message))!;
    expect(open.writes.map((write) => [write.arguments, write.shown])).toEqual([
      [record, words],
      [writes[1]!.arguments, undefined],
    ]);
  });

  test("read the same from a stored message and from its JSON as a server returns it", () => {
    const message = proposalMessage("ai-1", "", writes);
    const [stored] = mapStoredMessagesToChatMessages(mapChatMessagesToStoredMessages([message]));
    expect(unansweredCalls([stored!]).map((call) => call.arguments)).toEqual([record, writes[1]!.arguments]);
    const json = JSON.parse(JSON.stringify(message.toDict().data)) as { additional_kwargs: Record<string, unknown> };
    expect(callArguments(json, { id: "call-1", args: words })).toEqual(record);
  });

  test("a proposal saved before keeps its record in the call, and reads as it did", () => {
    const saved = new AIMessage({
      id: "ai-0",
      content: "",
      tool_calls: [{ id: "call-1", name: "restore_event", args: record, type: "tool_call" }],
    });
    expect(callArguments(saved, saved.tool_calls![0]!)).toEqual(record);
    expect(unansweredCalls([saved])[0]!.arguments).toEqual(record);
  });
});
