/**
 * Short replies that call a card off ("cancel", "never mind", "nvm", "算了", "取消"), typed as feedback on a plan
 * card or a write card, decline it exactly as the explicit reject without feedback does: the plan is dropped, the
 * write left out, with the same words and the week unchanged — never a replan, nor "Offline, I can't act on …".
 */
import { describe, expect, test } from "vitest";
import { converse, halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const REQUEST = "move the matrix review to thursday";
const SHORT = ["cancel", "never mind", "nvm", "算了", "取消"];
const IGNORE = { type: "ignore", args: null };
const ACCEPT = { type: "accept", args: null };

/** What a conversation said and did, for comparing two of them. */
async function outcomeOf(answers: Array<{ type: string; args: unknown }>) {
  const tempo = await offlineTempo(halfPlacedWeek());
  const outcome = await converse(tempo, REQUEST, answers, "t-short");
  return {
    cards: outcome.cards.map((card) => card.action),
    said: outcome.said,
    finalAnswer: outcome.finalAnswer,
    schedule: outcome.schedule,
  };
}

describe("a short reply that calls a card off", () => {
  test.each(SHORT)("'%s' on the plan card drops the plan as a reject does", async (reply) => {
    // Before, "never mind" and "nvm" were read as feedback: the plan was revised and the move raised again.
    const rejected = await outcomeOf([IGNORE]);
    const replied = await outcomeOf([{ type: "response", args: reply }]);
    expect(rejected.cards).toEqual(["confirm_plan"]);
    expect(replied).toEqual(rejected);
    expect(replied.schedule).toEqual(halfPlacedWeek());
  });

  test.each(SHORT)("'%s' on the write card leaves the write out as a reject does", async (reply) => {
    // Before, "cancel", "nvm" and "取消" were answered "Offline, I can't act on …" and quoted in the answer.
    const rejected = await outcomeOf([ACCEPT, IGNORE]);
    const replied = await outcomeOf([ACCEPT, { type: "response", args: reply }]);
    expect(rejected.cards).toEqual(["confirm_plan", "move"]);
    expect(replied).toEqual(rejected);
    expect(replied.said.join("\n")).not.toContain("Offline, I can't act on");
    expect(replied.schedule).toEqual(halfPlacedWeek());
  });
});
