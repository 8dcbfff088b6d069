/**
 * One sentence read (`parseSentence`, `readSentence`): by the reader its words call for, with the words of when said
 * first, a day to have it done by, a refusal or a liking, a greeting or a question, days to keep free and tasks left
 * out.
 */
import { trimEdges } from "../../../contracts/edge-trim.js";
import type { ScheduleRequest, Where } from "./request-kinds.js";
import { MAX_READ_LENGTH, NOT_ZH } from "./words.js";
import { EVERY_NOT_AFTER_HOUR, readNotAfterHour, withoutEndsBy } from "./clock-words.js";
import { readDates, readDays } from "./day-words.js";
import {
  isEmptySelection,
  NEGATIVE_CLAUSE,
  NOT_NEGATIVE,
  readBefore,
  readPartOfDay,
  readWhere,
  withDaySpans,
} from "./where.js";
import { onlyWhen, splitAtWhen } from "./task-words.js";
import { asShiftAll, awayFrom, MOVE_VERB } from "./shift-all.js";
import { corrected, readDayOf, readNextTo, unreadDigits, unreadPlace } from "./next-to.js";
import { readClearDay, readMark, readRemoveEvent, readUnplace, withoutDayWords } from "./marks.js";
import { NEXT_QUESTION, readDayContents, readExplain, readFree, readList, readLook } from "./questions.js";
import { readArrange, readDoOn, readDoOnZh, readFindTimeFor } from "./placing.js";
import { PUT_OFF, readMoveAndOther, readMoves, readSwap } from "./moves.js";
import {
  HABIT_REQUEST,
  readAddTask,
  readCannotDo,
  readClassRules,
  readHabit,
  readLeftBefore,
  readLongTask,
} from "./task-requests.js";

const HELP =
  /\bwhat can you do\b|\bhelp\b|\bwhat do you do\b|\bhow (do|can) i use\b|\bcapabilit|\bwhat are you\b|\bwho are you\b|你能做什么|你会什么|你可以做什么|能干什么|帮助|怎么用|你是谁/;

/** A question about the week ("what do I still need to schedule?"), not a request to change it ("can you arrange …?"). */
const QUESTION_START =
  /^(?:what|which|when|where|how|who|why|whats|what's|do i|does|did i|is there|are there|is anything|am i|have i|will i|should i|anything)\b/;

/**
 * A question about what a change would do, or whether to make it ("if I move the essay to Friday, will it clash?",
 * "suppose I move the essay to Friday", "is it a good idea to move the essay to Friday?", "作文挪到周五的话会不会冲突",
 * "如果把作文挪到周五会怎样"): no change is asked for, so none is made (before, each was the move — or, with a clash
 * word after it, a move anywhere but Friday).
 */
const HYPOTHETICAL =
  /^(?:if|suppose|supposing|assuming|say)\s+(?:i|we|you)\s+(?:(?:were to|was to|did|do)\s+)?(?:move|moved|put|schedule|scheduled|place|placed|push|pushed|swap|swapped|shift|shifted)\b|^(?:is it|would it be)\s+(?:a\s+)?(?:good|bad|wise|smart|ok|okay)(?:\s+idea)?\s+to\b|的话(?:会|能|可以|有没有|行不行|好不好|怎么样|会怎样|呢|是不是)|^(?:如果|假如|要是|假设)[^，。,]*(?:会|吗|呢|怎么样|怎样)/;

/**
 * Reviews arranged over the days, said with "every day" ("plan my reviews every day except sunday", "schedule reviews
 * every day except sun", "除了周日每天都安排复习", "每天都安排一点复习，周日休息"): an arrangement with its days, no
 * habit (before, a habit named "plan my reviews" or "都安排复习" was added).
 */
const ARRANGED_DAILY =
  /^(?:(?:please|can you|could you|help me)\s+)*(?:plan|schedule|arrange|place|spread|distribute)\s+(?:(?:my|the|all|all my)\s+)?(?:reviews?|review sessions|study sessions|tasks|everything)\b|\b(?:except|but not|other than|apart from)\b|除了|除外|(?:都|一下)?安排(?:一点|一些|些)?(?:复习|任务)/;

/** Whether a task fits somewhere, asked: the task (group 1) and where (group 2). */
const FIT_QUESTION =
  /^(?:could|can|will|would|does|do|is there room for)\s+((?:the|my)\s+.+?)\s+(?:still\s+)?fit(?:\s+in)?\s+(.*?)\s*\??$/;

/** A question that asks for a change ("why not move it to Friday?", "why don't you swap them?"): read as the change. */
const SUGGESTION = /^why (?:not|don'?t you|do not you|can'?t you|wouldn'?t you)\b/;

/**
 * "recover", "recover them", "do the recovery", "make room for the reviews at risk", "补救", "执行补救方案": what the
 * at-risk notice invites ('Say "recover" …').
 */
const RECOVER_REQUEST =
  /^(?:(?:ok|okay|yes|then|please|can you|could you|go ahead and)[\s,]+)*(?:recover(?:\s+(?:it|them|that|those|the reviews?(?: at risk)?|my reviews?(?: at risk)?))?|do the (?:recovery|change that recovers(?: the most)?)|make room for (?:the |my )?(?:reviews? )?at risk|(?:save|rescue) (?:the |my )?(?:at-risk reviews?|reviews? at risk))(?:\s+(?:please|now))?[.!]?$|^(?:请|帮我)?(?:执行)?补救(?:一下|方案|吧)?[。！]?$/;

/** "undo", "undo that", "udno", "revert that", "take that back", "撤销", "撤回刚才的修改" (a verb's typo is read too). */
const UNDO_REQUEST =
  /^(?:(?:oops|oh|no|wait|ok|okay|hey|please|can you|could you|actually)[\s,]+)*(?:(?:undo|udno|unod|undoo|indo|undp|revert|reverse|roll ?back)(?:\s+(?:that|it|this|(?:the |my )?(?:last|previous|latest) (?:change|one|thing|step|card|action|write)s?|what you (?:just )?did|(?:the )?last))?|cancel (?:that|the (?:last|previous) (?:change|one))|(?:take|put|change|set|turn|move)\s+(?:that|it|this|everything)\s+back(?:\s+(?:to )?(?:the way|how|as|where) it was)?|go back to (?:the way|how) it was)(?:\s+(?:please|now|again))?$|^(?:请|帮我|麻烦)?(?:撤销|撤消|撤回|撤销掉|还原|恢复)(?:一下)?(?:刚才|上一次|上次|刚刚|最后一次)?(?:的)?(?:操作|修改|更改|改动|那个|那一步|这个|一步)?(?:吧)?$|^(?:把)?(?:刚才|刚刚)(?:的)?(?:操作|修改|更改|改动)?(?:撤销|撤回|还原)(?:掉)?(?:吧)?$|^(?:请|帮我)?(?:(?:把|将)(?:它|这个|那个))?(?:放回|移回|挪回|改回|调回|排回)(?:去|来|原处|原位|原来的位置|原来的地方|原来那里)?(?:吧)?$/;

/**
 * "how healthy is my week?", "how's my week looking?", "is my schedule healthy?", "check my week's health",
 * "我这周安排得怎么样", "这周的日程健康吗", "看看这周安排合不合理" — not how the reviews were done ("我这周完成得怎么样",
 * "这周复习进度怎么样": what is done, listed).
 */
const HEALTH_REQUEST =
  /\bhow healthy\b|\bhealth (?:score|check|of (?:my|the|this))\b|\b(?:week|schedule|plan)(?:'s)? health\b|\bis (?:my|the|this) (?:week|schedule|plan) (?:healthy|ok|okay|good|balanced)\b|\bhow(?:'s| is| does)\s+(?:my|the|this)\s+(?:week|schedule|plan|timetable)(?:\s+(?:look(?:ing)?|doing|going))?\b|\bhow (?:good|bad|balanced) is (?:my|the|this) (?:week|schedule|plan)\b|\brate (?:my|the|this) (?:week|schedule)\b|(?:这周|本周|这一周|一周|日程|安排(?![在到进])|计划)(?![^,.?!]{0,6}(?:完成|进度|做得))[^,.?!]{0,6}(?:怎么样|如何|好不好|健康吗|健康|合理吗|合不合理|合理不)|健康(?:分|度|状况)/;

const NEGATED_REQUEST =
  /^(?:(?:please|but|and|just|ok|okay|no)[\s,]+)*(?:don'?t|do not|no need to|you don'?t need to)\s+(?:re-?schedule|move|place|arrange|schedule|swap|unplace|remove|put|plan|do)\s+(?:it|that|this|them)\b(?:\s+(?:again|back|anywhere))?$|^(?:请)?(?:不要|不用|别|无需|不必)(?:再)?(?:重新|再)(?:安排|重排|移动|挪|放|排)/;

/** How a change is said not to be made, before its verb ("don't", "no need to", "I'd rather not"). */
const NEGATION_EN = String.raw`(?:(?:please|but|and|just|ok|okay|no)[\s,]+)*(?:don'?t|do not|never|please don'?t|i (?:don'?t|do not) (?:want|need|wanna|have) to|i'?d rather not|i would rather not|i'?d prefer not to|i would prefer not to|(?:there'?s |there is )?no need to|you (?:don'?t|do not) (?:need|have) to|don'?t bother(?: to)?)`;
/**
 * A change said not to be made: "don't move the essay", "never move the essay", "do not schedule the essay", "don't
 * clear Friday", "don't move anything to Friday", "不要把作文移到周五" — each read as the change itself before (the days
 * after it as where to make it). Nothing is done. A placing said not to happen on a day stays a limit of where
 * ("don't schedule anything on Friday" arranges the week without Friday).
 */
const NEGATED_CHANGE = new RegExp(
  String.raw`^${NEGATION_EN}\s+(?:${MOVE_VERB}|swap|switch|unplace|remove|clear|cancel|delete|touch|change|skip|drop)\b|^(?:请)?(?:我)?(?:${NOT_ZH})(?:再)?(?:把|将)?[^，。,;；]{0,40}?(?:移到|挪到|调到|改到|换到|推迟|提前|移动|挪走|挪开|删除|删掉|取消|清空|撤下|撤掉|交换|对调|跳过)`,
);
/**
 * A placing said not to be made, with no day or part of it ("don't schedule the essay", "no need to schedule the
 * essay", "不用安排作文了", "作文先不安排"): nothing is done. Before, "no need to schedule the essay" arranged it, and
 * "作文不用安排了" every review.
 */
const NEGATED_PLACING = new RegExp(
  String.raw`^${NEGATION_EN}\s+(?:schedule|place|arrange|put|plan)\b|^(?:请)?(?:我)?(?:${NOT_ZH})(?:再)?(?:把|将)?[^，。,;；]{0,40}?(?:安排|排|放)|^[^，。,;；]{1,40}?(?:${NOT_ZH})(?:再)?(?:安排|排|放)(?:了|吧|啦)?[。！!]?$`,
);

/**
 * An hour nothing is to be placed after, said of the placing itself and nothing else: "晚上九点以后不要安排复习", "9点以后别
 * 安排复习", "周五晚上10点以后不要排复习", "don't schedule reviews after 9pm on fridays" — the standing limit the
 * preferences keep (`readNotAfterHour`, as "晚上9点以后不学习" and "no studying after 9pm on Fridays"), no arrangement.
 * Before, "晚上" and "不要" read as no evening at all, and every pending review was arranged before it; the English with
 * its days read as a class named "reviews after 9pm", and the student was asked which class. A day from today
 * ("明天晚上9点以后…") is no such limit, and stays as it was read.
 */
function placingPastHour(body: string): boolean {
  if (readNotAfterHour(body) === undefined) return false;
  const days = readDays(body);
  if (days.days.length > 0 || (days.dates?.length ?? 0) > 0) return false;
  const english = PLACING_PAST_HOUR_EN.exec(body);
  const said = english ? `not ${body.slice(english[0].length)}` : body;
  const rest = withoutDayWords(said.replace(EVERY_NOT_AFTER_HOUR, " ")).replace(/工作日/g, "");
  return english ? rest.replace(DAYS_JOINED_EN, "") === "" : PLACING_ALONE_ZH.test(rest.replace(/\s+/g, ""));
}

/**
 * An hour nothing is to be placed after, said of one day of the calendar and nothing else: "no studying after 9pm
 * tomorrow", "明天晚上9点以后不要安排复习", "今晚9点以后不要安排复习", "this friday no studying after 9pm", "3月12日晚上9点
 * 以后不学习". No standing rule (it is that day's alone), and no request either: nothing asks for anything to be
 * arranged or moved. Before, the English got the list of what is understood, and "明天晚上9点以后不要…" arranged every
 * pending review with all of tomorrow kept out, behind a plan card. A day from which on ("from tomorrow on") is a rule.
 */
function hourOfOneDay(body: string): boolean {
  if (readNotAfterHour(body) === undefined) return false;
  const dated = readDates(body);
  if (dated.dates.length === 0 || dated.dates.some((date) => date.kind === "onward" || date.kind === "week"))
    return false;
  const english = PLACING_PAST_HOUR_EN.exec(body);
  const said = english ? `not ${body.slice(english[0].length)}` : body;
  const rest = withoutDayWords(said.replace(EVERY_NOT_AFTER_HOUR, " "));
  return rest.replace(ONE_DAY_WORDS_EN, "") === "" || PLACING_ALONE_ZH.test(rest.replace(/\s+/g, ""));
}
/** What is left of "this friday no studying after 9pm" without its hour and its day: "this", "on", "do" of "don't". */
const ONE_DAY_WORDS_EN = /\b(?:this|on|for|the|do)\b|[,.!\s]/g;

/** "don't schedule reviews ", "never put any of my reviews ", before "after 9pm": a placing said not to be made past it. */
const PLACING_PAST_HOUR_EN =
  /^(?:do ?n'?t|do not|never)\s+(?:ever\s+)?(?:schedule|put|plan|book|arrange|place)\s+(?:any\s+)?(?:(?:of\s+)?my\s+)?(?:reviews?|revision|studying|study sessions?)\s+(?=(?:after|past|later than)\s+\d)/;
/** What joins the days of such a placing, its days gone ("on fridays and saturdays", "on weekdays"). */
const DAYS_JOINED_EN = /\b(?:on|every|the|and|or|weekdays?)\b|[,&\s]/g;

/** What is left of a placing said not to be made past an hour, without the hour and its days: "安排复习", "排", "安排任何事". */
const PLACING_ALONE_ZH =
  /^(?:我的?)?(?:(?:再)?(?:安排|排|放)(?:任何)?(?:的)?(?:复习|学习|任务|东西|事情?)?|学习|复习|学|看书)(?:了|吧|啦)?[。！!]?$/;

/** The preposition before where a task is to go. */
const TO = String.raw`(?:to|on|onto|in|at)\s+`;
/** "can the essay go to Friday (instead)?", "could my matrix review be moved to Thursday?": the task and where. */
const canGo = (to: string) =>
  new RegExp(
    String.raw`^(?:can|could)\s+(?<task>(?:the|my)\s+.+?)\s+(?:go|be moved|be put|move|be done|be)\s+${to}(?<where>.+?)(?:\s+instead)?\s*\??$`,
  );
/** One task (group "task"), not every review ("the essay", not "my reviews"): what a move said as a liking is of. */
const ONE_TASK = String.raw`(?<task>(?:the|my)\s+(?!(?:reviews?|tasks?|stuff|things|everything|sessions?)\b)[^,]+?)`;
/**
 * The same said as a statement of one task: "the essay can go on Friday", "my essay should be moved to Friday", "the
 * essay goes on Friday", "the essay needs to happen on Friday" (group "where"). Not what only is ("the essay is on
 * Friday", "the essay is due on Friday").
 */
const shouldGo = (to: string) =>
  new RegExp(
    String.raw`^${ONE_TASK}\s+(?:(?:can|could|should|will|would|may|might|must|has to|needs to)\s+(?:go|be moved|be put|move|be done|be|happen)|goes)\s+${to}(?<where>.+?)(?:\s+instead)?\s*[.!]?$`,
  );
/**
 * A place said as a liking for one task: "I'd prefer the essay on Friday", "I'd rather have the essay on Friday", "I
 * want the essay on Friday", "I'd like to have the vocabulary list in the evening" (group "where"). "I'd prefer my
 * reviews in the morning" is where an arrangement goes, read as before.
 */
const PREFER_PLACE = new RegExp(
  String.raw`^(?:i'?d|i would|i)\s+(?:prefer|rather have|like|love|want)\s+(?:to\s+(?:have|do|put)\s+)?${ONE_TASK}\s+(?:on|in|at|for|to)\s+(?<where>.+?)(?:\s+instead)?$`,
);
/**
 * "the essay would be better on Friday", "the essay works better in the evening", "the essay would fit better on
 * Friday": the task and where.
 */
const BETTER_PLACE =
  /^(?<task>(?:the|my)\s+[^,]+?)\s+(?:would be|would work|would fit|'d be|'d fit|is|works|fits|might be|might work|might fit)\s+better\s+(?:on|in|at)\s+(?<where>.+)$/;
/**
 * A move suggested: "how about the essay on Friday?", "what if the essay went on Friday?" (group "where"); "how about
 * Friday for the essay?" (`HOW_ABOUT_FOR`: where, then the task).
 */
const howAbout = (to: string) =>
  new RegExp(
    String.raw`^(?:how about|what if)\s+${ONE_TASK}\s+(?:(?:went|goes|go|was|were|is|moved|moves)\s+)?${to}(?<where>.+?)(?:\s+instead)?\s*\??$`,
  );
/**
 * A task said to be done somewhere else "instead": "can we do the essay on Thursday instead?", "let's have the essay
 * Friday instead", "schedule the essay on Friday instead" (group "where") — a move of it, not a second placing.
 */
const doInstead = (to: string) =>
  new RegExp(
    String.raw`^(?:(?:can|could|shall|should)\s+(?:we|i|you)\s+|let'?s\s+|i'?ll\s+|(?:please|just)\s+)?(?:do|have|put|schedule|place|plan)\s+${ONE_TASK}\s+${to}(?<where>.+?)\s+instead\s*[?.!]*$`,
  );
const HOW_ABOUT_FOR = /^how about\s+([^,]+?)\s+for\s+((?:the|my)\s+.+?)(?:\s+instead)?\s*\??$/;
/** "Friday works better for the essay", "Friday would be better for the essay": where (1) and the task (2). */
const BETTER_FOR = /^([^,]+?)\s+(?:would be|would work|'d be|is|works|might be)\s+better\s+for\s+((?:the|my)\s+.+)$/;
/** A request asked with its verb as "-ing" ("would you mind moving …"): the verb (group 1). */
const VERB_OF: Record<string, string> = {
  moving: "move",
  scheduling: "schedule",
  putting: "put",
  placing: "place",
  pushing: "push",
  shifting: "shift",
  swapping: "swap",
  arranging: "arrange",
  rescheduling: "reschedule",
};
const MIND_DOING = new RegExp(
  String.raw`^(?:would you mind|do you mind|would it be possible to try|mind)\s+(${Object.keys(VERB_OF).join("|")})\b`,
);
/** "change the matrix review to Thursday", "switch the essay to Friday": the task (2) and where (3), after asking (1). */
/** Words that ask for something, before its verb: "please", "can you", "I want to" … */
const ASKING = String.raw`(?:(?:please|can you|could you|would you|will you|help me|i want to|i'd like to|i would like to|i need to|let's|now|just)\s+)*`;
const CHANGE_TO = new RegExp(
  String.raw`^(${ASKING})(?:change|switch)\s+(?!(?:my\s+|the\s+)?(?:preferences?|settings?|rules?|profile|language|name)\b)(.+?)\s+to\s+(.+?)\s*[?.!]*$`,
);

/**
 * A request said with its verb asked about ("would you mind moving the essay to Friday?") or as a change to a day
 * ("change the matrix review to Thursday"): the request itself. Before, neither was understood. A change to what is
 * not a day or time ("change the essay to 2 hours") is not a move.
 */
function withVerbAsked(body: string): string {
  const minding = MIND_DOING.exec(body);
  if (minding) return `${VERB_OF[minding[1]!]}${body.slice(minding[0].length)}`;
  const change = CHANGE_TO.exec(body);
  if (change && onlyWhen(change[3]!)) return `${change[1]}move ${change[2]} to ${change[3]}`;
  return body;
}

/** Every day or time but some: "anything but", "any day other than", "anytime apart from". */
const ANY_BUT = /\b(?:any\s*(?:day|time|where)|anything|everything|whenever)\s+(?:but|other than|apart from|except)\b/g;
/** The ways of saying a move of a task to a place (groups "task", "where") without its verb, in the order tried. */
const MOVES_SAID = [canGo(TO), shouldGo(TO), howAbout(TO), doInstead(TO), PREFER_PLACE, BETTER_PLACE];
/**
 * The same with no preposition before where: "the essay can go Friday", "… can go after Tuesday", "how about the
 * vocabulary list tomorrow?" (before, not understood). What follows the task must then be only words of when, and the
 * preposition goes before them; not "the essay can be done quickly".
 */
const MOVES_SAID_BARE = [canGo(""), shouldGo(""), howAbout(""), doInstead("")];
/** The most words where is said in, with no preposition ("any day after Tuesday evening after 3pm"). */
const WHEN_WORDS = 8;

/**
 * "I'm too tired tonight, push it to tomorrow", "我今晚太累了，推到明天吧": "it" is that time's reviews, however many
 * (before, the review now or next today — a morning one, at 9am — and the Chinese sought a task "我今晚太累了").
 */
const TIRED_WHEN_IT =
  /^(?:(?:i'?m|i am|i feel|feeling)\s+)?(?:(?:too|so|really|very|a bit|kind of|pretty)\s+)?(?:tired|busy|exhausted|sick|swamped|sleepy|beat|slammed|wiped out)\s+(?<when>tonight|today|this (?:morning|afternoon|evening))\s*(?:[,;.]\s*)?(?:(?:so|just|please|pls)\s+)?(?<verb>push|move|postpone|delay|shift|bump)\s+it\b/;
const TIRED_WHEN_IT_ZH =
  /^我?(?<when>今晚|今天晚上|今天)(?:太|很|有点|实在|好)?(?:累|忙|困|没空|没时间|不舒服|有事)了?[,;.]?\s*(?:就|那就|帮我|请)?(?:把它|它)?(?<verb>推到|挪到|改到|移到|推迟到|延到)/;

/**
 * "排" for "安排", after a negation or a request ("周末不要排复习", "别在周末排复习", "今晚别排复习", "帮我排复习", "排复习",
 * and "把作文排到周五": before, not understood).
 */
const NEGATED_PAI_ZH =
  /((?:不要|别|不用|不)(?:在[^，,。.]{1,8}?)?(?:给我|帮我)?|帮我|给我|请|^)排(?=复习|学习|任何|东西|任务)/g;

/**
 * "before my exam on friday", "周五考试前", "在周五考试之前": before that day — an exam named by its day alone is no
 * event to find; before, every review went on Friday ("before the exam" matched nothing, or nothing was placed).
 */
const BEFORE_EXAM_ON =
  /\b(?:before|ahead of)\s+(?:my|the|our)\s+(?:exam|test|quiz|midterm|final)s?\s+(?:on\s+|this\s+)?(?<day>(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow)\b/;
const BEFORE_EXAM_ON_ZH =
  /(?<day>周[一二三四五六日天]|星期[一二三四五六日天]|明天|后天)(?:的)?(?:考试|测验|期中考试?|期末考试?)(?:之前|以前|前)/;

/**
 * A sentence's words said as the readers after it read them: an exam named by its day as that day, "排" as "安排",
 * "it" after a remark of being tired at a time of today as that time's reviews, "my evening" as this evening, "my review
 * tonight" as tonight's review, and "can I do the essay earlier?" as its move.
 */
function asPlainWords(body: string): string {
  return (
    body
      .replace(BEFORE_EXAM_ON, (_whole, day: string) => `before ${day}`)
      .replace(BEFORE_EXAM_ON_ZH, (_whole, day: string) => `${day}之前`)
      .replace(NEGATED_PAI_ZH, "$1安排")
      // ("把作文排到周五": "安排到".)
      .replace(/(把[^，,。.]{1,16}?)(?<!安)排到/, "$1安排到")
      .replace(TIRED_WHEN_IT, (_whole, when: string, verb: string) => `${verb} ${when}'s reviews`)
      .replace(
        TIRED_WHEN_IT_ZH,
        (_whole, when: string, verb: string) => `把${when === "今天晚上" ? "今晚" : when}的所有复习${verb}`,
      )
      .replace(MY_PART_OF_TODAY, "$1 this $2")
      .replace(REVIEW_THEN, "$2's $1 ")
      .replace(A_BIT_EARLIER_ZH, (_whole, task: string, way: string) =>
        /提前|往前|早/.test(way) ? `把${task}挪到当天早些时候` : `把${task}挪到当天晚些时候`,
      )
      .replace(
        DO_IT_EARLIER,
        (_whole, task: string, way: string) => `move ${task} ${way === "later" ? "later" : "earlier"}`,
      )
  );
}

/**
 * "Move my review tonight to tomorrow night", "push the review this morning back an hour": the review of that time,
 * as "tonight's review" (before, a task named "review tonight" was sought). Only before where it goes: "schedule my
 * review tonight" says where.
 */
const REVIEW_THEN =
  /\b(?:my|the)\s+(reviews?|review sessions?)\s+(tonight|today|tomorrow(?:\s+(?:morning|afternoon|evening))?|this\s+(?:morning|afternoon|evening))\s+(?=(?:to|until|till|back|forward|later|earlier|by|off)\b)/;

/**
 * "把矩阵复习提前一点", "能不能把作文往后挪一点", "矩阵复习可以早一点吗": earlier or later the same day, as "挪到当天早些时候"
 * says it (before, not understood). "提前一天" is a day, read as it was.
 */
const A_BIT_EARLIER_ZH =
  /^(?:能不能|能否|可不可以|可以|请)?(?:帮我)?(?:把|将)?([^\s到]+?)(?:可以|能|能不能)?(提前|往前挪|往前移|往前|早|挪早|往后挪|往后移|往后推|往后|推迟|推后|延后|晚|挪晚)一?(?:点儿|点|些)(?:吗|吧|呢|行吗|可以吗)?[？?]?$/;

/** "Can I do the essay earlier?", "could I do the matrix review later": that move (before, not understood). */
const DO_IT_EARLIER =
  /^(?:can|could)\s+i\s+(?:do|have|start)\s+(\S.*?)\s+(earlier|sooner|later)(?:\s+(?:instead|today|please))?\s*\??$/;

/**
 * "Free up my evening", "clear my afternoon", "keep my morning free": one part of the day, "my" and no day — today's,
 * as "this evening" is. (Before, the first asked when the evenings were free and the others were not understood;
 * "my evenings", every evening, stays a standing preference's words.)
 */
const MY_PART_OF_TODAY = /\b(free up|clear(?: out)?|empty|keep|leave)\s+my\s+(morning|afternoon|evening)\b(?!s)/;

/** A move said as a question, a statement, a suggestion or a liking, as its move ("move the essay to friday"). */
function asMoveSaid(body: string): string {
  const better = BETTER_FOR.exec(body) ?? HOW_ABOUT_FOR.exec(body);
  if (better && onlyWhen(better[1]!)) return `move ${better[2]} to ${better[1]}`;
  const said = (text: string) => {
    for (const pattern of MOVES_SAID) {
      const { task, where } = pattern.exec(text)?.groups ?? {};
      if (task !== undefined && where !== undefined) return `move ${task} to ${where}`;
    }
    return undefined;
  };
  const move = said(body);
  if (move !== undefined || !MOVES_SAID_BARE.some((pattern) => pattern.test(body))) return move ?? body;
  // (Where is said in a few words: only the last few starts are tried, each read whole — every start of a sentence
  // at the reader's limit was 30 ms.)
  const spoken = body.replace(/(?:\s+instead)?\s*[.!?]*$/, "");
  const starts = [...spoken.matchAll(/\s+/g)].map((space) => space.index + space[0].length);
  const when = splitAtWhen(spoken, starts.slice(-WHEN_WORDS));
  return when ? (said(`${when[0]} to ${body.slice(when[0].length).trim()}`) ?? body) : body;
}

/** Another task's or event's place as where to go: "to where the essay is", "the essay's slot", "the same time as X". */
const PLACE_OF_ANOTHER =
  /\b(?:to|at|in|into|onto)\s+(?:exactly\s+)?(?:where|wherever)\s+(?!it\b|they\b|i\b|i'm\b|there'?s\b|you\b)[a-z]|\b(?:the\s+)?same\s+(?:time|slot|hour|place|spot)\s+as\s+(?!before\b|now\b|usual\b|it\b|last\b|today\b|yesterday\b|always\b)[a-z]|\b(?:to|into|in|at)\s+(?:the\s+)?(?!my\b|your\b|its\b|today'?s\b|tomorrow'?s\b|tonight'?s\b|[a-z]+day'?s\b|next\b|this\b|last\b)[a-z][a-z ]*?'s\s+(?:slot|place|spot|time)\b/;

/** Reads one sentence of a request: a move of every review (`shift_all`) is read from the move it reads as. */
export function parseSentence(said: string): ScheduleRequest {
  // A sentence longer than the parser reads is not understood whatever it says (a model reads it whole), and none of
  // the patterns below runs over it: some take time quadratic in it — "can the " and "go to " to 100 000 characters
  // held the event loop every thread shares for half a second (`PLACE_OF_ANOTHER`'s name before "'s slot").
  if (said.length > MAX_READ_LENGTH) return { kind: "unknown" };
  // "move the essay to Monday, no wait, Tuesday": what is said is the sentence as corrected (each correction, the last
  // first: "monday, no wait, monday, no wait, tuesday" is "tuesday").
  let body = said;
  for (let next = corrected(body); next !== body; next = corrected(body)) body = next;
  // "can the matrix review go to Thursday evening instead?": the move it asks for.
  body = asMoveSaid(withVerbAsked(asPlainWords(body)));
  // ("anything but Friday", "any day but tomorrow": every day except it — before, Friday and tomorrow were the only
  // days.)
  body = body.replace(ANY_BUT, "except");
  // (Words of when said first, and the schedule named: read over a sentence the reader reads.)
  // ("Wednesday or later", "between Monday and Wednesday", "周二到周四": the days of the stretch, each named.)
  if (body.length <= MAX_READ_LENGTH) body = asPlacing(withWhenLast(withDaySpans(body)));
  if (NEGATED_CHANGE.test(body)) return { kind: "unknown" };
  // ("Move the essay to where the matrix review is", "… to the same time as the matrix review": another task's place,
  // which no reader holds. Before, the words were dropped and the essay went to the first free slot: not understood.)
  if (PLACE_OF_ANOTHER.test(body)) return { kind: "unknown" };
  if (NEGATED_PLACING.test(body) && isEmptySelection(readDays(body)) && !readPartOfDay(body))
    return { kind: "unknown" };
  if (placingPastHour(body)) return { kind: "unknown" };
  if (hourOfOneDay(body)) return { kind: "unknown", why: "one_day_hour" };
  const keepFree = readKeepFree(body);
  if (keepFree) return keepFree;
  const read = withSoonest(withoutExclusions(asShiftAll(readSentence(body))));
  if (unreadDigits(read, body) || unreadPlace(read, body)) return { kind: "unknown", why: "unread_number" };
  // "Not in the afternoon" leaves the morning and the evening, which one window of slots cannot hold: not understood,
  // rather than read as anywhere (the afternoon too).
  if ("where" in read && read.where.slots.notPart === "afternoon" && !read.where.slots.part)
    return { kind: "unknown", why: "afternoon_out" };
  return read;
}

/**
 * Words of when said first, then the request: "on Friday, move the matrix review to the evening", "first thing
 * tomorrow, do the essay" (a comma after them), "tomorrow morning I'll do the essay", "tonight I want to do the
 * vocabulary list" (a person's intent after them). Read as said after it; before, the request was not understood or
 * its day was dropped (the review moved to its own day's evening). Only when the request itself names no day: "Monday
 * and Tuesday, move my reviews to Wednesday" is read as it is.
 */
/** Who means to do it, before a request's verb: "I'll", "I want to", "I can't", "let's", "we should" … */
const INTENT = String.raw`(?:i(?:'ll| will| want to| wanna|'d like to| would like to|'m going to| am going to|'m gonna| need to| have to| should| can(?:'t|not)?| won'?t)|let'?s|we(?:'ll| will| should))`;
const WHEN_FIRST = new RegExp(String.raw`^([^,]{1,60}?)(?:\s*,\s*|\s+(?=${INTENT}\s))(.+)$`);

function withWhenLast(body: string): string {
  const [, when = "", rest = ""] = WHEN_FIRST.exec(body) ?? [];
  if (!onlyWhen(when) || !isEmptySelection(readDays(rest))) return body;
  // A change said not to be made keeps its days after it ("on Friday, don't move the essay" is no move at all).
  if (NEGATED_CHANGE.test(rest) || NEGATED_PLACING.test(rest)) return `${rest} ${when}`;
  // Only a request after them, and no clause that makes days ones to leave ("Friday, move the essay, I'm busy" is read
  // as it is: after the move the days would be where it goes).
  const request = REQUEST_START.exec(rest);
  if (request && !NEGATIVE_CLAUSE.test(rest.slice(request[0].length).replace(NOT_NEGATIVE, " ")))
    return `${rest} ${when}`;
  // A clause that makes them days to leave ("Friday, I'm busy, move my reviews"): read with them, as said without the
  // comma ("Friday I'm busy, move my reviews").
  return NEGATIVE_CLAUSE.test(rest.replace(NOT_NEGATIVE, " ")) ? `${when} ${rest}` : body;
}

/** The start of a request after words of when said first: a verb, after "I'll", "I want to", "I can't", "let's" … */
const REQUEST_START = new RegExp(
  String.raw`^(?:(?:please|can you|could you|would you)\s+)*(?:${INTENT}\s+)?(?:schedule|do|put|arrange|place|plan|fit|slot|book|squeeze|pencil|add|get|finish|complete|work on|study|review|write|make|${MOVE_VERB})\b`,
);

/** A task put on the schedule as a whole: "add X to my calendar", "put X in my schedule", "get X on the calendar". */
const ONTO_SCHEDULE = new RegExp(
  String.raw`^(${ASKING})(?:add|put|get|schedule|place|fit|slot|book|stick)\s+(.+?)\s+(?:in|into|on|onto|to)\s+(?:the\s+|my\s+)?(?:schedule|calendar|timetable|planner|agenda)\b(.*)$`,
);
/** "把作文加到周五的日程里", "把单词表加进日程": a placing on the days said (group 3), if any. */
const ONTO_SCHEDULE_ZH =
  /^(.*?)(?:把|将)(.+?)(?:加到|加进|加入|添加到|放进|放到|放入|排进|写进)(.*?)的?(?:日程|日历|计划|安排|课表)(?:表)?(?:里|中|上)?(?:吧|去)?$/;
/** "squeeze in X", "squeeze X in", "pencil in X", "pencil X in": a placing (group 2 before "in", group 3 after it). */
const SQUEEZE_IN = new RegExp(String.raw`^(${ASKING})(?:squeeze|pencil)\s+(?:in\s+(.+)|(.+?)\s+in\b(.*))$`);

/**
 * A placing said with words of the schedule itself: "add the essay to my calendar on Friday", "put the essay in my
 * schedule for Friday", "squeeze the vocabulary list in somewhere tomorrow", "pencil in the matrix review for Friday"
 * — read as "schedule …". Before, "add … to my calendar" added a new task to a class named "calendar on friday", the
 * others named tasks "essay in my schedule" or were not understood.
 */
function asPlacing(body: string): string {
  const onto = ONTO_SCHEDULE.exec(body);
  if (onto) return `${onto[1]}schedule ${onto[2]}${onto[3]}`;
  const ontoZh = ONTO_SCHEDULE_ZH.exec(body);
  if (ontoZh) return `${ontoZh[1]}把${ontoZh[2]}安排到${ontoZh[3]}`;
  const squeeze = SQUEEZE_IN.exec(body);
  if (squeeze) return `${squeeze[1]}schedule ${squeeze[2] ?? `${squeeze[3]}${squeeze[4]}`}`;
  // ("add the essay to Friday": a placing on that day — before, a new task of a class named "friday".)
  const toDay = ADD_TO_DAY.exec(body);
  if (toDay && onlyWhen(toDay[3]!)) return `${toDay[1]}schedule ${toDay[2]} on ${toDay[3]}`;
  return body;
}
/** "add X to Friday", "add X to my Friday", "add X for tomorrow": the task (2) and, if only words of when, the day (3). */
const ADD_TO_DAY = new RegExp(String.raw`^(${ASKING})add\s+(.+?)\s+(?:to|on|onto|for)\s+(?:my\s+|the\s+)?(.+)$`);

/**
 * As soon as possible, of one task: a move, or a pending task placed as a move places it — the first free start from
 * the clock on. Of several, or of anything else, the words ask nothing more (no one first start holds them all).
 */
function withSoonest(read: ScheduleRequest): ScheduleRequest {
  if (!("where" in read) || !read.where.slots.soonest || read.kind === "move") return read;
  if (read.kind === "arrange" && read.tasks.length === 1 && !read.except && !read.makeUp && !read.putBack)
    return { kind: "move", task: read.tasks[0]!, where: read.where };
  const { soonest: _soonest, ...slots } = read.where.slots;
  return { ...read, where: { ...read.where, slots } } as ScheduleRequest;
}

/** A clause that gives a reason, no request: "I have an exam on Friday", "I'm seeing a friend", "因为周五考试". */
const REASON_CLAUSE =
  /^(?:i\s+(?:have|had|'ve got|have got|got)|i'm|i am|i'll be|i will be|there's|there is|because|since|as|cause|'cause|我有|我要考|因为|由于)\b|^(?:我有|因为|由于)/i;
/**
 * Days said to be kept free, and nothing else: "keep Thursday morning free", "I need Friday clear", "leave the weekend
 * open", "周四上午我要空着", "我需要周五空着" (group `days` or `zh`: the days and the part of the day).
 */
const DAYS_KEPT_FREE =
  /^(?:i\s+)?(?:need|want|would like|'d like|have to keep|must keep|gotta keep|keep|leave)\s+(?<days>.+?)\s+(?:free|clear|open|empty)(?:\s+for me)?(?:\s+(?<after>today|tonight|tomorrow|(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day))?$|^(?:我)?(?:需要|想要|想|要|得)?(?<zh>.+?)(?:我)?(?:需要|想要|想|要|得)?(?:空着|留空|空下来)$/;

/**
 * Nothing to be put at a time, said alone: "don't schedule anything tonight", "do not plan anything tomorrow morning",
 * "schedule nothing tomorrow", "今晚不要安排任何东西", "明天上午别安排任何事", "今晚什么都不要安排" — the time
 * kept free (group `when` or `zh`) when it is said from today (a weekday said so stays a day to avoid). Before, the
 * first arranged every pending review elsewhere (tonight's stayed) and the Chinese asked which task "任何东西" was.
 */
const NOTHING_AT =
  /^(?:please\s+)?(?:(?:don'?t|do not|never)\s+(?:schedule|put|plan|book|arrange|place)\s+anything|(?:schedule|put|plan|book)\s+nothing)\s+(?<when>.+)$|^(?<zh>.+?)(?:什么都|啥都)?(?:不要|别|不用)(?:安排|放)(?:任何)?(?:东西|事情?|事儿|活动|任务)?$/;

/**
 * Days to keep free, said alone ("keep Thursday morning free", "周四上午我要空着"): every review there moved off them,
 * as "I need Thursday morning free, move my reviews" is (`awayFrom`). Before, it read as a question of when Thursday
 * morning is free, and "keep Thursday free" as one of when anything but Thursday is. Undefined when the words name
 * anything but days and parts of the day ("I need 2 hours free on Thursday" asks for free time).
 */
function readKeepFree(body: string): ScheduleRequest | undefined {
  // ("I have an exam on Friday, keep Thursday evening free", "keep Thursday free, I'm seeing a friend": the reason said
  // beside it is no day or part kept free — before, the whole read as a question of free time, "not on Friday".)
  const clauses = body.split(/[,，;；]\s*/).filter((clause) => !REASON_CLAUSE.test(clause.trim()));
  const request = clauses.length === 1 ? clauses[0]! : body;
  const trimmed = trimEdges(request, /[.!。！]/, "end").trim();
  const match = DAYS_KEPT_FREE.exec(trimmed);
  const nothing = match ? undefined : NOTHING_AT.exec(trimmed);
  const named = match?.groups?.days ?? match?.groups?.zh ?? nothing?.groups?.when ?? nothing?.groups?.zh;
  if (named === undefined) return undefined;
  const said = match?.groups?.after ? `${named} ${match.groups.after}` : named;
  // "Keep 2pm to 4pm free today", "keep Thursday 14:00-16:00 free": a window of the clock, both ends said (today's
  // when no day is) — before, a question of free time in it.
  const window = match ? keptWindow(said) : undefined;
  if (window) return window;
  const days = readDays(said);
  if (isEmptySelection(days)) return undefined;
  // ("Don't schedule anything on Friday" is a day to avoid whenever reviews are arranged — a standing preference where
  // there is memory — and stays so; a time said from today is kept free now.)
  if (nothing && (days.dates ?? []).length === 0) return undefined;
  const rest = withoutDayWords(said)
    .replace(/\b(?:my|the|on|all|of|and|or|whole|entire)\b|[,，、和的整个]|一?整天|全天/g, " ")
    .trim();
  if (rest !== "") return undefined;
  const part = readPartOfDay(said);
  const where: Where = { only: { weekdays: [], days: [] }, not: days, slots: part ? { part } : {} };
  return awayFrom({ kind: "move", task: "reviews", where });
}

/** A window of the clock kept free, with its days (today when none is said), as the shift that empties it. */
function keptWindow(kept: string): ScheduleRequest | undefined {
  // ("keep 2 to 4 free today", "keep 2-4 free on Friday": hours alone first are a window of them, as "from 2 to 4".)
  const hours = BARE_HOURS_FIRST.exec(kept.trim());
  const said = hours ? `from ${hours[1]} to ${hours[2]}${hours[3] ?? ""}` : kept;
  // ("keep 7 to 9 free tonight": the evening said with the window is the window's.)
  const { part: _part, ...slots } = readWhere(said).slots;
  if (slots.startsFrom === undefined || slots.endsBy === undefined || Object.keys(slots).length !== 2) return undefined;
  // Nothing else said: the window's words and the days' words alone.
  const rest = withoutDayWords(withoutEndsBy(said))
    .replace(/\b(?:my|the|on|all|of|and|from|between|to)\b|[,，、]/g, " ")
    .trim();
  if (rest !== "") return undefined;
  const days = readDays(said);
  const not = isEmptySelection(days) ? { weekdays: [], days: [], dates: [TODAY] } : days;
  return awayFrom({ kind: "move", task: "reviews", where: { only: { weekdays: [], days: [] }, not, slots } });
}
const TODAY = { kind: "offset", days: 0, text: "today" } as const;
/** Two hours alone first, "2 to 4", "2-4" (groups 1 and 2), and what follows (3). */
const BARE_HOURS_FIRST =
  /^(\d{1,2}(?::\d{2})?)\s*(?:-|–|to|till|until)\s*(\d{1,2}(?::\d{2})?)(?![\d:]|\s*[ap]\.?m\b)(\s.*)?$/;

/** Words in a task's name that leave tasks out ("except the essay", "but keep the essay", "除了作文"). */
const LEAVES_OUT =
  /\b(?:except|excluding|other than|apart from|besides|(?:but|and) keep)\b|[,;]\s*keep\b|除了|以外|之外|保留/;
/** A remark after the task, no part of its name: "unplace the essay, I'll do it later", "I did the essay, it was hard". */
const TRAILING_REMARK =
  /,\s*(?:i|i'll|i'm|i've|i'd|i will|i am|it|it's|it was|that|that's|this|because|since|as|so|thanks?|thank you)\b.*$|[，,]\s*(?:我|它|因为|所以|谢谢).*$/;

/** A task named as not meant, after the one that is: "the essay, not the matrix review", "… but not the matrix review". */
const NOT_THIS_ONE = /,\s*(?:but\s+)?not\s+\S.*$|\s+but not\s+\S.*$/;

/**
 * A write on named tasks never takes its tasks from words that leave tasks out: "unplace everything except the essay",
 * "clear Friday except the essay" and "skip Friday but keep the essay" read as a write on the essay alone — the
 * opposite of what was said — and are not understood now; "I did the essay, not the matrix review" names the essay.
 */
function withoutExclusions(request: ScheduleRequest): ScheduleRequest {
  const named =
    request.kind === "unplace" || request.kind === "mark" || request.kind === "remove_event"
      ? [request.kind === "remove_event" ? request.event : request.task]
      : request.kind === "swap"
        ? [request.first, request.second]
        : [];
  if (named.some((phrase) => LEAVES_OUT.test(phrase))) return { kind: "unknown" };
  if (request.kind === "mark" || request.kind === "unplace")
    return {
      ...request,
      task: request.task.replace(NOT_THIS_ONE, "").replace(TRAILING_REMARK, "").trim() || request.task,
    };
  if (request.kind === "swap")
    return { ...request, second: request.second.replace(NOT_THIS_ONE, "").trim() || request.second };
  return request;
}

/** Reads one sentence of a request. */
function readSentence(body: string): ScheduleRequest {
  if (body === "" || body.length > MAX_READ_LENGTH) return { kind: "unknown" };
  const dayOf = readDayOf(body);
  // ("Move the matrix review, but not on the same day as the essay": the day of something ruled out is none the reader
  // holds — before, the review went to the essay's day. Not understood, said so.)
  if (dayOf === "ruled out") return { kind: "unknown" };
  if (dayOf) {
    // ("I'd like to do the essay the day before the exam": "do" names where with the day, which is read apart.)
    const said = readSentence(dayOf.rest);
    const read =
      said.kind === "unknown" && /\bdo\b/.test(dayOf.rest)
        ? readSentence(dayOf.rest.replace(/\bdo\b/, "schedule"))
        : said;
    if (read.kind === "move" && !read.shift && !read.also)
      return { ...read, where: { ...read.where, dayOf: dayOf.dayOf } };
    // "Schedule the vocabulary list the day before the midterm": one task put on that day, as a move puts it.
    if (read.kind === "arrange" && read.tasks.length === 1 && !read.except && !read.makeUp && !read.putBack)
      return { kind: "move", task: read.tasks[0]!, where: { ...read.where, dayOf: dayOf.dayOf } };
  }
  // "Thursday afternoon but not right after the lecture": a place next to something ruled out is none the reader can
  // hold (before, it was dropped, and the review went right after the lecture): not understood, said so.
  const nextTo = readNextTo(body);
  if (nextTo === "ruled out") return { kind: "unknown" };
  if (nextTo) {
    const read = readSentence(nextTo.rest);
    if (read.kind === "move" || (read.kind === "arrange" && read.tasks.length > 0))
      return { ...read, where: { ...read.where, next: nextTo.next } };
  }
  if (UNDO_REQUEST.test(body)) return { kind: "undo" };
  if (RECOVER_REQUEST.test(body)) return { kind: "recover" };
  if (HABIT_REQUEST.test(body) && !ARRANGED_DAILY.test(body)) return readHabit(body) ?? { kind: "habit" };
  const longTask = readLongTask(body);
  if (longTask) return longTask;
  const before = readLeftBefore(body);
  if (before) return before;
  if (HEALTH_REQUEST.test(body)) return { kind: "health" };
  if (NEXT_QUESTION.test(body)) return { kind: "next" };
  if (HYPOTHETICAL.test(body)) return { kind: "unknown" };
  // "could the essay fit on friday?", "will the matrix review fit sunday": whether there is time, asked (before, every
  // pending review was arranged on that day).
  const fits = FIT_QUESTION.exec(body);
  if (fits) return readFree(`do i have time for ${fits[1]} ${fits[2]}`) ?? { kind: "unknown" };
  // A question is answered, never turned into a change ("what do I still need to schedule?").
  if (QUESTION_START.test(body)) {
    const read = readFree(body) ?? readDayContents(body) ?? readList(body) ?? readExplain(body);
    if (read) return read;
    if (HELP.test(body)) return { kind: "help" };
    // Nor is one no reader above reads: "where did you put the matrix review" raised a plan card placing it, "where
    // can I fit 2 hours on Wednesday" one placing a task named "2 hours". Not understood is said; a card is never raised.
    if (!SUGGESTION.test(body)) return { kind: "unknown" };
  }
  // A look at named days is a look before any verb reads it: "schedule for friday?", "tomorrows schedule".
  const look = readLook(body);
  if (look) return look;
  // An imperative's verb decides ("Place the linked list exercises…" is not a question about lists).
  const verb =
    /^(?:(?:please|can you|could you|would you|will you|can i|could i|may i|can we|could we|shall we|maybe we could|we could|let me|help me|i want to|i'd like to|i would like to|i want you to|i'd like you to|let's|now|hey|hi|ok|okay|so|i'll|i will|i'd rather|i would rather|i wanna|i'm going to|i'm gonna|i need to|i have to|i've got to|i have got to|i gotta|i must|i should|i'd prefer to|i prefer to)\s*,?\s+)*([a-z]+)/.exec(
      body,
    )?.[1] ?? "";
  // A question is never a mark ("did I do the matrix review?"), and a request not to do something never does it.
  const question = QUESTION_START.test(body);
  if (NEGATED_REQUEST.test(body)) return { kind: "unknown" };
  const doneBy = question ? undefined : readDoneBy(body);
  if (doneBy) return doneBy;
  const removal = question ? undefined : (readClearDay(body) ?? readRemoveEvent(body));
  if (removal) return removal;
  const cannot = question ? undefined : readCannotDo(body);
  if (cannot) return cannot;
  // ("move the essay to friday and mark the matrix review done": two requests, never a mark of a task named by both.)
  const both = question ? undefined : readMoveAndOther(body);
  if (both) return both;
  const mark = question ? undefined : readMark(body);
  const byVerb = mark ?? LEADING_VERBS[verb]?.(body);
  if (byVerb) return byVerb;
  return (
    mark ??
    readAddTask(body) ??
    readClassRules(body) ??
    readSwap(body) ??
    readMoves(body) ??
    readFindTimeFor(body) ??
    readFree(body) ??
    readDayContents(body) ??
    readList(body) ??
    readUnplace(body) ??
    readExplain(body) ??
    readArrange(body) ??
    readDoOnZh(body) ??
    (HELP.test(body) ? { kind: "help" } : { kind: "unknown" })
  );
}

/**
 * Getting a task done by a day or before an event: "finish the essay by Friday", "get the vocab list done before
 * Friday", "I need the essay done by Thursday", "the essay has to be finished before the midterm" — an arrangement of
 * it before then. Before, the first marked a task "essay by" done, the second listed the done tasks and the others
 * were not understood. Having done it ("I finished the essay", "finish the essay") is still a mark.
 */
const DONE_WORD = String.raw`(?:done|finished|completed|written|ready)`;
const DONE_BY = new RegExp(
  String.raw`^(?:(?:i|we)\s+(?:need|have|want|must|should|gotta|got|'ll|will|plan|'d like|would like|'m going|am going)(?:\s+to)?\s+)?(?:(?:finish|complete|wrap up)\s+(.+?)|(?:get|have)\s+(.+?)\s+${DONE_WORD}|(.+?)\s+(?:needs?|has|have|must|should)\s+(?:to\s+)?be\s+${DONE_WORD}|(?:i|we)\s+(?:need|want)\s+(.+?)\s+${DONE_WORD})\s+((?:by|before|until|till|no later than)\s+.+)$`,
);

function readDoneBy(body: string): ScheduleRequest | undefined {
  const said = DONE_BY.exec(body);
  const zh = said ? undefined : readDoneByZh(body);
  if (!said && !zh) return undefined;
  const read = readSentence(
    said ? `schedule ${said[1] ?? said[2] ?? said[3] ?? said[4]} ${said[5]}` : `在${zh![1]}之前安排${zh![0]}`,
  );
  return read.kind === "arrange" && read.tasks.length > 0 ? read : undefined;
}

/** Having it done, in Chinese: 写完, 做完, 完成, 搞定, 弄完, 交. */
const DONE_ZH = String.raw`(?:写完|做完|完成|搞定|弄完|交上|交掉|交)`;
/** "…前" and what asks for it before the task: "周五之前把作文写完", "我要在周五前完成作文" (group 1 when, group 2 task). */
const DONE_BY_ZH_FIRST = new RegExp(
  String.raw`^(?:我们?|咱们)?(?:要|得|必须|需要|想|会)?在?(.{1,12}?)(?:之前|以前|(?<!提)前)(?:我们?)?(?:要|得|必须|需要|会)?(?:(?:把|将)(.+?)${DONE_ZH}|${DONE_ZH}(?!了)(.+?))吧?$`,
);
/** The task first: "作文要在期中考试前完成", "作文周五前要交" (group 1 the task and when, to be cut). */
const DONE_BY_ZH_TASK = new RegExp(String.raw`^(.+?)(?:之前|以前|(?<!提)前)(?:要|得|必须|需要|会)?${DONE_ZH}吧?$`);

/**
 * "周五之前把作文写完", "我要在周五前完成作文", "作文要在期中考试前完成", "作文周五前要交": [task, when] — the task to have
 * done before a day or an event. Before, none was understood.
 */
function readDoneByZh(body: string): [string, string] | undefined {
  const text = body.replace(/[。！!]+$/, "");
  const first = DONE_BY_ZH_FIRST.exec(text);
  // (What it is to be done before is a day or an event, never a word of the sentence: "我提前完成了单词表" is a mark.)
  if (first && (onlyWhen(first[1]!) || readBefore(`在${first[1]}之前`) !== undefined))
    return [first[2] ?? first[3] ?? "", first[1]!];
  const task = DONE_BY_ZH_TASK.exec(text)?.[1];
  if (task === undefined) return undefined;
  // "作文要在期中考试前": the task before 在; "作文周五前": before the words of when that end it.
  const at = /^(.+?)(?:要|得|必须|需要|会)?在(.+)$/.exec(task);
  if (at) return [at[1]!, at[2]!];
  return splitAtWhen(
    task,
    Array.from(task, (_, index) => index).filter((index) => index > 0),
  );
}

/** "Take the essay off Friday", "take the matrix review off tomorrow": a move off those days, or undefined. */
function readTakeOffDay(body: string): ScheduleRequest | undefined {
  const said = /\btake\s+(.+\s+(?:off|out of|away from)\s+.+)$/.exec(body);
  const move = said ? readMoves(`move ${said[1]}`) : undefined;
  return move?.kind === "move" && move.leaves ? move : undefined;
}

/** Readers chosen by a request's first verb. */
const LEADING_VERBS: Record<string, (body: string) => ScheduleRequest | undefined> = {
  arrange: (body) => readArrange(body),
  do: (body) => readDoOn(body),
  place: (body) => readArrange(body),
  schedule: (body) => readArrange(body),
  plan: (body) => readArrange(body),
  // "put off X", "put X off till Friday": a postponement, not a placing (it was read as a task named "off X").
  put: (body) => (PUT_OFF.test(body) ? readMoves(body) : readArrange(body)),
  organize: (body) => readArrange(body),
  organise: (body) => readArrange(body),
  move: (body) => readMoves(body),
  push: (body) => readMoves(body),
  bring: (body) => readMoves(body),
  delay: (body) => readMoves(body),
  postpone: (body) => readMoves(body),
  reschedule: (body) => readMoves(body),
  shift: (body) => readMoves(body),
  swap: (body) => readSwap(body),
  switch: (body) => readSwap(body),
  exchange: (body) => readSwap(body),
  // "take the essay off Friday": off a day it goes elsewhere, as "move the essay off Friday"; taken off the schedule
  // (or off with no day), the reader below takes it off.
  take: (body) => readTakeOffDay(body),
  unplace: (body) => readUnplace(body),
  unschedule: (body) => readUnplace(body),
  remove: (body) => readUnplace(body),
  find: (body) => readFindTimeFor(body) ?? readFree(body),
  fill: (body) => readFindTimeFor(body),
  get: (body) => readFindTimeFor(body),
  fit: (body) => readFindTimeFor(body) ?? readArrange(body),
  make: (body) => readFindTimeFor(body),
  list: (body) => readList(body),
  // A look is answered or not understood, never a change: "show the plan", "pls show tomorrows schedule" were plans
  // arranging the week (their "plan" and "schedule" read as verbs).
  show: readLookingAt,
  see: readLookingAt,
  view: readLookingAt,
  display: readLookingAt,
  check: readLookingAt,
  look: readLookingAt,
  explain: (body) => readExplain(body),
  describe: (body) => readExplain(body),
};

/** What a look asks to see ("show …", "see …", "check …"): the days, the tasks, the free time or a task; else not understood. */
function readLookingAt(body: string): ScheduleRequest {
  return readDayContents(body) ?? readList(body) ?? readFree(body) ?? readExplain(body) ?? { kind: "unknown" };
}
