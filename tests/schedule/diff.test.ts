import { describe, expect, it } from "vitest";
import {
  applyScheduleChanges,
  diffScheduleState,
  ScheduleConflictError,
  canonicalScheduleState,
  type EventTask,
  type PlaceChange,
  type ScheduleChange,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { buildEventTask, buildTaskItem } from "../../tools/schedule/canonical-form.js";
import { deepFreeze, event, smallSchedule, taskById, write } from "./support.js";

describe("diffScheduleState", () => {
  it("finds nothing between equal states", () => {
    expect(diffScheduleState(smallSchedule(), smallSchedule())).toEqual([]);
  });

  it("turns a task-item placement into a place change (the gap of the original design), with its host", () => {
    const before = smallSchedule();
    const free = write("place", before, { task_id: "a", day: 3, slot_start: 1 });
    expect(diffScheduleState(before, free)).toEqual([
      { kind: "place", taskId: "a", source: "task_item", slots: [{ day: 3, start: 1, end: 2 }], embeddedIn: null },
    ]);
    const embedded = write("place", before, { task_id: "a", day: 1, slot_start: 4 });
    expect(diffScheduleState(before, embedded)).toEqual([
      { kind: "place", taskId: "a", source: "task_item", slots: [{ day: 1, start: 4, end: 5 }], embeddedIn: "hall" },
    ]);
  });

  it("turns moves of task items and events into move changes, host changes included", () => {
    const placed = write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 4 });
    const moved = write("batch_move", placed, {
      moves: [
        { task_id: "a", day: 3, slot_start: 1 },
        { task_id: "lab", day: 3, slot_start: 5 },
      ],
    });
    expect(diffScheduleState(placed, moved)).toEqual([
      {
        kind: "move",
        taskId: "lab",
        source: "event",
        from: [{ day: 2, start: 5, end: 6 }],
        fromEmbeddedIn: null,
        slots: [{ day: 3, start: 5, end: 6 }],
        embeddedIn: null,
      },
      {
        kind: "move",
        taskId: "a",
        source: "task_item",
        from: [{ day: 1, start: 4, end: 5 }],
        fromEmbeddedIn: "hall",
        slots: [{ day: 3, start: 1, end: 2 }],
        embeddedIn: null,
      },
    ]);
  });

  it("turns an unplace into an unplace change", () => {
    const placed = write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 4 });
    const unplaced = write("unplace", placed, { task_id: "a" });
    expect(diffScheduleState(placed, unplaced)).toEqual([
      {
        kind: "unplace",
        taskId: "a",
        source: "task_item",
        from: [{ day: 1, start: 4, end: 5 }],
        fromEmbeddedIn: "hall",
      },
    ]);
  });

  it("handles events that come onto or leave the timetable", () => {
    const before = smallSchedule();
    before.tasks.push({ ...event("extra", 3, 1, 1), slots: [] });
    const after = structuredClone(before);
    const extra = taskById(after, "extra");
    if (extra.source === "event") extra.slots = [{ day: 3, start: 1, end: 1 }];
    expect(diffScheduleState(before, after)).toEqual([
      { kind: "place", taskId: "extra", source: "event", slots: [{ day: 3, start: 1, end: 1 }], embeddedIn: null },
    ]);
    expect(diffScheduleState(after, before)).toEqual([
      { kind: "unplace", taskId: "extra", source: "event", from: [{ day: 3, start: 1, end: 1 }], fromEmbeddedIn: null },
    ]);
    expect(JSON.stringify(applyScheduleChanges(before, diffScheduleState(before, after)))).toBe(JSON.stringify(after));
  });

  it("a class no task uses is removed, and the removal applies once: a second finds it gone", () => {
    const before = smallSchedule();
    const unused = structuredClone(before);
    unused.tasks = unused.tasks.filter((task) => task.source === "event" || task.categoryId !== "english");
    const removed = write("remove_task_class", unused, { class_id: "english" });
    const changes = diffScheduleState(unused, removed);
    expect(changes).toEqual([
      { kind: "class", classId: "english", from: { id: "english", name: "English" }, to: null },
    ]);
    const applied = applyScheduleChanges(unused, changes);
    expect(applied.categories.map((category) => category.id)).toEqual(["math"]);
    expect(() => applyScheduleChanges(applied, changes)).toThrow(ScheduleConflictError);
  });

  it("refuses differences a change cannot carry", () => {
    const before = smallSchedule();
    const renamed = structuredClone(before);
    taskById(renamed, "lecture").name = "Renamed";
    expect(() => diffScheduleState(before, renamed)).toThrow(/event lecture changed name/);
    const added = structuredClone(before);
    added.tasks.push({
      id: "new",
      name: "New",
      source: "task_item",
      duration: 1,
      categoryId: "math",
      status: "placed",
      slots: [{ day: 3, start: 1, end: 1 }],
    });
    expect(() => diffScheduleState(before, added)).toThrow(/task new was added placed; task items are added pending/);
    // History put back (restore_task of a removed done task) is added as it was: done, on its place.
    const history = structuredClone(before);
    const done: TaskItem = {
      ...(added.tasks.at(-1) as TaskItem),
      status: "done",
      markedAt: "2024-03-13T10:00:00.000Z",
    };
    history.tasks.push(done);
    expect(diffScheduleState(before, history)).toEqual([
      { kind: "add", taskId: "new", source: "task_item", task: buildTaskItem(done) },
    ]);
    // An imported event is added whole.
    const imported = structuredClone(before);
    imported.tasks.push(event("new", 3, 1, 1));
    expect(diffScheduleState(before, imported)).toEqual([
      { kind: "add", taskId: "new", source: "event", task: event("new", 3, 1, 1) },
    ]);
    // An event removed (remove_event) is a removal, checked against the event whole; applying it while a task sits
    // inside it (its guest list changed since) is refused.
    const noEvent = structuredClone(before);
    noEvent.tasks = noEvent.tasks.filter((task) => task.id !== "lab");
    const eventGone = diffScheduleState(before, noEvent);
    expect(eventGone).toEqual([
      { kind: "remove", taskId: "lab", source: "event", task: buildEventTask(taskById(before, "lab") as EventTask) },
    ]);
    expect(applyScheduleChanges(before, eventGone).tasks.map((task) => task.id)).not.toContain("lab");
    const guest = structuredClone(before);
    (taskById(guest, "lab") as EventTask).embeds = ["a"];
    expect(() => applyScheduleChanges(guest, eventGone)).toThrow(/Event lab is no longer as the change expects it/);
    // A class removed while task c still uses it: the change is found, and applying it is refused (the stored
    // schedule would name a class it no longer has).
    const noClass = structuredClone(before);
    noClass.categories = noClass.categories.filter((category) => category.id !== "english");
    const classGone = diffScheduleState(before, noClass);
    expect(classGone).toEqual([
      { kind: "class", classId: "english", from: { id: "english", name: "English" }, to: null },
    ]);
    expect(() => applyScheduleChanges(before, classGone)).toThrow(/refers to unknown category english/);
    const wider = structuredClone(before);
    wider.window.slotsPerDay = 9;
    expect(() => diffScheduleState(before, wider)).toThrow(/the window changed/);
  });
});

describe("applyScheduleChanges", () => {
  it("replays a diff exactly, rebuilding host embeds, without touching its input", () => {
    const before = deepFreeze(smallSchedule());
    const after = write("place", before, { task_id: "b", day: 1, slot_start: 6 });
    const replayed = applyScheduleChanges(before, diffScheduleState(before, after));
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(after));
    expect(taskById(replayed, "hall")).toMatchObject({ embeds: ["b"] });
  });

  it("returns the same state for no changes", () => {
    const state = smallSchedule();
    expect(applyScheduleChanges(state, [])).toBe(state);
  });

  const place = (
    taskId: string,
    day: number,
    start: number,
    end: number,
    embeddedIn: string | null = null,
  ): PlaceChange => ({
    kind: "place",
    taskId,
    source: "task_item",
    slots: [{ day, start, end }],
    embeddedIn,
  });

  it.each<[string, (state: ScheduleState) => ScheduleChange[], RegExp]>([
    ["an unknown task", () => [place("ghost", 3, 1, 1)], /Task ghost is not in the stored schedule/],
    ["a source mismatch", () => [{ ...place("lab", 3, 1, 2), source: "task_item" }], /stored as event/],
    ["placing a placed task", (_state) => [place("a", 3, 1, 2), place("a", 3, 4, 5)], /already on the schedule/],
    [
      "a stale move",
      () => [
        {
          kind: "move",
          taskId: "a",
          source: "task_item",
          from: [{ day: 2, start: 1, end: 2 }],
          fromEmbeddedIn: null,
          slots: [{ day: 3, start: 1, end: 2 }],
          embeddedIn: null,
        },
      ],
      /no longer where the change expects it/,
    ],
    ["an overlap", () => [place("a", 1, 1, 2)], /do not fit the stored schedule: tasks lecture and a overlap/],
    ["a wrong length", () => [place("b", 3, 1, 3)], /occupies 3 slots but its duration is 1/],
    ["a host that cannot embed", () => [place("b", 1, 1, 1, "lecture")], /does not allow embedding/],
  ])("throws ScheduleConflictError for %s and applies nothing", (_label, changes, message) => {
    const state = deepFreeze(smallSchedule());
    const before = JSON.stringify(state);
    let caught: unknown;
    try {
      applyScheduleChanges(state, changes(state));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScheduleConflictError);
    expect((caught as ScheduleConflictError).code).toBe("SCHEDULE_CONFLICT");
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).toMatch(/Nothing was applied; reload the schedule and try again\.$/);
    expect(JSON.stringify(state)).toBe(before);
  });
});

describe("task and class changes", () => {
  it("a class upserted, tasks added, changed and removed: the diff replays exactly, and a stale replay is refused whole", () => {
    const before = deepFreeze(smallSchedule());
    const after = structuredClone(before) as ScheduleState;
    after.categories = [
      { ...after.categories[0]!, excludedDaysOfWeek: [7], bufferSlots: 1 },
      after.categories[1]!,
      { id: "physics", name: "Physics", strategy: "compact" },
    ];
    const a = taskById(after, "a") as TaskItem;
    a.name = "Limits review";
    a.dueBefore = { eventId: "exam" };
    after.tasks = after.tasks.filter((task) => task.id !== "d");
    after.tasks.push({
      id: "waves",
      name: "Waves review",
      source: "task_item",
      duration: 2,
      categoryId: "physics",
      status: "pending",
      priority: "high",
    });
    const changes = diffScheduleState(before, after);
    expect(changes.map((change) => change.kind).sort()).toEqual(["add", "class", "class", "remove", "update"]);
    const replayed = applyScheduleChanges(before, changes);
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(canonicalScheduleState(after)));
    // Applied once already: every part of it is stale now, and nothing changes.
    expect(() => applyScheduleChanges(replayed, changes)).toThrow(ScheduleConflictError);
    const update = changes.find((change) => change.kind === "update")!;
    expect(() => applyScheduleChanges(replayed, [update])).toThrow(/no longer as the change expects it/);
  });

  it("removing a task embedded in a host takes it out of the host's embeds", () => {
    const before = write("place", smallSchedule(), { task_id: "b", day: 1, slot_start: 5 });
    expect(taskById(before, "hall")).toMatchObject({ embeds: ["b"] });
    const after = { ...before, tasks: before.tasks.filter((task) => task.id !== "b") };
    const replayed = applyScheduleChanges(before, diffScheduleState(before, after));
    expect(taskById(replayed, "hall")).toMatchObject({ embeds: [] });
    expect(replayed.tasks.map((task) => task.id)).not.toContain("b");
  });
});
