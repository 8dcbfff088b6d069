/**
 * Requests said the way they come out: "move my review tonight to tomorrow night" (the time after the review, not
 * "tonight's review"), "push the review this morning back an hour", "can I do the essay earlier?", "能不能把矩阵复习往后挪一点". Before, the
 * first two sought a task named "review tonight" / "review this morning" and the others were not understood. Each does what its
 * plainer twin does, and the review meant is the one that moves.
 */
import { describe, expect, test } from "vitest";
import {
  converse,
  crowdedMondayWeek,
  halfPlacedWeek,
  offlineTempo,
  reviewPlaces,
} from "./support/offline-conversation.js";

type Week = () => ReturnType<typeof halfPlacedWeek>;

/** [said, twin, the week, when (ISO), the review that must move]. */
const CASES: ReadonlyArray<readonly [string, string, Week, string, string]> = [
  [
    "move my review tonight to tomorrow night",
    "move tonight's review to tomorrow night",
    crowdedMondayWeek,
    "2024-03-15T10:00:00+08:00",
    "essay-draft",
  ],
  [
    "push the review this morning back an hour",
    "push this morning's review back an hour",
    halfPlacedWeek,
    "2024-03-12T08:00:00+08:00",
    "matrix-review",
  ],
  [
    "can I do the matrix review earlier?",
    "move the matrix review earlier",
    crowdedMondayWeek,
    "2024-03-10T20:00:00+08:00",
    "matrix-review",
  ],
  [
    "could I do the matrix review later",
    "move the matrix review later",
    halfPlacedWeek,
    "2024-03-11T20:00:00+08:00",
    "matrix-review",
  ],
  [
    "能不能把矩阵复习往后挪一点",
    "把矩阵复习挪到当天晚些时候",
    () => halfPlacedWeek({ chinese: true }),
    "2024-03-11T20:00:00+08:00",
    "matrix-review",
  ],
  [
    "矩阵复习可以晚一点吗",
    "把矩阵复习挪到当天晚些时候",
    () => halfPlacedWeek({ chinese: true }),
    "2024-03-11T20:00:00+08:00",
    "matrix-review",
  ],
];

describe("said plainly", () => {
  test.each(CASES)("'%s' does what '%s' does", async (said, twin, week, when, review) => {
    const now = () => new Date(when);
    const [outcome, twinned] = await Promise.all([
      converse(await offlineTempo(week(), now), said),
      converse(await offlineTempo(week(), now), twin),
    ]);
    expect(outcome.planSteps).toEqual(twinned.planSteps);
    expect(outcome.schedule).toEqual(twinned.schedule);
    expect(outcome.cards.map((card) => card.action)).not.toContain("ask_user");
    // The review meant moved; every other review is where it was.
    const before = reviewPlaces(week());
    const after = reviewPlaces(outcome.schedule);
    const was = before.find((place) => place.startsWith(`${review} `))!;
    expect(after).not.toContain(was);
    expect(after.filter((place) => !place.startsWith(`${review} `))).toEqual(before.filter((place) => place !== was));
  });

  test("'schedule my review tonight' still says where it goes, no review of tonight", async () => {
    const outcome = await converse(
      await offlineTempo(halfPlacedWeek(), () => new Date("2024-03-12T08:00:00+08:00")),
      "schedule my review tonight",
    );
    expect(outcome.planSteps[0]).toMatch(/^Place/);
  });
});
