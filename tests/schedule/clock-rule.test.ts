/**
 * Issue 47, item 1: the clock is a hard rule. With the run's "now" on the state (`ScheduleState.now`, folded in by the
 * domain's `withClock`), nothing is placed, moved or swapped into a slot that has started, by any path — the write
 * tools refuse it with the reason in people's words, the arrangement and the candidates never propose it — and a
 * review placed in the past stays where it is. The sample week, now Wednesday 13 March 2024 14:30 in Asia/Shanghai:
 * Monday, Tuesday and Wednesday's slots 1-5 (08:00-14:00 starts) have started.
 */
import { describe, expect, test } from "vitest";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { proposeCandidates } from "../../tools/schedule/candidates.js";
import { analyzeHealth } from "../../tools/schedule/health.js";
import { sampleWeek } from "../../tools/schedule/sample-data.js";
import type { ScheduleState, SlotRange, TaskItem } from "../../tools/schedule/state.js";
import { scheduleTools } from "../../tools/schedule/tools/index.js";
import { clockIn, hasStarted } from "../../tools/schedule/window-clock.js";
import { weekGrid } from "../../tools/schedule/week-grid.js";
import { crowdedMondayWeek, halfPlacedWeek } from "../graph/support/offline-conversation.js";
import { readablePlaces } from "../../tools/schedule/readable.js";
import { clockedWeek } from "../support/rule-weeks.js";

/** Wednesday 13 March 2024, 14:30 in Asia/Shanghai. */
const WEDNESDAY_1430 = "2024-03-13T06:30:00.000Z";

const at = (week: ScheduleState, now = WEDNESDAY_1430): ScheduleState => ({ ...week, now });

function run(state: ScheduleState, name: string, args: Record<string, unknown>) {
  const tool = scheduleTools.find((entry) => entry.name === name)!;
  return tool.run(state, tool.schema.parse(args) as never);
}

/** Every placed review's place that starts in a slot the clock of `clockOf` has started (none expected). */
function placesInThePast(before: ScheduleState, after: ScheduleState): string[] {
  const clock = clockIn(before.window, new Date(before.now!));
  const was = new Map(before.tasks.map((task) => [task.id, task.slots?.[0]]));
  return after.tasks.flatMap((task) => {
    const range: SlotRange | undefined = task.source === "task_item" ? task.slots?.[0] : undefined;
    const old = was.get(task.id);
    const unchanged = old && range && old.day === range.day && old.start === range.start;
    return range && !unchanged && hasStarted(range.day, range.start, clock)
      ? [`${task.id} day ${range.day} slot ${range.start}`]
      : [];
  });
}

describe("the write tools refuse a place that has started, with the reason", () => {
  test("place on Tuesday, or on Wednesday 14:00, has passed; Wednesday 14:55 is open", () => {
    const week = at(halfPlacedWeek());
    const tuesday = run(week, "place", { task_id: "binary-tree-review", day: 2, slot_start: 11 });
    expect(tuesday).toMatchObject({ ok: false });
    expect(tuesday.content).toBe(
      "error: cannot place task binary-tree-review (duration 1): day 2 slot 11: Tue 12 Mar 20:50 has passed; only a slot not yet started can take a review",
    );
    expect(tuesday.state).toBeUndefined();
    const started = run(week, "place", { task_id: "binary-tree-review", day: 3, slot_start: 5 });
    expect(started.content).toContain("Wed 13 Mar 14:00 has passed");
    expect(run(week, "place", { task_id: "binary-tree-review", day: 3, slot_start: 7 }).ok).toBe(true);
  });

  test("move into the past is refused, and so is moving a review out of the past: the past is fixed", () => {
    const week = at(halfPlacedWeek());
    const back = run(week, "move", { task_id: "vocabulary-list", day: 1, slot_start: 12 });
    expect(back.content).toContain("Mon 11 Mar 21:45 has passed");
    expect(back.ok).toBe(false);
    const out = run(week, "move", { task_id: "matrix-review", day: 5, slot_start: 9 });
    expect(out.ok).toBe(false);
    expect(out.content).toContain(
      'task matrix-review "Matrix operations review" is on day 2 slot 3, and Tue 12 Mar 10:00 has passed: the past is fixed',
    );
  });

  test("unplacing a review whose place has started is refused as moving it is; one still ahead comes off", () => {
    const week = at(halfPlacedWeek());
    const past = run(week, "unplace", { task_id: "matrix-review" });
    expect(past.ok).toBe(false);
    expect(past.content).toBe(
      'error: task matrix-review "Matrix operations review" is on day 2 slot 3, and Tue 12 Mar 10:00 has passed: the past is fixed, so it is not taken off; mark it done or missed instead (mark_done, mark_missed)',
    );
    const ahead = week.tasks.find(
      (task) => task.source === "task_item" && task.status === "placed" && task.slots![0]!.day >= 5,
    );
    expect(ahead).toBeDefined();
    expect(run(week, "unplace", { task_id: ahead!.id }).ok).toBe(true);
  });

  test("a locked exam moved on the person's word keeps to the clock: not once it has begun", () => {
    const week = at(halfPlacedWeek());
    expect(week.tasks.find((task) => task.id === "sat-calculus-midterm")).toMatchObject({ locked: true });
    expect(run(week, "move", { task_id: "sat-calculus-midterm", day: 7, slot_start: 5 }).ok).toBe(true);
    // Saturday 10:30: the exam has begun, and the past is fixed (an event's place too, not only a review's).
    const begun = run(at(halfPlacedWeek(), "2024-03-16T02:30:00.000Z"), "move", {
      task_id: "sat-calculus-midterm",
      day: 7,
      slot_start: 5,
    });
    expect(begun.ok).toBe(false);
    expect(begun.content).toContain(
      'event sat-calculus-midterm "Calculus midterm exam" is on day 6 slot 3, and Sat 16 Mar 10:00 has passed: the past is fixed',
    );
  });

  test("swap and batch_move keep to the clock too", () => {
    const week = at(halfPlacedWeek());
    const swap = run(week, "swap", { first_task_id: "review-limits", second_task_id: "essay-draft" });
    expect(swap.ok).toBe(false);
    expect(swap.content).toContain("Mon 11 Mar 14:00 has passed: the past is fixed");
    const batch = run(week, "batch_move", {
      moves: [
        { task_id: "essay-draft", day: 7, slot_start: 9 },
        { task_id: "vocabulary-list", day: 3, slot_start: 3 },
      ],
    });
    expect(batch.ok).toBe(false);
    expect(batch.content).toContain("Wed 13 Mar 10:00 has passed");
  });

  test("without a clock (a bare tool call) or in a window without a time zone, nothing is past", () => {
    expect(run(halfPlacedWeek(), "move", { task_id: "matrix-review", day: 1, slot_start: 12 }).ok).toBe(false);
    expect(run(halfPlacedWeek(), "place", { task_id: "binary-tree-review", day: 2, slot_start: 11 }).ok).toBe(true);
    const { timeZone: _zone, ...undated } = halfPlacedWeek().window;
    const placed = run(at({ ...halfPlacedWeek(), window: undated }), "place", {
      task_id: "binary-tree-review",
      day: 2,
      slot_start: 11,
    });
    expect(placed.ok).toBe(true);
  });
});

describe("nothing the backend proposes lies in the past", () => {
  test("propose_arrangement on the sample week places all eight, none before Wednesday 14:55 (without the clock, some before)", () => {
    const week = at(sampleWeek());
    const listing = proposeArrangement(week);
    const card = listing.candidates[0]!;
    expect(card.places).toHaveLength(8);
    const after = applyWrites(week, card.writes)!;
    expect(placesInThePast(week, after)).toEqual([]);
    // The bug it fixes: the same week without the clock puts some of them into what has passed.
    const blind = proposeArrangement(sampleWeek()).candidates[0]!;
    expect(placesInThePast(week, applyWrites(sampleWeek(), blind.writes)!).length).toBeGreaterThan(0);
  });

  test("propose_candidates neither moves a review in the past nor moves one into it", () => {
    const week = at(halfPlacedWeek());
    const listing = proposeCandidates(week, { k: 5 });
    expect(listing.candidates.length).toBeGreaterThan(0);
    for (const candidate of listing.candidates) {
      const after = applyWrites(week, candidate.writes)!;
      expect(placesInThePast(week, after)).toEqual([]);
      for (const id of ["review-limits", "matrix-review"])
        expect(after.tasks.find((task) => task.id === id)!.slots).toEqual(
          week.tasks.find((task) => task.id === id)!.slots,
        );
    }
  });

  test("the week picture shades exactly the slots the rules hold as started", () => {
    const week = at(halfPlacedWeek());
    const grid = weekGrid(week, { now: new Date(WEDNESDAY_1430) });
    const past = grid.days.flatMap((day) =>
      day.cells.flatMap((cell, slot) => (cell.past ? [[day.dayIndex, slot + 1]] : [])),
    );
    expect(past).toHaveLength(12 + 12 + 5);
    expect(grid.now).toEqual({ dayIndex: 3, slot: 6, time: "14:30" });
  });
});

describe("the health judge scores what can still change", () => {
  test("a pending review whose deadline has passed is reported as such, not as room proved missing", () => {
    // Saturday 12:00: the calculus midterm (Saturday 10:00) has begun; the calculus reviews were due before it.
    const week = at(sampleWeek(), "2024-03-16T04:00:00.000Z");
    const report = analyzeHealth(week);
    const overdue = report.issues.find((issue) => issue.message.includes("deadline passed"));
    expect(overdue).toMatchObject({ kind: "cannot_fit", forced: true, tasks: ["review-limits", "derivative-drills"] });
    const listing = proposeArrangement(week);
    expect(listing.left).toEqual(
      expect.arrayContaining([
        { id: "review-limits", why: "its deadline has passed" },
        { id: "derivative-drills", why: "its deadline has passed" },
      ]),
    );
    expect(listing.candidates[0]!.summary).toContain("2 cannot fit (deadline passed)");
    expect(listing.candidates[0]!.summary).not.toContain("(proved)");
  });

  test("a crowded Monday in the past scores as the future alone: it neither costs points nor counts as load", () => {
    const crowded = crowdedMondayWeek();
    const monday = crowded.tasks.filter((task) => task.source === "task_item" && task.slots?.[0]?.day === 1);
    expect(monday).toHaveLength(5);
    // The same week without Monday's reviews: taken off their places (out of the study hall too), then out of it.
    let alone = crowded;
    for (const task of monday) alone = run(alone, "unplace", { task_id: task.id }).state!;
    alone = { ...alone, tasks: alone.tasks.filter((task) => !monday.some((gone) => gone.id === task.id)) };
    // Without a clock Monday is judged: heavy, back to back, uneven.
    const unclocked = analyzeHealth(crowded);
    expect(unclocked.score).toBeLessThan(analyzeHealth(alone).score);
    expect(unclocked.issues.map((issue) => issue.kind)).toEqual(expect.arrayContaining(["heavy_day", "back_to_back"]));
    // On Wednesday 14:30 Monday is the past: the week scores as its future, and no issue names a day gone by.
    const [past, future] = [analyzeHealth(at(crowded)), analyzeHealth(at(alone))];
    expect(future.score).toBeLessThan(100);
    expect(past.score).toBe(future.score);
    expect(past.issues).toEqual(future.issues);
    expect(past.rhythm).toEqual(future.rhythm);
    expect(past.tightness).toEqual(future.tightness);
    expect(past.issues.flatMap((issue) => issue.days).every((day) => day >= 3)).toBe(true);
    // The spread is over the days not yet over (Wednesday to Sunday): five days, two of them with reviews.
    expect(past.rhythm.dailyLoad).toEqual([0, 0, 0, 2, 2, 0, 2]);
  });

  test("the judge's messages name days by date beside their index, as the tools' text does", () => {
    const report = analyzeHealth(at(crowdedMondayWeek(), "2024-03-10T12:00:00.000Z"));
    const messages = report.issues.map((issue) => issue.message).join("\n");
    expect(messages).toMatch(/day 1 \(Mon 11 Mar 2024\) holds 6 review slots/);
    expect(messages).not.toMatch(/\bday \d+(?! \((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d+ \w+ \d{4}\))/);
    expect(readablePlaces(messages, "en")).not.toMatch(/\bday \d/);
  });

  test("feasibility counts only the room still ahead: a week whose every slot has passed fits nothing", () => {
    const week = at(sampleWeek(), "2024-03-18T04:00:00.000Z");
    const report = analyzeHealth(week);
    const pending = week.tasks.filter((task): task is TaskItem => task.source === "task_item").length;
    expect(report.feasibility).toMatchObject({ pending, placeable: 0, cannotFit: pending });
    expect(proposeArrangement(week).candidates).toEqual([]);
  });
});

describe("property: for random windows and clocks, no path writes into the past", () => {
  test("arrangement, candidates and random writes on 40 clocked rule weeks", () => {
    const found: string[] = [];
    for (let seed = 1; seed <= 40; seed += 1) {
      const week = clockedWeek(seed);
      const proposals = [...proposeArrangement(week).candidates, ...proposeCandidates(week, { k: 3 }).candidates];
      for (const candidate of proposals) {
        const after = applyWrites(week, candidate.writes);
        if (after) found.push(...placesInThePast(week, after).map((place) => `week ${seed} ${candidate.id}: ${place}`));
      }
      // Every place and move a write tool accepts, tried on each slot of the week.
      for (const task of week.tasks) {
        if (task.source !== "task_item") continue;
        const name = task.status === "pending" ? "place" : "move";
        for (let day = 1; day <= week.window.totalDays; day += 1)
          for (let slot = 1; slot + task.duration - 1 <= week.window.slotsPerDay; slot += 1) {
            const ran = run(week, name, { task_id: task.id, day, slot_start: slot });
            if (ran.ok && ran.state)
              found.push(...placesInThePast(week, ran.state).map((place) => `week ${seed} ${name}: ${place}`));
          }
      }
    }
    expect(found).toEqual([]);
  });
});
