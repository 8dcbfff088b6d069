/**
 * `propose_undo` (issue 47 item 4): the inverse of the last applied card, as one candidate of ordinary writes — and,
 * when the week changed since (the old slot taken, the clock past it, the task moved again), what cannot be undone,
 * with why, while the rest is still offered.
 */
import { describe, expect, it } from "vitest";
import type { AppliedWrite } from "../../tools/domain.js";
import {
  canonicalScheduleState,
  sampleWeek,
  type ScheduleState,
  type AddHabitData,
  type UndoListing,
  type EventTask,
} from "../../tools/schedule/index.js";
import { describeScheduleCall } from "../../tools/schedule/describe-call.js";
import { appliedWriteSummary } from "../../offline/schedule/tool-data.js";
import { appliedRound, runTool } from "./support.js";
import { oneEventCalendar, SEMINAR_CALENDAR } from "../support/calendars.js";

/** A seminar every Sunday 16:00–17:40 in Shanghai from 17 March 2024: a series. */
const WEEKLY_SEMINAR = oneEventCalendar("weekly-1", "Weekly seminar", "20240317T080000Z", "20240317T094000Z", [
  "RRULE:FREQ=WEEKLY;COUNT=10",
]);

/** Applies `name(args)` to `state`: the state after, and the write as the last card recorded it. */
function applied(state: ScheduleState, name: string, args: Record<string, unknown>) {
  const run = runTool(name, state, args);
  if (!run.ok || !run.state) throw new Error(run.content);
  return { state: run.state, write: { name, arguments: args, data: run.data } as AppliedWrite };
}

/** propose_undo on `state` after the card `writes`: its listing, and the week once the candidate's writes apply. */
function undo(state: ScheduleState, writes: AppliedWrite[]) {
  const run = runTool("propose_undo", { ...state, lastChange: writes });
  const listing = run.data as UndoListing;
  let after = state;
  for (const write of listing.candidates[0]?.writes ?? []) {
    const step = runTool(write.name, after, write.arguments);
    if (!step.ok || !step.state) throw new Error(step.content);
    after = step.state;
  }
  return { listing, after, content: run.content };
}

const same = (a: ScheduleState, b: ScheduleState) =>
  expect(JSON.stringify(canonicalScheduleState(b))).toBe(JSON.stringify(canonicalScheduleState(a)));

describe("propose_undo", () => {
  it("reverses place, move, unplace, swap, the marks and add_task, each back to the week before", () => {
    const week = sampleWeek();
    const placed = applied(week, "place", { task_id: "matrix-review", day: 2, slot_start: 9 });
    const cases: Array<[string, ScheduleState, string, Record<string, unknown>]> = [
      ["place", week, "place", { task_id: "matrix-review", day: 2, slot_start: 9 }],
      ["move", placed.state, "move", { task_id: "matrix-review", day: 5, slot_start: 9 }],
      ["unplace", placed.state, "unplace", { task_id: "matrix-review" }],
      ["mark_done", placed.state, "mark_done", { task_id: "matrix-review" }],
      ["mark_missed", placed.state, "mark_missed", { task_id: "matrix-review" }],
      ["skip", placed.state, "skip", { task_id: "matrix-review" }],
      ["skip pending", week, "skip", { task_id: "binary-tree-review" }],
      ["add_task", week, "add_task", { name: "Integrals review", class_id: "calculus", duration: 2 }],
    ];
    for (const [label, before, name, args] of cases) {
      const change = applied(before, name, args);
      const { listing, after } = undo(change.state, [change.write]);
      expect(listing.kept, label).toEqual([]);
      same(before, after);
    }
  });

  it("a swap is undone by the same swap; a card of two writes is undone last write first", () => {
    const week = sampleWeek();
    const first = applied(week, "place", { task_id: "matrix-review", day: 2, slot_start: 9 });
    const second = applied(first.state, "place", { task_id: "essay-draft", day: 3, slot_start: 9 });
    const both = undo(second.state, [first.write, second.write]);
    expect(both.listing.candidates[0]!.writes.map((write) => write.arguments.task_id)).toEqual([
      "essay-draft",
      "matrix-review",
    ]);
    same(week, both.after);
    const swapped = applied(second.state, "swap", { first_task_id: "matrix-review", second_task_id: "essay-draft" });
    same(second.state, undo(swapped.state, [swapped.write]).after);
  });

  it("a batch_move is undone by one batch_move back, and not when one of its tasks moved since", () => {
    const week = sampleWeek();
    const first = applied(week, "place", { task_id: "matrix-review", day: 2, slot_start: 9 });
    const second = applied(first.state, "place", { task_id: "essay-draft", day: 3, slot_start: 9 });
    // Each takes the other's old slot: only a batch back (checked together) can reverse it.
    const batch = applied(second.state, "batch_move", {
      moves: [
        { task_id: "matrix-review", day: 3, slot_start: 9 },
        { task_id: "essay-draft", day: 2, slot_start: 9 },
      ],
    });
    const { listing, after } = undo(batch.state, [batch.write]);
    expect(listing.undone).toEqual(["batch_move matrix-review essay-draft"]);
    expect(listing.candidates[0]!.writes.map((write) => write.name)).toEqual(["batch_move"]);
    same(second.state, after);
    const since = applied(batch.state, "move", { task_id: "essay-draft", day: 5, slot_start: 9 });
    const later = undo(since.state, [batch.write]);
    expect(later.listing.candidates).toEqual([]);
    expect(later.listing.kept).toEqual([
      { write: "batch_move matrix-review essay-draft", why: "essay-draft moved since" },
    ]);
  });

  it("an update_task is reversed field by field to the values the card recorded, clearing what it added", () => {
    const week = sampleWeek();
    const updated = applied(week, "update_task", {
      task_id: "matrix-review",
      name: "Matrix review (long)",
      class_id: "calculus",
      priority: "high",
      earliest_day: 2,
      due_before_day: 6,
    });
    const { listing, after } = undo(updated.state, [updated.write]);
    expect(listing.undone).toEqual(["update_task matrix-review"]);
    expect(listing.kept).toEqual([]);
    same(week, after);
  });

  it("an update_task whose task a later write changed keeps that field, says so, and reverses the rest", () => {
    const week = sampleWeek();
    const updated = applied(week, "update_task", { task_id: "matrix-review", name: "Matrices", priority: "high" });
    const renamed = applied(updated.state, "update_task", { task_id: "matrix-review", name: "Matrices again" });
    const { listing, after } = undo(renamed.state, [updated.write]);
    expect(listing.kept).toEqual([
      { write: "update_task matrix-review", why: "its name changed since; kept as it is now" },
    ]);
    const task = after.tasks.find((entry) => entry.id === "matrix-review");
    expect(task).toMatchObject({ name: "Matrices again" });
    expect(task && "priority" in task).toBe(false);
    const removed = applied(updated.state, "remove_task", { task_id: "matrix-review" });
    expect(undo(removed.state, [updated.write]).listing.kept).toEqual([
      { write: "update_task matrix-review", why: "it has been removed since" },
    ]);
  });

  it("a removed task comes back pending with its class and deadline, placed again where it was", () => {
    const week = sampleWeek();
    const placed = applied(week, "place", { task_id: "matrix-review", day: 2, slot_start: 9 });
    // The store adds a task item after the others: compared by id, not by position.
    const byId = (state: ScheduleState) => ({
      ...state,
      tasks: [...state.tasks].sort((x, y) => (x.id < y.id ? -1 : 1)),
    });
    for (const [label, before] of [
      ["placed", placed.state],
      ["pending", week],
    ] as const) {
      const removed = applied(before, "remove_task", { task_id: "matrix-review" });
      const { listing, after } = undo(removed.state, [removed.write]);
      expect(listing.undone, label).toEqual(["remove_task matrix-review"]);
      expect(listing.kept, label).toEqual([]);
      same(byId(before), byId(after));
    }
  });

  it("a removed done, missed or skipped task comes back with its history: status, when, where, its host", () => {
    const placed = applied(sampleWeek(), "place", { task_id: "matrix-review", day: 2, slot_start: 9 }).state;
    const byId = (state: ScheduleState) => ({
      ...state,
      tasks: [...state.tasks].sort((x, y) => (x.id < y.id ? -1 : 1)),
    });
    for (const mark of ["mark_done", "mark_missed", "skip"]) {
      const settled = applied(placed, mark, { task_id: "matrix-review" }).state;
      const removed = applied(settled, "remove_task", { task_id: "matrix-review" });
      const { listing, after } = undo(removed.state, [removed.write]);
      expect(listing.kept, mark).toEqual([]);
      expect(
        listing.candidates[0]?.writes.map((write) => write.name),
        mark,
      ).toEqual(["restore_task"]);
      // Done in a study hall: the hall lists it as its guest again; missed or skipped: where it was, on record.
      same(byId(settled), byId(after));
    }
  });

  it("history the week no longer takes (its place taken since) comes back pending, and that is said", () => {
    const placed = applied(sampleWeek(), "place", { task_id: "matrix-review", day: 2, slot_start: 9 }).state;
    const done = applied(placed, "mark_done", { task_id: "matrix-review" }).state;
    const removed = applied(done, "remove_task", { task_id: "matrix-review" });
    const taken = applied(removed.state, "place", { task_id: "binary-tree-review", day: 2, slot_start: 9 });
    const { listing, after } = undo(taken.state, [removed.write]);
    expect(listing.kept).toEqual([
      {
        write: "remove_task matrix-review",
        why: expect.stringMatching(/^it was done; its history cannot be given back \(.+\); it comes back pending$/),
      },
    ]);
    expect(after.tasks.find((task) => task.id === "matrix-review")).toMatchObject({ status: "pending" });
  });

  it("the card names a removed task put back, in English and Chinese", () => {
    const removed = applied(sampleWeek(), "remove_task", { task_id: "matrix-review" });
    const write = undo(removed.state, [removed.write]).listing.candidates[0]!.writes[0]!;
    expect(describeScheduleCall(removed.state, write.name, write.arguments)).toBe(
      'Put back the removed task "Matrix operations review" (pending)',
    );
    expect(describeScheduleCall(removed.state, write.name, write.arguments, "zh")).toBe(
      '恢复已删除的任务 "Matrix operations review"（待安排）',
    );
    // A done task removed comes back done (its history given back): both languages say so.
    const placed = applied(sampleWeek(), "place", { task_id: "matrix-review", day: 2, slot_start: 9 }).state;
    const done = applied(placed, "mark_done", { task_id: "matrix-review" }).state;
    const gone = applied(done, "remove_task", { task_id: "matrix-review" });
    const listing = undo(gone.state, [gone.write]).listing;
    expect(listing.kept).toEqual([]);
    const back = listing.candidates[0]!.writes[0]!;
    expect(describeScheduleCall(gone.state, back.name, back.arguments)).toMatch(/ \(done\)$/);
    expect(describeScheduleCall(gone.state, back.name, back.arguments, "zh")).toMatch(/（已完成）$/);
  });

  it("a removed task whose place was taken since comes back pending, and says so; one added again is not clobbered", () => {
    const week = sampleWeek();
    const placed = applied(week, "place", { task_id: "matrix-review", day: 2, slot_start: 9 });
    const removed = applied(placed.state, "remove_task", { task_id: "matrix-review" });
    const taken = applied(removed.state, "place", { task_id: "binary-tree-review", day: 2, slot_start: 9 });
    const { listing, after } = undo(taken.state, [removed.write]);
    expect(listing.kept).toEqual([
      {
        write: "remove_task matrix-review",
        why: expect.stringMatching(
          /^its place cannot be given back \(.*binary-tree-review.*\); it comes back pending$/,
        ),
      },
    ]);
    expect(after.tasks.find((task) => task.id === "matrix-review")).toMatchObject({ status: "pending" });
    const again = applied(removed.state, "add_task", {
      name: "Other",
      class_id: "calculus",
      duration: 2,
      task_id: "matrix-review",
    });
    const clobber = undo(again.state, [removed.write]);
    expect(clobber.listing.candidates).toEqual([]);
    expect(clobber.listing.kept[0]?.why).toMatch(/exists again/);
  });

  it("a changed class gets back the fields the card recorded; one a later write changed is kept and named", () => {
    const week = applied(sampleWeek(), "upsert_task_class", {
      class_id: "calculus",
      name: "Calculus",
      preferred_parts: ["evening"],
      excluded_days_of_week: [7],
      buffer_slots: 1,
    }).state;
    const change = applied(week, "upsert_task_class", {
      class_id: "calculus",
      name: "Calc",
      preferred_parts: ["morning"],
      excluded_days_of_week: [6, 7],
      buffer_slots: 0,
    });
    const back = undo(change.state, [change.write]);
    expect(back.listing.kept).toEqual([]);
    same(week, back.after);
    // A later write set the buffer again: undo keeps it, says so, and gives back the rest.
    const later = applied(change.state, "upsert_task_class", { class_id: "calculus", name: "Calc", buffer_slots: 2 });
    const partly = undo(later.state, [change.write]);
    expect(partly.listing.kept).toEqual([
      { write: "upsert_task_class calculus", why: "its buffer changed since; kept as it is now" },
    ]);
    const calculus = partly.after.categories.find((entry) => entry.id === "calculus")!;
    expect(calculus).toMatchObject({ name: "Calculus", preferredParts: ["evening"], excludedDaysOfWeek: [7] });
    expect(calculus.bufferSlots).toBe(2);
  });

  it("a class bound that had no value before is kept and said; the rest is given back", () => {
    const before = sampleWeek().categories.find((entry) => entry.id === "calculus")!;
    expect(before.bufferSlots).toBeUndefined();
    const change = applied(sampleWeek(), "upsert_task_class", {
      class_id: "calculus",
      name: before.name,
      excluded_days_of_week: [6],
      buffer_slots: 1,
    });
    const back = undo(change.state, [change.write]);
    expect(back.listing.kept).toEqual([
      { write: "upsert_task_class calculus", why: "its buffer had no value before and cannot be cleared; kept" },
    ]);
    const calculus = back.after.categories.find((entry) => entry.id === "calculus")!;
    expect(calculus.excludedDaysOfWeek ?? []).toEqual(before.excludedDaysOfWeek ?? []);
    expect(calculus.bufferSlots).toBe(1);
  });

  it("a new class is removed by undo while no task uses it; one in use is kept and its tasks named", () => {
    const created = applied(sampleWeek(), "upsert_task_class", { class_id: "physics", name: "Physics" });
    const back = undo(created.state, [created.write]);
    expect(back.listing.candidates[0]!.writes).toEqual([
      { name: "remove_task_class", arguments: { class_id: "physics" } },
    ]);
    same(sampleWeek(), back.after);
    const [removal] = back.listing.candidates[0]!.writes;
    expect(describeScheduleCall(created.state, removal!.name, removal!.arguments)).toBe('Remove the class "Physics"');
    expect(describeScheduleCall(created.state, removal!.name, removal!.arguments, "zh")).toBe('删除课程 "Physics"');
    const used = applied(created.state, "add_task", {
      task_id: "optics",
      name: "Optics",
      class_id: "physics",
      duration: 2,
    });
    const listing = undo(used.state, [created.write]).listing;
    expect(listing.candidates).toEqual([]);
    expect(listing.kept[0]!.why).toContain("tasks use it (optics)");
    // Changed since it was made: the change is not thrown away.
    const changed = applied(created.state, "upsert_task_class", {
      class_id: "physics",
      name: "Physics",
      buffer_slots: 1,
    });
    expect(undo(changed.state, [created.write]).listing.kept[0]!.why).toBe("it has changed since; kept as it is now");
  });

  it("a habit is taken back: its sessions and its class; a session since done stays as history, and its class", () => {
    const habit = applied(sampleWeek(), "add_habit", { name: "Vocabulary", duration: 1, times_per_week: 3 });
    const sessions = (habit.write.data as AddHabitData).tasks.map((task) => task.id);
    expect(sessions).toHaveLength(3);
    const back = undo(habit.state, [habit.write]);
    expect(back.listing.kept).toEqual([]);
    expect(back.listing.candidates[0]!.writes.map((write) => write.name)).toEqual([
      "remove_task",
      "remove_task",
      "remove_task",
      "remove_task_class",
    ]);
    same(sampleWeek(), back.after);
    // One session placed and done since: it stays on record, and so does the class it names.
    const placed = applied(habit.state, "place", { task_id: sessions[0], day: 2, slot_start: 9 }).state;
    const done = applied(placed, "mark_done", { task_id: sessions[0] }).state;
    const partly = undo(done, [habit.write]);
    expect(partly.listing.candidates[0]!.writes).toEqual([
      { name: "remove_task", arguments: { task_id: sessions[1] } },
      { name: "remove_task", arguments: { task_id: sessions[2] } },
    ]);
    expect(partly.listing.kept[0]!.why).toBe(`${sessions[0]} is done: history, kept; its class stays`);
    expect(partly.after.tasks.find((task) => task.id === sessions[0])).toMatchObject({ status: "done" });
  });

  it("a card that created a class and added a task to it is undone whole: the task, then the class", () => {
    const created = applied(sampleWeek(), "upsert_task_class", { class_id: "physics", name: "Physics" });
    const added = applied(created.state, "add_task", {
      task_id: "optics",
      name: "Optics",
      class_id: "physics",
      duration: 2,
    });
    const back = undo(added.state, [created.write, added.write]);
    expect(back.listing.kept).toEqual([]);
    expect(back.listing.candidates[0]!.writes).toEqual([
      { name: "remove_task", arguments: { task_id: "optics" } },
      { name: "remove_task_class", arguments: { class_id: "physics" } },
    ]);
    same(sampleWeek(), back.after);
  });

  it("a removed class comes back with every field it had", () => {
    const week = applied(sampleWeek(), "upsert_task_class", {
      class_id: "physics",
      name: "Physics",
      preferred_parts: ["evening"],
      excluded_days_of_week: [7],
      min_session: 1,
      max_session: 3,
      buffer_slots: 1,
      strategy: "compact",
    }).state;
    const removed = applied(week, "remove_task_class", { class_id: "physics" });
    expect(removed.state.categories.some((entry) => entry.id === "physics")).toBe(false);
    const back = undo(removed.state, [removed.write]);
    expect(back.listing.kept).toEqual([]);
    same(week, back.after);
    const again = applied(removed.state, "upsert_task_class", { class_id: "physics", name: "Other" });
    expect(undo(again.state, [removed.write]).listing.kept[0]!.why).toMatch(/exists again/);
  });

  it("when the old slot is taken since, says so and offers what can still be undone", () => {
    const week = sampleWeek();
    const placed = applied(week, "place", { task_id: "matrix-review", day: 2, slot_start: 9 });
    const added = applied(placed.state, "place", { task_id: "essay-draft", day: 3, slot_start: 9 });
    const moved = applied(added.state, "move", { task_id: "matrix-review", day: 5, slot_start: 9 });
    // Since the card: another review took Tuesday 19:00.
    const taken = applied(moved.state, "place", { task_id: "binary-tree-review", day: 2, slot_start: 9 });
    const { listing, after, content } = undo(taken.state, [added.write, moved.write]);
    expect(listing.undone).toEqual(["place essay-draft"]);
    expect(listing.kept).toEqual([{ write: "move matrix-review", why: expect.stringMatching(/binary-tree-review/) }]);
    expect(content).toMatch(/^u1: undo place essay-draft: .*\ncannot undo move matrix-review: /);
    expect(after.tasks.find((task) => task.id === "essay-draft")?.slots).toBeUndefined();
  });

  it("a place the clock has passed is not offered back, with the reason", () => {
    const placed = applied(sampleWeek(), "place", { task_id: "matrix-review", day: 2, slot_start: 3 });
    const moved = applied(placed.state, "move", { task_id: "matrix-review", day: 5, slot_start: 9 });
    // Wednesday noon: Tuesday 10:00, where it was, has passed.
    const later = { ...moved.state, now: "2024-03-13T12:00:00+08:00" };
    const { listing } = undo(later, [moved.write]);
    expect(listing.candidates).toEqual([]);
    expect(listing.empty).toBe("nothing of the last change can be undone now");
    expect(listing.kept[0]?.why).toMatch(/has passed/);
  });

  it("a roll of the week is not undone, and the answer says why (it would rewrite the past)", () => {
    const roll: AppliedWrite = { name: "roll_window", arguments: {}, data: {} };
    const { listing, content } = undo(sampleWeek(), [roll]);
    expect(listing.candidates).toEqual([]);
    expect(content).toMatch(/^cannot undo roll_window: a roll of the week is not undone: .*rewrite the past/m);
  });

  it("with no card applied yet, nothing is offered, and why", () => {
    const run = runTool("propose_undo", sampleWeek());
    expect(run.content).toBe("nothing to undo: no change was applied in this conversation yet");
  });

  it("when the last card was another domain's (a to-do added), it says so and names it, never 'no change'", () => {
    const todo: AppliedWrite = { name: "add_todo", arguments: { title: "call mom" } };
    const run = runTool("propose_undo", { ...sampleWeek(), lastChange: [], lastChangeElsewhere: [todo.name] });
    expect((run.data as UndoListing).candidates).toEqual([]);
    expect(run.content).toBe(
      "nothing to undo: the last change was not to the schedule (add_todo): propose_undo takes back schedule changes only; that domain's tools can reverse it",
    );
    // A card of both: the schedule's write is undone, the other named as kept.
    const placed = applied(sampleWeek(), "place", { task_id: "matrix-review", day: 2, slot_start: 9 });
    const both = undo({ ...placed.state, lastChangeElsewhere: [todo.name] }, [placed.write]);
    expect(both.listing.undone).toEqual(["place matrix-review"]);
    expect(both.listing.kept).toEqual([
      { write: "add_todo", why: "it is not a schedule change, and only schedule changes are taken back here" },
    ]);
  });
});

describe("remove_event and the undo of an import", () => {
  it("removes a one-off or a whole series; refuses an event with a guest, one a deadline names, a task, an unknown id", () => {
    const week = sampleWeek();
    const imported = applied(week, "import_calendar", { ics: SEMINAR_CALENDAR });
    const seminar = imported.state.tasks.find((task) => task.name === "History seminar")!;
    const removed = runTool("remove_event", imported.state, { event_id: seminar.id });
    expect(removed.content).toBe(`removed event ${seminar.id} "History seminar"`);
    same(week, removed.state!);
    const series = applied(week, "import_calendar", { ics: WEEKLY_SEMINAR }).state;
    const weekly = series.tasks.find((task) => task.name === "Weekly seminar")!;
    expect(runTool("remove_event", series, { event_id: weekly.id }).content).toMatch(
      /and every occurrence of its series$/,
    );
    const placed = applied(week, "place", { task_id: "matrix-review", day: 2, slot_start: 9 }).state;
    expect(runTool("remove_event", placed, { event_id: "tue-programming-lab" }).content).toMatch(
      /^error: "[^"]+" holds matrix-review; move them out first; nothing was removed$/,
    );
    expect(runTool("remove_event", week, { event_id: "sat-calculus-midterm" }).content).toMatch(
      /^error: the deadline of [a-z-]+(, [a-z-]+)* is "[^"]+"; change it first; nothing was removed$/,
    );
    expect(runTool("remove_event", week, { event_id: "matrix-review" }).content).toMatch(/is a task, not an event/);
    expect(runTool("remove_event", week, { event_id: "nope" }).content).toMatch(/^error: no event with id "nope"/);
  });

  it("the card names the event and every time the week shows it, in English and Chinese", () => {
    const series = applied(sampleWeek(), "import_calendar", { ics: WEEKLY_SEMINAR }).state;
    const weekly = series.tasks.find((task) => task.name === "Weekly seminar")!;
    expect(describeScheduleCall(series, "remove_event", { event_id: weekly.id })).toBe(
      'Remove the event "Weekly seminar" (Sun 17 Mar, 16:00–17:40), with every occurrence of its series',
    );
    expect(describeScheduleCall(series, "remove_event", { event_id: weekly.id }, "zh")).toBe(
      '删除日程 "Weekly seminar"（3月17日周日 16:00–17:40），连同这个系列的所有重复',
    );
  });

  it("what the offline policy reports of an applied removal is said from its data, in English and Chinese", () => {
    const series = applied(sampleWeek(), "import_calendar", { ics: WEEKLY_SEMINAR }).state;
    const weekly = series.tasks.find((task) => task.name === "Weekly seminar")!;
    const run = runTool("remove_event", series, { event_id: weekly.id });
    const round = appliedRound("remove_event", { event_id: weekly.id }, run.data);
    expect(appliedWriteSummary(round, "en")).toBe(run.content);
    expect(appliedWriteSummary(round, "zh")).toBe("已从课表删除“Weekly seminar”，连同这个系列的所有重复");
  });

  it("undo of an import removes the events it added; one the week now depends on is kept, and said", () => {
    const week = sampleWeek();
    const ics = [SEMINAR_CALENDAR, WEEKLY_SEMINAR].map((text) => text.trim().split("\r\n"));
    // One file of two events: the one-off and the weekly series.
    const both = [...ics[0]!.slice(0, -1), ...ics[1]!.slice(3)].join("\r\n");
    const imported = applied(week, "import_calendar", { ics: both });
    const before = new Set(week.tasks.map((task) => task.id));
    const added = imported.state.tasks.filter((task) => !before.has(task.id));
    expect(added.map((task) => task.name).sort()).toEqual(["History seminar", "Weekly seminar"]);
    const whole = undo(imported.state, [imported.write]);
    expect(whole.listing.undone).toEqual(["import_calendar"]);
    expect(whole.listing.kept).toEqual([]);
    same(week, whole.after);
    // A task due before the weekly seminar since: that event stays, the other goes, and the answer says why.
    const weekly = added.find((task) => task.name === "Weekly seminar")!;
    const due = applied(imported.state, "update_task", { task_id: "matrix-review", due_before_event: weekly.id }).state;
    const partly = undo(due, [imported.write]);
    expect(partly.listing.candidates[0]!.writes).toEqual([
      { name: "remove_event", arguments: { event_id: added.find((task) => task.name === "History seminar")!.id } },
    ]);
    expect(partly.listing.kept).toEqual([
      {
        write: "import_calendar",
        why: expect.stringMatching(/^kept: the deadline of matrix-review is "Weekly seminar"/),
      },
    ]);
    expect(partly.after.tasks.map((task) => task.name)).toContain("Weekly seminar");
    expect(partly.after.tasks.map((task) => task.name)).not.toContain("History seminar");
  });

  it("undo of remove_event puts the event back, a series whole; one whose place was taken since is kept, and said", () => {
    const series = applied(sampleWeek(), "import_calendar", { ics: WEEKLY_SEMINAR }).state;
    const weekly = series.tasks.find((task) => task.name === "Weekly seminar")!;
    const removed = applied(series, "remove_event", { event_id: weekly.id });
    const back = undo(removed.state, [removed.write]);
    expect(back.listing.candidates[0]!.writes.map((write) => write.name)).toEqual(["restore_event"]);
    same(series, back.after);
    const write = back.listing.candidates[0]!.writes[0]!;
    expect(describeScheduleCall(removed.state, write.name, write.arguments)).toBe(
      'Put back the removed event "Weekly seminar", with every occurrence of its series',
    );
    expect(describeScheduleCall(removed.state, write.name, write.arguments, "zh")).toBe(
      '恢复已删除的日程 "Weekly seminar"，连同这个系列的所有重复',
    );
    // The seminar's Sunday 16:00 taken by a review since: the event is not put over it.
    const sunday = weekly.slots![0]!;
    const taken = applied(removed.state, "place", {
      task_id: "matrix-review",
      day: sunday.day,
      slot_start: sunday.start,
    });
    const kept = undo(taken.state, [removed.write]);
    expect(kept.listing.candidates).toEqual([]);
    expect(kept.listing.kept).toEqual([
      { write: `remove_event ${weekly.id}`, why: expect.stringMatching(/matrix-review.*nothing was restored$/) },
    ]);
  });

  it("a one-off removed before the window moved on is not put back on days it no longer means", () => {
    const imported = applied(sampleWeek(), "import_calendar", { ics: SEMINAR_CALENDAR }).state;
    const seminar = imported.tasks.find((task) => task.name === "History seminar")!;
    const removed = applied(imported, "remove_event", { event_id: seminar.id });
    const rolled = applied(removed.state, "roll_window", { days: 7 }).state;
    expect(undo(rolled, [removed.write]).listing.kept).toEqual([
      { write: `remove_event ${seminar.id}`, why: expect.stringMatching(/window has moved on/) },
    ]);
  });

  it("restore_event refuses a made-up series it cannot expand, and an id the week has again, changing nothing", () => {
    const series = applied(sampleWeek(), "import_calendar", { ics: WEEKLY_SEMINAR }).state;
    const weekly = series.tasks.find((task) => task.name === "Weekly seminar")! as EventTask;
    const removed = applied(series, "remove_event", { event_id: weekly.id }).state;
    const forged = { ...weekly, series: { ...weekly.series!, timeZone: "Mars/Olympus" } };
    expect(runTool("restore_event", removed, { event: forged }).content).toMatch(
      /Mars\/Olympus.*nothing was restored$/,
    );
    expect(runTool("restore_event", series, { event: weekly }).content).toMatch(/exists again; nothing was restored$/);
  });

  it("a missed review placed again is missed again when undone, its miss as on record; undoing that places it again", () => {
    const placed = applied(sampleWeek(), "place", { task_id: "matrix-review", day: 2, slot_start: 9 }).state;
    const missed = applied({ ...placed, now: "2024-03-13T08:00:00+08:00" }, "mark_missed", {
      task_id: "matrix-review",
      at: "2024-03-12T21:00:00+08:00",
    }).state;
    const { now: _now, ...missedWeek } = missed;
    const rescheduled = applied(missedWeek, "place", { task_id: "matrix-review", day: 6, slot_start: 9 });
    const back = undo(rescheduled.state, [rescheduled.write]);
    expect(back.listing.kept).toEqual([]);
    // Missed again, with when it was marked and where it was (Tue 12 Mar, 19:00–20:40): not pending, nothing lost.
    same(missedWeek, back.after);
    expect(back.after.tasks.find((task) => task.id === "matrix-review")).toMatchObject({
      status: "missed",
      markedAt: "2024-03-12T21:00:00+08:00",
      was: { date: "2024-03-12", start: 9, end: 10 },
    });
    const [, restore] = back.listing.candidates[0]!.writes;
    expect(describeScheduleCall(rescheduled.state, restore!.name, restore!.arguments)).toBe(
      'Give "Matrix operations review" back the status it had (missed)',
    );
    // The undo of that undo: reopened and placed where the reschedule put it.
    let week = rescheduled.state;
    const writes = back.listing.candidates[0]!.writes.map((write) => {
      const step = applied(week, write.name, write.arguments);
      week = step.state;
      return step.write;
    });
    same(rescheduled.state, undo(week, writes).after);
  });

  it("a mark made after the review's time is undone: placed where it was, in its hall; undone again, marked as it was", () => {
    // Monday 19:00–20:40 in the evening study hall; marked on Tuesday evening, when that place has passed.
    const placed = applied(sampleWeek(), "place", { task_id: "matrix-review", day: 1, slot_start: 9 }).state;
    const now = "2024-03-12T21:00:00+08:00";
    for (const mark of ["mark_done", "mark_missed", "skip"]) {
      const marked = applied({ ...placed, now }, mark, { task_id: "matrix-review" });
      const back = undo(marked.state, [marked.write]);
      expect(back.listing.kept, mark).toEqual([]);
      expect(
        back.listing.candidates[0]!.writes.map((write) => write.name),
        mark,
      ).toEqual(["restore_task"]);
      same({ ...placed, now }, back.after);
      // The undo of that undo gives the mark back as it was recorded: when, and where it was.
      const restore = back.listing.candidates[0]!.writes[0]!;
      const restored = applied(marked.state, restore.name, restore.arguments);
      same(marked.state, undo(restored.state, [restored.write]).after);
    }
  });

  it("the undo of an undo: a task put back by restore_task is removed again", () => {
    const removed = applied(sampleWeek(), "remove_task", { task_id: "matrix-review" });
    const restore = undo(removed.state, [removed.write]).listing.candidates[0]!.writes[0]!;
    const restored = applied(removed.state, restore.name, restore.arguments);
    const again = undo(restored.state, [restored.write]);
    expect(again.listing.candidates[0]!.writes).toEqual([
      { name: "remove_task", arguments: { task_id: "matrix-review" } },
    ]);
    same(removed.state, again.after);
  });
});
