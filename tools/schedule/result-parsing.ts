/**
 * Parsers for the stable lines of format.ts, for a deterministic policy (and
 * the tests) that read tool results back. Each pattern matches one whole line.
 * The tools give the same facts as data (their `ToolRun.data`), which programs should read instead: these parsers
 * remain for text that has no data beside it (the prompt's `<live_state>`, the summary lines of compressed rounds)
 * and for the tests that check a tool's data says what its text says.
 */
import type { PendingTaskEntry } from "./tools/get-overview.js";
import type { FreeRunEntry } from "./tools/find-free.js";
import type { ListedTask } from "./tools/list-tasks.js";
import type { PlaceData } from "./tools/place.js";

export type { FreeRunEntry, ListedTask, PendingTaskEntry };
/** A successful place read from its result line. */
export type PlacedEntry = PlaceData;

/** A pending task line; groups: id, name (JSON string literal), duration, category id. */
export const PENDING_TASK_LINE_PATTERN = /^- task (\S+) ("(?:[^"\\]|\\.)*") duration=(\d+) category=(\S+)$/;
/** A free run line; groups: day, first slot, last slot, length, host id (optional). */
export const FREE_RUN_LINE_PATTERN = /^- day (\d+) slots (\d+)-(\d+) \((\d+) free\)(?: embeddable host (\S+))?$/;
/** A successful place result; groups: id, day, first slot, last slot, host id (optional). */
export const PLACED_RESULT_PATTERN = /^placed task (\S+) on day (\d+) slots (\d+)-(\d+)(?: embedded in host (\S+))?$/;
/** The overflow line of a capped list; group: the count left out, with thousands commas. */
export const OVERFLOW_LINE_PATTERN = /^\.\.\. and ([\d,]+) more; .+$/;

/** Every pending task line of a get_overview or list_tasks result, in order. */
export function parsePendingTasks(content: string): PendingTaskEntry[] {
  const entries: PendingTaskEntry[] = [];
  for (const line of content.split("\n")) {
    const match = PENDING_TASK_LINE_PATTERN.exec(line);
    if (match === null) continue;
    const [, id = "", name = '""', duration = "0", categoryId = ""] = match;
    entries.push({ id, name: JSON.parse(name) as string, duration: Number(duration), categoryId });
  }
  return entries;
}

/** Every free run line of a find_free result, in order. */
export function parseFreeRuns(content: string): FreeRunEntry[] {
  const entries: FreeRunEntry[] = [];
  for (const line of content.split("\n")) {
    const match = FREE_RUN_LINE_PATTERN.exec(line);
    if (match === null) continue;
    const [, day = "0", start = "0", end = "0", length = "0", hostId] = match;
    const entry: FreeRunEntry = { day: Number(day), start: Number(start), end: Number(end), length: Number(length) };
    if (hostId !== undefined) entry.hostId = hostId;
    entries.push(entry);
  }
  return entries;
}

/** The placement a successful place result reports, or undefined for any other text. */
export function parsePlacedResult(content: string): PlacedEntry | undefined {
  const match = PLACED_RESULT_PATTERN.exec(content.trim());
  if (match === null) return undefined;
  const [, id = "", day = "0", start = "0", end = "0", hostId] = match;
  const entry: PlacedEntry = { id, day: Number(day), start: Number(start), end: Number(end) };
  if (hostId !== undefined) entry.hostId = hostId;
  return entry;
}

/** How many items a capped list left out (0 when it was not capped). */
export function parseOverflowCount(content: string): number {
  for (const line of content.split("\n")) {
    const match = OVERFLOW_LINE_PATTERN.exec(line);
    if (match !== null) return Number((match[1] ?? "0").replaceAll(",", ""));
  }
  return 0;
}

/** Any task line of a list_tasks result; groups: kind ("task" / "placed task" / "event"), id, name, rest of the line. */
export const TASK_LINE_PATTERN = /^- (task|placed task|event) (\S+) ("(?:[^"\\]|\\.)*")(.*)$/;

/** Every task line of a list_tasks (or get_overview) result, in order. */
export function parseTaskListing(content: string): ListedTask[] {
  const tasks: ListedTask[] = [];
  for (const line of content.split("\n")) {
    const match = TASK_LINE_PATTERN.exec(line);
    if (match === null) continue;
    const [, word = "", id = "", name = '""', rest = ""] = match;
    const slots = [...rest.matchAll(/day (\d+) slots (\d+)-(\d+)/g)].map(([, day, start, end]) => ({ day: Number(day), start: Number(start), end: Number(end) }));
    const kind = word === "event" ? "event" : word === "task" ? "pending" : "placed";
    const duration = Number(/duration=(\d+)/.exec(rest)?.[1] ?? (slots.length === 1 ? slots[0]!.end - slots[0]!.start + 1 : 0));
    const task: ListedTask = { id, name: JSON.parse(name) as string, kind, duration, slots, locked: / locked\b/.test(rest), canEmbed: / can_embed\b/.test(rest) };
    const category = /category=(\S+)/.exec(rest)?.[1];
    if (category !== undefined) task.categoryId = category;
    const host = / embedded in host (\S+)/.exec(rest)?.[1];
    if (host !== undefined) task.hostId = host;
    tasks.push(task);
  }
  return tasks;
}
