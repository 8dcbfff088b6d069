/**
 * The offline policy's step for every review at once, moved by whole days ("push all my reviews back a day", "move
 * today's reviews to tomorrow", "把所有复习往后推一天"): list the tasks and the free time, then one card with one
 * `batch_move` — every review still ahead (or of the day named) on the day that many days on, at its own time when it
 * is free there, else the free time nearest it that day. A review with no room on its new day, or whose new day lies
 * outside the schedule, stays, and is named. The moves are checked together (a review may take another's old time);
 * one the week refuses (a deadline, a class rule, a standing preference) is left where it is and the rest proposed
 * again.
 */
import { say, type Language } from "../../contracts/language.js";
import { finish, propose, read, type Decision, type Finish } from "../decisions.js";
import type { RoundView } from "../prompt-reading.js";
import type { ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { movedText, type FindFreeData, type ListedTask } from "../../tools/schedule/tools/index.js";
import { saySummary, SUMMARY_WORDS } from "../../tools/schedule/summary-phrases.js";
import { summaryInChinese } from "../../tools/schedule/summary-words.js";
import { readableScheduleText } from "../../tools/schedule/readable.js";
import { formatDate } from "../../tools/schedule/state.js";
import { callResultOf, notCarriedOut, refusalOf, toolDataOf } from "./tool-data.js";
import { datingOf, dayName, hasStarted, placeWords, shiftSaid, weekdayOf, type WeekFacts } from "./week-facts.js";

type ShiftAll = Extract<ScheduleRequest, { kind: "shift_all" }>;

/** Most cards of refusals the step proposes again after (each leaves the review the week refused where it is). */
const MOST_TRIES = 3;

/** A review left where it is, as the step's summary says it: `"X" stays: why` (`staysBecause`). */
function stayedLine(each: Staying): string {
  return saySummary("en", "staysBecause", { subject: JSON.stringify(each.task.name), why: each.why.en });
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
  const days = request.days;
  if (days === undefined || days === 0)
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
  const listed = rounds.findLastIndex((round) => round.name === "list_tasks" && !round.summarised);
  const listing = listed === -1 ? undefined : toolDataOf(rounds[listed], "list_tasks");
  if (!listing)
    return read(
      say(language, "Looking up your reviews.", "正在查找你的复习。"),
      "list_tasks",
      { limit: 100 },
      "need every placed review",
    );
  const since = rounds.slice(listed + 1);
  const searched = since.findLast((round) => round.name === "find_free" && round.arguments.task_id === undefined);
  const free = toolDataOf(searched, "find_free");
  if (!free)
    return read(
      say(language, "Looking up the free time.", "正在查找空闲时间。"),
      "find_free",
      { limit: 100 },
      "need the free time the reviews may land in",
    );
  const batches = since.filter((round) => round.name === "batch_move");
  const dating = datingOf(facts);
  // The week refused a move of a batch: that review stays (the refusal says why), the rest are proposed again.
  const refused = new Map<string, string>();
  const failed = batches.filter((round) => callResultOf(round) === "failed");
  for (const round of failed) {
    // "move 2 of 3: …" (the tool's) or "cannot apply batch_move (task <id>): …" (the week's rules): the review named.
    const refusal = refusalOf(round, "en", dating);
    const moves = Array.isArray(round.arguments.moves) ? (round.arguments.moves as Array<{ task_id?: unknown }>) : [];
    const which = /^move (\d+) of \d+: /.exec(refusal);
    const id = which
      ? moves[Number(which[1]) - 1]?.task_id
      : moves.map((move) => move.task_id).find((each) => refusal.includes(`task ${String(each)}`));
    const why = refusal
      .replace(/^(?:move \d+ of \d+|cannot apply batch_move \([^)]*\)): /, "")
      .replace(/;\s*(?:no move of the batch was made|nothing was moved)\.?$/, "");
    if (typeof id !== "string" || failed.length > MOST_TRIES) return finish(end, "", notCarriedOut(why));
    refused.set(id, why);
  }
  const { landings, staying } = plan(listing.tasks, free, request, days, facts, refused);
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
      `Moving ${landings.length} review(s) ${shiftSaid({ days }, "en")}, together on one card: ${names}.${stays ? ` ${stays}` : ""}`,
      `把 ${landings.length} 个复习${shiftSaid({ days }, "zh")}，在一张卡片上一起确认：${names}。${stays}`,
    ),
    "batch_move",
    { moves: landings.map((landing) => ({ task_id: landing.task.id, day: landing.day, slot_start: landing.start })) },
    say(language, "every review moved by the days asked", "按要求移动每个复习"),
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
 * nearest it that day (a later one on a tie). One refused by the week (`refused`) or without room stays, and its time
 * stays taken.
 */
function plan(
  tasks: readonly ListedTask[],
  found: FindFreeData,
  request: ShiftAll,
  days: number,
  facts: WeekFacts,
  refused: ReadonlyMap<string, string>,
): { landings: Landing[]; staying: Staying[] } {
  const total = facts.totalDays ?? 7;
  const chosen = tasks.filter(
    (task) =>
      task.kind === "placed" &&
      task.slots.length === 1 &&
      !hasStarted(task.slots[0]!, facts) &&
      (request.weekday === undefined || weekdayOf(facts, task.slots[0]!.day) === request.weekday),
  );
  const free = new Map<number, Set<number>>();
  const freeOn = (day: number) => free.get(day) ?? free.set(day, new Set()).get(day)!;
  for (const run of found.runs) for (let slot = run.start; slot <= run.end; slot += 1) freeOn(run.day).add(slot);
  // Every chosen review leaves its time: free for another to land in, unless it stays.
  for (const task of chosen)
    for (let slot = task.slots[0]!.start; slot <= task.slots[0]!.end; slot += 1) freeOn(task.slots[0]!.day).add(slot);
  const order = [...chosen].sort((a, b) => {
    const [x, y] = [a.slots[0]!, b.slots[0]!];
    const key = x.day - y.day || x.start - y.start;
    return days > 0 ? -key : key;
  });
  const landings: Landing[] = [];
  const staying: Staying[] = [];
  const take = (day: number, start: number, length: number) => {
    for (let slot = start; slot < start + length; slot += 1) freeOn(day).delete(slot);
  };
  for (const task of order) {
    const from = task.slots[0]!;
    const length = from.end - from.start + 1;
    const day = from.day + days;
    const stay = (why: { en: string; zh: string }) => {
      staying.push({ task, why });
      take(from.day, from.start, length);
    };
    const refusal = refused.get(task.id);
    if (refusal !== undefined) {
      stay({ en: refusal, zh: refusal });
      continue;
    }
    if (day < 1 || day > total) {
      stay({
        en: saySummary("en", "outsideSchedule", { shift: shiftSaid({ days }, "en") }),
        zh: saySummary("zh", "outsideSchedule", { shift: shiftSaid({ days }, "zh") }),
      });
      continue;
    }
    const fits = (start: number) => {
      if (start < 1 || start + length - 1 > facts.slotsPerDay) return false;
      if (hasStarted({ day, start, end: start + length - 1 }, facts)) return false;
      for (let slot = start; slot < start + length; slot += 1) if (!freeOn(day).has(slot)) return false;
      return true;
    };
    const starts = Array.from({ length: facts.slotsPerDay }, (_, index) => index + 1)
      .filter(fits)
      .sort((a, b) => Math.abs(a - from.start) - Math.abs(b - from.start) || b - a);
    const start = starts[0];
    if (start === undefined) {
      // Said with the day as the tools date it ("day 3 (Wed 13 Mar 2024)"), read in the user's language later.
      const date = facts.dates.get(day);
      const dated = date === undefined ? `day ${day}` : `day ${day} (${formatDate(date)} ${date.slice(0, 4)})`;
      stay({
        en: saySummary("en", "noRoomOnDay", { day: dated }),
        zh: saySummary("zh", "noRoomOnDay", { day: dayName(day, facts, "zh") }),
      });
      continue;
    }
    take(day, start, length);
    landings.push({ task, day, start });
  }
  // The card lists them in the week's order.
  landings.sort(
    (a, b) => a.task.slots[0]!.day - b.task.slots[0]!.day || a.task.slots[0]!.start - b.task.slots[0]!.start,
  );
  return { landings, staying };
}
