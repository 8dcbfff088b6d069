/**
 * The terminal chat's calendar files: `/import` reads a local .ics file and checks it can be sent before anything is
 * — a bad path, a folder, an unreadable file, a file larger than a message may be, bytes that are not text, or text
 * that is not iCalendar (ical.js) is told, and nothing is sent or stored; `/export` writes the week's iCalendar text to a local file.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import ICAL from "ical.js";
import { calendarImportMessage } from "../contracts/attached-calendar.js";
import type { Language } from "../contracts/language.js";
import { CALENDAR_FILE_WORDS as W, tell, type Words } from "./chat-words.js";

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
 * event. Every refusal says why, naming the limit, in the user's `language`; nothing is sent or stored.
 */
export async function readCalendarFile(
  file: string,
  limits: CalendarFileLimits,
  language: Language = "en",
): Promise<CalendarFileReading> {
  const refuse = (why: Words): CalendarFileReading => ({
    ok: false,
    message: tell(language, W.cannotImport(file, tell(language, why))),
  });
  const fileName = path.basename(file);
  // The most characters the file may have: the message also holds the request's words and the file's name.
  const room = limits.maxMessageCharacters - calendarImportMessage(fileName, "", language).length;
  const tooLarge = (size: number, unit: "bytes" | "characters") =>
    W.tooLarge(size, unit, limits.maxMessageCharacters, Math.max(0, room));
  let bytes: Buffer;
  try {
    const found = await stat(file);
    if (found.isDirectory()) return refuse(W.folder);
    if (!found.isFile()) return refuse(W.notRegular);
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit: a file this large cannot fit, so it is not read.
    if (found.size > 3 * Math.max(0, room)) return refuse(tooLarge(found.size, "bytes"));
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(
      code === "ENOENT"
        ? W.noSuchFile
        : code === "EISDIR"
          ? W.folder
          : code === "EACCES"
            ? W.permission
            : W.otherwise((error as Error).message),
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return refuse(W.notUtf8);
  }
  if (text.includes("\u0000")) return refuse(W.nulBytes);
  if (calendarImportMessage(fileName, text, language).length > limits.maxMessageCharacters)
    return refuse(tooLarge(text.trim().length, "characters"));
  try {
    const calendar = new ICAL.Component(ICAL.parse(text));
    if (calendar.name !== "vcalendar") throw new Error("it holds no VCALENDAR");
    if (calendar.getAllSubcomponents("vevent").length === 0) throw new Error("it holds no event (VEVENT)");
  } catch (error) {
    return refuse(W.notIcs(error instanceof Error ? error.message : String(error)));
  }
  return { ok: true, fileName, ics: text };
}

/** Writes the week's iCalendar text to `file`; a message saying where it went, or why it did not, in `language`. */
export async function writeCalendarFile(file: string, ics: string, language: Language = "en"): Promise<string> {
  try {
    await writeFile(file, ics, "utf8");
    return tell(language, W.wrote(file));
  } catch (error) {
    return tell(language, W.cannotWrite(file, (error as Error).message));
  }
}
