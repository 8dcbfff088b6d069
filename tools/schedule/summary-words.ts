/**
 * A step's summary in Chinese (`summaryInChinese`): the schedule tools', its closing check's and its offline policy's
 * English words, read back against the summary phrases' table (`summary-phrases.ts`: the pattern of each phrase is
 * built from the English the tools write with it, and said with its Chinese). The schedule domain's `stepSummary`
 * serves it, so an answer the code composes (the closing check's, `nodes/execute/verification-step.ts`) tells each
 * step's summary in the user's language as the offline policy's answer does. A summary it does not know (a model's
 * own words) stays as it is.
 *
 * Besides the table, the chain reads the refinement loop's words against their own table
 * (`contracts/refinement-words.ts`: the loop is domain-neutral) and the task report's lists of writes against the
 * report's (`contracts/report-words.ts`).
 *
 * Every step of the chain reads a phrase of a table; none is a pattern of its own, and a left-out reason's limits
 * ("only on Friday", "in slots 9-12") are phrases of the table too (`limitsInChinese`). What patterns are left read the
 * values in a phrase's places (a label's kind, the joints of a list).
 */
import { fieldInChinese } from "./argument-words.js";
import { partInChinese, weekdayName, type Language } from "../../contracts/language.js";
import {
  REFINEMENT_HEADS,
  REFINEMENT_STOPS,
  REFINEMENT_WORDS,
  type RefinementKey,
} from "../../contracts/refinement-words.js";
import { readBack, REPORT_WORDS, reportLineIn, type ReportKey } from "../../contracts/report-words.js";
import { readablePlaces } from "./readable.js";
import { placeNameIn } from "./calendar.js";
import {
  readSummary,
  readSummaryIn,
  readTemplateIn,
  REPORT_HEADINGS,
  saySummary,
  SHIFT_KEYS,
  SUMMARY_WORDS,
  summaryPattern,
  type PlaceReaders,
  type ReadMode,
  type SummaryKey,
} from "./summary-phrases.js";
import { rescheduleEmptyText } from "./tools/reschedule.js";
import { listInChinese, undoReasonIn } from "./undo-words.js";
import { recoveryEmptyText } from "./tools/recovery.js";
import { dayOfWeekNumber, TASK_STATUS_ZH, type TaskStatus } from "./state.js";

/** propose_reschedule's reasons for a review it left missed (`NO_PLACE_BEFORE`), as their table keys. */
const MISSED_REASONS: readonly SummaryKey[] = [
  "noPlaceBeforeDeadline",
  "noPlaceBeforeWindowEnd",
  "notBesideOthers",
  "notFoundBesideOthers",
  "deadlinePassed",
];

/** A reason propose_reschedule gives for a review it left missed, in `language`; another text as it is. */
export function missedReasonIn(why: string, language: Language): string {
  const key = MISSED_REASONS.find((each) => SUMMARY_WORDS.en[each] === why);
  return key ? saySummary(language, key) : why;
}

/** One `still missed: "X" (why)` part of a reschedule's summary in Chinese (and the listing's `NO_PLACE_FITS`); other text as it is. */
export function stillMissedInChinese(part: string): string {
  // (The listing's "no place fits" is said as the listing's own card says it.)
  if (part === SUMMARY_WORDS.en.noPlaceForMissed) return rescheduleEmptyText(part, "zh");
  return readSummaryIn(part, "stillMissed", "whole", "zh", {
    said: quoted,
    why: (why) => missedReasonIn(why, "zh"),
  });
}

/** A left-out review's limits (`arrangement.ts` `limitsText`), as their table keys. */
// (A part of a day kept free is read before a whole day: "outside Tuesday slots 9-12" is not "outside {days}".)
const LIMITS: readonly SummaryKey[] = [
  "limitOnlyOn",
  "limitOutsideSlots",
  "limitOutside",
  "limitSlots",
  "limitRejected",
];

/**
 * A left-out task's limits ("outside Friday, in slots 9-12") in Chinese ("周五以外，第9-12节"), each read back against
 * the table; a limit it does not know stays as it is.
 */
function limitsInChinese(limits: string): string {
  return limits
    .split(SUMMARY_WORDS.en.limitsAnd)
    .map((limit) =>
      LIMITS.reduce((said, key) => readSummaryIn(said, key, "whole", "zh", { days: daysInChinese }), limit),
    )
    .join(SUMMARY_WORDS.zh.limitsAnd);
}

/** The days a limit names ("Monday and Tuesday", "day 3 and day 9") in Chinese ("周一、周二", "第3天、第9天"). */
function daysInChinese(days: string): string {
  return days
    .split(SUMMARY_WORDS.en.limitDaysAnd)
    .map((day) => {
      const numbered = readSummary("limitDay", day);
      return numbered ? saySummary("zh", "limitDay", numbered) : weekdayInChinese(day);
    })
    .join(SUMMARY_WORDS.zh.limitDaysAnd);
}

/** A JSON-quoted text in Chinese quotation marks. */
function quoted(json: string): string {
  try {
    return `“${String(JSON.parse(json))}”`;
  } catch {
    return json;
  }
}

/** "Mon" / "Monday" → "周一", "Thursday morning" → "周四上午"; anything else stays. */
function weekdayInChinese(english: string): string {
  const [day = "", part] = english.split(" ");
  const weekday = dayOfWeekNumber(day);
  const partZh = part === undefined ? "" : partInChinese(part);
  if (part !== undefined && (weekday === 0 || partZh === part)) return english;
  return weekday > 0 ? `${weekdayName(weekday, "zh")}${partZh}` : english;
}

/** A task status in Chinese ("已安排"); an unknown one as it is. */
function statusWord(status: string): string {
  return TASK_STATUS_ZH[status as TaskStatus] ?? status;
}

/** What a mark makes a task ("已完成", "错过", "跳过"); another word as it is. */
export function markInChinese(to: string): string {
  return { done: "已完成", missed: "错过", skipped: "跳过" }[to] ?? to;
}

/**
 * A step summary the tools wrote in English, in Chinese as far as its usual shapes go ("moved task x from day 2
 * slots 3-4 to day 5 slots 9-10"); ids, names and anything unusual stay as they are. A summary the policy already
 * said in Chinese from a write's data (`appliedWriteSummary`) passes through unchanged; the class and task patterns
 * below are for the English summaries of threads saved before it did.
 */
export function summaryInChinese(english: string): string {
  // A step the offline policy ended without doing it: its reason is read as a summary of its own.
  const notDone = readSummary("notCarriedOut", english);
  if (notDone) return saySummary("zh", "notCarriedOut", { reason: summaryInChinese(notDone.reason!) });
  // propose_reschedule's reasons, wherever the summary quotes them.
  // ("its deadline has passed" is left to the shapes below, which say it in Chinese punctuation with what it is of.)
  let summary = english;
  for (const key of ["noPlaceForMissed", "missedPastDeadline", ...MISSED_REASONS] as const)
    if (key !== "deadlinePassed") summary = readSummaryIn(summary, key, "anywhere", "zh");
  // A step that reports its writes ("undid the last change: …; …"): the heading, then each write on its own.
  const reported = readSummary("reported", summary);
  if (reported)
    return saySummary("zh", "reported", {
      heading: saySummary(
        "zh",
        REPORT_HEADINGS.find((key) => SUMMARY_WORDS.en[key] === reported.heading)!,
      ),
      writes: reported
        // (A reason's own "; day 5 … is too late" stays with it.)
        .writes!.split(/; (?!it is pending again|tell me you did it|day \d)/)
        .map((part) => {
          // A review a move of every review left where it was, and why (`offline/schedule/shift-all-step.ts`).
          const stays = staysInChinese(part);
          if (stays) return stays;
          const missed = stillMissedInChinese(part);
          if (missed !== part) return missed;
          // A missed review whose new place the user declined, and the skip that let it go (`offline/.../life-steps.ts`).
          if (part === SUMMARY_WORDS.en.declinedNewPlace) return saySummary("zh", "declinedNewPlace");
          const letGo = readSummary("letGo", part);
          return letGo ? saySummary("zh", "letGo", { write: summaryInChinese(letGo.write!) }) : summaryInChinese(part);
        })
        .join("；"),
    });
  // Reviews a move of every review left where they were, none moved (`offline/schedule/shift-all-step.ts`).
  const stayed = summary.split("; ").map((part) => staysInChinese(part));
  if (stayed.every((part) => part !== undefined)) return stayed.join("；");
  // Dated places first, by date and clock time; what is left undated is said by day and slots below.
  return STEPS.reduce((text, step) => step(text), readablePlaces(summary, "zh"));
}

/** A review a move of every review left where it was, and why (`"X" stays: why`), in Chinese; undefined if not one. */
function staysInChinese(part: string): string | undefined {
  const stays = readSummary("staysBecause", part);
  return stays && saySummary("zh", "staysBecause", { subject: stays.subject!, why: summaryInChinese(stays.why!) });
}

/** Why the arrangement left a review out (`arrangement.ts` `whyLeftOut`), as their table keys. */
const LEFT_OUT: readonly SummaryKey[] = [
  "deadlinePassed",
  "noFreeSlot",
  "noFreeSlotRestPassed",
  "noFreeSlotWithinPassed",
  "noFreeSlotWithin",
  "noRoomBeside",
  "notFoundInBudget",
  "classRules",
  "classRulesApart",
  "sessionEachDay",
  "standingRulesOut",
];

/**
 * A reason the arrangement gives for a review it left out (`whyLeftOut`, as a step's summary and the report's "Still
 * pending" line state it) in `language`, read back against the table; undefined when it is none of them.
 */
export function leftOutIn(why: string, language: Language): string | undefined {
  for (const key of LEFT_OUT) {
    const read = readSummary(key, why);
    if (read)
      return saySummary(
        language,
        key,
        language === "en"
          ? read
          : Object.fromEntries(Object.entries(read).map(([place, value]) => [place, READERS[place]?.(value) ?? value])),
      );
  }
  return undefined;
}

/** Phrase `key` of the table read in `mode` and said in Chinese, each place through its Chinese reader. */
function read(key: SummaryKey, mode: ReadMode): (text: string) => string {
  return (text) => readSummaryIn(text, key, mode, "zh", READERS);
}

/** Phrase `key` of the refinement's table (`contracts/refinement-words.ts`) read in `mode` and said in Chinese. */
function refinement(key: RefinementKey, mode: ReadMode): (text: string) => string {
  return (text) => readTemplateIn(text, REFINEMENT_WORDS.en[key], REFINEMENT_WORDS.zh[key], mode);
}

/** A left-out reason in brackets after an id (`whyLeftOut`), in Chinese brackets. */
function bracketed(key: SummaryKey): (text: string) => string {
  return (text) =>
    text.replace(
      new RegExp(` \\(${summaryPattern(key, "anywhere").source}\\)`, "g"),
      (whole: string) => `（${readSummaryIn(whole.slice(2, -1), key, "whole", "zh", READERS)}）`,
    );
}

/** The heads of a write the rules refused (`tools/move.ts`, `place.ts`), as their table keys. */
const REFUSED_WRITES: readonly SummaryKey[] = ["cannotMove", "cannotPlace"];

/**
 * A write the rules refused, its head said in Chinese ("cannot move task x: " → "无法移动任务 x："); when the refusal
 * is about the task itself (`task x "…"` follows), the head goes: the refusal names the task once, as
 * `readableScheduleText` has it.
 */
function refusedWrite(text: string): string {
  for (const key of REFUSED_WRITES) {
    const head = summaryPattern(key, "start").exec(text);
    if (!head) continue;
    const rest = text.slice(head[0].length);
    return rest.startsWith(`task ${head[1]!} `) ? rest : `${readSummaryIn(head[0], key, "whole", "zh")}${rest}`;
  }
  return text;
}

/** The limits a window that holds no slot names (`noSlotWithin`), as their table keys. */
const WINDOW_LIMITS: readonly SummaryKey[] = ["windowPart", "windowSlots", "windowStartsFrom", "windowEndsBy"];

/** A task's label (`task <id> "<name>"`, an event's, a habit's) with its kind in Chinese. */
function labelInChinese(label: string): string {
  return label
    .replace(/^event /, "活动 ")
    .replace(/^task /, "任务 ")
    .replace(/^habit /, "习惯 ");
}

/** How each place of a phrase is said in Chinese (a place not named stays as the English has it). */
const READERS: PlaceReaders = {
  said: quoted,
  field: fieldInChinese,
  undoSubject: listInChinese,
  undoWhy: (why) => undoReasonSaid(why, "zh"),
  mark: markInChinese,
  status: statusWord,
  state: (state) => statusWord(state.split(" ")[0]!),
  what: (what) => (what === "habit" ? "习惯" : "任务"),
  limits: limitsInChinese,
  weekday: weekdayInChinese,
  neighbour: (neighbour) => neighbour.replace(/^event /, "活动 ").replace(/^task /, "任务 "),
  one: labelInChinese,
  two: labelInChinese,
  occupant: (occupant) =>
    occupant
      .replace(/^locked event /, "已锁定的活动 ")
      .replace(/^event /, "活动 ")
      .replace(/^task /, "任务 "),
  near: (near) => near.replace(" and ", " 和 "),
  matching: (matching) => matching.replace(/" or "/g, '" 或 "'),
  // A task or an event as the offline policy names it (`"Name"`, or `the event "Name"`).
  subject: (subject) => {
    const event = readSummary("theEvent", subject);
    return event ? saySummary("zh", "theEvent", event) : subject;
  },
  shift: (shift) => {
    for (const key of SHIFT_KEYS) {
      const read = readSummary(key, shift);
      if (read) return saySummary("zh", key, read);
    }
    return shift;
  },
  unplaceWhy: (why) =>
    saySummary("zh", why === SUMMARY_WORDS.en.pendingAlready ? "pendingAlready" : "onlyReviewsUnplaced"),
  // The tasks an arrange step names that are history ("essay-draft is done, missed-one is missed").
  settled: (settled) =>
    settled
      .split(", ")
      .map((each) => readSummaryIn(each, "settledAs", "whole", "zh", { status: statusWord }))
      .join("，"),
  // Why there is nothing to undo: the last change another domain's, else why the listing is empty, then each write
  // of it that cannot be undone, by its tasks' names ('"Matrix review": …'; by its tool and ids in older threads,
  // "place t1: …"), joined by "; " (a write's reason may hold "; " of its own).
  undoReasons: (reasons) => {
    const elsewhere = readSummary("lastChangeElsewhere", reasons);
    if (elsewhere) return saySummary("zh", "lastChangeElsewhere", elsewhere);
    return reasons
      .split(new RegExp(`; (?=${UNDO_SUBJECT}: )`))
      .map((reason) => {
        const key = EMPTY_UNDO.find((each) => SUMMARY_WORDS.en[each] === reason);
        if (key) return saySummary("zh", key);
        const entry = new RegExp(`^(${UNDO_SUBJECT}): ([\\s\\S]*)$`).exec(reason);
        return entry ? `${listInChinese(entry[1]!)}：${undoReasonSaid(entry[2]!, "zh")}` : reason;
      })
      .join("；");
  },
  recoveryWhy: (why) => recoveryEmptyText(why, "zh"),
  place: (place) => placeNameIn(place, "zh"),
  // The limits of a window that holds no slot, each its own phrase (`noSlotWithin`).
  window: (window) =>
    window
      .split(" and ")
      .map((limit) => {
        for (const key of WINDOW_LIMITS) {
          const read = readSummary(key, limit);
          if (read) return saySummary("zh", key, { ...read, ...(read.part ? { part: partInChinese(read.part) } : {}) });
        }
        return limit;
      })
      .join("、"),
  names: (names) => {
    const list = (text: string) => text.replace(/"([^"]*)"/g, "“$1”").replace(/, /g, "、");
    const more = readSummary("namesAndMore", names);
    return more ? saySummary("zh", "namesAndMore", { names: list(more.names!), more: more.more! }) : list(names);
  },
};

/**
 * What a write that cannot be undone is said as in the undo step's reasons: its tasks' names, JSON-quoted and joined
 * by ", ", or its tool and ids ("move matrix-review", in older threads and where a name is not known).
 */
const UNDO_SUBJECT = '(?:"(?:[^"\\\\]|\\\\.)*"(?:, "(?:[^"\\\\]|\\\\.)*")*|[a-z_]+(?: [A-Za-z0-9_][A-Za-z0-9_.:-]*)*)';

/**
 * Why a write of the last card cannot be undone (propose_undo's reason, its ids named by `undoReasonNamed`), in
 * `language`: each reason of the undo's table, and a week's refusal in one through the summaries' reading.
 */
export function undoReasonSaid(why: string, language: Language): string {
  return undoReasonIn(why, language, (part) => (language === "zh" ? summaryInChinese(part) : part));
}

/** Why propose_undo's listing is empty (`NOTHING_TO_UNDO`), as their table keys. */
const EMPTY_UNDO: readonly SummaryKey[] = ["undoNoneYet", "undoGone"];

/** The task report's lines that list writes (`contracts/report-words.ts`). */
const REPORT_WRITES: readonly ReportKey[] = ["applied", "approvedNotApplied"];

/**
 * The steps of the reading, in order: each a phrase of the table, or (for the summaries not in the table yet) the
 * pattern that always read it.
 */
const STEPS: ReadonlyArray<(text: string) => string> = [
  // A card the user declined (the offline policy's steps; "you declined the new place" is read below).
  read("declinedUndo", "whole"),
  read("declinedRecovery", "whole"),
  read("declinedChange", "whole"),
  read("declinedSkipDay", "whole"),
  read("declinedClearDay", "whole"),
  read("declinedDoneDay", "whole"),
  read("declinedMissedDay", "whole"),
  read("declinedRefinement", "whole"),
  // Why a step was not carried out (the reason after "not carried out: "), each its whole reason.
  read("noEventMatches", "whole"),
  read("noClassMatches", "whole"),
  read("noSessionsToPlace", "whole"),
  read("cannotMoveSpread", "whole"),
  read("noPlaceToMoveFrom", "whole"),
  read("noFreeTimeShifted", "whole"),
  read("outsideSchedule", "whole"),
  read("cannotUnplace", "whole"),
  read("notUnderstood", "whole"),
  read("settledNotPending", "whole"),
  read("noDayBefore", "whole"),
  read("arrangementUnread", "whole"),
  read("calendarGone", "whole"),
  read("longTaskNoClass", "whole"),
  read("weekdayNotShown", "whole"),
  read("noReviewOnDay", "whole"),
  read("noReviewWasOnDay", "whole"),
  read("answerIsRequest", "whole"),
  read("nothingToUndo", "whole"),
  read("undoneInPart", "whole"),
  read("noChangeToRecover", "whole"),
  // A call's arguments the tool's check refused (`argument-words.ts`).
  read("argTooBig", "whole"),
  read("argTooSmall", "whole"),
  read("argNotUsable", "whole"),
  read("argMissing", "whole"),
  // A write the clock refused (`rules.ts` `pastRefusalText`).
  read("pastStarted", "whole"),
  read("pastStartedKept", "whole"),
  read("pastNoTimeAhead", "whole"),
  // A window of the day that holds no slot (`offline/schedule/empty-window.ts`).
  read("noSlotEndsBy", "whole"),
  read("noSlotStartsFrom", "whole"),
  read("noSlotInSlots", "whole"),
  read("noSlotWithin", "whole"),
  // import_calendar's refusal when nothing can be added (what it imported is said from its data).
  // (Read at the start: what follows the colon stays for the phrases below.)
  // (The earlier one-offs' head before the bare head it begins with.)
  read("importNoneEarlier", "start"),
  read("importNoneInWindow", "start"),
  read("importNone", "start"),
  read("importNothingNew", "start"),
  read("addedIdToClass", "start"),
  read("addedToClass", "start"),
  read("classCreated", "start"),
  read("classUpdated", "start"),
  // The refinement's summary (`nodes/execute/refinement.ts`): its head, why it stopped, what is forced, each read
  // back against the refinement's own table (`contracts/refinement-words.ts`); why each review is forced is ours.
  ...REFINEMENT_HEADS.map((key) => refinement(key, "start")),
  ...REFINEMENT_STOPS.map((key) => refinement(key, "anywhere")),
  refinement("forcedNamed", "anywhere"),
  read("forcedApart", "anywhere"),
  read("forcedPassed", "anywhere"),
  read("moved", "whole"),
  read("placed", "anywhere"),

  // The report's lists of writes (a line after the first: "Changes applied (they stay): N — …", ending "and N more"
  // past the ones they name), read back against the report's own table; the writes in them are said above.
  (text) =>
    text
      .split("\n")
      .map((line, index) =>
        index > 0 && REPORT_WRITES.some((key) => readBack(REPORT_WORDS.en[key], line))
          ? reportLineIn(line, "zh")
          : line,
      )
      .join("\n"),
  read("unplacedFromHost", "whole"),
  read("unplaced", "whole"),
  (text) =>
    text.replace(
      new RegExp(`${summaryPattern("swapped", "start").source};`),
      (swapped: string) => `${readSummaryIn(swapped.slice(0, -1), "swapped", "whole", "zh")}；`,
    ),
  // swap's refusal of two tasks of different lengths.
  read("swapUnequal", "whole"),
  // swap's result on its own (its first line, as the terminal shows it).
  read("swapped", "whole"),
  // The life marks (`markedText`): what the task was, and what it is now.
  read("marked", "whole"),
  read("markedFreed", "whole"),
  read("markedNamed", "whole"),
  read("markedNamedFreed", "whole"),
  read("reopened", "whole"),
  read("noneMarkedMissed", "whole"),
  // A missed review the user declined to make up (`offline/schedule/life-steps.ts`).
  read("declinedNewPlace", "end"),
  read("keptMissed", "end"),
  read("nothingToLetGo", "whole"),
  read("nothingMissed", "whole"),
  read("movedMany", "anywhere"),
  read("nowOn", "anywhere"),
  read("wasOn", "anywhere"),
  read("verified", "anywhere"),
  read("verifiedFitting", "anywhere"),
  read("missedNoPlaceNamed", "anywhere"),
  read("missedNoPlace", "anywhere"),
  // What a step's words name matches nothing, or too much (`step-endings.ts`, `task-lookup.ts`, `arrange-step.ts`).
  read("noTaskFound", "anywhere"),
  read("noTaskListed", "anywhere"),
  read("noPlacedTaskFound", "anywhere"),
  read("noPlacedTaskListed", "anywhere"),
  // A swap never takes a locked event (`swap-step.ts`).
  read("lockedEvent", "whole"),
  read("lockedEventId", "whole"),
  read("lockedBare", "whole"),
  read("noEventFound", "anywhere"),
  read("noEventListed", "anywhere"),
  read("matchesEvents", "end"),
  read("stillMatchesEvents", "end"),
  // remove_event's refusals (`tools/remove-event.ts`): what the week still depends on.
  read("eventIsDeadline", "whole"),
  read("eventHolds", "whole"),
  // A move to where the task already is (the move tool's refusal, and the offline policy's own).
  read("alreadyOn", "whole"),
  read("notOnDays", "whole"),
  read("noPlaceNotOnDays", "whole"),
  read("notOnDayToTakeOff", "whole"),
  read("noAnchorMatch", "whole"),
  read("noRoomRightAfter", "whole"),
  read("noRoomRightBefore", "whole"),
  read("noClassOn", "whole"),
  read("noEarlierDay", "whole"),
  read("noLaterDay", "whole"),
  // A clock time that names no slot (the offline policy's `moveStep`), or a review past moving, and what it did not do.
  read("pastStarted", "start"),
  read("noSlotStartsAt", "start"),
  read("outsideDaySlots", "start"),
  read("noClockTimes", "start"),
  read("nameADay", "start"),
  read("nothingMoved", "end"),
  read("nothingPlaced", "end"),
  // A mark the task's state does not take (the offline policy's `markStep`).
  read("alreadyMarked", "whole"),
  read("notMarkable", "whole"),
  read("notMissedYet", "whole"),
  // Every review moved by days (the offline policy's shift step).
  read("shiftDaysUnknown", "whole"),
  read("declinedShift", "whole"),
  read("noReviewToShift", "whole"),
  read("noRoomOnDay", "whole"),
  read("noRuledRoomOnDay", "whole"),
  read("dayKeptFree", "whole"),
  read("noRoomAway", "whole"),
  read("noRuledRoomAway", "whole"),
  read("noRuledTimeShifted", "whole"),
  read("weekRefusedMove", "whole"),
  // No free time where the move step was asked to put a task.
  read("noFreeTimeAskedPassed", "whole"),
  read("noFreeTimeAsked", "whole"),
  // "Earlier" on a card at the first slot of the day.
  read("alreadyFirstSlot", "whole"),
  // A write the user rejected on its card.
  read("rejectedMove", "anywhere"),
  read("rejectedSwap", "anywhere"),
  read("rejectedImport", "anywhere"),
  read("rejectedIt", "anywhere"),
  // The arrange step's summary (`offline/schedule/arrange-step.ts` `arrangeSummary`); its left-out reasons follow.
  read("everyProposed", "start"),
  read("placedNone", "start"),
  read("proposedSkipped", "anywhere"),
  read("proposedLeftPending", "anywhere"),
  bracketed("noFreeSlot"),
  bracketed("noFreeSlotRestPassed"),
  bracketed("deadlinePassed"),
  bracketed("noFreeSlotWithinPassed"),
  bracketed("noFreeSlotWithin"),
  bracketed("noRoomBeside"),
  bracketed("classRulesApart"),
  bracketed("classRules"),
  bracketed("sessionEachDay"),
  bracketed("notFoundInBudget"),
  bracketed("standingRulesOut"),
  read("noPendingTaskMatches", "anywhere"),
  read("noPendingMatch", "anywhere"),
  read("alreadyOnSchedule", "anywhere"),
  // A write the rules refused (`move.ts`, `place.ts`): what it would have done, then why.
  refusedWrite,
  // Why a write does not fit where it was asked (`slot-range.ts` `windowProblem`, `placement.ts` `landOne`).
  read("outsideWindow", "anywhere"),
  read("outsideDay", "anywhere"),
  read("pastDayEnd", "anywhere"),
  read("overlapsEmbedded", "anywhere"),
  read("overlapsOccupant", "anywhere"),
  read("overlapsEmbeddable", "anywhere"),
  read("partlyInside", "anywhere"),
  // The buffer a class keeps around its reviews (`rules.ts`).
  read("bufferHeld", "anywhere"),
  // The hard rules' refusals (`rules.ts`), their places already by date and time above.
  read("dueBeforeEvent", "anywhere"),
  read("dueBeforeDay", "anywhere"),
  read("notBeforeEarliest", "anywhere"),
  read("classExcludesDay", "anywhere"),
  read("classBlocksDay", "anywhere"),
  read("acrossBreak", "anywhere"),
  read("sameDaySession", "anywhere"),
  // The standing preferences' refusals (`rules.ts`, `find-free.ts`): the preference in the user's own words.
  read("standingDayOut", "anywhere"),
  read("standingStartNone", "anywhere"),
  read("standingStartFrom", "anywhere"),
  read("standingStartRange", "anywhere"),
  read("standingEndBy", "anywhere"),
  read("liftStandingDay", "anywhere"),
  read("liftStanding", "anywhere"),
  read("standingEveryDay", "anywhere"),
  read("standingDaysLeftOut", "anywhere"),
  read("standingHoursLeftOut", "anywhere"),
  read("standingHoursNone", "anywhere"),
  read("standingHoursCut", "anywhere"),
  read("range", "anywhere"),
  read("embedded", "anywhere"),
];
