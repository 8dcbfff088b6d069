/**
 * The card and resume contract on its own: a card with several action
 * requests is decided one by one, in order, from any resume shape; answers
 * that name another card are stale; the resume-map check runs against the
 * interrupts a thread waits on.
 */
import { describe, expect, test } from "vitest";
import {
  assertResumeIsCurrent,
  buildCard,
  CardSchema,
  isHitlRequest,
  isResumeMap,
  readCardResume,
  type Card,
} from "../../contracts/cards.js";

/** A card holding two writes (the batch shape a later issue uses). */
const BATCH: Card = {
  ...buildCard(
    "confirm_tool",
    [
      {
        name: "place",
        args: { task_id: "a", day: 1, slot_start: 3 },
        description: "Place a",
        allowed: ["approve", "edit", "reject"],
      },
      {
        name: "move",
        args: { task_id: "b", day: 2, slot_start: 5 },
        description: "Move b",
        allowed: ["approve", "reject"],
      },
    ],
    {
      action_request: { action: "place", args: { task_id: "a", day: 1, slot_start: 3 } },
      config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
    },
  ),
  card_id: "0123456789abcdef0123456789abcdef",
};

describe("a card with several action requests", () => {
  test("is a valid card and a v1 HITL request", () => {
    expect(CardSchema.parse(BATCH)).toEqual(BATCH);
    expect(isHitlRequest(BATCH)).toBe(true);
    expect(isHitlRequest({ action_request: { action: "x", args: {} } })).toBe(false);
    expect(
      isHitlRequest({
        action_requests: [{ name: "x", args: {} }],
        review_configs: [{ actionName: "x", allowedDecisions: [] }],
      }),
    ).toBe(false);
  });

  test("v1 decisions apply in order, one per action; edited values come as sent", () => {
    expect(
      readCardResume(BATCH, {
        decisions: [
          { type: "edit", edited_action: { name: "place", args: { task_id: "a", day: "4", slot_start: "3" } } },
          { type: "reject", message: " later " },
        ],
      }),
    ).toEqual([
      { type: "edit", args: { task_id: "a", day: "4", slot_start: "3" } },
      { type: "reject", message: "later" },
    ]);
    expect(
      readCardResume(BATCH, { decisions: [{ type: "approve" }, { type: "reject" }], card_id: BATCH.card_id }),
    ).toEqual([{ type: "approve" }, { type: "reject", message: "" }]);
  });

  test("a decision count that does not match, or a decision an action does not allow, is INVALID_RESUME", () => {
    expect(() => readCardResume(BATCH, { decisions: [{ type: "approve" }] })).toThrow(
      expect.objectContaining({ code: "INVALID_RESUME" }),
    );
    expect(() =>
      readCardResume(BATCH, {
        decisions: [{ type: "approve" }, { type: "edit", editedAction: { name: "move", args: {} } }],
      }),
    ).toThrow(/"edit" decision is not allowed for move; allowed: approve, reject/);
  });

  test("legacy responses: a lone one echoing the first action decides it alone (what a legacy client shows); one echoing nothing decides all; or one each", () => {
    const later = { type: "later" };
    // Agent Inbox's accept and edit echo the write they show (its edit, the changed field as text): that write alone.
    expect(
      readCardResume(BATCH, [
        { type: "accept", args: { action: "place", args: { task_id: "a", day: 1, slot_start: 3 } } },
      ]),
    ).toEqual([{ type: "approve" }, later]);
    const edit = { type: "edit", args: { action: "place", args: { task_id: "a", day: "2", slot_start: 3 } } };
    expect(readCardResume(BATCH, [edit])).toEqual([
      { type: "edit", args: { task_id: "a", day: "2", slot_start: 3 } },
      later,
    ]);
    // Echoing nothing: every action alike.
    expect(readCardResume(BATCH, [{ type: "accept", args: null }])).toEqual([{ type: "approve" }, { type: "approve" }]);
    expect(readCardResume(BATCH, { type: "ignore", args: null })).toEqual([
      { type: "reject", message: "" },
      { type: "reject", message: "" },
    ]);
    expect(readCardResume(BATCH, [{ type: "response", args: "not on Monday" }])).toEqual([
      { type: "reject", message: "not on Monday" },
      { type: "reject", message: "not on Monday" },
    ]);
    expect(() => readCardResume(BATCH, { type: "edit", args: "tomorrow" })).toThrow(
      expect.objectContaining({ code: "INVALID_RESUME" }),
    );
    // One each.
    expect(
      readCardResume(BATCH, [
        { type: "accept", args: null },
        { type: "response", args: "not b" },
      ]),
    ).toEqual([{ type: "approve" }, { type: "reject", message: "not b" }]);
    expect(readCardResume(BATCH, [edit, { type: "accept", args: null }])).toEqual([
      { type: "edit", args: { task_id: "a", day: "2", slot_start: 3 } },
      { type: "approve" },
    ]);
    const accept = { type: "accept", args: null };
    expect(() => readCardResume(BATCH, [accept, accept, accept])).toThrow(
      expect.objectContaining({ code: "INVALID_RESUME" }),
    );
  });

  test("an answer naming another card is STALE_RESUME", () => {
    for (const value of [
      { decisions: [{ type: "approve" }, { type: "approve" }], card_id: "ffffffffffffffffffffffffffffffff" },
      { decisions: [{ type: "edit", edited_action: { name: "swap", args: {} } }, { type: "approve" }] },
      [{ type: "accept", args: { action: "place", args: { task_id: "a", day: 2, slot_start: 3 } } }],
    ]) {
      expect(() => readCardResume(BATCH, value)).toThrow(expect.objectContaining({ code: "STALE_RESUME" }));
    }
    // Agent Inbox's accept echoes the arguments, maybe as text: still this card.
    expect(
      readCardResume(BATCH, [
        { type: "accept", args: { action: "place", args: { task_id: "a", day: "1", slot_start: 3 } } },
      ])[0],
    ).toEqual({ type: "approve" });
  });
});

describe("resumes against the interrupts a thread waits on", () => {
  const pending = [{ id: BATCH.card_id, value: BATCH }];

  test("a resume map names pending interrupts only", () => {
    expect(isResumeMap({ [BATCH.card_id!]: {} })).toBe(true);
    expect(isResumeMap({ decisions: [] })).toBe(false);
    expect(() =>
      assertResumeIsCurrent({ [BATCH.card_id!]: { decisions: [{ type: "approve" }, { type: "approve" }] } }, pending),
    ).not.toThrow();
    expect(() => assertResumeIsCurrent({ ["a".repeat(32)]: { decisions: [{ type: "approve" }] } }, pending)).toThrow(
      expect.objectContaining({ code: "STALE_RESUME" }),
    );
    expect(() => assertResumeIsCurrent({ [BATCH.card_id!]: { decisions: [{ type: "approve" }] } }, [])).toThrow(
      expect.objectContaining({ code: "STALE_RESUME" }),
    );
  });

  test("an anonymous answer takes the current card; one naming a card needs that card", () => {
    expect(() => assertResumeIsCurrent({ decisions: [{ type: "approve" }] }, pending)).not.toThrow();
    expect(() => assertResumeIsCurrent({ type: "accept", args: null }, [])).not.toThrow();
    expect(() => assertResumeIsCurrent({ decisions: [], card_id: "b".repeat(32) }, pending)).toThrow(
      expect.objectContaining({ code: "STALE_RESUME" }),
    );
    expect(() => assertResumeIsCurrent([{ type: "accept", args: { action: "place", args: {} } }], [])).toThrow(
      expect.objectContaining({ code: "STALE_RESUME" }),
    );
  });
});
