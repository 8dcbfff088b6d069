import { describe, expect, it } from "vitest";
import {
  checkScheduleInvariants,
  consecutiveDays,
  emptyScheduleState,
  generateSchedule,
  InvalidScheduleError,
  parseScheduleState,
  sampleWeek,
  scheduleStateSchema,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { event, pending, smallSchedule } from "./support.js";

describe("ScheduleState", () => {
  it("is plain JSON: the sample week survives a JSON round trip and validates", () => {
    const week = sampleWeek();
    const copy: unknown = JSON.parse(JSON.stringify(week));
    expect(scheduleStateSchema.parse(copy)).toEqual(week);
    expect(JSON.stringify(parseScheduleState(copy))).toBe(JSON.stringify(week));
  });

  it("the sample week is a realistic student week", () => {
    const week = sampleWeek();
    expect(week.window.totalDays).toBe(7);
    expect(week.window.slotsPerDay).toBe(12);
    const events = week.tasks.filter((task) => task.source === "event");
    const items = week.tasks.filter((task) => task.source === "task_item");
    expect(events.filter((task) => task.canEmbed).length).toBeGreaterThanOrEqual(2);
    expect(events.filter((task) => task.locked).length).toBeGreaterThanOrEqual(1);
    expect(week.categories.map((category) => category.name)).toEqual([
      "Calculus",
      "Linear Algebra",
      "English",
      "Data Structures",
    ]);
    expect(items).toHaveLength(8);
    for (const item of items) {
      expect(item).toMatchObject({ status: "pending" });
      if (item.source === "task_item") expect([1, 2]).toContain(item.duration);
    }
    expect(checkScheduleInvariants(week)).toEqual([]);
  });

  it("maps day indices to weeks and days of the week", () => {
    expect(consecutiveDays(3, 2, 6)).toEqual([
      { dayIndex: 1, week: 2, dayOfWeek: 6 },
      { dayIndex: 2, week: 2, dayOfWeek: 7 },
      { dayIndex: 3, week: 3, dayOfWeek: 1 },
    ]);
    expect(emptyScheduleState()).toEqual({
      window: { totalDays: 7, slotsPerDay: 12, days: consecutiveDays(7) },
      categories: [],
      tasks: [],
    });
    expect(generateSchedule({ days: 112, taskCount: 10, seed: 1 }).window.days.at(-1)).toEqual({
      dayIndex: 112,
      week: 16,
      dayOfWeek: 7,
    });
  });

  const broken: Array<[string, (state: ScheduleState) => void, RegExp]> = [
    ["a duplicate id", (state) => state.tasks.push(pending("a", 1)), /task id a is used twice/],
    ["an id with a space", (state) => state.tasks.push(pending("has space", 1)), /ids are 1-64 characters/],
    [
      "overlapping events",
      (state) => state.tasks.push(event("clash", 1, 2, 3)),
      /tasks lecture and clash overlap on day 1 slot 2/,
    ],
    [
      "a slot past the day",
      (state) => state.tasks.push(event("late", 3, 8, 9)),
      /task late: slots 8-9 run past the end of the day/,
    ],
    [
      "a day past the window",
      (state) => state.tasks.push(event("far", 4, 1, 1)),
      /task far: day 4 is outside the window/,
    ],
    ["end before start", (state) => state.tasks.push(event("back", 3, 5, 4)), /end >= start/],
    [
      "a pending task with slots",
      (state) => state.tasks.push({ ...pending("p", 1), slots: [{ day: 3, start: 1, end: 1 }] }),
      /pending task p must have no slots/,
    ],
    [
      "a placed task of the wrong length",
      (state) => state.tasks.push({ ...pending("p", 2), status: "placed", slots: [{ day: 3, start: 1, end: 1 }] }),
      /occupies 1 slots but its duration is 2/,
    ],
    [
      "a placed task without slots",
      (state) => state.tasks.push({ ...pending("p", 1), status: "placed" }),
      /must occupy exactly one slot range/,
    ],
    ["an unknown category", (state) => state.tasks.push(pending("p", 1, "history")), /unknown category history/],
    [
      "an embed in a host that cannot embed",
      (state) =>
        state.tasks.push({
          ...pending("p", 1),
          status: "placed",
          slots: [{ day: 1, start: 1, end: 1 }],
          embeddedIn: "lecture",
        }),
      /does not allow embedding/,
    ],
    [
      "an embed the host does not list",
      (state) =>
        state.tasks.push({
          ...pending("p", 1),
          status: "placed",
          slots: [{ day: 1, start: 4, end: 4 }],
          embeddedIn: "hall",
        }),
      /event hall lists embeds \[\] but the embedded tasks are \[p\]/,
    ],
    [
      "a host listing a guest that is not there",
      (state) => {
        const hall = state.tasks[1];
        if (hall?.source === "event") hall.embeds = ["a"];
      },
      /event hall lists embeds \[a\] but the embedded tasks are \[\]/,
    ],
    [
      "days that do not match totalDays",
      (state) => (state.window.totalDays = 4),
      /totalDays is 4 but 3 days are mapped/,
    ],
    ["an unknown key", (state) => Object.assign(state.tasks[0] ?? {}, { colour: "red" }), /Unrecognized key/],
  ];

  it.each(broken)("parseScheduleState rejects %s", (_label, breakIt, message) => {
    const state = smallSchedule();
    breakIt(state);
    expect(() => parseScheduleState(state)).toThrow(InvalidScheduleError);
    expect(() => parseScheduleState(state)).toThrow(message);
  });

  it("reports every problem at once, with a code a caller can switch on", () => {
    const state = smallSchedule();
    state.tasks.push(event("clash", 1, 1, 1), pending("p", 1, "history"));
    try {
      parseScheduleState(state);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidScheduleError);
      expect((error as InvalidScheduleError).code).toBe("INVALID_INPUT");
      expect((error as InvalidScheduleError).problems).toEqual([
        "tasks lecture and clash overlap on day 1 slot 1",
        "task p refers to unknown category history",
      ]);
    }
  });
});
