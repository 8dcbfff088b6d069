/**
 * Text without given characters at its ends, in one pass each way. A regular expression such as `/[\s.!]+$/` is
 * quadratic in V8 on a long run of those characters that does not reach the end — each position of the run is tried
 * and scans to the run's end — so a 100 000-character message of spaces or "，" with a letter after them held the
 * event loop, every thread of the server, for seconds to minutes. Loops over the ends are linear.
 */

/**
 * `text` without the characters `edge` matches at its start (when `ends` is "both") and at its end. `edge` matches
 * one character (a class such as `/[\s.!]/`, without the g or y flag); the characters are UTF-16 code units, so the
 * class names characters of the Basic Multilingual Plane.
 */
export function trimEdges(text: string, edge: RegExp, ends: "both" | "end" = "both"): string {
  const matches = (char: string) => edge.test(char);
  const end = skipWhile(text, text.length, -1, matches);
  const start = ends === "both" ? Math.min(skipWhile(text, 0, 1, matches), end) : 0;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * The index past the characters `skip` accepts from `index` on (`step` 1), or of the first of those right before it
 * (`step` -1): a linear walk, for readers that must not backtrack.
 */
export function skipWhile(text: string, index: number, step: 1 | -1, skip: (char: string) => boolean): number {
  let at = index;
  if (step === 1) while (at < text.length && skip(text[at]!)) at += 1;
  else while (at > 0 && skip(text[at - 1]!)) at -= 1;
  return at;
}
