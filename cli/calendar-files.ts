/**
 * The terminal chat's calendar files: `/import` reads a local .ics file and checks it can be sent before anything is
 * — a bad path, a folder, an unreadable file, a file larger than a message may be, bytes that are not text, or text
 * that is not iCalendar (ical.js) is told, and nothing is sent or stored; `/export` writes the week's iCalendar text to a local file.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import ICAL from "ical.js";
import { calendarImportMessage } from "../contracts/attached-calendar.js";

/** A calendar file read for import, or why it cannot be. */
export type CalendarFileReading = { ok: true; fileName: string; ics: string } | { ok: false; message: string };

/** What bounds a file `/import` may send. */
export interface CalendarFileLimits {
  /** The longest message the graph takes (`maxMessageCharacters`): the file's text and the request's own words. */
  maxMessageCharacters: number;
}

/**
 * Reads `file` and checks, before anything is sent, that it can go: it exists and is a regular file, its message
 * (`calendarImportMessage`: the request's words and the text) fits the graph's message limit — a file far over it is
 * refused from its size on disk, never read whole — it is UTF-8 text, and it is an iCalendar file with at least one
 * event. Every refusal says why, naming the limit; nothing is sent or stored.
 */
export async function readCalendarFile(file: string, limits: CalendarFileLimits): Promise<CalendarFileReading> {
  const refuse = (why: string): CalendarFileReading => ({
    ok: false,
    message: `Cannot import ${file}: ${why}. Nothing was changed.`,
  });
  const fileName = path.basename(file);
  // The most characters the file may have: the message also holds the request's words and the file's name.
  const room = limits.maxMessageCharacters - calendarImportMessage(fileName, "").length;
  const tooLarge = (size: string) =>
    `it is too large to send: ${size}, and a message holds at most ${limits.maxMessageCharacters.toLocaleString("en")} characters (the maxMessageCharacters setting), the request's own words included, so the file may have at most ${Math.max(0, room).toLocaleString("en")}`;
  let bytes: Buffer;
  try {
    const found = await stat(file);
    if (found.isDirectory()) return refuse("it is a folder");
    if (!found.isFile()) return refuse("it is not a regular file");
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit: a file this large cannot fit, so it is not read.
    if (found.size > 3 * Math.max(0, room)) return refuse(tooLarge(`${found.size.toLocaleString("en")} bytes`));
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(
      code === "ENOENT"
        ? "there is no such file"
        : code === "EISDIR"
          ? "it is a folder"
          : code === "EACCES"
            ? "it cannot be read (permission denied)"
            : (error as Error).message,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return refuse("it is not a text file (its bytes are not UTF-8 text); an iCalendar file is text");
  }
  if (text.includes("\u0000")) return refuse("it is not a text file (it holds NUL bytes); an iCalendar file is text");
  if (calendarImportMessage(fileName, text).length > limits.maxMessageCharacters)
    return refuse(tooLarge(`${text.trim().length.toLocaleString("en")} characters`));
  try {
    const calendar = new ICAL.Component(ICAL.parse(text));
    if (calendar.name !== "vcalendar") throw new Error("it holds no VCALENDAR");
    if (calendar.getAllSubcomponents("vevent").length === 0) throw new Error("it holds no event (VEVENT)");
  } catch (error) {
    return refuse(
      `it is not a valid iCalendar (.ics) file (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return { ok: true, fileName, ics: text };
}

/** Writes the week's iCalendar text to `file`; a message saying where it went, or why it did not. */
export async function writeCalendarFile(file: string, ics: string): Promise<string> {
  try {
    await writeFile(file, ics, "utf8");
    return `Wrote your week to ${file}.`;
  } catch (error) {
    return `Cannot write ${file}: ${(error as Error).message}.`;
  }
}
