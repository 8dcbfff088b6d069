/**
 * `query_range`: one day (or a few) slot by slot — what occupies each run of
 * slots, what is free, and what sits embedded in a host.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { failure, formatDay, quoteName, readResult } from "../format.js";
import { FREE, buildOccupancyIndex, cellOf, type OccupancyIndex } from "../occupancy-index.js";
import type { ScheduleState, TaskStatus } from "../state.js";
import { clockOfState, hasStarted, type WindowClock } from "../window-clock.js";
import { dayField, optionalDayField, optionalSlotField } from "./argument-fields.js";

/** Most days one query_range call may cover. */
export const QUERY_RANGE_DAY_LIMIT = 14;

/** Arguments of query_range. */
export const queryRangeArgumentsSchema = z.object({
  day: dayField("Day index to show (1-based, as listed by get_overview)."),
  day_end: optionalDayField(
    `Last day to show, inclusive, for several days at once (at most ${QUERY_RANGE_DAY_LIMIT}); default: only \`day\`.`,
  ),
  slot_start: optionalSlotField("First slot to show (1-based); default 1."),
  slot_end: optionalSlotField("Last slot to show, inclusive; default the last slot of the day."),
});

/** Parsed arguments of query_range. */
export type QueryRangeArguments = z.infer<typeof queryRangeArgumentsSchema>;

/** A task item as a segment names it. */
export interface SegmentTask {
  id: string;
  name: string;
  categoryId: string;
  /** Its status (`placed`, or `done` once marked), given on a segment that has started. */
  status?: TaskStatus;
}

/** What occupies a run of slots: nothing, a task item, or an event (a host, with the task item embedded in it if any). */
export type RangeOccupant =
  | { kind: "free" }
  | ({ kind: "task" } & SegmentTask)
  | { kind: "event"; id: string; name: string; locked: boolean; canEmbed: boolean; embedded?: SegmentTask };

/** A run of slots with the same occupants (one `- slots a-b: …` line). */
export interface RangeSegment {
  start: number;
  end: number;
  occupant: RangeOccupant;
  /**
   * True when its first slot has started by the run's clock (`window-clock.ts`): started free time is not free (nothing
   * can be placed there), and a review in it not marked done has had its time. A free run is cut where the clock is.
   */
  started?: true;
}

/** One day of a query_range answer (a `day … slots a-b:` block). */
export interface QueryRangeDay {
  /** Day index. */
  day: number;
  /** Week of the term and day of the week (1 = Monday), when the window maps the day. */
  week?: number;
  dayOfWeek?: number;
  /** Its date, "YYYY-MM-DD", in a dated window. */
  date?: string;
  slotStart: number;
  slotEnd: number;
  segments: RangeSegment[];
}

/** What query_range says, as data. */
export interface QueryRangeData {
  days: QueryRangeDay[];
}

/** Shows a day / slot range in detail. */
export const queryRangeTool: DomainTool<ScheduleState, QueryRangeArguments> = {
  name: "query_range",
  description:
    "Shows a day (or up to 14 consecutive days) slot by slot: which event or task occupies each run of slots, " +
    "which slots are free, and which task items sit embedded in an embeddable event. " +
    "Use it to inspect a specific place before moving or placing something there.",
  schema: queryRangeArgumentsSchema,
  kind: "read",
  run(state, args) {
    const { window } = state;
    const firstDay = args.day;
    const lastDay = args.day_end ?? args.day;
    const slotStart = args.slot_start ?? 1;
    const slotEnd = args.slot_end ?? window.slotsPerDay;
    if (firstDay < 1 || firstDay > window.totalDays)
      return failure(`day ${firstDay} is outside the window (days 1-${window.totalDays})`);
    if (lastDay < firstDay || lastDay > window.totalDays) {
      return failure(`day_end ${lastDay} must be between day ${firstDay} and ${window.totalDays}`);
    }
    if (lastDay - firstDay + 1 > QUERY_RANGE_DAY_LIMIT)
      return failure(`query at most ${QUERY_RANGE_DAY_LIMIT} days at once (asked for ${lastDay - firstDay + 1})`);
    if (slotStart < 1 || slotStart > window.slotsPerDay)
      return failure(`slot_start ${slotStart} is outside the day (slots 1-${window.slotsPerDay})`);
    if (slotEnd < slotStart || slotEnd > window.slotsPerDay) {
      return failure(`slot_end ${slotEnd} must be between slot_start ${slotStart} and ${window.slotsPerDay}`);
    }

    const index = buildOccupancyIndex(state);
    const clock = clockOfState(state);
    const lines: string[] = [];
    const days: QueryRangeDay[] = [];
    for (let day = firstDay; day <= lastDay; day += 1) {
      const mapping = window.days[day - 1];
      const label = mapping === undefined ? `day ${day}` : formatDay(mapping);
      lines.push(`${label} slots ${slotStart}-${slotEnd}:`);
      const segments: RangeSegment[] = [];
      let segmentStart = slotStart;
      for (let slot = slotStart; slot <= slotEnd; slot += 1) {
        const next = slot + 1;
        if (next <= slotEnd && sameOccupants(index, day, slot, next) && !clockCuts(index, day, slot, next, clock))
          continue;
        const started = hasStarted(day, segmentStart, clock);
        const occupant = occupantOf(index, day, segmentStart, started);
        const segment: RangeSegment = { start: segmentStart, end: slot, occupant, ...(started ? { started } : {}) };
        segments.push(segment);
        lines.push(`- slots ${segment.start}-${segment.end}: ${occupantText(occupant)}${startedText(segment)}`);
        segmentStart = next;
      }
      days.push(
        mapping === undefined
          ? { day, slotStart, slotEnd, segments }
          : {
              day,
              week: mapping.week,
              dayOfWeek: mapping.dayOfWeek,
              ...(mapping.date === undefined ? {} : { date: mapping.date }),
              slotStart,
              slotEnd,
              segments,
            },
      );
    }
    return readResult(lines, { days } satisfies QueryRangeData);
  },
};

/** True when two cells of a day hold the same task and the same embedded task. */
function sameOccupants(index: OccupancyIndex, day: number, slot: number, other: number): boolean {
  const left = cellOf(index, day, slot);
  const right = cellOf(index, day, other);
  return index.primary[left] === index.primary[right] && index.embedded[left] === index.embedded[right];
}

/** True when the clock falls between two free cells of a day: time that has started is not free, so the run is cut. */
function clockCuts(index: OccupancyIndex, day: number, slot: number, next: number, clock: WindowClock | undefined) {
  return (
    index.primary[cellOf(index, day, slot)] === FREE && hasStarted(day, slot, clock) !== hasStarted(day, next, clock)
  );
}

/** What occupies a cell; `started`: the segment has started, and its task items say their status. */
function occupantOf(index: OccupancyIndex, day: number, slot: number, started = false): RangeOccupant {
  const cell = cellOf(index, day, slot);
  const occupant = index.tasks[index.primary[cell] ?? FREE];
  if (occupant === undefined) return { kind: "free" };
  const status = (task: { status?: TaskStatus }) =>
    started && task.status !== undefined ? { status: task.status } : {};
  if (occupant.source === "task_item")
    return { kind: "task", id: occupant.id, name: occupant.name, categoryId: occupant.categoryId, ...status(occupant) };
  const event: Extract<RangeOccupant, { kind: "event" }> = {
    kind: "event",
    id: occupant.id,
    name: occupant.name,
    locked: occupant.locked,
    canEmbed: occupant.canEmbed,
  };
  if (!occupant.canEmbed) return event;
  const guest = index.tasks[index.embedded[cell] ?? FREE];
  if (guest === undefined || guest.source !== "task_item") return event;
  return { ...event, embedded: { id: guest.id, name: guest.name, categoryId: guest.categoryId, ...status(guest) } };
}

/** A started segment's note: ` (started)`, and whether its review was marked done (` (started, not marked done)`). */
function startedText(segment: RangeSegment): string {
  if (!segment.started) return "";
  const { occupant } = segment;
  const review = occupant.kind === "task" ? occupant : occupant.kind === "event" ? occupant.embedded : undefined;
  if (review?.status === "placed") return " (started, not marked done)";
  if (review?.status === "done") return " (started, done)";
  return " (started)";
}

/** The occupant text of a segment, per the range segment format of format.ts. */
function occupantText(occupant: RangeOccupant): string {
  if (occupant.kind === "free") return "free";
  if (occupant.kind === "task")
    return `task ${occupant.id} ${quoteName(occupant.name)} category=${occupant.categoryId}`;
  const flags = `${occupant.locked ? " locked" : ""}${occupant.canEmbed ? " can_embed" : ""}`;
  const text = `event ${occupant.id} ${quoteName(occupant.name)}${flags}`;
  if (!occupant.canEmbed) return text;
  const guest = occupant.embedded;
  if (guest === undefined) return `${text}, free for embedding`;
  return `${text}, embedded task ${guest.id} ${quoteName(guest.name)} category=${guest.categoryId}`;
}
