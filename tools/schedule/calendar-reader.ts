/**
 * Reading a user's iCalendar text within bounds that cannot be escaped (issue 44). The file is first measured here —
 * its size, its nesting, its count of events and properties — and then read and expanded by ical.js in a worker thread
 * started for this one file (`calendar-reader-worker.mjs`), with a memory limit (`resourceLimits`) and a deadline, and
 * terminated afterwards. A counter around `iterator.next()` is not enough: a rule that never occurs
 * (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`) spins inside ical.js's own loop; only ending the thread stops it.
 *
 * Tools are synchronous pure functions (`run(state, args)`, run as a trial, for the card and when applying), so the
 * reader waits synchronously: the worker answers on a MessagePort and raises a shared flag; this thread blocks in
 * `Atomics.wait` with a timeout and takes the answer with `receiveMessageOnPort`. The wait is bounded by the deadline
 * (2 s of the worker's own CPU time by default, `waitForWorker`), so the worst a file can do is hold the process that
 * long once per reading — longer only when the machine is busy, and never past the ceiling (30 s) — and is refused.
 * The work a rule causes inside ical.js is counted too (a budget of steps, in the worker), the same on any machine.
 * A fresh thread per file also means nothing one file defines (a VTIMEZONE) outlives it or reaches another file; the
 * next file's thread is started in advance (it has read nothing), so a reading does not wait for ical.js to load.
 *
 * Every refusal is a `CalendarFileError` (INVALID_INPUT) whose message names what was wrong or the limit hit.
 */
import { readFileSync } from "node:fs";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { TempoError } from "../../errors/index.js";

/** A calendar file that cannot be used. */
export class CalendarFileError extends TempoError {
  constructor(message: string) {
    super("INVALID_INPUT", message);
    this.name = "CalendarFileError";
  }
}

/** How far reading one calendar file may go. */
export interface CalendarReadLimits {
  /** Most characters of iCalendar text. */
  maxCharacters: number;
  /** Deepest nesting of components (VCALENDAR › VEVENT › VALARM is 3). */
  maxDepth: number;
  /** Most VEVENTs in one file. */
  maxEvents: number;
  /** Most properties in one component. */
  maxProperties: number;
  /** Most occurrences the file's rules may step through, those before the window included. */
  maxIterations: number;
  /** Most occurrences kept in the window, over the whole file. */
  maxOccurrences: number;
  /**
   * Most steps the file's rules may take in ical.js's iterator (every candidate time tried, occurrence or not, time
   * zones' rules included): the work a file causes, counted the same on any machine, however busy.
   */
  maxSteps: number;
  /** Most dates one event's EXDATEs may list, and most its RDATEs may: a series keeps no more (`MAX_CANCELLED_OCCURRENCES`). */
  maxDates: number;
  /**
   * Milliseconds of its own CPU time the worker has to read and expand the file once it is running: the time the
   * machine gives other work does not count (where the system tells a thread's CPU time, Linux's /proc; elsewhere,
   * milliseconds of wall-clock time).
   */
  deadlineMs: number;
  /**
   * Milliseconds of wall-clock time the reader waits for the worker at most, however little CPU time it got: the last
   * guard, so that a worker the machine hardly runs does not hold the reading for ever.
   */
  ceilingMs: number;
  /** Megabytes of heap the worker may use. */
  maxMemoryMb: number;
  /** Milliseconds the worker may take to start (load ical.js) before the deadline begins; not in the file's control. */
  startupMs: number;
}

/** The limits used unless a caller gives others. */
export const DEFAULT_CALENDAR_READ_LIMITS: CalendarReadLimits = {
  maxCharacters: 1_000_000,
  maxDepth: 8,
  maxEvents: 2_000,
  maxProperties: 200,
  maxIterations: 100_000,
  maxOccurrences: 5_000,
  maxSteps: 250_000,
  maxDates: 1_000,
  deadlineMs: 2_000,
  ceilingMs: 30_000,
  maxMemoryMb: 128,
  startupMs: 20_000,
};

/** One moment of an occurrence: its own wall clock, anchored to an instant, an IANA zone, or floating (neither). */
export interface CalendarMoment {
  date: string;
  minutes: number;
  allDay: boolean;
  /** "UTC", the TZID of a VTIMEZONE of the file, an IANA zone, or null for a floating time. */
  zone: string | null;
  /** Milliseconds since the epoch when ical.js anchored it (UTC or the file's VTIMEZONE); null otherwise. */
  instant: number | null;
}

/** One RRULE as the file writes it. */
export interface CalendarRuleRead {
  /** FREQ as written ("WEEKLY"). */
  freq: string;
  interval: number;
  /** COUNT as written (0 included), or null. */
  count: number | null;
  until: CalendarMoment | null;
  /** WKST as ical.js numbers it (1 = Sunday, 2 = Monday …). */
  wkst: number;
  /** The rule's BY… parts as written ("BYDAY": ["MO", "WE"]). */
  parts: Record<string, string[]>;
}

/** A recurring VEVENT as the file writes it: its rules, start and end, and its exceptions (issue 47). */
export interface CalendarSeriesRead {
  /** Its RRULEs, in the file's order (none when it has only RDATEs). */
  rules: CalendarRuleRead[];
  /** RDATE moments (an RDATE written as a PERIOD with its end, `periodEnd`). */
  added: Array<CalendarMoment & { periodEnd?: CalendarMoment }>;
  start: CalendarMoment;
  end: CalendarMoment;
  /** EXDATE moments. */
  cancelled: CalendarMoment[];
  /** RECURRENCE-ID VEVENTs of its UID: the occurrence they replace and where it is instead. */
  moved: Array<{ from: CalendarMoment; start: CalendarMoment; end: CalendarMoment }>;
}

/** A VEVENT of the file with its occurrences between `from` and `to` (by their own wall dates). */
export interface CalendarEventRead {
  summary: string;
  uid: string;
  /** Its CATEGORIES values, trimmed and lower-cased, each once ("timetable", "review", "can-hold-reviews", "locked"). */
  categories: string[];
  occurrences: Array<{ start: CalendarMoment; end: CalendarMoment }>;
  /**
   * A one-off's own start and end, wherever they fall (before or after the window too: a later exam is kept for its
   * week, an earlier one named); null for a recurring event.
   */
  once: { start: CalendarMoment; end: CalendarMoment } | null;
  /** Its rule and exceptions as written, for a recurring event; null for a one-off. */
  series: CalendarSeriesRead | null;
}

const WORKER_URL = new URL("./calendar-reader-worker.mjs", import.meta.url);

/** A reader thread, and the port and flag it answers through. */
interface ReaderThread {
  worker: Worker;
  signal: Int32Array;
  port: MessagePort;
  maxMemoryMb: number;
}

/**
 * The next file's thread, started in advance so that loading ical.js (hundreds of milliseconds on a busy machine) is
 * not paid while a reading waits. It has read nothing: each thread reads one file and is ended, so no file's state
 * can reach another. Unreferenced, it keeps no process alive.
 */
let nextThread: ReaderThread | undefined;

/** A new reader thread with a memory limit. */
function startThread(maxMemoryMb: number): ReaderThread {
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_URL, {
    // None of the process's own flags: the worker is plain ESM and needs no loader, and a loader's hooks (the
    // `--import` preload `langgraph dev` starts its server with, tsx's) are set up with the main thread's help, which
    // this thread's wait (`Atomics.wait`) withholds — the worker never started, and every served import waited out
    // `startupMs` with the whole process blocked.
    execArgv: [],
    workerData: { signal, port: port2 },
    transferList: [port2],
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  worker.unref();
  // A thread that failed to start is not kept as the next one.
  worker.once("error", () => {
    if (nextThread?.worker === worker) nextThread = undefined;
  });
  return { worker, signal, port: port1, maxMemoryMb };
}

/** The thread for this file: the one started in advance when it has the limit asked for; the next one started. */
function takeThread(maxMemoryMb: number): ReaderThread {
  const ready = nextThread?.maxMemoryMb === maxMemoryMb ? nextThread : undefined;
  if (nextThread && !ready) void nextThread.worker.terminate();
  nextThread = startThread(maxMemoryMb);
  return ready ?? startThread(maxMemoryMb);
}

/**
 * Waits while `signal[0]` is `value`, at most `ms`; whether it moved on. A wake is not taken as the move: the worker
 * stores a value and then notifies, so a notify for its 0 → 1 can reach this thread when it already waits on 1 (seen
 * about once in a hundred files on a busy machine, each then refused as if its rules had not finished expanding).
 */
export function waitWhile(signal: Int32Array, value: number, ms: number): boolean {
  const deadline = performance.now() + ms;
  for (;;) {
    if (Atomics.load(signal, 0) !== value) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    Atomics.wait(signal, 0, value, left);
  }
}

/**
 * Milliseconds of CPU time a thread of this process (by its id in the operating system) has had, from Linux's
 * /proc (`schedstat`, in nanoseconds); undefined where the system does not tell it or the thread has ended.
 */
export function threadCpuMs(threadId: number): number | undefined {
  if (!Number.isInteger(threadId) || threadId <= 0) return undefined;
  try {
    const ms = Number(readFileSync(`/proc/self/task/${threadId}/schedstat`, "utf8").split(" ")[0]) / 1e6;
    return Number.isFinite(ms) ? ms : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Waits while `signal[0]` is `value` — the worker reading — until it moves on ("answered"), until the worker has used
 * `deadlineMs` of its own CPU time ("deadline"), or until `ceilingMs` of wall-clock time have passed ("ceiling").
 * `cpuMs` tells the worker's CPU time so far; where it tells nothing, the deadline is wall-clock time. A thread uses
 * no more CPU time than the time that passes, so each wait lasts what is left of its budget and is then measured
 * again: on an idle machine the deadline ends a spinning worker as soon as the wall clock would, and on a busy one
 * a legitimate file is not refused for the time the machine gave others. A worker that has ended (its memory
 * limit) tells no CPU time either: "deadline" then, at once.
 */
export function waitForWorker(
  signal: Int32Array,
  value: number,
  limits: Pick<CalendarReadLimits, "deadlineMs" | "ceilingMs">,
  cpuMs: () => number | undefined,
): "answered" | "deadline" | "ceiling" {
  const started = cpuMs();
  if (started === undefined) return waitWhile(signal, value, limits.deadlineMs) ? "answered" : "deadline";
  const ceiling = performance.now() + Math.max(limits.ceilingMs, limits.deadlineMs);
  for (;;) {
    const used = cpuMs();
    if (used === undefined) return Atomics.load(signal, 0) !== value ? "answered" : "deadline";
    const left = limits.deadlineMs - (used - started);
    const wallLeft = ceiling - performance.now();
    if (left <= 0) return Atomics.load(signal, 0) !== value ? "answered" : "deadline";
    if (wallLeft <= 0) return Atomics.load(signal, 0) !== value ? "answered" : "ceiling";
    if (waitWhile(signal, value, Math.min(left, wallLeft))) return "answered";
  }
}

/** A number as it is written in a refusal ("100,000"). */
function counted(value: number): string {
  return value.toLocaleString("en-US");
}

/** The file's shape measured line by line (unfolded), before any parser sees it. */
function measure(text: string, limits: CalendarReadLimits): void {
  if (text.length > limits.maxCharacters)
    throw new CalendarFileError(`The calendar file is larger than ${counted(limits.maxCharacters)} characters.`);
  let depth = 0;
  let events = 0;
  const properties: number[] = [0];
  for (const line of text.replace(/\r?\n[ \t]/g, "").split(/\r?\n/)) {
    const name = /^(BEGIN|END):/i.exec(line)?.[1]?.toUpperCase();
    if (name === "BEGIN") {
      depth += 1;
      if (depth > limits.maxDepth)
        throw new CalendarFileError(`The calendar file nests components more than ${limits.maxDepth} deep.`);
      if (/^BEGIN:VEVENT\s*$/i.test(line) && ++events > limits.maxEvents)
        throw new CalendarFileError(`The calendar file has more than ${counted(limits.maxEvents)} events.`);
      properties.push(0);
    } else if (name === "END") {
      depth = Math.max(0, depth - 1);
      properties.pop();
      if (properties.length === 0) properties.push(0);
    } else if (line.trim() !== "") {
      const count = (properties[properties.length - 1] ?? 0) + 1;
      properties[properties.length - 1] = count;
      if (count > limits.maxProperties)
        throw new CalendarFileError(
          `A component of the calendar file has more than ${limits.maxProperties} properties.`,
        );
    }
  }
}

/**
 * The events of an iCalendar text with their occurrences between two dates ("YYYY-MM-DD", each occurrence by its own
 * wall date; take a day's margin for zones), read in a worker thread of its own within `limits`.
 */
export function readCalendarEvents(
  text: string,
  from: string,
  to: string,
  limits: CalendarReadLimits = DEFAULT_CALENDAR_READ_LIMITS,
): CalendarEventRead[] {
  // A byte order mark (Windows editors and Outlook write one) is not part of the text: ical.js took it as the first
  // line's name, and refused the file with a TypeError of its own ("reading 'propertyGroups'").
  text = text.replace(/^\ufeff/, "");
  measure(text, limits);
  const { worker, signal, port } = takeThread(limits.maxMemoryMb);
  port.postMessage({
    text,
    from,
    to,
    limits: {
      maxIterations: limits.maxIterations,
      maxOccurrences: limits.maxOccurrences,
      maxDates: limits.maxDates,
      maxSteps: limits.maxSteps,
    },
  });
  try {
    // The worker's start (loading ical.js) is not the file's doing; the deadline counts from when it is ready.
    if (!waitWhile(signal, 0, limits.startupMs))
      throw new CalendarFileError(`The calendar reader did not start within ${limits.startupMs / 1000} s; try again.`);
    const threadId = Atomics.load(signal, 1);
    const waited = waitForWorker(signal, 1, limits, () => threadCpuMs(threadId));
    if (waited === "ceiling")
      throw new CalendarFileError(
        `The calendar reader was given too little time to read the file within ${limits.ceilingMs / 1000} s (the machine is busy); nothing was imported, try again.`,
      );
    const answer = receiveMessageOnPort(port)?.message as
      { ok: true; events: CalendarEventRead[] } | { ok: false; message: string } | undefined;
    // No answer: the expansion is still spinning, or the worker was ended for using more than its memory.
    if (answer === undefined)
      throw new CalendarFileError(
        `The file's recurrence rules did not finish expanding within ${limits.deadlineMs / 1000} s (or needed more than ${limits.maxMemoryMb} MB); nothing was imported.`,
      );
    if (!answer.ok) throw new CalendarFileError(answer.message.replace(/^./, (first) => first.toUpperCase()));
    return answer.events;
  } finally {
    port.close();
    void worker.terminate();
  }
}
