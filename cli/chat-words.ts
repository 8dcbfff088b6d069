/**
 * The terminal chat's own words (issue 48): its prompts, its messages (a thread started or resumed, /debug, /clear,
 * /import, /export, /prefs, /forget, /resume), the /state and /history headings, a slash command typed wrongly and a
 * mistake in an edited card — each as [English, Chinese], told in the conversation's language (`languageOf`, as the
 * cards and the tool lines are). One table, so a wording is changed in one place. Ids, paths, command names and the
 * letter keys stay as they are in both.
 */
import { say, stepStatusInChinese, type Language } from "../contracts/language.js";

/** A chat's words: [English, Chinese]. */
export type Words = readonly [english: string, chinese: string];

/** `words` in `language`. */
export function tell(language: Language, words: Words): string {
  return say(language, words[0], words[1]);
}

/** The prompts. */
export const PROMPTS = {
  message: ["you> ", "你> "],
  choice: ["choice> ", "选择> "],
  answer: ["answer> ", "回答> "],
  feedback: ["feedback> ", "理由> "],
  arguments: ["arguments> ", "参数> "],
  itemFeedback: (item: number): Words => [`feedback ${item}> `, `第 ${item} 项的理由> `],
  itemArguments: (item: number): Words => [`arguments ${item}> `, `第 ${item} 项的参数> `],
  step: (step: number): Words => [`step ${step}> `, `第 ${step} 步> `],
} as const;

/** What the chat says about itself and its commands. */
export const CHAT = {
  threadNew: (label: "started" | "resumed", threadId: string, userId: string): Words => [
    `${label === "started" ? "Thread" : "Resumed thread"} ${threadId} (user ${userId}): new`,
    `${label === "started" ? "对话" : "已切换到对话"} ${threadId}（用户 ${userId}）：新对话`,
  ],
  threadStatus: (
    label: "started" | "resumed",
    threadId: string,
    userId: string,
    status: string,
    goal: string,
  ): Words => [
    `${label === "started" ? "Thread" : "Resumed thread"} ${threadId} (user ${userId}): ${status}${goal ? ` — goal: ${goal}` : ""}`,
    `${label === "started" ? "对话" : "已切换到对话"} ${threadId}（用户 ${userId}）：${statusInChinese(status)}${goal ? ` — 目标：${goal}` : ""}`,
  ],
  reopening: [
    "Your last thread waits for an answer; reopening it (/clear starts a fresh one).",
    "你上一个对话在等你的回答；现在重新打开它（/clear 开始新对话）。",
  ],
  waitsAtEnd: (threadId: string): Words => [
    `Thread ${threadId} waits for your answer; continue with: npm start -- --thread ${threadId}`,
    `对话 ${threadId} 在等你的回答；继续请运行：npm start -- --thread ${threadId}`,
  ],
  carryingOn: (threadId: string): Words => [
    `Thread ${threadId}: resuming — its last run stopped part-way (cancelled, or cut off); carrying it on now.`,
    `对话 ${threadId}：继续运行 — 上一次运行中途停止了（被取消或被中断），现在接着完成。`,
  ],
  debugOn: [
    "Debug view on: tool names, ids and JSON arguments are shown.",
    "调试视图已打开：显示工具名、id 和 JSON 参数。",
  ],
  debugOff: [
    "Debug view off: tasks by name, places by date and time.",
    "调试视图已关闭：任务用名称，位置用日期和时间。",
  ],
  newThread: (threadId: string, previous: string): Words => [
    `New thread ${threadId} (the previous one, ${previous}, stays available: /resume ${previous}).`,
    `新对话 ${threadId}（之前的对话 ${previous} 仍然保留：/resume ${previous}）。`,
  ],
  cardGone: [
    "That card is no longer open: the thread moved on while it waited (answered elsewhere, or its run was stopped). Your answer was not sent; here is where the thread stands.",
    "那张卡片已经不再有效：等待期间对话已经往下走了（在别处回答了，或者那次运行被停止了）。你的回答没有发送；下面是对话现在的情况。",
  ],
  importWhileWaiting: [
    "This thread waits for your answer to the card above; answer it first (or /clear for a fresh thread). Nothing was imported.",
    "这个对话在等你回答上面的卡片；请先回答它（或用 /clear 开始新对话）。没有导入任何内容。",
  ],
  sendingImport: (fileName: string): Words => [
    `Sending ${fileName} to be imported; you will see what it adds on a card first.`,
    `正在发送 ${fileName} 以便导入；它要添加的内容会先显示在卡片上。`,
  ],
  weekUnavailable: ["/week is not available here (no schedule is served).", "这里不能用 /week（没有提供日程）。"],
  exportUnavailable: [
    "/export is not available here (no schedule is served). Nothing was written.",
    "这里不能用 /export（没有提供日程）。没有写入任何文件。",
  ],
  noSavedThread: (threadId: string): Words => [
    `No saved thread ${threadId}. /threads lists your threads.`,
    `没有保存的对话 ${threadId}。/threads 会列出你的对话。`,
  ],
  otherUsersThread: (threadId: string, userId: string): Words => [
    `Thread ${threadId} belongs to another user; you are ${userId}.`,
    `对话 ${threadId} 属于另一个用户；你是 ${userId}。`,
  ],
  bye: ["Bye.", "再见。"],
} as const;

/** A slash command typed wrongly. */
export const COMMAND_MISTAKES = {
  takesNoArgument: (command: string): Words => [
    `${command} takes no argument. Type /help for the commands.`,
    `${command} 不带参数。输入 /help 查看命令。`,
  ],
  fileUsage: (command: string): Words => [`Usage: ${command} <file.ics>.`, `用法：${command} <文件.ics>。`],
  forgetUsage: [
    "Usage: /forget <number or id>. /prefs lists your standing preferences.",
    "用法：/forget <编号或 id>。/prefs 会列出你的长期偏好。",
  ],
  resumeUsage: [
    "Usage: /resume <thread>. /threads lists your threads.",
    "用法：/resume <对话>。/threads 会列出你的对话。",
  ],
  unknown: (command: string): Words => [
    `Unknown command ${command}. Type /help for the commands.`,
    `没有 ${command} 这个命令。输入 /help 查看命令。`,
  ],
} as const;

/** A mistake in what was typed to edit a card: the card keeps waiting. */
export const EDIT_MISTAKES = {
  notJson: (problem: string): Words => [
    `Not valid JSON (${problem}); the card is still waiting.`,
    "这不是有效的 JSON；卡片仍在等待。",
  ],
  notObject: [
    'The arguments must be a JSON object, e.g. {"day": 2}; the card is still waiting.',
    '参数必须是一个 JSON 对象，例如 {"day": 2}；卡片仍在等待。',
  ],
  noSteps: ["No steps given; the card is still waiting.", "没有给出步骤；卡片仍在等待。"],
  notStepList: [
    'The JSON must be a list of {"content": "...", "done_when": "..."}; the card is still waiting.',
    'JSON 必须是 {"content": "...", "done_when": "..."} 的列表；卡片仍在等待。',
  ],
  stepHalf: (step: number): Words => [
    `Step ${step} needs both parts: "what to do | done when"; the card is still waiting.`,
    `第 ${step} 步需要两部分：“要做什么 | 完成标志”；卡片仍在等待。`,
  ],
} as const;

/** A card's choices (`all` on a batch card, where a letter alone answers every change), and mistakes in answering it. */
export const CARD_WORDS = {
  typeAnswer: ["type your answer", "输入你的回答"],
  approve: (all: boolean): Words => [
    all ? "a accept all" : "a approve",
    `a（或“是”“好的”“确认”）${all ? "全部" : ""}批准`,
  ],
  editSteps: ["e edit the steps", "e 修改步骤"],
  editArguments: ["e edit the arguments", "e 修改参数"],
  reject: (all: boolean): Words => [
    `r reject${all ? " all" : ""} with feedback`,
    `r ${all ? "全部" : ""}拒绝并说明理由`,
  ],
  ignore: (all: boolean): Words => [
    `i ignore${all ? " all" : ""} (reject without)`,
    `i ${all ? "全部" : ""}忽略（直接拒绝）`,
  ],
  perChange: (example: string): Words => [
    ` — or one letter per change, in order: a / e edit / r reject with feedback / i ignore (e.g. ${example})`,
    ` — 或按顺序每项一个字母：a 批准 / e 修改 / r 拒绝并说明 / i 忽略（例如 ${example}）`,
  ],
  emptyAnswer: ["Type your answer to the question.", "请输入你对这个问题的回答。"],
  editWhich: (changes: number, example: string): Words => [
    `This card holds ${changes} changes: to edit one, answer one letter per change, with e at its place (e.g. ${example}).`,
    `这张卡片有 ${changes} 项修改：要修改其中一项，请按顺序每项回答一个字母，在那一项写 e（例如 ${example}）。`,
  ],
  answerWith: (choices: string): Words => [
    `Answer with ${choices} (or a /command).`,
    `请这样回答：${choices}（或输入 /命令）。`,
  ],
  noFeedback: ["No feedback given; the card is still waiting.", "没有给出理由；卡片仍在等待。"],
  enterPlan: [
    "Enter the plan, one step a line as `what to do | done when` (or one JSON list of {content, done_when}); an empty line ends it.",
    "请输入计划，每行一步，写成 `要做什么 | 完成标志`（或一个 {content, done_when} 的 JSON 列表）；空行结束。",
  ],
  /** `change`: the change's number on a batch card. */
  enterArguments: (change: number | undefined, now: string): Words => [
    `Enter the arguments${change === undefined ? "" : ` of change ${change}`} as one JSON object (now: ${now}); an empty line keeps the card waiting.`,
    `请把${change === undefined ? "" : `第 ${change} 项修改的`}参数写成一个 JSON 对象（现在是：${now}）；空行则让卡片继续等待。`,
  ],
} as const;

/** /import's refusals of a calendar file (nothing is sent), and /export's word on the file it wrote. */
export const CALENDAR_FILE_WORDS = {
  cannotImport: (file: string, why: string): Words => [
    `Cannot import ${file}: ${why}. Nothing was changed.`,
    `无法导入 ${file}：${why}。没有做任何修改。`,
  ],
  folder: ["it is a folder", "它是一个文件夹"],
  notRegular: ["it is not a regular file", "它不是普通文件"],
  noSuchFile: ["there is no such file", "没有这个文件"],
  permission: ["it cannot be read (permission denied)", "无法读取它（没有权限）"],
  otherwise: (message: string): Words => [message, `无法读取它（${message}）`],
  notUtf8: [
    "it is not a text file (its bytes are not UTF-8 text); an iCalendar file is text",
    "它不是文本文件（内容不是 UTF-8 文本）；iCalendar 文件是文本",
  ],
  nulBytes: [
    "it is not a text file (it holds NUL bytes); an iCalendar file is text",
    "它不是文本文件（含有 NUL 字节）；iCalendar 文件是文本",
  ],
  tooLarge: (size: number, unit: "bytes" | "characters", limit: number, room: number): Words => [
    `it is too large to send: ${size.toLocaleString("en")} ${unit}, and a message holds at most ${limit.toLocaleString("en")} characters (the maxMessageCharacters setting), the request's own words included, so the file may have at most ${room.toLocaleString("en")}`,
    `它太大，无法发送：${size.toLocaleString("en")} ${unit === "bytes" ? "字节" : "个字符"}，而一条消息最多 ${limit.toLocaleString("en")} 个字符（maxMessageCharacters 设置），包括请求本身的文字，所以文件最多只能有 ${room.toLocaleString("en")} 个字符`,
  ],
  // The parser's (ical.js) diagnostic is English: a Chinese user is shown the line of their file it quotes, if any.
  notIcs: (problem: string): Words => {
    const quoted = /"([^"\n]*)"\s*$/.exec(problem)?.[1];
    return [
      `it is not a valid iCalendar (.ics) file (${problem})`,
      `它不是有效的 iCalendar（.ics）文件（无法解析${quoted ? `：“${quoted}”` : ""}）`,
    ];
  },
  wrote: (file: string): Words => [`Wrote your week to ${file}.`, `已把你的一周写入 ${file}。`],
  cannotWrite: (file: string, message: string): Words => [
    `Cannot write ${file}: ${message}.`,
    `无法写入 ${file}：${message}。`,
  ],
} as const;

/** The label of a model's reasoning block. */
export const REASONING_LABEL: Words = ["reasoning", "思考过程"];

/** What an error from a run is labelled with (its message is the error's own). */
export const ERROR_LABEL: Words = ["error: ", "出错："];

/** The /help line above the command list. */
export const HELP_INTRO: Words = [
  "Type a message to give Tempo a task or to chat. At a card, answer with a choice letter.",
  "输入消息给 Tempo 一个任务或和它聊天。遇到卡片时，用选项字母回答。",
];

/** The labels of /state, and what /history says. */
export const STATE_WORDS = {
  statusText: {
    stopped: [
      "stopped, will carry on (the last run stopped part-way; opening the thread with /resume, or your next message, finishes it first)",
      "已停止，会接着完成（上一次运行中途停止了；用 /resume 打开对话或发送下一条消息会先完成它）",
    ],
    resuming: [
      "resuming (the last run stopped part-way; it is being carried on now)",
      "正在继续（上一次运行中途停止了，现在接着完成）",
    ],
  } as Partial<Record<string, Words>>,
  thread: ["thread:  ", "对话：  "],
  user: (userId: string): Words => [` (user ${userId})`, `（用户 ${userId}）`],
  status: ["status:  ", "状态：  "],
  goal: ["goal:    ", "目标：  "],
  none: ["(none yet)", "（还没有）"],
  plan: ["plan:    ", "计划：  "],
  current: ["  ← current", "  ← 当前"],
  tools: (count: number): Words => [`tools:   ${count} call(s)`, `工具：  调用 ${count} 次`],
  lastTool: ["; last: ", "；最后一次："],
  asked: ["asked:   ", "提问：  "],
  ended: ["ended:   ", "结束：  "],
  stillOpen: ["  still open: ", "  仍未完成："],
  answer: ["answer:  ", "回答：  "],
  error: ["error:   ", "错误：  "],
  updated: ["updated: ", "更新：  "],
  version: ["version: ", "版本：  "],
  noSnapshots: [
    "No step snapshots on this thread yet (they are taken when a plan step starts or finishes).",
    "这个对话还没有步骤快照（计划的某一步开始或结束时才会记录）。",
  ],
  snapshots: (count: number): Words => [`${count} step snapshot(s), oldest first:`, `${count} 个步骤快照，从早到晚：`],
  step: (index: number, total: number): Words => [`step ${index} of ${total}`, `第 ${index} 步（共 ${total} 步）`],
  snapshotThread: (status: string, checkpointId: string): Words => [
    `(thread ${status}; checkpoint ${checkpointId})`,
    `（对话${statusInChinese(status)}；检查点 ${checkpointId}）`,
  ],
  noThreads: (userId: string): Words => [
    `No threads of ${userId} seen by this CLI yet.`,
    `这个终端聊天还没有见过 ${userId} 的对话。`,
  ],
  threads: (userId: string): Words => [
    `Threads of ${userId} (newest first; /resume <thread> to switch):`,
    `${userId} 的对话（最新的在前；用 /resume <对话> 切换）：`,
  ],
  waiting: ["  waiting: ", "  等待："],
} as const;

/** A thread's status (ExecutionState) in Chinese; one it does not know stays as it is. */
export function statusInChinese(status: string): string {
  return THREAD_STATUS_ZH[status] ?? stepStatusInChinese(status);
}

const THREAD_STATUS_ZH: Readonly<Record<string, string>> = {
  idle: "空闲",
  planning: "正在计划",
  waiting_user_confirmation: "等你确认",
  waiting_user: "等你回答",
  running: "进行中",
  stopped: "已停止",
  resuming: "正在继续",
  completed: "已完成",
  partial: "部分完成",
  failed: "失败",
  dropped: "已放弃",
};
