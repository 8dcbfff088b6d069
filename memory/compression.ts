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
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
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
    while (
      index + 1 < messages.length &&
      callIds.has((messages[index + 1] as { tool_call_id?: string }).tool_call_id)
    ) {
      round.push(messages[index + 1]!);
      index += 1;
    }
    units.push({ messages: round, toolRound: true });
  }
  return units;
}

/** Keeps the last `keepRounds` tool rounds (and everything after the first of them) whole; earlier units become one summary. */
export function compressToolRounds(
  workspace: BaseMessage[],
  keepRounds: number,
  resultCharacterLimit?: number,
): BaseMessage[] {
  const units = messageUnits(workspace);
  const roundIndexes = units.flatMap((unit, index) => (unit.toolRound ? [index] : []));
  const firstKept = roundIndexes.length > keepRounds ? roundIndexes[roundIndexes.length - keepRounds]! : 0;
  const earlier = units.slice(0, firstKept);
  const kept = units
    .slice(firstKept)
    .flatMap((unit) =>
      resultCharacterLimit === undefined
        ? unit.messages
        : unit.messages.map((message) => truncateToolResult(message, resultCharacterLimit)),
    );
  if (earlier.length === 0) return kept;
  return [summaryMessage(earlier), ...kept];
}

/** One user-role message summarising earlier units, one line each, capped. */
function summaryMessage(units: MessageUnit[]): HumanMessage {
  const lines = units.map(describeUnit).filter(Boolean);
  const omitted = Math.max(0, lines.length - SUMMARY_LINE_LIMIT);
  const shown = lines.slice(-SUMMARY_LINE_LIMIT);
  const header = `Earlier in this step (${units.filter((unit) => unit.toolRound).length} tool rounds, summarised):`;
  return new HumanMessage(
    [
      header,
      ...(omitted ? [`- ${omitted} earlier entries: ${toolTally(units.slice(0, omitted))}`] : []),
      ...shown,
    ].join("\n"),
  );
}

/** "read_page ×12, find_free ×3" for the tool rounds among `units`. */
function toolTally(units: MessageUnit[]): string {
  const counts = new Map<string, number>();
  for (const unit of units) {
    if (!unit.toolRound) continue;
    for (const call of (unit.messages[0] as AIMessage).tool_calls ?? [])
      counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
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
    status: (message as ToolMessage).status,
    artifact: (message as ToolMessage).artifact,
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
  options: {
    maxMessages: number;
    maxTokens: number;
    keepMessages: number;
    counter: TokenCounter;
    protectedIds?: Set<string>;
  },
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
  const firstProtected = units.findIndex((unit) =>
    unit.messages.some((message) => message.id !== undefined && options.protectedIds?.has(message.id)),
  );
  if (firstProtected !== -1) cut = Math.min(cut, firstProtected);
  if (cut === 0) return undefined;
  return {
    remove: units.slice(0, cut).flatMap((unit) => unit.messages),
    keep: units.slice(cut).flatMap((unit) => unit.messages),
  };
}

/** A prompt fitted to its budget: the messages to send, their measured tokens, and what was cut. */
export interface FittedPrompt {
  messages: BaseMessage[];
  /** Tokens of `messages`, by the counter given. */
  tokens: number;
  /** Characters cut from message contents (0 when the prompt fitted as it was). */
  cutCharacters: number;
  /** Messages whose content was cut. */
  cutMessages: number;
}

/** The note left where a message's content was cut. */
export function cutMarker(characters: number): string {
  return `[… ${characters} characters cut to fit the context budget]`;
}

/** Rounds of measuring and cutting before the last, character-only cut. */
const FIT_ROUNDS = 6;

/**
 * The one bound on every prompt a model is sent (docs/design.md#prompt-layout): within `budgetTokens` by `counter`,
 * whatever the messages hold. A prompt within its budget is returned as it is. Otherwise the longest message contents
 * are cut — the largest first, evenly (water-filling), each keeping its beginning and its end with
 * {@link cutMarker} between, so a long user message keeps its request and a rendered conversation its newest turns
 * and the closing instruction. The system message and tool-call arguments are never cut; a tool-call message and its
 * tool messages stay paired (only their text shrinks). Measured again after each cut (tokens are not proportional
 * to characters), so the result holds by the same counter that checks it.
 */
export function fitPromptToBudget(messages: BaseMessage[], budgetTokens: number, counter: TokenCounter): FittedPrompt {
  let tokens = countMessageTokens(messages, counter);
  if (tokens <= budgetTokens) return { messages, tokens, cutCharacters: 0, cutMessages: 0 };
  const originals = messages.map((message) => (cuttable(message) ? (message.content as string) : undefined));
  const sizes = originals.map((text) => (text === undefined ? 0 : counter.count(text)));
  let fitted = messages;
  let cuts: number[] = [];
  let cap = waterLevel(sizes, budgetTokens - (tokens - sizes.reduce((sum, size) => sum + size, 0)));
  for (let round = 0; round <= FIT_ROUNDS; round += 1) {
    const last = round === FIT_ROUNDS;
    cuts = [];
    fitted = messages.map((message, index) => {
      const text = originals[index];
      if (text === undefined || sizes[index]! <= cap) return message;
      // Characters kept in proportion to the tokens allowed; the last round counts one token per character at most.
      const keep = last ? Math.max(0, cap - 16) : Math.floor((text.length * Math.max(0, cap - 16)) / sizes[index]!);
      const cut = cutMiddle(text, keep);
      cuts.push(cut.removed);
      return withContent(message, cut.text);
    });
    tokens = countMessageTokens(fitted, counter);
    if (tokens <= budgetTokens) break;
    // Over still: lower the level by the share it is over, and at least a little.
    cap = Math.max(0, Math.floor(cap * Math.min(0.9, budgetTokens / tokens)));
  }
  return {
    messages: fitted,
    tokens,
    cutCharacters: cuts.reduce((sum, removed) => sum + removed, 0),
    cutMessages: cuts.length,
  };
}

/** The largest per-message size C with Σ min(size, C) ≤ available (every size when they all fit). */
function waterLevel(sizes: number[], available: number): number {
  const sorted = sizes.filter((size) => size > 0).sort((a, b) => a - b);
  let used = 0;
  for (let index = 0; index < sorted.length; index += 1) {
    const left = sorted.length - index;
    if (used + sorted[index]! * left > available) return Math.max(0, Math.floor((available - used) / left));
    used += sorted[index]!;
  }
  return Math.max(0, ...sorted);
}

/** A message whose text may be cut: string content, not the system message. */
function cuttable(message: BaseMessage): boolean {
  return typeof message.content === "string" && message.getType() !== "system" && message.content.length > 0;
}

/** `text` with its middle replaced by the cut marker, keeping about `keep` characters (half at each end). */
function cutMiddle(text: string, keep: number): { text: string; removed: number } {
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  // Never split a surrogate pair: a lone half cannot be stored or sent.
  const start = safeIndex(text, head);
  const end = safeIndex(text, text.length - tail);
  return { text: `${text.slice(0, start)}\n${cutMarker(end - start)}\n${text.slice(end)}`, removed: end - start };
}

function safeIndex(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}

/** The same message with `content`: its id, role, tool calls and tool-call id kept, and a user message's data. */
function withContent(message: BaseMessage, content: string): BaseMessage {
  switch (message.getType()) {
    case "human":
      // Its structured data stays (a context message's `tempo_context_data`: the request's attached files, the live
      // state), as uncut: a program reading the prompt gets it whole, and model servers are sent the text only.
      return new HumanMessage({
        id: message.id,
        name: message.name,
        content,
        additional_kwargs: message.additional_kwargs,
      });
    case "ai":
      return new AIMessage({
        id: message.id,
        name: message.name,
        content,
        tool_calls: (message as AIMessage).tool_calls ?? [],
      });
    case "tool":
      return new ToolMessage({
        id: message.id,
        name: message.name,
        content,
        tool_call_id: (message as ToolMessage).tool_call_id,
        status: (message as ToolMessage).status,
        artifact: (message as ToolMessage).artifact,
      });
    default:
      return message;
  }
}
