/**
 * Context compression.
 *
 * In-step (docs/design.md#step-context): system prompt, requirement and plan are never
 * cut; the last N tool rounds of the current step stay whole; earlier rounds
 * become one summary message. An assistant tool-call message and its tool
 * messages are one unit: they are kept or summarised together, never apart.
 *
 * Across turns (docs/design.md#compression): when the conversation in
 * state grows past a count or token threshold, the older turns are chosen for
 * summarising into TaskState and removed, at a boundary that splits no tool
 * round and touches no message of the live workspace.
 */
import { HumanMessage, ToolMessage, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import { messageText, oneLine } from "../contracts/message-text.js";
import { countMessageTokens, type TokenCounter } from "./tokens.js";

/** A run of messages that must stay together: one tool round, or one other message. */
export interface MessageUnit {
  messages: BaseMessage[];
  /** True for an assistant tool-call message with its tool messages. */
  toolRound: boolean;
}

const SUMMARY_LINE_LIMIT = 3;
const SUMMARY_RESULT_CHARACTERS = 80;

/** Splits messages into units; a tool round is the assistant tool-call message and the tool messages answering it. */
export function messageUnits(messages: BaseMessage[]): MessageUnit[] {
  const units: MessageUnit[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    const callIds = new Set(((message as AIMessage).tool_calls ?? []).map((call) => call.id));
    if (callIds.size === 0) {
      units.push({ messages: [message], toolRound: false });
      continue;
    }
    const round = [message];
    while (index + 1 < messages.length && callIds.has((messages[index + 1] as { tool_call_id?: string }).tool_call_id)) {
      round.push(messages[index + 1]!);
      index += 1;
    }
    units.push({ messages: round, toolRound: true });
  }
  return units;
}

/** Keeps the last `keepRounds` tool rounds (and everything after the first of them) whole; earlier units become one summary. */
export function compressToolRounds(workspace: BaseMessage[], keepRounds: number, resultCharacterLimit?: number): BaseMessage[] {
  const units = messageUnits(workspace);
  const roundIndexes = units.flatMap((unit, index) => (unit.toolRound ? [index] : []));
  const firstKept = roundIndexes.length > keepRounds ? roundIndexes[roundIndexes.length - keepRounds]! : 0;
  const earlier = units.slice(0, firstKept);
  const kept = units.slice(firstKept).flatMap((unit) => (resultCharacterLimit === undefined ? unit.messages : unit.messages.map((message) => truncateToolResult(message, resultCharacterLimit))));
  if (earlier.length === 0) return kept;
  return [summaryMessage(earlier), ...kept];
}

/** One user-role message summarising earlier units, one line each, capped. */
function summaryMessage(units: MessageUnit[]): HumanMessage {
  const lines = units.map(describeUnit).filter(Boolean);
  const omitted = Math.max(0, lines.length - SUMMARY_LINE_LIMIT);
  const shown = lines.slice(-SUMMARY_LINE_LIMIT);
  const header = `Earlier in this step (${units.filter((unit) => unit.toolRound).length} tool rounds, summarised):`;
  return new HumanMessage([header, ...(omitted ? [`- ${omitted} earlier entries: ${toolTally(units.slice(0, omitted))}`] : []), ...shown].join("\n"));
}

/** "read_page ×12, find_free ×3" for the tool rounds among `units`. */
function toolTally(units: MessageUnit[]): string {
  const counts = new Map<string, number>();
  for (const unit of units) {
    if (!unit.toolRound) continue;
    for (const call of (unit.messages[0] as AIMessage).tool_calls ?? []) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  }
  return counts.size ? [...counts].map(([name, count]) => `${name} ×${count}`).join(", ") : "conversation only";
}

function describeUnit(unit: MessageUnit): string {
  const [first, ...rest] = unit.messages;
  if (!first) return "";
  if (unit.toolRound) {
    // One line per call (a batch round carries several), each with its own result.
    return ((first as AIMessage).tool_calls ?? [])
      .map((call) => {
        const answer = rest.find((message) => (message as ToolMessage).tool_call_id === call.id);
        return `- called ${call.name} ${oneLine(JSON.stringify(call.args ?? {}), 80)} → ${oneLine(messageText(answer), SUMMARY_RESULT_CHARACTERS)}`;
      })
      .join("\n");
  }
  const text = oneLine(messageText(first), SUMMARY_RESULT_CHARACTERS);
  return text ? `- ${first.getType() === "human" ? "user" : "assistant"}: ${text}` : "";
}

function truncateToolResult(message: BaseMessage, limit: number): BaseMessage {
  if (message.getType() !== "tool") return message;
  const text = messageText(message);
  if (text.length <= limit) return message;
  return new ToolMessage({
    id: message.id,
    name: message.name,
    tool_call_id: (message as ToolMessage).tool_call_id,
    content: `${text.slice(0, limit)}… (${text.length - limit} more characters cut to fit the prompt budget)`,
  });
}

export interface HistoryCompressionPlan {
  /** Messages to summarise and remove from state. */
  remove: BaseMessage[];
  /** Messages that stay. */
  keep: BaseMessage[];
}

/**
 * Chooses the older messages to compress, or undefined when the history is within bounds.
 * The kept part starts at a unit boundary and includes every `protectedIds` message.
 */
export function planHistoryCompression(
  messages: BaseMessage[],
  options: { maxMessages: number; maxTokens: number; keepMessages: number; counter: TokenCounter; protectedIds?: Set<string> },
): HistoryCompressionPlan | undefined {
  const overCount = messages.length > options.maxMessages;
  const overTokens = !overCount && countMessageTokens(messages, options.counter) > options.maxTokens;
  if (!overCount && !overTokens) return undefined;
  const units = messageUnits(messages);
  let kept = 0;
  let cut = units.length;
  // Keep whole units from the end until keepMessages are kept.
  while (cut > 0 && kept < options.keepMessages) {
    cut -= 1;
    kept += units[cut]!.messages.length;
  }
  // Never remove a message the live workspace still refers to.
  const firstProtected = units.findIndex((unit) => unit.messages.some((message) => message.id !== undefined && options.protectedIds?.has(message.id)));
  if (firstProtected !== -1) cut = Math.min(cut, firstProtected);
  if (cut === 0) return undefined;
  return { remove: units.slice(0, cut).flatMap((unit) => unit.messages), keep: units.slice(cut).flatMap((unit) => unit.messages) };
}
