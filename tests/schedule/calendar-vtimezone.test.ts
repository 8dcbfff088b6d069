/**
 * An exported calendar file names its zone with a VTIMEZONE (RFC 5545 §3.6.5), so a reader that does not know IANA
 * names reads every time at its instant: ical.js, evaluating the file's own VTIMEZONE, is the independent reader here.
 * The week is in Berlin and its summer time begins inside it (Sunday 31 March 2024, 02:00 → 03:00); a weekly series
 * goes on into the summer and past the autumn's change. One-off events are written in the window's zone as series
 * are, so export → import shows no zone to convert.
 */
import ICAL from "ical.js";
import { describe, expect, test } from "vitest";
import { datedWindow } from "../../tools/schedule/calendar.js";
import { instantOf } from "../../tools/schedule/calendar-files.js";
import {
  describeTaskWrite,
  exportCalendarTool,
  importCalendarTool,
  type ScheduleState,
} from "../../tools/schedule/index.js";
import { offsetChanges, vtimezone } from "../../tools/schedule/vtimezone.js";

const BERLIN = "Europe/Berlin";

/** A Berlin week: a weekly lecture from Monday 25 March (08:00–09:40), a one-off lab Sunday 31 March 14:00–15:40. */
function berlinWeek(): ScheduleState {
  const ics = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//university//EN",
    "BEGIN:VEVENT",
    "UID:lecture@university",
    "SUMMARY:Algebra lecture",
    "DTSTART;TZID=Europe/Berlin:20240325T080000",
    "DTEND;TZID=Europe/Berlin:20240325T094000",
    "RRULE:FREQ=WEEKLY;COUNT=40",
    "END:VEVENT",
    "BEGIN:VEVENT",
    "UID:lab@university",
    "SUMMARY:Physics lab",
    "DTSTART;TZID=Europe/Berlin:20240331T140000",
    "DTEND;TZID=Europe/Berlin:20240331T154000",
    "END:VEVENT",
    "END:VCALENDAR",
  ].join("\r\n");
  const window = datedWindow({ firstDate: "2024-03-25", days: 7, timeZone: BERLIN });
  const imported = importCalendarTool.run({ window, categories: [], tasks: [] }, { ics });
  expect(imported.ok, imported.content).toBe(true);
  return imported.state!;
}

/** Each VEVENT's occurrences as ical.js reads them: `name start end` in UTC, the first `count` of each. */
function readByIcalJs(text: string, count: number): string[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents("vevent").flatMap((component) => {
    const event = new ICAL.Event(component);
    const read: string[] = [];
    const iterator = event.iterator();
    for (let next = iterator.next(); next && read.length < count; next = iterator.next()) {
      const { startDate, endDate } = event.getOccurrenceDetails(next);
      read.push(`${event.summary} ${startDate.toJSDate().toISOString()} ${endDate.toJSDate().toISOString()}`);
    }
    return read;
  });
}

describe("an exported file's VTIMEZONE", () => {
  test("ical.js reads each time at its instant, across the spring and autumn changes of a summer-time zone", () => {
    const exported = exportCalendarTool.run(berlinWeek(), {});
    expect(exported.ok, exported.content).toBe(true);
    const read = readByIcalJs(exported.content, 40);
    const at = (date: string, start: string, end: string, name: string) =>
      `${name} ${instantOf(date, start, BERLIN).toISOString()} ${instantOf(date, end, BERLIN).toISOString()}`;
    // Winter (UTC+1) before the change, summer (UTC+2) after it, winter again from 28 October.
    expect(read).toContain("Algebra lecture 2024-03-25T07:00:00.000Z 2024-03-25T08:40:00.000Z");
    expect(read).toContain("Algebra lecture 2024-04-01T06:00:00.000Z 2024-04-01T07:40:00.000Z");
    expect(read).toContain("Algebra lecture 2024-10-28T07:00:00.000Z 2024-10-28T08:40:00.000Z");
    expect(read).toContain("Physics lab 2024-03-31T12:00:00.000Z 2024-03-31T13:40:00.000Z");
    // Every one of the series' 40 Mondays at 08:00 Berlin time, as the runtime's own zone data says.
    const mondays = read.filter((line) => line.startsWith("Algebra lecture"));
    expect(mondays).toHaveLength(40);
    mondays.forEach((line, index) => {
      const date = new Date(Date.UTC(2024, 2, 25 + 7 * index)).toISOString().slice(0, 10);
      expect(line).toBe(at(date, "08:00", "09:40", "Algebra lecture"));
    });
  });

  test("export → import: the one-off events come back in the window's zone, with no conversion to tell", () => {
    const week = berlinWeek();
    const exported = exportCalendarTool.run(week, {});
    const card = describeTaskWrite({ ...week, tasks: [] }, "import_calendar", { ics: exported.content }, "en");
    expect(card).toBe(
      "Import 2 event(s) from the calendar file: Algebra lecture — Mon 25 Mar 08:00–09:40; Physics lab — Sun 31 Mar 14:00–15:40",
    );
  });

  test("a week half over (Wednesday 10:30): the export re-imports with its passed times left out, the rest as they were", () => {
    const wednesday = new Date("2024-03-27T09:30:00Z").toISOString(); // 10:30 in Berlin (winter time)
    const week = { ...berlinWeek(), now: wednesday };
    const exported = exportCalendarTool.run(week, {});
    const empty = { ...week, tasks: [] };
    const again = importCalendarTool.run(empty, { ics: exported.content });
    expect(again.ok, again.content).toBe(true);
    // Monday's lecture has passed: said, and the series kept for the weeks after; Sunday's lab (after the spring
    // change) is ahead, at the time it was, with no zone to convert.
    expect(again.content).toContain("Algebra lecture: 1 of its times in this window have passed; they are left out");
    const byName = new Map(again.state!.tasks.map((task) => [task.name, task]));
    expect(byName.get("Algebra lecture")).toMatchObject({ slots: [] });
    const lab = week.tasks.find((task) => task.name === "Physics lab")!;
    expect(byName.get("Physics lab")?.slots).toEqual(lab.slots);
    expect(describeTaskWrite(empty, "import_calendar", { ics: exported.content }, "en")).not.toMatch(/→/);
  });

  test("a zone's changes of offset, each to its minute; none for a zone without summer time", () => {
    const year = [new Date("2024-01-01T00:00:00Z"), new Date("2024-12-31T00:00:00Z")] as const;
    expect(offsetChanges(BERLIN, ...year)).toEqual([
      { at: Date.parse("2024-03-31T01:00:00Z"), from: 60, to: 120 },
      { at: Date.parse("2024-10-27T01:00:00Z"), from: 120, to: 60 },
    ]);
    // Southern summer: Sydney leaves it in April and takes it again in October.
    expect(offsetChanges("Australia/Sydney", ...year)).toEqual([
      { at: Date.parse("2024-04-06T16:00:00Z"), from: 660, to: 600 },
      { at: Date.parse("2024-10-05T16:00:00Z"), from: 600, to: 660 },
    ]);
    expect(offsetChanges("Asia/Shanghai", ...year)).toEqual([]);
    expect(vtimezone("Asia/Kolkata", ...year)).toBe(
      [
        "BEGIN:VTIMEZONE",
        "TZID:Asia/Kolkata",
        "BEGIN:STANDARD",
        "DTSTART:19700101T000000",
        "TZOFFSETFROM:+0530",
        "TZOFFSETTO:+0530",
        "END:STANDARD",
        "END:VTIMEZONE",
        "",
      ].join("\r\n"),
    );
    // Observances start at the local time of the offset they end: 02:00 winter time, 03:00 summer time.
    const berlin = vtimezone(BERLIN, ...year);
    expect(berlin).toContain("BEGIN:DAYLIGHT\r\nDTSTART:20240331T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200");
    expect(berlin).toContain("BEGIN:STANDARD\r\nDTSTART:20241027T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100");
  });
});
