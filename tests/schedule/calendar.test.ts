/**
 * The schedule's calendar (tools/schedule/calendar.ts, contracts/clock.ts): dated windows, day ↔ date, slot clock
 * times, places named as a person reads them (and today's wording for a window without dates), the clock in a time
 * zone, the sample week seeded for the coming week, and rolling the window forward — whose invariants hold on
 * random schedules.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, dayOfWeekOfDate, localClock, nowLine, parseNowLine } from "../../contracts/clock.js";
import {
  calendarProblems,
  checkScheduleInvariants,
  dateOfDay,
  datedWindow,
  dayOfDate,
  DEFAULT_SLOT_TIMES,
  generateSchedule,
  parseScheduleState,
  placeName,
  rollWindow,
  sampleWeek,
  sampleWeekFrom,
  slotClock,
  type ScheduleState,
  type TaskItem,
} from "../../tools/schedule/index.js";
import { describeScheduleCall } from "../../tools/schedule/describe-call.js";
import { scheduleArbitrary } from "./arbitraries.js";

describe("a dated window", () => {
  const window = datedWindow({ firstDate: "2024-03-11", days: 10, timeZone: "Asia/Shanghai" });

  it("maps each day index to a date, its weekday and its week (weeks turn on Mondays)", () => {
    expect(window.days.slice(0, 2)).toEqual([
      { dayIndex: 1, week: 1, dayOfWeek: 1, date: "2024-03-11" },
      { dayIndex: 2, week: 1, dayOfWeek: 2, date: "2024-03-12" },
    ]);
    expect(window.days[7]).toEqual({ dayIndex: 8, week: 2, dayOfWeek: 1, date: "2024-03-18" });
    expect(window).toMatchObject({
      totalDays: 10,
      slotsPerDay: 12,
      timeZone: "Asia/Shanghai",
      slotTimes: DEFAULT_SLOT_TIMES,
    });
    expect(calendarProblems(window)).toEqual([]);
    // Across a month's and a year's end, and starting mid-week.
    const winter = datedWindow({ firstDate: "2024-12-30", days: 4, timeZone: "UTC", firstWeek: 17 });
    expect(winter.days.map((day) => [day.date, day.dayOfWeek, day.week])).toEqual([
      ["2024-12-30", 1, 17],
      ["2024-12-31", 2, 17],
      ["2025-01-01", 3, 17],
      ["2025-01-02", 4, 17],
    ]);
    expect(datedWindow({ firstDate: "2024-03-14", days: 5, timeZone: "UTC" }).days.map((day) => day.week)).toEqual([
      1, 1, 1, 1, 2,
    ]);
  });

  it("day index ↔ date, and a date outside the window is no day", () => {
    expect(dateOfDay(window, 4)).toBe("2024-03-14");
    expect(dayOfDate(window, "2024-03-14")).toBe(4);
    expect(dayOfDate(window, "2024-03-20")).toBe(10);
    expect([
      dayOfDate(window, "2024-03-10"),
      dayOfDate(window, "2024-03-21"),
      dayOfDate(window, "2024-02-30"),
      dateOfDay(window, 11),
    ]).toEqual([undefined, undefined, undefined, undefined]);
    expect(dayOfDate(generateSchedule({ days: 7, taskCount: 0 }).window, "2024-03-14")).toBeUndefined();
  });

  it("names slots by the clock and places as a person reads them, in English and Chinese", () => {
    expect(slotClock(window, 5, 6)).toBe("14:00–15:40");
    expect(slotClock(window, 9)).toBe("19:00–19:45");
    expect(placeName(window, { day: 4, start: 5, end: 6 })).toBe("Thu 14 Mar, 14:00–15:40");
    expect(placeName(window, { day: 4, start: 5, end: 6 }, "zh")).toBe("3月14日周四 14:00–15:40");
    expect(placeName(window, { day: 10, start: 1, end: 1 })).toBe("Wed 20 Mar, 08:00–08:45");
  });

  it("a window without dates keeps today's wording", () => {
    const undated = generateSchedule({ days: 7, taskCount: 0 }).window;
    expect(slotClock(undated, 9, 10)).toBeUndefined();
    expect(placeName(undated, { day: 1, start: 9, end: 10 })).toBe("Mon, week 1 (day 1), slots 9–10");
    expect(placeName(undated, { day: 3, start: 2, end: 2 })).toBe("Wed, week 1 (day 3), slot 2");
    expect(placeName(undated, { day: 1, start: 9, end: 10 }, "zh")).toBe("周一，第1周（第1天），第9–10节");
    expect(placeName(undated, { day: 9, start: 1, end: 2 })).toBe("day 9, slots 1–2");
    // A card over a window stored before dates reads as it always did; over a dated one, by date and clock.
    const { window: _dated, ...rest } = sampleWeek();
    const old: ScheduleState = { ...rest, window: { ...undated } };
    expect(describeScheduleCall(old, "place", { task_id: "review-limits", day: 1, slot_start: 9 })).toBe(
      'Place "Review limits and continuity" on Mon, week 1 (day 1), slots 9–10',
    );
    expect(describeScheduleCall(old, "place", { task_id: "review-limits", day: 1, slot_start: 9 }, "zh")).toBe(
      '安排 "Review limits and continuity" 到 周一，第1周（第1天），第9–10节',
    );
    expect(describeScheduleCall(sampleWeek(), "place", { task_id: "review-limits", day: 4, slot_start: 5 })).toBe(
      'Place "Review limits and continuity" on Thu 14 Mar, 14:00–15:40',
    );
  });

  it("refuses a calendar that cannot be: a bad date, a bad zone, clock times that do not fit the slots", () => {
    expect(() => datedWindow({ firstDate: "2024-02-30", days: 3, timeZone: "UTC" })).toThrow(
      /not a date written YYYY-MM-DD/,
    );
    expect(() => datedWindow({ firstDate: "2024-03-11", days: 3, timeZone: "Mars/Olympus" })).toThrow(
      /not a time zone/,
    );
    expect(() =>
      datedWindow({ firstDate: "2024-03-11", days: 3, timeZone: "UTC", slotTimes: [{ start: "09:00", end: "08:00" }] }),
    ).toThrow(/ends \(08:00\) before it starts/);
    const week = sampleWeek();
    const broken: ScheduleState = {
      ...week,
      window: {
        ...week.window,
        days: week.window.days.map((day, index) => (index === 2 ? { ...day, date: "2024-03-20" } : day)),
        slotTimes: week.window.slotTimes!.slice(1),
      },
    };
    expect(checkScheduleInvariants(broken)).toEqual([
      "window.days[2].date 2024-03-20 does not follow 2024-03-12",
      "window.days[3].date 2024-03-14 does not follow 2024-03-20",
      "window.slotTimes has 11 entries for 12 slots per day",
    ]);
    const misnamed: ScheduleState = {
      ...week,
      window: {
        ...week.window,
        days: week.window.days.map((day, index) => (index === 0 ? { ...day, dayOfWeek: 2 } : day)),
      },
    };
    expect(checkScheduleInvariants(misnamed)).toEqual(["window.days[0] says day of week 2 but 2024-03-11 is a Monday"]);
    expect(() => parseScheduleState(broken)).toThrow(/does not follow/);
  });
});

describe("the clock in a time zone", () => {
  it("reads one moment as each zone's date, time and weekday (daylight saving by Intl)", () => {
    const moment = new Date("2024-03-14T06:30:00Z");
    expect(localClock(moment, "Asia/Shanghai")).toEqual({
      date: "2024-03-14",
      time: "14:30",
      dayOfWeek: 4,
      timeZone: "Asia/Shanghai",
    });
    expect(localClock(moment, "America/Los_Angeles")).toEqual({
      date: "2024-03-13",
      time: "23:30",
      dayOfWeek: 3,
      timeZone: "America/Los_Angeles",
    });
    // New York is on daylight time from 10 March 2024 (UTC-4), before it on standard time (UTC-5).
    expect(localClock(new Date("2024-03-11T12:00:00Z"), "America/New_York").time).toBe("08:00");
    expect(localClock(new Date("2024-03-08T12:00:00Z"), "America/New_York").time).toBe("07:00");
    expect(localClock(new Date("2024-03-14T16:00:00Z"), "Asia/Shanghai")).toMatchObject({
      date: "2024-03-15",
      time: "00:00",
      dayOfWeek: 5,
    });
  });

  it("the now line reads back", () => {
    const clock = localClock(new Date("2024-03-14T06:30:00Z"), "Asia/Shanghai");
    expect(nowLine(clock)).toBe("Now: Thu 2024-03-14 14:30 (Asia/Shanghai)");
    expect(parseNowLine(`<now>\n${nowLine(clock)}\n</now>`)).toEqual(clock);
    expect(parseNowLine("Now: sometime")).toBeUndefined();
  });
});

describe("the sample week", () => {
  it("is dated: a fixed Monday by default, in Asia/Shanghai, with the default timetable", () => {
    const week = sampleWeek();
    expect(week.window.days.map((day) => day.date)).toEqual([
      "2024-03-11",
      "2024-03-12",
      "2024-03-13",
      "2024-03-14",
      "2024-03-15",
      "2024-03-16",
      "2024-03-17",
    ]);
    expect(week.window).toMatchObject({ timeZone: "Asia/Shanghai", slotTimes: DEFAULT_SLOT_TIMES });
    expect(checkScheduleInvariants(week)).toEqual([]);
    expect(() => sampleWeek({ monday: "2024-03-12" })).toThrow(/starts on a Monday/);
  });

  it("seeded for a user, it is the coming week in the sample's zone: from today on a Monday not yet begun, else from next Monday", () => {
    const first = (now: string) => sampleWeekFrom(new Date(now)).window.days[0]!.date;
    expect(first("2024-03-10T23:59:00Z")).toBe("2024-03-11"); // Monday 07:59 in Shanghai: nothing of it has started
    expect(first("2024-03-11T00:00:00Z")).toBe("2024-03-18"); // Monday 08:00: its first slot has started
    expect(first("2024-03-11T02:00:00Z")).toBe("2024-03-18"); // Monday 10:00 in Shanghai
    expect(first("2024-03-14T06:30:00Z")).toBe("2024-03-18"); // Thursday
    expect(first("2024-03-17T15:59:00Z")).toBe("2024-03-18"); // Sunday 23:59 in Shanghai
    expect(first("2024-03-17T16:00:00Z")).toBe("2024-03-18"); // already Monday in Shanghai
    expect(sampleWeekFrom(new Date("2024-03-14T06:30:00Z")).tasks).toEqual(
      sampleWeek({ monday: "2024-03-18", weekly: true }).tasks,
    );
  });

  it("seeded for a user, its timetable is weekly: rolled on a week, every lecture is there again, the exams are not", () => {
    const seeded = sampleWeekFrom(new Date("2024-03-10T23:59:00Z"));
    const rolled = rollWindow(seeded);
    expect(rolled.window.days[0]!.date).toBe("2024-03-18");
    const events = (week: typeof seeded) =>
      week.tasks.flatMap((task) => (task.source === "event" ? [[task.id, task.name, task.slots]] : []));
    const oneOffs = ["fri-english-quiz", "sat-calculus-midterm"];
    expect(events(rolled)).toEqual(events(seeded).filter(([id]) => !oneOffs.includes(id as string)));
    expect(events(rolled)).toHaveLength(16);
    expect(rolled.tasks.filter((task) => task.source === "task_item")).toHaveLength(8);
    expect(checkScheduleInvariants(rolled)).toEqual([]);
  });
});

/** A random schedule, dated or not, with deadlines, earliest days and blocked days on some of its task items and classes. */
const richScheduleArbitrary = fc
  .record({
    state: scheduleArbitrary,
    dated: fc.boolean(),
    firstDate: fc.integer({ min: 0, max: 3_000 }).map((offset) => addDays("2023-01-02", offset)),
    marks: fc.array(
      fc.record({
        task: fc.nat(),
        kind: fc.constantFrom("dueDay", "dueEvent", "earliest", "blocked"),
        day: fc.integer({ min: 1, max: 7 }),
      }),
      { maxLength: 8 },
    ),
  })
  .map(({ state, dated, firstDate, marks }): ScheduleState => {
    const window = dated
      ? datedWindow({
          firstDate,
          days: state.window.totalDays,
          timeZone: "Europe/Berlin",
          slotTimes: DEFAULT_SLOT_TIMES.slice(0, state.window.slotsPerDay),
        })
      : state.window;
    const items = state.tasks.filter((task): task is TaskItem => task.source === "task_item");
    const events = state.tasks.filter((task) => task.source === "event");
    const categories = state.categories.map((category) => ({ ...category }));
    const marked = new Map<string, TaskItem>();
    for (const mark of marks) {
      const day = Math.min(mark.day, state.window.totalDays);
      if (mark.kind === "blocked") {
        const category = categories[mark.task % categories.length]!;
        category.blockedDays = [...new Set([...(category.blockedDays ?? []), day])].sort((a, b) => a - b);
        continue;
      }
      const item = items[mark.task % Math.max(1, items.length)];
      if (!item) continue;
      const copy = { ...(marked.get(item.id) ?? item) };
      if (mark.kind === "dueDay") copy.dueBefore = { day };
      if (mark.kind === "dueEvent" && events.length > 0)
        copy.dueBefore = { eventId: events[mark.task % events.length]!.id };
      if (mark.kind === "earliest") copy.earliestDay = day;
      marked.set(item.id, copy);
    }
    return parseScheduleState({ window, categories, tasks: state.tasks.map((task) => marked.get(task.id) ?? task) });
  });

describe("rolling the window forward", () => {
  it("the sample week rolled by a week is the next week: dated, timetabled, its past gone, its pending reviews still pending", () => {
    const rolled = rollWindow(sampleWeek());
    expect(rolled.window.days.map((day) => [day.date, day.week, day.dayOfWeek])).toEqual([
      ["2024-03-18", 2, 1],
      ["2024-03-19", 2, 2],
      ["2024-03-20", 2, 3],
      ["2024-03-21", 2, 4],
      ["2024-03-22", 2, 5],
      ["2024-03-23", 2, 6],
      ["2024-03-24", 2, 7],
    ]);
    expect(rolled.window).toMatchObject({ timeZone: "Asia/Shanghai", slotTimes: DEFAULT_SLOT_TIMES });
    expect(rolled.tasks.map((task) => task.id)).toEqual(
      sampleWeek()
        .tasks.filter((task) => task.source === "task_item")
        .map((task) => task.id),
    );
    expect(checkScheduleInvariants(rolled)).toEqual([]);
  });

  it("by three days: later ranges shift, a guest in the past stays on record as missed, a deadline that passed is overdue", () => {
    const week = parseScheduleState({
      ...sampleWeek(),
      categories: [...sampleWeek().categories.slice(0, 3), { ...sampleWeek().categories[3]!, blockedDays: [2, 5] }],
      tasks: sampleWeek().tasks.map((task) => {
        if (task.id === "mon-study-hall") return { ...task, embeds: ["review-limits"] };
        if (task.id === "review-limits")
          return { ...task, status: "placed", slots: [{ day: 1, start: 9, end: 10 }], embeddedIn: "mon-study-hall" };
        if (task.id === "matrix-review")
          return {
            ...task,
            status: "placed",
            slots: [{ day: 5, start: 9, end: 10 }],
            dueBefore: { day: 6 },
            earliestDay: 2,
          };
        if (task.id === "derivative-drills") return { ...task, dueBefore: { day: 2 } };
        if (task.id === "essay-draft") return { ...task, dueBefore: { eventId: "fri-english-quiz" } };
        if (task.id === "vocabulary-list") return { ...task, dueBefore: { eventId: "mon-english" } };
        return task;
      }),
    });
    const rolled = rollWindow(week, 3);
    const byId = new Map(rolled.tasks.map((task) => [task.id, task]));
    expect(byId.get("review-limits")).toEqual({
      ...week.tasks.find((task) => task.id === "review-limits"),
      status: "missed",
      slots: undefined,
      embeddedIn: undefined,
      was: { week: 1, dayOfWeek: 1, date: "2024-03-11", start: 9, end: 10 },
    });
    expect(Object.keys(byId.get("review-limits")!)).not.toContain("slots");
    expect(byId.has("mon-study-hall")).toBe(false);
    expect(byId.get("matrix-review")).toMatchObject({
      status: "placed",
      slots: [{ day: 2, start: 9, end: 10 }],
      dueBefore: { day: 3 },
      earliestDay: 1,
    });
    expect(byId.get("derivative-drills")).toMatchObject({ status: "pending", dueBefore: { day: 1 } });
    expect(byId.get("essay-draft")).toMatchObject({ dueBefore: { eventId: "fri-english-quiz" } });
    expect(byId.get("vocabulary-list")).toMatchObject({ dueBefore: { day: 1 } });
    expect(byId.get("fri-english-quiz")).toMatchObject({ slots: [{ day: 2, start: 3, end: 3 }], locked: true });
    expect(rolled.categories.at(-1)).toEqual({ id: "data-structures", name: "Data Structures", blockedDays: [2] });
    expect(rolled.window.days.map((day) => day.date)).toEqual([
      "2024-03-14",
      "2024-03-15",
      "2024-03-16",
      "2024-03-17",
      "2024-03-18",
      "2024-03-19",
      "2024-03-20",
    ]);
    expect(rolled.window.days.map((day) => day.week)).toEqual([1, 1, 1, 1, 2, 2, 2]);
  });

  it("refuses a roll the window cannot make, and leaves the schedule as it was", () => {
    const week = sampleWeek();
    const before = JSON.stringify(week);
    for (const days of [0, 8, 1.5, -7]) expect(() => rollWindow(week, days)).toThrow(/rolls forward by 1 to 7 days/);
    expect(JSON.stringify(week)).toBe(before);
  });

  it("on random schedules: the invariants hold, what stays moves by exactly the days rolled, pending stays pending, and two rolls make one", () => {
    fc.assert(
      fc.property(richScheduleArbitrary, fc.integer({ min: 1, max: 7 }), (state, wanted) => {
        const days = Math.min(wanted, state.window.totalDays);
        const before = JSON.stringify(state);
        const rolled = rollWindow(state, days);
        expect(JSON.stringify(state)).toBe(before);
        expect(checkScheduleInvariants(rolled)).toEqual([]);
        expect(JSON.stringify(parseScheduleState(rolled))).toBe(JSON.stringify(rolled));
        expect(rolled.window.totalDays).toBe(state.window.totalDays);
        const firstKept = state.window.days[days];
        if (state.window.days[0]?.date !== undefined) {
          expect(rolled.window.days[0]!.date).toBe(addDays(state.window.days[0]!.date, days));
          for (const day of rolled.window.days) expect(dayOfWeekOfDate(day.date!)).toBe(day.dayOfWeek);
        } else if (firstKept) {
          expect(rolled.window.days[0]).toMatchObject({ week: firstKept.week, dayOfWeek: firstKept.dayOfWeek });
        }
        const after = new Map(rolled.tasks.map((task) => [task.id, task]));
        for (const task of state.tasks) {
          const slots = task.slots ?? [];
          const past = slots.length > 0 && slots.every((range) => range.day <= days);
          // Past events go with their days; a task item never goes: it stays on record.
          expect(after.has(task.id)).toBe(!past || task.source === "task_item");
          const moved = after.get(task.id);
          if (!moved) continue;
          expect(moved.slots ?? []).toEqual(
            slots.filter((range) => range.day > days).map((range) => ({ ...range, day: range.day - days })),
          );
          if (task.source === "task_item" && moved.source === "task_item" && past) {
            expect(moved.status).toBe(task.status === "placed" ? "missed" : task.status);
            expect(moved.was).toMatchObject({ start: slots[0]!.start, end: slots[0]!.end });
          } else if (task.source === "task_item" && moved.source === "task_item") {
            expect(moved.status).toBe(task.status);
            if (task.earliestDay !== undefined) expect(moved.earliestDay).toBe(Math.max(1, task.earliestDay - days));
            if (task.dueBefore && "day" in task.dueBefore)
              expect(moved.dueBefore).toEqual({ day: Math.max(1, task.dueBefore.day - days) });
          }
        }
        if (state.window.totalDays >= 2 && days >= 2) {
          expect(rollWindow(rollWindow(state, 1), days - 1)).toEqual(rolled);
        }
      }),
      { numRuns: 150 },
    );
  });
});
