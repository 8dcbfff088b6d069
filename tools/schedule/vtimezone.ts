/**
 * The VTIMEZONE an exported calendar file carries for each zone it names (RFC 5545 §3.6.5: "an individual VTIMEZONE
 * calendar component MUST be specified for each unique TZID"). Without it a reader that does not know IANA names — or
 * does not trust them, as ical.js does not — reads `DTSTART;TZID=Asia/Shanghai:…T080000` as floating time, eight hours
 * off. The zone's offsets come from the runtime's own time-zone data (`Intl`, through `localClock`): each change of
 * offset between `from` and `to` is one observance with its own DTSTART (no yearly rule is guessed), and the offset
 * before the first change is an observance from 1970.
 */
import { localClock } from "../../contracts/clock.js";

/** How far apart the offset is read: two changes of a zone's offset are weeks apart, never within one step. */
const STEP_MS = 7 * 86_400_000;
const MINUTE_MS = 60_000;

/** The zone's offset from UTC at `ms`, in minutes (east positive). */
function offsetAt(timeZone: string, ms: number): number {
  const wall = localClock(new Date(ms), timeZone);
  const [year, month, day] = wall.date.split("-").map(Number);
  const [hour, minute] = wall.time.split(":").map(Number);
  const wallMs = Date.UTC(year!, month! - 1, day!, hour!, minute!);
  return Math.round((wallMs - Math.floor(ms / MINUTE_MS) * MINUTE_MS) / MINUTE_MS);
}

/** `+0800`, `-0330`. */
function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const whole = Math.abs(minutes);
  return `${sign}${String(Math.floor(whole / 60)).padStart(2, "0")}${String(whole % 60).padStart(2, "0")}`;
}

/** The wall time `ms` is at offset `minutes`, as iCalendar's local DATE-TIME (`20240331T020000`). */
function localDateTime(ms: number, minutes: number): string {
  return new Date(ms + minutes * MINUTE_MS).toISOString().replace(/[-:]/g, "").slice(0, 15);
}

/** A change of the zone's offset: the first minute of the new offset. */
interface OffsetChange {
  at: number;
  from: number;
  to: number;
}

/** The changes of the zone's offset between two instants: found a week at a time, each then to its minute. */
export function offsetChanges(timeZone: string, from: Date, to: Date): OffsetChange[] {
  const changes: OffsetChange[] = [];
  let before = offsetAt(timeZone, from.getTime());
  for (let step = from.getTime() + STEP_MS; step <= to.getTime() + STEP_MS; step += STEP_MS) {
    const after = offsetAt(timeZone, step);
    if (after === before) continue;
    // The change lies in the step before: its first minute of `after`, by halving.
    let low = step - STEP_MS;
    let high = step;
    while (high - low > MINUTE_MS) {
      const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
      if (offsetAt(timeZone, middle) === before) low = middle;
      else high = middle;
    }
    changes.push({ at: high, from: before, to: after });
    before = after;
  }
  return changes;
}

/** One observance: DAYLIGHT when it moves the clock forward, else STANDARD. */
function observance(kind: "STANDARD" | "DAYLIGHT", start: string, from: number, to: number): string[] {
  return [
    `BEGIN:${kind}`,
    `DTSTART:${start}`,
    `TZOFFSETFROM:${offsetText(from)}`,
    `TZOFFSETTO:${offsetText(to)}`,
    `END:${kind}`,
  ];
}

/**
 * The VTIMEZONE of `timeZone` good for every moment from `from` to `to` (its offsets before `from` as at `from`; after
 * `to`, as at `to`). Lines joined with CRLF, as iCalendar is.
 */
export function vtimezone(timeZone: string, from: Date, to: Date): string {
  const changes = offsetChanges(timeZone, from, to);
  const first = offsetAt(timeZone, from.getTime());
  const firstKind = changes.length > 0 && changes[0]!.to < first ? "DAYLIGHT" : "STANDARD";
  const lines = [
    "BEGIN:VTIMEZONE",
    `TZID:${timeZone}`,
    ...observance(firstKind, "19700101T000000", first, first),
    ...changes.flatMap((change) =>
      observance(
        change.to > change.from ? "DAYLIGHT" : "STANDARD",
        localDateTime(change.at, change.from),
        change.from,
        change.to,
      ),
    ),
    "END:VTIMEZONE",
  ];
  return `${lines.join("\r\n")}\r\n`;
}
