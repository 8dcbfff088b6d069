/**
 * The thread's last applied card, read back from its messages (docs/design.md#one-write-path): a card is an assistant
 * message's tool calls, and each approved call is answered by a tool message whose recorded outcome is `applied`.
 * What "undo that" reverses (issue 47 item 4): the domain is given these writes (`ToolRunContext.lastChange`) and
 * offers their inverse as a new card.
 */
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { AppliedWrite } from "../contracts/applied-write.js";
import { callOutcomeOf, toolResultData } from "./tool-results.js";
import { callArguments } from "./call-records.js";

/** The control call that puts a listed candidate's writes on a card as they are (`nodes/execute/candidates.ts`). */
export const CHOOSE_CANDIDATE = "choose_candidate";

/**
 * The tool that listed the candidate the proposal at `at` was made of: the card follows the record of the choice
 * (a `choose_candidate` tool message), which chose from the latest listing before it. Undefined for any other card.
 */
function chosenFrom(messages: readonly BaseMessage[], at: number): string | undefined {
  const before = messages[at - 1];
  if (before?.getType() !== "tool" || (before as ToolMessage).name !== CHOOSE_CANDIDATE) return undefined;
  const listing = messages
    .slice(0, at - 1)
    .findLast((message) =>
      Array.isArray((toolResultData(message) as { candidates?: unknown } | undefined)?.candidates),
    );
  return (listing as ToolMessage | undefined)?.name;
}

/**
 * The writes of the last card of `messages` that applied any, in the card's order (as approved: an edit as edited),
 * each with the listing it was chosen from when the card was a listed candidate (`AppliedWrite.chosenFrom`).
 */
export function lastAppliedCard(messages: readonly BaseMessage[]): AppliedWrite[] {
  const last = messages.findLast((message) => callOutcomeOf(message) === "applied") as ToolMessage | undefined;
  if (!last) return [];
  const proposal = messages.findLast(
    (message) =>
      message.getType() === "ai" &&
      ((message as AIMessage).tool_calls ?? []).some((call) => call.id === last.tool_call_id),
  ) as AIMessage | undefined;
  if (!proposal) return [];
  const from = chosenFrom(messages, messages.indexOf(proposal));
  const applied = new Map(
    messages
      .filter((message) => callOutcomeOf(message) === "applied")
      .map((message) => [(message as ToolMessage).tool_call_id, message] as const),
  );
  return (proposal.tool_calls ?? []).flatMap((call) => {
    const result = call.id === undefined ? undefined : applied.get(call.id);
    if (!result) return [];
    const data = toolResultData(result);
    return [
      {
        name: call.name,
        arguments: callArguments(proposal, call),
        ...(data === undefined ? {} : { data }),
        ...(from === undefined ? {} : { chosenFrom: from }),
      },
    ];
  });
}
