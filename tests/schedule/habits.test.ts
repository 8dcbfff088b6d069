/**
 * Habits and a long task's sessions (issue 47 item 5): `add_habit` makes a recurring task's occurrences for each week
 * of the window, tied to the habit; a roll makes the next week's and keeps the old ones on record; `add_task` with
 * `sessions` splits a long task within its class's session bounds. No two items of one group go on one day — a hard
 * rule every write, batch and the placement search keep — and all before the task's deadline. Bad input is refused
 * with the week unchanged.
 */
import { describe, expect, test } from "vitest";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { searchPlacements } from "../../tools/schedule/placement-search.js";
import {
  applyScheduleChanges,
  canonicalScheduleState,
  consecutiveDays,
  diffScheduleState,
  rollWindowTool,
  sampleWeek,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { runTool, write } from "./support.js";

const items = (state: ScheduleState) => state.tasks.filter((task): task is TaskItem => task.source === "task_item");
const ofGroup = (state: ScheduleState, id: string) => items(state).filter((task) => task.group?.id === id);

/** An empty dated week (Mon 2 Mar 2026 on), 12 slots a day. */
function emptyWeek(): ScheduleState {
  const week = sampleWeek();
  return { ...week, tasks: [] };
}

/** The arrangement's writes applied: each place of its first candidate. */
function arranged(state: ScheduleState, ids: string[]): ScheduleState {
  const listing = proposeArrangement(state, { taskIds: ids });
  let next = state;
  for (const place of listing.candidates[0]?.places ?? [])
    next = write("place", next, { task_id: place.id, day: place.day, slot_start: place.start });
  return next;
}

describe("habits", () => {
  test("add_habit makes the week's occurrences, tied to the habit, in a class that prefers its part of the day; arranged, no two share a day", () => {
    const week = emptyWeek();
    const added = runTool("add_habit", week, { name: "Vocabulary", times_per_week: 3, duration: 1, part: "morning" });
    expect(added.ok).toBe(true);
    const state = added.state!;
    expect(state.categories.at(-1)).toEqual({ id: "vocabulary", name: "Vocabulary", preferredParts: ["morning"] });
    const occurrences = ofGroup(state, "vocabulary");
    const weekNumber = week.window.days[0]!.week;
    expect(occurrences.map((task) => task.id)).toEqual([1, 2, 3].map((n) => `vocabulary-w${weekNumber}-${n}`));
    for (const task of occurrences) {
      expect(task).toMatchObject({ status: "pending", duration: 1, categoryId: "vocabulary" });
      expect(task.group).toEqual({ id: "vocabulary", kind: "habit", perWeek: 3, week: weekNumber });
      expect(task.dueBefore).toEqual({ day: 8 });
    }
    const placed = arranged(
      state,
      occurrences.map((task) => task.id),
    );
    const days = ofGroup(placed, "vocabulary").map((task) => task.slots?.[0]?.day);
    expect(days.every((day) => day !== undefined)).toBe(true);
    expect(new Set(days).size).toBe(3);
  });

  test("bad input is refused with the week unchanged: 0 or 8 times a week, a session longer than a day", () => {
    const week = emptyWeek();
    for (const [args, why] of [
      [{ times_per_week: 0, duration: 1 }, /1 to 7 times a week.*not 0/],
      [{ times_per_week: 8, duration: 1 }, /1 to 7 times a week.*not 8/],
      [{ times_per_week: 3, duration: 13 }, /longer than a day \(12 slots\)/],
    ] as const) {
      const refused = runTool("add_habit", week, { name: "Vocabulary", ...args });
      expect(refused.ok).toBe(false);
      expect(refused.content).toMatch(why);
      expect(refused.state).toBeUndefined();
    }
  });

  test("a roll makes the new week's occurrences; the old week's stay on record: done as history, unplaced ones missed", () => {
    let state = write("add_habit", emptyWeek(), { name: "Vocabulary", times_per_week: 3, duration: 1 });
    const first = state.window.days[0]!.week;
    // One done, one placed and never marked, one never placed.
    state = write("place", state, { task_id: `vocabulary-w${first}-1`, day: 1, slot_start: 1 });
    state = write("place", state, { task_id: `vocabulary-w${first}-2`, day: 3, slot_start: 1 });
    state = write("mark_done", state, { task_id: `vocabulary-w${first}-1` });
    const rolled = runTool("roll_window", state, { days: 7 });
    expect(rolled.ok).toBe(true);
    const next = rolled.state!;
    const byId = new Map(ofGroup(next, "vocabulary").map((task) => [task.id, task]));
    expect(byId.get(`vocabulary-w${first}-1`)).toMatchObject({ status: "done", was: { week: first, start: 1 } });
    expect(byId.get(`vocabulary-w${first}-2`)).toMatchObject({ status: "missed", was: { week: first, start: 1 } });
    expect(byId.get(`vocabulary-w${first}-3`)).toMatchObject({ status: "missed" });
    const fresh = [1, 2, 3].map((n) => byId.get(`vocabulary-w${first + 1}-${n}`));
    for (const task of fresh)
      expect(task).toMatchObject({ status: "pending", group: { id: "vocabulary", kind: "habit", week: first + 1 } });
    expect(rolled.data).toMatchObject({
      missed: expect.arrayContaining([`vocabulary-w${first}-2`, `vocabulary-w${first}-3`]),
      added: [1, 2, 3].map((n) => `vocabulary-w${first + 1}-${n}`),
    });
    expect(rolled.content).toMatch(/3 habit session\(s\) added for the new days/);
    // Roll again: the habit carries on, and nothing of the first week is lost.
    const again = rollWindowTool.run(next, { days: 7 }).state!;
    expect(ofGroup(again, "vocabulary")).toHaveLength(9);
    expect(ofGroup(again, "vocabulary").filter((task) => task.group?.week === first + 2)).toHaveLength(3);
  });

  test("a week the window's end cuts short keeps its sessions and its days, however the days are rolled", () => {
    // Mon 11 Mar 2024 on: a roll by one day brings in Monday 18 March, one day of the next week.
    const state = write("add_habit", emptyWeek(), { name: "Vocabulary", times_per_week: 2, duration: 1 });
    const next = state.window.days[0]!.week + 1;
    const byOne = rollWindowTool.run(state, { days: 1 }).state!;
    // Its two sessions, not one (the week has six days to come), each due at the window's end.
    const cut = ofGroup(byOne, "vocabulary").filter((task) => task.group?.week === next);
    expect(cut.map((task) => [task.name, task.dueBefore, task.earliestDay])).toEqual([
      ["Vocabulary (1 of 2)", { day: 8 }, 7],
      ["Vocabulary (2 of 2)", { day: 8 }, 7],
    ]);
    // A second day's roll keeps them to the whole of their week (due at the window's end still, not a day earlier):
    // the same week as one roll by two days.
    const byOneTwice = rollWindowTool.run(byOne, { days: 1 }).state!;
    expect(byOneTwice).toEqual(rollWindowTool.run(state, { days: 2 }).state);
    expect(ofGroup(byOneTwice, "vocabulary").filter((task) => task.group?.week === next)).toMatchObject([
      { dueBefore: { day: 8 }, earliestDay: 6 },
      { dueBefore: { day: 8 }, earliestDay: 6 },
    ]);
    // A week's roll from there leaves six days of that week (Tue 19 – Sun 24 March): its sessions are not missed.
    const aWeekOn = rollWindowTool.run(byOne, { days: 7 }).state!;
    expect(aWeekOn.window.days[0]!.date).toBe("2024-03-19");
    expect(ofGroup(aWeekOn, "vocabulary").filter((task) => task.group?.week === next)).toMatchObject([
      { status: "pending", dueBefore: { day: 7 } },
      { status: "pending", dueBefore: { day: 7 } },
    ]);
  });

  test("a clock three weeks past the window: one roll to the week of now, the habit carried on, persisted as one roll", () => {
    const state = write("add_habit", emptyWeek(), { name: "Vocabulary", times_per_week: 3, duration: 1 });
    const first = state.window.days[0]!.week;
    // Wednesday of the third week after the window's (sample week: Mon 11 Mar 2024, Shanghai).
    const away = { ...state, now: "2024-04-03T09:00:00+08:00" };
    // A day not over is still refused; the 21 days that are, taken at once (more than the window's 7).
    expect(runTool("roll_window", away, { days: 28 }).content).toMatch(/^error: a window of 7 days moves on by 1 to 7/);
    const rolled = runTool("roll_window", away, { days: 21 });
    expect(rolled.ok, rolled.content).toBe(true);
    const after = rolled.state!;
    expect(after.window.days[0]!.date).toBe("2024-04-01");
    const weeks = ofGroup(after, "vocabulary").map((task) => [task.group!.week, task.status]);
    // The first week's three missed; none for the two weeks the clock passed whole; the week of now's, from today.
    expect(weeks.filter(([week]) => week === first)).toEqual(Array(3).fill([first, "missed"]));
    expect(weeks.filter(([week]) => week !== first && week !== first + 3)).toEqual([]);
    expect(weeks.filter(([week]) => week === first + 3)).toEqual(Array(3).fill([first + 3, "pending"]));
    // Persisted as one roll change, replayed to the same schedule.
    const changes = diffScheduleState(away, after);
    expect(changes).toMatchObject([{ kind: "roll", days: 21 }]);
    expect(JSON.stringify(applyScheduleChanges(away, changes))).toBe(JSON.stringify(canonicalScheduleState(after)));
  });

  test("a habit whose shown week's occurrences were all removed has ended: the roll makes none", () => {
    let state = write("add_habit", emptyWeek(), { name: "Vocabulary", times_per_week: 2, duration: 1 });
    for (const task of ofGroup(state, "vocabulary")) state = write("remove_task", state, { task_id: task.id });
    const rolled = rollWindowTool.run(state, { days: 7 }).state!;
    expect(ofGroup(rolled, "vocabulary")).toEqual([]);
  });
});

describe("a habit on a half-over week: only what still fits, never in the past", () => {
  /** The empty week at `time` (Shanghai, UTC+8) on its day `day`. */
  const weekAt = (day: number, time: string): ScheduleState => {
    const week = emptyWeek();
    const date = week.window.days[day - 1]!.date!;
    return { ...week, now: new Date(`${date}T${time}:00+08:00`).toISOString() };
  };

  test("on Wednesday at 15:00, six a week makes the five that fit from Wednesday on, and says so; arranged, none before now", () => {
    const wednesday = weekAt(3, "15:00");
    const added = runTool("add_habit", wednesday, { name: "Vocabulary", times_per_week: 6, duration: 1 });
    expect(added.ok).toBe(true);
    const occurrences = ofGroup(added.state!, "vocabulary");
    expect(occurrences).toHaveLength(5);
    for (const task of occurrences) expect(task).toMatchObject({ earliestDay: 3, dueBefore: { day: 8 } });
    expect(added.content).toMatch(/only 5 fit in what is left of week \d+ \(none before now\)/);
    const placed = arranged(
      added.state!,
      occurrences.map((task) => task.id),
    );
    const slots = ofGroup(placed, "vocabulary").map((task) => task.slots?.[0]);
    expect(slots.every((slot) => slot !== undefined)).toBe(true);
    // 15:00 on Wednesday: its slots from 16:00 (slot 7) on are still ahead.
    for (const slot of slots) expect(slot!.day > 3 || (slot!.day === 3 && slot!.start >= 7)).toBe(true);
    expect(new Set(slots.map((slot) => slot!.day)).size).toBe(5);
  });

  test("a session longer than what is left of today starts tomorrow; three a week still fit whole", () => {
    const long = runTool("add_habit", weekAt(3, "15:00"), { name: "Run", times_per_week: 6, duration: 7 });
    expect(ofGroup(long.state!, "run").map((task) => task.earliestDay)).toEqual([4, 4, 4, 4]);
    const three = runTool("add_habit", weekAt(3, "15:00"), { name: "Run", times_per_week: 3, duration: 1 });
    expect(ofGroup(three.state!, "run")).toHaveLength(3);
    expect(three.content).not.toMatch(/only/);
  });

  test("with the week over, the habit is refused with the week unchanged", () => {
    const refused = runTool("add_habit", weekAt(7, "23:00"), { name: "Run", times_per_week: 3, duration: 1 });
    expect(refused.ok).toBe(false);
    expect(refused.content).toMatch(/no day left for a session of 1 slot\(s\)/);
  });

  test("a roll by the clock on the new week's Thursday makes that week's sessions from Thursday on", () => {
    const added = write("add_habit", emptyWeek(), { name: "Vocabulary", times_per_week: 6, duration: 1 });
    const first = added.window.days[0]!.week;
    const thursday = new Date(new Date(`${added.window.days[3]!.date!}T10:00:00+08:00`).getTime() + 7 * 86_400_000);
    const rolled = runTool("roll_window", { ...added, now: thursday.toISOString() }, { days: 7 });
    expect(rolled.ok).toBe(true);
    const fresh = ofGroup(rolled.state!, "vocabulary").filter((task) => task.group?.week === first + 1);
    expect(fresh).toHaveLength(4);
    for (const task of fresh) expect(task).toMatchObject({ status: "pending", earliestDay: 4 });
    const placed = arranged(
      rolled.state!,
      fresh.map((task) => task.id),
    );
    const days = ofGroup(placed, "vocabulary")
      .filter((task) => task.group?.week === first + 1)
      .map((task) => task.slots?.[0]?.day ?? 0);
    expect(days.every((day) => day >= 4)).toBe(true);
    expect(new Set(days).size).toBe(4);
  });
});

describe("a long task in sessions", () => {
  /** The empty week with an Essay class of 1-2 slot sessions. */
  const essayWeek = () => write("upsert_task_class", emptyWeek(), { name: "Essay", min_session: 1, max_session: 2 });

  test("add_task with sessions splits the length within the class's bounds, as even as can be, all with the deadline", () => {
    const added = runTool("add_task", essayWeek(), {
      name: "Write the essay",
      class_id: "essay",
      duration: 5,
      sessions: true,
      due_before_day: 5,
    });
    expect(added.ok).toBe(true);
    const sessions = ofGroup(added.state!, "write-the-essay");
    expect(sessions.map((task) => [task.id, task.duration])).toEqual([
      ["write-the-essay-s1", 2],
      ["write-the-essay-s2", 2],
      ["write-the-essay-s3", 1],
    ]);
    for (const task of sessions)
      expect(task).toMatchObject({ dueBefore: { day: 5 }, group: { id: "write-the-essay", kind: "sessions" } });
    expect(added.content).toMatch(/as 3 sessions .* no two on one day/);
  });

  test("sessions that cannot fit are refused: more sessions than days before the deadline, lengths outside the bounds", () => {
    const week = write("upsert_task_class", essayWeek(), { class_id: "essay", name: "Essay", min_session: 2 });
    const tooMany = runTool("add_task", week, {
      name: "Write the essay",
      class_id: "essay",
      duration: 8,
      sessions: true,
      due_before_day: 3,
    });
    expect(tooMany.ok).toBe(false);
    expect(tooMany.content).toMatch(/4 sessions, no two on one day, need 4 days, but only 2 lie before its deadline/);
    const odd = runTool(
      "add_task",
      write("upsert_task_class", week, { class_id: "essay", name: "Essay", max_session: 3 }),
      {
        name: "Odd",
        class_id: "essay",
        duration: 1,
        sessions: true,
      },
    );
    expect(odd.ok).toBe(false);
    expect(odd.content).toMatch(/cannot be split into sessions of 2-3 slot\(s\)/);
  });

  test("by the run's clock, a deadline with no day left before it is refused", () => {
    // Before, "write the essay, 4 hours, before Friday" said on Friday was added, every session pending and at risk.
    const at = (now: string) => ({ ...essayWeek(), now });
    const essay = { name: "Write the essay", class_id: "essay", duration: 5, sessions: true, due_before_day: 5 };
    const friday = runTool("add_task", at("2024-03-15T01:00:00.000Z"), essay);
    expect(friday.ok).toBe(false);
    expect(friday.content).toMatch(/its deadline has passed: it must end before day 5 \(Fri 15 Mar 2024\)/);
    // Wednesday 09:00: Wednesday and Thursday are left; what does not fit of the 3 sessions is told at risk, later.
    expect(runTool("add_task", at("2024-03-13T01:00:00.000Z"), essay).ok).toBe(true);
    // Thursday at 23:30, Thursday's slots all started: Thursday is gone too.
    const lateThursday = runTool("add_task", at("2024-03-14T15:30:00.000Z"), { ...essay, duration: 1 });
    expect(lateThursday.content).toMatch(/its deadline has passed/);
    // Thursday evening, a slot of Thursday not yet started: Thursday is still left.
    expect(runTool("add_task", at("2024-03-14T12:00:00.000Z"), { ...essay, duration: 1 }).ok).toBe(true);
  });

  test("no two sessions on one day: a place, a move and a batch are refused naming the other; another day is fine", () => {
    let state = write("add_task", essayWeek(), { name: "Essay", class_id: "essay", duration: 4, sessions: true });
    state = write("place", state, { task_id: "essay-s1", day: 2, slot_start: 1 });
    const refused = runTool("place", state, { task_id: "essay-s2", day: 2, slot_start: 5 });
    expect(refused.ok).toBe(false);
    expect(refused.content).toMatch(/essay-s1, another session of task essay, is on that day already/);
    state = write("place", state, { task_id: "essay-s2", day: 3, slot_start: 5 });
    expect(runTool("move", state, { task_id: "essay-s2", day: 2, slot_start: 5 }).ok).toBe(false);
    // A batch that moves one away and the other onto its old day is judged where it leaves them.
    const swapped = runTool("batch_move", state, {
      moves: [
        { task_id: "essay-s1", day: 4, slot_start: 1 },
        { task_id: "essay-s2", day: 2, slot_start: 5 },
      ],
    });
    expect(swapped.ok).toBe(true);
    const together = runTool("batch_move", state, {
      moves: [
        { task_id: "essay-s1", day: 4, slot_start: 1 },
        { task_id: "essay-s2", day: 4, slot_start: 5 },
      ],
    });
    expect(together.ok).toBe(false);
    expect(together.content).toMatch(/another session of task essay/);
  });

  test("the placement search keeps a group's items on separate days: with room on one day only, it places one", () => {
    const runs = [{ day: 1, start: 1, end: 6 }];
    const grouped = searchPlacements(
      [
        { id: "s1", duration: 2, group: "essay" },
        { id: "s2", duration: 2, group: "essay" },
      ],
      runs,
    );
    expect(grouped.placements).toHaveLength(1);
    const free = searchPlacements(
      [
        { id: "s1", duration: 2 },
        { id: "s2", duration: 2 },
      ],
      runs,
    );
    expect(free.placements).toHaveLength(2);
  });

  test("arranged, the sessions go on separate days, all before the deadline", () => {
    const state = write("add_task", essayWeek(), {
      name: "Essay",
      class_id: "essay",
      duration: 6,
      sessions: true,
      due_before_day: 6,
    });
    const placed = arranged(state, ["essay-s1", "essay-s2", "essay-s3"]);
    const days = ofGroup(placed, "essay").map((task) => task.slots?.[0]?.day ?? 0);
    expect(days.every((day) => day >= 1 && day < 6)).toBe(true);
    expect(new Set(days).size).toBe(3);
  });
});

test("a bare window without dates works too", () => {
  const state: ScheduleState = {
    window: { totalDays: 7, slotsPerDay: 8, days: consecutiveDays(7) },
    categories: [],
    tasks: [],
  };
  const added = write("add_habit", state, { name: "Run", times_per_week: 7, duration: 2 });
  expect(ofGroup(added, "run")).toHaveLength(7);
});
