/**
 * Small helpers over `SlotRange`: length, equality, containment, and the
 * window bounds check every write tool runs before it looks for conflicts.
 */
import type { ScheduleWindow, SlotRange } from "./state.js";
import { saySummary } from "./summary-phrases.js";

/** Number of slots in a range. */
export function rangeLength(range: SlotRange): number {
  return range.end - range.start + 1;
}

/** True when two ranges cover the same slots. */
export function rangesEqual(left: SlotRange, right: SlotRange): boolean {
  return left.day === right.day && left.start === right.start && left.end === right.end;
}

/** True when two lists of ranges are equal, element by element. */
export function rangeListsEqual(left: readonly SlotRange[], right: readonly SlotRange[]): boolean {
  return (
    left.length === right.length &&
    left.every((range, index) => {
      const other = right[index];
      return other !== undefined && rangesEqual(range, other);
    })
  );
}

/** True when `inner` lies entirely inside `outer`. */
export function rangeContains(outer: SlotRange, inner: SlotRange): boolean {
  return outer.day === inner.day && outer.start <= inner.start && inner.end <= outer.end;
}

/** A copy of a range, so data never shares the state's objects. */
export function copyRange(range: SlotRange): SlotRange {
  return { day: range.day, start: range.start, end: range.end };
}

/** The range of `length` slots starting at `start` on `day`. */
export function rangeFrom(day: number, start: number, length: number): SlotRange {
  return { day, start, end: start + length - 1 };
}

/** Why a range does not fit the window, or undefined when it fits. */
export function windowProblem(
  window: Pick<ScheduleWindow, "totalDays" | "slotsPerDay">,
  range: SlotRange,
): string | undefined {
  if (!Number.isInteger(range.day) || range.day < 1 || range.day > window.totalDays) {
    return saySummary("en", "outsideWindow", { day: range.day, lastDay: window.totalDays });
  }
  if (!Number.isInteger(range.start) || range.start < 1 || range.start > window.slotsPerDay) {
    return saySummary("en", "outsideDay", { slot: range.start, lastSlot: window.slotsPerDay });
  }
  if (!Number.isInteger(range.end) || range.end < range.start || range.end > window.slotsPerDay) {
    return saySummary("en", "pastDayEnd", { start: range.start, end: range.end, lastSlot: window.slotsPerDay });
  }
  return undefined;
}

/**
 * A break of the day's clock (lunch, dinner): more than this many minutes between one slot's end and the next one's
 * start. The default grid's 10- and 20-minute pauses between sections are no break; its 11:40–14:00 and 17:40–19:00
 * are.
 */
export const BREAK_MINUTES = 30;

/** Minutes after midnight of "HH:MM". */
function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/**
 * Per slot of a window with clock times: `breaks[slot]` is 1 when a break follows `slot` (slots 1 … slotsPerDay − 1);
 * undefined without clock times (a grid of bare slots has no breaks).
 */
export function breaksOf(window: Pick<ScheduleWindow, "slotTimes"> | undefined): Uint8Array | undefined {
  const times = window?.slotTimes;
  if (!times || times.length < 2) return undefined;
  const breaks = new Uint8Array(times.length + 1);
  let any = false;
  for (let slot = 1; slot < times.length; slot += 1)
    if (minutesOf(times[slot]!.start) - minutesOf(times[slot - 1]!.end) > BREAK_MINUTES) {
      breaks[slot] = 1;
      any = true;
    }
  return any ? breaks : undefined;
}

/**
 * The slot of `range` a break follows inside it, or undefined: a task item's slots run without a break between them
 * (a two-slot review is not 10:55–11:40 and 14:00–14:45, told as "10:55–14:45").
 */
export function breakInside(
  range: SlotRange,
  window: Pick<ScheduleWindow, "slotTimes"> | undefined,
): number | undefined {
  const breaks = breaksOf(window);
  if (!breaks) return undefined;
  for (let slot = range.start; slot < range.end; slot += 1) if (breaks[slot] === 1) return slot;
  return undefined;
}
