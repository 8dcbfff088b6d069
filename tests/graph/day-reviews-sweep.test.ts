/**
 * "Push all my reviews today back a day", "I'm sick today, push everything to tomorrow", "我今天生病了，把复习都挪到明天",
 * "push today back a day", "push back a day today", "move today to tomorrow", "我今天不舒服，复习都改到明天", "把今天的都挪到明天",
 * said each morning of the week as the clock moves (07:00, +08:00, before any review of the day starts), on the
 * half-placed sample week: the week is half over from Wednesday on. Before, the first shifted every review of the week
 * and the others asked which review "everything", "复习都", "today" or "今天的" was.
 *
 * The oracle shares no reading, placing or clock code with the graph: from the fixture's data alone (`HALF_PLACED`:
 * which review sits on which day) it knows which reviews are today's. Each of them must end on the next day, or stay
 * where it was and be named in the answer (the next day full, or outside the week on Sunday); every other review must
 * be exactly where it was; with no review today nothing changes.
 */
import { describe, expect, test } from "vitest";
import type { ScheduleState } from "../../tools/schedule/index.js";
import {
  CHINESE_NAMES,
  converse,
  type ConversationOutcome,
  HALF_PLACED,
  halfPlacedWeek,
  offlineTempo,
  placeOf,
} from "./support/offline-conversation.js";

/** `at` (07:00 unless said) in Shanghai on day `day` (1 = Monday 11 March 2024) of the sample week. */
const morningOf =
  (day: number, at = "07:00") =>
  () =>
    new Date(`2024-03-${String(10 + day).padStart(2, "0")}T${at}:00+08:00`);

/**
 * The oracle every sweep here shares, from the fixture's data alone: each review `moves` picks (by its id, day and
 * first slot in `HALF_PLACED`) is on the day after its own — or, cleared (`cleared`), pending — or stays where it was
 * and is named in the answer; every other review is exactly where it was. No question is asked. The ids it picked.
 */
function expectMovedOn(
  week: ScheduleState,
  outcome: ConversationOutcome,
  moves: (day: number, firstSlot: number) => boolean,
  cleared = false,
): string[] {
  const chinese = /[\u4e00-\u9fff]/.test(week.tasks.map((task) => task.name).join(""));
  const answer = outcome.said.join("\n");
  const picked: string[] = [];
  for (const [id, [day, first]] of Object.entries(HALF_PLACED)) {
    const before = placeOf(week, id);
    const after = placeOf(outcome.schedule, id);
    if (!moves(day, first)) {
      expect(after, id).toBe(before);
      continue;
    }
    picked.push(id);
    if (cleared) expect(after, id).toBe("pending");
    else if (after !== before) expect(after, id).toMatch(new RegExp(`^day ${day + 1} `));
    else expect(answer, id).toContain(chinese ? CHINESE_NAMES[id]! : week.tasks.find((task) => task.id === id)!.name);
  }
  expect(outcome.cards.map((card) => card.action)).not.toContain("ask_user");
  return picked;
}

const REQUESTS = [
  "push all my reviews today back a day",
  "I'm sick today, push everything to tomorrow",
  "我今天生病了，把复习都挪到明天",
  "push today back a day",
  "push back a day today",
  "move today to tomorrow",
  "我今天不舒服，复习都改到明天",
  "把今天的都挪到明天",
] as const;

describe("today's reviews moved to tomorrow, the clock moved day by day", () => {
  test.each(REQUESTS.flatMap((request) => [1, 2, 3, 4, 5, 6, 7].map((day) => [request, day] as const)))(
    "'%s' on day %i",
    async (request, day) => {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
      const outcome = await converse(await offlineTempo(week, morningOf(day)), request);
      const todays = expectMovedOn(week, outcome, (placedDay) => placedDay === day);
      // No write beyond today's reviews.
      if (todays.length === 0) expect(outcome.schedule.tasks).toEqual(week.tasks);
      // On a day before Sunday with a review, one moves (the next day has room in the sample week).
      if (todays.length > 0 && day < 7)
        expect(todays.some((id) => placeOf(outcome.schedule, id) !== placeOf(week, id))).toBe(true);
    },
  );
});

const DAY_NAMES_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const DAY_NAMES_ZH = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"] as const;

/**
 * "Move Tuesday to Wednesday", "把周二挪到周三": a weekday said alone is its reviews, said each morning of the week about
 * each day to the next. The oracle, from the fixture's data and the clock's day alone: a day already past moves
 * nothing; a day from today on has each of its reviews on the next day, or where it was and named in the answer; every
 * other review stays where it was. Before, a task named "tuesday" was sought.
 */
describe("a weekday's reviews moved to the next day, the clock moved day by day", () => {
  const cases = [1, 2, 3, 4, 5, 6, 7].flatMap((today) =>
    [1, 2, 3, 4, 5, 6].flatMap((named) => [
      [`move ${DAY_NAMES_EN[named - 1]} to ${DAY_NAMES_EN[named]}`, today, named] as const,
      [`把${DAY_NAMES_ZH[named - 1]}挪到${DAY_NAMES_ZH[named]}`, today, named] as const,
    ]),
  );
  test.each(cases)("'%s' on day %i", async (request, today, named) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, morningOf(today)), request);
    const ofNamed = expectMovedOn(week, outcome, (placedDay) => placedDay === named && named >= today);
    if (named < today || ofNamed.length === 0) expect(outcome.schedule.tasks).toEqual(week.tasks);
    // A day from today on with a review: one moves (the next day has room in the sample week).
    if (named >= today && ofNamed.length > 0)
      expect(ofNamed.some((id) => placeOf(outcome.schedule, id) !== placeOf(week, id))).toBe(true);
  });
});

/**
 * "Push the rest of today to tomorrow", "今天剩下的复习都挪到明天", "clear the rest of today", said at four times of each
 * day of the week. The oracle reads the fixture and the clock alone: a review of today that has started (its first
 * slot's clock time, from the week's own slot times, at or before now) stays where it is; one still ahead goes to the
 * next day (or stays, named: the next day full, or outside the week) — or, cleared, is pending again; every other
 * review stays. Before, "the rest of today" was read as a task named "rest of" (the clear said no review was placed).
 */
describe("the rest of today, the clock moved through each day", () => {
  const REST = ["push the rest of today to tomorrow", "今天剩下的复习都挪到明天", "clear the rest of today"] as const;
  const cases = REST.flatMap((request) =>
    [1, 2, 3, 4, 5, 6, 7].flatMap((day) =>
      ["07:00", "09:00", "12:00", "15:00"].map((at) => [request, day, at] as const),
    ),
  );
  test.each(cases)("'%s' on day %i at %s", async (request, day, at) => {
    const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(request) });
    const outcome = await converse(await offlineTempo(week, morningOf(day, at)), request);
    const startOf = (slot: number) => week.window.slotTimes![slot - 1]!.start;
    expectMovedOn(
      week,
      outcome,
      (placedDay, first) => placedDay === day && startOf(first) > at,
      request.startsWith("clear"),
    );
  });
});
