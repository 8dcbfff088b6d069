/**
 * The week grid's model (issue 48): what is drawn where, shared by the terminal's drawing and the Generative UI
 * component — every timetable slot and placed review in its cells, free time empty, the clock's past shaded, and a
 * proposal's additions, moves, swaps and removals marked on the week it leads to.
 */
import { describe, expect, test } from "vitest";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";
import type { EventTask, ScheduleState, TaskItem } from "../../tools/schedule/state.js";
import type { DomainTool } from "../../tools/domain.js";
import { removeEventTool } from "../../tools/schedule/tools/remove-event.js";
import { restoreEventTool } from "../../tools/schedule/tools/restore-event.js";
import { removeTaskTool } from "../../tools/schedule/tools/task-items.js";
import { rollWindowTool } from "../../tools/schedule/tools/roll-window.js";
import { markDoneTool } from "../../tools/schedule/tools/task-life.js";
import { renderWeekGrid } from "../../cli/week-render.js";
import { changesBetween, weekGrid } from "../../tools/schedule/week-grid.js";
import { halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { oneEventCalendar } from "../support/calendars.js";
import { toolNamed } from "./support.js";

const apply = (state: ScheduleState, writes: Array<{ name: string; arguments: Record<string, unknown> }>) => {
  const after = applyWrites(state, writes);
  if (!after) throw new Error("the writes do not apply");
  return after;
};

/** `tool` run on `state` with `args` (checked by its schema); the week after, or the test fails with the refusal. */
function ran(tool: DomainTool<ScheduleState>, state: ScheduleState, args: Record<string, unknown>): ScheduleState {
  const result = tool.run(state, tool.schema.parse(args));
  if (!result.ok || !result.state) throw new Error(`${tool.name} refused: ${result.content}`);
  return result.state;
}

const placedItems = (state: ScheduleState) =>
  state.tasks.filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed");

describe("what is drawn where", () => {
  test("every timetable slot and every placed review is in its cell, and nothing else is", () => {
    const week = halfPlacedWeek();
    const grid = weekGrid(week);
    expect(grid.days.map((day) => day.label)).toEqual([
      "Mon 11 Mar",
      "Tue 12 Mar",
      "Wed 13 Mar",
      "Thu 14 Mar",
      "Fri 15 Mar",
      "Sat 16 Mar",
      "Sun 17 Mar",
    ]);
    expect(grid.slots[0]).toEqual({ slot: 1, start: "08:00", end: "08:45" });
    const expected = new Map<string, { event?: string; review?: string }>();
    for (const task of week.tasks)
      for (const range of task.slots ?? [])
        for (let slot = range.start; slot <= range.end; slot++) {
          const key = `${range.day}/${slot}`;
          const entry = expected.get(key) ?? {};
          if (task.source === "event") entry.event = task.id;
          else if (task.status === "placed") entry.review = task.id;
          expected.set(key, entry);
        }
    let drawn = 0;
    for (const day of grid.days)
      day.cells.forEach((cell, index) => {
        const want = expected.get(`${day.dayIndex}/${index + 1}`) ?? {};
        expect({ event: cell.event?.id, review: cell.review?.id }).toEqual({ event: want.event, review: want.review });
        if (cell.event || cell.review) drawn++;
      });
    expect(drawn).toBe(expected.size);
    expect(placedItems(week).length).toBeGreaterThan(0);
    expect(grid.pending.map((task) => task.id).sort()).toEqual(
      week.tasks
        .filter((task) => task.source === "task_item" && task.status === "pending")
        .map((task) => task.id)
        .sort(),
    );
  });

  test("a run's first cell says it starts there; a review's colour is its class's", () => {
    const week = halfPlacedWeek();
    const grid = weekGrid(week);
    for (const task of placedItems(week)) {
      const range = task.slots![0]!;
      const cells = grid.days[range.day - 1]!.cells;
      expect(cells[range.start - 1]!.starts).toBe(true);
      if (range.end > range.start) expect(cells[range.start]!.starts).toBe(false);
      const classIndex = week.categories.findIndex((category) => category.id === task.categoryId);
      expect(cells[range.start - 1]!.review?.colour).toBe(classIndex);
    }
    expect(grid.classes.map((entry) => entry.name)).toEqual(week.categories.map((category) => category.name));
  });

  test("a review marked done keeps its place as history, drawn done; the terminal writes it with ✓", () => {
    const week = halfPlacedWeek();
    const review = placedItems(week)[0]!;
    const done = ran(markDoneTool, week, { task_id: review.id });
    const range = review.slots![0]!;
    const cell = weekGrid(done).days[range.day - 1]!.cells[range.start - 1]!;
    expect(cell.review).toMatchObject({ id: review.id, name: review.name, done: true });
    expect(weekGrid(week).days[range.day - 1]!.cells[range.start - 1]!.review?.done).toBeUndefined();
    const drawn = renderWeekGrid(weekGrid(done), done, { width: 200, language: "en", colour: false });
    expect(drawn).toContain(`✓${review.name.slice(0, 8)}`);
    expect(drawn).not.toContain(`●${review.name.slice(0, 8)}`);
  });

  test("days are named in the user's language", () => {
    expect(weekGrid(sampleWeek(), { language: "zh" }).days[0]!.label).toBe("3月11日周一");
  });
});

describe("the clock", () => {
  // Wednesday 13 March 2024, 14:30 in Shanghai: slot 5 (14:00) has started, slot 6 (14:55) has not.
  const wednesdayAfternoon = new Date("2024-03-13T06:30:00Z");

  test("what has started is past; today is marked; the line sits before the first slot not yet started", () => {
    const grid = weekGrid(sampleWeek(), { now: wednesdayAfternoon });
    expect(grid.now).toEqual({ dayIndex: 3, slot: 6, time: "14:30" });
    expect(grid.days.map((day) => day.today)).toEqual([false, false, true, false, false, false, false]);
    const past = grid.days.flatMap((day) =>
      day.cells.flatMap((cell, index) => (cell.past ? [`${day.dayIndex}/${index + 1}`] : [])),
    );
    expect(past).toHaveLength(12 * 2 + 5);
    expect(past).toContain("3/5");
    expect(past).not.toContain("3/6");
  });

  test("before the window nothing is past; after it everything is", () => {
    const before = weekGrid(sampleWeek(), { now: new Date("2024-03-01T00:00:00Z") });
    expect(before.days.some((day) => day.cells.some((cell) => cell.past))).toBe(false);
    expect(before.now).toBeUndefined();
    const after = weekGrid(sampleWeek(), { now: new Date("2024-04-01T00:00:00Z") });
    expect(after.days.every((day) => day.cells.every((cell) => cell.past))).toBe(true);
  });

  test("a window without dates draws no clock", () => {
    const week = sampleWeek();
    const undated: ScheduleState = {
      ...week,
      window: { ...week.window, days: week.window.days.map(({ date: _date, ...day }) => day) },
    };
    const grid = weekGrid(undated, { now: wednesdayAfternoon });
    expect(grid.now).toBeUndefined();
    expect(grid.days[0]!.label).toBe("Mon, week 1 (day 1)");
  });
});

describe("a proposal on the grid", () => {
  test("a placement arrives; a move leaves a ghost where it was; an unplace is a removal", () => {
    const week = halfPlacedWeek();
    const byId = (id: string) => week.tasks.find((task): task is TaskItem => task.id === id)!;
    const [moved, removed, pending] = [byId("matrix-review"), byId("vocabulary-list"), byId("linked-list-exercises")];
    const free = { day: 7, slot_start: 10 };
    const moveTo = { day: 6, slot_start: 7 };
    const after = apply(week, [
      { name: "place", arguments: { task_id: pending.id, ...free } },
      { name: "move", arguments: { task_id: moved!.id, ...moveTo } },
      { name: "unplace", arguments: { task_id: removed!.id } },
    ]);
    const grid = weekGrid(week, { after });
    const byTask = Object.fromEntries(grid.changes.map((change) => [change.taskId, change]));
    expect(byTask[pending.id]).toMatchObject({ kind: "added", to: { day: 7, start: 10 } });
    expect(byTask[moved!.id]).toMatchObject({ kind: "moved", from: moved!.slots![0], to: { day: 6, start: 7 } });
    expect(byTask[removed!.id]).toMatchObject({ kind: "removed", from: removed!.slots![0] });
    expect(grid.changes).toHaveLength(3);

    const cell = (day: number, slot: number) => grid.days[day - 1]!.cells[slot - 1]!;
    expect(cell(7, 10).change).toMatchObject({ kind: "added", side: "to", taskId: pending.id });
    expect(cell(6, 7).change).toMatchObject({ kind: "moved", side: "to", taskId: moved!.id });
    const wasAt = moved!.slots![0]!;
    expect(cell(wasAt.day, wasAt.start).change).toMatchObject({ kind: "moved", side: "from" });
    // The grid is the week after: the moved review's old cell no longer holds it.
    expect(cell(wasAt.day, wasAt.start).review?.id).not.toBe(moved!.id);
    expect(cell(6, 7).review?.id).toBe(moved!.id);
  });

  test("two reviews that trade places are a swap, each naming the other", () => {
    const week = halfPlacedWeek();
    const [a, b] = placedItems(week).filter((task) => task.duration === placedItems(week)[0]!.duration);
    expect(b).toBeDefined();
    const after = apply(week, [{ name: "swap", arguments: { first_task_id: a!.id, second_task_id: b!.id } }]);
    const changes = changesBetween(week, after);
    expect(changes.map((change) => [change.taskId, change.kind, change.partnerId])).toEqual(
      expect.arrayContaining([
        [a!.id, "swapped", b!.id],
        [b!.id, "swapped", a!.id],
      ]),
    );
    expect(changes).toHaveLength(2);
  });

  test("a removed placed review, and a removed or restored timetable event on each place it holds, are drawn", () => {
    const week = halfPlacedWeek();
    const review = placedItems(week)[0]!;
    const withoutReview = ran(removeTaskTool, week, { task_id: review.id });
    expect(changesBetween(week, withoutReview)).toEqual([
      { kind: "removed", taskId: review.id, name: review.name, from: review.slots![0] },
    ]);

    // The first event the week lets go (no review inside it, no deadline naming it).
    const event = week.tasks.find(
      (task): task is EventTask => task.source === "event" && removeEventTool.run(week, { event_id: task.id }).ok,
    )!;
    const removed = ran(removeEventTool, week, { event_id: event.id });
    const grid = weekGrid(week, { after: removed });
    expect(grid.changes).toEqual(
      event.slots.map((range) => ({ kind: "removed", taskId: event.id, name: event.name, from: range })),
    );
    for (const range of event.slots) {
      const cell = grid.days[range.day - 1]!.cells[range.start - 1]!;
      expect(cell.change).toMatchObject({ kind: "removed", side: "from", taskId: event.id });
      expect(cell.event?.id).not.toBe(event.id);
    }
    // Its undo puts it back: the same places, added.
    const restored = ran(restoreEventTool, removed, { event });
    expect(changesBetween(removed, restored)).toEqual(
      event.slots.map((range) => ({ kind: "added", taskId: event.id, name: event.name, to: range })),
    );
  });

  test("a removal the clock has begun: the times ahead drawn removed, those that started left as they are", () => {
    const ics = oneEventCalendar("reading-1", "Reading group", "20240311T134500Z", "20240311T143000Z", [
      "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,TH,FR,SU;COUNT=20",
    ]);
    const imported = ran(toolNamed("import_calendar"), sampleWeek(), { ics });
    const group = imported.tasks.find((task): task is EventTask => task.name === "Reading group")!;
    const wednesday = { ...imported, now: "2024-03-13T12:00:00+08:00" };
    const removed = ran(removeEventTool, wednesday, { event_id: group.id });
    const grid = weekGrid(wednesday, { after: removed });
    expect(grid.changes).toEqual(
      group.slots
        .filter((range) => range.day > 3)
        .map((range) => ({ kind: "removed", taskId: group.id, name: group.name, from: range })),
    );
    for (const range of group.slots.filter((each) => each.day < 3)) {
      const cell = grid.days[range.day - 1]!.cells[range.start - 1]!;
      expect(cell.change).toBeUndefined();
      expect(cell.event?.id).toBe(group.id);
    }
  });

  test("a roll lays other dates under the day indices: nothing is compared", () => {
    const week = halfPlacedWeek();
    const rolled = ran(rollWindowTool, week, { days: 7 });
    expect(placedItems(week).length).toBeGreaterThan(0);
    expect(changesBetween(week, rolled)).toEqual([]);
  });

  test("no change, no marks", () => {
    const week = halfPlacedWeek();
    const grid = weekGrid(week, { after: structuredClone(week) });
    expect(grid.changes).toEqual([]);
    expect(grid.days.every((day) => day.cells.every((cell) => cell.change === undefined))).toBe(true);
  });
});
