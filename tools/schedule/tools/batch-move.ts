/**
 * `batch_move`: moves several tasks at once, atomically — if any move fails,
 * none is applied.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure, type Dating } from "../format.js";
import { buildOccupancyIndex, findPositions } from "../occupancy-index.js";
import type { PlacementRequest } from "../placement.js";
import { rangeFrom, rangesEqual } from "../slot-range.js";
import type { ScheduleState } from "../state.js";
import { dayField, slotField, taskIdField } from "./argument-fields.js";
import { moveAtomically, movesText, type MovedTask } from "../atomic-moves.js";
import { findTask, movableRange, taskDuration } from "./task-checks.js";
import { saySummary } from "../summary-phrases.js";

/** The end of a refusal: no move of the batch was made (the table's, read back in Chinese). */
const NOTHING_MOVED = saySummary("en", "nothingMoved");

/** Most moves in one batch_move call. */
export const BATCH_MOVE_LIMIT = 50;

/** Arguments of batch_move. */
export const batchMoveArgumentsSchema = z.object({
  moves: z
    .array(
      z.object({
        task_id: taskIdField("Id of a placed task item or an unlocked event on a single slot range."),
        day: dayField("Day index to move it to (1-based)."),
        slot_start: slotField("First slot at the new place (1-based); it keeps its length."),
      }),
    )
    .min(1)
    .max(BATCH_MOVE_LIMIT)
    .describe(
      `The moves, each task at most once (1-${BATCH_MOVE_LIMIT}); they are checked together, so tasks may take each other's old slots.`,
    ),
});

/** Parsed arguments of batch_move. */
export type BatchMoveArguments = z.infer<typeof batchMoveArgumentsSchema>;

/** What batch_move did, as data: where each task now sits, and where it sat before (what undo moves it back to). */
export interface BatchMoveData {
  moved: MovedTask[];
}

/** batch_move's text: `moved <n> tasks` + one move result line per task. */
function batchMovedText(data: BatchMoveData, window?: Dating): string {
  return movesText(saySummary("en", "movedMany", { count: data.moved.length }), data.moved, window);
}

/** Moves several tasks atomically. */
export const batchMoveTool: DomainTool<ScheduleState, BatchMoveArguments> = {
  name: "batch_move",
  description:
    "Moves several tasks at once (each like move). All moved tasks leave their old slots first, then land in the order given; " +
    "if any move is invalid or conflicts, none is applied.",
  schema: batchMoveArgumentsSchema,
  kind: "write",
  run(state, args) {
    const index = buildOccupancyIndex(state);
    const known = findPositions(
      index.tasks,
      args.moves.map((move) => move.task_id),
    );
    const seen = new Set<string>();
    const requests: PlacementRequest[] = [];
    let changes = 0;
    for (const [moveIndex, move] of args.moves.entries()) {
      const prefix = `move ${moveIndex + 1} of ${args.moves.length}`;
      if (seen.has(move.task_id))
        return failure(`${prefix}: task ${move.task_id} appears more than once; move each task once${NOTHING_MOVED}`);
      seen.add(move.task_id);
      const found = findTask(index, move.task_id, known);
      if (!found.ok) return failure(`${prefix}: ${found.problem}${NOTHING_MOVED}`);
      const { task, position } = found.value;
      const current = movableRange(task);
      if (!current.ok) return failure(`${prefix}: ${current.problem}${NOTHING_MOVED}`);
      const range = rangeFrom(move.day, move.slot_start, taskDuration(task));
      if (!rangesEqual(range, current.value)) changes += 1;
      requests.push({ position, range });
    }
    if (changes === 0) return failure("every task is already where the batch would put it; nothing to move");
    return moveAtomically(
      state,
      index,
      requests,
      "cannot apply batch_move",
      (moved): BatchMoveData => ({ moved }),
      batchMovedText,
    );
  },
};
