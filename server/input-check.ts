/**
 * Hostile input, refused before anything is written (the run guard calls
 * these first):
 *
 * - text Postgres cannot store — a NUL character (`\u0000`, refused by
 *   `text` and `jsonb`) or an unpaired UTF-16 surrogate (`\ud800`–`\udfff`
 *   without its partner, refused by `jsonb`) — anywhere in the input (message
 *   contents, names and ids, resume values, edits, feedback, object keys) or in
 *   the configurable's strings (the thread, user and checkpoint ids among
 *   them). Such text is refused, not replaced (`contracts/storable-text.ts`; a
 *   model's tool arguments are refused by the tool's argument check):
 *   a silently changed message or edit is worse than a clear error;
 * - sizes: every message within `maxMessageCharacters`, every resume value
 *   within `maxMessageCharacters`, the whole input within `maxInputCharacters`;
 * - messages that are not the user's own (assistant, tool, system:
 *   `checkMessageKinds`), and messages that would remove or overwrite messages
 *   of the thread: a `remove` message, or a message whose id the thread (or
 *   the same input) already holds;
 * - run metadata (`config.metadata`, which the LangGraph server fills from a
 *   run's `metadata` and checkpoints keep) nested deeper than `MAX_DEPTH`,
 *   larger than `maxInputCharacters`, or holding unstorable text: walked
 *   without recursion, so even a 100 000-deep object is refused, not a
 *   RangeError.
 */
import { coerceMessageLikeToMessage, type BaseMessage } from "@langchain/core/messages";
import { isCommand } from "@langchain/langgraph";
import type { WorkflowSettings } from "../config/configuration.js";
import { TempoError } from "../errors/index.js";
import { isHiddenId, messageText } from "../contracts/message-text.js";
import { escapedText, unstorable } from "../contracts/storable-text.js";
import { assertKnownCommand, commandText, isBlankText } from "../kernel/commands.js";
import { languageOf, say, type Language } from "../contracts/language.js";

/** LangChain serialisation mirrors of a message's own fields: walked once, through the fields. */
const MIRROR_KEYS = new Set(["lc_kwargs", "lc_serializable", "lc_namespace", "lc_runnable"]);

/** Deepest nesting walked; deeper input is refused rather than walked. */
const MAX_DEPTH = 64;

/**
 * Throws INVALID_INPUT for unstorable text in a string of `configurable` or its key: the ids that name where a run
 * writes (`thread_id`, `user_id`, `checkpoint_id`, `checkpoint_ns`), and any other string a caller gave there (a
 * served run's configurable is kept with its thread, in Postgres).
 */
export function checkConfigurableIds(configurable: Record<string, unknown> | undefined): void {
  for (const [key, value] of Object.entries(configurable ?? {})) {
    checkText(key, `configurable (a key ${escapedText(key)})`);
    if (typeof value === "string") checkText(value, `configurable.${escapedText(key)}`);
  }
}

/**
 * Walks the whole input (messages, or a Command and its resume values): throws INVALID_INPUT for unstorable text,
 * for an input over `maxInputCharacters`, a message over `maxMessageCharacters`, or a resume value over it.
 */
export function checkInputContent(input: unknown, settings: WorkflowSettings): void {
  // One walk of the whole input; a Command's resume is walked once within it, its own length kept.
  let answer = 0;
  // The sender's language, from the input's own text (nothing else is read before the check): a refusal of a Chinese
  // message or answer is said in Chinese.
  const heard = { chinese: false };
  const total = walk(input, "input", 0, heard, (length) => (answer = length));
  const language: Language = heard.chinese ? "zh" : "en";
  for (const message of inputMessages(input)) {
    if (messageType(message) !== "remove") continue;
    const id = idOf(message);
    throw new TempoError(
      "INVALID_INPUT",
      `Removing messages from a thread is not allowed from outside (a "remove" message${typeof id === "string" ? ` for ${id}` : ""}); nothing was changed.`,
      { id },
    );
  }
  checkMessageKinds(input);
  for (const [index, message] of inputMessages(input).entries()) {
    const text = messageText(message);
    const length = text.length;
    if (length > settings.maxMessageCharacters) {
      throw new TempoError(
        "INVALID_INPUT",
        say(
          languageOf(text),
          `The message has ${length} characters; the limit is ${settings.maxMessageCharacters}. Shorten it or attach the content another way; nothing was changed.`,
          `这条消息有 ${length} 个字符，上限是 ${settings.maxMessageCharacters}。请缩短，或换一种方式附上内容；什么也没有改。`,
        ),
        { length, index },
      );
    }
  }
  if (answer > settings.maxMessageCharacters) {
    throw new TempoError(
      "INVALID_INPUT",
      say(
        language,
        `The answer (resume) has ${answer} characters; the limit is ${settings.maxMessageCharacters}. Shorten it; nothing was changed and the card is still open.`,
        `这个回答有 ${answer} 个字符，上限是 ${settings.maxMessageCharacters}。请缩短；什么也没有改，卡片仍然有效。`,
      ),
      { length: answer, limit: settings.maxMessageCharacters },
    );
  }
  if (total > settings.maxInputCharacters) {
    throw new TempoError(
      "INVALID_INPUT",
      say(
        language,
        `The input has ${total} characters in all; the limit is ${settings.maxInputCharacters}. Send less at once; nothing was changed.`,
        `这次输入共有 ${total} 个字符，上限是 ${settings.maxInputCharacters}。请一次少发一些；什么也没有改。`,
      ),
      { length: total, limit: settings.maxInputCharacters },
    );
  }
}

/**
 * Throws INVALID_INPUT for an input the graph cannot take as a message: a value that is not an object (a number, a
 * string, a list — LangGraph refused it with a raw InvalidUpdateError), or a `{ messages }` input whose last message
 * (Agent Chat UI's stand-in tool answers left out) has no text (no content, a number, an object, only spaces and
 * invisible characters: `isBlankText`) or is an unknown
 * slash command. Sizes and kinds are checked with the whole input (`checkInputContent`). A null input (carry on) and a
 * Command pass.
 */
export function checkMessageInput(input: unknown): void {
  if (input === null || input === undefined || isCommand(input)) return;
  if (typeof input !== "object" || Array.isArray(input)) {
    throw new TempoError(
      "INVALID_INPUT",
      `The input must be { messages: [{ role: "user", content: "…" }] }, not ${Array.isArray(input) ? "a list" : `a ${typeof input}`}; nothing was changed.`,
    );
  }
  if (!("messages" in input)) return;
  const messages = inputMessages(withoutStandInAnswers(input));
  const text = messages.length === 0 ? "" : messageText(messages.at(-1));
  // A message of invisible characters alone (a zero-width space) is empty too: a run on it would ask a model about nothing.
  if (isBlankText(text)) throw new TempoError("INVALID_INPUT", "The message is empty; nothing was changed.");
  const command = commandText(text);
  if (command !== undefined) assertKnownCommand(command);
}

/**
 * Throws INVALID_INPUT for an input message that is not the user's own (human): an assistant message (its tool calls
 * would stand in the conversation as Tempo's proposal, never answered, and a model server refuses a conversation
 * whose tool calls have no results), a tool message (a result Tempo never produced — one answering the open card's
 * call takes that call off the card and leaves the card with nothing to confirm), a system or developer message
 * (instructions in Tempo's own voice), or a message LangChain cannot read as any kind. Agent Chat UI's stand-in tool
 * answers (`withoutStandInAnswers`) are let through here; the run drops them before anything is written.
 */
export function checkMessageKinds(input: unknown): void {
  for (const [index, message] of inputMessages(input).entries()) {
    if (messageType(message) === "tool" && isHiddenId(idOf(message))) continue;
    let kind: string;
    try {
      kind = coerceMessageLikeToMessage(message as Parameters<typeof coerceMessageLikeToMessage>[0]).getType();
    } catch {
      throw new TempoError(
        "INVALID_INPUT",
        `Message ${index + 1} of the input is not a message Tempo can read (send { role: "user", content: "…" }); nothing was changed.`,
        { index },
      );
    }
    if (kind !== "human") {
      throw new TempoError(
        "INVALID_INPUT",
        `Message ${index + 1} of the input is of kind "${kind}"; only your own messages (human / user) can be sent to a thread — what the assistant, its tools and the system say is Tempo's to write. Nothing was changed.`,
        { index, kind },
      );
    }
  }
}

/** Throws INVALID_INPUT for a message that would overwrite a message of the thread (ids in `existingIds`) or of the same input. */
export function checkMessageIds(input: unknown, existingIds: ReadonlySet<string>): void {
  const seen = new Set<string>();
  for (const message of inputMessages(input)) {
    const id = idOf(message);
    if (typeof id !== "string" || id === "") continue;
    if (existingIds.has(id) || seen.has(id)) {
      throw new TempoError(
        "INVALID_INPUT",
        `A message with id ${id} is already in the thread; a new message cannot replace it. Send it without an id (or with a new one); nothing was changed.`,
        { id },
      );
    }
    seen.add(id);
  }
}

/**
 * Throws INVALID_INPUT for run metadata nested deeper than `MAX_DEPTH` levels, over `maxInputCharacters` (keys and
 * strings counted, one per other value), or holding a NUL or an unpaired surrogate. Iterative: no depth of input
 * makes it overflow the stack. Cyclic metadata is refused by the depth bound.
 */
export function checkRunMetadata(metadata: unknown, settings: Pick<WorkflowSettings, "maxInputCharacters">): void {
  if (metadata === null || typeof metadata !== "object") return;
  const limit = settings.maxInputCharacters;
  let total = 0;
  const pending: Array<{ value: unknown; where: string; depth: number }> = [
    { value: metadata, where: "metadata", depth: 0 },
  ];
  while (pending.length > 0) {
    const { value, where, depth } = pending.pop()!;
    if (typeof value === "string") {
      checkText(value, where);
      total += value.length;
    } else if (value !== null && typeof value === "object") {
      if (depth > MAX_DEPTH) {
        throw new TempoError(
          "INVALID_INPUT",
          `The run metadata nests deeper than ${MAX_DEPTH} levels (at ${where.length > 120 ? `${where.slice(0, 120)}…` : where}); send flat metadata (a few keys with short values). Nothing was changed.`,
          { limit: MAX_DEPTH },
        );
      }
      const entries = Array.isArray(value)
        ? value.map((item, index) => [String(index), item] as const)
        : Object.entries(value);
      for (const [key, item] of entries) {
        if (!Array.isArray(value)) checkText(key, `${where} (a key)`);
        total += Array.isArray(value) ? 1 : key.length + 1;
        pending.push({
          value: item,
          where: Array.isArray(value) ? `${where}[${key}]` : `${where}.${key}`,
          depth: depth + 1,
        });
      }
    } else {
      total += 1;
    }
    if (total > limit) {
      throw new TempoError(
        "INVALID_INPUT",
        `The run metadata has more than ${limit} characters; send less (a few keys with short values). Nothing was changed.`,
        { limit },
      );
    }
  }
}

/**
 * Where `value` nests deeper than `MAX_DEPTH` levels ("command.resume[0][0]…"), or undefined when it does not. Walked
 * without recursion, so no depth overflows the stack. The served API asks it of a run's body before the server stores
 * the run (auth/tempo-auth.ts): langgraph dev writes its runs with a recursive serializer that a few thousand levels
 * overflow, and from then on saves nothing.
 */
export function deeperThanAllowed(value: unknown, where: string): string | undefined {
  const pending: Array<{ value: unknown; where: string; depth: number }> = [{ value, where, depth: 0 }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.value === null || typeof next.value !== "object") continue;
    if (next.depth > MAX_DEPTH) return next.where.length > 120 ? `${next.where.slice(0, 120)}…` : next.where;
    const entries = Array.isArray(next.value)
      ? next.value.map((item, index) => [`[${index}]`, item] as const)
      : Object.entries(next.value).map(([key, item]) => [`.${key}`, item] as const);
    for (const [step, item] of entries)
      pending.push({ value: item, where: `${next.where}${step}`, depth: next.depth + 1 });
  }
  return undefined;
}

/** Deepest nesting a served request's body may have (`deeperThanAllowed`). */
export const MAX_INPUT_DEPTH = MAX_DEPTH;

/**
 * The input without the tool answers Agent Chat UI makes up on every send — "Successfully handled tool call." for each
 * assistant tool call not directly followed by a tool message, ids `do-not-render-…` — which Tempo never needs: it
 * answers every call itself (an open card's calls when the card is answered), and a made-up answer would claim a
 * write that never ran. Any other input is returned as it is.
 */
export function withoutStandInAnswers<T>(input: T): T {
  const messages = inputMessages(input);
  const kept = messages.filter((message) => !(messageType(message) === "tool" && isHiddenId(idOf(message))));
  if (kept.length === messages.length) return input;
  return { ...(input as object), messages: kept } as T;
}

/** The messages of a `{ messages }` input (one or a list), or [] for other inputs. */
export function inputMessages(input: unknown): unknown[] {
  if (input === null || typeof input !== "object" || isCommand(input) || !("messages" in input)) return [];
  const raw = (input as { messages: unknown }).messages;
  return Array.isArray(raw) ? raw : [raw];
}

function idOf(message: unknown): unknown {
  return typeof message === "object" && message !== null ? (message as { id?: unknown }).id : undefined;
}

/** "human", "ai", "remove", ... for a message instance, a `{ type }` / `{ role }` object, or a [role, text] pair. */
function messageType(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  if (typeof (message as BaseMessage).getType === "function") return (message as BaseMessage).getType();
  if (Array.isArray(message)) return typeof message[0] === "string" ? message[0] : undefined;
  const { type, role } = message as { type?: unknown; role?: unknown };
  return typeof type === "string" ? type : typeof role === "string" ? role : undefined;
}

/**
 * Checks every string (keys too) under `value`; returns the characters counted. `resumeLength`, given at the top,
 * hears the characters of a Command's `resume` (a non-null one), counted on the way. Every value that is stored
 * counts at least one character — a number or a boolean as it is written, an empty string, list or object as one —
 * so a list of three million zeros (6 MB of JSON, kept in the thread's checkpoints) is not an input of none.
 */
function walk(
  value: unknown,
  where: string,
  depth: number,
  heard: { chinese: boolean },
  resumeLength?: (length: number) => void,
): number {
  if (typeof value === "string") {
    checkText(value, where);
    if (!heard.chinese && languageOf(value) === "zh") heard.chinese = true;
    return Math.max(1, value.length);
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value).length;
  if (value === null) return 1;
  if (typeof value !== "object") return 0;
  if (depth > MAX_DEPTH)
    throw new TempoError(
      "INVALID_INPUT",
      `The input nests deeper than ${MAX_DEPTH} levels (at ${where}); nothing was changed.`,
      { where },
    );
  let total = 0;
  if (Array.isArray(value)) {
    value.forEach((item, index) => (total += walk(item, `${where}[${index}]`, depth + 1, heard)));
    return Math.max(1, total);
  }
  const command = resumeLength !== undefined && isCommand(value);
  for (const [key, item] of Object.entries(value)) {
    if (MIRROR_KEYS.has(key)) continue;
    checkText(key, `${where} (a key)`);
    const length = walk(item, `${where}.${key}`, depth + 1, heard);
    if (command && key === "resume" && item !== null) resumeLength(length);
    total += key.length + length;
  }
  return Math.max(1, total);
}

/** Throws INVALID_INPUT when `text` holds a NUL or an unpaired surrogate. */
function checkText(text: string, where: string): void {
  const problem = unstorable(text);
  if (problem) {
    throw new TempoError(
      "INVALID_INPUT",
      `The input holds ${problem} at ${where}, which cannot be stored. Remove it and send again; nothing was changed.`,
      { where },
    );
  }
}
