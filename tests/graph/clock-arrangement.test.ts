/**
 * Issue 47, item 1, through the real graph with the offline policy: "arrange my week" on Wednesday 13 March 2024 at
 * 14:30 (Asia/Shanghai) arranges Wednesday's unstarted slots to Sunday, nothing before now — with the clock given as
 * the graph's clock and as `configurable.now` — and a move into the past is refused with the reason.
 */
import { describe, expect, test } from "vitest";
import { sampleWeek, type ScheduleState } from "../../tools/schedule/index.js";
import { clockIn, hasStarted } from "../../tools/schedule/window-clock.js";
import { converse, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const WEDNESDAY_1430 = "2024-03-13T06:30:00Z";

/** The reviews placed in a slot that had started at `now` (none expected). */
function placedInThePast(schedule: ScheduleState, now: string): string[] {
  const clock = clockIn(schedule.window, new Date(now));
  return schedule.tasks.flatMap((task) =>
    task.source === "task_item" && task.slots?.[0] && hasStarted(task.slots[0].day, task.slots[0].start, clock)
      ? [task.id]
      : [],
  );
}

describe("arrange my week on Wednesday afternoon", () => {
  test.each([
    ["the graph's clock", { clock: () => new Date(WEDNESDAY_1430), configurable: {} }],
    ["configurable.now", { clock: () => new Date("2024-03-11T00:00:00Z"), configurable: { now: WEDNESDAY_1430 } }],
  ])("with %s: every review goes to Wednesday 14:55 or later", async (_how, { clock, configurable }) => {
    const tempo = await offlineTempo(sampleWeek(), clock);
    const outcome = await converse(tempo, "arrange my week", [], undefined, "student", configurable);
    const placed = outcome.schedule.tasks.filter((task) => task.source === "task_item" && task.status === "placed");
    expect(placed.length).toBeGreaterThan(0);
    expect(placedInThePast(outcome.schedule, WEDNESDAY_1430)).toEqual([]);
  });

  test("a move into the past is refused with the reason, and the week is unchanged", async () => {
    const tempo = await offlineTempo(halfPlacedWeek(), () => new Date(WEDNESDAY_1430));
    const outcome = await converse(tempo, "move the vocabulary list to Monday");
    expect(placeOf(outcome.schedule, "vocabulary-list")).toBe("day 4 slots 1-1");
    expect(`${outcome.finalAnswer ?? ""}\n${outcome.said.join("\n")}`).toMatch(/has passed/);
  });

  test("a card's move edited into the past is re-checked when it applies: refused, the week unchanged", async () => {
    const tempo = await offlineTempo(halfPlacedWeek(), () => new Date(WEDNESDAY_1430));
    const outcome = await converse(tempo, "move the vocabulary list to Friday", (card) =>
      card.action === "move"
        ? { type: "edit", args: { action: "move", args: { ...card.args, day: 2, slot_start: 11 } } }
        : { type: "accept", args: null },
    );
    expect(outcome.cards.map((card) => card.action)).toContain("move");
    expect(placeOf(outcome.schedule, "vocabulary-list")).toBe("day 4 slots 1-1");
    expect(`${outcome.finalAnswer ?? ""}\n${outcome.said.join("\n")}`).toMatch(/Tue 12 Mar 20:50 has passed/);
  });
});
