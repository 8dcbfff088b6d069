import { describe, expect, it } from "vitest";
import { placeArgumentsSchema, batchMoveArgumentsSchema, type ScheduleState } from "../../tools/schedule/index.js";
import { event, runTool, smallSchedule, taskById, write } from "./support.js";

/** smallSchedule with a placed on day 3 slots 1-2 and c on day 3 slots 5-6. */
function withTwoPlaced(): ScheduleState {
  const placedA = write("place", smallSchedule(), { task_id: "a", day: 3, slot_start: 1 });
  return write("place", placedA, { task_id: "c", day: 3, slot_start: 5 });
}

describe("place", () => {
  it("places a pending task item into free slots and changes nothing else", () => {
    const before = smallSchedule();
    const result = runTool("place", before, { task_id: "a", day: 3, slot_start: 1 });
    expect(result.content).toBe("placed task a on day 3 slots 1-2");
    const after = result.state as ScheduleState;
    expect(taskById(after, "a")).toEqual({
      id: "a",
      name: "Task a",
      source: "task_item",
      duration: 2,
      categoryId: "math",
      status: "placed",
      slots: [{ day: 3, start: 1, end: 2 }],
    });
    expect(after.tasks.filter((task) => task.id !== "a")).toEqual(before.tasks.filter((task) => task.id !== "a"));
    expect(after.window).toEqual(before.window);
  });

  it("embeds into a canEmbed host when it falls entirely inside, recording the relation both ways", () => {
    const result = runTool("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 4 });
    expect(result.content).toBe("placed task a on day 1 slots 4-5 embedded in host hall");
    const after = result.state as ScheduleState;
    expect(taskById(after, "a")).toMatchObject({
      status: "placed",
      slots: [{ day: 1, start: 4, end: 5 }],
      embeddedIn: "hall",
    });
    expect(taskById(after, "hall")).toMatchObject({ embeds: ["a"] });
  });

  it("keeps a host's embeds sorted by id, whatever the placing order", () => {
    const withB = write("place", smallSchedule(), { task_id: "b", day: 1, slot_start: 7 });
    const withBoth = write("place", withB, { task_id: "a", day: 1, slot_start: 4 });
    expect(taskById(withBoth, "hall")).toMatchObject({ embeds: ["a", "b"] });
  });

  it.each([
    [
      { task_id: "zzz", day: 3, slot_start: 1 },
      'error: no task with id "zzz" among 8 tasks; use list_tasks to find ids',
    ],
    [
      { task_id: "lecture", day: 3, slot_start: 1 },
      'error: lecture "Event lecture" is a timetable event, not a task item; use move to change its slots',
    ],
    [
      { task_id: "a", day: 4, slot_start: 1 },
      "error: cannot place task a (duration 2): day 4 is outside the window (days 1-3)",
    ],
    [
      { task_id: "a", day: 0, slot_start: 1 },
      "error: cannot place task a (duration 2): day 0 is outside the window (days 1-3)",
    ],
    [
      { task_id: "a", day: 3, slot_start: 0 },
      "error: cannot place task a (duration 2): slot 0 is outside the day (slots 1-8)",
    ],
    [
      { task_id: "a", day: 3, slot_start: 8 },
      "error: cannot place task a (duration 2): slots 8-9 run past the end of the day (slots 1-8)",
    ],
    [
      { task_id: "a", day: 1, slot_start: 2 },
      'error: cannot place task a (duration 2): day 1 slots 2-3 overlaps event lecture "Event lecture" on day 1 slots 1-2',
    ],
    [
      { task_id: "a", day: 2, slot_start: 4 },
      'error: cannot place task a (duration 2): day 2 slots 4-5 overlaps locked event exam "Event exam" on day 2 slots 3-4',
    ],
    [
      { task_id: "a", day: 1, slot_start: 3 },
      'error: cannot place task a (duration 2): day 1 slots 3-4 is only partly inside embeddable event hall "Event hall" (day 1 slots 4-7); place it entirely inside or entirely outside',
    ],
    [
      { task_id: "d", day: 1, slot_start: 6 },
      'error: cannot place task d (duration 3): day 1 slots 6-8 is only partly inside embeddable event hall "Event hall" (day 1 slots 4-7); place it entirely inside or entirely outside',
    ],
  ])("rejects %j", (args, message) => {
    expect(runTool("place", smallSchedule(), args)).toEqual({ ok: false, content: message });
  });

  it("rejects placing a placed task, onto a placed task, and onto an embedded task", () => {
    const state = withTwoPlaced();
    expect(runTool("place", state, { task_id: "a", day: 3, slot_start: 3 }).content).toBe(
      "error: task a is already placed on day 3 slots 1-2; use move to change it",
    );
    expect(runTool("place", state, { task_id: "b", day: 3, slot_start: 2 }).content).toBe(
      'error: cannot place task b (duration 1): day 3 slots 2-2 overlaps task a "Task a" on day 3 slots 1-2',
    );
    const embedded = write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 4 });
    expect(runTool("place", embedded, { task_id: "b", day: 1, slot_start: 5 }).content).toBe(
      'error: cannot place task b (duration 1): day 1 slots 5-5 overlaps task a "Task a" already embedded in event hall "Event hall" on day 1 slots 4-5',
    );
  });

  it("takes integer arguments only (the schema rejects the rest before the tool runs)", () => {
    expect(placeArgumentsSchema.safeParse({ task_id: "a", day: 1.5, slot_start: 1 }).success).toBe(false);
    expect(placeArgumentsSchema.safeParse({ task_id: "a", day: 1 }).success).toBe(false);
    expect(placeArgumentsSchema.safeParse({ task_id: "", day: 1, slot_start: 1 }).success).toBe(false);
  });
});

describe("move", () => {
  it("moves a placed task item, checking conflicts against everything but itself", () => {
    const result = runTool("move", withTwoPlaced(), { task_id: "a", day: 3, slot_start: 2 });
    expect(result.content).toBe("moved task a from day 3 slots 1-2 to day 3 slots 2-3");
    expect(taskById(result.state as ScheduleState, "a")).toMatchObject({ slots: [{ day: 3, start: 2, end: 3 }] });
  });

  it("moves into a host (embedding), within it, and out of it (clearing the relation both ways)", () => {
    const inside = runTool("move", withTwoPlaced(), { task_id: "a", day: 1, slot_start: 5 });
    expect(inside.content).toBe("moved task a from day 3 slots 1-2 to day 1 slots 5-6 embedded in host hall");
    const embedded = inside.state as ScheduleState;
    expect(taskById(embedded, "hall")).toMatchObject({ embeds: ["a"] });
    const within = write("move", embedded, { task_id: "a", day: 1, slot_start: 6 });
    expect(taskById(within, "a")).toMatchObject({ embeddedIn: "hall", slots: [{ day: 1, start: 6, end: 7 }] });
    const outside = write("move", within, { task_id: "a", day: 2, slot_start: 1 });
    expect(taskById(outside, "a")).not.toHaveProperty("embeddedIn");
    expect(taskById(outside, "hall")).toMatchObject({ embeds: [] });
  });

  it("moves an unlocked event, and an embeddable host without guests", () => {
    const moved = runTool("move", smallSchedule(), { task_id: "lab", day: 3, slot_start: 1 });
    expect(moved.content).toBe("moved task lab from day 2 slots 5-6 to day 3 slots 1-2");
    const hall = runTool("move", smallSchedule(), { task_id: "hall", day: 3, slot_start: 5 });
    expect(hall.content).toBe("moved task hall from day 1 slots 4-7 to day 3 slots 5-8");
  });

  it("moves a locked event only by a move of its own (its time really changed), and says it moved", () => {
    const moved = runTool("move", smallSchedule(), { task_id: "exam", day: 3, slot_start: 1 });
    expect(moved.content).toBe("moved task exam from day 2 slots 3-4 to day 3 slots 1-2");
    expect(taskById(moved.state!, "exam")).toMatchObject({ locked: true, slots: [{ day: 3, start: 1, end: 2 }] });
  });

  it.each([
    [
      { task_id: "exam", day: 2, slot_start: 5 },
      'error: cannot move task exam: day 2 slots 5-6 overlaps event lab "Event lab" on day 2 slots 5-6',
    ],
    [
      { task_id: "b", day: 3, slot_start: 4 },
      'error: task b "Task b" is pending, not on the schedule; use place to put it there',
    ],
    [
      { task_id: "nope", day: 3, slot_start: 4 },
      'error: no task with id "nope" among 8 tasks; use list_tasks to find ids',
    ],
    [{ task_id: "a", day: 3, slot_start: 1 }, "error: task a is already on day 3 slots 1-2; nothing to move"],
    [
      { task_id: "a", day: 3, slot_start: 4 },
      'error: cannot move task a: day 3 slots 4-5 overlaps task c "Task c" on day 3 slots 5-6',
    ],
    [{ task_id: "a", day: 5, slot_start: 1 }, "error: cannot move task a: day 5 is outside the window (days 1-3)"],
    [
      { task_id: "a", day: 3, slot_start: 8 },
      "error: cannot move task a: slots 8-9 run past the end of the day (slots 1-8)",
    ],
    [
      { task_id: "lab", day: 1, slot_start: 4 },
      'error: cannot move task lab: day 1 slots 4-5 overlaps embeddable event hall "Event hall"; only task items can sit inside it',
    ],
    [
      { task_id: "lab", day: 2, slot_start: 4 },
      'error: cannot move task lab: day 2 slots 4-5 overlaps locked event exam "Event exam" on day 2 slots 3-4',
    ],
  ])("rejects %j", (args, message) => {
    expect(runTool("move", withTwoPlaced(), args)).toEqual({ ok: false, content: message });
  });

  it("never moves a host that has guests, nor an event on several ranges", () => {
    const embedded = write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 4 });
    expect(runTool("move", embedded, { task_id: "hall", day: 3, slot_start: 1 }).content).toBe(
      'error: event hall "Event hall" hosts embedded tasks a; move or unplace them first',
    );
    const state = smallSchedule();
    const seminar = {
      ...event("seminar", 3, 1, 2),
      slots: [
        { day: 3, start: 1, end: 2 },
        { day: 3, start: 5, end: 6 },
      ],
    };
    state.tasks.push(seminar);
    expect(runTool("move", state, { task_id: "seminar", day: 3, slot_start: 3 }).content).toBe(
      'error: event seminar "Event seminar" occupies 2 separate slot ranges; only a task on a single range can move',
    );
  });
});

describe("swap", () => {
  it("exchanges the slots of two tasks of equal length", () => {
    const result = runTool("swap", withTwoPlaced(), { first_task_id: "a", second_task_id: "c" });
    expect(result.content).toBe(
      [
        "swapped task a and task c",
        "- task a now on day 3 slots 5-6; was on day 3 slots 1-2",
        "- task c now on day 3 slots 1-2; was on day 3 slots 5-6",
      ].join("\n"),
    );
    const after = result.state as ScheduleState;
    expect(taskById(after, "a")).toMatchObject({ slots: [{ day: 3, start: 5, end: 6 }] });
    expect(taskById(after, "c")).toMatchObject({ slots: [{ day: 3, start: 1, end: 2 }] });
  });

  it("re-evaluates embedding at the new places", () => {
    const embedded = write("move", withTwoPlaced(), { task_id: "a", day: 1, slot_start: 4 });
    const result = runTool("swap", embedded, { first_task_id: "a", second_task_id: "c" });
    expect(result.content).toBe(
      [
        "swapped task a and task c",
        "- task a now on day 3 slots 5-6; was on day 1 slots 4-5",
        "- task c now on day 1 slots 4-5 embedded in host hall; was on day 3 slots 5-6",
      ].join("\n"),
    );
    const after = result.state as ScheduleState;
    expect(taskById(after, "a")).not.toHaveProperty("embeddedIn");
    expect(taskById(after, "c")).toMatchObject({ embeddedIn: "hall" });
    expect(taskById(after, "hall")).toMatchObject({ embeds: ["c"] });
  });

  it("swaps a task item with an unlocked event", () => {
    const result = runTool("swap", withTwoPlaced(), { first_task_id: "a", second_task_id: "lab" });
    expect(result.content).toBe(
      [
        "swapped task a and task lab",
        "- task a now on day 2 slots 5-6; was on day 3 slots 1-2",
        "- task lab now on day 3 slots 1-2; was on day 2 slots 5-6",
      ].join("\n"),
    );
  });

  it("rolls back when either side would conflict", () => {
    const embedded = write("move", withTwoPlaced(), { task_id: "a", day: 1, slot_start: 4 });
    expect(runTool("swap", embedded, { first_task_id: "a", second_task_id: "lab" })).toEqual({
      ok: false,
      content:
        'error: cannot swap a and lab (task lab): day 1 slots 4-5 overlaps embeddable event hall "Event hall"; only task items can sit inside it; nothing was moved',
    });
  });

  it.each([
    [
      { first_task_id: "a", second_task_id: "a" },
      "error: first_task_id and second_task_id are both a; name two different tasks",
    ],
    [
      { first_task_id: "a", second_task_id: "nope" },
      'error: no task with id "nope" among 8 tasks; use list_tasks to find ids',
    ],
    [
      { first_task_id: "a", second_task_id: "exam" },
      'error: event exam "Event exam" is locked: nothing moves it to make room; if its time really changed, move it alone with move',
    ],
    [
      { first_task_id: "b", second_task_id: "a" },
      'error: task b "Task b" is pending, not on the schedule; use place to put it there',
    ],
    [
      { first_task_id: "a", second_task_id: "hall" },
      'error: task a "Task a" takes 2 slots but event hall "Event hall" takes 4; only tasks of equal length can swap',
    ],
  ])("rejects %j", (args, message) => {
    expect(runTool("swap", withTwoPlaced(), args)).toEqual({ ok: false, content: message });
  });
});

describe("batch_move", () => {
  it("moves several tasks at once; they may take each other's old slots", () => {
    const result = runTool("batch_move", withTwoPlaced(), {
      moves: [
        { task_id: "a", day: 3, slot_start: 5 },
        { task_id: "c", day: 3, slot_start: 1 },
        { task_id: "lab", day: 3, slot_start: 3 },
      ],
    });
    expect(result.content).toBe(
      [
        "moved 3 tasks",
        "- task a now on day 3 slots 5-6; was on day 3 slots 1-2",
        "- task c now on day 3 slots 1-2; was on day 3 slots 5-6",
        "- task lab now on day 3 slots 3-4; was on day 2 slots 5-6",
      ].join("\n"),
    );
  });

  it("lands moves in order: a host moved earlier in the batch can take a guest later in it", () => {
    const placed = write("place", smallSchedule(), { task_id: "a", day: 3, slot_start: 1 });
    const result = runTool("batch_move", placed, {
      moves: [
        { task_id: "hall", day: 3, slot_start: 5 },
        { task_id: "a", day: 3, slot_start: 6 },
      ],
    });
    expect(result.content).toBe(
      [
        "moved 2 tasks",
        "- task hall now on day 3 slots 5-8; was on day 1 slots 4-7",
        "- task a now on day 3 slots 6-7 embedded in host hall; was on day 3 slots 1-2",
      ].join("\n"),
    );
    expect(taskById(result.state as ScheduleState, "hall")).toMatchObject({
      embeds: ["a"],
      slots: [{ day: 3, start: 5, end: 8 }],
    });
  });

  it("is atomic: one conflict and nothing moves", () => {
    const state = withTwoPlaced();
    expect(
      runTool("batch_move", state, {
        moves: [
          { task_id: "a", day: 2, slot_start: 1 },
          { task_id: "c", day: 2, slot_start: 2 },
        ],
      }),
    ).toEqual({
      ok: false,
      content:
        'error: cannot apply batch_move (task c): day 2 slots 2-3 overlaps task a "Task a" on day 2 slots 1-2; nothing was moved',
    });
  });

  it.each([
    [
      [
        { task_id: "a", day: 2, slot_start: 1 },
        { task_id: "a", day: 3, slot_start: 3 },
      ],
      "error: move 2 of 2: task a appears more than once; move each task once; nothing was moved",
    ],
    [
      [
        { task_id: "a", day: 2, slot_start: 1 },
        { task_id: "zz", day: 3, slot_start: 3 },
      ],
      'error: move 2 of 2: no task with id "zz" among 8 tasks; use list_tasks to find ids; nothing was moved',
    ],
    [
      [{ task_id: "exam", day: 3, slot_start: 3 }],
      'error: move 1 of 1: event exam "Event exam" is locked: nothing moves it to make room; if its time really changed, move it alone with move; nothing was moved',
    ],
    [
      [{ task_id: "d", day: 3, slot_start: 3 }],
      'error: move 1 of 1: task d "Task d" is pending, not on the schedule; use place to put it there; nothing was moved',
    ],
    [
      [{ task_id: "a", day: 3, slot_start: 1 }],
      "error: every task is already where the batch would put it; nothing to move",
    ],
    [
      [{ task_id: "a", day: 9, slot_start: 1 }],
      "error: cannot apply batch_move (task a): day 9 is outside the window (days 1-3); nothing was moved",
    ],
  ])("rejects %j", (moves, message) => {
    expect(runTool("batch_move", withTwoPlaced(), { moves })).toEqual({ ok: false, content: message });
  });

  it("needs 1 to 50 moves (schema)", () => {
    expect(batchMoveArgumentsSchema.safeParse({ moves: [] }).success).toBe(false);
    const many = Array.from({ length: 51 }, () => ({ task_id: "a", day: 1, slot_start: 1 }));
    expect(batchMoveArgumentsSchema.safeParse({ moves: many }).success).toBe(false);
  });
});

describe("unplace", () => {
  it("returns a placed task item to pending: the state equals the one before place, byte for byte", () => {
    const original = smallSchedule();
    const placed = write("place", original, { task_id: "a", day: 3, slot_start: 1 });
    const result = runTool("unplace", placed, { task_id: "a" });
    expect(result.content).toBe("unplaced task a from day 3 slots 1-2; it is pending again");
    expect(JSON.stringify(result.state)).toBe(JSON.stringify(original));
  });

  it("clears the embed relation both ways", () => {
    const original = smallSchedule();
    const embedded = write("place", original, { task_id: "a", day: 1, slot_start: 4 });
    const result = runTool("unplace", embedded, { task_id: "a" });
    expect(result.content).toBe(
      "unplaced task a from day 1 slots 4-5 (was embedded in host hall); it is pending again",
    );
    const after = result.state as ScheduleState;
    expect(taskById(after, "hall")).toMatchObject({ embeds: [] });
    expect(JSON.stringify(after)).toBe(JSON.stringify(original));
  });

  it.each([
    [{ task_id: "lecture" }, 'error: lecture "Event lecture" is a timetable event; only task items can be unplaced'],
    [{ task_id: "b" }, "error: task b is already pending; nothing to unplace"],
    [{ task_id: "nope" }, 'error: no task with id "nope" among 8 tasks; use list_tasks to find ids'],
  ])("rejects %j", (args, message) => {
    expect(runTool("unplace", withTwoPlaced(), args)).toEqual({ ok: false, content: message });
  });
});
