import { describe, expect, it } from "vitest";
import {
  DEFAULT_SLOT_TIMES,
  emptyScheduleState,
  generateSchedule,
  sampleWeek,
  scheduleTools,
} from "../../tools/schedule/index.js";
import {
  parseFreeRuns,
  parseOverflowCount,
  parsePendingTasks,
  parseToolData,
} from "../../offline/schedule/result-parsing.js";
import { runTool, smallSchedule, write } from "./support.js";

describe("the tool list", () => {
  it("has the thirty-two schedule tools, twelve reads then twenty writes, each with a described snake_case schema", () => {
    expect(scheduleTools.map((tool) => [tool.name, tool.kind])).toEqual([
      ["get_overview", "read"],
      ["query_range", "read"],
      ["find_free", "read"],
      ["list_tasks", "read"],
      ["get_task_info", "read"],
      ["analyze_health", "read"],
      ["propose_arrangement", "read"],
      ["propose_candidates", "read"],
      ["propose_undo", "read"],
      ["propose_reschedule", "read"],
      ["propose_recovery", "read"],
      ["export_calendar", "read"],
      ["place", "write"],
      ["move", "write"],
      ["swap", "write"],
      ["batch_move", "write"],
      ["unplace", "write"],
      ["upsert_task_class", "write"],
      ["remove_task_class", "write"],
      ["add_task", "write"],
      ["add_habit", "write"],
      ["update_task", "write"],
      ["remove_task", "write"],
      ["restore_task", "write"],
      ["import_calendar", "write"],
      ["remove_event", "write"],
      ["restore_event", "write"],
      ["roll_window", "write"],
      ["mark_done", "write"],
      ["mark_missed", "write"],
      ["skip", "write"],
      ["reopen", "write"],
    ]);
    for (const tool of scheduleTools) {
      expect(tool.description.length).toBeGreaterThan(40);
      const shape = (tool.schema as unknown as { shape: Record<string, { description?: string }> }).shape;
      for (const [field, schema] of Object.entries(shape)) {
        expect(field).toMatch(/^[a-z]+(_[a-z]+)*$/);
        expect(schema.description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });
});

describe("get_overview", () => {
  it("lists the window, occupancy per day, hosts, task classes and pending tasks", () => {
    const result = runTool("get_overview", smallSchedule());
    expect(result).toEqual({
      ok: true,
      content: [
        "schedule: 3 days (week 1 Mon - week 1 Wed), 8 slots per day",
        "tasks: 4 events (1 embeddable, 1 locked), 4 task items (0 placed, 4 pending)",
        "days:",
        "- day 1 week 1 Mon: occupied=6 free=2 embeddable=4 embedded=0",
        "- day 2 week 1 Tue: occupied=4 free=4 embeddable=0 embedded=0",
        "- day 3 week 1 Wed: occupied=0 free=8 embeddable=0 embedded=0",
        "embeddable hosts (1):",
        '- host hall "Event hall" day 1 slots 4-7 (4 free for embedding)',
        "categories (2):",
        '- category math "Math" pending=3 placed=0',
        '- category english "English" pending=1 placed=0',
        "pending tasks (4):",
        '- task a "Task a" duration=2 category=math',
        '- task b "Task b" duration=1 category=math',
        '- task c "Task c" duration=2 category=english',
        '- task d "Task d" duration=3 category=math',
        "placed tasks (0):",
      ].join("\n"),
      data: {
        totalDays: 3,
        slotsPerDay: 8,
        events: 4,
        embeddableEvents: 1,
        lockedEvents: 1,
        placed: 0,
        pending: 4,
        days: [
          { day: 1, week: 1, dayOfWeek: 1, occupied: 6, free: 2, embeddable: 4, embedded: 0 },
          { day: 2, week: 1, dayOfWeek: 2, occupied: 4, free: 4, embeddable: 0, embedded: 0 },
          { day: 3, week: 1, dayOfWeek: 3, occupied: 0, free: 8, embeddable: 0, embedded: 0 },
        ],
        daysOmitted: 0,
        hosts: [{ id: "hall", name: "Event hall", day: 1, start: 4, end: 7, open: 4 }],
        hostsOmitted: 0,
        categories: [
          { id: "math", name: "Math", pending: 3, placed: 0 },
          { id: "english", name: "English", pending: 1, placed: 0 },
        ],
        categoriesOmitted: 0,
        pendingTasks: [
          { id: "a", name: "Task a", duration: 2, categoryId: "math" },
          { id: "b", name: "Task b", duration: 1, categoryId: "math" },
          { id: "c", name: "Task c", duration: 2, categoryId: "english" },
          { id: "d", name: "Task d", duration: 3, categoryId: "math" },
        ],
        pendingOmitted: 0,
        placedTasks: [],
        placedOmitted: 0,
        missed: 0,
        skipped: 0,
        missedTasks: [],
        missedOmitted: 0,
      },
    });
  });

  it("counts embedded slots and drops placed tasks from the pending list", () => {
    const state = write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 4 });
    const content = runTool("get_overview", state).content;
    expect(content).toContain("- day 1 week 1 Mon: occupied=6 free=2 embeddable=2 embedded=2");
    expect(content).toContain('- host hall "Event hall" day 1 slots 4-7 (2 free for embedding)');
    expect(content).toContain('- category math "Math" pending=2 placed=1');
    expect(parsePendingTasks(content).map((task) => task.id)).toEqual(["b", "c", "d"]);
  });

  it("stays small on a huge schedule: capped lists with an overflow line", () => {
    const state = generateSchedule({ days: 112, taskCount: 5_000, seed: 3 });
    const content = runTool("get_overview", state).content;
    expect(content.split("\n").length).toBeLessThan(100);
    expect(content.length).toBeLessThan(8_000);
    const pendingCount = state.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length;
    expect(parsePendingTasks(content)).toHaveLength(20);
    expect(content).toContain(
      `... and ${(pendingCount - 20).toLocaleString("en-US")} more; narrow with list_tasks status=pending and a category`,
    );
    expect(content).toContain("... and 81 more; use query_range or find_free with days to look at later days");
  });

  it("reads the sample week", () => {
    const content = runTool("get_overview", sampleWeek()).content;
    expect(content.split("\n").slice(0, 5)).toEqual([
      "schedule: 7 days (week 1 Mon 2024-03-11 - week 1 Sun 2024-03-17, Asia/Shanghai), 12 slots per day",
      "tasks: 18 events (4 embeddable, 2 locked), 8 task items (0 placed, 8 pending)",
      "slot times: 1 08:00-08:45, 2 08:55-09:40, 3 10:00-10:45, 4 10:55-11:40, 5 14:00-14:45, 6 14:55-15:40, 7 16:00-16:45, 8 16:55-17:40, 9 19:00-19:45, 10 19:55-20:40, 11 20:50-21:35, 12 21:45-22:30",
      "days:",
      "- day 1 week 1 Mon 2024-03-11: occupied=9 free=3 embeddable=3 embedded=0",
    ]);
    expect(parseToolData("get_overview", content)).toMatchObject({
      timeZone: "Asia/Shanghai",
      slotTimes: DEFAULT_SLOT_TIMES,
      days: expect.arrayContaining([expect.objectContaining({ day: 4, date: "2024-03-14", dayOfWeek: 4 })]),
    });
    expect(runTool("query_range", sampleWeek(), { day: 4, slot_start: 9, slot_end: 10 }).content.split("\n")[0]).toBe(
      "day 4 week 1 Thu 2024-03-14 slots 9-10:",
    );
    expect(parsePendingTasks(content)).toHaveLength(8);
  });
});

describe("query_range", () => {
  it("describes a day as runs of slots, with hosts and embedded tasks", () => {
    const state = write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 5 });
    expect(runTool("query_range", state, { day: 1 }).content).toBe(
      [
        "day 1 week 1 Mon slots 1-8:",
        '- slots 1-2: event lecture "Event lecture"',
        "- slots 3-3: free",
        '- slots 4-4: event hall "Event hall" can_embed, free for embedding',
        '- slots 5-6: event hall "Event hall" can_embed, embedded task a "Task a" category=math',
        '- slots 7-7: event hall "Event hall" can_embed, free for embedding',
        "- slots 8-8: free",
      ].join("\n"),
    );
  });

  it("narrows to slots and spans several days", () => {
    const state = write("place", smallSchedule(), { task_id: "b", day: 3, slot_start: 2 });
    expect(runTool("query_range", state, { day: 2, day_end: 3, slot_start: 2, slot_end: 4 }).content).toBe(
      [
        "day 2 week 1 Tue slots 2-4:",
        "- slots 2-2: free",
        '- slots 3-4: event exam "Event exam" locked',
        "day 3 week 1 Wed slots 2-4:",
        '- slots 2-2: task b "Task b" category=math',
        "- slots 3-4: free",
      ].join("\n"),
    );
  });

  it.each([
    [{ day: 0 }, "error: day 0 is outside the window (days 1-3)"],
    [{ day: 4 }, "error: day 4 is outside the window (days 1-3)"],
    [{ day: 2, day_end: 1 }, "error: day_end 1 must be between day 2 and 3"],
    [{ day: 1, day_end: 9 }, "error: day_end 9 must be between day 1 and 3"],
    [{ day: 1, slot_start: 0 }, "error: slot_start 0 is outside the day (slots 1-8)"],
    [{ day: 1, slot_start: 9 }, "error: slot_start 9 is outside the day (slots 1-8)"],
    [{ day: 1, slot_start: 5, slot_end: 4 }, "error: slot_end 4 must be between slot_start 5 and 8"],
    [{ day: 1, slot_end: 12 }, "error: slot_end 12 must be between slot_start 1 and 8"],
  ])("rejects %j", (args, message) => {
    expect(runTool("query_range", smallSchedule(), args)).toEqual({ ok: false, content: message });
  });

  it("refuses more than 14 days at once", () => {
    const state = generateSchedule({ days: 30, taskCount: 50, seed: 1 });
    expect(runTool("query_range", state, { day: 1, day_end: 15 }).content).toBe(
      "error: query at most 14 days at once (asked for 15)",
    );
    expect(runTool("query_range", state, { day: 1, day_end: 14 }).ok).toBe(true);
  });
});

describe("find_free", () => {
  it("reports free runs and, distinctly, room inside embeddable hosts", () => {
    expect(runTool("find_free", smallSchedule()).content).toBe(
      [
        "free runs with min_length=1 on days 1-3 slots 1-8: 6 found",
        "- day 1 slots 3-3 (1 free)",
        "- day 1 slots 4-7 (4 free) embeddable host hall",
        "- day 1 slots 8-8 (1 free)",
        "- day 2 slots 1-2 (2 free)",
        "- day 2 slots 7-8 (2 free)",
        "- day 3 slots 1-8 (8 free)",
      ].join("\n"),
    );
  });

  it("keeps runs of at least min_length", () => {
    const content = runTool("find_free", smallSchedule(), { min_length: 3 }).content;
    expect(parseFreeRuns(content)).toEqual([
      { day: 1, start: 4, end: 7, length: 4, hostId: "hall" },
      { day: 3, start: 1, end: 8, length: 8 },
    ]);
  });

  it("skips host room when include_embeddable is false, and after embedding counts only what is left", () => {
    expect(
      parseFreeRuns(runTool("find_free", smallSchedule(), { days: [1], include_embeddable: false }).content),
    ).toEqual([
      { day: 1, start: 3, end: 3, length: 1 },
      { day: 1, start: 8, end: 8, length: 1 },
    ]);
    const state = write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 5 });
    expect(parseFreeRuns(runTool("find_free", state, { days: [1] }).content)).toEqual([
      { day: 1, start: 3, end: 3, length: 1 },
      { day: 1, start: 4, end: 4, length: 1, hostId: "hall" },
      { day: 1, start: 7, end: 7, length: 1, hostId: "hall" },
      { day: 1, start: 8, end: 8, length: 1 },
    ]);
  });

  it("limits the search to days and a slot range", () => {
    expect(runTool("find_free", smallSchedule(), { days: [3, 2], slot_start: 2, slot_end: 7 }).content).toBe(
      [
        "free runs with min_length=1 on days 2-3 slots 2-7: 3 found",
        "- day 2 slots 2-2 (1 free)",
        "- day 2 slots 7-7 (1 free)",
        "- day 3 slots 2-7 (6 free)",
      ].join("\n"),
    );
  });

  it("says so when nothing fits", () => {
    expect(runTool("find_free", smallSchedule(), { min_length: 9 })).toEqual({
      ok: true,
      content: "no free run with min_length=9 on days 1-3 slots 1-8",
      data: { runs: [], found: 0, omitted: 0, lastDay: 3 },
    });
  });

  it.each([
    [{ days: [0] }, "error: day 0 is outside the window (days 1-3)"],
    [{ days: [1, 4] }, "error: day 4 is outside the window (days 1-3)"],
    [{ days: [] }, "error: days is empty; leave it out to search every day"],
    [{ slot_start: 0 }, "error: slot_start 0 is outside the day (slots 1-8)"],
    [{ slot_start: 4, slot_end: 2 }, "error: slot_end 2 must be between slot_start 4 and 8"],
    [{ slot_end: 9 }, "error: slot_end 9 must be between slot_start 1 and 8"],
  ])("rejects %j", (args, message) => {
    expect(runTool("find_free", smallSchedule(), args)).toEqual({ ok: false, content: message });
  });

  it("says so for a window without days", () => {
    expect(runTool("find_free", emptyScheduleState(0))).toEqual({
      ok: false,
      content: "error: the schedule window has no days, so there is no free time to find",
    });
  });

  it("caps the list on a huge schedule", () => {
    const state = generateSchedule({ days: 112, taskCount: 5_000, seed: 3 });
    const content = runTool("find_free", state, { limit: 5 }).content;
    expect(parseFreeRuns(content)).toHaveLength(5);
    const total = Number(/: ([\d,]+) found/.exec(content)?.[1]?.replaceAll(",", ""));
    expect(parseOverflowCount(content)).toBe(total - 5);
    expect(content.split("\n").at(-1)).toMatch(/^\.\.\. and [\d,]+ more; narrow with day\/slot filters$/);
  });
});

describe("list_tasks", () => {
  it("lists every task by default: events, pending and placed task items", () => {
    const state = write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 4 });
    expect(runTool("list_tasks", state).content).toBe(
      [
        "tasks matching all: 8 of 8",
        '- event lecture "Event lecture" day 1 slots 1-2',
        '- event hall "Event hall" day 1 slots 4-7 can_embed embeds a',
        '- event exam "Event exam" day 2 slots 3-4 locked',
        '- event lab "Event lab" day 2 slots 5-6',
        '- placed task a "Task a" duration=2 category=math day 1 slots 4-5 embedded in host hall',
        '- task b "Task b" duration=1 category=math',
        '- task c "Task c" duration=2 category=english',
        '- task d "Task d" duration=3 category=math',
      ].join("\n"),
    );
  });

  it("filters by source, status, category and day", () => {
    const state = write("place", smallSchedule(), { task_id: "c", day: 2, slot_start: 1 });
    const ids = (args: Record<string, unknown>) =>
      runTool("list_tasks", state, args)
        .content.split("\n")
        .slice(1)
        .map((line) => /^- (?:placed task|task|event) (\S+)/.exec(line)?.[1]);
    expect(ids({ source: "event" })).toEqual(["lecture", "hall", "exam", "lab"]);
    expect(ids({ source: "task_item" })).toEqual(["a", "b", "c", "d"]);
    expect(ids({ status: "pending" })).toEqual(["a", "b", "d"]);
    expect(ids({ status: "placed" })).toEqual(["c"]);
    expect(ids({ category: "math" })).toEqual(["a", "b", "d"]);
    expect(ids({ category: "english", status: "pending" })).toEqual([]);
    expect(ids({ day: 2 })).toEqual(["exam", "lab", "c"]);
    expect(runTool("list_tasks", state, { status: "pending", category: "math" }).content.split("\n")[0]).toBe(
      "tasks matching status=pending category=math: 3 of 8",
    );
  });

  it.each([
    [
      { source: "event", status: "pending" },
      "error: status and category apply to task items only; drop them or use source=task_item",
    ],
    [{ category: "history" }, 'error: no task class with id "history"; known task classes: math, english'],
    [{ day: 4 }, "error: day 4 is outside the window (days 1-3)"],
    [{ day: 0 }, "error: day 0 is outside the window (days 1-3)"],
  ])("rejects %j", (args, message) => {
    expect(runTool("list_tasks", smallSchedule(), args)).toEqual({ ok: false, content: message });
  });

  it("caps long lists and honours limit", () => {
    const state = generateSchedule({ days: 112, taskCount: 5_000, seed: 3 });
    const pendingCount = state.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length;
    const content = runTool("list_tasks", state, { status: "pending", limit: 3 }).content;
    expect(parsePendingTasks(content)).toHaveLength(3);
    expect(parseOverflowCount(content)).toBe(pendingCount - 3);
    expect(runTool("list_tasks", state, { status: "pending" }).content.split("\n")).toHaveLength(22);
  });
});

describe("get_task_info", () => {
  it("shows a pending task item", () => {
    expect(runTool("get_task_info", smallSchedule(), { task_id: "c" }).content).toBe(
      ['task c "Task c"', "source: task_item", "status: pending", "duration: 2", 'category: english "English"'].join(
        "\n",
      ),
    );
  });

  it("shows an embedded task item and its host with the embed relation", () => {
    const state = write("place", smallSchedule(), { task_id: "a", day: 1, slot_start: 6 });
    expect(runTool("get_task_info", state, { task_id: "a" }).content).toBe(
      [
        'task a "Task a"',
        "source: task_item",
        "status: placed",
        "duration: 2",
        'category: math "Math"',
        "slots: day 1 slots 6-7",
        'embedded in: host hall "Event hall"',
      ].join("\n"),
    );
    expect(runTool("get_task_info", state, { task_id: "hall" }).content).toBe(
      [
        'task hall "Event hall"',
        "source: event",
        "slots: day 1 slots 4-7",
        "locked: false",
        "can_embed: true",
        "embeds: 1",
        '- placed task a "Task a" duration=2 category=math day 1 slots 6-7 embedded in host hall',
      ].join("\n"),
    );
  });

  it("rejects an unknown id", () => {
    expect(runTool("get_task_info", smallSchedule(), { task_id: "nope" })).toEqual({
      ok: false,
      content: 'error: no task with id "nope"; use list_tasks to find ids',
    });
  });
});
