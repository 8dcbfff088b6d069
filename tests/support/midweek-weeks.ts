/**
 * Rule-bearing weeks lived part of the way through (issue 46 and 47): the clock at a named moment of the week
 * (Wednesday 14:00, Friday 22:00, Sunday 23:30 in the window's time zone), reviews placed before it — the ones whose
 * place has started marked done (they keep their place), missed (their place freed) or left placed (history the
 * clock fixed) —, a review or two due before the clock's day, the next day or an event of that day, the user's standing preferences (a day kept
 * free, "only in the evening", a preferred part of the day), a timetable imported from a calendar file (weekly
 * lectures, occurrences in the past left out), the rule week's kinds a suite asks for (`RuleWeekOptions`), and the
 * window rolled on to the clock's day (the lectures carried by their series into the days added, the reviews placed on
 * the days kept keeping their places).
 *
 * Built from `ruleWeek` (tests/support/rule-weeks.ts) through the real tools (place, mark_done, mark_missed,
 * import_calendar, roll_window), so every week keeps every rule a write checks. Deterministic: one seed, one week.
 * Small enough for the brute-force oracle (at most 45 cells); `undefined` for a seed that does not give such a week.
 */
import {
  importCalendarTool,
  markDoneTool,
  markMissedTool,
  placeTool,
  rollWindowTool,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { isFixedByClock, ruleBookOf } from "../../tools/schedule/rules.js";
import { mulberry32 } from "../../tools/schedule/sample-data.js";
import type { StandingRule } from "../../tools/schedule/state.js";
import { ruleWeek, type RuleWeekOptions } from "./rule-weeks.js";
import { oracle } from "./schedule-oracle.js";

/** A moment of the week: its weekday (1 = Monday) and local clock time. */
export interface WeekMoment {
  name: string;
  weekday: number;
  time: string;
}

/** The moments the weeks are lived to. */
export const MOMENTS: readonly WeekMoment[] = [
  { name: "Wednesday 14:00", weekday: 3, time: "14:00" },
  { name: "Friday 22:00", weekday: 5, time: "22:00" },
  { name: "Sunday 23:30", weekday: 7, time: "23:30" },
];

const ZONE = "Asia/Shanghai";

/** The date `offset` days after `date` (YYYY-MM-DD). */
function dateAfter(date: string, offset: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}

/** The instant of local `time` on `date` in the window's zone (Shanghai keeps +08:00 all year). */
function instant(date: string, time: string): string {
  return new Date(`${date}T${time}:00+08:00`).toISOString();
}

/** `week` dated (from the week of Monday 11 March 2024) in Shanghai, without a clock; undefined without clock times. */
function dated(week: ScheduleState): ScheduleState | undefined {
  if (!week.window.slotTimes) return undefined;
  const first = dateAfter("2024-03-10", week.window.days[0]!.dayOfWeek);
  const days = week.window.days.map((day, offset) => ({ ...day, date: dateAfter(first, offset) }));
  return { ...week, window: { ...week.window, days, timeZone: ZONE } };
}

/** The instant of `moment` on the window's day of its weekday, or undefined when the window has none. */
export function momentIn(week: ScheduleState, moment: WeekMoment): string | undefined {
  const day = week.window.days.find((each) => each.dayOfWeek === moment.weekday);
  return day?.date === undefined ? undefined : instant(day.date, moment.time);
}

/** A weekly lecture of the calendar file: its weekdays and its first slot, one or two slots long. */
function calendarOf(week: ScheduleState, random: () => number): string {
  const pick = (count: number) => Math.floor(random() * count);
  const times = week.window.slotTimes!;
  const first = week.window.days[0]!.date!;
  const codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
  const events = Array.from({ length: 1 + pick(2) }, (_, index) => {
    const slot = pick(times.length);
    const end = times[Math.min(times.length - 1, slot + pick(2))]!.end;
    const byDay = [...new Set([pick(7), pick(7)])].sort().map((day) => codes[day]);
    return [
      "BEGIN:VEVENT",
      `UID:lecture-${index}@university`,
      `SUMMARY:Imported lecture ${index + 1}`,
      `DTSTART;TZID=${ZONE}:${first.replaceAll("-", "")}T${times[slot]!.start.replace(":", "")}00`,
      `DTEND;TZID=${ZONE}:${first.replaceAll("-", "")}T${end.replace(":", "")}00`,
      `RRULE:FREQ=WEEKLY;BYDAY=${byDay.join(",")}`,
      "END:VEVENT",
    ].join("\n");
  });
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//university//EN", ...events, "END:VCALENDAR"].join("\n");
}

/** The kinds of week `livedWeek` makes. */
export type LivedKind = "midweek" | "imported" | "rolled";

/**
 * The rule-bearing week of `seed` lived to `moment` (see the file's comment): `imported` adds weekly lectures from a
 * calendar file at the clock; `rolled` imports them before the week starts, lives it to `moment` and rolls the window
 * on by the days before the clock's day (at least one): the days gone take their reviews with them (to history, or
 * missed), the reviews placed on the days kept keep their places, and the days added hold the lectures' next
 * occurrences, expanded from their series.
 */
export function livedWeek(
  seed: number,
  moment: WeekMoment,
  kind: LivedKind = "midweek",
  options: RuleWeekOptions = {},
): ScheduleState | undefined {
  const base = dated(ruleWeek(seed, options));
  if (!base || base.window.totalDays * base.window.slotsPerDay > 45) return undefined;
  if (base.tasks.filter((task) => task.source === "task_item" && task.status === "pending").length > 10)
    return undefined;
  const random = mulberry32(seed * 104_729 + moment.weekday);
  const pick = (count: number) => Math.floor(random() * count);
  const now = momentIn(base, moment);
  if (now === undefined) return undefined;

  let week: ScheduleState = base;
  const run = (ran: { ok: boolean; state?: ScheduleState }) => {
    if (ran.ok && ran.state) week = ran.state;
    return ran.ok;
  };
  // The timetable imported before the week (a roll carries it) or at the clock (its past left out).
  if (kind === "rolled") run(importCalendarTool.run(week, { ics: calendarOf(week, random) }));
  // Reviews placed before the clock: by turns at a place each may take, a third left pending.
  const answer = oracle(week);
  answer.ids.forEach((id, turn) => {
    const places = answer.alone.get(id) ?? [];
    if (places.length === 0 || turn % 3 === 2) return;
    const [day, start] = places[pick(places.length)]!.split(":").map(Number) as [number, number];
    run(placeTool.run(week, { task_id: id, day, slot_start: start }));
  });
  week = { ...week, now };
  if (kind === "imported") run(importCalendarTool.run(week, { ics: calendarOf(week, random) }));
  // What became of the placed ones: the past done, missed or left placed; now and then one done ahead of its place.
  const book = ruleBookOf(week);
  week.tasks
    .filter((task): task is TaskItem => task.source === "task_item" && task.status === "placed")
    .forEach((task, turn) => {
      const past = isFixedByClock(task, book);
      if (past && turn % 3 === 0) run(markDoneTool.run(week, { task_id: task.id }));
      else if (past && turn % 3 === 1) run(markMissedTool.run(week, { task_id: task.id }));
      else if (!past && turn % 5 === 4) run(markDoneTool.run(week, { task_id: task.id }));
    });
  if (kind === "rolled") {
    const today = week.window.days.findIndex((day) => day.dayOfWeek === moment.weekday) + 1;
    if (!run(rollWindowTool.run(week, { days: Math.max(1, today - 1) }))) return undefined;
    week = { ...week, now };
  }
  // The clock's day: a review or two due before it (or the day after it), by turns.
  const local = new Date(Date.parse(week.now!) + 8 * 3_600_000).toISOString().slice(0, 10);
  const dates = week.window.days.map((day) => day.date!);
  const clockDay = local < dates[0]! ? 1 : local > dates.at(-1)! ? week.window.totalDays : dates.indexOf(local) + 1;
  // An exam at the clock day's first slot not yet started, where nothing is within two slots of it (no buffer broken):
  // every slot before it has started, yet it has not.
  const time = new Date(Date.parse(week.now!) + 8 * 3_600_000).toISOString().slice(11, 16);
  const next = local === dates[clockDay - 1] ? week.window.slotTimes!.findIndex((slot) => slot.start > time) + 1 : 0;
  const near = (slot: number) =>
    week.tasks.some((task) =>
      (task.slots ?? []).some((range) => range.day === clockDay && range.start <= slot + 2 && range.end >= slot - 2),
    );
  if (next > 1 && seed % 2 === 0 && !near(next)) {
    const range = { day: clockDay, start: next, end: next };
    week = {
      ...week,
      tasks: [
        ...week.tasks,
        {
          id: "exam-next",
          name: "Exam next",
          source: "event",
          slots: [range],
          canEmbed: false,
          locked: true,
          embeds: [],
        },
      ],
    };
  }
  // An event of the clock's day, by turns the one just past or the next: due before it.
  const events = week.tasks.filter((task) => task.source === "event" && task.slots[0]?.day === clockDay);
  const exam = events.find((task) => task.id === "exam-next") ?? events[seed % Math.max(1, events.length)];
  let turn = seed;
  week = {
    ...week,
    tasks: week.tasks.map((task) => {
      if (task.source !== "task_item" || task.status !== "pending" || task.dueBefore) return task;
      turn += 1;
      if (turn % 4 === 0) return { ...task, dueBefore: { day: clockDay + (turn % 8 === 0 ? 1 : 0) } };
      return turn % 4 === 2 && exam ? { ...task, dueBefore: { eventId: exam.id } } : task;
    }),
  };
  // The standing preferences, by turns: a day kept free, only the evening, a preferred part (soft).
  const standing: StandingRule[] = [...(week.standing ?? [])];
  const weekday = week.window.days[pick(week.window.totalDays)]!.dayOfWeek;
  if (seed % 4 === 1) standing.push({ id: "pref-free", kind: "avoid_day", value: weekday, text: "keep that day free" });
  if (seed % 4 === 2)
    standing.push({ id: "pref-evening", kind: "only_part_of_day", value: "evening", text: "only in the evening" });
  if (seed % 4 === 3)
    standing.push({ id: "pref-part", kind: "part_of_day", value: "morning", text: "rather mornings" });
  return standing.length > 0 ? { ...week, standing } : week;
}
