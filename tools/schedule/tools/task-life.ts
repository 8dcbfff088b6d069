/**
 * A task item's life (`TaskStatus`): `mark_done` ("I did it"), `mark_missed` ("I missed it"), `skip` ("skip it this
 * week") and `reopen` (back to pending, to reschedule). Writes like `place`: each waits for its card, and is applied
 * exactly once. A done task keeps its place (unless it was done ahead of it: then the place is freed); a missed or
 * skipped one leaves it, with `was` saying where it was.
 */
import { z } from "zod";
import type { DomainTool, ToolRun } from "../../domain.js";
import { pastPlaceOf } from "../calendar.js";
import { buildTaskItem } from "../canonical-form.js";
import { failure, formatRanges, quoteName } from "../format.js";
import { buildOccupancyIndex } from "../occupancy-index.js";
import { commitUnplace } from "../placement.js";
import { isSettled, type PastPlace, type ScheduleState, type TaskItem, type TaskStatus } from "../state.js";
import { taskIdField } from "./argument-fields.js";
import { findTask } from "./task-checks.js";
import { clockOfState, hasStarted } from "../window-clock.js";
import { saySummary } from "../summary-phrases.js";

/** Arguments of mark_done, mark_missed and skip. */
export const markArgumentsSchema = z.object({
  task_id: taskIdField("Id of a task item (from list_tasks)."),
  at: z
    .string()
    .datetime({ offset: true })
    .optional()
    .describe("When the user did it or missed it, an ISO date-time, if not now; kept as when it was marked."),
});

/** Parsed arguments of mark_done, mark_missed and skip. */
export type MarkArguments = z.infer<typeof markArgumentsSchema>;

/** Arguments of reopen. */
export const reopenArgumentsSchema = z.object({
  task_id: taskIdField("Id of a done, missed or skipped task item to make pending again."),
});

/** What a life write did, as data. */
export interface TaskLifeData {
  /** Task id. */
  id: string;
  /** Its status before. */
  from: TaskStatus;
  /** Its status now. */
  to: TaskStatus;
  /** Where it was or is, when it had a place. */
  was?: PastPlace;
  /** Done ahead of its place: the place is free again. */
  freed?: true;
}

/** Which statuses each mark may start from. */
const MARKS: Record<"done" | "missed" | "skipped", readonly TaskStatus[]> = {
  done: ["pending", "placed", "missed", "skipped"],
  missed: ["placed"],
  skipped: ["pending", "placed", "missed"],
};

/** The calendar day and slots of a task item's place (or where it was), or undefined for one without either. */
function placeOf(state: ScheduleState, task: TaskItem): PastPlace | undefined {
  const range = task.slots?.[0];
  return range === undefined ? task.was : pastPlaceOf(state.window, range);
}

/** True for a placed task item the run's clock has not reached yet: done now, it was done ahead of its place; it cannot be missed yet. */
export function stillAhead(state: Pick<ScheduleState, "window" | "now">, task: TaskItem): boolean {
  const range = task.status === "placed" ? task.slots?.[0] : undefined;
  const clock = clockOfState(state);
  return range !== undefined && clock !== undefined && !hasStarted(range.day, range.start, clock);
}

/** A mark's text: `marked task <id> done (it was placed)`, and `; its place is free again` when done ahead of it. */
export function markedText(data: TaskLifeData): string {
  if (data.to === "pending") return saySummary("en", "reopened", { id: data.id, status: data.from });
  return saySummary("en", data.freed ? "markedFreed" : "marked", { id: data.id, mark: data.to, status: data.from });
}

/** Runs a mark on `state`: the task item settled as `to`, or why it cannot be. */
function mark(state: ScheduleState, args: MarkArguments, to: "done" | "missed" | "skipped"): ToolRun<ScheduleState> {
  const index = buildOccupancyIndex(state);
  const found = findTask(index, args.task_id);
  if (!found.ok) return failure(found.problem);
  const { task, position } = found.value;
  if (task.source === "event")
    return failure(`${task.id} ${quoteName(task.name)} is a timetable event; only task items are marked`);
  if (!MARKS[to].includes(task.status)) {
    const where = task.slots ? ` on ${formatRanges(task.slots, state.window)}` : "";
    return failure(
      `task ${task.id} is ${task.status}${where}, so it cannot be marked ${to}` +
        (to === "missed" ? "; only a placed task can be missed" : ""),
    );
  }
  // A review is missed once its time has come: one the run's clock has not reached yet is still ahead.
  const ahead = stillAhead({ window: state.window, now: args.at ?? state.now }, task);
  if (to === "missed" && ahead)
    return failure(
      saySummary("en", "notMissedYet", {
        subject: `task ${task.id}`,
        place: formatRanges(task.slots ?? [], state.window),
      }),
    );
  const was = placeOf(state, task);
  // A done task keeps its place (history); a missed or skipped one leaves it, and its host, free for others — and so
  // does one done ahead of its place (it was not done there: the place is free again, kept in `data` for an undo).
  const early = to === "done" && ahead;
  const base = (to === "done" && !early) || task.status !== "placed" ? state : commitUnplace(state, index, position);
  const current = base.tasks[position] as TaskItem;
  const next: TaskItem = { ...current, status: to };
  delete next.markedAt;
  delete next.was;
  // When it was marked: as the user said, else the run's clock (`ScheduleState.now`, folded in by the domain).
  const at = args.at ?? state.now;
  if (at !== undefined) next.markedAt = at;
  if (to !== "done" && was !== undefined) next.was = was;
  if (to === "done" && task.slots === undefined && was !== undefined) next.was = was;
  const tasks = base.tasks.slice();
  tasks[position] = buildTaskItem(next);
  const data: TaskLifeData = {
    id: task.id,
    from: task.status,
    to,
    ...(was ? { was } : {}),
    ...(early ? { freed: true as const } : {}),
  };
  return { ok: true, content: markedText(data), state: { ...base, tasks }, data };
}

/** A mark tool: `to` is the status it settles a task item as. */
function markTool(name: string, to: "done" | "missed" | "skipped", description: string) {
  const tool: DomainTool<ScheduleState, MarkArguments> = {
    name,
    description,
    schema: markArgumentsSchema,
    kind: "write",
    run: (state, args) => mark(state, args, to),
  };
  return tool;
}

/** "I did it": a task item is done; a placed one keeps its place as history, unless its place is still ahead. */
export const markDoneTool = markTool(
  "mark_done",
  "done",
  "Marks a task item done (the user did it): a placed one keeps its place as history, and nothing moves it again; " +
    "one done ahead of its place frees that place.",
);

/** "I missed it": a placed task item is missed; its place is freed and kept as `was`. */
export const markMissedTool = markTool(
  "mark_missed",
  "missed",
  "Marks a placed task item missed (the user did not do it): it leaves its place (kept on record). Reschedule it " +
    "with place (propose_candidates lists the best place), unless the user says not to.",
);

/** "Skip it this week": a task item is skipped; a placed one leaves its place. */
export const skipTool = markTool(
  "skip",
  "skipped",
  "Skips a pending or placed task item this week (the user does not want it done): it leaves its place and " +
    "nothing places it again until reopen.",
);

/** Back to pending: a done, missed or skipped task item is to place again. */
export const reopenTool: DomainTool<ScheduleState, z.infer<typeof reopenArgumentsSchema>> = {
  name: "reopen",
  description:
    "Makes a done, missed or skipped task item pending again (to reschedule it, or to take back a mark); " +
    "a done one leaves its place.",
  schema: reopenArgumentsSchema,
  kind: "write",
  run(state, args) {
    const index = buildOccupancyIndex(state);
    const found = findTask(index, args.task_id);
    if (!found.ok) return failure(found.problem);
    const { task, position } = found.value;
    if (task.source === "event" || !isSettled(task.status))
      return failure(
        `${task.id} ${quoteName(task.name)} is ${task.source === "event" ? "a timetable event" : task.status}; ` +
          "only a done, missed or skipped task item can be reopened",
      );
    const base = task.slots === undefined ? state : commitUnplace(state, index, position);
    const tasks = base.tasks.slice();
    tasks[position] = buildTaskItem({ ...(base.tasks[position] as TaskItem), status: "pending" });
    const data: TaskLifeData = { id: task.id, from: task.status, to: "pending" };
    return { ok: true, content: markedText(data), state: { ...base, tasks }, data };
  },
};
