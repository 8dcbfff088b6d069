/**
 * Steps that look at the week and change nothing: when am I free (`find_free`, day by day), what is on a day
 * (`query_range`, segment by segment), and what comes next.
 */
import type { RangeOccupant, RangeSegment } from "../../tools/schedule/tools/index.js";
import type { FindFreeData } from "../../tools/schedule/tools/find-free.js";
import { finish, read, type Decision, type Finish } from "../decisions.js";
import { callResultOf, failureOf, toolDataOf, notCarriedOut } from "./tool-data.js";
import { say, type Language } from "../../contracts/language.js";
import type { RoundView } from "../prompt-reading.js";
import type { ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { dayName, slotRangeOf, slotWords, todayOf, type WeekFacts } from "./week-facts.js";
import { emptyWindowEnding, emptyWindowWhy } from "./empty-window.js";
import { allowedDays } from "./move-places.js";

/** A read's `slot_start` / `slot_end` for the part of the day asked: each only where it narrows the whole day. */
function slotBounds(
  window: { from: number; to: number },
  facts: WeekFacts,
): { slot_start?: number; slot_end?: number } {
  return {
    ...(window.from > 1 ? { slot_start: window.from } : {}),
    ...(window.to < facts.slotsPerDay ? { slot_end: window.to } : {}),
  };
}

/** When am I free: find_free where asked, answered day by day. */
export function freeStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "free" }>,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): Decision {
  const days = allowedDays(request.where, facts);
  const window = slotRangeOf(request.where.slots, facts);
  // A window with no slot of the day ("before 8"): said, and no search (find_free takes no empty slot range).
  const noSlot = emptyWindowWhy(request.where.slots, facts, "en");
  if (noSlot !== undefined)
    return finish(end, emptyWindowEnding(request.where.slots, facts, language), notCarriedOut(noSlot));
  const search = rounds.findLast((round) => round.name === "find_free" && !round.summarised);
  if (!search) {
    const args = {
      min_length: request.minLength,
      limit: 100,
      ...(days ? { days } : {}),
      ...slotBounds(window, facts),
    };
    return read(
      say(language, "Looking for free time.", "正在查找空闲时间。"),
      "find_free",
      args,
      "the question is about free time",
    );
  }
  if (callResultOf(search) === "failed") return finish(end, "", couldNotLookUp(failureOf(search), language));
  const found = toolDataOf(search, "find_free");
  const runs = found?.runs;
  // Time that has started is not free (find_free leaves it out, as the place tools refuse it): say so.
  const past = found?.pastLeftOut
    ? say(language, " Time that has already passed is not counted.", "已经过去的时间不算在内。")
    : "";
  if (!runs)
    return read(
      say(language, "Looking for free time.", "正在查找空闲时间。"),
      "find_free",
      search.arguments,
      "the question is about free time",
    );
  // What the standing preferences keep reviews from (find_free's notes): said after the free time, so that a day
  // missing or a day's evening listed is not a mystery.
  const kept = standingLines(found, facts, language);
  const narrowed = window.from > 1 || window.to < facts.slotsPerDay;
  const slots = narrowed
    ? say(
        language,
        ` in ${slotWords(window.from, window.to, facts, language)}`,
        `（${slotWords(window.from, window.to, facts, language)}）`,
      )
    : "";
  if (runs.length === 0) {
    const where = days ? days.map((day) => dayName(day, facts, language)).join(say(language, ", ", "、")) : "";
    return finish(
      end,
      "",
      say(
        language,
        `You have no free run of ${request.minLength} slot(s)${slots}${days ? ` on ${where}` : " this week"}.`,
        `${days ? where : "本周"}${slots}没有连续 ${request.minLength} 节的空闲时间。`,
      ) +
        kept.map((line) => say(language, ` ${line}`, line)).join("") +
        past,
    );
  }
  const byDay = new Map<number, string[]>();
  for (const run of runs) {
    const text = `${slotWords(run.start, run.end, facts, language)}${run.hostId ? say(language, ` (inside ${run.hostId}, free for a review task)`, `（在 ${run.hostId} 内，可放复习任务）`) : ""}`;
    byDay.set(run.day, [...(byDay.get(run.day) ?? []), text]);
  }
  const lines = [...byDay].map(
    ([day, texts]) =>
      `- ${dayName(day, facts, language)}${say(language, ": ", "：")}${texts.join(say(language, ", ", "，"))}`,
  );
  return finish(
    end,
    "",
    [
      say(language, `You are free${slots}:`, `你有空的时间${slots}：`),
      ...lines,
      ...kept,
      ...(past ? [past.trim()] : []),
    ].join("\n"),
  );
}

/**
 * What find_free noted of the standing preferences, a sentence each: the days they left out (ruled out whole, or their
 * hours leaving no slot), the days asked whose hours they leave none of, and the hours they keep reviews to where the
 * free time reaches past them.
 */
function standingLines(found: FindFreeData | undefined, facts: WeekFacts, language: Language): string[] {
  const notes = found?.standingHours ?? [];
  // (A note of every day the search kept is said of every day.)
  const kept = (facts.totalDays ?? 0) - (found?.standingLeftOut?.length ?? 0);
  const days = (list: readonly number[], every = false) =>
    every && list.length > 1 && list.length === kept
      ? say(language, "every day", "每天")
      : list.map((day) => dayName(day, facts, language)).join(say(language, ", ", "、"));
  const preference = (rules: readonly string[]) =>
    rules
      .map((rule) => JSON.parse(rule) as string)
      .map((text) => say(language, JSON.stringify(text), `“${text}”`))
      .join(say(language, " and ", "和"));
  const byHours = new Set(notes.filter((note) => note.leftOut).flatMap((note) => note.days));
  const wholeDays = (found?.standingLeftOut ?? []).filter((day) => !byHours.has(day));
  const lines =
    wholeDays.length > 0
      ? [
          say(
            language,
            `Not counted: ${days(wholeDays)} (your standing preferences rule out reviews there).`,
            `未计入：${days(wholeDays)}（你的长期偏好不在那里安排复习）。`,
          ),
        ]
      : [];
  for (const note of notes) {
    const rules = preference(note.rules);
    if (note.leftOut)
      lines.push(
        say(
          language,
          `Not counted: ${days(note.days)} (your standing preference ${rules} leaves reviews no time there).`,
          `未计入：${days(note.days)}（你的长期偏好${rules}不给复习留时间）。`,
        ),
      );
    else if (!note.slots)
      lines.push(
        say(
          language,
          `Your standing preference ${rules} leaves reviews no time on ${days(note.days)}.`,
          `你的长期偏好${rules}在${days(note.days)}不给复习留时间。`,
        ),
      );
    else {
      const hours = slotWords(note.slots.from, note.slots.to, facts, language);
      const where = days(note.days, true);
      lines.push(
        say(
          language,
          `${where === "every day" ? "Every day" : `On ${where}`}, your standing preference ${rules} keeps reviews to ${hours}.`,
          `${where}，你的长期偏好${rules}只允许复习安排在 ${hours}。`,
        ),
      );
    }
  }
  return lines;
}

/** "I could not look that up: …" for a read the tool refused (`why`, as it said it). */
export function couldNotLookUp(why: string, language: Language): string {
  return say(language, `I could not look that up: ${why}`, `查询失败：${why}`);
}

/** What's on a day: query_range, answered segment by segment. */
export function dayStep(
  rounds: RoundView[],
  request: Extract<ScheduleRequest, { kind: "day" }>,
  facts: WeekFacts,
  end: Finish,
  language: Language,
): Decision {
  const days = allowedDays(request.where, facts) ?? [1];
  const window = slotRangeOf(request.where.slots, facts);
  // A window with no slot of the day: said, and no query (query_range takes no empty slot range).
  const noSlot = emptyWindowWhy(request.where.slots, facts, "en");
  if (noSlot !== undefined)
    return finish(end, emptyWindowEnding(request.where.slots, facts, language), notCarriedOut(noSlot));
  const query = rounds.findLast((round) => round.name === "query_range" && !round.summarised);
  if (!query) {
    const first = days[0] ?? 1;
    const last = Math.min(days.at(-1) ?? first, first + 13);
    const args = { day: first, ...(last > first ? { day_end: last } : {}), ...slotBounds(window, facts) };
    return read(
      say(language, "Looking at the day.", "正在查看这一天。"),
      "query_range",
      args,
      "the question is about what is on a day",
    );
  }
  if (callResultOf(query) === "failed") return finish(end, "", couldNotLookUp(failureOf(query), language));
  const shown = toolDataOf(query, "query_range");
  if (!shown)
    return read(
      say(language, "Looking at the day.", "正在查看这一天。"),
      "query_range",
      query.arguments,
      "the question is about what is on a day",
    );
  const wanted = new Set(days);
  const lines: string[] = [];
  for (const day of shown.days) {
    if (!wanted.has(day.day)) continue;
    lines.push(
      say(
        language,
        `${dayName(day.day, facts, language)}, ${slotWords(day.slotStart, day.slotEnd, facts, language)}:`,
        `${dayName(day.day, facts, language)}，${slotWords(day.slotStart, day.slotEnd, facts, language)}：`,
      ),
    );
    for (const segment of day.segments)
      lines.push(
        `- ${slotWords(segment.start, segment.end, facts, language)}${say(language, ": ", "：")}${segmentWords(segment, day.day, facts, language)}`,
      );
  }
  return finish(end, "", lines.join("\n"));
}

/**
 * A segment of a day in a person's words. With the clock, started time is not offered as free ("passed, no longer
 * free"), and a review whose time has started without being marked done says so (its time has passed, or it is under
 * way): the place tools refuse started slots, and a review left unmarked is not silently counted as done.
 */
function segmentWords(segment: RangeSegment, day: number, facts: WeekFacts, language: Language): string {
  const { occupant } = segment;
  if (!segment.started) return readableOccupant(occupant, language);
  if (occupant.kind === "free") return say(language, "passed, no longer free", "已过去，不再空闲");
  const review = occupant.kind === "task" ? occupant : occupant.kind === "event" ? occupant.embedded : undefined;
  const endTime = facts.slotTimes?.[segment.end - 1]?.end;
  const today = todayOf(facts);
  const ended =
    today === undefined ||
    day < today ||
    (endTime !== undefined && facts.now !== undefined && endTime <= facts.now.time);
  // A host whose time has passed without a review has no room left for one.
  const text = readableOccupant(occupant, language, !ended);
  if (review?.status !== "placed") return text;
  return ended
    ? say(language, `${text} — its time has passed and it is not marked done`, `${text}——时间已过，尚未标记完成`)
    : say(language, `${text} — under way, not marked done yet`, `${text}——正在进行，尚未标记完成`);
}

/**
 * What comes next from now: the days ahead (today and the six after it, within the window) read with query_range, and
 * the answer names what is on now, the next thing that has not started, and the next review when that is something
 * else. A slot whose clock time is not known counts as ahead; without a clock, the window's first day is "today".
 */
export function nextStep(rounds: RoundView[], facts: WeekFacts, end: Finish, language: Language): Decision {
  const today = facts.now ? todayOf(facts) : 1;
  if (today === undefined)
    return finish(
      end,
      "",
      say(
        language,
        "Today is not in your schedule's window, so nothing in it comes next.",
        "今天不在日程的时间范围内，所以没有接下来的安排。",
      ),
    );
  const last = Math.min(facts.totalDays ?? today + 6, today + 6);
  const query = rounds.findLast((round) => round.name === "query_range" && !round.summarised);
  const shown = query && callResultOf(query) !== "failed" ? toolDataOf(query, "query_range") : undefined;
  if (query && callResultOf(query) === "failed") return finish(end, "", couldNotLookUp(failureOf(query), language));
  if (!shown) {
    const args: Record<string, unknown> = { day: today };
    if (last > today) args.day_end = last;
    return read(
      say(language, "Looking at the days ahead.", "正在查看接下来几天。"),
      "query_range",
      args,
      "the question is about what comes next",
    );
  }
  const time = facts.now?.time;
  const slotStart = (slot: number) => facts.slotTimes?.[slot - 1]?.start;
  const slotEnd = (slot: number) => facts.slotTimes?.[slot - 1]?.end;
  const busy = shown.days
    .filter((day) => day.day >= today)
    .flatMap((day) =>
      day.segments.filter((segment) => segment.occupant.kind !== "free").map((segment) => ({ day: day.day, segment })),
    )
    // Ended already (today, before now): not what comes next.
    .filter(({ day, segment }) => !(day === today && time !== undefined && (slotEnd(segment.end) ?? "99:99") <= time));
  const started = (entry: (typeof busy)[number]) =>
    entry.day === today && time !== undefined && (slotStart(entry.segment.start) ?? "99:99") <= time;
  const isReview = (occupant: RangeOccupant) =>
    occupant.kind === "task" || (occupant.kind === "event" && occupant.embedded !== undefined);
  const place = (entry: (typeof busy)[number]) =>
    `${dayName(entry.day, facts, language)}${say(language, ", ", "，")}${slotWords(entry.segment.start, entry.segment.end, facts, language)}`;
  const now = busy.find(started);
  const next = busy.find((entry) => !started(entry));
  const review = busy.find((entry) => !started(entry) && isReview(entry.segment.occupant));
  const through = dayName(shown.days.at(-1)?.day ?? last, facts, language);
  const lines: string[] = [];
  if (now)
    lines.push(
      say(
        language,
        `Now: ${readableOccupant(now.segment.occupant, language)} (${place(now)}).`,
        `现在：${readableOccupant(now.segment.occupant, language)}（${place(now)}）。`,
      ),
    );
  lines.push(
    next
      ? say(
          language,
          `Next: ${readableOccupant(next.segment.occupant, language)} (${place(next)}).`,
          `接下来：${readableOccupant(next.segment.occupant, language)}（${place(next)}）。`,
        )
      : say(language, `Nothing else is on from now through ${through}.`, `从现在到${through}没有别的安排。`),
  );
  if (review && review !== next) {
    const occupant = review.segment.occupant;
    const name =
      occupant.kind === "event"
        ? (occupant.embedded?.name ?? occupant.name)
        : occupant.kind === "task"
          ? occupant.name
          : "";
    lines.push(
      say(language, `Your next review: ${name} (${place(review)}).`, `下一个复习：${name}（${place(review)}）。`),
    );
  }
  if (!review)
    lines.push(say(language, `No review is placed from now through ${through}.`, `从现在到${through}没有安排复习。`));
  return finish(end, "", lines.join(say(language, " ", "")));
}

/**
 * What occupies a run of slots, in a person's words: `Calculus lecture (locked)` (`微积分课（锁定）`). Ids stay out of the
 * answer (they are the tools' words, not the user's; `/debug` shows them). `open`: false for a host whose time has
 * started (it is no longer "free for embedding").
 */
function readableOccupant(occupant: RangeOccupant, language: Language, open = true): string {
  const named = (name: string, flags: string[] = []) =>
    flags.length === 0 ? name : language === "zh" ? `${name}（${flags.join("，")}）` : `${name} (${flags.join(", ")})`;
  if (occupant.kind === "free") return say(language, "free", "空闲");
  if (occupant.kind === "task") return named(occupant.name);
  const flags = [
    ...(occupant.locked ? [say(language, "locked", "锁定")] : []),
    ...(occupant.canEmbed ? [say(language, "embeddable", "可嵌入")] : []),
  ];
  const event = named(occupant.name, flags);
  if (!occupant.canEmbed) return event;
  const guest = occupant.embedded;
  if (!guest && !open) return event;
  return guest
    ? `${event}${say(language, "; inside it: ", "；其中：")}${named(guest.name)}`
    : `${event}${say(language, ", free for embedding", "，可嵌入复习任务")}`;
}
