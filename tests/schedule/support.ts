/**
 * Test helpers for the schedule domain: run a tool the way the graph does
 * (arguments parsed by its schema) while checking purity, and build small
 * hand-made schedules.
 */
import { expect } from "vitest";
import type { DomainTool, ToolRun } from "../../tools/domain.js";
import {
  checkScheduleInvariants,
  consecutiveDays,
  scheduleTools,
  type EventTask,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";

/** The tool with this name (throws when missing). */
export function toolNamed(name: string): DomainTool<ScheduleState> {
  const tool = scheduleTools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

/** Freezes an object graph, so any mutation throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Runs a tool with schema-parsed arguments on a frozen copy of `state`, and checks the contract: the input is
 * unchanged, a failure has no state and one `error:` line, a success of a write returns a sound state.
 */
export function runTool(
  name: string,
  state: ScheduleState,
  args: Record<string, unknown> = {},
): ToolRun<ScheduleState> {
  const tool = toolNamed(name);
  const input = deepFreeze(structuredClone(state));
  const before = JSON.stringify(input);
  const result = tool.run(input, tool.schema.parse(args));
  expect(JSON.stringify(input)).toBe(before);
  if (!result.ok) {
    expect(result.state).toBeUndefined();
    expect(result.content).toMatch(/^error: [^\n]+$/);
  } else if (tool.kind === "write") {
    expect(result.state).toBeDefined();
    expect(checkScheduleInvariants(result.state as ScheduleState)).toEqual([]);
  } else {
    expect(result.state).toBeUndefined();
  }
  return result;
}

/** Runs a write that must succeed and returns the next state. */
export function write(name: string, state: ScheduleState, args: Record<string, unknown>): ScheduleState {
  const result = runTool(name, state, args);
  if (!result.ok || result.state === undefined) throw new Error(`${name} failed: ${result.content}`);
  return result.state;
}

/** An event on one range. */
export function event(
  id: string,
  day: number,
  start: number,
  end: number,
  flags: { canEmbed?: boolean; locked?: boolean } = {},
): EventTask {
  return {
    id,
    name: `Event ${id}`,
    source: "event",
    slots: [{ day, start, end }],
    canEmbed: flags.canEmbed ?? false,
    locked: flags.locked ?? false,
    embeds: [],
  };
}

/** A pending task item. */
export function pending(id: string, duration: number, categoryId = "math"): TaskItem {
  return { id, name: `Task ${id}`, source: "task_item", duration, categoryId, status: "pending" };
}

/**
 * A small 3-day × 8-slot schedule:
 * day 1: lecture 1-2, hall 4-7 (can embed); day 2: exam 3-4 (locked), lab 5-6; day 3: empty.
 * Pending: a (2), b (1), c (2, english), d (3).
 */
export function smallSchedule(): ScheduleState {
  return {
    window: { totalDays: 3, slotsPerDay: 8, days: consecutiveDays(3) },
    categories: [
      { id: "math", name: "Math" },
      { id: "english", name: "English" },
    ],
    tasks: [
      event("lecture", 1, 1, 2),
      event("hall", 1, 4, 7, { canEmbed: true }),
      event("exam", 2, 3, 4, { locked: true }),
      event("lab", 2, 5, 6),
      pending("a", 2),
      pending("b", 1),
      pending("c", 2, "english"),
      pending("d", 3),
    ],
  };
}

/** The task with this id in a state (throws when missing). */
export function taskById(state: ScheduleState, id: string) {
  const task = state.tasks.find((candidate) => candidate.id === id);
  if (task === undefined) throw new Error(`no task ${id}`);
  return task;
}

/** An applied write as a task report holds it (its text left unread): what the offline policy says it did is read from `data`. */
export function appliedRound(name: string, args: Record<string, unknown>, data: unknown) {
  return {
    name,
    arguments: args,
    speak: "",
    result: "(the text is not read)",
    summarised: false,
    outcome: "applied",
    data,
  } as const;
}
