/**
 * Reading what a thread shows and records around a write card, for tests that answer one: the card's descriptions and
 * changes, the calls it proposes, the outcomes recorded on their answers, and what the assistant said.
 */
import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import { interruptsOf } from "../../support/scripted.js";

/** The descriptions of the card `result` waits on, or [] for none. */
export function cardDescriptions(result: object): string[] {
  const card = interruptsOf(result)[0]?.value as { action_requests?: Array<{ description?: string }> } | undefined;
  return (card?.action_requests ?? []).map((request) => request.description ?? "");
}

/** The head of a batch card's change: "Change 1 of 2: ", "第 1 项修改（共 2 项）：". */
const CHANGE_HEAD = /^(?:Change \d+ of \d+: |第 \d+ 项修改（共 \d+ 项）：)/;

/** The changes of the card `result` waits on ("Place …", "安排 …"), each without its batch head. */
export function cardChanges(result: object): string[] {
  return cardDescriptions(result).map((description) =>
    description
      .split("\n\n")
      .map((line) => line.replace(CHANGE_HEAD, ""))
      .find((line) => /^(?:Place|安排) /.test(line))!,
  );
}

/** The ids of the calls the card `result` waits on proposes (the last proposal's calls, in order). */
export function cardCallIds(result: { messages: BaseMessage[] }): string[] {
  const proposal = result.messages.findLast(
    (message) => message.getType() === "ai" && ((message as { tool_calls?: unknown[] }).tool_calls ?? []).length > 0,
  ) as { tool_calls?: Array<{ id?: string }> } | undefined;
  return (proposal?.tool_calls ?? []).map((call) => call.id!);
}

/** The outcomes recorded on the tool messages answering the calls `ids`. */
export function outcomesOf(messages: BaseMessage[], ids: readonly string[]): string[] {
  return ids.map((id) => {
    const answer = messages.find(
      (message) => message.getType() === "tool" && (message as ToolMessage).tool_call_id === id,
    ) as ToolMessage | undefined;
    return (answer?.artifact as { outcome?: string } | undefined)?.outcome ?? "unanswered";
  });
}

/** What the assistant said in `messages` from `from` on, and the final answer. */
export function saidFrom(result: { messages: BaseMessage[]; finalAnswer?: string | null }, from: number): string {
  const said = result.messages
    .slice(from)
    .filter((message) => message.getType() === "ai")
    .map((message) => String(message.content));
  return [...said, result.finalAnswer ?? ""].join("\n");
}
