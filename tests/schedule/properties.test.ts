import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyScheduleChanges,
  checkScheduleInvariants,
  createScheduleDomain,
  diffScheduleState,
  generateSchedule,
  InMemoryScheduleRepository,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { parseFreeRuns, parsePendingTasks } from "../../offline/schedule/result-parsing.js";
import { MemoryExecutionLog } from "../../tools/memory-execution-log.js";
import { commandArbitrary, resolveCommand, scheduleArbitrary } from "./arbitraries.js";
import { runTool, taskById } from "./support.js";

/** An oracle written independently of the tools: every problem with overlaps and embed relations. */
function independentProblems(state: ScheduleState): string[] {
  const problems: string[] = [];
  const taken = new Map<string, string>();
  const embeddedTaken = new Map<string, string>();
  const byId = new Map(state.tasks.map((task) => [task.id, task]));
  for (const task of state.tasks) {
    const isEmbedded = task.source === "task_item" && task.embeddedIn !== undefined;
    for (const range of task.slots ?? []) {
      for (let slot = range.start; slot <= range.end; slot += 1) {
        const key = `${range.day}:${slot}`;
        const layer = isEmbedded ? embeddedTaken : taken;
        const other = layer.get(key);
        if (other !== undefined) problems.push(`${other} and ${task.id} share ${key}`);
        layer.set(key, task.id);
      }
    }
    if (task.source === "task_item" && task.embeddedIn !== undefined) {
      const host = byId.get(task.embeddedIn);
      if (host === undefined || host.source !== "event" || !host.embeds.includes(task.id))
        problems.push(`${task.id} dangles to ${task.embeddedIn}`);
      for (const range of task.slots ?? []) {
        for (let slot = range.start; slot <= range.end; slot += 1) {
          if (taken.get(`${range.day}:${slot}`) !== task.embeddedIn && host !== undefined) {
            const hostCovers = (host.slots ?? []).some(
              (hostRange) => hostRange.day === range.day && hostRange.start <= slot && slot <= hostRange.end,
            );
            if (!hostCovers) problems.push(`${task.id} sticks out of ${task.embeddedIn}`);
          }
        }
      }
    }
    if (task.source === "event") {
      for (const guestId of task.embeds) {
        const guest = byId.get(guestId);
        if (guest === undefined || guest.source !== "task_item" || guest.embeddedIn !== task.id)
          problems.push(`${task.id} lists dangling guest ${guestId}`);
      }
    }
  }
  return problems;
}

/** The fields no tool may change, per task, in list order. */
function fixedFields(state: ScheduleState): unknown[] {
  return state.tasks.map((task) =>
    task.source === "event"
      ? [task.id, task.name, task.source, task.canEmbed, task.locked]
      : [task.id, task.name, task.source, task.duration, task.categoryId],
  );
}

describe("schedule properties", () => {
  it("the generator is deterministic and always gives a valid schedule", () => {
    fc.assert(
      fc.property(
        fc.record({
          days: fc.integer({ min: 0, max: 30 }),
          slotsPerDay: fc.integer({ min: 1, max: 14 }),
          taskCount: fc.integer({ min: 0, max: 300 }),
          seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        }),
        (options) => {
          const state = generateSchedule(options);
          expect(checkScheduleInvariants(state)).toEqual([]);
          expect(independentProblems(state)).toEqual([]);
          expect(state.tasks).toHaveLength(options.taskCount);
          expect(JSON.stringify(generateSchedule(options))).toBe(JSON.stringify(state));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("random tool-call sequences keep every invariant; failed calls change nothing; the input is never mutated", () => {
    let successfulWrites = 0;
    let failedWrites = 0;
    let movedLocked = 0;
    fc.assert(
      fc.property(
        scheduleArbitrary,
        fc.array(commandArbitrary, { minLength: 5, maxLength: 30, size: "max" }),
        (initial, commands) => {
          const lockedSlots = new Map(
            initial.tasks
              .filter((task) => task.source === "event" && task.locked)
              .map((task) => [task.id, JSON.stringify(task.slots)]),
          );
          let state = initial;
          for (const command of commands) {
            const { name, args } = resolveCommand(state, command);
            // runTool checks purity (frozen input, JSON unchanged) and the ok/state/one-line-error contract.
            const result = runTool(name, state, args);
            if (result.state === undefined) {
              if (["place", "move", "swap", "batch_move", "unplace"].includes(name)) failedWrites += 1;
              continue;
            }
            successfulWrites += 1;
            const next = result.state;
            expect(checkScheduleInvariants(next)).toEqual([]);
            expect(independentProblems(next)).toEqual([]);
            expect(fixedFields(next)).toEqual(fixedFields(state));
            expect(next.window).toEqual(state.window);
            // A locked event moves only by a move of its own (its time really changed); nothing else moves it.
            if (name === "move" && lockedSlots.has(String(args.task_id))) {
              movedLocked += 1;
              lockedSlots.set(String(args.task_id), JSON.stringify(taskById(next, String(args.task_id)).slots));
            }
            for (const [id, slots] of lockedSlots) expect(JSON.stringify(taskById(next, id).slots)).toBe(slots);
            if (name === "unplace") {
              const taskId = String(args.task_id);
              expect(taskById(next, taskId)).not.toHaveProperty("embeddedIn");
              expect(taskById(next, taskId)).not.toHaveProperty("slots");
              expect(next.tasks.some((task) => task.source === "event" && task.embeds.includes(taskId))).toBe(false);
            }
            // The diff replays the step exactly.
            expect(JSON.stringify(applyScheduleChanges(state, diffScheduleState(state, next)))).toBe(
              JSON.stringify(next),
            );
            state = next;
          }
        },
      ),
      { numRuns: 300 },
    );
    // The sequences must exercise both outcomes, or the property proves little.
    expect(successfulWrites).toBeGreaterThan(500);
    expect(failedWrites).toBeGreaterThan(500);
    expect(movedLocked).toBeGreaterThan(0);
  });

  it("every run find_free reports can take a pending task of that length", () => {
    fc.assert(
      fc.property(scheduleArbitrary, (state) => {
        const pendingTasks = parsePendingTasks(runTool("list_tasks", state, { status: "pending", limit: 100 }).content);
        const runs = parseFreeRuns(runTool("find_free", state, { limit: 100 }).content);
        for (const task of pendingTasks.slice(0, 5)) {
          for (const run of runs.filter((candidate) => candidate.length >= task.duration)) {
            const result = runTool("place", state, { task_id: task.id, day: run.day, slot_start: run.start });
            expect(result.content).toBe(
              `placed task ${task.id} on day ${run.day} slots ${run.start}-${run.start + task.duration - 1}${run.hostId === undefined ? "" : ` embedded in host ${run.hostId}`}`,
            );
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it("in-memory round trip: seed → random writes persisted as diffs → load equals the modified state; each write, claimed in the log, applies once", async () => {
    await fc.assert(
      fc.asyncProperty(
        scheduleArbitrary,
        fc.array(commandArbitrary, { minLength: 3, maxLength: 20, size: "max" }),
        async (initial, commands) => {
          const repository = new InMemoryScheduleRepository();
          const domain = createScheduleDomain({ repository });
          const log = new MemoryExecutionLog();
          await repository.seed("user-1", initial);
          let expected = await domain.load("user-1");
          expect(JSON.stringify(expected)).toBe(JSON.stringify(initial));
          for (const [step, command] of commands.entries()) {
            const { name, args } = resolveCommand(expected, command);
            const result = runTool(name, expected, args);
            if (result.state === undefined) continue;
            // The runner's claim (tools/runner.ts): the write applies once; a replay of the same tool call applies nothing.
            const at = new Date();
            const entry = {
              threadId: "t",
              userId: "user-1",
              stepId: null,
              toolCallId: `call-${step}`,
              tool: name,
              kind: "write" as const,
              arguments: args,
              result: result.content,
              ok: true,
              applied: true,
              startedAt: at,
              finishedAt: at,
            };
            const persist = async () =>
              void (await domain.persist("user-1", expected, result.state!, { applyId: `call-${step}` }));
            expect(await log.applyOnce(entry, persist)).toBe(true);
            expect(await log.applyOnce(entry, persist)).toBe(false);
            expected = result.state;
            expect(JSON.stringify(await domain.load("user-1"))).toBe(JSON.stringify(expected));
          }
          expect(await domain.load("user-2")).toEqual(await new InMemoryScheduleRepository().load("user-2"));
        },
      ),
      { numRuns: 100 },
    );
  });
});
