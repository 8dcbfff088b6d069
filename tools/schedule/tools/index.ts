/**
 * The ten schedule tools (docs/design.md#schedule-tools): five reads that run at once and
 * five writes that wait for a confirmation.
 */
import type { DomainTool } from "../../domain.js";
import type { ScheduleState } from "../state.js";
import { batchMoveTool } from "./batch-move.js";
import { findFreeTool } from "./find-free.js";
import { getOverviewTool } from "./get-overview.js";
import { getTaskInfoTool } from "./get-task-info.js";
import { listTasksTool } from "./list-tasks.js";
import { moveTool } from "./move.js";
import { placeTool } from "./place.js";
import { queryRangeTool } from "./query-range.js";
import { swapTool } from "./swap.js";
import { unplaceTool } from "./unplace.js";

export { batchMoveArgumentsSchema, batchMoveTool, BATCH_MOVE_LIMIT, type BatchMoveArguments } from "./batch-move.js";
export { findFreeArgumentsSchema, findFreeRuns, findFreeTool, type FindFreeArguments, type FreeRun } from "./find-free.js";
export { getOverviewArgumentsSchema, getOverviewTool, type GetOverviewArguments } from "./get-overview.js";
export { getTaskInfoArgumentsSchema, getTaskInfoTool, type GetTaskInfoArguments } from "./get-task-info.js";
export { listTasksArgumentsSchema, listTasksTool, type ListTasksArguments } from "./list-tasks.js";
export { moveArgumentsSchema, moveTool, type MoveArguments } from "./move.js";
export { placeArgumentsSchema, placeTool, type PlaceArguments } from "./place.js";
export { queryRangeArgumentsSchema, queryRangeTool, QUERY_RANGE_DAY_LIMIT, type QueryRangeArguments } from "./query-range.js";
export { swapArgumentsSchema, swapTool, type SwapArguments } from "./swap.js";
export { unplaceArgumentsSchema, unplaceTool, type UnplaceArguments } from "./unplace.js";

/** All ten tools, reads first, in a fixed order (the tool brief lists them so). */
export const scheduleTools: ReadonlyArray<DomainTool<ScheduleState>> = [
  getOverviewTool,
  queryRangeTool,
  findFreeTool,
  listTasksTool,
  getTaskInfoTool,
  placeTool,
  moveTool,
  swapTool,
  batchMoveTool,
  unplaceTool,
];
