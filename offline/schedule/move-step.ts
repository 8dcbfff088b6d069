/**
 * The move step: find the task and room where the step says (one round of reads), propose the move (a place for a
 * pending task), and end with the write's outcome.
 */
import { formatRange } from "../../tools/schedule/format.js";
import type { SlotRange } from "../../tools/schedule/state.js";
import { movedText, placedText, type ListedTask } from "../../tools/schedule/tools/index.js";
import { finish, propose, read, readAll, type Decision, type Finish, type Then } from "../decisions.js";
import { feedbackOfResult, parseFeedback } from "../../tools/schedule/feedback.js";
import { appliedWriteText, refusalOf, callResultOf, toolDataOf, notCarriedOut } from "./tool-data.js";
import { say, type Language } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import {
  anchorWords,
  onlyExcludes,
  resolveSlotWindow,
  taskPhrase,
  type MoveShift,
  type ScheduleRequest,
} from "../../tools/schedule/request-parsing.js";
import { matchTask, type TaskMatch } from "./task-matching.js";
import { isCurrentReview, namesAnEvent } from "./grounding.js";
import { dayNamedIn, reviewsNamedByDay, reviewsNamedByKind, whichReviewOfDay } from "./day-named.js";
import { datingOf, shiftSaid, datedDay, dayName, placeWords, todayOf, type WeekFacts } from "./week-facts.js";
import { saySummary, SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";
import { emptyWindowEnding, emptyWindowWhy } from "./empty-window.js";
import { ambiguity, type Asked, label, LIST_ALL, listingOf, movable, namedTask, nameOf } from "./task-lookup.js";
import {
  lastWriteOutcome,
  noTaskFound,
  noTaskMatching,
  REFUSAL_TOLD_IN_ANSWER,
  unchangedBecause,
} from "./step-endings.js";
import {
  allowedDays,
  cannotMoveSpread,
  firstFit,
  noAnchorSaid,
  noFreeTimeShifted,
  noFreeTimeWhereAsked,
  shiftedSpot,
  slotStartingAt,
  spotNextTo,
  startedWhy,
} from "./move-places.js";

import { aimOf, type Ended, type FreeRead, type MoveAim, type MoveRequest, type MoveTurn } from "./move-aim.js";

/** The room a move needs, read beside the task's listing before the task is known: every free run where the step says. */
function moveSearchArguments(
  request: Extract<ScheduleRequest, { kind: "move" }>,
  facts: WeekFacts,
): Record<string, unknown> {
  const args: Record<string, unknown> = { min_length: 1, limit: 100 };
  // Every day asked for by name when the request names none: a search for any day leaves out the days a standing
  // preference rules out, and this is the plainly free room — a place only a preference keeps the task from (a day
  // later onto a Sunday kept free) is proposed from it, so that the write's refusal names the preference rather than
  // "no free time".
  const every = facts.totalDays ? Array.from({ length: facts.totalDays }, (_, index) => index + 1) : undefined;
  const days = allowedDays(request.where, facts) ?? every;
  if (days) args.days = days;
  return args;
}

/** The clock times of a placed review today by the run's clock (undefined for any other task, or with no clock). */
export function todaysTimesOf(facts: WeekFacts): (task: ListedTask) => { start: string; end: string } | undefined {
  const today = todayOf(facts);
  return (task) => {
    const range = task.kind === "placed" ? task.slots[0] : undefined;
    const start = range ? facts.slotTimes?.[range.start - 1]?.start : undefined;
    const end = range ? facts.slotTimes?.[range.end - 1]?.end : undefined;
    return range?.day === today && start !== undefined && end !== undefined ? { start, end } : undefined;
  };
}

/**
 * The review "it" stands for in a shift with no task named before it ("push it back a day"): the one review in
 * progress now or still to come today by the run's clock. More than one, or none (or no clock), asks which, naming
 * today's candidates; an answer to that question is the task (`namedTask` reads it).
 */
function currentReview(
  tasks: ListedTask[],
  request: Extract<ScheduleRequest, { kind: "move" }>,
  facts: WeekFacts,
  asked: Asked,
): { name: string } | { question: Decision } | undefined {
  if (asked.answer !== undefined) return undefined;
  const now = facts.now;
  const timesOf = todaysTimesOf(facts);
  const todays = now ? tasks.filter((task) => timesOf(task)) : [];
  const inProgress = todays.filter((task) => timesOf(task)!.start <= now!.time && timesOf(task)!.end > now!.time);
  const coming = todays
    .filter((task) => timesOf(task)!.start > now!.time)
    .sort((a, b) => timesOf(a)!.start.localeCompare(timesOf(b)!.start));
  const next = coming.filter((task) => timesOf(task)!.start === timesOf(coming[0]!)?.start);
  const ahead = [...inProgress, ...next];
  if (ahead.length === 1) return { name: ahead[0]!.name };
  const { language } = asked;
  // "Push it back a day" says how far; "push it to tomorrow" where, which the answer's move keeps.
  const move = request.shift ? shiftSaid(request.shift, language) : say(language, "where you asked", "移到你说的时间");
  const listed = (among: ListedTask[]) =>
    among
      .map((task) => `${JSON.stringify(task.name)} (${placeWords(task.slots[0]!, facts, language)})`)
      .join(say(language, " and ", "和"));
  const which = [
    ...(inProgress.length > 0
      ? [say(language, `in progress now: ${listed(inProgress)}`, `正在进行：${listed(inProgress)}`)]
      : []),
    ...(next.length > 0 ? [say(language, `next today: ${listed(next)}`, `今天接下来：${listed(next)}`)] : []),
  ].join(say(language, "; ", "；"));
  const speak =
    ahead.length > 1
      ? say(
          language,
          `Which review do you mean by "it"? ${which.charAt(0).toUpperCase()}${which.slice(1)}. Answer with its name, and I will move it ${move}.`,
          `你说的“它”是哪个复习？${which}。请回答任务名称，我会把它${move}。`,
        )
      : say(
          language,
          `Which review do you mean by "it"? No review is in progress or still to come today. Answer with its name or id (${tasks
            .filter((task) => task.kind === "placed")
            .slice(0, 6)
            .map((task) => task.name)
            .join(", ")}), and I will move it ${move}.`,
          `你说的“它”是哪个复习？今天没有正在进行或还没开始的复习。请回答任务名称或 id（${tasks
            .filter((task) => task.kind === "placed")
            .slice(0, 6)
            .map((task) => task.name)
            .join("、")}），我会把它${move}。`,
        );
  return { question: { speak, action: "ask_user", reason: 'no task was named before "it"' } };
}

/** The free time shown since the step's last proposal. */
interface MoveRoom {
  /** The last search since the last proposal (for the task or not). */
  search: RoundView | undefined;
  /** The search for the task itself, when one was made. */
  found: FreeRead | undefined;
  /** The places the task may take on the step's days, when a search for it shows them all. */
  runs: FreeRead["runs"] | undefined;
  /** The plainly free runs of the step's days (the first search's). */
  freeRuns: FreeRead["runs"];
}

/** Move: find the task and room where the step says (one round of reads), propose move (place for a pending task). */
export function moveStep(
  rounds: RoundView[],
  request: MoveRequest,
  facts: WeekFacts,
  end: Finish,
  asked: Asked,
  placing = false,
): Decision {
  const { language } = asked;
  const rejected = rounds.filter(
    (round) => (round.name === "move" || round.name === "place") && callResultOf(round) === "rejected",
  );
  const written = writeEnding(rounds, rejected, end, language, facts);
  if (written) return written;
  const tasks = listingOf(rounds);
  if (!tasks) {
    // The task and the free room in one round: the room is read for every length and narrowed once the task is known.
    return readAll(
      say(
        language,
        `Looking up ${JSON.stringify(request.task)} and the free time.`,
        `正在查找 ${JSON.stringify(request.task)} 和空闲时间。`,
      ),
      [
        { name: "list_tasks", arguments: LIST_ALL },
        { name: "find_free", arguments: moveSearchArguments(request, facts) },
      ],
      "need the task's id, length and place, and room that fits it",
    );
  }
  const chosen = taskToMove(tasks, request, facts, end, asked, placing);
  if ("ended" in chosen) return chosen.ended;
  const { match } = chosen;
  const { task } = match;
  const turn: MoveTurn = {
    rounds,
    request,
    facts,
    end,
    language,
    tasks,
    match,
    task,
    tool: task.kind === "pending" || task.kind === "missed" ? "place" : "move",
    current: task.slots[0],
    rejected,
  };
  const aim = aimOf(turn);
  if ("ended" in aim) return aim.ended;
  const room = roomShown(turn, aim.days);
  if ("ended" in room) return room.ended;
  return placeNamed(turn, aim, room) ?? freePlace(turn, aim, room);
}

/** The step's end once its last write applied, failed, or was turned down with no limit to follow (or three times). */
function writeEnding(
  rounds: RoundView[],
  rejected: RoundView[],
  end: Finish,
  language: Language,
  facts: WeekFacts,
): Decision | undefined {
  const outcome = lastWriteOutcome(rounds, ["move", "place"]);
  if (outcome?.outcome === "applied") return finish(end, "", appliedWriteText(outcome.round, datingOf(facts)));
  if (outcome?.outcome === "failed")
    return finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusalOf(outcome.round, "en", datingOf(facts))));
  if (outcome?.outcome === "rejected") {
    const feedback = parseFeedback(feedbackOfResult(outcome.round.result));
    if (feedback.kind !== "constrain" || rejected.length >= 3)
      return finish(
        end,
        unchangedBecause(feedback, language),
        notCarriedOut(`${SUMMARY_WORDS.en.rejectedMove}${feedback.kind === "unclear" ? ` ("${feedback.text}")` : ""}`),
      );
  }
  return undefined;
}

/** The task the step moves, of the listing: by "it", by a day or kind of review, or by name — or the question which. */
function taskToMove(
  tasks: ListedTask[],
  request: MoveRequest,
  facts: WeekFacts,
  end: Finish,
  asked: Asked,
  placing: boolean,
): Ended | { match: TaskMatch } {
  const { language } = asked;
  const meant = isCurrentReview(request.task) ? currentReview(tasks, request, facts, asked) : undefined;
  if (meant && "question" in meant) return { ended: meant.question };
  const phrase = meant?.name ?? request.task;
  // A review's name that shares a word with an event's ("vocabulary list", "English listening") names the review: an
  // event is looked at first only when the words read as one ("the vocabulary quiz"), and a request to place a review
  // (`placing`: one at a clock time) never takes an event.
  const eventsFirst = !placing && namesAnEvent(phrase);
  const reviews = tasks.filter((task) => task.kind !== "event");
  // "Move Thursday's review to Friday", "明天的复习推迟一天": the review placed that day, or the question which of them.
  // "Move the review to Friday", "把复习移到周五": which of the placed reviews (not the first whose name says "review").
  const byKind = placing ? undefined : reviewsNamedByKind(phrase, tasks, facts);
  const byDay = byKind
    ? { weekday: undefined, reviews: byKind }
    : matchTask(phrase, tasks)
      ? undefined
      : reviewsNamedByDay(phrase, tasks, facts);
  if (byDay?.reviews.length === 0 && byDay.weekday !== undefined) {
    const weekday = dayNamedIn(byDay, language);
    return {
      ended: finish(
        end,
        say(
          language,
          `No review is placed on ${weekday}, so nothing was moved.`,
          `${weekday}没有安排复习，所以没有移动任何任务。`,
        ),
        notCarriedOut(saySummary("en", "noReviewOnDay", { weekday: dayNamedIn(byDay, "en") })),
      ),
    };
  }
  if (byDay && byDay.reviews.length > 1 && asked.answer === undefined)
    return { ended: whichReviewOfDay(byDay.weekday, byDay.reviews, language) };
  // The answer to which of them names one (the request's own words name none of them apart).
  const answered =
    byDay && byDay.reviews.length > 1 && asked.answer !== undefined
      ? (matchTask(taskPhrase(asked.answer), byDay.reviews) ?? matchTask(taskPhrase(asked.answer), tasks))
      : undefined;
  const named = namedTask(
    byDay?.reviews.length === 1 ? byDay.reviews[0]!.id : (answered?.task.id ?? phrase),
    byDay ? byDay.reviews : tasks.filter((task) => movable(task) && (eventsFirst || task.kind !== "event")),
    placing || (!eventsFirst && matchTask(phrase, reviews)) ? reviews : tasks,
    asked,
    "the step names no task the schedule has",
  );
  if ("question" in named) return { ended: named.question };
  if ("none" in named)
    return { ended: finish(end, noTaskMatching(named.none, language), notCarriedOut(noTaskFound(named.none))) };
  const { task } = named.match;
  if (task.kind === "event" && !movable(task)) {
    return {
      ended: finish(
        end,
        say(
          language,
          `${label(task, language)} cannot move: it is not on a single slot range.`,
          `${label(task, language)} 不能移动：它不在单一的连续时段上。`,
        ),
        notCarriedOut(cannotMoveSpread(task)),
      ),
    };
  }
  return { match: named.match };
}

/** The free time read since the step's last proposal, of the step's days; a search that says the task's place has started ends the step. */
function roomShown(turn: MoveTurn, days: number[] | undefined): Ended | MoveRoom {
  const { rounds, facts, end, task } = turn;
  const lastWrite = rounds.findLastIndex((round) => round.name === "move" || round.name === "place");
  const search = rounds.slice(lastWrite + 1).findLast((round) => round.name === "find_free" && !round.summarised);
  // Where the task may go is read for it (`task_id`): every rule its write checks kept, its own slots free — a free
  // run alone may break its class's buffer, its deadline or a standing preference, and counts its own slots as taken.
  const forTask = search?.arguments.task_id === task.id ? search : undefined;
  // A review whose place has started goes nowhere: the search says so, as the move would.
  if (forTask && callResultOf(forTask) === "failed")
    return { ended: finish(end, REFUSAL_TOLD_IN_ANSWER, notCarriedOut(refusalOf(forTask, "en", datingOf(facts)))) };
  // The places of the step's days, when a search for the task since the last proposal shows them all.
  const found = toolDataOf(forTask, "find_free");
  const runs = found && found.omitted === 0 ? found.runs.filter((run) => !days || days.includes(run.day)) : undefined;
  // The plainly free runs (the first search's): where no place of the day takes the task, the first free one is still
  // proposed, so that the write's refusal names the rule that keeps it out ("your standing preference … rules Mon
  // out") rather than a bare "no free time".
  const general = toolDataOf(
    rounds
      .slice(lastWrite + 1)
      .findLast((round) => round.name === "find_free" && round.arguments.task_id === undefined),
    "find_free",
  );
  const freeRuns =
    general && general.omitted === 0 ? general.runs.filter((run) => !days || days.includes(run.day)) : [];
  return { search, found, runs, freeRuns };
}

/** What the write reports once it applies as proposed: the step's summary, so the step ends with no further turn. */
function thenOf(turn: MoveTurn, day: number, start: number, hostId: string | undefined): Then {
  const { task, tool, current, facts, end } = turn;
  const to = { day, start, end: start + task.duration - 1 };
  const host = hostId ? { hostId } : {};
  return {
    action: end,
    goalCheck:
      tool === "move" && current
        ? movedText({ id: task.id, from: current, to, ...host }, datingOf(facts))
        : placedText({ id: task.id, ...to, ...host }, datingOf(facts)),
  };
}

/**
 * A place the step's words name exactly — a clock time ("to Sunday 14:00", "下午两点"), a slot, right next to
 * something, the same time on another day — proposed, or why there is none; undefined when the words name none.
 */
function placeNamed(turn: MoveTurn, aim: MoveAim, room: MoveRoom): Decision | undefined {
  const { request, facts, end, language, tasks, task, tool, current, rejected } = turn;
  const { shift } = aim;
  let { days } = aim;
  // A clock time named: the slot that starts then, or why none does — never a search elsewhere in the day, which
  // would put the review at another hour than asked.
  // A step whose words name a window with no slot of the day ("Friday, slots 1-0"): said, and nothing proposed.
  const noSlot = rejected.length === 0 && !shift ? emptyWindowWhy(request.where.slots, facts, "en") : undefined;
  if (noSlot !== undefined)
    return finish(
      end,
      emptyWindowEnding(request.where.slots, facts, language, tool === "place" ? "nothingPlaced" : "nothingMoved"),
      notCarriedOut(noSlot),
      "the time asked for holds no slot of the day",
    );
  const at = rejected.length === 0 && !shift ? request.where.slots.at : undefined;
  const timed = at === undefined ? undefined : slotStartingAt(at, facts);
  if (at !== undefined && (timed === undefined || "why" in timed || !days || days.length === 0)) {
    // A review whose place has started goes nowhere at any time: said first, as the move's own check would say it
    // ("the slots near 12:00 start at 10:55 and 14:00" would only send the student to a time refused in turn).
    const why =
      (tool === "move" && current ? startedWhy(task, current, facts) : undefined) ??
      (timed !== undefined && "why" in timed ? timed.why : saySummary("en", "nameADay", { at }));
    return finish(
      end,
      "",
      notCarriedOut(`${why}${saySummary("en", tool === "place" ? "nothingPlaced" : "nothingMoved")}`),
    );
  }
  // "right after the matrix review": the nearest free start on that side of it (of its first occurrence with room).
  const nextTo = rejected.length === 0 && !shift ? request.where.next : undefined;
  const besideAnchor = nextTo ? spotNextTo(nextTo, task, tasks, room.runs ?? room.freeRuns, days) : undefined;
  if (nextTo && (besideAnchor === undefined || "why" in besideAnchor))
    return noRoomNextTo(turn, nextTo, besideAnchor?.why ?? "none", days);
  const anchored = besideAnchor && "day" in besideAnchor ? besideAnchor : undefined;
  if (anchored) days = [anchored.day];
  // "to the same time on Friday": the slot it starts at now (a missed review: the slot it was at), on the day it goes to.
  const sameTime =
    anchored?.start ??
    (rejected.length === 0 && !shift && request.where.slots.sameTime
      ? (current?.start ?? (task.kind === "missed" ? task.was?.start : undefined))
      : undefined);
  // "slot 3" (or "slots 3-4" for a review of two) names where it starts; a wider range ("slots 5-12", the step's words
  // for "after 14:00") is a window to search, not a start.
  const { from: slotFrom, to: slotTo, part } = request.where.slots;
  const exactStart =
    timed !== undefined && "slot" in timed
      ? timed.slot
      : slotFrom !== undefined &&
          !part &&
          rejected.length === 0 &&
          (slotTo === undefined || slotTo - slotFrom + 1 <= task.duration)
        ? slotFrom
        : sameTime;
  if (exactStart === undefined || !days || days.length === 0) return undefined;
  const day = days[0]!;
  // The write's own check decides an exact start; a search shown (for the task or not) only foretells its ending.
  const shown = room.runs ?? toolDataOf(room.search, "find_free")?.runs;
  const fits = shown?.find(
    (run) => run.day === day && run.start <= exactStart && exactStart + task.duration - 1 <= run.end,
  );
  const where = placeWords({ day, start: exactStart, end: exactStart + task.duration - 1 }, facts, language);
  return propose(
    say(
      language,
      `${tool === "place" ? "Placing" : "Moving"} ${nameOf(task)} to ${where}.`,
      `${tool === "place" ? "安排" : "移动"}${nameOf(task)}到${where}。`,
    ),
    tool,
    { task_id: task.id, day, slot_start: exactStart },
    say(language, "the slot the request names", "请求指定的时段"),
    fits ? thenOf(turn, day, exactStart, fits.hostId) : undefined,
  );
}

/** No room right next to the anchor named ("right after the matrix review", "after class"), or no such anchor: said. */
function noRoomNextTo(
  turn: MoveTurn,
  nextTo: { side: "after" | "before"; anchor: string },
  why: "unknown" | "none" | "noClass",
  days: number[] | undefined,
): Decision {
  const { facts, end, language, task } = turn;
  const anchor = anchorWords(nextTo.anchor, "en");
  const side = nextTo.side;
  if (why === "noClass") {
    // ("After class" on a day with none: said, nothing moves.)
    const shown = days ?? [];
    const onDays = shown.map((day) => datedDay(day, facts)).join(" or ") || "any day shown";
    const onDaysZh = shown.map((day) => dayName(day, facts, "zh")).join("或") || "日程里的每一天都";
    return finish(
      end,
      say(
        language,
        `You have no class on ${onDays}, so ${nameOf(task)} stays where it is.`,
        `${onDaysZh}没有课，${nameOf(task)}保持不动。`,
      ),
      notCarriedOut(saySummary("en", "noClassOn", { days: onDays })),
    );
  }
  return finish(
    end,
    why === "unknown"
      ? noAnchorSaid(anchor, task, language)
      : say(
          language,
          `No free time fits ${nameOf(task)} right ${side} ${anchor}, so it stays where it is.`,
          `${anchorWords(nextTo.anchor, "zh")}${side === "after" ? "之后" : "之前"}紧挨着的时间里放不下${nameOf(task)}，保持不动。`,
        ),
    notCarriedOut(
      why === "unknown"
        ? saySummary("en", "noAnchorMatch", { anchor })
        : saySummary("en", side === "after" ? "noRoomRightAfter" : "noRoomRightBefore", {
            subject: nameOf(task),
            anchor,
          }),
    ),
  );
}

/**
 * The first free place where the step says (the task's own search read first), or the place a shift lands on; a
 * task already there, or with no room there, is said.
 */
function freePlace(turn: MoveTurn, aim: MoveAim, room: MoveRoom): Decision {
  const { request, facts, end, language, match, task, tool, current, rejected } = turn;
  const { days, constraints, shift, shiftedDay } = aim;
  const { found, runs, freeRuns } = room;
  const window = resolveSlotWindow(constraints.where.slots, facts.slotsPerDay);
  const within = { ...window, from: Math.max(window.from, constraints.from), to: Math.min(window.to, constraints.to) };
  // A review already where the request puts it ("move it to tomorrow afternoon" when it is there, "move it to Tuesday"
  // when it is on Tuesday): said, never "no free slot" (its own place is no free time) nor a move elsewhere in that
  // part of the day or that day — another part of the day it is on ("to Tuesday evening") still moves it.
  // ("Move it, but not on Thursday" names only where it must not go: a new place is asked for, wherever it is now.)
  // ("As soon as possible" on a day it is on still looks for an earlier start that day.)
  const soonest = rejected.length === 0 && !shift && request.where.slots.soonest === true;
  const alreadyThere =
    tool === "move" &&
    current !== undefined &&
    !shift &&
    !soonest &&
    !onlyExcludes(constraints.where) &&
    rejected.length === 0 &&
    days !== undefined &&
    days.includes(current.day) &&
    current.start >= within.from &&
    current.end <= within.to;
  if (alreadyThere) return alreadyOn(turn, current, { en: "where you asked", zh: "就是你要的时间" });
  if (!runs) {
    const args: Record<string, unknown> = { min_length: task.duration, task_id: task.id, limit: 100 };
    if (days) args.days = days;
    return read(
      say(
        language,
        `Looking for ${task.duration} free slot(s) for ${label(task, language)}.`,
        `正在为${label(task, language)}查找 ${task.duration} 节空闲时段。`,
      ),
      "find_free",
      args,
      "need room that fits the task",
    );
  }
  if (shift && current && shiftedDay !== undefined)
    return shiftedPlace(turn, { shift, current, shiftedDay }, runs, room);
  const spot =
    firstFit(runs, task.duration, within, constraints.notDays, current) ??
    firstFit(freeRuns, task.duration, within, constraints.notDays, current);
  // As soon as possible: the first free start (the search lists them by day and start, the past left out); a review
  // with nothing free before its own place is as soon as it can be — said, never moved later.
  if (
    soonest &&
    current &&
    (!spot || spot.day > current.day || (spot.day === current.day && spot.start > current.start))
  )
    return alreadyOn(turn, current, { en: "and nothing free comes before it", zh: "在它之前没有空闲时间" });
  // "Earlier" on a card at the first slot of the day: said plainly, never a search of slots 1-0.
  if (!spot && within.to < 1) {
    const reason = (language: Language) => saySummary(language, "alreadyFirstSlot", { subject: label(task, language) });
    return finish(end, `${reason(language)}.`, notCarriedOut(reason("en")));
  }
  if (!spot) {
    // Time that has started is not free (find_free leaves it out): said, so "Monday" at 19:00 is not a mystery.
    const passed = found?.pastLeftOut === true;
    return finish(
      end,
      say(
        language,
        `No free slot fits ${label(task, language)} there${passed ? "; the time that has passed there is no longer free" : ""}.`,
        `那里没有能容纳${label(task, language)}的空闲时段${passed ? "；那里已经过去的时间不能再安排" : ""}。`,
      ),
      notCarriedOut(noFreeTimeWhereAsked(task, passed)),
    );
  }
  const where = placeWords({ day: spot.day, start: spot.start, end: spot.start + task.duration - 1 }, facts, language);
  return propose(
    say(
      language,
      `${tool === "place" ? "Placing" : "Moving"} ${nameOf(task)} to ${where}${ambiguity(match, language)}.`,
      `${tool === "place" ? "安排" : "移动"}${nameOf(task)}到${where}${ambiguity(match, language)}。`,
    ),
    tool,
    { task_id: task.id, day: spot.day, slot_start: spot.start },
    say(language, `a free run fits its ${task.duration} slot(s)`, `有能容纳它 ${task.duration} 节的空闲时段`),
    thenOf(turn, spot.day, spot.start, spot.hostId),
  );
}

/** Already where the request puts it: said in words of why (`because`), the step's summary the same either way. */
function alreadyOn(turn: MoveTurn, place: SlotRange, because: { en: string; zh: string }): Decision {
  const { facts, end, language, task } = turn;
  return finish(
    end,
    say(
      language,
      `${label(task, language)} is already on ${placeWords(place, facts, language)}, ${because.en}; nothing to move.`,
      `${label(task, language)}已经在${placeWords(place, facts, language)}，${because.zh}；不用移动。`,
    ),
    notCarriedOut(
      saySummary("en", "alreadyOn", { subject: label(task, "en"), where: formatRange(place, datingOf(facts)) }),
    ),
  );
}

/** The place a shift lands on from the task's own ("back a day": the nearest free time that day), or why none. */
function shiftedPlace(
  turn: MoveTurn,
  { shift, current, shiftedDay }: { shift: MoveShift; current: SlotRange; shiftedDay: number },
  runs: FreeRead["runs"],
  room: MoveRoom,
): Decision {
  const { facts, end, language, match, task, tool } = turn;
  const landed =
    shiftedSpot(runs, shift, current, task.duration, shiftedDay, facts) ??
    shiftedSpot(room.freeRuns, shift, current, task.duration, shiftedDay, facts);
  if (!landed) {
    const passed = room.found?.pastLeftOut === true;
    return finish(
      end,
      say(
        language,
        `No free time fits ${label(task, language)} ${shiftSaid(shift, "en")} (on ${dayName(shiftedDay, facts, language)})${passed ? "; the time that has passed is no longer free" : ""}, so it stays where it is.`,
        `${dayName(shiftedDay, facts, language)}没有能容纳${label(task, language)}的空闲时间（${shiftSaid(shift, "zh")}）${passed ? "；已经过去的时间不能再安排" : ""}，保持不动。`,
      ),
      notCarriedOut(noFreeTimeShifted(task, shift)),
    );
  }
  const to = placeWords(
    { day: landed.day, start: landed.start, end: landed.start + task.duration - 1 },
    facts,
    language,
  );
  const nearest =
    "days" in shift && landed.start !== current.start
      ? say(
          language,
          " (its time that day is taken: the nearest free time)",
          "（那天原来的时间被占了：最近的空闲时间）",
        )
      : "";
  return propose(
    say(
      language,
      `Moving ${nameOf(task)} ${shiftSaid(shift, "en")}, to ${to}${nearest}${ambiguity(match, language)}.`,
      `把${nameOf(task)}${shiftSaid(shift, "zh")}，移到${to}${nearest}${ambiguity(match, language)}。`,
    ),
    tool,
    { task_id: task.id, day: landed.day, slot_start: landed.start },
    say(language, `${shiftSaid(shift, "en")} from where it is`, `从原来的时间${shiftSaid(shift, "zh")}`) + nearest,
    thenOf(turn, landed.day, landed.start, landed.hostId),
  );
}
