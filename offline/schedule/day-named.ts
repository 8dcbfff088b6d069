/**
 * Reviews named by their day ("Thursday's review", "tomorrow's review", "周四的复习", "明天的复习"): the placed reviews
 * of that day the rest of the words name — each of them, when the words name only the kind of session — and the
 * question which of them, when the day holds several.
 */
import { addDays, dayOfWeekOfDate } from "../../contracts/clock.js";
import { PART_OF_DAY_ZH, say, weekdayName, type Language } from "../../contracts/language.js";
import { splitNamingDay, splitPartOfDay, type PartOfDay } from "../../tools/schedule/request-parsing.js";
import type { ListedTask } from "../../tools/schedule/tools/index.js";
import type { Decision } from "../decisions.js";
import { matchTasks, namesKindOnly } from "./task-matching.js";
import { hasStarted, slotRangeOf, weekdayOf, type WeekFacts } from "./week-facts.js";

/** The weekday a phrase names its task by, the clock making one of a day from today; undefined when it names none. */
export function namingWeekday(phrase: string, facts: Pick<WeekFacts, "now">): number | undefined {
  const named = splitNamingDay(phrase);
  if (!named) return undefined;
  if (named.weekday !== undefined) return named.weekday;
  return named.fromToday !== undefined && facts.now
    ? dayOfWeekOfDate(addDays(facts.now.date, named.fromToday))
    : undefined;
}

/**
 * The placed reviews `phrase` names by their day, and that weekday; undefined when the phrase names no day, or no
 * weekday can be told (a day from today with no clock).
 */
export function reviewsNamedByDay(
  phrase: string,
  tasks: readonly ListedTask[],
  facts: WeekFacts,
): DayNamed | undefined {
  const weekday = namingWeekday(phrase, facts);
  if (weekday === undefined) return undefined;
  // "Thursday morning's reviews", "明天上午的复习": those that begin in that part of the day. (Before, "morning's
  // reviews" matched no review of Thursday, and the answer said none was placed there.)
  // ("周四的复习都挪到下午": the "all" after the reviews names none of them — before, none of Thursday's matched it.)
  const { part, rest: words } = splitPartOfDay(splitNamingDay(phrase)!.rest);
  const rest = words.replace(/\s*(?:全都|全部|都)$/, "");
  const window = part ? slotRangeOf({ part }, facts) : undefined;
  // A review marked missed that day is named by it too ("I missed Tuesday's review, put it on Saturday"): its place
  // is on record, and a move places it again.
  const onDay = tasks.filter(
    (task) =>
      (task.kind === "placed" &&
        task.slots.some(
          (range) =>
            weekdayOf(facts, range.day) === weekday &&
            (!window || (range.start >= window.from && range.start <= window.to)),
        )) ||
      (task.kind === "missed" && !part && task.was?.dayOfWeek === weekday),
  );
  const reviews = rest === "" || namesKindOnly(rest) ? onDay : matchTasks(rest, onDay);
  return { weekday, ...(part ? { part } : {}), reviews };
}

/** Reviews named by their day: the weekday, the part of it when one was said, and the reviews there. */
export interface DayNamed {
  weekday: number;
  part?: PartOfDay;
  reviews: ListedTask[];
}

/** The day the words named, as said back: "Thursday", "Thursday morning", "周四上午". */
export function dayNamedIn(named: Pick<DayNamed, "weekday" | "part">, language: Language): string {
  const weekday = weekdayName(named.weekday, language);
  if (!named.part) return weekday;
  return language === "zh" ? `${weekday}${PART_OF_DAY_ZH[named.part]}` : `${weekday} ${named.part}`;
}

/**
 * The placed reviews a phrase that names only the kind of session stands for ("the review", "my reviews", "复习"):
 * every placed review still ahead of the clock (one that has started stays where it is: the past is fixed), or every
 * placed review when each has started — never the first whose name holds the word. Undefined for any other phrase,
 * and for a task whose own name or id the phrase is.
 */
export function reviewsNamedByKind(
  phrase: string,
  tasks: readonly ListedTask[],
  facts: WeekFacts,
): ListedTask[] | undefined {
  const said = phrase.trim().toLowerCase();
  if (said === "" || !namesKindOnly(said)) return undefined;
  if (tasks.some((task) => task.name.toLowerCase() === said || task.id.toLowerCase() === said)) return undefined;
  const placed = tasks.filter((task) => task.kind === "placed");
  const ahead = placed.filter((task) => !hasStarted(task.slots[0]!, facts));
  return ahead.length > 0 ? ahead : placed;
}

/** The question which of a day's reviews (no day: of the placed ones) is meant; its answer names one, by name or id. */
export function whichReviewOfDay(
  weekday: number | undefined,
  reviews: readonly ListedTask[],
  language: Language,
  reason = "the request names a weekday that holds several reviews",
): Decision {
  const listed = reviews.map((task) => `${task.name} (${task.id})`).join(language === "zh" ? "、" : ", ");
  const ask = say(
    language,
    "Which one do you mean? Answer with its name or id.",
    "你指的是哪一个？请回答任务名称或 id。",
  );
  if (weekday === undefined)
    return {
      speak: say(
        language,
        `You have ${reviews.length} reviews placed: ${listed}. ${ask}`,
        `你有 ${reviews.length} 个已安排的复习：${listed}。${ask}`,
      ),
      action: "ask_user",
      reason: "the request names the kind of session, not a review",
    };
  const day = weekdayName(weekday, language);
  return {
    speak: say(
      language,
      `${day} holds ${reviews.length} reviews: ${listed}. ${ask}`,
      `${day}有 ${reviews.length} 个复习：${listed}。${ask}`,
    ),
    action: "ask_user",
    reason,
  };
}
