/**
 * A time that leaves no slot of the day, through the graph with the offline policy. "schedule the matrix review on
 * Friday before 8:30" planned "on Friday, in slots 1-0" and, once approved, the user read "invalid arguments for
 * propose_arrangement: slots.to: Too small". Now the plan stage asks for another time before any plan card, and the
 * answer's time takes the place of the one asked; feedback on the plan card that leaves no slot keeps the plan and
 * says why; a step edited to name an empty window ends without a tool call, saying why.
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo, type SeenCard } from "./support/offline-conversation.js";
import { sampleWeek } from "../../tools/schedule/index.js";

const answer = (text: string) => ({ type: "response", args: text });

/** The plan card's steps with `limit` written into the first step, before its done-when (as a user edits it). */
function editedFirstStep(card: SeenCard, limit: string) {
  const [first = "", ...rest] = String(card.args.steps).split("\n");
  const steps = [first.replace(/ — done when:| — 完成标志：/, (mark) => `${limit}${mark}`), ...rest].join("\n");
  return { type: "edit", args: { action: "confirm_plan", args: { steps } } };
}

describe("a time that leaves no slot of the day", () => {
  test("is asked about before any plan card; the answer's time takes its place on the plan", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "schedule the matrix review on Friday before 8:30", [
      answer("before 10:00"),
      { type: "ignore", args: null },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user", "confirm_plan"]);
    expect(outcome.said[0]).toBe(
      "No slot of the day ends by 08:30: the first one runs 08:00–08:45. Which time do you mean instead?",
    );
    expect(outcome.cards[1]!.args.steps).toMatch(
      /^1\. Place the pending review tasks "matrix review" into free slots that fit them, on Friday, Mar 15, in slots 1-2 — /,
    );
    expect(outcome.toolCalls).not.toContain("propose_arrangement");
  });

  test("today's time the clock has passed is asked about too: today before 10 at 09:00", async () => {
    const tempo = await offlineTempo(sampleWeek(), () => new Date("2024-03-11T09:00:00+08:00"));
    const outcome = await converse(tempo, "schedule the matrix review today before 10", [
      answer("this evening"),
      { type: "ignore", args: null },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user", "confirm_plan"]);
    expect(outcome.said[0]).toBe(
      "The time asked for today has passed: it is 09:00 now, and the last slot it allows started at 08:55. Which time do you mean instead?",
    );
    expect(outcome.cards[1]!.args.steps).toMatch(/in the evening \(slots 9-12\) — /);
  });

  test("an answer that leaves no slot either is asked about again", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "schedule the matrix review on Friday before 8:30", [
      answer("after 22:30"),
      answer("in the evening"),
      { type: "ignore", args: null },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["ask_user", "ask_user", "confirm_plan"]);
    expect(outcome.said[1]).toMatch(/^No slot of the day starts at 22:30 or later: the last one runs 21:45–22:30\./);
    expect(outcome.cards[2]!.args.steps).toMatch(/on Friday, Mar 15, in the evening \(slots 9-12\) — /);
  });

  test("feedback on the plan card that leaves no slot keeps the plan and says why", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "schedule the matrix review on Friday", [
      answer("only after 22:30"),
      { type: "ignore", args: null },
    ]);
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan", "confirm_plan"]);
    expect(outcome.cards[1]!.args.steps).toEqual(outcome.cards[0]!.args.steps);
    expect(outcome.said).toContain(
      "No slot of the day starts at 22:30 or later: the last one runs 21:45–22:30; the plan is unchanged.",
    );
  });

  test("a place step edited to slots 1-0: no tool gets the empty range, and the step says why", async () => {
    const tempo = await offlineTempo(sampleWeek());
    const outcome = await converse(tempo, "schedule the matrix review on Friday", (card) =>
      card.action === "confirm_plan" ? editedFirstStep(card, ", in slots 1-0") : { type: "accept", args: null },
    );
    expect(outcome.toolCalls).not.toContain("propose_arrangement");
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.said).toContain("No slot of the day is in slots 1-0 (a day has slots 1-12); nothing was placed.");
    expect(outcome.finalAnswer).toMatch(
      /^- \[not carried out\] [^\n]* — no slot of the day is in slots 1-0 \(a day has slots 1-12\)/m,
    );
    expect(outcome.finalAnswer).not.toMatch(/invalid arguments|Too small/);
  });

  test("a Chinese place step edited to 第5-3节: said in Chinese, no tool called with it", async () => {
    const tempo = await offlineTempo(halfPlacedWeek({ chinese: true }));
    const outcome = await converse(tempo, "把链表习题安排到周五", (card) =>
      card.action === "confirm_plan" ? editedFirstStep(card, "（第5-3节）") : { type: "accept", args: null },
    );
    expect(outcome.toolCalls).not.toContain("propose_arrangement");
    expect(outcome.said).toContain("一天中没有第5-3节（一天有第1-12节）；没有安排任何任务。");
    expect(outcome.finalAnswer).toMatch(/^- \[未执行\] [^\n]* — 一天中没有第5-3节（一天有第1-12节）/m);
  });

  test("a move step edited to an empty window proposes no move", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const outcome = await converse(tempo, "move the matrix review to Friday", (card) =>
      card.action === "confirm_plan" ? editedFirstStep(card, ", slots 1-0") : { type: "accept", args: null },
    );
    expect(outcome.cards.map((card) => card.action)).toEqual(["confirm_plan"]);
    expect(outcome.said).toContain("No slot of the day is in slots 1-0 (a day has slots 1-12); nothing was moved.");
  });
});
