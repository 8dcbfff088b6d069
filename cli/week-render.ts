/**
 * The terminal's week (issue 48): the grid model of `tools/schedule/week-grid.ts` drawn with box-drawing characters —
 * one column a day, one row a slot with its clock time — in colour on a terminal that has it and plain on a pipe.
 * Text is measured by display width, so Chinese names (two columns a character) keep the columns straight; a name is
 * written as one line that moves no cursor (`terminalText`), whatever it holds.
 */
import { say, type Language } from "../contracts/language.js";
import { dayName, placeName } from "../tools/schedule/calendar.js";
import type { GridCell, GridChange, WeekGrid } from "../tools/schedule/week-grid.js";
import type { ScheduleState, SlotRange } from "../tools/schedule/state.js";

export interface WeekRenderOptions {
  /** ANSI colours (a terminal that has them); plain text otherwise. */
  colour?: boolean;
  /** The widest line allowed (the terminal's columns); 120 by default. */
  width?: number;
  language?: Language;
}

/** Class colours: the 256-colour palette's clear, distinct hues. */
const CLASS_COLOURS = [33, 208, 35, 170, 178, 39, 161, 114, 141, 215];
const TIME_COLUMN = 11;
const MIN_COLUMN = 8;
const MAX_COLUMN = 16;

/** The grid as lines of text, then the legend, the proposal's changes in words, and what is still without a place. */
export function renderWeekGrid(drawn: WeekGrid, state: ScheduleState, options: WeekRenderOptions = {}): string {
  const grid = withTerminalNames(drawn);
  const language = options.language ?? "en";
  const paint = painter(options.colour ?? false);
  const width = options.width ?? 120;
  const days = grid.days;
  const column = Math.max(
    MIN_COLUMN,
    Math.min(MAX_COLUMN, Math.floor((width - TIME_COLUMN) / Math.max(1, days.length)) - 1),
  );
  const lines: string[] = [];
  const header = days.map((day) => fit(`${day.today ? "▸" : ""}${day.label}`, column));
  lines.push(
    `${" ".repeat(TIME_COLUMN)}│${header.map((text, index) => paintHeader(text, days[index]!.today, paint)).join("│")}`,
  );
  lines.push(`${"─".repeat(TIME_COLUMN)}┼${days.map(() => "─".repeat(column)).join("┼")}`);
  // The line marking now, above the first slot of today that has not started (after the last when all have: a
  // clock before the day's first slot — Monday 00:00, a check-in at 07:00 — is drawn above the first row).
  const nowLine = (beforeSlot: number) => {
    if (!grid.now || grid.now.slot !== beforeSlot || !days.some((day) => day.dayIndex === grid.now!.dayIndex)) return;
    const marks = days.map((day) =>
      day.dayIndex === grid.now!.dayIndex ? paint.now(fit(`── ${grid.now!.time} ──`, column, "─")) : " ".repeat(column),
    );
    lines.push(`${fit(say(language, " now", " 现在"), TIME_COLUMN)}│${marks.join("│")}`);
  };
  nowLine(1);
  const cuts: Cut[] = [];
  for (const slot of grid.slots) {
    const time = fit(`${String(slot.slot).padStart(2)} ${slot.start ?? ""}`, TIME_COLUMN);
    const cells = days.map((day) =>
      drawCell(day.cells[slot.slot - 1]!, column, paint, (shown, whole) =>
        cuts.push({ shown, whole, place: { day: day.dayIndex, start: slot.slot, end: slot.slot } }),
      ),
    );
    lines.push(`${time}│${cells.join("│")}`);
    nowLine(slot.slot + 1);
  }
  lines.push("");
  const legend = [
    `${paint.event("▌")}${say(language, "timetable", "课表")}`,
    ...grid.classes.map((entry) => `${paint.review(entry.colour, "●")}${entry.name}`),
  ];
  if (grid.days.some((day) => day.cells.some((cell) => cell.past)))
    legend.push(`${paint.past("░")}${say(language, "passed", "已过去")}`);
  lines.push(legend.join("  "));
  lines.push(...cutAlike(cuts, state, language));
  for (const change of grid.changes) lines.push(changeLine(change, state, language, paint));
  // The missed reviews not made up are without a place too: named with the pending ones, marked missed.
  const unplaced = [
    ...grid.pending.map((task) => task.name),
    ...grid.missed.map((task) => `${task.name}${say(language, " (missed)", "（错过）")}`),
  ];
  if (unplaced.length > 0)
    lines.push(say(language, "Still without a place: ", "尚未安排：") + unplaced.join(say(language, ", ", "、")));
  return `${lines.join("\n")}\n`;
}

/**
 * A name as the terminal writes it: one line that moves no cursor and draws no grid line. A line break is "⏎", any other
 * control character its visible picture ("␛" for an escape: no colour, title or screen change reaches the terminal), the
 * bidi controls left out (on a terminal that applies them they would turn the cells after the name around), and a
 * character drawing a vertical grid line "¦", so a name cannot draw a column of its own.
 */
export function terminalText(name: string): string {
  return (
    name
      .replace(/\r\n|[\n\r\u0085\u2028\u2029]/g, "⏎")
      // eslint-disable-next-line no-control-regex -- control characters shown as their pictures, so they name them
      .replace(/[\u0000-\u001f\u007f]/g, (character) =>
        String.fromCodePoint(character === "\u007f" ? 0x2421 : 0x2400 + character.charCodeAt(0)),
      )
      .replace(/[\u0080-\u009f]/g, "\ufffd")
      .replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "")
      .replace(/[\u2502\u2503\u2506\u2507\u250a\u250b\u2551\u254e\u254f\u251c-\u254b\u255e-\u256c]/g, "¦")
  );
}

/** `grid` with every name as the terminal writes it (`terminalText`). */
function withTerminalNames(grid: WeekGrid): WeekGrid {
  const named = <T extends { name: string }>(entry: T): T => ({ ...entry, name: terminalText(entry.name) });
  return {
    ...grid,
    days: grid.days.map((day) => ({
      ...day,
      cells: day.cells.map((cell) => ({
        ...cell,
        ...(cell.event ? { event: named(cell.event) } : {}),
        ...(cell.review ? { review: named(cell.review) } : {}),
        ...(cell.change ? { change: named(cell.change) } : {}),
      })),
    })),
    classes: grid.classes.map(named),
    changes: grid.changes.map(named),
    pending: grid.pending.map(named),
    missed: grid.missed.map(named),
  };
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** How many terminal columns `text` takes: wide East Asian characters and emoji two, combining and format marks none. */
export function displayWidth(text: string): number {
  // Printable ASCII is a column a character (Intl.Segmenter takes microseconds a character).
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of GRAPHEMES.segment(text)) width += clusterWidth(segment);
  return width;
}

/** `text` cut or padded to exactly `width` columns (a cut ends in "…"), never splitting a character a person sees. */
export function fit(text: string, width: number, pad = " "): string {
  if (displayWidth(text) <= width) return text + pad.repeat(width - displayWidth(text));
  let out = "";
  let used = 0;
  for (const { segment } of GRAPHEMES.segment(text)) {
    const size = clusterWidth(segment);
    if (used + size > width - 1) break;
    out += segment;
    used += size;
  }
  return out + "…" + pad.repeat(width - used - 1);
}

/** The columns one grapheme cluster takes: none for marks and invisible format characters, two for an emoji. */
function clusterWidth(cluster: string): number {
  if (/^[\p{Mn}\p{Me}\p{Cf}]+$/u.test(cluster)) return 0;
  if (
    /\p{Emoji_Presentation}/u.test(cluster) ||
    (/\p{Extended_Pictographic}/u.test(cluster) && cluster.includes("\ufe0f"))
  )
    return 2;
  return characterWidth(cluster.codePointAt(0)!);
}

function characterWidth(code: number): number {
  if (code === 0x200d || (code >= 0x300 && code <= 0x36f) || (code >= 0xfe00 && code <= 0xfe0f)) return 0;
  if (code < 0x1100) return 1;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

interface Painter {
  review(colour: number, text: string): string;
  event(text: string): string;
  past(text: string): string;
  arrive(text: string): string;
  leave(text: string): string;
  now(text: string): string;
  bold(text: string): string;
}

function painter(colour: boolean): Painter {
  const sgr = (code: string) => (text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  return {
    review: (index, text) => sgr(`38;5;${CLASS_COLOURS[index % CLASS_COLOURS.length]}`)(text),
    event: sgr("90"),
    past: sgr("2"),
    arrive: sgr("1;32"),
    leave: sgr("2;9;31"),
    now: sgr("1;31"),
    bold: sgr("1"),
  };
}

function paintHeader(text: string, today: boolean, paint: Painter): string {
  return today ? paint.bold(text) : text;
}

/**
 * One cell's text, exactly `width` columns: what arrives or leaves first, then the review, the event, free time. The
 * event's name is written where the grid names it (`eventNamed`): after the glyph of a review that goes on there, or
 * beside the name that begins there too, each cut to its share.
 */
function drawCell(cell: GridCell, width: number, paint: Painter, cut: CutNote): string {
  const beside = (main: string, begins: boolean, event: string | undefined, room: number) =>
    besideNoting(main, begins, event, room, cut);
  const change = cell.change;
  const ownArrival = change?.side === "to" && change.taskId === cell.event?.id;
  const event = cell.eventNamed && cell.event && !ownArrival ? `▌${cell.event.name}` : undefined;
  if (change?.side === "to") {
    const mark = change.kind === "added" ? "+" : change.kind === "swapped" ? "⇄" : "→";
    const begins = ownArrival ? cell.eventNamed === true : cell.starts;
    return paint.arrive(beside(begins ? `${mark}${change.name}` : `${mark}┆`, begins, event, width));
  }
  if (cell.review) {
    // A review done there is history: ✓, where a placed one still to do is ●.
    const text = beside(
      cell.starts ? `${cell.review.done ? "✓" : "●"}${cell.review.name}` : " ┆",
      cell.starts,
      event,
      width,
    );
    return cell.past ? paint.past(text) : paint.review(cell.review.colour, text);
  }
  if (change?.side === "from")
    return paint.leave(beside(cell.starts ? `×${change.name}` : " ┆", cell.starts, event, width));
  if (cell.event) {
    const text = event === undefined ? fit("▌", width) : noted(event, width, cut);
    return cell.past ? paint.past(text) : paint.event(text);
  }
  return cell.past ? paint.past(fit("", width, "░")) : " ".repeat(width);
}

/** `main`, then the event's name when the cell carries it: after a glyph, or beside a name, each cut to its share. */
function besideNoting(main: string, begins: boolean, event: string | undefined, width: number, cut: CutNote): string {
  if (event === undefined) return begins ? noted(main, width, cut) : fit(main, width);
  if (!begins) {
    const text = fit(`${main}${event}`, width);
    if (displayWidth(main + event) > width) cut(text.slice(main.length).trimEnd(), event);
    return text;
  }
  const share = Math.min(displayWidth(main) + 1, Math.max(Math.ceil(width / 2), width - displayWidth(event)));
  return noted(main, share, cut) + noted(event, width - share, cut);
}

/** "Wed 13 Mar 08:00" / "3月13日周三 08:00": the day and the clock time a cell starts at (its slot without times). */
function whenOf(state: ScheduleState, place: SlotRange, language: Language): string {
  const start = state.window.slotTimes?.[place.start - 1]?.start;
  return `${dayName(state.window, place.day, language)} ${start ?? say(language, `slot ${place.start}`, `第${place.start}节`)}`;
}

/** Where a name was cut: what the cell shows of it, the whole of it (each after its mark), the cell. */
interface Cut {
  shown: string;
  whole: string;
  /** The cell (a one-slot range). */
  place: SlotRange;
}

type CutNote = (shown: string, whole: string) => void;

/** `name` (after its mark) fitted to `width`, noting it when it is cut. */
function noted(name: string, width: number, cut: CutNote): string {
  const text = fit(name, width);
  if (displayWidth(name) > width) cut(text.trimEnd(), name);
  return text;
}

/**
 * Names cut to the same text in the grid although they differ ("●Calculus rev…" for "Calculus review 3" and "Calculus
 * review 9"), each named whole with its place: the cut is said by its "…", and no review passes for another.
 */
function cutAlike(cuts: readonly Cut[], state: ScheduleState, language: Language): string[] {
  const byShown = new Map<string, Cut[]>();
  for (const cut of cuts) byShown.set(cut.shown, [...(byShown.get(cut.shown) ?? []), cut]);
  const lines: string[] = [];
  for (const [shown, alike] of byShown) {
    if (new Set(alike.map((cut) => cut.whole)).size < 2) continue;
    const named = [...alike]
      .sort((a, b) => a.place.day - b.place.day || a.place.start - b.place.start)
      .map((cut) => `${[...cut.whole].slice(1).join("")} (${whenOf(state, cut.place, language)})`);
    lines.push(`${shown} = ${named.join(say(language, "; ", "；"))}`);
  }
  return lines;
}

function changeLine(change: GridChange, state: ScheduleState, language: Language, paint: Painter): string {
  const where = (range: NonNullable<GridChange["from"]>) => placeName(state.window, range, language);
  switch (change.kind) {
    case "added":
      return paint.arrive(`+ ${change.name}: ${where(change.to!)}`);
    case "removed":
      return paint.leave(`× ${change.name}: ${say(language, "taken off", "移出")} ${where(change.from!)}`);
    case "swapped":
    case "moved":
      return `${paint.arrive(change.kind === "swapped" ? "⇄" : "→")} ${change.name}: ${where(change.from!)} → ${where(change.to!)}`;
  }
}
