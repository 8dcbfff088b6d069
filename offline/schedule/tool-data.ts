/**
 * What the offline policy knows of a tool round: its recorded outcome and the tool's structured result
 * (`RoundView.outcome` / `RoundView.data`, the tool message's artifact), never a parse of the text the model is
 * shown. `toolDataOf` answers a round's data when the round is whole, is the tool's, and carries data of the tool's
 * shape (a round saved before tools gave data has none: the policy reads that tool again).
 *
 * A summarised round (a compressed round's one-line summary) has neither outcome nor data; for those alone, whether
 * the write was rejected or failed is read from the summary's start, as it always was.
 */
import { isInvalidArguments } from "../../tools/argument-issues.js";
import { argumentProblemText } from "../../tools/schedule/argument-words.js";
import type { Language } from "../../contracts/language.js";
import type { PromptView, RoundView } from "../prompt-reading.js";
import { notCarriedOutEnd, type NotCarriedOut } from "../decisions.js";
import {
  addedTaskText,
  importedText,
  movedText,
  placedText,
  removedEventText,
  swappedText,
  taskClassText,
  unplacedText,
  type AddTaskData,
  type FindFreeData,
  type GetOverviewData,
  type GetTaskInfoData,
  type ImportCalendarData,
  type ListTasksData,
  type MoveData,
  type PlaceData,
  type QueryRangeData,
  type RemoveEventData,
  type SwapData,
  type BatchMoveData,
  type TaskClassData,
  type UnplaceData,
} from "../../tools/schedule/tools/index.js";
import type { ScheduleListing } from "../../tools/schedule/candidate-listing.js";
import type { Dating } from "../../tools/schedule/format.js";
import { readSummary, saySummary } from "../../tools/schedule/summary-phrases.js";
import { isRejected } from "../../tools/schedule/feedback.js";
import { isPastRefusal, pastRefusalText } from "../../tools/schedule/rules.js";
import {
  alreadyThereText,
  earlierEventText,
  passedEventText,
  reviewsLeftOutText,
} from "../../tools/schedule/calendar-files.js";

/** What became of a call, as the policy acts on it. */
export type CallResult = "applied" | "rejected" | "failed";

/**
 * A round's call: rejected (the user declined the write), failed (an error, or held back and never run), else
 * applied (a write) or done (a read). From the recorded outcome; a summary line's from its start.
 */
export function callResultOf(round: RoundView): CallResult {
  if (round.summarised || round.outcome === undefined)
    return isRejected(round.result) ? "rejected" : round.result.startsWith("error:") ? "failed" : "applied";
  if (round.outcome === "declined") return "rejected";
  return round.outcome === "failed" || round.outcome === "held" ? "failed" : "applied";
}

/**
 * Why a call failed, for the user to read: arguments the tool's check refused in plain words from the call's data
 * (`argumentProblemText`: the field as the person knows it, the bound; never the schema's message, which is the
 * model's), any other failure as the tool (or the runner) said it, the message after `error: `.
 */
export function failureOf(round: RoundView): string {
  if (!round.summarised && isInvalidArguments(round.data)) return argumentProblemText(round.data);
  return round.result.replace(/^error: /i, "");
}

/**
 * Why a call failed, for the user, in `language`: a refusal the tool gave as data (the clock's `PastRefusal`) said
 * from it — the review by name, its place by date and time, what to do instead —, any other as the tool said it
 * (`failureOf`).
 */
export function refusalOf(round: RoundView, language: Language, window?: Dating): string {
  if (!round.summarised && isPastRefusal(round.data) && window) return pastRefusalText(round.data, window, language);
  return failureOf(round);
}

/** True for a plain object. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const numeric = (value: unknown) => typeof value === "number";

/** The data each tool gives, by tool name. */
interface ToolData {
  list_tasks: ListTasksData;
  find_free: FindFreeData;
  get_overview: GetOverviewData;
  query_range: QueryRangeData;
  get_task_info: GetTaskInfoData;
  place: PlaceData;
  move: MoveData;
  swap: SwapData;
  batch_move: BatchMoveData;
  unplace: UnplaceData;
  propose_candidates: ScheduleListing;
  propose_arrangement: ScheduleListing;
  upsert_task_class: TaskClassData;
  add_task: AddTaskData;
  import_calendar: ImportCalendarData;
  remove_event: RemoveEventData;
}

/** The check a round's data must pass to be read as the tool's. */
const SHAPES: { readonly [N in keyof ToolData]: (data: Record<string, unknown>) => boolean } = {
  list_tasks: (data) => Array.isArray(data.tasks) && numeric(data.omitted),
  find_free: (data) => Array.isArray(data.runs) && numeric(data.omitted) && numeric(data.lastDay),
  get_overview: (data) =>
    numeric(data.totalDays) &&
    numeric(data.slotsPerDay) &&
    numeric(data.pending) &&
    Array.isArray(data.days) &&
    Array.isArray(data.pendingTasks),
  query_range: (data) => Array.isArray(data.days),
  get_task_info: (data) => isRecord(data.task) && typeof data.task.id === "string",
  place: (data) => typeof data.id === "string" && numeric(data.day) && numeric(data.start) && numeric(data.end),
  move: (data) => typeof data.id === "string" && isRecord(data.from) && isRecord(data.to),
  swap: (data) => Array.isArray(data.swapped) && Array.isArray(data.moved),
  batch_move: (data) => Array.isArray(data.moved),
  unplace: (data) => typeof data.id === "string" && isRecord(data.from),
  propose_candidates: (data) => Array.isArray(data.candidates) && numeric(data.score),
  propose_arrangement: (data) => Array.isArray(data.candidates) && numeric(data.score),
  upsert_task_class: (data) =>
    isRecord(data.class) && typeof data.class.id === "string" && typeof data.created === "boolean",
  add_task: (data) => isRecord(data.task) && typeof data.task.id === "string" && numeric(data.task.duration),
  import_calendar: (data) => Array.isArray(data.events) && Array.isArray(data.skipped),
  remove_event: (data) =>
    isRecord(data.event) && typeof data.event.id === "string" && typeof data.event.name === "string",
};

/** The data of a whole round of tool `name`, when it has the tool's shape. */
export function toolDataOf<N extends keyof ToolData>(round: RoundView | undefined, name: N): ToolData[N] | undefined {
  if (!round || round.summarised || round.name !== name || !isRecord(round.data) || !SHAPES[name](round.data))
    return undefined;
  return round.data as unknown as ToolData[N];
}

/** The live state's overview as data (the preflight get_overview's, kept beside the prompt's `<live_state>` text). */
export function liveOverviewOf(view: Pick<PromptView, "contextData">): GetOverviewData | undefined {
  const data = view.contextData.live_state;
  return isRecord(data) && SHAPES.get_overview(data) ? (data as unknown as GetOverviewData) : undefined;
}

/** The text each write gives for its data. */
const WRITE_TEXTS: {
  readonly [
    N in "place" | "move" | "swap" | "unplace" | "upsert_task_class" | "add_task" | "import_calendar" | "remove_event"
  ]: (data: ToolData[N], window?: Dating) => string;
} = {
  place: placedText,
  move: movedText,
  swap: swappedText,
  unplace: unplacedText,
  upsert_task_class: taskClassText,
  add_task: addedTaskText,
  import_calendar: importedText,
  remove_event: removedEventText,
};

/**
 * What an applied write reports, from its data: the text the tool wrote for it (its result line, the step's
 * summary), dated from `window` as the tool dates it. A write answered from the execution log (applied in an earlier run) carries no data: its text is
 * quoted as it stands.
 */
export function appliedWriteText(round: RoundView, window?: Dating): string {
  if (!Object.hasOwn(WRITE_TEXTS, round.name)) return round.result;
  const name = round.name as keyof typeof WRITE_TEXTS;
  const data = toolDataOf(round, name);
  return data ? (WRITE_TEXTS[name] as (data: unknown, window?: Dating) => string)(data, window) : round.result;
}

/**
 * The Chinese the policy says a class write or an event's removal in, from its data (the step's summary, for a user
 * who writes Chinese).
 */
const WRITE_TEXTS_ZH: {
  readonly [N in "upsert_task_class" | "add_task" | "import_calendar" | "remove_event"]: (data: ToolData[N]) => string;
} = {
  upsert_task_class: (data) => `已${data.created ? "创建" : "更新"}课程 ${data.class.id}“${data.class.name}”`,
  add_task: (data) => addedTaskIn("zh", data.task.name, data.task.categoryId),
  // What the clock left out (times passed, one-offs before the window), what was there already and the placed reviews
  // in Chinese from its data; any other event left out (a clash) as the tool said it.
  import_calendar: (data) => {
    const reviews = data.reviews ?? [];
    const present = data.present ?? [];
    const earlier = data.earlier ?? [];
    const told = new Set([
      ...data.passed.map((event) => passedEventText(event)),
      ...earlier.map((event) => earlierEventText(event)),
      ...(present.length > 0 ? [alreadyThereText(present)] : []),
      ...(reviews.length > 0 ? [reviewsLeftOutText(reviews)] : []),
    ]);
    const leftOut = [
      ...data.passed.map((event) => passedEventText(event, "zh")),
      ...earlier.map((event) => earlierEventText(event, "zh")),
      ...(present.length > 0 ? [alreadyThereText(present, "zh")] : []),
      ...(reviews.length > 0 ? [reviewsLeftOutText(reviews, "zh")] : []),
      ...data.skipped.filter((text) => !told.has(text)),
    ];
    return (
      `已导入 ${data.events.length} 个日程：${data.events.map((event) => `“${event.name}”`).join("、")}` +
      (leftOut.length > 0 ? `；未导入：${leftOut.join("；")}` : "")
    );
  },
  remove_event: (data) =>
    data.kept === undefined
      ? `已从课表删除“${data.event.name}”${data.event.series ? "，连同这个系列的所有重复" : ""}`
      : `已从课表删除“${data.event.name}”还没到的时间${data.event.series ? "，连同这个系列以后的所有重复" : ""}；已经开始的 ${data.kept.slots?.length ?? 0} 次保留：过去的不改`,
};

/** A task added to a class ("added task \"Integrals\" to class calculus", "已在课程 calculus 中添加任务“Integrals”"). */
export function addedTaskIn(language: Language, name: string, classId: string): string {
  return saySummary(language, "addedToClass", { name, class: classId });
}

/**
 * What an applied write reports in the user's language: in Chinese, said from the write's data where the policy has
 * the words (a class written, a task added, events imported, an event removed), never translated back from the tool's English; else `appliedWriteText`.
 */
export function appliedWriteSummary(round: RoundView, language: Language, window?: Dating): string {
  if (language === "zh" && Object.hasOwn(WRITE_TEXTS_ZH, round.name)) {
    const name = round.name as keyof typeof WRITE_TEXTS_ZH;
    const data = toolDataOf(round, name);
    if (data) return (WRITE_TEXTS_ZH[name] as (data: unknown) => string)(data);
  }
  return appliedWriteText(round, window);
}

/** A step ended without doing it: its summary "not carried out: <reason>" (the summary phrases' `notCarriedOut`), and why. */
export function notCarriedOut(reason: string): NotCarriedOut {
  return notCarriedOutEnd(reason, saySummary("en", "notCarriedOut", { reason }));
}

/** Why a step ended without doing it, read back from its summary (`notCarriedOut`); undefined for any other summary. */
export function notCarriedOutReason(summary: string): string | undefined {
  return readSummary("notCarriedOut", summary)?.reason;
}
