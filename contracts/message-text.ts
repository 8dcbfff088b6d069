/**
 * The one way to read a message's text: a string, or a message's content — a string, or content parts whose text
 * is joined (parts without text, such as images or tool calls, count for nothing, and reasoning parts are never
 * text). Works on anything message-like, including untrusted input, and is "" for no message. `reasoningText` reads
 * the reasoning a model returned beside its answer; `oneLine` shortens text for a summary line.
 */

/**
 * The id prefix of messages Agent Chat UI never draws (its `DO_NOT_RENDER_ID_PREFIX`): the stand-in tool answers it
 * makes up, and Tempo's own bookkeeping (corrections, working-memory rounds) kept from what a person reads.
 */
export const HIDDEN_ID_PREFIX = "do-not-render-";

/** True for a message (or its id) Agent Chat UI does not draw. */
export function isHiddenId(id: unknown): boolean {
  return typeof id === "string" && id.startsWith(HIDDEN_ID_PREFIX);
}

/**
 * The id prefix of Tempo's progress lines in the conversation ("Step 2 of 3: …", the execute node's announcement of
 * a step): Agent Chat UI draws the messages of a thread's state, not Tempo's `custom` status events, so a step's
 * start is an assistant message a person sees. The prompts leave them out (they say nothing the plan does not).
 */
export const PROGRESS_ID_PREFIX = "progress-";

/** True for a progress line's id (a turn's opener's too: `isProgressLine` tells whether it still is one). */
export function isProgressId(id: unknown): boolean {
  return typeof id === "string" && id.startsWith(PROGRESS_ID_PREFIX);
}

/**
 * The id prefix of a turn's opener (`openTurn`, streaming/progress-ui.ts): an assistant message with no text that the
 * turn's first words take the place of (they are written under its id), so a person never sees it empty for long.
 */
export const OPENER_ID_PREFIX = `${PROGRESS_ID_PREFIX}turn-`;

/** The `response_metadata` key that marks a progress line written under a turn's opener's id (a step's line). */
export const PROGRESS_MARK = "tempo_progress";

/**
 * True for a progress line, which the prompts leave out: a step's line ("Step 2 of 3: …"), and a turn's opener while
 * it says nothing. Once the turn's first words took the opener's place they are the conversation like any other
 * message — unless those words were a step's line (marked `PROGRESS_MARK`).
 */
export function isProgressLine(message: unknown): boolean {
  const id = (message as { id?: unknown } | null | undefined)?.id;
  if (!isProgressId(id) || !(id as string).startsWith(OPENER_ID_PREFIX)) return isProgressId(id);
  const { tool_calls: calls, response_metadata: metadata } = message as {
    tool_calls?: unknown[];
    response_metadata?: Record<string, unknown>;
  };
  return (messageText(message) === "" && (calls ?? []).length === 0) || metadata?.[PROGRESS_MARK] === true;
}

/** Content part types that carry a model's reasoning, not its answer. */
const REASONING_PARTS = new Set(["reasoning", "reasoning_content", "thinking", "redacted_thinking"]);

/** The text of a message-like value: a string, or its content (text parts joined, reasoning parts left out); "" for anything else. */
export function messageText(message: unknown): string {
  if (typeof message === "string") return message;
  const content = (message as { content?: unknown } | null | undefined)?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        typeof part === "string"
          ? part
          : REASONING_PARTS.has(part?.type)
            ? ""
            : typeof part?.text === "string"
              ? part.text
              : "",
      )
      .join("");
  }
  return "";
}

/**
 * The reasoning a message carries, "" for none: `additional_kwargs.reasoning_content` (how ChatOpenAI passes on the
 * `reasoning_content` of DeepSeek / Qwen / vLLM servers), a string or summarised `additional_kwargs.reasoning`, and
 * LangChain reasoning content parts (`{type: "reasoning", reasoning}`, summaries, Anthropic's `thinking`).
 */
export function reasoningText(message: unknown): string {
  if (message === null || typeof message !== "object") return "";
  const found: string[] = [];
  const kwargs = (message as { additional_kwargs?: Record<string, unknown> }).additional_kwargs ?? {};
  if (typeof kwargs.reasoning_content === "string") found.push(kwargs.reasoning_content);
  found.push(reasoningOf(kwargs.reasoning));
  const content = (message as { content?: unknown }).content;
  if (Array.isArray(content)) {
    for (const part of content)
      if (part && typeof part === "object" && REASONING_PARTS.has((part as { type?: string }).type ?? ""))
        found.push(reasoningOf(part));
  }
  return found.filter((text) => text.trim() !== "").join("\n\n");
}

/** The text of one reasoning value: a string, or an object's `reasoning` / `thinking` / `text` / `summary[].text`. */
function reasoningOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || typeof value !== "object") return "";
  const part = value as { reasoning?: unknown; thinking?: unknown; text?: unknown; summary?: unknown };
  for (const text of [part.reasoning, part.thinking, part.text])
    if (typeof text === "string" && text.trim()) return text;
  if (Array.isArray(part.summary))
    return part.summary
      .map((item) => (typeof item?.text === "string" ? item.text : ""))
      .filter(Boolean)
      .join("\n");
  return "";
}

/** `text` on one line (runs of whitespace become one space), cut to `limit` characters with "…". */
export function oneLine(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}

/**
 * Where a stage prompt's context message keeps the structured data of its sections, by section name (the live
 * state's tool data): `additional_kwargs[CONTEXT_DATA_KEY]`, read by programs that read prompts (offline policies),
 * never sent to a model server.
 */
export const CONTEXT_DATA_KEY = "tempo_context_data";
