/**
 * The one way to read a message's text: a string, or a message's content — a string, or content parts whose text
 * is joined (parts without text, such as images or tool calls, count for nothing). Works on anything message-like,
 * including untrusted input, and is "" for no message. `oneLine` shortens such text for a summary line.
 */

/** The text of a message-like value: a string, or its content (text parts joined); "" for anything else. */
export function messageText(message: unknown): string {
  if (typeof message === "string") return message;
  const content = (message as { content?: unknown } | null | undefined)?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === "string" ? part : typeof part?.text === "string" ? part.text : "")).join("");
  return "";
}

/** `text` on one line (runs of whitespace become one space), cut to `limit` characters with "…". */
export function oneLine(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}
