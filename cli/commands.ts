/**
 * The terminal chat's slash commands: parsing a typed line into a command,
 * and the help text that lists them.
 */
import type { Language } from "../contracts/language.js";
import { trimEdges } from "../contracts/edge-trim.js";
import { commandText, isCommandText, saidCommandName } from "../kernel/commands.js";
import { COMMAND_MISTAKES, tell, type Words } from "./chat-words.js";

/** A slash command the chat understands, or an unknown / malformed one. */
export type ChatCommand =
  | { name: "clear" }
  | { name: "state" }
  | { name: "history" }
  | { name: "threads" }
  /** Draw the user's week as a grid. */
  | { name: "week" }
  /** Turn the debug view (tool names, ids, JSON arguments) on or off. */
  | { name: "debug" }
  | { name: "resume"; threadId: string }
  /** Send a local .ics file to be imported: a card comes first, nothing is stored without it. */
  | { name: "import"; path: string }
  /** Write the week as a local .ics file. */
  | { name: "export"; path: string }
  /** List the user's standing preferences, numbered. */
  | { name: "prefs" }
  /** Remove one standing preference, by its number in /prefs or its id. */
  | { name: "forget"; reference: string }
  | { name: "help" }
  | { name: "quit" }
  /** A slash command the chat does not know, or one used wrongly; `message` says what to do. */
  | { name: "invalid"; message: string };

/** What each command does, in the order /help lists them: in English and in Chinese (the command keeps its name). */
export const COMMAND_HELP: ReadonlyArray<readonly [usage: string, english: string, chinese: string]> = [
  [
    "/clear",
    "start a fresh thread (your task summary is cleared; the old thread stays resumable)",
    "开始新对话（清除你的任务摘要；旧对话仍可切换回去）",
  ],
  [
    "/state",
    "show this thread's execution state: goal, plan steps, tool calls, answer",
    "显示这个对话的执行状态：目标、计划步骤、工具调用、回答",
  ],
  ["/history", "show the snapshots taken at each step transition", "显示每一步开始和结束时记录的快照"],
  ["/threads", "list your threads seen by this CLI", "列出这个终端聊天见过的你的对话"],
  [
    "/week",
    "draw your week: the timetable, your placed reviews by class, free time, and what has passed",
    "画出你的一周：课表、按课程显示已安排的复习、空闲时间和已经过去的时间",
  ],
  [
    "/resume <thread>",
    "switch to a thread (a waiting card is shown again)",
    "切换到一个对话（等待中的卡片会再次显示）",
  ],
  [
    "/import <file.ics>",
    "import a timetable from an iCalendar file (shown on a card first; nothing is stored until you approve)",
    "从 iCalendar 文件导入课表（先显示在卡片上；你批准之前不会保存任何内容）",
  ],
  [
    "/export <file.ics>",
    "write your week (timetable and placed reviews) to an iCalendar file",
    "把你的一周（课表和已安排的复习）写入 iCalendar 文件",
  ],
  [
    "/prefs",
    'list your standing preferences ("never on Monday", "I prefer mornings"), numbered',
    "列出你的长期偏好（如“周一不要排”“我喜欢上午”），带编号",
  ],
  [
    "/forget <n|id>",
    "remove a standing preference by its number in /prefs or its id",
    "按 /prefs 中的编号或 id 删除一条长期偏好",
  ],
  [
    "/debug",
    "turn the debug view on or off: tool names, ids and JSON arguments on tool lines and cards",
    "打开或关闭调试视图：在工具行和卡片上显示工具名、id 和 JSON 参数",
  ],
  ["/help", "show this help", "显示这份帮助"],
  ["/quit", "leave (also /exit, or end the input)", "退出（也可以用 /exit，或结束输入）"],
];

/**
 * True when the line is a slash command rather than a message: read as the graph reads a message (`commandText`), so
 * "／prefs" typed with a Chinese input method, or "/prefs" behind an invisible character, is the command here too
 * (before, such a line went to the graph, and with a card waiting it was taken as the card's answer).
 */
export function isCommand(line: string): boolean {
  return isCommandText(line);
}

/** A space, or a character that shows nothing (as `commandText` drops them). */
const BLANK = /[\s\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/**
 * The rest of `line` after its first word, with only the spaces and invisible characters at its ends taken off: a
 * path may hold a zero-width non-joiner (Persian names do), which `commandText` drops from the middle of the line.
 */
function restOfLine(line: string): string {
  return trimEdges(trimEdges(line, BLANK).replace(/^\S*/u, ""), BLANK);
}

/** Parses a slash-command line, read as `commandText` reads a message; a mistake is told in `language`. */
export function parseCommand(line: string, language: Language = "en"): ChatCommand {
  const invalid = (words: Words): ChatCommand => ({ name: "invalid", message: tell(language, words) });
  const text = commandText(line) ?? line.trim();
  const [head = "", ...rest] = text.split(/\s+/);
  const name = head.toLowerCase();
  const argument = rest.join(" ");
  const noArgument = (command: ChatCommand): ChatCommand =>
    argument === "" ? command : invalid(COMMAND_MISTAKES.takesNoArgument(saidCommandName(head)));
  switch (name) {
    case "/clear":
      return noArgument({ name: "clear" });
    case "/state":
      return noArgument({ name: "state" });
    case "/week":
      return noArgument({ name: "week" });
    case "/debug":
      return noArgument({ name: "debug" });
    case "/history":
      return noArgument({ name: "history" });
    case "/threads":
      return noArgument({ name: "threads" });
    case "/help":
    case "/?":
      return noArgument({ name: "help" });
    case "/quit":
    case "/exit":
      return noArgument({ name: "quit" });
    case "/import":
    case "/export": {
      // The path is the rest of the line (it may hold spaces); quotes around it are dropped.
      const path = restOfLine(line)
        .replace(/^(["'])(.*)\1$/, "$2")
        .trim();
      if (path === "") return invalid(COMMAND_MISTAKES.fileUsage(name));
      return { name: name === "/import" ? "import" : "export", path };
    }
    case "/prefs":
    case "/preferences":
      return noArgument({ name: "prefs" });
    case "/forget":
      if (rest.length !== 1) return invalid(COMMAND_MISTAKES.forgetUsage);
      return { name: "forget", reference: rest[0]! };
    case "/resume":
      if (rest.length !== 1) return invalid(COMMAND_MISTAKES.resumeUsage);
      return { name: "resume", threadId: rest[0]! };
    default:
      return invalid(COMMAND_MISTAKES.unknown(saidCommandName(head)));
  }
}
