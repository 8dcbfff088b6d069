/**
 * Where and when in a plan step's words, as the request reader reads them back: a day by weekday and date ("Thursday,
 * Mar 14", "3月14日周四") or day number, the days, slots and limits of a `Where` (`whereText`), a shift's amount.
 */
import { say, weekdayName, type Language } from "../../contracts/language.js";
import { dayOfWeekOfDate } from "../../contracts/clock.js";
import {
  anchorWords,
  dayLabel,
  dayLabelIn,
  isEmptySelection,
  type MoveShift,
  type PartOfDay,
  type ScheduleRequest,
  type Where,
} from "../../tools/schedule/request-parsing.js";
import { dayOfWords, resolveDays, slotRangeOf, weekdayOf, type WeekFacts } from "./week-facts.js";
import { formatDate } from "../../tools/schedule/state.js";
import { minutesOf } from "../../tools/schedule/event-series.js";
import { limitsSlots } from "./empty-window.js";
import { matchTask } from "./task-matching.js";
import type { GetOverviewData, ListedTask } from "../../tools/schedule/tools/index.js";
import { listedOf } from "./grounding.js";

/** "later today", "挪到今晚晚些时候" (read back as said), for a same-day shift whose words named today or tonight. */
export function sameDayToday(
  request: Extract<ScheduleRequest, { kind: "move" }>,
  language: Language,
): string | undefined {
  const today = request.where.only.dates?.find((spec) => spec.kind === "offset" && spec.days === 0);
  if (!request.shift || !("sameDay" in request.shift) || !today) return undefined;
  const tonight = today.text === "tonight" || today.text === "今晚";
  const later = request.shift.sameDay === "later";
  return language === "zh"
    ? `挪到${tonight ? "今晚" : "今天"}${later ? "晚些时候" : "早些时候"}`
    : `${request.shift.sameDay} ${tonight ? "tonight" : "today"}`;
}

/**
 * "This time tomorrow", "明天这个时候" (`thisTime`): the start of the slot the clock is in now — or, between slots, of the
 * next to start — as the time said (`at`), so the step names it and the move puts the task there or says why not.
 * Past the day's last slot it is the clock's own time (no slot starts then, which the move says). Without a clock or
 * the slots' times, no time is said (the day alone).
 */
export function withThisTime(request: ScheduleRequest, facts: WeekFacts): ScheduleRequest {
  if (!("where" in request) || !request.where.slots.thisTime) return request;
  const { thisTime: _thisTime, ...slots } = request.where.slots;
  const now = facts.now?.time;
  const times = facts.slotTimes;
  const at =
    now === undefined || times === undefined
      ? undefined
      : ((times.find((slot) => slot.start <= now && now < slot.end) ?? times.find((slot) => slot.start > now))?.start ??
        now);
  return { ...request, where: { ...request.where, slots: at === undefined ? slots : { ...slots, at } } };
}

/**
 * A bare hour where a move goes ("move my 8pm review to 9", `halfUnsaid`): of its two halves of the day, the one whose
 * time lies within the day's slots (from the first slot's start to the last's); when both do, the one nearer the
 * task's own start (the 21:00 of a review at 20:50) — a tie, or a task not placed, keeps the reading's own (1–7 the
 * afternoon, 8–11 the morning). On today, a half the clock has passed is left out while the other is not ("move my 2pm
 * review to 8" said at noon is 20:00). Without the slots' times the reading's own is kept.
 */
export function withHalfOfDay(
  request: ScheduleRequest,
  facts: WeekFacts,
  overview: GetOverviewData | undefined,
): ScheduleRequest {
  if (request.kind !== "move" || !request.where.slots.halfUnsaid) return request;
  const { halfUnsaid: _halfUnsaid, ...slots } = request.where.slots;
  const said = slots.at;
  const times = facts.slotTimes;
  const unmarked = { ...request, where: { ...request.where, slots } };
  if (said === undefined || times === undefined || times.length === 0) return unmarked;
  const hour = Number(said.slice(0, 2));
  const other = hour % 12 === 0 ? undefined : `${String((hour + 12) % 24).padStart(2, "0")}${said.slice(2)}`;
  const inDay = (time: string) => time >= times[0]!.start && time <= times.at(-1)!.start;
  const inside = [said, ...(other === undefined ? [] : [other])].filter(inDay);
  // (The overview's tasks as the matcher reads them: listed only for a bare hour, not for every request planned.)
  const own = ownPlace(request.task, overview ? listedOf(overview).all : [], times);
  // On today (its own day, no other said, or today said), a half the clock has passed is no choice while another is.
  const { only } = request.where;
  const today = isEmptySelection(only)
    ? own !== undefined && facts.dates.get(own.day) === facts.now?.date
    : only.weekdays.length === 0 &&
      only.days.length === 0 &&
      only.dates?.length === 1 &&
      only.dates[0]!.kind === "offset" &&
      only.dates[0]!.days === 0;
  const ahead = today && facts.now ? inside.filter((time) => time > facts.now!.time) : inside;
  const halves = ahead.length > 0 ? ahead : inside;
  const at =
    halves.length === 1
      ? halves[0]!
      : halves.length === 2 && own !== undefined
        ? halves.reduce((best, time) => (distance(time, own.time) < distance(best, own.time) ? time : best))
        : said;
  return { ...unmarked, where: { ...unmarked.where, slots: { ...slots, at } } };
}

/** The day and clock time a placed task named by `phrase` starts at, when one task matches it. */
function ownPlace(phrase: string, placed: readonly ListedTask[], times: readonly { start: string }[]) {
  const match = matchTask(phrase, placed);
  const first = match && match.alsoMatching.length === 0 ? match.task.slots[0] : undefined;
  const time = first ? times[first.start - 1]?.start : undefined;
  return first && time !== undefined ? { day: first.day, time } : undefined;
}

/** Minutes between two clock times ("HH:MM"). */
const distance = (a: string, b: string) => Math.abs(minutesOf(a) - minutesOf(b));

/** A move's shift in a step's words, read back by the request parser: "1 day later", "往后推1天", "later the same day". */
export function shiftWords(shift: MoveShift, language: Language): string {
  if ("sameDay" in shift)
    return shift.sameDay === "later"
      ? say(language, "later the same day", "挪到当天晚些时候")
      : say(language, "earlier the same day", "挪到当天早些时候");
  const [amount, unit, unitZh] = "days" in shift ? [shift.days, "day", "天"] : [shift.minutes, "minute", "分钟"];
  const size = Math.abs(amount);
  return language === "zh"
    ? `${amount > 0 ? "往后推" : "提前"}${size}${unitZh}`
    : `${size} ${unit}${size === 1 ? "" : "s"} ${amount > 0 ? "later" : "earlier"}`;
}

const MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A day a plan step names, as the student reads it: by weekday and date in a dated window — "Thursday, Mar 14",
 * "3月14日周四", which the request reader takes back as that one date (`readDays`) — else by weekday and the day's
 * number ("Thursday (day 4)", "周四（第4天）"), which it takes back as that day.
 */
export function stepDay(day: number, facts: WeekFacts, language: Language): string {
  const date = facts.dates.get(day);
  if (date === undefined) return dayLabelIn(day, (candidate) => weekdayOf(facts, candidate), language);
  if (language === "zh") return formatDate(date, "zh");
  const [, month = 1, dayOfMonth = 1] = date.split("-").map(Number);
  return `${weekdayName(dayOfWeekOfDate(date), "en")}, ${MONTHS_EN[month - 1]} ${dayOfMonth}`;
}

/**
 * The part of the one day an arrangement keeps free ("arrange my reviews but not tonight", "not Friday evening"):
 * that day's other parts are still used. With more days ruled out ("not Friday or Saturday evening") which of them the
 * part was said of is not told, so each is kept free whole — the safe side.
 */
export function partKeptFree(where: Where, facts: WeekFacts): PartOfDay | undefined {
  return where.notDaysPart !== undefined && resolveDays(where.not, facts).length === 1 ? where.notDaysPart : undefined;
}

/**
 * "on Monday, Mar 11, in the evening (slots 9-12), not on Tuesday", or "" for anywhere; an arrangement's says the part
 * of the one day it keeps free ("not on Tuesday evening", `partKeptFree`).
 */
export function whereText(where: Where, facts: WeekFacts, purpose: "use" | "move" | "arrange" = "use"): string {
  const parts: string[] = [];
  const label = (day: number) => dayLabel(day, (candidate) => weekdayOf(facts, candidate));
  // A move goes to one of the days ("to Friday, Mar 15 or Saturday, Mar 16"): the step finds the place among them (to
  // every day of the week shown, too: a review already in it is where it was asked to go).
  const days = resolveDays(where.only, facts);
  if (days.length > 0)
    parts.push(
      `${purpose === "move" ? "" : "on "}${days.map((day) => stepDay(day, facts, "en")).join(purpose === "move" ? " or " : " and ")}`,
    );
  // The day of another task or event (`the day before "Physics lab"`): said first, what limits the slots after it.
  if (purpose === "move" && where.dayOf)
    parts.unshift(`${dayOfWords(where.dayOf.offset, "en")} ${JSON.stringify(where.dayOf.anchor)}`);
  // A part of the day ruled out is said as it was ("not in the morning"), after the rest: a range of slots would read
  // back as an exact start.
  const { notPart, ...slots } = where.slots;
  // A clock time named ("to Sunday 14:00", "at 2pm"): the time itself ("Sunday, Mar 17, at 14:00").
  if (purpose === "move" && where.next) {
    // Next to another task or event: `right after "matrix review"` (on the days named, when any are).
    // (A day's first or last class: "right after your last class".)
    parts.push(`right ${where.next.side} ${anchorWords(where.next.anchor, "en")}`);
  } else if (purpose === "move" && slots.at !== undefined) {
    parts.push(`at ${slots.at}`);
  } else if (purpose === "move" && slots.sameTime) {
    // "to the same time on Friday": the time the task has when the step runs ("Friday, Mar 15, at the same time").
    parts.push("at the same time");
  } else if (purpose === "move" && slots.from !== undefined && !slots.part) {
    parts.push(slots.to === undefined ? `slot ${slots.from}` : `slots ${slots.from}-${slots.to}`);
  } else if (limitsSlots(slots)) {
    const range = slotRangeOf(slots, facts);
    parts.push(
      slots.part ? `in the ${slots.part} (slots ${range.from}-${range.to})` : `in slots ${range.from}-${range.to}`,
    );
  }
  // "as soon as possible": the first free start from the clock on, of what the rest allows.
  if (purpose === "move" && slots.soonest) parts.push("the earliest free slot");
  if (notPart) parts.push(`not in the ${notPart}`);
  // Days to keep free by weekday, as the Chinese step says them, in a window of one week (where a weekday is one
  // day); in a longer one by weekday and number, so that the step is read back as the days meant.
  const not = resolveDays(where.not, facts);
  const oneWeek = (facts.totalDays ?? 7) <= 7;
  const partOut = purpose === "arrange" ? partKeptFree(where, facts) : undefined;
  if (not.length > 0)
    parts.push(
      `not on ${[...new Set(not.map((day) => (oneWeek ? weekdayName(weekdayOf(facts, day), "en") : label(day))))].join(" and ")}${partOut ? ` ${partOut}` : ""}`,
    );
  if (where.before) parts.push(`before the ${where.before}`);
  // "Move X to the evening": no day, so no "in".
  if (purpose === "move" && days.length === 0 && parts[0]?.startsWith("in the "))
    parts[0] = parts[0].slice("in ".length);
  // "Move X to 14:00": no day, no "at".
  if (purpose === "move" && days.length === 0 && slots.at !== undefined && parts[0] === `at ${slots.at}`)
    parts[0] = slots.at;
  return parts.join(", ");
}
