/**
 * Cards and their answers through the graph (scripted models, the notes
 * domain): every card passes the v1 HITL check Agent Chat UI makes before it
 * renders buttons and keeps the fields Agent Inbox reads; approve / edit /
 * reject work as v1 decisions and as legacy HumanResponses (Agent Inbox's
 * bodies included); a question takes text from either; answers bound to
 * another card are refused with STALE_RESUME and change nothing.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { asCard, CardSchema, isHitlRequest, type Card } from "../../contracts/cards.js";
import { StaleResumeError } from "../../errors/index.js";
import { SEEN_CHECKPOINT_KEY } from "../../server/run-options.js";
import { renderCard } from "../../cli/render.js";
import { droppedArgumentKeys } from "../../tools/runner.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { interruptsOf, json, resume, scriptedGraph, threadConfig, transcript } from "../support/scripted.js";

const onePlan = json({
  speak: "Plan ready.",
  action: "plan_done",
  complexity: "simple",
  plan_steps: [{ content: "Add the note", done_when: "the note is listed" }],
});
const addNote = (text: string) =>
  json({
    speak: `Adding ${text}.`,
    action: "confirm",
    reason: "the user asked",
    tool_call: { name: "add_note", arguments: { text } },
  });
const done = json({ action: "done", goal_check: "the note is listed" });
const approve = { decisions: [{ type: "approve" }] };

/** A thread of the notes domain waiting on its plan card; `execute` scripts the writes. */
async function atPlanCard(threadId: string, execute = [addNote("x"), done], plan = [onePlan]) {
  const domain = createNotesDomain();
  const { graph, models } = scriptedGraph({ domain, plan, execute });
  const config = threadConfig(threadId);
  const result = await graph.invoke({ messages: [new HumanMessage("add a note")] }, config);
  return { domain, graph, models, config, result };
}

/** The card and interrupt id the thread waits on. */
async function waitingCard(
  graph: {
    getState(config: object): Promise<{ tasks: Array<{ interrupts: Array<{ id?: string; value?: unknown }> }> }>;
  },
  config: object,
) {
  const snapshot = await graph.getState(config);
  const pending = snapshot.tasks.flatMap((task) => task.interrupts)[0];
  return { id: pending?.id, card: pending ? CardSchema.parse(pending.value) : undefined };
}

describe("the card value", () => {
  test("plan, write and question cards pass the v1 HITL check, keep Agent Inbox's fields and carry their interrupt id", async () => {
    const { graph, config, result } = await atPlanCard(
      "card-shape",
      [addNote("x"), done],
      [json({ speak: "What should the note say?", action: "ask_user", reason: "no text" }), onePlan],
    );
    const cards: Card[] = [];
    const raisedValues: unknown[] = [];
    let current: object = result;
    for (const answer of [
      { decisions: [{ type: "edit", edited_action: { name: "ask_user", args: { answer: "x" } } }] },
      approve,
    ]) {
      const [raised] = interruptsOf(current);
      const card = CardSchema.parse(raised?.value);
      expect(card.card_id).toBe(raised?.id);
      cards.push(card);
      raisedValues.push(raised?.value);
      current = await graph.invoke(resume(answer), config);
    }
    cards.push(CardSchema.parse(interruptsOf(current)[0]?.value));
    raisedValues.push(interruptsOf(current)[0]?.value);
    // Each fact once, in the snake_case the front ends read: no camelCase copies of the arrays or of a config's fields.
    for (const value of raisedValues) {
      const raised = value as Card;
      expect(Object.keys(raised).sort()).toEqual(
        ["action_request", "action_requests", "card_id", "config", "description", "kind", "review_configs"].sort(),
      );
      for (const review of raised.review_configs)
        expect(
          Object.keys(review).every((key) => ["action_name", "allowed_decisions", "args_schema"].includes(key)),
        ).toBe(true);
    }
    expect(cards.map((card) => card.kind)).toEqual(["ask_user", "confirm_plan", "confirm_tool"]);
    for (const card of cards) {
      expect(isHitlRequest(card)).toBe(true);
      // Agent Inbox reads `arguments` of a v1 card, older builds `action_request`.
      expect(card.action_requests[0]!.arguments).toEqual(card.action_requests[0]!.args);
      expect(card.action_request.action).toBe(card.action_requests[0]!.name);
    }
    const write = cards[2]!;
    expect(write.review_configs[0]).toMatchObject({
      allowed_decisions: ["approve", "edit", "reject"],
      args_schema: { type: "object", properties: { text: { type: "string" } } },
    });
    expect(write.description).toBe(
      'add_note {"text":"x"}\n\n' +
        "**Why:** the user asked\n\n**Step 1 of 1:** Add the note\n\nYou can apply it as it is, edit its arguments first, or turn it down (with a reason, the plan is reviewed; without one, this change is left out).",
    );
    expect(cards[0]!.review_configs[0]!.allowed_decisions).toEqual(["edit"]);
    expect(cards[0]!.action_requests[0]).toMatchObject({
      args: { answer: "" },
      description: "What should the note say?",
    });
  });
});

describe("approve / edit / reject, v1 and legacy", () => {
  const shapes = {
    v1: {
      approve: { decisions: [{ type: "approve" }] },
      edit: (action: string, args: object) => ({
        decisions: [{ type: "edit", edited_action: { name: action, args } }],
      }),
      editCamel: (action: string, args: object) => ({
        decisions: [{ type: "edit", editedAction: { name: action, args } }],
      }),
      reject: (message?: string) => ({
        decisions: [message === undefined ? { type: "reject" } : { type: "reject", message }],
      }),
    },
    legacy: {
      approve: { type: "accept", args: null },
      edit: (action: string, args: object) => ({ type: "edit", args: { action, args } }),
      editCamel: (action: string, args: object) => [{ type: "edit", args: { action, args } }],
      reject: (message?: string) =>
        message === undefined ? { type: "ignore", args: null } : { type: "response", args: message },
    },
  };

  describe.each(Object.entries(shapes))("%s", (shape, answers) => {
    test("approve runs the plan and applies the write once", async () => {
      const { domain, graph, config } = await atPlanCard(`approve-${shape}`);
      await graph.invoke(resume(answers.approve), config);
      const final = await graph.invoke(resume(answers.approve), config);
      expect(final.phase).toBe("done");
      expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
    });

    test("edit changes the plan and the write; the chat tells the edited write", async () => {
      const { domain, graph, config } = await atPlanCard(`edit-${shape}`);
      const executing = await graph.invoke(
        resume(answers.edit("confirm_plan", { plan_steps: [{ content: "Add an edited note", done_when: "listed" }] })),
        config,
      );
      expect(executing.planSteps.map((step) => step.content)).toEqual(["Add an edited note"]);
      const final = await graph.invoke(resume(answers.editCamel("add_note", { text: "edited" })), config);
      expect(domain.data.get("user-1")).toEqual({ notes: ["edited"] });
      expect(transcript(final.messages)).toContain(
        'ai:Applying your edit: add_note {"text":"edited"}.|calls:add_note({"text":"edited"})',
      );
      expect(transcript(final.messages).join("\n")).not.toContain("Adding x.");
    });

    test("reject with feedback revises; reject without skips the write", async () => {
      const { domain, graph, models, config } = await atPlanCard(
        `reject-${shape}`,
        [addNote("x"), done],
        [onePlan, onePlan],
      );
      const revised = await graph.invoke(resume(answers.reject("Shorter, please.")), config);
      expect(revised.phase).toBe("waiting_confirm");
      expect(
        models.plan.calls
          .at(-1)!
          .messages.map((message) => String(message.content))
          .join("\n"),
      ).toContain("Shorter, please.");
      await graph.invoke(resume(answers.approve), config);
      const final = await graph.invoke(resume(answers.reject()), config);
      expect(final.phase).toBe("done");
      expect(domain.applied).toHaveLength(0);
    });
  });

  test("Agent Inbox's bodies: accept echoing the card as a one-element list, edits as text, respond", async () => {
    const domain = createNotesDomain({ "user-1": ["a", "b"] });
    const { graph } = scriptedGraph({
      domain,
      plan: [onePlan],
      execute: [
        json({ action: "confirm", reason: "asked", tool_call: { name: "remove_note", arguments: { number: 1 } } }),
        done,
      ],
    });
    const config = threadConfig("inbox-bodies");
    const planned = await graph.invoke({ messages: [new HumanMessage("remove a note")] }, config);
    const plan = CardSchema.parse(interruptsOf(planned)[0]?.value);
    // Current Agent Inbox reads the v1 card: action from `name`, arguments from `arguments`; its accept sends them back.
    const inboxAction = { action: plan.action_requests[0]!.name, args: plan.action_requests[0]!.arguments };
    const proposed = await graph.invoke(resume([{ type: "accept", args: inboxAction }]), config);
    expect(CardSchema.parse(interruptsOf(proposed)[0]?.value).action_requests[0]!.args).toEqual({ number: 1 });
    const final = await graph.invoke(
      resume([{ type: "edit", args: { action: "remove_note", args: { number: "2" } } }]),
      config,
    );
    expect(final.phase).toBe("done");
    expect(domain.data.get("user-1")).toEqual({ notes: ["a"] });
  });

  test("an edited text that reads as JSON stays text when the tool takes text", async () => {
    const { domain, graph, config } = await atPlanCard("edit-json-text");
    await graph.invoke(resume(approve), config);
    await graph.invoke(
      resume({ decisions: [{ type: "edit", edited_action: { name: "add_note", args: { text: "123" } } }] }),
      config,
    );
    expect(domain.data.get("user-1")).toEqual({ notes: ["123"] });
  });

  test("an edit carrying a key its card does not take is refused, naming the key: the card stays open, nothing applies", async () => {
    // The write's schema dropped a key it did not know, so the edit applied other than it was sent; the plan's reader
    // ignored one. Now each is refused with the key named, and a clean edit then applies.
    const { domain, graph, config } = await atPlanCard("edit-extra-key");
    const planCard = await graph.getState(config);
    for (const extra of [
      {
        decisions: [
          { type: "edit", edited_action: { name: "confirm_plan", args: { steps: "1. Add it", owner: "x" } } },
        ],
      },
      { type: "edit", args: { action: "confirm_plan", args: { steps: "1. Add it", owner: "x" } } },
    ]) {
      const error = await graph.invoke(resume(extra), config).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "INVALID_RESUME", message: expect.stringContaining('"owner"') });
      const now = await graph.getState(config);
      expect(now.config.configurable?.checkpoint_id).toBe(planCard.config.configurable?.checkpoint_id);
    }
    await graph.invoke(resume(approve), config);
    const writeCard = await graph.getState(config);
    for (const extra of [
      { decisions: [{ type: "edit", edited_action: { name: "add_note", args: { text: "edited", pinned: true } } }] },
      [{ type: "edit", args: { action: "add_note", args: { text: "edited", pinned: "true" } } }],
    ]) {
      const error = await graph.invoke(resume(extra), config).catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: "INVALID_RESUME",
        message: expect.stringContaining('add_note: "pinned" is not an argument it takes (it takes text)'),
      });
      const now = await graph.getState(config);
      expect(now.config.configurable?.checkpoint_id).toBe(writeCard.config.configurable?.checkpoint_id);
      expect((await waitingCard(graph, config)).card?.action_requests[0]).toMatchObject({ args: { text: "x" } });
      expect(domain.applied).toHaveLength(0);
    }
    await graph.invoke(
      resume({ decisions: [{ type: "edit", edited_action: { name: "add_note", args: { text: "edited" } } }] }),
      config,
    );
    expect(domain.data.get("user-1")).toEqual({ notes: ["edited"] });
  });

  test("the keys an edit's arguments lose to the schema are found however nested, in JSON text too", () => {
    const schema = z.object({
      moves: z.array(z.object({ id: z.string(), day: z.number() })),
      note: z.string().optional(),
    });
    const given = { moves: '[{"id":"a","day":1},{"id":"b","day":2,"why":"x"}]', extra: 1, note: "n" };
    const parsed = schema.parse({ ...given, moves: JSON.parse(given.moves) });
    expect(droppedArgumentKeys(given, parsed)).toEqual(["moves[1].why", "extra"]);
    expect(droppedArgumentKeys({ moves: [], note: "n" }, schema.parse({ moves: [], note: "n" }))).toEqual([]);
  });

  test("a question takes text from a v1 edit, a legacy response, Agent Inbox's edit of the answer field, or a plain string", async () => {
    const asks = json({ speak: "What should the note say?", action: "ask_user", reason: "no text" });
    const answers = [
      { decisions: [{ type: "edit", edited_action: { name: "ask_user", args: { answer: "one" } } }] },
      { type: "response", args: "two" },
      [{ type: "edit", args: { action: "ask_user", args: { answer: "three" } } }],
      "four",
    ];
    for (const [index, answer] of answers.entries()) {
      const { graph, models, config } = await atPlanCard(`question-${index}`, [], [asks, onePlan]);
      const planned = await graph.invoke(resume(answer), config);
      expect(planned.phase).toBe("waiting_confirm");
      expect(planned.userReplies.map((reply) => reply.answer)).toEqual([["one", "two", "three", "four"][index]]);
      expect(
        models.plan.calls
          .at(-1)!
          .messages.map((message) => String(message.content))
          .join("\n"),
      ).toContain(`They replied: "${["one", "two", "three", "four"][index]}"`);
    }
  });

  test("decisions that do not fit are refused with INVALID_RESUME and the card stays", async () => {
    const { graph, config } = await atPlanCard("bad-decisions");
    for (const bad of [
      { decisions: [] },
      { decisions: [{ type: "approve" }, { type: "approve" }] },
      { decisions: [{ type: "edit" }] },
      { decisions: [{ type: "maybe" }] },
      "yes",
    ]) {
      await expect(graph.invoke(resume(bad), config)).rejects.toMatchObject({ code: "INVALID_RESUME" });
      expect((await graph.getState(config)).next).toEqual(["confirm"]);
    }
  });
});

describe("STALE_RESUME: answers bound to a card", () => {
  test("an answer sent with the head its client read (useStream's checkpoint, kept as the seen checkpoint) applies while the thread is there; from an older view it is refused and nothing changes", async () => {
    const { graph, config } = await atPlanCard("seen-checkpoint");
    const head = String((await graph.getState(config)).config.configurable?.checkpoint_id);
    const history = [];
    for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
    const older = String(history.at(-1)!.config.configurable?.checkpoint_id);
    expect(older).not.toBe(head);
    const from = (seen: string) => ({
      ...config,
      configurable: { ...config.configurable, [SEEN_CHECKPOINT_KEY]: seen },
    });
    await expect(graph.invoke(resume(approve), from(older))).rejects.toBeInstanceOf(StaleResumeError);
    expect(String((await graph.getState(config)).config.configurable?.checkpoint_id)).toBe(head);
    const answered = await graph.invoke(resume(approve), from(head));
    expect((interruptsOf(answered)[0]?.value as Card | undefined)?.action_requests[0]?.name).toBe("add_note");
  });

  test("a resume addressed by interrupt id applies while that card is pending; later, or to another id, it is refused and nothing changes", async () => {
    const { domain, graph, config } = await atPlanCard("stale-map", [addNote("x"), addNote("y"), done]);
    const plan = await waitingCard(graph, config);
    expect(plan.id).toMatch(/^[0-9a-f]{32}$/);
    // Addressed to the plan card: applies.
    await graph.invoke(new Command({ resume: { [plan.id!]: approve } }), config);
    const write = await waitingCard(graph, config);
    expect(write.card?.kind).toBe("confirm_tool");
    const before = await graph.getState(config);

    // The same answer again (a double click, a client retry), and one to an id never raised: refused, typed.
    for (const id of [plan.id!, "0123456789abcdef0123456789abcdef"]) {
      const error = await graph
        .invoke(new Command({ resume: { [id]: approve } }), config)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StaleResumeError);
      expect(error).toMatchObject({ code: "STALE_RESUME" });
    }
    const after = await graph.getState(config);
    expect(after.config.configurable?.checkpoint_id).toBe(before.config.configurable?.checkpoint_id);
    expect(domain.applied).toHaveLength(0);

    // Addressed to the write card: applies.
    await graph.invoke(new Command({ resume: { [write.id!]: approve } }), config);
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
  });

  test("an echo of another card (Agent Inbox's accept, a v1 edit naming another action, a card_id) is refused; an anonymous answer takes the current card", async () => {
    const { domain, graph, config } = await atPlanCard("stale-echo", [addNote("x"), addNote("y"), done]);
    const plan = await waitingCard(graph, config);
    await graph.invoke(resume({ ...approve, card_id: plan.id }), config);
    const write = await waitingCard(graph, config);
    const before = (await graph.getState(config)).config.configurable?.checkpoint_id;
    const stale = [
      // Agent Inbox re-sending its accept of the plan card.
      [{ type: "accept", args: { action: "confirm_plan", args: plan.card!.action_requests[0]!.args } }],
      // An accept of the same tool with other arguments than the card shows.
      [{ type: "accept", args: { action: "add_note", args: { text: "something else" } } }],
      { decisions: [{ type: "edit", edited_action: { name: "confirm_plan", args: { plan_steps: [] } } }] },
      { ...approve, card_id: plan.id },
    ];
    for (const value of stale) {
      await expect(graph.invoke(resume(value), config)).rejects.toMatchObject({ code: "STALE_RESUME" });
      expect((await graph.getState(config)).config.configurable?.checkpoint_id).toBe(before);
    }
    expect(domain.applied).toHaveLength(0);
    // The echo of this card's own action request is its answer (text values as Agent Inbox's form leaves them).
    await graph.invoke(
      resume([{ type: "accept", args: { action: "add_note", args: write.card!.action_requests[0]!.args } }]),
      config,
    );
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
  });

  test("an addressed answer on a thread that waits on nothing is stale, not a new run", async () => {
    const { graph, config } = await atPlanCard("stale-finished");
    const plan = await waitingCard(graph, config);
    await graph.invoke(resume(approve), config);
    const write = await waitingCard(graph, config);
    await graph.invoke(resume(approve), config);
    expect((await graph.getState(config)).values.phase).toBe("done");
    for (const value of [{ [write.id!]: approve }, { ...approve, card_id: plan.id }]) {
      await expect(graph.invoke(new Command({ resume: value }), config)).rejects.toMatchObject({
        code: "STALE_RESUME",
      });
    }
  });
});

/** `card` as a Tempo before issue 48 raised it: every array and config field also in camelCase (LangChain JS's). */
function olderShape(card: Card): Record<string, unknown> {
  const configs = card.review_configs.map((config) => ({
    ...config,
    actionName: config.action_name,
    allowedDecisions: config.allowed_decisions,
    ...(config.args_schema ? { argsSchema: config.args_schema } : {}),
  }));
  return {
    ...card,
    action_requests: card.action_requests,
    review_configs: configs,
    actionRequests: card.action_requests,
    reviewConfigs: configs,
  };
}

describe("a card an older Tempo raised", () => {
  test("a thread saved waiting on a card with camelCase copies still reads and resumes: the terminal chat shows it, Agent Inbox's accept of its first write applies that write, and the next card carries no copies", async () => {
    const addTwo = json({
      speak: "Adding x and y.",
      action: "confirm",
      reason: "the user asked",
      tool_calls: [
        { name: "add_note", arguments: { text: "x" } },
        { name: "add_note", arguments: { text: "y" } },
      ],
    });
    const domain = createNotesDomain();
    const { graph, checkpointer } = scriptedGraph({ domain, plan: [onePlan], execute: [addTwo, done] });
    const config = threadConfig("older-card");
    await graph.invoke({ messages: [new HumanMessage("add two notes")] }, config);
    await graph.invoke(resume(approve), config);

    // The saved interrupt rewritten as an older Tempo saved it (the same card, with the camelCase copies).
    const snapshot = await graph.getState(config);
    const tuple = await checkpointer.getTuple(snapshot.config);
    const [taskId, channel, raised] = tuple!.pendingWrites!.find(([, written]) => written === "__interrupt__")!;
    const interrupts = raised as Array<{ id: string; value: Card }>;
    const current = interrupts[0]!.value;
    expect(current.action_requests).toHaveLength(2);
    await checkpointer.putWrites(
      snapshot.config,
      [[channel, interrupts.map((entry) => ({ ...entry, value: olderShape(entry.value) }))]],
      taskId,
    );
    const saved = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts)[0]!;
    expect(saved.value).toHaveProperty("actionRequests");

    // Tempo's readers read it as the card it is: the terminal chat's card (asCard) and its drawing are the same.
    const read = asCard(saved.value);
    expect(read).toEqual(current);
    expect(renderCard(read!)).toBe(renderCard(current));

    // Agent Inbox's lone accept echoes the first write's `arguments`: admitted against the saved card, it applies x.
    const echoed = (saved.value as Card).action_requests[0]!.arguments;
    await graph.invoke(resume([{ type: "accept", args: { action: "add_note", args: echoed } }]), config);
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });

    // y comes back on a card of the current shape, answered by interrupt id.
    const next = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts)[0]!;
    expect(Object.keys(next.value as object)).not.toContain("actionRequests");
    expect((next.value as Card).action_requests.map((request) => request.args)).toEqual([{ text: "y" }]);
    await graph.invoke(new Command({ resume: { [next.id!]: approve } }), config);
    expect(domain.data.get("user-1")).toEqual({ notes: ["x", "y"] });
  });
});
