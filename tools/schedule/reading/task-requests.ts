/**
 * Requests about the tasks themselves: a new task, a long task, a habit, the rules of a class of tasks, a task that
 * cannot be done, and what is left before a day.
 */
import type { PartOfDay, ScheduleRequest } from "./request-kinds.js";
import { COUNT_WORDS, HOUR_WORDS, readNumber, weekdayWord, ZH_WEEKDAY_NUMBER } from "./words.js";
import { BEFORE_EVENT, DAY_SAID_EN, isEmptySelection, readBefore, readPartOfDay, readWhere } from "./where.js";
import { namesEverything, readTaskWords, taskPhrase } from "./task-words.js";
import { PRONOUN } from "./move-target.js";
import { readMove } from "./moves.js";

/** "what's left before the midterm?", "what do I still have to do before the exam", "期中考试前还剩什么", "离期中考试还有哪些没做". */
const LEFT_BEFORE =
  /\b(?:what(?:'s| is)? (?:still )?left|how many(?: (?:reviews?|tasks?|things?))? (?:are|is) (?:still )?left|how much (?:is )?(?:still )?left|what (?:do|must|should) i (?:still )?(?:have to |need to )?do|what remains|what(?:'s| is) remaining|anything left)\s+(?:to do\s+)?(?:before|ahead of|until|till)\s+(?:the\s+|my\s+)?([a-z][a-z0-9 -]*?)\s*$|^(?:在)?(.{2,12}?)(?:之前|以前|前)(?:还)?(?:剩|剩下|还有|有)(?:什么|哪些|啥|几个)|^离(.{2,12}?)(?:还)(?:剩|剩下|有)(?:什么|哪些|啥|几个)/;

/** A habit: a task to repeat ("three times a week", "every day", "每周三次", "每天背单词"). */
export const HABIT_REQUEST =
  /\b(?:once|twice|thrice|(?:\d+|one|two|three|four|five|six|seven)\s*(?:times|tiems|tims|x|×))\s*(?:a|per|every|each)\s+(?:week|wek|weeek|day)\b|\b(?:every|each)\s+(?:day|morning|evening|night|weekday)\b|\bdaily\b|\bhabit\b|每(?:周|星期|天|日|晚|早)[^,.?!]{0,6}(?:\d+|[一二两三四五六七])?次|每天|每晚|每早|习惯/;

/**
 * A habit read whole — its name, how many times a week, and when said a session's minutes and a part of the day — or
 * undefined ("every day" is 7 a week; "twice a day" is not a week's count and is not read). Typos of "times", "week",
 * "minutes" and the parts of the day are read.
 */
export function readHabit(body: string): ScheduleRequest | undefined {
  const english =
    /\b(once|twice|thrice|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:(?:times?|tiems?|tims?|x|×)\s*)?(?:a|per|every|each)\s+(?:week|wek|weeek|wk)\b|\b(?:every|each)\s+(day)\b|\b(daily)\b/.exec(
      body,
    );
  const chinese =
    /每(?:周|星期|礼拜)([^,，。]{0,4}?)(\d+|[一二两三四五六七八九十])\s*次([^,，。]{0,12})|每(天|日)([^,，。]{0,12})/.exec(
      body,
    );
  const count = english
    ? english[2] || english[3]
      ? 7
      : (COUNT_WORDS[english[1] ?? ""] ?? Number(english[1]))
    : chinese
      ? chinese[4]
        ? 7
        : readNumber(chinese[2] ?? "")
      : Number.NaN;
  if (!Number.isInteger(count)) return undefined;
  const minutes =
    /(\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?|hous|小时)(?![a-z])/.exec(body) ??
    /(\d+)\s*(?:mins?|minutes?|minuets?|minuts?|m|分钟|分)(?![a-z])/.exec(body);
  const length = minutes
    ? minutes[0].match(/h|小时/)
      ? Math.round(Number(minutes[1]) * 60)
      : Number(minutes[1])
    : undefined;
  const partWord =
    /\b(morning|mornign|moring|mornig|afternoon|afternon|evening|evenign|evning|night)s?\b|(早上|上午|早晨|下午|晚上|晚间)/.exec(
      body,
    );
  const part: PartOfDay | undefined = partWord
    ? /^(?:mor|早|上)/.test(partWord[0])
      ? "morning"
      : /^(?:aft|下)/.test(partWord[0])
        ? "afternoon"
        : "evening"
    : undefined;
  let name: string;
  if (english) {
    name = body
      .slice(0, english.index)
      .replace(
        /\b(?:i\s+(?:want|would like|need|'d like)\s+to|i\s+want|let me|help me|add a habit(?: of)?|a habit(?: of)?|(?:add|schedule|plan|make|create|start|set up|arrange)(?:\s+(?:a|an|the|me))?(?=\s)|habit(?:\s+of)?|study|practi[cs]e|do|review|learn)\b/g,
        " ",
      )
      .replace(/[,:;]/g, " ")
      .trim();
  } else {
    // ("把单词表安排在每天早上", "单词表每天早上背": the part of the day and the verb are no name — before, "早上".)
    const after = (chinese?.[3] ?? chinese?.[5] ?? "")
      .replace(/^(?:早上|上午|早晨|中午|下午|晚上|晚间)/, "")
      .replace(/^[背学练读做复习看]+/, "")
      .replace(/[，,\s]*(?:\d+(?:\.\d+)?|半)\s*(?:个)?(?:分钟|分|小时)$/, "")
      .trim();
    const before = body
      .slice(0, chinese?.index ?? 0)
      .replace(/^(?:我想|我要|帮我|请|添加习惯|新增习惯)+/, "")
      .replace(/^(?:把|将)/, "")
      .replace(/(?:安排|排|放)(?:在|到)?$/, "")
      .replace(/[，,\s]+$/, "")
      .trim();
    name = after || before.replace(/[背学练读做]$/, "").replace(/^[“"](.*)[”"]$/, "$1");
  }
  name = taskPhrase(name.replace(/\s+/g, " ").trim());
  if (!name) return undefined;
  return {
    kind: "add_habit",
    name,
    perWeek: count,
    ...(length !== undefined && length > 0 ? { minutes: length } : {}),
    ...(part ? { part } : {}),
  };
}

/** "write the essay, 4 hours, before friday" (typos of hours and the weekday read); the plan's own step too. */
const LONG_TASK_EN =
  /^(.+?)\s*,?\s*(?:in\s+|about\s+|for\s+)?(\d+(?:\.\d+)?|an?|half an?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(h|hrs?|hours?|hous|hors|horus|huors|hr|mins?|minutes?)(?![a-z])\s*,?\s*(?:before|by|due|until|till|befor|bfore|befroe)\s+(?:next\s+|this\s+)?([a-z]+)$/;

/** "写论文，4小时，周五前", "写论文,两个小时,星期五之前完成"; the plan's own step too. */
const LONG_TASK_ZH =
  /^(.+?)\s*,?\s*(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(?:个)?(小时|钟头|分钟)\s*,?\s*(?:在)?(?:周|星期|礼拜)([一二三四五六日天1-7])(?:之前|以前|前)(?:完成|写完|做完)?$/;

/**
 * The class a long task is said with: before it ("add a long task to english: …", "给英语添加任务：…", "添加一个英语任务：
 * …", the plan's own Chinese step "给 "英语" 添加长任务 …"), or after it ("…, before friday, for english", the plan's own
 * English step "…, for the class "english""; a part of the day is no class).
 */
const CLASS_LEAD_EN =
  /^(?:add|new)\s+(?:(?:the|a|an)\s+)?(?:new\s+)?(?:long\s+)?task\s+(?:to|for|in|into|under)\s+(?:the\s+|my\s+)?"?([^":]+?)"?(?:\s+(?:class|course))?\s*:\s*/;
const CLASS_LEAD_ZH =
  /^(?:(?:给|在|往|为)\s*"?([^"]+?)"?\s*(?:里|中|下)?\s*(?:添加|增加|加|新建|新增)(?:一个|个)?(?:新的?)?(?:长)?任务|(?:添加|新增|加)(?:一个|个)([^长新:：，,"]+?)(?:的)?(?:长)?任务)\s*[:：，,]?\s*/;
const CLASS_AFTER_EN =
  /\s*,?\s*(?:to|for|in|into|under)\s+(?:the\s+)?(?:class\s+)?(?:my\s+)?(?!(?:the\s+)?(?:mornings?|afternoons?|evenings?|nights?)\b)"?([^",]+?)"?(?:\s+(?:class|course))?$/;

/** A long task read whole (its name, length, the weekday it is due before, and its class when said), or undefined. */
export function readLongTask(body: string): ScheduleRequest | undefined {
  const lead = CLASS_LEAD_EN.exec(body) ?? CLASS_LEAD_ZH.exec(body);
  if (lead) {
    const task = readLongTaskBody(body.slice(lead[0].length));
    const classPhrase = taskPhrase(lead[1] ?? lead[2] ?? "");
    return task && classPhrase ? { ...task, classPhrase } : (task ?? readLongTaskWithoutDue(body));
  }
  const task = readLongTaskBody(body);
  if (task) return task;
  const after = CLASS_AFTER_EN.exec(body);
  const classPhrase = after && taskPhrase(after[1]!);
  const said = after && classPhrase ? readLongTaskBody(body.slice(0, after.index)) : undefined;
  return said && classPhrase ? { ...said, classPhrase } : readLongTaskWithoutDue(body);
}

/** A long task's name and length with no day it is due: "thesis, 100 hours", "论文，100小时" (the name, amount, unit). */
const NO_DUE_EN =
  /^(.+?)\s*,?\s*(?:in\s+|about\s+|for\s+)?(\d+(?:\.\d+)?|an?|half an?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(h|hrs?|hours?|hous|hors|horus|huors|hr|mins?|minutes?)(?![a-z])\s*$/;
const NO_DUE_ZH = /^(.+?)\s*[,，]?\s*(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(?:个)?(小时|钟头|分钟)\s*$/;
const AMOUNT_ALONE_ZH = /^(?:[一二两三四五六七八九十半]+)\s*(?:个)?(?:小时|钟头|分钟)$/;
/** A new task said with "add a task": "add a task:", "new long task", "添加任务：", "新增一个长任务". */
const ADD_TASK_LEAD =
  /^(?:add|new)\s+(?:(?:the|a|an)\s+)?(?:new\s+)?(?:long\s+)?task\s*[:,-]\s*|^(?:添加|新增|加)(?:一个|个)?(?:长)?任务\s*[:：，,]\s*/;
/** The class said after a Chinese long task: "…，英语", "…，给英语" (group 1). */
const CLASS_AFTER_ZH = /\s*[,，]\s*(?:给|为|在)?\s*"?([^",，：:]+?)"?\s*(?:课|课程)?\s*$/;

/**
 * A long task said whole but for the day it is due ("add a task: thesis, 100 hours, to English", "add a task to
 * English: thesis, 100 hours", "给英语添加任务：论文，100小时", "添加任务：论文，100小时，英语"): not understood, with what
 * was said, so the reply asks for the day (before, the generic list of requests, or a task of one slot named
 * "论文,100小时"). Undefined for any other words.
 */
function readLongTaskWithoutDue(body: string): ScheduleRequest | undefined {
  const lead = CLASS_LEAD_EN.exec(body) ?? CLASS_LEAD_ZH.exec(body);
  const leadClass = lead ? taskPhrase(lead[1] ?? lead[2] ?? "") : undefined;
  const added = lead ? undefined : ADD_TASK_LEAD.exec(body);
  if (!lead && !added) return undefined;
  let rest = body.slice((lead ?? added)![0].length).trim();
  let classPhrase = leadClass;
  if (!lead) {
    const after = CLASS_AFTER_EN.exec(rest) ?? (/[\u4e00-\u9fff]/.test(rest) ? CLASS_AFTER_ZH.exec(rest) : null);
    const said = after ? taskPhrase(after[1]!) : "";
    // ("…, 100 hours", "…，两个小时" alone: the amount is no class.)
    if (after && said && !AMOUNT_ALONE_ZH.test(said) && !/\d/.test(said)) {
      classPhrase = said;
      rest = rest.slice(0, after.index);
    }
  }
  const match = NO_DUE_EN.exec(rest) ?? NO_DUE_ZH.exec(rest);
  if (!match) return undefined;
  const amount = match[2]!.replace(/ an?$/, "");
  const count = HOUR_WORDS[amount] ?? (/^\d/.test(amount) ? Number(amount) : readNumber(amount));
  const minutes = Math.round(/^(?:min|分)/.test(match[3]!) ? count : count * 60);
  const name = taskPhrase(match[1]!.replace(/^"(.*)"$/, "$1").trim());
  if (!name || !Number.isFinite(minutes) || minutes <= 0) return undefined;
  return { kind: "unknown", why: "no_due_day", name, minutes, ...(classPhrase ? { classPhrase } : {}) };
}

function readLongTaskBody(body: string): Extract<ScheduleRequest, { kind: "add_long_task" }> | undefined {
  const english = LONG_TASK_EN.exec(body);
  const chinese = english ? null : LONG_TASK_ZH.exec(body);
  const match = english ?? chinese;
  if (!match) return undefined;
  const amount = match[2]!.replace(/ an?$/, "");
  const count = HOUR_WORDS[amount] ?? (/^\d/.test(amount) ? Number(amount) : readNumber(amount));
  const minutes = Math.round(/^(?:min|分)/.test(match[3]!) ? count : count * 60);
  const dueWeekday = english ? weekdayWord(match[4]!) : (ZH_WEEKDAY_NUMBER[match[4]!] ?? Number(match[4]));
  const name = taskPhrase(
    match[1]!
      .replace(
        /^(?:(?:add|new)\s+(?:(?:the|a|an)\s+)?(?:new\s+)?(?:long\s+)?task(?:\s*[:,-])?|i (?:need|have|want) to|i must|help me|(?:添加|新增|加个|加一个)(?:长)?任务[:：，,]?|(?:长)?任务[:：]|我要|我得|帮我|请)\s*/,
        "",
      )
      .replace(/\s*(?:in sessions|\(分次\))$/, "")
      .replace(/^"(.*)"$/, "$1")
      .trim(),
  );
  if (!name || !Number.isFinite(minutes) || minutes <= 0 || dueWeekday === undefined) return undefined;
  return { kind: "add_long_task", name, minutes, dueWeekday };
}

/** The event a "what's left before …" question names, or undefined. */
export function readLeftBefore(body: string): ScheduleRequest | undefined {
  const match = LEFT_BEFORE.exec(body);
  const event = (match?.[1] ?? match?.[2] ?? match?.[3] ?? "").trim().replace(/^(?:the|my)\s+/, "");
  if (!match || event === "") return undefined;
  if (/^(?:[a-z]+day|weekend|tomorrow|today|周.|星期.|这周|本周|下周)$/.test(event)) {
    // A day: the reviews still to do before it ("this week" names no day before which).
    const when = readWhere(event);
    return isEmptySelection(when.only) ? undefined : { kind: "left_before", event, when };
  }
  return { kind: "left_before", event };
}

/**
 * "I can't do the essay today", "I won't get to the matrix review on Thursday", "no time for the essay tonight",
 * "我今天做不了作文": the task moved off that day (a move that leaves it, `leaves`). Before, none was understood.
 */
const CANNOT_DO = new RegExp(
  String.raw`^(?:(?:sorry|ugh|hmm|oh)[\s,]+)?(?:i\s+)?(?:can'?t|cannot|can not|won'?t|will not|(?:am|'m)\s+not\s+(?:going\s+to|gonna|able\s+to)|(?:don'?t|do not)\s+have\s+(?:the\s+)?time\s+(?:to\s+do|for)|have\s+no\s+time\s+for|no\s+time\s+for)\s+(?:do\s+|make\s+|get\s+to\s+|manage\s+|fit\s+in\s+)?(.+?)\s+(?:on\s+)?(${DAY_SAID_EN})[\s.!]*$`,
);
const CANNOT_DO_ZH =
  /^(?:我)?(今天|今晚|明天|明晚|后天|(?:这个?)?(?:周|星期|礼拜)[一二三四五六日天])(?:我)?(?:做不了|做不完|没空做|没时间做|来不及做|不能做)(.+?)(?:了|啦)?[。.!！]*$/;

/** Studying itself, where a task would be named: "I can't study tonight" is about every review of that time. */
const STUDYING = /^(?:do\s+)?(?:any\s+|my\s+)?(?:study|studying|revise|revising|review|reviews|reviewing)$/;
/** "我今晚学不了", "今天不能复习", "周四没法学习" (group 1 the day, group 2 its part). */
const CANNOT_STUDY_ZH =
  /^(?:我)?(今天|今晚|明天|明晚|后天|(?:这个?)?(?:周|星期|礼拜)[一二三四五六日天])(上午|下午|晚上|早上)?(?:我)?(?:都)?(?:学不了|复习不了|学习不了|不能学习?|不能复习|没法学习?|没法复习|没空学习?|没空复习|没时间学习?|没时间复习)(?:了|啦)?[。.!！]*$/;

export function readCannotDo(body: string): ScheduleRequest | undefined {
  const english = CANNOT_DO.exec(body);
  // ("I can't study tonight", "我今晚学不了": that time's reviews moved off it, as "move my reviews off tonight".)
  if (english && STUDYING.test((english[1] ?? "").trim())) return readMove(`move my reviews off ${english[2]}`);
  const studyZh = english ? null : CANNOT_STUDY_ZH.exec(body);
  if (studyZh) return readMove(`把复习都挪出${studyZh[1]}${studyZh[2] ?? ""}`);
  const chinese = english ? null : CANNOT_DO_ZH.exec(body);
  const move = english
    ? readMove(`move ${english[1]} off ${english[2]}`)
    : chinese
      ? readMove(`把${chinese[2]}挪出${chinese[1]}`)
      : undefined;
  // ("I can't make it today", "I can't do today": no task named.)
  const named =
    move?.kind === "move" &&
    !PRONOUN.test(move.task) &&
    !/^(?:do|make|it|that|this|them|anything|everything)$/.test(move.task);
  return named && move.leaves && readTaskWords(move.task).trim() !== "" ? move : undefined;
}

/**
 * "add a task "integrals review" to calculus (2 slots)", "add a 2-slot integrals review to the calculus class",
 * "add task integrals review for calculus, 2 slots", "给微积分添加任务“积分复习”，2节", "在微积分里加一个任务：积分复习，两节".
 */
export function readAddTask(body: string): ScheduleRequest | undefined {
  // "… before the midterm": the event it is due before, said anywhere after the verb; the rest is read without it.
  const dueEvent = readBefore(body);
  const request = readAddTaskBody(dueEvent === undefined ? body : body.replace(BEFORE_EVENT_CLAUSE, " ").trim());
  return request && dueEvent !== undefined ? { ...request, dueEvent } : request;
}

/** A "[due] before <event>" clause as `readBefore` reads it, with the comma that may lead it: cut from an add request. */
const BEFORE_EVENT_CLAUSE = new RegExp(`\\s*[,，]?\\s*(?:due\\s+)?(?:${BEFORE_EVENT.source})(?:完成|做完)?[,，]?`, "i");

/** A length in hours or minutes, said in what would be a task's name. */
const LENGTH_SAID =
  /\d\s*(?:h|hrs?|hours?|mins?|minutes?)\b|\b(?:an?|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:hours?|minutes?)\b/;

/** readAddTask's request without its "before <event>" clause. */
function readAddTaskBody(body: string): Extract<ScheduleRequest, { kind: "add_task" }> | undefined {
  const english =
    /^(?:(?:can you|could you|would you|help me|i want to|i'd like to|let's|now)\s+)*(?:add|create|new)\s+(?:a\s+|an\s+|one\s+)?(?:new\s+)?(?:(\d+|one|two|three|four)[- ]slots?\s+)?(?:task|review|session|item)?\s*(?:called|named|:)?\s*(.+?)\s+(?:to|for|in|into|under)\s+(?:the\s+|my\s+)?(.+?)(?:\s+class|\s+course)?(?:\s*[,(]\s*(\d+|one|two|three|four)\s+slots?\)?)?$/.exec(
      body,
    );
  const words: Record<string, number> = { one: 1, two: 2, three: 3, four: 4 };
  if (english) {
    const [, before, rawName = "", rawClass = "", after] = english;
    const duration = Number(words[before ?? ""] ?? before ?? words[after ?? ""] ?? after ?? 1);
    const name = taskPhrase(rawName.replace(/^(?:task|review task)\s+/, ""));
    const classPhrase = taskPhrase(rawClass.replace(/\s+(?:class|course)$/, ""));
    // "thesis, 100 hours": a length, which a task of slots is not said with (a long task is, with its deadline).
    if (LENGTH_SAID.test(name)) return undefined;
    return name && classPhrase && Number.isInteger(duration) && duration >= 1
      ? { kind: "add_task", name, classPhrase, duration }
      : undefined;
  }
  const chinese =
    /(?:给|在|往|为)(.+?)(?:里|中|下)?(?:添加|增加|加|新建|新增)(?:一个|个)?(?:新)?任务[:：]?\s*(.+?)(?:[,，]\s*(\d+|[一二两三四])\s*节)?$/.exec(
      body,
    );
  if (!chinese) return undefined;
  const duration = chinese[3] ? readNumber(chinese[3]) : 1;
  const name = taskPhrase(chinese[2] ?? "");
  const classPhrase = taskPhrase(chinese[1] ?? "");
  return name && classPhrase && Number.isInteger(duration)
    ? { kind: "add_task", name, classPhrase, duration }
    : undefined;
}

/** The speaker and "from now on" alone ("我", "以后都", "我从现在起"): no class named. */
const SPEAKER_OR_FROM_NOW = /^(?:我们?|以后|今后|往后|从现在(?:起|开始))+(?:都|也)?$/;

/**
 * A class's standing rules: "make calculus mornings only", "calculus only in the mornings", "keep calculus off
 * Mondays", "never schedule calculus on Monday", `Set the class "calculus" to the morning, not on Monday` (a step),
 * "微积分只在上午", "微积分不要排在周一". Only when the sentence names no arranging of it ("arrange calculus in the
 * morning" is an arrangement).
 */
export function readClassRules(body: string): ScheduleRequest | undefined {
  const step = /^set the class "([^"]+)" to (.+)$/.exec(body) ?? /^设置课程 "([^"]+)"[:：](.+)$/.exec(body);
  const english =
    step ??
    /^(?:make|keep|set|put)\s+(?:the\s+|my\s+)?(.+?)\s+(?:(?:sessions|reviews|class|course)\s+)?(?:to\s+)?(?:(?:only\s+(?:in\s+)?(?:the\s+)?)(?:mornings?|afternoons?|evenings?)|(?:mornings?|afternoons?|evenings?)\s+only|off\s+.+|away from\s+.+)$/.exec(
      body,
    ) ??
    /^(?:(?:never|don't ever|do not ever|don't|do not)\s+(?:schedule|put|place|arrange)\s+(?:the\s+|my\s+)?(.+?)\s+(?:on|in)\s+.+)$/.exec(
      body,
    ) ??
    /^(?:the\s+|my\s+)?([a-z][a-z -]*?)\s+(?:(?:sessions|reviews|class)\s+)?(?:only\s+(?:in\s+)?(?:the\s+)?(?:mornings?|afternoons?|evenings?)|(?:should|must)\s+(?:never|not)\s+be\s+on\s+.+)$/.exec(
      body,
    );
  const chinese =
    /^(.+?)(?:的复习|复习)?(?:只|只能|只在|只排在|只安排在)(?:在)?(上午|下午|晚上)/.exec(body) ??
    // ("作文能不能放在周五" asks for Friday: 能不能 is no 不能.)
    /^(.+?)(?:的复习|复习)?(?<!能|要)(?:不要|别|不能)(?:排在|安排在|放在|在)(?:周|星期)/.exec(body);
  const match = english ?? chinese;
  if (!match) return undefined;
  const classPhrase = taskPhrase((match[1] ?? "").replace(/\s+(?:class|course|sessions|reviews)$/, ""));
  // "never put anything on Sunday", "keep my reviews off Monday": about everything, not one class; so are "我只在晚上复习"
  // and "以后都只在晚上复习", whose words before "只" are the speaker and when, no class.
  if (!classPhrase || namesEverything(classPhrase) || SPEAKER_OR_FROM_NOW.test(classPhrase)) return undefined;
  const where = readWhere(step ? (step[2] ?? "") : body);
  const part = readPartOfDay(step ? (step[2] ?? "") : body);
  const excludedWeekdays = [
    ...new Set([
      ...where.not.weekdays,
      ...(/\b(?:never|don't|do not|off|away from)\b|不要|别|不能/.test(body) && !step ? where.only.weekdays : []),
    ]),
  ];
  const parts = part ? [part] : [];
  return parts.length > 0 || excludedWeekdays.length > 0
    ? { kind: "class_rules", classPhrase, parts, excludedWeekdays }
    : undefined;
}
