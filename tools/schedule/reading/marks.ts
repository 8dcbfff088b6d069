/**
 * Marks and clearings: a task said done, missed or skipped ("I finished the essay", "I missed Tuesday's review, don't
 * reschedule it"), a day or the week cleared ("clear Friday"), an event removed and a task taken off the schedule.
 */
import { trimEdges } from "../../../contracts/edge-trim.js";
import type { DateSpec, DaySelection, ScheduleRequest, Where } from "./request-kinds.js";
import { readDates, readDays } from "./day-words.js";
import { isAnywhere, isEmptySelection, PART_PHRASE_WORDS, readSlots, readWhere } from "./where.js";
import { onlyWhen, taskPhrase } from "./task-words.js";
import { ASKING_PHRASE, splitRelativeDay, splitWeekday } from "./day-names.js";
import { MOVE_TO_ZH, MOVE_VERB } from "./shift-all.js";

/** The list a task is ticked off ("… off my list", "… off the to-do list"). */
const OFF_A_LIST = String.raw`(?:my|the)\s+(?:list|to-?do(?:\s+list)?)`;

/** The Chinese verbs of a task done: "做完", "写完", "背完", "搞定" … */
const DONE_ZH = "做完|完成|做好|搞定|写完|背完|读完|看完|复习完|学完|练完|弄完|弄好|写好|交完";

/** How people say a task's life, each with the status it settles as (a typo of a verb is read too: "finsihed"). */
const MARK_PHRASES: ReadonlyArray<[RegExp, "done" | "missed" | "skipped"]> = [
  [/^mark\s+(.+?)\s+(?:as\s+)?(?:done|finished|completed?)$/, "done"],
  [/^mark\s+(.+?)\s+(?:as\s+)?missed$/, "missed"],
  [/^mark\s+(.+?)\s+(?:as\s+)?skipped$/, "skipped"],
  // "cross off the essay", "tick the essay off", "check off the vocab list": a list's way of saying done.
  [new RegExp(String.raw`^(?:cross|tick|check)\s+off\s+(.+?)(?:\s+(?:from\s+)?${OFF_A_LIST})?$`), "done"],
  [new RegExp(String.raw`^(?:cross|tick|check)\s+(.+?)\s+off(?:\s+${OFF_A_LIST})?$`), "done"],
  // ("I'll skip the essay", "i'm gonna skip the vocab list this week": what is to be, said as a plan.)
  [
    /^(?:i(?:'ll| will|'m gonna| am gonna|'m going to| am going to| wanna| want to|'d like to| would like to| need to| think i'll)?\s+)?(?:want to\s+)?(?:just\s+)?ski+p+(?:ped)?\s+(.+?)(?:\s+(?:for\s+)?this\s+week)?$/,
    "skipped",
  ],
  [
    /^(?:i\s+)?(?:mis+ed|didn'?t do|did not do|didn'?t get to|never did|forgot|couldn'?t do|could not do|couldn'?t get to|(?:wasn'?t|was not) able to do|didn'?t manage to do|(?:haven'?t|have not) (?:done|did|finished|gotten to|got to))\s+(.+)$/,
    "missed",
  ],
  // "the matrix review didn't happen".
  [/^(.+?)\s+(?:didn'?t|did not|never)\s+happen(?:ed)?$/, "missed"],
  // "I got the essay done", "get the vocab list done": what was got done (it read "get the essay" as the task).
  [
    /^(?:i\s+)?(?:(?:have|'ve)\s+)?(?:got|gotten|get)\s+(.+?)\s+(?:all\s+)?(?:done|finished|completed)(?:\s+now)?$/,
    "done",
  ],
  // "the essay is done", "essay done", "the vocab list is finished now", "the essay's finished" (not "the essay is not
  // done", "almost done"; before, "the essay's finished" named a task "essay's").
  [
    /^(?!(?:i|i'm|i am|we|we're|it|that|this|everything|all|is|are|was|has|have|did)\b|(?:(?:my|the|this|today'?s)\s+)?(?:schedule|week|day|plan|calendar|timetable|homework)\b)(.+?)(?<!\b(?:not|n't|never|almost|nearly|half|partly|isn't|is not))(?:'s|\s+(?:is|'s|are|got))?\s+(?:all\s+)?(?:done|finished|completed|complete)(?:\s+now)?$/,
    "done",
  ],
  [
    /^(?:i\s+)?(?:(?:have|'ve)\s+)?(?:did|done with|done|fini?sh?(?:ed)?|finsihed|compl?eted|completd)\s+(?!not\b|n'?t\b|never\b|nothing\b)(.+)$/,
    "done",
  ],
  [/^(?:把|将)\s*(.+?)\s*(?:记为|标记为|标为|标成|标记成|标记)(?:已完成|完成|做完)$/, "done"],
  [/^(?:把|将)\s*(.+?)\s*记为错过$/, "missed"],
  [/^(?:把|将)\s*(.+?)\s*记为跳过$/, "skipped"],
  [/^(?:我)?(?:这周|本周)?(?:跳过|不做)(?:这周|本周)?(?:的)?(.+?)(?:这周|本周)?$/, "skipped"],
  // The verb first ("我没做周二的复习", "我错过了周二的复习"), then the task first ("我周二的复习没做").
  [/^(?:我)?(?:这周|本周)?(?:没做完|没有做完|没做|没有做|没完成|没有完成|错过了|漏了|忘了做)(?:了)?(.+)$/, "missed"],
  [/^(?:我)?(.+?)(?:没做|没有做|没完成|没有完成|错过了|漏了|忘了做)/, "missed"],
  // "我做完矩阵复习了", "我已经完成了单词表了", "我写完作文了": the verb, the task, then 了.
  [new RegExp(String.raw`^(?:我)?(?:已经)?(?:${DONE_ZH})(?:了)?(.+?)了$`), "done"],
  [new RegExp(String.raw`^(?:我)?(?:已经)?(?:(?:${DONE_ZH})了|做了)(.+)$`), "done"],
  // "作文写完了", "我把作文写完了", "单词表背完了", "作文搞定了" (before, only 做完 and 完成 were read).
  [new RegExp(String.raw`^(?:我)?(?:把|将)?(.+?)(?:已经)?(?:(?:${DONE_ZH})了|已完成)`), "done"],
];

/** A mark of done that names no task: "I'm done", "all done", "finished", "done with it", "我做完了", "搞定了". */
/** "我今天做完(了)矩阵复习", "我刚做完…", "我提前完成了…": who (1) and the verb (2), when it was done said before it. */
const DONE_WHEN_ZH = new RegExp(
  String.raw`^(我)?(?:今天|昨天|昨晚|今晚|今早|刚才|刚刚|刚|早上|上午|中午|下午|晚上|提前)(?:已经|也)?(${DONE_ZH})了?`,
);
const DONE_ALONE = new RegExp(
  String.raw`^(?:(?:i'?m|i am|i'?ve|i have)\s+)?(?:(?:already|just|finally|all)\s+)?(?:done|finished|completed)(?:\s+(?:with\s+)?(?:it|that|this))?(?:\s+now)?$|^(?:i\s+)?(?:did|finished|completed)\s+(?:it|that|this)$|^(?:我)?(?:已经|刚|刚刚)?(?:${DONE_ZH})了$`,
);

/** "…, don't reschedule it", "no need to reschedule", "不用重新安排": a missed task is not to be proposed again. */
/**
 * "…, reschedule it", "…, can you make it up?", "…，帮我重新安排一下": what a missed mark does anyway (its review is
 * proposed again), said after it — no part of the review's name (before, "matrix review , reschedule it" was asked
 * about as a task).
 */
const RESCHEDULE_TOO =
  /[,;，；]\s*(?:and\s+|so\s+)?(?:(?:can|could|would|will) you\s+|please\s+)*(?:(?:re-?schedule|make up|put back|find a new (?:slot|time|place) for)(?:\s+(?:it|that|them))?|put (?:it|that|them) back)(?:\s+(?:please|for me|later))?\s*\??$|[,，；;]\s*(?:请|帮我|麻烦)?(?:重新安排|补排|再安排)(?:一下)?(?:吧)?$/;
/**
 * Where a missed task should go, said after the mark: "I missed the matrix review, put it on Friday", "…, can you move
 * it to tomorrow", "…, do it on Friday instead", "…, reschedule it for Saturday morning", "我错过了矩阵复习，把它改到周五",
 * "我周二的复习没做，补到周六吧". Read before the mark, so its day is never the day of the mark.
 */
const MISSED_THEN = new RegExp(
  String.raw`[,;]\s*(?:and\s+|so\s+|then\s+)?(?:(?:can|could|would|will) you\s+|please\s+)*(?:${MOVE_VERB}|put|do|schedule|re-?place|place|make)\s+(?:it|that|this one)\s+(?:up\s+)?(.+)$` +
    String.raw`|[，,；;]\s*(?:请|帮我|麻烦)?(?:把它|把这个)?(?:${MOVE_TO_ZH}|安排到|安排在|放到|放在|改在|补到|补在)([^，,；;]+?)(?:吧|去)?$`,
);
export const DONT_RESCHEDULE =
  /[,;]?\s*(?:but\s+|and\s+|so\s+)?(?:please\s+)?(?:don'?t|do not|no need to|never)\s+(?:re-?schedule|re-?place|re-?arrange|move|put back|make up)(?:\s+(?:it|that|them|for it))?(?:\s+again)?|[,，]?\s*(?:但是?|所以)?(?:不要|不用|别|无需|不必)(?:再)?(?:重新|补)(?:安排|排|做)?(?:了)?/;

/**
 * Words around a mark that say when or how surely it happened, not which task: "I (have) already / just finished …",
 * "… already", "… just now", "… today", "… this morning"; "矩阵复习我今天已经做完了". A day that names a task's place
 * ("Tuesday's review") is not among them.
 */
const MARK_ADVERB_BEFORE = /^(i(?:'ve|\s+have)?\s+)(?:already|just|finally|actually|also)\s+/;
const MARK_ADVERB_AFTER =
  /\s+(?:already|just now|now|too|as well|today|earlier today|this (?:morning|afternoon|evening)|yet|early|ahead of time|in advance|(?:at|around|by)\s+(?:\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?|noon))$/;
const MARK_WORDS_AFTER_ZH = /(?:我|都)?(?:今天|刚才|刚刚|早上|上午|中午|下午|晚上)?(?:已经|都|也|还)?$/;

/**
 * A sentence without the days it names (calendar days, weekdays, "day 3", "周一（第1天）") and the parts of the day
 * ("in the evening (slots 9-12)", "晚上（第9-12节）"): what is left says what to do with them.
 */
export function withoutDayWords(text: string): string {
  return readDates(text.replace(/'s\b/g, ""))
    .rest.replace(
      /\b[a-z]+day\s*\(day \d+\)|(?:周|星期|礼拜)[一二三四五六日天1-7]\s*(?:\(day \d+\)|[（(]第\d+天[)）])?/g,
      " ",
    )
    .replace(/\bdays? \d+\b|第\d+天|\bweekends?\b|周末/g, " ")
    .replace(/\b(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?\b/g, " ")
    .replace(
      /\b(?:in\s+)?(?:the\s+)?(?:mornings?|afternoons?|evenings?|nights?)\b(?:\s*\(slots? \d+-\d+\))?|\bin slots? \d+-\d+\b/g,
      " ",
    )
    .replace(PART_PHRASE_WORDS, " ")
    .replace(/(?:上午|下午|晚上|早上)?[（(]第\d+-\d+节[)）]|上午|下午|晚上|早上/g, " ")
    .replace(/\s+/g, " ")
    .replace(/\s+([,;])/g, "$1")
    .trim();
}

/**
 * "skip all my reviews", "I'm sick, skip everything", "clear", "cancel everything", `Skip every review placed on`,
 * "clear my Friday", "clear out Friday", "free up my Thursday" (the day's words gone): the verb.
 */
const CLEAR_DAY_EN =
  /^(?:(?:i'?m|i am|i feel|i'?m feeling|feeling|i got|i'?ve got|i have)\s+(?:(?:so|really|too|a bit)\s+)?(?:sick|ill|unwell|not well|not feeling well|tired|exhausted|a cold|a fever|the flu|a (?:bad\s+)?(?:headache|migraine|cough|sore throat|(?:stomach|tummy)\s?ache|hangover)|hungover|food poisoning|under the weather)\b[^,;]*[,;]?\s*(?:so\s+)?)?(?:(?:please|just|can you|could you|let's|i want to|i'd like to)\s+)*(skip|clear|cancel|unplace|unschedule|drop|wipe|empty|free up|remove|delete)\s*(?:\bout\b\s*)?((?:all|everything|it all|every (?:review|task|session)s?(?: placed)?|(?:all\s+(?:of\s+)?)?(?:my|the)\s+(?:reviews|tasks|sessions|study sessions|studying|schedule|day|plans?|calendar)|all\s+(?:reviews|tasks|sessions)|reviews|tasks)\s*)?(?:on|for|the|my)?$/;

/**
 * "今天的复习都跳过", "我今天病了，全部跳过", "把明天清空", "取消明天的所有复习", `跳过周一（第1天）的所有复习`: the verb,
 * once the days are gone (`withoutDayWords`) and the punctuation.
 */
const CLEAR_DAY_ZH =
  /^(?:我|我的)?(?:(?:生)?病了|生病|不舒服了?|身体不舒服|身体不好|发烧了|感冒了|(?:有点|很|太)?(?:头疼|头痛|肚子疼|胃疼|嗓子疼|拉肚子|咳嗽|发烧|难受)了?|太累了|很累|累了|有事|不想(?:复习|学习|学)?了?)?(?:请|帮我|麻烦)?(?:把|将)?我?的?(?:所有|全部|全)?的?(?:复习|任务|安排|日程|计划|东西)?(?:都|全都|全部|全)?(?:给我)?(跳过|清空|清掉|取消|撤下|撤掉|空出来|腾出来|空下来)(?:了|掉)?(?:安排)?的?(?:所有|全部)?的?(?:复习|任务|安排|日程|计划)?(?:吧|了)?$/;

/**
 * A week a clear names ("skip the rest of the week", "skip everything this week", "clear next week", "skip everything
 * until the end of the week", "这周剩下的复习都跳过", "把下周清空"): `this` is what is left of this week. Before, each read
 * as a mark or an unplace of a task named "rest of the week" or "this week" (and the Chinese not at all).
 */
const CLEAR_WEEK =
  /\b(?:for\s+|over\s+)?(?:the\s+)?rest\s+of\s+(?:the|this|my)\s+week\b|\b(?:until|till|til|through|to)\s+the\s+end\s+of\s+(?:the|this|my)\s+week\b|\b(?:for\s+|of\s+)?(?:(?:later\s+)?(this|the current)|(next|the coming))\s+week(?:'s)?\b|(?:(这|本)|(下))(?:个)?(?:周|星期|礼拜)(?:剩下|剩余|接下来|余下)?(?:的)?(?:日子|几天)?(?![一二三四五六日天1-7末])/;

/** A clear's days with the week it names, and its words without it. */
function clearWeek(body: string): { only: DaySelection; said: string } | undefined {
  const match = CLEAR_WEEK.exec(body);
  if (!match) return undefined;
  const next = match[2] !== undefined || match[4] !== undefined;
  const week: DateSpec = next
    ? { kind: "week", weeks: 1, text: match[0].trim() }
    : { kind: "week", weeks: 0, text: match[0].trim(), fromToday: true };
  const said = `${body.slice(0, match.index)} ${body.slice(match.index + match[0].length)}`.replace(/\s+/g, " ").trim();
  return { only: { weekdays: [], days: [], dates: [week] }, said };
}

/** Every review of a day skipped or taken off ("skip all my reviews today", "clear tomorrow", "把明天清空"), or undefined. */
export function readClearDay(said: string): ScheduleRequest | undefined {
  const week = clearWeek(said);
  // A week and days besides ("skip everything this week except Friday") is not a clear of either.
  if (week && !isEmptySelection(readDays(week.said))) return undefined;
  const body = week?.said ?? said;
  let only = week?.only ?? readDays(body);
  // ("skip all my reviews on Thursday and Friday": the words that joined the days go with them.)
  const rest = withoutDayWords(body)
    .replace(/,/g, " ")
    .replace(/(?<=\s|^)(?:and|or|&)(?=\s|$)/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s,;.!]+$/, "");
  const matched = CLEAR_DAY_EN.exec(rest);
  const english = matched?.[1];
  const compact = rest.replace(/[\s,.!?;:]/g, "").replace(/[和与、及]/g, "");
  const chinese = english ? undefined : CLEAR_DAY_ZH.exec(compact)?.[1];
  const verb = english ?? chinese;
  if (verb === undefined) return undefined;
  if (isEmptySelection(only)) {
    // No day said: only words for everything ("skip everything", "cancel it all", "全部跳过") read as a whole day.
    const everything = english
      ? /^(?:all|everything|it all)$/.test((matched?.[2] ?? "").trim())
      : /所有|全部|全都|都|全/.test(compact);
    if (!everything) return undefined;
    // Skipping or cancelling everything is about today (what is still ahead of it); "clear everything" may as well
    // mean the whole week, so its day is asked (`where.only` left empty).
    if (/^(?:skip|cancel|跳过|取消)$/.test(verb)) only = readDays("today");
  }
  const where: Where = { only, not: { weekdays: [], days: [] }, slots: readSlots(body) };
  return { kind: "clear_day", how: verb === "skip" || verb === "跳过" ? "skip" : "unplace", where };
}

/** Stopping for now: "I'm done for today", "done for the night", "that's enough for today", "今天先这样". */
const STOPPING_WORDS = String.raw`(?:(?:i'?m|i am|we'?re)\s+)?(?:(?:all|so|pretty much)\s+)?(?:done|finished|through)\s+for\s+(?:today|tonight|the\s+day|the\s+night|now|the\s+week)|(?:that'?s|that\s+is)\s+(?:it|enough|all)\s+for\s+(?:today|tonight|now|the\s+day)|(?:我)?今天(?:就)?(?:到这里|到这儿|到此为止|先这样)(?:吧)?`;
/** Stopping, said alone. */
const STOPPING = new RegExp(`^(?:${STOPPING_WORDS})$`);
/**
 * Stopping said first, before a request of its own: "I'm done for the day, move the rest to tomorrow" (the clauses, said
 * once or more: all of them at once, so that what is left starts with none).
 */
export const STOPPING_CLAUSE = new RegExp(`^(?:(?:${STOPPING_WORDS})\\s*[,，;；.。!！]+\\s*)+(?=\\S)`);

/** A sentence about a task's life that asks rather than tells: a question mark, 吗 / 么 / 没有 at its end, a count. */
const MARK_QUESTION = /[?？]\s*$|(?:吗|么|没有)\s*$|几个|几项|几门|多少|how many/;

/** A short clause of why said before "missed" or "didn't do" (its own subject "i"), up to the verb. */
const EXCUSE_BEFORE_MISSED =
  /^(?:i|i'm|i am|i was)\s+[^,.;]{1,40}?(?:\s*,\s*(?:and\s+|so\s+)?|\s+(?:and|so)\s+)(?:(?:so|then)\s+)?(?:i\s+)?(?=(?:mis+ed|didn'?t do|did not do|didn'?t get to|never did|forgot|couldn'?t do|could not do|couldn'?t get to)\s)/;

/** A task phrase that names only the kind of session: "my review", "the reviews", "复习". */
const KIND_ONLY = /^(?:(?:my|the)\s+)?(?:reviews?|review sessions?|study sessions?|sessions?)$|^(?:复习|复习任务)$/;

/** A task's life in words ("I did the matrix review", "我周二的复习没做"), or undefined. */
export function readMark(body: string): ScheduleRequest | undefined {
  // A question is never a mark: "我周二的复习没做吗？", "有几个复习没完成？" ask, and a wrong write costs a card.
  if (MARK_QUESTION.test(body)) return undefined;
  const whole = trimEdges(body, /[.!。！]/, "end").trim();
  // ("I'm done for today", "that's it for tonight", "今天就到这里": stopping says no task is done — before, a task
  // named "for" was sought, and "…, move the rest to tomorrow" was refused as two requests.)
  if (STOPPING.test(whole)) return undefined;
  const thenSaid = MISSED_THEN.exec(whole);
  const goesTo = thenSaid ? readWhere(thenSaid[1] ?? thenSaid[2] ?? "") : undefined;
  const then = goesTo && !isAnywhere(goesTo) ? goesTo : undefined;
  const said = (then ? whole.slice(0, thenSaid!.index) : whole).replace(RESCHEDULE_TOO, "");
  const kept = said.replace(new RegExp(DONT_RESCHEDULE.source, "g"), "").trim();
  const keep = kept !== said ? { reschedule: false as const } : {};
  const text = kept
    // "can you mark the essay done", "please skip the vocab list": the asking is no part of the mark.
    .replace(/^(?:(?:can|could|would|will) you\s+(?:please\s+)?|please\s+)+(?=mark\b|ski+p)/, "")
    .replace(MARK_ADVERB_BEFORE, "$1")
    .replace(/^i've\s+/, "i have ")
    // "I overslept and missed X", "I was sick, couldn't do X", "I got sick so I missed X": why is no part of the mark.
    .replace(EXCUSE_BEFORE_MISSED, "i ")
    // "I'm done with X", "im finished with X", "I am done X": "done with X".
    .replace(/^(?:i'?m|i am)\s+(?:(?:already|just|finally|all)\s+)?(?:done|finished)\s+(?:with\s+)?/, "done with ")
    // "我还没做X": "我没做X"; "我昨天没做复习": "我没做昨天的复习" (the day names the review missed).
    .replace(/^(我)?(?:还)(没|忘了|漏了)/, "$1$2")
    .replace(
      /^(我)?(昨天|昨晚|今天|今晚|今早)(?:还)?(没做|没有做|没完成|没有完成|忘了做|漏了)(?:了)?(复习(?:任务)?)$/,
      "$1$3$2的$4",
    )
    .replace(/^(我)?(?:昨天|昨晚|今天|今晚|今早)(?:还)?(没做|没有做|没完成|没有完成|忘了做|漏了)/, "$1$2")
    // "我今天做完了矩阵复习", "我刚做完矩阵复习", "我提前完成了单词表": when it was done, not which — "我做完了…".
    .replace(DONE_WHEN_ZH, "$1$2了");
  // "I'm done", "finished!", "做完了": no task named — "it", the review the run's clock makes current (the offline
  // policy's execute stage finds it, or asks which).
  if (DONE_ALONE.test(text)) return { kind: "mark", task: "it", to: "done", ...keep };
  for (const [pattern, to] of MARK_PHRASES) {
    const match = pattern.exec(text);
    if (!match) continue;
    // "我错过了哪些复习", "列出已完成的复习": a question about a status names no task (QUESTION_START reads English).
    if (ASKING_PHRASE.test(match[1] ?? "")) return undefined;
    // "skip all my reviews except Friday's": what is left out is no task to mark (it read as skipping Friday's).
    if (/\b(?:except|excluding|but not|other than|apart from|besides)\b|除了|以外|之外/.test(match[1] ?? ""))
      return undefined;
    // "I did all of today's reviews", "I finished everything today", "我今天的复习都做完了": every review of that day,
    // at once (before, which one was asked, of five).
    const day = !then ? everyReviewOfDay(match[1] ?? "") : undefined;
    if (day && to !== "skipped") return { kind: "clear_day", how: to, where: day, ...keep };
    const ofPart = reviewOfPartSaid(match[1] ?? "");
    const named = ofPart ?? (match[1] ?? "").replace(MARK_ADVERB_AFTER, "").replace(MARK_WORDS_AFTER_ZH, "");
    // A review missed yesterday, named by its kind alone, is yesterday's ("I didn't do my review yesterday", "我昨天没做
    // 复习"); a named one keeps its name, and one done yesterday may be any.
    const plain = ofPart !== undefined ? { rest: ofPart } : splitRelativeDay(named);
    const { daysAgo, rest } =
      to === "missed" && ofPart === undefined && plain.daysAgo === undefined && KIND_ONLY.test(plain.rest)
        ? splitRelativeDay(named, true)
        : plain;
    const { weekday, rest: task } = splitWeekday(rest);
    // A place said for a task done or skipped is no mark ("I finished the essay, put it on Friday"): not understood.
    if (then && to !== "missed") return { kind: "unknown" };
    // "I missed my review, put it on Friday": the review that moves is told by its day or name, never the kind alone
    // (a move of "the review" is of a placed one): not understood, rather than another review moved.
    if (then && weekday === undefined && daysAgo === undefined && KIND_ONLY.test(rest)) return { kind: "unknown" };
    if (task)
      return {
        kind: "mark",
        task,
        to,
        ...(weekday !== undefined ? { weekday } : daysAgo !== undefined ? { daysAgo } : {}),
        ...keep,
        ...(then && !keep.reschedule ? { then } : {}),
      };
  }
  return undefined;
}

/**
 * Where every review of a day is, when a mark's words name them all with the day ("all of today's reviews",
 * "everything today", "anything today", "today's reviews", "every review placed on Monday, Mar 11", "今天的复习都",
 * "周一的所有复习"); undefined for one review ("today's review", "今天的复习") or no day.
 */
function everyReviewOfDay(said: string): Where | undefined {
  const only = readDays(said);
  if (isEmptySelection(only)) return undefined;
  const rest = withoutDayWords(said).trim();
  if (!EVERY_REVIEW_LEFT_EN.test(rest) && !EVERY_REVIEW_LEFT_ZH.test(rest.replace(/\s+/g, ""))) return undefined;
  return { only, not: { weekdays: [], days: [] }, slots: readSlots(said) };
}
/** What is left of every review of a day once its day is taken out: "all of reviews", "everything", "reviews for". */
const EVERY_REVIEW_LEFT_EN =
  /^(?:(?:all|each|every one|any)\s+)?(?:of\s+)?(?:(?:my|the)\s+)?(?:reviews|review sessions|study sessions|sessions|everything|it all|anything|every review(?:\s+placed)?)(?:\s+(?:for|from|on|of))?[\s,]*$/;
/** The same in Chinese, with a word for all: "的复习都", "所有的复习", "的所有复习", "安排的所有复习", "的都". */
const EVERY_REVIEW_LEFT_ZH =
  /^(?:我)?(?:安排)?的?(?:(?:所有|全部)的?(?:复习|任务)(?:都|全都|全部|全)?|(?:复习|任务)?(?:都|全都|全部|全))$/;

/** "my review this morning", "tonight's review", "the session this afternoon" (groups "when"/"after"). */
const REVIEW_OF_PART_EN =
  /^(?:(?:my|the)\s+)?(?:(?<when>tonight|this (?:morning|afternoon|evening))'s\s+(?:review|study session|session)|(?:review|study session|session)\s+(?<after>tonight|this (?:morning|afternoon|evening)))$/;
/** "今早的复习", "今天下午的复习", "今晚的复习" (group "zh"). */
const REVIEW_OF_PART_ZH = /^(?:我)?(?<zh>今早|今晚|今天早上|今天上午|今天下午|今天晚上)的?(?:复习|学习)$/;
const PART_ZH_WORD: Readonly<Record<string, string>> = {
  今早: "上午",
  今天早上: "上午",
  今天上午: "上午",
  今天下午: "下午",
  今晚: "今晚",
  今天晚上: "今晚",
};

/**
 * A review of today named by its part of the day ("I missed my review this morning", "I did tonight's review", "今晚的
 * 复习没做"), as the planner names it ("morning review", "今晚的复习": today's one review of that part) — before, the
 * part was dropped and the review meant was any of today's, or the last one missed.
 */
function reviewOfPartSaid(said: string): string | undefined {
  const english = REVIEW_OF_PART_EN.exec(said.trim())?.groups;
  const when = english?.when ?? english?.after;
  if (when !== undefined) return `${when.replace(/^this /, "")} review`;
  const chinese = REVIEW_OF_PART_ZH.exec(said.trim())?.groups?.zh;
  return chinese === undefined ? undefined : `${PART_ZH_WORD[chinese]}的复习`;
}

/**
 * A timetable event named as one: "remove the event physics lab", "delete the timetable event "Weekly seminar"", the
 * plan's own step (`remove the event "friday tutorial"`, `删除课表活动 "周五的辅导课"`), or undefined.
 */
export function readRemoveEvent(body: string): ScheduleRequest | undefined {
  const match =
    /\b(?:remove|delete|cancel|drop)\s+(?:the\s+|my\s+)?(?:timetable\s+|calendar\s+)?event\s+(.+?)(?:\s+(?:from|off)\s+(?:the\s+|my\s+)?(?:timetable|calendar|schedule|week))?$/.exec(
      body,
    ) ?? /(?:删除|删掉|移除|去掉)(?:课表|日程)(?:上的)?活动\s*(.+)$/.exec(body);
  const event = taskPhrase(match?.[1] ?? "");
  return event ? { kind: "remove_event", event } : undefined;
}

/** The schedule, as where a task is taken from ("日程里", "日历上"). */
const ON_SCHEDULE_ZH = /^(?:我的)?(?:日程|日历|课表|计划|安排)(?:表)?(?:里|上|中)?$/;

/**
 * The day a task is taken off, said at the end of `body` ("remove the essay from Friday", "cancel the essay tomorrow",
 * "take the essay off my schedule for Friday"): the sentence without it, and the words of the day. Before, the day was
 * read as part of the task's name, or as a day to keep free while every review was arranged. Only the last few words
 * are tried.
 */
function dayTakenOff(body: string): { said: string; when?: string } {
  const cuts = [...body.matchAll(/\s+/g)].map((space) => space.index).slice(-6);
  for (const cut of cuts) {
    const when = /^\s+(?:(?:from|on|for|in)\s+)?(.+)$/.exec(body.slice(cut));
    if (when && onlyWhen(when[1]!)) return { said: body.slice(0, cut), when: when[1]! };
  }
  return { said: body };
}

/**
 * A task named by the day it is taken off ("friday's essay", "tomorrow's essay", "周五的作文"), as a move names a
 * review by its day: the execute stage takes it off only if it is there, and says so if it is not. A day that is not
 * one weekday or a day from today names nothing more than the task.
 */
function namedByDayTakenOff(task: string, when: string | undefined): string {
  if (when === undefined || task === "") return task;
  const { only } = readWhere(when);
  const dates = only.dates ?? [];
  const chinese = /[\u4e00-\u9fff]/.test(task);
  const relative = dates.length === 1 && dates[0]!.kind === "offset" ? dates[0]!.days : undefined;
  const day =
    only.weekdays.length === 1 && dates.length === 0
      ? chinese
        ? `周${"一二三四五六日"[only.weekdays[0]! - 1]}`
        : WEEKDAY_WORDS[only.weekdays[0]! - 1]
      : relative !== undefined && relative >= -1 && relative <= 1
        ? (chinese ? ["昨天", "今天", "明天"] : ["yesterday", "today", "tomorrow"])[relative + 1]
        : undefined;
  if (day === undefined) return task;
  return chinese ? `${day}的${task}` : `${day}'s ${task}`;
}
const WEEKDAY_WORDS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/**
 * A task taken off the schedule, pending again: "unplace the essay", "remove the vocab list from my calendar", "take
 * the essay off (the schedule)", "把作文撤下", or undefined. "Take" takes a task off only when it says off or out: said
 * of time ("the essay will take 3 hours") it took a task named "3 hours" off the week.
 */
export function readUnplace(body: string): ScheduleRequest | undefined {
  const { said, when } = dayTakenOff(body);
  const english =
    /\b(?:unplace|unschedule|remove|cancel|clear|drop|delete)\s+(.+?)(?:\s+(?:off|out|from)(?:\s+(?:of\s+)?(?:the|my)?\s*(?:schedule|calendar|timetable|week|plan))?)?$/.exec(
      said,
    ) ??
    /\btake\s+(?:(?:off|out)\s+(.+?)|(.+?)\s+(?:off|out))(?:\s+(?:(?:of|from)\s+)?(?:the|my|this)?\s*(?:schedule|calendar|timetable|week|plan))?$/.exec(
      said,
    );
  if (english) {
    const task = taskPhrase((english[1] ?? english[2] ?? "").replace(/\s+(?:off|out)$/, ""));
    return task ? { kind: "unplace", task: namedByDayTakenOff(task, when) } : undefined;
  }
  // ("把作文取消安排，我以后再做": the task is what 把 names, not the words after the verb.)
  const chinese =
    /(?:把|将)(.+?)(?:撤下|撤掉|移除|删掉|删除|拿掉|去掉|取消)/.exec(said) ??
    /(?:取消安排|取消|撤下|撤掉|移除|删掉|删除|拿掉|去掉)(.+)$/.exec(said);
  if (!chinese) return undefined;
  // ("把作文从周五拿掉", "把作文从日程里删掉": where it is taken from is no part of its name.)
  const from = /^(.+?)从(.+)$/.exec(chinese[1] ?? "");
  const onSchedule = from !== null && ON_SCHEDULE_ZH.test(from[2]!);
  const fromDay = from !== null && !onSchedule && onlyWhen(from[2]!) ? from[2]! : undefined;
  const task = taskPhrase(onSchedule || fromDay !== undefined ? from![1]! : (chinese[1] ?? ""));
  return task ? { kind: "unplace", task: namedByDayTakenOff(task, fromDay ?? when) } : undefined;
}
