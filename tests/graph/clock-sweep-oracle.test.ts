/**
 * The clock as it really moves: day by day from the eve of the sample week, through it and on into the next (the
 * window rolls by the clock), at five times of day (+08:00), the real offline graph is asked to put the matrix review
 * or the vocabulary list at a clock time the student names ("at 14:00 tomorrow", "Friday 10:00", "周五下午3点",
 * "tomorrow at quarter to ten pm", "at 7 tonight", "on 3/15 at half past seven pm", "the same time on Friday"), on a
 * day or a stretch of days ("Thursday or later", "周二到周四", "any day after today"), on a day said and then corrected ("Friday, no wait, Saturday"), somewhere today / tonight, at lunch (noon: no slot
 * starts then), in a stretch of the week shown ("later in the week", "midweek", "周中": those days from the clock on), on a day
 * before or after the review's own ("to an earlier day", "更晚的一天"), or
 * right before or after an event of the timetable ("right after the robotics club meeting", "物理实验之前"), in
 * English and Chinese.
 *
 * The oracle is written apart from the code under test — no placement, validation, clock, parsing or matching code is
 * imported: from the sample week's timetable (the fixture's data), its slot grid, the clock and the request alone it
 * computes where the review may start — a slot start, after the clock, in the week shown, on free slots or inside one
 * host that takes reviews, without running past the day's end or across a break; beside an event, the nearest such
 * start on that side of its first occurrence in the week that has one; at "the same time", the time the review had
 * (once the week has rolled past it and it is missed, still that time) — and, when it may not, every true reason why. The graph's outcome must agree: placed exactly there (for a day alone: at one of the starts that fit),
 * or nothing placed and the reply naming one of the true reasons in words, never a raw error. And always: no review
 * starts before the clock, nothing but the asked review moves, and the timetable stays the timetable (the next week's
 * too: its weekly events again, not the one-off quiz and midterm).
 *
 * To keep the run short each moment runs a fifth of the requests, another fifth at the next moment, so that every
 * request meets every time of day on two of the ten days, about the week's turn too (`TEMPO_FULL_SWEEPS=1`: every
 * request at every moment); the verdicts of the moments run cover every kind of outcome.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { sampleWeek, type ScheduleState, type TaskItem } from "../../tools/schedule/index.js";
import { offlineTempo } from "./support/offline-conversation.js";
import { interruptsOf, resume, threadConfig } from "../support/scripted.js";
import { inShare } from "../support/sweep-share.js";

// ── The fixture, read as data ──────────────────────────────────────────────────────────────────────────────────────

/** The sample week, its timetable repeating weekly (the locked quiz and midterm are one-offs), every review pending. */
const pendingWeek = () => sampleWeek({ weekly: true });
/** Where "move" finds the matrix review: Sunday 19:00–20:40 (slots 9-10) of the sample week. */
const MOVED_FROM = { day: 7, start: 9, end: 10 };
function matrixPlacedWeek(): ScheduleState {
  const week = pendingWeek();
  week.tasks = week.tasks.map((task) =>
    task.id === "matrix-review" ? ({ ...task, status: "placed", slots: [{ ...MOVED_FROM }] } as TaskItem) : task,
  );
  return week;
}

const FIXTURE = pendingWeek();
const FIRST_MONDAY = FIXTURE.window.days[0]!.date!;
const LAST_DAY = FIXTURE.window.days.at(-1)!.date!;
const TIMES = FIXTURE.window.slotTimes!;
const DURATION = new Map(
  FIXTURE.tasks.flatMap((task) => (task.source === "task_item" ? [[task.id, task.duration]] : [])),
);

// ── Calendar arithmetic of its own: dates "YYYY-MM-DD", the sample week's +08:00 ──────────────────────────────────────

const ZONE = "+08:00";
const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / DAY_MS;
const plusDays = (date: string, days: number) => new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
/** 1 = Monday … 7 = Sunday (1 January 1970 was a Thursday). */
const weekdayOf = (date: string) => ((dayNumber(date) + 3) % 7) + 1;
const instant = (date: string, time: string) => new Date(`${date}T${time}:00${ZONE}`).getTime();
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The Monday-to-Sunday week shown at `today`: the sample week until its last day, then the week of today. */
function windowAt(today: string): string[] {
  const monday = today <= LAST_DAY ? FIRST_MONDAY : plusDays(today, 1 - weekdayOf(today));
  return Array.from({ length: 7 }, (_, index) => plusDays(monday, index));
}

interface Occupant {
  name: string;
  start: number;
  end: number;
  hosts: boolean;
}

/** The timetable on `date`: a weekly event on its weekday from its first date on, a one-off on its own date only. */
function eventsOn(date: string): Occupant[] {
  return FIXTURE.tasks.flatMap((task) => {
    if (task.source !== "event") return [];
    const { day, start, end } = task.slots[0]!;
    const own = plusDays(FIRST_MONDAY, day - 1);
    const on = task.series ? date >= own && weekdayOf(date) === weekdayOf(own) : date === own;
    return on ? [{ name: task.name, start, end, hosts: task.canEmbed }] : [];
  });
}

/** A break of the day's clock (lunch, dinner): more than half an hour between a slot's end and the next one's start. */
const breakAfter = (slot: number) => minutes(TIMES[slot]!.start) - minutes(TIMES[slot - 1]!.end) > 30;

type Reason =
  | { kind: "passed" | "day-end" | "break" | "partly-in-host" | "not-a-start" | "outside-day" | "outside-window" }
  | { kind: "no-room" }
  | { kind: "started" }
  | { kind: "already-there" }
  | { kind: "no-room-beside" }
  | { kind: "no-anchor" }
  | { kind: "no-class" }
  | { kind: "not-on-day" }
  | { kind: "no-day-that-way" }
  | { kind: "taken"; by: string };

/** Why a review of `duration` slots may not start at `slot` on `date` at `now` (none: it may). */
function reasonsAt(date: string, slot: number, duration: number, now: number): Reason[] {
  const reasons: Reason[] = [];
  if (instant(date, TIMES[slot - 1]!.start) <= now) reasons.push({ kind: "passed" });
  const end = slot + duration - 1;
  if (end > TIMES.length) return [...reasons, { kind: "day-end" }];
  for (let at = slot; at < end; at += 1) if (breakAfter(at)) reasons.push({ kind: "break" });
  const events = eventsOn(date);
  // Inside one host (a study hall) it is embedded there; else every one of its slots must be free of events — partly
  // inside a host is neither.
  if (!events.some((event) => event.hosts && event.start <= slot && end <= event.end))
    for (const event of events)
      if (event.start <= end && slot <= event.end)
        reasons.push(event.hosts ? { kind: "partly-in-host" } : { kind: "taken", by: event.name });
  return reasons;
}

// ── The requests ───────────────────────────────────────────────────────────────────────────────────────────────────

/** When a request puts its review: a day ("today", "tomorrow", "friday") at a time, or today's slots from–to. */
type When =
  | { next: "after" | "before"; anchor: string }
  /** Days of the calendar week after today's (weekdays, 1 = Monday): "next weekend", "early next week", "下周末". */
  | { nextWeek: number[]; weeks?: 2 }
  /** Days of the week shown (weekdays): "later in the week", "midweek", "周中" — from the clock on. */
  | { thisWeek: number[] }
  /** A day of the week shown before (after) the review's own: "to an earlier day", "更晚的一天". */
  | { dayward: "earlier" | "later" }
  /** The day of an event in the week shown (its first whose day that way has not passed), or the day before or after it. */
  | { dayOf: string; offset: number; slots: [number, number] }
  /**
   * Those weekdays of the week shown, in those slots: "a weekday evening", "工作日晚上", a stretch of days ("Thursday or
   * later", "Tuesday through Thursday", "周二到周四").
   */
  | { weekdays: number[]; slots: [number, number] }
  /** Every day of the week shown from `days` after today on: "tomorrow or later", "any day after today", "明天或以后". */
  | { onward: number }
  /** The calendar's days from the first date to the last, both in, that the week shown holds: "before Mar 15". */
  | { dates: [string, string] }
  /**
   * Right after a day's last class (before its first): the last event to end that day (the first to start), a block
   * that takes reviews not counted — of that day, or of the first day shown with room.
   */
  | { classes: "after" | "before"; day?: "tomorrow" | "friday" }
  /** "later today": later than its own start when it is today, else today from the clock. */
  | { laterToday: true }
  /**
   * "as soon as possible", "尽快": the first start from the clock on in the week shown (its own: already there); with
   * `slots`, the first in those slots of a day ("the next free evening").
   */
  | { soonest: true; slots?: [number, number] }
  /** Off today ("I can't do the matrix review today"): from today, when it is there, to any other day of the week. */
  | { offToday: true }
  | { day: "yesterday" | "today" | "tomorrow" | "friday" | "saturday" | `2024-${string}`; time: string }
  /** That day's slots from–to: "today", "tonight", "tomorrow before 12:00", "Friday after 14:00". */
  | { day: "today" | "tomorrow" | "in 2 days" | "in 7 days" | "friday" | `2024-${string}`; slots: [number, number] };

interface Ask {
  say: string;
  task: "matrix-review" | "vocabulary-list";
  /** From the week with the matrix review on Sunday evening (a move), else every review pending. */
  placed: boolean;
  when: When;
}

const ask = (say: string, task: Ask["task"], placed: boolean, when: When): Ask => ({ say, task, placed, when });
const MATRIX = "matrix-review";
const VOCABULARY = "vocabulary-list";
const WHOLE_DAY: [number, number] = [1, TIMES.length];
const EVENING: [number, number] = [9, TIMES.length];
/** The afternoon: the slots from 14:00 to the evening's first. */
const AFTERNOON: [number, number] = [TIMES.findIndex((time) => time.start === "14:00") + 1, EVENING[0] - 1];
/** The slots that end by `time` ("before 12:00"), or start from it ("after 14:00"), read off the slot grid. */
const endingBy = (time: string): [number, number] => [1, TIMES.filter((slot) => slot.end <= time).length];
const startingFrom = (time: string): [number, number] => [
  TIMES.findIndex((slot) => slot.start >= time) + 1,
  TIMES.length,
];
/** The slots that start from `from` and end by `to` ("between 2 and 6pm", "14:00-18:00", "三点到六点"). */
const between = (from: string, to: string): [number, number] => [startingFrom(from)[0], endingBy(to)[1]];
/** The day `offset` days from an event's ("the day before the physics lab"), in those slots. */
const dayOf = (anchor: string, offset: number, slots = WHOLE_DAY): When => ({ dayOf: anchor, offset, slots });

const ASKS: Ask[] = [
  ask("schedule the matrix review at 14:00 tomorrow", MATRIX, false, { day: "tomorrow", time: "14:00" }),
  ask("schedule the matrix review tomorrow 10am", MATRIX, false, { day: "tomorrow", time: "10:00" }),
  ask("move the matrix review to Friday 10:00", MATRIX, true, { day: "friday", time: "10:00" }),
  ask("move the matrix review to Friday 19:55", MATRIX, true, { day: "friday", time: "19:55" }),
  ask("schedule the matrix review on Friday at 7pm", MATRIX, false, { day: "friday", time: "19:00" }),
  ask("schedule the matrix review tomorrow at 10:55", MATRIX, false, { day: "tomorrow", time: "10:55" }),
  ask("schedule the matrix review today", MATRIX, false, { day: "today", slots: WHOLE_DAY }),
  ask("put the vocabulary list tonight", VOCABULARY, false, { day: "today", slots: EVENING }),
  ask("put the vocabulary list today at 21:45", VOCABULARY, false, { day: "today", time: "21:45" }),
  ask("put the vocabulary list tonight at 11pm", VOCABULARY, false, { day: "today", time: "23:00" }),
  ask("schedule the vocabulary list on Friday at 19:00", VOCABULARY, false, { day: "friday", time: "19:00" }),
  ask("明天下午两点安排矩阵复习", MATRIX, false, { day: "tomorrow", time: "14:00" }),
  ask("把矩阵复习移到周五上午10点", MATRIX, true, { day: "friday", time: "10:00" }),
  ask("把矩阵复习移到周五晚上7点", MATRIX, true, { day: "friday", time: "19:00" }),
  ask("把矩阵复习安排在周五下午3点", MATRIX, false, { day: "friday", time: "15:00" }),
  ask("今天安排矩阵复习", MATRIX, false, { day: "today", slots: WHOLE_DAY }),
  ask("今晚安排单词表", VOCABULARY, false, { day: "today", slots: EVENING }),
  ask("今天晚上9点45安排单词表", VOCABULARY, false, { day: "today", time: "21:45" }),
  ask("明天早上8点55安排单词表", VOCABULARY, false, { day: "tomorrow", time: "08:55" }),
  ask("明天晚上9点45安排矩阵复习", MATRIX, false, { day: "tomorrow", time: "21:45" }),
  // A day already gone: the time has passed (or the day is outside the week shown), never another day.
  ask("move the matrix review to yesterday at 14:00", MATRIX, true, { day: "yesterday", time: "14:00" }),
  ask("昨天下午两点安排单词表", VOCABULARY, false, { day: "yesterday", time: "14:00" }),
  ask("move the matrix review to the same time on Friday", MATRIX, true, { day: "friday", time: "19:00" }),
  ask("move the matrix review to Friday, same time", MATRIX, true, { day: "friday", time: "19:00" }),
  ask("move the matrix review to the same time tomorrow", MATRIX, true, { day: "tomorrow", time: "19:00" }),
  ask("把矩阵复习挪到周五同一时间", MATRIX, true, { day: "friday", time: "19:00" }),
  ask("put the matrix review on Friday at 10:00", MATRIX, true, { day: "friday", time: "10:00" }),
  ask("I'd rather do the matrix review on Friday at 7pm", MATRIX, true, { day: "friday", time: "19:00" }),
  ask("do the vocabulary list tomorrow at 14:00", VOCABULARY, false, { day: "tomorrow", time: "14:00" }),
  ask("move the matrix review to Friday, no wait, Saturday at 10:00", MATRIX, true, { day: "saturday", time: "10:00" }),
  ask("move the matrix review to 15/3 at 10:00", MATRIX, true, { day: "2024-03-15", time: "10:00" }),
  ask("schedule the vocabulary list on 3/15 at half past seven pm", VOCABULARY, false, {
    day: "2024-03-15",
    time: "19:30",
  }),
  ask("schedule the vocabulary list tomorrow at quarter to ten pm", VOCABULARY, false, {
    day: "tomorrow",
    time: "21:45",
  }),
  ask("schedule the vocabulary list at 7 tonight", VOCABULARY, false, { day: "today", time: "19:00" }),
  ask("明早8点安排单词表", VOCABULARY, false, { day: "tomorrow", time: "08:00" }),
  ask("把矩阵复习安排到3/15上午10点", MATRIX, true, { day: "2024-03-15", time: "10:00" }),
  ask("move the matrix review right after the robotics club meeting", MATRIX, true, {
    next: "after",
    anchor: "Robotics club meeting",
  }),
  ask("schedule the vocabulary list right after the linear algebra lecture", VOCABULARY, false, {
    next: "after",
    anchor: "Linear Algebra lecture",
  }),
  ask("schedule the vocabulary list right before the physics lab", VOCABULARY, false, {
    next: "before",
    anchor: "Physics lab",
  }),
  ask("move the matrix review to right before physical education", MATRIX, true, {
    next: "before",
    anchor: "Physical education",
  }),
  // A stretch of the next calendar week: the window's on the eve of the sample week, else a week not shown yet.
  ask("move the matrix review to next weekend", MATRIX, true, { nextWeek: [6, 7] }),
  ask("schedule the vocabulary list early next week", VOCABULARY, false, { nextWeek: [1, 2] }),
  ask("把单词表安排到下周末", VOCABULARY, false, { nextWeek: [6, 7] }),
  ask("move the matrix review to the middle of next week", MATRIX, true, { nextWeek: [3, 4] }),
  ask("schedule the vocabulary list after the weekend", VOCABULARY, false, { nextWeek: [1, 2, 3, 4, 5, 6, 7] }),
  ask("把单词表安排到周末以后", VOCABULARY, false, { nextWeek: [1, 2, 3, 4, 5, 6, 7] }),
  // A dot for the colon, "around", midnight.
  ask("move the matrix review to Friday at 7.55pm", MATRIX, true, { day: "friday", time: "19:55" }),
  ask("schedule the vocabulary list tomorrow around 10", VOCABULARY, false, { day: "tomorrow", time: "10:00" }),
  ask("schedule the vocabulary list tomorrow at midnight", VOCABULARY, false, { day: "tomorrow", time: "00:00" }),
  // A day the student cannot make: the review leaves it when it is there, and nothing moves when it is not.
  ask("I can't do the matrix review today", MATRIX, true, { offToday: true }),
  ask("我今天做不了矩阵复习", MATRIX, true, { offToday: true }),
  ask("把单词表安排在物理实验之前", VOCABULARY, false, { next: "before", anchor: "Physics lab" }),
  // Lunch is noon, as "noon" is: no slot of the week starts at 12:00.
  ask("move the matrix review to Friday at lunch", MATRIX, true, { day: "friday", time: "12:00" }),
  ask("schedule the vocabulary list tomorrow at lunch", VOCABULARY, false, { day: "tomorrow", time: "12:00" }),
  ask("schedule the vocabulary list at lunchtime tomorrow", VOCABULARY, false, { day: "tomorrow", time: "12:00" }),
  ask("明天中午安排单词表", VOCABULARY, false, { day: "tomorrow", time: "12:00" }),
  ask("schedule the vocabulary list over lunch tomorrow", VOCABULARY, false, { day: "tomorrow", time: "12:00" }),
  ask("move the matrix review to lunch on Friday", MATRIX, true, { day: "friday", time: "12:00" }),
  // A dot for the colon before noon, after a day.
  ask("move the matrix review to Friday 10.55", MATRIX, true, { day: "friday", time: "10:55" }),
  ask("schedule the vocabulary list tomorrow 8.55", VOCABULARY, false, { day: "tomorrow", time: "08:55" }),
  // A stretch of the week shown, said with no "to": its start (Monday, Tuesday), middle (Wednesday, Thursday), end
  // (Friday to Sunday).
  ask("schedule the vocabulary list later in the week", VOCABULARY, false, { thisWeek: [5, 6, 7] }),
  ask("move the matrix review midweek", MATRIX, true, { thisWeek: [3, 4] }),
  ask("move the matrix review the end of the week", MATRIX, true, { thisWeek: [5, 6, 7] }),
  ask("schedule the vocabulary list early in the week", VOCABULARY, false, { thisWeek: [1, 2] }),
  ask("把单词表安排到周中", VOCABULARY, false, { thisWeek: [3, 4] }),
  // A day before or after the review's own (Sunday: no later day).
  ask("move the matrix review to an earlier day", MATRIX, true, { dayward: "earlier" }),
  ask("move the matrix review to a later day", MATRIX, true, { dayward: "later" }),
  ask("把矩阵复习挪到更早的一天", MATRIX, true, { dayward: "earlier" }),
  ask("move the matrix review to later today", MATRIX, true, { laterToday: true }),
  ask("schedule the vocabulary list later today", VOCABULARY, false, { laterToday: true }),
  ask("把矩阵复习挪到今天晚点", MATRIX, true, { laterToday: true }),
  // A limit of the clock on a day: any start of that day within it, not the limit's own slot.
  ask("schedule the vocabulary list tomorrow before 12:00", VOCABULARY, false, {
    day: "tomorrow",
    slots: endingBy("12:00"),
  }),
  ask("move the matrix review to Friday after 14:00", MATRIX, true, { day: "friday", slots: startingFrom("14:00") }),
  ask("schedule the matrix review before lunch tomorrow", MATRIX, false, { day: "tomorrow", slots: endingBy("12:00") }),
  ask("move the matrix review to before lunch tomorrow", MATRIX, true, { day: "tomorrow", slots: endingBy("12:00") }),
  ask("schedule the vocabulary list tomorrow after 7pm", VOCABULARY, false, {
    day: "tomorrow",
    slots: startingFrom("19:00"),
  }),
  ask("把单词表安排到明天12点以前", VOCABULARY, false, { day: "tomorrow", slots: endingBy("12:00") }),
  ask("把矩阵复习挪到周五中午12点以前", MATRIX, true, { day: "friday", slots: endingBy("12:00") }),
  ask("把单词表安排到明天中午以前", VOCABULARY, false, { day: "tomorrow", slots: endingBy("12:00") }),
  ask("把矩阵复习挪到周五下午两点以后", MATRIX, true, { day: "friday", slots: startingFrom("14:00") }),
  // A range of the clock, however written, and a limit said right after the day ("tomorrow no earlier than 10").
  ask("schedule the vocabulary list tomorrow between 2 and 6pm", VOCABULARY, false, {
    day: "tomorrow",
    slots: between("14:00", "18:00"),
  }),
  ask("move the matrix review to Friday 14:00-18:00", MATRIX, true, {
    day: "friday",
    slots: between("14:00", "18:00"),
  }),
  ask("schedule the matrix review tomorrow 2-6pm", MATRIX, false, {
    day: "tomorrow",
    slots: between("14:00", "18:00"),
  }),
  ask("schedule the vocabulary list tomorrow 9-11am", VOCABULARY, false, {
    day: "tomorrow",
    slots: between("09:00", "11:00"),
  }),
  // A move said with no "to": the day and the time right after the task's name.
  ask("move the matrix review tomorrow at 10am", MATRIX, true, { day: "tomorrow", time: "10:00" }),
  ask("move the matrix review tomorrow, not before 10am", MATRIX, true, {
    day: "tomorrow",
    slots: startingFrom("10:00"),
  }),
  // A Chinese hour nothing goes after or starts before, said beside the request: its limit, as "not after 9pm" is
  // (before, "晚上 … 不要" ruled out the evening, "周五 … 不要" all of Friday).
  ask("把矩阵复习挪到周五，晚上9点以后不要", MATRIX, true, { day: "friday", slots: endingBy("21:00") }),
  ask("把单词表安排到周五，10点以前不要", VOCABULARY, false, { day: "friday", slots: startingFrom("10:00") }),
  ask("move the vocabulary list friday 2-6pm", VOCABULARY, false, { day: "friday", slots: between("14:00", "18:00") }),
  ask("move the matrix review tomorrow between 2 and 6pm", MATRIX, true, {
    day: "tomorrow",
    slots: between("14:00", "18:00"),
  }),
  ask("把单词表安排在明天下午三点到六点之间", VOCABULARY, false, { day: "tomorrow", slots: between("15:00", "18:00") }),
  // Hours alone right after the day, read as "at 2" is: never dropped.
  ask("schedule the vocabulary list tomorrow 2-4", VOCABULARY, false, {
    day: "tomorrow",
    slots: between("14:00", "16:00"),
  }),
  // A part of the day said short after the day ("fri pm"): never dropped.
  ask("move the matrix review to fri pm", MATRIX, true, { day: "friday", slots: AFTERNOON }),
  // "Do" with a day: once the week has rolled past it, the missed review is given that new place too.
  ask("do the matrix review tomorrow", MATRIX, true, { day: "tomorrow", slots: WHOLE_DAY }),
  // Chinese "do" with a day: where it is done ("明天上午做作文"), the task first or last.
  ask("矩阵复习明天做", MATRIX, true, { day: "tomorrow", slots: WHOLE_DAY }),
  ask("明天上午做单词表", VOCABULARY, false, { day: "tomorrow", slots: endingBy("12:00") }),
  ask("单词表周五下午三点以后再做", VOCABULARY, false, { day: "friday", slots: startingFrom("15:00") }),
  // Dinner ends the day's work before it (18:00); "early" and "late" with a day are its morning and its evening.
  ask("move the matrix review to Friday before dinner", MATRIX, true, { day: "friday", slots: endingBy("18:00") }),
  ask("把单词表安排到明天晚饭前", VOCABULARY, false, { day: "tomorrow", slots: endingBy("18:00") }),
  ask("schedule the vocabulary list early tomorrow", VOCABULARY, false, { day: "tomorrow", slots: endingBy("12:00") }),
  ask("move the matrix review to late on Friday", MATRIX, true, { day: "friday", slots: EVENING }),
  ask("把单词表安排到明天一早", VOCABULARY, false, { day: "tomorrow", slots: endingBy("12:00") }),
  // The day of an event, or the day before or after it (the one-off midterm is not in the next week).
  ask("move the matrix review to the day before the physics lab", MATRIX, true, dayOf("Physics lab", -1)),
  ask("move the vocabulary list to the day after the midterm", VOCABULARY, false, dayOf("Calculus midterm exam", 1)),
  ask(
    "move the matrix review to the same day as the robotics club meeting in the evening",
    MATRIX,
    true,
    dayOf("Robotics club meeting", 0, EVENING),
  ),
  ask(
    "move the vocabulary list to the day after the library study block",
    VOCABULARY,
    false,
    dayOf("Library study block", 1),
  ),
  ask("把单词表挪到期中考试的前一天晚上", VOCABULARY, false, dayOf("Calculus midterm exam", -1, EVENING)),
  ask("schedule the vocabulary list the day before the midterm", VOCABULARY, false, dayOf("Calculus midterm exam", -1)),
  ask(
    "I'd like to do the vocabulary list the day before the midterm",
    VOCABULARY,
    false,
    dayOf("Calculus midterm exam", -1),
  ),
  ask("把单词表安排在物理实验那天", VOCABULARY, false, dayOf("Physics lab", 0)),
  ask(
    "move the vocabulary list to the evening before the midterm",
    VOCABULARY,
    false,
    dayOf("Calculus midterm exam", -1, EVENING),
  ),
  ask("move the matrix review to two days before the physics lab", MATRIX, true, dayOf("Physics lab", -2)),
  ask("把矩阵复习挪到物理实验的后两天", MATRIX, true, dayOf("Physics lab", 2)),
  // An event twice a week: the day of the one still to come.
  ask(
    "move the matrix review to the day before the linear algebra lecture",
    MATRIX,
    true,
    dayOf("Linear Algebra lecture", -1),
  ),
  ask(
    "schedule the vocabulary list on the same day as the calculus lecture",
    VOCABULARY,
    false,
    dayOf("Calculus lecture", 0),
  ),
  ask(
    "move the vocabulary list to the day after the data structures lecture",
    VOCABULARY,
    false,
    dayOf("Data Structures lecture", 1),
  ),
  // After class, before class: the day's last or first class (before, "after class" was dropped: any time of the day).
  ask("schedule the vocabulary list after class tomorrow", VOCABULARY, false, { classes: "after", day: "tomorrow" }),
  ask("move the matrix review to right after my last class", MATRIX, true, { classes: "after" }),
  ask("把单词表安排在明天下课后", VOCABULARY, false, { classes: "after", day: "tomorrow" }),
  ask("move the matrix review to before my first class on friday", MATRIX, true, { classes: "before", day: "friday" }),
  // Once an event is over: right after it; a move asked as a question.
  ask("schedule the vocabulary list once the robotics club meeting is over", VOCABULARY, false, {
    next: "after",
    anchor: "Robotics club meeting",
  }),
  ask("can the matrix review go to friday evening instead?", MATRIX, true, { day: "friday", slots: EVENING }),
  // The day and time it leaves, said first: no part of its name.
  ask("move the matrix review from Sunday 19:00 to Friday 10:00", MATRIX, true, { day: "friday", time: "10:00" }),
  ask("把矩阵复习从周日晚上7点挪到周五上午10点", MATRIX, true, { day: "friday", time: "10:00" }),
  // Monday to Friday of the week shown.
  ask("schedule the vocabulary list on a weekday evening", VOCABULARY, false, {
    weekdays: [1, 2, 3, 4, 5],
    slots: EVENING,
  }),
  ask("move the matrix review to a weekday", MATRIX, true, { weekdays: [1, 2, 3, 4, 5], slots: WHOLE_DAY }),
  ask("把单词表安排在工作日晚上", VOCABULARY, false, { weekdays: [1, 2, 3, 4, 5], slots: EVENING }),
  ask("move the matrix review to tomorrow no earlier than 10", MATRIX, true, {
    day: "tomorrow",
    slots: startingFrom("10:00"),
  }),
  // When said first ("on Friday, …", "tomorrow morning I'll …"): where it goes, never dropped.
  ask("on Friday, move the matrix review to the evening", MATRIX, true, { day: "friday", slots: EVENING }),
  ask("tomorrow morning I'll do the vocabulary list", VOCABULARY, false, { day: "tomorrow", slots: endingBy("12:00") }),
  ask("first thing tomorrow, do the matrix review", MATRIX, true, { day: "tomorrow", slots: endingBy("12:00") }),
  // Getting it done by a day: the days up to it (before, "finish … by Friday" marked a task "essay by" done).
  ask("finish the vocabulary list by friday", VOCABULARY, false, { weekdays: [1, 2, 3, 4, 5], slots: WHOLE_DAY }),
  ask("get the matrix review done before friday", MATRIX, true, { weekdays: [1, 2, 3, 4], slots: WHOLE_DAY }),
  ask("I need the vocabulary list done by friday", VOCABULARY, false, { weekdays: [1, 2, 3, 4, 5], slots: WHOLE_DAY }),
  // The same in Chinese: who wants it after the words of when, "第一件事", done before a day, the schedule named.
  ask("今天晚上我要做单词表", VOCABULARY, false, { day: "today", slots: EVENING }),
  ask("明天早上第一件事做矩阵复习", MATRIX, true, { day: "tomorrow", slots: endingBy("12:00") }),
  ask("周五之前把单词表做完", VOCABULARY, false, { weekdays: [1, 2, 3, 4], slots: WHOLE_DAY }),
  ask("矩阵复习要在周五前完成", MATRIX, true, { weekdays: [1, 2, 3, 4], slots: WHOLE_DAY }),
  ask("把单词表加到周五的日程里", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  // A date with the part of the day said first ("the afternoon of the 15th"), and the weekday after next.
  ask("move the matrix review to the afternoon of the 15th", MATRIX, true, { day: "2024-03-15", slots: AFTERNOON }),
  ask("schedule the vocabulary list on the friday after next", VOCABULARY, false, { nextWeek: [5], weeks: 2 }),
  // A move said as a liking or a question: "I'd prefer …", "… would be better on …", "could … be …", "can we do …".
  ask("I'd prefer the matrix review on friday", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  ask("the matrix review would be better on friday", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  ask("friday works better for the vocabulary list", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  ask("could the matrix review be on friday evening instead", MATRIX, true, { day: "friday", slots: EVENING }),
  ask("can we do the vocabulary list on friday instead", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  // As soon as possible: the first free start from the clock on (before, not understood, or placed anywhere).
  ask("move the matrix review to the earliest free slot", MATRIX, true, { soonest: true }),
  ask("schedule the vocabulary list as soon as possible", VOCABULARY, false, { soonest: true }),
  ask("do the matrix review asap", MATRIX, true, { soonest: true }),
  ask("尽快安排单词表", VOCABULARY, false, { soonest: true }),
  // "Now" where it goes: as soon as it fits (before, not understood).
  ask("move the matrix review to now", MATRIX, true, { soonest: true }),
  ask("把矩阵复习挪到现在", MATRIX, true, { soonest: true }),
  // The next free day, evening or afternoon: the first free start from the clock on (in that part of a day). Before,
  // "the next free evening" was any evening, and "the next free day" anywhere.
  ask("move the matrix review to the next free day", MATRIX, true, { soonest: true }),
  ask("move the matrix review to the next free evening", MATRIX, true, { soonest: true, slots: EVENING }),
  ask("schedule the vocabulary list in the first free afternoon", VOCABULARY, false, {
    soonest: true,
    slots: AFTERNOON,
  }),
  // Placed on the schedule in words of the schedule: "add … to my calendar", "squeeze in", "pencil in".
  ask("add the vocabulary list to my calendar on friday", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  ask("squeeze the vocabulary list in somewhere tomorrow", VOCABULARY, false, { day: "tomorrow", slots: WHOLE_DAY }),
  ask("pencil in the matrix review for friday", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  ask("move the matrix review in two days", MATRIX, true, { day: "in 2 days", slots: WHOLE_DAY }),
  // A stretch of days: the days between, or from a day on, or up to it (before, only the one or two days named).
  ask("move the matrix review to Thursday or later", MATRIX, true, { weekdays: [4, 5, 6, 7], slots: WHOLE_DAY }),
  ask("schedule the vocabulary list Tuesday through Thursday", VOCABULARY, false, {
    weekdays: [2, 3, 4],
    slots: WHOLE_DAY,
  }),
  ask("move the matrix review no earlier than Thursday", MATRIX, true, { weekdays: [4, 5, 6, 7], slots: WHOLE_DAY }),
  ask("schedule the vocabulary list on Wednesday at the latest", VOCABULARY, false, {
    weekdays: [1, 2, 3],
    slots: WHOLE_DAY,
  }),
  ask("把单词表安排到周二到周四", VOCABULARY, false, { weekdays: [2, 3, 4], slots: WHOLE_DAY }),
  ask("schedule the vocabulary list between Wednesday and Friday", VOCABULARY, false, {
    weekdays: [3, 4, 5],
    slots: WHOLE_DAY,
  }),
  // From a day relative to today on: the days of the week shown from it.
  ask("move the matrix review to tomorrow or later", MATRIX, true, { onward: 1 }),
  ask("schedule the vocabulary list any day after today", VOCABULARY, false, { onward: 1 }),
  ask("move the matrix review no earlier than tomorrow", MATRIX, true, { onward: 1 }),
  ask("把单词表安排到明天或以后", VOCABULARY, false, { onward: 1 }),
  // "明天以后" after tomorrow, as "after tomorrow" (before, tomorrow alone); the task said first, before a limit of days
  // (before, a task named "在 以后").
  ask("把单词表安排到明天以后", VOCABULARY, false, { onward: 2 }),
  ask("单词表安排在周三以后", VOCABULARY, false, { weekdays: [4, 5, 6, 7], slots: WHOLE_DAY }),
  ask("矩阵复习挪到周二到周四", MATRIX, true, { weekdays: [2, 3, 4], slots: WHOLE_DAY }),
  // A yes-or-no question asks for the day (before, Friday was the one day ruled out).
  ask("能不能把单词表安排在周五？", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  ask("把矩阵复习挪到周五好不好", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  ask("单词表可以安排在周五吗", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  // The clock in Chinese: digits after a part of the day, a quarter, full-width digits, a limit in words or digits
  // (before, 19:55 was 07:55 and refused, 一刻 a minute, １９：００ no time, 三点以后 an event, 14:00以后 a time).
  // English stretches and limits as students write them (before, the stretch's ends alone, the only day ruled out,
  // tomorrow for "before tomorrow", a time to place at for "from 2pm").
  ask("schedule the vocabulary list Tuesday to Thursday", VOCABULARY, false, { weekdays: [2, 3, 4], slots: WHOLE_DAY }),
  ask("schedule the vocabulary list up to Wednesday", VOCABULARY, false, { weekdays: [1, 2, 3], slots: WHOLE_DAY }),
  ask("schedule the vocabulary list, anything but friday", VOCABULARY, false, {
    weekdays: [1, 2, 3, 4, 6, 7],
    slots: WHOLE_DAY,
  }),
  ask("schedule the vocabulary list on friday from 2pm", VOCABULARY, false, {
    day: "friday",
    slots: startingFrom("14:00"),
  }),
  ask("schedule the vocabulary list before tomorrow", VOCABULARY, false, { day: "today", slots: WHOLE_DAY }),
  // Free time as the reason for a placing, and "add … to" a day (before, a question about free time, and a new task
  // of a class "friday").
  ask("I'm free friday, schedule the vocabulary list", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  ask("add the vocabulary list to friday", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  // A side of a date (before, the date alone, and "mar 15" an event to be done before).
  ask("schedule the vocabulary list before mar 15", VOCABULARY, false, { dates: ["2024-01-01", "2024-03-14"] }),
  ask("把单词表安排在3月13日以后", VOCABULARY, false, { dates: ["2024-03-14", "2024-12-31"] }),
  ask("move the matrix review to mar 14 or earlier", MATRIX, true, { dates: ["2024-01-01", "2024-03-14"] }),
  // More ways to ask (before, not understood, or the second sentence's limit dropped).
  ask("would you mind moving the matrix review to friday?", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  ask("change the matrix review to friday evening", MATRIX, true, { day: "friday", slots: EVENING }),
  ask("单词表周五晚上背", VOCABULARY, false, { day: "friday", slots: EVENING }),
  ask("Schedule the vocabulary list on friday. After 2pm.", VOCABULARY, false, {
    day: "friday",
    slots: startingFrom("14:00"),
  }),
  // Chinese limits of days said with 从…开始, 最晚 (before, the day alone).
  ask("从周四开始安排单词表", VOCABULARY, false, { weekdays: [4, 5, 6, 7], slots: WHOLE_DAY }),
  ask("把矩阵复习最晚挪到周三", MATRIX, true, { weekdays: [1, 2, 3], slots: WHOLE_DAY }),
  ask("把单词表安排在周五１９：００", VOCABULARY, false, { day: "friday", time: "19:00" }),
  ask("把矩阵复习挪到周五两点以后", MATRIX, true, { day: "friday", slots: startingFrom("14:00") }),
  ask("把单词表安排在明天14:00以后", VOCABULARY, false, { day: "tomorrow", slots: startingFrom("14:00") }),
  // Not, between the task said first and its verb (before, a task "单词表不", or every review).
  ask("我周五不在，单词表不要放周五", VOCABULARY, false, { weekdays: [1, 2, 3, 4, 6, 7], slots: WHOLE_DAY }),
  // A move said as a statement, a want, a better fit or a suggestion, or bumped (before, not understood, or a task
  // named "better").
  ask("bump the matrix review to friday", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  ask("bump the matrix review to tomorrow at 10am", MATRIX, true, { day: "tomorrow", time: "10:00" }),
  ask("the matrix review can go on friday evening", MATRIX, true, { day: "friday", slots: EVENING }),
  ask("the vocabulary list should go on friday", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  ask("I want the matrix review on friday", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  ask("the matrix review would fit better on friday", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  ask("how about the matrix review on friday evening?", MATRIX, true, { day: "friday", slots: EVENING }),
  ask("how about friday for the vocabulary list?", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  // With no preposition before where (before, not understood).
  ask("the matrix review can go any day after tuesday", MATRIX, true, { weekdays: [3, 4, 5, 6, 7], slots: WHOLE_DAY }),
  ask("how about the vocabulary list tomorrow?", VOCABULARY, false, { day: "tomorrow", slots: WHOLE_DAY }),
  // Chinese with 放在 / 放 / 推到, and the task said first with no 把 (before, not understood, or a task named "在").
  ask("矩阵复习放到周五晚上", MATRIX, true, { day: "friday", slots: EVENING }),
  ask("单词表安排在明天下午两点", VOCABULARY, false, { day: "tomorrow", time: "14:00" }),
  ask("把矩阵复习推到周五", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  ask("把单词表放在周五", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  ask("矩阵复习放在周五晚上更好", MATRIX, true, { day: "friday", slots: EVENING }),
  ask("单词表明天做比较好", VOCABULARY, false, { day: "tomorrow", slots: WHOLE_DAY }),
  // "Anytime", "in my free time": of when, not of the name (before, "vocabulary list anytime" was sought).
  ask("do the vocabulary list anytime tomorrow", VOCABULARY, false, { day: "tomorrow", slots: WHOLE_DAY }),
  ask("schedule the vocabulary list in my free time on friday", VOCABULARY, false, { day: "friday", slots: WHOLE_DAY }),
  // A week on from today (before, today itself); a placed task done elsewhere "instead" is moved there.
  ask("move the matrix review to a week from today", MATRIX, true, { day: "in 7 days", slots: WHOLE_DAY }),
  ask("把单词表安排在一周后", VOCABULARY, false, { day: "in 7 days", slots: WHOLE_DAY }),
  ask("can we do the matrix review on friday instead", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
  // Off a weekday said short and onto another (before, a task named "matrix review off sun and" was sought).
  ask("move the matrix review off sun and onto fri", MATRIX, true, { day: "friday", slots: WHOLE_DAY }),
];

/** What the oracle expects: placed exactly there, at one of these starts, or refused for one of these reasons. */
type Verdict = { at: string[] } | { refuse: Reason[] };

const placeName = (date: string, slot: number) => `${date} slot ${slot}`;

/** The oracle: where `ask` may put its review at `local` ("YYYY-MM-DDTHH:MM:00+08:00"), or every true reason not. */
function verdictOf({ task, placed, when }: Ask, local: string): Verdict {
  const now = new Date(local).getTime();
  const today = local.slice(0, 10);
  const window = windowAt(today);
  const duration = DURATION.get(task)!;
  // A placed review whose time has started is fixed while its week is shown; once the window has rolled past it, it
  // is missed — without a place, to be put where the student now says.
  const from = plusDays(FIRST_MONDAY, MOVED_FROM.day - 1);
  const started = placed && window.includes(from) && instant(from, TIMES[MOVED_FROM.start - 1]!.start) <= now;
  /** Placed at any start on `dates` within slots first–last that nothing rules out; else no room, or passed. */
  const placedIn = (dates: string[], [first, last] = WHOLE_DAY): Verdict => {
    const fits = dates.flatMap((date) =>
      TIMES.flatMap((_, index) =>
        index + 1 >= first && index + duration <= last && reasonsAt(date, index + 1, duration, now).length === 0
          ? [placeName(date, index + 1)]
          : [],
      ),
    );
    return fits.length > 0 ? { at: fits } : { refuse: [{ kind: "no-room" }, { kind: "passed" }] };
  };
  /**
   * To one of `dates`, in slots first–last: a review that has started, or is already there, is refused for each of
   * those that is true; else placed as `placedIn` places it.
   */
  const placedAmong = (dates: string[], [first, last] = WHOLE_DAY): Verdict => {
    const there: Reason[] =
      placed && dates.includes(from) && first <= MOVED_FROM.start && MOVED_FROM.end <= last
        ? [{ kind: "already-there" }]
        : [];
    if (started) return { refuse: [{ kind: "started" }, ...there] };
    if (there.length > 0) return { refuse: there };
    return placedIn(dates, [first, last]);
  };
  /** Outside the week shown (and started, when it has). */
  const outsideWindow: Verdict = {
    refuse: [{ kind: "outside-window" }, ...(started ? [{ kind: "started" } as Reason] : [])],
  };
  /** Right `side` of the last (first) class of the first of `dates` that has a class and room; else why not. */
  const besideClass = (dates: string[], side: "after" | "before"): Verdict => {
    let anyClass = false;
    for (const date of dates) {
      const classes = eventsOn(date).filter((event) => !event.hosts);
      if (classes.length === 0) continue;
      anyClass = true;
      const edge =
        side === "after"
          ? Math.max(...classes.map((event) => event.end))
          : Math.min(...classes.map((event) => event.start));
      const starts = TIMES.flatMap((_, index) => {
        const slot = index + 1;
        const onSide = side === "after" ? slot > edge : slot + duration - 1 < edge;
        return onSide && slot + duration - 1 <= TIMES.length && reasonsAt(date, slot, duration, now).length === 0
          ? [slot]
          : [];
      });
      if (starts.length > 0 && !started)
        return { at: [placeName(date, side === "after" ? Math.min(...starts) : Math.max(...starts))] };
      if (starts.length > 0) return { refuse: [{ kind: "started" }] };
    }
    return {
      refuse: [{ kind: anyClass ? "no-room-beside" : "no-class" }, ...(started ? [{ kind: "started" } as Reason] : [])],
    };
  };
  if ("classes" in when && when.day === undefined) return besideClass(window, when.classes);
  if ("next" in when) {
    for (const date of window)
      for (const event of eventsOn(date).filter((each) => each.name === when.anchor)) {
        const starts: number[] = [];
        for (let slot = 1; slot + duration - 1 <= TIMES.length; slot += 1) {
          const side = when.next === "after" ? slot > event.end : slot + duration - 1 < event.start;
          if (side && reasonsAt(date, slot, duration, now).length === 0) starts.push(slot);
        }
        if (starts.length > 0 && !started)
          return { at: [placeName(date, when.next === "after" ? Math.min(...starts) : Math.max(...starts))] };
        if (starts.length > 0) return { refuse: [{ kind: "started" }] };
      }
    return { refuse: [{ kind: "no-room-beside" }, ...(started ? [{ kind: "started" } as Reason] : [])] };
  }
  if ("offToday" in when) {
    // Placed today (the sample week's Sunday), and not started: any place of another day; else it is not today.
    const shown: Reason[] = window.includes(today) ? [] : [{ kind: "outside-window" }];
    if (!placed || !window.includes(from) || from !== today) return { refuse: [{ kind: "not-on-day" }, ...shown] };
    if (started) return { refuse: [{ kind: "started" }] };
    return placedIn(window.filter((date) => date !== today));
  }
  if ("soonest" in when) {
    if (started) return { refuse: [{ kind: "started" }] };
    const [low, high] = when.slots ?? WHOLE_DAY;
    const first = window
      .flatMap((date) =>
        TIMES.map((_, index) => [date, index + 1] as const).filter(
          ([, slot]) => slot >= low && slot + duration - 1 <= high && reasonsAt(date, slot, duration, now).length === 0,
        ),
      )
      .at(0);
    if (first === undefined) return { refuse: [{ kind: "no-room" }, { kind: "passed" }] };
    const [date, slot] = first;
    // Nothing free comes before its own place: it is as soon as it can be.
    if (placed && window.includes(from) && (date > from || (date === from && slot >= MOVED_FROM.start)))
      return { refuse: [{ kind: "already-there" }] };
    return { at: [placeName(date, slot)] };
  }
  if ("nextWeek" in when) {
    const monday = plusDays(today, 1 - weekdayOf(today));
    const shown = when.nextWeek
      .map((weekday) => plusDays(monday, 7 * (when.weeks ?? 1) - 1 + weekday))
      .filter((date) => window.includes(date));
    if (shown.length === 0) return outsideWindow;
    if (started) return { refuse: [{ kind: "started" }] };
    if (placed && shown.includes(from)) return { refuse: [{ kind: "already-there" }] };
    return placedIn(shown);
  }
  if ("thisWeek" in when) {
    const shown = when.thisWeek.map((weekday) => window[weekday - 1]!);
    // All behind today: the coming ones are meant, which the week shown does not reach.
    if (shown.every((date) => date < today)) return outsideWindow;
    // Started and on one of those days: both are true.
    return placedAmong(shown);
  }
  if ("dayOf" in when) {
    const held: Reason[] = started ? [{ kind: "started" }] : [];
    // Of an event twice in the week, the first whose day that way has not passed (the day before Thursday's lecture
    // on a Tuesday); when every one's has, the first.
    const anchorDates = window.filter((date) => eventsOn(date).some((event) => event.name === when.dayOf));
    const anchorDate = anchorDates.find((date) => plusDays(date, when.offset) >= today) ?? anchorDates[0];
    if (anchorDate === undefined) return { refuse: [{ kind: "no-anchor" }, ...held] };
    const date = plusDays(anchorDate, when.offset);
    if (!window.includes(date)) return { refuse: [{ kind: "outside-window" }, ...held] };
    // Started and on that day already: both are true.
    const [first, last] = when.slots;
    const there: Reason[] =
      placed && date === from && first <= MOVED_FROM.start && MOVED_FROM.end <= last ? [{ kind: "already-there" }] : [];
    if (started || there.length > 0) return { refuse: [...held, ...there] };
    return placedIn([date], when.slots);
  }
  if ("weekdays" in when) {
    const shown = window.filter((date) => when.weekdays.includes(weekdayOf(date)));
    if (shown.every((date) => date < today)) return outsideWindow;
    // Started and on one of those days, in those slots: both are true.
    return placedAmong(shown, when.slots);
  }
  if ("onward" in when) {
    const shown = window.filter((date) => date >= plusDays(today, when.onward));
    if (shown.length === 0) return outsideWindow;
    return placedAmong(shown);
  }
  if ("dates" in when) {
    const [first, last] = when.dates;
    const shown = window.filter((date) => date >= first && date <= last);
    if (shown.length === 0) return outsideWindow;
    return placedAmong(shown);
  }
  if ("laterToday" in when) {
    if (!window.includes(today)) return outsideWindow;
    if (started) return { refuse: [{ kind: "started" }] };
    // On its own day: the nearest start after its own; else any start today.
    const own = placed && from === today;
    const fits = TIMES.flatMap((_, index) =>
      (!own || index + 1 > MOVED_FROM.start) && reasonsAt(today, index + 1, duration, now).length === 0
        ? [placeName(today, index + 1)]
        : [],
    );
    if (fits.length === 0) return { refuse: [{ kind: "no-room" }, { kind: "passed" }] };
    return { at: own ? fits.slice(0, 1) : fits };
  }
  if ("dayward" in when) {
    // Once the week has rolled past it, the review is missed and has no day of its own: any place from the clock on.
    const rolled = !window.includes(from);
    if (started) return { refuse: [{ kind: "started" }] };
    const shown = rolled ? window : window.filter((date) => (when.dayward === "earlier" ? date < from : date > from));
    if (shown.length === 0) return { refuse: [{ kind: "no-day-that-way" }] };
    return placedIn(shown);
  }
  // A weekday names that day of the week shown: the coming one on the eve of the window, today's on its day; once it
  // is behind today (Friday said on Saturday), the coming one, which the week shown does not reach.
  const coming = (date: string) => (date < today ? plusDays(date, 7) : date);
  const date =
    when.day === "today"
      ? today
      : when.day === "tomorrow"
        ? plusDays(today, 1)
        : when.day === "in 2 days" || when.day === "in 7 days"
          ? plusDays(today, Number(when.day.split(" ")[1]))
          : when.day === "yesterday"
            ? plusDays(today, -1)
            : when.day === "friday"
              ? coming(window[4]!)
              : when.day === "saturday"
                ? coming(window[5]!)
                : when.day!;
  if (!window.includes(date)) return outsideWindow;
  if ("classes" in when) return besideClass([date], when.classes);
  if (started) return { refuse: [{ kind: "started" }] };
  if ("slots" in when) {
    // Already inside the stretch asked for: said, not moved within it.
    const [first, last] = when.slots;
    if (placed && date === from && first <= MOVED_FROM.start && MOVED_FROM.end <= last)
      return { refuse: [{ kind: "already-there" }] };
    const fits: string[] = [];
    let roomBeforeTheClock = false;
    for (let slot = when.slots[0]; slot + duration - 1 <= when.slots[1]; slot += 1) {
      const reasons = reasonsAt(date, slot, duration, now);
      if (reasons.length === 0) fits.push(placeName(date, slot));
      else if (reasons.every((reason) => reason.kind === "passed")) roomBeforeTheClock = true;
    }
    if (fits.length > 0) return { at: fits };
    // Every start of the stretch behind the clock: it has passed, whatever else holds it.
    const gone = instant(date, TIMES[when.slots[1] - 1]!.start) <= now;
    if (gone && !roomBeforeTheClock) return { refuse: [{ kind: "passed" }, { kind: "no-room" }] };
    return { refuse: [{ kind: roomBeforeTheClock ? "passed" : "no-room" }] };
  }
  const slot = TIMES.findIndex((time) => time.start === when.time) + 1;
  if (slot > 0) {
    if (placed && date === from && slot === MOVED_FROM.start) return { refuse: [{ kind: "already-there" }] };
    const reasons = reasonsAt(date, slot, duration, now);
    return reasons.length === 0 ? { at: [placeName(date, slot)] } : { refuse: reasons };
  }
  const reasons: Reason[] = instant(date, when.time) <= now ? [{ kind: "passed" }] : [];
  const outside = when.time < TIMES[0]!.start || when.time >= TIMES.at(-1)!.end;
  return { refuse: [...reasons, { kind: outside ? "outside-day" : "not-a-start" }] };
}

/** True when `reply` says `reason` in words, English or Chinese. */
function says(reason: Reason, reply: string): boolean {
  switch (reason.kind) {
    case "passed":
      return /has passed|已经过去/.test(reply);
    case "not-on-day":
      return /is not on .*nothing to move|has no place yet, so it is not on|不在.*不用移动/.test(reply);
    case "no-day-that-way":
      return /there is no (?:earlier|later) day|没有更(?:早|晚)的一天/.test(reply);
    case "no-anchor":
      return /I found no task or event matching|没有找到与.*匹配的任务或活动/.test(reply);
    case "no-class":
      return /You have no class on|没有课/.test(reply);
    case "no-room-beside":
      return /No free time fits .* right (?:after|before)|紧挨着的时间里放不下/.test(reply);
    case "already-there":
      return /is already on|已经在/.test(reply);
    case "started":
      return /has already started|已经开始了/.test(reply);
    case "taken":
      return new RegExp(`overlaps (?:locked )?"${reason.by}"|与 (?:[^"\\s]+ ?)?"${reason.by}"（[^）]*）时间冲突`).test(
        reply,
      );
    case "partly-in-host":
      return /is only partly inside|只有一部分在可嵌入的/.test(reply);
    case "not-a-start":
      return /no slot starts at|没有从 \S+ 开始的时段/.test(reply);
    case "outside-day":
      return /outside the day's slots|不在一天的时段内/.test(reply);
    case "day-end":
      return /past the end of the day|超出了一天的最后一节/.test(reply);
    case "break":
      return /break|休息/.test(reply);
    case "outside-window":
      return /Your schedule covers .* (?:is|are) not (?:in|on) it|你的日程覆盖 .*不在(?:其中|日程里)|is outside your schedule|超出了日程范围/.test(
        reply,
      );
    case "no-room":
      return /no free (?:slot|time)|没有.*空闲/i.test(reply);
  }
}

// ── Driving the graph ──────────────────────────────────────────────────────────────────────────────────────────────

/** Sends `say` at `now` and accepts every card, up to a question back: the conversation ends there, the question said. */
async function talk(tempo: Awaited<ReturnType<typeof offlineTempo>>, say: string, now: string) {
  const config = { configurable: { ...threadConfig("sweep", "student").configurable, now } };
  let result = await tempo.graph.invoke({ messages: [new HumanMessage(say)] }, config);
  for (let turn = 0; turn < 10 && interruptsOf(result).length > 0; turn += 1) {
    const requests = (interruptsOf(result)[0]!.value as { action_requests: Array<{ name: string }> }).action_requests;
    if (requests.some((request) => request.name === "ask_user")) break;
    const accept = requests.map(() => ({ type: "accept", args: null }));
    result = await tempo.graph.invoke(resume(accept.length === 1 ? accept[0] : accept), config);
  }
  const said = result.messages
    .filter((message) => message.getType() === "ai")
    .map((message) => String(message.content))
    .filter(Boolean);
  return { reply: [...said, result.finalAnswer ?? ""].join("\n"), week: await tempo.repository.load("student") };
}

/** Where the graph disagrees with the oracle for `ask` at `local`, or undefined when it agrees. */
async function disagreement(ask: Ask, local: string): Promise<Record<string, string> | undefined> {
  const start = ask.placed ? matrixPlacedWeek() : pendingWeek();
  const now = new Date(local).getTime();
  const { reply, week } = await talk(await offlineTempo(start), ask.say, new Date(now).toISOString());
  const dateOf = (day: number) => week.window.days[day - 1]!.date!;
  const broken: string[] = [];
  // The timetable of every day shown is the fixture's, untouched (none of these requests moves an event).
  for (const date of week.window.days.map((day) => day.date!)) {
    const shown = week.tasks.flatMap((task) =>
      task.source === "event" && dateOf(task.slots[0]!.day) === date
        ? [`${task.name} ${task.slots[0]!.start}-${task.slots[0]!.end}`]
        : [],
    );
    const expected = eventsOn(date).map((event) => `${event.name} ${event.start}-${event.end}`);
    if (shown.sort().join("; ") !== expected.sort().join("; "))
      broken.push(`timetable of ${date}: ${shown.join("; ")}`);
  }
  // No review starts before the clock, and no review but the asked one has moved.
  let landed: string | undefined;
  for (const task of week.tasks) {
    if (task.source !== "task_item" || !task.slots?.[0]) continue;
    const before = start.tasks.find((other) => other.id === task.id) as TaskItem;
    const range = task.slots[0];
    if (JSON.stringify(before.slots) === JSON.stringify(task.slots) && dateOf(1) === FIRST_MONDAY) continue;
    if (instant(dateOf(range.day), TIMES[range.start - 1]!.start) <= now) broken.push(`${task.id} starts in the past`);
    if (task.id === ask.task) landed = placeName(dateOf(range.day), range.start);
    else broken.push(`${task.id} moved unasked`);
  }
  const verdict = verdictOf(ask, local);
  const agrees =
    "at" in verdict
      ? landed !== undefined && verdict.at.includes(landed)
      : landed === undefined &&
        verdict.refuse.some((reason) => says(reason, reply)) &&
        !/Error\b|INVALID_|undefined|\n\s+at /.test(reply);
  if (agrees && broken.length === 0) return undefined;
  return {
    at: local,
    say: ask.say,
    want:
      "at" in verdict
        ? `placed at ${verdict.at.join(" or ")}`
        : `refused: ${verdict.refuse.map((reason) => ("by" in reason ? `taken by ${reason.by}` : reason.kind)).join(" | ")}`,
    got: `${landed ? `placed at ${landed}` : "nothing placed"}${broken.length ? ` (${broken.join("; ")})` : ""}: ${reply.slice(-300)}`,
  };
}

/** The eve of the sample week, its seven days, and the first two of the next. */
const DAYS = Array.from({ length: 10 }, (_, index) => plusDays(FIRST_MONDAY, index - 1));
const CLOCK_TIMES = ["08:30", "12:00", "15:00", "21:00", "23:30"];
/** The share of requests each moment runs: 1 in 5, a different fifth at each next moment (every ask, every time). */
const SHARE = 5;
/** The requests run on day `dayIndex` at time `timeIndex`. */
const asksAt = (dayIndex: number, timeIndex: number) =>
  ASKS.filter((_, askIndex) => inShare(askIndex + dayIndex + timeIndex, SHARE));

describe("a named time or a day, as the clock moves day by day", () => {
  test("the oracle's verdicts cover every kind of outcome the sweep checks", () => {
    const kinds = new Set<string>();
    const times = new Set<string>();
    DAYS.forEach((date, dayIndex) =>
      CLOCK_TIMES.forEach((time, timeIndex) =>
        asksAt(dayIndex, timeIndex).forEach((each) => {
          times.add(`${each.say} @ ${time}`);
          const verdict = verdictOf(each, `${date}T${time}:00${ZONE}`);
          if ("at" in verdict) kinds.add(verdict.at.length === 1 ? "exact" : "a day");
          else verdict.refuse.forEach((reason) => kinds.add(reason.kind));
        }),
      ),
    );
    expect([...kinds].sort()).toEqual(
      [
        "a day",
        "already-there",
        "break",
        "day-end",
        "exact",
        "no-room",
        "no-day-that-way",
        "no-room-beside",
        "no-anchor",
        "no-class",
        "not-a-start",
        "not-on-day",
        "outside-day",
        "outside-window",
        "partly-in-host",
        "passed",
        "started",
        "taken",
      ].sort(),
    );
    // Every request meets every time of day.
    expect(times.size).toBe(ASKS.length * CLOCK_TIMES.length);
  });

  test.each(DAYS.map((date, index) => [date, index] as const))(
    "%s: a share of the requests at each time of day",
    async (date, dayIndex) => {
      const wrong: Array<Record<string, string>> = [];
      for (const [timeIndex, time] of CLOCK_TIMES.entries())
        for (const each of asksAt(dayIndex, timeIndex)) {
          const seen = await disagreement(each, `${date}T${time}:00${ZONE}`);
          if (seen) wrong.push(seen);
        }
      expect(wrong).toEqual([]);
    },
  );
});
