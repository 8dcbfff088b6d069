/**
 * The days a request names that the plan cannot use: days outside the week shown (a question with the window's first and
 * last dates), weekdays already past, a week before or after the window, and a task not on the day named.
 */
import { say, sayList, weekdayName, type Language } from "../../contracts/language.js";
import { addDays, dayOfWeekOfDate, mondayOf } from "../../contracts/clock.js";
import { isEmptySelection, type DateSpec, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { resolveDays, unresolvedDates, weekdayOf, windowDates, type WeekFacts } from "./week-facts.js";
import { formatDate } from "../../tools/schedule/state.js";

/**
 * A question when the request names days the window does not have (after the user's answer, if any), else undefined:
 * a calendar day outside the window ("the 20th", "next Monday") is named with the window's first and last dates.
 */
export function missingDays(
  request: ScheduleRequest,
  facts: WeekFacts,
  answer: string | undefined,
  language: Language,
): string | undefined {
  const where = "where" in request ? request.where : undefined;
  const outside = where ? [...unresolvedDates(where.only, facts), ...unresolvedDates(where.not, facts)] : [];
  const week = where?.only.dates?.find((spec) => spec.kind === "week" && outside.includes(spec.text));
  if (week?.kind === "week") return weekOutsideWindow(week, facts, language);
  const after = where?.only.dates?.find((spec) => spec.kind === "offset" && outside.includes(spec.text));
  if (after?.kind === "offset" && outside.length === 1) {
    const said = daysAfterWindow(after, facts, language);
    if (said) return said;
  }
  if (where && outside.length > 0) return outsideWindow(outside, facts, language);
  const passed = passedWeekdaysAhead(request, facts, language);
  if (passed) return passed;
  if (!where || isEmptySelection(where.only) || resolveDays(where.only, facts).length > 0) return undefined;
  const total = facts.totalDays ?? 7;
  if (language === "zh") {
    const unread = answer === undefined ? "" : `我没能从你的回答“${answer}”中读出日程里的某一天。`;
    return `${unread}你的日程里没有这一天（共 ${total} 天：第1天到第${total}天）。你指的是哪一天？可以回答星期几（如“周五”）或第几天（如“第5天”）。`;
  }
  const unread = answer === undefined ? "" : `I could not read a day of your schedule in your answer "${answer}". `;
  return `${unread}Your schedule has no such day (it covers ${total} days: day 1 to day ${total}). Which day do you mean? Answer with a weekday ("Friday") or a day number ("day 5").`;
}

/**
 * A change to a weekday said alone whose days in the window are all behind today ("move the essay to Monday" on a
 * Saturday, "把作文挪到周一"): the coming one is meant — no one moves a task into the past — and the window does not
 * reach it yet: its date, and that the schedule moves on by itself; which day of the window is meant. Undefined for
 * other requests, a weekday still ahead or today ("Friday 10:00" on a Friday: that day, its time passed or not), or a
 * weekday said with a week ("this Monday": this week's, which has passed).
 */
function passedWeekdaysAhead(request: ScheduleRequest, facts: WeekFacts, language: Language): string | undefined {
  if (request.kind !== "move" && request.kind !== "arrange") return undefined;
  const { only } = request.where;
  const dates = windowDates(facts);
  const today = facts.now?.date;
  if (!dates || today === undefined || today > dates.last || only.weekdays.length === 0) return undefined;
  if (only.days.length > 0 || (only.dates?.length ?? 0) > 0) return undefined;
  const total = facts.totalDays ?? 7;
  const behind = (weekday: number) => {
    const days = Array.from({ length: total }, (_, index) => index + 1).filter(
      (day) => weekdayOf(facts, day) === weekday,
    );
    return days.length > 0 && days.every((day) => addDays(dates.first, day - 1) < today);
  };
  if (!only.weekdays.every(behind)) return undefined;
  const next = (weekday: number) => addDays(today, (weekday - dayOfWeekOfDate(today) + 7) % 7 || 7);
  const coming = (lang: Language) =>
    sayList(
      only.weekdays.map((weekday) =>
        lang === "zh"
          ? `${weekdayName(weekday, lang)}（${formatDate(next(weekday), lang)}）`
          : `${weekdayName(weekday, lang)} (${formatDate(next(weekday), lang)})`,
      ),
      lang,
    );
  const passed = (lang: Language) =>
    sayList(
      only.weekdays.map((weekday) => weekdayName(weekday, lang)),
      lang,
    );
  const plural = only.weekdays.length > 1;
  const named = {
    en: `this week's ${passed("en")} ${plural ? "have" : "has"} passed, and the coming ${coming("en")}`,
    zh: `本周的${passed("zh")}已经过去，下一个${coming("zh")}`,
    plural,
  };
  return notOnItYet(dates, named, 7, language);
}

/**
 * A week asked about that the window does not reach ("what's on next week?" while the window is this week): its dates,
 * and that the schedule moves on to it only once the window's last day is over; which day of the window is meant.
 */
function weekOutsideWindow(week: Extract<DateSpec, { kind: "week" }>, facts: WeekFacts, language: Language): string {
  const dates = windowDates(facts);
  if (!dates || !facts.now) return outsideWindow([week.text], facts, language);
  const monday = addDays(mondayOf(facts.now.date), week.weeks * 7);
  const ahead = monday > dates.last;
  return say(
    language,
    `Your schedule covers ${formatDate(dates.first)} to ${formatDate(dates.last)}; "${week.text}" (${formatDate(monday)} to ${formatDate(addDays(monday, 6))}) is not on it${ahead ? " yet: the schedule moves on to the next week once its last day is over" : ""}, so I have planned nothing. Which day of your schedule do you mean? Answer with a weekday ("Friday"), "today" or "tomorrow".`,
    `你的日程覆盖 ${formatDate(dates.first, "zh")} 到 ${formatDate(dates.last, "zh")}；“${week.text}”（${formatDate(monday, "zh")} 到 ${formatDate(addDays(monday, 6), "zh")}）${ahead ? "还不在日程里：日程要等最后一天过完才会换到下一周" : "不在日程里"}，所以我没有做任何计划。你指的是日程里的哪一天？可以回答星期几（如“周五”）、“今天”或“明天”。`,
  );
}

/**
 * A day said from today ("tomorrow", "in 2 days") past the window's last day while today is in the window (a Sunday
 * evening's "what do I have tomorrow?"): its date, and that the schedule moves on to it by itself once the window's
 * last day is over; which day of the window is meant. Undefined when the day is not such a one.
 */
function daysAfterWindow(
  spec: Extract<DateSpec, { kind: "offset" }>,
  facts: WeekFacts,
  language: Language,
): string | undefined {
  const dates = windowDates(facts);
  const today = facts.now?.date;
  if (!dates || today === undefined || today < dates.first || today > dates.last) return undefined;
  const day = addDays(today, spec.days);
  if (day <= dates.last) return undefined;
  const named = { en: `"${spec.text}" (${formatDate(day)})`, zh: `“${spec.text}”（${formatDate(day, "zh")}）` };
  return notOnItYet(dates, named, 5, language);
}

/**
 * "Your schedule covers A to B; {named} is not on it yet: the schedule moves on … ask me again then. Or which day …?
 * Answer with a weekday ("Friday")…": days past the window's last, while today is in it. `example`: the weekday the
 * answer's example names (one still ahead).
 */
function notOnItYet(
  dates: { first: string; last: string },
  named: { en: string; zh: string; plural?: boolean },
  example: number,
  language: Language,
): string {
  const [first, last] = [dates.first, dates.last];
  return say(
    language,
    `Your schedule covers ${formatDate(first)} to ${formatDate(last)}; ${named.en} ${named.plural ? "are" : "is"} not on it yet: the schedule moves on to the next week by itself once ${formatDate(last)} is over, so I have planned nothing — ask me again then. Or which day of your schedule do you mean? Answer with a weekday ("${weekdayName(example, "en")}") or "today".`,
    `你的日程覆盖 ${formatDate(first, "zh")} 到 ${formatDate(last, "zh")}；${named.zh}还不在日程里：${formatDate(last, "zh")}过完后，日程会自动换到下一周，所以我没有做任何计划——到时候再问我吧。或者你指的是日程里的哪一天？可以回答星期几（如“${weekdayName(example, "zh")}”）或“今天”。`,
  );
}

/** "Your schedule covers Mon 11 Mar to Sun 17 Mar (day 1 to day 7); "the 20th" is not in it. …" (or, undated, that days have no dates). */
function outsideWindow(named: string[], facts: WeekFacts, language: Language): string {
  const dates = windowDates(facts);
  const total = facts.totalDays ?? 7;
  // "next weekend" names two days with one text: said once.
  const quoted = [...new Set(named)].map((text) => `"${text}"`).join(language === "zh" ? "、" : ", ");
  if (!dates) {
    return say(
      language,
      `Your schedule's days have no dates, so I can't tell which day ${quoted} is (it covers ${total} days: day 1 to day ${total}). Which day do you mean? Answer with a weekday ("Friday") or a day number ("day 5").`,
      `你的日程没有日期，我无法确定 ${quoted} 是哪一天（共 ${total} 天：第1天到第${total}天）。你指的是哪一天？可以回答星期几（如“周五”）或第几天（如“第5天”）。`,
    );
  }
  return say(
    language,
    `Your schedule covers ${formatDate(dates.first)} to ${formatDate(dates.last)} (${dates.first} to ${dates.last}, day 1 to day ${total}); ${quoted} is not in it, so I have planned nothing. Which day of it do you mean? Answer with a date ("${formatDate(dates.first)}"), a weekday ("Friday") or a day number ("day 5").`,
    `你的日程覆盖 ${formatDate(dates.first, "zh")} 到 ${formatDate(dates.last, "zh")}（${dates.first} 至 ${dates.last}，第1天到第${total}天）；${quoted} 不在其中，所以我没有做任何计划。你指的是其中哪一天？可以回答日期（如“${formatDate(dates.first, "zh")}”）、星期几（如“周五”）或第几天（如“第5天”）。`,
  );
}
