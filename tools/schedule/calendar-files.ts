/**
 * Calendar files (issue 30): a timetable read from iCalendar (RFC 5545) with ical.js, each occurrence mapped to the
 * slots whose clock times it covers in the window's time zone — and the arranged week written as iCalendar with
 * ical-generator, every event and every placed review with its real start and end. No RFC 5545 parsing by hand.
 *
 * A recurring lecture is kept as a series (issue 47): its RRULEs, one or several (FREQ=DAILY, WEEKLY, MONTHLY or
 * YEARLY, INTERVAL, BYDAY with or without an ordinal, BYMONTHDAY, BYMONTH, BYSETPOS, COUNT, UNTIL), its RDATEs
 * (VALUE=DATE, a time with its TZID, or a PERIOD with its own end), its local clock time and TZID, its EXDATEs and
 * RECURRENCE-ID moves, expanded into the window (`event-series.ts`); export writes it back as one VEVENT with its
 * RRULEs, RDATEs and EXDATE, and each moved occurrence as a RECURRENCE-ID VEVENT, so export → import gives the same
 * series. A rule of another kind (FREQ=HOURLY, BYWEEKNO, BYYEARDAY, a yearly BYSETPOS, a yearly BYDAY without
 * BYMONTH…) is kept as its occurrences in this window, and said. A one-off after the window (a midterm in a later
 * week) is kept as a series of that one occurrence, so the roll into its week brings it as it brings a lecture; one
 * before the window is left out and named (`calendar-one-offs.ts`). A file that cannot be read, a series that cannot
 * be a timetable (COUNT=0, a billion occurrences, a date far in the future), or a window without dates, is a clear
 * error (`CalendarFileError`) and changes nothing.
 */
import ical from "ical-generator";
import { addDays, isTimeZone, localClock } from "../../contracts/clock.js";
import { buildEventTask, canonicalSeries } from "./canonical-form.js";
import { dateOfDay } from "./calendar.js";
import {
  assertSeries,
  clockOf,
  expandSeries,
  instantOf,
  mergedRanges,
  occurrenceRange,
  occursAfter,
  occursByRule,
  SeriesError,
  type SeriesExpansion,
} from "./event-series.js";
import {
  TASK_ID_PATTERN,
  type AddedOccurrence,
  type EventSeries,
  type EventTask,
  type NthWeekday,
  type ScheduleState,
  type SeriesRule,
  type SlotRange,
} from "./state.js";
import { clockOfState, hasStarted } from "./window-clock.js";
import { vtimezone } from "./vtimezone.js";
import {
  earlierEventText,
  oneOffOutside,
  wallClockOf,
  type EarlierEvent,
  type ImportedOccurrence,
} from "./calendar-one-offs.js";
import type { Language } from "../../contracts/language.js";

import {
  CalendarFileError,
  DEFAULT_CALENDAR_READ_LIMITS,
  readCalendarEvents,
  type CalendarMoment,
  type CalendarReadLimits,
  type CalendarRuleRead,
  type CalendarSeriesRead,
} from "./calendar-reader.js";

export { CalendarFileError } from "./calendar-reader.js";
export { instantOf } from "./event-series.js";
export { earlierEventText, type EarlierEvent, type ImportedOccurrence } from "./calendar-one-offs.js";

/**
 * An event of the file some of whose times in the window have started by the run's clock (`now`): those times are
 * left out (the clock is a hard rule, nothing is written into a slot that has started). `added` is false when none
 * of its times is left and it has none after the window either: it is not added at all.
 */
export interface PassedEvent {
  name: string;
  /** How many of its times in the window have started. */
  times: number;
  added: boolean;
}

/** What an import found: the events to add, when each occurs, and what it left out with why. */
export interface TimetableImport {
  events: EventTask[];
  /**
   * Each added event's occurrences in the window, by event id: only those that have not started; for a one-off after
   * the window, its one time (kept for its week).
   */
  times: Record<string, ImportedOccurrence[]>;
  skipped: string[];
  /** The events whose times in the window have started, each also told in `skipped`. */
  passed: PassedEvent[];
  /** The one-offs before the window, each also told in `skipped`. */
  earlier: EarlierEvent[];
  /**
   * The ids of the events whose first time is after the window, no slot here: each one-off after it (kept for its
   * week as a series of one occurrence) and each series that starts in a later week.
   */
  later: string[];
  /** The names of the file's placed reviews (CATEGORIES:review), each once: not imported, told in `skipped`. */
  reviews: string[];
  /** The names of the file's events already on the schedule (`alreadyThere`), each once: left as they are, told. */
  present: string[];
}

/**
 * The CATEGORIES Tempo's export writes on each VEVENT and its import reads back: a timetable event or a placed review,
 * and an event's flags — it can hold a review (`canEmbed`), it is locked — so export → import keeps them.
 */
export const CALENDAR_CATEGORY = {
  timetable: "timetable",
  review: "review",
  canHoldReviews: "can-hold-reviews",
  locked: "locked",
} as const;

/**
 * What an import says of the placed reviews of a file (CATEGORIES:review, as Tempo exports them): a review is a task
 * Tempo arranges, not a timetable event, so it is not imported — neither as an event nor onto a task.
 */
export function reviewsLeftOutText(names: readonly string[], language: Language = "en"): string {
  if (language === "zh") return `${names.join("、")}：是已安排的复习（CATEGORIES:review），不是课表日程，未导入`;
  return names.length === 1
    ? `${names[0]}: a placed review (CATEGORIES:review), not a timetable event; not imported`
    : `${names.join(", ")}: placed reviews (CATEGORIES:review), not timetable events; not imported`;
}

/** What an import says of an event whose times have started: "Calculus lecture: all of its times in this window have passed; not added". */
export function passedEventText(passed: PassedEvent, language: Language = "en"): string {
  if (language === "zh")
    return passed.added
      ? `${passed.name}：本窗口内有 ${passed.times} 次已经过去，不导入这几次`
      : `${passed.name}：本窗口内的时间都已过去，未添加`;
  return passed.added
    ? `${passed.name}: ${passed.times} of its times in this window have passed; they are left out`
    : `${passed.name}: all of its times in this window have passed; not added`;
}

/** Longest name an imported event keeps: `add_task`'s limit for a task's name. */
export const IMPORTED_NAME_LIMIT = 120;

/**
 * A SUMMARY as plain text a card or terminal can show: terminal escape sequences and other control characters, HTML
 * tags and Markdown marks taken out, whitespace runs made one space, and cut to `add_task`'s 120 characters.
 */
export function plainEventName(summary: string): string {
  const plain = summary
    // eslint-disable-next-line no-control-regex -- it removes terminal escape sequences, so it names them
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g, "") // OSC sequences (titles, hyperlinks)
    // eslint-disable-next-line no-control-regex -- it removes terminal escape sequences, so it names them
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, "") // CSI sequences (colours, cursor moves)
    // eslint-disable-next-line no-control-regex -- it removes terminal escape sequences, so it names them
    .replace(/\u001b[@-_]?/g, "")
    .replace(/<[^<>]*>/g, "") // HTML tags
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // Markdown links and images: their text
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\u2028\u2029]/gu, " ") // control, format (bidi), lone surrogate, private use
    .replace(/[<>`*_~|[\]\\]/g, "")
    .replace(/^[\s#>=+-]+/, "") // Markdown headings, quotes, list marks
    .replace(/\s+/g, " ")
    .trim();
  if (plain.length <= IMPORTED_NAME_LIMIT) return plain || "(untitled event)";
  // Cut by whole characters (never half a surrogate pair), the ellipsis within the limit.
  let kept = "";
  for (const character of plain) {
    if (kept.length + character.length > IMPORTED_NAME_LIMIT - 1) break;
    kept += character;
  }
  return `${kept.trimEnd()}…`;
}

/** The window's calendar, or an error saying the window has none. */
function calendarOf(state: ScheduleState): {
  timeZone: string;
  slotTimes: NonNullable<ScheduleState["window"]["slotTimes"]>;
} {
  const { timeZone, slotTimes } = state.window;
  if (!timeZone || !slotTimes || state.window.days.some((day) => !day.date))
    throw new CalendarFileError(
      "The schedule's window has no dates, time zone or slot times, so calendar files cannot be mapped onto it.",
    );
  return { timeZone, slotTimes };
}

/** A readable, unique id for an imported event. */
function eventIdOf(summary: string, uid: string, taken: Set<string>): string {
  const base =
    (summary || uid)
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 56) || "event";
  let id = base;
  for (let suffix = 2; taken.has(id) || !TASK_ID_PATTERN.test(id); suffix += 1) id = `${base}-${suffix}`;
  taken.add(id);
  return id;
}

/** A BYDAY part read: the days without an ordinal ("MO" → 1 … "SU" → 7) and those with one ("2TU", "-1FR"). */
function weekdaysOf(byDay: readonly string[]): { days: number[]; nth: NthWeekday[] } | undefined {
  const names = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
  const days: number[] = [];
  const nth: NthWeekday[] = [];
  for (const written of byDay) {
    const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/i.exec(written.trim());
    if (!match) return undefined;
    const day = names.indexOf(match[2]!.toUpperCase()) + 1;
    if (match[1] === undefined) days.push(day);
    else nth.push({ nth: Number(match[1]), day });
  }
  return { days: [...new Set(days)].sort((a, b) => a - b), nth };
}

/** Whole numbers of a BY… part ("BYMONTHDAY": ["1", "-1"]), or undefined when one is not. */
function numbersOf(values: readonly string[] | undefined): number[] | undefined {
  if (values === undefined) return undefined;
  const numbers = values.map(Number);
  return numbers.every(Number.isInteger) ? numbers : undefined;
}

/** A moment of the file as a wall clock in a series' zone: "YYYY-MM-DD" and "HH:MM". */
function wallIn(moment: CalendarMoment, timeZone: string): { date: string; time: string; minutes: number } {
  const wall = wallClockOf(moment, timeZone);
  return { date: wall.date, time: clockOf(wall.minutes), minutes: wall.minutes };
}

/** The BY… parts a rule of each FREQ is kept with. */
const KEPT_PARTS: Readonly<Record<SeriesRule["freq"], readonly string[]>> = {
  daily: ["BYMONTH"],
  weekly: ["BYDAY", "BYMONTH"],
  monthly: ["BYDAY", "BYMONTHDAY", "BYSETPOS", "BYMONTH"],
  yearly: ["BYMONTH", "BYMONTHDAY", "BYDAY"],
};

/** One RRULE as a `SeriesRule`'s FREQ, INTERVAL and BY… parts, or why it is not one Tempo keeps. */
function ruleParts(written: CalendarRuleRead): SeriesRule | string {
  const freq = written.freq.toLowerCase();
  if (freq !== "daily" && freq !== "weekly" && freq !== "monthly" && freq !== "yearly")
    return `FREQ=${written.freq.slice(0, 16)}`;
  const parts = Object.keys(written.parts);
  const other = parts.filter((part) => !KEPT_PARTS[freq].includes(part));
  if (other.length > 0) return `its rule has ${other.join(", ")}`;
  // A yearly rule's days are kept as days of its months (BYMONTH); without it ical.js reads them otherwise.
  if (freq === "yearly" && written.parts.BYMONTH === undefined && parts.length > 0)
    return "a yearly rule has BYDAY or BYMONTHDAY without BYMONTH";
  const rule: SeriesRule = { freq, interval: written.interval };
  if (written.parts.BYDAY !== undefined) {
    const byDay = weekdaysOf(written.parts.BYDAY);
    if (byDay === undefined || (freq === "weekly" && byDay.nth.length > 0)) return "its BYDAY has an ordinal";
    if (byDay.days.length > 0 || freq === "weekly") rule.byDay = byDay.days;
    if (byDay.nth.length > 0) rule.byNthDay = byDay.nth;
  }
  const byMonthDay = numbersOf(written.parts.BYMONTHDAY);
  const bySetPos = numbersOf(written.parts.BYSETPOS);
  const byMonth = numbersOf(written.parts.BYMONTH);
  if (byMonthDay === undefined && written.parts.BYMONTHDAY !== undefined) return "its BYMONTHDAY is not a number";
  if (bySetPos === undefined && written.parts.BYSETPOS !== undefined) return "its BYSETPOS is not a number";
  if (byMonth === undefined && written.parts.BYMONTH !== undefined) return "its BYMONTH is not a number";
  if (byMonthDay !== undefined) rule.byMonthDay = byMonthDay;
  if (bySetPos !== undefined) rule.bySetPos = bySetPos;
  if (byMonth !== undefined) rule.byMonth = [...new Set(byMonth)].sort((a, b) => a - b);
  if (written.wkst !== 2 && freq === "weekly" && written.interval > 1)
    return "its weeks start on another day than Monday";
  return rule;
}

/** The rules of a recurring VEVENT in a series' zone, COUNT and UNTIL included, or why one is not kept. */
function rulesFromFile(written: CalendarSeriesRead, zone: string, start: { minutes: number }): SeriesRule[] | string {
  // An event of RDATEs alone: its own start, once, and the dates added.
  if (written.rules.length === 0) return [{ freq: "daily", interval: 1, count: 1 }];
  const rules: SeriesRule[] = [];
  for (const read of written.rules) {
    const rule = ruleParts(read);
    if (typeof rule === "string") return rule;
    if (read.count !== null) rule.count = read.count;
    if (read.until !== null) {
      const until = wallIn(read.until, zone);
      // UNTIL bounds the start: a last day whose UNTIL is before the lecture's time ends the day before.
      rule.until = read.until.allDay || until.minutes >= start.minutes ? until.date : addDays(until.date, -1);
    }
    rules.push(rule);
  }
  return rules;
}

/**
 * The series a recurring VEVENT (RRULE, RDATE) is, or why it is kept as this window's occurrences instead (a rule of
 * another kind than a timetable's, a zone only the file defines). A floating time is in the window's zone. A weekly
 * rule whose first date is not one of its days is kept as a series (its days from that date on, as ical.js reads
 * it); a yearly one, or one with BYMONTH, whose first date is not one of its days is kept as occurrences (ical.js
 * reads such starts in more than one way); a monthly one is kept as a series and refused by `assertSeries` (RFC 5545
 * leaves such a start's meaning open, and a rule such as BYMONTHDAY=31 every twelfth month from February has no day
 * at all).
 */
function seriesFromFile(written: CalendarSeriesRead, windowZone: string): EventSeries | string {
  if (written.start.allDay) return "it is all-day";
  const zone = written.start.zone ?? windowZone;
  if (!isTimeZone(zone)) return `its time zone ${zone.slice(0, 60)} is defined only in the file`;
  const start = wallIn(written.start, zone);
  const end = wallIn(written.end, zone);
  if (end.date !== start.date) return "it runs past midnight";
  const rules = rulesFromFile(written, zone, start);
  if (typeof rules === "string") return rules;
  const [rule, ...moreRules] = rules as [SeriesRule, ...SeriesRule[]];
  const series: EventSeries = {
    rule,
    ...(moreRules.length > 0 ? { moreRules } : {}),
    firstDate: start.date,
    start: start.time,
    end: end.time,
    timeZone: zone,
    cancelled: written.cancelled.map((moment) => wallIn(moment, zone).date),
    moved: written.moved.map((moved) => {
      const at = wallIn(moved.start, zone);
      return { from: wallIn(moved.from, zone).date, date: at.date, start: at.time, end: wallIn(moved.end, zone).time };
    }),
  };
  // An RDATE of a date alone (VALUE=DATE) is on that date at the series' own time; a PERIOD one has its own end.
  const added: AddedOccurrence[] = [];
  for (const moment of written.added) {
    if (moment.allDay) {
      added.push({ date: moment.date, start: start.time });
      continue;
    }
    const at = wallIn(moment, zone);
    if (moment.periodEnd === undefined) {
      added.push({ date: at.date, start: at.time });
      continue;
    }
    const until = wallIn(moment.periodEnd, zone);
    if (until.date !== at.date) return `its RDATE PERIOD on ${at.date} runs past midnight`;
    added.push({ date: at.date, start: at.time, end: until.time });
  }
  if (added.length > 0) series.added = added;
  const bounded = rules.some((one) => one.freq === "yearly" || one.byMonth !== undefined);
  if (bounded && written.rules.length > 0 && !occursByRule(series, series.firstDate))
    return "its first date is not a day of its rule";
  return series;
}

/** The occurrences of an expansion as the card tells them, with the series' own zone and time when it differs. */
function toldOccurrences(series: EventSeries, expansion: SeriesExpansion, windowZone: string): ImportedOccurrence[] {
  return expansion.occurrences.map((occurrence) => ({
    date: occurrence.date,
    start: occurrence.start,
    end: occurrence.end,
    ...(series.timeZone !== windowZone
      ? {
          converted: {
            zone: series.timeZone,
            start: localClock(instantOf(occurrence.date, occurrence.start, windowZone), series.timeZone).time,
            windowZone,
          },
        }
      : {}),
  }));
}

/**
 * What makes an imported event locked: a name that says exam, mid-term, final, test or quiz (plurals and hyphens too),
 * or 考试 / 期中 / 期末 / 测验 / 小测. Locked means Tempo never moves it on its own; its own `move` still records a time the
 * school changed (`LockedEvents`).
 */
const EXAM_NAME = /\b(?:exams?|mid-?terms?|finals?|tests?|quiz(?:zes)?)\b|考试|期中|期末|测验|小测/i;

/**
 * An imported event: a host (it can hold a review) when its CATEGORIES say so, locked when they say so or its name
 * says exam (`EXAM_NAME`) — the flags `exportCalendar` writes, so export → import keeps them.
 */
function importedEvent(
  id: string,
  name: string,
  slots: SlotRange[],
  categories: readonly string[],
  series?: EventSeries,
): EventTask {
  return buildEventTask({
    id,
    name,
    source: "event",
    slots,
    canEmbed: categories.includes(CALENDAR_CATEGORY.canHoldReviews),
    locked: categories.includes(CALENDAR_CATEGORY.locked) || EXAM_NAME.test(name),
    embeds: [],
    ...(series !== undefined ? { series } : {}),
  });
}

/**
 * What an import says of the events of a file that are already on the schedule — re-importing a week's own export
 * finds them all: they are left as they are, neither added twice nor refused as overlapping themselves.
 */
export function alreadyThereText(names: readonly string[], language: Language = "en"): string {
  if (language === "zh") return `${names.join("、")}：已在日程中，保持不变`;
  return names.length === 1
    ? `${names[0]}: already on the schedule; left as it is`
    : `${names.join(", ")}: already on the schedule; left as they are`;
}

/** JSON of a series in canonical form: two series are the same when theirs are. */
function seriesKey(series: EventSeries): string {
  return JSON.stringify(canonicalSeries(series));
}

/**
 * Whether an event of the file is one the schedule has already: an event of the same (plain) name with the same
 * series, or, for one that is not a series, one of the same name whose slots cover each of its times in the window.
 */
function alreadyThere(
  state: ScheduleState,
  name: string,
  found: { series: EventSeries } | { ranges: readonly SlotRange[] },
): boolean {
  return state.tasks.some((task) => {
    if (task.source !== "event" || plainEventName(task.name) !== name) return false;
    if ("series" in found) return task.series !== undefined && seriesKey(task.series) === seriesKey(found.series);
    return (
      found.ranges.length > 0 &&
      found.ranges.every((range) =>
        task.slots.some((own) => own.day === range.day && own.start <= range.start && own.end >= range.end),
      )
    );
  });
}

/**
 * The events of an iCalendar text, in the window: each VEVENT one event, but a placed review (CATEGORIES:review, as
 * Tempo exports one) and an event the schedule has already (`alreadyThere`), which are left out and told. A recurring
 * one of a timetable's kind is kept as a series (rule, zone, EXDATE, RECURRENCE-ID) expanded into the window — kept
 * even when none of its occurrences falls in this window, since later windows show them; a one-off, or a rule of
 * another kind, is its occurrences in the window mapped to the slots they cover. A one-off after the window is kept
 * for its week (`oneOffOutside`), one before it is left out and told (`earlier`). All-day occurrences and those that
 * cover no slot are left out and told. A series that cannot be a timetable refuses the whole file.
 *
 * The clock is a hard rule (issue 47): an occurrence whose first slot has started by the run's `now` is left out and
 * told (`passed`); an event with no time left, in this window or after it, is not added at all.
 */
export function importTimetable(
  state: ScheduleState,
  text: string,
  limits: CalendarReadLimits = DEFAULT_CALENDAR_READ_LIMITS,
): TimetableImport {
  const { timeZone } = calendarOf(state);
  const first = dateOfDay(state.window, 1)!;
  const last = dateOfDay(state.window, state.window.totalDays)!;
  // Read with a day's margin each side: an occurrence's own wall date may be a day off the window's.
  const read = readCalendarEvents(text, addDays(first, -1), addDays(last, 1), limits);
  const taken = new Set(state.tasks.map((task) => task.id));
  const events: EventTask[] = [];
  const times: TimetableImport["times"] = {};
  const skipped: string[] = [];
  const passed: PassedEvent[] = [];
  const earlier: EarlierEvent[] = [];
  const later: string[] = [];
  const reviews = new Set<string>();
  const present = new Set<string>();
  const clock = clockOfState(state);
  const started = (range: SlotRange) => hasStarted(range.day, range.start, clock);
  /** Tells the times of an event that have started; false when the event is not to be added. */
  const tellPassed = (name: string, times: number, added: boolean): boolean => {
    if (times === 0) return true;
    passed.push({ name, times, added });
    skipped.push(passedEventText(passed.at(-1)!));
    return added;
  };
  for (const event of read) {
    const summary = plainEventName(event.summary);
    // A placed review Tempo exported is a task, not a timetable event: left out, told once below.
    if (event.categories.includes(CALENDAR_CATEGORY.review)) {
      reviews.add(summary);
      continue;
    }
    const series = event.series === null ? undefined : seriesFromFile(event.series, timeZone);
    if (typeof series === "object") {
      try {
        assertSeries(series, `"${summary}"`);
      } catch (error) {
        if (error instanceof SeriesError) throw new CalendarFileError(`${error.message} Nothing was imported.`);
        throw error;
      }
      if (alreadyThere(state, summary, { series })) {
        present.add(summary);
        continue;
      }
      const expansion = expandSeries(series, state.window);
      skipped.push(...expansion.left.map((why) => `${summary} ${why}`));
      // A series over before this window is not part of the timetable any more.
      if (expansion.slots.length === 0 && series.rule.until !== undefined && series.rule.until < first) continue;
      // Its times that have started are left out; it is kept while it has a time ahead, here or in a later window.
      const ahead = expansion.occurrences.filter((occurrence) => !started(occurrence.range));
      const gone = expansion.occurrences.length - ahead.length;
      if (!tellPassed(summary, gone, ahead.length > 0 || occursAfter(series, last))) continue;
      const id = eventIdOf(summary, event.uid, taken);
      const kept = { ...expansion, occurrences: ahead };
      events.push(
        importedEvent(id, summary, mergedRanges(ahead.map((occurrence) => occurrence.range)), event.categories, series),
      );
      times[id] = toldOccurrences(series, kept, timeZone);
      // One whose first time is after the window: checked, as a one-off kept for its week is, for its first week.
      if (series.firstDate > last) later.push(id);
      continue;
    }
    // A one-off on another week: kept for its week when it is ahead, named when it is over.
    const outside = event.once === null ? undefined : oneOffOutside(state.window, timeZone, event.once, summary);
    if (outside !== undefined) {
      if ("earlier" in outside) {
        earlier.push(outside.earlier);
        skipped.push(earlierEventText(outside.earlier));
      } else if ("left" in outside) skipped.push(outside.left);
      else if (alreadyThere(state, summary, outside)) present.add(summary);
      else {
        const id = eventIdOf(summary, event.uid, taken);
        events.push(importedEvent(id, summary, [], event.categories, outside.series));
        times[id] = [outside.told];
        later.push(id);
      }
      continue;
    }
    if (typeof series === "string")
      skipped.push(`${summary}: its rule is kept as this window's occurrences only (${series})`);
    const ranges: SlotRange[] = [];
    const told: ImportedOccurrence[] = [];
    /** Each of its times in the window, those that have started included: what is compared with the schedule. */
    const mapped: SlotRange[] = [];
    let gone = 0;
    for (const occurrence of event.occurrences) {
      const start = wallClockOf(occurrence.start, timeZone);
      const end = wallClockOf(occurrence.end, timeZone);
      if (start.date < first || start.date > last) continue;
      if (occurrence.start.allDay) {
        skipped.push(`${summary} on ${start.date}: an all-day event takes no slots`);
        continue;
      }
      if (end.date !== start.date) {
        skipped.push(`${summary} on ${start.date}: it runs past midnight`);
        continue;
      }
      const placed = occurrenceRange(state.window, start.date, clockOf(start.minutes), clockOf(end.minutes));
      if ("left" in placed) {
        skipped.push(`${summary} on ${start.date}: ${placed.left}`);
        continue;
      }
      mapped.push(placed.range);
      if (started(placed.range)) {
        gone += 1;
        continue;
      }
      ranges.push(placed.range);
      const zone = occurrence.start.zone;
      const converted =
        zone !== null && zone !== timeZone
          ? { zone, start: clockOf(occurrence.start.minutes), windowZone: timeZone }
          : undefined;
      told.push({
        date: start.date,
        start: clockOf(start.minutes),
        end: clockOf(end.minutes),
        ...(converted ? { converted } : {}),
      });
    }
    if (alreadyThere(state, summary, { ranges: mapped })) {
      present.add(summary);
      continue;
    }
    if (!tellPassed(summary, gone, ranges.length > 0) || ranges.length === 0) continue;
    ranges.sort((a, b) => a.day - b.day || a.start - b.start);
    const id = eventIdOf(summary, event.uid, taken);
    events.push(importedEvent(id, summary, ranges, event.categories));
    times[id] = told.sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start));
  }
  if (present.size > 0) skipped.push(alreadyThereText([...present]));
  if (reviews.size > 0) skipped.push(reviewsLeftOutText([...reviews]));
  return { events, times, skipped, passed, earlier, later, reviews: [...reviews], present: [...present] };
}

/**
 * A date ical-generator writes as its wall clock in the event's time zone: it reads a zoned date's fields through
 * `withTimeZone` (the `TZDate` shape of @date-fns/tz), and a plain `Date`'s in the process's own zone, which is not the
 * calendar's. The fields come from Intl, so a lecture at 10:00 in Europe/Berlin is written 10:00 on both sides of a
 * change of offset.
 */
/** The fields ical-generator reads of a date it writes. */
type WallClockFields = Pick<
  Date,
  | "getUTCFullYear"
  | "getUTCMonth"
  | "getUTCDate"
  | "getUTCHours"
  | "getUTCMinutes"
  | "getUTCSeconds"
  | "getFullYear"
  | "getMonth"
  | "getDate"
  | "getHours"
  | "getMinutes"
  | "getSeconds"
>;

class ZonedDate extends Date {
  readonly internal: Date;

  constructor(instant: Date) {
    super(instant.getTime());
    this.internal = new Date(instant.getTime());
  }

  /** This instant's fields: its UTC ones, and as "local" ones its wall clock in `timeZone` (UTC for none). */
  withTimeZone(timeZone: string | null): WallClockFields {
    // ical-generator asks with no zone for a UTC series (it writes UTC's "Z" form then).
    const clock = localClock(this.internal, timeZone ?? "UTC");
    const [year, month, day] = clock.date.split("-").map(Number);
    const [hour, minute] = clock.time.split(":").map(Number);
    const utc = this.internal;
    return {
      getUTCFullYear: () => utc.getUTCFullYear(),
      getUTCMonth: () => utc.getUTCMonth(),
      getUTCDate: () => utc.getUTCDate(),
      getUTCHours: () => utc.getUTCHours(),
      getUTCMinutes: () => utc.getUTCMinutes(),
      getUTCSeconds: () => utc.getUTCSeconds(),
      getFullYear: () => year!,
      getMonth: () => month! - 1,
      getDate: () => day!,
      getHours: () => hour!,
      getMinutes: () => minute!,
      getSeconds: () => 0,
    };
  }

  tzComponents(): Record<string, never> {
    return {};
  }
}

/** "YYYYMMDDTHHMMSS" of a local date and clock time, as RFC 5545 writes a DATE-TIME with a TZID. */
function localDateTime(date: string, time: string): string {
  return `${date.replace(/-/g, "")}T${time.replace(":", "")}00`;
}

/** One rule as an RRULE line, its parts in a fixed order; UNTIL at the series' start time on its last day. */
function ruleLine(rule: SeriesRule, series: EventSeries): string {
  const days = ["", "MO", "TU", "WE", "TH", "FR", "SA", "SU"];
  const parts = [`FREQ=${rule.freq.toUpperCase()}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  const byDay = [
    ...(rule.byNthDay ?? []).map(({ nth, day }) => `${nth}${days[day]}`),
    ...(rule.byDay ?? []).map((day) => days[day]),
  ];
  if (rule.byDay !== undefined || rule.byNthDay !== undefined) parts.push(`BYDAY=${byDay.join(",")}`);
  if (rule.byMonthDay !== undefined) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(",")}`);
  if (rule.byMonth !== undefined) parts.push(`BYMONTH=${rule.byMonth.join(",")}`);
  if (rule.bySetPos !== undefined) parts.push(`BYSETPOS=${rule.bySetPos.join(",")}`);
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  // UNTIL is UTC when DTSTART has a zone (RFC 5545 3.3.10): the start of the last day's occurrence.
  if (rule.until !== undefined)
    parts.push(
      `UNTIL=${instantOf(rule.until, series.start, series.timeZone)
        .toISOString()
        .replace(/[-:]|\.\d{3}/g, "")}`,
    );
  return `RRULE:${parts.join(";")}`;
}

/** The RRULE (and RDATE and EXDATE) lines of a series, in a fixed order, for ical-generator to write as they are. */
function ruleLines(series: EventSeries): string {
  // An event of RDATEs alone is written with the rule it is read as (FREQ=DAILY;COUNT=1: its own start, once).
  const lines = [series.rule, ...(series.moreRules ?? [])].map((rule) => ruleLine(rule, series));
  const added = series.added ?? [];
  const atTimes = added.filter((one) => one.end === undefined);
  const periods = added.filter((one) => one.end !== undefined);
  if (atTimes.length > 0)
    lines.push(`RDATE;TZID=${series.timeZone}:${atTimes.map((one) => localDateTime(one.date, one.start)).join(",")}`);
  // An occurrence with its own end is an RDATE PERIOD: its start and end, local times in the series' zone.
  if (periods.length > 0)
    lines.push(
      `RDATE;VALUE=PERIOD;TZID=${series.timeZone}:${periods
        .map((one) => `${localDateTime(one.date, one.start)}/${localDateTime(one.date, one.end!)}`)
        .join(",")}`,
    );
  if (series.cancelled.length > 0)
    lines.push(
      `EXDATE;TZID=${series.timeZone}:${series.cancelled.map((date) => localDateTime(date, series.start)).join(",")}`,
    );
  return lines.join("\n");
}

/** The CATEGORIES of a task as exported: a placed review, or a timetable event with its flags. */
function categoriesOf(task: ScheduleState["tasks"][number]): Array<{ name: string }> {
  if (task.source === "task_item") return [{ name: CALENDAR_CATEGORY.review }];
  return [
    CALENDAR_CATEGORY.timetable,
    ...(task.canEmbed ? [CALENDAR_CATEGORY.canHoldReviews] : []),
    ...(task.locked ? [CALENDAR_CATEGORY.locked] : []),
  ].map((category) => ({ name: category }));
}

/**
 * The week as iCalendar: every series as its rule, every other event's ranges and every placed review, with their
 * dates and clock times; each marked by its CATEGORIES (`CALENDAR_CATEGORY`): a review, or a timetable event and
 * whether it can hold a review and is locked.
 */
export function exportCalendar(state: ScheduleState, name = "Tempo week"): string {
  const { timeZone, slotTimes } = calendarOf(state);
  // Every zone the file names gets its VTIMEZONE, good from the earliest date written to three years past the window.
  const firstDates = state.tasks.flatMap((task) =>
    task.source === "event" && task.series ? [task.series.firstDate] : [],
  );
  const from = instantOf([dateOfDay(state.window, 1)!, ...firstDates].sort()[0]!, "00:00", timeZone);
  const to = instantOf(addDays(dateOfDay(state.window, state.window.totalDays)!, 3 * 366), "00:00", timeZone);
  const calendar = ical({
    name,
    prodId: { company: "tempo", product: "tempo-schedule" },
    timezone: { name: null, generator: (zone) => vtimezone(zone, from, to) },
  });
  for (const task of state.tasks) {
    if (task.source === "event" && task.series !== undefined) {
      const { series } = task;
      const common = {
        summary: task.name,
        description: "timetable",
        categories: categoriesOf(task),
        timezone: series.timeZone,
      };
      calendar.createEvent({
        ...common,
        id: `${task.id}@tempo`,
        start: new ZonedDate(instantOf(series.firstDate, series.start, series.timeZone)),
        end: new ZonedDate(instantOf(series.firstDate, series.end, series.timeZone)),
        repeating: ruleLines(series),
      });
      // Each moved occurrence: a VEVENT of the same UID whose RECURRENCE-ID names the occurrence it replaces.
      for (const moved of series.moved)
        calendar.createEvent({
          ...common,
          id: `${task.id}@tempo`,
          recurrenceId: new ZonedDate(instantOf(moved.from, series.start, series.timeZone)),
          start: new ZonedDate(instantOf(moved.date, moved.start, series.timeZone)),
          end: new ZonedDate(instantOf(moved.date, moved.end, series.timeZone)),
        });
      continue;
    }
    (task.slots ?? []).forEach((range, index) => {
      const date = dateOfDay(state.window, range.day)!;
      calendar.createEvent({
        id: `${task.id}-${index + 1}@tempo`,
        // In the window's zone, as a series is: re-imported, its times read as they were, with no zone to convert.
        start: new ZonedDate(instantOf(date, slotTimes[range.start - 1]!.start, timeZone)),
        end: new ZonedDate(instantOf(date, slotTimes[range.end - 1]!.end, timeZone)),
        timezone: timeZone,
        summary: task.name,
        description: task.source === "task_item" ? `review (${task.categoryId})` : "timetable",
        categories: categoriesOf(task),
      });
    });
  }
  return calendar.toString();
}
