/**
 * What the offline policy knows about the window from its prompt: the number
 * of days and of slots per day, and which weekday each day index is (from
 * the live state's and get_overview's and query_range's data, or the lines of
 * compressed rounds' summaries).
 * Without them it assumes a window that starts on a Monday, as the sample
 * week and the generated schedules do.
 */
import type { PromptView } from "../../offline/prompt-reading.js";
import { resolveSlotWindow, type DaySelection, type SlotWindow } from "./request-parsing.js";
import { liveOverviewOf, toolDataOf } from "./tool-data.js";

/** Facts about the window. */
export interface WeekFacts {
  /** Days in the window, when known. */
  totalDays?: number;
  /** Slots per day (12 unless a tool result says otherwise). */
  slotsPerDay: number;
  /** Day index → weekday (1 = Monday), for the days a tool result listed. */
  weekdays: Map<number, number>;
}

const DOW = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Reads the window facts from tool-result text (the summaries of compressed rounds). */
function readWeekFacts(text: string): WeekFacts {
  const facts: WeekFacts = { slotsPerDay: 12, weekdays: new Map() };
  const header = /schedule: ([\d,]+) days.*?, (\d+) slots per day/.exec(text);
  if (header) {
    facts.totalDays = Number((header[1] ?? "0").replaceAll(",", ""));
    facts.slotsPerDay = Number(header[2]);
  }
  for (const match of text.matchAll(/day (\d+) week \d+ (Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/g)) {
    facts.weekdays.set(Number(match[1]), DOW.indexOf(match[2] ?? ""));
  }
  return facts;
}

/**
 * The window facts a prompt shows: from the data of its live state (the preflight overview) and of its whole
 * get_overview and query_range rounds, and from the summary lines of compressed rounds (text: they have no data).
 */
export function weekFactsOf(view: PromptView): WeekFacts {
  const facts = readWeekFacts(view.rounds.filter((round) => round.summarised).map((round) => round.result).join("\n"));
  const overviews = [liveOverviewOf(view), ...view.rounds.map((round) => toolDataOf(round, "get_overview"))];
  for (const overview of overviews) {
    if (overview && facts.totalDays === undefined) [facts.totalDays, facts.slotsPerDay] = [overview.totalDays, overview.slotsPerDay];
    for (const day of overview?.days ?? []) facts.weekdays.set(day.day, day.dayOfWeek);
  }
  for (const round of view.rounds) for (const day of toolDataOf(round, "query_range")?.days ?? []) if (day.dayOfWeek !== undefined) facts.weekdays.set(day.day, day.dayOfWeek);
  return facts;
}

/** The weekday of a day index: as listed, else counted from a Monday. */
export function weekdayOf(facts: WeekFacts, day: number): number {
  return facts.weekdays.get(day) ?? ((day - 1) % 7) + 1;
}

/** The day indices a selection names in the window (every occurrence of a weekday), ascending. */
export function resolveDays(selection: DaySelection, facts: WeekFacts): number[] {
  const total = facts.totalDays ?? Math.max(7, ...facts.weekdays.keys(), ...selection.days);
  const days = new Set(selection.days.filter((day) => day <= total));
  if (selection.weekdays.length > 0) {
    for (let day = 1; day <= total; day += 1) if (selection.weekdays.includes(weekdayOf(facts, day))) days.add(day);
  }
  return [...days].sort((a, b) => a - b);
}

/** The slot range a window allows, for these facts. */
export function slotRangeOf(window: SlotWindow, facts: WeekFacts): { from: number; to: number } {
  return resolveSlotWindow(window, facts.slotsPerDay);
}
