/**
 * The hard rules of task classes and task items (issue 30): no placement on a day its class excludes or blocks,
 * none before a task's earliest day or after its deadline (a day, or an event such as an exam), and a class's
 * buffer held — ever: whatever the writes, the arrangement and the candidates do, starting from a week that keeps
 * them. A write that would break one is refused with the rule named, and changes nothing.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import { applyWrites } from "../../tools/schedule/candidate-writes.js";
import { MAX_CANDIDATES } from "../../tools/schedule/candidate-listing.js";
import { proposeCandidates } from "../../tools/schedule/candidates.js";
import { batchMoveTool } from "../../tools/schedule/tools/batch-move.js";
import { isBufferRefusal } from "../../tools/schedule/rules.js";
import {
  findFreeTool,
  placeTool,
  moveTool,
  sampleWeek,
  type FindFreeData,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { commandArbitrary, resolveCommand, ruledWeekArbitrary } from "./arbitraries.js";
import { runTool } from "./support.js";
import { oracle } from "../support/schedule-oracle.js";
import { ruleWeek } from "../support/rule-weeks.js";

/** A generated week with rules drawn for its classes and tasks, every task item pending (a sound start). */
const ruledWeek = ruledWeekArbitrary({ days: [2, 7], slotsPerDay: [4, 10], taskCount: [3, 14] });

/** The rules each placed task item breaks, checked here on their own (sharing no code with rules.ts). */
function broken(state: ScheduleState): string[] {
  const problems: string[] = [];
  const categories = new Map(state.categories.map((category) => [category.id, category]));
  const weekday = (day: number) => state.window.days[day - 1]!.dayOfWeek;
  for (const task of state.tasks) {
    const range = task.slots?.[0];
    if (task.source !== "task_item" || !range) continue;
    const category = categories.get(task.categoryId);
    if (category?.excludedDaysOfWeek?.includes(weekday(range.day))) problems.push(`${task.id} on an excluded weekday`);
    if (category?.blockedDays?.includes(range.day)) problems.push(`${task.id} on a blocked day`);
    if (task.earliestDay !== undefined && range.day < task.earliestDay)
      problems.push(`${task.id} before its earliest day`);
    const due = task.dueBefore;
    if (due && "day" in due && range.day >= due.day) problems.push(`${task.id} after its deadline`);
    if (due && "eventId" in due) {
      const first = [...(state.tasks.find((other) => other.id === due.eventId)?.slots ?? [])].sort(
        (a, b) => a.day - b.day || a.start - b.start,
      )[0];
      if (first && (range.day > first.day || (range.day === first.day && range.end >= first.start)))
        problems.push(`${task.id} after its exam`);
    }
    const buffer = category?.bufferSlots ?? 0;
    for (const other of state.tasks) {
      if (other.id === task.id || other.id === task.embeddedIn) continue;
      for (const near of other.slots ?? []) {
        if (near.day === range.day && near.start <= range.end + buffer && near.end >= range.start - buffer)
          problems.push(`${task.id} within ${buffer} slot(s) of ${other.id}`);
      }
    }
  }
  return problems;
}

describe("the hard rules of classes and tasks", () => {
  test("never broken: random writes, the arrangement and the candidates' changes all keep them", () => {
    fc.assert(
      fc.property(ruledWeek, fc.array(commandArbitrary, { minLength: 5, maxLength: 25 }), (initial, commands) => {
        // Sound events: an event scheduled before a rule is no placement of a task item.
        expect(broken(initial)).toEqual([]);
        let week = initial;
        const arrangement = proposeArrangement(week).candidates[0];
        if (arrangement) week = applyWrites(week, arrangement.writes)!;
        expect(arrangement === undefined || week !== undefined).toBe(true);
        expect(broken(week)).toEqual([]);
        for (const candidate of proposeCandidates(week, { k: 5 }).candidates)
          expect(broken(applyWrites(week, candidate.writes)!)).toEqual([]);
        for (const command of commands) {
          const { name, args } = resolveCommand(week, command);
          const result = runTool(name, week, args);
          if (result.state === undefined) continue;
          week = result.state;
          expect(broken(week)).toEqual([]);
        }
      }),
      { numRuns: 120 },
    );
  });

  test("a write that would break a rule is refused with the rule named, and the week is unchanged", () => {
    const week = sampleWeek();
    const calculus = week.tasks.find(
      (task): task is TaskItem =>
        task.source === "task_item" && task.status === "pending" && /derivative/.test(task.id),
    )!;
    const ruled: ScheduleState = {
      ...week,
      categories: week.categories.map((category) =>
        category.id === calculus.categoryId ? { ...category, excludedDaysOfWeek: [7], bufferSlots: 1 } : category,
      ),
      tasks: week.tasks.map((task) =>
        task.id === calculus.id ? { ...calculus, dueBefore: { eventId: "sat-calculus-midterm" } } : task,
      ),
    };
    const className = ruled.categories.find((category) => category.id === calculus.categoryId)!.name;
    const sunday = placeTool.run(ruled, { task_id: calculus.id, day: 7, slot_start: 1 });
    expect(sunday).toMatchObject({ ok: false });
    expect(sunday.content).toContain(`its class ${JSON.stringify(className)} excludes Sun`);
    const afterExam = placeTool.run(ruled, { task_id: calculus.id, day: 6, slot_start: 9 });
    // The exam's start by date and clock time beside its day and slot, and the refused place likewise.
    expect(afterExam.content).toMatch(
      /must be done before event sat-calculus-midterm "Calculus midterm exam" \(day 6 slot 3 \(Sat 16 Mar 2024, 10:00\)\); day 6 slots \d+-\d+ \(Sat 16 Mar 2024, \d\d:\d\d–\d\d:\d\d\) is too late/,
    );
    // Right after something busy (a free run's first slot, outside any host, before the exam): the buffer of one free
    // slot is not kept.
    const run = (findFreeTool.run(ruled, { min_length: 1, limit: 100 }).data as FindFreeData).runs.find(
      (free) => free.day < 6 && free.start > 1 && free.hostId === undefined,
    )!;
    const tight = placeTool.run(ruled, { task_id: calculus.id, day: run.day, slot_start: run.start });
    expect(tight.content).toMatch(/keeps 1 free slot\(s\) around it/);
    expect(tight.state).toBeUndefined();
    // Before the exam and away from others, it goes.
    const proposal = proposeArrangement(ruled, { taskIds: [calculus.id] }).candidates[0]!;
    const placed = applyWrites(ruled, proposal.writes)!;
    expect(broken(placed)).toEqual([]);
    expect((placed.tasks.find((task) => task.id === calculus.id)!.slots ?? [])[0]!.day).toBeLessThan(6);
    // A move onto an excluded day is refused too.
    expect(moveTool.run(placed, { task_id: calculus.id, day: 7, slot_start: 3 }).ok).toBe(false);
  });
});

describe("a batch refused by a class's buffer", () => {
  // The refusal says which review's buffer broke, its class, how many free slots it keeps and the task too near it as
  // data, so that a step moving several reviews at once keeps them that far apart next time (the offline shift-all).
  test("carries the buffer, the review and its neighbour as data; the week is unchanged", () => {
    const base = sampleWeek();
    const arranged = applyWrites(base, proposeArrangement(base).candidates[0]!.writes)!;
    const week: ScheduleState = {
      ...arranged,
      categories: arranged.categories.map((category) =>
        category.id === "english" ? { ...category, bufferSlots: 1 } : category,
      ),
    };
    const [first, second] = week.tasks.filter(
      (task): task is TaskItem => task.source === "task_item" && task.categoryId === "english" && !!task.slots,
    );
    const length = (task: TaskItem) => task.slots![0]!.end - task.slots![0]!.start + 1;
    // A free run (with their own places, which they leave) long enough for both, one right after the other, a free slot
    // each side (so that the only neighbour too near is the other review); the first such run no break of the day cuts.
    const leaving = new Set([first!.id, second!.id]);
    const freed: ScheduleState = { ...week, tasks: week.tasks.filter((task) => !leaving.has(task.id)) };
    const runs = (
      findFreeTool.run(freed, { min_length: length(first!) + length(second!) + 2, limit: 100 }).data as FindFreeData
    ).runs.filter((free) => free.hostId === undefined);
    const result = runs
      .map((run) =>
        batchMoveTool.run(week, {
          moves: [
            { task_id: first!.id, day: run.day, slot_start: run.start + 1 },
            { task_id: second!.id, day: run.day, slot_start: run.start + 1 + length(first!) },
          ],
        }),
      )
      .find((each) => !/break/.test(each.content))!;
    expect(result.ok).toBe(false);
    expect(result.state).toBeUndefined();
    expect(result.content).toMatch(/keeps 1 free slot\(s\) around it/);
    expect(isBufferRefusal(result.data)).toBe(true);
    expect(result.data).toMatchObject({ refused: "buffer", buffer: 1, task: { categoryId: "english" } });
    const named = [
      (result.data as { task: { id: string } }).task.id,
      (result.data as { neighbour: { id: string } }).neighbour.id,
    ];
    expect(named.sort()).toEqual([first!.id, second!.id].sort());
  });
});

describe("the soft rules of classes", () => {
  test("a class's strategy is judged — compact wants its sessions together, steady spread — and the candidates follow it", async () => {
    const { analyzeHealth } = await import("../../tools/schedule/health.js");
    const base = sampleWeek();
    const arranged = applyWrites(base, proposeArrangement(base).candidates[0]!.writes)!;
    const english = (week: ScheduleState) =>
      week.tasks
        .filter((task) => task.source === "task_item" && task.categoryId === "english")
        .map((task) => task.slots![0]!.day);
    expect(new Set(english(arranged)).size).toBe(2);
    const compact = {
      ...arranged,
      categories: arranged.categories.map((category) =>
        category.id === "english" ? { ...category, strategy: "compact" as const } : category,
      ),
    };
    const issue = analyzeHealth(compact).issues.find((entry) => entry.kind === "off_strategy");
    expect(issue?.penalty).toBe(2);
    expect([...issue!.tasks].sort()).toEqual(["essay-draft", "vocabulary-list"]);
    expect(issue!.message).toMatch(/English is spread over 2 days; its strategy is compact/);
    // Refining with the candidates brings the English sessions onto one day.
    let week: ScheduleState = compact;
    for (let round = 0; round < 10; round += 1) {
      const top = proposeCandidates(week, { k: 1, placePending: false }).candidates[0];
      if (!top) break;
      week = applyWrites(week, top.writes)!;
    }
    expect(new Set(english(week)).size).toBe(1);
    expect(analyzeHealth(week).issues.some((entry) => entry.kind === "off_strategy")).toBe(false);
    // Steady: two sessions on one day are off.
    const steady = {
      ...week,
      categories: week.categories.map((category) =>
        category.id === "english" ? { ...category, strategy: "steady" as const } : category,
      ),
    };
    expect(analyzeHealth(steady).issues.find((entry) => entry.kind === "off_strategy")?.message).toMatch(
      /1 English session\(s\) share a day with another; its strategy is steady/,
    );
  });
});

/**
 * What of `after` breaks a hard rule, by the brute-force oracle (tests/support/schedule-oracle.ts, written from the
 * documented rules): each placed review must be a place the oracle allows it with every other task where it is; a
 * locked event must not have moved from where it is in `before`.
 */
function offTheOracle(before: ScheduleState, after: ScheduleState): string[] {
  const problems: string[] = [];
  for (const task of after.tasks) {
    const range = task.slots?.[0];
    if (task.source === "event" && task.locked) {
      const was = before.tasks.find((entry) => entry.id === task.id)?.slots;
      if (JSON.stringify(was) !== JSON.stringify(task.slots)) problems.push(`locked ${task.id} moved`);
    }
    if (task.source !== "task_item" || !range) continue;
    // The week without it (every other review pending stays pending): may it go where it is?
    const { slots: _slots, embeddedIn: _host, ...rest } = task;
    const without: ScheduleState = {
      ...after,
      tasks: after.tasks
        .map((entry) => (entry.id === task.id ? ({ ...rest, status: "pending" } as TaskItem) : entry))
        .filter((entry) => entry.id === task.id || entry.source !== "task_item" || entry.status !== "pending"),
    };
    if (!oracle(without).alone.get(task.id)?.includes(`${range.day}:${range.start}`))
      problems.push(`${task.id} on day ${range.day} from slot ${range.start}`);
  }
  return problems;
}

describe("propose_candidates after an exact arrangement (issue 46 item 4)", () => {
  test("never offers a change that breaks a hard rule: every candidate of generated rule-bearing weeks, applied through the real tools, kept by the oracle", () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        let week = ruleWeek(seed);
        const arrangement = proposeArrangement(week).candidates[0];
        if (arrangement) week = applyWrites(week, arrangement.writes)!;
        expect(offTheOracle(week, week)).toEqual([]);
        // The listing after the arrangement, and again after its top change (the refinement's second round).
        for (let round = 0; round < 2; round += 1) {
          const { candidates } = proposeCandidates(week, { k: MAX_CANDIDATES });
          for (const candidate of candidates) {
            const after = applyWrites(week, candidate.writes);
            // The real tools refuse a change that breaks a rule: a candidate they refuse is one that would.
            expect(after, `${seed}: ${candidate.summary}`).toBeDefined();
            expect(offTheOracle(week, after!), `${seed}: ${candidate.summary}`).toEqual([]);
            checked += 1;
          }
          if (candidates.length === 0) break;
          week = applyWrites(week, candidates[0]!.writes)!;
        }
      }),
      // A fixed seed: with a random one, 14 of 80 weeks once had something left to offer, under the bound below.
      { numRuns: 80, seed: 46 },
    );
    // Many arranged weeks have nothing left to offer (the arrangement polished them); enough others do.
    expect(checked).toBeGreaterThan(15);
  });
});
