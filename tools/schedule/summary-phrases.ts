/**
 * The schedule steps' summary phrases, one table a language (issue 45): each phrase a template with `{named}` places,
 * as `contracts/report-words.ts` is for the task report. The tools and the closing check write their English from it
 * (`saySummary("en", …)`: the text the model reads and the thread stores); the Chinese is said from the same facts
 * where they are at hand, and stored English is read back against the same English templates (`readSummary`,
 * `readSummaryIn`): the pattern is built from the phrase, so a reworded phrase is read back as it is now written, and
 * the table check (tests/schedule/summary-phrases.test.ts) fails when a phrase lacks its Chinese or its places.
 *
 * A leaf: it imports nothing of the schedule, so every tool can write from it. How a place is read back (its pattern)
 * is set here by its name; how it is said in Chinese (a task status, a weekday) is given by the reader
 * (`tools/schedule/summary-words.ts`).
 */
import { fill, placesOf } from "../../contracts/language.js";
import type { Language } from "../../contracts/language.js";
import { REPORT_WORDS } from "../../contracts/report-words.js";

const EN = {
  // A write's result (`tools/place.ts`, `move.ts`, `unplace.ts`, `swap.ts`, `batch-move.ts`, `format.ts`).
  placed: "placed task {id} on {where}",
  moved: "moved task {id} from {was} to {where}",
  unplaced: "unplaced task {id} from {was}; it is pending again",
  unplacedFromHost: "unplaced task {id} from {was} (was embedded in host {host}); it is pending again",
  swapped: "swapped task {id} and task {other}",
  // swap's refusal of two tasks of different lengths (`tools/swap.ts`): each task by its label.
  swapUnequal: "{one} takes {oneLength} slots but {two} takes {twoLength}; only tasks of equal length can swap",
  movedMany: "moved {count} tasks",
  nowOn: "- task {id} now on {where}",
  wasOn: "; was on {where}",
  embedded: " embedded in host {host}",
  range: "day {day} slots {start}-{end}",
  alreadyOn: "{subject} is already on {where}; nothing to move",
  // A move off days the task is not on ("move the essay off Tuesday", the offline policy's `moveStep`).
  notOnDays: "{subject} is not on {days} (it is on {where}); nothing to move",
  noPlaceNotOnDays: "{subject} has no place yet, so it is not on {days}; nothing to move",
  // A task taken off a day it is not on ("remove the essay from Friday", the offline policy's `unplaceStep`).
  notOnDayToTakeOff: "{subject} is not on {days} (it is on {where}); nothing to take off",
  noAnchorMatch: "no task or event matches {anchor}",
  noRoomRightAfter: "no free time fits {subject} right after {anchor}",
  noRoomRightBefore: "no free time fits {subject} right before {anchor}",
  noClassOn: "there is no class on {days}",
  noEarlierDay: "{subject} is on {where}, the first day of your schedule: there is no earlier day to move it to",
  noLaterDay: "{subject} is on {where}, the last day of your schedule: there is no later day to move it to",
  // A task's life (`tools/task-life.ts`; the offline policy names a task by its name).
  marked: "marked task {id} {mark} (it was {status})",
  markedFreed: "marked task {id} {mark} (it was {status}); its place is free again",
  markedNamed: "marked {said} {mark} (it was {status})",
  markedNamedFreed: "marked {said} {mark} (it was {status}); its place is free again",
  reopened: "reopened task {id}: it was {status}, it is pending again",
  // A mark the task's state does not take (the offline policy's mark step, `offline/schedule/mark-step.ts`).
  alreadyMarked: "{subject} is already {state}; nothing to mark",
  notMarkable: "{subject} is {state}, so it cannot be marked {mark}",
  // A placed review the clock has not reached: it cannot be missed yet (the mark tool's and the policy's refusal).
  notMissedYet:
    "{subject} is on {place}, still ahead, so it cannot be marked missed yet (to drop it this week, skip it)",
  // A class written (`tools/task-classes.ts`).
  classCreated: "created task class {id} {said}",
  classUpdated: "updated task class {id} {said}",
  // A task added to a class (the offline policy's add step, `offline/schedule/class-steps.ts`; by id in older threads).
  addedToClass: 'added task "{name}" to class {class}',
  addedIdToClass: 'added task {id} "{name}" to class {class}',
  // The closing check (`domain.ts` `SCHEDULE_VERIFICATION`).
  verified: "the schedule shows {pending} review task(s) still pending",
  verifiedFitting: "; {fitting} of them fit somewhere free as the week stands",
  missedNoPlace: "; {missed} missed review task(s) have no place",
  missedNoPlaceNamed: "; {missed} missed review task(s) have no place: {names}",
  namesAndMore: "{names} and {more} more",
  // Why the arrangement left a review out (`arrangement.ts` `whyLeftOut`), in brackets after its id.
  deadlinePassed: "its deadline has passed",
  noFreeSlot: "no free slot fits",
  noFreeSlotRestPassed: "no free slot fits in what is left of the week (the rest has passed)",
  noFreeSlotWithin: "no free slot fits {limits}",
  noFreeSlotWithinPassed: "no free slot fits {limits}: the time there that would fit it has passed",
  noRoomBeside: "no room left beside the other placements",
  notFoundInBudget: "no place beside the other placements found within the search budget",
  classRules: "its class's rules or its deadline leave no free slot that fits",
  classRulesApart:
    "its class's rules or its deadline leave no free slot that fits on a day without another session of {what} {group}",
  sessionEachDay: "another session of {what} {group} is on each day with room for it",
  standingRulesOut:
    "your standing preference {rules} rules out the free time it fits in (/prefs lists your preferences, /forget removes one)",
  // The limits in noFreeSlotWithin's {limits} (`arrangement.ts` `limitsText`), joined by limitsAnd: the days one names
  // (weekday names in a week's window, limitDay in a longer one), joined by limitDaysAnd.
  limitOnlyOn: "only on {days}",
  limitOutside: "outside {days}",
  limitSlots: "in slots {start}-{end}",
  limitOutsideSlots: "outside {days} slots {start}-{end}",
  limitRejected: "away from the places you rejected",
  limitDay: "day {day}",
  limitDaysAnd: " and ",
  limitsAnd: ", ",
  // remove_event's and import_calendar's refusals (`tools/remove-event.ts`, `calendar-io.ts`): what the week still
  // depends on, and a file with nothing to add (its reasons, after the colon, are read by the phrases below).
  eventHolds: "{event} holds {ids}; move them out first; nothing was removed",
  eventIsDeadline: "the deadline of {ids} is {event}; change it first; nothing was removed",
  importNoneInWindow: "no event of the file can be added (none falls in the window)",
  importNoneEarlier: "no event of the file can be added (none falls in the window): {skipped}",
  importNone: "no event of the file can be added: {skipped}",
  importNothingNew: "nothing new to import: {skipped}",
  // The rules' refusals of a write (`rules.ts`, surfaced by `tools/move.ts` and `place.ts`): what the write would have
  // done, then why in the rules' words (a refusal about the task itself names it once: the prefix goes, as
  // `readableScheduleText` drops it).
  cannotMove: "cannot move task {id}: ",
  cannotPlace: "cannot place task {id} (duration {duration}): ",
  // Why a write does not fit where it was asked (`slot-range.ts` `windowProblem`, `placement.ts` `landOne`): a place
  // outside the window or the day, and what is there already (an embeddable event named by its id and its name).
  outsideWindow: "day {day} is outside the window (days 1-{lastDay})",
  outsideDay: "slot {slot} is outside the day (slots 1-{lastSlot})",
  pastDayEnd: "slots {start}-{end} run past the end of the day (slots 1-{lastSlot})",
  overlapsOccupant: "{span} overlaps {occupant} on {occupantSpan}",
  overlapsEmbeddable: "{span} overlaps embeddable event {id} {event}; only task items can sit inside it",
  partlyInside:
    "{span} is only partly inside embeddable event {id} {event} ({occupantSpan}); place it entirely inside or entirely outside",
  overlapsEmbedded: "{span} overlaps {occupant} already embedded in event {id} {event} on {occupantSpan}",
  // The buffer a class keeps around its sessions, after the buffered task's label; where the other is follows.
  bufferHeld: " keeps {buffer} free slot(s) around it (its class {className}), but {neighbour} is at ",
  // The hard rules of a class and a task, after the task's label (`ruleText`).
  dueBeforeEvent: " must be done before {deadline} ({deadlineAt}); {where} is too late",
  dueBeforeDay: " is due before {due}; {where} is too late",
  notBeforeEarliest: " cannot go before {earliest} (its earliest day); {where} is too early",
  classExcludesDay: " cannot go on {where}: its class {className} excludes {weekday}",
  classBlocksDay: " cannot go on {where}: the whole day is blocked for its class {className}",
  // A session's slots across a break of the day's clock, and a second session of one habit or long task on a day.
  acrossBreak:
    " cannot take {where}: its slots would span the break between {breakStart} and {breakEnd} (a session runs without a break)",
  sameDaySession:
    " cannot go on {where}: {other}, another session of {what} {group}, is on that day already (no two sessions of one {what} on one day)",
  // The standing preferences' refusals (`rules.ts`, after the task's label; `tools/find-free.ts`): the preference in
  // the user's words, and how to lift it.
  standingDayOut: " cannot go on {where}: your standing preference {said} rules {weekday} out; ",
  standingStartNone:
    " cannot start at slot {slot}: your standing preference {said} leaves no slot of the day (the day's slots have none it allows); ",
  standingStartFrom: " cannot start at slot {slot}: your standing preference {said} allows slots {from}-end only; ",
  standingStartRange: " cannot start at slot {slot}: your standing preference {said} allows slots {from}-{to} only; ",
  standingEndBy: " cannot end at slot {slot}: your standing preference {said} allows slots up to {to} only; ",
  liftStandingDay:
    'to change it, remove it (/prefs lists your preferences, /forget {rule} removes this one) or tell me "{weekday}s are fine now"',
  liftStanding: "to change it, remove it (/prefs lists your preferences, /forget {rule} removes this one)",
  standingEveryDay: "your standing preferences rule out every day of the window",
  standingDaysLeftOut: " (days {days} left out: your standing preferences rule them out)",
  // find_free's notes of the standing preferences' hours (`tools/find-free.ts`): days they leave no slot of, left out
  // of a search for any day or searched by name, and days whose free room reaches past the slots they keep.
  standingHoursLeftOut: " (days {dayList} left out: your standing preference {rules} leaves them no slot)",
  standingHoursNone: " (days {dayList}: your standing preference {rules} leaves reviews no slot)",
  standingHoursCut: " (days {dayList}: your standing preference {rules} allows reviews in slots {from}-{to} only)",
  // Why the candidates' listing says a review is forced, after its id (`candidates.ts`).
  forcedPassed: " (deadline passed)",
  forcedApart: " (fits nowhere beside the others, proved)",
  // propose_reschedule's reasons for a review left missed (`tools/reschedule.ts`), and its empty listings.
  noPlaceBeforeDeadline: "no free place that keeps its rules is left before its deadline",
  noPlaceBeforeWindowEnd: "no free place that keeps its rules is left before the window's end",
  notBesideOthers:
    "it fits on its own, but not beside the other missed reviews placed: no arrangement places more of them",
  notFoundBesideOthers: "no place beside the others was found within the search's budget (not proved)",
  noPlaceForMissed: "no free place fits the missed review(s)",
  missedPastDeadline: "the missed review(s) are past their deadline",
  nothingMissed: "no review is missed",
  stillMissed: "still missed: {said} ({why})",
  // The offline policy's arrange step (`offline/schedule/arrange-step.ts`, what propose_arrangement's cards left): the
  // heading, the ids skipped, the reviews left pending (each with why, in brackets), the ones already placed.
  everyProposed: "every placement the plan had room for was proposed",
  // (A step that placed nothing of what it asked, the rest left pending after it: not carried out.)
  placedNone: "nothing was placed",
  proposedSkipped: "; skipped: ",
  proposedLeftPending: "; left pending: ",
  noPendingMatch: " (no pending task matches)",
  alreadyOnSchedule: "; {ids} already on the schedule",
  // A write the clock refused (`rules.ts` `pastRefusalText`): the review by name ({said}), its place as `placeName`
  // says it ({place}).
  pastStarted: "{said} ({place}) has already started: the past is fixed, so it does not move",
  pastStartedKept:
    "{said} ({place}) has already started: the past is fixed, so it is not taken off; tell me you did it or missed it instead",
  pastNoTimeAhead: "{said} has no time ahead (its last: {place}): the past is fixed, so nothing was removed",
  // The offline policy's own refusals and matching words (`offline/schedule/move-step.ts`, `life-steps.ts`,
  // `arrange-step.ts`): a clock time that names no slot (the move step's), and what was not done after it.
  noSlotStartsAt: "no slot starts at {at} (the slots near it start at {near})",
  outsideDaySlots: "{at} is outside the day's slots ({first}–{last})",
  noClockTimes: 'your schedule\'s slots have no clock times, so {at} names no slot (name a slot, such as "slot 5")',
  nameADay: 'name a day with the time (such as "on Friday at {at}")',
  // A window of the day that holds no slot (`offline/schedule/empty-window.ts`): a limit no slot meets, or limits no
  // slot meets at once (each named by a phrase below, joined by " and "), and the question the plan asks instead.
  noSlotEndsBy: "no slot of the day ends by {at}: the first one runs {first}–{last}",
  noSlotStartsFrom: "no slot of the day starts at {at} or later: the last one runs {first}–{last}",
  noSlotInSlots: "no slot of the day is in slots {start}-{end} (a day has slots 1-{count})",
  noSlotWithin: "no slot of the day is {window}",
  windowPart: "in the {part} (slots {start}-{end})",
  windowSlots: "in slots {start}-{end}",
  windowStartsFrom: "starting at {at} or later",
  windowEndsBy: "ending by {at}",
  noSlotLeftToday:
    "the time asked for today has passed: it is {at} now, and the last slot it allows started at {first}",
  noSlotAsk: "{why}. Which time do you mean instead?",
  noSlotPlanKept: "{why}; the plan is unchanged.",
  // (Also the end of swap's and batch_move's refusals, `atomic-moves.ts`, `tools/batch-move.ts`: none of them moved.)
  nothingMoved: "; nothing was moved",
  nothingPlaced: "; nothing was placed",
  // No free time where the move step was asked to put a task (the time that has started is not free).
  noFreeTimeAsked: "no free time of {length} slot(s) fits {subject} where asked",
  noFreeTimeAskedPassed:
    "no free time of {length} slot(s) fits {subject} where asked (the time that has passed there is left out)",
  // "Earlier" said on a card proposing the first slot of the day: nothing that day is earlier.
  alreadyFirstSlot:
    "{subject} was proposed at the first slot of the day, so nothing on that day is earlier; name another day or a time",
  // A write the user rejected on its card (the step's ending; the move's may add their words in brackets).
  rejectedMove: "the user rejected the move",
  rejectedSwap: "the user rejected the swap",
  rejectedImport: "the user rejected the import",
  rejectedIt: "the user rejected it",
  // A locked event a swap never moves (the swap step; older threads stored the event bare, or by id).
  lockedEvent: "the event {event} is locked, and a swap never moves it; if its time really changed, ask me to move it",
  lockedEventId:
    "event {id} {event} is locked, and a swap never moves it; if its time really changed, ask me to move it",
  lockedBare: "{event} is locked, and a swap never moves it; if its time really changed, ask me to move it",
  // What a step's words name matches nothing, or too much (older threads said "list_tasks shows" for "I found").
  noTaskFound: "I found no task matching {matching}",
  noTaskListed: "list_tasks shows no task matching {matching}",
  noPlacedTaskFound: "I found no placed task matching {matching}",
  noPlacedTaskListed: "list_tasks shows no placed task matching {matching}",
  noEventFound: "I found no event matching {matching}",
  noEventListed: "list_tasks shows no event matching {matching}",
  matchesEvents: "{matching} matches {count} events ({ids})",
  stillMatchesEvents: "{matching} still matches {count} events ({ids})",
  noPendingTaskMatches: "no pending task matches {matching}",
  // A step the offline policy ended without doing it: why (its reason read as a summary of its own), and the card
  // the user declined (each its own phrase: the Chinese of most says only that a change was declined).
  notCarriedOut: "not carried out: {reason}",
  // A call's arguments the tool's check refused (`tools/argument-issues.ts`), its field in the person's words
  // (`argument-words.ts`): what they read instead of the schema's message, which only the model reads.
  argTooBig: "the {field} asked for ({given}) is more than it can be: at most {bound}; nothing was changed",
  argTooSmall: "the {field} asked for ({given}) is less than it can be: at least {bound}; nothing was changed",
  argNotUsable: "the {field} asked for ({given}) cannot be used; nothing was changed",
  argMissing: "no {field} was given; nothing was changed",
  declinedUndo: "you declined the undo",
  declinedRecovery: "you declined the recovery",
  declinedChange: "you declined the change",
  declinedSkipDay: "you declined skipping the day's reviews",
  declinedClearDay: "you declined clearing the day",
  declinedDoneDay: "you declined marking the day's reviews done",
  declinedMissedDay: "you declined marking the day's reviews missed",
  declinedRefinement: "you declined the refinement; the week stays as arranged",
  // Why a step was not carried out, as the offline policy's steps write it after "not carried out: " (issue 45): what
  // its words name is not in the schedule (`arrange-step.ts` `eventNamed`; the phrase as the step said it, in quotes).
  noEventMatches: 'no event matches "{phrase}"',
  // (`class-steps.ts`: a class the add or rules step names; a long task whose add was refused or declined.)
  noClassMatches: 'no class matches "{phrase}"',
  noSessionsToPlace: "{names} has no sessions to place",
  // (`move-places.ts`, for moveStep: an event on several ranges, a task with no place to shift from, a shift that lands on
  // no free time; the subject named as people read it — an event as "the event …" — and the shift as the step said it.)
  cannotMoveSpread: "{subject} cannot move (it is not on a single slot range)",
  noPlaceToMoveFrom: "{subject} has no place to move from",
  noFreeTimeShifted: "no free time fits {subject} {shift}",
  theEvent: "the event {event}",
  shiftLaterSameDay: "later the same day",
  shiftEarlierSameDay: "earlier the same day",
  shiftDayLater: "a day later",
  shiftDayEarlier: "a day earlier",
  shiftDaysLater: "{count} days later",
  shiftDaysEarlier: "{count} days earlier",
  shiftMinutesLater: "{count} minutes later",
  shiftMinutesEarlier: "{count} minutes earlier",
  // (`move-step.ts`: a shift of days past the window's ends; `unplace-step.ts`: a task that is not placed.)
  outsideSchedule: "{shift} is outside the schedule",
  cannotUnplace: "{subject} — {unplaceWhy}",
  pendingAlready: "it is pending already, not on the schedule",
  onlyReviewsUnplaced: "it is a timetable event; only review tasks can be unplaced",
  // (`offline/schedule/execute-stage.ts`, `offline/todo/policy.ts`: a step the offline policy cannot read, edited by hand, say.)
  notUnderstood: REPORT_WORDS.en.notUnderstood,
  // (`arrange-step.ts`: the tasks named are history, not work to place; no day of the window before the event named;
  // an arrangement without its data.)
  settledNotPending: "{settled}, not pending",
  settledAs: "{id} is {status}",
  noDayBefore: "no day comes before the {phrase}",
  arrangementUnread: "the arrangement could not be read",
  // (`calendar-import.ts`: a later run of the request without its file.)
  calendarGone: "the calendar file is no longer attached to this request; send it again (/import <file.ics>)",
  // (`class-steps.ts` addLongTaskStep: a long task whose class or deadline day the step cannot tell.)
  longTaskNoClass:
    'I could not tell which class "{name}" belongs to; say it with the class, as "{name}, {hours} hours, before {weekday}, for English"',
  weekdayNotShown: "that weekday is not in the week shown",
  // (`move-step.ts`, `swap-step.ts`: a move of "Thursday's review" when none is placed that day.)
  noReviewOnDay: "no review is placed on {weekday}",
  // (`mark-step.ts`: "I missed yesterday's review" when yesterday held no placed review.)
  noReviewWasOnDay: "no review was placed on {weekday}",
  // (`mark-step.ts`: a request of its own sent while "which of the day's reviews?" was open.)
  answerIsRequest: 'nothing was marked: "{request}" is a new request, not which review; send it again to have it done',
  // (`life-steps.ts`: an undo or a recovery with nothing to offer; why, as propose_undo's and propose_recovery's
  // listings say it, the undo's reasons joined by "; ".)
  nothingToUndo: "there is nothing I can undo — {undoReasons}",
  undoNoneYet: "no change was applied in this conversation yet",
  undoGone: "nothing of the last change can be undone now",
  lastChangeElsewhere: "the last change ({tools}) was not to your schedule, and I can take back schedule changes only",
  noChangeToRecover: "there is no change to recover — {recoveryWhy}",
  // The offline policy's steps that report their writes (`offline/schedule/life-steps.ts`, `clear-day-step.ts`): a
  // heading, then each write.
  undone: "undid the last change",
  undidUndo: "the last change was an undo, and undoing it redid what it took back",
  // (`life-steps.ts`: a write the undo took back other than as it was, and why, as propose_undo's reasons say it.)
  undoneInPart: "{undoSubject} not as it was: {undoWhy}",
  rescheduled: "rescheduled",
  notRescheduled: "not rescheduled",
  nothingToReschedule: "nothing to reschedule",
  recovered: "recovered",
  skippedDay: "skipped the day's reviews",
  clearedDay: "cleared the day",
  skippedDays: "skipped the days' reviews",
  clearedDays: "cleared the days",
  markedDayDone: "marked the day's reviews done",
  markedDaysDone: "marked the days' reviews done",
  markedDayMissed: "marked the day's reviews missed",
  markedDaysMissed: "marked the days' reviews missed",
  // Every review moved by whole days at once (`offline/schedule/shift-all-step.ts`).
  shiftedReviews: "moved the reviews",
  shiftDaysUnknown: "it could not be told how many days to move the reviews by",
  declinedShift: "you kept the reviews where they are",
  noReviewToShift: "no review still ahead to move",
  staysBecause: "{subject} stays: {why}",
  noRoomOnDay: "no free time fits it on {days}",
  // Free time there, but none its own rules allow (read for it: `find_free` with its id).
  noRuledRoomOnDay: "no free time on {days} keeps its rules (its class, its deadline, your preferences)",
  // The day a shift lands on is one the standing preferences keep free (`find_free`'s days left out).
  dayKeptFree: "your standing preferences keep {days} free (/prefs lists them, /forget removes one)",
  // Off its day (or that part of it), to the nearest place: none anywhere else (`shift_all` with `away`).
  noRoomAway: "no free time fits it away from {days}",
  noRuledRoomAway: "no free time away from {days} keeps its rules (its class, its deadline, your preferences)",
  noRuledTimeShifted: "no free time {shift} keeps its rules (its class, its deadline, your preferences)",
  // A refusal of the week read back from a summarised round, its reason cut: the reason said plainly.
  weekRefusedMove: "the schedule's rules do not allow that move",
  reported: "{heading}: {writes}",
  letGo: "let go: {write}",
  declinedNewPlace: "you declined the new place",
  keptMissed: "you kept it missed",
  noneMarkedMissed: "no review was marked missed",
  nothingToLetGo: "nothing to let go: no review was marked missed",
} as const;

/** A summary phrase, by its key. */
export type SummaryKey = keyof typeof EN;

/** A move's shift as the move step says it ("a day later", "60 minutes earlier"), as their table keys. */
export const SHIFT_KEYS: readonly SummaryKey[] = [
  "shiftLaterSameDay",
  "shiftEarlierSameDay",
  "shiftDayLater",
  "shiftDayEarlier",
  "shiftDaysLater",
  "shiftDaysEarlier",
  "shiftMinutesLater",
  "shiftMinutesEarlier",
];

const ZH: Readonly<Record<SummaryKey, string>> = {
  placed: "已把任务 {id} 安排在{where}",
  moved: "已把任务 {id} 从{was}移到{where}",
  unplaced: "已把任务 {id} 从{was}撤下，它重新待安排",
  unplacedFromHost: "已把任务 {id} 从{was}撤下（原嵌入 {host}），它重新待安排",
  swapped: "已交换任务 {id} 和任务 {other}",
  swapUnequal: "{one} 占 {oneLength} 节，{two} 占 {twoLength} 节；只有时长相同的任务才能交换",
  movedMany: "移动了 {count} 个任务",
  nowOn: "- 任务 {id} 现在在 {where}",
  wasOn: "，原在 {where}",
  embedded: "（嵌入 {host}）",
  range: "第{day}天第{start}-{end}节",
  alreadyOn: "{subject} 已经在{where}，不用移动",
  notOnDays: "{subject} 不在{days}（它在{where}），不用移动",
  noPlaceNotOnDays: "{subject} 还没有安排时间，不在{days}，不用移动",
  notOnDayToTakeOff: "{subject} 不在{days}（它在{where}），不用撤下",
  noAnchorMatch: "没有与{anchor}匹配的任务或活动",
  noRoomRightAfter: "{anchor}之后紧挨着的时间里放不下{subject}",
  noRoomRightBefore: "{anchor}之前紧挨着的时间里放不下{subject}",
  noClassOn: "{days}没有课",
  noEarlierDay: "{subject} 在{where}，已经是日程的第一天，没有更早的一天可以移过去",
  noLaterDay: "{subject} 在{where}，已经是日程的最后一天，没有更晚的一天可以移过去",
  marked: "已把任务 {id} 记为{mark}（原为{status}）",
  markedFreed: "已把任务 {id} 记为{mark}（原为{status}），原来的时段空出来了",
  markedNamed: "已把{said}记为{mark}（原为{status}）",
  markedNamedFreed: "已把{said}记为{mark}（原为{status}），原来的时段空出来了",
  reopened: "已把任务 {id} 重新设为待安排（原为{status}）",
  alreadyMarked: "{subject} 已经是{state}状态，不用再记",
  notMarkable: "{subject} 现在是{state}状态，不能记为{mark}",
  notMissedYet: "{subject} 安排在{place}，时间还没到，还不能记为错过（这周不做的话，可以跳过它）",
  classCreated: "已创建课程 {id}{said}",
  classUpdated: "已更新课程 {id}{said}",
  addedToClass: "已在课程 {class} 中添加任务“{name}”",
  addedIdToClass: "已在课程 {class} 中添加任务 {id}“{name}”",
  verified: "日程显示还有 {pending} 个复习任务待安排",
  verifiedFitting: "，其中 {fitting} 个按目前的日程放得下",
  missedNoPlace: "；另有 {missed} 个错过的复习任务没有安排",
  missedNoPlaceNamed: "；另有 {missed} 个错过的复习任务没有安排：{names}",
  namesAndMore: "{names} 等（另有 {more} 项）",
  deadlinePassed: "截止时间已过",
  noFreeSlot: "没有能容纳它的空闲时段",
  noFreeSlotRestPassed: "本周剩下的时间里没有能容纳它的空闲时段（其余的已经过去）",
  noFreeSlotWithin: "{limits}：没有能容纳它的空闲时段",
  noFreeSlotWithinPassed: "{limits}：能容纳它的时间已经过去了",
  noRoomBeside: "能容纳它的时段已留给其他安排",
  notFoundInBudget: "在搜索预算内没有找到能放下它的位置",
  classRules: "它的课程规则或截止时间排除了所有空闲时段",
  classRulesApart: "在没有{what} {group} 其他一次的日子里，它的课程规则或截止时间排除了所有空闲时段",
  sessionEachDay: "能容纳它的每一天都已有{what} {group} 的另一次，同一任务一天只安排一次",
  standingRulesOut: "你的长期偏好 {rules} 排除了能容纳它的时段；/prefs 查看偏好，/forget 删除一条",
  limitOnlyOn: "只在{days}",
  limitOutside: "{days}以外",
  limitSlots: "第{start}-{end}节",
  limitOutsideSlots: "{days}第{start}-{end}节以外",
  limitRejected: "避开你拒绝的位置",
  limitDay: "第{day}天",
  limitDaysAnd: "、",
  limitsAnd: "，",
  eventHolds: "{event} 里有 {ids}；请先把它们移出；没有删除任何内容",
  eventIsDeadline: "{ids} 的截止时间是 {event}；请先修改截止时间；没有删除任何内容",
  importNoneInWindow: "文件里没有能添加的日程（都不在日程窗口内）",
  importNoneEarlier: "文件里没有能添加的日程（都不在日程窗口内）：{skipped}",
  importNone: "文件里没有能添加的日程：{skipped}",
  importNothingNew: "文件里没有新的日程可导入：{skipped}",
  cannotMove: "无法移动任务 {id}：",
  cannotPlace: "无法安排任务 {id}（时长 {duration} 节）：",
  outsideWindow: "第 {day} 天不在日程范围内（第 1–{lastDay} 天）",
  outsideDay: "第 {slot} 节不在一天的时段内（第 1–{lastSlot} 节）",
  pastDayEnd: "第 {start}-{end} 节超出了一天的最后一节（第 1–{lastSlot} 节）",
  overlapsOccupant: "{span} 与 {occupant}（{occupantSpan}）时间冲突",
  overlapsEmbeddable: "{span} 与可嵌入的活动 {id} {event} 时间冲突；只有任务可以放在它里面",
  partlyInside: "{span} 只有一部分在可嵌入的活动 {id} {event}（{occupantSpan}）里；请整个放在它里面或整个放在外面",
  overlapsEmbedded: "{span} 与已嵌入活动 {id} {event} 的 {occupant}（{occupantSpan}）时间冲突",
  bufferHeld: " 前后要留出 {buffer} 节空闲（它的课程 {className}），但{neighbour} 在",
  dueBeforeEvent: " 必须在{deadline}（{deadlineAt}）之前完成；{where} 太晚了",
  dueBeforeDay: " 必须在{due}之前完成；{where} 太晚了",
  notBeforeEarliest: " 不能早于{earliest}（它的最早日期）；{where} 太早了",
  classExcludesDay: " 不能安排在{where}：它的课程 {className} 不排{weekday}",
  classBlocksDay: " 不能安排在{where}：这一整天对它的课程 {className} 不可用",
  acrossBreak: " 不能占用{where}：这些时段会跨过 {breakStart}–{breakEnd} 的休息（一次安排要连续进行，中间不休息）",
  sameDaySession: " 不能安排在{where}：{what} {group} 的另一次 {other} 已在这一天（同一{what}一天只安排一次）",
  standingDayOut: " 不能安排在{where}：你的长期偏好{said}排除了{weekday}；",
  standingStartNone: " 不能从第{slot}节开始：你的长期偏好{said}排除了一天中的每个时段；",
  standingStartFrom: " 不能从第{slot}节开始：你的长期偏好{said}只允许第{from}节起；",
  standingStartRange: " 不能从第{slot}节开始：你的长期偏好{said}只允许第{from}-{to}节；",
  standingEndBy: " 不能在第{slot}节结束：你的长期偏好{said}只允许到第{to}节；",
  liftStandingDay: "要改变它，请删除它（/prefs 查看偏好，/forget {rule} 删除这一条），或者告诉我“{weekday}可以了”",
  liftStanding: "要改变它，请删除它（/prefs 查看偏好，/forget {rule} 删除这一条）",
  standingEveryDay: "你的长期偏好排除了日程窗口中的每一天",
  standingDaysLeftOut: "（已略过第 {days} 天：你的长期偏好排除了它们）",
  standingHoursLeftOut: "（已略过第 {dayList} 天：你的长期偏好 {rules} 让这些天没有可用的时段）",
  standingHoursNone: "（第 {dayList} 天：你的长期偏好 {rules} 不给复习留任何时段）",
  standingHoursCut: "（第 {dayList} 天：你的长期偏好 {rules} 只允许复习安排在第{from}-{to}节）",
  forcedPassed: "（截止时间已过）",
  forcedApart: "（已证明与其他安排放不到一起）",
  noPlaceBeforeDeadline: "截止之前已没有符合规则的空闲时段",
  noPlaceBeforeWindowEnd: "本窗口结束之前已没有符合规则的空闲时段",
  notBesideOthers: "单独放得下，但和已放回的其他错过的复习放不到一起：没有能放回更多的安排",
  notFoundBesideOthers: "在搜索预算内没有找到和其他复习一起的位置（未证明）",
  noPlaceForMissed: "没有能容纳错过的复习的空闲时段",
  missedPastDeadline: "错过的复习已过了截止时间",
  nothingMissed: "没有错过的复习",
  stillMissed: "仍为错过：{said}（{why}）",
  everyProposed: "已为计划中放得下的每个任务提出了安排",
  placedNone: "没有安排任何任务",
  proposedSkipped: "；跳过：",
  proposedLeftPending: "；仍待安排：",
  noPendingMatch: "（没有匹配的待安排任务）",
  alreadyOnSchedule: "；{ids} 已在日程上",
  pastStarted: "{said}（{place}）已经开始了：过去的安排不能改，所以不能移动",
  pastStartedKept: "{said}（{place}）已经开始了：过去的安排不能改，所以不能撤下；你可以告诉我它已经做完或者错过了",
  pastNoTimeAhead: "{said}已经没有还没到的时间了（最后一次：{place}）：过去的安排不能改，所以没有删除任何内容",
  noSlotStartsAt: "没有从 {at} 开始的时段（附近的时段从 {near} 开始）",
  outsideDaySlots: "{at} 不在一天的时段内（{first}–{last}）",
  noClockTimes: "你的日程时段没有钟点时间，无法确定 {at} 是哪一节（请说第几节，如“第5节”）",
  nameADay: "请连同时间说出哪一天（如“周五 {at}”）",
  noSlotEndsBy: "一天中没有在 {at} 之前结束的时段：第一节是 {first}–{last}",
  noSlotStartsFrom: "一天中没有在 {at} 或之后开始的时段：最后一节是 {first}–{last}",
  noSlotInSlots: "一天中没有第{start}-{end}节（一天有第1-{count}节）",
  noSlotWithin: "一天中没有同时满足这些条件的时段：{window}",
  windowPart: "{part}（第{start}-{end}节）",
  windowSlots: "第{start}-{end}节",
  windowStartsFrom: "{at} 或之后开始",
  windowEndsBy: "{at} 之前结束",
  noSlotLeftToday: "今天要求的时间已经过去了：现在是 {at}，它允许的最后一节在 {first} 开始",
  noSlotAsk: "{why}。你想改在什么时间？",
  noSlotPlanKept: "{why}；计划保持不变。",
  nothingMoved: "；没有移动任何任务",
  nothingPlaced: "；没有安排任何任务",
  noFreeTimeAsked: "要求的时间里没有能容纳{subject}的 {length} 节空闲时间",
  noFreeTimeAskedPassed: "要求的时间里没有能容纳{subject}的 {length} 节空闲时间（那里已经过去的时间不算）",
  alreadyFirstSlot: "{subject}提议的已经是当天的第一节，当天没有更早的时段；请说另一天或一个时间",
  rejectedMove: "你拒绝了这项修改",
  rejectedSwap: "你拒绝了这项修改",
  rejectedImport: "你拒绝了这次导入",
  rejectedIt: "你拒绝了这项修改",
  lockedEvent: "{event} 已锁定，交换不会移动它；如果它的时间确实改了，请让我移动它",
  lockedEventId: "{event}（{id}）已锁定，交换不会移动它；如果它的时间确实改了，请让我移动它",
  lockedBare: "{event} 已锁定，交换不会移动它；如果它的时间确实改了，请让我移动它",
  noTaskFound: "找不到匹配的任务：{matching}",
  noTaskListed: "找不到匹配的任务：{matching}",
  noPlacedTaskFound: "找不到匹配的已安排任务：{matching}",
  noPlacedTaskListed: "找不到匹配的已安排任务：{matching}",
  noEventFound: "找不到匹配的活动：{matching}",
  noEventListed: "找不到匹配的活动：{matching}",
  matchesEvents: "{matching} 匹配 {count} 个活动（{ids}）",
  stillMatchesEvents: "{matching} 匹配 {count} 个活动（{ids}）",
  noPendingTaskMatches: "没有匹配的待安排任务：{matching}",
  notCarriedOut: "未执行：{reason}",
  argTooBig: "所要求的{field}（{given}）超出了上限：最多 {bound}；什么也没有改",
  argTooSmall: "所要求的{field}（{given}）低于下限：至少 {bound}；什么也没有改",
  argNotUsable: "所要求的{field}（{given}）无法使用；什么也没有改",
  argMissing: "没有给出{field}；什么也没有改",
  declinedUndo: "你拒绝了这项修改",
  declinedRecovery: "你拒绝了这项修改",
  declinedChange: "你拒绝了这项修改",
  declinedSkipDay: "你拒绝了跳过这一天的复习",
  declinedClearDay: "你拒绝了清空这一天",
  declinedDoneDay: "你拒绝了把这一天的复习记为已完成",
  declinedMissedDay: "你拒绝了把这一天的复习记为错过",
  declinedRefinement: "你拒绝了这次优化；这一周保持原来的安排",
  noEventMatches: "没有与“{phrase}”匹配的日程",
  noClassMatches: "没有与“{phrase}”匹配的课程",
  noSessionsToPlace: "{names} 没有可安排的分次",
  cannotMoveSpread: "{subject} 不能移动（它不在单一的连续时段上）",
  noPlaceToMoveFrom: "{subject} 还没有安排时间，无从移动",
  noFreeTimeShifted: "没有能容纳{subject}的空闲时间（{shift}）",
  theEvent: "活动{event}",
  shiftLaterSameDay: "挪到当天晚些时候",
  shiftEarlierSameDay: "挪到当天早些时候",
  shiftDayLater: "往后推1天",
  shiftDayEarlier: "提前1天",
  shiftDaysLater: "往后推{count}天",
  shiftDaysEarlier: "提前{count}天",
  shiftMinutesLater: "往后推{count}分钟",
  shiftMinutesEarlier: "提前{count}分钟",
  outsideSchedule: "{shift}就超出了日程范围",
  cannotUnplace: "{subject} 不能撤下：{unplaceWhy}",
  pendingAlready: "它本来就待安排，不在日程上",
  onlyReviewsUnplaced: "它是课表上的活动，只有复习任务可以撤下",
  notUnderstood: REPORT_WORDS.zh.notUnderstood,
  settledNotPending: "{settled}，不是待安排的任务",
  settledAs: "{id} 是{status}状态",
  noDayBefore: "窗口里没有在{phrase}之前的日子",
  arrangementUnread: "无法读取建议的安排",
  calendarGone: "这次请求已不再附带日历文件，请重新发送（/import <日历文件>）",
  longTaskNoClass:
    "我无法判断“{name}”属于哪门课程；请带上课程说，例如“给英语添加任务：{name}，{hours}小时，{weekday}前”",
  weekdayNotShown: "所显示的这一周里没有那一天",
  noReviewOnDay: "{weekday}没有安排复习",
  noReviewWasOnDay: "{weekday}没有安排过复习",
  answerIsRequest: "没有记录任何复习：“{request}”是一个新的请求，不是在回答哪一个复习；请再发一次，我会去做",
  nothingToUndo: "没有可以撤销的修改——{undoReasons}",
  undoNoneYet: "这次对话里还没有应用过任何修改",
  undoGone: "上一次修改中已没有可以撤销的部分",
  lastChangeElsewhere: "上一次的修改（{tools}）不是对日程的修改，这里只能撤销日程的修改",
  noChangeToRecover: "没有可以补救的修改——{recoveryWhy}",
  undone: "已撤销上一次的修改",
  undidUndo: "上一次的修改本身是一次撤销，撤销它就重做了被撤销的修改",
  undoneInPart: "{undoSubject} 没有完全恢复原样：{undoWhy}",
  rescheduled: "已补排",
  notRescheduled: "没有补排",
  nothingToReschedule: "无需补排",
  recovered: "已补救",
  skippedDay: "已跳过这一天的复习",
  clearedDay: "已清空这一天",
  skippedDays: "已跳过这几天的复习",
  clearedDays: "已清空这几天",
  markedDayDone: "已把这一天的复习记为已完成",
  markedDaysDone: "已把这几天的复习记为已完成",
  markedDayMissed: "已把这一天的复习记为错过",
  markedDaysMissed: "已把这几天的复习记为错过",
  shiftedReviews: "已移动这些复习",
  shiftDaysUnknown: "没能确定要把复习移动几天",
  declinedShift: "你让复习保持原样",
  noReviewToShift: "没有还没开始的复习可以移动",
  staysBecause: "{subject} 保留不动：{why}",
  noRoomOnDay: "{days}没有能容纳它的空闲时间",
  dayKeptFree: "你的长期偏好让{days}空着（/prefs 查看偏好，/forget 删除一条）",
  noRuledRoomOnDay: "{days}没有符合它的规则（课程类别、截止日期、你的偏好）的空闲时间",
  noRoomAway: "{days}以外没有能容纳它的空闲时间",
  noRuledRoomAway: "{days}以外没有符合它的规则（课程类别、截止日期、你的偏好）的空闲时间",
  noRuledTimeShifted: "没有符合它的规则（课程类别、截止日期、你的偏好）的空闲时间（{shift}）",
  weekRefusedMove: "日程规则不允许这样移动",
  reported: "{heading}：{writes}",
  letGo: "已放下：{write}",
  declinedNewPlace: "你拒绝了新的时段",
  keptMissed: "你保持了错过",
  noneMarkedMissed: "没有复习被记为错过",
  nothingToLetGo: "无需放下：没有复习被记为错过",
};

/** The summary phrases, a table a language. */
export const SUMMARY_WORDS: Readonly<Record<Language, Readonly<Record<SummaryKey, string>>>> = { en: EN, zh: ZH };

/** A phrase's place values. */
export type SummaryParams = Readonly<Record<string, string | number>>;

/** The phrase `key` in `language`, its places filled from `params`. */
export function saySummary(language: Language, key: SummaryKey, params: SummaryParams = {}): string {
  return fill(SUMMARY_WORDS[language][key], params);
}

/** A schedule id (a task's, an event's, a host's): what `readable.ts` names. */
const ID = "[A-Za-z0-9_][A-Za-z0-9_.:-]*";
/** A JSON-quoted text (a name, a preference in the user's words). */
const JSON_TEXT = '"(?:[^"\\\\]|\\\\.)*"';

/** A range as the tools write it (`day 5 slots 7-8`, with its date note), or its date in Chinese (`3月15日周五 16:00–17:40`). */
const PLACED_SPAN =
  "day \\d+ slots \\d+-\\d+(?: \\([^()]*\\))?|day \\d+|\\d+月\\d+日周[一二三四五六日](?: \\d\\d:\\d\\d(?:–\\d\\d:\\d\\d)?)?";

/** The headings of an offline step that reports its writes (`{heading}: {writes}`, the phrase `reported`). */
export const REPORT_HEADINGS: readonly SummaryKey[] = [
  "undone",
  "undidUndo",
  "rescheduled",
  "notRescheduled",
  "nothingToReschedule",
  "recovered",
  "skippedDay",
  "clearedDay",
  "skippedDays",
  "clearedDays",
  "markedDayDone",
  "markedDaysDone",
  "markedDayMissed",
  "markedDaysMissed",
  "shiftedReviews",
];

/** What each place is read back as, by its name; any other place is any text (as little as the phrase allows). */
const PLACE_PATTERNS: Readonly<Record<string, string>> = {
  id: ID,
  other: ID,
  host: `${ID}[A-Za-z0-9_]|[A-Za-z0-9_]`,
  group: "\\S+",
  what: "task|habit",
  count: "\\d[\\d,]*",
  pending: "\\d[\\d,]*",
  fitting: "\\d[\\d,]*",
  missed: "\\d[\\d,]*",
  more: "\\d+",
  day: "\\d+",
  start: "\\d+",
  end: "\\d+",
  said: JSON_TEXT,
  // Preferences in the user's words, each JSON-quoted, joined by ", " (`arrangement.ts`, `tools/find-free.ts`).
  rules: `${JSON_TEXT}(?:, ${JSON_TEXT})*`,
  // Day indices as `formatDayList` writes them ("1-3,5").
  dayList: "\\d+(?:-\\d+)?(?:,\\d+(?:-\\d+)?)*",
  mark: "done|missed|skipped",
  status: "\\w+",
  state: "pending|placed|done|missed|skipped this week",
  ids: "[^;]*?",
  name: ".+?",
  event: JSON_TEXT,
  bound: "-?\\d+(?:\\.\\d+)?",
  // The rules' refusals (`rules.ts`).
  duration: "\\d+",
  buffer: "\\d+",
  className: JSON_TEXT,
  neighbour: `(?:event|task) ${ID} ${JSON_TEXT}`,
  // The two tasks of a swap, each by its label (`task <id> "<name>"`), and their lengths.
  one: `(?:event|task|habit) ${ID} ${JSON_TEXT}`,
  two: `(?:event|task|habit) ${ID} ${JSON_TEXT}`,
  oneLength: "\\d+",
  twoLength: "\\d+",
  deadline: `(?:event|task) ${ID} ${JSON_TEXT}`,
  deadlineAt: "[^()]*(?:\\([^()]*\\))?",
  due: ".+?",
  earliest: ".+?",
  weekday: "\\w+(?: (?:morning|afternoon|evening))?",
  slot: "\\d+",
  breakStart: "\\d\\d:\\d\\d",
  breakEnd: "\\d\\d:\\d\\d",
  rule: "\\S+",
  days: ".+?",
  // Where a write does not fit (`windowProblem`, `landOne`): a range as the tools write it (or its date as
  // `readablePlaces` says it in Chinese), and what is there.
  lastDay: "\\d+",
  lastSlot: "\\d+",
  span: PLACED_SPAN,
  occupantSpan: PLACED_SPAN,
  occupant: `(?:locked )?event ${ID} ${JSON_TEXT}|task ${ID} ${JSON_TEXT}`,
  // A place as `calendar.ts` `placeName` says it ("Mon 11 Mar, 14:00–15:40", "Mon, week 1 (day 1), slots 9–10").
  place: "[^()]*(?:\\([^()]*\\)[^()]*)?",
  // The offline policy's refusals and matching words: clock times.
  at: "\\d\\d:\\d\\d",
  first: "\\d\\d:\\d\\d",
  last: "\\d\\d:\\d\\d",
  near: "\\d\\d:\\d\\d(?: and \\d\\d:\\d\\d)?",
  length: "\\d+",
  // The phrases a step's words were read as, quoted, joined by ", " and " or ".
  matching: `${JSON_TEXT}(?:(?:, | or )${JSON_TEXT})*`,
  reason: "[\\s\\S]*",
  // The refinement's (`contracts/refinement-words.ts`).
  rounds: "\\d+",
  placed: "\\d+",
  offered: "\\d+",
  turns: "\\d+",
  gain: "[\\d.]+",
  from: "[\\d.]+",
  to: "[\\d.]+",
  class: "\\S+",
  heading: REPORT_HEADINGS.map((key) => EN[key].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
  writes: "[\\s\\S]*",
  write: "[\\s\\S]*",
  names: "[^\\n]*",
  limits: "[^)]*",
  // Why a task cannot be unplaced: one of its phrases.
  unplaceWhy: (["pendingAlready", "onlyReviewsUnplaced"] as const)
    .map((key) => EN[key].replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|"),
  // A move's shift: one of the shift phrases, its count a number.
  shift: SHIFT_KEYS.map((key) => EN[key].replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\{count\\\}/g, "\\d+")).join(
    "|",
  ),
};

/** Where a phrase is read in a text: the whole text, its start, its end, or anywhere (every time it occurs). */
export type ReadMode = "whole" | "start" | "end" | "anywhere";

const patterns = new Map<string, RegExp>();

/**
 * The pattern of English template `template` read in `mode` (built from the template, each place by its name): a
 * phrase of this table, or of another table whose English a schedule summary carries (the refinement's,
 * `contracts/refinement-words.ts`).
 */
export function templatePattern(template: string, mode: ReadMode): RegExp {
  const cacheKey = `${template}\u0000${mode}`;
  let pattern = patterns.get(cacheKey);
  if (pattern) return pattern;
  const places = placesOf(template);
  const parts = template.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const source = parts.reduce((whole, part, index) => {
    const place = places[index - 1]!;
    return `${whole}(${PLACE_PATTERNS[place] ?? ".*?"})${part}`;
  });
  const anchored = { whole: `^${source}$`, start: `^${source}`, end: `${source}$`, anywhere: source }[mode];
  pattern = new RegExp(anchored, mode === "anywhere" ? "g" : "");
  patterns.set(cacheKey, pattern);
  return pattern;
}

/** The pattern of English phrase `key` read in `mode` (built from the phrase). */
export function summaryPattern(key: SummaryKey, mode: ReadMode): RegExp {
  return templatePattern(EN[key], mode);
}

/** The values of phrase `key`'s places when `text` is that phrase (written in English), else undefined. */
export function readSummary(key: SummaryKey, text: string): Record<string, string> | undefined {
  const match = summaryPattern(key, "whole").exec(text);
  if (!match) return undefined;
  return Object.fromEntries(placesOf(EN[key]).map((place, index) => [place, match[index + 1] ?? ""]));
}

/** How a place's value is said in another language (the value as the English has it); a place not named stays. */
export type PlaceReaders = Readonly<Record<string, (value: string) => string>>;

/**
 * `text` with English template `english` read in `mode` and said as template `said` from its places (each through
 * `readers`); `text` as it is where the template is not found.
 */
export function readTemplateIn(
  text: string,
  english: string,
  said: string,
  mode: ReadMode,
  readers: PlaceReaders = {},
): string {
  const places = placesOf(english);
  return text.replace(templatePattern(english, mode), (...match: unknown[]) =>
    fill(
      said,
      Object.fromEntries(
        places.map((place, index) => {
          const value = String(match[index + 1] ?? "");
          return [place, readers[place] ? readers[place](value) : value];
        }),
      ),
    ),
  );
}

/**
 * `text` with English phrase `key` read in `mode` and said in `language` from its places (each through `readers`);
 * `text` as it is where the phrase is not found.
 */
export function readSummaryIn(
  text: string,
  key: SummaryKey,
  mode: ReadMode,
  language: Language,
  readers: PlaceReaders = {},
): string {
  if (language === "en") return text;
  return readTemplateIn(text, EN[key], SUMMARY_WORDS[language][key], mode, readers);
}
