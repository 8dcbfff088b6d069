/**
 * The reviews already in place where a standing preference just said rules out. A review stays where it was put until
 * it is moved: from then on no write puts one there, but none moves it either. So when the student says "no studying
 * after 9pm" with a review at 21:45 this week, they are told which reviews sit where the preference rules out, and
 * how to move them, rather than finding out from "how is my week". A review whose place has started is history and
 * is not named.
 */
import { say, type Language } from "../../contracts/language.js";
import { placeName } from "./calendar.js";
import { boundsOn, isFixedByClock, ruleBookOf, weekdayOf, type RuleBook } from "./rules.js";
import type { ScheduleState, SlotRange, StandingRule } from "./state.js";

/**
 * The standing preference `range` breaks — the day it rules out, or the hours of the day it keeps (`range` starts before
 * the day's first slot allowed or ends after its last: "never in the morning", "no studying after 9pm", "nothing
 * before 10 on weekdays") — or undefined. For a review already in place, put there before the preference was said: no
 * write puts one there now, but none moves it either.
 */
export function standingRuleAgainst(
  range: SlotRange,
  book: Pick<RuleBook, "standing" | "weekdays">,
): StandingRule | undefined {
  const weekday = weekdayOf(range.day, book);
  const avoided = book.standing.avoid.get(weekday);
  if (avoided) return avoided;
  const bounds = boundsOn(book.standing, weekday);
  if (bounds.from && range.start < bounds.from.slot) return bounds.from.rule;
  if (bounds.to && range.end > bounds.to.slot) return bounds.to.rule;
  return undefined;
}

/** A review in place where a standing preference rules out: its name, where it is, and the preference's words. */
interface PlacedAgainst {
  name: string;
  place: string;
  rule: string;
}

/**
 * The reviews of `state` in place (and not started, by its clock) where its standing preferences rule out, in the
 * week's order, their places said in `language`.
 */
function placedAgainstOf(state: ScheduleState, language: Language): PlacedAgainst[] {
  if (!state.standing || state.standing.length === 0) return [];
  const book = ruleBookOf(state);
  const found: Array<{ range: SlotRange; rule: StandingRule; name: string }> = [];
  for (const task of state.tasks) {
    if (task.source !== "task_item" || task.status !== "placed" || isFixedByClock(task, book)) continue;
    const range = task.slots?.[0];
    const rule = range ? standingRuleAgainst(range, book) : undefined;
    if (range && rule) found.push({ range, rule, name: task.name });
  }
  // The task list's order is not the week's: by day, then by the time of day.
  return found
    .sort((one, other) => one.range.day - other.range.day || one.range.start - other.range.start)
    .map(({ range, rule, name }) => ({ name, place: placeName(state.window, range, language), rule: rule.text }));
}

/**
 * What the person is told of the reviews `placedAgainstOf` finds, in `language`, with how to move one; undefined when
 * there are none.
 */
export function placedAgainstText(state: ScheduleState, language: Language): string | undefined {
  const found = placedAgainstOf(state, language);
  if (found.length === 0) return undefined;
  const first = found[0]!.name;
  const one = found.length === 1;
  const listed = found
    .map((review) => (language === "zh" ? `“${review.name}”（${review.place}）` : `"${review.name}" (${review.place})`))
    .join(language === "zh" ? "、" : "; ");
  const rules = [...new Set(found.map((review) => review.rule))];
  const said = rules
    .map((rule) => (language === "zh" ? `“${rule}”` : `"${rule}"`))
    .join(language === "zh" ? "、" : ", ");
  return say(
    language,
    `Already in place where ${said} rules out: ${listed}. ${one ? "It stays" : "They stay"} there until you move ${one ? "it" : "them"}: say "move ${first}" and I'll find a place that keeps to your preferences.`,
    `已经安排在${said}排除的时间里：${listed}。${one ? "它" : "它们"}会留在原处，直到你挪动：说“把${first}挪走”，我会找一个符合你偏好的时间。`,
  );
}
