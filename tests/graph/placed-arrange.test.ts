/**
 * "put the essay on Sunday", "schedule the essay on Sunday", "let's do the essay on Sunday", "把作文安排到周日" when the
 * essay is placed already (on Saturday): a move there. Before, the plan placed pending tasks only, its step ended
 * "already on the schedule" and nothing moved; "do the essay on Sunday" was not understood at all. The stored week is
 * the oracle: each task named is on the day named, every other review is where it was.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo, SAMPLE_WEEK_EVE } from "./support/offline-conversation.js";

const isChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);

async function after(request: string) {
  const week = halfPlacedWeek({ chinese: isChinese(request) });
  const outcome = await converse(await offlineTempo(week, () => SAMPLE_WEEK_EVE), request);
  expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
  const reviews = week.tasks.filter((task): task is TaskItem => task.source === "task_item");
  const now = (id: string) => outcome.schedule.tasks.find((task) => task.id === id) as TaskItem;
  return { outcome, reviews, now };
}

describe("a task placed already, arranged to a place named", () => {
  test.each([
    ["put the essay on Sunday", ["essay-draft"]],
    ["schedule the essay on Sunday", ["essay-draft"]],
    ["let's do the essay on Sunday", ["essay-draft"]],
    ["I'd rather do the essay on Sunday", ["essay-draft"]],
    ["把作文安排到周日", ["essay-draft"]],
    ["do the essay and the matrix review on Sunday", ["essay-draft", "matrix-review"]],
  ])("%s: %j move to Sunday, every other review stays", async (request, moved) => {
    const { outcome, reviews, now } = await after(request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", ...moved.map(() => "move")]);
    for (const id of moved) expect(now(id).slots!.every((range) => range.day === 7)).toBe(true);
    for (const task of reviews.filter((each) => !moved.includes(each.id)))
      expect({ id: task.id, status: now(task.id).status, slots: now(task.id).slots }).toEqual({
        id: task.id,
        status: task.status,
        slots: task.slots,
      });
    expect(outcome.finalAnswer).toMatch(isChinese(request) ? /^完成/ : /^Done:/);
  });

  test.each(["schedule the essay and the derivative drills on Friday", "把作文和导数练习安排到周五"])(
    "%s: the placed essay moves there and the pending drills are placed there, a step each",
    async (request) => {
      const { outcome, reviews, now } = await after(request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move", "place"]);
      for (const id of ["essay-draft", "derivative-drills"])
        expect(now(id).slots!.every((range) => range.day === 5)).toBe(true);
      for (const task of reviews.filter((each) => !["essay-draft", "derivative-drills"].includes(each.id)))
        expect({ id: task.id, slots: now(task.id).slots }).toEqual({ id: task.id, slots: task.slots });
    },
  );

  test.each(["put the derivative drills and the essay on Sunday", "把导数练习和作文安排到周日"])(
    "%s: the essay moves; the drills, due before Saturday's midterm, fit nowhere, and the answer tells both",
    async (request) => {
      const { outcome, now } = await after(request);
      expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "move"]);
      expect(now("essay-draft").slots!.every((range) => range.day === 7)).toBe(true);
      expect(now("derivative-drills").status).toBe("pending");
      expect(outcome.finalAnswer).toMatch(
        isChinese(request)
          ? /^已按要求移动，但没有安排任何新任务（见下）。/
          : /^Moved what you asked; nothing new was placed \(below\)\./,
      );
    },
  );

  test("a pending task is placed as before, and a placed one put back has nothing to do", async () => {
    const placing = await after("schedule the derivative drills on Friday");
    expect(placing.outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "place"]);
    expect(placing.now("derivative-drills").slots!.every((range) => range.day === 5)).toBe(true);
    const back = await after("put back the essay");
    expect(back.outcome.cards).toEqual([]);
    expect(back.now("essay-draft").slots).toEqual([{ day: 6, start: 1, end: 2 }]);
  });

  test("doing a task on a day is an arrangement of it there; doing it with no place named is not read", () => {
    for (const text of ["do the essay on friday", "I'll do the essay on friday", "i wanna do the essay friday"])
      expect(parseScheduleRequest(text)).toMatchObject({
        kind: "arrange",
        tasks: ["essay"],
        where: { only: { weekdays: [5] } },
      });
    expect(parseScheduleRequest("let's do the essay friday morning")).toMatchObject({
      kind: "arrange",
      where: { slots: { part: "morning" } },
    });
    expect(parseScheduleRequest("do the essay").kind).toBe("unknown");
    expect(parseScheduleRequest("do I have anything on friday").kind).toBe("day");
    expect(parseScheduleRequest("I did the essay on friday")).toMatchObject({ kind: "mark", to: "done" });
  });
});
