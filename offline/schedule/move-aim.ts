/**
 * Where a move step aims: the days its task may go to — the step's where, less the days to leave or the side to move
 * away from, an anchor's day, or the day a shift lands on — once the task is known (`move-step.ts`).
 */
import { formatRange } from "../../tools/schedule/format.js";
import type { SlotRange } from "../../tools/schedule/state.js";
import type { ListedTask } from "../../tools/schedule/tools/index.js";
import { finish, type Decision, type Finish } from "../decisions.js";
import { toolDataOf, notCarriedOut } from "./tool-data.js";
import { say, type Language } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import { isEmptySelection, type MoveShift, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import type { TaskMatch } from "./task-matching.js";
import {
  datingOf,
  shiftSaid,
  datedDay,
  dayName,
  dayOfWords,
  placeWords,
  resolveDays,
  todayOf,
  type WeekFacts,
} from "./week-facts.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";
import { label, nameOf } from "./task-lookup.js";
import { REFUSAL_TOLD_IN_ANSWER } from "./step-endings.js";
import {
  allowedDays,
  comingOccurrence,
  constraintsFrom,
  noAnchorSaid,
  noPlaceToMoveFrom,
  startedWhy,
  type Constraints,
} from "./move-places.js";

export type MoveRequest = Extract<ScheduleRequest, { kind: "move" }>;
export type FreeRead = NonNullable<ReturnType<typeof toolDataOf<"find_free">>>;

/** A step that ends before it proposes: its decision, said or asked. */
export interface Ended {
  ended: Decision;
}

/** What a move step works with once its task is known. */
export interface MoveTurn {
  rounds: RoundView[];
  request: MoveRequest;
  facts: WeekFacts;
  end: Finish;
  language: Language;
  tasks: ListedTask[];
  match: TaskMatch;
  task: ListedTask;
  /** A review without a place — pending, or missed (its time passed) — is placed where the move says. */
  tool: "place" | "move";
  current: SlotRange | undefined;
  /** The step's writes turned down so far (their feedback narrows where the task may go). */
  rejected: RoundView[];
}

export /** Where the step's words (and the feedback on its cards) let the task go. */
interface MoveAim {
  days: number[] | undefined;
  constraints: Constraints;
  /** The shift asked ("back a day"), unless a rejection's feedback or a move to today took over. */
  shift: MoveShift | undefined;
  shiftedDay: number | undefined;
}

/**
 * The days the task may go to: the step's where, less the days it is to leave or the side it is to move away from,
 * the day of an anchor ("the day before the physics lab"), or the day a shift lands on — or why there is none.
 */
export function aimOf(turn: MoveTurn): Ended | MoveAim {
  const { request, facts, end, language, tasks, task, current, rejected } = turn;
  const ended = (decision: Decision) => ({ ended: decision });
  // "To another day": any day but the one it is on now.
  // "Move the essay off Tuesday", "I can't do the essay today" when it is not on that day (or has no place): nothing
  // to move off — said, and no card (before, it moved from wherever it was).
  const leaving = request.leaves && rejected.length === 0 ? resolveDays(request.where.not, facts) : [];
  if (leaving.length > 0 && !task.slots.some((range) => leaving.includes(range.day))) {
    // Written as the tools write days and places (the answer reads it in the user's language), and said once there.
    const subject = label(task, "en");
    const days = leaving.map((day) => datedDay(day, facts)).join(" or ");
    const refusal = current
      ? saySummary("en", "notOnDays", { subject, days, where: formatRange(current, datingOf(facts)) })
      : saySummary("en", "noPlaceNotOnDays", { subject, days });
    return ended(finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusal)));
  }
  // "To an earlier / a later day": every day on the other side of its own is ruled out too.
  const total = facts.totalDays ?? 7;
  const awayDays = !current
    ? []
    : request.dayward === "earlier"
      ? Array.from({ length: total - current.day + 1 }, (_, index) => current.day + index)
      : request.dayward === "later"
        ? Array.from({ length: current.day }, (_, index) => index + 1)
        : [current.day];
  // "The day before the physics lab", "期中考试的前一天": that day of the anchor's first in the week shown whose day
  // has not passed (the day before Thursday's lecture on a Tuesday, not before Monday's).
  const dayOf = request.where.dayOf;
  const occurrence = dayOf ? comingOccurrence(dayOf, task, tasks, todayOf(facts)) : undefined;
  const dayOfDay = dayOf && occurrence ? occurrence.day + dayOf.offset : undefined;
  const onDayOf =
    rejected.length > 0 &&
    dayOfDay !== undefined &&
    dayOfDay >= 1 &&
    dayOfDay <= total &&
    isEmptySelection(request.where.only);
  const target =
    request.otherDay && current
      ? { ...request.where, not: { ...request.where.not, days: [...request.where.not.days, ...awayDays] } }
      : // (Feedback on its card, "in the evening", is of that day, unless it names another.)
        onDayOf
        ? { ...request.where, only: { weekdays: [], days: [dayOfDay] } }
        : request.where;
  const constraints = constraintsFrom(rejected, target);
  let days = allowedDays(constraints.where, facts);
  // "To an earlier day" from the schedule's first day (a later one from its last): no day that way — said, no card
  // (a review already started says that first, as for any move).
  if (rejected.length === 0 && current && awayDays.length === total && request.dayward) {
    const why =
      startedWhy(task, current, facts) ??
      saySummary("en", request.dayward === "earlier" ? "noEarlierDay" : "noLaterDay", {
        subject: label(task, "en"),
        where: formatRange(current, datingOf(facts)),
      });
    return ended(finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(why)));
  }
  // "to the evening" with no day keeps the task's day ("to another day in the evening" does not, nor "to the next free
  // evening": the first evening with room, from the clock on).
  if (
    isEmptySelection(constraints.where.only) &&
    current &&
    !request.otherDay &&
    !constraints.where.slots.soonest &&
    (constraints.where.slots.part ||
      constraints.where.slots.from !== undefined ||
      constraints.where.slots.at !== undefined)
  )
    days = [current.day].filter((day) => !constraints.notDays.has(day));
  if (dayOf && rejected.length === 0) {
    const anchor = JSON.stringify(dayOf.anchor);
    if (!occurrence)
      return ended(
        finish(end, noAnchorSaid(anchor, task, language), notCarriedOut(saySummary("en", "noAnchorMatch", { anchor }))),
      );
    const day = occurrence.day + dayOf.offset;
    if (day < 1 || day > total) {
      const way = dayOfWords(dayOf.offset, "en");
      const wayZh = dayOfWords(dayOf.offset, "zh");
      return ended(
        finish(
          end,
          say(
            language,
            `${anchor} is on ${dayName(occurrence.day, facts, "en")}; ${way} it is outside your schedule (day 1 to day ${total}), so ${nameOf(task)} stays where it is.`,
            `${anchor}在${dayName(occurrence.day, facts, "zh")}，它的${wayZh}超出了日程范围（第1天到第${total}天），${nameOf(task)}保持不动。`,
          ),
          notCarriedOut(saySummary("en", "outsideSchedule", { shift: `${way} ${anchor}` })),
        ),
      );
    }
    days = [day].filter((each) => !constraints.notDays.has(each));
  }
  return shiftAim(turn, days, constraints);
}

/** The shift asked ("back a day", "an hour later") and the day it lands on, or why it cannot be made. */
function shiftAim(turn: MoveTurn, aimed: number[] | undefined, constraints: Constraints): Ended | MoveAim {
  const { request, facts, end, language, task, current, rejected } = turn;
  const total = facts.totalDays ?? 7;
  const ended = (decision: Decision) => ({ ended: decision });
  let days = aimed;
  // A shift ("back a day", "an hour later", "往后推一天") starts from the task's own place, on the day it lands on; after
  // a rejection the feedback's limits take over (`constraints`), as for any move.
  // "Later today" of a review on another day (or with no place): a move to today, from the clock — not later on its
  // own day. ("Earlier today" is behind the clock: the shift on its own day, as before.)
  const toToday =
    request.shift !== undefined &&
    "sameDay" in request.shift &&
    request.shift.sameDay === "later" &&
    days !== undefined &&
    days.length === 1 &&
    days[0] !== current?.day;
  const shift = rejected.length === 0 && !toToday ? request.shift : undefined;
  if (shift && !current)
    return ended(
      finish(
        end,
        say(
          language,
          `${label(task, language)} has no place yet, so there is nothing to move ${shiftSaid(shift, "en")}; say where to put it ("schedule ${task.name} on Friday").`,
          `${label(task, language)} 还没有安排时间，没法${shiftSaid(shift, "zh")}；请说要放在哪里（如“把${task.name}安排到周五”）。`,
        ),
        notCarriedOut(noPlaceToMoveFrom(task)),
      ),
    );
  const shiftedDay = shift && current ? current.day + ("days" in shift ? shift.days : 0) : undefined;
  if (shiftedDay !== undefined) {
    if (shiftedDay < 1 || shiftedDay > total)
      return ended(
        finish(
          end,
          say(
            language,
            `${label(task, language)} is on ${placeWords(current!, facts, language)}; ${shiftSaid(shift!, "en")} is outside your schedule (day 1 to day ${total}), so it stays where it is.`,
            `从${placeWords(current!, facts, language)}${shiftSaid(shift!, "zh")}就超出了日程范围（第1天到第${total}天），${label(task, language)}保持不动。`,
          ),
          notCarriedOut(saySummary("en", "outsideSchedule", { shift: shiftSaid(shift!, "en") })),
        ),
      );
    days = [shiftedDay];
  }
  return { days, constraints, shift, shiftedDay };
}
