/**
 * Random recurring VEVENTs for the series oracles (issue 47), with ical.js as the oracle: `event-series-oracle.test.ts`
 * expands them into random windows, `calendar-import-clock-oracle.test.ts` imports them into a week with the clock
 * inside it. One generator, so both oracles stay out of the same places where ical.js departs from RFC 5545.
 *
 * Drawn: weekly, daily, monthly and yearly rules with the parts Tempo keeps (BYDAY, BYMONTHDAY, BYMONTH, COUNT,
 * UNTIL, INTERVAL; ordinals and BYSETPOS are checked in event-series-monthly.test.ts), several RRULEs, RDATEs (at a
 * time, and as a PERIOD with its own end), EXDATEs, in Europe/Berlin (over its changes of offset), America/New_York
 * and Asia/Shanghai. Several RRULEs are drawn unbounded (no COUNT, UNTIL): ical.js 2.2.1 ends the whole expansion
 * when one of them ends; a day two of them give is given twice and an EXDATE cancels one copy, so they are drawn
 * without EXDATE; a daily, weekly or monthly rule with BYMONTH has INTERVAL=1 (ical.js disregards INTERVAL then);
 * BY… lists ascend.
 *
 * Where ical.js departs from RFC 5545 the generator stays out: a yearly day past the 28th, drawn or the first date's
 * (ical.js moves 29 February to 1 March, 31 November to 1 December, and a BYMONTHDAY=-1 of February to March), a
 * monthly COUNT with BYMONTH (ical.js counts the first month twice), a yearly BYSETPOS (ical.js applies it per month;
 * Tempo keeps such a rule as occurrences), a first date off a rule other than a weekly one (ical.js includes it for
 * some rules, not for others; Tempo keeps those as occurrences), two RDATEs at one instant (RFC 5545 keeps one;
 * ical.js keeps both when one is a PERIOD). EXDATEs are drawn anywhere, on the rule or off it; the oracle applies them
 * itself (`icalOccurrences`), as ical.js 2.2.1 skips one that follows an EXDATE off the rule.
 */
import fc from "fast-check";
import ICAL from "ical.js";
import { addDays, localClock } from "../../contracts/clock.js";
import { datedWindow } from "../../tools/schedule/calendar.js";
import type { ScheduleState } from "../../tools/schedule/state.js";

/** Hourly slots over the whole day, so every occurrence that does not cross midnight takes slots. */
export const HOURLY = Array.from({ length: 24 }, (_, hour) => ({
  start: `${String(hour).padStart(2, "0")}:00`,
  end: hour === 23 ? "23:59" : `${String(hour + 1).padStart(2, "0")}:00`,
}));

const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Shanghai"] as const;
const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/** A schedule of `days` days from `firstDate` in `timeZone`, with hourly slots. */
export function scheduleOf(firstDate: string, days: number, timeZone: string): ScheduleState {
  return { window: datedWindow({ firstDate, days, timeZone, slotTimes: HOURLY }), categories: [], tasks: [] };
}

/** "YYYYMMDDTHHMM00" of a date and clock time. */
function stamp(date: string, time: string): string {
  return `${date.replace(/-/g, "")}T${time.replace(":", "")}00`;
}

/** One drawn rule: FREQ and parts as RFC 5545 writes them, with the first date's own parts added (it is on the rule). */
interface DrawnRule {
  freq: "WEEKLY" | "MONTHLY" | "YEARLY" | "DAILY";
  interval: number;
  byDay?: string[];
  byNthDay?: string[];
  byMonthDay?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  count?: number;
  untilDays?: number;
}

/** A drawn event: its first date, time, zone, rules, and exceptions as offsets from the first date. */
export interface DrawnEvent {
  firstDate: string;
  start: string;
  minutes: number;
  zone: (typeof ZONES)[number];
  rules: DrawnRule[];
  /** Weekly rule whose first date is off its days (ical.js: the rule's days from that date on). */
  offRule: boolean;
  exdates: number[];
  rdates: Array<{ offset: number; time: string; period?: number }>;
}

const weekdayOf = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;

/** The rules' RRULE lines for a drawn event, its first date's weekday, day and month added to each rule's parts. */
function ruleLine(rule: DrawnRule, event: DrawnEvent): string {
  const day = Number(event.firstDate.slice(8, 10));
  const month = Number(event.firstDate.slice(5, 7));
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval > 1) parts.push(`INTERVAL=${rule.interval}`);
  const plain = new Set(rule.byDay ?? []);
  if (rule.freq === "WEEKLY" && !event.offRule) plain.add(DAYS[weekdayOf(event.firstDate)]!);
  const byDay = [...(rule.byNthDay ?? []), ...plain];
  if (byDay.length > 0) parts.push(`BYDAY=${byDay.join(",")}`);
  // Written ascending: ical.js 2.2.1 misreads an unsorted BYMONTH (a COUNT then skips months).
  const ascending = (values: number[]) => [...new Set(values)].sort((x, y) => x - y).join(",");
  if (rule.byMonthDay) parts.push(`BYMONTHDAY=${ascending([...rule.byMonthDay, day])}`);
  if (rule.byMonth) parts.push(`BYMONTH=${ascending([...rule.byMonth, month])}`);
  if (rule.bySetPos) parts.push(`BYSETPOS=${rule.bySetPos.join(",")}`);
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  if (rule.untilDays !== undefined) parts.push(`UNTIL=${stamp(addDays(event.firstDate, rule.untilDays), "23:59")}Z`);
  return `RRULE:${parts.join(";")}`;
}

/** The drawn event as an iCalendar file. */
export function calendarText(event: DrawnEvent): string {
  const end = `${String(Math.floor((toMinutes(event.start) + event.minutes) / 60)).padStart(2, "0")}:${String((toMinutes(event.start) + event.minutes) % 60).padStart(2, "0")}`;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//oracle//EN",
    "BEGIN:VEVENT",
    "UID:drawn@oracle",
    "SUMMARY:Drawn lecture",
    `DTSTART;TZID=${event.zone}:${stamp(event.firstDate, event.start)}`,
    `DTEND;TZID=${event.zone}:${stamp(event.firstDate, end)}`,
    ...event.rules.map((rule) => ruleLine(rule, event)),
  ];
  const times = event.rdates.filter((rdate) => rdate.period === undefined);
  const periods = event.rdates.filter((rdate) => rdate.period !== undefined);
  if (times.length > 0)
    lines.push(
      `RDATE;TZID=${event.zone}:${times.map((rdate) => stamp(addDays(event.firstDate, rdate.offset), rdate.time)).join(",")}`,
    );
  if (periods.length > 0)
    lines.push(
      `RDATE;VALUE=PERIOD;TZID=${event.zone}:${periods
        .map((rdate) => `${stamp(addDays(event.firstDate, rdate.offset), rdate.time)}/PT${rdate.period}M`)
        .join(",")}`,
    );
  if (event.exdates.length > 0)
    lines.push(
      `EXDATE;TZID=${event.zone}:${event.exdates.map((offset) => stamp(addDays(event.firstDate, offset), event.start)).join(",")}`,
    );
  return [...lines, "END:VEVENT", "END:VCALENDAR", ""].join("\r\n");
}

/** Minutes since midnight of "HH:MM". */
export function toMinutes(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** The UTC instant of a wall clock in a zone, found with Intl alone (the oracle's own conversion). */
export function instantIn(date: string, time: string, zone: string): Date {
  const wall = Date.parse(`${date}T${time}:00Z`);
  let guess = wall;
  for (let round = 0; round < 3; round += 1) {
    const seen = localClock(new Date(guess), zone);
    guess += wall - Date.parse(`${seen.date}T${seen.time}:00Z`);
  }
  return new Date(guess);
}

/** An occurrence as compared: its date and clock times in the window's zone, or its date and why Tempo leaves it. */
export type Seen = string;

/** One occurrence as ical.js gives it: its start date in the file's zone, its start and end in the window's zone. */
export interface OracleOccurrence {
  fileDate: string;
  from: { date: string; time: string };
  to: { date: string; time: string };
}

/** ical.js's occurrences of the file in order (at most 20,000), converted to the window's zone with Intl alone. */
export function* icalOccurrences(text: string, zone: string, windowZone: string): Generator<OracleOccurrence> {
  const wall = (time: ICAL.Time) =>
    `${String(time.year).padStart(4, "0")}-${String(time.month).padStart(2, "0")}-${String(time.day).padStart(2, "0")}|${String(time.hour).padStart(2, "0")}:${String(time.minute).padStart(2, "0")}`;
  const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!;
  // The EXDATEs are applied here, as RFC 5545 says (an instance starting at one is not an occurrence), not by ical.js:
  // 2.2.1 skips an EXDATE that follows one off the rule (of a Wednesday series with EXDATEs on 2 and 8 January it
  // keeps the 8th). Every drawn EXDATE is a wall time in the event's zone, as its start is.
  const excluded = new Set(
    vevent
      .getAllProperties("exdate")
      .flatMap((property) => property.getValues() as ICAL.Time[])
      .map(wall),
  );
  vevent.removeAllProperties("exdate");
  const event = new ICAL.Event(vevent);
  const iterator = event.iterator();
  for (let steps = 0, next = iterator.next(); next && steps < 20_000; steps += 1, next = iterator.next()) {
    const period = (next as unknown) instanceof ICAL.Period ? (next as unknown as ICAL.Period) : undefined;
    const start = period ? period.start : next;
    if (excluded.has(wall(start))) continue;
    const end = period ? period.getEnd() : event.getOccurrenceDetails(next).endDate;
    const [startDate, startTime] = wall(start).split("|") as [string, string];
    const [endDate, endTime] = wall(end).split("|") as [string, string];
    yield {
      fileDate: startDate,
      from: localClock(instantIn(startDate, startTime, zone), windowZone),
      to: localClock(instantIn(endDate, endTime, zone), windowZone),
    };
  }
}

/** ical.js's occurrences of the file in the window (by the window's zone), each "date start–end", sorted, once each. */
export function oracleOccurrences(text: string, zone: string, first: string, last: string, windowZone: string): Seen[] {
  const found = new Set<Seen>();
  for (const { fileDate, from, to } of icalOccurrences(text, zone, windowZone)) {
    if (fileDate > addDays(last, 2)) break;
    if (from.date < first || from.date > last) continue;
    // Past midnight in the window's zone (a New York evening seen from Berlin), or over the hour the clocks go back:
    // Tempo leaves it, and says so.
    const kept = to.date === from.date ? (to.time > from.time ? "" : "clocks go back") : "past midnight";
    found.add(kept ? `${from.date} ${kept}` : `${from.date} ${from.time}–${to.time}`);
  }
  return [...found].sort();
}

/** True when ical.js gives the file an occurrence starting after `last` (a date in the window's zone). */
export function oracleOccursAfter(text: string, zone: string, last: string, windowZone: string): boolean {
  for (const { from } of icalOccurrences(text, zone, windowZone)) if (from.date > last) return true;
  return false;
}

const plainDays = fc.uniqueArray(fc.constantFrom(...DAYS), { minLength: 1, maxLength: 3 });
const months = fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 });
const bounds = fc.oneof(
  fc.constant({}),
  fc.integer({ min: 1, max: 40 }).map((count) => ({ count })),
  fc.integer({ min: 0, max: 900 }).map((untilDays) => ({ untilDays })),
);

/**
 * A drawn rule of kind `freq` from a record of its fields and its bound (COUNT, UNTIL or none): fields drawn as absent
 * (`fc.option`'s undefined) are left out.
 */
function ruleOf(freq: DrawnRule["freq"]) {
  return ({ bound, ...fields }: Omit<DrawnRule, "freq" | "count" | "untilDays"> & { bound: object }): DrawnRule => ({
    freq,
    ...(Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as typeof fields),
    ...bound,
  });
}

/** A rule of one kind Tempo keeps (with the first date put on it by `ruleLine`). */
const drawnRule: fc.Arbitrary<DrawnRule> = fc.oneof(
  fc
    .record({
      interval: fc.integer({ min: 1, max: 3 }),
      byDay: plainDays,
      byMonth: fc.option(months, { nil: undefined }),
      bound: bounds,
    })
    .map(ruleOf("WEEKLY")),
  fc.record({ interval: fc.integer({ min: 1, max: 4 }), byMonth: months, bound: bounds }).map(ruleOf("DAILY")),
  fc
    .record({
      interval: fc.integer({ min: 1, max: 3 }),
      byMonthDay: fc.uniqueArray(fc.integer({ min: 1, max: 28 }), { minLength: 1, maxLength: 3 }),
      byMonth: fc.option(months, { nil: undefined }),
      bound: bounds,
    })
    .map(ruleOf("MONTHLY")),
  fc
    .record({
      interval: fc.integer({ min: 1, max: 2 }),
      byMonth: months,
      byMonthDay: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 28 }), { minLength: 1, maxLength: 2 }), {
        nil: undefined,
      }),
      bound: bounds,
    })
    .map(ruleOf("YEARLY")),
);

/** A drawn event: one to three rules (a weekly one may start off its days), RDATEs and EXDATEs. */
export const drawnEvent: fc.Arbitrary<DrawnEvent> = fc
  .record({
    firstDate: fc.integer({ min: 0, max: 3 * 365 }).map((offset) => addDays("2025-01-01", offset)),
    hour: fc.integer({ min: 8, max: 16 }),
    quarter: fc.constantFrom(0, 15, 30, 45),
    minutes: fc.constantFrom(45, 90, 100),
    zone: fc.constantFrom(...ZONES, "Europe/Berlin", "Europe/Berlin"),
    rules: fc.array(drawnRule, { minLength: 1, maxLength: 3 }),
    offRule: fc.boolean(),
    exdates: fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 4 }),
    // At distinct instants: RFC 5545 keeps one instance of a start given twice; ical.js 2.2.1 keeps both when one is
    // a PERIOD with its own end.
    rdates: fc.uniqueArray(
      fc.record({
        offset: fc.integer({ min: 1, max: 400 }),
        time: fc.constantFrom("08:00", "12:30", "15:00"),
        period: fc.option(fc.constantFrom(30, 60, 120), { nil: undefined }),
      }),
      { maxLength: 3, selector: (rdate) => `${rdate.offset} ${rdate.time}` },
    ),
  })
  .map(({ hour, quarter, rules, offRule, exdates, rdates, firstDate, ...event }) => ({
    ...event,
    // A yearly rule on a first date past the 28th: ical.js 2.2.1 moves 31 November to 1 December (as it moves
    // 29 February to 1 March); RFC 5545 skips a month without the day.
    firstDate:
      rules.some((rule) => rule.freq === "YEARLY") && Number(firstDate.slice(8, 10)) > 28
        ? `${firstDate.slice(0, 8)}28`
        : firstDate,
    start: `${String(hour).padStart(2, "0")}:${String(quarter).padStart(2, "0")}`,
    // Several rules are unbounded: ical.js 2.2.1 ends the whole expansion when one of them ends. A daily, weekly or
    // monthly rule with BYMONTH is every day, week or month: ical.js 2.2.1 disregards INTERVAL then.
    rules: (rules.length === 1 ? rules : rules.map(({ count: _count, untilDays: _until, ...rule }) => rule))
      .map((rule): DrawnRule =>
        rule.byMonth !== undefined && rule.freq !== "YEARLY" ? { ...rule, interval: 1 } : rule,
      )
      // A monthly rule with BYMONTH and COUNT: ical.js 2.2.1 gives the first month twice when BYMONTH has a month
      // before it, and counts both copies.
      .map(({ count, ...rule }) =>
        count !== undefined && !(rule.freq === "MONTHLY" && rule.byMonth !== undefined) ? { ...rule, count } : rule,
      ),
    // Off its days only for a plain weekly rule: ical.js reads other such starts in more than one way.
    offRule: offRule && rules.every((rule) => rule.freq === "WEEKLY" && rule.byMonth === undefined),
    // Several rules have no EXDATE: ical.js 2.2.1 gives an occurrence of two rules twice and an EXDATE cancels one.
    exdates: rules.length === 1 ? exdates : [],
    // An RDATE on a date of an EXDATE would be cancelled by Tempo by date, by ical.js by instant: kept apart.
    rdates: rdates.filter((rdate) => !exdates.includes(rdate.offset)),
  }));
