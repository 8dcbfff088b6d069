/**
 * The to-do domain's offline policy (`OfflinePolicy`, routed by `tools/offline/router.ts`): it reads to-do requests
 * in English and Chinese, plans one step a request, and carries it out through the to-do tools — reading their
 * structured results (`ToolRun.data`: the listed items, the item a write changed), never their text.
 */
import { say, type Language } from "../../contracts/language.js";
import {
  answerStage,
  finish,
  notCarriedOutEnd,
  propose,
  read,
  type Decision,
  type Finish,
  type NotCarriedOut,
} from "../decisions.js";
import {
  chatLanguage,
  currentStepOf,
  goalOf,
  latestMessage,
  section,
  userLanguage,
  type PromptView,
  type RoundView,
} from "../prompt-reading.js";
import type { OfflinePolicy } from "../router.js";
import { currentPlanSteps, planCardFeedback, readTaskAccount } from "../stage-state.js";
import { NAMES_TODO_LIST, parseTodoRequest, stepText, type TodoRequest } from "./request-parsing.js";
import type { TodoItem } from "../../tools/todo/state.js";
import type { TodoListData, TodoWriteData } from "../../tools/todo/tools.js";
import { readBack, REPORT_WORDS, sayReport } from "../../contracts/report-words.js";
import { notCarriedOutSummaryReason } from "../../kernel/plan-step.js";

type KnownRequest = Exclude<TodoRequest, { kind: "unknown" }>;
type ItemRequest = Extract<TodoRequest, { title: string }>;

/** The to-do domain's offline policy. */
export function todoOfflinePolicy(): OfflinePolicy {
  return {
    understands: (request) =>
      NAMES_TODO_LIST.test(request) ? 1 : parseTodoRequest(request).kind === "unknown" ? 0 : 0.5,
    decide: (view) => answerStage(view, { chat, plan, execute, deliver }),
  };
}

/** What the policy understands, in the user's language. */
function capabilities(language: Language): string {
  return say(
    language,
    'I\'m running offline (no model key is set). For your to-do list I understand: "add buy milk to my to-do list", "show my to-dos", "mark buy milk done", "reopen buy milk", "remove buy milk from my to-do list".',
    "我现在以离线模式运行（没有配置模型密钥）。待办清单方面我能理解：“把买牛奶加到待办”“看看我的待办”“完成待办 买牛奶”“重新打开待办 买牛奶”“删除待办 买牛奶”。",
  );
}

function chat(view: PromptView): Record<string, unknown> {
  const message = latestMessage(view);
  const language = chatLanguage(view);
  const request = parseTodoRequest(message);
  if (request.kind !== "unknown") return { intent: "task", reply: "", reason: `a to-do request (${request.kind})` };
  if (/^(?:hi|hello|hey)\b|你好|您好/i.test(message))
    return {
      intent: "chat",
      reply: say(
        language,
        "Hello! I'm Tempo, running offline. I keep your to-do list.",
        "你好！我是 Tempo（离线模式），可以帮你管理待办清单。",
      ),
      reason: "a greeting",
    };
  return {
    intent: "chat",
    reply: `${say(language, `Offline, I can't tell what to do with "${message}".`, `离线模式下我理解不了“${message}”。`)}\n${capabilities(language)}`,
    reason: "not a request the offline policy understands",
  };
}

function plan(view: PromptView): Record<string, unknown> {
  const state = section(view.context, "stage_state");
  const mode = /^Mode: (\w+)/m.exec(state)?.[1] ?? "draft";
  const language = userLanguage(view);
  if (mode === "replan")
    return { speak: "", action: "continue", reason: "the remaining steps still hold", complexity: "simple" };
  const current = currentPlanSteps(state);
  if (mode === "revise" && current.length > 0) {
    const keep = (speak: string, reason: string) => ({
      speak,
      action: "plan_done",
      reason,
      complexity: "simple",
      need_thinking: false,
      plan_steps: current,
    });
    // A declined write: the step acts on it; the plan stands.
    if (view.rounds.at(-1)?.outcome === "declined")
      return keep("", "the feedback concerns one write; the step handles it");
    const feedback = planCardFeedback(view);
    const asked = parseTodoRequest(feedback);
    if (feedback === "" || feedback === goalOf(view).trim()) return keep("", "nothing to change");
    if (asked.kind !== "unknown")
      return planned(
        asked,
        language,
        say(language, "I've changed the plan to your new request. ", "已按你的新请求修改计划。"),
      );
    return keep(
      say(
        language,
        `Offline, I can't act on the feedback "${feedback}". The plan is unchanged: accept it, edit its step, or ignore it to drop it.`,
        `离线模式下我无法理解这条反馈：“${feedback}”。计划保持不变：可以接受、编辑步骤，或忽略以放弃。`,
      ),
      "the feedback was not understood offline",
    );
  }
  const request = parseTodoRequest(goalOf(view));
  if (request.kind === "unknown")
    return {
      speak: `${capabilities(language)}\n${say(language, "Which of these do you want?", "你想做哪一项？")}`,
      action: "ask_user",
      reason: "the request is not one the offline policy understands",
      complexity: "simple",
    };
  return planned(request, language, "");
}

/** The one-step plan for a request. */
function planned(request: KnownRequest, language: Language, preface: string): Record<string, unknown> {
  const content = stepText(request, language);
  const readOnly = request.kind === "list";
  return {
    speak: readOnly ? "" : `${preface}${say(language, `Plan: ${content}.`, `计划：${content}。`)}`,
    action: "plan_done",
    reason: readOnly ? "a read-only request: one step answers it" : `the request asks to ${request.kind} a to-do`,
    complexity: "simple",
    need_thinking: false,
    read_only: readOnly,
    plan_steps: [
      {
        content,
        done_when: readOnly
          ? "list_todos has listed them"
          : say(
              language,
              "the to-do list shows the change, or why it cannot be made",
              "待办清单显示了这项修改，或说明了无法修改的原因",
            ),
      },
    ],
  };
}

function execute(view: PromptView): Decision {
  const step = currentStepOf(view);
  const end: Finish = step.index >= step.total ? "done" : "next_plan";
  const language = userLanguage(view);
  const request = parseTodoRequest(step.content);
  const rounds = view.rounds.filter((round) => !round.summarised);
  if (request.kind === "unknown") {
    return finish(
      end,
      say(
        language,
        `Offline, I can't carry out the step "${step.content}".`,
        `离线模式下我无法执行步骤“${step.content}”。`,
      ),
      notUnderstood(step.content),
      "the step is not one the offline policy understands",
    );
  }
  if (request.kind === "list") {
    const listing = listingIn(rounds, request.status);
    if (!listing)
      return read(
        say(language, "Reading your to-do list.", "正在读取待办清单。"),
        "list_todos",
        { status: request.status },
        "the step lists the items",
      );
    // The step's summary counts the items and the answer lists them: a task that only listed items is not about them.
    const counted = say(
      language,
      `listed ${listing.items.length} ${listing.status === "all" ? "" : `${listing.status} `}to-do(s)`,
      `列出了 ${listing.items.length} 项待办`,
    );
    return finish(
      end,
      end === "done" ? "" : listingText(listing, language),
      counted,
      "the items are listed",
      listingText(listing, language),
    );
  }
  // A write: its outcome when it was proposed in this step, else propose it.
  const write = rounds.findLast((round) => round.name === toolOf(request.kind));
  if (write) return afterWrite(write, request, end, language);
  if (request.kind === "add") {
    const summary = changed("add", request.title, language);
    return propose(
      say(language, "Adding it to your to-do list.", "正在添加到待办清单。"),
      "add_todo",
      { title: request.title },
      "the step adds this item",
      then(end, summary, language),
    );
  }
  const listing = listingIn(rounds, "all");
  if (!listing)
    return read(
      say(language, "Looking the item up on your to-do list.", "正在待办清单中查找这一项。"),
      "list_todos",
      { status: "all" },
      "the item's id is needed",
    );
  const item = bestMatch(listing.items, request);
  if (!item) {
    const why = say(language, `no to-do matches ${JSON.stringify(request.title)}`, `没有匹配“${request.title}”的待办`);
    return finish(
      end,
      say(
        language,
        `I found no to-do matching ${JSON.stringify(request.title)}; your list is unchanged.`,
        `没有找到匹配“${request.title}”的待办，清单没有改动。`,
      ),
      notCarriedOutEnd(why),
      "nothing matches",
    );
  }
  const already = request.kind === "complete" ? item.done : request.kind === "reopen" ? !item.done : false;
  if (already) {
    const why = say(
      language,
      `${JSON.stringify(item.title)} is already ${item.done ? "done" : "open"}`,
      `“${item.title}”已经是${item.done ? "完成" : "未完成"}状态`,
    );
    return finish(end, "", notCarriedOutEnd(why), "nothing to change");
  }
  return propose(
    "",
    toolOf(request.kind),
    { id: item.id },
    `the step changes ${item.id}`,
    then(end, changed(request.kind, item.title, language), language),
  );
}

/**
 * A step the policy does not understand, as its summary says it: in English from the report's phrases (as every
 * domain's policy says it), so a Chinese answer says it from the same phrase (`reasonInChinese`).
 */
function notUnderstood(step: string): NotCarriedOut {
  return notCarriedOutEnd(sayReport("en", "notUnderstood", { step }));
}

/** A reason after "not carried out: " in Chinese: the step not understood read back from its phrase; the rest are said in the user's language already. */
function reasonInChinese(reason: string): string {
  const read = readBack(REPORT_WORDS.en.notUnderstood, reason);
  return read ? sayReport("zh", "notUnderstood", read) : reason;
}

/** What a write did, as the step's summary and the answer say it. */
function changed(kind: ItemRequest["kind"], title: string, language: Language): string {
  const quoted = JSON.stringify(title);
  switch (kind) {
    case "add":
      return say(language, `added the to-do ${quoted}`, `已添加待办“${title}”`);
    case "complete":
      return say(language, `marked the to-do ${quoted} done`, `已把待办“${title}”标记为完成`);
    case "reopen":
      return say(language, `reopened the to-do ${quoted}`, `已重新打开待办“${title}”`);
    case "remove":
      return say(language, `removed the to-do ${quoted}`, `已删除待办“${title}”`);
  }
}

/** The answer for a change made: "Done: <what>." */
function doneAnswer(summary: string, language: Language): string {
  return say(language, `Done: ${summary}.`, `完成：${summary}。`);
}

/** How the step ends once its write applies unchanged; a last step carries the final answer. */
function then(action: Finish, summary: string, language: Language) {
  return { action, goalCheck: summary, answer: doneAnswer(summary, language) };
}

/** The step's end after its write was decided: applied, declined or failed. */
function afterWrite(round: RoundView, request: ItemRequest, end: Finish, language: Language): Decision {
  const item = (round.data as TodoWriteData | undefined)?.item;
  if (round.outcome === "applied" && item) {
    const summary = changed(request.kind, item.title, language);
    return finish(end, "", summary, "the write applied", doneAnswer(summary, language));
  }
  if (round.outcome === "declined") {
    const why = say(language, "you declined the change", "你拒绝了这项修改");
    return finish(
      end,
      say(language, "Understood; your to-do list is unchanged.", "好的，待办清单没有改动。"),
      notCarriedOutEnd(why),
      "the user declined the write",
    );
  }
  // A failure's reason is the tool's own sentence, passed on to the user as it is.
  const reason = round.result.replace(/^error:\s*/i, "");
  return finish(
    end,
    say(language, `That did not work: ${reason}`, `没有成功：${reason}`),
    notCarriedOutEnd(reason),
    "the write failed",
  );
}

function toolOf(kind: ItemRequest["kind"]): string {
  return { add: "add_todo", complete: "complete_todo", reopen: "reopen_todo", remove: "remove_todo" }[kind];
}

/** The newest listing of the step that covers `status` (an "all" listing covers every status), as data. */
function listingIn(rounds: readonly RoundView[], status: TodoListData["status"]): TodoListData | undefined {
  for (const round of [...rounds].reverse()) {
    if (round.name !== "list_todos" || round.outcome !== "done") continue;
    const data = round.data as TodoListData | undefined;
    if (data && Array.isArray(data.items) && (data.status === status || data.status === "all")) {
      return data.status === status
        ? data
        : {
            ...data,
            status,
            items: data.items.filter((item) => status === "all" || item.done === (status === "done")),
          };
    }
  }
  return undefined;
}

/** The listing as the answer says it. */
function listingText(listing: TodoListData, language: Language): string {
  const which = { open: ["open", "未完成的"], done: ["done", "已完成的"], all: ["", "全部"] }[listing.status];
  if (listing.items.length === 0)
    return say(language, `You have no ${which[0] ? `${which[0]} ` : ""}to-dos.`, `没有${which[1]}待办。`);
  const lines = listing.items.map(
    (item) => `- ${item.title}${listing.status === "all" && item.done ? say(language, " (done)", "（已完成）") : ""}`,
  );
  return [
    say(
      language,
      `Your ${which[0] ? `${which[0]} ` : ""}to-dos (${listing.items.length}):`,
      `${which[1]}待办（${listing.items.length} 项）：`,
    ),
    ...lines,
  ].join("\n");
}

/** The item `request` names: the title itself, else one holding it, else one holding all its words; open items first for complete, done ones for reopen. */
export function bestMatch(items: readonly TodoItem[], request: ItemRequest): TodoItem | undefined {
  const wanted = normalized(request.title);
  const words = wanted.split(" ").filter((word) => word.length > 1);
  const score = (item: TodoItem) => {
    const title = normalized(item.title);
    if (title === wanted || item.id === request.title.trim()) return 3;
    if (title.includes(wanted)) return 2;
    return words.length > 0 && words.every((word) => title.includes(word)) ? 1 : 0;
  };
  const preferred = (item: TodoItem) =>
    request.kind === "complete" ? !item.done : request.kind === "reopen" ? item.done : true;
  let best: TodoItem | undefined;
  let bestScore = 0;
  for (const item of items) {
    const value = score(item) * 2 + (preferred(item) ? 1 : 0);
    if (score(item) > 0 && value > bestScore) [best, bestScore] = [item, value];
  }
  return best;
}

function normalized(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The final answer: a single step's summary, or the steps as they ended. */
function deliver(view: PromptView): string {
  const language = userLanguage(view);
  const account = readTaskAccount(view);
  const only = account.steps.length === 1 ? account.steps[0] : undefined;
  if (only && only.status === "done" && only.summary) {
    const reason = notCarriedOutSummaryReason(only.summary);
    if (reason !== undefined) {
      return say(
        language,
        `Your to-do list is unchanged: ${reason}.`,
        `待办清单没有改动：${reasonInChinese(reason)}。`,
      );
    }
    return /\n/.test(only.summary) ? only.summary : doneAnswer(only.summary, language);
  }
  const lines = account.steps.map(
    (step) => `- [${step.status}] ${step.content}${step.summary ? ` — ${step.summary}` : ""}`,
  );
  const done = account.steps.filter((step) => step.status === "done").length;
  const heading = say(
    language,
    `Finished ${done} of ${account.steps.length} steps (${account.outcome}).`,
    `完成了 ${account.steps.length} 个步骤中的 ${done} 个。`,
  );
  return [
    heading,
    ...lines,
    ...(account.note ? [say(language, `Note: ${account.note}`, `备注：${account.note}`)] : []),
  ].join("\n");
}
