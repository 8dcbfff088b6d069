/**
 * The offline policy's own words: the chat stage (greetings, what it can do,
 * an honest answer to what it does not understand) and the deliver stage
 * (the answer to a read request, or the summary of a task as it went).
 */
import { languageOf, say, stepStatusInChinese, weekdayName, type Language } from "../../contracts/language.js";
import { whyOpenIn } from "../../contracts/why-open.js";
import { factsInLanguage, readBack, REPORT_WORDS, stopNoteIn } from "../../contracts/report-words.js";
import {
  chatLanguage,
  goalOf,
  latestMessage,
  section,
  userLanguage,
  userLinesBefore,
  type PromptView,
} from "../prompt-reading.js";
import { readTaskAccount, type StepOutcome } from "../stage-state.js";
import {
  isAnywhere,
  OPTIMIZE_REQUEST,
  normalizeText,
  parseScheduleRequest,
  readNightHourAfter,
  readWhere,
  timedPlacement,
  type ScheduleRequest,
  READ_REQUEST_KINDS,
} from "../../tools/schedule/request-parsing.js";
import { readableScheduleText } from "../../tools/schedule/readable.js";
import { TASK_STATUS_ZH } from "../../tools/schedule/state.js";
import { isClassRule, readSchedulePreferences, unkeptHourIn } from "../../tools/schedule/preferences.js";
import {
  BLANKET_CUE,
  daysOfRule,
  describeRule,
  PREFERENCES_TAG,
  STANDING_CUE,
  type PreferenceChange,
  type PreferenceRule,
} from "../../contracts/preferences.js";
import { arrangedHeading, missedIn } from "../../tools/schedule/domain.js";
import { rescheduledHeading } from "./life-steps.js";
import { leftOutIn, summaryInChinese } from "../../tools/schedule/summary-words.js";
import { summaryPattern } from "../../tools/schedule/summary-phrases.js";
import { notCarriedOutReason } from "./tool-data.js";
import { followUpOf } from "./follow-up.js";
import { badAmountReply } from "./amount-reply.js";
import { dueDayReply } from "./due-day-reply.js";
import { oneDayHourReply } from "./one-day-hour-reply.js";
import { longTaskCapReply } from "./long-task-cap-reply.js";
import { isOverTaskCap } from "./long-task-slots.js";

// The step summaries' Chinese moved to the schedule domain (`stepSummary`); its callers here import it still.
export { summaryInChinese };

/** What the offline policy can do, in the user's language. */
export function capabilities(language: "en" | "zh"): string {
  if (language === "zh") {
    return [
      "我现在以离线模式运行（没有配置模型密钥），能理解这些日程请求：",
      "- 安排：“帮我安排下周的复习”“只安排周三”“把 矩阵复习 安排到周五晚上”",
      "- 移动 / 交换 / 撤下：“把 矩阵复习 移到周四下午”“把 矩阵复习 往后推一天”“交换 A 和 B”“取消安排 A”",
      "- 删除课表上的活动：“删除周五的辅导课”（一个系列会整个删除，卡片上会写明）",
      "- 查询：“接下来做什么”“周一什么时候有空”“周二有什么安排”“还有哪些任务没安排”“我错过了哪些复习”“解释一下 A”",
      "- 记录：“矩阵复习做完了”“我周二的复习没做”“这周跳过单词表”“撤销”；说“我周日从不学习”会记为长期偏好",
      "- 一整天：“今天的复习都跳过”“把明天清空”（每个复习一项，卡片上逐项确认），“把所有复习往后推一天”",
      "- 评估：“我这周安排得怎么样”“期中考试前还剩什么”；有复习赶不上截止时说“补救”",
      "任务可以用名称（模糊匹配）或 id 指代，日期可以是星期几或第几天，时段可以是第几节或上午/下午/晚上。",
      "配置模型密钥（OPENAI_API_KEY 或 OPENAI_BASE_URL）后可以处理自由表述的请求。",
    ].join("\n");
  }
  return [
    "I'm running offline (no model key is set), so I understand these schedule requests:",
    '- arrange: "arrange my reviews for next week", "arrange Wednesday", "schedule the matrix review on Friday evening"',
    '- move / swap / unplace: "move the matrix review to Thursday afternoon", "push it back a day", "an hour later", "swap A and B", "unplace A"',
    '- remove a timetable event: "remove the Friday tutorial" (a series goes whole; the card says so)',
    '- ask: "what\'s next?", "when am I free on Monday?", "what\'s on Tuesday?", "which tasks are pending?", "which reviews did I miss?", "explain A"',
    '- log: "I did the matrix review", "I missed Tuesday\'s review", "skip the vocabulary list this week", "undo that"; "I never study on Sundays" is kept as a standing preference',
    '- a whole day: "skip all my reviews today", "clear tomorrow" (one change per review, each approved on the card), "push all my reviews back a day"',
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
  // "Undo that" right after a standing preference was stated: the preference is no change a card applied, and the last
  // card's change (a whole arranged week, say) is not what "that" means now — told, nothing undone.
  if (request.kind === "undo") {
    const stated = preferenceJustStated(view, language);
    if (stated) return { intent: "chat", reply: stated, reason: "undo right after a standing preference" };
  }
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
  // "add a task: essay, -4 hours", "复习-4小时", "move it to Monday at 25:00": an amount no schedule can hold, said back
  // with what is allowed (before, the minus was dropped, a time past 23:59 left out, and the task built or moved).
  if (request.kind === "unknown" && request.why === "bad_amount")
    return {
      intent: "chat",
      reply: badAmountReply(request, language),
      reason: `an amount no schedule can hold (${request.amount}: ${request.problem})`,
    };
  // "add a task: thesis, 100 hours, to English": a long task with no day it is due — asked for, with the whole request
  // said as an example (before, the generic list of what is understood).
  if (request.kind === "unknown" && request.why === "no_due_day")
    return {
      intent: "chat",
      reply: dueDayReply(request, message, language),
      reason: "a long task said without the day it is due",
    };
  // "add a task: thesis, 100 hours, due Friday, to English": longer than one task holds — said, with parts that fit
  // (before, a plan card, then its step failed on the card's slot count).
  if (request.kind === "add_long_task" && isOverTaskCap(request.minutes))
    return {
      intent: "chat",
      reply: longTaskCapReply(request, message, language),
      reason: "a long task longer than one task can hold",
    };
  // "No studying after 9pm tomorrow", "明天晚上9点以后不要安排复习": an hour of one day, which is no standing rule and asks
  // for no change — said so, with the words that keep it every week.
  if (request.kind === "unknown" && request.why === "one_day_hour")
    return {
      intent: "chat",
      reply: oneDayHourReply(message, language),
      reason: "an hour said of one day of the calendar",
    };
  // A standing preference and nothing else ("I never study on Sundays", "I prefer mornings"): the memory keeps it at the
  // turn's end; the reply says so, instead of "I can't tell what to do" beside the memory's "Remembered".
  // "Don't schedule anything on Friday" is one too, though it names a day as a request does: nothing is arranged.
  const stated =
    request.kind === "unknown" || blanketRule(message) || preferenceAlone(message, request)
      ? statedPreference(message, language, view)
      : undefined;
  if (stated) return { intent: "chat", reply: stated, reason: "a standing preference, kept by the memory" };
  if (request.kind === "unknown" && followUpOf(message, view))
    return { intent: "task", reply: "", reason: "a follow-up of the question before it" };
  // "Move the essay, but not in the afternoon": understood, but the morning and the evening left are two ranges of
  // the day, which a place or move keeps to only one of — said, with what to say instead.
  if (request.kind === "unknown" && request.why === "afternoon_out")
    return {
      intent: "chat",
      reply: say(
        language,
        'I can leave out the morning or the evening, but not the afternoon alone (that leaves two parts of the day), so I changed nothing. Say the part you want instead: "… in the morning" or "… in the evening".',
        "我可以避开上午或晚上，但不能只避开下午（那样会剩下一天中的两段），所以什么也没有改。请直接说想放在哪一段：“……放在上午”或“……放在晚上”。",
      ),
      reason: "the afternoon ruled out alone leaves two parts of the day",
    };
  // "Move the essay to 3/4": a number that says no day or time the reader knows — asked again, never read as anywhere.
  if (request.kind === "unknown" && request.why === "unread_number")
    return {
      intent: "chat",
      reply: say(
        language,
        `I could not read a day or time in "${message}", so I changed nothing. Say the day as a weekday ("Friday"), a date ("March 15", "15/3") or "tomorrow", and a time as "14:00" or "2pm".`,
        `我没能从“${message}”中读出日期或时间，所以什么也没有改。请用星期几（如“周五”）、日期（如“3月15日”）或“明天”说日期，用“14:00”或“下午两点”说时间。`,
      ),
      reason: "a number in the request reads as no day or time",
    };
  // "Move the essay to Friday and skip the vocab list": two requests, each asked for on its own.
  if (request.kind === "unknown" && request.why === "two_requests") {
    const [first, second] = request.parts;
    return {
      intent: "chat",
      reply: say(
        language,
        `I read two different requests in "${message}", so I changed nothing. Send them one at a time: first "${first}", then "${second}".`,
        `我在“${message}”里读到了两个不同的请求，所以什么也没有改。请一次发一个：先发“${first}”，再发“${second}”。`,
      ),
      reason: "two requests of different kinds in one message",
    };
  }
  // "Move the essay by a day": how much, not which way — asked, never guessed.
  if (request.kind === "unknown" && request.why === "shift_way")
    return {
      intent: "chat",
      reply: say(
        language,
        `I could not tell whether to move it earlier or later in "${message}", so I changed nothing. Say the way too: "… a day later", "… an hour earlier", "push it back a day" or "bring it forward a day".`,
        `我没能从“${message}”看出是要提前还是推后，所以什么也没有改。请把方向也说出来：“……推迟一天”“……提前一小时”或“……往后推一天”。`,
      ),
      reason: "a shift by an amount that says no way",
    };
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

/**
 * What "undo that" is told when the user's message before it stated a standing preference and asked for nothing else:
 * how to take the preference back, and that the last applied change stays unless asked for again; undefined otherwise.
 */
function preferenceJustStated(view: PromptView, language: Language): string | undefined {
  const before = userLinesBefore(view, latestMessage(view)).at(-1);
  if (before === undefined || (parseScheduleRequest(before).kind !== "unknown" && !blanketRule(before)))
    return undefined;
  const { add } = readSchedulePreferences(before);
  if (add.length === 0) return undefined;
  const days = add.flatMap((rule) => (rule.kind === "avoid_day" ? [weekdayName(rule.value, language)] : []));
  const lift = say(
    language,
    days.length > 0
      ? `say "${days.map((day) => `${day}s`).join(" and ")} are fine now"`
      : "remove it with /forget (/prefs lists your preferences)",
    days.length > 0 ? `告诉我“${days.join("和")}可以了”` : "用 /forget 删除它（/prefs 可以查看）",
  );
  return say(
    language,
    `Your last message set a standing preference ("${before}"), which is no change I can undo; to take it back, ${lift}. Nothing was undone. To undo the last change a card applied, say "undo the last change".`,
    `你上一条消息设定的是长期偏好（“${before}”），这不是可以撤销的改动；要取消它，请${lift}。什么也没有撤销。要撤销上一次卡片应用的改动，请说“撤销上一次的修改”。`,
  );
}

/**
 * A standing sentence the request reader reads as a request it is not: a class named by days alone ("weekends only in
 * the afternoon", "周末只在下午学习"), or reviews to arrange that are only the study word of a habit with its hour
 * ("我上午10点以前从不学习" read as arranging "习").
 */
function preferenceAlone(message: string, request: ScheduleRequest): boolean {
  const normalized = normalizeText(message);
  if (!STANDING_CUE.test(normalized) || /[，,；;]/.test(message)) return false;
  if (request.kind === "class_rules") return !isClassRule(normalized);
  return request.kind === "arrange" && request.tasks.length > 0 && request.tasks.every((task) => STUDY_WORD.test(task));
}

/** What a habit's words leave of "学习", "复习", "studying" as a task phrase: no task. */
const STUDY_WORD = /^(?:[学复]?习|学|study(?:ing)?|revis(?:e|ion|ing)|reviews?)$/i;

/** One sentence that rules out everything on a day ("don't put anything on Friday", "周五不要安排任何事"). */
function blanketRule(message: string): boolean {
  const sentences = message.split(/(?<=[.!?;。！？；\n])\s*/).filter((sentence) => sentence.trim() !== "");
  return sentences.length === 1 && BLANKET_CUE.test(normalizeText(message));
}

/**
 * The reply to a message that only states or lifts standing preferences, or undefined when it states none. A lift
 * names what is taken back only when the prompt's standing preferences hold it (the memory lifts only those).
 */
function statedPreference(message: string, language: Language, view: PromptView): string | undefined {
  const change = readSchedulePreferences(message);
  const normalized = normalizeText(message);
  if (change.add.length > 0) {
    // What is stored, each rule with its days, in either language: never a rule the reply does not name.
    const rules = change.add.map((rule) => describeRule(rule, language)).join(language === "zh" ? "；" : "; ");
    // Said again (in other words, or the other language): the memory keeps one copy, and the reply says it is kept.
    // (The prompt lists the kept rules in English.)
    const held = heldRules(view);
    if (change.add.every((rule) => held.has(describeRule(rule).toLowerCase())))
      return say(
        language,
        `You have told me this before: your standing preferences already keep "${rules}", so nothing new was noted and nothing changed. /prefs lists your preferences.`,
        `这条长期偏好之前已经记下了：“${message}”，没有重复记录，什么也没改（/prefs 可以查看）。`,
      );
    return say(
      language,
      `Noted as a standing preference (${rules}): I'll keep to it whenever I arrange or move your reviews. /prefs lists your preferences.`,
      `记下了这条长期偏好：“${message}”（${rules}）。以后安排或移动复习时都会照此来（/prefs 可以查看）。`,
    );
  }
  if (change.lift.length > 0 || !STANDING_CUE.test(normalized))
    return liftedPreference(message, change, language, view);
  // "No studying after 1am", "凌晨2点以后不要学习": an hour of the night past the day's end holds whatever is arranged
  // (a review is placed within its day, by midnight) — said so, and nothing noted (before, 13:00 or 14:00 was).
  const night = readNightHourAfter(normalized);
  if (night !== undefined)
    return say(
      language,
      `I only ever place reviews within a day, ending by midnight at the latest, so nothing is placed "${night}" anyway, and I noted nothing. To stop earlier in the evening, say the hour: "no studying after 11pm".`,
      `复习只会安排在当天之内，最晚到晚上12点，所以“${night}”本来就不会有安排，没有另外记下。想在晚上更早停下，请说整点，如“晚上11点以后不学习”。`,
    );
  // "No studying after 21:30", "only until 8": no preference keeps an hour of minutes, or one a review starts by —
  // said, and nothing noted (never the whole of a day).
  const unkept = unkeptHourIn(normalized);
  if (unkept !== undefined)
    return say(
      language,
      `I can keep a whole hour nothing starts before or goes after ("never before 10", "no studying after 9pm on Fridays"), a part of the day or whole days for good, but not "${unkept}", so I noted nothing. Say it as one of those instead: "no studying after 9pm" or "nothing before 9 on Mondays".`,
      `我可以长期记住整点的“几点以前不安排”或“几点以后不安排”（如“工作日10点以前不复习”“周五晚上9点以后不学习”）、一天中的某一段或整天，但记不住“${unkept}”这样的时间，所以没有记下。请换一种说法：“晚上9点以后不学习”或“周一9点以前不学习”。`,
    );
  // "Never in the afternoon": the morning and the evening left are two ranges of a day, which no preference keeps to.
  // ("Don't schedule anything this afternoon", "明天下午不要安排任何东西": a date said is a request for that day, no
  // preference — before, it was refused as one.)
  const where = readWhere(normalized);
  if (
    (where.slots.notPart ?? where.notDaysPart) === "afternoon" &&
    ![where.only, where.not].some((days) => (days.dates ?? []).length > 0)
  )
    return say(
      language,
      'I can keep the morning or the evening out for good, but not the afternoon alone (that leaves two parts of the day), so I noted nothing. Say the part you want instead: "I prefer mornings" or "only in the evening from now on".',
      "我可以长期避开上午或晚上，但不能只避开下午（那样会剩下一天中的两段），所以没有记下。请直接说想要的时段：“我喜欢上午”或“以后只在晚上”。",
    );
  return undefined;
}

/**
 * The reply to a message that lifts standing preferences, or undefined when it lifts none. It names what is taken back
 * only when the prompt's standing preferences hold it (the memory lifts only those).
 */
function liftedPreference(
  message: string,
  change: PreferenceChange,
  language: Language,
  view: PromptView,
): string | undefined {
  if (change.lift.length === 0) return undefined;
  const held = section(`${view.system}\n${view.context}`, PREFERENCES_TAG).toLowerCase();
  const heldRuleWords = heldRules(view);
  // A part of the day lifted on some days ("Sunday mornings are fine now") reaches a rule of that part held; an hour
  // lifted on some days ("after 8pm is fine on fridays now") the same hour held on every day, which the memory keeps
  // on the other days (before, the reply said nothing changed).
  const lifted = change.lift.flatMap((rule) => {
    if (daysOfRule(rule) && rule.kind === "part_of_day")
      return held.includes(`in the ${rule.value}`) ? [`in the ${rule.value}`] : [];
    const words = describeRule(rule);
    const everyDay = daysOfRule(rule) ? describeRule({ ...rule, days: undefined } as PreferenceRule) : words;
    return heldRuleWords.has(everyDay.toLowerCase()) || held.includes(words.toLowerCase()) ? [words] : [];
  });
  if (lifted.length === 0) {
    // The same hour kept on other days than the lift names ("no studying after 8pm on fridays", then "after 8pm is
    // fine on mondays now"): named, with how to take it back (before, only that nothing changed).
    const others = heldOnOtherDays(change.lift, view);
    if (others.length > 0) {
      const en = others.map((rule) => `"${describeRule(rule, "en")}"`).join(" and ");
      const zh = others.map((rule) => `“${describeRule(rule, "zh")}”`).join("和");
      return say(
        language,
        `You have no standing preference that "${message}" takes back: you keep ${en}, on other days than it names, so nothing changed. To take that back, name its days ("${liftExample(others[0]!, "en")}"), or remove it with /forget (/prefs lists your preferences).`,
        `没有可以因“${message}”而取消的长期偏好：你记下的是${zh}，和这句话说的不是同一天，所以什么也没改。要取消它，请说出它的日子（如“${liftExample(others[0]!, "zh")}”），或用 /forget 删除（/prefs 可以查看）。`,
      );
    }
    return say(
      language,
      `You have no standing preference that "${message}" takes back, so nothing changed. /prefs lists your preferences.`,
      `没有可以因“${message}”而取消的长期偏好，所以什么也没改（/prefs 可以查看）。`,
    );
  }
  return say(
    language,
    `Noted: I no longer keep to "${lifted.join("; ")}" when I arrange your reviews.`,
    `好的：以后安排复习时不再受这条偏好限制（“${message}”）。`,
  );
}

/**
 * The rules the prompt's standing preferences hold (`memory/preferences.ts` `preferencePromptLines`: "- words → rule
 * (hard: …)", or "- words (…)" when the words are the rule), as `describeRule` says them, in lower case.
 */
/**
 * The hour rules held (read back from the prompt's words) that are a lifted hour's own kind and hour on other days
 * than the lift names: none when the lift names no days (it reaches every day's).
 */
function heldOnOtherDays(lifts: readonly PreferenceRule[], view: PromptView): PreferenceRule[] {
  const held = [...heldRules(view)].flatMap((words) => readSchedulePreferences(words).add);
  return held.filter((rule) =>
    lifts.some(
      (lift) =>
        (lift.kind === "not_after_hour" || lift.kind === "not_before_hour") &&
        daysOfRule(lift) !== undefined &&
        rule.kind === lift.kind &&
        rule.value === lift.value &&
        daysOfRule(rule) !== undefined,
    ),
  );
}

/** A lift of an hour rule held on some days, in words the reader reads as one ("after 8pm is fine on fridays now"). */
function liftExample(rule: PreferenceRule, language: Language): string {
  const days = (daysOfRule(rule) ?? []).map((day) => weekdayName(day, language));
  const hour = Number(rule.value);
  if (language === "zh") {
    const part = hour === 24 || hour >= 18 ? "晚上" : hour > 12 ? "下午" : hour === 12 ? "中午" : "上午";
    const clock = `${part}${hour > 12 ? hour - 12 : hour}点`;
    return `${days.join("和")}${clock}${rule.kind === "not_after_hour" ? "以后" : "以前"}也可以了`;
  }
  const clock = hour === 24 ? "midnight" : hour === 12 ? "noon" : hour > 12 ? `${hour - 12}pm` : `${hour}am`;
  const side = rule.kind === "not_after_hour" ? "after" : "before";
  return `${side} ${clock} is fine on ${days.map((day) => `${day.toLowerCase()}s`).join(" and ")} now`;
}

function heldRules(view: PromptView): Set<string> {
  const held = section(`${view.system}\n${view.context}`, PREFERENCES_TAG);
  return new Set(
    held.split("\n").flatMap((line) => {
      const entry = /^- (.*?)(?: \((?:soft|hard: [^()]*)\))?$/.exec(line.trim());
      if (!entry) return [];
      const [words, rule] = entry[1]!.split(" → ");
      return [(rule ?? words)!.toLowerCase()];
    }),
  );
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
    const reason = notCarriedOutReason(only.summary ?? "");
    const unanswered = reason ? withoutFullStop(reason) : undefined;
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
    const reason = notCarriedOutReason(only.summary);
    if (reason !== undefined) {
      const why = withoutFullStop(reason);
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
  const pending = new RegExp(summaryPattern("verified", "anywhere").source).exec(verify)?.[1];
  // Missed reviews without a place: the week is not arranged while they are there (`missedClause`).
  const missed = missedIn(verify);
  const place = steps.find((step) => /^place\b|^把.*放进/i.test(step.content));
  const scoped = place ? parseScheduleRequest(place.content) : undefined;
  // Steps that did what they ask: one not carried out is never counted as finished.
  const carried = steps.filter((step) => step.status === "done" && notCarriedOutOf(step) === undefined).length;
  const finished = zh
    ? `完成了 ${steps.length} 个步骤中的 ${carried} 个。`
    : `Finished ${carried} of ${steps.length} steps.`;
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
    // ("schedule the essay and the derivative drills on Sunday": the essay's move step moved it, the drills fit nowhere.)
    const moved = steps.some(
      (step) =>
        step !== place && parseScheduleRequest(step.content).kind === "move" && notCarriedOutOf(step) === undefined,
    );
    if (place?.summary.startsWith("not carried out"))
      heading = moved
        ? zh
          ? "已按要求移动，但没有安排任何新任务（见下）。"
          : "Moved what you asked; nothing new was placed (below)."
        : zh
          ? "没有安排任何任务（见下）。"
          : "Nothing was placed (below).";
    if (pending !== undefined && pending !== "0")
      heading += zh
        ? `本周还有 ${pending} 个复习任务待安排。`
        : ` ${pending} review task(s) in the whole week are still pending.`;
  } else if (done === steps.length && steps.length > 0) {
    fullSuccess = (pending === undefined || pending === "0") && missed === 0;
    heading = arrangedHeading(pending ?? "0", zh ? "zh" : "en", missed);
    // "I missed Tuesday's review" asked for no arranging: its answer tells the reschedule.
    if (request.kind === "mark") heading = rescheduledHeading(steps, zh ? "zh" : "en") ?? severalHeading(steps, zh);
    // "Move the matrix review to Thursday and the essay to Friday" arranged nothing: each move is told (so is "do the
    // essay and the matrix review on Sunday", both placed already: its steps are moves).
    const moves = steps.every((step) => parseScheduleRequest(step.content).kind === "move");
    if (request.kind === "move" || request.kind === "unplace" || moves) heading = severalHeading(steps, zh);
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
      ? `完成了 ${steps.length} 个步骤中的 ${carried} 个（${OUTCOME_ZH[outcome] ?? outcome}）。`
      : `Finished ${carried} of ${steps.length} steps (${outcome}).`;
  }
  const status = (name: string) => (zh ? stepStatusInChinese(name) : name);
  // A step not carried out is shown so, with its reason ("[not carried out] Mark … — the user rejected it").
  const line = (step: StepOutcome) => {
    const reason = notCarriedOutOf(step);
    const summary = reason ?? step.summary;
    return `- [${status(reason === undefined ? step.status : "not carried out")}] ${step.content}${summary ? ` — ${summaryText(summary)}` : ""}`;
  };
  const lines = [
    heading,
    ...steps.map(line),
    ...(input.stillPending ?? []).map((line) => (zh ? stillPendingInChinese(line) : line)),
    ...unusedClockTime(request, zh),
  ];
  if (note) lines.push(zh ? `备注：${stopNoteIn(note, "zh")}` : `Note: ${note}`);
  // The report's own words the steps carried along (a failed step's reason, the writes applied and not) in Chinese.
  // (It is given the report's English, as a model is: read back against the report's table, `factsInLanguage`.)
  const text = factsInLanguage(lines.join("\n"), zh ? "zh" : "en");
  // Tasks by name and places by date and time, as the cards say them (the summaries are the tools' words).
  return readableScheduleText(text, input.language ?? "en");
}

/** Why a step ended done without doing what it asks (its summary "not carried out: R"), else undefined. */
function notCarriedOutOf(step: StepOutcome): string | undefined {
  return step.status === "done" ? notCarriedOutReason(step.summary ?? "") : undefined;
}

/**
 * The first line of several marks or moves ("I finished A and B", "move A to Thursday and B to Friday"): done, or how
 * many were and that the rest say why.
 */
function severalHeading(steps: readonly StepOutcome[], zh: boolean): string {
  const carried = steps.filter((step) => notCarriedOutOf(step) === undefined).length;
  if (carried === steps.length) return zh ? "完成：" : "Done:";
  return zh
    ? `完成了 ${steps.length} 项中的 ${carried} 项，其余没有执行（见下）。`
    : `Done ${carried} of ${steps.length}; the others were not carried out (below).`;
}

/**
 * A clock time asked of an arrangement of several tasks or none ("schedule the essay and the binary tree review on
 * Sunday at 14:00", "arrange my reviews on Sunday at 14:00"): one time is one slot (`timedPlacement`), so it was not
 * used; the answer says so rather than drop it unsaid.
 */
function unusedClockTime(request: ScheduleRequest, zh: boolean): string[] {
  if (request.kind !== "arrange" || request.where.slots.at === undefined || timedPlacement(request) !== undefined)
    return [];
  const at = request.where.slots.at;
  return [
    zh
      ? `${at} 这个时间没有用上：一个时间只能放一个任务，这次要安排的不止一个，所以它们放在了所说日子里放得下的地方。`
      : `${at} was not used: one time fits one task, and this asked for more than one, so they went where they fit on the days asked.`,
  ];
}

/** A result quoted as the answer's own sentence loses its full stop, so the sentence ends once (not "…characters.."). */
function withoutFullStop(text: string): string {
  return text.replace(/[.。]\s*$/, "");
}

/**
 * A report's "Still pending: name (id) — why" line in Chinese: the report's own reasons (`whyOpenIn`), and the
 * arrangement's reasons a step's summary gives in brackets, read back against the summary phrases' table
 * (`leftOutIn`). A reason neither knows stays as it is.
 */
function stillPendingInChinese(line: string): string {
  const read = readBack(REPORT_WORDS.en.stillPending, line);
  if (!read) return line;
  const why = leftOutIn(read.why!, "zh") ?? whyOpenIn(read.why!, "zh");
  return `仍待安排：${read.name} (${read.id}) — ${why}`;
}

const OUTCOME_ZH: Readonly<Record<string, string>> = {
  completed: "已完成",
  partial: "未全部完成",
  failed: "失败",
  dropped: "已放弃，未完成",
};

/**
 * The review tasks a listing of `status` names, in `language`: "pending review tasks" / "待安排的复习任务"; the ones
 * still to do (`open`) "review tasks not done yet" / "还没做的复习任务"; all of them the `noun` alone / "复习任务".
 * `noun` is the English plural the caller wants ("review tasks" in a step, "review task(s)" beside a count).
 */
export function listedReviews(status: ListStatus, language: Language, noun: string): string {
  if (language === "zh") return status === "all" ? "复习任务" : `${LISTED_ZH[status]}的复习任务`;
  if (status === "all") return noun;
  return status === "open" ? `${noun} not done yet` : `${status} ${noun}`;
}

type ListStatus = Extract<ScheduleRequest, { kind: "list" }>["status"];

const LISTED_ZH: Readonly<Record<Exclude<ListStatus, "all">, string>> = { ...TASK_STATUS_ZH, open: "还没做" };
