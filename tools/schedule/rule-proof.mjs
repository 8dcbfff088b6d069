/**
 * The proof that an iCalendar rule gives no date at all (`neverOccurs`), for the calendar reader's worker
 * (`calendar-reader-worker.mjs`), which refuses such a rule before ical.js's iterator spins on it. Plain JavaScript, as
 * the worker is (a worker thread starts without the TypeScript loader), and free of ical.js: it reads a rule's parsed
 * parts (`ICAL.Recur`: `freq`, `interval`, `wkst`, `parts`) and its start's date, so tests call it in-process.
 */

/** Days in the 400-year cycle after which the Gregorian calendar repeats, weekdays included (20,871 weeks). */
const GREGORIAN_CYCLE_DAYS = 146_097;
const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];

const DAY_MS = 86_400_000;
const MONTH_STARTS = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

function isLeap(year) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Day number (days since 1970-01-01) of a civil date; months past 12 or below 1 roll into other years. */
function dayNumberOf(year, month, day) {
  return Math.round(Date.UTC(year, month - 1, day) / DAY_MS);
}

/** The civil date of a day number, by integer arithmetic alone (H. Hinnant's `civil_from_days`): no Date a day. */
function civilOf(dayNumber) {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** The civil date of a day number, with what a rule's BY… parts ask of it. */
export function dayFacts(dayNumber, weekStart, weekCache) {
  const { year, month, day } = civilOf(dayNumber);
  const leap = isLeap(year);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  const yearDay = MONTH_STARTS[month - 1] + day + (leap && month > 2 ? 1 : 0);
  const weekday = (((dayNumber + 4) % 7) + 7) % 7;
  return {
    year,
    month,
    day,
    weekday,
    daysInMonth,
    yearDay,
    daysInYear: leap ? 366 : 365,
    week: weekCache ? () => weekNumbers(dayNumber, year, weekStart, weekCache) : () => [],
  };
}

/** Day number of the first day of week 1 of `year` (weeks from `weekStart`, 0 = SU; week 1 holds 4 days of the year). */
function firstWeekStart(year, weekStart, cache) {
  const known = cache.get(year);
  if (known !== undefined) return known;
  const january1 = dayNumberOf(year, 1, 1);
  const back = (((((january1 + 4) % 7) + 7) % 7) - weekStart + 7) % 7;
  const first = back <= 3 ? january1 - back : january1 - back + 7;
  cache.set(year, first);
  return first;
}

/** The week numbers a day has (positive, and counted from the end of its week-numbering year), RFC 5545 §3.3.10. */
function weekNumbers(dayNumber, year, weekStart, cache) {
  let owner = year + 1;
  while (firstWeekStart(owner, weekStart, cache) > dayNumber) owner -= 1;
  const first = firstWeekStart(owner, weekStart, cache);
  const weeks = (firstWeekStart(owner + 1, weekStart, cache) - first) / 7;
  const number = Math.floor((dayNumber - first) / 7) + 1;
  return [number, number - weeks - 1];
}

/** Whether ical.js only filters a rule's dates by `part` (compares each as written), rather than picking days by it. */
export function filtersOnly(freq, part) {
  return ["SECONDLY", "MINUTELY", "HOURLY", "DAILY"].includes(freq) || (freq === "WEEKLY" && part === "BYWEEKNO");
}

/**
 * A rule's date-level BY… parts, read once: whether a day can hold an occurrence (`matches`), as a superset of the
 * days ical.js gives — an ordinal BYDAY counts within the month (MONTHLY, or YEARLY with BYMONTH) or the year (YEARLY
 * without BYMONTH or BYWEEKNO), and anywhere else is taken as its weekday alone — never fewer.
 */
export function dayFilter(parts, freq) {
  // A part that only filters a finer rule's dates (BYMONTHDAY of a DAILY rule) is compared by ical.js as written, with
  // the day's own positive number: a count from the end (-1) or an ordinal BYDAY (1TU) there matches no day.
  const numbers = (name) =>
    Array.isArray(parts[name]) && parts[name].length > 0
      ? new Set(parts[name].map(Number).filter((value) => !filtersOnly(freq, name) || value > 0))
      : undefined;
  const months = numbers("BYMONTH");
  const monthDays = numbers("BYMONTHDAY");
  const yearDays = numbers("BYYEARDAY");
  const weekNumbers = numbers("BYWEEKNO");
  const scope =
    freq === "MONTHLY" || (freq === "YEARLY" && months) ? "month" : freq === "YEARLY" && !weekNumbers ? "year" : "";
  const days =
    Array.isArray(parts.BYDAY) && parts.BYDAY.length > 0
      ? parts.BYDAY.map((value) => {
          const found = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(String(value).toUpperCase());
          if (!found || !WEEKDAYS.includes(found[2])) return { weekday: -1, ordinal: 0 };
          if (Number(found[1] ?? 0) !== 0 && filtersOnly(freq, "BYDAY")) return { weekday: -2, ordinal: 0 };
          return {
            weekday: WEEKDAYS.indexOf(found[2]),
            ordinal: scope && found[1] !== undefined ? Number(found[1]) : 0,
          };
        })
      : undefined;
  return (facts) => {
    if (months && !months.has(facts.month)) return false;
    if (monthDays && !monthDays.has(facts.day) && !monthDays.has(facts.day - facts.daysInMonth - 1)) return false;
    if (yearDays && !yearDays.has(facts.yearDay) && !yearDays.has(facts.yearDay - facts.daysInYear - 1)) return false;
    if (weekNumbers && !facts.week().some((week) => weekNumbers.has(week))) return false;
    if (days) {
      const [index, length] = scope === "month" ? [facts.day, facts.daysInMonth] : [facts.yearDay, facts.daysInYear];
      const matches = days.some(({ weekday, ordinal }) => {
        if (weekday === -1) return true;
        if (weekday !== facts.weekday) return false;
        if (ordinal === 0) return true;
        return ordinal > 0 ? Math.ceil(index / 7) === ordinal : -(Math.floor((length - index) / 7) + 1) === ordinal;
      });
      if (!matches) return false;
    }
    return true;
  };
}

/**
 * Whether a rule gives no occurrence at all from its start: proved over one whole Gregorian cycle (400 years, after
 * which dates and weekdays repeat) of the periods its INTERVAL keeps, each day's BY… parts checked, and BYSETPOS
 * against the most candidates a period holds. ical.js spins inside its iterator on such a rule until the worker's
 * deadline ends it (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`, `FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6`); this answers at once.
 * Conservative: every day a part could be read as allowing counts, so a rule that occurs is never called empty.
 */
export function neverOccurs(recur, start) {
  const freq = String(recur.freq ?? "").toUpperCase();
  const parts = recur.parts ?? {};
  const interval = Math.max(1, Number(recur.interval ?? 1) || 1);
  const weekStart = (Number(recur.wkst ?? 2) - 1 + 7) % 7;
  // ical.js picks by BYSETPOS in a MONTHLY rule of weekdays alone (BYDAY without BYMONTHDAY), among the month's days;
  // elsewhere it is not read here, so it never makes a rule empty.
  const has = (name) => Array.isArray(parts[name]) && parts[name].length > 0;
  const positions =
    freq === "MONTHLY" && has("BYDAY") && !has("BYMONTHDAY") && has("BYSETPOS")
      ? parts.BYSETPOS.map((value) => Math.abs(Number(value)))
      : [];
  const fewestPosition = positions.length > 0 ? Math.min(...positions) : 0;
  const startDay = dayNumberOf(start.year, start.month, start.day);
  const matches = dayFilter(parts, freq);
  const weekCache = Array.isArray(parts.BYWEEKNO) && parts.BYWEEKNO.length > 0 ? new Map() : undefined;
  if (!Number.isFinite(startDay)) return false;
  const daily = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"].includes(freq);
  if (!daily) {
    // HOURLY, MINUTELY, SECONDLY: every day may hold one (INTERVAL left aside).
    for (let day = startDay; day < startDay + GREGORIAN_CYCLE_DAYS; day += 1)
      if (matches(dayFacts(day, weekStart, weekCache))) return false;
    return true;
  }
  for (const [first, days] of periodsOf(freq, parts, interval, start, startDay, weekStart)) {
    let candidates = 0;
    for (let day = Math.max(first, startDay); day < first + days; day += 1)
      if (matches(dayFacts(day, weekStart, weekCache))) candidates += 1;
    // BYSETPOS picks among a period's candidates: counted over the whole period (before the start too).
    if (candidates > 0 && fewestPosition > 0 && first < startDay)
      for (let day = first; day < startDay; day += 1) if (matches(dayFacts(day, weekStart, weekCache))) candidates += 1;
    if (candidates > 0 && candidates >= fewestPosition) return false;
  }
  return true;
}

/**
 * The periods a rule's INTERVAL keeps, over a whole cycle: [first day, days] each, made one at a time, so a rule that
 * occurs in its first period is answered without making the rest (a DAILY rule has 146,097 of them). With BYWEEKNO a
 * year's weeks cross into the next, so every day from the start is taken (INTERVAL left aside).
 */
function* periodsOf(freq, parts, interval, start, startDay, weekStart) {
  if (freq === "DAILY" || (freq === "YEARLY" && Array.isArray(parts.BYWEEKNO) && parts.BYWEEKNO.length > 0)) {
    const step = freq === "DAILY" ? interval : 1;
    for (let index = 0; index < GREGORIAN_CYCLE_DAYS; index += 1) yield [startDay + index * step, 1];
  } else if (freq === "WEEKLY") {
    const first = startDay - ((((((startDay + 4) % 7) + 7) % 7) - weekStart + 7) % 7);
    for (let index = 0; index < GREGORIAN_CYCLE_DAYS / 7; index += 1) yield [first + index * 7 * interval, 7];
  } else if (freq === "MONTHLY") {
    for (let index = 0; index < 4_800; index += 1) {
      const month = start.month - 1 + index * interval;
      const first = dayNumberOf(start.year, month + 1, 1);
      yield [first, dayNumberOf(start.year, month + 2, 1) - first];
    }
  } else {
    for (let index = 0; index < 400; index += 1) {
      const year = start.year + index * interval;
      const first = dayNumberOf(year, 1, 1);
      yield [first, dayNumberOf(year + 1, 1, 1) - first];
    }
  }
}
