/**
 * A calendar file sent in a message (the terminal chat's `/import <file.ics>` sends `CALENDAR_IMPORT_PREFIX`, the
 * file's name, then its iCalendar text; a person may paste a calendar into Agent Chat UI), and how it travels: its
 * text belongs to the request that carries it, and only there. Everything else — the task's goal, `/state`, the cards,
 * the resume banner, the conversation as prompts show it, memory (TaskState, episodes, facts, preferences,
 * conversation summaries) — shows the file by name, event count and size (`withoutCalendarText`), so no file's text
 * ever reaches another request, another thread or a display. The execute stage gets the current request's files
 * whole (`attachedCalendars`), beside the prompt.
 */
import type { Language } from "./language.js";

/** How a message carrying a calendar file starts: `Import my timetable from the calendar file week.ics:`. */
export const CALENDAR_IMPORT_PREFIX = "Import my timetable from the calendar file";

/**
 * The same words in Chinese: a Chinese chat's `/import` sends them, so the request is the user's language (a fresh
 * thread after `/clear` reads its language from its messages alone, and the English words made it English).
 */
export const CALENDAR_IMPORT_PREFIX_ZH = "从日历文件导入我的课表";

const IMPORT_PREFIXES: Readonly<Record<Language, string>> = {
  en: CALENDAR_IMPORT_PREFIX,
  zh: CALENDAR_IMPORT_PREFIX_ZH,
};

/** Any language's prefix, as a regular expression's group that captures nothing. */
const ANY_PREFIX = `(?:${Object.values(IMPORT_PREFIXES).join("|")})`;

/** A calendar file a message carries: its name when the message gives one, and its iCalendar text, whole. */
export interface AttachedCalendar {
  /** The file's name (`/import` gives it); undefined for a calendar pasted without one. */
  fileName?: string;
  /** The iCalendar text, `BEGIN:VCALENDAR` to `END:VCALENDAR`. */
  ics: string;
}

/** The message that sends a calendar file's text to be imported (what `/import` sends), in the user's language. */
export function calendarImportMessage(fileName: string, ics: string, language: Language = "en"): string {
  return `${IMPORT_PREFIXES[language]} ${fileName}:\n\n${ics.trim()}\n`;
}

/** True for a request to import a calendar file: the message `/import` sends, or the goal made from it. */
export function isCalendarRequest(text: string): boolean {
  return Object.values(IMPORT_PREFIXES).some((prefix) => text.startsWith(`${prefix} `));
}

/**
 * One calendar's text: from a `BEGIN:VCALENDAR` line to its `END:VCALENDAR` line, or to the end of the text when
 * the text was cut before it (an old goal kept the first 1,000 characters of a message). Lines, not words: a
 * DESCRIPTION that mentions END:VCALENDAR does not end the calendar.
 */
const CALENDAR_BLOCK = /^[ \t]*BEGIN:VCALENDAR[ \t]*\r?$[\s\S]*?(?:^[ \t]*END:VCALENDAR[ \t]*(?=\r?$)|(?![\s\S]))/gim;

/** The header `/import` writes before the calendar: the prefix, the file's name, a colon, then blank space. */
const IMPORT_HEADER = new RegExp(`^(${ANY_PREFIX}) ([^\\n]+?):[ \\t]*\\r?\\n\\s*(?=BEGIN:VCALENDAR)`, "i");

/** True when a calendar block ends with its END:VCALENDAR line (not cut). */
function isWhole(block: string): boolean {
  return /END:VCALENDAR[ \t]*$/i.test(block);
}

/** The whole calendars a message carries, in order, the first with the file's name when the message is `/import`'s. */
export function attachedCalendars(text: string): AttachedCalendar[] {
  const header = IMPORT_HEADER.exec(text);
  const calendars: AttachedCalendar[] = [];
  for (const match of text.matchAll(CALENDAR_BLOCK)) {
    if (!isWhole(match[0])) continue;
    const named = header !== null && match.index === header[0].length + header.index;
    calendars.push({ ...(named ? { fileName: header[2]!.trim() } : {}), ics: match[0].trim() });
  }
  return calendars;
}

/**
 * How big a calendar is, for a person: "6 events, 2.6 KB", or "6 个日程，2.6 KB" (events are its VEVENTs, not their
 * occurrences).
 */
export function calendarSize(ics: string, language: Language = "en"): string {
  const events = ics.match(/^[ \t]*BEGIN:VEVENT[ \t]*\r?$/gim)?.length ?? 0;
  const size = byteSize(Buffer.byteLength(ics, "utf8"), language);
  return language === "zh" ? `${events} 个日程，${size}` : `${events} event${events === 1 ? "" : "s"}, ${size}`;
}

/** Bytes as a person reads them: "230 bytes" (230 字节), "2.6 KB", "1.0 MB". */
function byteSize(bytes: number, language: Language): string {
  if (bytes < 1024) return language === "zh" ? `${bytes} 字节` : `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The text with every calendar's text replaced by a mention of it: `/import`'s message becomes
 * "Import my timetable from the calendar file term.ics (6 events, 2.6 KB)" (and any words after the calendar), a
 * pasted calendar "[calendar file: 6 events, 2.6 KB]", a calendar cut short "[part of a calendar file: N characters]".
 * What the task's goal, displays and memory keep of a message. The mention is in the message's language: the Chinese
 * prefix's `/import` ("从日历文件导入我的课表 term.ics（6 个日程，2.6 KB）"), or a text with Chinese words around a
 * pasted calendar.
 */
export function withoutCalendarText(text: string): string {
  const header = IMPORT_HEADER.exec(text);
  if (header) {
    const rest = text.slice(header[0].length);
    const first = new RegExp(CALENDAR_BLOCK.source, "im").exec(rest);
    if (first && first.index === 0 && isWhole(first[0])) {
      const after = withoutCalendarText(rest.slice(first[0].length)).trim();
      const size =
        header[1] === CALENDAR_IMPORT_PREFIX_ZH
          ? `（${calendarSize(first[0], "zh")}）`
          : ` (${calendarSize(first[0])})`;
      return `${header[1]!} ${header[2]!.trim()}${size}${after ? `\n\n${after}` : ""}`;
    }
  }
  const zh = CJK.test(text.replace(CALENDAR_BLOCK, ""));
  return text.replace(CALENDAR_BLOCK, (block) =>
    isWhole(block)
      ? zh
        ? `[日历文件：${calendarSize(block.trim(), "zh")}]`
        : `[calendar file: ${calendarSize(block.trim())}]`
      : zh
        ? `[部分日历文件：${block.length} 个字符]`
        : `[part of a calendar file: ${block.length} characters]`,
  );
}

/** Chinese characters (as `languageOf` reads them). */
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/**
 * A value (a tool call's arguments) with every string in it passed through `withoutCalendarText`: what a prompt or a
 * display shows of a call that carried a calendar file — the call has happened; its text need not travel again.
 */
export function withCalendarsNamed<T>(value: T): T {
  if (typeof value === "string") return withoutCalendarText(value) as T;
  if (Array.isArray(value)) return value.map(withCalendarsNamed) as T;
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, withCalendarsNamed(entry)])) as T;
  return value;
}

/** The file's name a calendar request names ("Import my timetable from the calendar file term.ics (…)"), or undefined. */
export function requestedCalendarFile(request: string): string | undefined {
  return new RegExp(`^${ANY_PREFIX} (.+?)(?: \\(\\d+ events?, [^)]*\\)|（\\d+ 个日程，[^）]*）)?(?::|$|\\n)`).exec(
    request,
  )?.[1];
}

/** The prompt section, and the key of its structured data, that carries the current request's calendar files. */
export const ATTACHED_FILES_SECTION = "attached_files";

/** The current request's calendar files as a prompt section's text: each named, sized and whole. */
export function renderAttachedCalendars(calendars: readonly AttachedCalendar[]): string {
  return calendars
    .map(
      (calendar) =>
        `The calendar file ${calendar.fileName ?? "pasted in the message"} (${calendarSize(calendar.ics)}), attached to this request; pass its text unchanged as import_calendar's "ics":\n${calendar.ics}`,
    )
    .join("\n\n");
}

/** The calendar files of a prompt's structured data (`ATTACHED_FILES_SECTION`); [] when it carries none. */
export function attachedCalendarsIn(contextData: Readonly<Record<string, unknown>>): AttachedCalendar[] {
  const value = contextData[ATTACHED_FILES_SECTION];
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is AttachedCalendar =>
      typeof entry === "object" && entry !== null && typeof (entry as AttachedCalendar).ics === "string",
  );
}
