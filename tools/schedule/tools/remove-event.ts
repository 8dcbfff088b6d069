/**
 * `remove_event` (issue 47 item 4): takes a timetable event off the week — a one-off, or a whole series with every
 * occurrence — so "undo that" can reverse an `import_calendar` through a card of ordinary writes, and a student can
 * drop a course's lectures. An event is refused while the week depends on it: a task item sits inside it (a study
 * hall's guest; move it first) or a task's deadline names it ("before the midterm"; change the deadline first).
 *
 * The clock is a hard rule (issue 47): the past is fixed. Dropping a course on Wednesday takes its lectures from
 * Wednesday on; Monday's and Tuesday's, which took place, stay on the week (the event becomes those times only, a
 * one-off, so no later window shows the series). An event whose every time has started is not removed.
 */
import { z } from "zod";
import type { DomainTool } from "../../domain.js";
import { buildEventTask } from "../canonical-form.js";
import { occursAfter } from "../event-series.js";
import { failure, quoteName, someIds } from "../format.js";
import { saySummary } from "../summary-phrases.js";
import { dateOfDay } from "../calendar.js";
import type { DayMapping, EventTask, ScheduleState, ScheduleTask, SlotRange } from "../state.js";
import type { PastRefusal } from "../rules.js";
import { clockOfState, hasStarted, passedText } from "../window-clock.js";

const removeEventArgumentsSchema = z.object({
  event_id: z
    .string()
    .min(1)
    .max(64)
    .describe("Id of the timetable event to remove (query_range or get_overview gives it)."),
});

/** What remove_event did, as data: the event as it was, series and all, and the window's first day then. */
export interface RemoveEventData {
  event: EventTask;
  /** The window's first day when it was removed: a one-off's day indices count from it. */
  from: DayMapping;
  /** What stays of it when the clock had passed some of its times: those times, as a one-off (absent: all went). */
  kept?: EventTask;
}

/**
 * remove_event's text: `removed event <id> "<name>"`, and ` and every occurrence of its series` for a series; with
 * times that had started, ` where time has not passed (…); its 2 times that have started stay: the past is fixed`.
 */
export function removedEventText(data: RemoveEventData): string {
  const { event, kept } = data;
  const what = `removed event ${event.id} ${quoteName(event.name)}`;
  const series = event.series ? " and every occurrence of its series" : "";
  if (kept === undefined) return `${what}${series}`;
  return `${what} where time has not passed${event.series ? ", with every later occurrence of its series" : ""}; ${startedStayText(kept.slots?.length ?? 0)}: the past is fixed`;
}

/** The times of `event` that have started by the state's clock (none without one): what a removal keeps. */
export function startedTimes(state: ScheduleState, event: ScheduleTask): SlotRange[] {
  const clock = clockOfState(state);
  return (event.slots ?? []).filter((range) => hasStarted(range.day, range.start, clock));
}

/** "the 1 time that has started stays" / "its 2 times that have started stay". */
export function startedStayText(count: number): string {
  return count === 1 ? "the 1 time that has started stays" : `its ${count} times that have started stay`;
}

/** Removes a timetable event that nothing in the week depends on. */
export const removeEventTool: DomainTool<ScheduleState, z.infer<typeof removeEventArgumentsSchema>> = {
  name: "remove_event",
  description:
    "Removes a timetable event (a one-off, or a recurring series with all its occurrences), e.g. to take back an " +
    "import. Refused while a task sits inside it or a task's deadline names it.",
  schema: removeEventArgumentsSchema,
  kind: "write",
  run(state, args) {
    const event = state.tasks.find((task) => task.id === args.event_id);
    if (event === undefined) return failure(`no event with id ${quoteName(args.event_id)}; query_range lists the week`);
    if (event.source !== "event")
      return failure(`${event.id} ${quoteName(event.name)} is a task, not an event; remove_task removes tasks`);
    if (event.embeds.length > 0)
      return failure(saySummary("en", "eventHolds", { event: quoteName(event.name), ids: someIds(event.embeds) }));
    const due = state.tasks.flatMap((task) =>
      task.source === "task_item" &&
      task.dueBefore !== undefined &&
      "eventId" in task.dueBefore &&
      task.dueBefore.eventId === event.id
        ? [task.id]
        : [],
    );
    if (due.length > 0)
      return failure(saySummary("en", "eventIsDeadline", { ids: someIds(due), event: quoteName(event.name) }));
    // The past is fixed: the times that have started stay; an event with no time ahead is not removed at all.
    const started = startedTimes(state, event);
    const from = { ...state.window.days[0]! };
    if (started.length === 0) {
      const data: RemoveEventData = { event: buildEventTask(event), from };
      return {
        ok: true,
        content: removedEventText(data),
        state: { ...state, tasks: state.tasks.filter((task) => task.id !== event.id) },
        data,
      };
    }
    const last = dateOfDay(state.window, state.window.totalDays);
    const ahead =
      started.length < (event.slots ?? []).length ||
      (event.series !== undefined && last !== undefined && occursAfter(event.series, last));
    if (!ahead) {
      const latest = started.at(-1)!;
      const refusal: PastRefusal = {
        refused: "past",
        write: "remove",
        task: { id: event.id, name: event.name },
        range: { ...latest },
      };
      return failure(
        `${quoteName(event.name)} has no time ahead: ${passedText(state.window, latest.day, latest.start)}, and the past is fixed; nothing was removed`,
        refusal,
      );
    }
    const kept = buildEventTask({ ...event, slots: started, series: undefined });
    const data: RemoveEventData = { event: buildEventTask(event), from, kept };
    return {
      ok: true,
      content: removedEventText(data),
      state: { ...state, tasks: state.tasks.map((task) => (task.id === event.id ? kept : task)) },
      data,
    };
  },
};
