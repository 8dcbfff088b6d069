/**
 * The words that name a task in a request: a phrase with what is said of where and when taken out (`taskPhrase`,
 * `readTaskWords`), the several tasks of a list ("the essay and the matrix review"), a phrase that names everything
 * ("all of them"), and the words of when said after a task ("… tomorrow morning").
 */
import { LUNCH_AFTER_TASK, withoutClockWords } from "./clock-words.js";
import { readDates, readDays, WEEK_STRETCH_WORDS } from "./day-words.js";
import {
  BEFORE_EVENT,
  isAnywhere,
  isEmptySelection,
  KEEP_FREE,
  NEGATED_DAYS,
  NEGATIVE_CLAUSE,
  NOT_NEGATIVE,
  PART_PHRASE_WORDS,
  readPartOfDay,
  readWhere,
  SAME_TIME,
  SOONEST,
  withDaysBeforeAfter,
} from "./where.js";

/** True for words that name everything rather than one class or task ("anything", "my reviews", "stuff", "所有"). */
export function namesEverything(phrase: string): boolean {
  return /^(?:anything|everything|something|nothing|stuff|things?|it|them|all|reviews?|review sessions?|tasks?|sessions?|studying|study|work|复习|任务|学习|东西|任何|所有|全部|都)$/.test(
    phrase.trim(),
  );
}

/** `text` cut at the first of `cuts` after which all is words of when (`onlyWhen`): [before, when], or undefined. */
export function splitAtWhen(text: string, cuts: readonly number[]): [string, string] | undefined {
  const at = cuts.find((cut) => onlyWhen(text.slice(cut)));
  return at === undefined ? undefined : [text.slice(0, at).trim(), text.slice(at).trim()];
}

/** A fragment that is only words of when ("明天上午", "周五下午三点以后", "tomorrow at 10am"), none of a task. */
export function onlyWhen(fragment: string): boolean {
  // (The clock's words too: "tomorrow after 10am"; "over lunch" is read whole, before the clock is.)
  const named = (text: string) => readTaskWords(text).trim() !== "";
  return (
    fragment.trim() !== "" &&
    !(named(fragment) && named(withoutClockWords(fragment))) &&
    !isAnywhere(readWhere(fragment))
  );
}

/** Task phrases of a list ("the essay and the vocabulary list", "单词表和作文"). */
export function splitPhrases(text: string): string[] {
  const quoted = [...text.matchAll(/"([^"]+)"/g)].map((found) => (found[1] ?? "").trim()).filter(Boolean);
  if (quoted.length > 0) return quoted;
  return text
    .split(/\s*(?:,|\band\b|\bor\b|&|和|、|及|以及|或)\s*/)
    .map(taskPhrase)
    .filter((phrase) => phrase !== "");
}

/**
 * "But" in Chinese (但是, 可是, 不过, 但), at the edge of a clause: where it starts (不过 and 但 only before a limit's
 * words: "但丁" names Dante), or where it ends once its limit is read.
 */
const BUT_ZH =
  /(?<=^|[\s,，;；])(?:但是|可是|(?:不过|但)(?=\s*(?:不|别|只|要|周|星期|礼拜|上午|下午|晚上|早上|中午|今天|明天|后天|\d|$)))|(?:但是|可是|不过|但)(?=\s|$|[,，;；])/g;

/**
 * "Only" in Chinese (只要, 只排, 只在, 仅…) said first in its clause, before a day or a part of it, or left alone once
 * its days are read: "帮我安排复习，只要周五" is "arrange my reviews, only on Friday".
 */
const ONLY_ZH =
  /(?<=^|[\s,，;；])(?:只要|只排|只在|只放|只安排|仅在|仅排|仅)(?=\s*(?:$|[,，;；]|周|星期|礼拜|上午|下午|晚上|早上|中午|今天|明天|后天|\d))/g;

/** Task phrases named after an arrange verb; empty when it means every pending task. */
export function namedTasks(rest: string): string[] {
  const stripped = withoutConstraints(
    readDates(
      withoutClausesOut(
        withoutClockWords(
          rest
            .replace(KEEP_FREE, " ")
            .replace(new RegExp(SOONEST.source, "g"), " ")
            // ("early tomorrow": read while its day is still there.)
            .replace(PART_PHRASE_WORDS, " "),
        ),
      ),
    ).rest,
  )
    .replace(new RegExp(BEFORE_EVENT.source, "g"), " ")
    .replace(NEGATED_DAYS, " ")
    // ("midweek", "early this week", "at the end of the week", "by the end of the week": a stretch, or the week,
    // no name.)
    .replace(WEEK_STRETCH_WORDS, " ")
    .replace(/\b(?:by|before|until)\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?week\b/g, " ")
    .replace(/\bbut\b/g, " ")
    // ("帮我安排复习，但是不要周五": "but" in Chinese, said first in its clause or last before it, names no task either —
    // before, "但是" was a task's name.)
    .replace(BUT_ZH, " ")
    // ("帮我安排复习，只要周五": "only" names no task — before, "只要" was a task's name.)
    .replace(ONLY_ZH, " ")
    // ("reviews every day", "每天都安排": how often, no name.)
    .replace(/\b(?:for\s+|on\s+)?(?:every|each)\s+(?:single\s+)?day\b|\bdaily\b|每天|每日/g, " ")
    // ("up to Friday": read as its days; "up" is no part of the name.)
    .replace(/\bup\s+(?=(?:to|until)\s+(?:this\s+|next\s+)?(?:[a-z]+day|weekend)\b)/g, " ")
    .replace(
      /\b(?:on|for|in|into|at|during|over|to|across)\s+(?:the\s+|an?\s+|any\s+)?(?:[a-z]+days?(?:\s+nights?)?\s*(?:\(day \d+\))?|weekends?|day \d+|mornings?|afternoons?|evenings?|nights?|slots? \d+(?:-\d+)?|(?:next|this|the) week|free slots?(?: that fits? (?:it|them))?|a free slot(?: that fits? (?:it|them))?)/g,
      " ",
    )
    // ("sometime this weekend": the "this" of a day is no part of the name either.)
    .replace(/\b(?:this|next|coming)\s+(?=(?:[a-z]+days?|weekends?|mornings?|afternoons?|evenings?)\b)/g, " ")
    .replace(/\b(?:[a-z]+days?|weekends?|mornings?|afternoons?|evenings?)\b/g, " ")
    .replace(PART_PHRASE_WORDS, " ")
    // "arrange the linked list exercises next week": the week is no part of the name (an arrangement's week is the
    // schedule's window: `DateSpec`).
    .replace(/\b(?:(?:this|next|the coming|the following)\s+week|the week after next)(?:'s)?\b/g, " ")
    // "put the matrix review on fri": a weekday's short name after its preposition ("sat" alone may be an exam's).
    .replace(/\b(?:on|for|by|this|next)\s+(?:mon|tues?|weds?|thu|thurs?|fri|sat|sun)\b/g, " ")
    .replace(
      /(?:周|星期|礼拜)[一二三四五六日天1-7]|周末|工作日|上午|下午|晚上|早上|第\d+天|下周|这周|本周|下星期|这星期/g,
      " ",
    )
    .replace(/\(day \d+\)|\(slots? \d+(?:-\d+)?\)/g, " ")
    .replace(/[()[\]]/g, " ");
  const generic =
    /^(?:(?:only|just|not|help me|can you|could you|please|for me|me|my|the|all|every|each|of|remaining|rest|too|also|as well|left|pending|review|reviews|review tasks?|tasks?|sessions?|study|studies|items?|week(?:'s)?|next|this|today|now|them|it|everything|anything|all of them|what is left|what's left|whatever is left|that's left|that is left|what's|whatever|still|in|into|a|free|slots?|that|fits?|on|schedule|us|帮我|请|一下|把|所有|全部|的|复习|任务|时间|我|吧|给我|都|一周|待|每个|剩下|剩余|了|好|上|一点|一些|一个|几个|点儿|能容纳它们?的时段)\s*)*$/;
  const phrases = stripped
    // ("on monday, tuesday or wednesday": the word joining the days, once they are read, names no task either.)
    .split(/\s*(?:,|\band\b|\bor\b|&|和|、|及|以及|或)\s*/)
    // A day's preposition left behind once its day is read ("the essay for the day after tomorrow"), and what was said
    // with it: "later today", "late tonight", "not tomorrow", "fri 15:00".
    .map((phrase) =>
      phrase
        .trim()
        .replace(
          /\s+(?:on|for|in|at|by|during|over|to|up to|up until|through|thru|before|after|until|till|not|this|later|late|mon|tues?|weds?|thu|thurs?|fri)$/,
          "",
        )
        // "安排下周的链表习题": the 的 the week left behind.
        .replace(/^的\s*/, ""),
    )
    .filter((phrase) => phrase !== "" && !generic.test(phrase))
    .map(taskPhrase)
    .filter(Boolean);
  return phrases;
}

/** True when a fragment only limits where things go ("not Friday", "only mornings", "Friday is my day off", "不要周五"). */
function isConstraint(fragment: string): boolean {
  const namesWhen = !isAnywhere(readWhere(fragment)) || readPartOfDay(fragment) !== undefined;
  return (
    namesWhen && (NEGATIVE_CLAUSE.test(fragment.replace(NOT_NEGATIVE, " ")) || readTaskWords(fragment).trim() === "")
  );
}

/** What is left of a fragment once its day and time words are gone (to tell a constraint from a task's name). */
export function readTaskWords(fragment: string): string {
  return (
    // ("周二到周四", "周三或以后", "after Tuesday": a stretch of days, said as its days, names no task.)
    readDates(withDaysBeforeAfter(fragment))
      .rest.replace(NEGATED_DAYS, " ")
      // ("later in the week", "this weekend", "the end of the week": a stretch of the week names no task.)
      .replace(WEEK_STRETCH_WORDS, " ")
      .replace(LUNCH_AFTER_TASK, " ")
      // ("reviews every day": how often, no task.)
      .replace(/\b(?:every|each)\s+(?:single\s+)?day\b|\bdaily\b|每天|每日/g, " ")
      // ("first thing tomorrow": the morning, no task.)
      .replace(/\bfirst thing\b(?=\s+(?:tomorrow|today|in the morning|(?:on\s+)?[a-z]+day)\b|\s*$)/g, " ")
      .replace(/\b(?:this|next)\b(?=\s+(?:[a-z]+day|weekends?|mornings?|afternoons?|evenings?)\b)/g, " ")
      // ("Thursday and Friday morning": the words joining days name no task.)
      .replace(/,|\b(?:and|or)\b(?=\s+(?:this\s+)?(?:[a-z]+day|weekends?|today|tonight|tomorrow)\b)/g, " ")
      .replace(/(?:或|和|及|、)(?=(?:周|星期|礼拜)[一二三四五六日天1-7])/g, " ")
      .replace(
        /\b(?:[a-z]+day|weekends?|mornings?|afternoons?|evenings?|nights?|day \d+|slots? \d+(?:-\d+)?|only|just|not|on|in|the|at|no)\b|\(day \d+\)/g,
        " ",
      )
      // ("周三以后", "周五之前": a limit of days, whose word names no task either.)
      .replace(
        /(?:(?:周|星期|礼拜)[一二三四五六日天1-7]|周末)(?:(?:之前|以前|前面|前|之后|以后|后面|后)(?![天半]))?|上午|下午|晚上|早上|第\d+天|第一件事就?|只|不要|别|工作日|(?:这|本|下下|下)个?(?:周|星期|礼拜)|(?:有空|空闲)的?(?:时候|时间)|(?:^|\s)或(?=\s|$)/g,
        " ",
      )
      // ("to Friday, same time": the time it has now is no task.)
      .replace(new RegExp(SAME_TIME.source, "g"), " ")
      .replace(new RegExp(SOONEST.source, "g"), " ")
  );
}

/** A clause that says when one is free ("I'm free on Friday", "我那天有空"): a reason for where, no task. */
const AVAILABLE = /\b(?:i'?m|i am|i'll be|i will be)\s+(?:free|available|around)\b|有空|有时间|没事/;

/**
 * The task part of an arrange request, without the limits on where: a parenthesised constraint ("(not Friday)",
 * "(only mornings)", "（不要周五）") and a clause that avoids days ("Friday is my day off", "周五不行") are limits
 * (read by `readWhere`), not task names.
 */
function withoutConstraints(text: string): string {
  const unbracketed = text.replace(/\(([^()]*)\)/g, (whole, inner: string) => (isConstraint(inner) ? " " : whole));
  return unbracketed
    .split(/\s*(?:[,;]|\bbut\b)\s*/)
    .filter(
      (segment) =>
        !(
          (NEGATIVE_CLAUSE.test(segment.replace(NOT_NEGATIVE, " ")) || AVAILABLE.test(segment)) &&
          !isEmptySelection(readDays(segment))
        ),
    )
    .join(", ");
}

/**
 * The clauses after the first that rule days out, dropped while their days are still there ("arrange my reviews today,
 * not tonight", "… but I'm busy tonight", "今天帮我安排复习，今晚不行"): once "tonight" was read as a date and taken out,
 * "not", "i'm busy" and "不行" were left as tasks' names. The first clause holds what is arranged ("the essay not
 * tomorrow" names the essay).
 */
function withoutClausesOut(text: string): string {
  const [first = "", ...rest] = text.split(/[,;，；]|\bbut\b/).map((segment) => segment.trim());
  const kept = rest.filter(
    (segment) => !(NEGATIVE_CLAUSE.test(segment.replace(NOT_NEGATIVE, " ")) && !isEmptySelection(readDays(segment))),
  );
  return [first, ...kept].join(", ");
}

/** A task phrase with filler words around it removed ("my linear algebra review" → "linear algebra review"). */
export function taskPhrase(text: string): string {
  const quoted = /"([^"]+)"/.exec(text);
  if (quoted) return (quoted[1] ?? "").trim();
  return (
    text
      .replace(
        /^(?:(?:please|can you|could you|help me|i want to|i'd like to|let's|the|my|a|an|all|(?:only|both|just|also)(?=\s+\S)|ones (?:for|of|in)|those (?:for|of|in)|task|item|event|review task|pending review task|pending task|placed task|the task matching|task matching)\b\s*|(?:请|帮我|把|将|一下|我的|那个|这个)\s*)+/g,
        "",
      )
      // "put the essay somewhere on the weekend": where, not which. (Trimmed first: `\s*` before a word at the end
      // backtracks in time quadratic in a run of spaces that does not reach it — 13 s for a reply of 100 000.)
      .trimEnd()
      // ("the essay sometime", "the essay for sometime", "the essay whenever", "the essay in my free time": when, not
      // which, too; "except" or "but" left before a day ruled out — "the essay except tomorrow" — is no name either, nor
      // "only", "too", "again" said around it, nor 也 or 都 after it — but "复习都", every review.)
      .replace(
        /(?:please|for me|instead|\bexcept|\bbut|\bonly|\btoo|\bas well|\bagain|\balso|(?<=[\u4e00-\u9fff])(?:也|还|到)|(?<=[\u4e00-\u9fff])(?<!复习|任务|的)(?:都|全都)|wherever (?:it fits|they fit|there'?s (?:room|space|time))|somewhere else|somewhere|anywhere|elsewhere|(?:\b(?:for|at|in|on) )?\b(?:sometime|some time|at some point|any ?time|whenever)|\b(?:in|during|into) (?:my|the|some) (?:free|spare) (?:time|slots?)|(?:\b(?:for|on) )?\b(?:every|each) (?:single )?day|\bdaily|吧|一下|的任务|任务|能不能|可不可以|能否|可以)$/,
        "",
      )
      .replace(/^["']|["']$/g, "")
      .trim()
  );
}
