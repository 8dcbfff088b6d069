/**
 * A step that ended without doing what it asks (issue 45, item 2: data, not text read back): the execute decision's
 * `not_carried_out` — a JSON field, or an argument of the native next_plan / done tools — is kept as the step's
 * `outcome`, and the task's report reads that, never the step summary's words. The offline policy says it the same
 * way. A step saved before the outcome was kept still reads from its summary.
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { CONTROL_TOOLS, ExecuteDecisionSchema, decisionFromToolCalls } from "../../contracts/execute.js";
import { strictJsonSchema } from "../../contracts/strict-schema.js";
import type { PlanStep } from "../../kernel/state.js";
import { mechanicalSummary, stepReport, unchangedOutcome } from "../../nodes/deliver/task-report.js";
import { shownStatus } from "../../kernel/plan-step.js";
import { reportLineIn } from "../../contracts/report-words.js";
import { renderExecutionState } from "../../cli/render-state.js";
import type { ExecutionState } from "../../server/execution-state.js";
import { createScheduleDomain, InMemoryScheduleRepository, sampleWeek } from "../../tools/schedule/index.js";
import { interruptsOf, json, planDone, resume, scriptedGraph, threadConfig } from "../support/scripted.js";
import { halfPlacedWeek, offlineTempo } from "./support/offline-conversation.js";

const REASON = 'no pending task matches "zebra"';
/** The model's own words for the step's end: nothing in them says "not carried out". */
const WORDS = "There is no zebra review in the week, so nothing was moved.";

const PLAN = planDone([{ content: "Move the zebra review to Friday", done_when: "it is on Friday" }], {
  speak: "One step.",
  reason: "clear",
  complexity: "simple",
});

/** Runs one task whose single step the scripted execute model ends with `ending`, in `mode`. */
async function endedBy(ending: AIMessage, mode: "native" | "json") {
  const repository = new InMemoryScheduleRepository();
  await repository.seed("user-1", sampleWeek());
  const { graph } = scriptedGraph({
    domain: createScheduleDomain({ repository }),
    plan: [PLAN],
    execute: [ending],
    settings: { replanAfterStep: "never" },
    toolCalling: mode,
  });
  const config = threadConfig(`outcome-${mode}-${Math.random().toString(36).slice(2)}`);
  await graph.invoke({ messages: [new HumanMessage("move the zebra review to friday")] }, config);
  const done = await graph.invoke(resume({ type: "accept", args: null }), config);
  expect(interruptsOf(done)).toEqual([]);
  return done;
}

const nativeDone = (args: Record<string, unknown>) =>
  new AIMessage({ content: "", tool_calls: [{ name: "done", args, id: "done-1", type: "tool_call" }] });

describe("a step not carried out is the step's data", () => {
  test("native tools: done's not_carried_out becomes the step's outcome and the task's reason", async () => {
    const done = await endedBy(nativeDone({ goal_check: WORDS, not_carried_out: REASON }), "native");
    expect(done.planSteps).toMatchObject([
      { status: "done", summary: WORDS, outcome: { kind: "not_carried_out", reason: REASON } },
    ]);
    expect(done.outcome).toMatchObject({ kind: "failed", reason: `nothing was changed: ${REASON}` });
  });

  test("the JSON contract: the same field, the same outcome", async () => {
    const done = await endedBy(
      json({ speak: "", action: "done", reason: "", goal_check: WORDS, not_carried_out: REASON }),
      "json",
    );
    expect(done.planSteps[0]).toMatchObject({ outcome: { kind: "not_carried_out", reason: REASON } });
    expect(done.outcome).toMatchObject({ kind: "failed", reason: `nothing was changed: ${REASON}` });
  });

  test("without the field the step was carried out: no outcome, and no reason taken from its words", async () => {
    const done = await endedBy(nativeDone({ goal_check: WORDS }), "native");
    expect(done.planSteps[0]!.outcome).toBeUndefined();
    // Nothing was proposed, so nothing changed; but the step's own words are not read as a reason.
    expect(done.outcome).toMatchObject({ kind: "failed", reason: "nothing was changed: no change was proposed" });
  });

  test("the offline policy ends a step it could not carry out with the field, its summary as before", async () => {
    const tempo = await offlineTempo(halfPlacedWeek());
    const config = threadConfig("outcome-offline", "student");
    let result = await tempo.graph.invoke(
      { messages: [new HumanMessage("unplace the derivative practice set")] },
      config,
    );
    for (let turn = 0; turn < 5 && interruptsOf(result).length > 0; turn += 1)
      result = await tempo.graph.invoke(resume({ type: "accept", args: null }), config);
    const step = result.planSteps.at(-1)! as PlanStep;
    expect(step.outcome?.kind).toBe("not_carried_out");
    expect(step.summary).toBe(`not carried out: ${step.outcome!.reason}`);
    expect(step.outcome!.reason).toMatch(/pending already/);
    expect(result.outcome).toMatchObject({ kind: "failed" });
  });
});

describe("the report reads the outcome, and old steps' summaries", () => {
  const completed = { kind: "completed" as const, reason: "" };
  const writing = { readOnlyPlan: false, runMode: null };
  const none = { applied: 0, declined: 0 };
  const step = (fields: Partial<PlanStep>): PlanStep => ({
    id: "step-1",
    content: "look for the zebra review",
    doneWhen: "found",
    status: "done",
    ...fields,
  });

  test("an outcome says it, whatever the summary's words", () => {
    expect(
      unchangedOutcome(
        completed,
        [step({ summary: WORDS, outcome: { kind: "not_carried_out", reason: REASON } })],
        { readOnlyPlan: true, runMode: null },
        none,
      ),
    ).toEqual({ kind: "failed", reason: `nothing was found: ${REASON}` });
    // A read-only step whose summary happens to begin like the old words, with no outcome kept and a newer shape:
    expect(
      unchangedOutcome(completed, [step({ summary: "3 pending" })], { readOnlyPlan: true, runMode: null }, none),
    ).toBe(completed);
  });

  test("a step saved before the outcome was kept still reads from its summary", () => {
    expect(unchangedOutcome(completed, [step({ summary: `not carried out: ${REASON}` })], writing, none)).toEqual({
      kind: "failed",
      reason: `nothing was changed: ${REASON}`,
    });
  });
});

describe("the report and the terminal say a step not carried out as such", () => {
  const failed = { kind: "failed" as const, reason: `nothing was changed: ${REASON}` };
  const notCarriedOut: PlanStep = {
    id: "step-1",
    content: "Move the zebra review to Friday",
    doneWhen: "it is on Friday",
    status: "done",
    summary: WORDS,
    outcome: { kind: "not_carried_out", reason: REASON },
  };
  const carried: PlanStep = {
    ...notCarriedOut,
    id: "step-2",
    content: "Verify",
    summary: "checked",
    outcome: undefined,
  };

  test("its line says 'not carried out', never 'done', and it is not counted as finished", () => {
    const report = mechanicalSummary({
      goal: "move it",
      planSteps: [notCarriedOut, carried],
      lastError: null,
      outcome: failed,
    });
    expect(report).toContain("Finished 1 of 2 steps:");
    expect(report).toContain(`1. [not carried out] Move the zebra review to Friday — ${WORDS}`);
    expect(report).toContain("2. [done] Verify — checked");
    expect(report).not.toContain("[done] Move the zebra review");
  });

  test("in Chinese, from the words and read back from the English line", () => {
    const report = mechanicalSummary(
      { goal: "挪一下", planSteps: [notCarriedOut], lastError: null, outcome: failed },
      "zh",
    );
    expect(report).toContain("1. [未执行] Move the zebra review to Friday");
    expect(reportLineIn(`1. [not carried out] Move it — ${WORDS}`, "zh")).toBe(`1. [未执行] Move it — ${WORDS}`);
  });

  test("the offline policy's summary (the reason after 'not carried out: ') is not said twice", () => {
    const line = stepReport([{ ...notCarriedOut, summary: `not carried out: ${REASON}` }]);
    expect(line).toBe(`1. [not carried out] Move the zebra review to Friday — ${REASON}`);
  });

  test("a step saved before the outcome was kept, and a step carried out, read as before", () => {
    expect(stepReport([{ ...notCarriedOut, outcome: undefined }])).toBe(
      `1. [done] Move the zebra review to Friday — ${WORDS}`,
    );
    expect(shownStatus(carried)).toBe("done");
    expect(shownStatus({ status: "failed", outcome: notCarriedOut.outcome })).toBe("failed");
  });

  const executionStateOf = (steps: PlanStep[]): ExecutionState => ({
    sessionId: "t1",
    userId: "alice",
    goal: "move it",
    status: "failed",
    planId: "plan-abc",
    steps,
    currentStepId: null,
    observations: [],
    finalAnswer: null,
    outcome: failed,
    lastError: null,
    updatedAt: "2026-01-01T00:00:00.000Z",
    workflowVersion: "graph@1/schedule@1",
    runMode: null,
    optimization: null,
  });

  test("the terminal's /state lists it so", () => {
    const text = renderExecutionState(executionStateOf([notCarriedOut, carried]), "en");
    expect(text).toContain("1. [not carried out] Move the zebra review to Friday");
    expect(text).toContain("2. [done] Verify");
    expect(renderExecutionState(executionStateOf([notCarriedOut]), "zh")).toContain(
      "1. [未执行] Move the zebra review",
    );
  });

  test("/state says 'not carried out' once: the offline policy's summary shows its reason alone", () => {
    const offline: PlanStep = { ...notCarriedOut, summary: `not carried out: ${REASON}` };
    const text = renderExecutionState(executionStateOf([offline]), "en");
    expect(text).toContain(`1. [not carried out] Move the zebra review to Friday\n     ${REASON}`);
    expect(text.match(/not carried out/g)).toHaveLength(1);
    // A summary that is not the outcome's reason is shown whole.
    expect(renderExecutionState(executionStateOf([notCarriedOut]), "en")).toContain(`\n     ${WORDS}`);
  });
});

describe("the contract", () => {
  test("the field is optional in the JSON contract, nullable and listed in the strict schema", () => {
    const parsed = ExecuteDecisionSchema.parse({ action: "next_plan", goal_check: "read" });
    expect(parsed.not_carried_out).toBe("");
    const strict = strictJsonSchema(ExecuteDecisionSchema) as {
      required: string[];
      properties: Record<string, { anyOf?: Array<{ type: string }> }>;
    };
    expect(strict.required).toContain("not_carried_out");
    expect(strict.properties.not_carried_out!.anyOf?.map((each) => each.type)).toEqual(["string", "null"]);
  });

  test("next_plan's argument is read; text a database cannot store is refused", () => {
    const read = decisionFromToolCalls("", [
      { name: "next_plan", args: { goal_check: "looked", not_carried_out: `  ${REASON} ` } },
    ]);
    expect(read).toMatchObject({ ok: true, value: { action: "next_plan", not_carried_out: REASON } });
    const bad = decisionFromToolCalls("", [
      { name: "next_plan", args: { goal_check: "looked", not_carried_out: "a\u0000b" } },
    ]);
    expect(bad).toMatchObject({ ok: false });
    expect(bad.ok ? "" : bad.problem).toMatch(/not_carried_out/);
  });

  test("what next_plan and done tell the user is the reply's text; a speak argument a model adds is still read", () => {
    const fromText = decisionFromToolCalls(" Nothing matched. ", [{ name: "done", args: { goal_check: "looked" } }]);
    expect(fromText).toMatchObject({ ok: true, value: { action: "done", speak: "Nothing matched." } });
    const fromArgument = decisionFromToolCalls("", [
      { name: "next_plan", args: { goal_check: "looked", speak: "On to the next." } },
    ]);
    expect(fromArgument).toMatchObject({ ok: true, value: { action: "next_plan", speak: "On to the next." } });
    const tool = CONTROL_TOOLS.find((control) => control.name === "next_plan")!;
    expect(Object.keys(tool.schema.shape)).toEqual(["goal_check", "not_carried_out"]);
  });
});
