/**
 * A task item's life (issue 47 items 4 and 3): pending → placed → done | missed | skipped and back to pending, by the
 * write tools mark_done / mark_missed / skip / reopen; the diff round trip of each; nothing moves a settled task; a
 * roll keeps history, turns a passed placed review into missed and says so; a term-long window rolls.
 */
import { describe, expect, it } from "vitest";
import {
  applyScheduleChanges,
  canonicalScheduleState,
  checkScheduleInvariants,
  datedWindow,
  diffScheduleState,
  parseScheduleState,
  rollWindow,
  sampleWeek,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { describeScheduleCall } from "../../tools/schedule/describe-call.js";
import { summaryInChinese } from "../../tools/schedule/summary-words.js";
import { runTool, write } from "./support.js";

const AT = "2024-03-12T21:00:00+08:00";
const item = (state: ScheduleState, id: string) => state.tasks.find((task) => task.id === id) as TaskItem;
const json = (value: unknown) => JSON.stringify(value);

/** The sample week with the matrix review placed on Tue 12 Mar 19:00–20:40, inside no host. */
function withMatrixPlaced(): ScheduleState {
  return write("place", sampleWeek(), { task_id: "matrix-review", day: 2, slot_start: 9 });
}

/** `after` persisted as a diff and replayed on `before` gives `after` back, byte for byte. */
function expectRoundTrip(before: ScheduleState, after: ScheduleState): void {
  const changes = diffScheduleState(before, after);
  expect(json(applyScheduleChanges(before, changes))).toBe(json(canonicalScheduleState(after)));
  expect(() => applyScheduleChanges(applyScheduleChanges(before, changes), changes)).toThrow(/no longer as/);
}

describe("a task's life through the write tools", () => {
  it("mark_done keeps the place and when it was marked; the diff round trip carries it", () => {
    const before = withMatrixPlaced();
    const result = runTool("mark_done", before, { task_id: "matrix-review", at: AT });
    expect(result.content).toBe("marked task matrix-review done (it was placed)");
    const after = result.state!;
    expect(item(after, "matrix-review")).toMatchObject({
      status: "done",
      slots: [{ day: 2, start: 9, end: 10 }],
      markedAt: AT,
    });
    expect(diffScheduleState(before, after)).toEqual([
      {
        kind: "status",
        taskId: "matrix-review",
        source: "task_item",
        from: item(before, "matrix-review"),
        to: item(after, "matrix-review"),
      },
    ]);
    expectRoundTrip(before, after);
  });

  it("without `at`, when it was marked is the run's clock (the state's now)", () => {
    const now = "2024-03-12T12:30:00.000Z";
    const done = write("mark_done", { ...withMatrixPlaced(), now }, { task_id: "matrix-review" });
    expect(item(done, "matrix-review")).toMatchObject({ status: "done", markedAt: now });
    // What the user said wins over the clock.
    const said = write("mark_done", { ...withMatrixPlaced(), now }, { task_id: "matrix-review", at: AT });
    expect(item(said, "matrix-review").markedAt).toBe(AT);
  });

  it("done ahead of its place frees the place (it was not done there); an undo puts it back; the card says so", () => {
    // Monday 11 March, 09:00 in Shanghai: the review's place (Tuesday 19:00) is still ahead. Before, the done review
    // kept Tuesday's place, blocked to others, and a roll told it as "done (Tue 12 Mar)".
    const before = { ...withMatrixPlaced(), now: "2024-03-11T01:00:00.000Z" };
    expect(describeScheduleCall(before, "mark_done", { task_id: "matrix-review" })).toBe(
      'Mark "Matrix operations review" done (Tue 12 Mar, 19:00–20:40); done ahead of it, so its place is freed',
    );
    expect(describeScheduleCall(before, "mark_done", { task_id: "matrix-review" }, "zh")).toMatch(
      /记为已完成；提前完成，这个时段会空出来$/,
    );
    const result = runTool("mark_done", before, { task_id: "matrix-review" });
    // The result says so too: the terminal's echo and the answer read it, in either language.
    expect(result.content).toBe("marked task matrix-review done (it was placed); its place is free again");
    expect(summaryInChinese(result.content!)).toBe(
      "已把任务 matrix-review 记为已完成（原为已安排），原来的时段空出来了",
    );
    const after = result.state!;
    // Out of its place and of the lab it sat inside, done when the clock says.
    const { slots: _slots, embeddedIn: _host, ...rest } = item(before, "matrix-review");
    expect(item(before, "matrix-review").embeddedIn).toBe("tue-programming-lab");
    expect(item(after, "matrix-review")).toEqual({ ...rest, status: "done", markedAt: before.now });
    expect(checkScheduleInvariants(after)).toEqual([]);
    const { now: _now, ...stored } = before;
    const { now: _after, ...storedAfter } = after;
    expectRoundTrip(stored, storedAfter);
    // The freed place takes another review.
    expect(runTool("place", after, { task_id: "review-limits", day: 2, slot_start: 9 }).ok).toBe(true);
    // Said to be done earlier than its place ("at"), on a later clock: freed too.
    const told = runTool(
      "mark_done",
      { ...withMatrixPlaced(), now: "2024-03-13T01:00:00.000Z" },
      {
        task_id: "matrix-review",
        at: "2024-03-11T01:00:00.000Z",
      },
    );
    expect(item(told.state!, "matrix-review").slots).toBeUndefined();
    // "undo that": reopened and placed back where it was.
    const lastChange = [{ name: "mark_done", arguments: { task_id: "matrix-review" }, data: result.data }];
    const undo = runTool("propose_undo", { ...after, lastChange });
    const writes = (undo.data as { candidates: Array<{ writes: Array<{ name: string; arguments: object }> }> })
      .candidates[0]!.writes;
    let undone: ScheduleState = after;
    for (const each of writes) undone = write(each.name, undone, each.arguments as Record<string, unknown>);
    expect(item(undone, "matrix-review")).toMatchObject({ status: "placed", slots: [{ day: 2, start: 9, end: 10 }] });
  });

  it("mark_missed frees the place and keeps where it was; place reschedules the missed review", () => {
    const before = withMatrixPlaced();
    const missed = write("mark_missed", before, { task_id: "matrix-review", at: AT });
    expect(item(missed, "matrix-review")).toEqual({
      ...item(sampleWeek(), "matrix-review"),
      status: "missed",
      markedAt: AT,
      was: { week: 1, dayOfWeek: 2, date: "2024-03-12", start: 9, end: 10 },
    });
    expectRoundTrip(before, missed);
    const again = write("place", missed, { task_id: "matrix-review", day: 2, slot_start: 9 });
    expect(item(again, "matrix-review")).toEqual(item(before, "matrix-review"));
    expectRoundTrip(missed, again);
  });

  it("mark_missed refuses a review the clock has not reached: it is still ahead, nothing changes", () => {
    // Matrix review: Tue 12 Mar 19:00–20:40. At 18:59 it is ahead; from 19:00 (it has begun) it can be missed.
    const before = withMatrixPlaced();
    for (const at of ["2024-03-12T18:59:00+08:00", "2024-03-11T21:00:00+08:00"]) {
      const early = runTool("mark_missed", before, { task_id: "matrix-review", at });
      expect(early.ok).toBe(false);
      expect(early.content).toMatch(
        /^error: task matrix-review is on day 2 slots 9-10 \(Tue 12 Mar 2024, 19:00–20:40\), still ahead, so it cannot be marked missed yet/,
      );
      expect(early.state).toBeUndefined();
      // The run's clock, as the domain folds it in, refuses it the same way.
      expect(runTool("mark_missed", { ...before, now: at }, { task_id: "matrix-review" }).ok).toBe(false);
    }
    expect(
      item(write("mark_missed", before, { task_id: "matrix-review", at: "2024-03-12T19:00:00+08:00" }), "matrix-review")
        .status,
    ).toBe("missed");
    // Without a clock nothing tells it is ahead: marked as asked (as before).
    expect(item(write("mark_missed", before, { task_id: "matrix-review" }), "matrix-review").status).toBe("missed");
    // Said in Chinese from the table.
    expect(
      summaryInChinese(
        runTool("mark_missed", before, { task_id: "matrix-review", at: AT.replace("21:00", "08:00") }).content,
      ),
    ).toMatch(/时间还没到，还不能记为错过（这周不做的话，可以跳过它）$/);
  });

  it("skip takes a placed review off; reopen makes any settled task pending again", () => {
    const skipped = write("skip", withMatrixPlaced(), { task_id: "matrix-review" });
    expect(item(skipped, "matrix-review")).toMatchObject({ status: "skipped", was: { date: "2024-03-12" } });
    const reopened = runTool("reopen", skipped, { task_id: "matrix-review" });
    expect(reopened.content).toBe("reopened task matrix-review: it was skipped, it is pending again");
    expect(item(reopened.state!, "matrix-review")).toEqual(item(sampleWeek(), "matrix-review"));
    const done = write("mark_done", withMatrixPlaced(), { task_id: "matrix-review" });
    expect(item(write("reopen", done, { task_id: "matrix-review" }), "matrix-review")).toEqual(
      item(sampleWeek(), "matrix-review"),
    );
    expectRoundTrip(skipped, reopened.state!);
  });

  it("refuses what a status does not allow, with the reason, and changes nothing", () => {
    const done = write("mark_done", withMatrixPlaced(), { task_id: "matrix-review" });
    for (const [tool, args, reason] of [
      ["mark_missed", { task_id: "review-limits" }, /is pending, so it cannot be marked missed; only a placed task/],
      ["mark_done", { task_id: "mon-study-hall" }, /timetable event; only task items are marked/],
      ["mark_done", { task_id: "nope" }, /no task with id "nope"/],
      ["reopen", { task_id: "review-limits" }, /is pending; only a done, missed or skipped/],
      ["move", { task_id: "matrix-review", day: 3, slot_start: 9 }, /is done, history that nothing moves/],
      ["unplace", { task_id: "matrix-review" }, /is done, history that nothing moves/],
      ["place", { task_id: "matrix-review", day: 3, slot_start: 9 }, /is done; use reopen first/],
      ["mark_done", { task_id: "matrix-review" }, /is done on .*cannot be marked done/],
    ] as const) {
      const result = runTool(tool, done, args);
      expect(result.ok, tool).toBe(false);
      expect(result.content).toMatch(reason);
    }
    expect(() => runTool("mark_done", done, { task_id: "matrix-review", at: "yesterday" })).toThrow();
  });

  it("cards say what each life write does, by name and place, in English and Chinese", () => {
    const state = withMatrixPlaced();
    expect(describeScheduleCall(state, "mark_done", { task_id: "matrix-review" })).toBe(
      'Mark "Matrix operations review" done (Tue 12 Mar, 19:00–20:40)',
    );
    expect(describeScheduleCall(state, "mark_missed", { task_id: "matrix-review" }, "zh")).toBe(
      '把 "Matrix operations review"（3月12日周二 19:00–20:40）记为错过',
    );
    expect(describeScheduleCall(state, "skip", { task_id: "matrix-review" })).toMatch(
      /^Skip "Matrix operations review" this week/,
    );
  });

  it("the health judge, the candidates and the arrangement leave settled tasks alone", () => {
    const done = write("mark_done", withMatrixPlaced(), { task_id: "matrix-review" });
    const skipped = write("skip", done, { task_id: "review-limits" });
    const listing = runTool("propose_candidates", skipped, {});
    const named = JSON.stringify(listing.data);
    expect(named).not.toContain("matrix-review");
    expect(named).not.toContain("review-limits");
    const arranged = runTool("propose_arrangement", skipped, {});
    expect(JSON.stringify(arranged.data)).not.toContain("review-limits");
    const health = runTool("analyze_health", skipped, {});
    expect(health.ok).toBe(true);
    expect(health.content).not.toMatch(/review-limits/);
  });
});

describe("stored tasks", () => {
  it("old pending and placed tasks stay valid, and the settled ones parse with when and where", () => {
    const old = withMatrixPlaced();
    expect(json(parseScheduleState(JSON.parse(json(old))))).toBe(json(old));
    const missed = write("mark_missed", old, { task_id: "matrix-review", at: AT });
    expect(json(parseScheduleState(JSON.parse(json(missed))))).toBe(json(missed));
    const broken = JSON.parse(json(missed)) as ScheduleState;
    (broken.tasks.find((task) => task.id === "matrix-review") as TaskItem).status = "finished" as never;
    expect(() => parseScheduleState(broken)).toThrow();
  });
});

describe("rolling on without loss", () => {
  it("a roll keeps a done review on record with when, turns a passed placed one into missed, and says so", () => {
    let state = write("place", sampleWeek(), { task_id: "matrix-review", day: 2, slot_start: 9 });
    state = write("place", state, { task_id: "review-limits", day: 3, slot_start: 9 });
    state = write("mark_done", state, { task_id: "matrix-review", at: AT });
    const rolled = runTool("roll_window", state, { days: 7 });
    expect(rolled.content).toMatch(
      /; 1 done task\(s\) moved to history: matrix-review; 1 placed task\(s\) passed without being marked done and are now missed: review-limits; \d+ past event\(s\) left with the old days/,
    );
    const after = rolled.state!;
    expect(item(after, "matrix-review")).toEqual({
      ...item(sampleWeek(), "matrix-review"),
      status: "done",
      markedAt: AT,
      was: { week: 1, dayOfWeek: 2, date: "2024-03-12", start: 9, end: 10 },
    });
    expect(item(after, "review-limits")).toMatchObject({ status: "missed", was: { date: "2024-03-13" } });
    expect(after.tasks.filter((task) => task.source === "task_item")).toHaveLength(
      state.tasks.filter((task) => task.source === "task_item").length,
    );
    expect(diffScheduleState(state, after)).toEqual([{ kind: "roll", days: 7, from: state.window.days[0] }]);
    expect(json(applyScheduleChanges(state, diffScheduleState(state, after)))).toBe(json(after));
    expect(json(rollWindow(rollWindow(state, 3), 4))).toBe(json(after));
  });

  it("with a clock, a roll takes only the days that are over: a review still ahead is never made missed", () => {
    let state = write("place", sampleWeek(), { task_id: "matrix-review", day: 2, slot_start: 9 });
    state = write("place", state, { task_id: "vocabulary-list", day: 4, slot_start: 1 });
    // Wednesday 13 March 2024, 09:00 in Shanghai: Monday and Tuesday are over; Thursday's review is still ahead.
    const wednesday = { ...state, now: "2024-03-13T09:00:00+08:00" };
    const refused = runTool("roll_window", wednesday, { days: 7 });
    expect(refused.ok).toBe(false);
    expect(refused.state).toBeUndefined();
    expect(refused.content).toBe(
      "error: Wed 13 Mar has not passed yet (it is Wed 13 Mar, 09:00 now): the window moves on only by days that are over, 2 day(s) at most now; it moves on by itself once its last day has passed",
    );
    // The days that are over go: Tuesday's review, passed unmarked, is missed; Thursday's stays placed.
    const rolled = write("roll_window", wednesday, { days: 2 });
    expect(item(rolled, "matrix-review")).toMatchObject({ status: "missed", was: { date: "2024-03-12" } });
    expect(item(rolled, "vocabulary-list")).toMatchObject({ status: "placed", slots: [{ day: 2, start: 1, end: 1 }] });
    // A clock before the window leaves no day to take; one past its end, every day.
    const sunday = runTool("roll_window", { ...state, now: "2024-03-10T20:00:00+08:00" }, { days: 1 });
    expect(sunday.content).toMatch(/^error: Mon 11 Mar has not passed yet .*, 0 day\(s\) at most now;/);
    expect(write("roll_window", { ...state, now: "2024-03-18T07:00:00+08:00" }, { days: 7 }).window.days[0]!.date).toBe(
      "2024-03-18",
    );
  });

  it("after a roll, every missed review a place fits is proposed again, each at its own place", () => {
    const places: Array<[string, number, number]> = [
      ["matrix-review", 4, 7],
      ["determinant-exercises", 5, 9],
      ["vocabulary-list", 6, 1],
      ["linked-list-exercises", 7, 5],
    ];
    const ids = places.map(([id]) => id);
    let state = sampleWeek();
    for (const [id, day, slot] of places) state = write("place", state, { task_id: id, day, slot_start: slot });
    state = { ...write("roll_window", state, { days: 7 }), now: "2024-03-18T07:00:00+08:00" };
    for (const id of ids) expect(item(state, id).status).toBe("missed");
    const listed = runTool("propose_reschedule", state, {});
    const data = listed.data as {
      candidates: Array<{ writes: Array<{ name: string; arguments: { task_id: string } }> }>;
      unplaced: unknown[];
    };
    // The rolled week is empty of events: there is room for all four, so none is said to have no place.
    expect(data.unplaced).toEqual([]);
    expect(data.candidates[0]!.writes.map((entry) => [entry.name, entry.arguments.task_id])).toEqual(
      ids.map((id) => ["place", id]),
    );
  });

  it("a term-long window (112 days) rolls a week at a time and keeps a deadline weeks ahead", () => {
    const week = sampleWeek();
    const term: ScheduleState = {
      ...week,
      window: datedWindow({ firstDate: "2024-03-11", days: 112, timeZone: "Asia/Shanghai" }),
      tasks: week.tasks.map((task) => (task.id === "matrix-review" ? { ...task, dueBefore: { day: 60 } } : task)),
    };
    expect(checkScheduleInvariants(term)).toEqual([]);
    const placed = write("place", term, { task_id: "matrix-review", day: 50, slot_start: 9 });
    const rolled = write("roll_window", placed, { days: 7 });
    expect(rolled.window.totalDays).toBe(112);
    expect(rolled.window.days.at(-1)).toMatchObject({ date: "2024-07-07", week: 17 });
    expect(item(rolled, "matrix-review")).toMatchObject({
      status: "placed",
      slots: [{ day: 43, start: 9, end: 10 }],
      dueBefore: { day: 53 },
    });
  });
});
