/**
 * The week as the placement search sees it (issue 46): per day and slot, what is there — an event or a review
 * without a host, a review embedded in a host, the free slots a placed review's buffer keeps — and where each task
 * may start on its own, within every hard rule a write checks (rules.ts, placement.ts):
 *
 * - its slots are all plainly free, or all inside one event that allows embedding, with no review embedded there;
 * - none of them is inside the buffer of a review with a place (placed, or done);
 * - its own buffer (`pad`) holds nothing on either side within its day but the host it sits inside — past the day's
 *   edge there is nothing, so a session at the start or end of a day needs no room beyond it;
 * - its days, its slots (`from`, `to`, and those of its days bounded on their own: `dayBounds`), its deadline (`endBefore`: it ends before that day and slot) and the places
 *   rejected for it (`notAt`);
 * - it starts in no slot the clock has started (`opens`: the window's past, `window-clock.ts`);
 * - its slots span no break of the day's clock (`breaks`: lunch, dinner).
 *
 * What tasks placed together owe each other is the search's: they do not overlap, and between two on one day lie at
 * least the larger of their buffers.
 */
import { FREE, type OccupancyIndex } from "./occupancy-index.js";
import { bufferOf, withinDayBounds, type SearchTask } from "./rules.js";
import { breaksOf } from "./slot-range.js";
import type { WindowClock } from "./window-clock.js";

/** What a cell holds outside the runs of a room made of free runs: something busy. */
const OUTSIDE = -3;

/** The week as the search sees it. */
export interface SearchRoom {
  days: number;
  slotsPerDay: number;
  /** Per cell (`(day - 1) * slotsPerDay + slot - 1`): `FREE`, or the position of what is there without a host. */
  holder: Int32Array;
  /** Per cell: 1 where a review is embedded. */
  guest: Uint8Array;
  /** Per cell: 1 inside the free slots a placed review's class keeps around it (no new session there). */
  kept: Uint8Array;
  /** The holders that allow embedding, by position: their ids. */
  hosts: ReadonlyMap<number, string>;
  /** True when nothing lies past a day's edges (a room made of free runs alone treats them as busy). */
  edgesFree: boolean;
  /** The first cell a task may start in: the cells before it have started by the clock (0 when nothing is past). */
  opens: number;
  /** Per slot: 1 when a break of the day's clock follows it (`breaksOf`); no task's slots span one. */
  breaks?: Uint8Array;
}

/** The room of a week: its occupancy, its hosts, and the buffers its placed reviews keep. */
export function searchRoomOf(index: OccupancyIndex): SearchRoom {
  const { totalDays: days, slotsPerDay } = index;
  const guest = new Uint8Array(days * slotsPerDay);
  const kept = new Uint8Array(days * slotsPerDay);
  for (let cell = 0; cell < guest.length; cell += 1) if (index.embedded[cell] !== FREE) guest[cell] = 1;
  const hosts = new Map<number, string>();
  for (let position = 0; position < index.tasks.length; position += 1) {
    const task = index.tasks[position]!;
    if (task.source === "event") {
      if (task.canEmbed) hosts.set(position, task.id);
      continue;
    }
    // A review with a place keeps its class's buffer, as a write reads it (`bufferProblem`): a placed one, and a done
    // one (history keeps its place).
    const range = index.rules.buffered ? task.slots?.[0] : undefined;
    const buffer = range ? bufferOf(task, index.rules) : 0;
    if (!range || range.day < 1 || range.day > days) continue;
    const base = (range.day - 1) * slotsPerDay - 1;
    for (let offset = 1; offset <= buffer; offset += 1) {
      if (range.start - offset >= 1) kept[base + range.start - offset] = 1;
      if (range.end + offset <= slotsPerDay) kept[base + range.end + offset] = 1;
    }
  }
  return {
    days,
    slotsPerDay,
    holder: index.primary.slice(),
    guest,
    kept,
    hosts,
    edgesFree: true,
    opens: opensAt(index.rules.clock, days, slotsPerDay),
    ...breaksOfWindow(index),
  };
}

/** The breaks of a week's clock, as a room keeps them (none without clock times). */
function breaksOfWindow(index: OccupancyIndex): { breaks?: Uint8Array } {
  const breaks = breaksOf(index.rules.window);
  return breaks ? { breaks } : {};
}

/** The first cell not started by `clock` in a room of `days` × `slotsPerDay` (0 without a clock: nothing is past). */
function opensAt(clock: WindowClock | undefined, days: number, slotsPerDay: number): number {
  if (!clock) return 0;
  if (clock.dayIndex > days) return days * slotsPerDay;
  return clock.dayIndex < 1 ? 0 : (clock.dayIndex - 1) * slotsPerDay + clock.slot - 1;
}

/**
 * A room made of free runs alone (a host's runs marked with its id): everything outside them is busy, the day's
 * edges too, so a buffer is kept inside a run at both ends.
 */
export function roomOfRuns(runs: readonly { day: number; start: number; end: number; hostId?: string }[]): SearchRoom {
  const days = runs.reduce((most, run) => Math.max(most, run.day), 0);
  const slotsPerDay = runs.reduce((most, run) => Math.max(most, run.end), 0);
  const holder = new Int32Array(days * slotsPerDay).fill(OUTSIDE);
  const hosts = new Map<number, string>();
  const keys = new Map<string, number>();
  for (const run of runs) {
    let key = FREE;
    if (run.hostId !== undefined) {
      key = keys.get(run.hostId) ?? keys.size;
      keys.set(run.hostId, key);
      hosts.set(key, run.hostId);
    }
    for (let slot = run.start; slot <= run.end; slot += 1) holder[(run.day - 1) * slotsPerDay + slot - 1] = key;
  }
  const cells = days * slotsPerDay;
  return {
    days,
    slotsPerDay,
    holder,
    guest: new Uint8Array(cells),
    kept: new Uint8Array(cells),
    hosts,
    edgesFree: false,
    opens: 0,
  };
}

/** True when `task` may start at (`day`, `start`) on its own in `room`. */
export function fitsAt(task: SearchTask, room: SearchRoom, day: number, start: number): boolean {
  const end = start + task.duration - 1;
  const { slotsPerDay } = room;
  if (day < 1 || day > room.days || start < Math.max(1, task.from ?? 1) || end > slotsPerDay) return false;
  if (task.to !== undefined && end > task.to) return false;
  if (!withinDayBounds(task, day, start, end)) return false;
  if ((task.days && !task.days.has(day)) || task.notDays?.has(day)) return false;
  const due = task.endBefore;
  if (due && (day > due.day || (day === due.day && end >= due.slot))) return false;
  if (task.notAt?.has(`${day}:${start}`)) return false;
  const base = (day - 1) * slotsPerDay - 1;
  // The clock: nothing starts in a slot that has started (issue 47).
  if (base + start < room.opens) return false;
  // A task's slots run without a break of the day between them.
  if (room.breaks) for (let slot = start; slot < end; slot += 1) if (room.breaks[slot] === 1) return false;
  const key = room.holder[base + start]!;
  if (key !== FREE && !room.hosts.has(key)) return false;
  for (let slot = start; slot <= end; slot += 1)
    if (room.holder[base + slot] !== key || room.guest[base + slot] || room.kept[base + slot]) return false;
  for (let offset = 1; offset <= (task.pad ?? 0); offset += 1)
    if (busy(room, base, start - offset, key) || busy(room, base, end + offset, key)) return false;
  return true;
}

/** True when a buffer may not reach `slot` (of the day whose slot 1 is cell `base + 1`) for a task in room `key`. */
function busy(room: SearchRoom, base: number, slot: number, key: number): boolean {
  if (slot < 1 || slot > room.slotsPerDay) return !room.edgesFree;
  const holder = room.holder[base + slot]!;
  return room.guest[base + slot] === 1 || (holder !== FREE && holder !== key);
}

/**
 * Where `task` may start, per day: `next[(day - 1) * (slotsPerDay + 2) + slot]` is the first start at or after `slot`
 * it may take on `day` (0 for none), for slot 1 … slotsPerDay + 1.
 */
export function startTable(task: SearchTask, room: SearchRoom): Int16Array {
  const width = room.slotsPerDay + 2;
  const next = new Int16Array(room.days * width);
  for (let day = 1; day <= room.days; day += 1) {
    let following = 0;
    for (let slot = room.slotsPerDay; slot >= 1; slot -= 1) {
      if (fitsAt(task, room, day, slot)) following = slot;
      next[(day - 1) * width + slot] = following;
    }
  }
  return next;
}

/** True when `task` may go somewhere in `room` on its own. */
export function fitsAnywhere(task: SearchTask, room: SearchRoom): boolean {
  for (let day = 1; day <= room.days; day += 1)
    for (let start = 1; start <= room.slotsPerDay; start += 1) if (fitsAt(task, room, day, start)) return true;
  return false;
}

/** The host a task starting at (`day`, `start`) sits in, if any. */
export function hostAt(room: SearchRoom, day: number, start: number): string | undefined {
  return room.hosts.get(room.holder[(day - 1) * room.slotsPerDay + start - 1]!);
}
