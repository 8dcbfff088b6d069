/**
 * A place said by what is next to it ("right after Calculus", "the day before the exam", "the same day as the
 * essay", "在期中考试前一天"), the class words that anchor it, and a correction ("no wait, Friday").
 */
import type { ScheduleRequest, Where } from "./request-kinds.js";
import { readDays } from "./day-words.js";
import { DAY_WORD, isAnywhere, isEmptySelection } from "./where.js";
import { takeNotAfterHour } from "./clock-words.js";

/**
 * A day taken back and another said instead: "monday, no wait, tuesday", "monday, I mean tuesday", "monday - actually
 * tuesday", "monday, no, not monday, tuesday", "monday no wait tuesday", "monday err tuesday", "周一，不对，周二",
 * "周一，我是说周二", "周一 哦不 周二", "周一，算了还是周二吧". A Chinese comma alone is none.
 */
const CORRECTION = new RegExp(
  String.raw`(?:,|;|\s-|\s—)\s*(?:(?:no|nope|oh no|sorry|wait|hmm),?\s+)*(?:no\s+wait|wait|no|nope|sorry|i mean|i meant|actually|make (?:that|it)|scratch that|or rather|correction|not\s+(?:on\s+)?${DAY_WORD})\b[,:]?\s*` +
    // (With no mark before it, only a word that can be nothing but a correction: "friday no wait saturday", "thursday
    // err friday", "friday sorry i mean saturday"; a bare "no" or "not" is a limit there: "friday no evenings".)
    String.raw`|\s+(?:(?:oh|hmm|um|uh),?\s+)*(?:no\s+wait|oh\s+wait|wait|sorry|i mean|i meant|actually|err?|erm|make that|scratch that|or rather)\b[,:]?\s+(?:(?:no|i mean|i meant),?\s+)?` +
    String.raw`|[，,；;]\s*(?:(?:不对|不是|错了|说错了|哦不|噢不|等等|等一下|算了)[，,]?\s*(?:我是说|我的意思是|应该是|改成|改为|还是|是)?|我是说|我的意思是|应该是)` +
    String.raw`|\s+(?:不对|错了|说错了|哦不|噢不|等等|等一下|算了)[，,\s]?\s*(?:我是说|我的意思是|应该是|改成|改为|还是|是)?`,
  "g",
);

/** A day said, in either language ("monday", "this fri", "tomorrow", "day 3", "周一", "明天", "第3天"). */
const DAY_SAID_ANY =
  /\b(?:(?:this|next)\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\b|\b(?:today|tonight|tomorrow|tmrw|the weekend|day \d+)\b|(?:下|这|本)?(?:周|星期|礼拜)[一二三四五六日天1-7]|今天|明天|后天|今晚|明晚|周末|第\d+天/g;

/** Where the last day said in `text` starts, if it names one. */
function lastDayAt(text: string): number | undefined {
  let at: number | undefined;
  for (const match of text.matchAll(DAY_SAID_ANY)) at = match.index;
  return at;
}

/**
 * A place next to another task or event, in a move or an arrangement: "after the matrix review", "to right after my
 * lecture", "just before the tutorial", `right after "matrix review"` (a plan step), "挪到矩阵复习之后", `移到 "矩阵复习"
 * 之后`. A plain "before X" is not one (it is a deadline: "before the midterm"), nor a day, a time or a part of the
 * day ("after Wednesday", "after 9pm", "after lunch", "after class").
 */
const NEXT_TO_EN =
  /(?:\s+to)?\s+(?:(right|just|straight|immediately|directly)\s+)?(after|before)\s+(?:"([^"]+)"|(?:the\s+|my\s+)?([a-z][a-z0-9'-]*(?:\s+(?!on\b|this\b|next\b|tomorrow\b|today\b|tonight\b|please\b)[a-z0-9'-]+)*))(?=\s+(?:on|this|next|tomorrow|today|tonight|please)\b|\s*[,.;!?]|\s*$)/;
const NEXT_TO_ZH = new RegExp(
  String.raw`(挪|移|放|安排|排|改|调)(?:到|在)\s*(?:(?<day>(?:\d{1,2}月\d{1,2}[日号])?(?:(?:下|这|本)?(?:周|星期|礼拜)[一二三四五六日天1-7])|今天|明天|后天)(?:的|，|,)?\s*)?"?([^"，,。\s]+?)"?\s*(之后|以后|后面|之前|前面)(?:吧)?$`,
);
/**
 * Words after "after" that name a time, not a task: a day, a clock time, a part of the day, a meal, class, a length
 * ("两个星期以后").
 */
const NOT_AN_ANCHOR =
  /^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|today|tomorrow|tonight|yesterday|noon|midday|midnight|lunch|dinner|breakfast|class|classes|school|work|that|it|this|then|now|next|last|week|the weekend|weekend|(?:morning|afternoon|evening|night)s?|an? (?:hour|day|week|while|bit)|\w+ (?:hours?|days?|weeks?|minutes?|mins?))\b|^\d|^the \d|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d|(?:周|星期|礼拜)[一二三四五六日天1-7末]|^(?:今天|明天|后天|昨天|前天|上午|下午|晚上|早上|中午|今晚|明晚|今早|明早|傍晚|凌晨|午饭|晚饭|下课|下周|这周|本周|\d|[零一二两三四五六七八九十]{1,3}\s*[点号]|[零一二两三四五六七八九十]{1,3}\s*个?(?:周|星期|礼拜|天|小时|钟头|分钟))/;

/**
 * The day of another task or event, in a move: "to the day before the physics lab", "the day after my midterm", "on
 * the same day as the robotics club meeting", `the day before "Physics lab"` (a plan step), "挪到期中考试的前一天",
 * `挪到"物理实验"的后一天晚上`. Not "the day after tomorrow" (a day), nor "the day before" alone (a shift).
 */
const DAY_OF_EN =
  /(?:\s+(?:to|on|for))?\s+(?:on\s+)?(?:(?<count>\d|two|three|four|five|six)\s+days\s+(?<countSide>before|after)|the\s+(?<word>day|morning|afternoon|evening|night)\s+(?<side>before|after|of)|the\s+same\s+day\s+as)\s+(?:"(?<quoted>[^"]+)"|(?:the\s+|my\s+)?(?<anchor>[a-z][a-z0-9'-]*(?:\s+[a-z0-9'-]+)*?))(?=\s+(?:in|at|on|this|next|please|by|before|after|from|and)\b|\s*[,.;!?]|\s*$)/;
const DAY_OF_ZH =
  /(挪|移|放|安排|排|改|调)(?:到|在)\s*(?:"([^"]+)"|([^"，,。\s]+?))\s*的?(前一天|前1天|后一天|后1天|第二天|那天|那一天|当天|同一天|前[2-6两三四五六]天|后[2-6两三四五六]天)(?:的)?[，,]?(.*)$/;
const DAY_COUNT: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
};

/**
 * A move's day next to another task's or event's, and the request without it; undefined when none is said; "ruled
 * out" when the words say it is not where to go ("but not on the same day as the essay").
 */
export function readDayOf(
  body: string,
): { dayOf: NonNullable<Where["dayOf"]>; rest: string } | "ruled out" | undefined {
  const english = DAY_OF_EN.exec(body);
  if (english?.groups) {
    const { count, countSide, word, side, quoted } = english.groups;
    const anchor = (quoted ?? english.groups.anchor ?? "").trim();
    if (anchor === "" || NOT_AN_ANCHOR.test(anchor)) return undefined;
    const after = body
      .slice(english.index + english[0].length)
      .replace(/^\s*,\s*/, " ")
      .trim();
    // ("the day before the midterm and the vocabulary list on Friday": two places, not one anchor.)
    if (/^and\b/.test(after)) return undefined;
    const days = count === undefined ? 1 : (DAY_COUNT[count] ?? Number(count));
    const way = countSide ?? side;
    const offset = way === "before" ? -days : way === "after" ? days : 0;
    // "the evening before the midterm": that part of the day before it.
    const part = word !== undefined && word !== "day" ? `the ${word}` : "";
    const where = [part, after].filter(Boolean).join(" ");
    const before = body.slice(0, english.index);
    if (NOT_THERE.test(before)) return "ruled out";
    return { dayOf: { anchor, offset }, rest: where === "" ? before : `${before} to ${where}` };
  }
  const chinese = DAY_OF_ZH.exec(body);
  const anchor = (chinese?.[2] ?? chinese?.[3])?.trim() ?? "";
  if (!chinese || anchor === "" || NOT_AN_ANCHOR.test(anchor)) return undefined;
  const said = chinese[4]!;
  const days = /[2-6两三四五六]/.test(said) ? (DAY_COUNT[said[1]!] ?? Number(said[1])) : 1;
  const offset = /^前/.test(said) ? -days : /^后|第二/.test(said) ? days : 0;
  const tail = (chinese[5] ?? "").trim();
  const placing = /^(?:放|安排|排)$/.test(chinese[1] ?? "");
  const verb = tail !== "" ? `${chinese[1]}${placing ? "在" : "到"}${tail}` : placing ? "安排一下" : "挪一下";
  return { dayOf: { anchor, offset }, rest: `${body.slice(0, chinese.index)}${verb}` };
}

/**
 * A day's first or last class as where a task goes next to: "after class", "after my last class", "after school",
 * "before my first lecture", "下课后", "最后一节课之后", "第一节课之前". The anchor is "last class" or "first class"
 * (`classAnchorOf`); the plan step says "right after your last class" (`最后一节课之后`), which reads back the same.
 */
const NEXT_TO_CLASS_EN =
  /(?:\s+to)?\s+(?:(?:right|just|straight|immediately|directly)\s+)?(after|before)\s+(?:(?:my|the|your)\s+)?(?:(?:(last|first|final)\s+)(?:class|lecture|lesson)|class(?:es)?|school)(?=\s+(?:on|this|next|tomorrow|today|tonight|please)\b|\s*[,.;!?]|\s*$)/;
/**
 * Words before a place next to something, or the day of something, that say it is not where to go: "but not right
 * after the lecture", "but not on the same day as the essay", "never the day before the exam".
 */
const NOT_THERE = /\b(?:not|never|except|avoid)(?:\s+(?:on|to|for))?\s*$/;
const CLASS_WORDS_ZH: ReadonlyArray<[RegExp, string]> = [
  [/(?:我的)?(?:最后一节课|最后一节|下课|放学)(?:之后|以后|后)/, "最后一节课之后"],
  [/(?:我的)?(?:第一节课|上课)(?:之前|以前|前)/, "第一节课之前"],
];

/** The class a next-to anchor names ("last class", "最后一节课"): the day's last or first, or undefined for any other. */
export function classAnchorOf(anchor: string): "last" | "first" | undefined {
  if (/^(?:last class|最后一节课)$/.test(anchor)) return "last";
  return /^(?:first class|第一节课)$/.test(anchor) ? "first" : undefined;
}

/**
 * A next-to anchor as a step or an answer says it, read back the same: a task's or event's name quoted, a day's class
 * in words ("your last class", "最后一节课").
 */
export function anchorWords(anchor: string, language: "en" | "zh"): string {
  const which = classAnchorOf(anchor);
  if (!which) return JSON.stringify(anchor);
  if (language === "en") return `your ${which} class`;
  return which === "last" ? "最后一节课" : "第一节课";
}

/** "Once the robotics club is over", "when my lab ends", "机器人社团活动结束后": right after it. */
const ONCE_OVER: ReadonlyArray<[RegExp, string]> = [
  [
    /\b(?:once|when|after)\s+((?:the|my)\s+[a-z][a-z0-9' -]*?)\s+(?:(?:is|gets)\s+(?:over|done|finished)|ends|finishes)\b/,
    "right after $1",
  ],
  [/([^，,。\s]+?)结束(?:之后|以后|后)/, "$1之后"],
];

/**
 * A request's place next to another task or event, and the request without it; undefined when none is said;
 * "ruled out" when the words say it is not where to go ("but not right after the lecture").
 */
export function readNextTo(
  words: string,
): { next: NonNullable<Where["next"]>; rest: string } | "ruled out" | undefined {
  const said = ONCE_OVER.reduce((text, [over, next]) => text.replace(over, next), words);
  const byClass = NEXT_TO_CLASS_EN.exec(said);
  const negated = (match: RegExpExecArray) => NOT_THERE.test(said.slice(0, match.index));
  if (byClass && negated(byClass)) return "ruled out";
  if (byClass) {
    const side = byClass[1] as "after" | "before";
    const which =
      byClass[2] === undefined ? (side === "after" ? "last" : "first") : byClass[2] === "first" ? "first" : "last";
    const rest = `${said.slice(0, byClass.index)} ${said.slice(byClass.index + byClass[0].length)}`;
    return { next: { side, anchor: `${which} class` }, rest: rest.replace(/\s+/g, " ").trim() };
  }
  const body = CLASS_WORDS_ZH.reduce((text, [words, canonical]) => text.replace(words, canonical), said);
  const english = NEXT_TO_EN.exec(body);
  if (english) {
    const anchor = (english[3] ?? english[4] ?? "").trim();
    const adjacent = english[1] !== undefined || english[3] !== undefined;
    if (anchor === "" || NOT_AN_ANCHOR.test(anchor)) return undefined;
    // ("not before noon" is a limit of the clock, read by `readWhere`; "not before the exam" is ruled out.)
    if (negated(english)) return "ruled out";
    if (english[2] === "before" && !adjacent) return undefined;
    const rest = `${body.slice(0, english.index)} ${body.slice(english.index + english[0].length)}`;
    return { next: { side: english[2] as "after" | "before", anchor }, rest: rest.replace(/\s+/g, " ").trim() };
  }
  const chinese = NEXT_TO_ZH.exec(body);
  // (Groups: the verb, the day, the anchor, the side.)
  const named = chinese?.[3]?.trim() ?? "";
  const which = classAnchorOf(named);
  const anchor = which ? `${which} class` : named;
  if (!chinese || anchor === "" || (!which && NOT_AN_ANCHOR.test(anchor))) return undefined;
  const side = /之前|前面/.test(chinese[4] ?? "") ? "before" : "after";
  const placing = /^(?:放|安排|排)$/.test(chinese[1] ?? "");
  // "挪到周四机器人社团活动之后", `移到 3月14日周四，"机器人社团活动"之后` (a plan step): the day said before the anchor
  // is where it goes.
  const day = chinese.groups?.day;
  const verb = day ? `${placing ? "安排在" : "挪到"}${day}` : placing ? "安排一下" : "挪一下";
  return { next: { side, anchor }, rest: `${body.slice(0, chinese.index)}${verb}` };
}

/**
 * A sentence as corrected: the last day said before the last correction, and what follows it, gives way to the day
 * said after it ("move the essay to monday, no wait, tuesday" is "move the essay to tuesday"). Before, both days were
 * read: "monday, no wait, tuesday" moved the essay to Monday and ruled out Tuesday, "monday, I mean tuesday" allowed
 * either. Only a correction between two days is one: "monday, no evenings" still rules out evenings. The last
 * correction is read (`parseSentence` reads each in turn).
 */
export function corrected(said: string): string {
  const marks = [...said.matchAll(CORRECTION)];
  for (let index = marks.length - 1; index >= 0; index -= 1) {
    const mark = marks[index]!;
    const firstClause = said.slice(mark.index + mark[0].length).split(/[,;，；]/, 1)[0] ?? "";
    if (isEmptySelection(readDays(firstClause))) continue;
    const day = lastDayAt(said.slice(0, mark.index));
    if (day === undefined) continue;
    return `${said.slice(0, day)} ${said.slice(mark.index + mark[0].length)}`.replace(/\s+/g, " ").trim();
  }
  return said;
}

/** Words of where that name no day or time but still a place to take: "somewhere else", "a free slot", "别的时间". */
const ANY_PLACE =
  /\b(?:somewhere|anywhere|wherever|elsewhere|free|open|empty|available|better|good|best|other|another|different|later|earlier|sooner|whenever|any|some|next|when|whatever|slots?|time|space|room|gap|schedule|calendar|week)\b|空|别的|其他|另|随便|任意|合适|最早|最晚|有时间|时间|时段|地方|位置|日程/;
/** What a move's words say it goes to ("… to thrusdya", "挪到月底"): the words after "to" or 挪到. */
const MOVE_TARGET = /\s(?:to|until|till|onto|into)\s+(.+)$|(?:移到|挪到|调到|改到|换到|推到|放到)(.+)$/;

/**
 * A move to words read as no day, time or place ("move the essay to thrusdya", "to m/w/f", "挪到月底"): read as
 * anywhere, it proposed a place the student never named (a typo of a day took the essay to Monday); not understood
 * instead, and the reply asks for the day; so is "move the essay back" alone. "Somewhere else", "a free slot", "another
 * day" are places still.
 */
export function unreadPlace(read: ScheduleRequest, body: string): boolean {
  if (read.kind !== "move" || read.shift || read.otherDay || read.also || read.dayward || read.leaves) return false;
  if (!isAnywhere(read.where) || read.where.next || read.where.dayOf || read.where.slots.soonest) return false;
  const at = body.lastIndexOf(read.task);
  const after = at === -1 ? body : body.slice(at + read.task.length);
  // ("move the essay back": back where it was, or later? — asked, not read as anywhere.)
  if (/^\s*back\s*[.!?]*$/.test(after)) return true;
  const target = MOVE_TARGET.exec(after);
  const words = (target?.[1] ?? target?.[2] ?? "").replace(/[\s,.!?吧]+$/, "");
  return words !== "" && /[a-z\u4e00-\u9fff]/.test(words) && !ANY_PLACE.test(words);
}

/**
 * A move or an arrangement to no place, whose words hold a number that is no part of a task's name: "move the essay to
 * 3/4" (either the 3rd of April or the 4th of March), "schedule the essay at 25:00". Read as anywhere, such a request
 * proposed a place the student never named; it is not understood instead, and the reply asks to say the day.
 */
export function unreadDigits(read: ScheduleRequest, body: string): boolean {
  if (read.kind !== "move" && read.kind !== "arrange") return false;
  if (read.kind === "move" && (read.shift || read.otherDay || read.also)) return false;
  if (!isAnywhere(read.where) || (read.kind === "arrange" && read.putBack)) return false;
  const names = read.kind === "move" ? [read.task] : [...read.tasks, ...(read.except ?? [])];
  // (An hour nothing goes after that ends no day — "no studying after 1am", "凌晨1点以后不要" — is read: a review is
  // placed by its day's end anyway. Before, its digits refused "arrange my reviews, no studying after 1am".)
  const rest = names.reduce((text, name) => text.split(name).join(" "), takeNotAfterHour(body).rest);
  // ("schedule 3 reviews", "安排2个复习": the count is read.)
  const counted = read.kind === "arrange" && read.count !== undefined ? String(read.count) : undefined;
  return /\d/.test(counted === undefined ? rest : rest.replace(new RegExp(`(?<!\\d)${counted}(?!\\d)`), " "));
}
