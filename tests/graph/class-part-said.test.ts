/**
 * "calculus only in the mornings" sets the class's preferred part of the day — a preference the search keeps where the
 * week has room (`TaskCategory.preferredParts`, soft) — and the card said "prefers the morning", but the plan and the
 * reply said "mornings only", a rule nothing keeps. They now say what is kept, in English and Chinese; the write is as
 * before.
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

describe("a class's part of the day is said as the preference it is", () => {
  test.each([
    ["calculus only in the mornings", /prefers the morning \(where the week has room; elsewhere when it has none\)/],
    ["make calculus mornings only", /prefers the morning \(where the week has room; elsewhere when it has none\)/],
    ["微积分只在上午", /优先安排在上午（有空时；没有空时也会排在别的时段）/],
  ])("%s", async (request, said) => {
    const outcome = await converse(await offlineTempo(halfPlacedWeek()), request);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "upsert_task_class"]);
    expect(outcome.cards[1]!.args).toMatchObject({ class_id: "calculus", preferred_parts: ["morning"] });
    // (The plan card quotes the request itself: what Tempo says is its plan, its steps and its replies.)
    const told = [...outcome.said, ...outcome.planSteps].join("\n");
    expect(told).toMatch(said);
    expect(told).not.toMatch(/mornings only|只在上午/);
    expect(outcome.descriptions[1]).toMatch(/prefers the morning|偏好上午/);
    expect(outcome.schedule.categories.find((category) => category.id === "calculus")?.preferredParts).toEqual([
      "morning",
    ]);
  });
});
