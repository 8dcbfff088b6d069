/**
 * `/import <file.ics>` and `/export <file.ics>` in the chat loop, in-process on the offline policy and the sample week:
 * a file is sent through the import_calendar write — its card comes first and nothing is stored before it is
 * approved; a missing file, a folder or text that is not iCalendar is told and nothing changes; /export writes the week.
 */
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import ICAL from "ical.js";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ThreadRegistry } from "../../cli/thread-registry.js";
import { typedChat } from "./support/typed-chat.js";
import { readCalendarFile } from "../../cli/calendar-files.js";
import { exportCalendar } from "../../tools/schedule/calendar-files.js";
import { calendarImportMessage, requestedCalendarFile } from "../../contracts/attached-calendar.js";
import {
  episodesNamespace,
  factsNamespace,
  preferencesNamespace,
  taskStateNamespace,
} from "../../memory/namespaces.js";
import { halfPlacedWeek, offlineTempo } from "../graph/support/offline-conversation.js";
import { oneEventCalendar, SEMINAR_CALENDAR } from "../support/calendars.js";

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(tmpdir(), "tempo-ics-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

/** A graph on the offline policy and the half-placed week, with long-term memory in `store` when given. */
const tempoWith = (store?: InMemoryStore) =>
  offlineTempo(halfPlacedWeek(), () => new Date("2024-03-13T02:00:00Z"), store ? { store } : {});

/**
 * Runs the chat with `lines` typed ahead on the offline policy (a fresh graph unless `tempo` is given, on thread
 * `threadId`); the output, and the user's schedule after.
 */
async function chat(
  lines: string[],
  options: { tempo?: Awaited<ReturnType<typeof tempoWith>>; threadId?: string; drawn?: boolean } = {},
) {
  const tempo = options.tempo ?? (await tempoWith());
  const output = await typedChat(lines, {
    graph: tempo.graph,
    userId: "student",
    threadId: options.threadId ?? "ics-1",
    registry: new ThreadRegistry(path.join(directory, "threads.json")),
    exportCalendar: async (user: string) => exportCalendar(await tempo.repository.load(user)),
    // The debug view: these tests read the write card's arguments (how the file is named in them).
    verbose: true,
    // The week drawn under a write card, as the terminal chat draws it, on the chat's clock.
    ...(options.drawn
      ? {
          loadSchedule: (user: string) => tempo.repository.load(user),
          weekView: { now: () => new Date("2024-03-13T02:00:00Z") },
        }
      : {}),
  });
  return { output, schedule: await tempo.repository.load("student") };
}

/** A Chinese question, then `/clear` and `/import file` on the fresh thread, both cards approved. */
const chineseImport = (file: string, options: Parameters<typeof chat>[1]) =>
  chat(["我这周什么时候有空？", "/clear", `/import ${file}`, "a", "a"], options);

const seminarsIn = (schedule: Awaited<ReturnType<typeof chat>>["schedule"]) =>
  schedule.tasks.filter((task) => task.name === "History seminar");

/** Six weekly series of a spring term, each on a slot free in the half-placed week (Shanghai time). */
const TERM_SERIES = [
  ["art", "Art history seminar", "20240302T160000", "20240302T174000", "SA"],
  ["choir", "Choir rehearsal", "20240303T190000", "20240303T204000", "SU"],
  ["film", "Film club", "20240301T190000", "20240301T204000", "FR"],
  ["philosophy", "Philosophy elective", "20240228T160000", "20240228T174000", "WE"],
  ["statistics", "Statistics lab", "20240229T160000", "20240229T174000", "TH"],
  ["language", "Language exchange", "20240227T214500", "20240227T223000", "TU"],
] as const;

/** A real term timetable of a few KB: a VTIMEZONE, then the six series with their rooms and notes. */
const TERM_TIMETABLE = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//University//Timetable 2024 spring//EN",
  "CALSCALE:GREGORIAN",
  "BEGIN:VTIMEZONE",
  "TZID:Asia/Shanghai",
  "BEGIN:STANDARD",
  "DTSTART:19700101T000000",
  "TZOFFSETFROM:+0800",
  "TZOFFSETTO:+0800",
  "TZNAME:CST",
  "END:STANDARD",
  "END:VTIMEZONE",
  ...TERM_SERIES.flatMap(([id, name, start, end, day]) => [
    "BEGIN:VEVENT",
    `UID:${id}-2024-spring@timetable.university.edu`,
    "DTSTAMP:20240220T000000Z",
    `DTSTART;TZID=Asia/Shanghai:${start}`,
    `DTEND;TZID=Asia/Shanghai:${end}`,
    `RRULE:FREQ=WEEKLY;BYDAY=${day};UNTIL=20240630T000000Z`,
    `SUMMARY:${name}`,
    `LOCATION:Main building, room ${id.length}01`,
    `DESCRIPTION:Spring term 2024, ${name}. Bring the reader; attendance is recorded.`,
    "END:VEVENT",
  ]),
  "END:VCALENDAR",
  "",
].join("\r\n");

describe("/import and /export in the terminal chat", () => {
  test("/import sends the file through import_calendar: the plan card, then the write's card, and only the approval stores it", async () => {
    const file = path.join(directory, "seminar.ics");
    await fs.writeFile(file, SEMINAR_CALENDAR);
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

  test("undo that, after an import: the card names the event to remove, and its approval takes the import back", async () => {
    const file = path.join(directory, "seminar.ics");
    await fs.writeFile(file, SEMINAR_CALENDAR);
    const tempo = await tempoWith();
    const imported = await chat([`/import ${file}`, "a", "a"], { tempo });
    expect(seminarsIn(imported.schedule)).toHaveLength(1);
    const undone = await chat(["undo that", "a", "a"], { tempo });
    expect(undone.output).toContain('Remove the event "History seminar" (Sun 17 Mar, 14:00–15:40)');
    // The answer says what the undo did: never "nothing to undo" over the applied removal.
    expect(undone.output).toContain('tempo> Done: undid the last change: removed "History seminar".');
    expect(undone.output).not.toMatch(/nothing I can undo|schedule is unchanged/);
    // Undo again: the undo's own card (remove_event) is reversed, the seminar put back where it was.
    const redone = await chat(["undo that", "a", "a"], { tempo });
    expect(redone.output).toContain('Put back the removed event "History seminar"');
    expect(seminarsIn(redone.schedule).map((task) => task.slots)).toEqual([[{ day: 7, start: 5, end: 6 }]]);
    // And once more: the put-back event is removed again — every card's writes are undone, whatever they were.
    const again = await chat(["undo that", "a", "a"], { tempo });
    expect(again.output).toContain('Remove the event "History seminar"');
    expect(seminarsIn(again.schedule)).toEqual([]);
    expect(seminarsIn(undone.schedule)).toEqual([]);
    expect(undone.schedule).toEqual(halfPlacedWeek());
  });

  test("a missing file, a folder and a file that is not iCalendar are told, and nothing is sent or stored", async () => {
    const notCalendar = path.join(directory, "notes.ics");
    await fs.writeFile(notCalendar, "shopping list: milk, eggs\n");
    const { output, schedule } = await chat([
      `/import ${path.join(directory, "missing.ics")}`,
      `/import ${directory}`,
      `/import ${notCalendar}`,
      "/import",
    ]);
    expect(output).toContain(
      `Cannot import ${path.join(directory, "missing.ics")}: there is no such file. Nothing was changed.`,
    );
    expect(output).toContain(`Cannot import ${directory}: it is a folder. Nothing was changed.`);
    expect(output).toMatch(
      new RegExp(
        `Cannot import ${notCalendar.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: it is not a valid iCalendar \\(\\.ics\\) file \\(.+\\)\\. Nothing was changed\\.`,
      ),
    );
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

  test("a term timetable of a few KB imports offline: its whole text reaches import_calendar, whatever the goal keeps", async () => {
    expect(TERM_TIMETABLE.length).toBeGreaterThan(2_000);
    const file = path.join(directory, "spring-term.ics");
    await fs.writeFile(file, TERM_TIMETABLE);
    const { output, schedule } = await chat([`/import ${file}`, "a", "a"]);
    const imported = schedule.tasks.filter((task) => TERM_SERIES.some(([, name]) => task.name === name));
    expect(imported.map((task) => task.name).sort()).toEqual(TERM_SERIES.map(([, name]) => name).sort());
    expect(output).toContain("Import 6 event(s) from the calendar file:");
    expect(output).toMatch(/tempo> Done: imported 6 event\(s\)/);
  });

  test("a calendar as large as a message may be imports offline, though the execute prompt cuts its text to the budget", async () => {
    const file = path.join(directory, "full.ics");
    // The seminar with notes that fill the message to its 100,000 characters exactly.
    const room = 100_000 - calendarImportMessage("full.ics", "").length;
    const full = SEMINAR_CALENDAR.replace(
      "SUMMARY:History seminar",
      `SUMMARY:History seminar\r\nDESCRIPTION:${"n".repeat(room - SEMINAR_CALENDAR.trim().length - "\r\nDESCRIPTION:".length)}`,
    );
    expect(calendarImportMessage("full.ics", full)).toHaveLength(100_000);
    await fs.writeFile(file, full);
    const { output, schedule } = await chat([`/import ${file}`, "a", "a"]);
    expect(seminarsIn(schedule).map((task) => task.slots)).toEqual([[{ day: 7, start: 5, end: 6 }]]);
    expect(output).toContain("characters of 1 message(s) were cut from the middle");
    expect(output).toMatch(/tempo> Done: imported 1 event\(s\): .*"History seminar"/);
  });

  test("after a failed /import, the next /import sends its own file to import_calendar — on the same thread, and after /clear", async () => {
    const old = path.join(directory, "lectures.ics");
    // A year before the window: none of it can be added, so the import fails.
    await fs.writeFile(old, oneEventCalendar("old", "Old lecture", "20230317T060000Z", "20230317T074000Z"));
    const next = path.join(directory, "lectures2.ics");
    await fs.writeFile(next, oneEventCalendar("new", "New seminar", "20240317T060000Z", "20240317T074000Z"));
    // With long-term memory, as `npm start` runs: the failed task is an episode and the user's task summary.
    const tempo = await tempoWith(new InMemoryStore());
    const sameThread = await chat([`/import ${old}`, "a", `/import ${next}`, "a", "i"], { tempo });
    expect(sameThread.output).toContain("no event of the file can be added (none falls in the window)");
    const secondTask = sameThread.output.slice(sameThread.output.indexOf(`you> /import ${next}`));
    expect(secondTask).toContain("Confirm write: import_calendar");
    expect(secondTask).toContain("Import 1 event(s) from the calendar file: New seminar");
    expect(secondTask).not.toContain("Old lecture");
    expect(secondTask).not.toContain("none falls in the window");

    const afterClear = await chat(["/clear", `/import ${next}`, "a", "a"], { tempo });
    expect(afterClear.output).toContain("Import 1 event(s) from the calendar file: New seminar");
    expect(afterClear.output).not.toContain("Old lecture");
    expect(afterClear.schedule.tasks.filter((task) => task.name === "New seminar").map((task) => task.slots)).toEqual([
      [{ day: 7, start: 5, end: 6 }],
    ]);
  });

  test("in a Chinese chat /import asks in Chinese, so the thread stays Chinese — on the same thread and after /clear", async () => {
    const file = path.join(directory, "seminar.ics");
    await fs.writeFile(file, SEMINAR_CALENDAR);
    const tempo = await tempoWith();
    const { output } = await chineseImport(file, { tempo });
    // The fresh thread has nothing of its own to read the language from but the request: the request is Chinese.
    const afterClear = output.slice(output.indexOf(`/import ${file}`));
    expect(afterClear).toContain("正在发送 seminar.ics 以便导入");
    expect(afterClear).toContain("┌─ 计划");
    expect(afterClear).toContain("从日历文件导入我的课表 seminar.ics（1 个日程，216 字节）");
    expect(afterClear).toContain("┌─ 确认修改：import_calendar");
    expect(afterClear).toContain("从日历文件导入 1 个日程：History seminar — 3月17日周日 14:00–15:40");
    expect(afterClear).toMatch(/tempo> 完成：已导入 1 个日程：“History seminar”。/);
    expect(afterClear).not.toMatch(/Confirm write|Plan:|Done:/);
    const seminars = (await tempo.repository.load("student")).tasks.filter((task) => task.name === "History seminar");
    expect(seminars.map((task) => task.slots)).toEqual([[{ day: 7, start: 5, end: 6 }]]);
    // On the thread of the Chinese question itself: the newest message that tells the language was the request.
    const sameThread = await chat(["我这周什么时候有空？", `/import ${file}`, "a", "i"], { threadId: "ics-zh" });
    const request = sameThread.output.slice(sameThread.output.indexOf(`/import ${file}`));
    expect(request).toContain("┌─ 确认修改：import_calendar");
    expect(request).not.toMatch(/Confirm write|Plan:/);
    // The same words read back: the file's name, and the request's text kept out of the goal.
    expect(requestedCalendarFile(calendarImportMessage("seminar.ics", SEMINAR_CALENDAR, "zh"))).toBe("seminar.ics");
  });

  test("a Chinese /import on a week half over: what the clock has passed is left out, and the answer says so in Chinese", async () => {
    // The chat's clock is Wednesday 13 March, 10:00 in Shanghai: Monday's lecture has passed, Sunday's seminar is ahead.
    // Monday's lecture at 21:45, a slot free that evening: only the clock leaves it out.
    const monday = oneEventCalendar("monday", "Monday lecture", "20240311T134500Z", "20240311T143000Z");
    const both = SEMINAR_CALENDAR.replace(
      "END:VCALENDAR",
      monday.slice(monday.indexOf("BEGIN:VEVENT"), monday.indexOf("END:VCALENDAR")) + "END:VCALENDAR",
    );
    const file = path.join(directory, "term.ics");
    await fs.writeFile(file, both);
    const tempo = await tempoWith();
    const { output } = await chineseImport(file, { tempo, drawn: true });
    // The drawing under the write card marks what the approval adds: the seminar, not the lecture the clock left out.
    expect(output).toContain("+ History seminar: 3月17日周日");
    expect(output).not.toContain("+ Monday lecture");
    const answer = output.slice(output.lastIndexOf("tempo> 完成："));
    expect(answer).toMatch(
      /^tempo> 完成：已导入 1 个日程：“History seminar”；未导入：Monday lecture：本窗口内的时间都已过去，未添加。/,
    );
    const schedule = await tempo.repository.load("student");
    expect(schedule.tasks.filter((task) => task.name === "Monday lecture")).toEqual([]);
    expect(schedule.tasks.filter((task) => task.name === "History seminar").map((task) => task.slots)).toEqual([
      [{ day: 7, start: 5, end: 6 }],
    ]);
  });

  test("the plan card, the goal in /state, the resume banner and the task summary name the file and its size, never its text", async () => {
    const file = path.join(directory, "seminar.ics");
    await fs.writeFile(file, SEMINAR_CALENDAR);
    const store = new InMemoryStore();
    const tempo = await tempoWith(store);
    const named = `Import my timetable from the calendar file seminar.ics (1 event, ${Buffer.byteLength(SEMINAR_CALENDAR.trim())} bytes)`;
    // Up to the write card: the plan card and /state there.
    const first = await chat([`/import ${file}`, "a", "/state"], { tempo, threadId: "shown" });
    expect(first.output).toContain(
      `│ Plan for: ${named}\n│ 1. Import the timetable from the calendar file seminar.ics`,
    );
    expect(first.output).toContain(`goal:    ${named}\n`);
    // The write card's arguments name it too (its description lists the events it adds).
    expect(first.output).toContain(
      `│ arguments: {"ics":"[calendar file: 1 event, ${Buffer.byteLength(SEMINAR_CALENDAR.trim())} bytes]"}\n`,
    );
    expect(first.output).not.toMatch(/BEGIN:VCALENDAR|SUMMARY:|DTSTART/);
    // The thread opened again: the banner names the goal as /state does; the card is rejected, so the task ends.
    const again = await chat(["i"], { tempo, threadId: "shown" });
    expect(again.output).toContain(`Thread shown (user student): waiting_user_confirmation — goal: ${named}\n`);
    const remembered = [
      taskStateNamespace("student"),
      episodesNamespace("student"),
      factsNamespace("student"),
      preferencesNamespace("student"),
    ];
    const values = (await Promise.all(remembered.map((namespace) => store.search(namespace, { limit: 100 }))))
      .flat()
      .map((item) => JSON.stringify(item.value));
    expect(values.join("\n")).toContain(named);
    // The card's words may be recalled ("Import 1 event(s) … History seminar"); the file's text never is.
    expect(values.join("\n")).not.toMatch(/BEGIN:VCALENDAR|SUMMARY:|DTSTART|UID:/);
  });

  test("a file larger than a message may be, a binary file and a device are refused before anything is sent, the limit named", async () => {
    const huge = path.join(directory, "huge.ics");
    // 1 MB of calendar: far over the 100,000-character message limit (refused from its size, not read).
    await fs.writeFile(
      huge,
      SEMINAR_CALENDAR.replace(
        "SUMMARY:History seminar",
        `SUMMARY:History seminar\r\nDESCRIPTION:${"x".repeat(1024 * 1024)}`,
      ),
    );
    // Just over the limit in characters, though under three times it in bytes: refused once read.
    const over = path.join(directory, "over.ics");
    await fs.writeFile(
      over,
      SEMINAR_CALENDAR.replace(
        "SUMMARY:History seminar",
        `SUMMARY:History seminar\r\nDESCRIPTION:${"y".repeat(100_000)}`,
      ),
    );
    const binary = path.join(directory, "photo.ics");
    await fs.writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x80]));
    const { output, schedule } = await chat([
      `/import ${huge}`,
      `/import ${over}`,
      `/import ${binary}`,
      "/import /dev/null",
    ]);
    // The message holds the request's words and the file's name too: 55 characters for "huge.ics" or "over.ics".
    const limit =
      "and a message holds at most 100,000 characters (the maxMessageCharacters setting), the request's own words included, so the file may have at most 99,945. Nothing was changed.";
    expect(output).toContain(
      `Cannot import ${huge}: it is too large to send: ${(await fs.stat(huge)).size.toLocaleString("en")} bytes, ${limit}`,
    );
    expect(output).toContain(
      `Cannot import ${over}: it is too large to send: ${(await fs.readFile(over, "utf8")).trim().length.toLocaleString("en")} characters, ${limit}`,
    );
    expect(output).toContain(
      `Cannot import ${binary}: it is not a text file (its bytes are not UTF-8 text); an iCalendar file is text. Nothing was changed.`,
    );
    expect(output).toContain("Cannot import /dev/null: it is not a regular file. Nothing was changed.");
    expect(output).not.toContain("Sending");
    expect(output).not.toContain("characters; the limit is");
    expect(schedule).toEqual(halfPlacedWeek());
  });
});

describe("a file that is not a calendar, for a Chinese user", () => {
  test("is told in Chinese, quoting the line of the file the parser stopped at, not the parser's English", async () => {
    const file = path.join(directory, "notes.ics");
    await fs.writeFile(file, "hello");
    const reading = await readCalendarFile(file, { maxMessageCharacters: 100_000 }, "zh");
    expect(reading).toEqual({
      ok: false,
      message: `无法导入 ${file}：它不是有效的 iCalendar（.ics）文件（无法解析：“hello”）。没有做任何修改。`,
    });
  });
});
