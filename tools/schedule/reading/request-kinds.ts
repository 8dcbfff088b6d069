/**
 * What a schedule request can ask for, as the reader gives it (`ScheduleRequest` and the parts it is made of: where —
 * days, dates and slots —, a move, a shift), and the little that is said of a reading alone: the kinds that only
 * read the week, a move's moves one by one, the days and the amount a shift of every review moves by.
 */

import type { BadAmount } from "./amounts.js";

/** A part of the day: the first, middle or last third of its slots. */
export type PartOfDay = "morning" | "afternoon" | "evening";

/** Where in a day: explicit slots, a part of the day, or relative to a slot. */
export interface SlotWindow {
  /** First slot allowed (1-based), if bounded. */
  from?: number;
  /** Last slot allowed, inclusive, if bounded. */
  to?: number;
  /** A part of the day, resolved to slots once the day length is known. */
  part?: PartOfDay;
  /**
   * A part of the day ruled out ("not in the morning", "no evenings", "不要晚上"): the morning rules out the slots
   * before the afternoon, the evening those after it. The afternoon is never one (it would leave two ranges): a request
   * that rules out only it is not understood (`parseSentence`).
   */
  notPart?: PartOfDay;
  /** "not before 10": no slot that starts before this hour, resolved through the window's slot clock times. */
  notBeforeHour?: number;
  /**
   * A clock time named ("at 14:00", "2pm", "下午两点", "周日14点"), "HH:MM": the slot that starts then, resolved through
   * the window's slot clock times (`readClockTime`).
   */
  at?: string;
  /**
   * A time limit ("before 17:00", "by 5pm", "周日10点以前"), "HH:MM": only slots that end by then, resolved through the
   * window's slot clock times (`readEndsBy`). No time to place at, and no event to be done before.
   */
  endsBy?: string;
  /**
   * A start limit ("after 22:30", "after 9pm", "晚上9点以后"), "HH:MM": only slots that start then or later, resolved
   * through the window's slot clock times (`readStartsFrom`).
   */
  startsFrom?: string;
  /**
   * "at the same time", "同一时间": the slot the task starts at now, on the day it goes to ("move the essay to the
   * same time on Friday"). A move resolves it from the task's own place; a task with none has no time to keep.
   */
  sameTime?: true;
  /**
   * "as soon as possible", "asap", "the earliest free slot", "尽快": the first free start from the clock on (within the
   * days and part of the day said, when any), for one task — a move, or a pending task placed as a move places it.
   */
  soonest?: true;
  /**
   * "this time tomorrow", "at this time on Friday", "明天这个时候": the time of day it is now, on the day said — the slot
   * the clock is in (or the next to start), resolved by whoever knows the clock and the slots' times.
   */
  thisTime?: true;
  /**
   * "move my 8pm review to 9", "move the essay to 7 on Friday": `at` is an hour said bare where a move goes, its half
   * of the day not said — read as "at 9" is (1–7 the afternoon, 8–11 the morning), and settled by whoever knows the
   * day's slots and the task's own time: the half inside the day's slots, the nearer to the task's start when both are.
   */
  halfUnsaid?: true;
}

/**
 * A day named by the calendar, resolved against the window's dates and "now" (`offline/schedule/week-facts.ts` `resolveDays`):
 * a relative day ("today", "tomorrow", "明天", "后天": `offset` days from today), a weekday of this or a later week
 * ("this Thursday", "next Monday", "下周一": `weeks` weeks after this one, weeks starting on Monday), or a date
 * ("the 14th", "14 March", "March 14", "2024-03-14", "3月14日", "14号": the month and year when said).
 */
export type DateSpec =
  /** That many days from today: "tomorrow", "in 2 days", "后天". */
  | { kind: "offset"; days: number; text: string }
  /**
   * The day that many days from today and every day of the schedule after it: "tomorrow or later", "after today",
   * "starting tomorrow", "明天起". A kind of its own, so that nothing that reads a day from today takes it for one.
   */
  | { kind: "onward"; days: number; text: string }
  | { kind: "weekday"; weekday: number; weeks: number; text: string; side?: DateSide }
  /**
   * A whole week ("this week", "next week", "下周"), `weeks` after this one: read only by the questions about days
   * ("what's on next week?", "下周什么时候有空"), where it names the window's days in that week — none for a week the
   * window does not reach, which is then said. An arrangement's "next week" is the window, as before.
   */
  | {
      kind: "week";
      weeks: number;
      text: string;
      /**
       * Only its days from today on: "skip the rest of the week", "clear everything this week", "这周剩下的复习都跳过"
       * — what is past of the week cannot be skipped or cleared, so a clear of this week names what is left of it.
       */
      fromToday?: true;
    }
  /** `weekday`: the weekday written beside it ("Thursday, Mar 14"), the day it names once the window has moved past it. */
  | { kind: "date"; year?: number; month?: number; day: number; text: string; weekday?: number; side?: DateSide };

/**
 * A date's side, said with it: the days before it ("before Dec 8", "12月8日之前"), up to and with it ("by Dec 8",
 * "through next Wednesday", "12月8日为止"), after it ("after Dec 8", "12月8日以后"), or from it on ("from Dec 8 on",
 * "12月8日起"). Before, each was read as the date alone.
 */
export type DateSide = "before" | "by" | "after" | "from";

/** The days a request names: weekdays (1 = Mon … 7 = Sun), day indices of the window, and calendar days. */
export interface DaySelection {
  /** Days of the week named (1 = Monday … 7 = Sunday). */
  weekdays: number[];
  /** Day indices of the window named directly ("day 3", "第3天", or a weekday annotated "(day 3)"). */
  days: number[];
  /** Days named by the calendar ("tomorrow", "this Thursday", "the 14th"), when any. */
  dates?: DateSpec[];
}

/** Where a request wants things to go (or to look). */
export interface Where {
  /** Days to use; empty selections mean any day. */
  only: DaySelection;
  /** Days to avoid ("not Monday"). */
  not: DaySelection;
  /** Slots to use. */
  slots: SlotWindow;
  /** An event the tasks must be done before ("before the midterm"), as the request names it. */
  before?: string;
  /**
   * Next to another task or event: "after the matrix review", "right after my lecture", "just before the tutorial",
   * "矩阵复习之后" — the nearest free time on that side of it (its next occurrence not yet started; on the days named,
   * when any are).
   */
  next?: { side: "after" | "before"; anchor: string };
  /**
   * The day of another task or event, or the day before or after it: "the day before the physics lab", "the same day
   * as the robotics club meeting", "two days before the midterm", "期中考试的前一天" (its first occurrence in the week
   * shown; `offset` the days from it: -1 the day before).
   */
  dayOf?: { anchor: string; offset: number };
  /**
   * The part of the day said with days ruled out ("not Saturday morning", "off Thursday morning", "不要周六上午"):
   * the whole of those days is ruled out, so nothing lands where it was said not to (before, the part read as the only
   * time to use: "but not Saturday morning" meant mornings); a move of a day's reviews off it reads it as the part of
   * the day they leave (`awayFrom`).
   */
  notDaysPart?: PartOfDay;
}

/**
 * A move relative to the task's own place: `days` later (negative: earlier), at the same time or the nearest free
 * time of that day; `minutes` later (negative: earlier) the same day, the nearest free start that way; `sameDay`:
 * later or earlier the same day, the nearest free start that way ("push it to later", "挪到晚一点").
 */
export type MoveShift = { days: number } | { minutes: number } | { sameDay: "later" | "earlier" };

/** What a schedule request asks for. */
/**
 * A move of one task. `shift`: relative to the task's own place ("push it back a day", "an hour later", "往后推一天"),
 * `where` empty — but for "later today" / "later tonight" / "今天晚点", whose `where` names today: a review on another
 * day goes to today, from the clock. `also`: the moves said after it in the same request, each of its own task to its
 * own place ("move the matrix review to Thursday and the essay to Friday", "把矩阵复习挪到周四，作文挪到周五"): the
 * planner plans each.
 */
/**
 * `otherDay`: "to another day", "换一天": any day but the one the task is on (set only when said). `dayward`: "to an
 * earlier day", "earlier in the week", "挪到更早的一天" (or later): one of the days before (after) the task's own.
 */
export type MoveRequest = {
  kind: "move";
  task: string;
  where: Where;
  shift?: MoveShift;
  also?: MoveRequest[];
  otherDay?: true;
  dayward?: "earlier" | "later";
  /**
   * The days ruled out are the days it leaves ("move the essay off today", "out of Thursday", "I can't do the essay
   * today", "把作文挪出今天"): when it is on none of them, there is nothing to move.
   */
  leaves?: true;
};

/** "another day", "a different day", "some other day", "别的天", "另一天", "换一天": any day but the task's own. */
const OTHER_DAY =
  /\b(?:another|a different|some other|a new|other)\s+(?:day|morning|afternoon|evening|night)\b|\b(?:other|different)\s+days\b|别的天|另一天|其他(?:的)?日子|别的日子|换一天|换个日子|其他天|(?:别的|另一个|其他)(?:上午|下午|晚上)/;

/**
 * A day before or after the task's own, said as where it goes: "to an earlier day", "to a later day", "earlier in the
 * week", "更早的一天", "更晚的一天". ("later in the week" is the end of the week, `WEEK_STRETCHES`; "a day earlier" is a
 * shift by one day.)
 */
const DAYWARD =
  /\b(?:(?:to|onto|until|till|for)\s+)?(?:(?:an?|some)\s+(earlier|later)\s+day|(earlier)\s+(?:in|that|this)\s+(?:the\s+)?week)\b|(?:挪|移|改|调|换|推|放|安排)?(?:到|在)?更(早|晚)的(?:一天|某天|某一天|日子)/;

/** "to an earlier day" read as "to another day", with the way it goes (`dayward`); `said` as it is otherwise. */
export function withoutDayward(said: string): { said: string; dayward?: "earlier" | "later" } {
  const found = DAYWARD.exec(said);
  if (!found) return { said };
  const way = found[1] ?? found[2] ?? (found[3] === "早" ? "earlier" : "later");
  const chinese = found[3] !== undefined;
  const other = chinese ? "挪到另一天" : "to another day";
  return {
    said: `${said.slice(0, found.index)}${other}${said.slice(found.index + found[0].length)}`,
    dayward: way === "earlier" ? "earlier" : "later",
  };
}

/** `move` with `otherDay` when `words` (where it goes) say another day than its own. */
export function withOtherDay(move: MoveRequest, words: string): MoveRequest {
  return OTHER_DAY.test(words) ? { ...move, otherDay: true } : move;
}

/** A day whose reviews a request names: by its weekday, or by days from today ("tomorrow's reviews"). */
export type DayOfReviews = { weekday: number } | { fromToday: number };

export type ScheduleRequest =
  /**
   * `except`: tasks named as left out ("everything except the essay", "除了二叉树复习"); absent when none. `makeUp`:
   * the missed reviews are proposed again first ("reschedule my missed reviews, then arrange …": the daily check-in).
   * `putBack`: the tasks were said to go back ("put back the matrix review", "把矩阵复习放回去"): one already placed
   * has nothing to do. `count`: how many reviews were asked for, when the words count them and name none ("arrange a
   * review tomorrow morning", "fit another review in today", "schedule two reviews on Friday", "明天早上安排一个复习"):
   * at most that many are placed.
   */
  | {
      kind: "arrange";
      tasks: string[];
      where: Where;
      except?: string[];
      makeUp?: true;
      putBack?: true;
      count?: number;
    }
  | MoveRequest
  /**
   * Every review still ahead, or every one of a day, moved by whole days at once: "push all my reviews back a day",
   * "move today's reviews to tomorrow", "把所有复习往后推一天". `days` the shift; `weekday` the day whose reviews
   * (absent: every review ahead); `fromToday` that day said from today ("today's", "tomorrow's"), `to` a target day
   * said instead of a shift ("… to tomorrow") — the planner makes both a weekday and days with the clock. `minutes`
   * a shift of time the same day instead ("push all my reviews back an hour", "把今天的复习都推迟一小时"). `part` the
   * part of that day whose reviews ("all of Monday evening's reviews", "周一晚上的所有复习"): the others stay.
   */
  | {
      kind: "shift_all";
      days?: number;
      minutes?: number;
      weekday?: number;
      fromToday?: number;
      to?: Where;
      part?: PartOfDay;
      /**
       * The clock time from which that day's reviews move ("push everything after 3pm back an hour", "把今天三点以后的复习
       * 都往后推一小时"): those that start then or later ("HH:MM"); the others stay. Said with no day, today's.
       */
      startsFrom?: string;
      /**
       * With `startsFrom`, off a window of the clock rather than a part of the day ("keep 2pm to 4pm free today",
       * `away: "part"`): the reviews that reach into `startsFrom`–`endsBy` ("HH:MM") leave it.
       */
      endsBy?: string;
      /**
       * With `days` (0: the same day), the part of the day they go into ("move this afternoon's reviews to the evening",
       * "move Monday's reviews to Tuesday evening", "把复习都挪到晚上"): each to the free start nearest its own time
       * inside that part of its new day. A review already there the same day stays where it is.
       */
      into?: PartOfDay;
      /**
       * Moved off where they are, to no place named ("move my reviews off Thursday", "I'm busy Thursday morning, move
       * my reviews", "move Thursday's reviews to another day", "把周四的所有复习挪到别的天"): each to the free time
       * nearest its own that is not on its day (`day`), or not in that part of it (`part`, with `part` set).
       */
      away?: "day" | "part";
      /** Off the day, to an earlier (a later) day only: "move Friday's reviews to an earlier day", "挪到更晚的一天". */
      dayward?: "earlier" | "later";
      /**
       * More days whose reviews move, after the first (`weekday` / `fromToday`): "move my reviews off Thursday and
       * Friday", "push Thursday's and Friday's reviews back a day", "把周四和周五的所有复习挪到别的天". Off their days,
       * a review lands on none of them (nor in that part of any of them).
       */
      more?: DayOfReviews[];
    }
  | { kind: "swap"; first: string; second: string }
  | { kind: "unplace"; task: string }
  /**
   * A timetable event (a one-off, or a series with every occurrence) to take off the week (`remove_event`): "remove the
   * event physics lab", the plan's own step (`Remove the event "friday tutorial"`, `删除课表活动 "周五的辅导课"`). The
   * user's "remove the Friday tutorial" reads as an unplace; the planner makes it this once the week shows the words
   * name no review task (`offline/schedule/grounding.ts`). `event` may name a weekday ("friday tutorial").
   */
  | { kind: "remove_event"; event: string }
  /**
   * A task's life: "I did the matrix review", "我周二的复习没做", "skip the vocabulary review this week". `weekday`
   * narrows the task to one placed on that day of the week ("Tuesday's review"), when the request names one.
   */
  | {
      kind: "mark";
      task: string;
      to: "done" | "missed" | "skipped";
      weekday?: number;
      /**
       * Days before today the task was on ("yesterday's review" 1, "today's review" 0, "我昨天的复习"): the weekday it
       * names once the clock says what today is (the plan writes it as `weekday`).
       */
      daysAgo?: number;
      /** False when the user said not to reschedule a missed task ("…, don't reschedule it", "不用重新安排"). */
      reschedule?: false;
      /**
       * Where a missed task should go, said after the mark ("I missed the matrix review, put it on Friday", "…, can you
       * move it to tomorrow", "我错过了矩阵复习，把它改到周五"): placed there by a move after the mark, not at the
       * candidates' best place.
       */
      then?: Where;
      /**
       * The tasks `task` names one by one, when it lists several ("the matrix review and the limits review"): set by
       * the planner once the week shows each part names one task (`offline/schedule/grounding.ts`), a step for each.
       */
      tasks?: string[];
    }
  /**
   * Every review placed on a day, at once: "skip all my reviews today", "I'm sick today, skip everything", "clear
   * tomorrow", "今天的复习都跳过", "把明天清空". `skip` marks each skipped (this week, nothing places it again); `unplace`
   * takes each off the week, pending again (a cleared day's reviews still want doing); `done` marks each done ("I did
   * all of today's reviews", "我今天的复习都做完了"), started or not, and `missed` missed ("I missed all of today's
   * reviews", "I didn't do anything today"; then proposed again, as a missed review is). `where.only` holds the days,
   * `where.slots` a part of the day when one is said ("skip everything tonight").
   */
  | {
      kind: "clear_day";
      how: "skip" | "unplace" | "done" | "missed";
      where: Where;
      /** False when the user said not to reschedule the reviews missed ("…, don't reschedule them"). */
      reschedule?: false;
    }
  /** "undo that", "take that back", "撤销": reverse the last applied change through a new card (`propose_undo`). */
  | { kind: "undo" }
  /** "Reschedule my missed reviews" alone: the missed reviews proposed again at their best free places, nothing else. */
  | { kind: "reschedule" }
  /** "recover", "补救": the at-risk notice's change that recovers the most, through a card (`propose_recovery`). */
  | { kind: "recover" }
  /** "how healthy is my week?", "我这周安排得怎么样": the health judge's score and findings (`analyze_health`). */
  | { kind: "health" }
  /**
   * "what's left before the midterm?", "期中考试前还剩什么": the tasks due before an event, and how each stands. `when`:
   * the words name a day instead ("how many reviews are left before friday?", "周五前还剩什么", "before tomorrow"): the
   * reviews still to do before it.
   */
  | { kind: "left_before"; event: string; when?: Where }
  /**
   * A habit ("vocabulary three times a week", "每周背三次单词"): recurring tasks are not built, so the policy declines it
   * with what it can do — never reads it as something else.
   */
  | { kind: "habit" }
  /**
   * A habit read whole (issue 47 item 8): "vocabulary three times a week, 30 min, mornings", "每周背三次单词，每次30分钟，早上".
   * `minutes` when a session's length is said; `part` when a part of the day is.
   */
  | { kind: "add_habit"; name: string; perWeek: number; minutes?: number; part?: PartOfDay }
  /**
   * A long task to split into sessions (issue 47 items 5 and 8): "write the essay, 4 hours, before Friday",
   * "写论文，4小时，周五前" — its name, its length in minutes, the weekday it is due before; `classPhrase` when its class
   * is said ("…, before Friday, for English", "给英语添加任务：论文，10小时，周五前"), else the class is told by its name.
   */
  | { kind: "add_long_task"; name: string; minutes: number; dueWeekday: number; classPhrase?: string }
  | { kind: "free"; where: Where; minLength: number }
  | { kind: "day"; where: Where }
  /** "what's next?", "when is my next review?", "接下来做什么": what comes next from now, and the next review. */
  | { kind: "next" }
  /**
   * The review tasks of one status, or all: "which tasks are pending?", "which reviews did I miss?", "列出所有复习";
   * `open`, the ones still to do whatever their place (pending, placed and not done, missed): "how many reviews are
   * left?", "which reviews haven't I done?", "我这周还有几个复习没做".
   */
  | { kind: "list"; status: "pending" | "placed" | "missed" | "done" | "skipped" | "open" | "all" }
  | { kind: "explain"; task: string }
  /**
   * A new task item for a class: "add a 2-slot task "integrals review" to calculus", "给微积分添加任务"积分复习"，2节";
   * `dueEvent` when it is due before an event the request names ("… before the midterm", "…，在期中考试之前").
   */
  | { kind: "add_task"; name: string; classPhrase: string; duration: number; dueEvent?: string }
  /** A class's standing rules: "calculus only in the mornings", "never calculus on Monday", "微积分只在上午". */
  | { kind: "class_rules"; classPhrase: string; parts: PartOfDay[]; excludedWeekdays: number[] }
  | { kind: "help" }
  | { kind: "greeting" }
  /**
   * Not understood. `why`: a request understood but not one that can be kept to — "afternoon_out": the afternoon
   * ruled out alone ("not in the afternoon"), which would leave two ranges of the day (the reply says so);
   * "unread_number": a move or an arrangement to no place whose words hold a number read as nothing ("to 3/4",
   * `unreadDigits`): the reply asks for the day and time in words it reads; "shift_way": a move by an amount that says
   * no way ("move the essay by a day"): the reply asks earlier or later; "two_requests": a change and another request
   * of a different kind said together ("move the essay to Friday and skip the vocab list", "move the essay to Friday.
   * Put the vocab list on Saturday."), `parts` the two as said: the reply asks for them one at a time (before, the
   * second's days were read as where the first goes, or its words as a task moved with it); "one_day_hour": an hour
   * nothing goes after, said of one day of the calendar and nothing else ("no studying after 9pm tomorrow",
   * "明天晚上9点以后不要安排复习"), which is no standing rule and asks for no change: the reply says so, and what to say.
   */
  | { kind: "unknown"; why?: "afternoon_out" | "unread_number" | "shift_way" | "one_day_hour" }
  | { kind: "unknown"; why: "two_requests"; parts: [string, string] }
  /**
   * "bad_amount": an amount no schedule can hold (`readBadAmount`: "-4 hours", "0 min", "1e9 hours", "99999 minutes",
   * "at 25:00", "25点"), `said` as the message wrote it: the reply says what is wrong and what is allowed.
   */
  | ({ kind: "unknown"; why: "bad_amount" } & BadAmount)
  /**
   * "no_due_day": a long task said with its length but no day it is due ("add a task: thesis, 100 hours, to English",
   * "给英语添加任务：论文，100小时"), its `name`, `minutes` and `classPhrase` when said: the reply asks for the day, with
   * the request said whole as an example (before, not understood, or a task of one slot named "论文,100小时").
   */
  | { kind: "unknown"; why: "no_due_day"; name: string; minutes: number; classPhrase?: string };

/** Kinds that only read the schedule. */
export const READ_REQUEST_KINDS = new Set<ScheduleRequest["kind"]>([
  "free",
  "day",
  "list",
  "explain",
  "health",
  "left_before",
  "next",
]);

/** The weekdays whose reviews a shift of all moves, first the one said first; none for every review ahead. */
export function shiftAllDays(request: Extract<ScheduleRequest, { kind: "shift_all" }>): number[] {
  if (request.weekday === undefined) return [];
  return [
    request.weekday,
    ...(request.more ?? []).flatMap((day) =>
      "weekday" in day && day.weekday !== request.weekday ? [day.weekday] : [],
    ),
  ];
}

/** What a move of every review moves them by: days, or minutes the same day; undefined before the planner knows. */
export function shiftAllBy(
  request: Extract<ScheduleRequest, { kind: "shift_all" }>,
): { days: number } | { minutes: number } | undefined {
  if (request.minutes !== undefined) return { minutes: request.minutes };
  return request.days !== undefined ? { days: request.days } : undefined;
}

/** A move and the moves said with it, one by one (none holding others). */
export function movesOf(move: MoveRequest): MoveRequest[] {
  const { also, ...first } = move;
  return [first, ...(also ?? [])];
}
