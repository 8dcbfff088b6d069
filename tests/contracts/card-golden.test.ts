/**
 * Golden cards: the exact JSON of the plan card, a write card and a batch write card, as clients read it — Agent Chat
 * UI (`action_requests` / `review_configs`, checked by `isHitlRequest`), current Agent Inbox (`action_requests[0]
 * .arguments`), older Agent Inbox (the legacy `action_request` / `config` / `description`); no camelCase copies, which no front end
 * reads (a JS client's `useStream` adds them). The literals below were generated once from the card builders and read against those clients;
 * whatever changes inside (where a proposal is kept, what type it has), these bytes must not.
 */
import { describe, expect, test } from "vitest";
import { CardSchema, isHitlRequest, type Card } from "../../contracts/cards.js";
import { batchInterrupt, planInterrupt, toolInterrupt } from "../../review/interrupt-cards.js";

/** The proposal a card is built from. The one place that knows the builders' input type. */
type Proposal = Parameters<typeof toolInterrupt>[0];
function write(id: string, name: string, args: Record<string, unknown>, summary: string, reason: string): Proposal {
  return { id, name, arguments: args, summary, reason };
}

/** The card as it is raised, and a byte-for-byte check (key order included). */
function expectGolden(card: Card, golden: Record<string, unknown>) {
  expect(card).toEqual(golden);
  expect(JSON.stringify(card)).toBe(JSON.stringify(golden));
  expect(CardSchema.parse(card)).toEqual(card);
  expect(isHitlRequest(card)).toBe(true);
}

const ALLOWED = ["approve", "edit", "reject"];
const LEGACY_CONFIG = { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true };

/** A write card's JSON: its requests and configs, and the legacy fields (write 1, the description). */
function writeCardJson(
  requests: unknown[],
  configs: unknown[],
  legacy: { action: string; args: Record<string, unknown> },
  description: string,
) {
  return {
    kind: "confirm_tool",
    action_requests: requests,
    review_configs: configs,
    action_request: legacy,
    config: LEGACY_CONFIG,
    description,
  };
}

describe("golden card JSON", () => {
  test("one write, at step 2 of 3, with its argument schema", () => {
    const schema = {
      type: "object",
      properties: { text: { type: "string", minLength: 1, description: "The note's text." } },
      required: ["text"],
      additionalProperties: false,
    };
    const card = toolInterrupt(
      write("call-1", "add_note", { text: "buy milk" }, "Add note 3: buy milk", "The user asked for it."),
      { index: 2, total: 3, content: "Add the note" },
      schema,
    );

    const description =
      "Add note 3: buy milk\n\n**Why:** The user asked for it.\n\n**Step 2 of 3:** Add the note\n\n" +
      "You can apply it as it is, edit its arguments first, or turn it down (with a reason, the plan is reviewed; without one, this change is left out).";
    const requests = [{ name: "add_note", args: { text: "buy milk" }, description, arguments: { text: "buy milk" } }];
    const configs = [
      {
        action_name: "add_note",
        allowed_decisions: ALLOWED,
        args_schema: {
          type: "object",
          properties: { text: { type: "string", minLength: 1, description: "The note's text." } },
          required: ["text"],
          additionalProperties: false,
        },
      },
    ];
    expectGolden(
      card,
      writeCardJson(requests, configs, { action: "add_note", args: { text: "buy milk" } }, description),
    );
  });

  test("a batch of three writes: one action request each, numbered; the first lists them all; the legacy fields are the first write's", () => {
    const place = {
      type: "object",
      properties: { task_id: { type: "string" }, day: { type: "integer" }, slot_start: { type: "integer" } },
      required: ["task_id", "day", "slot_start"],
    };
    const card = batchInterrupt(
      [
        write(
          "call-a",
          "place",
          { task_id: "matrix-review", day: 1, slot_start: 3 },
          "Place matrix-review on day 1 at slot 3",
          "Both reviews fit Monday morning.",
        ),
        write(
          "call-b",
          "place",
          { task_id: "review-limits", day: 1, slot_start: 5 },
          "Place review-limits on day 1 at slot 5",
          "Right after matrix-review.",
        ),
        write("call-c", "unplace", { task_id: "essay-draft" }, "Take essay-draft off the schedule", ""),
      ],
      { index: 1, total: 2, content: "Place the reviews" },
      new Map([["place", place]]),
    );

    const placeSchema = {
      type: "object",
      properties: { task_id: { type: "string" }, day: { type: "integer" }, slot_start: { type: "integer" } },
      required: ["task_id", "day", "slot_start"],
    };
    const requests = [
      {
        name: "place",
        args: { task_id: "matrix-review", day: 1, slot_start: 3 },
        description:
          "Change 1 of 3: Place matrix-review on day 1 at slot 3\n\n**Why:** Both reviews fit Monday morning.\n\n**Step 1 of 2:** Place the reviews\n\n" +
          "**All 3 changes proposed together:**\n\n1. Place matrix-review on day 1 at slot 3\n2. Place review-limits on day 1 at slot 5\n3. Take essay-draft off the schedule\n\n" +
          "Decide each change on its own — apply it, edit it or turn it down; the ones you apply go in order. An answer that decides only this change applies this one alone, and the others come back on the next card.",
        arguments: { task_id: "matrix-review", day: 1, slot_start: 3 },
      },
      {
        name: "place",
        args: { task_id: "review-limits", day: 1, slot_start: 5 },
        description:
          "Change 2 of 3: Place review-limits on day 1 at slot 5\n\n**Why:** Right after matrix-review.\n\n**Step 1 of 2:** Place the reviews",
        arguments: { task_id: "review-limits", day: 1, slot_start: 5 },
      },
      {
        name: "unplace",
        args: { task_id: "essay-draft" },
        description: "Change 3 of 3: Take essay-draft off the schedule\n\n**Step 1 of 2:** Place the reviews",
        arguments: { task_id: "essay-draft" },
      },
    ];
    const configs = [
      {
        action_name: "place",
        allowed_decisions: ALLOWED,
        args_schema: placeSchema,
      },
      {
        action_name: "place",
        allowed_decisions: ALLOWED,
        args_schema: placeSchema,
      },
      // No schema given for a tool: the config has none (no empty one).
      { action_name: "unplace", allowed_decisions: ALLOWED },
    ];
    // The legacy fields are the first write's: a lone legacy answer decides it alone.
    const description = requests[0]!.description;
    expectGolden(
      card,
      writeCardJson(
        requests,
        configs,
        { action: "place", args: { task_id: "matrix-review", day: 1, slot_start: 3 } },
        description,
      ),
    );
  });

  test("a plan of two steps", () => {
    const card = planInterrupt("organise my notes", [
      { id: "step-1", content: "List the notes", doneWhen: "list_notes was read", status: "pending" },
      { id: "step-2", content: "Add note x", doneWhen: "note x is in the list", status: "pending" },
    ]);

    // The plan as text, one step a line: what both clients' edit boxes show and send back.
    const args = {
      steps: "1. List the notes — done when: list_notes was read\n2. Add note x — done when: note x is in the list",
    };
    const description =
      "Plan for: organise my notes\n\n" +
      "1. List the notes  \n   *done when:* list_notes was read\n2. Add note x  \n   *done when:* note x is in the list\n\n" +
      "You can run it as it is, edit the steps first (one a line: what to do — done when: how to tell), or turn it down with a reason to have it revised.";
    const requests = [{ name: "confirm_plan", args, description, arguments: args }];
    const configs = [
      {
        action_name: "confirm_plan",
        allowed_decisions: ALLOWED,
      },
    ];
    expectGolden(card, {
      kind: "confirm_plan",
      action_requests: requests,
      review_configs: configs,
      action_request: { action: "confirm_plan", args },
      config: LEGACY_CONFIG,
      description,
    });
  });
  test("no card's words name one client's buttons (Agent Inbox's Accept / Respond / Ignore), in English or Chinese", () => {
    const one = write(
      "call-1",
      "batch_move",
      { moves: [] },
      "Move 2 task(s) together",
      "the backend's best candidate (+6)",
    );
    for (const language of ["en", "zh"] as const) {
      const cards = [
        planInterrupt(
          "arrange my week",
          [{ id: "step-1", content: "Place the reviews", doneWhen: "placed", status: "pending" }],
          language,
        ),
        toolInterrupt(one, { index: 2, total: 3, content: "Refine the week" }, undefined, language),
        batchInterrupt([one, { ...one, id: "call-2" }], null, new Map(), language),
      ];
      const texts = cards.flatMap((card) => [
        card.description ?? "",
        ...card.action_requests.map((request) => request.description ?? ""),
      ]);
      expect(texts.filter((text) => /\b(Accept|Respond|Ignore)\b/.test(text))).toEqual([]);
      // Each still says how to answer.
      expect(texts.filter((text) => /edit|修改/.test(text)).length).toBeGreaterThanOrEqual(3);
    }
  });
});
