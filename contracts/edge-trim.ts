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
  let end = text.length;
  while (end > 0 && edge.test(text[end - 1]!)) end -= 1;
  let start = 0;
  if (ends === "both") while (start < end && edge.test(text[start]!)) start += 1;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
