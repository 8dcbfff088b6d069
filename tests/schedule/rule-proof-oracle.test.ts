/**
 * The .ics import's proof that a recurrence rule gives no date at all (`neverOccurs`, tools/schedule/rule-proof.mjs,
 * 76c509a: one 400-year Gregorian cycle of the periods a rule's INTERVAL keeps) against an independent brute force:
 * 160 seeded random rules (FREQ=YEARLY / MONTHLY / WEEKLY / DAILY with BYMONTH, BYMONTHDAY — negatives and 29, 30,
 * 31 among them —, BYDAY with and without ordinals, BYSETPOS, INTERVAL; DTSTART dates among them a leap day and the
 * 29th-31st of a month), each walked day by day over 1,200 years from its DTSTART, from RFC 5545's rules of expansion
 * as written (a period's candidate days, BYSETPOS among them, the days DTSTART gives where no part says), with one
 * reading of ical.js's that the proof's refusal names: in a DAILY rule a count from the end (BYMONTHDAY=-1) or an
 * ordinal BYDAY (1TU) is compared as written and matches no day.
 *
 * - a rule the brute force finds a date for is never called empty (that would refuse a good calendar file);
 * - a rule the brute force finds no date for is called empty, unless ical.js reads it otherwise than RFC 5545 and
 *   the proof follows ical.js (`leftToIcalsReading`: BYSETPOS outside a MONTHLY rule of weekdays alone, a day only
 *   DTSTART's own day rules out). With seed 20261202: 125 rules occur, 33 give no date, 20 of them proved so and 13
 *   read otherwise by ical.js, which lists dates for each of those (it ignores BYSETPOS there) or gives DTSTART and
 *   ends: none spins.
 *
 * The rules ical.js refuses outright (its iterator throws: a part RFC 5545 forbids) are told in ical.js's words by the
 * reader and are not the proof's; they are left out and counted.
 */
import ICAL from "ical.js";
import { describe, expect, test } from "vitest";
import { neverOccurs } from "../../tools/schedule/rule-proof.mjs";

const SEED = 20_261_202;
const RULES = 160;
const YEARS = 1_200;

/** A small seeded generator (mulberry32), its own here. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const WEEKDAY_NAMES = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;

interface Rule {
  freq: "YEARLY" | "MONTHLY" | "WEEKLY" | "DAILY";
  interval: number;
  byMonth?: number[];
  byMonthDay?: number[];
  byDay?: Array<{ ordinal: number; weekday: number }>;
  bySetPos?: number[];
  start: { year: number; month: number; day: number };
}

const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const monthLength = (year: number, month: number) =>
  month === 2 ? (leap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

function textOf(rule: Rule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byMonth) parts.push(`BYMONTH=${rule.byMonth.join(",")}`);
  if (rule.byMonthDay) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(",")}`);
  if (rule.byDay)
    parts.push(
      `BYDAY=${rule.byDay.map(({ ordinal, weekday }) => `${ordinal === 0 ? "" : ordinal}${WEEKDAY_NAMES[weekday]}`).join(",")}`,
    );
  if (rule.bySetPos) parts.push(`BYSETPOS=${rule.bySetPos.join(",")}`);
  return parts.join(";");
}

const dateText = ({ year, month, day }: Rule["start"]) =>
  `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/** The rules: each part now and then, tight combinations often (so that many give no date). */
function rulesOf(seed: number, count: number): Rule[] {
  const random = randomOf(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const some = <T>(make: () => T): T[] => [...new Set(Array.from({ length: random() < 0.7 ? 1 : 2 }, make))];
  const rules: Rule[] = [];
  while (rules.length < count) {
    const freq = pick(["YEARLY", "MONTHLY", "WEEKLY", "DAILY"] as const);
    const interval = random() < 0.5 ? 1 : pick([2, 3, 4, 5, 6, 7, 8, 12, 13, 24]);
    const year = 1990 + Math.floor(random() * 60);
    const month = 1 + Math.floor(random() * 12);
    const kind = random();
    const start =
      kind < 0.1
        ? { year: year - (year % 4) + (year % 100 === 0 && year % 400 !== 0 ? 4 : 0), month: 2, day: 29 }
        : kind < 0.25
          ? { year, month, day: Math.min(pick([29, 30, 31]), monthLength(year, month)) }
          : { year, month, day: 1 + Math.floor(random() * monthLength(year, month)) };
    const rule: Rule = { freq, interval, start };
    if (random() < 0.45) rule.byMonth = some(() => (random() < 0.4 ? 2 : 1 + Math.floor(random() * 12)));
    // ical.js refuses BYMONTHDAY in a WEEKLY rule (RFC 5545 forbids it): rarely, to see it left out.
    if (random() < (freq === "WEEKLY" ? 0.05 : 0.5))
      rule.byMonthDay = some(() =>
        random() < 0.4
          ? pick([29, 30, 31])
          : random() < 0.5
            ? -(1 + Math.floor(random() * 31))
            : 1 + Math.floor(random() * 31),
      );
    if (random() < 0.45) {
      const ordinals = freq === "YEARLY" && !rule.byMonth && random() < 0.3 ? 53 : 5;
      rule.byDay = some(() => ({
        ordinal:
          random() < (freq === "MONTHLY" || freq === "YEARLY" ? 0.5 : 0.15)
            ? (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * ordinals))
            : 0,
        weekday: Math.floor(random() * 7),
      }));
    }
    // BYSETPOS mostly where the proof reads it (a MONTHLY rule of weekdays alone), now and then elsewhere.
    const readsSetPos = freq === "MONTHLY" && rule.byDay !== undefined && rule.byMonthDay === undefined;
    if (random() < (readsSetPos ? 0.6 : 0.08))
      rule.bySetPos = [(random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 6))];
    rules.push(rule);
  }
  return rules;
}

/**
 * The brute force's calendar: every day from January 1 of `FIRST_YEAR` on, counted out year by year, month by month
 * (no Date), each a row of these columns; `YEAR_START` is the row of each year's January 1.
 */
const FIRST_YEAR = 1980;
const LAST_YEAR = 2050 + YEARS + 1;
const ROWS = Array.from({ length: LAST_YEAR - FIRST_YEAR + 1 }, (_, index) =>
  leap(FIRST_YEAR + index) ? 366 : 365,
).reduce((sum, days) => sum + days, 0);
const YEAR = new Int16Array(ROWS);
const MONTH = new Int8Array(ROWS);
const DAY = new Int8Array(ROWS);
/** 0 = Sunday. */
const WEEKDAY = new Int8Array(ROWS);
/** 1-based within the year. */
const YEAR_DAY = new Int16Array(ROWS);
const YEAR_START = new Map<number, number>();
{
  // 1 January 1900 was a Monday; count the weekday on from there.
  let weekday = 1;
  for (let year = 1900; year < FIRST_YEAR; year += 1) weekday = (weekday + (leap(year) ? 366 : 365)) % 7;
  let row = 0;
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year += 1) {
    YEAR_START.set(year, row);
    let yearDay = 0;
    for (let month = 1; month <= 12; month += 1)
      for (let day = 1; day <= monthLength(year, month); day += 1) {
        [YEAR[row], MONTH[row], DAY[row], WEEKDAY[row], YEAR_DAY[row]] = [year, month, day, weekday, (yearDay += 1)];
        weekday = (weekday + 1) % 7;
        row += 1;
      }
  }
  YEAR_START.set(LAST_YEAR + 1, row);
}

/**
 * Whether `rule` gives a date within `YEARS` years from its DTSTART (DTSTART itself, which RFC 5545 counts as the
 * first instance whatever the rule says, is not taken as one unless the rule gives it), by RFC 5545's expansion:
 * each period its FREQ and INTERVAL keep (a year, a month, a week from WKST=MO, a day), the period's days that every
 * BY… part allows, DTSTART's month and day where no part says (YEARLY: its month unless BYMONTH, BYMONTHDAY or BYDAY
 * says, its day unless BYMONTHDAY or BYDAY; MONTHLY: its day unless BYMONTHDAY or BYDAY; WEEKLY: its weekday unless
 * BYDAY), then BYSETPOS among those days, then those on or after DTSTART.
 */
function bruteOccurs(rule: Rule): boolean {
  const { freq, interval, byMonth, byMonthDay, byDay, bySetPos, start } = rule;
  let startRow = YEAR_START.get(start.year)!;
  while (MONTH[startRow] !== start.month || DAY[startRow] !== start.day) startRow += 1;
  const end = YEAR_START.get(start.year + YEARS)!;
  const monthDefault = freq === "YEARLY" && !byMonth && !byMonthDay && !byDay;
  const dayDefault = (freq === "YEARLY" || freq === "MONTHLY") && !byMonthDay && !byDay;
  const weekdayDefault = freq === "WEEKLY" && !byDay;
  const daily = freq === "DAILY";
  const inMonth = freq === "MONTHLY" || (freq === "YEARLY" && byMonth !== undefined);
  const allowed = (row: number): boolean => {
    const [year, month, day, weekday] = [YEAR[row]!, MONTH[row]!, DAY[row]!, WEEKDAY[row]!];
    const length = monthLength(year, month);
    if (byMonth && !byMonth.includes(month)) return false;
    if (monthDefault && month !== start.month) return false;
    if (dayDefault && day !== start.day) return false;
    if (weekdayDefault && weekday !== WEEKDAY[startRow]) return false;
    // ical.js compares a DAILY rule's BYMONTHDAY as written: a count from the end matches no day there.
    if (byMonthDay && !byMonthDay.some((value) => value === day || (!daily && value === day - length - 1)))
      return false;
    if (byDay) {
      // An ordinal counts within the month (MONTHLY, or YEARLY with BYMONTH) or the year (YEARLY); WEEKLY reads the
      // weekday alone; a DAILY rule's ordinal BYDAY (RFC 5545 forbids it) matches no day, as ical.js reads it.
      const [index, count] = inMonth ? [day, length] : [YEAR_DAY[row]!, leap(year) ? 366 : 365];
      const fits = byDay.some(({ ordinal, weekday: wanted }) => {
        if (wanted !== weekday) return false;
        if (ordinal === 0 || freq === "WEEKLY") return true;
        if (daily) return false;
        return ordinal > 0 ? Math.ceil(index / 7) === ordinal : Math.floor((count - index) / 7) + 1 === -ordinal;
      });
      if (!fits) return false;
    }
    return true;
  };
  /** Whether the period of rows [from, to) gives a date on or after DTSTART. */
  const gives = (from: number, to: number): boolean => {
    if (!bySetPos) {
      for (let row = Math.max(from, startRow); row < to; row += 1) if (allowed(row)) return true;
      return false;
    }
    const chosen: number[] = [];
    for (let row = from; row < to; row += 1) if (allowed(row)) chosen.push(row);
    return bySetPos.some((position) => {
      const row = position > 0 ? chosen[position - 1] : chosen[chosen.length + position];
      return row !== undefined && row >= startRow;
    });
  };
  if (freq === "DAILY") {
    for (let row = startRow; row < end; row += interval) if (gives(row, row + 1)) return true;
    return false;
  }
  if (freq === "WEEKLY") {
    // Weeks from Monday (WKST=MO, the default): the week holding DTSTART, then every INTERVAL-th.
    const first = startRow - ((WEEKDAY[startRow]! + 6) % 7);
    for (let row = first; row < end; row += 7 * interval) if (gives(row, row + 7)) return true;
    return false;
  }
  if (freq === "MONTHLY") {
    for (let months = 0; months < YEARS * 12; months += interval) {
      const year = start.year + Math.floor((start.month - 1 + months) / 12);
      const month = ((start.month - 1 + months) % 12) + 1;
      let from = YEAR_START.get(year)!;
      for (let before = 1; before < month; before += 1) from += monthLength(year, before);
      if (gives(from, from + monthLength(year, month))) return true;
    }
    return false;
  }
  for (let year = start.year; year < start.year + YEARS; year += interval)
    if (gives(YEAR_START.get(year)!, YEAR_START.get(year + 1)!)) return true;
  return false;
}

/**
 * Why the proof may call a rule that gives no date by RFC 5545 non-empty, or undefined: it reads the BY… parts alone,
 * as ical.js does, and ical.js reads these otherwise than RFC 5545 — it applies BYSETPOS only among a month's weekdays
 * (a DAILY rule's BYSETPOS=-3 gives every day BYDAY allows), and it does not take a missing day from DTSTART where
 * RFC 5545 does (FREQ=MONTHLY;BYMONTH=2 from the 30th gives DTSTART and ends, it does not spin).
 */
function leftToIcalsReading(rule: Rule): string | undefined {
  if (rule.bySetPos && !(rule.freq === "MONTHLY" && rule.byDay && !rule.byMonthDay))
    return "BYSETPOS outside a MONTHLY rule of weekdays alone";
  if (bruteOccurs({ ...rule, start: { ...rule.start, day: 1 } })) return "a day only DTSTART's own day rules out";
  return undefined;
}

describe("the .ics import's proof that a rule never occurs, against a day-by-day brute force over 1,200 years", () => {
  test(`${RULES} seeded random rules (seed ${SEED}): never empty when a date exists, empty when none does`, () => {
    const counts = { occurs: 0, never: 0, provedNever: 0, refusedByIcal: 0 };
    const leftToIcal = new Map<string, number>();
    const problems: string[] = [];
    for (const rule of rulesOf(SEED, RULES)) {
      const text = `${textOf(rule)} from ${dateText(rule.start)}`;
      const recur = ICAL.Recur.fromString(textOf(rule));
      const start = ICAL.Time.fromDateString(dateText(rule.start));
      try {
        // The reader leaves a rule ical.js refuses to step through to ical.js's own words (checkOccurs).
        recur.iterator(start);
      } catch {
        counts.refusedByIcal += 1;
        continue;
      }
      const occurs = bruteOccurs(rule);
      const proved = neverOccurs(recur, start);
      if (occurs) {
        counts.occurs += 1;
        if (proved) problems.push(`${text}: proved never to occur, yet it occurs`);
        continue;
      }
      counts.never += 1;
      if (proved) {
        counts.provedNever += 1;
        continue;
      }
      const why = leftToIcalsReading(rule);
      if (why) leftToIcal.set(why, (leftToIcal.get(why) ?? 0) + 1);
      else problems.push(`${text}: gives no date, yet is not proved so (ical.js would spin on it until the deadline)`);
    }
    // A failure names each rule and its DTSTART; the counts say what was met.
    expect({ problems, counts, leftToIcal: Object.fromEntries(leftToIcal) }).toMatchObject({ problems: [] });
    // Both answers met often, and ical.js's refusals are few (an idle generator fails here).
    expect(counts.occurs).toBeGreaterThan(60);
    expect(counts.provedNever).toBeGreaterThan(12);
    expect(counts.refusedByIcal).toBeLessThan(RULES / 4);
  });
});
