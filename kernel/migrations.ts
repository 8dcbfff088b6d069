/**
 * Older checkpoint formats, read in today's shape: the one place a saved thread of an earlier graph is upgraded.
 *
 * graph@2 kept a write card's answered writes in `answeredWrites` (see {@link LegacyAnsweredWrite}), outside the
 * conversation. A thread it saved between a card's answer and its writes becomes today's shape once, when execute
 * next runs: the proposal's message with their calls, the rejected ones answered; the approved ones are left
 * unanswered and apply as any card's. Goes with graph@4.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { newId } from "./ids.js";
import type { LegacyAnsweredWrite, TempoState } from "./state.js";
import { toolResultMessage } from "./tool-results.js";

/** A graph@2 thread's answered writes in today's shape: the messages added, and the state with them. */
export interface Graph2Upgrade {
  /** The proposal's message with the answered writes' calls, then a declined result for each rejected one. */
  added: BaseMessage[];
  /** `state` with `added` in its conversation and workspace, and the proposal's ending when every write was approved. */
  upgraded: TempoState;
}

/** The answered writes graph@2 kept in `answered` (the state's `answeredWrites`) as today's messages. */
export function upgradeGraph2Answers(state: TempoState, answered: readonly LegacyAnsweredWrite[]): Graph2Upgrade {
  const calls = answered.map(({ tool }) => ({ id: tool.id, name: tool.name, arguments: tool.arguments }));
  const proposal = new AIMessage({
    id: newId("ai"),
    content: answered[0]?.tool.speak ?? "",
    tool_calls: calls.map((call) => ({
      id: call.id,
      name: call.name,
      args: call.arguments,
      type: "tool_call" as const,
    })),
  });
  const rejected = answered.flatMap(({ tool, approved, result }) =>
    approved ? [] : [toolResultMessage(tool, result ?? "Not applied: the user rejected this change.", "declined")],
  );
  const added = [proposal, ...rejected];
  const ending = answered.every((write) => write.approved && write.tool.then) ? answered[0]!.tool.then! : null;
  const upgraded = {
    ...state,
    messages: [...state.messages, ...added],
    workspaceMessageIds: [...state.workspaceMessageIds, ...added.map((message) => message.id!)],
    stepEnding: ending,
  };
  return { added, upgraded };
}
