/**
 * The tools' text in a person's words (`readable.ts`): dated places by date and clock time in English and Chinese,
 * undated ones as they were; tasks, events and hosts by name (`(task <id>)` after a name kept); and the tools' dated
 * result texts still read back to the same data (`parseToolData`).
 */
import { describe, expect, test } from "vitest";
import { readablePlaces, readableScheduleText, whereThingsAre } from "../../tools/schedule/readable.js";
import { parseToolData } from "../../offline/schedule/result-parsing.js";
import { generateSchedule, moveTool, placeTool, sampleWeek, unplaceTool } from "../../tools/schedule/index.js";
import { batchMoveTool } from "../../tools/schedule/tools/batch-move.js";
import type { TaskItem } from "../../tools/schedule/state.js";
import { summaryInChinese } from "../../tools/schedule/summary-words.js";

describe("readable schedule text", () => {
  test("the ids the steps' summaries list for the model are named for a person; an id after a name stays", () => {
    const week = sampleWeek();
    const summary =
      "every placement the plan had room for was proposed; skipped: essay-draft, binary-tree-review; left pending: review-limits (its deadline has passed); derivative-drills (no free slot fits outside Friday, in slots 9-12)";
    expect(readableScheduleText(summary, "en", week)).toBe(
      'every placement the plan had room for was proposed; skipped: "Draft the English essay", "Binary tree review"; left pending: "Review limits and continuity" (its deadline has passed); "Derivative practice set" (no free slot fits outside Friday, in slots 9-12)',
    );
    expect(
      readableScheduleText(
        "nothing to refine: health score 84.5; stopped: no change raises the score any more; forced, no change can fix: review-limits (fits nowhere beside the others, proved), unknown-id (x)",
        "en",
        week,
      ),
    ).toBe(
      'nothing to refine: health score 84.5; stopped: no change raises the score any more; forced, no change can fix: "Review limits and continuity" (fits nowhere beside the others, proved), unknown-id (x)',
    );
    expect(readableScheduleText("仍待安排：review-limits（截止时间已过）；跳过：essay-draft", "zh", week)).toBe(
      '仍待安排："Review limits and continuity"（截止时间已过）；跳过："Draft the English essay"',
    );
    // Without the week, and outside such a list, ids stay: "Still pending: name (id)" gives its id on purpose.
    expect(readableScheduleText("left pending: review-limits (x)", "en")).toBe("left pending: review-limits (x)");
    expect(readableScheduleText("Still pending: Review limits (review-limits) — x", "en", week)).toBe(
      "Still pending: Review limits (review-limits) — x",
    );
  });

  test("dated places by date and clock time, in English and Chinese; undated ones stay", () => {
    const text =
      "moved task matrix-review from day 2 slots 3-4 (Tue 12 Mar 2024, 10:00–11:40) to day 4 slots 7-8 (Thu 14 Mar 2024, 16:00–17:40)";
    expect(readablePlaces(text, "en")).toBe(
      "moved task matrix-review from Tue 12 Mar, 10:00–11:40 to Thu 14 Mar, 16:00–17:40",
    );
    expect(readablePlaces(text, "zh")).toBe(
      "moved task matrix-review from 3月12日周二 10:00–11:40 to 3月14日周四 16:00–17:40",
    );
    // An event's start, and a day alone.
    expect(readablePlaces("before (day 6 slot 3 (Sat 16 Mar 2024, 10:00)); not on day 7 (Sun 17 Mar 2024)", "en")).toBe(
      "before (Sat 16 Mar, 10:00); not on Sun 17 Mar",
    );
    expect(readablePlaces("moved task a from day 2 slots 3-4 to day 4 slots 7-8", "en")).toBe(
      "moved task a from day 2 slots 3-4 to day 4 slots 7-8",
    );
  });

  test("tasks, events and hosts by name; a name's own id in brackets, and phrases that are no ids, stay", () => {
    const week = sampleWeek();
    expect(
      readableScheduleText(
        "placed task review-limits on day 1 slots 9-10 (Mon 11 Mar 2024, 19:00–20:40) embedded in host mon-study-hall.",
        "en",
        week,
      ),
    ).toBe('placed "Review limits and continuity" on Mon 11 Mar, 19:00–20:40 inside "Evening self-study hall".');
    expect(
      readableScheduleText(
        'cannot move task review-limits: task review-limits "Review limits and continuity" must be done before event sat-calculus-midterm "Calculus midterm exam"',
        "en",
      ),
    ).toBe('"Review limits and continuity" must be done before "Calculus midterm exam"');
    expect(readableScheduleText("- 10:00–11:40: Matrix operations review (task matrix-review)", "en", week)).toBe(
      "- 10:00–11:40: Matrix operations review (task matrix-review)",
    );
    expect(
      readableScheduleText('list_tasks shows no task matching "zebra"; no pending task matches "x"', "en", week),
    ).toBe('list_tasks shows no task matching "zebra"; no pending task matches "x"');
    expect(
      readableScheduleText(
        'imported 2 event(s): history-seminar "History seminar", lab-2 "Lab"; left out: x: it overlaps y',
        "en",
      ),
    ).toBe('imported 2 event(s): "History seminar", "Lab"; left out: x: it overlaps y');
    // An id the schedule does not know stays as it is.
    expect(readableScheduleText("moved task ghost-task", "en", week)).toBe("moved task ghost-task");
  });

  test("a model's or tool's text of 100 000 near-miss characters reads in one pass", () => {
    // Each took 5–14 s (a lazy id trim on a run of dots, an import list tried from each character of a run, the
    // stale-card sentences tried from each character or opening), the event loop held; the limit on this test is the
    // symptom's bound.
    const week = sampleWeek();
    const dots = ".".repeat(100_000);
    expect(readableScheduleText(`moved task review-limits${dots}x`, "en", week)).toBe(
      `moved task review-limits${dots}x`,
    );
    expect(readableScheduleText(`moved task review-limits${dots}`, "en", week)).toBe(
      `moved "Review limits and continuity"${dots}`,
    );
    expect(readableScheduleText(`placed inside mon-study-hall${dots}`, "en", week)).toBe(
      `placed inside "Evening self-study hall"${dots}`,
    );
    const run = `imported 1 event(s): ${"a".repeat(100_000)}`;
    expect(readableScheduleText(run, "en")).toBe(run);
    expect(readableScheduleText('imported 1 event(s): -.lab-2 "Lab"', "en")).toBe('imported 1 event(s): -."Lab"');
    for (const text of ["x".repeat(100_000), '"'.repeat(100_000)]) expect(readableScheduleText(text, "zh")).toBe(text);
    const opening = "this card was made on the week of , and the schedule has moved on to ".repeat(1_500);
    expect(readableScheduleText(opening, "zh")).toBe(opening);
    expect(
      readableScheduleText(
        `${opening}\nthis card was made on the week of 11 Mar, and the schedule has moved on to 18 Mar since, so its days would be other dates now; `,
        "zh",
      ),
    ).toBe(`${opening}\n这张卡片是按 11 Mar 那一周做的，日程此后已移到 18 Mar，卡片上的日子现在是别的日期了；`);
  }, 10_000);

  test("where the touched tasks are now, once each, from the schedule; none for fewer than two", () => {
    const week = sampleWeek();
    const placed = placeTool.run(week, { task_id: "review-limits", day: 1, slot_start: 5 });
    const moved = moveTool.run(placed.state!, { task_id: "review-limits", day: 4, slot_start: 7 });
    const second = placeTool.run(moved.state!, { task_id: "essay-draft", day: 6, slot_start: 1 });
    const results = [placed.content, moved.content, second.content];
    expect(whereThingsAre(second.state!, results, "en")).toBe(
      'Where things are now: "Review limits and continuity" — Thu 14 Mar, 16:00–17:40; "Draft the English essay" — Sat 16 Mar, 08:00–09:40.',
    );
    expect(whereThingsAre(second.state!, results, "zh")).toBe(
      '现在的安排："Review limits and continuity" — 3月14日周四 16:00–17:40；"Draft the English essay" — 3月16日周六 08:00–09:40。',
    );
    expect(whereThingsAre(placed.state!, [placed.content], "en")).toBeUndefined();
  });
});

describe("a habit's or long task's id, named by its sessions", () => {
  test("the search's reason that names another session reads the task's name, in English and Chinese", () => {
    const session = (id: string, index: number): TaskItem => ({
      id,
      name: `Write the essay (session ${index} of 2)`,
      source: "task_item",
      duration: 2,
      categoryId: "english",
      status: "pending",
      group: { id: "essay", kind: "sessions" },
    });
    const week = { tasks: [session("essay-s1", 1), session("essay-s2", 2)] };
    const left = "left pending: essay-s2 (another session of task essay is on each day with room for it)";
    // Before, a person read "another session of task essay" (the group's id).
    expect(readableScheduleText(left, "en", week)).toBe(
      'left pending: "Write the essay (session 2 of 2)" (another session of "Write the essay" is on each day with room for it)',
    );
    expect(readableScheduleText(summaryInChinese(left), "zh", week)).toContain(
      '每一天都已有"Write the essay" 的另一次',
    );
    expect(readableScheduleText("another session of habit vocab is there", "en", { tasks: [] })).toBe(
      "another session of habit vocab is there",
    );
  });
});

describe("dated result texts read back to their data", () => {
  test("place, move, batch_move and unplace in a dated window carry the date and parse back; an undated window's do not", () => {
    const week = sampleWeek();
    const placed = placeTool.run(week, { task_id: "review-limits", day: 1, slot_start: 9 });
    expect(placed.content).toBe(
      "placed task review-limits on day 1 slots 9-10 (Mon 11 Mar 2024, 19:00–20:40) embedded in host mon-study-hall",
    );
    const moved = moveTool.run(placed.state!, { task_id: "review-limits", day: 4, slot_start: 7 });
    const batch = batchMoveTool.run(moved.state!, { moves: [{ task_id: "review-limits", day: 4, slot_start: 1 }] });
    const unplaced = unplaceTool.run(placed.state!, { task_id: "review-limits" });
    expect(unplaced.content).toBe(
      "unplaced task review-limits from day 1 slots 9-10 (Mon 11 Mar 2024, 19:00–20:40) (was embedded in host mon-study-hall); it is pending again",
    );
    for (const [name, run] of [
      ["place", placed],
      ["move", moved],
      ["batch_move", batch],
      ["unplace", unplaced],
    ] as const) {
      expect(run.ok, run.content).toBe(true);
      expect(parseToolData(name, run.content)).toEqual(run.data);
    }
    const undated = generateSchedule({ days: 7, taskCount: 12, seed: 3 });
    const placedThere = undated.tasks.find((task) => task.source === "task_item" && task.status === "placed")!;
    const off = unplaceTool.run(undated, { task_id: placedThere.id });
    expect(off.content).toMatch(
      /^unplaced task \S+ from day \d+ slots \d+-\d+(?: \(was embedded in host \S+\))?; it is pending again$/,
    );
    expect(parseToolData("unplace", off.content)).toEqual(off.data);
  });
});
