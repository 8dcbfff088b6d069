/**
 * `remove_event` with the clock inside the window (issue 47: the clock is a hard rule, the past is fixed): a course
 * dropped on Wednesday goes from Wednesday on, and Monday's and Tuesday's lectures, which took place, stay on the week
 * — in the tool's result, the card's words, the stored schedule, the week after a roll and the undo. What has started
 * is judged here from the dates and clock times themselves (`Intl`), not by the code under test.
 */
import { describe, expect, it } from "vitest";
import {
  applyScheduleChanges,
  canonicalScheduleState,
  diffScheduleState,
  rollWindow,
  sampleWeek,
  ScheduleConflictError,
  type EventTask,
  type ScheduleState,
  type UndoListing,
} from "../../tools/schedule/index.js";
import { describeScheduleCall } from "../../tools/schedule/describe-call.js";
import { appliedWriteSummary } from "../../offline/schedule/tool-data.js";
import { appliedRound, runTool } from "./support.js";
import { oneEventCalendar, SEMINAR_CALENDAR } from "../support/calendars.js";

/** A reading group at 21:45–22:30 in Shanghai on Mondays, Tuesdays, Thursdays, Fridays and Sundays, from 11 March. */
const READING_GROUP = oneEventCalendar("reading-1", "Reading group", "20240311T134500Z", "20240311T143000Z", [
  "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,TH,FR,SU;COUNT=20",
]);

/** The sample week of 25 March 2024 in Berlin with the reading group at 21:45 Berlin time (TZID, no VTIMEZONE). */
function berlinReadingGroup(): { state: ScheduleState; event: EventTask } {
  const ics = oneEventCalendar("reading-2", "Reading group", "x", "x", [
    "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,TH,FR,SU;COUNT=20",
  ])
    .replace("DTSTART:x", "DTSTART;TZID=Europe/Berlin:20240325T214500")
    .replace("DTEND:x", "DTEND;TZID=Europe/Berlin:20240325T223000");
  return withImported(ics, "Reading group", sampleWeek({ monday: "2024-03-25", timeZone: "Europe/Berlin" }));
}

/** The sample week with `ics` imported (no clock: every time is ahead), and the imported event. */
function withImported(
  ics: string,
  name: string,
  week: ScheduleState = sampleWeek(),
): { state: ScheduleState; event: EventTask } {
  const run = runTool("import_calendar", week, { ics });
  if (!run.ok || !run.state) throw new Error(run.content);
  const event = run.state.tasks.find((task) => task.name === name) as EventTask;
  return { state: run.state, event };
}

/** "YYYY-MM-DD HH:MM" of `now` in the window's time zone, read with `Intl`, not the code under test. */
function wallClock(now: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(now))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** The event's ranges as "YYYY-MM-DD HH:MM" of their first slot. */
function startsOf(state: ScheduleState, event: EventTask | undefined): string[] {
  return (event?.slots ?? []).map(
    (range) => `${state.window.days[range.day - 1]!.date} ${state.window.slotTimes![range.start - 1]!.start}`,
  );
}

const json = (state: ScheduleState) => JSON.stringify(canonicalScheduleState(state));

describe("remove_event with the clock inside the window: the past is fixed", () => {
  it("on Wednesday noon a series goes from Wednesday on; Monday's and Tuesday's times stay, as a one-off", () => {
    const { state, event } = withImported(READING_GROUP, "Reading group");
    expect(startsOf(state, event)).toEqual([
      "2024-03-11 21:45",
      "2024-03-12 21:45",
      "2024-03-14 21:45",
      "2024-03-15 21:45",
      "2024-03-17 21:45",
    ]);
    const wednesday = { ...state, now: "2024-03-13T12:00:00+08:00" };
    const run = runTool("remove_event", wednesday, { event_id: event.id });
    expect(run.content).toBe(
      `removed event ${event.id} "Reading group" where time has not passed, with every later occurrence of its series; its 2 times that have started stay: the past is fixed`,
    );
    const kept = run.state!.tasks.find((task) => task.id === event.id) as EventTask;
    expect(startsOf(run.state!, kept)).toEqual(["2024-03-11 21:45", "2024-03-12 21:45"]);
    expect(kept.series).toBeUndefined();
    // The next week shows no reading group: the series ended with Tuesday.
    const next = rollWindow(run.state!, 7);
    expect(next.tasks.some((task) => task.id === event.id && (task.slots ?? []).length > 0)).toBe(false);
    // Without the clock (or before the week) the whole series goes, as before.
    for (const before of [state, { ...state, now: "2024-03-10T12:00:00+08:00" }]) {
      const whole = runTool("remove_event", before, { event_id: event.id });
      expect(whole.content).toBe(`removed event ${event.id} "Reading group" and every occurrence of its series`);
      expect(whole.state!.tasks.some((task) => task.id === event.id)).toBe(false);
    }
  });

  it.each([
    ["Shanghai", () => withImported(READING_GROUP, "Reading group"), "2024-03-10T16:00:00Z"],
    // Berlin's clocks go forward on Sunday 31 March 2024: the week's last evening is an hour nearer in UTC.
    ["Berlin, over the change to summer time", () => berlinReadingGroup(), "2024-03-24T12:00:00Z"],
  ] as const)(
    "the clock quarter by quarter through the week (%s): every time that has started stays, every other goes",
    (_, build, from) => {
      const { state, event } = build();
      const all = startsOf(state, event);
      expect(all).toHaveLength(5);
      // Every quarter of an hour: the clock stands on each time's very start (21:45) once, and a quarter before it.
      for (let quarter = 0; quarter <= 8 * 96; quarter += 1) {
        const now = new Date(Date.parse(from) + quarter * 900_000).toISOString();
        const clock = wallClock(now, state.window.timeZone!);
        const started = all.filter((start) => start <= clock);
        const run = runTool("remove_event", { ...state, now }, { event_id: event.id });
        const after = run.state?.tasks.find((task) => task.id === event.id) as EventTask | undefined;
        // The series runs on after the window (20 times): something is always ahead, so it is never refused.
        expect(run.ok, `${now}: ${run.content}`).toBe(true);
        expect(startsOf(run.state!, after), now).toEqual(started);
        if (started.length > 0) expect(after?.series, now).toBeUndefined();
      }
    },
  );

  it("an event every time of which has started is not removed; one partly started keeps its start", () => {
    const { state, event } = withImported(SEMINAR_CALENDAR, "History seminar");
    const sunday = { ...state, now: "2024-03-17T14:30:00+08:00" };
    const run = runTool("remove_event", sunday, { event_id: event.id });
    expect(run.ok).toBe(false);
    expect(run.content).toBe(
      `error: "History seminar" has no time ahead: Sun 17 Mar 14:00 has passed, and the past is fixed; nothing was removed`,
    );
    // A series whose last time in the window has started and that has none after it: refused the same way.
    const last = oneEventCalendar("last-1", "Last tutorial", "20240311T134500Z", "20240311T143000Z", [
      "RRULE:FREQ=DAILY;COUNT=2",
    ]);
    const ended = withImported(last, "Last tutorial");
    const after = runTool(
      "remove_event",
      { ...ended.state, now: "2024-03-13T08:00:00+08:00" },
      {
        event_id: ended.event.id,
      },
    );
    expect(after.content).toMatch(/^error: "Last tutorial" has no time ahead: Tue 12 Mar 21:45 has passed/);
  });

  it("the card says what goes and what stays, in English and Chinese; the answer too", () => {
    const { state, event } = withImported(READING_GROUP, "Reading group");
    const wednesday = { ...state, now: "2024-03-13T12:00:00+08:00" };
    expect(describeScheduleCall(wednesday, "remove_event", { event_id: event.id })).toBe(
      'Remove the event "Reading group" (Thu 14 Mar, 21:45–22:30; Fri 15 Mar, 21:45–22:30; Sun 17 Mar, 21:45–22:30), with every later occurrence of its series; its 2 times that have started stay',
    );
    expect(describeScheduleCall(wednesday, "remove_event", { event_id: event.id }, "zh")).toBe(
      '删除日程 "Reading group"（3月14日周四 21:45–22:30；3月15日周五 21:45–22:30；3月17日周日 21:45–22:30），连同这个系列以后的所有重复；已经开始的 2 次保留',
    );
    const run = runTool("remove_event", wednesday, { event_id: event.id });
    const round = appliedRound("remove_event", { event_id: event.id }, run.data);
    expect(appliedWriteSummary(round, "en")).toBe(run.content);
    expect(appliedWriteSummary(round, "zh")).toBe(
      "已从课表删除“Reading group”还没到的时间，连同这个系列以后的所有重复；已经开始的 2 次保留：过去的不改",
    );
  });

  it("is stored as one change of the event, checked whole: a stale repeat is refused and changes nothing", () => {
    const { state, event } = withImported(READING_GROUP, "Reading group");
    const wednesday = { ...state, now: "2024-03-13T12:00:00+08:00" };
    const after = runTool("remove_event", wednesday, { event_id: event.id }).state!;
    const changes = diffScheduleState(wednesday, after);
    expect(changes.map((change) => [change.kind, "taskId" in change ? change.taskId : ""])).toEqual([
      ["update", event.id],
    ]);
    const stored = applyScheduleChanges(wednesday, changes);
    expect(json(stored)).toBe(json(after));
    expect(() => applyScheduleChanges(stored, changes)).toThrow(ScheduleConflictError);
  });

  it("undo puts the series back whole, where it stood in the list", () => {
    const { state, event } = withImported(READING_GROUP, "Reading group");
    const wednesday = { ...state, now: "2024-03-13T12:00:00+08:00" };
    const run = runTool("remove_event", wednesday, { event_id: event.id });
    const write = { name: "remove_event", arguments: { event_id: event.id }, data: run.data };
    const listing = runTool("propose_undo", { ...run.state!, lastChange: [write] }).data as UndoListing;
    expect(listing.candidates[0]!.writes.map((call) => call.name)).toEqual(["restore_event"]);
    const back = runTool("restore_event", run.state!, listing.candidates[0]!.writes[0]!.arguments);
    expect(back.content).toBe(`restored event ${event.id} "Reading group"`);
    expect(json(back.state!)).toBe(json(wednesday));
    // A one-off of that name and id that is not what the removal kept (a time ahead) is not taken over.
    const other = {
      ...run.state!,
      tasks: run.state!.tasks.map((task) =>
        task.id === event.id ? { ...task, slots: [...(task.slots ?? []), { day: 7, start: 12, end: 12 }] } : task,
      ),
    };
    expect(runTool("restore_event", other, listing.candidates[0]!.writes[0]!.arguments).content).toMatch(
      /exists again; nothing was restored$/,
    );
  });
});
