/**
 * A request about the reviews of days that hold none ("move tomorrow's review to the afternoon", "skip tomorrow",
 * "push today back a day", "keep Thursday evening free", "free up this evening" when nothing is placed there): there is nothing to approve, so the planner raises no plan
 * card — the step runs at once and says the day holds no review, as a read does.
 */
import type { ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { splitNamingDay } from "../../tools/schedule/request-parsing.js";
import type { GetOverviewData } from "../../tools/schedule/tools/index.js";
import { namesKindOnly } from "./task-matching.js";
import { resolveDays, slotRangeOf, weekdayOf, type WeekFacts } from "./week-facts.js";

/** The days of the window (indices) whose reviews `request` is about, when it names them by day alone; else undefined. */
function daysOfReviews(request: ScheduleRequest, facts: WeekFacts): number[] | undefined {
  const window = facts.totalDays ? Array.from({ length: facts.totalDays }, (_, index) => index + 1) : [];
  const ofWeekdays = (weekdays: readonly number[]) => window.filter((day) => weekdays.includes(weekdayOf(facts, day)));
  if (request.kind === "move" || request.kind === "unplace") {
    // "wednesday's review", "周三的复习" (a day said from today is named by its weekday by now: `withNamingWeekday`).
    const named = splitNamingDay(request.task);
    if (named?.weekday === undefined || (named.rest !== "" && !namesKindOnly(named.rest))) return undefined;
    return ofWeekdays([named.weekday]);
  }
  if (request.kind === "shift_all") {
    if (request.weekday === undefined) return undefined;
    return ofWeekdays([
      request.weekday,
      ...(request.more ?? []).flatMap((day) => ("weekday" in day ? [day.weekday] : [])),
    ]);
  }
  if (request.kind === "clear_day") return resolveDays(request.where.only, facts);
  return undefined;
}

/**
 * True when `request` is about the reviews of days on which the overview, listing every placed review and no missed
 * one, shows none placed (every weekday of the window known).
 */
export function noReviewOnItsDays(
  request: ScheduleRequest,
  overview: GetOverviewData | undefined,
  facts: WeekFacts,
): boolean {
  if (!overview || overview.placedOmitted > 0 || overview.missed > 0 || !facts.totalDays) return false;
  if (facts.weekdays.size < facts.totalDays) return false;
  const days = daysOfReviews(request, facts);
  if (!days || days.length === 0) return false;
  // ("keep Thursday evening free", "move Thursday evening's reviews to Friday": the reviews of that part of the day.)
  const part =
    request.kind === "shift_all" ? request.part : request.kind === "clear_day" ? request.where.slots.part : undefined;
  // (The part's slots as the steps that act on it take them: `slotRangeOf`.)
  const slots = part ? slotRangeOf({ part }, facts) : undefined;
  // ("everything after 3pm": the reviews that start then or later, as the shift chooses them; a window of the clock
  // kept free, "keep 2pm to 4pm free", is left to the step, which tells the reviews that reach into it.)
  if (request.kind === "shift_all" && request.endsBy !== undefined) return false;
  const startsFrom = request.kind === "shift_all" ? request.startsFrom : undefined;
  const from = startsFrom ? slotRangeOf({ startsFrom }, facts).from : undefined;
  return !overview.placedTasks.some(
    ({ place }) =>
      place !== undefined &&
      days.includes(place.day) &&
      (slots === undefined || (place.start <= slots.to && place.end >= slots.from)) &&
      (from === undefined || place.start >= from),
  );
}
