/**
 * The plan card's edit box: its one argument, `steps`, is the plan as text, one step a line — what Agent Inbox and
 * Agent Chat UI show in an edit box and send back (as the text the user typed; a list would be one line of JSON).
 * The bodies are the clients' own (docs/front-ends.md); `plan_steps` lists still work for code.
 */
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { CardSchema, type Card } from "../../contracts/cards.js";
import { planStepsText, readPlanStepsText } from "../../contracts/plan.js";
import { sampleWeek } from "../../tools/schedule/index.js";
import { OFFLINE_PLAN_STEPS } from "../../offline/schedule/policy.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { converse, offlineTempo } from "./support/offline-conversation.js";
import { interruptsOf, json, resume, scriptedGraph, threadConfig } from "../support/scripted.js";

const twoSteps = json({
  speak: "Plan ready.",
  action: "plan_done",
  complexity: "simple",
  plan_steps: [
    { content: "List the notes", done_when: "the list was read" },
    { content: "Add the note", done_when: "the note is listed" },
  ],
});

async function atPlanCard(request = "add a note") {
  // Once the plan runs, execute asks a question: the run stops there with the plan as answered.
  const { graph } = scriptedGraph({
    domain: createNotesDomain(),
    plan: [twoSteps],
    execute: [json({ speak: "Which note?", action: "ask_user", reason: "no text yet" })],
  });
  const config = threadConfig(`plan-edit-${Math.random().toString(36).slice(2)}`);
  const result = await graph.invoke({ messages: [new HumanMessage(request)] }, config);
  return { graph, config, card: CardSchema.parse(interruptsOf(result)[0]!.value) };
}

const edited =
  "1. List the notes — done when: the list was read\n2. Add the note about Friday — done when: it is listed\n3) Read the list again";

const bodies: Record<string, (steps: string) => unknown> = {
  "Agent Inbox (edit echoing the action, the field as typed)": (steps) => [
    { type: "edit", args: { action: "confirm_plan", args: { steps } } },
  ],
  "Agent Chat UI (an edited_action decision)": (steps) => ({
    decisions: [{ type: "edit", edited_action: { name: "confirm_plan", args: { steps } } }],
  }),
};

describe("the plan card's steps, as text", () => {
  test("the card's one argument is the plan, one numbered step a line with its done-when; the legacy fields carry the same", async () => {
    const { card } = await atPlanCard();
    const steps = "1. List the notes — done when: the list was read\n2. Add the note — done when: the note is listed";
    expect(card.action_requests[0]).toMatchObject({ name: "confirm_plan", args: { steps }, arguments: { steps } });
    expect(card.action_request).toEqual({ action: "confirm_plan", args: { steps } });
  });

  test.each(Object.entries(bodies))(
    "%s: the edited text becomes the plan; a line without a done-when gets one",
    async (_client, body) => {
      const { graph, config } = await atPlanCard();
      const state = await graph.invoke(resume(body(edited)), config);
      expect(state.planSteps.map((step) => [step.content, step.doneWhen])).toEqual([
        ["List the notes", "the list was read"],
        ["Add the note about Friday", "it is listed"],
        ["Read the list again", '"Read the list again" is carried out'],
      ]);
    },
  );

  test("an edited line at the answer's limit, long runs of spaces and dashes in it, is read at once into its step", async () => {
    // Read with backtracking regular expressions, such a line (45 000 spaces) held the event loop for half a
    // minute, and one at the limit for many minutes; read in one pass, it takes milliseconds. The limit on this test
    // is the symptom's bound, not a measure of speed.
    const { graph, config } = await atPlanCard();
    const spaces = " ".repeat(45_000);
    const dashes = "—".repeat(45_000);
    const steps = `1. List the notes (done when: the list was read${spaces}x\n2. Add the note ${dashes}x`;
    const state = await graph.invoke(resume(bodies["Agent Chat UI (an edited_action decision)"]!(steps)), config);
    // No closing bracket: the first line's condition follows its label; the second line has none.
    expect(state.planSteps.map((step) => [step.content, step.doneWhen])).toEqual([
      ["List the notes (", `the list was read${spaces}x`],
      [`Add the note ${dashes}x`, `"Add the note ${dashes}x" is carried out`],
    ]);
  }, 10_000);

  test("Agent Inbox's accept echoes the text untouched: the plan runs as shown", async () => {
    const { graph, config, card } = await atPlanCard();
    const state = await graph.invoke(
      resume([{ type: "accept", args: { action: "confirm_plan", args: card.action_requests[0]!.args } }]),
      config,
    );
    expect(state.planSteps.map((step) => step.content)).toEqual(["List the notes", "Add the note"]);
    expect(state.phase).not.toBe("waiting_confirm");
  });

  test("an emptied box is refused with what to send, and the card stays open with the plan as it was", async () => {
    const { graph, config, card } = await atPlanCard();
    await expect(
      graph.invoke(resume(bodies["Agent Inbox (edit echoing the action, the field as typed)"]!(" \n ")), config),
    ).rejects.toMatchObject({
      code: "INVALID_RESUME",
      message: expect.stringContaining('one step a line ("1. what to do — done when: how to tell")'),
    });
    const snapshot = await graph.getState(config);
    expect((snapshot.tasks.flatMap((task) => task.interrupts)[0]!.value as Card).action_requests[0]!.args).toEqual(
      card.action_requests[0]!.args,
    );
    expect(snapshot.values.planSteps.map((step: { content: string }) => step.content)).toEqual([
      "List the notes",
      "Add the note",
    ]);
  });

  test("a plan_steps list (code, the CLI) and its JSON text are still taken", async () => {
    for (const planSteps of [
      [{ content: "Only this", done_when: "done" }],
      JSON.stringify([{ content: "Only this", done_when: "done" }]),
    ]) {
      const { graph, config } = await atPlanCard();
      const state = await graph.invoke(
        resume({
          decisions: [{ type: "edit", edited_action: { name: "confirm_plan", args: { plan_steps: planSteps } } }],
        }),
        config,
      );
      expect(state.planSteps.map((step) => step.content)).toEqual(["Only this"]);
    }
  });

  test("a Chinese user's card: its own words and the done-when label are Chinese, and the text reads back", async () => {
    const { card } = await atPlanCard("帮我加一条笔记");
    const steps = card.action_requests[0]!.args.steps as string;
    expect(steps).toBe(
      "1. List the notes — 完成标志：the list was read\n2. Add the note — 完成标志：the note is listed",
    );
    expect(card.action_requests[0]!.description).toMatch(/^计划：帮我加一条笔记/);
    expect(card.action_requests[0]!.description).toContain("可以直接执行");
    expect(readPlanStepsText(steps)).toEqual([
      { content: "List the notes", done_when: "the list was read" },
      { content: "Add the note", done_when: "the note is listed" },
    ]);
  });
});

describe("an edit through the offline policy", () => {
  test('"(not Friday)" typed at the end of the first line, after its done-when: no review goes on Friday', async () => {
    const tempo = await offlineTempo(sampleWeek());
    const [first, ...rest] = planStepsText(OFFLINE_PLAN_STEPS).split("\n");
    const steps = [`${first} (not Friday)`, ...rest].join("\n");
    const outcome = await converse(tempo, "Arrange my reviews", [
      { type: "edit", args: { action: "confirm_plan", args: { steps } } },
    ]);
    expect(outcome.planSteps[0]).toBe(`${OFFLINE_PLAN_STEPS[0]!.content} (not Friday)`);
    const placed = outcome.cards.filter((card) => card.action === "place");
    expect(placed.length).toBeGreaterThan(0);
    expect(placed.map((card) => card.args.day)).not.toContain(5);
  });
});

describe("planStepsText / readPlanStepsText", () => {
  test("read back what they write, in both languages, and take the numberings people type", () => {
    const drafts = [
      { content: "Find the free slots (not Friday)", done_when: "the slots - listed" },
      { content: "Place each review", done_when: "every review is placed" },
    ];
    expect(readPlanStepsText(planStepsText(drafts))).toEqual(drafts);
    expect(readPlanStepsText(planStepsText(drafts, "zh"))).toEqual(drafts);
    expect(readPlanStepsText("- one (done when: a)\n\n2、 two 完成标志：b\n3． three")).toEqual([
      { content: "one", done_when: "a" },
      { content: "two", done_when: "b" },
      { content: "three", done_when: '"three" is carried out' },
    ]);
    // A limit typed at the very end of a line, after its done-when, belongs to the step.
    expect(
      readPlanStepsText(
        "1. Place the reviews — done when: all placed (not Friday)\n2. 复习 — 完成标志：都放好了（不要周五）",
      ),
    ).toEqual([
      { content: "Place the reviews (not Friday)", done_when: "all placed" },
      { content: "复习 （不要周五）", done_when: "都放好了" },
    ]);
    expect(readPlanStepsText(" \n\t")).toBeUndefined();
    expect(readPlanStepsText("[1, 2]")).toBeUndefined();
  });

  test("a line of long runs reads as a short one does: a condition in brackets, a limit after it", () => {
    const spaces = " ".repeat(40_000);
    expect(readPlanStepsText(`Place it (done when:${spaces}placed${spaces})`)).toEqual([
      { content: "Place it", done_when: "placed" },
    ]);
    expect(readPlanStepsText(`Place it —${spaces}done when: placed,${spaces}(not${spaces}Friday)`)).toEqual([
      { content: `Place it (not${spaces}Friday)`, done_when: "placed" },
    ]);
  });
});
