/**
 * A bare hour where a move goes: "push my 10am review to 11", "move the essay to 3 on Friday", "move the essay to seven
 * tomorrow". Before, the hour was not read: the move was refused as an unread number, or, with a day said, the hour
 * was dropped and the task went to the day's first free slot.
 *
 * The hour's half of the day is the test's own rule, the one "at 3" is read by: 1–7 the afternoon, 8–11 the morning,
 * 12 noon. Every hour 1–12, in digits and in words, in several phrasings, reads as the same move said with "am" or
 * "pm"; said to the agent on the sample week, the week after it is the week after its twin, and where the task moved
 * it starts at the hour the rule names. Words that are no hour (a range, a count, a unit, "3 at night") keep their
 * reading.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest, type ScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { converse, crowdedMondayWeek, halfPlacedWeek, offlineTempo, placeOf } from "./support/offline-conversation.js";

const WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const HOURS = Array.from({ length: 12 }, (_, index) => index + 1);

/** The hour said with its half of the day, by the rule "at 3" is read by. */
const withMarker = (hour: number) => (hour === 12 ? "12pm" : hour <= 7 ? `${hour}pm` : `${hour}am`);
/** "HH:00" of the hour said bare. */
const clockOf = (hour: number) => `${String(hour === 12 ? 12 : hour <= 7 ? hour + 12 : hour).padStart(2, "0")}:00`;

/** A reading without its mark of an hour said bare (`halfUnsaid`). */
function withoutHalfUnsaid(read: ScheduleRequest): ScheduleRequest {
  if (!("where" in read)) return read;
  const { halfUnsaid: _halfUnsaid, ...slots } = read.where.slots;
  return { ...read, where: { ...read.where, slots } } as ScheduleRequest;
}

const PHRASINGS = [
  (hour: string) => `move the essay to ${hour}`,
  (hour: string) => `push the essay to ${hour} on friday`,
  (hour: string) => `move the matrix review to ${hour} tomorrow`,
  (hour: string) => `reschedule the vocabulary list to ${hour} on thursday`,
  (hour: string) => `push my 10am review to ${hour}`,
  (hour: string) => `can you move the essay to ${hour} on wednesday?`,
  // "For" where "to" goes (before, the hour stayed in the task's name: "10am review for 2").
  (hour: string) => `reschedule my 10am review for ${hour}`,
  (hour: string) => `reschedule the essay for ${hour} on friday`,
];

describe("a bare hour where a move goes is read as that hour", () => {
  test.each(
    PHRASINGS.flatMap((phrase) => HOURS.map((hour) => [phrase(String(hour)), phrase(withMarker(hour)), hour] as const)),
  )("'%s' reads as '%s'", (said, twin, hour) => {
    const read = parseScheduleRequest(said);
    // Its half of the day is marked unsaid, for the planner to settle against the day's slots.
    expect(read).toMatchObject({ kind: "move", where: { slots: { at: clockOf(hour), halfUnsaid: true } } });
    expect(withoutHalfUnsaid(read)).toEqual(parseScheduleRequest(twin));
  });

  test.each(HOURS.map((hour) => [`move the essay to ${WORDS[hour - 1]} on friday`, hour] as const))(
    "'%s': an hour in words",
    (said, hour) => {
      expect(withoutHalfUnsaid(parseScheduleRequest(said))).toEqual(
        parseScheduleRequest(`move the essay to ${withMarker(hour)} on friday`),
      );
    },
  );

  test.each([
    // A range, a count or a unit after the number: no hour of its own.
    ["move the essay to 3 or 4", "15:00"],
    ["move the essay to 3-4", "15:00"],
    ["push the essay to 2 hours", "14:00"],
    ["move the essay from 3pm to 5", "17:00"],
    ["move 2 to 3 reviews to friday", "15:00"],
    ["move the essay to 15/3", "15:00"],
    ["reschedule prep for 2 exams", "14:00"],
    ["reschedule the prep for exam 2", "14:00"],
    ["move the essay for 2 hours later", "14:00"],
  ])("'%s' is not read as the bare hour", (said, wrong) => {
    expect(JSON.stringify(parseScheduleRequest(said))).not.toContain(`"at":"${wrong}"`);
  });

  test("a time after 'for' is no part of the task's name: 'reschedule the essay for 3pm' moves the essay", () => {
    for (const said of ["reschedule the essay for 3pm", "reschedule the essay for friday at 3pm"])
      expect(parseScheduleRequest(said)).toMatchObject({
        kind: "move",
        task: "essay",
        where: { slots: { at: "15:00" } },
      });
    // A "for" inside a name stays in it.
    expect(parseScheduleRequest("reschedule the study for finals to friday")).toMatchObject({
      task: "study for finals",
    });
  });

  test("an hour said with its half of the day keeps it: '3 at night' is 03:00, 'seven tonight' 19:00", () => {
    expect(parseScheduleRequest("move the essay to 3 at night tomorrow")).toMatchObject({
      where: { slots: { at: "03:00" } },
    });
    expect(parseScheduleRequest("move the essay to 8 tonight")).toMatchObject({ where: { slots: { at: "20:00" } } });
    expect(parseScheduleRequest("move my reviews to 2 days later")).toMatchObject({ kind: "shift_all", days: 2 });
  });
});

describe("said to the agent, a bare hour moves the task as the hour said with am or pm does", () => {
  // Monday 08:00 of the half-placed week: the essay sits on Saturday at 08:00; Wednesday is ahead.
  const now = () => new Date("2024-03-11T08:00:00+08:00");
  const said = (hour: string) => `move the essay to ${hour} on wednesday`;

  test.each(HOURS)("'move the essay to %i on wednesday'", async (hour) => {
    const [outcome, twin] = await Promise.all([
      converse(await offlineTempo(halfPlacedWeek(), now), said(String(hour))),
      converse(await offlineTempo(halfPlacedWeek(), now), said(withMarker(hour))),
    ]);
    expect(outcome.schedule).toEqual(twin.schedule);
    expect(outcome.finalAnswer).toBe(twin.finalAnswer);
    expect(outcome.planSteps).toEqual([`Move "essay" to Wednesday, Mar 13, at ${clockOf(hour)}`]);
    // Where the essay moved, it starts at the hour the rule names.
    const slotTimes = outcome.schedule.window.slotTimes!;
    const place = placeOf(outcome.schedule, "essay-draft");
    if (place !== "day 6 slots 1-2") {
      const start = Number(/slots (\d+)-/.exec(place)![1]);
      expect(place.startsWith("day 3 ")).toBe(true);
      expect(slotTimes[start - 1]!.start).toBe(clockOf(hour));
    }
  });

  test("the hours that start a free slot on Wednesday move the essay there", async () => {
    const moved: number[] = [];
    for (const hour of HOURS) {
      const outcome = await converse(await offlineTempo(halfPlacedWeek(), now), said(String(hour)));
      if (placeOf(outcome.schedule, "essay-draft") !== "day 6 slots 1-2") moved.push(hour);
    }
    // The test's own reckoning: an hour that starts a slot of Wednesday, with that slot and the next free (an event
    // that takes tasks inside it, the evening study hall, leaves its slots free).
    const week = halfPlacedWeek();
    const busy = new Set(
      week.tasks.flatMap((task) =>
        (task.source === "event" && task.canEmbed ? [] : (task.slots ?? []))
          .filter((range) => range.day === 3)
          .flatMap((range) => Array.from({ length: range.end - range.start + 1 }, (_, i) => range.start + i)),
      ),
    );
    const starts = week.window.slotTimes!.map((slot) => slot.start);
    const fits = HOURS.filter((hour) => {
      const slot = starts.indexOf(clockOf(hour)) + 1;
      return slot > 0 && slot < starts.length && !busy.has(slot) && !busy.has(slot + 1);
    });
    expect(fits.length).toBeGreaterThan(0);
    expect(moved).toEqual(fits);
  });
});

describe("its half of the day: inside the day's slots, not passed today, the nearer to the task's own start", () => {
  // The week with a crowded Monday, said on Monday at 08:00 and at noon: reviews at Monday 14:00, Thursday 16:00,
  // Monday 19:00 and Monday 21:45.
  const starts = crowdedMondayWeek().window.slotTimes!.map((slot) => slot.start);
  const REVIEWS = [
    ["review-limits", 1, "14:00"],
    ["matrix-review", 4, "16:00"],
    ["determinant-exercises", 1, "19:00"],
    ["derivative-drills", 1, "21:45"],
  ] as const;
  const MOMENTS = ["08:00", "12:00"] as const;

  /**
   * The test's own reckoning of the time meant: the halves inside the day's slots; on today (Monday), those the clock
   * has not reached, while any is; the nearer to `own`, a tie keeping the reading's own.
   */
  function meant(hour: number, day: number, own: string, now: string): string {
    const halves = [hour % 12, (hour % 12) + 12].map((each) => `${String(each).padStart(2, "0")}:00`);
    const inside = halves.filter((time) => time >= starts[0]! && time <= starts.at(-1)!);
    const ahead = day === 1 ? inside.filter((time) => time > now) : inside;
    const usable = ahead.length > 0 ? ahead : inside;
    if (usable.length === 1) return usable[0]!;
    const apart = usable.map((time) => Math.abs(minutes(time) - minutes(own)));
    return apart[0] === apart[1] ? clockOf(hour) : usable[apart[0]! < apart[1]! ? 0 : 1]!;
  }
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));

  test.each(
    MOMENTS.flatMap((now) =>
      REVIEWS.flatMap(([id, day, own]) => HOURS.map((hour) => [id, hour, now, day, own] as const)),
    ),
  )("'move %s to %i' at %s", async (id, hour, now, day, own) => {
    const clock = () => new Date(`2024-03-11T${now}:00+08:00`);
    const outcome = await converse(await offlineTempo(crowdedMondayWeek(), clock), `move ${id} to ${hour}`);
    expect(outcome.planSteps).toEqual([`Move "${id}" to ${meant(hour, day, own, now)}`]);
  });
});
