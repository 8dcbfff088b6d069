/**
 * Requests that name a task class or an exam (issue 30), offline on the sample week, whose calculus reviews are due
 * before Saturday's calculus midterm: "arrange my calculus reviews" places both calculus reviews and nothing else;
 * "... before the midterm" keeps them to the days before it (read from the events); an event the week does not have
 * gets an honest answer and nothing placed.
 */
import { describe, expect, test } from "vitest";
import { sampleWeek } from "../../tools/schedule/index.js";
import { converse, offlineTempo, placeOf } from "./support/offline-conversation.js";

const CALCULUS = ["review-limits", "derivative-drills"];
const placedIds = (outcome: { cards: Array<{ action: string; args: Record<string, unknown> }> }) =>
  outcome.cards.filter((card) => card.action === "place").map((card) => String(card.args.task_id));

describe("requests naming a class or an exam", () => {
  test("'arrange my calculus reviews' places both calculus reviews, and nothing else", async () => {
    const outcome = await converse(await offlineTempo(sampleWeek()), "arrange my calculus reviews");
    expect(placedIds(outcome).sort()).toEqual([...CALCULUS].sort());
    for (const id of CALCULUS) expect(placeOf(outcome.schedule, id)).not.toBe("pending");
    expect(placeOf(outcome.schedule, "matrix-review")).toBe("pending");
  });

  test("'... before the midterm' keeps them to the days before Saturday's exam, and the plan says so", async () => {
    const outcome = await converse(
      await offlineTempo(sampleWeek()),
      "Please arrange my calculus reviews before the midterm",
    );
    expect(outcome.planSteps[0]).toMatch(/"calculus reviews".*, before the midterm$/);
    expect(outcome.toolCalls).toContain("list_tasks");
    expect(placedIds(outcome).sort()).toEqual([...CALCULUS].sort());
    for (const card of outcome.cards.filter((entry) => entry.action === "place"))
      expect(Number(card.args.day)).toBeLessThan(6);
  });

  test("an event the week does not have: an honest answer, nothing placed", async () => {
    const outcome = await converse(await offlineTempo(sampleWeek()), "arrange my reviews before the party");
    expect(placedIds(outcome)).toEqual([]);
    expect(outcome.said.join("\n")).toContain('I found no event matching "party", so nothing was placed.');
    expect(outcome.finalAnswer ?? "").not.toMatch(/^Placed what you asked/);
  });
});
