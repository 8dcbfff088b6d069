/**
 * What a to-do request asks, read offline from a user message or a plan step, in English and Chinese: list the
 * items, add one, or complete / reopen / remove one named by (part of) its title. The plan steps the offline policy
 * writes read back to the request they came from.
 */

/** A to-do request. */
export type TodoRequest =
  | { kind: "list"; status: "open" | "done" | "all" }
  | { kind: "add"; title: string }
  | { kind: "complete" | "reopen" | "remove"; title: string }
  | { kind: "unknown" };

/** The to-do list named outright ("my to-do list", "todos", "待办"). */
export const NAMES_TODO_LIST = /\bto-?dos?\b|\bto-?do list\b|待办/i;

const LIST_NAME = String.raw`(?:my|the)\s+(?:to-?do|todo)(?:\s+list)?`;
const TODO_WORD = String.raw`(?:to-?do|todo)(?:\s+item)?`;

/** Patterns, in the order they are tried; the first group is the title, where there is one. */
const PATTERNS: ReadonlyArray<[TodoRequest["kind"], RegExp]> = [
  [
    "reopen",
    new RegExp(
      String.raw`^(?:reopen|re-open|unmark)\s+(?:the\s+)?(?:${TODO_WORD}\s+)?(.+?)(?:\s+on\s+${LIST_NAME})?$`,
      "i",
    ),
  ],
  [
    "reopen",
    new RegExp(
      String.raw`^mark\s+(?:the\s+)?(?:${TODO_WORD}\s+)?(.+?)\s+(?:as\s+)?(?:not done|undone|open)(?:\s+on\s+${LIST_NAME})?$`,
      "i",
    ),
  ],
  [
    "complete",
    new RegExp(
      String.raw`^(?:mark|tick off|tick|check off|cross off|complete|finish)\s+(?:the\s+)?(?:${TODO_WORD}\s+)?(.+?)(?:\s+(?:as\s+)?(?:done|complete|completed|finished))?(?:\s+(?:on|in|from)\s+${LIST_NAME})?$`,
      "i",
    ),
  ],
  [
    "complete",
    new RegExp(
      String.raw`^i(?:'ve| have)?\s+(?:finished|done|did|completed)\s+(?:the\s+)?(?:${TODO_WORD}\s+)?(.+?)$`,
      "i",
    ),
  ],
  [
    "remove",
    new RegExp(
      String.raw`^(?:remove|delete|drop)\s+(?:the\s+)?(?:${TODO_WORD}\s+)?(.+?)(?:\s+from\s+${LIST_NAME})?$`,
      "i",
    ),
  ],
  ["add", new RegExp(String.raw`^(?:add|put|note|write down)\s+(.+?)\s+(?:to|on|onto|in)\s+${LIST_NAME}$`, "i")],
  ["add", new RegExp(String.raw`^(?:add|new|create)\s+(?:a\s+|an\s+|the\s+)?(?:${TODO_WORD})\s*[:：]?\s*(.+)$`, "i")],
  ["add", new RegExp(String.raw`^(?:to-?do|todo)\s*[:：]\s*(.+)$`, "i")],
  ["add", /^remind me to\s+(.+)$/i],
  ["reopen", /^重新打开待办(?:事项)?[:：]?\s*(.+)$/],
  ["complete", /^(?:把)?待办(?:事项)?(.+?)(?:标记为|标为|设为)?(?:已完成|完成|做完)(?:了)?$/],
  ["complete", /^完成(?:了)?待办(?:事项)?[:：]?\s*(.+)$/],
  ["remove", /^(?:删除|删掉|去掉|移除)待办(?:事项)?[:：]?\s*(.+)$/],
  ["remove", /^把待办(?:事项)?(.+?)(?:删除|删掉|去掉|移除)$/],
  ["remove", /^把(.+?)从(?:我的)?待办(?:清单|列表|事项)?(?:里|中)?(?:删除|删掉|去掉|移除)$/],
  ["add", /^(?:把|将)(.+?)(?:加到|加进|添加到|放进|记到|写进)(?:我的)?待办(?:清单|列表|事项)?(?:里|中)?$/],
  ["add", /^(?:添加|新增|加一个|加个|记一个|记个)待办(?:事项)?[:：]?\s*(.+)$/],
  ["add", /^待办[:：]\s*(.+)$/],
];

const LIST_EN = new RegExp(
  String.raw`\b(?:show|list|what'?s|what is|what are|which|see|view|read)\b.*\b(?:to-?dos?|to-?do list|todo list)\b|^(?:my\s+)?to-?dos?\??$`,
  "i",
);
const LIST_ZH =
  /(?:看看|列出|显示|查看|有哪些|还有什么|还有哪些).*待办|待办(?:清单|列表|事项)?(?:有哪些|是什么|还有什么)?[?？]?$/;

/** What `text` asks of the to-do list. */
export function parseTodoRequest(text: string): TodoRequest {
  const cleaned = text
    .trim()
    .replace(/^(?:please|pls|could you|can you|would you)\s+/i, "")
    .replace(/^(?:请|麻烦|帮我|请帮我)\s*/, "")
    .replace(/[\s.!?。！？]+$/, "")
    .replace(/,?\s*(?:please|thanks|thank you)$/i, "")
    .replace(/[，,]?\s*(?:谢谢|好吗)$/, "");
  for (const [kind, pattern] of PATTERNS) {
    const match = pattern.exec(cleaned);
    const title = match?.[1] === undefined ? "" : unquoted(match[1]);
    if (match && title !== "" && !NAMES_TODO_LIST.test(title)) return { kind, title } as TodoRequest;
  }
  if (LIST_EN.test(cleaned) || LIST_ZH.test(cleaned)) {
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
