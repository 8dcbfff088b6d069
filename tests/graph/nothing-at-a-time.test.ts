/**
 * "Don't schedule anything tonight", "今晚不要安排任何东西", "今晚什么都不要安排": the time kept free, as "keep tonight free"
 * and "今晚要空着" keep it — every review there that has not started moved out of it. Before, the English arranged
 * every pending review elsewhere and left tonight's where they were, the Chinese asked which task "任何东西" was, and
 * "don't schedule anything this afternoon" was refused as a standing preference that cannot be kept.
 *
 * Said at moments of the sample week when the part named holds a review still ahead and when it holds none, each
 * request is held to its twin and, independently, to the week after it: no review left in that part that starts after
 * the clock, every other review where it was.
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

const PART_SLOTS = { morning: [1, 4], afternoon: [5, 8], evening: [9, 12] } as const;

/** [said, twin, day of the sample week said on, time, the day of the part named, the part]. */
const CASES = [
  ["don't schedule anything this afternoon", "keep this afternoon free", 1, "10:00", 1, "afternoon"],
  ["今天下午不要安排任何东西", "今天下午要空着", 1, "10:00", 1, "afternoon"],
  ["don't schedule anything this morning", "keep this morning free", 2, "08:00", 2, "morning"],
  ["do not plan anything tomorrow morning", "keep tomorrow morning free", 3, "20:00", 4, "morning"],
  ["明天上午别安排任何事", "明天上午要空着", 5, "12:00", 6, "morning"],
  ["don't schedule anything tonight", "keep tonight free", 1, "10:00", 1, "evening"],
  ["今晚什么都不要安排", "今晚要空着", 2, "09:00", 2, "evening"],
  ["今晚不要安排任何东西", "今晚要空着", 4, "15:00", 4, "evening"],
  ["schedule nothing tomorrow", "keep tomorrow free", 5, "09:00", 6, undefined],
] as const;

/** The week after `said` on the half-placed sample week at `time` on day `today`, every card accepted. */
async function weekAfter(said: string, today: number, time: string) {
  const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(said) });
  const now = () => new Date(`2024-03-${String(10 + today).padStart(2, "0")}T${time}:00+08:00`);
  return { week, outcome: await converse(await offlineTempo(week, now), said) };
}

describe("nothing at a time: the time kept free", () => {
  test.each(CASES)("'%s' keeps the time free as '%s' does", async (said, twin, today, time, day, part) => {
    const [{ week, outcome }, twinned] = await Promise.all([
      weekAfter(said, today, time),
      weekAfter(twin, today, time),
    ]);
    expect(reviewPlaces(outcome.schedule)).toEqual(reviewPlaces(twinned.outcome.schedule));
    expect(outcome.cards.map((card) => card.action)).not.toContain("ask_user");
    const [from, to] = part ? PART_SLOTS[part] : [1, 12];
    const inPart = (place: string) => {
      const [, onDay, start] = /day (\d+) slots (\d+)-/.exec(place)!.map(Number);
      return onDay === day && start! >= from && start! <= to;
    };
    const slotTimes = week.window.slotTimes!;
    const ahead = (place: string) => {
      const [, onDay, start] = /day (\d+) slots (\d+)-/.exec(place)!.map(Number);
      return onDay! > today || (onDay === today && slotTimes[start! - 1]!.start > time);
    };
    const before = reviewPlaces(week);
    const after = reviewPlaces(outcome.schedule);
    // Nothing ahead is left in the part, and every review outside it stays where it was.
    expect(after.filter((place) => inPart(place) && ahead(place))).toEqual([]);
    const id = (place: string) => place.split(" ")[0];
    for (const place of before.filter((entry) => !(inPart(entry) && ahead(entry))))
      expect(after.find((entry) => id(entry) === id(place))).toBe(place);
    // A part that held a review ahead had it moved, on one card; one that held none was left with no card.
    const moved = before.filter((place) => inPart(place) && ahead(place));
    expect(outcome.cards.some((card) => card.action === "batch_move")).toBe(moved.length > 0);
  });

  test("the moments chosen cover both: a part with a review still ahead, and one with none", async () => {
    const held = CASES.map(([, , today, time, day, part]) => {
      const week = halfPlacedWeek();
      const [from, to] = part ? PART_SLOTS[part] : [1, 12];
      return reviewPlaces(week).some((place) => {
        const [, onDay, start] = /day (\d+) slots (\d+)-/.exec(place)!.map(Number);
        const ahead = onDay! > today || (onDay === today && week.window.slotTimes![start! - 1]!.start > time);
        return onDay === day && start! >= from && start! <= to && ahead;
      });
    });
    expect(held).toContain(true);
    expect(held).toContain(false);
  });

  test("'never in the afternoon', with no day said, is still answered that the afternoon alone cannot be kept out", async () => {
    const { outcome } = await weekAfter("never in the afternoon", 1, "10:00");
    expect(outcome.said.join("\n")).toMatch(/not the afternoon alone/);
    expect(reviewPlaces(outcome.schedule)).toEqual(reviewPlaces(halfPlacedWeek()));
  });
});

/**
 * "Free up my evening", "clear my afternoon", "keep my morning free": a part of the day with "my" and no day is
 * today's, as "this afternoon" is. Before, the first asked when the evenings were free and the others were not
 * understood.
 */
describe("my part of the day: today's", () => {
  test.each([
    ["clear my afternoon", "clear this afternoon", 1, "10:00", "review-limits"],
    ["free up my afternoon", "free up this afternoon", 1, "10:00", "review-limits"],
    ["keep my morning free", "keep this morning free", 2, "08:00", "matrix-review"],
    ["leave my afternoon open", "leave this afternoon open", 1, "10:00", "review-limits"],
  ] as const)("'%s' does what '%s' does", async (said, twin, today, time, review) => {
    const [{ week, outcome }, twinned] = await Promise.all([
      weekAfter(said, today, time),
      weekAfter(twin, today, time),
    ]);
    expect(outcome.schedule).toEqual(twinned.outcome.schedule);
    // The review of that part of today is no longer there; every other review is where it was.
    const before = reviewPlaces(week);
    const after = reviewPlaces(outcome.schedule);
    const was = before.find((place) => place.startsWith(`${review} `))!;
    expect(after).not.toContain(was);
    expect(after.filter((place) => !place.startsWith(`${review} `))).toEqual(before.filter((place) => place !== was));
  });

  test("'free up my evening' with no review tonight changes nothing and asks nothing", async () => {
    const { week, outcome } = await weekAfter("free up my evening", 1, "10:00");
    expect(outcome.cards).toEqual([]);
    expect(outcome.said.join("\n")).not.toMatch(/You are free/);
    expect(reviewPlaces(outcome.schedule)).toEqual(reviewPlaces(week));
  });
});

/**
 * "Clear Thursday morning", "free up this evening": the reviews that lie in that part are taken off, and a part that
 * holds none is said so with its part. Before, a part with none on a day with a review elsewhere raised a plan card
 * and then answered that no review was placed on that day at all.
 */
describe("clearing a part of a day", () => {
  const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
  test.each(
    WEEKDAYS.flatMap((weekday, index) =>
      (["morning", "afternoon", "evening"] as const).map((part) => [weekday, part, index + 1] as const),
    ),
  )("clear %s %s", async (weekday, part, day) => {
    const { week, outcome } = await weekAfter(`clear ${weekday} ${part}`, 0, "20:00");
    const [from, to] = PART_SLOTS[part];
    const before = reviewPlaces(week);
    const inPart = before.filter((place) => {
      const [, onDay, start, end] = /day (\d+) slots (\d+)-(\d+)/.exec(place)!.map(Number);
      return onDay === day && start! <= to && end! >= from;
    });
    const after = reviewPlaces(outcome.schedule);
    expect(after).toEqual(before.filter((place) => !inPart.includes(place)));
    if (inPart.length === 0) {
      expect(outcome.cards).toEqual([]);
      expect(outcome.said.join("\n")).toContain(`in the ${part}, so there is nothing to clear`);
    }
  });
});
