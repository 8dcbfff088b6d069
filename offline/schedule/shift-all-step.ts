/**
 * The offline policy's step for every review at once, moved by whole days ("push all my reviews back a day", "move
 * today's reviews to tomorrow", "把所有复习往后推一天") or by time ("push all my reviews back an hour"): list the tasks,
 * then read in one round the free time and where each review may go on its own, then one card with one `batch_move`.
 * By days, every review still ahead (or of the day named) goes to the day that many days on, at its own time when it
 * is free there, else the free time nearest it that day — inside a part of that day when the shift goes into one
 * ("move today's reviews to tonight", "… to Tuesday evening": `into`, by 0 days or more); by time, it stays on its day,
 * at the free start nearest the time asked past its own start that way; off its day ("move my reviews off Thursday",
 * "I'm busy Thursday morning, move my reviews"), to the free time nearest its own by the clock on another day (or
 * outside that part of its day). A review whose new day lies outside the schedule, or with no room its rules allow,
 * stays, and is named. The moves are checked together (a review may take another's old time); a place the
 * week refuses is left out for the next nearest, and a review it refuses twice stays.
 */
import { partInChinese, say, sayList, weekdayName, type Language } from "../../contracts/language.js";
import { finish, propose, read, readAll, type Decision, type Finish } from "../decisions.js";
import type { RoundView } from "../prompt-reading.js";
import {
  shiftAllBy,
  shiftAllDays,
  type PartOfDay,
  type ScheduleRequest,
} from "../../tools/schedule/request-parsing.js";
import { movedText, type FindFreeData, type ListedTask } from "../../tools/schedule/tools/index.js";
import { saySummary, SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";
import { summaryInChinese } from "../../tools/schedule/summary-words.js";
import { readableScheduleText } from "../../tools/schedule/readable.js";
import { breakInside } from "../../tools/schedule/slot-range.js";
import { callResultOf, failureOf, notCarriedOut, refusalOf, toolDataOf } from "./tool-data.js";
import { isBufferRefusal } from "../../tools/schedule/rules.js";
import {
  datedDay,
  datingOf,
  dayName,
  hasStarted,
  placeWords,
  shiftSaid,
  slotRangeOf,
  startMinute,
  weekdayOf,
  type WeekFacts,
} from "./week-facts.js";

type ShiftAll = Extract<ScheduleRequest, { kind: "shift_all" }>;

/** A review left where it is, as the step's summary says it: `"X" stays: why` (`staysBecause`). */
function stayedLine(each: Staying): string {
  return saySummary("en", "staysBecause", { subject: JSON.stringify(each.task.name), why: each.why.en });
}

const MINUTES_A_DAY = 24 * 60;

/** How far a class's buffer reaches (slots each side): a place this near a review that leaves may be free after. */
const BUFFER_REACH = 2;

/** A review the week refused in a batch, and why; the class's buffer that refused it, when one did. */
interface Refusal {
  id: string;
  why: { en: string; zh: string };
  buffer?: { categoryId: string; slots: number };
}

/**
 * What the plan keeps to: reviews that stay (the week refused them twice), with why; where each review may go on
 * its own (`day:start`; undefined when unknown); the places the week refused each review (`day:start`), left out.
 */
interface Bounds {
  kept: ReadonlyMap<string, { en: string; zh: string }>;
  allowed: ReadonlyMap<string, ReadonlySet<string> | undefined>;
  refused: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * The buffers the week's refusals told (free slots each side, by class): a review of such a class lands no nearer
   * another review than that — a rule between two reviews that land, which each one's own read could not see.
   */
  buffers: ReadonlyMap<string, number>;
  /** The placed reviews that do not move: a review lands no nearer them than a buffer told allows either. */
  fixed: readonly ListedTask[];
}

/** A landing's slots. */
function rangeOf(landing: Landing): { start: number; end: number } {
  return { start: landing.start, end: landing.start + landing.task.duration - 1 };
}

/** The free slots between two ranges of one day (negative when they overlap). */
function gapBetween(a: { start: number; end: number }, b: { start: number; end: number }): number {
  return Math.max(a.start, b.start) - Math.min(a.end, b.end) - 1;
}

/** The reason a refusal read back cut short is said with. */
function weekRefused(): { en: string; zh: string } {
  return { en: saySummary("en", "weekRefusedMove"), zh: saySummary("zh", "weekRefusedMove") };
}

/** The review a failed batch names and why ("move 2 of 3: …", "cannot apply batch_move (task <id>): …"). */
function refusalIn(round: RoundView, dating: ReturnType<typeof datingOf>, laterShift?: boolean): Refusal | undefined {
  const refusal = refusalOf(round, "en", dating);
  const moves = Array.isArray(round.arguments.moves) ? (round.arguments.moves as Array<{ task_id?: unknown }>) : [];
  const which = /^move (\d+) of \d+: /.exec(refusal);
  // (A summarised round may have lost its arguments: the week's refusal names the review itself.)
  const why = refusal
    .replace(/^(?:move \d+ of \d+|cannot apply batch_move \([^)]*\)): /, "")
    .replace(/;\s*(?:no move of the batch was made|nothing was moved)\.?$/, "");
  // The review the reason is about: of the batch's reviews it names ("task review-1 "Birch review" keeps 1 free slot
  // around it, but task review-4 … is at …", under the head of another), the one the plan placed last — it chose its
  // place beside the other's. The batch lists the reviews in the week's order and the plan takes them from the end
  // the shift moves toward (`laterShift`: the last first). Else the one the refusal's head names.
  const batch = moves.map((move) => String(move.task_id));
  const positions = [...why.matchAll(/\btask (\S+)/g)]
    .map((match) => batch.indexOf(match[1]!))
    .filter((position) => position !== -1);
  const last = positions.length === 0 ? undefined : laterShift ? Math.min(...positions) : Math.max(...positions);
  const named = last === undefined ? undefined : batch[last];
  const id = which
    ? moves[Number(which[1]) - 1]?.task_id
    : (named ??
      /^cannot apply batch_move \(task ([^)\s]+)\)/.exec(refusal)?.[1] ??
      batch.find((each) => refusal.includes(`task ${each}`)));
  if (typeof id !== "string") return undefined;
  const data = round.summarised ? undefined : round.data;
  const buffer = isBufferRefusal(data) ? { categoryId: data.task.categoryId, slots: data.buffer } : undefined;
  // A summarised round keeps the start of its result: a reason cut short is said plainly.
  return {
    id,
    why: round.summarised && why.endsWith("…") ? weekRefused() : { en: why, zh: why },
    ...(buffer ? { buffer } : {}),
  };
}

/** The latest refusal of review `id` the rounds still show. */
function lastRefusalOf(rounds: readonly RoundView[], id: string, dating: ReturnType<typeof datingOf>) {
  return rounds
    .filter((round) => round.name === "batch_move" && callResultOf(round) === "failed")
    .map((round) => refusalIn(round, dating))
    .findLast((refusal) => refusal?.id === id);
}

/** The starts a task of `duration` slots may take, from a search for it (each run's starts). */
function startsOf(found: FindFreeData, duration: number): Set<string> {
  const starts = new Set<string>();
  for (const run of found.runs)
    for (let start = run.start; start + duration - 1 <= run.end; start += 1) starts.add(`${run.day}:${start}`);
  return starts;
}

/** The reviews a shift moves: placed on one range, not started, of the weekdays named (any, when none is). */
function chosenOf(tasks: readonly ListedTask[], request: ShiftAll, facts: WeekFacts): ListedTask[] {
  // A window of the clock kept free ("keep 2pm to 4pm free"): every review that reaches into it.
  const window = keptWindowOf(request, facts);
  // "Monday evening's reviews", "everything after 3pm": those that begin in that part of the day, or from that time on.
  const part =
    !window && (request.part || request.startsFrom)
      ? slotRangeOf(
          {
            ...(request.part ? { part: request.part } : {}),
            ...(request.startsFrom ? { startsFrom: request.startsFrom } : {}),
          },
          facts,
        )
      : undefined;
  const weekdays = shiftAllDays(request);
  // (Into a part of their own day: one already there stays, and is no review to move.)
  const into = request.into && request.days === 0 ? slotRangeOf({ part: request.into }, facts) : undefined;
  return tasks.filter(
    (task) =>
      task.kind === "placed" &&
      (into === undefined || task.slots[0]!.start < into.from || task.slots[0]!.end > into.to) &&
      task.slots.length === 1 &&
      !hasStarted(task.slots[0]!, facts) &&
      (weekdays.length === 0 || weekdays.includes(weekdayOf(facts, task.slots[0]!.day))) &&
      (part === undefined || (task.slots[0]!.start >= part.from && task.slots[0]!.start <= part.to)) &&
      (window === undefined || (task.slots[0]!.start <= window.to && task.slots[0]!.end >= window.from)),
  );
}

/** The slots of a window of the clock kept free (`startsFrom`–`endsBy`), when the shift empties one. */
function keptWindowOf(request: ShiftAll, facts: WeekFacts): { from: number; to: number } | undefined {
  if (request.startsFrom === undefined || request.endsBy === undefined) return undefined;
  // (The slots that reach into it: from the one the window's start falls in to the last that starts before its end.)
  const times = facts.slotTimes;
  if (times === undefined) return slotRangeOf({ startsFrom: request.startsFrom, endsBy: request.endsBy }, facts);
  const from = times.findIndex((time) => time.end > request.startsFrom!) + 1 || facts.slotsPerDay + 1;
  const to = times.filter((time) => time.start < request.endsBy!).length;
  return { from, to };
}

/** The slots a review leaving a part of its day (or a window of the clock) may not touch there. */
function leftSlots(by: Shift, request: ShiftAll, facts: WeekFacts): { from: number; to: number } | undefined {
  if (!("away" in by) || by.away !== "part") return undefined;
  return keptWindowOf(request, facts) ?? (request.part ? slotRangeOf({ part: request.part }, facts) : undefined);
}

/** The part of the day a shift leaves, or its window of the clock ("evening", "14:00–16:00"; "晚上"). */
function leftWords(request: ShiftAll, language: Language): string | undefined {
  if (request.startsFrom !== undefined && request.endsBy !== undefined)
    return `${request.startsFrom}–${request.endsBy}`;
  if (request.part === undefined) return undefined;
  return language === "zh" ? partInChinese(request.part) : request.part;
}

/**
 * How the reviews move: by whole days (into a part of the new day, when `into`), by time the same day, or off their day
 * (or that part of it) to the nearest.
 */
type Shift = { days: number; into?: PartOfDay } | { minutes: number } | { away: "day" | "part" };

/** The shift's size and way (positive: later); off the day counts as later (the later place wins a tie). */
function amountOf(by: Shift): number {
  return "days" in by ? by.days : "minutes" in by ? by.minutes : 1;
}

/** How the card says the reviews move ("2 days later", "off their day", "out of the morning"). */
function movedSaid(by: Shift, request: ShiftAll, language: Language): string {
  if ("days" in by && by.into) {
    const part = say(language, `the ${by.into}`, partInChinese(by.into));
    if (by.days === 0) return say(language, `to ${part}`, `挪到${part}`);
    return say(language, `${shiftSaid(by, "en")}, into ${part}`, `${shiftSaid(by, "zh")}，挪到${part}`);
  }
  if (!("away" in by)) return shiftSaid(by, language);
  const days = shiftAllDays(request);
  const day = (language: Language) =>
    sayList(
      days.map((weekday) => weekdayName(weekday, language)),
      language,
    );
  return by.away === "part"
    ? say(
        language,
        `out of ${day("en") || "the"} ${leftWords(request, "en") ?? "morning"}`,
        `挪出${day("zh")}${leftWords(request, "zh") ?? partInChinese("morning")}`,
      )
    : say(language, days.length > 1 ? "to other days" : "to another day", "挪到别的天");
}

/** A review the step moves: from where it is to where it lands. */
interface Landing {
  task: ListedTask;
  day: number;
  start: number;
}

/** A review the step leaves where it is, and why (in English, the summary's words; said in the user's language). */
interface Staying {
  task: ListedTask;
  why: { en: string; zh: string };
}

/** Move every review (of the day named) by the request's days: read, propose one batch, and say how it ended. */
export function shiftAllStep(
  rounds: RoundView[],
  request: ShiftAll,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): Decision {
  const given = shiftAllBy(request);
  const by: Shift | undefined = request.away
    ? { away: request.away }
    : given && "days" in given && request.into
      ? { ...given, into: request.into }
      : given;
  // (By no days at all only into a part of the same day: "move today's reviews to tonight".)
  if (by === undefined || (amountOf(by) === 0 && !("into" in by && by.into)))
    return finish(
      end,
      say(
        language,
        'I could not tell how many days to move your reviews by; say it as "push all my reviews back a day".',
        "我没能确定要把复习移动几天；可以说“把所有复习往后推一天”。",
      ),
      notCarriedOut(SUMMARY_WORDS.en.shiftDaysUnknown),
    );
  // The card is answered (its rounds may be summarised by now, the listing with them): how it ended is the step's end.
  const answered = rounds.findLast(
    (round) => round.name === "batch_move" && ["applied", "rejected"].includes(callResultOf(round)),
  );
  if (answered && callResultOf(answered) === "rejected")
    return finish(
      end,
      say(language, "Understood: I left your reviews where they are.", "好的，复习都保持原样。"),
      notCarriedOut(SUMMARY_WORDS.en.declinedShift),
      "the user declined the change",
    );
  if (answered) return finish(end, "", `${SUMMARY_WORDS.en.shiftedReviews}: ${movedLines(answered, facts).join("; ")}`);
  // What the step reads, in one round so that it stays whole together: the listing, the free time, and where each
  // review may go on its own (every rule its write checks kept). A review the week refused twice is read no more:
  // the reads round itself says which reviews stay, so nothing rests on rounds that summarising cuts.
  const reads = (ids: readonly string[], again: boolean) =>
    readAll(
      say(
        language,
        "Looking up the free time, and where each review may go.",
        "正在查找空闲时间，以及每个复习可以去哪里。",
      ),
      [
        ...(again ? [{ name: "list_tasks", arguments: { limit: 100 } }] : []),
        { name: "find_free", arguments: { limit: 100 } },
        ...ids.map((id) => ({ name: "find_free", arguments: { task_id: id, limit: 100 } })),
      ],
      "need the free time and each review's places",
    );
  const searched = rounds.findLastIndex(
    (round) => round.name === "find_free" && round.arguments.task_id === undefined && !round.summarised,
  );
  let at = searched + 1;
  while (at > 0 && rounds[at]?.name === "find_free" && rounds[at]!.arguments.task_id !== undefined) at += 1;
  const perTask = searched === -1 ? [] : rounds.slice(searched + 1, at);
  const dating = datingOf(facts);
  // The week's refusals since the reads: the first leaves that review's refused place out, and a class's buffer it
  // tells (`BufferRefusal`: a rule between two reviews that land, which each one's own read could not see) keeps the
  // next plan's reviews that far apart; a second reads again (the listing with it) without the review refused last,
  // which stays where it is. (Only the last `keepToolRounds` rounds stay whole: the reads and two refusals.)
  const refusals: Refusal[] = [];
  for (const round of rounds
    .slice(at)
    .filter((each) => each.name === "batch_move" && callResultOf(each) === "failed")) {
    const refusal = refusalIn(round, dating, amountOf(by) > 0);
    if (!refusal || !perTask.some((each) => each.arguments.task_id === refusal.id))
      return finish(end, "", notCarriedOut(refusal?.why.en ?? failureOf(round)));
    refusals.push(refusal);
  }
  if (searched !== -1 && refusals.length >= 2) {
    const last = refusals.at(-1)!.id;
    return reads(
      perTask.map((round) => String(round.arguments.task_id)).filter((id) => id !== last),
      true,
    );
  }
  const listed = rounds.findLastIndex(
    (round, index) => round.name === "list_tasks" && !round.summarised && (searched === -1 || index < searched),
  );
  const listing = listed === -1 ? undefined : toolDataOf(rounds[listed], "list_tasks");
  if (!listing)
    return read(
      say(language, "Looking up your reviews.", "正在查找你的复习。"),
      "list_tasks",
      { limit: 100 },
      "need every placed review",
    );
  const chosen = chosenOf(listing.tasks, request, facts);
  const events = listing.tasks.filter((task) => task.kind === "event");
  const free = searched > listed ? toolDataOf(rounds[searched], "find_free") : undefined;
  if (!free)
    return reads(
      chosen.map((task) => task.id),
      false,
    );
  // Each review read: its places (undefined when the read shows them not all); a review no write can move (its place
  // has started, by the week's clock) stays, with the search's own words.
  const allowed = new Map<string, Set<string> | undefined>();
  const unmovable = new Map<string, { en: string; zh: string }>();
  for (const round of perTask) {
    const id = String(round.arguments.task_id);
    const data = toolDataOf(round, "find_free");
    const task = chosen.find((each) => each.id === id);
    if (callResultOf(round) === "failed") {
      const why = refusalOf(round, "en", dating);
      unmovable.set(id, { en: why, zh: why });
    } else allowed.set(id, data && task && data.omitted === 0 ? startsOf(data, task.duration) : undefined);
  }
  // A review not read stays (the week refused it in a second batch); why, as the latest refusal of it still shown says.
  const kept = new Map<string, { en: string; zh: string }>(unmovable);
  for (const task of chosen)
    if (!allowed.has(task.id) && !kept.has(task.id))
      kept.set(task.id, lastRefusalOf(rounds, task.id, dating)?.why ?? weekRefused());
  // The places the week refused: where each batch before put that review, planned again as it was; and the buffers
  // the refusals told, by class.
  const refused = new Map<string, Set<string>>();
  const buffers = new Map<string, number>();
  const fixed = listing.tasks.filter(
    (task) => task.kind === "placed" && task.slots.length === 1 && !chosen.some((each) => each.id === task.id),
  );
  for (const { id, buffer } of refusals) {
    const bounds = { kept, allowed, refused, buffers, fixed };
    const landed = plan(chosen, events, free, by, facts, bounds, request).landings.find((each) => each.task.id === id);
    if (landed) (refused.get(id) ?? refused.set(id, new Set()).get(id)!).add(`${landed.day}:${landed.start}`);
    if (buffer) buffers.set(buffer.categoryId, Math.max(buffer.slots, buffers.get(buffer.categoryId) ?? 0));
  }
  const { landings, staying } = plan(
    chosen,
    events,
    free,
    by,
    facts,
    { kept, allowed, refused, buffers, fixed },
    request,
  );
  return shiftEnding({ landings, staying }, { by, request, facts, end, language });
}

/**
 * The step's card, every review that lands moved together (batch_move), with the ones that stay said; or, when none
 * lands, why nothing moves.
 */
function shiftEnding(
  { landings, staying }: { landings: Landing[]; staying: Staying[] },
  {
    by,
    request,
    facts,
    end,
    language,
  }: { by: Shift; request: ShiftAll; facts: WeekFacts; end: Finish; language: Language },
): Decision {
  const dating = datingOf(facts);
  const stays = staying.length > 0 ? stayingWords(staying, facts, language) : "";
  if (landings.length === 0)
    return finish(
      end,
      staying.length === 0
        ? say(language, "There is no review still ahead to move.", "没有还没开始的复习可以移动。")
        : stays,
      notCarriedOut(
        staying.length === 0 ? SUMMARY_WORDS.en.noReviewToShift : staying.map((each) => stayedLine(each)).join("; "),
      ),
    );
  const names = landings
    .map(
      (landing) =>
        `${JSON.stringify(landing.task.name)} ${say(language, "to", "到")} ${placeWords({ day: landing.day, start: landing.start, end: landing.start + landing.task.duration - 1 }, facts, language)}`,
    )
    .join(say(language, "; ", "；"));
  return propose(
    say(
      language,
      `Moving ${landings.length} review(s) ${movedSaid(by, request, "en")}, together on one card: ${names}.${stays ? ` ${stays}` : ""}`,
      `把 ${landings.length} 个复习${movedSaid(by, request, "zh")}，在一张卡片上一起确认：${names}。${stays}`,
    ),
    "batch_move",
    { moves: landings.map((landing) => ({ task_id: landing.task.id, day: landing.day, slot_start: landing.start })) },
    say(language, "every review moved as asked", "按要求移动每个复习"),
    {
      action: end,
      // Approved and applied as proposed: what moved, then the reviews that stayed and why.
      goalCheck: `${SUMMARY_WORDS.en.shiftedReviews}: ${[
        ...landings.map((landing) =>
          movedText(
            {
              id: landing.task.id,
              from: landing.task.slots[0]!,
              to: { day: landing.day, start: landing.start, end: landing.start + landing.task.duration - 1 },
            },
            dating,
          ),
        ),
        ...staying.map((each) => stayedLine(each)),
      ].join("; ")}`,
    },
  );
}

/** What an applied batch moved, each as a move's line (dated); its result as it stands when it carries no data. */
function movedLines(round: RoundView, facts: WeekFacts): string[] {
  const moved = toolDataOf(round, "batch_move")?.moved;
  if (!moved) return [round.result.replace(/\n/g, "; ")];
  return moved.flatMap((task) =>
    task.from
      ? [
          movedText(
            { id: task.id, from: task.from, to: task, ...(task.hostId ? { hostId: task.hostId } : {}) },
            datingOf(facts),
          ),
        ]
      : [],
  );
}

/** "“X” stays on Mon 11 Mar, 14:00–15:40: no free time fits it on Tue 12 Mar." for each staying review. */
function stayingWords(staying: readonly Staying[], facts: WeekFacts, language: Language): string {
  return staying
    .map((each) =>
      say(
        language,
        `${JSON.stringify(each.task.name)} stays on ${placeWords(each.task.slots[0]!, facts, language)}: ${readableScheduleText(each.why.en, "en")}.`,
        `“${each.task.name}”保留在${placeWords(each.task.slots[0]!, facts, language)}：${readableScheduleText(each.why.zh === each.why.en ? summaryInChinese(each.why.en) : each.why.zh, "zh")}。`,
      ),
    )
    .join(" ");
}

/**
 * Where each review lands: the reviews still ahead (of the weekday named), taken from the end the shift moves toward
 * (a later shift moves the last one first, so each lands where the one after it left), each at its own time on its new
 * day when that is free — the free time listed, and the old time of a review that moved away — else the free start
 * nearest it that day (a later one on a tie), wholly inside one embeddable host or wholly outside, at one of its own
 * places (`bounds.allowed`) or one another review leaves (never across a break of the day, nor past its deadline:
 * `events` are the week's, to date an event deadline). One the week refused twice (`bounds.kept`) or without room
 * stays, and its time stays taken.
 */
function plan(
  chosen: readonly ListedTask[],
  events: readonly ListedTask[],
  found: FindFreeData,
  by: Shift,
  facts: WeekFacts,
  bounds: Bounds,
  request: ShiftAll,
): { landings: Landing[]; staying: Staying[] } {
  const days = "days" in by ? by.days : 0;
  const later = amountOf(by) > 0;
  const total = facts.totalDays ?? 7;
  // Off "Thursday and Friday": the days of the weekdays named, where none of the reviews may land.
  const weekdays = shiftAllDays(request);
  const vacated = Array.from({ length: total }, (_, index) => index + 1).filter((day) =>
    weekdays.includes(weekdayOf(facts, day)),
  );
  // Off "Thursday morning": the slots of that part of the day, which a review leaving it may not touch.
  const leaving = leftSlots(by, request, facts);
  // Into "the evening": the slots a review must lie wholly inside on its new day.
  const inside = "days" in by && by.into ? slotRangeOf({ part: by.into }, facts) : undefined;
  // Each free slot, by day, with the embeddable host it lies in ("" outside any): a review lands wholly in one or
  // wholly outside.
  const free = new Map<number, Map<number, string>>();
  const freeOn = (day: number) => free.get(day) ?? free.set(day, new Map()).get(day)!;
  for (const run of found.runs)
    for (let slot = run.start; slot <= run.end; slot += 1) freeOn(run.day).set(slot, run.hostId ?? "");
  // Whether slots `start`…`start + length - 1` of `day` lie on or within a class's buffer (`BUFFER_REACH`) of slots
  // another chosen review leaves (one found to stay does not).
  const stayed = new Set<string>();
  const nearLeaving = (day: number, start: number, length: number, id: string) =>
    chosen.some((other) => {
      const range = other.slots[0]!;
      if (other.id === id || stayed.has(other.id) || range.day !== day) return false;
      return start - BUFFER_REACH <= range.end && range.start <= start + length - 1 + BUFFER_REACH;
    });
  // Every chosen review leaves its time: free for another to land in, unless it stays.
  for (const task of chosen)
    for (let slot = task.slots[0]!.start; slot <= task.slots[0]!.end; slot += 1)
      freeOn(task.slots[0]!.day).set(slot, task.hostId ?? "");
  const order = [...chosen].sort((a, b) => {
    const [x, y] = [a.slots[0]!, b.slots[0]!];
    const key = x.day - y.day || x.start - y.start;
    return later ? -key : key;
  });
  const landings: Landing[] = [];
  const staying: Staying[] = [];
  const take = (day: number, start: number, length: number) => {
    for (let slot = start; slot < start + length; slot += 1) freeOn(day).delete(slot);
  };
  const slots = Array.from({ length: facts.slotsPerDay }, (_, index) => index + 1);
  // A day as the tools date it ("day 3 (Wed 13 Mar 2024)"), read in the user's language later.
  const dated = (day: number) => datedDay(day, facts);
  for (const task of order) {
    const from = task.slots[0]!;
    const length = from.end - from.start + 1;
    const stay = (why: { en: string; zh: string }) => {
      staying.push({ task, why });
      stayed.add(task.id);
      take(from.day, from.start, length);
    };
    const refusal = bounds.kept.get(task.id);
    if (refusal !== undefined) {
      stay(refusal);
      continue;
    }
    // The days it may go to: that many days on; off its day, every day not named (off a part of them, those too).
    const targets =
      "away" in by
        ? Array.from({ length: total }, (_, index) => index + 1).filter(
            (day) =>
              by.away === "part" ||
              (day !== from.day &&
                !vacated.includes(day) &&
                (request.dayward === undefined || (request.dayward === "earlier" ? day < from.day : day > from.day))),
          )
        : [from.day + days];
    // "To an earlier day" from the schedule's first day (a later one from its last): no day that way.
    if ("away" in by && request.dayward && targets.length === 0) {
      const phrase = request.dayward === "earlier" ? "noEarlierDay" : "noLaterDay";
      stay({
        en: saySummary("en", phrase, { subject: "it", where: dated(from.day) }),
        zh: saySummary("zh", phrase, { subject: "它", where: dayName(from.day, facts, "zh") }),
      });
      continue;
    }
    const day = targets[0]!;
    if (!("away" in by) && (day < 1 || day > total)) {
      stay({
        en: saySummary("en", "outsideSchedule", { shift: shiftSaid(by, "en") }),
        zh: saySummary("zh", "outsideSchedule", { shift: shiftSaid(by, "zh") }),
      });
      continue;
    }
    const fits = (day: number, start: number, ruled = true) => {
      if (start < 1 || start + length - 1 > facts.slotsPerDay) return false;
      if (inside && (start < inside.from || start + length - 1 > inside.to)) return false;
      // Off a part of the days named: nothing of it in that part of any of them.
      if (
        leaving &&
        (day === from.day || vacated.includes(day)) &&
        start <= leaving.to &&
        leaving.from <= start + length - 1
      )
        return false;
      if (hasStarted({ day, start, end: start + length - 1 }, facts)) return false;
      // Its own places, read for it while every review sat where it was: a place by one another review leaves (its
      // slots, or within a class's buffer of them) is tried too; never the place the week refused it.
      const own = bounds.allowed.get(task.id);
      if (ruled && bounds.refused.get(task.id)?.has(`${day}:${start}`)) return false;
      // (Nor nearer another review that day than a buffer the week told keeps them: one landing, or one that stays.)
      const range = { day, start, end: start + length - 1 };
      if (ruled && withinBuffer(task, range, { landings, staying }, bounds)) return false;
      if (ruled && own && !own.has(`${day}:${start}`) && !nearLeaving(day, start, length, task.id)) return false;
      // The rules a place tried so may still break that the listing shows: a break of the day inside it, its deadline.
      if (
        ruled &&
        (breakInside({ day, start, end: start + length - 1 }, facts) !== undefined ||
          pastDeadline(task, events, day, start + length - 1))
      )
        return false;
      const host = freeOn(day).get(start);
      for (let slot = start; slot < start + length; slot += 1) if (freeOn(day).get(slot) !== host) return false;
      return host !== undefined;
    };
    // By days: its own start, else the nearest; by time: the start nearest the time asked, past its own that way; off
    // its day: the place nearest its own across the week (a later one on a tie).
    const target = "minutes" in by ? startMinute(from.start, facts) + by.minutes : 0;
    // (In minutes of the clock: a night lies between one day's last slot and the next day's first.)
    const offset = (place: { day: number; start: number }) =>
      (place.day - from.day) * MINUTES_A_DAY + startMinute(place.start, facts) - startMinute(from.start, facts);
    const distance = (place: { day: number; start: number }) =>
      "minutes" in by
        ? Math.abs(startMinute(place.start, facts) - target)
        : "away" in by
          ? Math.abs(offset(place))
          : Math.abs(place.start - from.start);
    const way = targets.flatMap((each) =>
      slots
        .filter((start) => !("minutes" in by) || (later ? start > from.start : start < from.start))
        .map((start) => ({ day: each, start })),
    );
    const places = way
      .filter((place) => fits(place.day, place.start))
      .sort(
        (a, b) => distance(a) - distance(b) || ("minutes" in by && !later ? a.start - b.start : offset(b) - offset(a)),
      );
    const place = places[0];
    // A day the standing preferences keep free was left out of the search: they are why, not "no free time".
    if (place === undefined && "days" in by && found.standingLeftOut?.includes(day)) {
      stay({
        en: saySummary("en", "dayKeptFree", { days: dated(day) }),
        zh: saySummary("zh", "dayKeptFree", { days: dayName(day, facts, "zh") }),
      });
      continue;
    }
    if (place === undefined) {
      // (Free time there that its own rules rule out is said so, not as no free time.)
      const ruledOut = way.some((each) => fits(each.day, each.start, false));
      const left = leaving ? { en: leftWords(request, "en"), zh: leftWords(request, "zh") } : undefined;
      stay(whyStays(ruledOut, { by, day, from: from.day, vacated, left }, facts));
      continue;
    }
    take(place.day, place.start, length);
    landings.push({ task, day: place.day, start: place.start });
  }
  // The card lists them in the week's order.
  landings.sort(
    (a, b) => a.task.slots[0]!.day - b.task.slots[0]!.day || a.task.slots[0]!.start - b.task.slots[0]!.start,
  );
  return { landings, staying };
}

/** Whether a review placed on `day` up to slot `last` ends too late for its deadline (a day, or an event's start). */
function pastDeadline(task: ListedTask, events: readonly ListedTask[], day: number, last: number): boolean {
  const due = task.dueBefore;
  if (!due) return false;
  if ("day" in due) return day >= due.day;
  const event = events.find((each) => each.id === due.eventId)?.slots[0];
  return event !== undefined && (day > event.day || (day === event.day && last >= event.start));
}

/**
 * Whether `range` lies nearer another review of its day than a buffer the week told keeps them (`bounds.buffers`, by
 * class): one landing, one that stays, or one not moved.
 */
function withinBuffer(
  task: ListedTask,
  range: { day: number; start: number; end: number },
  { landings, staying }: { landings: readonly Landing[]; staying: readonly Staying[] },
  bounds: Bounds,
): boolean {
  const buffer = (other: ListedTask) =>
    Math.max(bounds.buffers.get(task.categoryId ?? "") ?? 0, bounds.buffers.get(other.categoryId ?? "") ?? 0);
  const near = [
    ...landings.map((other) => ({ task: other.task, day: other.day, range: rangeOf(other) })),
    ...[...bounds.fixed, ...staying.map((each) => each.task)].map((other) => ({
      task: other,
      day: other.slots[0]!.day,
      range: other.slots[0]!,
    })),
  ];
  return near.some(
    (other) => other.day === range.day && buffer(other.task) > 0 && gapBetween(range, other.range) < buffer(other.task),
  );
}

/**
 * Why a review of a shift found no place: free time there that its own rules rule out, no room off the days (and part)
 * it leaves, none by the time asked, none on the day it lands on.
 */
function whyStays(
  ruledOut: boolean,
  {
    by,
    day,
    from,
    vacated,
    left: partLeft,
  }: { by: Shift; day: number; from: number; vacated: number[]; left?: { en?: string; zh?: string } },
  facts: WeekFacts,
): { en: string; zh: string } {
  // (Into a part of its new day: that part of it, "Tue 12 Mar evening".)
  const into = "days" in by ? by.into : undefined;
  const onDay = {
    en: `${datedDay(day, facts)}${into ? ` ${into}` : ""}`,
    zh: `${dayName(day, facts, "zh")}${into ? partInChinese(into) : ""}`,
  };
  const dated = (each: number) => datedDay(each, facts);
  // Off its day: the days (and part) it could not leave, said for both reasons below.
  const away = vacated.includes(from) ? vacated : [from];
  const left =
    "away" in by
      ? {
          en: `${sayList(away.map(dated), "en")}${partLeft?.en ? ` ${partLeft.en}` : ""}`,
          zh: `${sayList(
            away.map((each) => dayName(each, facts, "zh")),
            "zh",
          )}${partLeft?.zh ?? ""}`,
        }
      : undefined;
  if (ruledOut)
    return left
      ? {
          en: saySummary("en", "noRuledRoomAway", { days: left.en }),
          zh: saySummary("zh", "noRuledRoomAway", { days: left.zh }),
        }
      : "minutes" in by
        ? {
            en: saySummary("en", "noRuledTimeShifted", { shift: shiftSaid(by, "en") }),
            zh: saySummary("zh", "noRuledTimeShifted", { shift: shiftSaid(by, "zh") }),
          }
        : {
            en: saySummary("en", "noRuledRoomOnDay", { days: onDay.en }),
            zh: saySummary("zh", "noRuledRoomOnDay", { days: onDay.zh }),
          };
  if (left)
    return {
      en: saySummary("en", "noRoomAway", { days: left.en }),
      zh: saySummary("zh", "noRoomAway", { days: left.zh }),
    };
  if ("minutes" in by)
    return {
      en: saySummary("en", "noFreeTimeShifted", { subject: "it", shift: shiftSaid(by, "en") }),
      zh: saySummary("zh", "noFreeTimeShifted", { subject: "它", shift: shiftSaid(by, "zh") }),
    };
  return {
    en: saySummary("en", "noRoomOnDay", { days: onDay.en }),
    zh: saySummary("zh", "noRoomOnDay", { days: onDay.zh }),
  };
}
