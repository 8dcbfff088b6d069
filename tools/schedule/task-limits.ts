/**
 * What the user decided in a task, as the refinement's listing takes it (`Refinement.list.limits`, issue 46): the
 * refinement after an arrangement never undoes a decision the user made on a card.
 *
 * - a place the user edited is pinned: the task stays where they put it;
 * - a rejected place is never proposed again for its task, nor a day the feedback ruled out for it ("not Friday");
 *   a task re-placed under a limit of its own ("Thursday instead", "in the evening", "later") stays where it went;
 * - a day the user called off ("Friday is my day off", "周五休息") is a rule for every review of the task;
 * - a review placed before the request stays where it is, unless the request re-arranges the week (`reopens`): only
 *   what the task itself placed or moved may move.
 */
import type { DecidedWrite, TaskDecisions } from "../domain.js";
import { daysOffIn, parseFeedback } from "./feedback.js";
import { isEmptySelection } from "./request-parsing.js";

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
}

/** Where a write puts tasks: the place of a place or a move, each move of a batch_move. */
function placesOf(write: DecidedWrite): Array<Required<Pick<TaskAvoid, "task_id" | "day" | "slot_start">>> {
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

/** The tasks a write moves: those it places, and both of a swap. */
function tasksMovedBy(write: DecidedWrite): string[] {
  if (write.name === "swap") return [String(write.arguments.first_task_id), String(write.arguments.second_task_id)];
  return placesOf(write).map((place) => place.task_id);
}

/** The limits the task's decisions put on the refinement's candidates. */
export function refinementLimits(task: TaskDecisions): CandidateLimits {
  const avoid: TaskAvoid[] = [];
  const daysOff = new Set<number>();
  const moved = new Set<string>();
  for (const write of task.writes) {
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
  return {
    ...(avoid.length > 0 ? { avoid } : {}),
    ...(daysOff.size > 0 ? { avoid_weekdays: [...daysOff].sort((a, b) => a - b) } : {}),
    ...(task.reopens ? {} : { task_ids: [...moved] }),
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
  return {
    ...args,
    ...(avoid.length > 0 ? { avoid } : {}),
    ...(weekdays.length > 0 ? { avoid_weekdays: weekdays.sort((a, b) => a - b) } : {}),
    ...(taskIds ? { task_ids: taskIds } : {}),
  };
}
