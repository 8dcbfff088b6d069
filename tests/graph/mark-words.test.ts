/**
 * A task's life as students type it: "I'll skip the vocab list", "i'm gonna skip the vocab list this week", "essay
 * done ✅", "the essay is done", "can you mark the essay done", "I couldn't do the matrix review yesterday", "the
 * matrix review didn't happen", "cross off the essay", "the essay's finished". Before, each was not understood ("done with the essay ✅" named a task "essay ✅").
 * The stored week is the oracle: the review named has the state said, every other review is as it was.
 */
import { describe, expect, test } from "vitest";
import { checkScheduleInvariants, type TaskItem } from "../../tools/schedule/index.js";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

/** Wednesday 13 March 2024, 10:00 in Shanghai: Tuesday's matrix review has passed, the essay (Saturday) is ahead. */
const WEDNESDAY = () => new Date("2024-03-13T10:00:00+08:00");

describe("a task's life, said as students say it", () => {
  test.each([
    // Done with the task's own verb, or marked complete (before, 写完, 背完, 搞定 were not understood, and "mark the
    // essay as complete" named a task "mark the essay as").
    ["作文写完了", "essay-draft", "done", ["confirm_plan", "mark_done"]],
    ["我把作文写完了", "essay-draft", "done", ["confirm_plan", "mark_done"]],
    ["单词表背完了", "vocabulary-list", "done", ["confirm_plan", "mark_done"]],
    ["mark the essay as complete", "essay-draft", "done", ["confirm_plan", "mark_done"]],
    ["I finished the essay at 3pm", "essay-draft", "done", ["confirm_plan", "mark_done"]],
    ["I'll skip the vocab list", "vocabulary-list", "skipped", ["confirm_plan", "skip"]],
    ["i'm gonna skip the vocab list this week", "vocabulary-list", "skipped", ["confirm_plan", "skip"]],
    ["essay done ✅", "essay-draft", "done", ["confirm_plan", "mark_done"]],
    ["the essay is done", "essay-draft", "done", ["confirm_plan", "mark_done"]],
    ["can you mark the essay done", "essay-draft", "done", ["confirm_plan", "mark_done"]],
    // Ticked off as off a list, and "'s" for "is" (before, not understood, or a task named "essay's").
    ["cross off the essay", "essay-draft", "done", ["confirm_plan", "mark_done"]],
    ["tick the vocab list off my list", "vocabulary-list", "done", ["confirm_plan", "mark_done"]],
    ["the essay's finished", "essay-draft", "done", ["confirm_plan", "mark_done"]],
    // A missed review is proposed again at once: its new place accepted, it is placed again.
    ["I couldn't do the matrix review yesterday", "matrix-review", "placed", ["confirm_plan", "mark_missed", "place"]],
    ["the matrix review didn't happen", "matrix-review", "placed", ["confirm_plan", "mark_missed", "place"]],
  ])("%s: %s ends %s", async (request, id, status, cards) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, WEDNESDAY), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(cards);
    expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    const now = (taskId: string) => outcome.schedule.tasks.find((task) => task.id === taskId) as TaskItem;
    expect(now(id).status).toBe(status);
    // (Placed again: at a new place, not where it was missed.)
    if (cards.includes("place")) expect(now(id).slots).not.toEqual(week.tasks.find((task) => task.id === id)!.slots);
    for (const task of week.tasks.filter((each): each is TaskItem => each.source === "task_item" && each.id !== id))
      expect({ id: task.id, status: now(task.id).status, slots: now(task.id).slots }).toEqual({
        id: task.id,
        status: task.status,
        slots: task.slots,
      });
  });

  test.each([
    ["the essay is not done", "unknown"],
    ["the essay isn't done yet", "unknown"],
    ["I'm almost done", "unknown"],
    ["my week is done", "unknown"],
    ["is the essay done", "explain"],
    ["作文还没写完", "unknown"],
    ["作文写完了吗", "unknown"],
  ])("%s is no mark", (text, kind) => {
    expect(parseScheduleRequest(text).kind).toBe(kind);
  });
});
