/**
 * "Arrange a review tomorrow morning", "can I fit another review today?", "schedule two reviews on Friday",
 * "明天早上安排一个复习": reviews counted, none named. Before, the first placed every pending review that fit where it
 * was said, and "another review", "two reviews" were sought as tasks of those names.
 *
 * The twin is the same request uncounted ("arrange my reviews on Friday"), which places as many as fit there: the
 * counted request places just as many, up to its count, each where it was said, and changes nothing else. The twin
 * shares the arrangement search, so each count is also held to a brute-force oracle that shares none of it: the most
 * pending reviews the place tool alone can put on that day together (`maximumPlaceable`).
 */
import { describe, expect, test } from "vitest";
import { maximumPlaceable } from "../schedule/exact-solver.js";
import { converse, halfPlacedWeek, offlineTempo, reviewPlaces } from "./support/offline-conversation.js";

const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
const COUNTS = [
  ["a review", 1],
  ["another review", 1],
  ["two reviews", 2],
  ["3 reviews", 3],
  ["five reviews", 5],
] as const;

/** The places `said` adds to the half-placed week, said on the sample week's eve with every card accepted. */
async function placedBy(said: string): Promise<{ added: string[]; answer: string }> {
  const week = halfPlacedWeek({ chinese: /[\u4e00-\u9fff]/.test(said) });
  const outcome = await converse(await offlineTempo(week), said);
  const before = reviewPlaces(week);
  const after = reviewPlaces(outcome.schedule);
  // Nothing placed before is moved or taken off.
  expect(after.filter((place) => before.includes(place))).toEqual(before);
  return { added: after.filter((place) => !before.includes(place)), answer: outcome.said.join("\n") };
}

describe("reviews counted, placed up to the count", () => {
  test.each(COUNTS.flatMap(([words, count]) => DAYS.map((day, index) => [words, day, count, index + 1] as const)))(
    "'arrange %s on %s' places at most %i there, as many as the uncounted twin and the oracle allow",
    async (words, day, count, dayIndex) => {
      const [counted, twin] = await Promise.all([
        placedBy(`arrange ${words} on ${day}`),
        placedBy(`arrange my reviews on ${day}`),
      ]);
      expect(counted.added.length).toBe(Math.min(count, twin.added.length));
      expect(counted.added.length).toBe(Math.min(count, maximumPlaceable(halfPlacedWeek(), [dayIndex])));
      for (const place of counted.added) expect(place).toMatch(new RegExp(` day ${dayIndex} slots `));
    },
  );

  test.each([
    ["明天早上安排一个复习", 1],
    ["周六安排两个复习", 2],
    ["can I fit another review in on saturday?", 1],
    ["fit one more review in on friday", 1],
  ] as const)("'%s' places %i", async (said, count) => {
    const { added } = await placedBy(said);
    expect(added.length).toBeLessThanOrEqual(count);
    const twin = await placedBy(
      /周六/.test(said)
        ? "周六安排复习"
        : /friday/.test(said)
          ? "arrange my reviews on friday"
          : /saturday/.test(said)
            ? "arrange my reviews on saturday"
            : "明天早上安排复习",
    );
    expect(added.length).toBe(Math.min(count, twin.added.length));
  });

  test("a counted arrangement that fills its count says nothing is left out", async () => {
    const { added, answer } = await placedBy("schedule a review on saturday");
    expect(added).toHaveLength(1);
    expect(answer).toContain("Placed what you asked for.");
    expect(answer).not.toMatch(/left pending: /);
  });

  test("one asked for, the first proposal turned down: another is proposed, and one placed", async () => {
    const week = halfPlacedWeek();
    const outcome = await converse(await offlineTempo(week), "arrange one review on saturday", [
      { type: "accept", args: null },
      { type: "response", args: "skip this one" },
    ]);
    const places = outcome.cards.filter((card) => card.action === "place");
    expect(places).toHaveLength(2);
    expect(places[1]!.args.task_id).not.toBe(places[0]!.args.task_id);
    const before = reviewPlaces(week);
    expect(reviewPlaces(outcome.schedule).filter((place) => !before.includes(place))).toEqual([
      expect.stringMatching(new RegExp(`^${String(places[1]!.args.task_id)} day 6 `)),
    ]);
  });
});

/**
 * The same held on a week half over: said at 10:00 on Tuesday to Saturday, "arrange N reviews tomorrow" places
 * min(N, the most the place tool alone can put on tomorrow together) — tomorrow lies wholly after the clock — all on
 * tomorrow, and nothing placed before moves.
 */
describe("reviews counted, the week half over", () => {
  const cases = [2, 3, 4, 5, 6].flatMap((today) => [1, 5].map((count) => [today, count] as const));
  test.each(cases)("said on day %i at 10:00, 'arrange %i review(s) tomorrow'", async (today, count) => {
    const week = halfPlacedWeek();
    const now = () => new Date(`2024-03-${String(10 + today).padStart(2, "0")}T10:00:00+08:00`);
    const said = count === 1 ? "arrange a review tomorrow" : `arrange ${count} reviews tomorrow`;
    const outcome = await converse(await offlineTempo(week, now), said);
    const before = reviewPlaces(week);
    const after = reviewPlaces(outcome.schedule);
    expect(after.filter((place) => before.includes(place))).toEqual(before);
    const added = after.filter((place) => !before.includes(place));
    expect(added.length).toBe(Math.min(count, maximumPlaceable(week, [today + 1])));
    for (const place of added) expect(place).toMatch(new RegExp(` day ${today + 1} slots `));
  });
});
