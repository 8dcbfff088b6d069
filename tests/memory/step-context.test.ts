/** What the execute model sees: step context, in-step compression, the working-memory reminder, the token budget. */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { convertMessagesToCompletionsMessageParams } from "@langchain/openai";
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKFLOW_SETTINGS } from "../../config/configuration.js";
import { roundsSinceUpdate } from "../../kernel/state.js";
import { countMessageTokens, estimateCounter } from "../../memory/tokens.js";
import { createNotesDomain } from "../support/notes-domain.js";
import {
  json,
  resume,
  scriptedGraph,
  sharedLeadingParts,
  threadConfig,
  unpairedToolCalls,
} from "../support/scripted.js";

const twoSteps = json({
  action: "plan_done",
  plan_steps: [
    { content: "Read the notes", done_when: "known" },
    { content: "Add the note", done_when: "listed" },
  ],
});
const list = json({ speak: "Listing.", action: "continue", tool_call: { name: "list_notes", arguments: {} } });
const text = (messages: BaseMessage[]) => messages.map((message) => String(message.content)).join("\n");

async function runExecute(options: {
  execute: Parameters<typeof scriptedGraph>[0]["execute"];
  notes?: string[];
  settings?: Parameters<typeof scriptedGraph>[0]["settings"];
  now?: string;
}) {
  // After step 1 the planner reviews the rest and keeps it.
  const plan = [twoSteps, json({ action: "continue", reason: "the remaining step still holds" })];
  const { graph, models } = scriptedGraph({
    domain: createNotesDomain({ "user-1": options.notes ?? ["a"] }),
    plan,
    execute: options.execute,
    settings: options.settings,
  });
  const base = threadConfig(`ctx-${Math.random()}`);
  const config = options.now ? { configurable: { ...base.configurable, now: options.now } } : base;
  await graph.invoke({ messages: [new HumanMessage("add a note")] }, config);
  const result = await graph.invoke(resume({ type: "accept", args: null }), config);
  return { result, calls: models.execute.calls.map((call) => call.messages) };
}

describe("step context", () => {
  test("a finished step's summary and status marker appear in the next step's context; its tool rounds do not", async () => {
    const { calls } = await runExecute({
      execute: [
        list,
        json({ action: "next_plan", goal_check: "there is one note: a" }),
        json({ action: "done", goal_check: "nothing to add" }),
      ],
    });
    const second = text(calls[2]!);
    expect(second).toContain("<done_step_summaries>\n- Read the notes: there is one note: a\n</done_step_summaries>");
    // The plan is pinned without statuses (a stable prefix); the statuses go with the step, after the history.
    expect(second).toContain('<pinned key="plan">\nPlan overview:\n1. Read the notes\n2. Add the note\n</pinned>');
    expect(second).toContain("Progress: 1 ✓ done · 2 >> current");
    expect(second).toContain("Current step (2 of 2): Add the note");
    expect(calls[2]!.some((message) => message.getType() === "tool")).toBe(false);
    expect(calls[1]!.filter((message) => message.getType() === "tool")).toHaveLength(1);
  });

  test("only the last tool rounds stay whole; earlier ones are summarised, and pairs stay together", async () => {
    const rounds = Array.from({ length: 9 }, () => list);
    const { calls } = await runExecute({ execute: [...rounds, json({ action: "done", goal_check: "ok" })] });
    const last = calls.at(-1)!;
    expect(last.filter((message) => message.getType() === "tool")).toHaveLength(
      DEFAULT_WORKFLOW_SETTINGS.context.keepToolRounds,
    );
    expect(text(last)).toContain(
      `Earlier in this step (${9 - DEFAULT_WORKFLOW_SETTINGS.context.keepToolRounds} tool rounds, summarised):`,
    );
    expect(unpairedToolCalls(last)).toEqual([]);
  });
});

/** A request's messages as ChatOpenAI serialises them into the request body, one JSON text each. */
const serialised = (messages: BaseMessage[]) =>
  convertMessagesToCompletionsMessageParams({ messages, model: "gpt-4o-mini" }).map((message) =>
    JSON.stringify(message),
  );

/** How many serialised messages two requests share from the start, up to the first that differs. */
const sharedMessages = (first: BaseMessage[], second: BaseMessage[]) =>
  sharedLeadingParts(serialised(first), serialised(second));

/**
 * The execute request's stable part comes first and is byte-identical across the execute calls of a task, so a
 * provider's prompt cache reuses it: the system prompts (the bound tools beside them) and the pinned plan. What changes
 * (the history, the step, the workspace, the live state, reminders) comes after it (issue 49 item 3).
 */
describe("the execute request's stable prefix", () => {
  test("two consecutive execute requests, across a step boundary, share the system prompts and the pinned plan byte for byte", async () => {
    const { calls } = await runExecute({
      execute: [
        list,
        json({ action: "next_plan", goal_check: "there is one note: a" }),
        list,
        json({ action: "done", goal_check: "nothing to add" }),
      ],
    });
    // calls[1]: step 1's second round; calls[2]: step 2's first round.
    expect(calls).toHaveLength(4);
    const [, lastOfFirst, firstOfSecond, secondOfSecond] = calls;
    // The stable part: the shared head's system message, the stage's own, then the pinned plan (the conversation,
    // history, comes after it).
    const stable = 3;
    expect(sharedMessages(lastOfFirst!, firstOfSecond!)).toBeGreaterThanOrEqual(stable);
    expect(serialised(lastOfFirst!)[2]).toContain('<pinned key=\\"plan\\">');
    // What changed (the step) is in the last message, after the stable part.
    const tail = (messages: BaseMessage[]) => String(messages.at(-1)!.content);
    expect(tail(lastOfFirst!)).toContain("Current step (1 of 2): Read the notes");
    expect(tail(firstOfSecond!)).toContain("Current step (2 of 2): Add the note");
    // Within a step: the conversation is shared too, and the workspace grows after it.
    expect(sharedMessages(firstOfSecond!, secondOfSecond!)).toBeGreaterThanOrEqual(stable + 1);
  });
});

describe("working-memory reminder", () => {
  test("appears after the round threshold, with figures, and disappears after an update", async () => {
    const update = json({
      action: "continue",
      tool_call: { name: "update_working_memory", arguments: { content: "step 1: listing notes" } },
    });
    const { calls, result } = await runExecute({
      execute: [list, list, list, list, list, list, update, list, json({ action: "done", goal_check: "ok" })],
    });
    const reminderAt = calls.map((messages) => text(messages).includes("WORKING MEMORY UPDATE NEEDED"));
    // Rounds since update before each call: 0..6, then the update resets: 0, 1.
    expect(reminderAt).toEqual([false, false, false, false, false, false, true, false, false]);
    expect(text(calls[6]!)).toMatch(
      /WORKING MEMORY UPDATE NEEDED: not updated for 6 rounds; prompt \d+% of budget \(\d+ \/ 12000\), \d+ messages, scratchpad 0\.00 KB\.\nCall update_working_memory/,
    );
    expect(text(calls[7]!)).toContain("<scratchpad>\nstep 1: listing notes\n</scratchpad>");
    // The update was the 7th round; two rounds followed.
    expect(result.workingMemory).toMatchObject({ content: "step 1: listing notes", updatedInRound: 7 });
    expect(roundsSinceUpdate(result)).toBe(2);
  });

  test("an update is stamped with the run's clock (configurable.now), not the machine's", async () => {
    const update = json({
      action: "continue",
      tool_call: { name: "update_working_memory", arguments: { content: "noted" } },
    });
    const now = "2031-05-06T07:08:09.000Z";
    const { result } = await runExecute({ execute: [update, json({ action: "done", goal_check: "ok" })], now });
    expect(result.workingMemory).toMatchObject({ content: "noted", updatedAt: now });
  });

  test("high token use (over 70 % of the budget) brings the reminder earlier: after 4 rounds instead of 6", async () => {
    const script = () => [list, list, list, list, list, json({ action: "done", goal_check: "ok" })];
    // Calibrate: the prompt sizes with the default budget, then a budget that puts them at about 75 %.
    const measured = (await runExecute({ execute: script() })).calls.map((messages) =>
      countMessageTokens(messages, estimateCounter),
    );
    const execute = Math.floor(measured[4]! / 0.75);
    const context = {
      ...DEFAULT_WORKFLOW_SETTINGS.context,
      promptBudget: { ...DEFAULT_WORKFLOW_SETTINGS.context.promptBudget, execute },
    };
    const { calls } = await runExecute({ execute: script(), settings: { context } });
    expect(measured.slice(3).every((tokens) => tokens / execute > 0.7)).toBe(true);
    expect(calls.map((messages) => text(messages).includes("WORKING MEMORY UPDATE NEEDED"))).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
  });
});

describe("token budget", () => {
  test("huge tool results are cut to keep the prompt under the execute budget, never the plan or requirement", async () => {
    const huge = Array.from({ length: 60 }, (_, index) => `note ${index} ${"lorem ipsum ".repeat(40)}`);
    const context = {
      ...DEFAULT_WORKFLOW_SETTINGS.context,
      promptBudget: { ...DEFAULT_WORKFLOW_SETTINGS.context.promptBudget, execute: 4_000 },
    };
    const { calls } = await runExecute({
      notes: huge,
      execute: [list, list, list, json({ action: "done", goal_check: "ok" })],
      settings: { context },
    });
    for (const messages of calls.slice(1)) {
      expect(countMessageTokens(messages, estimateCounter)).toBeLessThanOrEqual(4_000);
      expect(text(messages)).toContain("<requirement>\nadd a note\n</requirement>");
      expect(text(messages)).toContain("Current step (1 of 2): Read the notes");
      expect(unpairedToolCalls(messages)).toEqual([]);
    }
    expect(text(calls[1]!)).toContain("more characters cut to fit the prompt budget");
  });
});

describe("preflight", () => {
  test("planning sees the live domain state, fetched just before planning", async () => {
    const domain = {
      ...createNotesDomain({ "user-1": ["live note"] }),
      preflight: { tool: "list_notes", arguments: {} },
    };
    const { graph, models } = scriptedGraph({ domain, plan: [twoSteps] });
    await graph.invoke({ messages: [new HumanMessage("add a note")] }, threadConfig("preflight"));
    expect(text(models.plan.calls[0]!.messages)).toContain(
      "<live_state>\nlist_notes (fetched just now):\n1. live note\n</live_state>",
    );
  });
});
