/**
 * fast-check arbitraries for the schedule domain: random valid schedules (via
 * the deterministic generator) and random tool-call sequences whose ids and
 * positions are resolved against the state at the time of the call.
 */
import fc from "fast-check";
import { generateSchedule, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";

/** A random valid schedule of 1-7 days, 3-12 slots and 0-40 tasks. */
export const scheduleArbitrary: fc.Arbitrary<ScheduleState> = fc
  .record({
    days: fc.integer({ min: 1, max: 7 }),
    slotsPerDay: fc.integer({ min: 3, max: 12 }),
    taskCount: fc.integer({ min: 0, max: 40 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  })
  .map((options) => generateSchedule(options));

/** Which task a command refers to: an index into a subset of the tasks (or past its end, for an unknown id). */
export interface TaskPick {
  /** Any number; taken modulo the subset size plus one (the extra value is an unknown id). */
  index: number;
  /** Pick among pending task items (place), placed tasks (move / swap / unplace) or all tasks. */
  among: "pending" | "placed" | "all";
}

/** A target on the grid: usually inside the window, sometimes just outside it. */
export interface Target {
  /** Any number; inside the window it is taken modulo the days. */
  day: number;
  /** Any number; inside the window it is taken modulo the slots. */
  slot: number;
  /** True for a target around the window's edges (day 0, a day past the end, slot 0, a slot past the end). */
  outside: boolean;
}

/** A tool call before its ids are resolved. */
export type Command =
  | { tool: "place"; task: TaskPick; target: Target }
  | { tool: "move"; task: TaskPick; target: Target }
  | { tool: "swap"; first: TaskPick; second: TaskPick }
  | { tool: "batch_move"; moves: Array<{ task: TaskPick; target: Target }> }
  | { tool: "unplace"; task: TaskPick }
  | { tool: "find_free"; minLength: number }
  | { tool: "get_overview" }
  | { tool: "list_tasks"; status: "pending" | "placed" | undefined }
  | { tool: "query_range"; day: number }
  | { tool: "get_task_info"; task: TaskPick };

const pickArbitrary = (among: TaskPick["among"] | undefined): fc.Arbitrary<TaskPick> =>
  fc.record({
    index: fc.nat({ max: 1_000 }),
    // Without a fixed subset, mostly placed tasks (the ones writes other than place can act on).
    among:
      among === undefined
        ? fc.constantFrom<TaskPick["among"]>(
            "placed",
            "placed",
            "placed",
            "placed",
            "placed",
            "placed",
            "pending",
            "all",
          )
        : fc.constant(among),
  });

const targetArbitrary: fc.Arbitrary<Target> = fc.record({
  day: fc.nat({ max: 1_000 }),
  slot: fc.nat({ max: 1_000 }),
  outside: fc
    .boolean()
    .chain((flip) => (flip ? fc.boolean() : fc.constant(false)))
    .chain((flip) => (flip ? fc.boolean() : fc.constant(false))),
});

/** The day and first slot a target stands for in `state`. */
export function resolveTarget(state: ScheduleState, target: Target): { day: number; slot_start: number } {
  const { totalDays, slotsPerDay } = state.window;
  if (!target.outside) return { day: 1 + (target.day % totalDays), slot_start: 1 + (target.slot % slotsPerDay) };
  // Around the edges: day 0 or a day past the end, or slot 0 or a slot past the end.
  const edgeDays = [0, totalDays + 1, 1 + (target.day % totalDays)];
  const edgeSlots = [0, slotsPerDay + 1, slotsPerDay];
  return { day: edgeDays[target.day % 3] ?? 0, slot_start: edgeSlots[target.slot % 3] ?? 0 };
}

/** A random tool call, writes more often than reads. */
export const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      tool: fc.constant("place" as const),
      task: pickArbitrary("pending"),
      target: targetArbitrary,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      tool: fc.constant("move" as const),
      task: pickArbitrary(undefined),
      target: targetArbitrary,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      tool: fc.constant("swap" as const),
      first: pickArbitrary(undefined),
      second: pickArbitrary(undefined),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      tool: fc.constant("batch_move" as const),
      moves: fc.array(fc.record({ task: pickArbitrary(undefined), target: targetArbitrary }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ tool: fc.constant("unplace" as const), task: pickArbitrary(undefined) }) },
  {
    weight: 1,
    arbitrary: fc.record({ tool: fc.constant("find_free" as const), minLength: fc.integer({ min: 1, max: 4 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ tool: "get_overview" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      tool: fc.constant("list_tasks" as const),
      status: fc.constantFrom("pending" as const, "placed" as const, undefined),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ tool: fc.constant("query_range" as const), day: fc.integer({ min: 0, max: 8 }) }),
  },
  { weight: 1, arbitrary: fc.record({ tool: fc.constant("get_task_info" as const), task: pickArbitrary("all") }) },
);

/** The id a pick stands for in `state` ("ghost-task" for the extra, unknown one). */
export function resolvePick(state: ScheduleState, pick: TaskPick): string {
  const subset = state.tasks.filter((task) => {
    if (pick.among === "pending") return task.source === "task_item" && task.status === "pending";
    if (pick.among === "placed") return (task.slots ?? []).length > 0;
    return true;
  });
  return subset[pick.index % (subset.length + 1)]?.id ?? "ghost-task";
}

/** The tool name and raw arguments of a command in `state`. */
export function resolveCommand(
  state: ScheduleState,
  command: Command,
): { name: string; args: Record<string, unknown> } {
  switch (command.tool) {
    case "place":
    case "move":
      return {
        name: command.tool,
        args: { task_id: resolvePick(state, command.task), ...resolveTarget(state, command.target) },
      };
    case "swap":
      return {
        name: "swap",
        args: { first_task_id: resolvePick(state, command.first), second_task_id: resolvePick(state, command.second) },
      };
    case "batch_move":
      return {
        name: "batch_move",
        args: {
          moves: command.moves.map((move) => ({
            task_id: resolvePick(state, move.task),
            ...resolveTarget(state, move.target),
          })),
        },
      };
    case "unplace":
      return { name: "unplace", args: { task_id: resolvePick(state, command.task) } };
    case "find_free":
      return { name: "find_free", args: { min_length: command.minLength } };
    case "get_overview":
      return { name: "get_overview", args: {} };
    case "list_tasks":
      return { name: "list_tasks", args: command.status === undefined ? {} : { status: command.status } };
    case "query_range":
      return { name: "query_range", args: { day: command.day } };
    case "get_task_info":
      return { name: "get_task_info", args: { task_id: resolvePick(state, command.task) } };
  }
}

/** Bounds (inclusive) of a ruled week's days, slots per day and tasks. */
export interface RuledWeekSizes {
  days: [number, number];
  slotsPerDay: [number, number];
  taskCount: [number, number];
}

/**
 * A generated week with rules drawn for its classes (excluded weekdays, a blocked day, a buffer) and tasks (a deadline
 * day or event, an earliest day), every task item pending (a sound start). With `soft`, classes also draw a strategy
 * and preferred parts.
 */
export function ruledWeekArbitrary(sizes: RuledWeekSizes, { soft = false } = {}): fc.Arbitrary<ScheduleState> {
  const between = ([min, max]: [number, number]) => fc.integer({ min, max });
  return fc
    .record({
      days: between(sizes.days),
      slotsPerDay: between(sizes.slotsPerDay),
      taskCount: between(sizes.taskCount),
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    })
    .map((options) => generateSchedule(options))
    .chain((week) => {
      const days = week.window.totalDays;
      const hard = {
        excludedDaysOfWeek: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 2 }),
        blockedDays: fc.uniqueArray(fc.integer({ min: 1, max: days }), { maxLength: 1 }),
        bufferSlots: fc.integer({ min: 0, max: 2 }),
      };
      const parts = fc.constantFrom("morning" as const, "afternoon" as const, "evening" as const);
      const classRules = soft
        ? fc.record(
            {
              ...hard,
              strategy: fc.constantFrom("steady" as const, "compact" as const),
              preferredParts: fc.uniqueArray(parts, { minLength: 1, maxLength: 2 }),
            },
            { requiredKeys: [] },
          )
        : fc.record(hard, { requiredKeys: [] });
      const events = week.tasks
        .filter((task) => task.source === "event" && task.slots.length > 0)
        .map((task) => task.id);
      const due =
        events.length > 0
          ? fc.oneof(
              fc.record({ day: fc.integer({ min: 1, max: days + 1 }) }),
              fc.record({ eventId: fc.constantFrom(...events) }),
            )
          : fc.record({ day: fc.integer({ min: 1, max: days + 1 }) });
      const taskRules = fc.record(
        { dueBefore: due, earliestDay: fc.integer({ min: 1, max: days }) },
        { requiredKeys: [] },
      );
      return fc
        .tuple(
          fc.array(classRules, { minLength: week.categories.length, maxLength: week.categories.length }),
          fc.array(taskRules, { minLength: week.tasks.length, maxLength: week.tasks.length }),
        )
        .map(([classes, tasks]) => ({
          ...week,
          categories: week.categories.map((category, index) => ({ ...category, ...classes[index] })),
          tasks: week.tasks.map((task, index) => {
            if (task.source !== "task_item") return { ...task, embeds: [] };
            const item: TaskItem = {
              id: task.id,
              name: task.name,
              source: "task_item",
              duration: task.duration,
              categoryId: task.categoryId,
              status: "pending",
              ...tasks[index],
            };
            return item;
          }),
        }));
    });
}
