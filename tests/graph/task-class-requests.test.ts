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

  test.each([
    ["add a 2-slot task formula sheet to calculus before the midterm", "formula sheet", 2],
    ["给微积分添加任务：公式表，在期中考试之前", "公式表", 1],
  ])("'%s' adds the task due before the midterm, read from the events", async (request, name, duration) => {
    const outcome = await converse(await offlineTempo(sampleWeek()), request);
    expect(outcome.toolCalls).toContain("list_tasks");
    const card = outcome.cards.find((entry) => entry.action === "add_task");
    expect(card?.args).toEqual({ name, class_id: "calculus", duration, due_before_event: "sat-calculus-midterm" });
    const added = outcome.schedule.tasks.find((task) => task.name === name);
    expect(added).toMatchObject({ status: "pending", dueBefore: { eventId: "sat-calculus-midterm" } });
  });

  test("an add before an event the week does not have adds nothing, and says so", async () => {
    const week = sampleWeek();
    const outcome = await converse(await offlineTempo(week), "add a task formula sheet to calculus before the party");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.said.join("\n")).toContain('I found no event matching "party", so nothing was added.');
    expect(outcome.schedule.tasks).toHaveLength(week.tasks.length);
  });
});
