/**
 * The correction loop (docs/design.md#correction-loop): an invalid model output and a
 * correction request go into the stage workspace and the stage runs again;
 * `maxCorrections` invalid outputs in a row end the run with a typed error,
 * the state as it was at the last checkpoint. Once the model answers
 * validly, the correction messages are removed from the conversation.
 */
import { RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import { ModelOutputError } from "../../errors/index.js";
import type { TempoState, TempoUpdate } from "../../kernel/state.js";
import { newId } from "../../kernel/ids.js";
import { HIDDEN_ID_PREFIX } from "../../contracts/message-text.js";

/** A correction round is hidden from Agent Chat UI, from the stream and from state. */
const CORRECTION_PREFIX = `${HIDDEN_ID_PREFIX}correction-`;

/** The update that records an invalid output and asks for a corrected one; throws when the limit is reached. */
export function correctionUpdate(
  state: Pick<TempoState, "consecutiveCorrections" | "workspaceMessageIds">,
  stage: string,
  raw: string,
  problem: string,
  maxCorrections: number,
): TempoUpdate {
  const attempts = state.consecutiveCorrections + 1;
  if (attempts >= maxCorrections) throw new ModelOutputError(stage, attempts, problem);
  // Plain message objects, not message instances: the messages reducer turns them into messages, and LangGraph's
  // `messages` stream mode, which emits only the message instances a node returns, leaves them out — the invalid
  // output (often contract JSON) and the correction request are for the model, not for a person.
  const invalid = {
    type: "ai",
    id: `${CORRECTION_PREFIX}${newId("ai")}`,
    content: raw.trim() === "" ? "(empty output)" : truncate(raw, 4000),
  };
  const request = {
    type: "human",
    id: `${CORRECTION_PREFIX}${newId("human")}`,
    content: `Your last answer could not be used: ${problem}. Answer again with exactly one JSON object that follows the ${stage} contract, and nothing else.`,
  };
  return {
    messages: [invalid, request] as unknown as BaseMessage[],
    workspaceMessageIds: [...state.workspaceMessageIds, invalid.id, request.id],
    consecutiveCorrections: attempts,
  };
}

/** Removals for the correction messages of the workspace, once the model has answered validly. */
export function clearCorrections(state: Pick<TempoState, "messages" | "workspaceMessageIds">): {
  messages: BaseMessage[];
  workspaceMessageIds: string[];
} {
  const corrections = state.workspaceMessageIds.filter((id) => id.startsWith(CORRECTION_PREFIX));
  return {
    messages: corrections.map((id) => new RemoveMessage({ id })),
    workspaceMessageIds: state.workspaceMessageIds.filter((id) => !id.startsWith(CORRECTION_PREFIX)),
  };
}

function truncate(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length - limit} more characters)` : text;
}
