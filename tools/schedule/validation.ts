/**
 * Whole-schedule validation: the zod structure check plus the invariants the
 * tools keep (a sound calendar: `calendar.ts` `calendarProblems`; everything inside the window, no two tasks without a host on the
 * same slot, embed relations consistent both ways). Runs in O(tasks + cells).
 */
import { calendarProblems } from "./calendar.js";
import { canonicalScheduleState, sortIds } from "./canonical-form.js";
import { InvalidScheduleError } from "./errors.js";
import { seriesProblems } from "./event-series.js";
import { rangeContains, rangeLength, windowProblem } from "./slot-range.js";
import { scheduleStateSchema, type EventTask, type ScheduleState } from "./state.js";

/** Every broken invariant of a structurally valid schedule, one line each; empty when the schedule is sound (`embeds` may be in any order). */
export function checkScheduleInvariants(state: ScheduleState): string[] {
  const problems: string[] = [];
  const { window } = state;
  if (window.days.length !== window.totalDays) {
    problems.push(`window.totalDays is ${window.totalDays} but ${window.days.length} days are mapped`);
  }
  window.days.forEach((day, position) => {
    if (day.dayIndex !== position + 1)
      problems.push(`window.days[${position}] has dayIndex ${day.dayIndex}, expected ${position + 1}`);
  });
  problems.push(...calendarProblems(window));

  const categoryIds = new Set<string>();
  for (const category of state.categories) {
    if (categoryIds.has(category.id)) problems.push(`category id ${category.id} is used twice`);
    categoryIds.add(category.id);
  }

  const events = new Map<string, EventTask>();
  const taskIds = new Set<string>();
  for (const task of state.tasks) {
    if (taskIds.has(task.id)) problems.push(`task id ${task.id} is used twice`);
    taskIds.add(task.id);
    if (task.source === "event") events.set(task.id, task);
    if (task.source === "event" && task.series !== undefined)
      problems.push(...seriesProblems(task.series).map((problem) => `event ${task.id}'s series: ${problem}`));
  }

  const cells = window.totalDays * window.slotsPerDay;
  const primary: (string | undefined)[] = new Array<string | undefined>(cells);
  const embedded: (string | undefined)[] = new Array<string | undefined>(cells);
  const embedsByHost = new Map<string, string[]>();

  for (const task of state.tasks) {
    const slots = task.slots ?? [];
    let inWindow = true;
    for (const range of slots) {
      const problem = windowProblem(window, range);
      if (problem !== undefined) {
        problems.push(`task ${task.id}: ${problem}`);
        inWindow = false;
      }
    }
    if (task.source === "task_item") {
      if (!categoryIds.has(task.categoryId))
        problems.push(`task ${task.id} refers to unknown category ${task.categoryId}`);
      const due = task.dueBefore;
      if (due && "eventId" in due && !state.tasks.some((other) => other.id === due.eventId && other.source === "event"))
        problems.push(`task ${task.id} is due before ${due.eventId}, which is no event`);
      if (
        task.status !== "placed" &&
        task.status !== "done" &&
        (task.slots !== undefined || task.embeddedIn !== undefined)
      ) {
        problems.push(`${task.status} task ${task.id} must have no slots and no host`);
      }
      if (task.status === "placed" || (task.status === "done" && task.slots !== undefined)) {
        const only = slots[0];
        if (slots.length !== 1 || only === undefined) {
          problems.push(`${task.status} task ${task.id} must occupy exactly one slot range`);
        } else if (rangeLength(only) !== task.duration) {
          problems.push(
            `${task.status} task ${task.id} occupies ${rangeLength(only)} slots but its duration is ${task.duration}`,
          );
        }
      }
      if (task.embeddedIn !== undefined) {
        const host = events.get(task.embeddedIn);
        const only = slots[0];
        if (host === undefined) problems.push(`task ${task.id} is embedded in unknown event ${task.embeddedIn}`);
        else if (!host.canEmbed)
          problems.push(`task ${task.id} is embedded in event ${host.id}, which does not allow embedding`);
        else if (only === undefined || !host.slots.some((hostRange) => rangeContains(hostRange, only))) {
          problems.push(`task ${task.id} is embedded in event ${host.id} but does not lie inside it`);
        }
        const list = embedsByHost.get(task.embeddedIn) ?? [];
        list.push(task.id);
        embedsByHost.set(task.embeddedIn, list);
      }
    }
    if (!inWindow) continue;
    const layer = task.source === "task_item" && task.embeddedIn !== undefined ? embedded : primary;
    for (const range of slots) {
      for (let slot = range.start; slot <= range.end; slot += 1) {
        const cell = (range.day - 1) * window.slotsPerDay + (slot - 1);
        const occupant = layer[cell];
        if (occupant !== undefined)
          problems.push(`tasks ${occupant} and ${task.id} overlap on day ${range.day} slot ${slot}`);
        else layer[cell] = task.id;
      }
    }
  }

  for (const event of events.values()) {
    const expected = sortIds(embedsByHost.get(event.id) ?? []);
    if (event.embeds.length > 0 && !event.canEmbed)
      problems.push(`event ${event.id} embeds tasks but does not allow embedding`);
    // Order-insensitive: the canonical form sorts `embeds`, validation only needs the same guests.
    if (expected.join(",") !== sortIds(event.embeds).join(",")) {
      problems.push(
        `event ${event.id} lists embeds [${event.embeds.join(",")}] but the embedded tasks are [${expected.join(",")}]`,
      );
    }
  }
  return problems;
}

/** Validates unknown data as a schedule (structure and invariants) and returns it in canonical form; throws `InvalidScheduleError`. */
export function parseScheduleState(value: unknown): ScheduleState {
  const parsed = scheduleStateSchema.safeParse(value);
  if (!parsed.success) {
    throw new InvalidScheduleError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`),
    );
  }
  const problems = checkScheduleInvariants(parsed.data);
  if (problems.length > 0) throw new InvalidScheduleError(problems);
  return canonicalScheduleState(parsed.data);
}
