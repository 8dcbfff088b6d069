/**
 * A name the model writes (a task's, a class's, a habit's, a to-do's) is plain text on one line, as a name the user's
 * calendar file gives is made (`plainEventName`): no control characters (a newline, a tab, a terminal escape), no
 * bidi controls (U+202E turns "exam" on the card into "maxe"), no invisible characters (zero-width spaces, word
 * joiners, a byte order mark). A model's name is refused rather than cleaned, so the model writes it again and the
 * card shows exactly what is applied. A zero-width joiner or non-joiner between two visible characters (emoji
 * sequences, Persian and Indic script) is text and passes. Names stored before are read as they are: only a tool's
 * arguments are held to this.
 */
import { z } from "zod";

/**
 * The rule in the words of a name argument's description, so the model knows it before it writes a name (and the
 * tools' schemas, and with them their fingerprint and the domains' versions, say that it holds).
 */
export const PLAIN_NAME_RULE = "Plain text on one line: no control, bidi or invisible characters.";

/** Bidi controls: marks, embeddings, overrides and isolates. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const HIDDEN = /[\p{Cc}\p{Cf}\p{Co}\u2028\u2029]/u;
const JOINERS = new Set(["\u200c", "\u200d"]);

/** What makes `name` not plain text (which character, where), or undefined when it is. */
export function plainNameProblem(name: string): string | undefined {
  const characters = [...name];
  for (const [index, character] of characters.entries()) {
    if (!HIDDEN.test(character)) continue;
    if (JOINERS.has(character)) {
      const [before, after] = [characters[index - 1], characters[index + 1]];
      if (before !== undefined && after !== undefined && !HIDDEN.test(before) && !HIDDEN.test(after)) continue;
    }
    const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    const kind = BIDI.test(character)
      ? "a bidi control"
      : /\p{Cc}/u.test(character) || character === "\u2028" || character === "\u2029"
        ? "a control character or line break"
        : "an invisible character";
    return `a name is plain text on one line; this one holds ${code} (${kind}) at character ${index + 1}: write it without control, bidi or invisible characters`;
  }
  return undefined;
}

/**
 * A name the model writes (a task's, a class's, a habit's, a to-do's title) as a tool's argument: trimmed, 1 to `max`
 * characters, plain text on one line (`plainNameProblem`), else a tool error naming the character.
 */
export function plainNameField(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .superRefine((name, context) => {
      const problem = plainNameProblem(name);
      if (problem) context.addIssue({ code: "custom", message: problem });
    });
}
