/**
 * A shift of a task said by how much rather than where ("push the essay back a day", "an hour later", "later that
 * day", "推迟一天", "提前两个小时").
 */
import type { MoveShift, ScheduleRequest, Where } from "./request-kinds.js";
import { HOUR_WORDS, readNumber } from "./words.js";
import { readDays } from "./day-words.js";
import { isEmptySelection } from "./where.js";
import { taskPhrase } from "./task-words.js";
import { splitNamingDay } from "./day-names.js";
import {
  dayAloneAsReviews,
  DAYS_NAMING,
  EVERY_REVIEW,
  MOVE_VERB,
  saysDayOfReviews,
  withoutStartsFrom,
} from "./shift-all.js";
import { PRONOUN, taskNamedBefore } from "./move-target.js";

/** A move's verb and what follows it (group 1), up to "to …" where it goes (group 2) in `MOVE_TO`. */
const MOVE_VERB_THEN = new RegExp(String.raw`\b${MOVE_VERB}\s+(.+)$`);

/** How many of a unit a shift says: "a", "an", "one", "two", "half an", "2", "1.5"; Chinese numerals too. */
const SHIFT_AMOUNT = String.raw`(an?|one|two|three|four|five|six|half an?|\d+(?:\.\d+)?)`;
/** "a day", "2 hours", "30 minutes" (group 1 the amount, group 2 the unit). */
const SHIFT_LENGTH_EN = new RegExp(
  String.raw`\b(?:by\s+)?${SHIFT_AMOUNT}\s+(days?|weeks?|wks?|hours?|hrs?|minutes?|mins?)\b`,
);
const LATER_EN = /^(?:back|later|off|sooner)$/;

/**
 * A move by an amount or a direction from the task's own place: "push the binary tree review back a day", "move it an
 * hour later", "push the review to later", "bring the review forward a day", "push back X by two days", the plan's own
 * `Move "X" 1 day later` / `Move "X" later the same day`; "把二叉树复习往后推一天", "把X提前一小时", "把X挪到晚一点",
 * `把 "X" 往后推1天`. A day named besides ("push it back to Friday") is a move to that day, not a shift.
 */
export function readShift(body: string): ScheduleRequest | undefined {
  return readShiftEnglish(body) ?? readShiftChinese(body);
}

function readShiftEnglish(body: string): ScheduleRequest | undefined {
  const verb = MOVE_VERB_THEN.exec(body);
  if (!verb) return undefined;
  let rest = ` ${verb[1] ?? ""} `;
  // "move my reviews off today": the day they leave, not "off" as "later" ("put it off").
  if (
    /\s(?:off|away from|out of)\s+(?:the\s+)?(?:today|tonight|tomorrow|this\s+(?:morning|afternoon|evening)|[a-z]+day|weekends?)\b/.test(
      rest,
    )
  )
    return undefined;
  let direction: 1 | -1 | undefined;
  let length: { amount: number; unit: "days" | "minutes" } | undefined;
  const sameDay = /\s(?:today|tonight|that day|the same day|on the same day|in the day)\s/;
  // ("later today" of a review on another day is today, from the clock: kept as where, `MoveRequest.shift`.)
  const today = /\s(today|tonight)\s/.exec(rest)?.[1];
  // "push today back a day", "push all of tonight back an hour": the day is what moves — its reviews — not when.
  const todayMoved = /^\s(?:(?:all|the whole)\s+)?(?:of\s+)?(today|tonight)\s/.exec(rest)?.[1];
  rest = rest.replace(sameDay, " ");
  const next =
    /\s(?:to|until|till)\s+(?:the\s+)?(next|following|previous)\s+day\s|\s(?:to\s+)?the day (after|before)\s/.exec(
      rest,
    );
  if (next) {
    length = { amount: 1, unit: "days" };
    direction = next[1] === "previous" || next[2] === "before" ? -1 : 1;
    rest = rest.replace(next[0], " ");
  }
  const measured = SHIFT_LENGTH_EN.exec(rest);
  // "… by a day": an amount said with "by" is a shift, whichever way (`wayUnsaid` below when none is).
  const byAmount = measured !== null && !length && /^by\s/.test(measured[0]);
  if (measured && !length) {
    const word = (measured[1] ?? "").replace(/ an?$/, "");
    const amount = HOUR_WORDS[word] ?? Number(word);
    const unit = measured[2] ?? "";
    // A shift by days moves whole days ("half a day" is not read); a week is seven of them.
    if (!Number.isFinite(amount) || amount <= 0 || (/^[dw]/.test(unit) && !Number.isInteger(amount))) return undefined;
    length = /^[dw]/.test(unit)
      ? { amount: /^w/.test(unit) ? amount * 7 : amount, unit: "days" }
      : { amount: Math.round(/^h/.test(unit) ? amount * 60 : amount), unit: "minutes" };
    rest = rest.replace(measured[0], " ");
  }
  rest = rest.replace(/\s(?:to|till|until|for)\s+(?:a\s+)?(later|earlier)(?:\s+(?:time|slot|one))?\s/, " $1 ");
  const words = rest.trim().split(/\s+/);
  let particle = "";
  for (const end of ["first", "last"] as const) {
    const word = end === "first" ? words[0] : words.at(-1);
    if (word === undefined || direction !== undefined) continue;
    if (LATER_EN.test(word)) direction = 1;
    // ("Up" only by an amount: "move the essay up a day"; "the warm up" names a task.)
    else if (/^(?:forward|ahead|earlier)$/.test(word) || (word === "up" && length)) direction = -1;
    else continue;
    particle = word;
    if (end === "first") words.shift();
    else words.pop();
  }
  // "move X back" alone may mean where it was: a particle without an amount is a shift only after push / bring.
  if (!length && /^(?:back|forward|ahead)$/.test(particle) && !/^(?:push|bump|bring)\b/.test(verb[0])) return undefined;
  // "delay X a day", "postpone X an hour": the verb says which way; "postpone X", "delay it" alone: to the next day.
  if (direction === undefined && /^(?:delay|postpone|put off)\b/.test(verb[0])) {
    direction = 1;
    length ??= { amount: 1, unit: "days" };
  }
  // "push X by a day", "bump X by a day": pushed is later, as delayed.
  if (direction === undefined && byAmount && /^(?:push|bump)\b/.test(verb[0])) direction = 1;
  if (direction === undefined && !byAmount) return undefined;
  if (!length && verb[0].startsWith("put off")) length = { amount: 1, unit: "days" };
  // ("push my reviews friday back an hour", "… after 7pm friday …": a weekday right after them, with no "on", names them
  // as "on friday" does — before, it was read as where they go, and a task "reviews friday back an hour" was sought.)
  const phrase = words.join(" ").replace(REVIEWS_THEN_DAY, "$1 on $2");
  // "push it back to Friday": a day named is where it goes.
  // (A day that names the task is not where it goes: "push tomorrow's review back a day".)
  // ("Monday evening's reviews", "this morning's review": the part of the day names them too.)
  // ("Thursday and Friday's reviews": the days listed before the one said so name them too.)
  // ("All my reviews on Friday", "everything tomorrow": the day names the reviews, as "Friday's reviews" does.)
  // ("All my reviews after 7pm on Friday": the time said is which of them, `asShiftAll`.)
  const untimed = withoutStartsFrom(phrase);
  const named = untimed.replace(DAYS_NAMING, (word) => (splitNamingDay(word) ? " " : word));
  // ("push tuesday back a day", "push all of thursday and friday back a day": those days' reviews.)
  const dayAlone =
    todayMoved && /^(?:(?:all|the whole)\s*)?(?:of)?$/.test(phrase)
      ? `${todayMoved}'s reviews`
      : dayAloneAsReviews(phrase);
  const ofADay = dayAlone !== undefined || saysDayOfReviews(untimed);
  if (!ofADay && (!isEmptySelection(readDays(named)) || /\b(?:to|onto|into)\b/.test(phrase))) return undefined;
  const said2 = dayAlone ?? taskPhrase(phrase);
  const pointed = PRONOUN.test(said2) ? (taskNamedBefore(body.slice(0, verb.index)) ?? said2) : said2;
  // "push all my reviews tonight back an hour": tonight's reviews, by an amount (before, every review of the week).
  const task = today && length && EVERY_REVIEW.test(pointed) ? `${today}'s reviews` : pointed;
  if (!task) return undefined;
  // "Move the essay by a day": by how much, but not which way — asked, never guessed (it named "essay by a day").
  if (direction === undefined) return { kind: "unknown", why: "shift_way" };
  const shift: MoveShift = !length
    ? { sameDay: direction === 1 ? "later" : "earlier" }
    : length.unit === "days"
      ? { days: direction * length.amount }
      : { minutes: direction * length.amount };
  return { kind: "move", task, where: sameDayWhere(shift, today), shift };
}

/** Every review, then a weekday with no word before it (group 1: the reviews and a time they are from; 2: the day). */
const REVIEWS_THEN_DAY =
  /^(.*\b(?:reviews|review sessions|study sessions|sessions|things|stuff|everything)(?:\s+(?:after|from)\s+\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?)?)\s+((?:mon|tues|wednes|thurs|fri|satur|sun)day)$/;

/**
 * "往后推一天", "推迟一小时", "提前30分钟" (group 2 the direction, 3 the amount, 4 the unit); "挪到晚一点", "挪到今天晚点"
 * (group 5 today or tonight, 6 the word).
 */
const SHIFT_ZH =
  /^(?:请|帮我)?(?:把|将)?(.+?)\s*(?:(往后推|向后推|往后挪|向后挪|往后移|向后移|往后|向后|推迟|推后|延后|延迟|顺延|挪后|往前推|向前推|往前挪|向前挪|往前移|向前移|往前|向前|提前|挪前)(?:了)?\s*(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)?\s*(?:个)?(天|周|星期|礼拜|小时|钟头|分钟)?|(?:挪|移|调|改|推|放|安排)?(?:到|得)?(?:当天|(今天|今晚))?(晚一点|晚一些|晚些时候|晚些|晚点|稍晚一点|稍晚|早一点|早一些|早些时候|早些|早点|稍早一点|稍早)(?:的时候|的时间)?)(?:再)?(?:做|写|弄)?(?:吧)?$/;

/**
 * "推迟矩阵复习", "延后一下它", "推迟矩阵复习两天": the verb first (group 1), the task (2), an amount (3) — read as
 * "把矩阵复习推迟两天"; no amount is the next day.
 */
const POSTPONE_ZH =
  /^(?:请|帮我)?(推迟|延后|延迟|顺延)(?:一下)?(.+?)((?:\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(?:个)?(?:天|周|星期|礼拜|小时|钟头|分钟))?(?:吧)?$/;
/** The Chinese verbs that put a task off: alone, to the next day ("把矩阵复习推迟"), where "往后推" alone is later that day. */
const POSTPONE_VERB_ZH = /^(?:推迟|推后|延后|延迟|顺延)(?:了)?$/;

function readShiftChinese(body: string): ScheduleRequest | undefined {
  const postponed = POSTPONE_ZH.exec(body);
  if (postponed && !/^(?:把|将)/.test(body) && !/到|至/.test(postponed[2] ?? ""))
    return readShiftChinese(`把${postponed[2] ?? ""}${postponed[1] ?? ""}${postponed[3] ?? ""}`);
  const match = SHIFT_ZH.exec(body);
  if (!match) return undefined;
  const task = taskPhrase(match[1] ?? "");
  if (!task || !/[\u4e00-\u9fff"]/.test(body)) return undefined;
  // (Groups: the task, the verb of a shift, its amount and unit; today or tonight, and a word of later or earlier.)
  const later = match[6] !== undefined ? match[6].includes("晚") : !/前|提前/.test(match[2] ?? "");
  const direction = later ? 1 : -1;
  const word = match[3];
  const unit = match[4];
  let shift: MoveShift;
  if (word === undefined || unit === undefined) {
    // "往后推" alone is later the same day; "推迟一" without a unit is not read.
    if (word !== undefined) return undefined;
    shift = POSTPONE_VERB_ZH.test(match[2] ?? "") ? { days: 1 } : { sameDay: later ? "later" : "earlier" };
  } else {
    const amount = word === "半" ? 0.5 : /^\d/.test(word) ? Number(word) : readNumber(word);
    const week = /^(?:周|星期|礼拜)$/.test(unit);
    if (!Number.isFinite(amount) || amount <= 0 || ((unit === "天" || week) && !Number.isInteger(amount)))
      return undefined;
    shift =
      unit === "天" || week
        ? { days: direction * amount * (week ? 7 : 1) }
        : { minutes: direction * Math.round(unit === "分钟" ? amount : amount * 60) };
  }
  return { kind: "move", task, where: sameDayWhere(shift, match[5]), shift };
}

/**
 * Where a same-day shift said with today goes ("later today", "今天晚点"; "tonight", "今晚": its evening): today, for a
 * review on another day (`MoveRequest.shift`); nothing for any other shift.
 */
function sameDayWhere(shift: MoveShift, today: string | undefined): Where {
  const where = emptyWhere();
  if (today === undefined || !("sameDay" in shift)) return where;
  where.only.dates = [{ kind: "offset", days: 0, text: today }];
  if (today === "tonight" || today === "今晚") where.slots.part = "evening";
  return where;
}

/** A `where` that restricts nothing. */
function emptyWhere(): Where {
  return { only: { weekdays: [], days: [] }, not: { weekdays: [], days: [] }, slots: {} };
}
