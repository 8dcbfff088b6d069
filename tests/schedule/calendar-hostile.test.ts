/**
 * Hostile calendar files (issue 44): every reading of a user's .ics is bounded in time, memory, occurrences, size,
 * nesting and counts, and every refusal is a typed CalendarFileError naming the limit hit, the week unchanged; no file
 * changes how another is read (time zones per file, IANA names from Intl). The fixtures are in tests/fixtures/ics.
 * A rule that never occurs would spin for ever inside ical.js: these tests end because the reader's step budget (or,
 * last, its worker deadline) ends them, and assert the typed refusal, not a duration.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { datedWindow } from "../../tools/schedule/calendar.js";
import { CalendarFileError, importTimetable, plainEventName } from "../../tools/schedule/calendar-files.js";
import { DEFAULT_CALENDAR_READ_LIMITS, readCalendarEvents } from "../../tools/schedule/calendar-reader.js";
import {
  describeTaskWrite,
  importCalendarTool,
  parseScheduleState,
  type EventTask,
  type ScheduleState,
} from "../../tools/schedule/index.js";

const window = datedWindow({ firstDate: "2024-03-25", days: 7, timeZone: "Asia/Shanghai" });

/** A dated week in Shanghai with nothing on it yet. */
function emptyWeek(): ScheduleState {
  return {
    window,
    categories: [{ id: "calculus", name: "Calculus" }],
    tasks: [
      { id: "review-1", name: "Review 1", source: "task_item", duration: 1, categoryId: "calculus", status: "pending" },
    ],
  };
}

/** A fixture's text. */
function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/ics/${name}`, import.meta.url), "utf8");
}

/** The refusal importing `text` into the empty week gives: a CalendarFileError (INVALID_INPUT), or a failure if none. */
function refusalOf(text: string, limits = DEFAULT_CALENDAR_READ_LIMITS): CalendarFileError {
  try {
    importTimetable(emptyWeek(), text, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(CalendarFileError);
    expect((error as CalendarFileError).code).toBe("INVALID_INPUT");
    return error as CalendarFileError;
  }
  throw new Error("the file was not refused");
}

describe("hostile calendar files", () => {
  /** Every second of 31 March (in the window) is an occurrence: a fast reader reaches them and stops at its cap first. */
  const CAP = "The file has more than 5,000 occurrences in the window";
  const either = (...messages: string[]) => new RegExp(`^(?:${messages.map(escaped).join("|")})$`);

  /** The refusal of a rule the reader proves gives no date, before ical.js spins on it. */
  const never = (rule: string, summary = "Leap lecture") =>
    `The recurrence rule of "${summary}" cannot be used: ${rule} gives no date at all (no day of the 400 years after which the calendar repeats matches it)`;

  test.each([
    ["never-occurs.ics", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", [never("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30")]],
    // Stepped over to 31 March at once: every second of it is an occurrence, and the cap ends them.
    ["secondly-31.ics", "FREQ=SECONDLY;BYMONTHDAY=31", [CAP]],
    [
      "hourly-february-31.ics",
      "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=31",
      [never("FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=31", "Every hour")],
    ],
  ])("%s (%s) is refused at a bound of the reader, through the tool too, the week unchanged", (name, _rule, bounds) => {
    // A rule that never occurs is proved so before it is expanded; one that does is stopped by whichever bound comes first.
    expect(refusalOf(fixture(name)).message).toMatch(either(...bounds));
    const week = emptyWeek();
    const outcome = importCalendarTool.run(week, { ics: fixture(name) });
    expect(outcome.ok).toBe(false);
    expect(outcome).not.toHaveProperty("state");
    expect(outcome.content).toMatch(either(...bounds.map((bound) => `error: ${bound}`)));
    expect(week).toEqual(emptyWeek());
  });

  /**
   * A rule that does occur, next in the 53rd week of 2026 (28 December): ical.js steps through every second until then
   * (about 90 million steps), and its week numbers are ical.js's own, so the reader does not step over the weeks it
   * rules out. The step budget ends it (only the deadline did before).
   */
  const farSecondly = fixture("never-occurs.ics").replace(
    "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=SECONDLY;BYWEEKNO=53",
  );

  test("a rare rule finer than a day steps over the days it cannot occur on, to its next date years away", () => {
    // Each stepped second by second (or minute by minute) to 29 February 2028 inside ical.js, and the deadline ended
    // the reading (the secondly ones on any machine) although the rule occurs.
    const withRule = (rule: string) => fixture("never-occurs.ics").replace("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", rule);
    const leapDay = (rule: string) => readCalendarEvents(withRule(rule), "2028-02-28", "2028-03-01")[0]!.occurrences;
    const at = (minutes: number) => expect.objectContaining({ date: "2028-02-29", minutes, zone: "UTC" });
    const hourOfSeconds = leapDay("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29;BYHOUR=3");
    expect(hourOfSeconds).toHaveLength(3_600);
    expect(hourOfSeconds[0]!.start).toEqual(at(180));
    expect(hourOfSeconds.at(-1)!.start).toEqual(expect.objectContaining({ instant: Date.UTC(2028, 1, 29, 3, 59, 59) }));
    const dayOfMinutes = leapDay("FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=29");
    expect(dayOfMinutes).toHaveLength(1_440);
    expect([dayOfMinutes[0]!.start, dayOfMinutes.at(-1)!.start]).toEqual([at(0), at(1_439)]);
    // Every 7 minutes from 02:00 on 1 March 2024: the steps skipped keep the rule's own rhythm.
    const sevenMinutes = leapDay("FREQ=MINUTELY;INTERVAL=7;BYMONTH=2;BYMONTHDAY=29;BYHOUR=9");
    const first = Date.UTC(2024, 2, 1, 2);
    expect(sevenMinutes.length).toBeGreaterThan(0);
    for (const { start } of sevenMinutes) {
      expect(start.date).toBe("2028-02-29");
      expect(Math.floor(start.minutes / 60)).toBe(9);
      expect((start.instant! - first) % (7 * 60_000)).toBe(0);
    }
    // Every second of the leap day is more than the window keeps: refused by the cap, not by the deadline.
    expect(() => leapDay("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29")).toThrow(CAP);
    // In the week imported (2024), the rule has no occurrence: it is read, and nothing of it is kept.
    expect(importTimetable(emptyWeek(), withRule("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=29")).events).toEqual([]);
  });

  /** The refusal of a file whose rules take more steps than the reader's budget. */
  const steps = (count: string) =>
    `The file's recurrence rules take more than ${count} steps to list their dates up to the window's end, more than the calendar reader takes for one file`;

  test("a rule that steps millions of times to its next date is refused for the steps it takes, not the time", () => {
    // A deadline far past what these take when refused: the count of ical.js's steps, not the clock of a busy machine,
    // is what ends them, so the same file gets the same answer on any machine. Only the deadline ended them before.
    const patient = { ...DEFAULT_CALENDAR_READ_LIMITS, deadlineMs: 60_000 };
    expect(refusalOf(farSecondly, patient).message).toBe(steps("250,000"));
    expect(refusalOf(farSecondly, { ...patient, maxSteps: 10_000 }).message).toBe(steps("10,000"));
    // Every second of every 31st from 2020: stepped through a second at a time, it reaches the count of occurrences
    // before the window at its 100,000th, before the step budget.
    const everySecondOf31st = fixture("secondly-31.ics").replace(
      "DTSTART:20240301T020000Z",
      "DTSTART:20200101T000000Z",
    );
    expect(refusalOf(everySecondOf31st, patient).message).toBe(
      "The file's recurrence rules give more than 100,000 occurrences before the window ends",
    );
    // A rare rule stepped by the day from 1900 (45,000 steps to 2024's leap day) is within the budget, and read.
    const leapDays = fixture("never-occurs.ics")
      .replace("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29")
      .replace("DTSTART:20240301T020000Z", "DTSTART:19000301T020000Z");
    expect(readCalendarEvents(leapDays, "2024-02-28", "2024-03-01", patient)[0]!.occurrences).toEqual([
      { start: expect.objectContaining({ date: "2024-02-29", minutes: 120, zone: "UTC" }), end: expect.anything() },
    ]);
  });

  test("the deadline is configurable", () => {
    // Without the step budget, only the deadline ends the rule.
    const unbudgeted = { ...DEFAULT_CALENDAR_READ_LIMITS, maxSteps: Number.POSITIVE_INFINITY, deadlineMs: 500 };
    expect(refusalOf(farSecondly, unbudgeted).message).toMatch(
      /^The file's recurrence rules did not finish expanding within 0.5 s/,
    );
  });

  test("a rule that gives no date is refused before it is expanded, in words that say so; rare rules that do occur are not", () => {
    // A deadline far past what these take when refused: the proof, not the clock, is what ends them. Each spun inside
    // ical.js until the deadline ended the reading.
    const patient = { ...DEFAULT_CALENDAR_READ_LIMITS, deadlineMs: 15_000 };
    const withRule = (rule: string, start = "20240301T020000Z") =>
      fixture("never-occurs.ics")
        .replace("RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", `RRULE:${rule}`)
        .replace("DTSTART:20240301T020000Z", `DTSTART:${start}`)
        .replace("DTEND:20240301T034000Z", `DTEND:${start.replace("T02", "T03")}`);
    const counted =
      "; a count from the end, as BYMONTHDAY=-1, or an ordinal BYDAY, as 1TU, is read only where it picks days, as in a MONTHLY or YEARLY rule";
    for (const [rule, note] of [
      ["FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31", ""],
      ["FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30", ""],
      ["FREQ=MONTHLY;BYMONTH=6;BYMONTHDAY=31", ""],
      ["FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6", ""],
      ["FREQ=YEARLY;BYMONTH=11;BYMONTHDAY=30;BYDAY=1TU", ""],
      ["FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6", ""],
      ["FREQ=DAILY;BYMONTH=2;BYMONTHDAY=-30", counted],
      ["FREQ=DAILY;BYMONTHDAY=-1", counted],
      ["FREQ=HOURLY;BYDAY=1TU", counted],
    ])
      expect(refusalOf(withRule(rule!), patient).message, rule).toBe(
        never(rule!).replace("matches it)", `matches it${note})`),
      );
    // An interval that keeps only years no 29 February falls in: 2025, 2029, 2033 … never a leap year.
    expect(
      refusalOf(withRule("FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29", "20250301T020000Z"), patient).message,
    ).toBe(never("FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29"));
    // Rules whose dates are rare but real are read: a leap day, a fifth Monday of February (2044), a 53rd week.
    for (const rule of [
      "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
      "FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29",
      "FREQ=MONTHLY;BYMONTH=2;BYDAY=5MO",
      "FREQ=YEARLY;BYWEEKNO=53;BYDAY=TH",
      "FREQ=MONTHLY;BYMONTHDAY=-1",
      "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
      "FREQ=DAILY;BYMONTH=3,4",
    ])
      expect(() => importTimetable(emptyWeek(), withRule(rule), patient), rule).not.toThrow(/gives no date/);
  });

  test("a hostile import and a good one sent together: the hostile one is refused, the good one imported", async () => {
    const [hostile, good] = await Promise.all([
      Promise.resolve().then(() => importCalendarTool.run(emptyWeek(), { ics: farSecondly })),
      Promise.resolve().then(() => importCalendarTool.run(emptyWeek(), { ics: fixture("shanghai-lecture.ics") })),
    ]);
    expect(hostile).toMatchObject({ ok: false, content: `error: ${steps("250,000")}` });
    expect(good.ok, good.content).toBe(true);
    expect(good.state!.tasks.at(-1)).toMatchObject({
      name: "Linear algebra lecture",
      slots: [{ day: 1, start: 3, end: 4 }],
    });
  });

  test("rules RFC 5545 forbids, and an unknown time zone, are typed refusals naming what is wrong", () => {
    expect(refusalOf(fixture("weekly-bymonthday.ics")).message).toBe(
      'The recurrence rule of "Seminar" cannot be used: For WEEKLY recurrences neither BYMONTHDAY nor BYYEARDAY may appear',
    );
    // A numbered weekday in a WEEKLY rule: ical.js read "the second Monday" as every Monday and imported it so.
    for (const [byDay, told] of [
      ["2MO", "2MO"],
      ["TU,-1FR", "-1FR"],
    ])
      expect(
        refusalOf(fixture("weekly-bymonthday.ics").replace("FREQ=WEEKLY;BYMONTHDAY=3", `FREQ=WEEKLY;BYDAY=${byDay}`))
          .message,
      ).toBe(
        `The recurrence rule of "Seminar" cannot be used: a WEEKLY rule numbers a weekday (BYDAY=${told}), which RFC 5545 allows only in a MONTHLY or YEARLY rule (FREQ=MONTHLY;BYDAY=2MO is the second Monday of each month)`,
      );
    expect(refusalOf(fixture("bad-byyearday.ics")).message).toMatch(
      /^The calendar file cannot be read: BYYEARDAY: invalid value "400"|^The recurrence rule of "Yearly talk" cannot be used: BYYEARDAY: invalid value "400"/,
    );
    expect(refusalOf(fixture("unknown-zone.ics")).message).toBe(
      'The time zone "Mars/Olympus" of "Olympus lecture" is neither defined in the file (VTIMEZONE) nor a known IANA time zone',
    );
  });

  test("a rule ical.js cannot step through is refused in words that say why, not in the library's own guard words", () => {
    // 5,000 BYDAY values (ical.js keeps the 371 that differ): ical.js steps to one Monday twice and threw "Same
    // occurrence found twice, protecting you from death by recursion", which the user was shown as it was.
    const lecture = fixture("shanghai-lecture.ics");
    const days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
    const byDay = Array.from({ length: 5_000 }, (_, index) => `${(index % 53) + 1}${days[index % 7]}`).join(",");
    const yearly = lecture.replace("END:VEVENT", `RRULE:FREQ=YEARLY;BYDAY=${byDay}\r\nEND:VEVENT`);
    const twice =
      'The recurrence rule of "Linear algebra lecture" cannot be used: the calendar reader steps to the same occurrence twice, so its occurrences cannot be listed';
    expect(refusalOf(yearly).message).toBe(twice);
    const week = emptyWeek();
    const outcome = importCalendarTool.run(week, { ics: yearly });
    expect(outcome).toMatchObject({ ok: false, content: `error: ${twice}` });
    expect(outcome).not.toHaveProperty("state");
    expect(week).toEqual(emptyWeek());
    // A daily series whose first 600 days are cancelled: ical.js gives up after 500 in a row ("max tries have occurred").
    const first = Date.parse("2022-08-01T02:00:00Z");
    const utc = (at: number) => new Date(at).toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
    const cancelled = Array.from({ length: 600 }, (_, day) => utc(first + day * 86_400_000));
    const daily = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//university//EN",
      "BEGIN:VEVENT",
      "UID:drill@university",
      "SUMMARY:Morning drill",
      `DTSTART:${utc(first)}`,
      `DTEND:${utc(first + 3_600_000)}`,
      "RRULE:FREQ=DAILY",
      `EXDATE:${cancelled.join(",")}`,
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    expect(refusalOf(daily).message).toBe(
      'The recurrence rule of "Morning drill" cannot be used: more than 500 of its occurrences in a row are cancelled (EXDATE), more than the calendar reader steps over',
    );
  });

  test("size, nesting, events and properties are bounded, each refusal naming its limit", () => {
    expect(refusalOf(fixture("deep-nesting.ics")).message).toBe("The calendar file nests components more than 8 deep.");
    const lecture = fixture("shanghai-lecture.ics");
    const event = lecture.slice(lecture.indexOf("BEGIN:VEVENT"), lecture.indexOf("END:VCALENDAR"));
    const many = lecture.replace(event, event.repeat(2_001));
    expect(refusalOf(many).message).toBe("The calendar file has more than 2,000 events.");
    const crowded = lecture.replace("END:VEVENT", `${"X-NOTE:a\r\n".repeat(200)}END:VEVENT`);
    expect(refusalOf(crowded).message).toBe("A component of the calendar file has more than 200 properties.");
    expect(refusalOf(`${lecture}${" ".repeat(1_000_000)}`).message).toBe(
      "The calendar file is larger than 1,000,000 characters.",
    );
  });

  test("occurrences are bounded: too many in the window, or too many stepped through before it", () => {
    const everyMinute = fixture("shanghai-lecture.ics").replace("END:VEVENT", "RRULE:FREQ=MINUTELY\r\nEND:VEVENT");
    // A generous deadline, so that the count, not the clock of a busy machine, is what ends these.
    const patient = { ...DEFAULT_CALENDAR_READ_LIMITS, deadlineMs: 60_000 };
    expect(refusalOf(everyMinute, patient).message).toBe("The file has more than 5,000 occurrences in the window");
    const longAgo = fixture("ancient-series.ics").replace("FREQ=DAILY", "FREQ=MINUTELY;INTERVAL=7");
    expect(refusalOf(longAgo, { ...patient, maxIterations: 20_000 }).message).toBe(
      "The file's recurrence rules give more than 20,000 occurrences before the window ends",
    );
  });

  /** The lecture of `shanghai-lecture.ics` as a weekly series on Mondays, with `lines` added to its VEVENT. */
  const weeklyWith = (...lines: string[]) =>
    fixture("shanghai-lecture.ics").replace(
      "END:VEVENT",
      ["RRULE:FREQ=WEEKLY;BYDAY=MO", ...lines, "END:VEVENT"].join("\r\n"),
    );
  /** `count` UTC date-times a day apart from 1990, at 01:00: none of them a Monday 10:00 in Shanghai. */
  const dates = (count: number) =>
    Array.from({ length: count }, (_, day) =>
      new Date(Date.UTC(1990, 0, 1, 1) + day * 86_400_000).toISOString().replace(/[-:]|\.\d+/g, ""),
    ).join(",");

  test("EXDATE and RDATE storms are refused by the reader, before any date is mapped; a series keeps what it can store", () => {
    // 50,000 EXDATEs were read, each mapped to the window's zone on the main thread (seconds outside the worker's
    // deadline), and stored: a series of 50,000 cancelled dates that every later expansion walked again.
    const storm = weeklyWith(`EXDATE:${dates(50_000)}`);
    expect(storm.length).toBeLessThan(DEFAULT_CALENDAR_READ_LIMITS.maxCharacters);
    expect(refusalOf(storm).message).toBe(
      '"Linear algebra lecture" lists more than 1,000 cancelled dates (EXDATE), more than a timetable has',
    );
    expect(refusalOf(weeklyWith(`RDATE:${dates(1_001)}`)).message).toBe(
      '"Linear algebra lecture" lists more than 1,000 added dates (RDATE), more than a timetable has',
    );
    const week = emptyWeek();
    expect(importCalendarTool.run(week, { ics: storm })).toMatchObject({ ok: false });
    expect(week).toEqual(emptyWeek());
    // Past the reader's count (a caller's own limits), the series is refused for what its stored form cannot keep:
    // 1,001 cancelled dates were imported, a schedule its own schema (`eventSeriesSchema`) refuses to read back.
    const many = { ...DEFAULT_CALENDAR_READ_LIMITS, maxDates: 100_000 };
    expect(refusalOf(weeklyWith(`EXDATE:${dates(1_001)}`), many).message).toBe(
      '"Linear algebra lecture" cannot be a timetable: it has more than the 1000 cancelled occurrences (EXDATE) a series may have. Nothing was imported.',
    );
    // 1,000 is what a series keeps: imported, and the schedule it makes is one the store reads back.
    const imported = importCalendarTool.run(emptyWeek(), { ics: weeklyWith(`EXDATE:${dates(1_000)}`) });
    expect(imported.ok, imported.content).toBe(true);
    const lecture = imported.state!.tasks.at(-1) as EventTask;
    expect(lecture.series!.cancelled).toHaveLength(1_000);
    expect(() => parseScheduleState(imported.state)).not.toThrow();
  });

  test("what only the deadline ended is refused before any rule is expanded: a huge INTERVAL, a zone's non-yearly rule", () => {
    // A deadline far past what these take when refused: the refusal, not the clock, is what ends them. Without the
    // checks a huge weekly INTERVAL spun inside ical.js until the deadline, and a VTIMEZONE's daily rule (or a
    // yearly one of 336 dates) from 1601 took seconds of it, holding the process all that time.
    const patient = { ...DEFAULT_CALENDAR_READ_LIMITS, deadlineMs: 15_000 };
    // From the Monday before the window, so that ical.js has to step past its first occurrence to reach the window:
    // its work grows with the INTERVAL (100,000 weeks took a second), and 10,000,000 did not end within 30 s.
    const weekBefore = weeklyWith().replaceAll("20240325T", "20240318T");
    for (const interval of ["10000000", "99999999999999999999"])
      expect(refusalOf(weekBefore.replace("FREQ=WEEKLY", `FREQ=WEEKLY;INTERVAL=${interval}`), patient).message).toBe(
        `The recurrence rule of "Linear algebra lecture" cannot be used: INTERVAL=${Number(interval)} is more than the 1,000 the calendar reader steps by`,
      );
    const zoned = (rule: string) =>
      fixture("shanghai-lecture.ics")
        .replace(
          "BEGIN:VEVENT",
          [
            "BEGIN:VTIMEZONE",
            "TZID:Campus",
            "BEGIN:STANDARD",
            "DTSTART:16010101T000000",
            rule,
            "TZOFFSETFROM:+0800",
            "TZOFFSETTO:+0800",
            "END:STANDARD",
            "END:VTIMEZONE",
            "BEGIN:VEVENT",
          ].join("\r\n"),
        )
        .replaceAll("TZID=Asia/Shanghai", "TZID=Campus");
    expect(refusalOf(zoned("RRULE:FREQ=DAILY"), patient).message).toBe(
      `The time zone "Campus" changes by a DAILY rule; a time zone's changes are yearly (FREQ=YEARLY)`,
    );
    const days = Array.from({ length: 28 }, (_, day) => day + 1).join(",");
    expect(
      refusalOf(zoned(`RRULE:FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=${days}`), patient).message,
    ).toBe(`The time zone "Campus" has a rule of more than 31 dates a year; a time zone changes once or twice a year`);
    // A zone's rule as Outlook and older writers give it (a day among seven, its hour and minute) is read.
    const outlook = zoned("RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=8,9,10,11,12,13,14;BYDAY=SU;BYHOUR=2;BYMINUTE=0");
    expect(importCalendarTool.run(emptyWeek(), { ics: outlook }).state!.tasks.at(-1)).toMatchObject({
      name: "Linear algebra lecture",
      slots: [{ day: 1, start: 3, end: 4 }],
    });
  });

  test("a file that starts with a byte order mark is read as without it", () => {
    // ical.js took the mark as part of the first line and failed with "Cannot read properties of undefined".
    const outcome = importCalendarTool.run(emptyWeek(), { ics: `\ufeff${fixture("shanghai-lecture.ics")}` });
    expect(outcome.ok, outcome.content).toBe(true);
    expect(outcome.state!.tasks.at(-1)).toMatchObject({
      name: "Linear algebra lecture",
      slots: [{ day: 1, start: 3, end: 4 }],
    });
  });

  test("a lecture series that began more than 1,000 occurrences before the window still reaches it", () => {
    // The count of occurrences stepped through is what is tested, not the clock: a busy machine may take longer than
    // the default 2 s to step through them.
    const imported = importTimetable(emptyWeek(), fixture("ancient-series.ics"), {
      ...DEFAULT_CALENDAR_READ_LIMITS,
      deadlineMs: 60_000,
    });
    expect(imported.events.at(-1)).toMatchObject({
      name: "Morning drill",
      slots: Array.from({ length: 7 }, (_, index) => ({ day: index + 1, start: 1, end: 2 })),
    });
  });

  test("a file of a hundred daily series is read on the default limits: each is proved to occur on its first day", () => {
    // Before a rule is expanded, the reader proves it gives a date; that proof made every period of a 400-year cycle
    // (146,097 for a DAILY rule, ~0.1–0.2 s) before looking at the first, so a dozen daily series ran out the 2 s of
    // CPU and a timetable of a hundred was refused whatever the machine. It looks at the periods one at a time now.
    const series = Array.from({ length: 100 }, (_, index) =>
      [
        "BEGIN:VEVENT",
        `UID:daily-${index}@tempo.test`,
        "DTSTAMP:20240301T000000Z",
        `DTSTART:20240301T${String(index % 24).padStart(2, "0")}0000Z`,
        `DTEND:20240301T${String(index % 24).padStart(2, "0")}3000Z`,
        `SUMMARY:Daily ${index}`,
        "RRULE:FREQ=DAILY",
        "END:VEVENT",
      ].join("\r\n"),
    );
    const text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tempo//test//EN", ...series, "END:VCALENDAR", ""].join(
      "\r\n",
    );
    const read = readCalendarEvents(text, "2024-03-25", "2024-04-01");
    expect(read.map((event) => event.summary)).toEqual(series.map((_, index) => `Daily ${index}`));
    // Each series once a day, on every date from the window's first to its last, at its own hour.
    const dates = Array.from({ length: 8 }, (_, day) =>
      new Date(Date.UTC(2024, 2, 25 + day)).toISOString().slice(0, 10),
    );
    for (const [index, event] of read.entries())
      expect(event.occurrences.map(({ start }) => [start.date, start.minutes])).toEqual(
        dates.map((date) => [date, (index % 24) * 60]),
      );
  });

  test("one file's VTIMEZONE does not change how another file is read: the hostile file first, then the victim's", () => {
    // 16:00–17:40 in the file's own "Asia/Shanghai" (UTC) is past midnight in Shanghai: refused, never approved.
    const bait = importCalendarTool.run(emptyWeek(), { ics: fixture("shanghai-redefined.ics") });
    expect(bait).toMatchObject({
      ok: false,
      content: "error: no event of the file can be added: Bait on 2024-03-27: it falls between slots",
    });
    const victim = importCalendarTool.run(emptyWeek(), { ics: fixture("shanghai-lecture.ics") });
    expect(victim.ok, victim.content).toBe(true);
    // 10:00–11:40 in Shanghai: slots 3–4 of Monday, not eight hours later.
    expect(victim.state!.tasks.at(-1)).toMatchObject({
      name: "Linear algebra lecture",
      slots: [{ day: 1, start: 3, end: 4 }],
    });
    // The file's own VTIMEZONE still counts for that file: its "Asia/Shanghai" is UTC, so 02:00 there is 10:00 here.
    const own = fixture("shanghai-redefined.ics")
      .replace("20240326T160000", "20240326T020000")
      .replace("20240326T174000", "20240326T034000");
    expect(importCalendarTool.run(emptyWeek(), { ics: own }).state!.tasks.at(-1)).toMatchObject({
      name: "Bait",
      slots: [{ day: 2, start: 3, end: 4 }],
    });
  });

  test("an IANA zone without VTIMEZONE is read from the tz database: 08:00 Berlin is 15:00 in Shanghai", () => {
    const outcome = importCalendarTool.run(emptyWeek(), { ics: fixture("berlin-lecture.ics") });
    expect(outcome.state!.tasks.at(-1)).toMatchObject({
      name: "Physics lecture",
      slots: [{ day: 1, start: 6, end: 7 }],
    });
  });

  test("imported names are plain text within add_task's 120 characters: no escape sequences, HTML or Markdown", () => {
    const outcome = importCalendarTool.run(emptyWeek(), { ics: fixture("markup-summary.ics") });
    expect(outcome.ok, outcome.content).toBe(true);
    const name = outcome.state!.tasks.at(-1)!.name;
    expect(name).toBe(`Linear algebra lecture ${"x".repeat(120 - "Linear algebra lecture ".length - 1)}…`);
    expect(name).toHaveLength(120);
    expect(describeTaskWrite(emptyWeek(), "import_calendar", { ics: fixture("markup-summary.ics") }, "en")).not.toMatch(
      // eslint-disable-next-line no-control-regex -- the names must hold no escape character
      /[\u001b<>*[\]]|owned|evil/,
    );
    // What PostgreSQL cannot store (NUL, a lone surrogate) and bidi overrides go too; an empty name gets a placeholder.
    expect(plainEventName("Lab\u0000 \ud800B\u202e\n2")).toBe("Lab B 2");
    expect(plainEventName("<b></b>**")).toBe("(untitled event)");
  });

  test("the card tells each event's day and clock times, and the conversion when the file's zone is not the window's", () => {
    const ics = fixture("shanghai-lecture.ics").replace(
      "END:VCALENDAR",
      fixture("berlin-lecture.ics").slice(fixture("berlin-lecture.ics").indexOf("BEGIN:VEVENT")),
    );
    expect(describeTaskWrite(emptyWeek(), "import_calendar", { ics }, "en")).toBe(
      "Import 2 event(s) from the calendar file: Linear algebra lecture — Mon 25 Mar 10:00–11:40; Physics lecture — Mon 25 Mar 15:00–16:40 (08:00 Europe/Berlin → 15:00 Asia/Shanghai)",
    );
    expect(describeTaskWrite(emptyWeek(), "import_calendar", { ics: fixture("ancient-series.ics") }, "en")).toBe(
      "Import 1 event(s) from the calendar file: Morning drill — Mon 25 Mar 08:00–09:40, Tue 26 Mar 08:00–09:40, Wed 27 Mar 08:00–09:40, Thu 28 Mar 08:00–09:40, and 3 more",
    );
    expect(describeTaskWrite(emptyWeek(), "import_calendar", { ics: fixture("berlin-lecture.ics") }, "zh")).toBe(
      "从日历文件导入 1 个日程：Physics lecture — 3月25日周一 15:00–16:40（Europe/Berlin 08:00 换算为 Asia/Shanghai 15:00）",
    );
  });

  test("an event inside the free slots a placed session's class keeps is left out, told; the week unchanged when none is left", () => {
    const week: ScheduleState = {
      ...emptyWeek(),
      categories: [{ id: "calculus", name: "Calculus", bufferSlots: 1 }],
      tasks: [
        {
          id: "review-1",
          name: "Review 1",
          source: "task_item",
          duration: 1,
          categoryId: "calculus",
          status: "placed",
          slots: [{ day: 1, start: 5, end: 5 }],
        },
      ],
    };
    // 14:55–16:40 on Monday is slots 6–7, right after the review at 14:00–14:45 (slot 5), which keeps one slot free.
    const crowding = fixture("shanghai-lecture.ics")
      .replace("20240325T100000", "20240325T145500")
      .replace("20240325T114000", "20240325T164000");
    const refused = importCalendarTool.run(week, { ics: crowding });
    expect(refused).toMatchObject({
      ok: false,
      content: expect.stringMatching(
        /^error: no event of the file can be added: Linear algebra lecture: task review-1 "Review 1" keeps 1 free slot\(s\) around it \(its class "Calculus"\), but event linear-algebra-lecture "Linear algebra lecture" is at day 1 slot 6/,
      ),
    });
    expect(refused.state).toBeUndefined();
    // With an event that keeps clear of the buffer in the same file, that one is imported and the other told.
    const both = crowding.replace(
      "END:VCALENDAR",
      fixture("berlin-lecture.ics")
        .slice(fixture("berlin-lecture.ics").indexOf("BEGIN:VEVENT"))
        .replace("20240325T080000", "20240326T080000")
        .replace("20240325T094000", "20240326T094000"),
    );
    const imported = importCalendarTool.run(week, { ics: both });
    expect(imported.content).toMatch(
      /^imported 1 event\(s\): physics-lecture "Physics lecture"; left out: Linear algebra lecture: task review-1 "Review 1" keeps 1 free slot/,
    );
  });
});

/** `text` as a literal part of a regular expression. */
function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
