/**
 * Placing what is not placed: "do the essay on Friday", "arrange my week", "find time for the essay", "put the essay
 * back", a placing at a time of day, and the tasks an arrangement leaves out.
 */
import { withoutClockWords } from "./clock-words.js";
import type { ScheduleRequest } from "./request-kinds.js";
import { isAnywhere, NEGATED_DAYS, NEGATED_PART, readWhere } from "./where.js";
import { namedTasks, onlyWhen, readTaskWords, splitAtWhen, splitPhrases, taskPhrase } from "./task-words.js";
import { MODAL_ZH, NOT_ZH, readNumber, SUGGESTION_END_ZH } from "./words.js";

/** "find time for X", "make time for X", "fill my free time with X", "get X into my calendar": arranging X. */
const FIND_TIME_FOR =
  /\b(?:find|make|set aside|block(?: out)?|carve out)\s+(?:me\s+|us\s+)?(?:some\s+|a\s+|the\s+)?(?:time|room|space|slots?|a place|places|free time)\s+(?:for|to do)\s+(.+)$|\bfill\b.*?\bwith\s+(.+)$|\b(?:get|fit|squeeze|work)\s+(.+?)\s+(?:into|onto|in|on)\s+(?:the\s+|my\s+)?(?:calendar|schedule|week|timetable|diary|planner)\b(.*)$/;

export function readFindTimeFor(body: string): ScheduleRequest | undefined {
  const match = FIND_TIME_FOR.exec(body);
  if (!match) return undefined;
  const object = match[1] ?? match[2] ?? `${match[3] ?? ""} ${match[4] ?? ""}`;
  return arrangeOf(body, object);
}

/** An arranging verb, English or Chinese. */
const ARRANGE_VERB =
  /\b(?:arrange|schedule|plan|place|organi[sz]e|fit|put|slot|book|sort out|lay out)\b|安排|排一下|排进|规划|放进|放入|放到|放在|排课|排程|填到|填进|塞进|塞到|(?:把|将)[^，,。；;]+?放(?![弃松假心])|放(?=周|星期|礼拜|今天|明天|后天|下周|这周|本周|早上|上午|下午|晚上)/;

/**
 * "do the essay on Friday", "let's do the essay friday morning", "I'd rather do the essay on Friday", "I'll do the
 * matrix review tomorrow": a task and where it is to be done — an arrangement (of a task placed already, a move:
 * `offline/schedule/grounding.ts`). "Do X" naming no day or time says nothing of where, and is not read. Before, each
 * was not understood.
 */
export function readDoOn(body: string): ScheduleRequest | undefined {
  const read = readArrange(body.replace(/\bdo\b/, "schedule"));
  return read?.kind === "arrange" && read.tasks.length > 0 && !isAnywhere(read.where) ? read : undefined;
}

/**
 * "明天上午做作文", "矩阵复习明天做", "我想周五晚上写作文吧": a task and when it is to be done with a verb of doing — read
 * as "把作文安排到明天上午", as "do the essay on Friday" is (`readDoOn`). Having done it ("做完", "做了") is no such
 * verb; a question ("周五做什么") names no task. Before, each was not understood.
 */
export function readDoOnZh(body: string): ScheduleRequest | undefined {
  const text = body.replace(SUGGESTION_END_ZH, "");
  // ("单词表周五晚上背", "周五晚上背单词表", "明天读课文": the task's own verb too — before, 背 and 读 were not read.)
  const verb = /(?:再|去)?(?:做|写|学|弄|搞|背|读|练)(?![完了过好])/.exec(text);
  if (!verb) return undefined;
  // ("晚上9点以后不学习", "上午10点以前从不学习", "早上10点以前不要学习", "不想学": a verb said not to be done names no
  // task — before, one named "习", and "早上10点以前不要学习" arranged it instead of keeping the hour.)
  if (/(?:不|别|没|莫)(?:要|想|再)?$/.test(text.slice(0, verb.index))) return undefined;
  // ("今天晚上我要写作文": who wants it, said after the words of when, is neither.)
  const before = text
    .slice(0, verb.index)
    .replace(/^(?:我们?|咱们)?(?:想|要|打算|准备|就|会|还是)*/, "")
    .replace(/(?:(?:我们?|咱们)?(?:想|要|打算|准备|就|会|还是|得|需要)+|我们?|咱们)$/, "");
  const after = text.slice(verb.index + verb[0].length).trim();
  // The task after the verb, every word before it of when; or before the verb, the words of when its tail.
  const split: [string, string] | undefined =
    after !== ""
      ? onlyWhen(before)
        ? [after, before]
        : undefined
      : splitAtWhen(
          before,
          Array.from(before, (_, at) => at).filter((at) => at > 0),
        );
  if (!split || /什么|啥|哪|吗|几|[?？]/.test(split[0])) return undefined;
  const read = readArrange(`把${split[0]}安排到${split[1]}`);
  return read?.kind === "arrange" && read.tasks.length > 0 && !isAnywhere(read.where) ? read : undefined;
}

export function readArrange(body: string): ScheduleRequest | undefined {
  const back = readPutBack(body);
  if (back) return back;
  const match = ARRANGE_VERB.exec(body);
  if (!match) return undefined;
  // Chinese puts the object first: 把 X 安排到 周五 ("把 X 重新安排到周五": "重新" is no part of the name); or, with no
  // 把, before the verb ("作文安排在周五", "作文放到周五": before, "在" was its name, or none was — every review).
  // ("作文别放周一", "把作文别放周一": the day kept free is read from the sentence; 别 is no part of the name.)
  const object = OBJECT_ZH.exec(body) ?? topicBefore(body, match);
  // ("不要安排在周五": where the verb puts it is no task either — before, one named "在".)
  return arrangeOf(
    body,
    object ? (object[1] ?? "") : body.slice(match.index + match[0].length).replace(/^(?:到|在|进|入)(?=\S)/, ""),
  );
}

/** Not, said between the task and its verb ("作文别放周一", "作文不要放周五", "作文不放周五"). */
const NOT_BEFORE_VERB_ZH = `${NOT_ZH}|不`;
/** What 把 names (group 1), before a verb of putting ("都", "也" after it are no part of it). */
const OBJECT_ZH = new RegExp(
  String.raw`(?:把|将)(.+?)(?:都|也)?(?:${NOT_BEFORE_VERB_ZH})?(?:重新)?(?:安排|排|放|填|塞)(?:到|在|进|入)?`,
);
/** What is said before the verb: who wants it and how ("我想", "可以", "别") around the task (group 1). */
const TOPIC_ZH = new RegExp(
  String.raw`^(?:请|帮我|我们?|咱们)?(?:想|要|打算|准备)?([\u4e00-\u9fff"“][^，,。；;]*?)(?:${MODAL_ZH})?(?:${NOT_BEFORE_VERB_ZH})?(?:重新)?$`,
);

/**
 * The task said first in Chinese, before a verb of putting with no 把 and only words of when after it ("作文安排在周五",
 * "我想作文放到周五", "作文放进周五", "作文安排在工作日晚上", "作文安排在下周"): the task (group 1), who wants it and how ("我想", "可以") left out. Words of when alone name no
 * task ("明天安排在上午"), and a verb with its object after it ("周日下午安排我的复习") has none before it.
 */
function topicBefore(body: string, verb: RegExpExecArray): RegExpExecArray | undefined {
  const rest = body.slice(verb.index + verb[0].length);
  // (Only words of when after the verb, with 到, 在, 进, 入 or none: "作文放周五吧", "作文放进周五", "作文安排周五".)
  const when = rest
    .replace(/^(?:到|在|进|入)/, "")
    .replace(SUGGESTION_END_ZH, "")
    .replace(/去$/, "");
  // ("这周", "下周": the week an arrangement is made in, which is no day of it.)
  if (!onlyWhen(when) && !/^(?:这|本|下)个?(?:周|星期|礼拜)(?:内|里)?$/.test(when.trim())) return undefined;
  // (The clause the verb is in: "我周一有课，作文别放周一" — the clause before says why.)
  const topic = TOPIC_ZH.exec(
    (
      body
        .slice(0, verb.index)
        .split(/[，,；;]/)
        .pop() ?? ""
    ).trim(),
  );
  // ("不要安排在周五": a day kept free, no task.)
  // ("只安排周三": "only" is no task either.)
  const said = topic?.[1] ?? "";
  return topic && !onlyWhen(said) && !/^(?:不|别|没)/.test(said) && readTaskWords(said).trim() !== ""
    ? topic
    : undefined;
}

/** A move back to where a task was: the task (group 1). */
export const MOVE_BACK =
  /^(?:(?:can you|could you|would you|please|just|now)\s+)*(?:move|bring|shift)\s+(.+?)\s+back\s+(?:to\s+)?(?:where it was(?: before)?|(?:its|the) (?:old|original|previous|former|earlier|usual) (?:place|slot|time|spot))$/;

/** "… back in my schedule", "… back on the calendar": where the task goes back to, no part of its name or days. */
const BACK_INTO_SCHEDULE =
  /\s+(?:in|into|on|onto)\s+(?:the\s+|my\s+)?(?:schedule|calendar|week|timetable|plan)\b|\s+where it was\b/g;

/**
 * "put back the matrix review", "put the matrix review back (on Thursday)", "把矩阵复习放回去", "把矩阵复习重新安排上":
 * the named tasks placed again (`putBack`), or undefined. "put it back" is an undo and "put back the reviews I missed"
 * a reschedule, read before this.
 */
export function readPutBack(body: string): ScheduleRequest | undefined {
  const english =
    /^(?:(?:can you|could you|would you|please|just|now)\s+)*put\s+(?:back\s+(.+)|(.+?)\s+back\b(.*))$/.exec(body);
  if (english) {
    const object = (english[1] ?? english[2] ?? "").replace(BACK_INTO_SCHEDULE, " ");
    const rest = (english[3] ?? "").replace(BACK_INTO_SCHEDULE, " ");
    const request = arrangeOf(`place ${object} ${rest}`.replace(/\s+/g, " ").trim(), object);
    return request.kind === "arrange" && request.tasks.length > 0 ? { ...request, putBack: true } : undefined;
  }
  const chinese =
    /^(?:请|帮我)?(?:把|将)(.+?)(?:重新)?(?:放回|排回|安排回|加回|挪回|移回|调回|改回)(?:去|来)?(?:到)?(?:日程|课表|原处|原位|原来的位置|原来的地方|原来的时间)?(?:里|上)?(?:吧)?$/.exec(
      body,
    ) ?? /^(?:请|帮我)?(?:把|将)(.+?)重新(?:安排|排|放)(?:上|进去|回去)?(?:吧)?$/.exec(body);
  const task = taskPhrase(chinese?.[1] ?? "");
  if (!task) return undefined;
  return { kind: "arrange", tasks: [task], where: readWhere(""), putBack: true };
}

/**
 * Tasks left out of an arrangement: "except the essay", "everything but the essay and the vocabulary list", "my
 * reviews but not the essay", "other than X", "apart from X", `except "X"` (a step's text), "除了X（以外），其他都…". Days left out ("except Monday")
 * are days, read by `readWhere`.
 */
const EXCEPT_TASKS =
  /\b(?:except(?: for)?|excluding|other than|apart from|aside from|besides|save for|without|but not)\s+(.+?)(?=$|[,;]|\s+(?:on|in|at|during|before|and (?:not|never|keep|avoid)|but)\b)|\b(?:everything|all(?: of)?(?: my| the)?(?: [a-z]+)?|anything)\s+but\s+(.+?)(?=$|[,;]|\s+(?:on|in|at|during|before)\b)|(?:除了|除去|不包括|不算)(.+?)(?:以外|之外)?(?=[,，]|其他|其余|别的|都|全部|$)/g;

/** An arrange request for `object` (the words after the verb) in `body`: the tasks it names, those it leaves out, where. */
function arrangeOf(body: string, object: string): ScheduleRequest {
  const where = readWhere(body);
  const except: string[] = [];
  const withoutExcept = (text: string) =>
    text
      .replace(NEGATED_DAYS, " ")
      .replace(NEGATED_PART, " ")
      .replace(EXCEPT_TASKS, (whole, english?: string, but?: string, chinese?: string) => {
        const phrase = (english ?? but ?? chinese ?? "").replace(/^not\s+/, "");
        // "except on Monday", "except mornings", "but not after 9pm": a limit on where, not a task.
        if (readTaskWords(withoutClockWords(phrase)).replace(/[\s,]+/g, "") === "") return whole;
        except.push(...splitPhrases(phrase));
        return " ";
      });
  const inBody = withoutExcept(body);
  const quoted = [...inBody.matchAll(/"([^"]+)"/g)].map((found) => (found[1] ?? "").trim()).filter(Boolean);
  const tasks = quoted.length > 0 ? quoted : namedTasks(withoutExcept(object));
  // "a review", "another review", "two reviews", "一个复习": counted, when the words name no task but the count.
  const counted = quoted.length > 0 ? undefined : countedReviews(withoutExcept(object));
  return {
    kind: "arrange",
    ...(counted ? { tasks: [], count: counted.count } : { tasks }),
    where,
    ...(except.length > 0 ? { except: [...new Set(except)] } : {}),
  };
}

const COUNT_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  another: 1,
  "a single": 1,
  "an extra": 1,
  "one more": 1,
  "one other": 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
};

/**
 * Reviews counted and not named: "a review", "one more review", "another study session", "two reviews", "3 review
 * tasks", "一个复习", "两个复习任务" (a step's own words, "one pending review task", "1个待安排的复习任务", too).
 */
const COUNTED_REVIEWS =
  /\b(a single|an extra|one more|one other|a|an|one|another|two|three|four|five|six|\d{1,2})\s+(?:more\s+|extra\s+|other\s+)?(?:pending\s+)?(?:review tasks?|reviews?|study sessions?|sessions?|tasks?)\b|(?:再)?(\d{1,2}|[一两二三四五六七八九十]{1,3})\s*(?:个|项|次)(?:待安排的)?(?:复习任务|复习|任务)/i;

/** How many reviews `object` counts, when it names none besides ("a review" but not "a review of the limits"). */
function countedReviews(object: string): { count: number } | undefined {
  const found = COUNTED_REVIEWS.exec(object);
  if (!found) return undefined;
  const said = (found[1] ?? found[2] ?? "").toLowerCase();
  const count = COUNT_WORDS[said] ?? (/^\d/.test(said) ? Number(said) : readNumber(said));
  if (!Number.isInteger(count) || count < 1) return undefined;
  const rest = `${object.slice(0, found.index)} ${object.slice(found.index + found[0].length)}`;
  return namedTasks(rest).length === 0 ? { count } : undefined;
}

/**
 * The one task an arrange request puts at a clock time ("schedule the binary tree review on Sunday at 14:00",
 * "周日14点安排二叉树复习"): it goes to the slot that starts then, as a move to that time does, or is told why not —
 * never to another hour of the day. Undefined for any other request, and for several tasks (one time is one slot).
 */
export function timedPlacement(request: ScheduleRequest): string | undefined {
  if (request.kind !== "arrange" || request.tasks.length !== 1) return undefined;
  // (At a clock time, or next to another task or event: one exact place, placed as a move puts it.)
  if (request.where.slots.at === undefined && !request.where.next) return undefined;
  return request.tasks[0];
}
