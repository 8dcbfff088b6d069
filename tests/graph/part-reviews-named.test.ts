/**
 * "Move Thursday morning's reviews to the evening", "move tomorrow morning's reviews to the afternoon",
 * "把周四上午的复习都挪到下午": the reviews that begin in that part of that day. Before, "morning's reviews" matched no
 * review of Thursday and the answer said **no review was placed on Thursday** while one was; "tomorrow morning's
 * reviews" was sought as a task of that name; and "周四的复习都" (with "all") said Thursday had none.
 *
 * Swept over every day and part of the sample week, in both languages, against what the week itself holds (worked out
 * by the test from the placed reviews' slots): none there — the answer says so, naming the day and part, and nothing
 * moves; one — it moves, to the part said on its own day, and nothing else moves; several — which one is asked.
 */
import { describe, expect, test } from "vitest";
import {
  converse,
  crowdedMondayWeek,
  halfPlacedWeek,
  offlineTempo,
  reviewPlaces,
} from "./support/offline-conversation.js";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const WEEKDAYS_ZH = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"] as const;
const PARTS = { morning: [1, 4], afternoon: [5, 8], evening: [9, 12] } as const;
const PARTS_ZH = { morning: "上午", afternoon: "下午", evening: "晚上" } as const;
type Part = keyof typeof PARTS;
/** Where each part's reviews are asked to go: another part of the day. */
const TARGET: Record<Part, Part> = { morning: "afternoon", afternoon: "evening", evening: "morning" };

/** The placed reviews of `week` that begin in `part` of day `day`. */
function beginningIn(places: readonly string[], day: number, part: Part): string[] {
  const [from, to] = PARTS[part];
  return places.filter((place) => {
    const [, onDay, start] = /day (\d+) slots (\d+)-/.exec(place)!.map(Number);
    return onDay === day && start! >= from && start! <= to;
  });
}

describe("the reviews of a part of a day", () => {
  const cases = (["en", "zh"] as const).flatMap((language) =>
    WEEKDAYS.flatMap((_, index) => (Object.keys(PARTS) as Part[]).map((part) => [language, index + 1, part] as const)),
  );
  test.each(cases)("%s: day %i, %s", async (language, day, part) => {
    const target = TARGET[part];
    const said =
      language === "en"
        ? `move ${WEEKDAYS[day - 1]!.toLowerCase()} ${part}'s reviews to the ${target}`
        : `把${WEEKDAYS_ZH[day - 1]}${PARTS_ZH[part]}的复习都挪到${PARTS_ZH[target]}`;
    const week = halfPlacedWeek({ chinese: language === "zh" });
    const outcome = await converse(await offlineTempo(week), said);
    const before = reviewPlaces(week);
    const after = reviewPlaces(outcome.schedule);
    const there = beginningIn(before, day, part);
    if (there.length === 0) {
      expect(after).toEqual(before);
      const dayPart = language === "en" ? `${WEEKDAYS[day - 1]} ${part}` : `${WEEKDAYS_ZH[day - 1]}${PARTS_ZH[part]}`;
      expect(outcome.said.join("\n")).toContain(
        language === "en" ? `No review is placed on ${dayPart}` : `${dayPart}没有安排复习`,
      );
      return;
    }
    expect(there).toHaveLength(1);
    const [id] = there[0]!.split(" ");
    const moved = after.find((place) => place.startsWith(`${id} `))!;
    // Moved within its day, into the part said; every other review where it was.
    expect(moved).not.toBe(there[0]);
    expect(beginningIn([moved], day, target)).toEqual([moved]);
    expect(after.filter((place) => place !== moved)).toEqual(before.filter((place) => place !== there[0]));
  });

  test("the sweep meets both: a part holding a review and one holding none", () => {
    const held = cases.map(([, day, part]) => beginningIn(reviewPlaces(halfPlacedWeek()), day, part).length);
    expect(held).toContain(0);
    expect(held).toContain(1);
  });

  test("said from today: 'tomorrow morning's reviews', '明天上午的复习', named by tomorrow's weekday", async () => {
    // Said on Wednesday: tomorrow is Thursday, whose morning holds the vocabulary list (08:00).
    const now = () => new Date("2024-03-13T14:05:00+08:00");
    for (const said of ["move tomorrow morning's reviews to the afternoon", "把明天上午的复习挪到下午"]) {
      const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(said) });
      const outcome = await converse(await offlineTempo(week, now), said);
      expect(outcome.planSteps[0]).toMatch(/thursday morning's reviews|周四上午的复习/);
      const moved = reviewPlaces(outcome.schedule).find((place) => place.startsWith("vocabulary-list "))!;
      expect(beginningIn([moved], 4, "afternoon")).toEqual([moved]);
    }
  });

  test("several reviews in the part: which one is asked, naming each, and nothing moves", async () => {
    const week = crowdedMondayWeek();
    const outcome = await converse(await offlineTempo(week), "move monday evening's reviews to the morning");
    expect(outcome.cards.map((card) => card.action)).toContain("ask_user");
    for (const id of beginningIn(reviewPlaces(week), 1, "evening").map((place) => place.split(" ")[0]!))
      expect(outcome.said.join("\n")).toContain(id);
    expect(reviewPlaces(outcome.schedule)).toEqual(reviewPlaces(week));
  });
});
