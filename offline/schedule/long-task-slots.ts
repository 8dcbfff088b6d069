/** The slots the offline policy asks for a task said in minutes ("write the essay, 4 hours, before Friday"). */

/** Minutes of a slot (a class section) when the week has no clock times: 45. */
export const SLOT_MINUTES = 45;

/** The slots a long task of `minutes` takes in all, as its `add_task` card asks for them. */
export function longTaskSlots(minutes: number): number {
  return Math.max(1, Math.ceil(minutes / SLOT_MINUTES));
}
