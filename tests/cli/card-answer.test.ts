/** Reading answers to cards: choice words, feedback, edited arguments and edited plans. */
import { describe, expect, test } from "vitest";
import type { PlanStep } from "../../graphs/state.js";
import { planInterrupt, questionInterrupt, toolInterrupt } from "../../nodes/interrupt-cards.js";
import { readCardReply, readEditedArguments, readEditedPlan } from "../../cli/card-answer.js";

const PLAN: PlanStep[] = [
  { id: "step-1", content: "Read the notes", doneWhen: "the notes are known", status: "done", summary: "2 notes" },
  { id: "step-2", content: "Add the note", doneWhen: "list_notes shows it", status: "running" },
];
const PLAN_CARD = planInterrupt("Add a note", PLAN);
const TOOL_CARD = toolInterrupt({ id: "call-1", name: "add_note", arguments: { text: "call mom" }, summary: 'add_note {"text":"call mom"}', reason: "the user asked", speak: "" });
const QUESTION_CARD = questionInterrupt("What should the note say?");

describe("answers", () => {
  test("choice words map to v1 decisions; r asks for feedback or takes it inline", () => {
    const answer = (decision: object) => ({ kind: "answer", response: { decisions: [decision] } });
    expect(readCardReply("a", TOOL_CARD)).toEqual(answer({ type: "approve" }));
    expect(readCardReply(" Yes ", TOOL_CARD)).toEqual(answer({ type: "approve" }));
    expect(readCardReply("i", TOOL_CARD)).toEqual(answer({ type: "reject" }));
    expect(readCardReply("e", TOOL_CARD)).toEqual({ kind: "edit" });
    expect(readCardReply("r", TOOL_CARD)).toEqual({ kind: "feedback" });
    expect(readCardReply("r: not on Monday", TOOL_CARD)).toEqual(answer({ type: "reject", message: "not on Monday" }));
    expect(readCardReply("accept it later", TOOL_CARD).kind).toBe("invalid");
    expect(readCardReply("Call mom", QUESTION_CARD)).toEqual(answer({ type: "edit", edited_action: { name: "ask_user", args: { answer: "Call mom" } } }));
    expect(readCardReply("a", QUESTION_CARD)).toEqual(answer({ type: "edit", edited_action: { name: "ask_user", args: { answer: "a" } } }));
  });

  test("edited tool arguments are one JSON object, sent as an edit of the card's action", () => {
    expect(readEditedArguments('{"text":"call dad"}', TOOL_CARD)).toEqual({
      ok: true,
      response: { decisions: [{ type: "edit", edited_action: { name: "add_note", args: { text: "call dad" } } }] },
    });
    expect(readEditedArguments("[1]", TOOL_CARD)).toMatchObject({ ok: false, message: expect.stringContaining("JSON object") });
    expect(readEditedArguments("{oops", TOOL_CARD)).toMatchObject({ ok: false, message: expect.stringContaining("Not valid JSON") });
  });

  test("an edited plan is `what | done when` lines or a JSON list", () => {
    const expected = { decisions: [{ type: "edit", edited_action: { name: "confirm_plan", args: { plan_steps: [{ content: "Add it", done_when: "it is listed" }] } } }] };
    expect(readEditedPlan(["Add it | it is listed", ""], PLAN_CARD)).toEqual({ ok: true, response: expected });
    expect(readEditedPlan(['[{"content":"Add it","done_when":"it is listed"}]'], PLAN_CARD)).toEqual({ ok: true, response: expected });
    expect(readEditedPlan(["Add it"], PLAN_CARD)).toMatchObject({ ok: false, message: expect.stringContaining("Step 1 needs both parts") });
    expect(readEditedPlan([], PLAN_CARD)).toMatchObject({ ok: false });
  });
});

