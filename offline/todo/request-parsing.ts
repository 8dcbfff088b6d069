/**
 * What a to-do request asks, read offline from a user message or a plan step, in English and Chinese: list the
 * items, add one, or complete / reopen / remove one named by (part of) its title. The plan steps the offline policy
 * writes read back to the request they came from.
 */

import { trimEdges } from "../../contracts/edge-trim.js";

/** A to-do request. */
export type TodoRequest =
  | { kind: "list"; status: "open" | "done" | "all" }
  | { kind: "add"; title: string }
  | { kind: "complete" | "reopen" | "remove"; title: string }
  | { kind: "unknown" };

/** The to-do list named outright ("my to-do list", "todos", "待办"). */
export const NAMES_TODO_LIST = /\bto-?dos?\b|\bto-?do list\b|待办/i;

// Spaces are read a whole run at a time (`(?<!\s)\s+(?!\s)`, `\s*(?!\s)`): with a plain `\s+` or `\s*` next to
// `(.+?)` or `(.+)`, each split of a long run of spaces was tried — "add x", 100 000 spaces and "x" took seconds.
const RUN = String.raw`(?<!\s)\s+(?!\s)`;
const GAP = String.raw`\s*(?!\s)`;
const LIST_NAME = String.raw`(?:my|the)${RUN}(?:to-?do|todo)(?:${RUN}list)?`;
const TODO_WORD = String.raw`(?:to-?do|todo)(?:${RUN}item)?`;

/** Patterns, in the order they are tried; the first group is the title, where there is one. */
const PATTERNS: ReadonlyArray<[TodoRequest["kind"], RegExp]> = [
  [
    "reopen",
    new RegExp(
      String.raw`^(?:reopen|re-open|unmark)${RUN}(?:the${RUN})?(?:${TODO_WORD}${RUN})?(.+?)(?:${RUN}on${RUN}${LIST_NAME})?$`,
      "i",
    ),
  ],
  [
    "reopen",
    new RegExp(
      String.raw`^mark${RUN}(?:the${RUN})?(?:${TODO_WORD}${RUN})?(.+?)${RUN}(?:as${RUN})?(?:not done|undone|open)(?:${RUN}on${RUN}${LIST_NAME})?$`,
      "i",
    ),
  ],
  [
    "complete",
    new RegExp(
      String.raw`^(?:mark|tick off|tick|check off|cross off|complete|finish)${RUN}(?:the${RUN})?(?:${TODO_WORD}${RUN})?(.+?)(?:${RUN}(?:as${RUN})?(?:done|complete|completed|finished))?(?:${RUN}(?:on|in|from)${RUN}${LIST_NAME})?$`,
      "i",
    ),
  ],
  [
    "complete",
    new RegExp(
      String.raw`^i(?:'ve| have)?${RUN}(?:finished|done|did|completed)${RUN}(?:the${RUN})?(?:${TODO_WORD}${RUN})?(.+?)$`,
      "i",
    ),
  ],
  [
    "remove",
    new RegExp(
      String.raw`^(?:remove|delete|drop)${RUN}(?:the${RUN})?(?:${TODO_WORD}${RUN})?(.+?)(?:${RUN}from${RUN}${LIST_NAME})?$`,
      "i",
    ),
  ],
  [
    "add",
    new RegExp(String.raw`^(?:add|put|note|write down)${RUN}(.+?)${RUN}(?:to|on|onto|in)${RUN}${LIST_NAME}$`, "i"),
  ],
  [
    "add",
    new RegExp(
      String.raw`^(?:add|new|create)${RUN}(?:a${RUN}|an${RUN}|the${RUN})?(?:${TODO_WORD})${GAP}[:：]?${GAP}(.+)$`,
      "i",
    ),
  ],
  ["add", new RegExp(String.raw`^(?:to-?do|todo)${GAP}[:：]${GAP}(.+)$`, "i")],
  ["add", /^remind me to(?<!\s)\s+(?!\s)(.+)$/i],
  ["reopen", /^重新打开待办(?:事项)?[:：]?\s*(?!\s)(.+)$/],
  ["complete", /^(?:把)?待办(?:事项)?(.+?)(?:标记为|标为|设为)?(?:已完成|完成|做完)(?:了)?$/],
  ["complete", /^完成(?:了)?待办(?:事项)?[:：]?\s*(?!\s)(.+)$/],
  ["remove", /^(?:删除|删掉|去掉|移除)待办(?:事项)?[:：]?\s*(?!\s)(.+)$/],
  ["remove", /^把待办(?:事项)?(.+?)(?:删除|删掉|去掉|移除)$/],
  ["remove", /^把(.+?)从(?:我的)?待办(?:清单|列表|事项)?(?:里|中)?(?:删除|删掉|去掉|移除)$/],
  ["add", /^(?:把|将)(.+?)(?:加到|加进|添加到|放进|记到|写进)(?:我的)?待办(?:清单|列表|事项)?(?:里|中)?$/],
  ["add", /^(?:添加|新增|加一个|加个|记一个|记个)待办(?:事项)?[:：]?\s*(?!\s)(.+)$/],
  ["add", /^待办[:：]\s*(?!\s)(.+)$/],
];

// A list request is a verb with the list after it on the same line (`verb.*list`, read in one pass: `asksAfter`), or
// the list alone.
const LIST_VERB_EN = /\b(?:show|list|what'?s|what is|what are|which|see|view|read)\b/i;
const LIST_AFTER_EN = /\b(?:to-?dos?|to-?do list|todo list)\b/gi;
const LIST_ALONE_EN = /^(?:my\s+)?to-?dos?\??$/i;
const LIST_VERB_ZH = /(?:看看|列出|显示|查看|有哪些|还有什么|还有哪些)/;
const LIST_AFTER_ZH = /待办/g;
const LIST_ALONE_ZH = /待办(?:清单|列表|事项)?(?:有哪些|是什么|还有什么)?[?？]?$/;

/**
 * Whether a line of `text` has `verb` with `after` later on it: what `/verb.*after/` tests, in time linear in the text
 * (that expression tries `.*` from every verb — "show " 20 000 times, or "看看" 50 000, took seconds). The first verb
 * of a line serves: any `after` past a later verb is past it too. `after` has the g flag (its `\b` sees the verb).
 */
function asksAfter(text: string, verb: RegExp, after: RegExp): boolean {
  for (const line of text.split(/[\n\r\u2028\u2029]/)) {
    const found = verb.exec(line);
    if (!found) continue;
    after.lastIndex = found.index + found[0].length;
    if (after.test(line)) return true;
  }
  return false;
}

/**
 * `text` without `ending` (a pattern that ends with `$`) and the spaces and one `comma` before it: what
 * `/,?\s*(?:ending)$/` does, in one pass (that expression tries `\s*` from each space of a long run).
 */
function withoutEnding(text: string, ending: RegExp, comma: RegExp): string {
  const found = ending.exec(text);
  if (!found) return text;
  let start = found.index;
  while (start > 0 && /\s/.test(text[start - 1]!)) start -= 1;
  if (start > 0 && comma.test(text[start - 1]!)) start -= 1;
  return text.slice(0, start);
}

/** What `text` asks of the to-do list. */
export function parseTodoRequest(text: string): TodoRequest {
  // (The ends are trimmed in one pass: a trailing-run expression is quadratic on a long run that misses the end.)
  const opened = text
    .trim()
    .replace(/^(?:please|pls|could you|can you|would you)\s+/i, "")
    .replace(/^(?:请|麻烦|帮我|请帮我)\s*/, "");
  const cleaned = withoutEnding(
    withoutEnding(trimEdges(opened, /[\s.!?。！？]/, "end"), /(?:please|thanks|thank you)$/i, /,/),
    /(?:谢谢|好吗)$/,
    /[，,]/,
  );
  for (const [kind, pattern] of PATTERNS) {
    const match = pattern.exec(cleaned);
    const title = match?.[1] === undefined ? "" : unquoted(match[1]);
    if (match && title !== "" && !NAMES_TODO_LIST.test(title)) return { kind, title } as TodoRequest;
  }
  if (
    asksAfter(cleaned, LIST_VERB_EN, LIST_AFTER_EN) ||
    LIST_ALONE_EN.test(cleaned) ||
    asksAfter(cleaned, LIST_VERB_ZH, LIST_AFTER_ZH) ||
    LIST_ALONE_ZH.test(cleaned)
  ) {
    const status = /\ball\b|全部|所有/i.test(cleaned)
      ? "all"
      : /\b(?:done|finished|completed)\b|已完成|做完/i.test(cleaned)
        ? "done"
        : "open";
    return { kind: "list", status };
  }
  return { kind: "unknown" };
}

/** A title without the quotes around it. */
function unquoted(text: string): string {
  return text
    .trim()
    .replace(/^["'“‘「『](.*)["'”’」』]$/u, "$1")
    .trim();
}

/** A plan step that carries out `request`, written so that `parseTodoRequest` reads it back. */
export function stepText(request: Exclude<TodoRequest, { kind: "unknown" }>, language: "en" | "zh"): string {
  const zh = language === "zh";
  switch (request.kind) {
    case "list": {
      if (zh)
        return request.status === "all"
          ? "列出全部待办"
          : request.status === "done"
            ? "列出已完成的待办"
            : "列出未完成的待办";
      return request.status === "all" ? "List all to-dos" : `List the ${request.status} to-dos`;
    }
    case "add":
      return zh ? `添加待办“${request.title}”` : `Add the to-do ${JSON.stringify(request.title)}`;
    case "complete":
      return zh ? `把待办“${request.title}”标记为完成` : `Mark the to-do ${JSON.stringify(request.title)} done`;
    case "reopen":
      return zh ? `重新打开待办“${request.title}”` : `Reopen the to-do ${JSON.stringify(request.title)}`;
    case "remove":
      return zh ? `删除待办“${request.title}”` : `Remove the to-do ${JSON.stringify(request.title)}`;
  }
}
