/**
 * Numbers as days: "move the essay to 15/3", "把作文挪到3/15" name Friday 15 March; "move the essay to 3/4" could be
 * the 3rd of April or the 4th of March. Before, each read as a move to anywhere: a card for a place the student never
 * named. The stored week is the oracle: the essay goes to Friday, or nothing changes and the reply asks for the day.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, SAMPLE_WEEK_EVE } from "./support/offline-conversation.js";

describe("a date written in numbers", () => {
  test.each(["move the essay to 15/3", "move the essay to 3/15", "把作文挪到3/15"])(
    "%s: the essay goes to Friday 15 March",
    async (request) => {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
      const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
      expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
      const essay = outcome.schedule.tasks.find((task) => task.id === "essay-draft") as TaskItem;
      expect(essay.slots!.every((range) => range.day === 5)).toBe(true);
    },
  );

  // ("schedule the derivative drills at 25:00": no time of a clock, refused as such in hostile-amounts.test.ts.)
  test.each(["move the essay to 3/4"])(
    "%s: no day or time is read, so nothing is proposed and the reply asks for one",
    async (request) => {
      const week = halfPlacedWeek();
      const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
      expect(outcome.cards).toEqual([]);
      expect(outcome.said.join("\n")).toMatch(/I could not read a day or time in/);
      expect(outcome.schedule).toEqual(week);
    },
  );

  test("a number in a task's name, a count or a slot is no unread day", () => {
    expect(parseScheduleRequest("move the vocabulary list unit 5")).toMatchObject({ kind: "move" });
    expect(parseScheduleRequest("move the essay to slot 3")).toMatchObject({
      kind: "move",
      where: { slots: { from: 3 } },
    });
    expect(parseScheduleRequest("push the essay back 2 days")).toMatchObject({ kind: "move", shift: { days: 2 } });
    expect(parseScheduleRequest("move the essay to 15/03/2024")).toMatchObject({
      where: { only: { dates: [{ kind: "date", year: 2024, month: 3, day: 15 }] } },
    });
  });
});
