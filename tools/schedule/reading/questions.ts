/**
 * Questions about the week, which change nothing: what is free, what a day or the week holds, the list of tasks,
 * where a task is and why it is there, and what comes next.
 */
import type { ScheduleRequest } from "./request-kinds.js";
import { MOVE_VERB, NUMBER, readNumber } from "./words.js";
import { WEEK_NAMED } from "./day-words.js";
import { isEmptySelection, readWhere, withWeekNamed } from "./where.js";
import { namesEverything, readTaskWords, taskPhrase } from "./task-words.js";

/** A request not to do something ("don't reschedule it", "never move it", "不要重新安排"): no request of that verb. */
/**
 * "what's next?", "what should I study now?", "when's my next review?", "what's my next class?", "下一个复习是什么",
 * "接下来做什么", "下一节课是什么".
 */
export const NEXT_QUESTION =
  /^(?:what'?s|what is|whats) (?:next|coming (?:up )?next|up next)\b(?! (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)|^show what comes next$|^查看接下来的安排$|^(?:what|which) (?:should|do|shall) i (?:do|study|work on|review) (?:now|next)\b|^(?:when|what)(?:'s| is) (?:my )?next (?:review|task|session|thing|class|lecture|lesson|event)\b|^(?:what|which) class (?:do i have|is) next\b|^(?:我)?(?:接下来|下一步|现在)(?:该|要)?(?:做|干|学|复习|是)?(?:什么|啥)|^(?:我)?接下来(?:呢|有什么|有啥)|^(?:我的)?下一个(?:复习|任务|安排)?(?:是什么|是啥|在什么时候|什么时候)|^(?:我的)?下一?(?:节|堂)课(?:是什么|是啥|是哪节|在什么时候|什么时候|在哪天|几点|呢)?[?？]?$/;

/** A clause that asks for a placing or a move ("schedule the essay", "把作文安排在周五"), not a question. */
const PLACING_CLAUSE = new RegExp(
  String.raw`^(?:(?:please|can you|could you|just|then|so|and)\s+)*(?:schedule|place|arrange|put|plan|${MOVE_VERB})\s+(?!me\b|in\b)\S|^(?:请|帮我|那就|就)?(?:把|将)\S+?(?:安排|排|放|挪|移|改|调|推)|^(?:请|帮我|麻烦|那就|就|那)*(?:安排|排)(?:一下)?\S`,
);

export function readFree(body: string): ScheduleRequest | undefined {
  // "place X into a free slot" is an arrange request, not a question about free time.
  // So is "把复习安排到下周的空闲时间": a placing verb before the free time makes it the target, not the question.
  const text = body
    .replace(/\b(?:into|in|to|onto)\s+(?:a\s+|the\s+|another\s+)?free\s+(?:slots?|runs?|time)\b/g, " ")
    .replace(/(?:安排|排|放|塞|填)(?:到|进|入|在)[^,.?!]*?(?:有空|空闲|空余|空档|空着)[^,.?!]*/g, " ");
  // "when can I fit the essay in?", "where could I squeeze 2 hours on Wednesday?", "do I have time for it tomorrow?":
  // the free time is what is asked (a question is never a placing: the placing verb asks where one would go).
  const english =
    /\bfree\b|\bavailab|\bspare time\b|\bopen slots?\b|\bgaps?\b|^(?:when|where) (?:can|could|should|do) i (?:fit|squeeze|slot|put|schedule|do|study)\b|^(?:do|will) i have (?:any |enough )?time\b/.test(
      text,
    );
  const chinese = /有空|空闲|空余|空档|有时间|闲着|空着/.test(text);
  if (!english && !chinese) return undefined;
  // ("I'm free Friday, schedule the essay", "我周五有空，把作文安排在周五": a clause that asks for a placing or a
  // move makes the free time a reason, not the question — before, the essay was never placed.)
  if (text.split(/[,;，；]/).some((clause) => PLACING_CLAUSE.test(clause.trim()))) return undefined;
  // A length ("2节", "两个小时"), never a slot range the plan names ("（第5-8节）").
  const length = new RegExp(
    String.raw`${NUMBER}\s*(?:free\s+|consecutive\s+)?(?:slots|sections|periods|hours)|(?<![第\d一二两三四五六七八九十-])${NUMBER}\s*(?:节|个小时|小时)`,
  ).exec(body);
  const minLength = length ? readNumber(length[1] ?? length[2] ?? "1") : 1;
  return {
    kind: "free",
    where: withWeekNamed(readWhere(body), body),
    minLength: Number.isFinite(minLength) && minLength > 0 ? minLength : 1,
  };
}

/** A question of what is on that names no day: today's. */
const ON_TODAY =
  /^(?:so\s+|and\s+|ok\s+|hey\s+)?(?:what(?:'s| is) on|what(?:'s| is) (?:on )?(?:my |the )?(?:agenda|schedule|plan)(?: like)?|what (?:do i have|have i got)(?: on)?)(?: (?:for me|now|then))?\s*[?!.]*$|^(?:我)?(?:有什么|有哪些|有啥)(?:安排|课|事)[?？]?$/;

/**
 * A look at the whole week that names no day ("show my week", "show me the schedule", "what does my week look like",
 * "看看我的日程"): every day of the schedule. Before, "show me the schedule" read as an arrangement (its "schedule" a
 * verb) and raised a plan card, and the rest were not understood. "plan" is not among the nouns: "show the plan" may
 * ask for the plan a card shows.
 */
const WHOLE_WEEK =
  /^(?:(?:please|can you|could you|can i|could i|may i|let me|i want to|i'd like to)\s+)*(?:show|display|view|see|look at|check|draw|print|open)\s+(?:me\s+)?(?:(?:my|the|our)\s+)?(?:(?:whole|full|current|weekly)\s+)?(?:week(?:ly)?(?:'s)?\s*)?(?:week|schedule|timetable|calendar|agenda|grid)\s*[?!.]*$|^(?:what|how)(?:'s| is| does) (?:my |the )?(?:week|schedule|timetable)(?: look)?(?: like)?\s*[?!.]*$|^(?:我想|帮我|请)?(?:看看|看一下|看下|查看|显示|打开)(?:一下)?(?:我的|我)?(?:日程|课表|安排|周表|这周|本周)(?:表)?[?？。]?$|^(?:我的)?(?:日程|课表)(?:表)?(?:是什么样|怎么样|长什么样)?[?？。]?$/;

/**
 * A look at named days and nothing else: a look verb ("show tmrw", "let me see friday", "can I check Thursday"), the
 * schedule as a noun ("schedule for friday?", "tomorrows schedule", "my timetable on Monday"), "明天的安排",
 * "这周的安排给我看看", "看看周五的课表" (group "rest": the words after the look verb). "安排" after "的" is the
 * noun, no verb: these raised a plan card arranging the days named.
 */
const LOOK_AT =
  /^(?:(?:please|can you|could you|can i|could i|may i|let me|i want to|i'd like to)\s+)*(?:show|display|view|see|look at|check|open)\s+(?:me\s+)?(?<rest>.+)$/;
/** Words of a look that name no task: the schedule's nouns, determiners, "what's on". */
const LOOK_WORDS =
  /\b(?:my|the|our|what'?s|what is|whats|on|for|of|schedule|timetable|calendar|agenda|day|days|like|looks?|please)\b|'s\b|我想|我要|帮我|给我|请|我的|我|看看|看一下|看下|查看|查一下|瞧瞧|显示|一下|的?(?:安排|日程|课表)|[?？!。,]/g;
/**
 * A noun of the schedule, said with no look verb ("schedule for friday", "tomorrow's schedule", "明天的安排"). A bare
 * "schedule for friday" may be either; read as a look, a wrong reading costs a rephrasing, where a plan costs a card.
 */
const SCHEDULE_NOUN =
  /^(?:my |the )?(?:schedule|timetable|calendar|agenda) (?:for|on) |(?:'s|s) (?:schedule|timetable|calendar|agenda)$|的(?:安排|日程|课表)/;

export function readLook(body: string): ScheduleRequest | undefined {
  const look = LOOK_AT.exec(body);
  const said = look?.groups?.rest ?? body;
  if (!look && !SCHEDULE_NOUN.test(body)) return undefined;
  // "给我看看周五安排作文": "安排" but after "的" is the verb of a request of its own.
  if (/(?<!的)安排/.test(said)) return undefined;
  const where = withWeekNamed(readWhere(said), said);
  const left = readTaskWords(said.replace(WEEK_NAMED, " ").replace(LOOK_WORDS, " "));
  if (isEmptySelection(where.only) || left.replace(/[\s,.?!]/g, "") !== "") return undefined;
  return { kind: "day", where };
}

export function readDayContents(body: string): ScheduleRequest | undefined {
  // Every weekday: the schedule's days, whichever week the clock is in (the week a person looks at is the one shown).
  if (WHOLE_WEEK.test(body))
    return { kind: "day", where: { ...readWhere(""), only: { weekdays: [1, 2, 3, 4, 5, 6, 7], days: [] } } };
  const english =
    /\bwhat(?:'s| is| do i have| have i got)\b.*\b(?:on|planned|scheduled|happening)\b|\bwhat (?:do i have|have i got)\b(?!\s+(?:still\s+)?left\b(?![^,.?!]{0,40}\b(?:today|tonight|tomorrow|[a-z]+day)\b))|\bshow (?:me )?(?:my |the )?(?:this|next) week\b|\b(?:is there|do i have|have i got) anything\b|\bshow\b.*\b(?:what is on|day \d+|[a-z]+day)\b|\bschedule (?:for|on)\b|\bagenda\b|\btimetable (?:for|on)\b/.test(
      body,
    );
  // ("what's left today?", "今天还剩什么", "明天还有什么复习": what is on that day, not the reviews left to place.)
  const left =
    /\bwhat(?:'s| is)\s+(?:still\s+)?left\s+(?:to do\s+)?(?:for\s+|on\s+)?(?:today|tonight|tomorrow|(?:this\s+)?[a-z]+day)\s*[?!.]*$|(?:今天|今晚|明天|后天|(?:周|星期|礼拜)[一二三四五六日天])(?:还)?(?:剩下?|有)(?:什么|哪些|啥)(?:复习|安排|事|课)?[?？]?$/.test(
      body,
    );
  const chinese = /(?:有什么|有哪些|有啥)(?:安排|课|事|任务)|安排了(?:什么|啥)|课表|日程/.test(body);
  if (!english && !chinese && !left) return undefined;
  // "what do I have tomorrow?" asks what is on the day; `readWhere` reads "I have … tomorrow" as a day that is busy.
  // A week named ("what's on next week?", "这周有什么安排") is its days.
  const where = withWeekNamed(readWhere(body.replace(/\bwhat (?:do i have|have i got)\b/, "what is on")), body);
  // "what's on?", "what do I have?", "有什么安排" with no day: today (it asked which task "on" was).
  if (isEmptySelection(where.only) && ON_TODAY.test(body))
    return {
      kind: "day",
      where: { ...where, only: { ...where.only, dates: [{ kind: "offset", days: 0, text: "today" }] } },
    };
  if (isEmptySelection(where.only)) return undefined;
  return { kind: "day", where };
}

/** How the student is doing with the reviews: "how did I do this week?", "how am I doing", "我这周完成得怎么样". */
const PROGRESS =
  /^(?:so\s+)?(?:how\s+(?:did\s+i\s+do|am\s+i\s+doing|have\s+i\s+done|'?s\s+my\s+progress|is\s+my\s+progress)|what(?:'s|\s+is)\s+my\s+progress)(?:\s+(?:so\s+far|this\s+week|with\s+my\s+reviews|on\s+my\s+reviews))*\s*[?!.]*$|^(?:我)?(?:这周|本周)?(?:的)?(?:复习)?(?:完成得|做得|进度|完成情况)(?:怎么样|如何)[?？]?$/;

export function readList(quotedBody: string): ScheduleRequest | undefined {
  // Names in quotes are names ("vocabulary list"), not the words of the question.
  const body = quotedBody.replace(/"[^"]*"/g, " ");
  // ("How did I do this week?", "how am I doing?", "我这周完成得怎么样": every review, and how they stand — before, not
  // understood.)
  if (PROGRESS.test(body.trim())) return { kind: "list", status: "all" };
  const pending =
    /\b(?:pending|unplaced|unscheduled|not (?:yet )?(?:placed|scheduled|arranged)|left to (?:place|schedule|arrange|do)|still to (?:place|schedule)|still (?:need|have) to (?:place|schedule|arrange|plan|fit)|need(?:s)? to be (?:placed|scheduled|arranged)|remaining|what(?:'s| is) left)\b|待安排|未安排|没安排|没有安排|还没排|剩下|剩余|还剩/.test(
      body,
    );
  const placed =
    /\b(?:placed|already scheduled|already arranged|scheduled (?:tasks|reviews)|arranged (?:tasks|reviews))\b|已安排|已经安排|排好|安排好/.test(
      body,
    );
  // A review's life after its place (`TaskStatus`): "which reviews did I miss?", "what have I done?", "跳过了哪些".
  const settled: Array<["missed" | "done" | "skipped", RegExp]> = [
    ["missed", /\b(?:missed|did i miss|have i missed)\b|错过/],
    [
      "done",
      /(?<!\bnot )\b(?:done|did i (?:do|finish|complete)|have i done|finished|completed)\b|(?<!没有?)(?:完成|做完)(?:了)?的|已完成|完成了哪些|做完了哪些/,
    ],
    ["skipped", /\b(?:skipped|did i skip|have i skipped)\b|跳过/],
  ];
  // Still to do, whatever the place: not done yet, or left ("how many reviews are left?", "还有几个复习没做").
  const open =
    /\b(?:(?:haven't|have not|hasn't|has not|didn't|did not)(?: i)?(?: yet)? (?:done|do|finished|finish|completed|complete)|not (?:yet )?(?:done|finished|completed)|still (?:have|need|got) to do|still to do|(?:are|is) (?:still )?left\b(?! to (?:place|schedule|arrange|plan|fit)\b)|(?:do i|have i|i)\s+(?:still\s+)?(?:have|got)\s+(?:still\s+)?left\b|(?:what's|what is)\s+(?:still\s+)?left\s+(?:for\s+|of\s+)?(?:this|the)\s+week\b)|(?:还|仍)?没(?:有)?(?:做|完成|复习)|未完成/.test(
      body,
    );
  const asks =
    /\b(?:list|show|which|what|tell me|see|view|how many|how much)\b|列出|列一下|哪些|什么|看看|查看|显示|几个|多少/.test(
      body,
    );
  const all = /\b(?:list|show)\b.*\b(?:all|every|my)\b.*\b(?:tasks|reviews|items)\b|所有(?:的)?(?:任务|复习)/.test(
    body,
  );
  if (!asks) return undefined;
  if (open) return { kind: "list", status: "open" };
  if (pending) return { kind: "list", status: "pending" };
  for (const [status, words] of settled) if (words.test(body)) return { kind: "list", status };
  if (placed) return { kind: "list", status: "placed" };
  return all ? { kind: "list", status: "all" } : undefined;
}

/**
 * "Why is the matrix review there?", "why is the matrix review on Tuesday?", "为什么矩阵复习放在那里": a question about
 * a task's place, answered as an explain (where it is, in which class, inside which event).
 */
const WHY_THERE =
  /^why (?:is|was|are|were|did you (?:put|place|schedule)|have you (?:put|placed|scheduled)) (?:my |the )?(.+?)(?: (?:placed|scheduled|put|arranged))? (?:there|then|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|at [0-9:.]+(?: ?[ap]m)?|in the (?:morning|afternoon|evening))\??$|^为什么(?:把|要把)?(.+?)(?:放|排|安排)?在(?:那里|那儿|那|这里|这儿|周[一二三四五六日天]|星期[一二三四五六日天]|(?:早上|上午|下午|晚上))/;

/** Words that name no task to explain. */
const PRONOUN_TASK = /^(?:you|this|that|it|they|them|tempo|这个|那个|它)$/;

/**
 * A question of where or when a task is, or how it stands: "where's the essay?", "when is my matrix review?", "where
 * did you put the vocab list", "what time is the essay", "is the essay on Friday?", "作文在哪天", "矩阵复习什么时候",
 * "作文安排在哪". Answered as an explain (its class, its place, its status): they were "I can't tell", and "where did
 * you put X" a plan placing X.
 */
const WHERE_IS =
  /^(?:where|when)(?:'s|s| is| are| was| were| do i (?:have|do))\s+(.+?)(?:\s+(?:placed|scheduled|put|arranged|planned|happening|now|again))?$|^(?:where|when) (?:did|have) you (?:put|place|schedule|move|arrange)d?\s+(.+?)(?:\s+(?:to|on|at))?$|^what time (?:is|are|was|do i have|do i do)\s+(.+)$|^is (?:my |the )(.+?)\s+(?:on|at|in|done|finished|placed|scheduled)\b.*$|^(?!.*(?:有空|空闲|有时间))(.{2,20}?)(?:被)?(?:安排|排|放)?(?:是|在)?(?:哪天|哪一天|哪里|哪儿|哪|什么时候|几点)(?:了|呢|啊|吗)?$/;

/** A question whether a task was done, missed or skipped (group 1, 2 or 3: the task). */
const DID_I =
  /^(?:did|have) i (?:already |ever |actually )?(?:do|done|finish(?:ed)?|complete(?:d)?|miss(?:ed)?|skip(?:ped)?)\s+(.+?)(?:\s+(?:yet|already|today|this week))?\s*\??$|^(?:我)?(?:已经)?(?:做完|完成|做|错过|跳过)了?(.+?)了?(?:吗|没有)[?？]?$|^(.+?)我?(?:已经)?(?:做完|完成|做|错过|跳过)了?(?:吗|没有)[?？]?$/;

/** The task a where-or-when question names (`WHERE_IS`), or undefined when it names none (a day, "it"). */
function readWhereIs(body: string): ScheduleRequest | undefined {
  const match = WHERE_IS.exec(body);
  if (!match) return undefined;
  const said = match.slice(1).find((group) => group !== undefined) ?? "";
  const task = taskPhrase(said.replace(/(?:的复习|的任务)$/, "").replace(/^(?:我的|我)/, ""));
  if (!task || PRONOUN_TASK.test(task) || readTaskWords(task).trim() === "" || namesEverything(task)) return undefined;
  return { kind: "explain", task };
}

export function readExplain(body: string): ScheduleRequest | undefined {
  const why = WHY_THERE.exec(body);
  const whyTask = why ? taskPhrase(why[1] ?? why[2] ?? "") : undefined;
  if (whyTask && !PRONOUN_TASK.test(whyTask)) return { kind: "explain", task: whyTask };
  const whereIs = readWhereIs(body);
  if (whereIs) return whereIs;
  // "Did I finish the matrix review?", "矩阵复习我做了吗": how the task stands, which its explanation says.
  const asked = DID_I.exec(body);
  const askedTask = asked ? taskPhrase(asked.slice(1).find((group) => group !== undefined) ?? "") : undefined;
  if (
    askedTask &&
    !/没|不/.test(askedTask) &&
    !PRONOUN_TASK.test(askedTask) &&
    !namesEverything(askedTask) &&
    readTaskWords(askedTask).trim()
  )
    return { kind: "explain", task: askedTask };
  const english =
    /\b(?:explain|describe|tell me (?:more )?about|details? (?:of|for|about|on)|info(?:rmation)? (?:on|about|for)|what is|what's)\s+(.+)$/.exec(
      body,
    );
  const chinese = /(?:解释|介绍|说明|讲讲|说说)(?:一下)?(.+)$/.exec(body) ?? /^(.+?)是什么/.exec(body);
  const match = english ?? chinese;
  if (!match) return undefined;
  const task = taskPhrase(match[1] ?? "");
  if (!task || PRONOUN_TASK.test(task)) return undefined;
  return { kind: "explain", task };
}
