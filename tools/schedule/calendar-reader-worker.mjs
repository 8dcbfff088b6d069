/**
 * The calendar reader's worker (issue 44): reads one iCalendar text with ical.js and expands its events'
 * recurrences, in a worker thread of its own that `calendar-reader.ts` starts for this one file, gives a memory limit
 * and a deadline, and terminates afterwards. A rule that never occurs (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`) spins
 * inside ical.js's iterator, out of reach of any counter here, so it is proved empty before any rule is expanded
 * (`checkOccurs`) and refused at once; a rule finer than a day steps over the days it cannot occur on
 * (`skippingDaysItCannotOccurOn`), and the deadline ends what is left (a BYWEEKNO rule stepped by the second).
 *
 * Plain JavaScript because a worker thread starts without the TypeScript loader of the process that starts it.
 * Nothing here is registered anywhere: a file's VTIMEZONEs are read by ical.js from that file's own component tree
 * (`Component.getTimeZoneByID`), never through `TimezoneService.register`, and the thread ends with the file.
 *
 * workerData: { signal, port }. The one file comes on `port` as { text, from, to, limits: { maxIterations,
 * maxOccurrences, maxDates, maxSteps } }; `signal[1]` holds this thread's id in the operating system (0 if unknown)
 * before `signal[0]` goes 0 → 1 when ical.js is loaded (the deadline starts then) → 2 when the answer is on `port`:
 * { ok: true, events } or { ok: false, message }. One file, then the thread is ended. A recurring event
 * (RRULE or RDATE) also comes with its rule, added dates and exceptions as written (`series`), for the reader to keep
 * as a series (issue 47), and with its CATEGORIES (Tempo's export marks a review and an event's flags there); a
 * one-off with its own start and end wherever they fall (`once`: a later exam is kept for its week).
 */
import { readlinkSync } from "node:fs";
import { workerData } from "node:worker_threads";
import { dayFacts, dayFilter, filtersOnly, neverOccurs } from "./rule-proof.mjs";

const { signal, port } = workerData;

/** This thread's id in the operating system (Linux's /proc/thread-self), 0 where it cannot be told. */
function ownThreadId() {
  try {
    return Number(readlinkSync("/proc/thread-self").split("/").pop()) || 0;
  } catch {
    return 0;
  }
}

// Told before anything else, so that the reader can count this thread's own CPU time against the deadline.
Atomics.store(signal, 1, ownThreadId());

/** Tells the waiting thread that the state moved on. */
function raise(value) {
  Atomics.store(signal, 0, value);
  Atomics.notify(signal, 0);
}

/** A refusal the reader passes on as it is (its message names what was wrong or which limit was hit). */
class Refusal extends Error {}

const ICAL = (await import("ical.js")).default;
raise(1);

/** "YYYY-MM-DD" of an ICAL.Time's own wall clock. */
function dateOf(time) {
  return `${String(time.year).padStart(4, "0")}-${String(time.month).padStart(2, "0")}-${String(time.day).padStart(2, "0")}`;
}

/** Whether a name is a time zone of the runtime's tz database (Intl). */
function isIanaZone(name) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * One moment of an occurrence, as plain data: its own wall clock, and where it is anchored — `instant` (ms since the
 * epoch) for a UTC time or one in a VTIMEZONE of this file, `zone` alone for an IANA zone the reader resolves with
 * Intl, neither for a floating time.
 */
function momentOf(time, tzid) {
  const moment = {
    date: dateOf(time),
    minutes: time.isDate ? 0 : time.hour * 60 + time.minute,
    allDay: time.isDate,
    zone: null,
    instant: null,
  };
  if (time.isDate) return moment;
  if (time.zone === ICAL.Timezone.utcTimezone) return { ...moment, zone: "UTC", instant: time.toUnixTime() * 1000 };
  if (time.zone && time.zone !== ICAL.Timezone.localTimezone)
    return { ...moment, zone: time.zone.tzid, instant: time.toUnixTime() * 1000 };
  // Floating in ical.js's eyes: a TZID this file has no VTIMEZONE for (an IANA name, checked before) or none at all.
  return tzid ? { ...moment, zone: tzid } : moment;
}

/** The TZID of an event's property, after checking that the file defines it or the tz database knows it. */
function zoneOf(component, name, calendar, summary) {
  const property = component.getFirstProperty(name);
  const tzid = property?.getParameter("tzid");
  if (typeof tzid !== "string") return undefined;
  if (calendar.getTimeZoneByID(tzid)) return undefined;
  if (!isIanaZone(tzid))
    throw new Refusal(
      `the time zone "${tzid.slice(0, 60)}" of "${summary.slice(0, 60)}" is neither defined in the file (VTIMEZONE) nor a known IANA time zone`,
    );
  return tzid;
}

/** How many CATEGORIES values of one VEVENT are read, and how long each may be: Tempo's markers are short. */
const MAX_CATEGORIES = 32;
const MAX_CATEGORY_LENGTH = 64;

/** The CATEGORIES values of a VEVENT, trimmed and lower-cased ("review", "can-hold-reviews"), each once. */
function categoriesOf(component) {
  const values = component
    .getAllProperties("categories")
    .flatMap((property) => property.getValues())
    .map((value) => String(value).trim().toLowerCase())
    .filter((value) => value !== "" && value.length <= MAX_CATEGORY_LENGTH);
  return [...new Set(values)].slice(0, MAX_CATEGORIES);
}

/** The UID of a VEVENT, "" when it has none. */
function uidOf(component) {
  return String(component.getFirstPropertyValue("uid") ?? "");
}

/**
 * The moments of a date-list property (EXDATE, RDATE), each with the property's own TZID; an RDATE written as a
 * PERIOD is its start, with its end (given, or its start and duration) as `periodEnd`.
 */
function momentsOf(component, name, calendar, summary) {
  return component.getAllProperties(name).flatMap((property) => {
    const tzid = property.getParameter("tzid");
    const zone = typeof tzid === "string" && !calendar.getTimeZoneByID(tzid) ? tzid : undefined;
    if (zone !== undefined && !isIanaZone(zone))
      throw new Refusal(
        `the time zone "${zone.slice(0, 60)}" of "${summary.slice(0, 60)}" is neither defined in the file (VTIMEZONE) nor a known IANA time zone`,
      );
    return property
      .getValues()
      .map((value) =>
        value instanceof ICAL.Period
          ? { ...momentOf(value.start, zone), periodEnd: momentOf(value.getEnd(), zone) }
          : momentOf(value, zone),
      );
  });
}

/**
 * A recurring event as written — its rule (RRULE parts as plain data), its start and end, its cancelled dates
 * (EXDATE) and moved occurrences (RECURRENCE-ID with their new start and end) — for the reader to keep as a series
 * (issue 47); null for a one-off. The reader decides what it can keep.
 */
function seriesOf(component, event, exceptions, calendar, summary, startZone, endZone) {
  const rules = component.getAllProperties("rrule");
  const added = momentsOf(component, "rdate", calendar, summary);
  if ((rules.length === 0 && added.length === 0) || component.hasProperty("recurrence-id")) return null;
  // An event of RDATEs alone has no rule: its own start and the dates listed.
  return {
    rules: rules.map((property) => {
      const recur = property.getFirstValue();
      const parts = {};
      for (const [name, values] of Object.entries(recur.parts ?? {})) parts[name] = values.map(String);
      return {
        freq: String(recur.freq ?? ""),
        interval: Number(recur.interval ?? 1),
        count: recur.count === null || recur.count === undefined ? null : Number(recur.count),
        until: recur.until ? momentOf(recur.until, undefined) : null,
        wkst: Number(recur.wkst ?? 2),
        parts,
      };
    }),
    added,
    start: momentOf(event.startDate, startZone),
    end: momentOf(event.endDate ?? event.startDate, endZone),
    cancelled: momentsOf(component, "exdate", calendar, summary),
    moved: exceptions.map((exception) => {
      const moved = new ICAL.Event(exception);
      const zone = zoneOf(exception, "dtstart", calendar, summary);
      return {
        from: momentOf(moved.recurrenceId, zoneOf(exception, "recurrence-id", calendar, summary) ?? zone),
        start: momentOf(moved.startDate, zone),
        end: momentOf(moved.endDate ?? moved.startDate, zoneOf(exception, "dtend", calendar, summary) ?? zone),
      };
    }),
  };
}

/**
 * ical.js's own words for a rule its iterator cannot step through, as the user is told them: what happened, not how
 * the library guards itself. Other messages (a part RFC 5545 forbids) are told as they are.
 */
const ITERATOR_PROBLEMS = new Map([
  [
    "Same occurrence found twice, protecting you from death by recursion",
    // RecurIterator.next, on a rule it steps to the same time twice (FREQ=YEARLY;BYDAY=1MO,…,53MO in a year of 52).
    "the calendar reader steps to the same occurrence twice, so its occurrences cannot be listed",
  ],
  [
    "max tries have occurred, rule may be impossible to fulfill.",
    // RecurExpansion.next gives up after 500 occurrences in a row that an EXDATE cancels.
    "more than 500 of its occurrences in a row are cancelled (EXDATE), more than the calendar reader steps over",
  ],
]);

/**
 * Most steps between two occurrences (INTERVAL) a rule may take. ical.js steps a rule with a huge INTERVAL
 * (FREQ=WEEKLY;INTERVAL=100000) through dates it cannot reach and spins until the deadline ends it; a timetable
 * skips at most 520 weeks (`MAX_SERIES_INTERVAL`), a rule kept as occurrences (FREQ=HOURLY) no more than this.
 */
const MAX_INTERVAL = 1_000;

/**
 * Most candidate dates a time zone's rule may give a year (the product of its BY… parts' counts): a real one gives
 * one change a year, written at most as BYMONTH=3;BYMONTHDAY=8,…,14;BYDAY=SU (7). ical.js expands a zone's rules
 * from their DTSTART (1601 in Outlook's files) to five years past the present, so a rule of 336 dates a year, or a
 * daily one, takes seconds of a reader's deadline before anything is read.
 */
const MAX_ZONE_DATES_A_YEAR = 31;

/**
 * Refuses, before any rule is expanded, what only the deadline would otherwise end: a rule whose INTERVAL is past
 * `MAX_INTERVAL`, and a VTIMEZONE whose changes are not yearly or are more than `MAX_ZONE_DATES_A_YEAR` dates a year.
 */
function checkRules(calendar) {
  for (const zone of calendar.getAllSubcomponents("vtimezone")) {
    const tzid = String(zone.getFirstPropertyValue("tzid") ?? "").slice(0, 60);
    for (const observance of zone.getAllSubcomponents())
      for (const property of observance.getAllProperties("rrule")) {
        const recur = property.getFirstValue();
        if (String(recur.freq).toUpperCase() !== "YEARLY")
          throw new Refusal(
            `the time zone "${tzid}" changes by a ${String(recur.freq).slice(0, 16)} rule; a time zone's changes are yearly (FREQ=YEARLY)`,
          );
        const dates = Object.values(recur.parts ?? {}).reduce((product, values) => product * values.length, 1);
        if (dates > MAX_ZONE_DATES_A_YEAR || Number(recur.interval ?? 1) > MAX_INTERVAL)
          throw new Refusal(
            `the time zone "${tzid}" has a rule of more than ${MAX_ZONE_DATES_A_YEAR} dates a year; a time zone changes once or twice a year`,
          );
      }
  }
  for (const component of calendar.getAllSubcomponents("vevent"))
    for (const property of component.getAllProperties("rrule")) {
      const summary = String(component.getFirstPropertyValue("summary") || "(untitled event)").slice(0, 60);
      let interval;
      try {
        interval = Number(property.getFirstValue().interval ?? 1);
      } catch (error) {
        throw new Refusal(`the recurrence rule of "${summary}" cannot be used: ${error?.message ?? String(error)}`);
      }
      if (interval > MAX_INTERVAL)
        throw new Refusal(
          `the recurrence rule of "${summary}" cannot be used: INTERVAL=${String(interval).slice(0, 24)} is more than the ${MAX_INTERVAL.toLocaleString("en-US")} the calendar reader steps by`,
        );
      // RFC 5545 §3.3.10: a numbered BYDAY (2MO, -1FR) only in a MONTHLY or YEARLY rule. ical.js reads one in a
      // WEEKLY rule as its weekday alone, every Monday for "the second Monday": the file does not say what it means.
      const recur = property.getFirstValue();
      const numbered = (recur.parts?.BYDAY ?? []).find((day) => /^[+-]?\d/.test(String(day)));
      if (String(recur.freq).toUpperCase() === "WEEKLY" && numbered !== undefined)
        throw new Refusal(
          `the recurrence rule of "${summary}" cannot be used: a WEEKLY rule numbers a weekday (BYDAY=${String(numbered).slice(0, 8)}), which RFC 5545 allows only in a MONTHLY or YEARLY rule (FREQ=MONTHLY;BYDAY=2MO is the second Monday of each month)`,
        );
    }
}

/** Seconds in each of the units a rule finer than a day steps by. */
const UNIT_SECONDS = { second: 1, minute: 60, hour: 3_600 };

/**
 * What a rule finer than a day steps by in ical.js's iterator: the unit its main field moves in and by how much each
 * time its finer parts' values (an expanded BYSECOND of a MINUTELY rule) come round again. A rule whose own part is
 * given (SECONDLY;BYSECOND=0) cycles through it and moves the next unit by one. Null for a rule that steps by days or
 * more (HOURLY;BYHOUR=3, DAILY …): no more than a day of steps a day, 146,097 over a whole cycle.
 */
function mainStep(iterator) {
  const interval = Math.max(1, Number(iterator.rule.interval ?? 1) || 1);
  const own = (part) => part in iterator.by_data;
  switch (String(iterator.rule.freq).toUpperCase()) {
    case "SECONDLY":
      return own("BYSECOND") ? { unit: "minute", step: 1 } : { unit: "second", step: interval };
    case "MINUTELY":
      return own("BYMINUTE") ? { unit: "hour", step: 1 } : { unit: "minute", step: interval };
    case "HOURLY":
      return own("BYHOUR") ? null : { unit: "hour", step: interval };
    default:
      return null;
  }
}

/**
 * Makes a rule finer than a day (SECONDLY, MINUTELY, HOURLY) step over the days it cannot occur on at once, instead
 * of second by second: `FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29` took ical.js tens of millions of steps to reach its
 * next leap day, and the worker's deadline ended it although the rule occurs. Its day parts (BYMONTH, BYMONTHDAY,
 * BYDAY), and a BYHOUR or BYMINUTE coarser than its step, only filter its times (ical.js compares each time against
 * them), so every time of a day they rule out is skipped anyway: when a time is refused, the iterator's main field is
 * moved in one increment as far as the last of its steps before the first time the parts allow — never past the
 * month's end, where ical.js's own step does its month arithmetic (a BYMONTH jumps to the next month listed). One
 * increment of k steps is what k steps do, each cycle of the finer parts' values moving the main field once, so the
 * occurrences are the same ones ical.js lists, only found sooner. Day parts are read as `dayFilter` reads them, a
 * superset of what ical.js allows (BYWEEKNO is left aside: its week numbering is ical.js's own).
 */
function skippingDaysItCannotOccurOn(iterator) {
  const step = mainStep(iterator);
  if (!step) return iterator;
  const parts = iterator.rule.parts ?? {};
  const freq = String(iterator.rule.freq).toUpperCase();
  const allowsDay = dayFilter({ ...parts, BYWEEKNO: undefined }, freq);
  const given = (part) =>
    Array.isArray(parts[part]) && parts[part].length > 0 ? new Set(parts[part].map(Number)) : undefined;
  // A part filters every time within the main unit alike only when it is no finer than that unit.
  const hours = step.unit !== "hour" ? given("BYHOUR") : undefined;
  const minutes = step.unit === "second" ? given("BYMINUTE") : undefined;
  const unitSeconds = UNIT_SECONDS[step.unit];
  const stepSeconds = step.step * unitSeconds;
  const check = iterator.check_contracting_rules.bind(iterator);
  iterator.check_contracting_rules = () => {
    if (check()) return true;
    const last = iterator.last;
    const wall = Date.UTC(last.year, last.month - 1, last.day, last.hour, last.minute, last.second) / 1000;
    if (!Number.isFinite(wall)) return false;
    const now = wall - (wall % unitSeconds);
    const monthEnd = Date.UTC(last.year, last.month, 1) / 1000;
    const next = firstAllowed(now, monthEnd, allowsDay, hours, minutes);
    const steps = Math.ceil((next - now) / stepSeconds) - 1;
    if (steps > 0) iterator[`increment_${step.unit}`](steps * step.step);
    return false;
  };
  return iterator;
}

/** The first second from `now` (a wall time in seconds, as if UTC) that the parts allow, or `limit` if none is before it. */
function firstAllowed(now, limit, allowsDay, hours, minutes) {
  for (let day = Math.floor(now / 86_400); day * 86_400 < limit; day += 1) {
    if (!allowsDay(dayFacts(day, 1, undefined))) continue;
    const dayStart = day * 86_400;
    for (let hour = Math.max(0, Math.floor((now - dayStart) / 3_600)); hour < 24; hour += 1) {
      if (hours && !hours.has(hour)) continue;
      const hourStart = dayStart + hour * 3_600;
      if (!minutes) return Math.min(limit, Math.max(now, hourStart));
      for (let minute = Math.max(0, Math.floor((now - hourStart) / 60)); minute < 60; minute += 1)
        if (minutes.has(minute)) return Math.min(limit, Math.max(now, hourStart + minute * 60));
    }
  }
  return limit;
}

/**
 * The steps every rule iterator of this file has taken, and the most it may take (`limits.maxSteps`, set when the file
 * comes). A step is one pass of ical.js's own loop in `RecurIterator.next` — one candidate time tried, whether or not
 * it is an occurrence — which calls `check_contracting_rules` once a pass; each pass does a bounded amount of work
 * (an INTERVAL is at most `MAX_INTERVAL`). Counting them is what makes a rule that steps through millions of times to
 * reach its next date (`FREQ=SECONDLY;BYWEEKNO=53`) refused for the work it causes, the same on any machine, however
 * busy, where only the deadline ended it before. A time zone's rules (expanded through the same iterator) count too.
 */
const budget = { steps: 0, maxSteps: Infinity };

/** Counts each pass of `iterator`'s loop against the file's `budget`, refusing the file at the first pass past it. */
function countingSteps(iterator) {
  const check = iterator.check_contracting_rules.bind(iterator);
  iterator.check_contracting_rules = () => {
    budget.steps += 1;
    if (budget.steps > budget.maxSteps)
      throw new Refusal(
        `the file's recurrence rules take more than ${budget.maxSteps.toLocaleString("en-US")} steps to list their dates up to the window's end, more than the calendar reader takes for one file`,
      );
    return check();
  };
  return iterator;
}

// Every rule iterator of this thread — each event's expansion, through RecurExpansion, and each time zone's — counts
// its steps and steps over impossible days.
const plainIterator = ICAL.Recur.prototype.iterator;
ICAL.Recur.prototype.iterator = function iterator(start) {
  return skippingDaysItCannotOccurOn(countingSteps(plainIterator.call(this, start)));
};

/** Refuses, before expanding, a VEVENT rule that gives no occurrence at all (`neverOccurs`). */
function checkOccurs(calendar) {
  for (const component of calendar.getAllSubcomponents("vevent")) {
    const start = component.getFirstPropertyValue("dtstart");
    if (!start || typeof start.year !== "number") continue;
    for (const property of component.getAllProperties("rrule")) {
      const recur = property.getFirstValue();
      try {
        // A rule ical.js refuses to step through at all is told in its words when the event is expanded.
        recur.iterator(start);
      } catch {
        continue;
      }
      if (!neverOccurs(recur, start)) continue;
      const summary = String(component.getFirstPropertyValue("summary") || "(untitled event)").slice(0, 60);
      const freq = String(recur.freq).toUpperCase();
      const counted = ["BYDAY", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO"].some(
        (name) =>
          filtersOnly(freq, name) &&
          (recur.parts?.[name] ?? []).some((value) =>
            name === "BYDAY" ? /\d/.test(String(value)) : Number(value) < 0,
          ),
      );
      throw new Refusal(
        `the recurrence rule of "${summary}" cannot be used: ${String(recur.toString()).slice(0, 120)} gives no date at all (no day of the 400 years after which the calendar repeats matches it${counted ? "; a count from the end, as BYMONTHDAY=-1, or an ordinal BYDAY, as 1TU, is read only where it picks days, as in a MONTHLY or YEARLY rule" : ""})`,
      );
    }
  }
}

function read({ text, from, to, limits }) {
  budget.maxSteps = limits.maxSteps;
  let calendar;
  try {
    calendar = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    throw new Refusal(`The calendar file cannot be read: ${error.message}.`);
  }
  if (calendar.name !== "vcalendar") throw new Refusal("The calendar file cannot be read: it is not a VCALENDAR.");
  try {
    checkRules(calendar);
    checkOccurs(calendar);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(`The calendar file cannot be read: ${error?.message ?? String(error)}.`);
  }
  let iterations = 0;
  let kept = 0;
  const events = [];
  const components = calendar.getAllSubcomponents("vevent");
  // A moved occurrence (RECURRENCE-ID) belongs to the recurring event of its UID: told with it, not as an event of its own.
  const masters = new Set(
    components.filter((component) => !component.hasProperty("recurrence-id")).map((component) => uidOf(component)),
  );
  // The moved occurrences of each UID, gathered once (one pass, not one pass per event).
  const movedByUid = new Map();
  for (const component of components) {
    if (!component.hasProperty("recurrence-id")) continue;
    const uid = uidOf(component);
    movedByUid.set(uid, [...(movedByUid.get(uid) ?? []), component]);
  }
  for (const component of components) {
    if (component.hasProperty("recurrence-id") && masters.has(uidOf(component))) continue;
    const exceptions = component.hasProperty("recurrence-id") ? undefined : (movedByUid.get(uidOf(component)) ?? []);
    const event = new ICAL.Event(component, { exceptions: exceptions ?? [] });
    const summary = String(event.summary || "(untitled event)");
    // Counted as written, before any is read as a date: a file of 50,000 EXDATEs is refused here, not mapped.
    for (const [name, what] of [
      ["exdate", "cancelled dates (EXDATE)"],
      ["rdate", "added dates (RDATE)"],
    ]) {
      const dates = component.getAllProperties(name).reduce((sum, property) => sum + property.jCal.length - 3, 0);
      if (dates > limits.maxDates)
        throw new Refusal(
          `"${summary.slice(0, 60)}" lists more than ${limits.maxDates.toLocaleString("en-US")} ${what}, more than a timetable has`,
        );
    }
    const startZone = zoneOf(component, "dtstart", calendar, summary);
    const endZone = zoneOf(component, "dtend", calendar, summary) ?? startZone;
    if (!event.startDate) throw new Refusal(`"${summary.slice(0, 60)}" has no start (DTSTART)`);
    const occurrences = [];
    const keep = (start, end) => {
      kept += 1;
      if (kept > limits.maxOccurrences)
        throw new Refusal(
          `the file has more than ${limits.maxOccurrences.toLocaleString("en-US")} occurrences in the window`,
        );
      occurrences.push({ start: momentOf(start, startZone), end: momentOf(end, endZone) });
    };
    if (event.isRecurring()) {
      try {
        const iterator = event.iterator();
        // Occurrences before the window are stepped over, not kept: a series that began years ago still reaches it.
        for (let next = iterator.next(); next; next = iterator.next()) {
          iterations += 1;
          if (iterations > limits.maxIterations)
            throw new Refusal(
              `the file's recurrence rules give more than ${limits.maxIterations.toLocaleString("en-US")} occurrences before the window ends`,
            );
          const date = dateOf(next instanceof ICAL.Period ? next.start : next);
          if (date > to) break;
          if (date < from) continue;
          // An RDATE written as a PERIOD comes as the period (ical.js cannot give its details): its own start and end.
          if (next instanceof ICAL.Period) keep(next.start, next.getEnd());
          else {
            const details = event.getOccurrenceDetails(next);
            keep(details.startDate, details.endDate);
          }
        }
      } catch (error) {
        if (error instanceof Refusal) throw error;
        const problem = ITERATOR_PROBLEMS.get(error?.message) ?? error?.message ?? String(error);
        throw new Refusal(`the recurrence rule of "${summary.slice(0, 60)}" cannot be used: ${problem}`);
      }
    } else if (dateOf(event.startDate) >= from && dateOf(event.startDate) <= to) {
      keep(event.startDate, event.endDate ?? event.startDate);
    }
    events.push({
      summary,
      uid: String(event.uid ?? ""),
      categories: categoriesOf(component),
      occurrences,
      // A one-off's own time wherever it falls: the reader keeps a later one for its week and names an earlier one.
      once: event.isRecurring()
        ? null
        : { start: momentOf(event.startDate, startZone), end: momentOf(event.endDate ?? event.startDate, endZone) },
      series: seriesOf(component, event, exceptions ?? [], calendar, summary, startZone, endZone),
    });
  }
  return events;
}

port.once("message", (file) => {
  try {
    port.postMessage({ ok: true, events: read(file) });
  } catch (error) {
    port.postMessage({
      ok: false,
      message:
        error instanceof Refusal
          ? error.message
          : `The calendar file cannot be read: ${error?.message ?? String(error)}.`,
    });
  }
  raise(2);
});
