/**
 * The card contract on its own: a card with several action requests is a valid card and a v1 HITL request. Reading
 * its answers is review/resume.ts's (tests/review/resume.test.ts).
 */
import { describe, expect, test } from "vitest";
import { CardSchema, isHitlRequest } from "../../contracts/cards.js";
import { BATCH } from "../support/batch-card.js";

describe("a card with several action requests", () => {
  test("is a valid card and a v1 HITL request", () => {
    expect(CardSchema.parse(BATCH)).toEqual(BATCH);
    expect(isHitlRequest(BATCH)).toBe(true);
    expect(isHitlRequest({ action_request: { action: "x", args: {} } })).toBe(false);
    expect(
      isHitlRequest({
        action_requests: [{ name: "x", args: {} }],
        // camelCase only: Agent Chat UI's check reads `action_name` / `allowed_decisions`.
        review_configs: [{ actionName: "x", allowedDecisions: [] }],
      }),
    ).toBe(false);
  });
});
