/**
 * "Undo that" reads only its own thread (issue 47 item 4): the last applied card is read from the thread's own
 * messages, so on thread B it never proposes reversing what thread A applied — even for the same student and the same
 * stored schedule — and on B it reverses B's own last card, leaving A's change in place.
 */
import { describe, expect, test } from "vitest";
import { canonicalScheduleState, type TaskItem, type ScheduleState } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const canonical = (state: ScheduleState) => JSON.stringify(canonicalScheduleState(state));
const placeOf = (state: ScheduleState, id: string) => (state.tasks.find((task) => task.id === id) as TaskItem).slots;

describe("undo reads only its own thread", () => {
  test.each([
    ["undo that", "move the matrix review to Friday", "I did the vocabulary list"],
    ["撤销", "把矩阵复习移到周五", "单词表做完了"],
  ])("%s on thread B never reverses thread A's card", async (undo, changeOnA, changeOnB) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(undo) });
    const tempo = await offlineTempo(week);
    const onA = await converse(tempo, changeOnA, [], "thread-a");
    expect(canonical(onA.schedule)).not.toBe(canonical(week));
    // Thread B, same student, same schedule: nothing was applied in this conversation.
    const nothing = await converse(tempo, undo, [], "thread-b");
    expect(nothing.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(nothing.said.join("\n").match(/nothing I can undo|没有可以撤销的修改/g)).toHaveLength(1);
    expect(canonical(nothing.schedule)).toBe(canonical(onA.schedule));
    // B's own change, then B's undo: only B's change is reversed; A's move stays.
    const onB = await converse(tempo, changeOnB, [], "thread-b");
    expect(canonical(onB.schedule)).not.toBe(canonical(onA.schedule));
    const undone = await converse(tempo, undo, [], "thread-b");
    expect(canonical(undone.schedule)).toBe(canonical(onA.schedule));
    expect(placeOf(undone.schedule, "matrix-review")).toEqual(placeOf(onA.schedule, "matrix-review"));
  });
});
