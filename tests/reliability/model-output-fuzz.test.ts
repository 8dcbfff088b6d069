/**
 * Malformed model output, fuzzed (issue 8.1): generated plan and execute
 * outputs — truncated JSON, wrong types, unknown actions, prose around the
 * JSON, empty and 100 KB texts, unknown tools, invalid arguments,
 * next_plan / done without goal_check, write tools sent with "continue" —
 * played through the compiled graph by scripted models, with every
 * interrupt answered. Whatever the model says:
 *
 * - the graph throws nothing but a TempoError, or completes, or interrupts;
 * - the state stays sound after every turn (phase, step statuses, paired tool calls);
 * - 3 invalid outputs in a row end the run with MODEL_OUTPUT_INVALID, never earlier or later;
 * - a write is applied only after the test answered its card with accept (or edit).
 */
import { HumanMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { ModelOutputError } from "../../errors/index.js";
import type { TempoState } from "../../kernel/state.js";
import { createNotesDomain } from "../support/notes-domain.js";
import { threadConfig, transcript, unpairedToolCalls } from "../support/scripted.js";
import {
  correctionProblems,
  errorCode,
  fuzzGraph,
  runConversation,
  stateProblems,
  type ConversationOutcome,
} from "./support/conversation.js";
import { cardAnswer, executeOutput, planOutput, type StageOutput } from "./support/stage-outputs.js";

/** Generated outputs the property runs played, by kind; checked for coverage at the end. */
const playedKinds = new Map<string, number>();
let generatedOutputs = 0;
let retried = 0;
let conversations = 0;
const endings = new Map<string, number>();

function record(outcome: ConversationOutcome, calls: ReadonlyArray<{ kind: string }>, generated: number) {
  conversations += 1;
  generatedOutputs += generated;
  for (const call of calls) {
    const family = call.kind.split("/").slice(0, 2).join("/");
    playedKinds.set(family, (playedKinds.get(family) ?? 0) + 1);
  }
  const ending = outcome.end === "error" ? `error ${errorCode(outcome.error)}` : outcome.end;
  endings.set(ending, (endings.get(ending) ?? 0) + 1);
}

/** Everything a conversation must satisfy, as one list of problems. */
function conversationProblems(
  outcome: ConversationOutcome,
  calls: Parameters<typeof correctionProblems>[0],
  applied: ReadonlyArray<{ applyId: string }>,
): string[] {
  const problems = [...outcome.problems];
  if (outcome.end === "error" && errorCode(outcome.error) !== "MODEL_OUTPUT_INVALID")
    problems.push(`unexpected error: ${errorCode(outcome.error)}`);
  if (outcome.end === "turns")
    problems.push(`still interrupted after the turn limit (cards: ${outcome.cards.join(", ")})`);
  problems.push(...correctionProblems(calls, outcome, 3));
  const confirmed = new Set(outcome.confirmedToolIds);
  for (const entry of applied)
    if (!confirmed.has(entry.applyId)) problems.push(`write ${entry.applyId} was applied without a confirmation`);
  if (new Set(applied.map((entry) => entry.applyId)).size !== applied.length)
    problems.push("a write was applied twice");
  return problems;
}

// Bounded so that one invocation stays within LangGraph's default recursion limit of 25 super-steps
// (the report of issue 8 describes what happens past it).
const MAX_PLAN_OUTPUTS = 5;
const MAX_EXECUTE_OUTPUTS = 10;

describe("generated model outputs through the whole graph", () => {
  afterAll(() => {
    console.log(
      `model-output fuzz: ${conversations} conversations, ${generatedOutputs} generated outputs, ${retried} retries after MODEL_OUTPUT_INVALID; endings ${JSON.stringify(Object.fromEntries(endings))}`,
    );
  });

  test("plan and execute outputs of every kind: typed errors only, sound state, bounded corrections, no unconfirmed write", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(planOutput, { maxLength: MAX_PLAN_OUTPUTS }),
        fc.array(executeOutput, { maxLength: MAX_EXECUTE_OUTPUTS }),
        fc.array(cardAnswer, { maxLength: 8 }),
        async (plan, execute, answers) => {
          const { graph, domain, calls } = fuzzGraph({ plan, execute });
          const outcome = await runConversation(graph, {
            threadId: `fuzz-${(run += 1)}`,
            message: "Tidy up my notes",
            answers,
            // After the typed error the thread is kept: "try again" resumes it where it stopped.
            retries: 2,
            onRetry: () => {
              retried += 1;
              calls.push({ stage: "retry", valid: true, kind: "retry" });
            },
          });
          record(outcome, calls, plan.length + execute.length);
          expect(conversationProblems(outcome, calls, domain.applied)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
    // 300 whole conversations: about 35 s on an idle 2-core machine, twice that beside the crash tests.
  });

  test("execute outputs after an accepted plan, every card rejected: no write is ever applied", async () => {
    let run = 0;
    const writeHeavy = fc.oneof(
      { weight: 3, arbitrary: executeOutput },
      {
        weight: 2,
        arbitrary: fc.constantFrom("continue", "confirm").map((action): StageOutput => ({
          text: JSON.stringify({
            speak: "Adding.",
            action,
            reason: "asked",
            tool_call: { name: "add_note", arguments: { text: "sneaky" } },
          }),
          valid: true,
          kind: `execute/write_${action}`,
        })),
      },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(writeHeavy, { minLength: 1, maxLength: MAX_EXECUTE_OUTPUTS }),
        fc.array(fc.constantFrom("response", "ignore") as fc.Arbitrary<"response" | "ignore">, { maxLength: 12 }),
        async (execute, rejections) => {
          const { graph, domain, calls } = fuzzGraph({ plan: [], execute });
          // The plan card is accepted; every later card (writes, and plans revised after feedback) is rejected.
          const answers = ["accept" as const, ...rejections, ...Array<"ignore">(40).fill("ignore")];
          const outcome = await runConversation(graph, {
            threadId: `reject-${(run += 1)}`,
            message: "Add a note",
            answers,
          });
          record(outcome, calls, execute.length);
          expect(conversationProblems(outcome, calls, domain.applied)).toEqual([]);
          expect(domain.applied).toEqual([]);
          expect(domain.data.get("user-1")).toEqual({ notes: ["buy milk", "call mom"] });
        },
      ),
      { numRuns: 160 },
    );
  });

  test("the generators covered every kind of bad output", () => {
    const families = [...playedKinds.keys()];
    for (const expected of [
      "empty",
      "no_json",
      "json_array",
      "huge_garbage",
      "other_stage_contract",
      "plan/truncated",
      "plan/wrong_type:action",
      "plan/unknown_action",
      "plan/plan_done_without_steps",
      "plan/huge_valid",
      "execute/truncated",
      "execute/unknown_action",
      "execute/unknown_tool",
      "execute/write_invalid_arguments",
      "execute/write_with_continue",
      "execute/next_plan_without_goal_check",
      "execute/done_without_goal_check",
      "execute/confirm_without_tool_call",
      "execute/huge_valid_write_with_continue",
    ]) {
      expect(
        families.some((family) => family.startsWith(expected)),
        `no ${expected} output was played`,
      ).toBe(true);
    }
    expect(generatedOutputs).toBeGreaterThan(2_000);
    expect(retried).toBeGreaterThan(0);
    expect(endings.get("completed")).toBeGreaterThan(0);
  });
});

describe("the correction loop, case by case", () => {
  const invalid = (kind: string): StageOutput => ({ text: "I will now add the note for you.", valid: false, kind });
  const validPlan: StageOutput = {
    text: JSON.stringify({ action: "plan_done", plan_steps: [{ content: "Add it", done_when: "added" }] }),
    valid: true,
    kind: "plan",
  };

  test("three invalid plan outputs in a row end the run with ModelOutputError and the state of the last checkpoint", async () => {
    const { graph, calls } = fuzzGraph({ plan: [invalid("a"), invalid("b"), invalid("c")], execute: [] });
    const config = threadConfig("three-invalid");
    const error = await graph
      .invoke({ messages: [new HumanMessage("Add a note")] }, config)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect(error).toMatchObject({
      code: "MODEL_OUTPUT_INVALID",
      details: { stage: "plan", attempts: 3, lastProblem: "no JSON object was found in the output" },
    });
    expect(calls.map((call) => call.stage)).toEqual(["plan", "plan", "plan"]);
    const state = (await graph.getState(config)).values as TempoState;
    expect(state.phase).toBe("planning");
    expect(state.consecutiveCorrections).toBe(2);
    expect(stateProblems(state, 3)).toEqual([]);
    // The two recorded corrections are in the state, each an invalid output and the request to correct it.
    expect(transcript(state.messages).slice(1)).toEqual([
      "ai:I will now add the note for you.",
      expect.stringMatching(/^human:Your last answer could not be used: no JSON object was found/),
      "ai:I will now add the note for you.",
      expect.stringMatching(/^human:Your last answer could not be used/),
    ]);
  });

  test("two invalid outputs then a valid one recover, and the corrections leave the conversation", async () => {
    const { graph } = fuzzGraph({
      plan: [invalid("a"), { text: "", valid: false, kind: "empty" }, validPlan],
      execute: [],
    });
    const config = threadConfig("two-invalid");
    const result = await graph.invoke({ messages: [new HumanMessage("Add a note")] }, config);
    expect(result.phase).toBe("waiting_confirm");
    expect(result.consecutiveCorrections).toBe(0);
    expect(transcript(result.messages)).toEqual(["human:Add a note"]);
  });

  test("invalid outputs split by a valid one never add up to the limit", async () => {
    const readNotes: StageOutput = {
      text: JSON.stringify({ action: "continue", tool_call: { name: "list_notes", arguments: {} } }),
      valid: true,
      kind: "read",
    };
    const { graph, domain } = fuzzGraph({
      plan: [invalid("p1"), invalid("p2"), validPlan],
      execute: [invalid("e1"), invalid("e2"), readNotes, invalid("e3"), invalid("e4")],
    });
    const outcome = await runConversation(graph, { threadId: "split", message: "Add a note", answers: [] });
    expect(outcome.end).toBe("completed");
    expect(outcome.problems).toEqual([]);
    expect(outcome.finalState.phase).toBe("done");
    expect(unpairedToolCalls(outcome.finalState.messages)).toEqual([]);
    expect(domain.applied).toEqual([]);
  });

  test("a write tool sent with action continue waits for its card, and applies once when accepted", async () => {
    const domain = createNotesDomain({ "user-1": [] });
    const sneaky: StageOutput = {
      text: JSON.stringify({ action: "continue", tool_call: { name: "add_note", arguments: { text: "x" } } }),
      valid: true,
      kind: "write_continue",
    };
    const { graph } = fuzzGraph({ plan: [validPlan], execute: [sneaky], domain });
    const outcome = await runConversation(graph, {
      threadId: "continue-write",
      message: "Add a note",
      answers: ["accept", "accept"],
    });
    expect(outcome.cards).toEqual(["confirm_plan", "add_note"]);
    expect(domain.applied.map((entry) => entry.applyId)).toEqual(outcome.confirmedToolIds);
    expect(domain.data.get("user-1")).toEqual({ notes: ["x"] });
  });
});
