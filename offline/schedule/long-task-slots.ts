/**
 * The slots the offline policy asks for a task said in minutes ("write the essay, 4 hours, before Friday"), and the
 * parts a task longer than one task holds is said back in.
 */
import { MAX_TASK_SLOTS } from "../../tools/schedule/tools/index.js";

/** Minutes of a slot (a class section) when the week has no clock times: 45. */
export const SLOT_MINUTES = 45;

/** The slots a long task of `minutes` takes in all, as its `add_task` card asks for them. */
export function longTaskSlots(minutes: number): number {
  return Math.max(1, Math.ceil(minutes / SLOT_MINUTES));
}

/** True when a long task of `minutes` takes more slots than one task holds ({@link MAX_TASK_SLOTS}). */
export function isOverTaskCap(minutes: number): boolean {
  return longTaskSlots(minutes) > MAX_TASK_SLOTS;
}

/**
 * A long task of `minutes` in parts that fit: its `hours`, the `most` hours a task holds (in the slots a long task's
 * minutes become), and the hours of each of the fewest equal whole-hour parts (`part`).
 */
export function taskParts(minutes: number): { hours: number; most: number; part: number } {
  const most = Number(((MAX_TASK_SLOTS * SLOT_MINUTES) / 60).toFixed(2));
  const hours = Number((minutes / 60).toFixed(2));
  return { hours, most, part: Math.min(Math.floor(most), Math.ceil(hours / Math.ceil(hours / most))) };
}
