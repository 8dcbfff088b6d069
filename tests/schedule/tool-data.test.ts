/**
 * Each schedule tool's data (`ToolRun.data`) says what its text says: read back from the text alone
 * (`parseToolData`), the text gives exactly the data — for hand-made cases of every tool, and for random
 * schedules and random call sequences. A failure gives no data; data survives JSON (checkpoints hold it) and stays
 * about as small as the text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  generateSchedule,
  sampleWeek,
  type FindFreeData,
  type GetOverviewData,
  type GetTaskInfoData,
  type ListTasksData,
  type QueryRangeData,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { parseFreeRuns, parseTaskListing, parseToolData } from "../../offline/schedule/result-parsing.js";
import { commandArbitrary, resolveCommand, scheduleArbitrary } from "./arbitraries.js";
import { runTool, smallSchedule, write } from "./support.js";
import { isBufferRefusal, isPastRefusal } from "../../tools/schedule/rules.js";
import type { RescheduleListing } from "../../tools/schedule/tools/reschedule.js";
import type { UndoListing } from "../../tools/schedule/tools/undo.js";
import type { HealthReport } from "../../tools/schedule/health.js";

/** Runs a tool and checks its data against its text; answers the data. */
function dataOf(name: string, state: ScheduleState, args: Record<string, unknown> = {}): unknown {
  const result = runTool(name, state, args);
  if (!result.ok) {
    // A failure's data is only what refused it: the clock, or a class's buffer.
    if (result.data !== undefined) expect(isPastRefusal(result.data) || isBufferRefusal(result.data)).toBe(true);
    return undefined;
  }
  expect(result.data).toBeDefined();
  expect(parseToolData(name, result.content)).toEqual(result.data);
  expect(JSON.parse(JSON.stringify(result.data))).toEqual(result.data);
  return result.data;
}

/** The small schedule with task a embedded in the hall, b placed on its own. */
function withPlacements(): ScheduleState {
  return write("place", write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 4 }), {
    task_id: "b",
    day: 3,
    slot_start: 2,
  });
}

describe("each tool's data says what its text says", () => {
  it("list_tasks: the tasks listed as the lines show them, the counts of the header and the overflow line", () => {
    const data = dataOf("list_tasks", withPlacements(), { limit: 3 }) as ListTasksData;
    expect(data.tasks.map((task) => [task.id, task.kind])).toEqual([
      ["lecture", "event"],
      ["hall", "event"],
      ["exam", "event"],
    ]);
    expect(data).toMatchObject({ matching: 8, total: 8, omitted: 5 });
    const placed = dataOf("list_tasks", withPlacements(), { status: "placed" }) as ListTasksData;
    expect(placed.tasks).toEqual(
      parseTaskListing(runTool("list_tasks", withPlacements(), { status: "placed" }).content),
    );
    expect(placed.tasks.find((task) => task.id === "a")).toMatchObject({
      kind: "placed",
      hostId: "hall",
      slots: [{ day: 1, start: 4, end: 5 }],
    });
    for (const args of [{}, { source: "event" }, { status: "pending" }, { category: "english" }, { day: 1 }])
      dataOf("list_tasks", sampleWeek(), args);
    expect(dataOf("list_tasks", smallSchedule(), { category: "nope" })).toBeUndefined();
    // Reviews done, missed or skipped are listed too (a strict model server's reader drops none of them).
    const lived = write(
      "skip",
      write("mark_done", write("mark_missed", withPlacements(), { task_id: "a" }), { task_id: "b" }),
      {
        task_id: "c",
      },
    );
    for (const status of ["missed", "done", "skipped"]) {
      const listed = dataOf("list_tasks", lived, { status }) as ListTasksData;
      expect(listed.tasks.map((task) => task.kind)).toEqual([status]);
    }
  });

  it("find_free: the runs listed, how many were found and left out, and the last day searched", () => {
    const data = dataOf("find_free", smallSchedule(), { limit: 2 }) as FindFreeData;
    expect(data.runs).toEqual(parseFreeRuns(runTool("find_free", smallSchedule(), { limit: 2 }).content));
    expect(data).toMatchObject({ omitted: data.found - 2, lastDay: 3 });
    expect(dataOf("find_free", smallSchedule(), { days: [2, 1] })).toMatchObject({ lastDay: 2 });
    expect(dataOf("find_free", smallSchedule(), { min_length: 9 })).toEqual({
      runs: [],
      found: 0,
      omitted: 0,
      lastDay: 3,
    });
    dataOf("find_free", withPlacements(), { include_embeddable: true, slot_start: 2, slot_end: 7 });
  });

  it("find_free on a week half over, and with days the standing preferences rule out: its text still reads back", () => {
    // Wednesday 13 March, 10:00 in Shanghai: Monday, Tuesday and Wednesday morning have started.
    const halfOver = { ...sampleWeek(), now: "2024-03-13T02:00:00.000Z" };
    const started = runTool("find_free", halfOver);
    expect(started.content).toMatch(
      /^free runs with min_length=1 on days 1-7 slots 1-12 \(time that has started left out\): /,
    );
    expect((dataOf("find_free", halfOver) as FindFreeData).runs.every((run) => run.day >= 3)).toBe(true);
    const sundayOff: ScheduleState = {
      ...halfOver,
      standing: [{ kind: "avoid_day", value: 7, text: "no reviews on Sunday", id: "p1" }],
    };
    const both = runTool("find_free", sundayOff);
    expect(both.content).toMatch(/slots 1-12 \(days 7 left out: [^()]*\) \(time that has started left out\): /);
    dataOf("find_free", sundayOff);
  });

  it("propose_reschedule and propose_undo: the listing as a text reader chooses from it (by id; its writes stay in the graph)", () => {
    // What the strict model-server double reads back from the text: without it, a reschedule over the double was told
    // "I found no place" beside a listing of places.
    const asRead = <T extends { candidates: Array<{ writes: unknown[] }> }>(data: T) => ({
      ...data,
      candidates: data.candidates.map((candidate) => ({ ...candidate, writes: [] })),
    });
    const missed = write("mark_missed", withPlacements(), { task_id: "a" });
    const reschedule = runTool("propose_reschedule", missed);
    const listing = reschedule.data as RescheduleListing;
    expect(listing.candidates).toHaveLength(1);
    expect(parseToolData("propose_reschedule", reschedule.content)).toEqual(asRead(listing));
    expect(
      parseToolData(
        "propose_reschedule",
        'no place for a "Task a": no free place that keeps its rules is left before its deadline',
      ),
    ).toEqual({
      candidates: [],
      unplaced: [{ id: "a", name: "Task a", why: "no free place that keeps its rules is left before its deadline" }],
    });
    const placed = runTool("place", smallSchedule(), { task_id: "b", day: 3, slot_start: 1 });
    const lastChange = [{ name: "place", arguments: { task_id: "b", day: 3, slot_start: 1 }, data: placed.data }];
    const undo = runTool("propose_undo", { ...placed.state!, lastChange });
    expect((undo.data as UndoListing).candidates).toHaveLength(1);
    expect(parseToolData("propose_undo", undo.content)).toEqual(asRead(undo.data as UndoListing));
    // The undo of an undo (its card chosen from propose_undo's listing) is said to redo, and read back so.
    const undoCard = lastChange.map((write) => ({ ...write, chosenFrom: "propose_undo" }));
    const redo = runTool("propose_undo", { ...placed.state!, lastChange: undoCard });
    expect(redo.data).toMatchObject({ redoes: true });
    expect(undo.data).not.toHaveProperty("redoes");
    expect(parseToolData("propose_undo", redo.content)).toEqual(asRead(redo.data as UndoListing));
    const elsewhere = runTool("propose_undo", {
      ...smallSchedule(),
      lastChange: [],
      lastChangeElsewhere: ["add_todo"],
    });
    expect(parseToolData("propose_undo", elsewhere.content)).toEqual(elsewhere.data);
  });

  it("get_overview: the counts and every list as capped in the text", () => {
    const big = generateSchedule({ seed: 7, days: 140, taskCount: 2_000 });
    const data = dataOf("get_overview", big) as GetOverviewData;
    expect(data.days).toHaveLength(31);
    expect(data.daysOmitted).toBe(big.window.totalDays - 31);
    expect(data.pendingTasks).toHaveLength(20);
    expect(data.pendingOmitted).toBe(data.pending - 20);
    const content = runTool("get_overview", big).content;
    expect(JSON.stringify(data).length).toBeLessThan(3 * content.length);
    expect(data.placedTasks).toHaveLength(Math.min(20, data.placed));
    expect(data.placedOmitted).toBe(data.placed - data.placedTasks.length);
    dataOf("get_overview", sampleWeek());
    // The placed tasks by name (what a planner grounds a move in), and where each begins (whether it is still ahead).
    expect((dataOf("get_overview", withPlacements()) as GetOverviewData).placedTasks).toEqual([
      { id: "a", name: "Task a", categoryId: "math", place: { day: 1, start: 4, end: 5 } },
      { id: "b", name: "Task b", categoryId: "math", place: { day: 3, start: 2, end: 2 } },
    ]);
    expect(runTool("get_overview", withPlacements()).content).toContain(
      '- placed a "Task a" category=math day 1 slots 4-5\n- placed b "Task b" category=math day 3 slots 2-2',
    );
    // A class's excluded weekdays (a class rule adds to them), in the text and the data alike.
    const ruled = sampleWeek();
    ruled.categories = ruled.categories.map((category) =>
      category.id === "linear-algebra" ? { ...category, excludedDaysOfWeek: [1, 3] } : category,
    );
    expect(runTool("get_overview", ruled).content).toContain(
      '- category linear-algebra "Linear Algebra" pending=2 placed=0 excluded_days_of_week=1,3',
    );
    expect(
      (dataOf("get_overview", ruled) as GetOverviewData).categories.find(
        (category) => category.id === "linear-algebra",
      ),
    ).toMatchObject({ excludedDaysOfWeek: [1, 3] });
    // Missed and skipped reviews have no place: never counted or listed as placed (a rolled week of missed reviews
    // read "every review placed"), in the text and the data alike.
    const lived = write("skip", write("mark_missed", withPlacements(), { task_id: "a" }), { task_id: "c" });
    const overview = dataOf("get_overview", lived) as GetOverviewData;
    expect(overview).toMatchObject({ placed: 1, pending: 1, missed: 1, skipped: 1, missedOmitted: 0 });
    expect(overview.missedTasks).toEqual([{ id: "a", name: "Task a", categoryId: "math" }]);
    expect(overview.placedTasks.map((task) => task.id)).toEqual(["b"]);
    expect(runTool("get_overview", lived).content).toContain(
      "without a place: 1 missed (propose_reschedule proposes them again), 1 skipped by the user\nmissed tasks (1):\n- missed a",
    );
  });

  it("query_range: each day's header and segments, embedded guests included", () => {
    const data = dataOf("query_range", withPlacements(), { day: 1, day_end: 3 }) as QueryRangeData;
    expect(data.days.map((day) => [day.day, day.dayOfWeek])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(data.days[0]!.segments).toContainEqual({
      start: 4,
      end: 5,
      occupant: {
        kind: "event",
        id: "hall",
        name: "Event hall",
        locked: false,
        canEmbed: true,
        embedded: { id: "a", name: "Task a", categoryId: "math" },
      },
    });
    dataOf("query_range", sampleWeek(), { day: 2, slot_start: 3, slot_end: 9 });
    expect(dataOf("query_range", smallSchedule(), { day: 9 })).toBeUndefined();
  });

  it("get_task_info: the task, its class and host names, an event's guests", () => {
    const state = withPlacements();
    expect(dataOf("get_task_info", state, { task_id: "a" })).toEqual({
      task: {
        id: "a",
        name: "Task a",
        kind: "placed",
        duration: 2,
        categoryId: "math",
        slots: [{ day: 1, start: 4, end: 5 }],
        hostId: "hall",
        locked: false,
        canEmbed: false,
      },
      categoryName: "Math",
      hostName: "Event hall",
    } satisfies GetTaskInfoData);
    const hall = dataOf("get_task_info", state, { task_id: "hall" }) as GetTaskInfoData;
    expect(hall.embeds?.map((embed) => [embed.id, embed.task?.kind])).toEqual([["a", "placed"]]);
    for (const id of ["c", "exam", "lecture"]) dataOf("get_task_info", state, { task_id: id });
  });

  it("the writes: what changed — placed, moved, swapped, unplaced", () => {
    const state = withPlacements();
    expect(dataOf("place", state, { task_id: "c", day: 3, slot_start: 5 })).toEqual({
      id: "c",
      day: 3,
      start: 5,
      end: 6,
    });
    expect(dataOf("place", state, { task_id: "d", day: 1, slot_start: 6 })).toBeUndefined();
    expect(dataOf("move", state, { task_id: "b", day: 3, slot_start: 7 })).toEqual({
      id: "b",
      from: { day: 3, start: 2, end: 2 },
      to: { day: 3, start: 7, end: 7 },
    });
    expect(dataOf("unplace", state, { task_id: "a" })).toEqual({
      id: "a",
      from: { day: 1, start: 4, end: 5 },
      hostId: "hall",
    });
    const moved = write("place", state, { task_id: "c", day: 3, slot_start: 5 });
    expect(dataOf("swap", moved, { first_task_id: "a", second_task_id: "c" })).toEqual({
      swapped: ["a", "c"],
      moved: [
        { id: "a", day: 3, start: 5, end: 6, from: { day: 1, start: 4, end: 5 } },
        { id: "c", day: 1, start: 4, end: 5, hostId: "hall", from: { day: 3, start: 5, end: 6 } },
      ],
    });
    expect(
      dataOf("batch_move", moved, {
        moves: [
          { task_id: "b", day: 3, slot_start: 1 },
          { task_id: "c", day: 3, slot_start: 7 },
        ],
      }),
    ).toEqual({
      moved: [
        { id: "b", day: 3, start: 1, end: 1, from: { day: 3, start: 2, end: 2 } },
        { id: "c", day: 3, start: 7, end: 8, from: { day: 3, start: 5, end: 6 } },
      ],
    });
  });

  it("get_task_info of a done, missed and skipped review: its status and a done one's place read back", () => {
    // Over the strict double, "explain" of a review done read it as pending with no place.
    const placed = withPlacements();
    for (const [tool, to] of [
      ["mark_done", "done"],
      ["mark_missed", "missed"],
      ["skip", "skipped"],
    ] as const) {
      const marked = write(tool, placed, { task_id: "b" });
      const data = dataOf("get_task_info", marked, { task_id: "b" }) as GetTaskInfoData;
      expect(data.task.kind).toBe(to);
      expect(data.task.slots.length > 0).toBe(to === "done");
    }
  });

  it("analyze_health: the report as a text reader has it (issues' tasks are named, not listed by id), on random weeks", () => {
    // What the strict model-server double reads back: without it, "how healthy is my week?" over the double was
    // "I could not answer that: health score …".
    const asRead = (report: HealthReport): HealthReport => ({
      ...report,
      issues: report.issues.map((issue) => ({ ...issue, tasks: [] })),
    });
    const check = (state: ScheduleState) => {
      const result = runTool("analyze_health", state);
      const report = result.data as HealthReport;
      const read = parseToolData("analyze_health", result.content) as HealthReport;
      expect(read).toEqual({
        ...asRead(report),
        issues: asRead(report).issues.map((issue, at) => ({ ...issue, days: read.issues[at]?.days })),
        feasibility: { ...report.feasibility, proved: read.feasibility.proved },
      });
      // The days an issue concerns are the days its message names; what is proved, as far as the text says it.
      for (const [at, issue] of report.issues.entries())
        expect(new Set(read.issues[at]!.days)).toEqual(new Set(issue.days));
      if (report.feasibility.cannotFit > 0) expect(read.feasibility.proved).toBe(report.feasibility.proved);
      return report;
    };
    const missed = write("mark_missed", withPlacements(), { task_id: "a" });
    expect(check(missed).feasibility.missed).toBe(1);
    expect(check({ ...sampleWeek(), now: "2024-03-13T02:00:00.000Z" }).issues.length).toBeGreaterThan(0);
    let issues = 0;
    fc.assert(
      fc.property(scheduleArbitrary, (state) => {
        issues += check(state).issues.length;
      }),
      { numRuns: 100 },
    );
    expect(issues).toBeGreaterThan(50);
  });

  it("random schedules and random call sequences: every success's data is what its text says, no failure has data but its refusal's", () => {
    let checked = 0;
    fc.assert(
      fc.property(
        scheduleArbitrary,
        fc.array(commandArbitrary, { minLength: 5, maxLength: 20 }),
        (initial, commands) => {
          let state = initial;
          for (const command of commands) {
            const { name, args } = resolveCommand(state, command);
            if (dataOf(name, state, args) !== undefined) checked += 1;
            const result = runTool(name, state, args);
            if (result.state !== undefined) state = result.state;
          }
        },
      ),
      { numRuns: 150 },
    );
    expect(checked).toBeGreaterThan(500);
  });
});
