/**
 * Tolerant extraction of one JSON object from model text (docs/design.md#tolerant-json):
 * prose before or after the object, markdown code fences, nested braces and
 * braces inside strings are all handled. Returns undefined when no complete
 * object can be found.
 */

/**
 * A value given as JSON text read as the JSON it holds (`"3"` → 3, `"[1,2]"` → [1, 2], `'{"day":1}'` → the object),
 * anything else — and text that is not JSON — as it is. Edit forms and models send numbers, lists and objects so.
 */
export function fromJsonText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value.trim()) as unknown;
  } catch {
    return value;
  }
}

/** Opening braces tried per text: bounds the work on adversarial output (many unbalanced braces) to linear. */
const MAX_STARTS = 32;

/** Returns the first balanced `{...}` that parses as a JSON object, or undefined. */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const candidates = [...fencedBlocks(text), text];
  for (const candidate of candidates) {
    let tried = 0;
    for (
      let start = candidate.indexOf("{");
      start !== -1 && tried < MAX_STARTS;
      start = candidate.indexOf("{", start + 1)
    ) {
      tried += 1;
      const end = matchingBrace(candidate, start);
      if (end === -1) continue;
      const parsed = tryParseObject(candidate.slice(start, end + 1));
      if (parsed) return parsed;
    }
  }
  return undefined;
}

/** Contents of ``` fenced blocks, in order. */
function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  const fence = /```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/g;
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    if (match[1]) blocks.push(match[1]);
  }
  return blocks;
}

/** Index of the brace closing the one at `start`, skipping braces inside strings; -1 if unbalanced. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (character === "\\") escaped = true;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') inString = true;
    else if (character === "{") depth += 1;
    else if (character === "}") {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

function tryParseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
