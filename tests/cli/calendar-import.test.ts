/**
 * `/import <file.ics>` and `/export <file.ics>` in the chat loop, in-process on the offline policy and the sample week:
 * a file is sent through the import_calendar write — its card comes first and nothing is stored before it is
 * approved; a missing file, a folder or text that is not iCalendar is told and nothing changes; /export writes the week.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { PassThrough, Writable } from "node:stream";
import ICAL from "ical.js";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { LineReader } from "../../cli/line-reader.js";
import { ChatSession } from "../../cli/session.js";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { exportCalendar } from "../../tools/schedule/calendar-files.js";
import { halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";

/** A seminar on Sunday 17 March 2024, 14:00–15:40 in Shanghai (06:00–07:40 UTC): free in the sample week. */
const SEMINAR = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tempo tests//EN", "BEGIN:VEVENT", "UID:seminar-1@uni", "DTSTAMP:20240301T000000Z", "DTSTART:20240317T060000Z", "DTEND:20240317T074000Z", "SUMMARY:History seminar", "END:VEVENT", "END:VCALENDAR", ""].join("\r\n");

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-ics-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

/** Runs the chat with `lines` typed ahead on the offline policy; the output, and the user's schedule after. */
async function chat(lines: string[]) {
  const tempo = await offlineTempo(halfPlacedWeek(), () => new Date("2024-03-13T02:00:00Z"));
  let output = "";
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => ((output += chunk.toString()), done()) });
  const stdin = new PassThrough();
  const input = new LineReader(createInterface({ input: stdin, output: sink, terminal: false }), true, (text) => (output += text));
  stdin.end([...lines, ""].join("\n"));
  const registry = new ThreadRegistry(path.join(directory, "threads.json"));
  const exportCalendarText = async (user: string) => exportCalendar(await tempo.repository.load(user));
  await new ChatSession({ graph: tempo.graph, userId: "student", threadId: "ics-1", registry, input, write: (text) => (output += text), exportCalendar: exportCalendarText }).run();
  return { output, schedule: await tempo.repository.load("student") };
}

const seminarsIn = (schedule: Awaited<ReturnType<typeof chat>>["schedule"]) => schedule.tasks.filter((task) => task.name === "History seminar");

describe("/import and /export in the terminal chat", () => {
  test("/import sends the file through import_calendar: the plan card, then the write's card, and only the approval stores it", async () => {
    const file = path.join(directory, "seminar.ics");
    await fs.writeFile(file, SEMINAR);
    // Stop at the write card (the input ends): nothing is stored yet.
    const waiting = await chat([`/import ${file}`, "a"]);
    expect(waiting.output).toContain("Sending seminar.ics to be imported; you will see what it adds on a card first.");
    expect(waiting.output).toContain("Confirm write: import_calendar");
    expect(waiting.output).toContain("Import 1 event(s) from the calendar file: History seminar");
    expect(seminarsIn(waiting.schedule)).toEqual([]);
    // Approved: the event is on Sunday 14:00–15:40 (slots 5-6), and the answer says what came in.
    const done = await chat([`/import ${file}`, "a", "a"]);
    expect(seminarsIn(done.schedule).map((task) => task.slots)).toEqual([[{ day: 7, start: 5, end: 6 }]]);
    expect(done.output).toMatch(/tempo> Done: imported 1 event\(s\): .*"History seminar"/);
  });

  test("a missing file, a folder and a file that is not iCalendar are told, and nothing is sent or stored", async () => {
    const notCalendar = path.join(directory, "notes.ics");
    await fs.writeFile(notCalendar, "shopping list: milk, eggs\n");
    const { output, schedule } = await chat([`/import ${path.join(directory, "missing.ics")}`, `/import ${directory}`, `/import ${notCalendar}`, "/import"]);
    expect(output).toContain(`Cannot import ${path.join(directory, "missing.ics")}: there is no such file. Nothing was changed.`);
    expect(output).toContain(`Cannot import ${directory}: it is a folder. Nothing was changed.`);
    expect(output).toMatch(new RegExp(`Cannot import ${notCalendar.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: it is not a valid iCalendar \\(\\.ics\\) file \\(.+\\)\\. Nothing was changed\\.`));
    expect(output).toContain("Usage: /import <file.ics>.");
    expect(output).not.toContain("Confirm");
    expect(schedule).toEqual(halfPlacedWeek());
  });

  test("/export writes the week as iCalendar: every event and placed review, at its date and time", async () => {
    const file = path.join(directory, "week.ics");
    const { output } = await chat([`/export ${file}`]);
    expect(output).toContain(`Wrote your week to ${file}.`);
    const calendar = new ICAL.Component(ICAL.parse(await fs.readFile(file, "utf8")));
    const events = calendar.getAllSubcomponents("vevent").map((component) => new ICAL.Event(component));
    // 18 timetable events and the 4 reviews placed in the half-placed week.
    expect(events).toHaveLength(22);
    const matrix = events.find((event) => event.summary === "Matrix operations review")!;
    expect(matrix.startDate.toJSDate().toISOString()).toBe("2024-03-12T02:00:00.000Z");
  });
});
