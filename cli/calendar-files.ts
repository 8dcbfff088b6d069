/**
 * The terminal chat's calendar files: `/import` reads a local .ics file and checks it is iCalendar (ical.js) before
 * anything is sent — a bad path, an unreadable file or text that is not iCalendar is told, and nothing is sent or
 * stored; `/export` writes the week's iCalendar text to a local file.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import ICAL from "ical.js";

/** A calendar file read for import, or why it cannot be. */
export type CalendarFileReading = { ok: true; fileName: string; ics: string } | { ok: false; message: string };

/** Largest file `/import` sends (the import tool takes up to 1,000,000 characters). */
const MAX_CHARACTERS = 1_000_000;

/** Reads `file` and checks it is an iCalendar file with at least one event. */
export async function readCalendarFile(file: string): Promise<CalendarFileReading> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "there is no such file" : code === "EISDIR" ? "it is a folder" : code === "EACCES" ? "it cannot be read (permission denied)" : (error as Error).message;
    return { ok: false, message: `Cannot import ${file}: ${why}. Nothing was changed.` };
  }
  if (text.length > MAX_CHARACTERS) return { ok: false, message: `Cannot import ${file}: it is larger than ${MAX_CHARACTERS.toLocaleString("en")} characters. Nothing was changed.` };
  try {
    const calendar = new ICAL.Component(ICAL.parse(text));
    if (calendar.name !== "vcalendar") throw new Error("it holds no VCALENDAR");
    if (calendar.getAllSubcomponents("vevent").length === 0) throw new Error("it holds no event (VEVENT)");
  } catch (error) {
    return { ok: false, message: `Cannot import ${file}: it is not a valid iCalendar (.ics) file (${error instanceof Error ? error.message : String(error)}). Nothing was changed.` };
  }
  return { ok: true, fileName: path.basename(file), ics: text };
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
