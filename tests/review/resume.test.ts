/**
 * Reading a card's answer (review/resume.ts), moved from tests/contracts/cards.test.ts: a card with several action
 * requests is decided one by one, in order, from any resume shape; answers that name another card are stale; the
 * resume-map check runs against the interrupts a thread waits on; and a resume is read once, into one canonical
 * `{ card_id, decisions }` that every later step takes.
 */
import { describe, expect, test } from "vitest";
import { BATCH } from "../support/batch-card.js";
import { questionInterrupt } from "../../review/interrupt-cards.js";
import {
  ACCEPT_EVERY_ACTION,
  admitResume,
  approveDecision,
  editDecision,
  isResumeMap,
  readCardResume,
  readResume,
  rejectDecision,
  verdictOf,
} from "../../review/resume.js";

describe("a card with several action requests", () => {
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

describe("an answer that shows nothing", () => {
  const INVISIBLE = "\u200b\u2060\u00ad";
  const question = { ...questionInterrupt("Which day?"), card_id: "fedcba9876543210fedcba9876543210" };

  test("a question answered with invisible characters alone is INVALID_RESUME, in every shape, as an empty one is", () => {
    for (const value of [
      INVISIBLE,
      [{ type: "response", args: INVISIBLE }],
      { decisions: [{ type: "edit", edited_action: { name: "ask_user", args: { answer: INVISIBLE } } }] },
    ])
      expect(() => readCardResume(question, value), JSON.stringify(value)).toThrow(
        expect.objectContaining({ code: "INVALID_RESUME" }),
      );
    expect(readCardResume(question, ` Friday${INVISIBLE}`)).toEqual([{ type: "answer", text: ` Friday${INVISIBLE}` }]);
  });

  test("a rejection whose feedback is invisible characters alone has no feedback", () => {
    expect(readCardResume(BATCH, { decisions: [{ type: "approve" }, { type: "reject", message: INVISIBLE }] })).toEqual(
      [{ type: "approve" }, { type: "reject", message: "" }],
    );
    expect(() => readCardResume(BATCH, [{ type: "response", args: INVISIBLE }])).toThrow(
      expect.objectContaining({ code: "INVALID_RESUME" }),
    );
  });
});

describe("resumes against the interrupts a thread waits on", () => {
  const pending = [{ id: BATCH.card_id, value: BATCH }];

  test("a resume map names pending interrupts only", () => {
    expect(isResumeMap({ [BATCH.card_id!]: {} })).toBe(true);
    expect(isResumeMap({ decisions: [] })).toBe(false);
    expect(() =>
      admitResume({ [BATCH.card_id!]: { decisions: [{ type: "approve" }, { type: "approve" }] } }, pending),
    ).not.toThrow();
    expect(() => admitResume({ ["a".repeat(32)]: { decisions: [{ type: "approve" }] } }, pending)).toThrow(
      expect.objectContaining({ code: "STALE_RESUME" }),
    );
    expect(() => admitResume({ [BATCH.card_id!]: { decisions: [{ type: "approve" }] } }, [])).toThrow(
      expect.objectContaining({ code: "STALE_RESUME" }),
    );
  });

  test("an anonymous answer takes the current card; one naming a card needs that card", () => {
    expect(() => admitResume({ decisions: [{ type: "approve" }] }, pending)).not.toThrow();
    expect(() => admitResume({ type: "accept", args: null }, [])).not.toThrow();
    expect(() => admitResume({ decisions: [], card_id: "b".repeat(32) }, pending)).toThrow(
      expect.objectContaining({ code: "STALE_RESUME" }),
    );
    expect(() => admitResume([{ type: "accept", args: { action: "place", args: {} } }], [])).toThrow(
      expect.objectContaining({ code: "STALE_RESUME" }),
    );
  });
});

describe("a resume is read once, into one canonical { card_id, decisions }", () => {
  const pending = [{ id: BATCH.card_id, value: BATCH }];
  const agentInboxAccept = [
    { type: "accept", args: { action: "place", args: { task_id: "a", day: 1, slot_start: 3 } } },
  ];

  test("the admission reads it against the pending card and the run carries the canonical value", () => {
    expect(admitResume(agentInboxAccept, pending)).toEqual({
      resume: { decisions: [{ type: "approve" }, { type: "later" }] },
      namesCard: false,
    });
    expect(admitResume({ [BATCH.card_id!]: { type: "ignore", args: null } }, pending)).toEqual({
      resume: {
        [BATCH.card_id!]: {
          card_id: BATCH.card_id,
          decisions: [
            { type: "reject", message: "" },
            { type: "reject", message: "" },
          ],
        },
      },
      namesCard: true,
    });
    // One that does not fit goes on as sent: the card's node refuses it with its INVALID_RESUME, as before.
    expect(admitResume({ decisions: [{ type: "approve" }] }, pending)).toEqual({
      resume: { decisions: [{ type: "approve" }] },
      namesCard: false,
    });
  });

  test("a value already read is taken as it is, checked against the card, never parsed again", () => {
    const read = readResume(BATCH, agentInboxAccept);
    expect(readResume(BATCH, read)).toEqual(read);
    expect(readResume(BATCH, { decisions: [{ type: "reject", message: " not Monday " }, { type: "later" }] })).toEqual({
      decisions: [{ type: "reject", message: "not Monday" }, { type: "later" }],
    });
    // Still checked: one answer per action request, each of a kind its action allows.
    for (const misfit of [
      { decisions: [{ type: "approve" }] },
      { decisions: [{ type: "later" }, { type: "later" }] },
      { decisions: [{ type: "approve" }, { type: "edit", args: { task_id: "b" } }] },
      { decisions: [{ type: "answer", text: "yes" }, { type: "approve" }] },
    ]) {
      expect(() => readResume(BATCH, misfit)).toThrow(expect.objectContaining({ code: "INVALID_RESUME" }));
    }
    expect(() => readResume(BATCH, { ...read, card_id: "c".repeat(32) })).toThrow(
      expect.objectContaining({ code: "STALE_RESUME" }),
    );
  });

  test("every kind reads into one verdict, and the builders' answers read as the kinds they build", () => {
    // Issue 45: the cards' readers take an answer through verdictOf, so a new kind is taught to resume.ts alone.
    const decided = (value: unknown) => readResume(BATCH, value).decisions.map(verdictOf);
    expect(decided({ decisions: [approveDecision(), rejectDecision("not Monday")] })).toEqual([
      { verdict: "go" },
      { verdict: "decline", feedback: "not Monday" },
    ]);
    expect(decided({ decisions: [editDecision("place", { task_id: "b", day: 2 }), rejectDecision()] })).toEqual([
      { verdict: "go", args: { task_id: "b", day: 2 } },
      { verdict: "decline", feedback: "" },
    ]);
    expect(decided(ACCEPT_EVERY_ACTION)).toEqual([{ verdict: "go" }, { verdict: "go" }]);
    expect(decided(agentInboxAccept)).toEqual([{ verdict: "go" }, { verdict: "later" }]);
    expect(
      decided([
        { type: "ignore", args: null },
        { type: "response", args: "too late" },
      ]),
    ).toEqual([
      { verdict: "decline", feedback: "" },
      { verdict: "decline", feedback: "too late" },
    ]);
    expect(verdictOf({ type: "answer", text: "Tuesday" })).toEqual({ verdict: "reply", text: "Tuesday" });
  });
});
