/**
 * The task and class writes (issue 30): upsert_task_class, add_task, update_task and remove_task change what there is
 * to arrange, each refusing with the rule named (a session length outside its class's bounds, a placed session a new
 * rule would rule out, an unknown class or exam, an event) and the week unchanged; through the graph each goes on a
 * card, and only what the user approved is stored, once.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { asCard } from "../../contracts/cards.js";
import { proposeArrangement } from "../../tools/schedule/arrangement.js";
import {
  addTaskTool,
  createScheduleDomain,
  InMemoryScheduleRepository,
  markDoneTool,
  placeTool,
  removeTaskClassTool,
  removeTaskTool,
  sampleWeek,
  updateTaskTool,
  upsertTaskClassTool,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { interruptsOf, json, planDone, resume, scriptedGraph, stepsOf, threadConfig } from "../support/scripted.js";

const calculusClass = (week: ScheduleState) => week.categories.find((category) => /calculus/i.test(category.name))!;
/** The week with the limits review placed where the backend's arrangement puts it, after the first day. */
function placedReview(week: ScheduleState) {
  const spot = proposeArrangement(week, { taskIds: ["review-limits"], avoidDays: [1] }).candidates[0]!.places![0]!;
  return {
    placed: placeTool.run(week, { task_id: "review-limits", day: spot.day, slot_start: spot.start }).state!,
    spot,
  };
}

const items = (week: ScheduleState) => week.tasks.filter((task): task is TaskItem => task.source === "task_item");

describe("the task and class writes", () => {
  test("a class is created with its profile, and changed; a change its placed sessions would break is refused, naming one", () => {
    const week = sampleWeek();
    const created = upsertTaskClassTool.run(week, {
      name: "Physics",
      preferred_parts: ["morning"],
      excluded_days_of_week: [7],
      buffer_slots: 1,
      strategy: "compact",
    });
    expect(created).toMatchObject({ ok: true, content: 'created task class physics "Physics"' });
    expect(created.state!.categories.at(-1)).toEqual({
      id: "physics",
      name: "Physics",
      preferredParts: ["morning"],
      excludedDaysOfWeek: [7],
      strategy: "compact",
      bufferSlots: 1,
    });
    // An empty list clears its field: the class has no parts of its own again, so the standing preference applies.
    const cleared = upsertTaskClassTool.run(created.state!, {
      class_id: "physics",
      name: "Physics",
      preferred_parts: [],
      excluded_days_of_week: [],
    });
    expect(cleared.state!.categories.at(-1)).toEqual({
      id: "physics",
      name: "Physics",
      strategy: "compact",
      bufferSlots: 1,
    });
    // Calculus with a review placed: excluding that weekday now is refused, the review named.
    const { placed, spot } = placedReview(week);
    const calculus = calculusClass(week);
    const refused = upsertTaskClassTool.run(placed, {
      class_id: calculus.id,
      name: calculus.name,
      excluded_days_of_week: [week.window.days[spot.day - 1]!.dayOfWeek],
    });
    expect(refused.ok).toBe(false);
    expect(refused.content).toMatch(
      new RegExp(
        `task review-limits "[^"]+" cannot go on day ${spot.day} \\(\\w+ \\d+ \\w+ 2024\\).*; move or unplace it first`,
      ),
    );
    expect(refused.state).toBeUndefined();
    // Bounds every calculus task already keeps are taken; bounds one breaks are refused.
    const durations = items(week)
      .filter((task) => task.categoryId === calculus.id)
      .map((task) => task.duration);
    expect(
      upsertTaskClassTool.run(week, { class_id: calculus.id, name: calculus.name, min_session: Math.min(...durations) })
        .ok,
    ).toBe(true);
    expect(
      upsertTaskClassTool.run(week, {
        class_id: calculus.id,
        name: calculus.name,
        max_session: Math.max(...durations) - 1,
      }).content,
    ).toMatch(/takes at most \d+ slot\(s\); \d+ is too long for task/);
    expect(upsertTaskClassTool.run(week, { name: "X", min_session: 3, max_session: 2 }).content).toBe(
      "error: min_session 3 is more than max_session 2",
    );
  });

  test("a task is added pending, changed and removed; bad classes, exams, lengths and events are refused", () => {
    const week = sampleWeek();
    const calculus = calculusClass(week);
    const added = addTaskTool.run(week, {
      name: "Series review",
      class_id: calculus.id,
      duration: 2,
      due_before_event: "sat-calculus-midterm",
      priority: "high",
    });
    expect(added.content).toBe(
      `added task series-review "Series review" (2 slot(s), class ${calculus.id}); it is pending`,
    );
    expect(added.state!.tasks.at(-1)).toEqual({
      id: "series-review",
      name: "Series review",
      source: "task_item",
      duration: 2,
      categoryId: calculus.id,
      status: "pending",
      dueBefore: { eventId: "sat-calculus-midterm" },
      priority: "high",
    });
    expect(
      addTaskTool.run(added.state!, { name: "Series review", class_id: calculus.id, duration: 1 }).state!.tasks.at(-1)!
        .id,
    ).toBe("series-review-2");
    expect(addTaskTool.run(week, { name: "Waves", class_id: "physics", duration: 1 }).content).toMatch(
      /^error: no task class "physics"; the classes are /,
    );
    expect(
      addTaskTool.run(week, { name: "Waves", class_id: calculus.id, duration: 1, due_before_event: "review-limits" })
        .content,
    ).toMatch(/no event with id "review-limits"/);
    expect(
      addTaskTool.run(week, { name: "Waves", class_id: calculus.id, duration: 1, due_before_day: 99 }).content,
    ).toMatch(/due_before_day 99 is outside the window/);

    const updated = updateTaskTool.run(added.state!, {
      task_id: "series-review",
      name: "Series and sequences",
      clear_due_before: true,
      earliest_day: 2,
    });
    expect(updated.state!.tasks.at(-1)).toEqual({
      id: "series-review",
      name: "Series and sequences",
      source: "task_item",
      duration: 2,
      categoryId: calculus.id,
      status: "pending",
      priority: "high",
      earliestDay: 2,
    });
    expect(updateTaskTool.run(added.state!, { task_id: "series-review", priority: "high" }).content).toMatch(
      /nothing to change/,
    );
    expect(updateTaskTool.run(week, { task_id: "sat-calculus-midterm", name: "x" }).content).toMatch(
      /is a timetable event; events stay as imported/,
    );
    const { placed, spot } = placedReview(week);
    expect(updateTaskTool.run(placed, { task_id: "review-limits", duration: 1 }).content).toMatch(
      /is placed; unplace it before changing its length/,
    );
    // A deadline its place would break: refused.
    expect(updateTaskTool.run(placed, { task_id: "review-limits", due_before_day: spot.day }).content).toMatch(
      new RegExp(
        `is due before day ${spot.day} \\(\\w+ \\d+ Mar 2024\\); day ${spot.day} \\(\\w+ \\d+ Mar 2024\\) is too late; move or unplace it first`,
      ),
    );

    const removed = removeTaskTool.run(placed, { task_id: "review-limits" });
    expect(removed.state!.tasks.some((task) => task.id === "review-limits")).toBe(false);
    expect(removeTaskTool.run(week, { task_id: "sat-calculus-midterm" }).content).toMatch(/events stay as imported/);
  });

  test("a class is removed only when no task names it, done ones included; an unknown class is refused", () => {
    const week = sampleWeek();
    const calculus = calculusClass(week);
    const users = items(week).filter((task) => task.categoryId === calculus.id);
    expect(removeTaskClassTool.run(week, { class_id: calculus.id }).content).toBe(
      `error: task class ${calculus.id} "${calculus.name}" is used by ${users.length} task(s) (${users.map((task) => task.id).join(", ")}); remove them or give them another class first; nothing was removed`,
    );
    expect(removeTaskClassTool.run(week, { class_id: "astronomy" }).content).toMatch(
      /^error: no task class "astronomy"; the classes are calculus, /,
    );
    // A done task still names its class: its history keeps the class.
    const { placed } = placedReview(week);
    const done = markDoneTool.run(placed, { task_id: "review-limits" }).state!;
    let left = done;
    for (const task of users.filter((entry) => entry.id !== "review-limits"))
      left = removeTaskTool.run(left, { task_id: task.id }).state!;
    expect(removeTaskClassTool.run(left, { class_id: calculus.id }).content).toMatch(
      /is used by 1 task\(s\) \(review-limits\)/,
    );
    const gone = removeTaskClassTool.run(removeTaskTool.run(left, { task_id: "review-limits" }).state!, {
      class_id: calculus.id,
    });
    expect(gone.content).toBe(`removed task class ${calculus.id} "${calculus.name}"`);
    expect(gone.state!.categories.some((category) => category.id === calculus.id)).toBe(false);
    expect(gone.data).toEqual({ class: calculus });
  });

  test("what can never fit is refused with the week unchanged: a session longer than a day, an earliest day on or after its due day, an exam before its earliest day", () => {
    const week = sampleWeek();
    const free = upsertTaskClassTool.run(week, { name: "Reading" }).state!;
    const before = JSON.stringify(free);
    const add = (args: Record<string, unknown>) =>
      addTaskTool.run(free, { name: "Long read", class_id: "reading", duration: 2, ...args } as Parameters<
        typeof addTaskTool.run
      >[1]);
    expect(add({ duration: 13 }).content).toBe(
      "error: a session of 13 slot(s) is longer than a day (12 slots): it could never be placed. Nothing was added",
    );
    expect(add({ earliest_day: 5, due_before_day: 4 }).content).toBe(
      "error: earliest_day 5 is not before its due day 4 (it must end on an earlier day): no day is left for it. Nothing was added",
    );
    expect(add({ earliest_day: 4, due_before_day: 4 }).content).toMatch(
      /^error: earliest_day 4 is not before its due day 4/,
    );
    // The midterm starts on day 6 at slot 3: from day 7 there is no room, nor for 3 slots on day 6 itself.
    expect(add({ earliest_day: 7, due_before_event: "sat-calculus-midterm" }).content).toBe(
      'error: event sat-calculus-midterm "Calculus midterm exam" starts at day 6 slot 3, before a session of 2 slot(s) from day 7 could end: no room is left for it. Nothing was added',
    );
    expect(add({ earliest_day: 6, duration: 3, due_before_event: "sat-calculus-midterm" }).content).toMatch(
      /^error: event sat-calculus-midterm .* no room is left for it/,
    );
    expect(add({ earliest_day: 8 }).content).toMatch(/^error: earliest_day 8 is outside the window/);
    expect(JSON.stringify(free)).toBe(before);
    // What can fit is still added: two slots before the midterm on its own day, an earliest day before the due day.
    expect(add({ earliest_day: 6, due_before_event: "sat-calculus-midterm" }).ok).toBe(true);
    expect(add({ earliest_day: 3, due_before_day: 4 }).ok).toBe(true);

    const added = add({ earliest_day: 2 }).state!;
    const id = added.tasks.at(-1)!.id;
    expect(updateTaskTool.run(added, { task_id: id, duration: 13 }).content).toMatch(
      /^error: a session of 13 slot\(s\) is longer than a day \(12 slots\).*Nothing was changed$/,
    );
    expect(updateTaskTool.run(added, { task_id: id, due_before_day: 2 }).content).toMatch(
      /^error: earliest_day 2 is not before its due day 2 .*Nothing was changed$/,
    );
    expect(
      updateTaskTool.run(added, { task_id: id, earliest_day: 7, due_before_event: "sat-calculus-midterm" }).content,
    ).toMatch(/no room is left for it\. Nothing was changed$/);
    expect(updateTaskTool.run(added, { task_id: id, due_before_day: 5 }).ok).toBe(true);
  });

  test("through the graph: a class and a task proposed together on one card; the approved one is stored once, the rejected one is not", async () => {
    const repository = new InMemoryScheduleRepository();
    await repository.seed("user-1", sampleWeek());
    const domain = createScheduleDomain({ repository });
    const { graph } = scriptedGraph({
      domain,
      plan: [planDone(stepsOf("Add the physics class and its first review"), { run_mode: "local_adjust" })],
      execute: [
        json({
          speak: "Adding the class and a review.",
          action: "confirm",
          reason: "asked",
          then: "done",
          goal_check: "added",
          tool_calls: [
            { name: "upsert_task_class", arguments: { name: "Physics", excluded_days_of_week: [7] } },
            { name: "add_task", arguments: { name: "Waves review", class_id: "calculus", duration: 2 } },
          ],
        }),
        json({ speak: "", action: "done", reason: "", goal_check: "the class is added; the review was declined" }),
      ],
      settings: { replanAfterStep: "never" },
    });
    const config = threadConfig("task-writes");
    await graph.invoke({ messages: [new HumanMessage("Add a physics class and a waves review")] }, config);
    const result = await graph.invoke(resume({ decisions: [{ type: "approve" }] }), config);
    const card = asCard(interruptsOf(result)[0]!.value)!;
    expect(card.action_requests.map((request) => request.name)).toEqual(["upsert_task_class", "add_task"]);
    expect(card.action_requests[0]!.description).toMatch(/^Change 1 of 2: Create the class "Physics": never on Sunday/);
    const done = await graph.invoke(resume({ decisions: [{ type: "approve" }, { type: "reject" }] }), config);
    expect(done.phase).toBe("done");
    const stored = await repository.load("user-1");
    expect(stored.categories.at(-1)).toEqual({ id: "physics", name: "Physics", excludedDaysOfWeek: [7] });
    expect(stored.tasks.some((task) => task.name === "Waves review")).toBe(false);
    // Resumed again (a double submit): nothing is applied twice.
    await graph
      .invoke(resume({ decisions: [{ type: "approve" }, { type: "approve" }] }), config)
      .catch(() => undefined);
    expect((await repository.load("user-1")).categories.filter((category) => category.id === "physics")).toHaveLength(
      1,
    );
  });
});
