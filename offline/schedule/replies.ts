/**
 * The offline policy's own words: the chat stage (greetings, what it can do,
 * an honest answer to what it does not understand) and the deliver stage
 * (the answer to a read request, or the summary of a task as it went).
 */
import { languageOf, say, stepStatusInChinese, weekdayName, type Language } from "../../contracts/language.js";
import { whyOpenInChinese } from "../../contracts/why-open.js";
import { chatLanguage, goalOf, latestMessage, userLanguage, type PromptView } from "../prompt-reading.js";
import { readTaskAccount, type StepOutcome } from "../stage-state.js";
import {
  isAnywhere,
  OPTIMIZE_REQUEST,
  parseScheduleRequest,
  READ_REQUEST_KINDS,
} from "../../tools/schedule/request-parsing.js";
import { readablePlaces, readableScheduleText } from "../../tools/schedule/readable.js";
import { arrangedHeading, missedIn } from "../../tools/schedule/domain.js";
import { rescheduledHeading, stillMissedInChinese } from "./life-steps.js";
import { dayOfWeekNumber, TASK_STATUS_ZH, type TaskStatus } from "../../tools/schedule/state.js";

/** What the offline policy can do, in the user's language. */
export function capabilities(language: "en" | "zh"): string {
  if (language === "zh") {
    return [
      "我现在以离线模式运行（没有配置模型密钥），能理解这些日程请求：",
      "- 安排：“帮我安排下周的复习”“只安排周三”“把 矩阵复习 安排到周五晚上”",
      "- 移动 / 交换 / 撤下：“把 矩阵复习 移到周四下午”“交换 A 和 B”“取消安排 A”",
      "- 删除课表上的活动：“删除周五的辅导课”（一个系列会整个删除，卡片上会写明）",
      "- 查询：“周一什么时候有空”“周二有什么安排”“还有哪些任务没安排”“解释一下 A”",
      "- 记录：“矩阵复习做完了”“我周二的复习没做”“这周跳过单词表”“撤销”",
      "- 评估：“我这周安排得怎么样”“期中考试前还剩什么”；有复习赶不上截止时说“补救”",
      "任务可以用名称（模糊匹配）或 id 指代，日期可以是星期几或第几天，时段可以是第几节或上午/下午/晚上。",
      "配置模型密钥（OPENAI_API_KEY 或 OPENAI_BASE_URL）后可以处理自由表述的请求。",
    ].join("\n");
  }
  return [
    "I'm running offline (no model key is set), so I understand these schedule requests:",
    '- arrange: "arrange my reviews for next week", "arrange Wednesday", "schedule the matrix review on Friday evening"',
    '- move / swap / unplace: "move the matrix review to Thursday afternoon", "swap A and B", "unplace A"',
    '- remove a timetable event: "remove the Friday tutorial" (a series goes whole; the card says so)',
    '- ask: "when am I free on Monday?", "what\'s on Tuesday?", "which tasks are pending?", "explain A"',
    '- log: "I did the matrix review", "I missed Tuesday\'s review", "skip the vocabulary list this week", "undo that"',
    '- judge: "how healthy is my week?", "what\'s left before the midterm?", and "recover" when a review is at risk',
    "Name tasks by name (roughly is fine) or id, days by weekday or day number, and times by slot number or morning / afternoon / evening.",
    "Set OPENAI_API_KEY (or OPENAI_BASE_URL) to use a model for free-form requests.",
  ].join("\n");
}

/** "Offline, I can't act on …" for feedback the policy does not understand, in the feedback's language. */
export function cannotActOn(feedback: string, consequence: { en: string; zh: string }): string {
  return languageOf(feedback) === "zh"
    ? `离线模式下我无法理解“${feedback}”（配置模型密钥后可处理自由表述的反馈），${consequence.zh}。`
    : `Offline, I can't act on "${feedback}" (a model key unlocks free-form feedback), ${consequence.en}.`;
}

/** The chat stage's decision for the latest user message. */
export function decideChat(view: PromptView): Record<string, unknown> {
  const message = latestMessage(view);
  const language = chatLanguage(view);
  const request = parseScheduleRequest(message);
  if (request.kind === "greeting") {
    const reply =
      language === "zh"
        ? "你好！我是 Tempo（离线模式）。可以让我安排下周的复习，或者问我哪天有空。"
        : "Hello! I'm Tempo, running offline. Ask me to arrange your review sessions for next week, or when you are free.";
    return { intent: "chat", reply, reason: "a greeting" };
  }
  if (request.kind === "help")
    return { intent: "chat", reply: capabilities(language), reason: "a question about what Tempo can do" };
  if (OPTIMIZE_REQUEST.test(message))
    return { intent: "task", reply: "", reason: "a request to improve the arranged week" };
  // Habits (recurring tasks) are not built: said plainly, with what can be done instead — never read as another request.
  if (request.kind === "habit") {
    const preface = say(
      language,
      `Recurring tasks ("${message}") are not something I can set up yet, so I changed nothing. You can add a task to a class and place it, once per session.`,
      `我还不能设置重复的任务（“${message}”），所以什么也没有改。你可以给课程添加任务并逐次安排。`,
    );
    return {
      intent: "chat",
      reply: `${preface}\n${capabilities(language)}`,
      reason: "a habit: recurring tasks are not built",
    };
  }
  if (request.kind === "unknown") {
    const preface =
      language === "zh" ? `离线模式下我理解不了“${message}”。` : `Offline, I can't tell what to do with "${message}".`;
    return {
      intent: "chat",
      reply: `${preface}\n${capabilities(language)}`,
      reason: "not a request the offline policy understands",
    };
  }
  return { intent: "task", reply: "", reason: `a schedule request (${request.kind})` };
}

/** The deliver stage's answer: a read request's answer as found, or the task's steps as they ended. */
export function decideDeliver(view: PromptView): string {
  return finalAnswer({ goal: goalOf(view), ...readTaskAccount(view), language: userLanguage(view) });
}

/**
 * The final answer for a task that ended with `steps`: a read request's answer as found, a single write's result, or
 * the steps as they ended under a heading that never claims more than `outcome`. The deliver stage answers with it,
 * and the execute stage gives it as done's answer (so a completed task needs no deliver call).
 */
export function finalAnswer(input: {
  goal: string;
  steps: StepOutcome[];
  outcome: string;
  stillPending?: string[];
  note?: string;
  language?: Language;
}): string {
  const { steps, outcome, note } = input;
  const zh = input.language === "zh";
  const summaryText = (summary: string) => (zh ? summaryInChinese(summary) : summary);
  const request = parseScheduleRequest(input.goal);
  const only = steps.length === 1 ? steps[0] : undefined;
  if (
    only &&
    (READ_REQUEST_KINDS.has(request.kind) || READ_REQUEST_KINDS.has(parseScheduleRequest(only.content).kind))
  ) {
    // A question the step could not answer says so ("not carried out: I found no task matching …").
    const unanswered = /^not carried out: (.+?)\.?$/s.exec(only.summary ?? "")?.[1];
    if (only.status === "done" && unanswered)
      return readableScheduleText(
        zh ? `无法回答：${summaryInChinese(unanswered)}。` : `I could not answer that: ${unanswered}.`,
        input.language ?? "en",
      );
    if (only.status === "done" && only.summary)
      return readableScheduleText(summaryText(only.summary), input.language ?? "en");
    return zh
      ? `无法回答：${note ?? "这一步没有完成"}。`
      : `I could not answer that: ${note ?? "the step did not finish"}.`;
  }
  if (only && only.status === "done") {
    if (only.summary.startsWith("not carried out")) {
      const why = withoutFullStop(only.summary.replace(/^not carried out: /, ""));
      return readableScheduleText(
        zh ? `日程没有改动：${summaryInChinese(why)}。` : `Your schedule is unchanged: ${why}.`,
        input.language ?? "en",
      );
    }
    // A reschedule that found no place is not told as done: the summary says what stays missed, and why.
    const notRescheduled = /^not rescheduled: (.*)$/s.exec(only.summary)?.[1];
    if (notRescheduled !== undefined)
      return readableScheduleText(
        zh ? `${summaryInChinese(only.summary)}。` : `Nothing was rescheduled: ${notRescheduled}.`,
        input.language ?? "en",
      );
    return readableScheduleText(
      zh ? `完成：${summaryInChinese(withoutFullStop(only.summary))}。` : `Done: ${withoutFullStop(only.summary)}.`,
      input.language ?? "en",
    );
  }
  const done = steps.filter((step) => step.status === "done").length;
  const verify = steps.at(-1)?.summary ?? "";
  const pending = /shows (\d[\d,]*) review task\(s\) still pending/.exec(verify)?.[1];
  // Missed reviews without a place: the week is not arranged while they are there (`missedClause`).
  const missed = missedIn(verify);
  const place = steps.find((step) => /^place\b|^把.*放进/i.test(step.content));
  const scoped = place ? parseScheduleRequest(place.content) : undefined;
  const finished = zh ? `完成了 ${steps.length} 个步骤中的 ${done} 个。` : `Finished ${done} of ${steps.length} steps.`;
  let heading = finished;
  let fullSuccess = false;
  if (
    done === steps.length &&
    steps.length > 0 &&
    scoped?.kind === "arrange" &&
    (scoped.tasks.length > 0 || !isAnywhere({ ...scoped.where, not: { weekdays: [], days: [] } }))
  ) {
    // A scoped arrange ("only Wednesday", named tasks) is judged by its own step, not by the whole week.
    const someLeft = /skipped|left pending|^not carried out/.test(place?.summary ?? "");
    // Told as a full success only when nothing is left anywhere (as before: a heading with more after it is not).
    fullSuccess = !someLeft && (pending === undefined || pending === "0") && missed === 0;
    heading = someLeft
      ? zh
        ? "已安排能放下的部分，其余仍待安排（见下）。"
        : "Placed what fits of what you asked; some of it is left pending (below)."
      : zh
        ? "已按你的要求安排好。"
        : "Placed what you asked for.";
    // A place step that placed nothing (its tasks matched nothing) is never told as placing.
    if (place?.summary.startsWith("not carried out"))
      heading = zh ? "没有安排任何任务（见下）。" : "Nothing was placed (below).";
    if (pending !== undefined && pending !== "0")
      heading += zh
        ? `本周还有 ${pending} 个复习任务待安排。`
        : ` ${pending} review task(s) in the whole week are still pending.`;
  } else if (done === steps.length && steps.length > 0) {
    fullSuccess = (pending === undefined || pending === "0") && missed === 0;
    heading = arrangedHeading(pending ?? "0", zh ? "zh" : "en", missed);
    // "I missed Tuesday's review" asked for no arranging: its answer tells the reschedule.
    if (request.kind === "mark") heading = rescheduledHeading(steps, zh ? "zh" : "en") ?? heading;
  }
  if (outcome === "failed" && done === steps.length && steps.length > 0) {
    // A task that changed nothing (every change turned down, none proposed) says so, never "partly arranged"; with
    // nothing pending either, the week was already arranged: that is what was found.
    heading =
      pending === "0" && missed === 0
        ? zh
          ? "所有复习任务都已安排好，这次没有需要改动的。"
          : "Every review task is already placed: nothing needed changing."
        : pending === "0"
          ? arrangedHeading("0", zh ? "zh" : "en", missed)
          : zh
            ? "没有任何改动，原因见下。"
            : "Nothing was changed; the steps below say why.";
  } else if (outcome !== "completed" && fullSuccess) {
    // Anything short of "completed" is never told as a full success.
    heading = zh
      ? `完成了 ${steps.length} 个步骤中的 ${done} 个（${OUTCOME_ZH[outcome] ?? outcome}）。`
      : `Finished ${done} of ${steps.length} steps (${outcome}).`;
  }
  const status = (name: string) => (zh ? stepStatusInChinese(name) : name);
  const lines = [
    heading,
    ...steps.map(
      (step) => `- [${status(step.status)}] ${step.content}${step.summary ? ` — ${summaryText(step.summary)}` : ""}`,
    ),
    ...(input.stillPending ?? []).map((line) => (zh ? stillPendingInChinese(line) : line)),
  ];
  if (note) lines.push(zh ? `备注：${note}` : `Note: ${note}`);
  // Tasks by name and places by date and time, as the cards say them (the summaries are the tools' words).
  return readableScheduleText(lines.join("\n"), input.language ?? "en");
}

/** A report's "Still pending: name (id) — why" line in Chinese, as far as its usual reasons go. */
/** A result quoted as the answer's own sentence loses its full stop, so the sentence ends once (not "…characters.."). */
function withoutFullStop(text: string): string {
  return text.replace(/[.。]\s*$/, "");
}

function stillPendingInChinese(line: string): string {
  return whyOpenInChinese(line)
    .replace(/^Still pending: /, "仍待安排：")
    .replace(/ — (.+)$/, (whole, why: string) => (LEFT_OUT_ZH[why] ? ` — ${LEFT_OUT_ZH[why]}` : whole));
}

/** Why the arrangement left a review out (`arrangement.ts` `whyLeftOut`), as a step's summary states it, in Chinese. */
const LEFT_OUT_ZH: Readonly<Record<string, string>> = {
  "its deadline has passed": "截止时间已过",
  "no free slot fits": "没有能容纳它的空闲时段",
  "no room left beside the other placements": "能容纳它的时段已留给其他安排",
  "no place beside the other placements found within the search budget": "在搜索预算内没有找到能放下它的位置",
};

const WEEKDAYS_ZH: Readonly<Record<string, string>> = {
  Monday: "周一",
  Tuesday: "周二",
  Wednesday: "周三",
  Thursday: "周四",
  Friday: "周五",
  Saturday: "周六",
  Sunday: "周日",
};

/** A left-out task's limits ("outside Friday, in slots 9-12") in Chinese ("周五以外，第9-12节"). */
function limitsInChinese(limits: string): string {
  const days = (text: string) =>
    text
      .split(" and ")
      .map((day) => WEEKDAYS_ZH[day] ?? day.replace(/^day (\d+)$/, "第$1天"))
      .join("、");
  const parts = limits.split(", ").map((part) =>
    part
      .replace(/^only on (.+)$/, (_, named: string) => `只在${days(named)}`)
      .replace(/^outside (.+)$/, (_, named: string) => `${days(named)}以外`)
      .replace(/^in slots (\d+)-(\d+)$/, "第$1-$2节")
      .replace(/^away from the places you rejected$/, "避开你拒绝的位置"),
  );
  return `${parts.join("，")}：`;
}

/** A JSON-quoted text in Chinese quotation marks. */
function quoted(json: string): string {
  try {
    return `“${String(JSON.parse(json))}”`;
  } catch {
    return json;
  }
}

/** "Mon" / "Monday" → "周一"; anything else stays. */
function weekdayInChinese(english: string): string {
  const weekday = dayOfWeekNumber(english);
  return weekday > 0 ? weekdayName(weekday, "zh") : english;
}

/** The headings of a step that reports its writes, in Chinese. */
const REPORT_HEADINGS_ZH: Readonly<Record<string, string>> = {
  "undid the last change": "已撤销上一次的修改",
  rescheduled: "已补排",
  "not rescheduled": "没有补排",
  "nothing to reschedule": "无需补排",
  recovered: "已补救",
};

/** A task status in Chinese ("已安排"); an unknown one as it is. */
function statusWord(status: string): string {
  return TASK_STATUS_ZH[status as TaskStatus] ?? status;
}

/** What a mark makes a task ("完成", "错过", "跳过"). */
function markWord(to: string): string {
  return { done: "已完成", missed: "错过", skipped: "跳过" }[to] ?? to;
}

const OUTCOME_ZH: Readonly<Record<string, string>> = {
  completed: "已完成",
  partial: "未全部完成",
  failed: "失败",
  dropped: "已放弃，未完成",
};

/**
 * A step summary the tools wrote in English, in Chinese as far as its usual shapes go ("moved task x from day 2
 * slots 3-4 to day 5 slots 9-10"); ids, names and anything unusual stay as they are. A summary the policy already
 * said in Chinese from a write's data (`appliedWriteSummary`) passes through unchanged; the class and task patterns
 * below are for the English summaries of threads saved before it did.
 */
export function summaryInChinese(summary: string): string {
  // A step that reports its writes ("undid the last change: …; …"): the heading, then each write on its own.
  const reported = /^(undid the last change|rescheduled|not rescheduled|nothing to reschedule|recovered): (.*)$/s.exec(
    summary,
  );
  if (reported)
    return `${REPORT_HEADINGS_ZH[reported[1]!]}：${reported[2]!
      .split(/; (?!it is pending again)/)
      .map((part) => {
        const missed = stillMissedInChinese(part);
        return missed !== part ? missed : summaryInChinese(part);
      })
      .join("；")}`;
  // Dated places first, by date and clock time; what is left undated is said by day and slots below.
  return (
    readablePlaces(summary, "zh")
      .replace(/^not carried out: /, "未执行：")
      // import_calendar's refusal when nothing can be added (what it imported is said from its data).
      .replace(
        /^no event of the file can be added \(none falls in the window\)/,
        "文件里没有能添加的日程（都不在日程窗口内）",
      )
      .replace(/^no event of the file can be added: /, "文件里没有能添加的日程：")
      .replace(/^nothing new to import: /, "文件里没有新的日程可导入：")
      .replace(/^added task (\S+) "(.+?)" to class (\S+)/, "已在课程 $3 中添加任务 $1“$2”")
      .replace(/^added task "(.+?)" to class (\S+)/, "已在课程 $2 中添加任务“$1”")
      .replace(
        /^(created|updated) task class (\S+) "(.+?)"/,
        (_, verb: string, id: string, name: string) => `已${verb === "created" ? "创建" : "更新"}课程 ${id}“${name}”`,
      )
      .replace(
        /^refined in (\d+) round\(s\): (?:(\d+) more placed; )?health score ([\d.]+) → ([\d.]+); stopped: /,
        (_, rounds: string, placed: string | undefined, from: string, to: string) =>
          `优化了 ${rounds} 轮：${placed ? `多安排了 ${placed} 项；` : ""}健康分 ${from} → ${to}；停止原因：`,
      )
      .replace(/^nothing to refine: health score ([\d.]+); stopped: /, "无需优化：健康分 $1；停止原因：")
      .replace(
        /^not refined: health score ([\d.]+), (?:(\d+)|the) listed change\(s\) not taken; stopped: /,
        (_, score: string, offered: string | undefined) =>
          `未优化：健康分 ${score}，列出的${offered ? ` ${offered} 项` : ""}调整没有采用；停止原因：`,
      )
      .replace(/no change raises the score any more/, "没有调整能再提高分数")
      .replace(/no gain of ([\d.]+) or more in (\d+) rounds in a row/, "连续 $2 轮提升不足 $1")
      .replace(/the budget of (\d+) rounds is spent/, "$1 轮的优化预算已用完")
      .replace(/none of the listed changes was taken in (\d+) turns in a row/, "连续 $1 轮没有选择列出的调整")
      .replace(/; forced, no change can fix: /, "；无法改善（已证明）：")
      .replace(/^moved task (\S+) from (.+?) to (.+)$/, "已把任务 $1 从$2移到$3")
      .replace(/^placed task (\S+) on (.+)$/, "已把任务 $1 安排在$2")
      .replace(/placed task (\S+) on /g, "已把任务 $1 安排在")
      .replace(/\nChanges applied \(they stay\): (\d+) — /, "\n已应用的修改（保留）：$1 — ")
      .replace(/\nApproved but not applied: (\d+) — /, "\n已批准但未应用：$1 — ")
      // The report's lists of writes end "and N more" past the ones they name (`nameWrites`).
      .replace(/(\n(?:已应用的修改（保留）|已批准但未应用)：[^\n]*?) and (\d+) more(?=\n|$)/g, "$1 等（另有 $2 项）")
      .replace(
        /^unplaced task (\S+) from (.+?)(?: \(was embedded in host (\S+)\))?; it is pending again$/,
        "已把任务 $1 从$2撤下，它重新待安排",
      )
      .replace(/^swapped task (\S+) and task (\S+);/, "已交换任务 $1 和任务 $2；")
      // The life marks (`markedText`): what the task was, and what it is now.
      .replace(
        /^marked task (\S+) (done|missed|skipped) \(it was (\w+)\)$/,
        (_, id: string, to: string, from: string) => `已把任务 ${id} 记为${markWord(to)}（原为${statusWord(from)}）`,
      )
      .replace(
        /^reopened task (\S+): it was (\w+), it is pending again$/,
        (_, id: string, from: string) => `已把任务 ${id} 重新设为待安排（原为${statusWord(from)}）`,
      )
      .replace(/^no review was marked missed$/, "没有复习被记为错过")
      .replace(/^no review is missed$/, "没有错过的复习")
      .replace(/\bmoved (\d+) tasks\b/g, "移动了 $1 个任务")
      .replace(/task (\S+) now on /g, "任务 $1 现在在 ")
      .replace(/; was on /g, "，原在 ")
      .replace(/the schedule shows ([\d,]+) review task\(s\) still pending/, "日程显示还有 $1 个复习任务待安排")
      .replace(/; ([\d,]+) of them fit somewhere free as the week stands/, "，其中 $1 个按目前的日程放得下")
      .replace(
        /; ([\d,]+) missed review task\(s\) have no place(?:: ([^\n]*?)(?: and (\d+) more)?$)?/m,
        (_, count: string, names?: string, more?: string) =>
          `；另有 ${count} 个错过的复习任务没有安排${names ? `：${names.replace(/"([^"]*)"/g, "“$1”").replace(/, /g, "、")}${more ? ` 等（另有 ${more} 项）` : ""}` : ""}`,
      )
      .replace(/list_tasks shows no task matching /, "找不到匹配的任务：")
      // A swap never takes a locked event (`execute-stage.ts` swapStep).
      .replace(
        /^(?:event \S+ )?("(?:[^"\\]|\\.)*") is locked, and a swap never moves it; if its time really changed, ask me to move it$/,
        "$1 已锁定，交换不会移动它；如果它的时间确实改了，请让我移动它",
      )
      .replace(/list_tasks shows no event matching /, "找不到匹配的活动：")
      .replace(/ (?:still )?matches (\d+) events \((.+?)\)$/, " 匹配 $1 个活动（$2）")
      // remove_event's refusals (`tools/remove-event.ts`): what the week still depends on.
      .replace(
        /^the deadline of (.+?) is ("(?:[^"\\]|\\.)*"); change it first; nothing was removed$/,
        "$1 的截止时间是 $2；请先修改截止时间；没有删除任何内容",
      )
      .replace(
        /^("(?:[^"\\]|\\.)*") holds (.+?); move them out first; nothing was removed$/,
        "$1 里有 $2；请先把它们移出；没有删除任何内容",
      )
      .replace(/the user rejected (?:the move|it|the swap)/, "你拒绝了这项修改")
      .replace(/^every placement the plan had room for was proposed/, "已为计划中放得下的每个任务提出了安排")
      .replace(/; skipped: /, "；跳过：")
      .replace(/; left pending: /, "；仍待安排：")
      .replace(/ \(no free slot fits\)/g, "（没有能容纳它的空闲时段）")
      .replace(/ \(its deadline has passed\)/g, "（截止时间已过）")
      .replace(/ \(fits nowhere beside the others, proved\)/g, "（已证明：和其他安排放在一起时没有位置）")
      .replace(
        / \(no free slot fits ([^)]*)\)/g,
        (_, limits: string) => `（${limitsInChinese(limits)}没有能容纳它的空闲时段）`,
      )
      .replace(/ \(no room left beside the other placements\)/g, "（能容纳它的时段已留给其他安排）")
      .replace(
        / \(no place beside the other placements found within the search budget\)/g,
        "（在搜索预算内没有找到能放下它的位置）",
      )
      .replace(
        / \(your standing preference (.+?) rules out the free time it fits in \(\/prefs lists your preferences, \/forget removes one\)\)/g,
        "（你的长期偏好 $1 排除了能容纳它的时段；/prefs 查看偏好，/forget 删除一条）",
      )
      .replace(/no pending task matches /g, "没有匹配的待安排任务：")
      .replace(/" or "/g, '" 或 "')
      .replace(/ \(no pending task matches\)/g, "（没有匹配的待安排任务）")
      .replace(/; ([^;]*?) already on the schedule/, "；$1 已在日程上")
      // A write the rules refused (`move.ts`, `place.ts`): what it would have done, then why.
      // (A refusal about the task itself names it once: the prefix goes, as `readableScheduleText` drops it.)
      .replace(/^cannot (?:move|place) task (\S+): (?=task \1 )/, "")
      .replace(
        /^cannot (move|place) task (\S+): /,
        (_, verb: string, id: string) => `无法${verb === "move" ? "移动" : "安排"}任务 ${id}：`,
      )
      // The buffer a class keeps around its reviews (`rules.ts`).
      .replace(
        / keeps (\d+) free slot\(s\) around it \(its class ("(?:[^"\\]|\\.)*")\), but (event|task) (\S+ "(?:[^"\\]|\\.)*") is at /g,
        (_, buffer: string, name: string, kind: string, neighbour: string) =>
          ` 前后要留出 ${buffer} 节空闲（它的课程 ${name}），但${kind === "event" ? "活动" : "任务"} ${neighbour} 在`,
      )
      // The hard rules' refusals (`rules.ts`), their places already by date and time above.
      .replace(
        / must be done before ((?:event|task) \S+ "(?:[^"\\]|\\.)*") \(([^()]*(?:\([^()]*\))?)\); (.+?) is too late/g,
        " 必须在$1（$2）之前完成；$3 太晚了",
      )
      .replace(/ is due before (.+?); (.+?) is too late/g, " 必须在$1之前完成；$2 太晚了")
      .replace(
        / cannot go before (.+?) \(its earliest day\); (.+?) is too early/g,
        " 不能早于$1（它的最早日期）；$2 太早了",
      )
      .replace(
        / cannot go on (.+?): its class ("(?:[^"\\]|\\.)*") excludes \w+/g,
        " 不能安排在$1：它的课程 $2 不排这一天",
      )
      .replace(
        / cannot go on (.+?): the whole day is blocked for its class ("(?:[^"\\]|\\.)*")/g,
        " 不能安排在$1：这一整天对它的课程 $2 不可用",
      )
      // The standing preferences' refusals (`rules.ts`, `find-free.ts`): the preference in the user's own words.
      .replace(
        / cannot go on (.+?): your standing preference ("(?:[^"\\]|\\.)*") rules (\w+) out; /g,
        (_, day: string, text: string, weekday: string) =>
          ` 不能安排在${day}：你的长期偏好${quoted(text)}排除了${weekdayInChinese(weekday)}；`,
      )
      .replace(
        / cannot start at slot (\d+): your standing preference ("(?:[^"\\]|\\.)*") allows slots (\d+)-(\d+|end) only; /g,
        (_, slot: string, text: string, from: string, to: string) =>
          ` 不能从第${slot}节开始：你的长期偏好${quoted(text)}只允许第${from}${to === "end" ? "节起" : `-${to}节`}；`,
      )
      .replace(
        / cannot end at slot (\d+): your standing preference ("(?:[^"\\]|\\.)*") allows slots up to (\d+) only; /g,
        (_, slot: string, text: string, to: string) =>
          ` 不能在第${slot}节结束：你的长期偏好${quoted(text)}只允许到第${to}节；`,
      )
      .replace(
        /to change it, remove it \(\/prefs lists your preferences, \/forget (\S+) removes this one\)(?: or tell me "(\w+?)s are fine now")?/g,
        (_, id: string, weekday?: string) =>
          `要改变它，请删除它（/prefs 查看偏好，/forget ${id} 删除这一条）${weekday ? `，或者告诉我“${weekdayInChinese(weekday)}可以了”` : ""}`,
      )
      .replace(/your standing preferences rule out every day of the window/g, "你的长期偏好排除了日程窗口中的每一天")
      .replace(
        / \(days (.+?) left out: your standing preferences rule them out\)/g,
        "（已略过第 $1 天：你的长期偏好排除了它们）",
      )
      .replace(/day (\d+) slots (\d+)-(\d+)/g, "第$1天第$2-$3节")
      .replace(/ embedded in host ([A-Za-z0-9_][A-Za-z0-9_.:-]*[A-Za-z0-9_])/g, "（嵌入 $1）")
  );
}
