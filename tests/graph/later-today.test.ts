/**
 * "move the vocabulary list to later today" said on Wednesday morning, with the list on Thursday: before, "today" was
 * dropped and the list went later on Thursday, its own day. Now a review on another day goes to today, from the
 * clock on ("later tonight": this evening); a review on today goes later than its own start, as "to later" moves it;
 * "to later" alone still means later on its own day. The stored week is the oracle.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { converse, HALF_PLACED, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai (slot 3 has started; slot 4 starts at 10:55). */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");
/** Saturday 16 March, 07:00: the essay (Saturday 08:00) is today and ahead. */
const SATURDAY_EARLY = () => new Date("2024-03-16T07:00:00+08:00");

function placeOf(outcome: { schedule: { tasks: unknown[] } }, id: string) {
  return (outcome.schedule.tasks as TaskItem[]).find((task) => task.id === id)!.slots![0]!;
}

describe("later today", () => {
  test.each([
    ["move the vocabulary list to later today", 4],
    ["move the vocabulary list later tonight", 9],
    // Before, "今天晚些时候" was read into the task's name (asked about) and "今天晚点" as today, where it was not.
    ["把单词表挪到今天晚些时候", 4],
    ["把单词表挪到今晚晚一点", 9],
  ])("%s, said on Wednesday with the list on Thursday: today, from the clock", async (request, firstSlot) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const { day, start } = placeOf(outcome, "vocabulary-list");
    expect(day).toBe(3);
    expect(start).toBeGreaterThanOrEqual(firstSlot);
  });

  test("push the vocabulary list to later: later on its own day, as before", async () => {
    const outcome = await converse(
      await offlineTempo(halfPlacedWeek(), WEDNESDAY),
      "push the vocabulary list to later",
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
    const { day, start } = placeOf(outcome, "vocabulary-list");
    expect(day).toBe(HALF_PLACED["vocabulary-list"]![0]);
    expect(start).toBeGreaterThan(HALF_PLACED["vocabulary-list"]![1]);
  });

  test.each(["move the essay to later today", "把作文挪到今天晚点"])(
    "%s, said on its own day before it: later than its own start",
    async (request) => {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
      const outcome = await converse(await offlineTempo(week, SATURDAY_EARLY), request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
      const { day, start } = placeOf(outcome, "essay-draft");
      expect(day).toBe(6);
      expect(start).toBeGreaterThan(HALF_PLACED["essay-draft"]![1]);
    },
  );
});
