/** Reading answers to cards: choice words, feedback, edited arguments and edited plans. */
import { describe, expect, test } from "vitest";
import type { PlanStep } from "../../kernel/state.js";
import { batchInterrupt, planInterrupt, questionInterrupt, toolInterrupt } from "../../review/interrupt-cards.js";
import {
  choicesOf,
  feedbackResponse,
  readCardReply,
  readEditedArguments,
  readEditedPlan,
} from "../../cli/card-answer.js";

const PLAN: PlanStep[] = [
  { id: "step-1", content: "Read the notes", doneWhen: "the notes are known", status: "done", summary: "2 notes" },
  { id: "step-2", content: "Add the note", doneWhen: "list_notes shows it", status: "running" },
];
const PLAN_CARD = planInterrupt("Add a note", PLAN);
const TOOL_CARD = toolInterrupt({
  id: "call-1",
  name: "add_note",
  arguments: { text: "call mom" },
  summary: 'add_note {"text":"call mom"}',
  reason: "the user asked",
});
const QUESTION_CARD = questionInterrupt("What should the note say?");
const note = (index: number, text: string) => ({
  id: `call-${index}`,
  name: "add_note",
  arguments: { text },
  summary: `add_note ${text}`,
  reason: "the user asked",
});
const BATCH_CARD = batchInterrupt([note(1, "call mom"), note(2, "buy milk"), note(3, "pay rent")]);

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
    expect(readCardReply("Call mom", QUESTION_CARD)).toEqual(
      answer({ type: "edit", edited_action: { name: "ask_user", args: { answer: "Call mom" } } }),
    );
    expect(readCardReply("a", QUESTION_CARD)).toEqual(
      answer({ type: "edit", edited_action: { name: "ask_user", args: { answer: "a" } } }),
    );
  });

  test("a line of 100 000 marks after a choice word is read in one pass", () => {
    // `/[:,.!]+$/` on the first word took 6 s on "yes" + 100 000 ":" + "x", the terminal frozen; the limit on this
    // test is the symptom's bound.
    expect(readCardReply(`yes${":".repeat(100_000)}x`, TOOL_CARD).kind).toBe("invalid");
    expect(readCardReply(`yes${"!".repeat(100_000)}`, TOOL_CARD)).toEqual({
      kind: "answer",
      response: { decisions: [{ type: "approve" }] },
    });
  }, 10_000);

  test("a Chinese user's short answers decide a card as a message to it would: 是 approves, 取消 rejects", () => {
    const all = (decision: object, count: number) => ({
      kind: "answer",
      response: { decisions: Array.from({ length: count }, () => decision) },
    });
    for (const word of ["是", "好的", "确认。", "OK"]) {
      expect(readCardReply(word, TOOL_CARD), word).toEqual(all({ type: "approve" }, 1));
      expect(readCardReply(word, PLAN_CARD), word).toEqual(all({ type: "approve" }, 1));
      expect(readCardReply(word, BATCH_CARD), word).toEqual(all({ type: "approve" }, 3));
    }
    for (const word of ["取消", "不", "算了"])
      expect(readCardReply(word, TOOL_CARD), word).toEqual(all({ type: "reject" }, 1));
    // "no" still asks for the reason, as before.
    expect(readCardReply("no", TOOL_CARD)).toEqual({ kind: "feedback" });
    expect(readCardReply("是", QUESTION_CARD)).toMatchObject({ kind: "answer" });
  });

  test("a batch card's whole answer as people type it: accept all, reject all (no reason asked)", () => {
    const all = (decision: object) => ({ kind: "answer", response: { decisions: [decision, decision, decision] } });
    for (const words of ["accept all", "Approve all!", "yes to all", "all of them", "全部接受"])
      expect(readCardReply(words, BATCH_CARD), words).toEqual(all({ type: "approve" }));
    for (const words of ["reject all", "ignore all", "none of them", "全部拒绝"])
      expect(readCardReply(words, BATCH_CARD), words).toEqual(all({ type: "reject" }));
    // A reason after "r" is still feedback, and "r" alone still asks for one.
    expect(readCardReply("r all too early", BATCH_CARD)).toEqual(all({ type: "reject", message: "all too early" }));
    expect(readCardReply("r", BATCH_CARD)).toEqual({ kind: "feedback" });
  });

  test("edited tool arguments are one JSON object, sent as an edit of the card's action", () => {
    expect(readEditedArguments('{"text":"call dad"}', TOOL_CARD)).toEqual({
      ok: true,
      response: { decisions: [{ type: "edit", edited_action: { name: "add_note", args: { text: "call dad" } } }] },
    });
    expect(readEditedArguments("[1]", TOOL_CARD)).toMatchObject({
      ok: false,
      message: expect.stringContaining("JSON object"),
    });
    expect(readEditedArguments("{oops", TOOL_CARD)).toMatchObject({
      ok: false,
      message: expect.stringContaining("Not valid JSON"),
    });
  });

  test("an edited plan is `what | done when` lines or a JSON list", () => {
    const expected = {
      decisions: [
        {
          type: "edit",
          edited_action: {
            name: "confirm_plan",
            args: { plan_steps: [{ content: "Add it", done_when: "it is listed" }] },
          },
        },
      ],
    };
    expect(readEditedPlan(["Add it | it is listed", ""], PLAN_CARD)).toEqual({ ok: true, response: expected });
    expect(readEditedPlan(['[{"content":"Add it","done_when":"it is listed"}]'], PLAN_CARD)).toEqual({
      ok: true,
      response: expected,
    });
    expect(readEditedPlan(["Add it"], PLAN_CARD)).toMatchObject({
      ok: false,
      message: expect.stringContaining("Step 1 needs both parts"),
    });
    expect(readEditedPlan([], PLAN_CARD)).toMatchObject({ ok: false });
  });
});

describe("a batch card", () => {
  const approve = { type: "approve" };
  const reject = { type: "reject" };
  test("one word decides every change: a accepts all, i ignores all, r <feedback> rejects all with it", () => {
    expect(readCardReply("a", BATCH_CARD)).toEqual({
      kind: "answer",
      response: { decisions: [approve, approve, approve] },
    });
    expect(readCardReply("i", BATCH_CARD)).toEqual({
      kind: "answer",
      response: { decisions: [reject, reject, reject] },
    });
    const withFeedback = { type: "reject", message: "not today" };
    expect(readCardReply("r not today", BATCH_CARD)).toEqual({
      kind: "answer",
      response: { decisions: [withFeedback, withFeedback, withFeedback] },
    });
    expect(readCardReply("r", BATCH_CARD)).toEqual({ kind: "feedback" });
    expect(feedbackResponse("later", BATCH_CARD)).toEqual({
      ok: true,
      response: { decisions: Array(3).fill({ type: "reject", message: "later" }) },
    });
    expect(choicesOf(BATCH_CARD)).toBe(
      "a accept all / r reject all with feedback / i ignore all (reject without) — or one letter per change, in order: a / e edit / r reject with feedback / i ignore (e.g. a r a)",
    );
  });

  test("one letter per change decides each; r asks for that change's feedback, e for its arguments", () => {
    expect(readCardReply("a i a", BATCH_CARD)).toEqual({
      kind: "answer",
      response: { decisions: [approve, reject, approve] },
    });
    expect(readCardReply("aia", BATCH_CARD)).toEqual({
      kind: "answer",
      response: { decisions: [approve, reject, approve] },
    });
    expect(readCardReply("a r e", BATCH_CARD)).toEqual({
      kind: "items",
      decisions: [approve, reject, reject],
      edits: [2],
      feedback: [1],
    });
    expect(readEditedArguments('{"text":"pay the rent"}', BATCH_CARD, 2)).toEqual({
      ok: true,
      response: { decisions: [{ type: "edit", edited_action: { name: "add_note", args: { text: "pay the rent" } } }] },
    });
    // A wrong number of letters, or e alone (which change?), is not an answer.
    expect(readCardReply("a a", BATCH_CARD).kind).toBe("invalid");
    expect(readCardReply("e", BATCH_CARD)).toMatchObject({
      kind: "invalid",
      message: expect.stringContaining("e.g. a e a"),
    });
  });
});
