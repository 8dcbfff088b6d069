/**
 * What is said at the end of a study day, and of a week: "I'm done for the day, move the rest to tomorrow", "push the
 * rest to tomorrow", "剩下的都挪到明天", "move my weekend reviews to Friday". Before, the first was refused as two
 * requests, "the rest" was sought as a task named "rest", "I'm done for today" as a task named "for", and "weekend
 * reviews" as a task of that name.
 *
 * Swept over every day of two sample weeks: the test works out from the fixture alone which reviews are meant (today's
 * not yet started; the weekend's) and the day each must land on; after the conversation each is there (or where it
 * was, and the answer says why), and every other review is where it was.
 */
import { describe, expect, test } from "vitest";
import { parseScheduleRequest } from "../../tools/schedule/request-parsing.js";
import { checkScheduleInvariants, type ScheduleState } from "../../tools/schedule/index.js";
import {
  converse,
  crowdedMondayWeek,
  halfPlacedWeek,
  offlineTempo,
  placedRanges,
} from "./support/offline-conversation.js";

const TO_TOMORROW = { to: { only: { dates: [{ kind: "offset", days: 1 }] } } };

describe("reading: the rest of the day, stopping, the weekend", () => {
  test.each([
    "I'm done for the day, move the rest to tomorrow",
    "done for today, push the rest to tomorrow",
    "I'm done for the day. Push the rest to tomorrow.",
    "that's enough for today, push the rest to tomorrow",
    "push the rest to tomorrow",
    "push the rest of my reviews to tomorrow",
    "move everything else to tomorrow",
    "剩下的都挪到明天",
    "今天就到这里，剩下的挪到明天",
    // (Said twice: both clauses go at once — read one by one, a run of them held the stack, and every user.)
    "I'm done for today, I'm done for the day, push the rest to tomorrow",
  ])("'%s' is today's reviews to tomorrow", (said) => {
    expect(parseScheduleRequest(said)).toMatchObject({ kind: "shift_all", fromToday: 0, ...TO_TOMORROW });
  });

  test("'push the rest back an hour' is today's reviews an hour later", () => {
    expect(parseScheduleRequest("push the rest back an hour")).toEqual({
      kind: "shift_all",
      minutes: 60,
      fromToday: 0,
    });
  });

  test.each(["I'm done for today", "done for tonight", "今天就到这里"])(
    "'%s' alone marks no task (before, a task named 'for')",
    (said) => {
      expect(parseScheduleRequest(said).kind).toBe("unknown");
    },
  );

  test("a task done is still a task done: 'I'm done', 'I'm done with the essay'", () => {
    expect(parseScheduleRequest("I'm done")).toMatchObject({ kind: "mark", task: "it", to: "done" });
    expect(parseScheduleRequest("I'm done with the essay")).toMatchObject({ kind: "mark", task: "essay" });
  });

  test.each(["move my weekend reviews to friday", "push the weekend's reviews to friday", "把周末的复习都挪到周五"])(
    "'%s' is Saturday's and Sunday's reviews",
    (said) => {
      expect(parseScheduleRequest(said)).toMatchObject({
        kind: "shift_all",
        weekday: 6,
        more: [{ weekday: 7 }],
        to: { only: { weekdays: [5] } },
      });
    },
  );
});

const WEEKS = { "half-placed": halfPlacedWeek, "crowded Monday": crowdedMondayWeek };

/** `said` on `name`'s week, day `day` at `at`: each review `meant` lands on `target(day)` or stays, named; no other moves. */
async function expectMoved(
  said: string,
  name: string,
  day: number,
  at: string,
  meant: (place: [number, number, number], times: ScheduleState["window"]["slotTimes"]) => boolean,
  target: number,
  moved: string[],
): Promise<void> {
  const chinese = /[\u4e00-\u9fff]/.test(said);
  const week = name === "half-placed" ? halfPlacedWeek({ chinese }) : WEEKS[name as keyof typeof WEEKS]();
  const now = () => new Date(`2024-03-${String(10 + day).padStart(2, "0")}T${at}:00+08:00`);
  const outcome = await converse(await offlineTempo(week, now), said);
  const after = placedRanges(outcome.schedule);
  for (const [id, place] of placedRanges(week)) {
    const now = after.get(id)!;
    if (!meant(place, week.window.slotTimes)) expect(now, `${id} is not meant: it stays`).toEqual(place);
    else if (now[0] === place[0] && now[1] === place[1])
      expect(outcome.finalAnswer, `${id} stays: the answer says why`).toMatch(/stays|保留|no review|没有/);
    else {
      expect(now[0], `${id} lands on day ${target}`).toBe(target);
      moved.push(id);
    }
  }
  expect(checkScheduleInvariants(outcome.schedule)).toEqual([]);
}

describe("said on each day: the rest of today goes to tomorrow, nothing else moves", () => {
  const moved: string[] = [];
  const cases = Object.keys(WEEKS).flatMap((name) =>
    [1, 2, 3, 4, 5, 6, 7].flatMap((day) =>
      ["I'm done for the day, move the rest to tomorrow", "剩下的都挪到明天"].map((said) => [said, name, day] as const),
    ),
  );
  test.each(cases)("'%s' on the %s week, day %i at 12:00", async (said, name, day) => {
    // Today's reviews that have not started by noon (on Sunday, tomorrow is outside the week: each stays, named).
    await expectMoved(
      said,
      name,
      day,
      "12:00",
      ([onDay, first], times) => onDay === day && times![first - 1]!.start > "12:00",
      day + 1,
      moved,
    );
  });

  test("the sweep moved reviews (it is not vacuous)", () => {
    expect(new Set(moved).size).toBeGreaterThan(1);
  });
});

describe("said on each weekday: the weekend's reviews go to Friday, nothing else moves", () => {
  const moved: string[] = [];
  const cases = Object.keys(WEEKS).flatMap((name) =>
    [1, 2, 3, 4, 5].flatMap((day) =>
      ["move my weekend reviews to friday", "把周末的复习都挪到周五"].map((said) => [said, name, day] as const),
    ),
  );
  test.each(cases)("'%s' on the %s week, day %i at 08:00", async (said, name, day) => {
    await expectMoved(said, name, day, "08:00", ([onDay]) => onDay >= 6, 5, moved);
  });

  test("the sweep moved reviews (it is not vacuous)", () => {
    expect(new Set(moved).size).toBeGreaterThan(1);
  });
});
