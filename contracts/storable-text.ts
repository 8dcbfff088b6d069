/**
 * Text PostgreSQL cannot store: a NUL character (`\u0000`, refused by `text` as 22021 and by `jsonb` as 22P05) or an
 * unpaired UTF-16 surrogate (`\ud800`–`\udfff` without its partner, refused by `jsonb` as 22P02). Input a person or a
 * model sends that holds it is refused, not repaired (a silently changed title is worse than a clear error): the run
 * checks refuse a user's (server/input-check.ts), a tool's argument check a model's (tools/runner.ts). Only a record
 * of what was refused — the execution log's entry of a refused call — is made storable (`storableCopy`).
 */

/** Where in a value unstorable text is, and what it is ("a NUL character (\u0000)"). */
export interface UnstorableText {
  /** The path to it: `title`, `items[2].name`, `note\u0000 (a key)`; unstorable text in a key is shown escaped. */
  where: string;
  problem: string;
}

/** Deepest nesting looked into; a value nested deeper is refused as a whole (no tool argument nests so deep). */
const MAX_DEPTH = 64;

/** The problem of a value nested deeper than `MAX_DEPTH`. */
const TOO_DEEP = `values nested more than ${MAX_DEPTH} levels deep`;

/** What makes `text` unstorable in Postgres text / jsonb, or undefined. */
export function unstorable(text: string): string | undefined {
  if (text.includes("\u0000")) return "a NUL character (\\u0000)";
  // `isWellFormed` (Node 20) is false exactly when a surrogate has no partner.
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) return "an unpaired UTF-16 surrogate";
  return undefined;
}

/** `text` with what cannot be shown or stored written as JSON escapes (`note\u0000`), for a message about it. */
export function escapedText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * The first unstorable text in `value` — a string, or a key or string anywhere below it in arrays and objects, in
 * document order — or a value nested more than `MAX_DEPTH` levels deep; undefined when there is none. Iterative: no
 * nesting or width overflows the stack.
 */
export function unstorableTextIn(value: unknown): UnstorableText | undefined {
  const pending: Array<{ value: unknown; where: string; depth: number }> = [{ value, where: "", depth: 0 }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next.value === "string") {
      const problem = unstorable(next.value);
      if (problem) return { where: next.where || "(the value)", problem };
      continue;
    }
    if (next.value === null || typeof next.value !== "object") continue;
    if (next.depth >= MAX_DEPTH) return { where: next.where, problem: TOO_DEEP };
    const children: Array<{ value: unknown; where: string; depth: number }> = [];
    if (Array.isArray(next.value)) {
      next.value.forEach((item, index) =>
        children.push({ value: item, where: `${next.where}[${index}]`, depth: next.depth + 1 }),
      );
    } else {
      for (const [key, item] of Object.entries(next.value)) {
        const where = next.where === "" ? escapedText(key) : `${next.where}.${escapedText(key)}`;
        const problem = unstorable(key);
        if (problem) return { where: `${where} (a key)`, problem };
        children.push({ value: item, where, depth: next.depth + 1 });
      }
    }
    // Last pushed, first looked at: in reverse, so the first in the document is found first. One at a time, not
    // spread into one call: a list of 200,000 items is more arguments than a call takes (a RangeError).
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!);
  }
  return undefined;
}

/**
 * `value` with every string and key made storable (a NUL and an unpaired surrogate each become U+FFFD, a value nested
 * more than `MAX_DEPTH` levels deep a note saying so), for the record of something refused; `value` itself when it
 * holds nothing unstorable.
 */
export function storableCopy<T>(value: T): T {
  if (unstorableTextIn(value) === undefined) return value;
  const storableText = (text: string) =>
    (text as string & { toWellFormed(): string }).toWellFormed().replaceAll("\u0000", "\ufffd");
  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item === "string") return storableText(item);
    if (item === null || typeof item !== "object") return item;
    if (depth >= MAX_DEPTH) return `(${TOO_DEEP})`;
    if (Array.isArray(item)) return item.map((entry) => copy(entry, depth + 1));
    return Object.fromEntries(Object.entries(item).map(([key, entry]) => [storableText(key), copy(entry, depth + 1)]));
  };
  return copy(value, 0) as T;
}
