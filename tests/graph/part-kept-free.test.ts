/**
 * "Arrange a review today but not tonight", "今天帮我安排一个复习，今晚不要", "arrange my reviews, not Friday evening":
 * a part of one day ruled out keeps that part free and still uses the rest of the day. Before, the arrangement kept
 * the whole day free — "today but not tonight" read "on Tuesday, not on Tuesday" and placed nothing — and "i'm busy",
 * "不要", "不行" left over from the clause that ruled tonight out were sought as tasks.
 *
 * Held on a week half over, said at three times of each day of the sample week, against a brute-force oracle that
 * shares none of the arrangement search: the most pending reviews the place tool alone can put on today together,
 * none in a slot that has started nor in the evening (`maximumPlaceable`, its parts kept free counted slot by slot).
 */
import { describe, expect, test } from "vitest";
import { maximumPlaceable } from "../schedule/exact-solver.js";
import { converse, halfPlacedWeek, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const TIMES = ["09:00", "14:05", "18:00"] as const;
const REQUESTS = [
  ["arrange a review today but not tonight", 1],
  ["今天帮我安排一个复习，今晚不要", 1],
  ["arrange my reviews today, not tonight", Number.POSITIVE_INFINITY],
] as const;

/** The sample week's slot numbers of the evening (from 19:00 on), read off its slot times. */
function eveningSlots(): { from: number; to: number } {
  const times = halfPlacedWeek().window.slotTimes!;
  const from = times.findIndex((slot) => slot.start >= "19:00") + 1;
  return { from, to: times.length };
}

/** The slots of the day that have started by `time` ("HH:MM"), as a part kept free (none: undefined). */
function startedBy(day: number, time: string): { day: number; from: number; to: number } | undefined {
  const started = halfPlacedWeek().window.slotTimes!.filter((slot) => slot.start <= time).length;
  return started > 0 ? { day, from: 1, to: started } : undefined;
}

/** Slot `n`'s start ("HH:MM") in the sample week. */
const startOf = (slot: number) => halfPlacedWeek().window.slotTimes![slot - 1]!.start;

describe("a part of one day kept free, the rest of it used", () => {
  test.each(
    REQUESTS.flatMap(([said, count]) =>
      WEEKDAYS.flatMap((weekday, index) => TIMES.map((time) => [said, weekday, time, count, index + 1] as const)),
    ),
  )(
    "'%s' on %s at %s: as many as the oracle puts today before the evening",
    async (said, _weekday, time, count, today) => {
      const chinese = /[\u4e00-\u9fff]/.test(said);
      const week = halfPlacedWeek({ chinese });
      const now = () => new Date(`2024-03-${String(10 + today).padStart(2, "0")}T${time}:00+08:00`);
      const outcome = await converse(await offlineTempo(week, now), said);
      const evening = eveningSlots();
      const before = reviewPlaces(week);
      const after = reviewPlaces(outcome.schedule);
      expect(after.filter((place) => before.includes(place))).toEqual(before);
      const added = after.filter((place) => !before.includes(place));
      const kept = [{ day: today, ...evening }, ...[startedBy(today, time)].filter((entry) => entry !== undefined)];
      expect(added).toHaveLength(Math.min(count, maximumPlaceable(halfPlacedWeek(), [today], kept)));
      for (const place of added) {
        const [, day, start, end] = /day (\d+) slots (\d+)-(\d+)/.exec(place)!.map(Number);
        expect(day).toBe(today);
        expect(end).toBeLessThan(evening.from);
        expect(startOf(start!) > time).toBe(true);
      }
      // The plan says the part kept free, in the request's language.
      const weekday = WEEKDAYS[today - 1]!;
      expect(outcome.planSteps[0]).toContain(
        chinese ? `不要周${"一二三四五六日"[today - 1]}晚上` : `not on ${weekday} evening`,
      );
    },
  );

  test("'arrange my reviews, not friday evening' uses Friday before the evening; 'I'm busy thursday morning' Thursday after it", async () => {
    const evening = eveningSlots();
    for (const [said, day, kept] of [
      ["arrange my reviews on friday, not friday evening", 5, { day: 5, ...evening }],
      ["arrange my reviews on thursday, I'm busy thursday morning", 4, { day: 4, from: 1, to: 4 }],
    ] as const) {
      const week = halfPlacedWeek();
      const outcome = await converse(await offlineTempo(week), said);
      const added = reviewPlaces(outcome.schedule).filter((place) => !reviewPlaces(week).includes(place));
      expect(added.length).toBe(maximumPlaceable(halfPlacedWeek(), [day], [kept]));
      expect(added.length).toBeGreaterThan(0);
      for (const place of added) {
        const [, onDay, start, end] = /day (\d+) slots (\d+)-(\d+)/.exec(place)!.map(Number);
        expect(onDay).toBe(day);
        expect(end! < kept.from || start! > kept.to).toBe(true);
      }
    }
  });

  test("a part said of one of several days ruled out keeps them all free whole: which day it was said of is not told", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week), "arrange my reviews, not friday or saturday evening");
    expect(outcome.planSteps[0]).toMatch(/not on Friday and Saturday$/);
    const added = reviewPlaces(outcome.schedule).filter((place) => !reviewPlaces(week).includes(place));
    expect(added.length).toBeGreaterThan(0);
    for (const place of added) expect(place).not.toMatch(/ day [56] slots /);
  });

  test("the clause that rules tonight out names no task", async () => {
    for (const said of [
      "arrange my reviews today but I'm busy tonight",
      "今天帮我安排复习，今晚不行",
      "今天帮我安排复习，今晚没空",
    ]) {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(said) });
      const now = () => new Date("2024-03-12T14:05:00+08:00");
      const outcome = await converse(await offlineTempo(week, now), said);
      expect(outcome.cards.map((card) => card.action)).not.toContain("ask_user");
      expect(outcome.cards.filter((card) => card.action === "place").length).toBeGreaterThan(0);
    }
  });
});
