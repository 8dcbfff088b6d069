/**
 * `swap`: exchanges the places of two tasks of equal length; if either would
 * conflict at its new place, nothing changes.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure, type Dating } from "../format.js";
import { buildOccupancyIndex } from "../occupancy-index.js";
import type { ScheduleState } from "../state.js";
import { taskIdField } from "./argument-fields.js";
import { moveAtomically, movesText, request, taskLabel, type MovedTask } from "../atomic-moves.js";
import { findTask, movableRange, taskDuration } from "./task-checks.js";
import { saySummary } from "../summary-phrases.js";

/** Arguments of swap. */
export const swapArgumentsSchema = z.object({
  first_task_id: taskIdField("A placed task."),
  second_task_id: taskIdField("Another of the same length."),
});

/** Parsed arguments of swap. */
export type SwapArguments = z.infer<typeof swapArgumentsSchema>;

/** What swap did, as data: the two tasks, and where each now sits. */
export interface SwapData {
  swapped: [string, string];
  moved: MovedTask[];
}

/** swap's text: `swapped task <id> and task <id>` + two move result lines. */
export function swappedText(data: SwapData, window?: Dating): string {
  return movesText(saySummary("en", "swapped", { id: data.swapped[0], other: data.swapped[1] }), data.moved, window);
}

/** Swaps two tasks of equal length. */
export const swapTool: DomainTool<ScheduleState, SwapArguments> = {
  name: "swap",
  description: "Exchanges the places of two tasks of the same length.",
  schema: swapArgumentsSchema,
  kind: "write",
  run(state, args) {
    if (args.first_task_id === args.second_task_id)
      return failure(`first_task_id and second_task_id are both ${args.first_task_id}; name two different tasks`);
    const index = buildOccupancyIndex(state);
    const first = findTask(index, args.first_task_id);
    if (!first.ok) return failure(first.problem);
    const second = findTask(index, args.second_task_id);
    if (!second.ok) return failure(second.problem);
    const { task: firstTask, position: firstPosition } = first.value;
    const { task: secondTask, position: secondPosition } = second.value;
    const firstRange = movableRange(firstTask);
    if (!firstRange.ok) return failure(firstRange.problem);
    const secondRange = movableRange(secondTask);
    if (!secondRange.ok) return failure(secondRange.problem);
    const firstLength = taskDuration(firstTask);
    const secondLength = taskDuration(secondTask);
    if (firstLength !== secondLength) {
      return failure(
        saySummary("en", "swapUnequal", {
          one: taskLabel(firstTask),
          oneLength: firstLength,
          two: taskLabel(secondTask),
          twoLength: secondLength,
        }),
      );
    }
    return moveAtomically(
      state,
      index,
      [request(firstPosition, secondRange.value), request(secondPosition, firstRange.value)],
      `cannot swap ${firstTask.id} and ${secondTask.id}`,
      (moved): SwapData => ({ swapped: [firstTask.id, secondTask.id], moved }),
      swappedText,
    );
  },
};
