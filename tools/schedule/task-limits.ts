/**
 * What the user decided in a task, as the refinement's listing takes it (`Refinement.list.limits`, issue 46): the
 * refinement after an arrangement never undoes a decision the user made on a card.
 *
 * - a place the user edited is pinned: the task stays where they put it;
 * - a rejected place is never proposed again for its task, nor a day the feedback ruled out for it ("not Friday");
 *   a task re-placed under a limit of its own ("Thursday instead", "in the evening", "later") stays where it went;
 * - a day the user called off ("Friday is my day off", "周五休息") is a rule for every review of the task;
 * - a review placed before the request stays where it is, unless the request re-arranges the week (`reopens`): only
 *   what the task itself placed or moved may move;
 * - a review the task tried to place and the tool refused (a model's hand placing that broke a rule) may be placed
 *   where it fits now (`retry_pending`): the refinement otherwise leaves what is pending alone, and such a review was
 *   in the task's scope — unless the user declined a placing of it.
 */
import { weekdayName } from "../../contracts/language.js";
import type { DecidedWrite, TaskDecisionRules, TaskDecisions } from "../domain.js";
import { daysOffIn, parseFeedback } from "./feedback.js";
import { isEmptySelection } from "./request-parsing.js";
import type { ScheduleState } from "./state.js";

/** A place, day or weekday a task must not go to; with none of them, the task stays where it is. */
export interface TaskAvoid {
  task_id: string;
  day?: number;
  slot_start?: number;
  /** A day of the week (1 = Monday): every day of the window that falls on it. */
  weekday?: number;
}

/** `propose_candidates`' arguments for what the user decided (only those that limit anything). */
export interface CandidateLimits {
  avoid?: TaskAvoid[];
  avoid_weekdays?: number[];
  task_ids?: string[];
  retry_pending?: string[];
}

/** Where a write puts tasks: the place of a place or a move, each move of a batch_move. */
function placesOf(
  write: Pick<DecidedWrite, "name" | "arguments">,
): Array<Required<Pick<TaskAvoid, "task_id" | "day" | "slot_start">>> {
  const args = write.arguments;
  const moves =
    write.name === "place" || write.name === "move"
      ? [args]
      : write.name === "batch_move" && Array.isArray(args.moves)
        ? (args.moves as Array<Record<string, unknown>>)
        : [];
  return moves.flatMap((move) => {
    const place = { task_id: String(move.task_id), day: Number(move.day), slot_start: Number(move.slot_start) };
    return move.task_id !== undefined && Number.isInteger(place.day) && Number.isInteger(place.slot_start)
      ? [place]
      : [];
  });
}

/** The tasks a write moves: those it places, both of a swap, the one it takes off. */
function tasksMovedBy(write: Pick<DecidedWrite, "name" | "arguments">): string[] {
  if (write.name === "swap") return [String(write.arguments.first_task_id), String(write.arguments.second_task_id)];
  if (write.name === "unplace") return [String(write.arguments.task_id)];
  return placesOf(write).map((place) => place.task_id);
}

/**
 * The tasks the task's applied writes removed (`remove_task`) and did not put back (`restore_task`): a limit naming
 * one limits nothing, and a listing refuses a task id the week does not have.
 */
function tasksRemovedBy(writes: readonly DecidedWrite[]): Set<string> {
  const removed = new Set<string>();
  for (const write of writes) {
    if (write.outcome !== "applied") continue;
    if (write.name === "remove_task") removed.add(String(write.arguments.task_id));
    const restored = write.arguments.task as { id?: unknown } | undefined;
    if (write.name === "restore_task" && typeof restored?.id === "string") removed.delete(restored.id);
  }
  return removed;
}

/** The limits the task's decisions put on the refinement's candidates; none names a task the task removed. */
export function refinementLimits(task: TaskDecisions): CandidateLimits {
  const kept = refinementLimitsOfWrites(task);
  const removed = tasksRemovedBy(task.writes);
  if (removed.size === 0) return kept;
  const avoid = kept.avoid?.filter((entry) => !removed.has(entry.task_id));
  const retry = kept.retry_pending?.filter((id) => !removed.has(id));
  return {
    ...(avoid && avoid.length > 0 ? { avoid } : {}),
    ...(kept.avoid_weekdays ? { avoid_weekdays: kept.avoid_weekdays } : {}),
    ...(kept.task_ids ? { task_ids: kept.task_ids.filter((id) => !removed.has(id)) } : {}),
    ...(retry && retry.length > 0 ? { retry_pending: retry } : {}),
  };
}

/** The limits read from the task's writes, each as it was decided. */
function refinementLimitsOfWrites(task: TaskDecisions): CandidateLimits {
  const avoid: TaskAvoid[] = [];
  const daysOff = new Set<number>();
  const moved = new Set<string>();
  const refused = new Set<string>();
  const declined = new Set<string>();
  for (const write of task.writes) {
    if (write.name === "place" && (write.outcome === "failed" || write.outcome === "declined"))
      for (const place of placesOf(write)) (write.outcome === "failed" ? refused : declined).add(place.task_id);
    if (write.outcome === "applied") {
      for (const id of tasksMovedBy(write)) moved.add(id);
      // Edited: the place is the user's own.
      if (write.edited) avoid.push(...placesOf(write).map((place) => ({ task_id: place.task_id })));
      continue;
    }
    if (write.outcome !== "declined") continue;
    for (const weekday of daysOffIn(write.feedback)) daysOff.add(weekday);
    const feedback = parseFeedback(write.feedback);
    for (const place of placesOf(write)) {
      avoid.push(place);
      if (feedback.kind !== "constrain") continue;
      avoid.push(...feedback.not.weekdays.map((weekday) => ({ task_id: place.task_id, weekday })));
      avoid.push(...feedback.not.days.map((day) => ({ task_id: place.task_id, day })));
      // Re-placed under a limit of its own: where it went keeps to it.
      if (!isEmptySelection(feedback.only) || feedback.part || feedback.later || feedback.earlier)
        avoid.push({ task_id: place.task_id });
    }
  }
  const retry = [...refused].filter((id) => !declined.has(id));
  return {
    ...(avoid.length > 0 ? { avoid } : {}),
    ...(daysOff.size > 0 ? { avoid_weekdays: [...daysOff].sort((a, b) => a - b) } : {}),
    ...(task.reopens ? {} : { task_ids: [...moved] }),
    ...(retry.length > 0 ? { retry_pending: retry } : {}),
  };
}

/**
 * A `propose_candidates` call's `args` kept to the task's decisions: its own places and days to avoid and the
 * decisions' together, and of the tasks it lets move only those the decisions let move.
 */
export function withCandidateLimits(args: Record<string, unknown>, task: TaskDecisions): Record<string, unknown> {
  const limits = refinementLimits(task);
  const list = <T>(key: string) => (Array.isArray(args[key]) ? (args[key] as T[]) : []);
  const avoid = [...list<TaskAvoid>("avoid"), ...(limits.avoid ?? [])];
  const weekdays = [...new Set([...list<number>("avoid_weekdays"), ...(limits.avoid_weekdays ?? [])])];
  const movable = limits.task_ids;
  const asked = Array.isArray(args.task_ids) ? list<string>("task_ids") : undefined;
  const taskIds = movable && asked ? asked.filter((id) => movable.includes(id)) : (movable ?? asked);
  // As many as a listing takes (the tool's schema: 400), however many placings the task saw refused.
  const retry = [...new Set([...list<string>("retry_pending"), ...(limits.retry_pending ?? [])])].slice(0, 400);
  return {
    ...args,
    ...(retry.length > 0 ? { retry_pending: retry } : {}),
    ...(avoid.length > 0 ? { avoid } : {}),
    ...(weekdays.length > 0 ? { avoid_weekdays: weekdays.sort((a, b) => a - b) } : {}),
    ...(taskIds ? { task_ids: taskIds } : {}),
  };
}

/**
 * The task's decisions held for every call of the task (`ToolDomain.decisions`), the model's own as much as the
 * refinement's: a search or listing of its own avoids the days off and the rejected places, and a write onto a day
 * off, onto a place rejected for its task, or moving a review the user put in place themselves is refused with the
 * reason. Outside the refinement, the tasks a listing may move are the model's to name (the request may ask to move
 * what was placed before it).
 */
export const SCHEDULE_TASK_DECISIONS: TaskDecisionRules<ScheduleState> = {
  read(task, tool, args) {
    if (tool === "propose_candidates") return withCandidateLimits(args, { ...task, reopens: true });
    return tool === "propose_arrangement" ? withArrangementLimits(args, task) : args;
  },
  write: decisionUndone,
};

/** Per-task limits of `propose_arrangement` (its `limits` entries). */
interface ArrangementLimit {
  task_id: string;
  not_days?: number[];
  not_weekdays?: number[];
  not_at?: Array<{ day: number; slot_start: number }>;
}

/** A `propose_arrangement` call's `args` kept to the task's decisions: the days off, each task's rejected places and days. */
export function withArrangementLimits(args: Record<string, unknown>, task: TaskDecisions): Record<string, unknown> {
  const limits = refinementLimits(task);
  const list = <T>(key: string) => (Array.isArray(args[key]) ? (args[key] as T[]) : []);
  const perTask = new Map<string, ArrangementLimit>(
    list<ArrangementLimit>("limits").map((entry) => [entry.task_id, { ...entry }]),
  );
  const add = <K extends "not_days" | "not_weekdays" | "not_at">(id: string, key: K, value: ArrangementLimit[K]) => {
    const entry = perTask.get(id) ?? { task_id: id };
    entry[key] = [...(entry[key] ?? []), ...(value ?? [])] as ArrangementLimit[K];
    perTask.set(id, entry);
  };
  // A task left as it is ({ task_id } alone) is a placed one: an arrangement only places what is pending.
  for (const { task_id, day, slot_start, weekday } of limits.avoid ?? []) {
    if (day !== undefined && slot_start !== undefined) add(task_id, "not_at", [{ day, slot_start }]);
    else if (day !== undefined) add(task_id, "not_days", [day]);
    else if (weekday !== undefined) add(task_id, "not_weekdays", [weekday]);
  }
  const weekdays = [...new Set([...list<number>("avoid_weekdays"), ...(limits.avoid_weekdays ?? [])])];
  return {
    ...args,
    ...(perTask.size > 0 ? { limits: [...perTask.values()] } : {}),
    ...(weekdays.length > 0 ? { avoid_weekdays: weekdays.sort((a, b) => a - b) } : {}),
  };
}

/**
 * Why the write `tool(args)` undoes a decision of `task`, for the model to read — a day the user called off, a place
 * or day they rejected for the review, a review they put in place themselves (an edit) — or undefined.
 */
export function decisionUndone(
  state: ScheduleState,
  task: TaskDecisions,
  tool: string,
  args: Record<string, unknown>,
): string | undefined {
  const weekdayOf = (day: number) => state.window.days.find((entry) => entry.dayIndex === day)?.dayOfWeek;
  const call = { name: tool, arguments: args };
  const places = tool === "swap" ? swappedPlaces(state, args) : placesOf(call);
  const moved = new Set(tasksMovedBy(call));
  for (const write of task.writes) {
    if (write.outcome === "applied" && write.edited) {
      const own = placesOf(write).find((place) => moved.has(place.task_id));
      if (own)
        return `Error: the user put ${own.task_id} on day ${own.day} from slot ${own.slot_start} themselves (they edited its card in this task), so it stays there. Nothing was changed; leave it where it is.`;
    }
    if (write.outcome !== "declined") continue;
    const words = write.feedback.trim();
    const said = words === "" ? "" : `: "${words}"`;
    for (const place of places) {
      const weekday = weekdayOf(place.day);
      const name = weekday === undefined ? `day ${place.day}` : weekdayName(weekday, "en");
      if (weekday !== undefined && daysOffIn(words).includes(weekday))
        return `Error: ${name} is your day off (you said so in this task${said}), so no review goes on day ${place.day}. Nothing was changed; choose another day.`;
      const feedback = parseFeedback(words);
      for (const rejected of placesOf(write).filter((entry) => entry.task_id === place.task_id)) {
        const samePlace = rejected.day === place.day && rejected.slot_start === place.slot_start;
        const notThere =
          feedback.kind === "constrain" &&
          (feedback.not.days.includes(place.day) || (weekday !== undefined && feedback.not.weekdays.includes(weekday)));
        if (samePlace || notThere)
          return `Error: the user rejected ${place.task_id} on ${samePlace ? `day ${place.day} from slot ${place.slot_start}` : name} in this task${said}, so it does not go there. Nothing was changed; choose another place.`;
      }
    }
  }
  return undefined;
}

/** Where a swap puts its two tasks: each where the other starts now. */
function swappedPlaces(state: ScheduleState, args: Record<string, unknown>): ReturnType<typeof placesOf> {
  const startOf = (id: unknown) => state.tasks.find((entry) => entry.id === id)?.slots?.[0];
  const [first, second] = [startOf(args.first_task_id), startOf(args.second_task_id)];
  if (!first || !second) return [];
  return [
    { task_id: String(args.first_task_id), day: second.day, slot_start: second.start },
    { task_id: String(args.second_task_id), day: first.day, slot_start: first.start },
  ];
}
