/**
 * What the arrange step keeps in working memory between its visits: the tasks left pending on purpose, the limits on
 * each task's place from the user's feedback (days, slots, rejected places), the days called off; read from and written
 * to the scratchpad's own lines, and the limits a task's place has (`arrangeLimits`).
 */
import type { AvoidedPlace } from "../../tools/schedule/candidate-writes.js";
import type { TaskLimits } from "../../tools/schedule/arrangement.js";
import type { Call, Decision } from "../decisions.js";

/** Limits on one task's place, from the user's feedback. */
export interface Avoid {
  /** Days it must not use. */
  notDays: number[];
  /** Only these days, when set. */
  days?: number[];
  /** First slot allowed. */
  from?: number;
  /** Last slot allowed. */
  to?: number;
  /** Places the user rejected ("day:start"): never proposed again in the step. */
  notAt: string[];
}

/** What the step keeps in working memory. */
export interface ArrangeMemory {
  /** Tasks left pending on purpose (rejected). */
  skip: string[];
  /** Constraints per task id. */
  avoid: Map<string, Avoid>;
  /** Days the user called off ("Friday is my day off"): no task of the step goes there. */
  daysOff: number[];
  /** Lines of the scratchpad that are not the step's. */
  other: string[];
}

/** Lines the step wrote before it chose through the tools (a placement plan, the tasks left out): read and dropped. */
const OLD_LINE = /^(Placement plan|Left out): /;
const SKIP_LINE = /^Skip tasks: (.*)$/;
const AVOID_LINE = /^Avoid: (.*)$/;
const DAYS_OFF_LINE = /^Days off: (.*)$/;

/** Reads the step's lines of the scratchpad. */
export function readMemory(scratchpad: string): ArrangeMemory {
  const memory: ArrangeMemory = { skip: [], avoid: new Map(), daysOff: [], other: [] };
  for (const line of scratchpad.split("\n")) {
    const skip = SKIP_LINE.exec(line)?.[1];
    const avoid = AVOID_LINE.exec(line)?.[1];
    const daysOff = DAYS_OFF_LINE.exec(line)?.[1];
    if (daysOff !== undefined) {
      memory.daysOff = numbers(daysOff);
    } else if (skip !== undefined) {
      memory.skip = skip
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean);
    } else if (avoid !== undefined) {
      for (const entry of avoid.split(";")) {
        const match =
          /^\s*(\S+)(?: days ([\d,]+))?(?: not ([\d,]+))?(?: from (\d+))?(?: to (\d+))?(?: at ([\d:,]+))?\s*$/.exec(
            entry,
          );
        if (!match) continue;
        const limits: Avoid = { notDays: numbers(match[3]), notAt: (match[6] ?? "").split(",").filter(Boolean) };
        if (match[2]) limits.days = numbers(match[2]);
        if (match[4]) limits.from = Number(match[4]);
        if (match[5]) limits.to = Number(match[5]);
        memory.avoid.set(match[1] ?? "", limits);
      }
    } else if (line.trim() !== "" && !OLD_LINE.test(line)) {
      memory.other.push(line);
    }
  }
  return memory;
}

/**
 * What the arrange step's working memory says the refinement must respect, as `propose_candidates`' `avoid`: a task
 * left pending on purpose, or limited to some days or slots, stays as it is; a day or a place the user rejected for
 * a task is never proposed for it.
 */
export function arrangeLimits(scratchpad: string): AvoidedPlace[] {
  const memory = readMemory(scratchpad);
  const limits: AvoidedPlace[] = memory.skip.map((id) => ({ task_id: id }));
  for (const [id, avoid] of memory.avoid) {
    if (avoid.days || avoid.from !== undefined || avoid.to !== undefined) limits.push({ task_id: id });
    for (const day of avoid.notDays) limits.push({ task_id: id, day });
    for (const place of avoid.notAt) {
      const [day, start] = place.split(":").map(Number);
      if (day && start) limits.push({ task_id: id, day, slot_start: start });
    }
  }
  return limits;
}

/** The user's limits as `propose_arrangement` takes them. */
export function taskLimitsOf(memory: ArrangeMemory): TaskLimits[] {
  return [...memory.avoid].map(([id, avoid]) => {
    const limits: TaskLimits = { task_id: id };
    if (avoid.days?.length) limits.days = avoid.days;
    if (avoid.notDays.length) limits.not_days = avoid.notDays;
    if (avoid.from !== undefined) limits.from = avoid.from;
    if (avoid.to !== undefined && Number.isFinite(avoid.to)) limits.to = avoid.to;
    const notAt = avoid.notAt.map((place) => place.split(":").map(Number)).filter(([day, start]) => day && start);
    if (notAt.length) limits.not_at = notAt.map(([day, start]) => ({ day: day!, slot_start: start! }));
    return limits;
  });
}

function numbers(text: string | undefined): number[] {
  return (text ?? "").split(",").filter(Boolean).map(Number);
}

/** The scratchpad with the step's lines written back. */
function renderMemory(memory: ArrangeMemory): string {
  const lines = [...memory.other];
  if (memory.skip.length > 0) lines.push(`Skip tasks: ${memory.skip.join(", ")}`);
  if (memory.daysOff.length > 0) lines.push(`Days off: ${memory.daysOff.join(",")}`);
  if (memory.avoid.size > 0) {
    const entries = [...memory.avoid].map(([id, limits]) =>
      [
        id,
        limits.days ? `days ${limits.days.join(",")}` : "",
        limits.notDays.length ? `not ${limits.notDays.join(",")}` : "",
        limits.from ? `from ${limits.from}` : "",
        limits.to ? `to ${limits.to}` : "",
        limits.notAt.length ? `at ${limits.notAt.join(",")}` : "",
      ]
        .filter(Boolean)
        .join(" "),
    );
    lines.push(`Avoid: ${entries.join("; ")}`);
  }
  return lines.join("\n");
}

/** Writes the scratchpad (a memory tool: runs at once, no card). */
export function remember(memory: ArrangeMemory, speak: string, reason: string): Decision {
  const call: Call = { name: "update_working_memory", arguments: { content: renderMemory(memory) } };
  return { speak, action: "continue", reason, tool_call: call };
}
