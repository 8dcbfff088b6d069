/**
 * "Move the essay to this time tomorrow", "把作文挪到明天这个时候": the time of day it is now, on the day said. Before,
 * "this time" was dropped and the essay went to the first free place tomorrow (10:00 when said at 14:05).
 *
 * Swept over six days of the sample week at times in slots, between them and after the last: the step names the time
 * the test works out from the week's slot times on its own (the start of the slot the clock is in, else of the next,
 * else the clock's time), and the week after it is the week after the same move said with that time.
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

const TIMES = ["08:30", "09:50", "14:05", "16:50", "20:00", "23:10"] as const;
const SAID = [
  ["move the essay to this time tomorrow", (at: string) => `move the essay to tomorrow at ${at}`],
  ["move the essay to tomorrow at this time", (at: string) => `move the essay to tomorrow at ${at}`],
  ["把作文挪到明天这个时候", (at: string) => `把作文挪到明天${at}`],
] as const;

/** The time "this time" names at `now` ("HH:MM"), worked out from the sample week's slot times. */
function timeNamed(now: string): string {
  const slots = halfPlacedWeek().window.slotTimes!;
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  const inSlot = slots.find((slot) => minutes(slot.start) <= minutes(now) && minutes(now) < minutes(slot.end));
  return (inSlot ?? slots.find((slot) => minutes(slot.start) > minutes(now)))?.start ?? now;
}

async function weekAfter(said: string, today: number, time: string) {
  const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(said) });
  const now = () => new Date(`2024-03-${String(10 + today).padStart(2, "0")}T${time}:00+08:00`);
  return converse(await offlineTempo(week, now), said);
}

describe("this time tomorrow: the time of day it is now", () => {
  test.each(
    SAID.flatMap(([said, twin]) =>
      [1, 2, 3, 4, 5, 6].flatMap((today) => TIMES.map((time) => [said, today, time, twin] as const)),
    ),
  )("'%s' on day %i at %s", async (said, today, time, twin) => {
    const at = timeNamed(time);
    const [outcome, twinned] = await Promise.all([weekAfter(said, today, time), weekAfter(twin(at), today, time)]);
    expect(outcome.planSteps).toHaveLength(1);
    expect(outcome.planSteps[0]).toContain(at);
    expect(outcome.planSteps).toEqual(twinned.planSteps);
    expect(reviewPlaces(outcome.schedule)).toEqual(reviewPlaces(twinned.schedule));
  });

  test("the sweep meets a move made and a move refused", async () => {
    const moved = await weekAfter("move the essay to this time tomorrow", 2, "09:50");
    expect(reviewPlaces(moved.schedule)).toContain("essay-draft day 3 slots 3-4");
    const taken = await weekAfter("move the essay to this time tomorrow", 2, "14:05");
    expect(reviewPlaces(taken.schedule)).toEqual(reviewPlaces(halfPlacedWeek()));
    expect(taken.said.at(-1)).toMatch(/14:00/);
  });

  test("'the same time tomorrow' is still the time the task has now, not the clock's", async () => {
    const outcome = await weekAfter("move the essay to the same time tomorrow", 2, "14:05");
    expect(outcome.planSteps[0]).toMatch(/at the same time$/);
  });
});
