/**
 * What the offline policy knows of a tool round: its recorded outcome and the tool's structured result
 * (`RoundView.outcome` / `RoundView.data`, the tool message's artifact), never a parse of the text the model is
 * shown. Each reader answers a round's data when the round is whole, is the tool's, and carries data of the tool's
 * shape (a round saved before tools gave data has none: the policy reads that tool again).
 *
 * A summarised round (a compressed round's one-line summary) has neither outcome nor data; for those alone, whether
 * the write was rejected or failed is read from the summary's start, as it always was.
 */
import type { PromptView, RoundView } from "../../offline/prompt-reading.js";
import {
  movedText,
  placedText,
  swappedText,
  unplacedText,
  type FindFreeData,
  type GetOverviewData,
  type GetTaskInfoData,
  type ListTasksData,
  type MoveData,
  type PlaceData,
  type QueryRangeData,
  type SwapData,
  type UnplaceData,
} from "../tools/index.js";
import { isRejected } from "./feedback.js";

/** What became of a call, as the policy acts on it. */
export type CallResult = "applied" | "rejected" | "failed";

/**
 * A round's call: rejected (the user declined the write), failed (an error, or held back and never run), else
 * applied (a write) or done (a read). From the recorded outcome; a summary line's from its start.
 */
export function callResultOf(round: RoundView): CallResult {
  if (round.summarised || round.outcome === undefined) return isRejected(round.result) ? "rejected" : round.result.startsWith("error:") ? "failed" : "applied";
  if (round.outcome === "declined") return "rejected";
  return round.outcome === "failed" || round.outcome === "held" ? "failed" : "applied";
}

/** Why a call failed, as the tool (or the runner) said it: the message after `error: `, for the user to read. */
export function failureOf(round: RoundView): string {
  return round.result.replace(/^error: /i, "");
}

/** True for a plain object. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The data of a whole round of tool `name`, when it has the shape `is` checks. */
function dataOf<T>(round: RoundView | undefined, name: string, is: (data: Record<string, unknown>) => boolean): T | undefined {
  if (!round || round.summarised || round.name !== name || !isRecord(round.data) || !is(round.data)) return undefined;
  return round.data as T;
}

const numeric = (value: unknown) => typeof value === "number";

/** list_tasks' data. */
export function listTasksDataOf(round: RoundView | undefined): ListTasksData | undefined {
  return dataOf(round, "list_tasks", (data) => Array.isArray(data.tasks) && numeric(data.omitted));
}

/** find_free's data. */
export function findFreeDataOf(round: RoundView | undefined): FindFreeData | undefined {
  return dataOf(round, "find_free", (data) => Array.isArray(data.runs) && numeric(data.omitted) && numeric(data.lastDay));
}

/** get_overview's data. */
export function overviewDataOf(round: RoundView | undefined): GetOverviewData | undefined {
  return dataOf(round, "get_overview", (data) => numeric(data.totalDays) && numeric(data.slotsPerDay) && numeric(data.pending) && Array.isArray(data.days));
}

/** The live state's overview as data (the preflight get_overview's, kept beside the prompt's `<live_state>` text). */
export function liveOverviewOf(view: Pick<PromptView, "contextData">): GetOverviewData | undefined {
  const data = view.contextData.live_state;
  return isRecord(data) && numeric(data.totalDays) && numeric(data.slotsPerDay) && numeric(data.pending) && Array.isArray(data.days) && Array.isArray(data.pendingTasks) ? (data as unknown as GetOverviewData) : undefined;
}

/** query_range's data. */
export function queryRangeDataOf(round: RoundView | undefined): QueryRangeData | undefined {
  return dataOf(round, "query_range", (data) => Array.isArray(data.days));
}

/** get_task_info's data. */
export function taskInfoDataOf(round: RoundView | undefined): GetTaskInfoData | undefined {
  return dataOf(round, "get_task_info", (data) => isRecord(data.task) && typeof data.task.id === "string");
}

/** place's data. */
export function placeDataOf(round: RoundView | undefined): PlaceData | undefined {
  return dataOf(round, "place", (data) => typeof data.id === "string" && numeric(data.day) && numeric(data.start) && numeric(data.end));
}

/** move's data. */
export function moveDataOf(round: RoundView | undefined): MoveData | undefined {
  return dataOf(round, "move", (data) => typeof data.id === "string" && isRecord(data.from) && isRecord(data.to));
}

/** swap's data. */
export function swapDataOf(round: RoundView | undefined): SwapData | undefined {
  return dataOf(round, "swap", (data) => Array.isArray(data.swapped) && Array.isArray(data.moved));
}

/** unplace's data. */
export function unplaceDataOf(round: RoundView | undefined): UnplaceData | undefined {
  return dataOf(round, "unplace", (data) => typeof data.id === "string" && isRecord(data.from));
}

/**
 * What an applied write reports, from its data: the text the tool wrote for it (its result line, the step's
 * summary). A write answered from the execution log (applied in an earlier run) carries no data: its text is
 * quoted as it stands.
 */
export function appliedWriteText(round: RoundView): string {
  const place = placeDataOf(round);
  if (place) return placedText(place);
  const move = moveDataOf(round);
  if (move) return movedText(move);
  const swap = swapDataOf(round);
  if (swap) return swappedText(swap);
  const unplace = unplaceDataOf(round);
  if (unplace) return unplacedText(unplace);
  return round.result;
}
