/**
 * Steps that take something off the week: unplace a placed task, and remove an event of the timetable (one match
 * proposed, several asked about, none said).
 */
import { unplacedText, type ListedTask } from "../../tools/schedule/tools/index.js";
import { finish, propose, type Decision, type Finish, type Then } from "../decisions.js";
import { notCarriedOut } from "./tool-data.js";
import { say } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import {
  normalizeText,
  splitNamingDay,
  splitWeekday,
  taskPhrase,
  type ScheduleRequest,
} from "../../tools/schedule/request-parsing.js";
import { formatRange } from "../../tools/schedule/format.js";
import { matchTask, matchTokens } from "./task-matching.js";
import { datedDay, datingOf, placeWords, weekdayOf, type WeekFacts } from "./week-facts.js";
import { saySummary } from "../../tools/schedule/summary-phrases.js";
import { dayNamedIn, reviewsNamedByDay, whichReviewOfDay } from "./day-named.js";
import { ambiguity, type Asked, label, listingOf, lookUpTask, namedTask, nameOf } from "./task-lookup.js";
import { noTaskFound, noTaskMatching, REFUSAL_TOLD_IN_ANSWER, writeEnding } from "./step-endings.js";

/** Unplace: find the placed task item, propose unplace. */
export function unplaceStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "unplace" }>,
  end: Finish,
  asked: Asked,
  facts: WeekFacts,
): Decision {
  const { language } = asked;
  const dating = datingOf(facts);
  const answered = writeEnding(rounds, ["unplace"], end, dating, language);
  if (answered) return answered;
  const tasks = listingOf(rounds);
  if (!tasks) return lookUpTask(request.task, language);
  // A review named by the day it is taken off ("friday's essay", "remove the essay from Friday"): only if it is there
  // (before, the day was read as part of its name, or the review was taken off whatever day it was on).
  const placed = tasks.filter((task) => task.kind === "placed");
  const byDay = matchTask(request.task, tasks) ? undefined : reviewsNamedByDay(request.task, placed, facts);
  if (byDay?.reviews.length === 0) {
    // The review is on another day: said where, as a move off a day it is not on is.
    const rest = splitNamingDay(request.task)?.rest ?? "";
    const elsewhere = rest === "" ? undefined : matchTask(rest, placed)?.task;
    if (elsewhere?.slots[0]) {
      const refusal = saySummary("en", "notOnDayToTakeOff", {
        subject: label(elsewhere, "en"),
        // (Dated as the tools write days, so the answer reads it in the user's language.)
        days: Array.from({ length: facts.totalDays ?? 7 }, (_, index) => index + 1)
          .filter((day) => weekdayOf(facts, day) === byDay.weekday)
          .map((day) => datedDay(day, facts))
          .join(" or "),
        where: formatRange(elsewhere.slots[0], dating),
      });
      return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusal));
    }
    const weekday = dayNamedIn(byDay, language);
    return finish(
      end,
      say(
        language,
        `No such review is placed on ${weekday}, so nothing was taken off.`,
        `${weekday}没有安排这个复习，所以没有撤下任何任务。`,
      ),
      notCarriedOut(saySummary("en", "noReviewOnDay", { weekday: dayNamedIn(byDay, "en") })),
    );
  }
  if (byDay && byDay.reviews.length > 1 && asked.answer === undefined)
    return whichReviewOfDay(byDay.weekday, byDay.reviews, language);
  const named = namedTask(
    byDay?.reviews.length === 1 ? byDay.reviews[0]!.id : request.task,
    byDay ? byDay.reviews : placed,
    tasks,
    asked,
    "the step names no task the schedule has",
  );
  if ("question" in named) return named.question;
  if ("none" in named) return finish(end, noTaskMatching(named.none, language), notCarriedOut(noTaskFound(named.none)));
  const { match } = named;
  if (match.task.kind !== "placed") {
    const why = match.task.kind === "pending" ? "pendingAlready" : "onlyReviewsUnplaced";
    return finish(
      end,
      say(
        language,
        `${label(match.task, language)} cannot be unplaced: ${saySummary("en", why)}.`,
        `${label(match.task, language)} 不能撤下：${saySummary("zh", why)}。`,
      ),
      notCarriedOut(
        saySummary("en", "cannotUnplace", { subject: label(match.task, "en"), unplaceWhy: saySummary("en", why) }),
      ),
    );
  }
  const { task } = match;
  // What unplace reports once it applies as proposed.
  const then: Then | undefined = task.slots[0]
    ? {
        action: end,
        goalCheck: unplacedText(
          { id: task.id, from: task.slots[0], ...(task.hostId ? { hostId: task.hostId } : {}) },
          dating,
        ),
      }
    : undefined;
  return propose(
    say(
      language,
      `Taking ${label(task, language)} off the schedule${ambiguity(match, language)}.`,
      `把${label(task, language)}从日程上撤下${ambiguity(match, language)}。`,
    ),
    "unplace",
    { task_id: task.id },
    say(language, "the task the request names", "请求指定的任务"),
    then,
  );
}

/**
 * Remove a timetable event (`remove_event`): the events the step's words name — on the weekday they name, if any
 * ("friday tutorial") — and, when several match, the one the user's answer picks. One match is proposed (the card says
 * what goes: a series goes whole); several are asked about, never guessed; none is said.
 */
export function removeEventStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "remove_event" }>,
  facts: WeekFacts,
  end: Finish,
  asked: Asked,
): Decision {
  const { language } = asked;
  const answered = writeEnding(rounds, ["remove_event"], end, datingOf(facts), language);
  if (answered) return answered;
  const tasks = listingOf(rounds);
  if (!tasks) return lookUpTask(request.event, language);
  const events = tasks.filter((task) => task.kind === "event");
  const named = eventsNamed(request.event, events, facts);
  const chosen =
    asked.answer === undefined || named.length === 1
      ? named
      : eventsNamed(taskPhrase(normalizeText(asked.answer)), named.length > 0 ? named : events, facts);
  const event = chosen.length === 1 ? chosen[0] : undefined;
  if (event)
    return propose(
      say(
        language,
        `Removing ${label(event, language)} from the timetable.`,
        `从课表中删除${label(event, language)}。`,
      ),
      "remove_event",
      { event_id: event.id },
      say(language, "the event the request names", "请求指定的活动"),
    );
  // An answer is asked for once: one that settles nothing ends the step, said, never asked again.
  if (asked.answer !== undefined) {
    const phrase = `"${request.event}" or "${asked.answer}"`;
    const ids = chosen.map((task) => task.id).join(", ");
    return chosen.length === 0
      ? finish(
          end,
          say(language, `I found no event matching ${phrase}.`, `我没有找到与 ${phrase} 匹配的活动。`),
          notCarriedOut(saySummary("en", "noEventFound", { matching: phrase })),
        )
      : finish(
          end,
          say(
            language,
            `${phrase} still matches ${chosen.length} events (${ids}); name one by its id to remove it.`,
            `${phrase} 仍匹配 ${chosen.length} 个活动（${ids}）；请用 id 指明要删除哪一个。`,
          ),
          notCarriedOut(saySummary("en", "matchesEvents", { matching: phrase, count: chosen.length, ids })),
        );
  }
  // Several match ("the linear algebra lecture" on Tuesday and Thursday), or none: which one, by its day or id.
  const among = (chosen.length > 0 ? chosen : events).slice(0, 8);
  const choices = among
    .map((task) => {
      const at = task.slots[0];
      // Named and dated as a person tells them apart (an answer naming its id is read too, but none is shown).
      return at
        ? say(
            language,
            `${nameOf(task)} (${placeWords(at, facts, language)})`,
            `${nameOf(task)}（${placeWords(at, facts, language)}）`,
          )
        : nameOf(task);
    })
    .join(say(language, "; ", "；"));
  const speak =
    chosen.length > 0
      ? say(
          language,
          `"${request.event}" matches ${chosen.length} events: ${choices}. Which one should go? Answer with its day.`,
          `“${request.event}”匹配 ${chosen.length} 个活动：${choices}。要删除哪一个？请回答它的日期。`,
        )
      : say(
          language,
          `I found no event matching "${request.event}". Which event do you mean? Answer with its name, for example: ${choices}.`,
          `我没有找到与“${request.event}”匹配的活动。你指的是哪个活动？请回答名称，例如：${choices}。`,
        );
  return { speak, action: "ask_user", reason: "the step's words name no single event" };
}

/**
 * The events `phrase` names: by id, else those on the weekday it names ("friday tutorial", "周五的辅导课") that the rest
 * of it matches — every one on that weekday when the rest names nothing ("the Thursday one", "周四的").
 */
function eventsNamed(phrase: string, events: ListedTask[], facts: WeekFacts): ListedTask[] {
  const byId = events.find((task) => task.id.toLowerCase() === phrase.trim().toLowerCase());
  if (byId) return [byId];
  const { weekday, rest } = splitWeekday(phrase);
  const onDay =
    weekday === undefined
      ? events
      : events.filter((task) => task.slots.some((range) => weekdayOf(facts, range.day) === weekday));
  if (weekday !== undefined && matchTokens(rest).length === 0) return onDay;
  const match = matchTask(rest, onDay);
  return match ? [match.task, ...match.alsoMatching] : [];
}
