/**
 * The schedule tools (docs/design.md#schedule-tools): reads that run at once and writes that wait for a
 * confirmation.
 */
import type { DomainTool } from "../../domain.js";
import type { ScheduleState } from "../state.js";
import { batchMoveTool } from "./batch-move.js";
import { findFreeTool } from "./find-free.js";
import { getOverviewTool } from "./get-overview.js";
import { getTaskInfoTool } from "./get-task-info.js";
import { analyzeHealthTool, proposeArrangementTool, proposeCandidatesTool } from "./optimize.js";
import { addTaskTool, removeTaskTool, updateTaskTool } from "./task-items.js";
import { exportCalendarTool, importCalendarTool } from "./calendar-io.js";
import { removeTaskClassTool, upsertTaskClassTool } from "./task-classes.js";
import { rollWindowTool } from "./roll-window.js";
import { listTasksTool } from "./list-tasks.js";
import { moveTool } from "./move.js";
import { placeTool } from "./place.js";
import { queryRangeTool } from "./query-range.js";
import { swapTool } from "./swap.js";
import { markDoneTool, markMissedTool, reopenTool, skipTool } from "./task-life.js";
import { addHabitTool } from "./habits.js";
import { unplaceTool } from "./unplace.js";
import { proposeUndoTool } from "./undo.js";
import { restoreTaskTool } from "./restore-task.js";
import { removeEventTool } from "./remove-event.js";
import { restoreEventTool } from "./restore-event.js";
import { proposeRescheduleTool } from "./reschedule.js";
import { proposeRecoveryTool } from "./recovery.js";

export {
  batchMoveArgumentsSchema,
  batchMoveTool,
  BATCH_MOVE_LIMIT,
  type BatchMoveArguments,
  type BatchMoveData,
} from "./batch-move.js";
export {
  findFreeArgumentsSchema,
  findFreeRuns,
  findFreeTool,
  type FindFreeArguments,
  type FindFreeData,
  type FreeRun,
  type FreeRunEntry,
} from "./find-free.js";
export {
  getOverviewArgumentsSchema,
  getOverviewTool,
  type GetOverviewArguments,
  type GetOverviewData,
  type OverviewCategory,
  type OverviewDay,
  type OverviewHost,
  type PendingTaskEntry,
} from "./get-overview.js";
export {
  getTaskInfoArgumentsSchema,
  getTaskInfoTool,
  taskInfoFields,
  taskInfoGuestLines,
  type GetTaskInfoArguments,
  type GetTaskInfoData,
} from "./get-task-info.js";
export {
  listTasksArgumentsSchema,
  listTasksTool,
  type ListedTask,
  type ListTasksArguments,
  type ListTasksData,
} from "./list-tasks.js";
export { movedText, moveArgumentsSchema, moveTool, type MoveArguments, type MoveData } from "./move.js";
export { placeArgumentsSchema, placedText, placeTool, type PlaceArguments, type PlaceData } from "./place.js";
export {
  queryRangeArgumentsSchema,
  queryRangeTool,
  QUERY_RANGE_DAY_LIMIT,
  type QueryRangeArguments,
  type QueryRangeData,
  type QueryRangeDay,
  type RangeOccupant,
  type RangeSegment,
  type SegmentTask,
} from "./query-range.js";
export { swapArgumentsSchema, swappedText, swapTool, type SwapArguments, type SwapData } from "./swap.js";
export {
  unplaceArgumentsSchema,
  unplacedText,
  unplaceTool,
  type UnplaceArguments,
  type UnplaceData,
} from "./unplace.js";
export type { MovedTask } from "../atomic-moves.js";
export {
  markArgumentsSchema,
  markDoneTool,
  markedText,
  markMissedTool,
  reopenTool,
  skipTool,
  type MarkArguments,
  type TaskLifeData,
} from "./task-life.js";

export {
  NOTHING_TO_UNDO,
  proposeUndo,
  proposeUndoTool,
  REDOES_LINE,
  UNDO_CANDIDATE_ID,
  UNDO_WRITES,
  type UndoListing,
} from "./undo.js";
export { restoreTaskTool, type RestoreTaskData } from "./restore-task.js";
export { removeEventTool, removedEventText, type RemoveEventData } from "./remove-event.js";
export { restoreEventTool } from "./restore-event.js";
export {
  proposeReschedule,
  proposeRescheduleTool,
  RESCHEDULE_CANDIDATE_ID,
  type RescheduleListing,
} from "./reschedule.js";
export {
  isRecoveryListing,
  NO_RECOVERY,
  proposeRecoveryTool,
  recoveryEmptyText,
  RECOVERY_CANDIDATE_ID,
  recoveryListing,
  type RecoveryListing,
} from "./recovery.js";
export { analyzeHealthTool, proposeArrangementTool, proposeCandidatesTool } from "./optimize.js";
export {
  addTaskTool,
  removeTaskTool,
  updateTaskTool,
  addedTaskText,
  MAX_TASK_SLOTS,
  type AddTaskData,
} from "./task-items.js";
export { describeTaskWrite } from "./task-write-cards.js";
export { exportCalendarTool, importCalendarTool, importedText, type ImportCalendarData } from "./calendar-io.js";
export {
  removeTaskClassTool,
  upsertTaskClassTool,
  taskClassText,
  type RemoveTaskClassData,
  type TaskClassData,
} from "./task-classes.js";
export { rollWindowTool } from "./roll-window.js";

export { addedHabitText, addHabitTool, type AddHabitArguments, type AddHabitData } from "./habits.js";

/** All thirty-two tools, reads first, in a fixed order (the tool brief lists them so). */
export const scheduleTools: ReadonlyArray<DomainTool<ScheduleState>> = [
  getOverviewTool,
  queryRangeTool,
  findFreeTool,
  listTasksTool,
  getTaskInfoTool,
  analyzeHealthTool,
  proposeArrangementTool,
  proposeCandidatesTool,
  proposeUndoTool,
  proposeRescheduleTool,
  proposeRecoveryTool,
  exportCalendarTool,
  placeTool,
  moveTool,
  swapTool,
  batchMoveTool,
  unplaceTool,
  upsertTaskClassTool,
  removeTaskClassTool,
  addTaskTool,
  addHabitTool,
  updateTaskTool,
  removeTaskTool,
  restoreTaskTool,
  importCalendarTool,
  removeEventTool,
  restoreEventTool,
  rollWindowTool,
  markDoneTool,
  markMissedTool,
  skipTool,
  reopenTool,
];
