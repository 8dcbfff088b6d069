/**
 * The clock in a window (issue 47): which of its slots have started. One answer for the week picture (the slots drawn
 * as past), the rules (a write into a started slot is refused) and the search (it never proposes one). A slot has
 * started once the clock, read in the window's time zone, is at or after its start time (its first passing, on a day
 * the clocks go back); a day before today has started whole. A window without dates or a time zone has no past; one
 * without clock times counts today as not started (the clock cannot say which of today's slots are gone).
 */
import { localClock } from "../../contracts/clock.js";
import type { Language } from "../../contracts/language.js";
import { instantOf, steadyDay } from "./event-series.js";
import { formatDate, type ScheduleState, type ScheduleWindow } from "./state.js";

/** The clock in a window: the day it is on and the first slot of that day not yet started. */
export interface WindowClock {
  /** Day index of today: 0 before the window, `totalDays + 1` after it. */
  dayIndex: number;
  /** The first slot of `dayIndex` not yet started (`slotsPerDay + 1` once the whole day has). */
  slot: number;
  /** "HH:MM" in the window's time zone. */
  time: string;
}

/** The clock in `window` at `moment`, or undefined for a window without dates or a time zone (it has no past). */
export function clockIn(
  window: Pick<ScheduleWindow, "days" | "timeZone" | "slotTimes" | "slotsPerDay" | "totalDays">,
  moment: Date,
): WindowClock | undefined {
  if (window.timeZone === undefined || window.days[0]?.date === undefined || Number.isNaN(moment.getTime()))
    return undefined;
  const clock = localClock(moment, window.timeZone);
  const first = window.days[0].date;
  const lastDate = window.days[window.days.length - 1]?.date ?? first;
  if (clock.date < first) return { dayIndex: 0, slot: 1, time: clock.time };
  if (clock.date > lastDate) return { dayIndex: window.totalDays + 1, slot: 1, time: clock.time };
  const dayIndex = window.days.findIndex((day) => day.date === clock.date) + 1;
  const times = window.slotTimes;
  if (times === undefined || times.length !== window.slotsPerDay) return { dayIndex, slot: 1, time: clock.time };
  // A slot has started once the clock reaches its start. On a day the clocks go back a wall time comes twice, and the
  // wall clock runs back an hour: there a slot has started once the first passing of its start has (as instants).
  const zone = window.timeZone;
  const notStarted = steadyDay(clock.date, zone)
    ? (time: { start: string }) => time.start > clock.time
    : (time: { start: string }) => instantOf(clock.date, time.start, zone).getTime() > moment.getTime();
  let slot = times.findIndex(notStarted) + 1;
  if (slot === 0) slot = window.slotsPerDay + 1;
  return { dayIndex, slot, time: clock.time };
}

/** The clock of a state's run (`ScheduleState.now`) in its window, or undefined when it has none or no past. */
export function clockOfState(state: Pick<ScheduleState, "window" | "now">): WindowClock | undefined {
  return state.now === undefined ? undefined : clockIn(state.window, new Date(state.now));
}

/** True when slot `slot` of day `day` has started by `clock` (never without a clock). */
export function hasStarted(day: number, slot: number, clock: WindowClock | undefined): boolean {
  return clock !== undefined && (day < clock.dayIndex || (day === clock.dayIndex && slot < clock.slot));
}

/**
 * Why a place is out of reach, in people's words: "Tue 1 Dec 16:00 has passed" / "12月1日周二 16:00 已经过去了"
 * (the day alone in a window without clock times).
 */
export function passedText(
  window: Pick<ScheduleWindow, "days" | "slotTimes">,
  day: number,
  slot: number,
  language: Language = "en",
): string {
  const date = window.days[day - 1]?.date;
  const when = [date === undefined ? `day ${day}` : formatDate(date, language), window.slotTimes?.[slot - 1]?.start]
    .filter((part) => part !== undefined)
    .join(" ");
  return language === "zh" ? `${when} 已经过去了` : `${when} has passed`;
}
