/**
 * Small helpers over `SlotRange`: length, equality, containment, and the
 * window bounds check every write tool runs before it looks for conflicts.
 */
import type { ScheduleWindow, SlotRange } from "./state.js";

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
    return `day ${range.day} is outside the window (days 1-${window.totalDays})`;
  }
  if (!Number.isInteger(range.start) || range.start < 1 || range.start > window.slotsPerDay) {
    return `slot ${range.start} is outside the day (slots 1-${window.slotsPerDay})`;
  }
  if (!Number.isInteger(range.end) || range.end < range.start || range.end > window.slotsPerDay) {
    return `slots ${range.start}-${range.end} run past the end of the day (slots 1-${window.slotsPerDay})`;
  }
  return undefined;
}
