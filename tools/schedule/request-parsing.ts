/**
 * What a schedule request asks for, read from plain English or Chinese text
 * by the offline policy (`offline/schedule/`) and by the domain's reader of
 * standing preferences (`preferences.ts`, `ToolDomain.readPreferences`, which
 * runs with a real model too): which tool it needs, the tasks it names (as phrases,
 * matched against real tasks later), the days (weekday names or day numbers),
 * and the slots (slot numbers, or morning / afternoon / evening).
 *
 * The same parser reads the user's message and the plan steps the policy
 * writes (`describeRequest`), so a step's text is the request it carries out:
 * `Move the task matching "limits" to Thursday (day 4), slots 5-6` parses back
 * to the same request, and a step the user edited is read the same way.
 *
 * The reader is in `reading/`, a file a kind of words or of request, lowest first: the reading's types
 * (`request-kinds`), amounts no schedule can hold, plain words, the clock, days, where, task names, a day said with a task, every review of a day,
 * next to something, marks, questions, placings, a move's target, shifts, moves, requests about tasks, a sentence,
 * and a message (`request`). This file is its face: what the policy, the preferences and the tests import.
 */
export {
  type DateSpec,
  type DayOfReviews,
  type DaySelection,
  type MoveRequest,
  type MoveShift,
  type PartOfDay,
  type ScheduleRequest,
  type SlotWindow,
  type Where,
  READ_REQUEST_KINDS,
  movesOf,
  shiftAllBy,
  shiftAllDays,
} from "./reading/request-kinds.js";
export { type BadAmount, readBadAmount } from "./reading/amounts.js";
export { MAX_READ_LENGTH, MAX_READ_SENTENCES, editDistance, normalizeText, readNumber } from "./reading/words.js";
export {
  EVERY_NOT_AFTER_HOUR,
  HOUR_NUMBER_ZH,
  NOT_BEFORE_HOUR,
  PAST_HOUR_ZH,
  readBetween,
  readClockTime,
  readEndsBy,
  readNightHourAfter,
  readNotAfterHour,
  readNotBeforeHour,
  readStartsFrom,
  withoutNotBeforeHours,
} from "./reading/clock-words.js";
export { readDates, readDays, readWeekNamed } from "./reading/day-words.js";
export {
  isAnywhere,
  isEmptySelection,
  onlyExcludes,
  readPartOfDay,
  readSlots,
  readWhere,
  resolveSlotWindow,
} from "./reading/where.js";
export { namesEverything, taskPhrase } from "./reading/task-words.js";
export {
  dayLabel,
  dayLabelIn,
  splitNamingDay,
  splitPartOfDay,
  splitRelativeDay,
  splitWeekday,
} from "./reading/day-names.js";
export { anchorWords, classAnchorOf } from "./reading/next-to.js";
export { timedPlacement } from "./reading/placing.js";
export {
  OPTIMIZE_REQUEST,
  asWritten,
  isPlannable,
  isWholeRequest,
  parseScheduleRequest,
  readFollowUp,
  withoutPoliteness,
} from "./reading/request.js";
