/**
 * A task named with another number than any task has ("I finished the week 3 problem set" beside "week 1 problem set"
 * and "week 2 problem set") matched the task that shares the most words: the plan said `Mark "week 3 problem set"
 * done` and the card marked "week 1 problem set" done — in English, in Chinese ("我做完第3周习题了" → 第1周习题), for a
 * missed mark and for a move. A number said that differs from the task's is no match: no write card is raised, the
 * week is unchanged and the answer says no task matches; the number a task has still names it.
 */
import { describe, expect, test } from "vitest";
import { datedWindow, placeTool, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";

/** Thursday 10 September 2026, 21:00 in Shanghai: Monday's reviews are over. */
const THURSDAY_NIGHT = new Date("2026-09-10T21:00:00+08:00").toISOString();

/** Four reviews whose names differ in a number, placed on Monday 7 September 2026 (Shanghai). */
function numberedWeek(): ScheduleState {
  const review = (id: string, name: string): TaskItem => ({
    id,
    name,
    source: "task_item",
    duration: 1,
    categoryId: "calculus",
    status: "pending",
  });
  let week: ScheduleState = {
    window: datedWindow({ firstDate: "2026-09-07", days: 7, timeZone: "Asia/Shanghai" }),
    categories: [{ id: "calculus", name: "Calculus" }],
    tasks: [
      review("p1", "week 1 problem set"),
      review("p2", "week 2 problem set"),
      review("z1", "第1周习题"),
      review("c1", "chapter 1 quiz prep"),
    ],
  };
  ["p1", "p2", "z1", "c1"].forEach((id, index) => {
    const ran = placeTool.run(week, { task_id: id, day: 1, slot_start: index + 1 });
    if (!ran.ok || !ran.state) throw new Error(`numberedWeek: ${ran.content}`);
    week = ran.state;
  });
  return week;
}

describe("a task named with another number matches no task", () => {
  test.each([
    ["I finished the week 3 problem set", "week 3 problem set"],
    ["I missed the chapter 3 quiz prep", "chapter 3 quiz prep"],
    ["move the week 3 problem set to Friday", "week 3 problem set"],
    ["我做完第3周习题了", "第3周习题"],
  ])("%s: no write card; asked which task, as for an unknown name; the week unchanged", async (request, phrase) => {
    const week = numberedWeek();
    const outcome = await converse(await offlineTempo(week), request, [], undefined, "student", {
      now: THURSDAY_NIGHT,
    });
    // The plan card (not for a move: it asks before planning) and the question; no write card.
    expect(outcome.cards.map((card) => card.action).filter((action) => action !== "confirm_plan")).toEqual([
      "ask_user",
    ]);
    expect(outcome.schedule.tasks).toEqual(week.tasks);
    const said = outcome.said.join("\n");
    expect(said).toMatch(
      /[\u4e00-\u9fff]/.test(request)
        ? `我没有找到与“${phrase}”匹配的任务`
        : new RegExp(`I found no (placed )?task matching "${phrase}"`),
    );
    // No task is said as the one meant ("Marking "week 1 problem set" done").
    for (const name of ["week 1 problem set", "week 2 problem set", "第1周习题", "chapter 1 quiz prep"])
      expect(said).not.toContain(`"${name}"`);
  });

  test("the number a task has still names it: week 2's problem set is marked done", async () => {
    const outcome = await converse(
      await offlineTempo(numberedWeek()),
      "I finished the week 2 problem set",
      [],
      undefined,
      "student",
      { now: THURSDAY_NIGHT },
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "mark_done"]);
    expect(outcome.cards[1]?.args).toEqual({ task_id: "p2" });
    expect(outcome.schedule.tasks.find((task) => task.id === "p2")).toMatchObject({ status: "done" });
  });
});
