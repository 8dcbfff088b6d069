/**
 * A day's reviews into a part of a day, and a busy window of the clock said before a move.
 *
 * Before: "move today's reviews to tonight" and "move this afternoon's reviews to this evening" planned a step no one
 * read ("Push all reviews to the day asked": nothing moved); "move Monday's reviews to Tuesday evening" landed them in
 * Tuesday's afternoon; "I'm busy this afternoon, move my reviews to the evening" moved the reviews OUT of the evening;
 * "move all my reviews to the evening" asked which task "reviews" was; "I'm busy from 2 to 4 today, move my reviews"
 * moved every review of the day off it, and "I have a meeting from 2pm to 4pm on Monday, move my reviews" none.
 *
 * Swept over every day of the half-placed sample week at 08:00: the test works out on its own, from the week's slot
 * times, which reviews are meant and which part of the day each must land in; after the conversation each meant review
 * lies wholly in that part of the day it should (or stays where it was, and the answer says so), and every other
 * review is where it was.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { checkScheduleInvariants } from "../../tools/schedule/index.js";
import { converse, halfPlacedWeek, offlineTempo, placedRanges } from "./support/offline-conversation.js";

describe("reading: reviews into a part of the day", () => {
  test.each([
    ["move today's reviews to tonight", { fromToday: 0, days: 0, into: "evening" }],
    ["move this afternoon's reviews to this evening", { fromToday: 0, part: "afternoon", days: 0, into: "evening" }],
    [
      "I'm busy this afternoon, move my reviews to the evening",
      { fromToday: 0, part: "afternoon", days: 0, into: "evening" },
    ],
    [
      "I'm busy Thursday morning, move my reviews to the afternoon",
      { weekday: 4, part: "morning", days: 0, into: "afternoon" },
    ],
    [
      "I'm busy Thursday and Friday morning, move my reviews to the afternoon",
      { weekday: 4, part: "morning", more: [{ weekday: 5 }], days: 0, into: "afternoon" },
    ],
    ["move all my reviews to the evening", { days: 0, into: "evening" }],
    ["move all my reviews to the morning", { days: 0, into: "morning" }],
    ["把复习都挪到晚上", { days: 0, into: "evening" }],
    ["我今天下午有事，把复习都挪到晚上", { fromToday: 0, part: "afternoon", days: 0, into: "evening" }],
    ["我周四上午有事，把复习都挪到下午", { weekday: 4, part: "morning", days: 0, into: "afternoon" }],
    ["push my reviews back a day, into the evening", { days: 1, into: "evening" }],
  ])("'%s'", (said, expected) => {
    expect(parseScheduleRequest(said)).toEqual({ kind: "shift_all", ...expected });
  });

  test("to another day's part: the day and the part, which the plan turns into days and `into`", () => {
    expect(parseScheduleRequest("move Monday's reviews to Tuesday evening")).toMatchObject({
      kind: "shift_all",
      weekday: 1,
      to: { only: { weekdays: [2] }, slots: { part: "evening" } },
    });
    expect(parseScheduleRequest("move today's reviews to tomorrow evening")).toMatchObject({
      kind: "shift_all",
      fromToday: 0,
      to: { only: { dates: [{ kind: "offset", days: 1 }] }, slots: { part: "evening" } },
    });
  });

  test.each([
    ["Move all reviews to the evening", { days: 0, into: "evening" }],
    [
      "Move all of Monday afternoon's reviews to Monday evening",
      { weekday: 1, part: "afternoon", days: 0, into: "evening" },
    ],
    ["Move all of Monday's reviews to Monday evening", { weekday: 1, days: 0, into: "evening" }],
    ["Push all of Monday's reviews 1 day later, into the evening", { weekday: 1, days: 1, into: "evening" }],
    ["Push all of Sunday's reviews 2 days earlier, into the morning", { weekday: 7, days: -2, into: "morning" }],
    [
      "Move all of Thursday morning's and Friday morning's reviews to the afternoon",
      { weekday: 4, part: "morning", more: [{ weekday: 5 }], days: 0, into: "afternoon" },
    ],
    ["把所有复习挪到晚上", { days: 0, into: "evening" }],
    ["把周一下午的所有复习挪到周一晚上", { weekday: 1, part: "afternoon", days: 0, into: "evening" }],
    ["把周一的所有复习往后推1天，挪到晚上", { weekday: 1, days: 1, into: "evening" }],
  ])("the plan's step '%s' reads back as what it says", (step, expected) => {
    expect(parseScheduleRequest(step)).toEqual({ kind: "shift_all", ...expected });
  });

  test("a part of the day said alone still leaves that part when nothing is said of where to go", () => {
    expect(parseScheduleRequest("move my reviews off Thursday evening")).toEqual({
      kind: "shift_all",
      weekday: 4,
      part: "evening",
      away: "part",
    });
    expect(parseScheduleRequest("I'm busy Thursday morning, move my reviews")).toEqual({
      kind: "shift_all",
      weekday: 4,
      part: "morning",
      away: "part",
    });
  });
});

describe("reading: a busy window of the clock before a move is the window kept free", () => {
  test.each([
    ["I'm busy from 2 to 4 today, move my reviews", "keep 2pm to 4pm free today"],
    ["I'm busy from 2pm to 4pm today, move my reviews", "keep 2pm to 4pm free today"],
    ["I'm busy from 2 to 4, move my reviews", "keep 2pm to 4pm free today"],
    ["I'm busy from 2pm to 4pm on Thursday, move my reviews", "keep thursday 14:00-16:00 free"],
    ["I have a meeting from 2pm to 4pm on Thursday, move my reviews", "keep thursday 14:00-16:00 free"],
    ["I'm busy between 2pm and 4pm on Thursday, move my reviews", "keep thursday 14:00-16:00 free"],
    ["I'm busy 7pm-9pm tonight, move my reviews", "keep 7pm to 9pm free today"],
    ["我今天下午两点到四点有事，把复习都挪开", "今天下午两点到四点空着"],
    // What is there, said of no task, after the clause that rules the time out (before, a task named "anything").
    ["I have a meeting from 2pm to 4pm on Thursday, move anything in the way", "keep thursday 14:00-16:00 free"],
    ["I'm busy from 2 to 4 today, move whatever's in the way", "keep 2pm to 4pm free today"],
  ])("'%s' reads as '%s'", (busy, kept) => {
    const read = parseScheduleRequest(kept);
    expect(read).toMatchObject({ kind: "shift_all", away: "part", startsFrom: expect.any(String) });
    expect(parseScheduleRequest(busy)).toEqual(read);
  });

  test("'anything in the way' after a part of a day ruled out is that part's reviews", () => {
    expect(parseScheduleRequest("I'm busy Thursday morning, move anything in the way")).toEqual(
      parseScheduleRequest("I'm busy Thursday morning, move my reviews"),
    );
  });

  test("'anything' with no clause that rules a time out is still no review: 'move anything in the way' alone", () => {
    expect(parseScheduleRequest("move anything in the way")).toMatchObject({ kind: "move", task: "anything" });
    expect(parseScheduleRequest("friday is free, move anything to friday")).toMatchObject({ task: "anything" });
  });

  test("a busy part of a day reads as before", () => {
    expect(parseScheduleRequest("I'm busy this afternoon, move my reviews")).toEqual({
      kind: "shift_all",
      fromToday: 0,
      part: "afternoon",
      away: "part",
    });
  });
});

type Part = "morning" | "afternoon" | "evening";

/**
 * The test's own reckoning of a request swept: which reviews it means (by their day and their start's part of the
 * day, by the clock) and the day each must land on, given today.
 */
interface Sweep {
  said: string;
  /** The part a meant review lands in. */
  into: Part;
  /** The days after its own a meant review lands on (0: its own). */
  days: number;
  /** Only today's reviews (else every day's). */
  todayOnly: boolean;
  /** Only the reviews that start in this part of the day. */
  from?: Part;
}

const SWEEPS: Sweep[] = [
  // (A part said in the day's own words — "this morning's" — is that part of today's: before, it named the whole day.)
  { said: "move this morning's reviews to the evening", into: "evening", days: 0, todayOnly: true, from: "morning" },
  {
    said: "move this afternoon's reviews to the evening",
    into: "evening",
    days: 0,
    todayOnly: true,
    from: "afternoon",
  },
  { said: "move today's reviews to tonight", into: "evening", days: 0, todayOnly: true },
  {
    said: "move this afternoon's reviews to this evening",
    into: "evening",
    days: 0,
    todayOnly: true,
    from: "afternoon",
  },
  {
    said: "I'm busy this afternoon, move my reviews to the evening",
    into: "evening",
    days: 0,
    todayOnly: true,
    from: "afternoon",
  },
  {
    said: "I'm busy this morning, move my reviews to the afternoon",
    into: "afternoon",
    days: 0,
    todayOnly: true,
    from: "morning",
  },
  { said: "move all my reviews to the evening", into: "evening", days: 0, todayOnly: false },
  { said: "move today's reviews to tomorrow evening", into: "evening", days: 1, todayOnly: true },
  { said: "把今天的复习都挪到晚上", into: "evening", days: 0, todayOnly: true },
  { said: "我今天上午有事，把复习都挪到下午", into: "afternoon", days: 0, todayOnly: true, from: "morning" },
  { said: "把复习都挪到晚上", into: "evening", days: 0, todayOnly: false },
  { said: "把今天的复习都挪到明天晚上", into: "evening", days: 1, todayOnly: true },
];

/** The part of the day a clock time ("HH:MM") is in: before noon, before 18:00, or after. */
function partOf(time: string): Part {
  return time < "12:00" ? "morning" : time < "18:00" ? "afternoon" : "evening";
}

describe("said to the agent on each day: each meant review lands in that part of its day", () => {
  const moved: string[] = [];
  test.each([1, 2, 3, 4, 5, 6, 7].flatMap((today) => SWEEPS.map((sweep) => [sweep.said, today, sweep] as const)))(
    "'%s' on day %i",
    async (_said, today, sweep) => {
      const chinese = /[\u4e00-\u9fff]/.test(sweep.said);
      const week = halfPlacedWeek({ chinese });
      const times = week.window.slotTimes!;
      const now = () => new Date(`2024-03-${String(10 + today).padStart(2, "0")}T08:00:00+08:00`);
      const outcome = await converse(await offlineTempo(week, now), sweep.said);
      // A review is wholly in a part when its first slot starts and its last slot ends in it (an evening ends by 24:00).
      const wholly = (first: number, last: number, part: Part) =>
        partOf(times[first - 1]!.start) === part && partOf(times[last - 1]!.start) === part;
      const started = (day: number, first: number) =>
        day < today || (day === today && times[first - 1]!.start <= "08:00");
      const meant = (day: number, first: number, last: number) =>
        !started(day, first) &&
        (!sweep.todayOnly || day === today) &&
        (sweep.from === undefined || partOf(times[first - 1]!.start) === sweep.from) &&
        !(sweep.days === 0 && wholly(first, last, sweep.into));
      const before = placedRanges(week);
      const after = placedRanges(outcome.schedule);
      for (const [id, [day, first, last]] of before) {
        const [nowDay, nowFirst, nowLast] = after.get(id)!;
        if (!meant(day, first, last))
          expect([nowDay, nowFirst, nowLast], `${id} is not meant: it stays`).toEqual([day, first, last]);
        else if (nowDay === day && nowFirst === first)
          expect(outcome.finalAnswer, `${id} stays: the answer says so`).toMatch(/stays|保留|不动/);
        else {
          expect(nowDay, `${id} lands on its day ${sweep.days === 0 ? "" : "+1"}`).toBe(day + sweep.days);
          expect(wholly(nowFirst, nowLast, sweep.into), `${id} lands in the ${sweep.into}`).toBe(true);
          moved.push(id);
        }
      }
      // Nothing meant: no card at all.
      if (![...before].some(([, [day, first, last]]) => meant(day, first, last)))
        expect(outcome.cards.map((card) => card.action)).not.toContain("batch_move");
      expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
    },
  );

  test("the sweep moved reviews (it is not vacuous)", () => {
    expect(new Set(moved).size).toBeGreaterThan(2);
  });
});

test("the plan's step says where they go: '… to Monday evening', '… 1 day later, into the evening'", async () => {
  const monday = () => new Date("2024-03-11T08:00:00+08:00");
  const sameDay = await converse(await offlineTempo(halfPlacedWeek(), monday), "move today's reviews to tonight");
  expect(sameDay.planSteps).toEqual(["Move all of Monday's reviews to Monday evening"]);
  const nextDay = await converse(
    await offlineTempo(halfPlacedWeek(), monday),
    "move Monday's reviews to Tuesday evening",
  );
  expect(nextDay.planSteps).toEqual(["Push all of Monday's reviews 1 day later, into the evening"]);
  const chinese = await converse(
    await offlineTempo(halfPlacedWeek({ chinese: true }), monday),
    "把今天的复习都挪到明天晚上",
  );
  expect(chinese.planSteps).toEqual(["把周一的所有复习往后推1天，挪到晚上"]);
});
