/**
 * A window of the day that holds no slot: a limit no slot meets ("before 8:30" when the first slot ends at 08:45,
 * "after 22:30" when the last starts at 21:45, "not before 23"), limits no slot meets at once ("in the morning after
 * 12", "between 9pm and 8am", "slots 5-3"), or a window of today whose slots have all started ("today before 10" at
 * 09:00). The plan stage says why and asks for another time before any plan card; the execute stage ends a step whose
 * words name such a window (an edited step) without calling a tool: a tool never gets `slots.to` below `slots.from`.
 * Said from the phrase table (`tools/schedule/summary-phrases.ts`).
 */
import { partInChinese, type Language } from "../../contracts/language.js";
import { resolveSlotWindow, type SlotWindow, type Where } from "../../tools/schedule/request-parsing.js";
import { saySummary, type SummaryKey } from "../../tools/schedule/summary-phrases.js";
import { resolveDays, slotRangeOf, type WeekFacts } from "./week-facts.js";

/** True when slots `from`…`to` hold no slot of a day of `slotsPerDay` slots. */
export function isEmptyRange(range: { from: number; to: number }, slotsPerDay: number): boolean {
  return range.from > range.to || range.to < 1 || range.from > slotsPerDay;
}

/** "HH:00" for the hour of "not before 10". */
function hourText(hour: number): string {
  return `${String(hour).padStart(2, "0")}:00`;
}

/** The limits of the clock a window names ("before 10", "after 22:30", "not before 9"). */
function clockLimitsOf(window: SlotWindow): string[] {
  const { endsBy, startsFrom, notBeforeHour } = window;
  return [endsBy, startsFrom, notBeforeHour === undefined ? undefined : hourText(notBeforeHour)].filter(
    (limit) => limit !== undefined,
  );
}

/**
 * Why `window` holds no slot of the day, in `language` (a phrase of the table, lower-case first), or undefined when it
 * holds one. A single limit that no slot meets is named with the slot nearest to it; limits that only clash are named
 * each.
 */
export function emptyWindowWhy(window: SlotWindow, facts: WeekFacts, language: Language): string | undefined {
  if (!isEmptyRange(slotRangeOf(window, facts), facts.slotsPerDay)) return undefined;
  const times = facts.slotTimes;
  const clockLimits = clockLimitsOf(window);
  // One limit of the clock that no slot meets: named with the slot nearest to it ("between 9pm and 8am" names both).
  if (times !== undefined && times.length > 0 && clockLimits.length === 1) {
    const first = times[0]!;
    const last = times.at(-1)!;
    const endsBy = window.endsBy;
    if (endsBy !== undefined && !times.some((time) => time.end <= endsBy))
      return saySummary(language, "noSlotEndsBy", { at: endsBy, first: first.start, last: first.end });
    for (const start of [
      window.startsFrom,
      window.notBeforeHour === undefined ? undefined : hourText(window.notBeforeHour),
    ])
      if (start !== undefined && !times.some((time) => time.start >= start))
        return saySummary(language, "noSlotStartsFrom", { at: start, first: last.start, last: last.end });
  }
  const named = resolveSlotWindow({ from: window.from, to: window.to }, facts.slotsPerDay);
  if (
    (window.from !== undefined || window.to !== undefined) &&
    !window.part &&
    (times === undefined || clockLimits.length === 0)
  )
    return saySummary(language, "noSlotInSlots", { start: named.from, end: named.to, count: facts.slotsPerDay });
  const limits: string[] = [];
  if (window.part) {
    const part = resolveSlotWindow({ part: window.part }, facts.slotsPerDay);
    limits.push(
      saySummary(language, "windowPart", {
        part: language === "zh" ? partInChinese(window.part) : window.part,
        start: part.from,
        end: part.to,
      }),
    );
  }
  if (window.from !== undefined || window.to !== undefined)
    limits.push(saySummary(language, "windowSlots", { start: named.from, end: named.to }));
  if (times !== undefined) {
    if (window.notBeforeHour !== undefined)
      limits.push(saySummary(language, "windowStartsFrom", { at: hourText(window.notBeforeHour) }));
    if (window.startsFrom !== undefined)
      limits.push(saySummary(language, "windowStartsFrom", { at: window.startsFrom }));
    if (window.endsBy !== undefined) limits.push(saySummary(language, "windowEndsBy", { at: window.endsBy }));
  }
  return saySummary(language, "noSlotWithin", { window: limits.join(language === "zh" ? "、" : " and ") });
}

/** True when a window limits the slots of a day: a part of it, slot numbers, or a limit by the clock. */
export function limitsSlots(window: SlotWindow): boolean {
  return [
    window.part,
    window.notPart,
    window.from,
    window.to,
    window.notBeforeHour,
    window.endsBy,
    window.startsFrom,
  ].some((limit) => limit !== undefined);
}

/**
 * Why a window the request limits by the clock has no slot left, in `language`, or undefined: the only day it names is
 * today, and every slot the window allows that day has started ("today before 10" at 09:00, when the slots that end
 * by 10:00 start at 08:00 and 08:55). A slot has started once the clock is at its start
 * (`tools/schedule/window-clock.ts`).
 */
export function passedWindowWhy(where: Where, facts: WeekFacts, language: Language): string | undefined {
  const { now, slotTimes } = facts;
  // A limit by the clock only: a part of the day or slot numbers that have passed are planned, and the passed time is
  // left out, as before ("move it to this morning" at 14:30).
  if (now === undefined || slotTimes === undefined || clockLimitsOf(where.slots).length === 0) return undefined;
  const days = resolveDays(where.only, facts);
  if (days.length === 0 || days.some((day) => facts.dates.get(day) !== now.date)) return undefined;
  const range = slotRangeOf(where.slots, facts);
  if (isEmptyRange(range, facts.slotsPerDay)) return undefined;
  const last = slotTimes[Math.min(range.to, slotTimes.length) - 1];
  if (last === undefined || last.start > now.time) return undefined;
  return saySummary(language, "noSlotLeftToday", { at: now.time, first: last.start });
}

/**
 * The plan stage's question for a window that holds no slot, or none left today by the clock, in `language` ("No
 * slot of the day ends by 08:30: the first one runs 08:00–08:45. Which time do you mean instead?"), or undefined when
 * the window holds one.
 */
export function emptyWindowQuestion(where: Where, facts: WeekFacts, language: Language): string | undefined {
  const why = emptyWindowWhy(where.slots, facts, language) ?? passedWindowWhy(where, facts, language);
  if (why === undefined) return undefined;
  const asked = saySummary(language, "noSlotAsk", { why });
  return `${asked.charAt(0).toUpperCase()}${asked.slice(1)}`;
}

/**
 * What a step says when its window holds no slot of the day, in `language`: why, and what it did not do ("No slot of
 * the day is in slots 1-0 (a day has slots 1-12); nothing was placed.").
 */
export function emptyWindowEnding(
  window: SlotWindow,
  facts: WeekFacts,
  language: Language,
  undone?: Extract<SummaryKey, "nothingPlaced" | "nothingMoved">,
): string {
  const didNot = undone === undefined ? "" : saySummary(language, undone);
  const said = `${emptyWindowWhy(window, facts, language) ?? ""}${didNot}${language === "zh" ? "。" : "."}`;
  return `${said.charAt(0).toUpperCase()}${said.slice(1)}`;
}
